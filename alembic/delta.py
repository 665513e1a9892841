"""Write the frozen SQL of a delta revision: ``python alembic/delta.py 0002_statements``.

Compares the statements of sql/ with those the earlier revisions froze
(``alembic/versions/*.upgrade.sql``, in revision order) and writes
``alembic/versions/<revision>.upgrade.sql`` and ``.downgrade.sql``:

* a function that is new, or whose text changed, is dropped (old signature) and
  created again, so a changed signature or return type needs no hand work;
* a function that is gone is dropped (the downgrade creates it again);
* any other new statement (table, type, view, data) is copied; a view whose
  statement changed is dropped and created again; a table or type whose
  statement changed is refused: write that ALTER by hand (a column
  added so, ``ALTER TABLE t ADD COLUMN ...`` in a frozen revision, counts as part
  of the table from then on: sql/ may write it in the CREATE TABLE);
* a setting reworded (``UPDATE footnote.settings SET description = ... WHERE
  key = ...``) is given its earlier words back on the way down;
* reference data (queries, operations and their arguments, the lexicon) whose
  statements were changed or removed is reloaded: its rows deleted and every
  statement of the target that fills it run again, so a downgrade gives the
  earlier rows back exactly;
* a new role (a ``DO`` block of sql/00_roles.sql that creates one) comes first,
  run by the installer, and the way down drops it last (kept, with a notice,
  while another database still uses it);
* the grants of sql/90_grants.sql are applied again at the end.

Run it once, when creating the revision; review the result; after that the
frozen files never change. The drift test proves the outcome equals sql/.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from footnote_pg.sqlfiles import schema_files, split_statements  # noqa: E402

_FUNCTION = re.compile(r"^CREATE (?:OR REPLACE )?FUNCTION\s+([\w.]+)\s*\((.*?)\)\s*(?:RETURNS|LANGUAGE)", re.S)
_DROP = re.compile(r"^DROP (FUNCTION|TABLE|TYPE|VIEW|TRIGGER)\s+([\w.]+(?:\(.*?\))?)(?:\s+ON\s+[\w.]+)?;?$", re.S)
_ADD_COLUMN = re.compile(r"ALTER TABLE\s+([\w.]+)\s+ADD COLUMN\s+([^;]+?);?", re.S)
_OBJECT = re.compile(
    r"^CREATE (?:UNLOGGED )?(TABLE|TYPE|VIEW|INDEX|UNIQUE INDEX|TRIGGER|CONSTRAINT TRIGGER|SCHEMA)\s+([\w.]+)", re.S)


def _code(statement: str) -> str:
    """The statement without its leading comment lines."""
    return re.sub(r"^(\s*--[^\n]*\n)+", "", statement).strip()


def _signature(args: str) -> str:
    """Argument types of a parameter list: 'a text, b jsonb DEFAULT NULL' -> 'text, jsonb'."""
    types = []
    for part in re.split(r",(?![^()]*\))", args):
        part = re.split(r"\s+DEFAULT\s+|\s*=\s*", part.strip(), maxsplit=1, flags=re.I)[0]
        if not part or part.upper().startswith("OUT "):
            continue
        words = part.split()
        if words[0].upper() in ("IN", "INOUT", "VARIADIC"):
            words = words[1:]
        types.append(" ".join(words[1:]) if len(words) > 1 else words[0])
    return ", ".join(types)


def _index(statements: list[str]) -> tuple[dict[str, str], dict[str, str], list[str]]:
    """(functions by name(signature), other objects by kind and name, everything else) of a script."""
    functions: dict[str, str] = {}
    objects: dict[str, str] = {}
    rest: list[str] = []
    for st in statements:
        code = _code(st)
        if m := _DROP.match(code):        # an earlier delta's drop: the object is gone
            if m[1] == "FUNCTION":
                functions.pop(m[2], None)
            elif m[1] == "TRIGGER":
                objects.pop(f"TRIGGER {m[2]}", None)
                objects.pop(f"CONSTRAINT TRIGGER {m[2]}", None)
            else:
                objects.pop(f"{m[1]} {m[2]}", None)
        elif m := _FUNCTION.match(code):  # an earlier delta's CREATE OR REPLACE is the same function
            functions[f"{m[1]}({_signature(m[2])})"] = re.sub(r"\bCREATE OR REPLACE FUNCTION\b", "CREATE FUNCTION",
                                                              st, count=1)
        elif m := _OBJECT.match(code):
            objects[f"{m[1]} {m[2]}"] = st
        elif (m := _ADD_COLUMN.fullmatch(code)) and f"TABLE {m[1]}" in objects:
            # a column an earlier delta added by hand: from here on part of the table (not a statement to repeat)
            table = objects[f"TABLE {m[1]}"]
            close = table.rindex(")")
            objects[f"TABLE {m[1]}"] = f"{table[:close].rstrip()},\n    {m[2]}\n{table[close:]}"
        elif m := re.fullmatch(r"DELETE\s+FROM\s+([\w.]+);?", code, re.I):  # an earlier reload: its rows go
            rest = [r for r in rest if _data_table(r) != m[1]]
        else:
            rest.append(st)
    return functions, objects, rest


def _undo_description(code: str, target: list[str]) -> str | None:
    """For ``UPDATE footnote.settings SET description = ... WHERE key = 'k'`` (a setting reworded; its value, which
    a DBA may have set, untouched): the UPDATE that gives k the description the target's statements give it (the
    last of its INSERT or an UPDATE like this one), or None when the statement is not of that form."""
    m = re.fullmatch(r"UPDATE\s+footnote\.settings\s+SET\s+description\s*=.*?WHERE\s+key\s*=\s*'(\w+)';?", code,
                     re.S | re.I)
    if not m:
        return None
    key, words = m[1], None
    literal = r"'(?:[^']|'')*'(?:\s*'(?:[^']|'')*')*"  # a string literal, perhaps continued on further lines
    for st in target:
        c = _code(st)
        if (found := re.search(rf"\(\s*'{key}',\s*(?:NULL|{literal}),\s*({literal})\s*\)", c)) and \
                c.upper().startswith("INSERT"):
            words = found[1]
        elif (found := re.fullmatch(rf"UPDATE\s+footnote\.settings\s+SET\s+description\s*=\s*({literal})\s*"
                                     rf"WHERE\s+key\s*=\s*'{key}';?", c, re.S | re.I)):
            words = found[1]
    if words is None:
        raise SystemExit(f"setting {key} is reworded but the target never describes it: write that change by hand")
    return f"UPDATE footnote.settings SET description = {words} WHERE key = '{key}';\n"  # noqa: S608 (our own SQL)


def _shape(statement: str) -> str:
    """A statement without its comments and with its whitespace collapsed: two CREATE TABLEs of one shape."""
    code = re.sub(r"--[^\n]*", "", _code(statement))
    return re.sub(r"\s*([(),])\s*", r"\1", re.sub(r"\s+", " ", code)).strip()


def _columns(statement: str) -> list[str]:
    """The lines of a CREATE TABLE between its parentheses, each without its trailing comma and comment."""
    code = re.sub(r"--[^\n]*", "", _code(statement))
    body = code[code.index("(") + 1:code.rindex(")")]
    return [re.sub(r"\s+", " ", line).strip().rstrip(",") for line in body.splitlines() if line.strip()]


def _column_change(old: str, new: str) -> tuple[str, list[str]] | None:
    """("ADD", column definitions) when new is old with columns appended, ("DROP", column names) when old is new
    with columns appended, None for any other change of a table."""
    before, after = _columns(old), _columns(new)
    if len(after) > len(before) and after[:len(before)] == before:
        return "ADD", after[len(before):]
    if len(before) > len(after) and before[:len(after)] == after:
        return "DROP", [c.split()[0] for c in reversed(before[len(after):])]
    return None


def _header(statement: str) -> str:
    """A function's name, parameters and return type: when they stay, CREATE OR REPLACE keeps what depends on it."""
    code = _code(statement)
    return code[:re.search(r"\bLANGUAGE\b", code).start()].replace("CREATE OR REPLACE", "CREATE").strip()  # type: ignore[union-attr]


def _frozen_files(upto: str) -> list[Path]:
    """The frozen upgrade files of the revisions before upto, in order."""
    versions = ROOT / "alembic" / "versions"
    return [p for p in sorted(versions.glob("*.upgrade.sql")) if p.name.split(".")[0] < upto]


def _grants(statements: list[str]) -> list[str]:
    """The GRANT and REVOKE statements of a script, and the blocks that give each object its owner, in order
    (applying them again changes nothing)."""
    return [s for s in statements if _code(s).startswith(("GRANT ", "REVOKE ", "DO $owners$", "DO $computations$"))]


def _owners_objects(grants: list[str]) -> set[str]:
    """The functions (readers) and relations (data) the owners block of sql/90_grants.sql gives to footnote_owner,
    as footnote.<name>; every footnote._op_* and everything in footnote_src is footnote_owner's too."""
    names: set[str] = set()
    for g in grants:
        if _code(g).startswith("DO $owners$"):
            for m in re.finditer(r"(?:readers|data)\s+constant\s+text\[\]\s*:=\s*ARRAY\[(.*?)\]", g, re.S):
                names |= {f"footnote.{n}" for n in re.findall(r"'(\w+)'", m[1])}
    return names


def _owners(key: str, theirs: set[str]) -> bool:
    """Whether footnote_owner owns the object of a key ("VIEW footnote_src.x", "footnote.evidence_rows(uuid, ...)")."""
    kind, _, name = key.split("(", 1)[0].rpartition(" ")
    if kind not in ("", "VIEW", "FUNCTION"):  # a table is created by footnote_ledger, then given to its owner
        return False
    return name.startswith(("footnote_src.", "footnote._op_")) or name in theirs


# Tables of reference data a revision may reload, each with the tables that reference it (emptied first).
RELOADABLE = {"footnote.queries": ("footnote.evidence_queries",), "footnote.evidence_queries": (),
              "footnote.operations": ("footnote.operation_arguments",), "footnote.operation_arguments": (),
              "footnote.lexicon": ()}
_DATA = re.compile(r"^(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([\w.]+)", re.I)


def _data_table(statement: str) -> str | None:
    m = _DATA.match(_code(statement))
    return m[1] if m else None


def delta(old: list[str], new: list[str], label: str, grants: list[str] | None = None,
          old_grants: list[str] | None = None) -> str:
    """The SQL that turns the objects of old into those of new; grants: new's grants (default: all of new's);
    old_grants: those in force before (default: all of old's); what they grant and new's do not is revoked."""
    old_f, old_o, old_rest = _index(old)
    new_f, new_o, new_rest = _index(new)
    # from 0015 on schema footnote belongs to footnote_ledger, which may drop and create anything in it; the
    # owners block of sql/90_grants.sql then gives each object its owner
    role = "footnote_ledger" if label[:4] > "0015" else "footnote_owner"
    out = [f"-- footnote-pg {label}: generated by alembic/delta.py from sql/, reviewed, then frozen.\n"]
    if role == "footnote_owner":
        out.append(f"SET ROLE {role};\n")
    target_grants = _grants(new) if grants is None else grants
    kept = {_code(g) for g in target_grants}
    for g in _grants(old) if old_grants is None else old_grants:  # taken back first, while their objects exist
        code = _code(g)
        if code.startswith("GRANT ") and code not in kept and "footnote_ledger" not in code:
            out.append(re.sub(r"\bTO\b(?!.*\bTO\b)", "FROM", re.sub(r"^GRANT\b", "REVOKE", code), flags=re.S)
                       .rstrip(";") + ";\n")
    if role == "footnote_ledger":  # the installer takes grants back (some objects belong to footnote_owner)
        out.append(f"SET ROLE {role};\n")
    remade = []  # a view whose statement changed is dropped and created again (nothing of ours depends on one)
    columns: dict[str, tuple[str, list[str]]] = {}  # a table that gained (or, on the way down, lost) last columns
    for key, st in old_o.items():
        if key in new_o and _shape(new_o[key]) != _shape(st):
            if key.startswith("TABLE ") and (change := _column_change(st, new_o[key])):
                columns[key.split(" ", 1)[1]] = change
                continue
            if not key.startswith("VIEW "):
                raise SystemExit(f"{key} changed: write its ALTER by hand")
            remade.append(key)
    changed = [k for k in old_f if k not in new_f or _code(new_f[k]) != _code(old_f[k])]
    # 0016 to 0019: footnote_ledger dropped, not replaced, a function footnote_owner owns (the owners block gave
    # it back)
    given_back = _owners_objects(target_grants) if role == "footnote_ledger" and label[:4] < "0020" else set()
    replaced = {k for k in changed if k in new_f and _header(new_f[k]) == _header(old_f[k])
                and not (k.startswith("footnote._op_") or k.split("(", 1)[0] in given_back)}
    dropped = [k for k in changed if k not in replaced]
    # from 0020 on what footnote_owner owns (the source views, the computations, the readers and the views of
    # the owners block) is changed as footnote_owner: its drops before everything else, its creates after
    theirs = _owners_objects(target_grants) if role == "footnote_ledger" and label[:4] >= "0020" else None
    main = out
    first: list[str] = []
    last: list[str] = []

    def to(key: str, dropping: bool) -> list[str]:
        if theirs is None or not _owners(key, theirs):
            return main
        return first if dropping else last

    for key, st in reversed(list(old_o.items())):  # triggers that go, before the functions they call
        kind, name = key.rsplit(" ", 1)
        if key not in new_o and kind.endswith("TRIGGER"):
            table = re.search(r"\bON\s+([\w.]+)", _code(st))[1]  # type: ignore[index]
            out.append(f"DROP TRIGGER {name} ON {table};\n")
    for key in remade:
        to(key, True).append(f"DROP {key};\n")
    for key in dropped:
        to(key, True).append(f"DROP FUNCTION {key};\n")
    for key in reversed([k for k in old_o if k not in new_o]):
        kind, name = key.rsplit(" ", 1)
        if kind in ("TABLE", "TYPE", "VIEW"):
            to(key, True).append(f"DROP {kind} {name};\n")
    added_objects = [st for key, st in new_o.items() if key not in old_o or key in remade]
    old_rest_code = {_code(s) for s in old_rest}
    grants = _grants(new) if grants is None else grants
    new_rest_code = {_code(s) for s in new_rest}
    reload: set[str] = set()
    gone = {key.split(" ", 1)[1] for key in old_o if key.startswith("TABLE ") and key not in new_o}
    for st in old_rest:                   # data the target no longer holds: reload its table
        table = _data_table(st)
        if table and table not in gone and _code(st) not in new_rest_code:
            if table == "footnote.settings" and _code(st).upper().startswith("INSERT"):
                # a setting a later revision added: the way back removes it (what a DBA set goes with it)
                keys = re.findall(r"^\s*\('(\w+)',", _code(st), re.M)
                out.append("DELETE FROM footnote.settings WHERE key IN ("  # noqa: S608 (keys from our own SQL)
                           + ", ".join(f"'{k}'" for k in keys) + ");\n")
                continue
            if table == "footnote.settings" and (undo := _undo_description(_code(st), new_rest)):
                out.append(undo)  # a later revision reworded a setting: the way back gives the words back
                continue
            if table not in RELOADABLE:
                raise SystemExit(f"data of {table} changed: write that change by hand")
            reload |= {table, *RELOADABLE[table]}
    emptied = [t for t in RELOADABLE if t in reload]
    for table in sorted(emptied, key=lambda t: any(t in RELOADABLE[o] for o in emptied), reverse=True):
        out.append(f"DELETE FROM {table};\n")  # noqa: S608 (names from RELOADABLE, not input)
    other = [st for st in new_rest if (_code(st) not in old_rest_code or _data_table(st) in reload)
             and not _code(st).startswith(("SET ROLE", "RESET ROLE", "GRANT ", "REVOKE ", "DO $owners$",
                                           "DO $computations$"))]
    # a new role (a DO block of sql/00_roles.sql) is created by the installer before anything else: no role of
    # ours may create roles
    roles = [st for st in other if _code(st).startswith("DO $") and "CREATE ROLE" in _code(st)]
    other = [st for st in other if st not in roles]
    out[1:1] = [st + "\n" for st in roles]
    # types and tables first (functions may name them), then data, then functions, then triggers and the views
    # that call a function of this delta; a view that calls none comes before the functions (a SQL function's
    # body may read it)
    created = {k.split("(", 1)[0]: k for k in new_f if k in replaced or k in dropped or k not in old_f}

    # views that call such a function created in the same part (footnote_ledger's or footnote_owner's), and views
    # that read one of those
    late_views: set[str] = set()
    while True:
        more = {m[2] for st in added_objects if (m := _OBJECT.match(_code(st))) and m[1] == "VIEW"
                and m[2] not in late_views
                and (any(re.search(rf"\b{re.escape(f)}\s*\(", _code(st)) and to(k, False) is to(f"VIEW {m[2]}", False)
                         for f, k in created.items())
                     or any(re.search(rf"\b{re.escape(v)}\b", _code(st)) for v in late_views))}
        if not more:
            break
        late_views |= more

    def late(st: str) -> bool:
        code = _code(st)
        if code.startswith(("CREATE TRIGGER", "CREATE CONSTRAINT TRIGGER")):
            return True
        return (m := _OBJECT.match(code)) is not None and m[1] == "VIEW" and m[2] in late_views

    def key_of(st: str) -> str:
        m = _OBJECT.match(_code(st)) or re.match(r"^COMMENT ON (\w+) ([\w.]+)", _code(st))
        return f"{m[1]} {m[2]}" if m else ""

    for st in [s for s in added_objects if not late(s)] + other:
        to(key_of(st), False).append(st + "\n")
    for key, st in new_f.items():
        if key in replaced:
            to(key, False).append(re.sub(r"\bCREATE FUNCTION\b", "CREATE OR REPLACE FUNCTION", st, count=1) + "\n")
        elif key in dropped or key not in old_f:
            to(key, False).append(st + "\n")
    for st in [s for s in added_objects if late(s)]:
        to(key_of(st), False).append(st + "\n")
    # columns are added first (what is created reads them) and dropped last, by the table's owner
    head = out.index(f"SET ROLE {role};\n") + 1 if f"SET ROLE {role};\n" in out else len(out)
    for table, (verb, cols) in columns.items():
        owners = theirs is not None and table in theirs
        alters = [f"ALTER TABLE {table} {verb} COLUMN {c};\n" for c in cols]
        if verb == "ADD":
            if owners:
                first[:0] = alters
            else:
                out[head:head] = alters
        else:
            (last if owners else main).extend(alters)
    if first or last:  # footnote_owner's part: CREATE on the schema for it meanwhile (the owners block takes it back)
        head = out.index(f"SET ROLE {role};\n")
        section = ["-- what footnote_owner owns is changed as footnote_owner\n",
                   "DO $owner_section$ BEGIN GRANT CREATE ON SCHEMA footnote TO footnote_owner; END $owner_section$;\n"]
        out[head:head] = [*section, "SET ROLE footnote_owner;\n", *first, "RESET ROLE;\n"] if first else []
        if last:
            out += ["RESET ROLE;\n", *([] if first else section), "SET ROLE footnote_owner;\n", *last]
    out.append("RESET ROLE;\n")  # owners and privileges are set by the installer (sql/90_grants.sql)
    out += [st + "\n" for st in grants]
    out.append("RESET ROLE;\n")  # what follows (the installer's own statements) is told apart by it
    for st in old_rest:  # a role the target does not create goes last, unless another database still uses it
        code = _code(st)
        if code.startswith("DO $") and code not in new_rest_code and (m := re.search(r"CREATE ROLE (\w+)", code)):
            out.append(f"DO $drop_role$\nBEGIN\n    DROP ROLE IF EXISTS {m[1]};\n"
                       "EXCEPTION WHEN dependent_objects_still_exist THEN\n"
                       f"    RAISE NOTICE 'role {m[1]} is still used in another database; kept';\nEND\n$drop_role$;\n")
    return "\n".join(out)


def _installer_part(statements: list[str]) -> tuple[list[str], list[str]]:
    """(statements run as footnote_owner, statements after the last RESET ROLE: run as the installer)."""
    ends = [i for i, st in enumerate(statements) if _code(st).startswith("RESET ROLE")]
    cut = ends[-1] + 1 if ends else len(statements)
    return statements[:cut], statements[cut:]


def _undo_installer(statements: list[str]) -> list[str]:
    """Drops for what installer statements create (event triggers, then functions)."""
    text = "\n".join(statements)
    return ([f"DROP EVENT TRIGGER IF EXISTS {name};\n" for name in re.findall(r"CREATE EVENT TRIGGER (\w+)", text)]
            + [f"DROP FUNCTION IF EXISTS {name};\n" for name in re.findall(r"CREATE FUNCTION ([\w.]+\([^)]*\))", text)]
            + [f"DROP SCHEMA IF EXISTS {name};\n" for name in re.findall(r"CREATE SCHEMA (\w+)", text)])


def main() -> None:
    revision = sys.argv[1]
    # each frozen revision ends with its own installer part (if any): split them one by one, so a revision whose
    # installer statements came earlier (0004's event trigger) does not count as adding them again
    parts = [_installer_part(split_statements(path.read_text(encoding="utf-8"))) for path in _frozen_files(revision)]
    old = [st for owner, _ in parts for st in owner]
    old_installer = [st for _, installer in parts for st in installer]
    new, new_installer = _installer_part(
        [st for path in schema_files() for st in split_statements(path.read_text(encoding="utf-8"))])
    added = [st for st in new_installer if _code(st) not in {_code(o) for o in old_installer}]
    versions = ROOT / "alembic" / "versions"
    last = _frozen_files(revision)[-1]      # each revision ends with the whole grants script of its time
    last_grants = _grants(_installer_part(split_statements(last.read_text(encoding="utf-8")))[0])
    up = delta(old, new, f"{revision} upgrade", old_grants=last_grants) + "".join(st + "\n\n" for st in added)
    (versions / f"{revision}.upgrade.sql").write_text(up, encoding="utf-8")
    down = delta(new, old, f"{revision} downgrade", last_grants)
    role = re.search(r"^SET ROLE \w+;\n", down, re.M)
    assert role is not None
    header, body = down[:role.start()], down[role.end():]
    down = header + "\n".join(_undo_installer(added)) + "\n" + role[0] + body
    (versions / f"{revision}.downgrade.sql").write_text(down, encoding="utf-8")
    print(f"wrote alembic/versions/{revision}.upgrade.sql and .downgrade.sql")


if __name__ == "__main__":
    main()
