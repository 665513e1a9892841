"""``python -m footnote_pg.mcp_server``: the MCP server; the code is in the package :mod:`footnote_pg.mcpserver`."""

from footnote_pg.mcpserver import (
    INSTRUCTIONS,
    SERVER_NAME,
    Backend,
    Config,
    FootnoteMCP,
    build_server,
    cli,
    main,
    prepare,
    safe_url,
)

__all__ = ["INSTRUCTIONS", "SERVER_NAME", "Backend", "Config", "FootnoteMCP", "build_server", "cli", "main",
           "prepare", "safe_url"]

if __name__ == "__main__":
    cli()
