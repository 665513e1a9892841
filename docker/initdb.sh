#!/bin/sh
# Apply footnote-pg (sql/NN_*.sql) and the sample ERP (sql/sample/NN_*.sql) to the
# database the postgres image creates, in one transaction, then stamp the Alembic
# revision those files correspond to and generate the sample data.
set -eu
root="${FOOTNOTE_DIR:-/footnote}"
psql_run() { psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" "$@"; }

files=""
for f in "$root"/sql/[0-9][0-9]_*.sql "$root"/sql/sample/[0-9][0-9]_*.sql; do
    files="$files -f $f"
done
# shellcheck disable=SC2086
psql_run --single-transaction $files

revision=$(ls "$root"/versions/[0-9][0-9][0-9][0-9]_*.py | sort | tail -n 1 | xargs basename | sed 's/\.py$//')
psql_run <<SQL
CREATE SCHEMA footnote_meta;
COMMENT ON SCHEMA footnote_meta IS 'footnote-pg: the installed revision (Alembic''s version table)';
REVOKE ALL ON SCHEMA footnote_meta FROM PUBLIC;
CREATE TABLE footnote_meta.alembic_version (version_num varchar(32) NOT NULL PRIMARY KEY);
INSERT INTO footnote_meta.alembic_version VALUES ('$revision');
SELECT erp.generate_sample(2400, 42);
SQL
