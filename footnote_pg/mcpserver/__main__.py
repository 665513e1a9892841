"""``python -m footnote_pg.mcpserver``: the MCP server over stdio (``--http`` for streamable HTTP)."""

from footnote_pg.mcpserver.server import cli

cli()
