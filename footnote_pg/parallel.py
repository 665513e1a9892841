"""The content check on every core: worker processes do the half of the fast check that needs no walk.

A record's fast check (:func:`chainwalk.fast_row`, :func:`chainwalk.fast_line`) has a costly half that needs the
record alone (parse its JSON, write it canonically again, compare, SHA-256: :func:`chainwalk.row_object`,
:func:`chainwalk.line_facts`) and a cheap half that needs the walk (its ``seq``, ``prev_hash`` and time against
the record before). :func:`checked` sends batches of records to worker processes for the first half, a few
batches ahead of the walk, and hands every record back in order with what its worker found. The walk passes a
record on those facts when its own half agrees; in every other case (the facts are None: not passed, not
computed, a worker lost) it runs the serial code on the record, the fast check and then the reference. So the
workers only save time: every verdict is the serial code's, named at the same record.

Workers start for a walk of at least ``THRESHOLD`` records (a short one never pays for them) where there are
cores for them (:func:`workers`: none from a database server on the same machine of two cores, where the server's
backend and the walk fill them, as measured), and until they are ready the walk checks the records itself.
They are spawned, not forked: the walk's process holds a database connection and may run threads (a progress
bar). So, as with any spawned process, a script that verifies a long chain needs the ``if __name__ ==
"__main__":`` guard (a worker imports the script again; a walk started there gets no workers of its own).
Workers leave when the walk ends, however it ends, once each has finished the batch it holds.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any, TypeVar

from footnote_pg import chainwalk, provenance

T = TypeVar("T")
R = TypeVar("R")

THRESHOLD = 8192  # records a walk needs to be worth starting workers (about a second's work)
AHEAD = 2  # batches in flight per worker
TASK = 1 << 21  # bytes in a worker's batch of records (of sealed text, from the database)
WORKERS: int | None = None  # how many; None: one per core
CHECK_WHILE_STARTING = True  # the walk checks records itself until the workers are ready (tests wait for them)


def workers(spare: int = 0) -> int:
    """Worker processes for a long walk: ``WORKERS``, else one per core this process may run on but ``spare``
    (the one a database server on this machine works on), and none unless that makes two (a worker alone only
    adds its cost to the walk's); none in a worker (a script that starts a walk when it is imported)."""
    if multiprocessing.parent_process() is not None:
        return 0
    if WORKERS is not None:
        return WORKERS
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return cores - spare if cores - spare >= 2 else 0


def _quiet() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the walk's: it stops the workers


def _ready() -> None:
    """A first task: done when a worker has started and imported this module."""


def _run(check: Callable[[T], R | None], batch: list[T]) -> list[R | None]:
    found: list[R | None] = []
    for item in batch:
        try:
            found.append(check(item))
        except Exception:  # noqa: BLE001 - the walk runs the serial code on this record, which meets it again
            found.append(None)
    return found


def _results(batch: list[T], future: cf.Future[list[R | None]]) -> Iterator[tuple[T, R | None]]:
    try:
        found = future.result()
    except Exception:  # noqa: BLE001 - a worker lost (BrokenProcessPool): the walk checks the batch itself
        found = [None] * len(batch)
    return zip(batch, found, strict=True)


def _batches(items: Iterable[T], weight: Callable[[T], int]) -> Iterator[list[T]]:
    """``items`` in lists that weigh about ``TASK`` (a worker's task)."""
    batch: list[T] = []
    total = 0
    for item in items:
        batch.append(item)
        total += weight(item)
        if total >= TASK:
            yield batch
            batch, total = [], 0
    if batch:
        yield batch


def checked(items: Iterable[T], check: Callable[[T], R | None] | None, expected: int,
            weight: Callable[[T], int], spare: int = 0) -> Generator[tuple[T, R | None], None, None]:
    """Every item in order, with ``check(item)`` as a worker computed it, or None (the walk runs the serial code
    on it). ``check`` is a module-level function (workers import it); None, fewer than ``THRESHOLD`` items
    ``expected`` (a guess: only the speed depends on it) or no :func:`workers` (``spare``): no workers, and the
    items go by one by one as they come. Workers get them in batches of about ``TASK`` bytes (``weight(item)``).
    Close the iterator when the walk stops early: the workers are stopped and ``items`` closed."""
    limit = workers(spare) if check is not None and expected >= THRESHOLD else 0
    pool: cf.ProcessPoolExecutor | None = None
    pending: deque[tuple[list[T], cf.Future[list[R | None]]]] = deque()
    try:
        if not limit or check is None:
            for item in items:
                yield item, None
            return
        pool = cf.ProcessPoolExecutor(limit, mp_context=multiprocessing.get_context("spawn"), initializer=_quiet)
        starting = [pool.submit(_ready) for _ in range(limit)]
        for batch in _batches(items, weight):
            future: cf.Future[list[R | None]] | None = None
            if not CHECK_WHILE_STARTING or all(f.done() for f in starting):
                with contextlib.suppress(RuntimeError):  # a broken pool: the walk checks the rest itself
                    future = pool.submit(_run, check, batch)
            if future is None:
                while pending:
                    yield from _results(*pending.popleft())
                yield from ((item, None) for item in batch)
                continue
            pending.append((batch, future))
            while pending and (len(pending) > limit * AHEAD or pending[0][1].done()):
                yield from _results(*pending.popleft())
        while pending:
            yield from _results(*pending.popleft())
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        close = getattr(items, "close", None)
        if close is not None:
            close()


# -- what workers check -------------------------------------------------------------------------------------

def row_facts(row: tuple[Any, ...]) -> tuple[str, str, tuple[Any, ...] | None] | None:
    """For a ``ledger_rows`` tuple that passes :func:`chainwalk.row_object`: its ``recorded_at`` and what
    :class:`provenance.Cited` keeps of it (the id and the calls it cites), else None."""
    obj = chainwalk.row_object(row)
    if obj is None:
        return None
    one = provenance.Cited()
    one.add(obj)
    (record_id,) = one.sealed
    return obj["recorded_at"], record_id, one.records[0] if one.records else None

