"""The ``footnote-pg`` command line.

Exit codes: 0 ok; 1 the check failed (a broken chain, a refused or unverified
answer); 2 bad usage, bad input or no database; 130 Ctrl-C in the middle of a
command ("interrupted"; a server it stops says "stopped" and exits 0). A user's
mistake prints one line, never a traceback.
"""

from __future__ import annotations

import errno
import functools
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, TypeVar

try:  # a Ctrl-C while the command line is still loading (seconds on a busy machine) ends it like one later on
    import typer
    import typer.core
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from footnote_pg import errors
    from footnote_pg.progress import progress
except KeyboardInterrupt:
    sys.stderr.write("interrupted\n")
    sys.exit(130)

out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


class Commands(typer.core.TyperGroup):
    """The command group: a usage mistake (an unknown option, a missing argument, a value of the wrong type) is
    one line on stderr and exit 2, like every other error."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, windows_expand_args: bool = True, **extra: Any) -> Any:
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False,
                                windows_expand_args=windows_expand_args, **extra)
        except typer.TyperException as exc:
            message = exc.format_message()
            if "\n" in message:  # no arguments at all: the help text
                err.print(message, highlight=False, markup=False)
            else:
                context = getattr(exc, "ctx", None)
                where = f" (see {context.command_path} --help)" if context is not None else ""
                err.print(f"error: {message}{where}", highlight=False, markup=False)
            code = exc.exit_code
        except typer.Abort:
            err.print("aborted", highlight=False)
            code = 1
        if code == INTERRUPTED:  # typer's code for a Ctrl-C (or SIGTERM) met while parsing or running: one line
            interrupted()
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


INTERRUPTED = 130  # the exit code of a command stopped by Ctrl-C (128 + SIGINT), as a shell reports it


def interrupted() -> None:
    err.print("interrupted", highlight=False, markup=False)


app = typer.Typer(
    name="footnote-pg",
    cls=Commands,
    help="Answers about ERP data whose every number is a citation, checked and recorded in PostgreSQL.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        from footnote_pg import __version__

        out.print(f"footnote-pg {__version__}")
        raise typer.Exit(0)


@app.callback()
def _options(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Answers about ERP data whose every number is a citation, checked and recorded in PostgreSQL."""

F = TypeVar("F", bound=Callable[..., Any])
SEQ_MAX = 2**63 - 1  # a ledger sequence number is a bigint

def _checked_url(value: str | None) -> str | None:
    """A URL libpq cannot parse is a usage error naming the option (without echoing a password)."""
    if value is None:
        return None
    from footnote_pg.client import check_database_url

    try:
        check_database_url(value)
    except errors.InvalidArgument as exc:
        raise typer.BadParameter(str(exc).removeprefix("invalid argument database_url: ")) from None
    return value


DatabaseUrl = Annotated[
    str | None,
    typer.Option("--database-url", envvar="DATABASE_URL", show_envvar=True, metavar="URL", callback=_checked_url,
                 help="PostgreSQL URL; without it, an embedded PostgreSQL with the sample ERP."),
]


def friendly(func: F) -> F:
    """Turn footnote-pg errors into one line on stderr and the error's exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except errors.FootnoteError as exc:
            err.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False, markup=True)
            raise typer.Exit(exc.exit_code) from None
        except OSError as exc:  # a file or directory that is not there, a directory given for a file, a busy port
            where = f": {exc.filename}" if exc.filename else ""
            hint = " (the port is taken: choose another with --port)" if exc.errno == errno.EADDRINUSE else ""
            err.print(f"[red]error:[/red] {escape(f'{exc.strerror or exc}{where}{hint}')}", highlight=False)
            raise typer.Exit(2) from None
        except Exception as exc:
            mapped = errors.from_psycopg(exc)
            if mapped is None:
                raise
            err.print(f"[red]error:[/red] {escape(str(mapped))}", highlight=False)
            raise typer.Exit(mapped.exit_code) from None

    return wrapper  # type: ignore[return-value]


def _url(database_url: str | None) -> str:
    from footnote_pg.client import resolve_database_url, uses_embedded_sample

    if uses_embedded_sample(database_url):
        err.print("note: no --database-url, DATABASE_URL or PG* environment: using the embedded sample ERP",
                  highlight=False)
    return resolve_database_url(database_url)


def _stop_on_sigterm() -> None:
    """SIGTERM stops a long-running command like Ctrl-C does (so the embedded PostgreSQL is stopped too)."""
    import signal

    def stop(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)


@app.command()
@friendly
def install(
    database_url: DatabaseUrl = None,
    sql: Annotated[bool, typer.Option(
        "--sql", help="Print the SQL script for review; do not connect (a fresh install: today's schema as one "
                      "script, with the stamp of its revision).")] = False,
    from_revision: Annotated[str | None, typer.Option(
        "--from", metavar="REVISION",
        help="With --sql: only the upgrade from this installed revision (for change control).")] = None,
    stamp: Annotated[str | None, typer.Option(
        "--stamp", metavar="REVISION",
        help="Record REVISION as installed without running anything (a schema installed from the SQL script).")
    ] = None,
    sample: Annotated[
        bool,
        typer.Option("--sample", help="Also load the sample ERP and map the source views onto it."),
    ] = False,
    invoices: Annotated[int, typer.Option(
        help="Invoices in the sample ERP (with --sample).", min=1, max=20_000_000, metavar="N")] = 2400,
    erp_mapping: Annotated[str | None, typer.Option(
        "--mapping", metavar="ERP",
        help="Then map the source views onto this ERP's own tables in the same database (tryton).")] = None,
    ui_url: Annotated[str | None, typer.Option(
        "--ui-url", metavar="URL",
        help="With --mapping: link each record to its page in the ERP's UI, e.g. https://tryton.example/#tryton "
             "(Tryton's web client and database).")] = None,
) -> None:
    """Install or upgrade footnote-pg in a database (a no-op when it is up to date)."""
    from footnote_pg import install as installer

    if from_revision is not None and not sql:
        raise errors.InvalidArgument("invalid argument from: --from REVISION goes with --sql (print the upgrade "
                                     "script); install itself upgrades from whatever revision is installed")
    if ui_url is not None and erp_mapping is None:
        raise errors.InvalidArgument("invalid argument ui-url: --ui-url goes with --mapping (it names that ERP's "
                                     "own screens)", {"argument": "ui-url"})
    if ui_url is not None:
        installer.check_ui_url(ui_url)  # before anything is installed
    if erp_mapping is not None:
        mapping_file = installer.mapping_path(erp_mapping)
        if sample or stamp is not None:
            raise errors.InvalidArgument("invalid argument mapping: --mapping maps an ERP's own tables; it goes "
                                         "with neither --sample (the sample ERP has its own) nor --stamp",
                                         {"argument": "mapping"})
    if sql:
        sys.stdout.write(installer.offline_script(from_revision=from_revision))
        if erp_mapping is not None:
            sys.stdout.write("\n" + mapping_file.read_text(encoding="utf-8"))
        return
    url = database_url
    if url is None:
        from footnote_pg import embedded

        url, _ = embedded.ensure_database(embedded.start(), embedded.DEMO_DATABASE)
    if stamp is not None:
        installer.stamp(url, stamp)
        out.print(f"footnote-pg recorded as installed at revision {stamp}; nothing was run")
        return
    if erp_mapping is not None:
        installer.require_erp(url, erp_mapping)  # before anything is installed
    before = installer.current_revision(url)
    installer.upgrade(url)
    after = installer.current_revision(url)
    if before == after:
        out.print(f"footnote-pg is up to date (revision {after})")
    else:
        out.print(f"footnote-pg installed: revision {before or 'none'} -> {after}")
    for line in installer.protection(url):
        out.print(line, highlight=False)
    grant, _ = installer.admin_grant_needed(url)
    if grant is not None:  # login roles are made members of footnote_service / footnote_auditor by the installer
        out.print(f"this installer cannot make login roles members of our roles (CREATE ROLE ... IN ROLE "
                  f"footnote_service): a superuser runs {grant}", highlight=False, markup=False)
    if erp_mapping is not None:
        statements = installer.apply_mapping(url, erp_mapping)
        out.print(f"source views mapped onto {installer.MAPPINGS[erp_mapping][0]}'s tables ({statements} statements "
                  f"of {mapping_file.name}); check them with footnote-pg mapping check")
        if ui_url is not None:
            links = installer.set_ui_links(url, erp_mapping, ui_url)
            out.print(f"deep links of {len(links)} record types also link into {ui_url}")
    if sample:
        if installer.sample_installed(url):
            out.print("sample ERP already present (schema erp); left as it is")
        else:
            with progress(f"generating the sample ERP ({invoices:,} invoices)"):
                counts = installer.load_sample(url, invoices=invoices)
            out.print("sample ERP loaded: " + ", ".join(f"{k} {v:,}" for k, v in counts.items()))


@app.command()
@friendly
def uninstall(
    database_url: Annotated[str, typer.Option(
        "--database-url", envvar="DATABASE_URL", metavar="URL", callback=_checked_url,
                                            help="PostgreSQL URL.")],
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask for confirmation.")] = False,
    drop_ledger: Annotated[bool, typer.Option(
        "--drop-ledger", help="Also drop a ledger and call log that hold records (needs --export).")] = False,
    export_dir: Annotated[Path | None, typer.Option(
        "--export", metavar="DIR",
        help="Directory to write the verified ledger bundle, the call log and a digest to first.")] = None,
) -> None:
    """Remove every object of footnote-pg (not the sample ERP, not any ERP table).

    Refuses while the ledger or the call log hold records, unless given --drop-ledger and --export DIR.
    """
    from footnote_pg import install as installer

    if not installer.installed(database_url):
        raise errors.NotInstalled("footnote-pg is not installed in this database: nothing to remove")
    records, calls = installer.held_records(database_url)
    if records or calls:
        if not (drop_ledger and export_dir):
            raise errors.Protected(
                f"the ledger holds {records:,} records and the call log {calls:,} calls: uninstall refuses to drop "
                "them; run footnote-pg uninstall --drop-ledger --export DIR (writes a verified bundle, the call log "
                "and a digest there first)")
    if not yes:
        typer.confirm("Remove footnote-pg, its call log and its ledger from this database?", abort=True)
    if (records or calls) and export_dir is not None:
        try:
            written = installer.export_before_uninstall(database_url, export_dir)
        except OSError as exc:
            raise errors.Protected(f"cannot write the export to {export_dir}: {exc.strerror or exc}; "
                                   "nothing removed") from None
        for kind, path in written.items():
            out.print(f"wrote {kind}: {path}", highlight=False)
    installer.uninstall(database_url, drop_ledger=bool(records or calls))
    out.print("footnote-pg removed")


@app.command()
@friendly
def sample(
    database_url: DatabaseUrl = None,
    invoices: Annotated[
        int,
        typer.Option(help="Number of invoices; the rest scales with it.", min=1, max=20_000_000, metavar="N"),
    ] = 2400,
    seed: Annotated[int, typer.Option(
        help="Seed of the deterministic generator.", min=0, max=2**31 - 1, metavar="N")] = 42,
) -> None:
    """Create the sample ERP (schema erp) in a database where footnote-pg is installed."""
    from footnote_pg import install as installer

    url = database_url
    if url is None:
        from footnote_pg import embedded

        url, _ = embedded.ensure_database(embedded.start(), f"footnote_sample_{invoices}")
        installer.upgrade(url)
    if installer.sample_installed(url):
        raise errors.FootnoteError("schema erp exists already; the sample is loaded into a database only once")
    with progress(f"generating the sample ERP ({invoices:,} invoices)"):
        counts = installer.load_sample(url, invoices=invoices, seed=seed)
    out.print("sample ERP loaded: " + ", ".join(f"{k} {v:,}" for k, v in counts.items()))
    if database_url is None:
        out.print(f"database: {url}")


def _parse_arguments(pairs: list[str]) -> dict[str, Any]:
    parsed: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise errors.InvalidArgument(f"invalid argument {pair!r}: write name=value")
        key, value = pair.split("=", 1)
        parsed[key.strip()] = value
    return parsed


def _operations_epilog() -> str:
    from footnote_pg import sqlfiles

    return ("Operations (footnote-pg catalog lists their arguments): " + ", ".join(sqlfiles.operation_names())
            + ". Example: footnote-pg call customer_overdue customer='Bergmann Logistik' as_of=2026-08-14")


@app.command(epilog=_operations_epilog())
@friendly
def call(
    operation: Annotated[str, typer.Argument(help="Catalog operation, e.g. customer_overdue.", metavar="OPERATION")],
    arguments: Annotated[list[str] | None, typer.Argument(
        help="Arguments as name=value.", metavar="NAME=VALUE")] = None,
    database_url: DatabaseUrl = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result document as JSON.")] = False,
) -> None:
    """Run one catalog operation and print its figures and evidence."""
    from footnote_pg.client import Footnote

    with Footnote(_url(database_url), min_size=1, max_size=1) as fn:
        result = fn.call(operation, **_parse_arguments(arguments or []))
    if as_json:
        sys.stdout.write(json.dumps(result.document, ensure_ascii=False, indent=2) + "\n")
        return
    print_result(result)


def print_result(result: Any) -> None:
    table = Table(title=f"{result.operation}  (call {result.call_id[:8]}, {result.duration_ms:.1f} ms)",
                  show_lines=False, title_justify="left")
    table.add_column("figure")
    table.add_column("value", style="bold")
    table.add_column("evidence")
    for value in result.values.values():
        table.add_row(value.name, value.text or "", _evidence_label(value.evidence))
    for i, row in enumerate(result.rows, 1):
        for value in row.values():
            table.add_row(f"{i}. {value.name}", value.text or "", _evidence_label(value.evidence))
    out.print(table)
    if result.empty_reason:
        out.print(f"empty: {result.empty_reason}")
    ev = Table(title="evidence", title_justify="left")
    ev.add_column("id")
    ev.add_column("uri")
    ev.add_column("fields")
    for e in result.evidence[:20]:
        if e.is_set:
            ev.add_row(e.id, f"footnote-pg evidence {result.call_id} {e.id}", e.describe_set())
            continue
        ev.add_row(e.id, e.uri or "", ", ".join(f"{k}={v}" for k, v in e.fields.items()))
    if len(result.evidence) > 20:
        ev.add_row("…", "", f"{len(result.evidence) - 20} more")
    out.print(ev)


def _evidence_label(ids: tuple[str, ...]) -> str:
    if not ids:
        return ""
    if len(ids) <= 4:
        return ", ".join(ids)
    return f"{', '.join(ids[:3])} … ({len(ids)})"


@app.command()
@friendly
def evidence(
    call_id: Annotated[str, typer.Argument(help="The call that cites the set (its call id).", metavar="CALL_ID")],
    evidence_set: Annotated[str, typer.Argument(help="The evidence set, e.g. evidence_set:1027698682236360250.",
                                                metavar="SET")],
    database_url: DatabaseUrl = None,
    offset: Annotated[int, typer.Option("--offset", min=0, metavar="N", help="Rows to skip.")] = 0,
    limit: Annotated[int, typer.Option("--limit", min=1, max=10000, metavar="N", help="Rows to show.")] = 20,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per row, with the text its digest "
                                                         "hashes.")] = False,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", metavar="FILE", help="Write every row of the set to FILE, for verify --evidence-set "
                                               "against a bundle.")] = None,
) -> None:
    """Page through the rows behind an evidence set: the records a figure stands on when they were too many to
    inline, read again from the ERP with the parameters the call recorded."""
    from footnote_pg import evidence_sets
    from footnote_pg.client import Footnote

    with Footnote(_url(database_url), min_size=1, max_size=1) as fn:
        if output is not None:
            try:
                written = evidence_sets.write_set(fn, call_id, evidence_set, output)
            except OSError as exc:
                raise errors.FootnoteError(str(exc)) from None
            out.print(f"{written:,} rows of {evidence_set} written to {output}", highlight=False, markup=False)
            return
        rows = fn.evidence_rows(call_id, evidence_set, offset, limit)
    if as_json:
        for r in rows:
            sys.stdout.write(json.dumps(r.as_json(), ensure_ascii=False) + "\n")
        return
    table = Table(title=f"{evidence_set} of call {call_id[:8]}: rows {offset + 1}–{offset + len(rows)}",
                  title_justify="left")
    for col in ("n", "id", "uri", "fields"):
        table.add_column(col)
    for r in rows:
        table.add_row(str(r.n), r.evidence.id, r.evidence.uri or "",
                      ", ".join(f"{k}={v}" for k, v in r.evidence.fields.items()))
    out.print(table)
    if len(rows) == limit:
        out.print(f"more: footnote-pg evidence {call_id} {evidence_set} --offset {offset + limit}",
                  highlight=False, markup=False)


@app.command()
@friendly
def catalog(
    database_url: DatabaseUrl = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print operations and JSON Schemas as JSON.")] = False,
) -> None:
    """List the catalog operations with their arguments."""
    from footnote_pg.client import Footnote

    with Footnote(_url(database_url), min_size=1, max_size=1) as fn:
        operations = fn.catalog()
    if as_json:
        doc = [{"name": o.name, "title": o.title, "description": o.description, "input_schema": o.json_schema()}
               for o in operations]
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
        return
    for o in operations:
        args = ", ".join(f"{a.name}{'' if a.required else '?'}: {a.type}" for a in o.arguments)
        out.print(f"[bold]{o.name}[/bold]({args})  {o.title}")


Host = Annotated[str, typer.Option(metavar="HOST", help="Address to listen on: a loopback address, or one IP "
                                                        "address of this machine on purpose (no authentication).")]


JwtIssuer = Annotated[str | None, typer.Option("--jwt-issuer", envvar="FOOTNOTE_JWT_ISSUER", metavar="URL",
                                               help="Require bearer tokens issued by this issuer (iss).")]
JwtAudience = Annotated[str | None, typer.Option("--jwt-audience", envvar="FOOTNOTE_JWT_AUDIENCE", metavar="AUD",
                                                 help="The audience (aud) bearer tokens must name.")]
JwtKeys = Annotated[str | None, typer.Option("--jwt-jwks", envvar="FOOTNOTE_JWT_JWKS", metavar="FILE|URL",
                                             help="The issuer's key set (JWKS): a file or a URL.")]
JwtPublicKey = Annotated[str | None, typer.Option("--jwt-public-key", envvar="FOOTNOTE_JWT_PUBLIC_KEY",
                                                  metavar="FILE", help="The issuer's PEM public key, instead "
                                                                       "of a JWKS.")]
JwtScopeClaim = Annotated[str | None, typer.Option("--jwt-scope-claim", envvar="FOOTNOTE_JWT_SCOPE_CLAIM",
                                                   metavar="CLAIM", help="The claim naming the access scope "
                                                                         "(default footnote_scope).")]


def _identity_line(url: str, tokens: Any, actor: str | None, role: str | None) -> str:
    """How requests are identified: the token settings, or who every request is served as (and the scope)."""
    from footnote_pg.client import Footnote
    from footnote_pg.identity import describe

    if tokens is not None:
        return describe(tokens, None, None)
    with Footnote(url, min_size=1, max_size=1, actor=actor, actor_role=role) as fn:
        who = fn.whoami()
    name = who["actor"].get("id") or "(no actor)"
    scope = who.get("scope")
    return describe(None, f"{name}{f' ({role})' if role else ''}", scope and scope["id"])


def _mcp_server(url: str, actor: tuple[str | None, str | None] | None = None) -> Any:
    """The MCP server against ``url``, acting as ``actor`` (id, role), else PROVENANCE_ACTOR (the catalog read
    once)."""
    from footnote_pg.client import actor_from_env
    from footnote_pg.mcpserver import Config, prepare

    server, _count = prepare(Config(url, *(actor or actor_from_env())))
    return server


def _actor(actor: str | None, actor_role: str | None) -> tuple[str | None, str | None]:
    """--actor ID[:ROLE] and --actor-role ROLE as (id, role)."""
    if actor is not None and ":" in actor and actor_role is None:
        actor, actor_role = actor.split(":", 1)
    return actor, actor_role


@app.command()
@friendly
def demo(
    database_url: DatabaseUrl = None,
    host: Host = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port of the web page.", min=1, max=65535, metavar="PORT")] = 4711,
    data_dir: Annotated[
        Path | None,
        typer.Option(envvar="FOOTNOTE_DATA_DIR", metavar="DIR", help="Embedded PostgreSQL data directory."),
    ] = None,
    once: Annotated[bool, typer.Option("--once", help="Answer the demo questions in the terminal and exit.")] = False,
    with_mcp: Annotated[bool, typer.Option("--mcp", help="Also serve MCP (streamable HTTP) at /mcp.")] = False,
) -> None:
    """Embedded PostgreSQL + sample ERP + the web page at http://127.0.0.1:4711 (Ctrl-C stops everything)."""
    import time

    from footnote_pg import embedded
    from footnote_pg.client import Footnote

    _stop_on_sigterm()
    started = time.monotonic()
    url = database_url or embedded.demo_url(data_dir)
    if once:
        from footnote_pg.web import SUGGESTIONS

        with Footnote(url, min_size=1, max_size=1, actor="demo", actor_role="viewer") as fn:
            for question in SUGGESTIONS:
                answer = fn.ask(question)
                out.print(f"[bold]{question}[/bold]")
                out.print(render_answer(answer), highlight=False, markup=False)
                out.print()
        return
    from footnote_pg.web import serve
    from footnote_pg.web.demo import DEMO_USERS, DemoUsers, create_demo_scopes

    users: DemoUsers | None = DemoUsers()
    if why := create_demo_scopes(url):
        users = None
        who = f"demo users off: {why}; {_identity_line(url, None, 'demo', 'viewer')}"
    else:
        who = "sign in on the page as " + " or ".join(f"{name} (scope {scope})" for _id, name, scope in DEMO_USERS)

    def ready(address: str) -> None:
        mcp_at = f"; MCP at [bold]{address}mcp[/bold]" if with_mcp else ""
        out.print(f"footnote-pg demo ready in {time.monotonic() - started:.1f} s: [bold]{address}[/bold]{mcp_at}  "
                  "(Ctrl-C stops it)")
        out.print(escape(who), highlight=False)
    serve(url, host=host, port=port, ready=ready, mcp=_mcp_server(url) if with_mcp else None,
          tokens=users.settings() if users else None, demo_users=users)
    out.print("stopped")


@app.command(name="serve")
@friendly
def serve_command(
    database_url: DatabaseUrl = None,
    host: Host = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port of the page and of /mcp.", min=1, max=65535, metavar="PORT")] = 4711,
    actor: Annotated[str | None, typer.Option(
        envvar="PROVENANCE_ACTOR", metavar="ID[:ROLE]",
        help="Who asks, recorded with every question of the page and of /mcp (required against your database; "
             "the embedded sample is asked by demo (viewer)).")] = None,
    actor_role: Annotated[str | None, typer.Option(
        "--actor-role", envvar="PROVENANCE_ACTOR_ROLE", metavar="ROLE",
        help="The actor's role, when --actor is a bare id.")] = None,
    jwt_issuer: JwtIssuer = None,
    jwt_audience: JwtAudience = None,
    jwt_jwks: JwtKeys = None,
    jwt_public_key: JwtPublicKey = None,
    jwt_scope_claim: JwtScopeClaim = None,
) -> None:
    """The web page and MCP (streamable HTTP at /mcp) against a database, in one process (Ctrl-C stops it)."""
    from footnote_pg.client import uses_embedded_sample
    from footnote_pg.identity import TokenSettings
    from footnote_pg.web import serve
    from footnote_pg.web.demo import ACTOR, ACTOR_ROLE

    tokens = TokenSettings.from_options(jwt_issuer, jwt_audience, jwt_jwks, jwt_public_key, jwt_scope_claim)

    who, role = _actor(actor, actor_role)
    if who is None:
        if not uses_embedded_sample(database_url):
            raise errors.InvalidArgument(
                "invalid argument actor: serve records every question with who asked it; name the actor with "
                "--actor ID[:ROLE] (or PROVENANCE_ACTOR=id:role), e.g. --actor web-desk:analyst",
                {"argument": "actor"})
        who, role = ACTOR, ACTOR_ROLE
    _stop_on_sigterm()
    url = _url(database_url)

    line = _identity_line(url, tokens, who, role)

    def ready(address: str) -> None:
        out.print(f"footnote-pg serving the page at [bold]{address}[/bold] and MCP at [bold]{address}mcp[/bold] "
                  f"as actor {escape(who or '')}{escape(f' ({role})') if role else ''}  (Ctrl-C stops it)")
        out.print(escape(line), highlight=False)

    serve(url, host=host, port=port, ready=ready, mcp=_mcp_server(url, (who, role)), actor=who, actor_role=role,
          tokens=tokens)
    out.print("stopped")


FOOTNOTE_RECORDS = 3  # records shown under one footnote; an aging figure may stand on hundreds


def render_answer(answer: Any) -> str:
    """The answer with a footnote marker after each claim, then the numbered evidence (the first few records
    of each footnote, and how many more)."""
    text = answer.answer
    claims = sorted(enumerate(answer.claims, start=1), key=lambda c: c[1]["span"]["end"], reverse=True)
    for n, c in claims:
        end = c["span"]["end"]
        text = text[:end] + f"[{n}]" + text[end:]
    lines = [text, ""]
    evidence = {e.id: e for e in answer.evidence}
    for n, c in enumerate(answer.claims, start=1):
        mark = "" if c["verdict"] == "grounded" else f"  ({c['verdict']}: {c.get('reason')})"
        ids = c["evidence"]
        if not ids:
            lines.append(f"[{n}] {c['text']}{mark}")
            continue
        for k, eid in enumerate(ids[:FOOTNOTE_RECORDS]):
            e = evidence.get(eid)
            head = f"[{n}] {c['text']}{mark}" if k == 0 else " " * (len(str(n)) + 3)
            if e is not None and e.is_set:
                lines.append(f"{head} <- {e.describe_set()}: footnote-pg evidence {c.get('call_id')} {eid}")
                continue
            fields = ", ".join(f"{key}={val}" for key, val in list((e.fields if e else {}).items())[:6])
            link = f"{e.uri} {e.ui_link}" if e and e.ui_link else (e.uri if e else "")
            lines.append(f"{head} <- {eid} {link} {fields}".rstrip())
        if len(ids) > FOOTNOTE_RECORDS:
            more = len(ids) - FOOTNOTE_RECORDS
            lines.append(" " * (len(str(n)) + 3) + f" … and {more:,} more record{'s' if more != 1 else ''} "
                         "(--json lists them all)")
    queued = answer.notes.get("queued_record_id")
    seq = (f"ledger #{answer.receipt.seq} {answer.receipt.hash[:16]}…" if answer.receipt else
           f"recorded, queued for sealing (record {queued}): the chain was busy; footnote-pg verify shows it "
           "once sealed" if queued else "not recorded")
    lines.append(f"status: {answer.status} · {seq}")
    return "\n".join(lines)


@app.command()
@friendly
def ask(
    question: Annotated[str, typer.Argument(help="A question about the ERP data, in English.", metavar="QUESTION")],
    database_url: DatabaseUrl = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the documented JSON document.")] = False,
    actor: Annotated[
        str | None,
        typer.Option(envvar="PROVENANCE_ACTOR", metavar="ID[:ROLE]", help="Application actor (id or id:role)."),
    ] = None,
) -> None:
    """Answer a question: every number a citation, the answer recorded in the ledger (exit 1 unless verified)."""
    from footnote_pg.client import Footnote, uses_embedded_sample

    actor_id, role = (actor.split(":", 1) + [None])[:2] if actor is not None else (None, None)
    with Footnote(_url(database_url), min_size=1, max_size=2, actor=actor_id, actor_role=role) as fn:
        answer = fn.ask(question)
    if as_json:
        doc = {**answer.as_json(), "embedded_sample": uses_embedded_sample(database_url)}
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2, default=str) + "\n")
    else:
        out.print(render_answer(answer), highlight=False, markup=False)
    raise typer.Exit(0 if answer.ok else 1)


@app.command()
@friendly
def mcp(
    database_url: DatabaseUrl = None,
    http: Annotated[bool, typer.Option("--http", help="Serve streamable HTTP at /mcp instead of stdio.")] = False,
    host: Host = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port for --http.", min=1, max=65535, metavar="PORT")] = 8765,
    jwt_issuer: JwtIssuer = None,
    jwt_audience: JwtAudience = None,
    jwt_jwks: JwtKeys = None,
    jwt_public_key: JwtPublicKey = None,
    jwt_scope_claim: JwtScopeClaim = None,
) -> None:
    """Run the MCP server (stdio by default): a tool per catalog operation, answer, record_decision, verify_chain."""
    import os

    from footnote_pg import mcpserver
    from footnote_pg.identity import TokenSettings

    tokens = TokenSettings.from_options(jwt_issuer, jwt_audience, jwt_jwks, jwt_public_key, jwt_scope_claim)
    if tokens is not None and not http:
        raise errors.InvalidArgument("invalid argument token settings: bearer tokens are checked over HTTP only "
                                     "(--http); over stdio the client is the local process",
                                     {"argument": "token"})
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    _stop_on_sigterm()
    try:
        mcpserver.main("http" if http else "stdio", host=host, port=port, tokens=tokens)
    except KeyboardInterrupt:
        pass


def _connect(database_url: str | None) -> Any:
    import psycopg

    return psycopg.connect(_url(database_url))


@app.command()
@friendly
def verify(
    database_url: DatabaseUrl = None,
    bundle: Annotated[
        Path | None,
        typer.Option("--bundle", metavar="FILE", help="Verify an exported bundle offline (no database)."),
    ] = None,
    digests: Annotated[
        list[Path] | None,
        typer.Option(
            "--digest", metavar="FILE", help="Also prove the chain still extends this digest. Twice (--digest OLD "
                                      "--digest NEW): prove offline that the tree NEW signs extends OLD's."),
    ] = None,
    receipt: Annotated[
        Path | None,
        typer.Option(
            "--receipt", metavar="FILE",
            help="Verify a receipt offline (no database): the record is in the signed tree."),
    ] = None,
    public_key: Annotated[
        Path | None,
        typer.Option("--public-key", metavar="FILE", help="Ed25519 public key (PEM) the digest must be signed with."),
    ] = None,
    calls: Annotated[bool, typer.Option(
        "--calls", help="Also hash every cited call's result again (slower): finds a result changed behind "
                        "its hash.")] = False,
    evidence_set: Annotated[Path | None, typer.Option(
        "--evidence-set", metavar="FILE", help="With --bundle: check offline that the rows in FILE (footnote-pg "
                                               "evidence -o) are the evidence set a record of the bundle cites.")]
        = None,
    regrade: Annotated[bool, typer.Option(
        "--regrade", help="Also grade every sealed answer again against the calls it cites, with the database's "
                          "gate (footnote.regrade()): finds a verdict that is not the gate's.")]
        = False,
    jobs: Annotated[int | None, typer.Option(
        "--jobs", min=1, max=64, help="With --regrade: connections grading parts of the chain at once "
                                      "(default: one per core of this machine).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
) -> None:
    """Verify the ledger with the independent Python verifier (exit 0 intact, 1 broken): the chain, then every
    record against the calls it cites (docs/threat-model.md)."""
    from footnote_pg import evidence_sets, ledger

    if evidence_set is not None:
        if bundle is None:
            raise typer.BadParameter("needs --bundle: the records that cite the set", param_hint="--evidence-set")
        try:
            with progress("verifying the bundle") as advance:
                chain = ledger.verify_bundle(bundle, advance)
            checked = evidence_sets.verify_set(evidence_set, bundle) if chain.ok else None
        except (ledger.BundleError, OSError, UnicodeDecodeError) as exc:
            raise errors.FootnoteError(str(exc)) from None
        if as_json:
            sys.stdout.write(json.dumps({"chain": chain.as_dict(),
                                         "evidence_set": checked.as_dict() if checked else None}) + "\n")
        else:
            (out if chain.ok else err).print(chain.line(), highlight=False)
            if checked:
                (out if checked.ok else err).print(checked.line(), highlight=False, markup=False)
        raise typer.Exit(0 if chain.ok and checked and checked.ok else 1)
    if jobs is not None and not regrade:
        raise typer.BadParameter("grades in parts only with --regrade", param_hint="--jobs")
    if regrade and bundle is not None:
        raise typer.BadParameter("grading again needs the database's gate and calls, not a bundle",
                                 param_hint="--regrade")
    if receipt is not None or len(digests or []) > 1:
        _verify_proofs(receipt, digests or [], bundle, public_key, database_url, as_json)
    digest = digests[0] if digests else None
    try:
        pinned = public_key.read_bytes() if public_key else None
        wanted = ledger.read_digest(digest, pinned) if digest else None
        if bundle is not None:
            with progress("verifying the bundle") as advance:
                verdict = ledger.verify_bundle(bundle, advance)
            if verdict.ok and wanted is not None:
                verdict = ledger.check_digest(wanted, ledger.bundle_hash_at(bundle, wanted["seq"]),
                                              verdict.head_seq) or verdict
        else:
            with _connect(database_url) as conn:
                conn.execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED")
                head = ledger.chain_head(conn)
                with progress("verifying the ledger", total=head["seq"] if head else None) as advance:
                    verdict = ledger.verify_database(conn, recompute_calls=calls, advance=advance)
                if verdict.ok and wanted is not None:
                    row = conn.execute("SELECT hash FROM footnote.ledger WHERE seq = %s", (wanted["seq"],)).fetchone()
                    verdict = ledger.check_digest(wanted, row[0] if row else None, verdict.head_seq) or verdict
                if verdict.ok and regrade:
                    with progress("grading every answer again", total=verdict.head_seq) as advance:
                        verdict = ledger.regrade(lambda: _connect(database_url), verdict,
                                                 jobs or os.cpu_count() or 1, advance)
    except (ledger.BundleError, OSError) as exc:
        raise errors.FootnoteError(str(exc)) from None
    if as_json:
        sys.stdout.write(json.dumps(verdict.as_dict()) + "\n")
    else:
        (out if verdict.ok else err).print(verdict.line() + (" (digest matches)" if verdict.ok and digest else ""),
                                         highlight=False)
    raise typer.Exit(0 if verdict.ok else 1)


def _verify_proofs(receipt: Path | None, digests: list[Path], bundle: Path | None, public_key: Path | None,
                   database_url: str | None, as_json: bool) -> None:
    """verify --receipt FILE, or --digest OLD --digest NEW: the Merkle proofs, offline; always exits."""
    from footnote_pg import ledger, receipts

    if bundle is not None or (receipt is not None and digests) or len(digests) > 2:
        raise errors.FootnoteError("verify takes --receipt FILE alone, or --digest OLD --digest NEW, "
                                   "or --bundle/--digest for the chain")

    def fetch(old_size: int, new_size: int) -> dict[str, Any]:
        from footnote_pg.queries import query

        with _connect(database_url) as conn:
            row = conn.execute(query("consistency_proof"), {"old_size": old_size, "new_size": new_size}).fetchone()
        return dict(row[0]) if row else {}

    try:
        pinned = public_key.read_bytes() if public_key else None
        if receipt is not None:
            outcome = receipts.verify_receipt(receipts.read_receipt(receipt), pinned)
        else:
            old, new = (ledger.load_digest(p) for p in digests)
            outcome = receipts.verify_extension(old, new, public_key_pem=pinned, fetch=fetch,
                                                names=(str(digests[0]), str(digests[1])))
    except (ledger.BundleError, OSError) as exc:
        raise errors.FootnoteError(str(exc)) from None
    if as_json:
        sys.stdout.write(json.dumps(outcome.as_dict()) + "\n")
    else:
        (out if outcome.ok else err).print(outcome.line, highlight=False, markup=False)
    raise typer.Exit(0 if outcome.ok else 1)


@app.command()
@friendly
def export(
    output: Annotated[Path, typer.Argument(
        help="Bundle file to write (JSON lines); a directory gets footnote-bundle-<time>.jsonl.", metavar="FILE")],
    database_url: DatabaseUrl = None,
    from_seq: Annotated[int, typer.Option("--from-seq", min=1, max=SEQ_MAX, metavar="SEQ", help="First record.")] = 1,
    to_seq: Annotated[int | None, typer.Option(
        "--to-seq", min=1, max=SEQ_MAX, metavar="SEQ", help="Last record.")] = None,
    since: Annotated[str | None, typer.Option(
        metavar="TIME", help="Only records sealed at or after this time (ISO 8601).")] = None,
    until: Annotated[str | None, typer.Option(
        metavar="TIME", help="Only records sealed before this time (ISO 8601).")] = None,
) -> None:
    """Write ledger records with their evidence to a bundle an auditor can verify offline."""
    import datetime as dt

    from footnote_pg import ledger

    def moment(text: str | None, name: str) -> dt.datetime | None:
        if text is None:
            return None
        try:
            value = dt.datetime.fromisoformat(text)
        except ValueError:
            raise errors.InvalidArgument(f"invalid argument {name}: {text!r} is not an ISO 8601 time") from None
        return value if value.tzinfo else value.replace(tzinfo=dt.UTC)

    output = _bundle_path(output)
    with _connect(database_url) as conn:
        with progress(f"exporting to {output}") as advance:
            try:
                manifest = ledger.export_bundle(conn, output, from_seq=from_seq, to_seq=to_seq or 2**62,
                                                since=moment(since, "since"), until=moment(until, "until"),
                                                advance=advance)
            except OSError as exc:  # said of the user's path, not of the temporary file beside it
                raise errors.FootnoteError(f"cannot write the bundle to {output}: "
                                           f"{exc.strerror or exc}; nothing was written") from None
    out.print(f"exported {manifest['count']} records ({manifest['first_seq']}..{manifest['last_seq']}) to {output}; "
              f"records sha256 {manifest['records_sha256'][:16]}…", highlight=False)


def _bundle_path(output: Path) -> Path:
    """Where export writes: the file given, or a new file named by the time in the directory given; a folder
    that is not there is one line, before anything is read."""
    import datetime as dt

    if output.is_dir():
        return output / f"footnote-bundle-{dt.datetime.now(dt.UTC):%Y%m%dT%H%M%SZ}.jsonl"
    folder = output.parent
    if not folder.is_dir():
        raise errors.FootnoteError(f"cannot write the bundle to {output}: the folder {folder} does not exist")
    return output


@app.command()
@friendly
def digest(
    database_url: DatabaseUrl = None,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", metavar="FILE", help="Write the digest here (default: print it)."),
    ] = None,
    sign_key: Annotated[
        Path | None,
        typer.Option("--sign-key", metavar="FILE", help="Ed25519 private key (PEM) to sign the digest with."),
    ] = None,
    extends: Annotated[
        Path | None,
        typer.Option(
            "--extends", metavar="FILE",
            help="An earlier digest: embed the proof that this head's tree extends its tree."),
    ] = None,
) -> None:
    """Print or write the signed tree head (sequence, hash, time, Merkle root): keep it outside the database."""
    from footnote_pg import canonical, ledger, receipts

    try:
        key = sign_key.read_bytes() if sign_key else None
        older = ledger.read_digest(extends) if extends else None
    except (ledger.BundleError, OSError) as exc:
        raise errors.FootnoteError(str(exc)) from None
    with _connect(database_url) as conn:
        head = ledger.tree_head(conn)
        proof = receipts.extension_proof(conn, older, head, str(extends)) if older is not None and head else None
    if head is None:
        raise errors.FootnoteError("the ledger is empty; there is nothing to digest yet")
    try:
        made = ledger.make_digest(head, key, consistency=proof)
    except ledger.BundleError as exc:
        raise errors.FootnoteError(str(exc)) from None
    text = canonical.canonical_json(made) + "\n"
    extended = f" (extends {extends}: a consistency proof of {len(proof['path'])} hashes from its tree of " \
               f"{proof['old_size']} records)" if proof else ""
    if output:
        output.write_text(text, encoding="utf-8")
        out.print(f"digest of record {made['seq']} written to {output}{extended}", highlight=False, markup=False)
    else:
        sys.stdout.write(text)


@app.command()
@friendly
def receipt(
    seq: Annotated[int, typer.Argument(
        help="Ledger sequence number of the record.", metavar="SEQ")],
    database_url: DatabaseUrl = None,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", metavar="FILE", help="Write the receipt here (default: print it)."),
    ] = None,
    sign_key: Annotated[
        Path | None,
        typer.Option("--sign-key", metavar="FILE", help="Ed25519 private key (PEM) to sign the tree head with."),
    ] = None,
) -> None:
    """Write a receipt: the record, its inclusion proof and the signed tree head, verifiable offline."""
    from footnote_pg import canonical, ledger, receipts

    try:
        key = sign_key.read_bytes() if sign_key else None
    except OSError as exc:
        raise errors.FootnoteError(str(exc)) from None
    with _connect(database_url) as conn:
        try:
            made = receipts.make_receipt(conn, seq, key)
        except ledger.BundleError as exc:
            raise errors.FootnoteError(str(exc)) from None
    text = canonical.canonical_json(made) + "\n"
    if output:
        output.write_text(text, encoding="utf-8")
        out.print(f"receipt of record {seq} in the tree of {made['head']['tree_size']} records written to {output}",
                  highlight=False, markup=False)
    else:
        sys.stdout.write(text)


@app.command()
@friendly
def reattest(
    seq: Annotated[int, typer.Argument(
        help="Ledger sequence number of the record.", max=SEQ_MAX, metavar="SEQ")],
    database_url: DatabaseUrl = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print each claim's verdict as JSON.")] = False,
) -> None:
    """Re-run a record's operations with their recorded arguments: does each claim still hold? (exit 1 if not)"""
    from footnote_pg.client import Footnote
    from footnote_pg.queries import query

    with Footnote(_url(database_url), min_size=1, max_size=1) as fn, fn.transaction() as conn:
        rows = conn.execute(query("reattest"), {"seq": seq}).fetchall()
    items = [dict(zip(("item", "kind", "text", "value_path", "verdict", "old_text", "new_text", "operation",
                       "new_call_id"), r, strict=True)) for r in rows]
    if as_json:
        sys.stdout.write(json.dumps(items, ensure_ascii=False) + "\n")
    else:
        table = Table(title=f"re-attestation of record {seq}", title_justify="left")
        for col in ("item", "text", "verdict", "old", "new"):
            table.add_column(col)
        for i in items:
            table.add_row(str(i["item"]), i["text"] or "", i["verdict"], i["old_text"] or "", i["new_text"] or "")
        out.print(table)
        gone = sum(1 for i in items if i["verdict"] == "redacted")
        if gone:
            out.print(f"{gone} of {len(items)} items redacted (footnote.redactions): not attested again", highlight=False)
    raise typer.Exit(0 if all(i["verdict"] in ("still_holds", "redacted") for i in items) else 1)


@app.command()
@friendly
def redact(
    subject: Annotated[str, typer.Option(
        "--subject", metavar="KIND:ID_OR_NAME",
        help="The data subject: customer:<id or name> or supplier:<id or name>.")],
    request: Annotated[str, typer.Option(
        "--request", metavar="REF", help="The erasure request this answers (its reference), recorded in the chain.")],
    database_url: DatabaseUrl = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcome as JSON.")] = False,
) -> None:
    """Redact a customer or supplier from the ledger, its queue and the call log (run as a login of
    footnote_redactor): the parts that mention it are replaced by their commitments, a redaction record is
    appended, and the chain, receipts and digests still verify."""
    import psycopg

    from footnote_pg import errors as fn_errors

    url = _url(database_url)
    try:
        with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
            row = conn.execute("SELECT record_id, records, parts, calls, not_redactable FROM footnote.redact(%s, %s)",
                               (subject, request)).fetchone()
            assert row is not None
        with psycopg.connect(url, autocommit=True) as conn:
            sealed = conn.execute("SELECT seq FROM footnote.redactions WHERE request = %s ORDER BY seq DESC LIMIT 1",
                                  (request,)).fetchone()
    except psycopg.errors.InsufficientPrivilege as exc:
        raise fn_errors.FootnoteError(
            f"{exc.diag.message_primary or exc}: a redaction is run by a login of footnote_redactor that is not a "
            "member of footnote_service or footnote_owner") from None
    outcome = {"subject_kind": subject.split(":", 1)[0], "request": request, "record_id": str(row[0]),
               "seq": sealed[0] if sealed else None, "records": row[1], "parts": row[2], "calls": row[3],
               "not_redactable": list(row[4] or [])}
    if as_json:
        sys.stdout.write(json.dumps(outcome) + "\n")
        raise typer.Exit(0)
    out.print(f"redacted {row[2]} parts of {row[1]} records and {row[3]} calls; redaction record "
              f"{outcome['seq']} (request {request})", highlight=False, markup=False)
    if outcome["not_redactable"]:
        out.print(f"not redacted: records {', '.join(map(str, outcome['not_redactable']))} were sealed before hash "
                  "version 2 and hash their parts directly (and the calls they cite stay)", highlight=False)
    out.print("still holding the subject: the ERP itself (not ours to erase); exports, bundles, receipts and evidence "
              "files already handed out; old row versions until VACUUM, and WAL and backups until they expire",
              highlight=False)


@app.command()
@friendly
def prune(
    database_url: DatabaseUrl = None,
    export_dir: Annotated[Path | None, typer.Option(
        "--export", metavar="DIR",
        help="First export the records to prune (1 to the cut) as a bundle into DIR, verify it, and write the "
             "checkpoint there; nothing is pruned unless the bundle verifies.")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Say what would be pruned; change nothing.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcome as JSON.")] = False,
    before: Annotated[str | None, typer.Option(
        metavar="TIME", help="Prune only records sealed before this time too (ISO 8601): narrows the policy, "
                             "never widens it.")] = None,
    sign_key: Annotated[Path | None, typer.Option(
        "--sign-key", metavar="FILE", help="Ed25519 private key (PEM) to sign the checkpoint written by --export.")] = None,
) -> None:
    """Prune the records older than the retention policy (retention_days.* in footnote.settings), as a login of
    footnote_redactor: their parts are replaced by their commitments behind a checkpoint (the tree head at the
    cut), a prune record is appended, and the chain, receipts and digests still verify."""
    import datetime as dt

    import psycopg

    from footnote_pg import canonical, ledger, merkle

    when = None
    if before is not None:
        try:
            when = dt.datetime.fromisoformat(before)
        except ValueError:
            raise errors.InvalidArgument(f"invalid argument before: {before!r} is not an ISO 8601 time") from None
        when = when if when.tzinfo else when.replace(tzinfo=dt.UTC)
    if export_dir is not None and not export_dir.is_dir():
        raise errors.FootnoteError(f"cannot export to {export_dir}: it is not a folder")
    if sign_key is not None and export_dir is None:
        raise errors.InvalidArgument("invalid argument sign-key: it signs the checkpoint --export writes; "
                                     "give --export DIR too")
    try:
        key = sign_key.read_bytes() if sign_key else None
        if key is not None:
            ledger._signing_key(key)  # a key that cannot sign is said before anything is pruned
    except OSError as exc:
        raise errors.FootnoteError(str(exc)) from None
    except ledger.BundleError as exc:
        raise errors.FootnoteError(str(exc)) from None
    url = _url(database_url)
    columns = ("record_id", "cut", "records", "parts", "calls", "not_prunable", "policy", "checkpoint")
    sql = f"SELECT {', '.join(columns)} FROM footnote.prune(%s, %s, %s)"  # noqa: S608 (our column names)
    outcome: dict[str, Any] = {"dry_run": dry_run, "bundle": None, "checkpoint_file": None, "seq": None}
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            plan = dict(zip(columns, conn.execute(sql, (True, when, None)).fetchone() or (), strict=True))
            if not dry_run and export_dir is not None and plan["cut"]:
                cut, point = plan["cut"], plan["checkpoint"]
                bundle = export_dir / f"footnote-pruned-1-{cut}.jsonl"
                with progress(f"exporting records 1 to {cut} to {bundle}") as advance:
                    ledger.export_bundle(conn, bundle, from_seq=1, to_seq=cut, advance=advance)
                verdict = ledger.verify_bundle(bundle)
                leaves = [merkle.leaf_hash(json.loads(line)["hash"]) for line in ledger.read_bundle(bundle)[1]]
                if not verdict.ok or verdict.head_seq != cut or verdict.head_hash != point["hash"] \
                        or merkle.root(leaves).hex() != point["root_hash"]:
                    raise errors.FootnoteError(
                        f"the bundle {bundle} does not verify against the checkpoint at record {cut} "
                        f"({verdict.line()}): nothing was pruned")
                digest_file = export_dir / f"footnote-checkpoint-{cut}.json"
                try:
                    made = ledger.make_digest(point, key)
                except ledger.BundleError as exc:
                    raise errors.FootnoteError(str(exc)) from None
                digest_file.write_text(canonical.canonical_json(made) + "\n", encoding="utf-8")
                outcome |= {"bundle": str(bundle), "checkpoint_file": str(digest_file)}
        row = plan
        if not dry_run:
            up_to = plan["cut"] if plan["cut"] is not None or export_dir is None else 0
            with psycopg.connect(url, autocommit=True) as conn:
                with conn.transaction():
                    row = dict(zip(columns, conn.execute(sql, (False, when, up_to)).fetchone() or (), strict=True))
                if row["record_id"] is not None:  # sealed at commit: its place in the chain, on the same connection
                    found = conn.execute("SELECT seq FROM footnote.ledger WHERE id = %s",
                                         (row["record_id"],)).fetchone()
                    outcome["seq"] = found[0] if found else None
    except psycopg.errors.InsufficientPrivilege as exc:
        raise errors.FootnoteError(
            f"{exc.diag.message_primary or exc}: a prune is run by a login of footnote_redactor that is not a "
            "member of footnote_service or footnote_owner") from None
    except psycopg.errors.DataCorrupted as exc:  # a record to prune no longer verifies: the check failed (exit 1)
        raise errors.RecordChanged(exc.diag.message_primary or str(exc)) from None
    outcome |= {k: row[k] for k in ("cut", "records", "parts", "calls", "not_prunable", "policy", "checkpoint")}
    outcome["record_id"] = str(row["record_id"]) if row["record_id"] else None
    if as_json:
        sys.stdout.write(json.dumps(outcome) + "\n")
        raise typer.Exit(0)
    if not outcome["policy"]:
        out.print("no retention policy is set (retention_days.* in footnote.settings): every record is kept",
                  highlight=False, markup=False)
        raise typer.Exit(0)
    verb = "would prune" if dry_run else "pruned"
    upto = f" up to record {outcome['cut']}" if outcome["cut"] else ""
    out.print(f"{verb} {outcome['parts']} parts of {outcome['records']} records{upto} and {outcome['calls']} calls "
              f"(policy {json.dumps(outcome['policy'])})", highlight=False, markup=False)
    if outcome["checkpoint"]:
        point = outcome["checkpoint"]
        out.print(f"checkpoint: tree of {point['tree_size']} records, root {point['root_hash'][:16]}…, record "
                  f"{point['seq']} {point['hash'][:16]}…", highlight=False, markup=False)
    if outcome["seq"]:
        out.print(f"prune record {outcome['seq']} (footnote.prunes)", highlight=False, markup=False)
    if outcome["bundle"]:
        out.print(f"exported and verified: {outcome['bundle']}; checkpoint digest {outcome['checkpoint_file']}",
                  highlight=False, markup=False)
    if outcome["not_prunable"]:
        out.print(f"not pruned: {outcome['not_prunable']} records sealed before hash version 2 (they hash their parts "
                  "directly)", highlight=False, markup=False)


mapping_app = typer.Typer(help="Check the mapping of your ERP onto the source views, test it against the ERP's "
                                "own figures, and move it out of the way of the ERP's migrations.",
                           no_args_is_help=True)
app.add_typer(mapping_app, name="mapping")


def _findings_table(findings: list[Any]) -> Table:
    table = Table(title="mapping check", title_justify="left", show_lines=False)
    for col in ("", "check", "rule", "found"):
        table.add_column(col)
    marks = {"fail": "[red]FAIL[/red]", "warn": "[yellow]warn[/yellow]", "unavailable": "[dim]n/a[/dim]",
             "ok": "[green]ok[/green]"}
    for f in findings:
        found = "; ".join(f.examples[:3]) + (f" … ({f.count:,} in all)" if f.count > 3 else "")
        table.add_row(marks[f.severity], f.check, f.rule, found)
    return table


@mapping_app.command("check")
@friendly
def mapping_check(
    database_url: DatabaseUrl = None,
    operations: Annotated[bool, typer.Option(
        "--operations/--no-operations", help="Also time every operation and look at its plans.")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print the findings as JSON.")] = False,
) -> None:
    """Check the source views as footnote_owner reads them: exit 0 when nothing fails, 1 otherwise (nothing is
    written). A partial mapping is no failure: the operations it leaves unavailable are listed."""
    from footnote_pg import mapping

    findings = mapping.check(_url(database_url), operations=operations)
    if as_json:
        sys.stdout.write(json.dumps([f.as_dict() for f in findings], ensure_ascii=False) + "\n")
    else:
        out.print(_findings_table(findings))
        failed = sum(f.severity == "fail" for f in findings)
        warned = sum(f.severity == "warn" for f in findings)
        out.print(f"{len(findings)} checks: {failed} failed, {warned} to look at", highlight=False)
        unavailable = [f.check.removeprefix("operation_") for f in findings
                       if f.severity == "unavailable" and f.check.startswith("operation_")]
        if unavailable:
            out.print(f"unavailable with this mapping ({len(unavailable)} operations): {', '.join(unavailable)}",
                      highlight=False)
    raise typer.Exit(1 if any(f.severity == "fail" for f in findings) else 0)


@mapping_app.command("test")
@friendly
def mapping_test(
    figures: Annotated[Path, typer.Argument(
        metavar="FILE", help="TOML: [[figure]] tables of operation, arguments, value and equals (the ERP's figure).")],
    database_url: DatabaseUrl = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the comparisons as JSON.")] = False,
) -> None:
    """Compare footnote's figures with the ones you wrote down from the ERP itself (exit 1 on any difference)."""
    from footnote_pg import mapping

    compared = mapping.test(_url(database_url), figures)
    if as_json:
        sys.stdout.write(json.dumps([c.as_dict() for c in compared], ensure_ascii=False, default=str) + "\n")
    else:
        table = Table(title=f"mapping test: {figures}", title_justify="left")
        for col in ("", "operation", "value", "ERP", "footnote-pg"):
            table.add_column(col)
        for c in compared:
            table.add_row("[green]ok[/green]" if c.ok else "[red]DIFFERS[/red]", c.operation,
                          c.value, c.expected, c.found or "(none)")
        out.print(table)
    raise typer.Exit(0 if all(c.ok for c in compared) else 1)


@mapping_app.command("drop")
@friendly
def mapping_drop(
    save: Annotated[Path, typer.Option("--save", metavar="FILE", help="Write the mapped views here first.")],
    database_url: DatabaseUrl = None,
) -> None:
    """Save the mapped views to FILE and put the contract's empty placeholders in their place, so the ERP's own
    migrations can change the tables they read; the ledger, call log and grants stay."""
    from footnote_pg import mapping

    dropped = mapping.drop(_url(database_url), save)
    out.print(f"saved {len(dropped)} mapped views to {save} and replaced them with placeholders: "
              f"{', '.join(dropped) or 'none were mapped'}; run footnote-pg mapping apply {save} after the "
              "migration", highlight=False, markup=False)


@mapping_app.command("apply")
@friendly
def mapping_apply(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A file written by mapping drop, or a mapping script.")],
    database_url: DatabaseUrl = None,
) -> None:
    """Run a saved mapping (or any mapping script) in one transaction: all of it or nothing."""
    from footnote_pg import mapping

    count = mapping.apply(_url(database_url), file)
    out.print(f"applied {count} statements from {file}", highlight=False, markup=False)


node_app = typer.Typer(help="A footnote node: footnote-pg in a PostgreSQL of its own, fed with the ERP's tables by "
                             "logical replication, so no question runs on the ERP's primary (docs/node.md).",
                        no_args_is_help=True)
app.add_typer(node_app, name="node")

ErpUrl = Annotated[str, typer.Option(
    "--erp", metavar="URL", callback=_checked_url,
    help="The ERP database (plan: as a superuser; init, resync: as the replication role).")]
NodeMapping = Annotated[str, typer.Option("--mapping", metavar="NAME|FILE",
                                          help="A shipped mapping (tryton) or a mapping script.")]
NodeUrl = Annotated[str | None, typer.Option("--node", metavar="URL", callback=_checked_url,
                                             help="The node database (a new one); without it, database footnote_node "
                                                  "of the embedded PostgreSQL.")]
DataDir = Annotated[Path | None, typer.Option("--data-dir", metavar="DIR",
                                              help="The embedded PostgreSQL's data directory (FOOTNOTE_DATA_DIR).")]


@node_app.command("plan")
@friendly
def node_plan(
    erp: ErpUrl,
    mapping_spec: NodeMapping,
    table: Annotated[list[str] | None, typer.Option(
        "--table", metavar="SCHEMA.TABLE", help="Publish this table too (one a mapping's script reads).")] = None,
) -> None:
    """Print what the ERP's DBA applies: settings, a replication role, the publication of exactly the tables the
    mapping's views read. Nothing is written on the ERP (the mapping is tried in a transaction rolled back)."""
    from footnote_pg import node

    found = node.plan(erp, mapping_spec, table or [])
    database = psycopg_dbname(erp)
    sys.stdout.write(found.text(database))


def psycopg_dbname(url: str) -> str:
    import psycopg

    return str(psycopg.conninfo.conninfo_to_dict(url).get("dbname") or "?")


@node_app.command("init")
@friendly
def node_init(
    erp: ErpUrl,
    mapping_spec: NodeMapping,
    node_database: NodeUrl = None,
    data_dir: DataDir = None,
    max_lag: Annotated[str | None, typer.Option("--max-lag", metavar="DURATION",
                                                help="node_max_lag: answers refuse beyond this lag (default 60s).")
                       ] = None,
    name: Annotated[str, typer.Option("--name", metavar="NAME",
                                      help="The subscription and its slot on the ERP: one name per node.")
                    ] = "footnote_node",
) -> None:
    """Copy the published tables' definitions to the node, install footnote-pg and the mapping there, subscribe and
    wait for the initial copy."""
    from footnote_pg import node

    with progress("copying the ERP's tables to the node"):
        report = node.init(erp, mapping_spec, node.node_url(data_dir, node_database), max_lag=max_lag,
                           subscription=name)
    out.print(f"node ready: {report.tables} tables, {report.rows:,} rows copied in {report.sync_seconds:.1f} s; "
              f"ask with --database-url '{report.url}'", highlight=False, markup=False)


@node_app.command("status")
@friendly
def node_status(
    node_database: NodeUrl = None,
    data_dir: DataDir = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the status as JSON.")] = False,
) -> None:
    """The subscription's state, the ERP position received, the lag; exit 1 when answers would be refused."""
    from footnote_pg import node

    report = node.status(node.node_url(data_dir, node_database))
    if as_json:
        sys.stdout.write(json.dumps(report, ensure_ascii=False) + "\n")
    else:
        for line in node.status_lines(report):
            out.print(line, highlight=False, markup=False)
    raise typer.Exit(1 if node.refused(report) else 0)


@node_app.command("resync")
@friendly
def node_resync(
    erp: ErpUrl,
    mapping_spec: NodeMapping,
    node_database: NodeUrl = None,
    data_dir: DataDir = None,
) -> None:
    """After an ALTER TABLE on the ERP (or a change of the publication): define and copy the tables again and apply
    the mapping again; the ledger, call log and settings stay."""
    from footnote_pg import node

    with progress("copying the ERP's tables to the node again"):
        report = node.resync(erp, mapping_spec, node.node_url(data_dir, node_database))
    out.print(f"node resynced: {report.tables} tables, {report.rows:,} rows copied in {report.sync_seconds:.1f} s",
              highlight=False, markup=False)


scope_app = typer.Typer(help="Access scopes: which customers, suppliers and items a login sees (footnote.scopes, "
                              "footnote.scope_bindings; "
                              "docs/scopes.md).", no_args_is_help=True)
app.add_typer(scope_app, name="scope")


def _scope_lines(scope: Any) -> list[str]:
    lines = [f"{scope.id}: {scope.description}", f"  customers: {scope.criteria()}"]
    if scope.customers is not None:
        lines.append(f"  customers in it now: {scope.customers:,}")
    if scope.supplier_ids or scope.supplier_countries:
        lines.append(f"  suppliers: {scope.supplier_criteria()}")
        if scope.suppliers is not None:
            lines.append(f"  suppliers in it now: {scope.suppliers:,}")
    if scope.item_ids:
        lines.append(f"  items: {scope.item_criteria()}")
        if scope.items is not None:
            lines.append(f"  items in it now: {scope.items:,}")
    lines += [f"  bound to: {', '.join(scope.roles) or '(no role)'}", f"  digest: {scope.digest}"]
    return lines


@scope_app.command("list")
@friendly
def scope_list(
    database_url: DatabaseUrl = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the scopes as JSON.")] = False,
) -> None:
    """List the scopes, their criteria and the roles bound to them."""
    from footnote_pg import scopes

    with _connect(database_url) as conn:
        found = scopes.list_scopes(conn)
    if as_json:
        sys.stdout.write(json.dumps([f.as_dict() for f in found], ensure_ascii=False) + "\n")
        return
    for scope in found:
        out.print("\n".join(_scope_lines(scope)), highlight=False, markup=False)
    if not found:
        out.print("no scopes: every login sees every customer", highlight=False)


@scope_app.command("show")
@friendly
def scope_show(
    scope_id: Annotated[str, typer.Argument(metavar="SCOPE", help="The scope's id.")],
    database_url: DatabaseUrl = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the scope as JSON.")] = False,
) -> None:
    """Show one scope: criteria, how many customers it holds now, the roles bound to it and its digest."""
    from footnote_pg import scopes

    with _connect(database_url) as conn:
        scope = scopes.show(conn, scope_id)
    if as_json:
        sys.stdout.write(json.dumps(scope.as_dict(), ensure_ascii=False) + "\n")
    else:
        out.print("\n".join(_scope_lines(scope)), highlight=False, markup=False)


@scope_app.command("create")
@friendly
def scope_create(
    scope_id: Annotated[str, typer.Argument(metavar="SCOPE", help="Its id: lower-case letters, digits, _ . -")],
    description: Annotated[str, typer.Option("--description", help="What the scope is, for people.")],
    owner: Annotated[list[str] | None, typer.Option(
        "--owner", metavar="NAME", help="An account owner whose customers it sees (repeatable).")] = None,
    country: Annotated[list[str] | None, typer.Option(
        "--country", metavar="CODE", help="A country whose customers it sees (repeatable).")] = None,
    customer: Annotated[list[int] | None, typer.Option(
        "--customer", metavar="ID", help="A customer id it sees (repeatable).")] = None,
    supplier: Annotated[list[int] | None, typer.Option(
        "--supplier", metavar="ID", help="A supplier id it sees (repeatable).")] = None,
    supplier_country: Annotated[list[str] | None, typer.Option(
        "--supplier-country", metavar="CODE", help="A country whose suppliers it sees (repeatable).")] = None,
    item: Annotated[list[int] | None, typer.Option(
        "--item", metavar="ID", help="An item id it sees (repeatable).")] = None,
    database_url: DatabaseUrl = None,
) -> None:
    """Create a scope. A customer is in it when it matches every kind of customer criterion given (none given:
    every customer); suppliers and items likewise."""
    from footnote_pg import scopes

    with _connect(database_url) as conn:
        scope = scopes.create(conn, scope_id, description, owner or [], country or [], customer or [],
                              supplier or [], supplier_country or [], item or [])
    out.print("\n".join(["created " + _scope_lines(scope)[0], *_scope_lines(scope)[1:]]),
              highlight=False, markup=False)


@scope_app.command("bind")
@friendly
def scope_bind(
    role: Annotated[str, typer.Argument(metavar="ROLE", help="A PostgreSQL role: a login, or a role logins are in.")],
    scope_id: Annotated[str, typer.Argument(metavar="SCOPE", help="The scope's id.")],
    database_url: DatabaseUrl = None,
) -> None:
    """Bind a role to a scope: its sessions (and those of its members without a binding of their own) see only the
    scope's customers."""
    from footnote_pg import scopes

    with _connect(database_url) as conn:
        before = scopes.bind(conn, role, scope_id)
    out.print(f"bound {role} to scope {scope_id}" + (f" (was {before})" if before and before != scope_id else ""),
              highlight=False, markup=False)


def main() -> None:
    import signal

    try:
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
        app()
    except KeyboardInterrupt:  # before the command group runs (building it)
        interrupted()
        sys.exit(INTERRUPTED)
    finally:  # the command is over: a Ctrl-C while Python shuts down (its threads joined) changes nothing
        signal.signal(signal.SIGINT, signal.SIG_IGN)


if __name__ == "__main__":
    main()
