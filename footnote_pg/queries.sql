-- The statements the Python layer sends. Each block: "-- name: <name>", a
-- one-line description, then the statement with %(param)s placeholders.
-- Python never builds SQL text; almost every statement calls one function.

-- name: set_actor
-- Name the application actor for the current transaction.
SELECT set_config('footnote.actor', %(actor)s, true), set_config('footnote.actor_role', %(actor_role)s, true)

-- name: set_locale
-- Choose the display locale for the current transaction.
SELECT set_config('footnote.locale', %(locale)s, true)

-- name: call
-- Call a catalog operation with a JSON object of arguments.
SELECT footnote.call(%(operation)s, %(arguments)s::jsonb)

-- name: catalog
-- Every catalog operation with its arguments.
SELECT operation, title, description, returns, arguments, signature FROM footnote.catalog ORDER BY operation

-- name: installed_revision
-- The footnote-pg revision installed, if any.
SELECT version_num FROM public.footnote_alembic_version
