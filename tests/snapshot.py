"""A comparable picture of everything footnote-pg puts in a database's catalog."""

from __future__ import annotations

import re
from typing import Any

import psycopg

SCHEMAS = ("footnote", "footnote_src")
# privileges compared as sets: the order of an ACL's items is the order the grants ran in, which means nothing
SORTED_ACL = "(SELECT array_agg(a::text ORDER BY a::text) FROM unnest({}) AS a)::text"

_QUERIES = {
    "schemas": """
        SELECT n.nspname, pg_get_userbyid(n.nspowner), sorted_acl(n.nspacl), obj_description(n.oid, 'pg_namespace')
        FROM pg_namespace n WHERE n.nspname = ANY(%(s)s) ORDER BY 1""",
    "relations": """
        SELECT n.nspname, c.relname, c.relkind, pg_get_userbyid(c.relowner), sorted_acl(c.relacl),
               obj_description(c.oid, 'pg_class'),
               CASE WHEN c.relkind = 'v' THEN pg_get_viewdef(c.oid) END
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = ANY(%(s)s) ORDER BY 1, 2""",
    "columns": """
        SELECT n.nspname, c.relname,
               -- the column's place among the live ones (a column dropped and added again leaves attnum behind)
               row_number() OVER (PARTITION BY a.attrelid ORDER BY a.attnum) AS place,
               a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
               pg_get_expr(d.adbin, d.adrelid), a.attidentity, a.attgenerated
        FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE n.nspname = ANY(%(s)s) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY 1, 2, 3""",
    "functions": """
        SELECT n.nspname, p.proname, pg_get_function_identity_arguments(p.oid), pg_get_function_result(p.oid),
               p.prosecdef, p.provolatile, p.proconfig::text, pg_get_userbyid(p.proowner), sorted_acl(p.proacl),
               md5(p.prosrc), obj_description(p.oid, 'pg_proc')
        FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = ANY(%(s)s) ORDER BY 1, 2, 3""",
    "constraints": """
        SELECT n.nspname, c.conrelid::regclass::text, c.conname, pg_get_constraintdef(c.oid)
        FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
        WHERE n.nspname = ANY(%(s)s) ORDER BY 1, 2, 3""",
    "indexes": """
        SELECT schemaname, tablename, indexname, indexdef FROM pg_indexes
        WHERE schemaname = ANY(%(s)s) ORDER BY 1, 2, 3""",
    "triggers": """
        SELECT t.tgrelid::regclass::text, t.tgname, pg_get_triggerdef(t.oid), t.tgenabled
        FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = ANY(%(s)s) AND NOT t.tgisinternal ORDER BY 1, 2""",
    "types": """
        SELECT n.nspname, t.typname, t.typtype, pg_get_userbyid(t.typowner), sorted_acl(t.typacl)
        FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
        WHERE n.nspname = ANY(%(s)s) AND t.typtype IN ('c', 'e', 'd') AND t.typrelid = 0 OR
              (n.nspname = ANY(%(s)s) AND t.typtype = 'c' AND
               EXISTS (SELECT 1 FROM pg_class c WHERE c.oid = t.typrelid AND c.relkind = 'c'))
        ORDER BY 1, 2""",
    "data": """
        SELECT 'settings',
               md5(string_agg(key || '=' || coalesce(value, 'NULL') || ':' || description, ',' ORDER BY key))
        FROM footnote.settings
        UNION ALL SELECT 'queries', md5(string_agg(name || sql, ',' ORDER BY name)) FROM footnote.queries
        UNION ALL SELECT 'operations', md5(string_agg(name || description, ',' ORDER BY name)) FROM footnote.operations
        UNION ALL SELECT 'operation_arguments',
            md5(string_agg(operation || position || name || type || required, ',' ORDER BY operation, position))
        FROM footnote.operation_arguments""",
    "lexicon": """
        SELECT md5(string_agg(phrase || class || coalesce(canon, '') || negated, ',' ORDER BY phrase))
        FROM footnote.lexicon""",
    "event_triggers": """
        SELECT evtname, evtevent, evtfoid::regproc::text, evtenabled, evttags::text FROM pg_event_trigger
        WHERE evtname LIKE 'footnote\\_%%' ORDER BY 1""",
    "roles": """
        SELECT rolname, rolcanlogin, rolsuper, rolinherit FROM pg_roles
        WHERE rolname LIKE 'footnote\\_%%' ORDER BY 1""",
}


def snapshot(url: str, include_data: bool = True) -> dict[str, list[tuple[Any, ...]]]:
    with psycopg.connect(url, autocommit=True) as conn:
        installed = conn.execute("SELECT to_regnamespace('footnote') IS NOT NULL").fetchone()
        picture: dict[str, list[tuple[Any, ...]]] = {}
        for key, query in _QUERIES.items():
            if key == "data" and not (include_data and installed and installed[0]):
                continue
            if key == "lexicon":
                exists = conn.execute("SELECT to_regclass('footnote.lexicon') IS NOT NULL").fetchone()
                if not (exists and exists[0]):
                    continue
            sql = re.sub(r"sorted_acl\(([\w.]+)\)", lambda m: SORTED_ACL.format(m[1]), query)
            picture[key] = conn.execute(sql, {"s": list(SCHEMAS)}).fetchall()  # type: ignore[call-overload]
    return picture
