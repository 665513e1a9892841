"""The README's performance figures, each with its floor measured in the same run.

    .venv/bin/python -m benchmarks              # --small: 2-3 minutes on two cores
    .venv/bin/python -m benchmarks --full       # longer runs, a chain of 100,000 records
    .venv/bin/python -m benchmarks --full --invoices 1000000   # the same at scale
    .venv/bin/python -m benchmarks --prune      # retention: a prune of 100,000 records, a verify from its checkpoint

Runs on a throwaway embedded PostgreSQL with the sample ERP (or DATABASE_URL: a superuser URL of an empty
database, or of one these benchmarks installed before). Prints a Markdown table; asserts nothing.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import psycopg  # noqa: E402

from benchmarks import figures  # noqa: E402
from benchmarks.common import SERVICE_ROLE, as_role, database  # noqa: E402
from footnote_pg import errors  # noqa: E402
from footnote_pg.errors import FootnoteError  # noqa: E402


def _positive(kind: type[int] | type[float]) -> Any:
    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
        return value
    return parse


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--small", action="store_true", help="short runs (the default)")
    mode.add_argument("--full", action="store_true", help="long runs and a chain of 100,000 records")
    parser.add_argument("--invoices", type=_positive(int), default=2400, help="size of the sample ERP (default 2,400)")
    parser.add_argument("--rounds", type=_positive(int), help="samples per latency figure")
    parser.add_argument("--seconds", type=_positive(float), help="length of each throughput run")
    parser.add_argument("--records", type=_positive(int), help="chain length for the verification figures")
    parser.add_argument("--prune", action="store_true",
                        help="only the retention figures: a prune of --records records (default 100,000) and a verify "
                             "from its checkpoint (benchmarks/prune_speed.py)")
    args = parser.parse_args()
    if args.prune:
        from benchmarks import prune_speed

        prune_speed.main(["--records", str(args.records or 100_000)])
        return
    sizes = figures.FULL if args.full else figures.SMALL
    sizes = dataclasses.replace(sizes, **{k: v for k, v in (("rounds", args.rounds), ("seconds", args.seconds),
                                                            ("records", args.records)) if v is not None})
    started = time.monotonic()

    def progress(what: str) -> None:
        print(f"[{time.monotonic() - started:5.0f} s] {what}", file=sys.stderr, flush=True)

    progress(f"database with {args.invoices:,} invoices")
    try:
        with database(invoices=args.invoices, url=os.environ.get("DATABASE_URL")) as url:
            table = figures.build(url, as_role(url, SERVICE_ROLE), sizes, progress)
            with psycopg.connect(url) as conn:
                version = conn.execute("SHOW server_version").fetchone()[0]  # type: ignore[index]
    except (psycopg.Error, FootnoteError) as exc:
        # no database, or not one these benchmarks can use (not a superuser's, not empty nor theirs)
        mistake = exc if isinstance(exc, FootnoteError) else errors.from_psycopg(exc)
        if mistake is None:
            raise
        parser.exit(mistake.exit_code, f"python -m benchmarks: {mistake.message}\n")
    except KeyboardInterrupt:
        parser.exit(130, "python -m benchmarks: interrupted\n")
    elapsed = time.monotonic() - started
    print(f"python -m benchmarks {'--full' if args.full else '--small'}: PostgreSQL {version}, "
          f"{args.invoices:,} invoices, {os.cpu_count()} CPUs, {elapsed:.0f} s\n")
    print(figures.markdown(table))


if __name__ == "__main__":
    main()
