"""The SQL splitter that applies sql/ statement by statement."""

from footnote_pg import sqlfiles


def test_splits_at_top_level_semicolons_only() -> None:
    script = """
    -- a comment; with a semicolon
    CREATE TABLE t (a text DEFAULT 'x;y');
    /* block; comment */
    CREATE FUNCTION f() RETURNS text LANGUAGE plpgsql AS $body$
    BEGIN RETURN 'a;b' || $$;$$; END
    $body$;
    SELECT ";odd;" FROM t;
    """
    statements = sqlfiles.split_statements(script)
    assert len(statements) == 3
    assert statements[0].endswith("CREATE TABLE t (a text DEFAULT 'x;y');")
    assert "RETURN 'a;b' || $$;$$; END" in statements[1]
    assert statements[2] == 'SELECT ";odd;" FROM t;'


def test_comment_only_pieces_are_dropped_and_last_statement_needs_no_semicolon() -> None:
    assert sqlfiles.split_statements("-- only a comment\n") == []
    assert sqlfiles.split_statements("SELECT 1;\n-- trailing\nSELECT 2") == ["SELECT 1;", "-- trailing\nSELECT 2"]


def test_unterminated_dollar_quote_is_an_error() -> None:
    try:
        sqlfiles.split_statements("SELECT $x$ never closed")
    except ValueError as exc:
        assert "unterminated dollar quote $x$" in str(exc)
    else:
        raise AssertionError("expected ValueError")


def test_every_schema_file_splits_and_is_in_apply_order() -> None:
    files = sqlfiles.schema_files()
    assert [f.name for f in files] == sorted(f.name for f in files)
    assert files[0].name.startswith("00_") and [f.name[:3] for f in files][-2:] == ["90_", "95_"]  # grants, then
    # the installer's own statements (sql/95_protect.sql: the event trigger a superuser creates)
    for path in files + sqlfiles.sample_files():
        assert sqlfiles.split_statements(path.read_text(encoding="utf-8")), path
