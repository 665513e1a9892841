"""Freeze sql/ into a revision: ``python alembic/freeze.py 0001_core``.

Writes ``alembic/versions/<revision>.upgrade.sql``: the schema files of sql/ in
apply order, each behind a banner naming it. Run it only when creating the
revision; after that the frozen file never changes (a later change to sql/
gets a new revision that applies the delta).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from footnote_pg.sqlfiles import schema_files  # noqa: E402


def frozen_text() -> str:
    parts = []
    for path in schema_files():
        parts.append(f"-- ==== sql/{path.name} " + "=" * max(0, 60 - len(path.name)) + "\n\n")
        parts.append(path.read_text(encoding="utf-8").rstrip() + "\n\n")
    return "".join(parts)


if __name__ == "__main__":
    revision = sys.argv[1]
    target = ROOT / "alembic" / "versions" / f"{revision}.upgrade.sql"
    target.write_text(frozen_text(), encoding="utf-8")
    print(f"wrote {target.relative_to(ROOT)}")
