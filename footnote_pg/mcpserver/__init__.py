"""The MCP server: footnote-pg's catalog, answers, decisions and chain check as MCP tools.

One tool per catalog operation (read from ``footnote.catalog`` at startup, with the operation's own JSON Schema and
description), plus ``answer`` (a question to a verified, recorded answer), ``submit_answer`` (an agent's own text,
graded sentence by sentence and recorded), ``record_decision`` (an agent's decision, graded by the gate and recorded)
and ``verify_chain``. Every result carries a short text, ``structuredContent`` matching the tool's ``outputSchema``,
one ``resource_link`` per evidence record and, in ``_meta``, what an agent needs to cite it: the ``call_id`` and
``result_hash`` of a catalog call, or the ledger ``seq`` and ``hash`` of a recorded answer or decision. Evidence
records are readable as resources ``erp://{type}/{id}`` through ``source_record``. A result is at most
``max_result`` bytes (16 KB by default): a larger one keeps the text, the figures and the first rows and records,
and its lists are paged as ``footnote://result/{id}/{part}/{offset}``. ``submit_answer`` takes figures by
reference (``[[2]]``, ``[[values.overdue_total]]``) and fills in their exact text before the gate reads it.

Everything database-side goes through :class:`footnote_pg.Footnote`; errors a user can cause (unknown or ambiguous
names, bad arguments, an unreachable database) come back as tool results with ``isError: true`` and one line of text,
never as a crash. Logs go to stderr: in stdio mode stdout is the protocol.

Modules: ``arguments`` (what the tools take and how it can be wrong), ``results`` (output schemas and results),
``fitting`` (results cut to max_result, the rest held for paging), ``references`` (figures written as ``[[n]]``),
``backend`` (the database side), ``tools``, ``resources``, ``server`` (the server, stdio and HTTP).

    python -m footnote_pg.mcpserver                 # stdio
    python -m footnote_pg.mcpserver --http --port 8765
    python -m footnote_pg.mcpserver --max-result 32768   # or FOOTNOTE_MCP_MAX_RESULT=32768
    footnote-pg serve                               # the web page and /mcp in one process
"""

from footnote_pg.mcpserver.backend import Backend, Config, safe_url
from footnote_pg.mcpserver.server import INSTRUCTIONS, SERVER_NAME, FootnoteMCP, build_server, cli, main, prepare

__all__ = ["INSTRUCTIONS", "SERVER_NAME", "Backend", "Config", "FootnoteMCP", "build_server", "cli", "main",
           "prepare", "safe_url"]
