"""Progress on stderr for steps that can take a while (sample generation, export, verification): a bar when the
total is known, a counter or a spinner with the elapsed time when not; nothing at all when stderr is not a
terminal, so scripts and logs see only the result."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

Advance = Callable[[int], None]


def _nothing(_n: int = 1) -> None:
    return None


@contextmanager
def progress(description: str, total: int | None = None, *, console: Console | None = None) -> Iterator[Advance]:
    """``with progress("verifying", total=n) as advance: ... advance(1)``; shown only on a terminal, and gone
    (transient) once the step ends."""
    console = console or Console(stderr=True)
    if not console.is_terminal:
        yield _nothing
        return
    columns = [SpinnerColumn(), TextColumn("{task.description}")]
    columns += [BarColumn(), MofNCompleteColumn()] if total else [TextColumn("{task.completed:,}")]
    with Progress(*columns, TimeElapsedColumn(), console=console, transient=True) as bar:
        task = bar.add_task(description, total=total)

        def advance(n: int = 1) -> None:
            bar.advance(task, n)

        yield advance
