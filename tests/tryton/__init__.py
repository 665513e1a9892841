"""A small Tryton 8 database to test the Tryton mapping (sql/mappings/tryton.sql) against Tryton's own figures."""
