"""Integrations: vmem one command away from the agents, scripts and repositories that use
it. Each is a thin adapter over the façade (no memory logic of its own):

- ``hookfiles``    the standalone hook script (``hooks/vmem_hook.py``) and where it goes
- ``claude_code``  ``vmem hooks install claude-code``: settings.json merged, not replaced
- ``git``          ``vmem hooks install git``: pre-commit doctor, index refresh on merge/checkout
- ``shell``        ``vmem hooks install shell``: a prompt-to-block command for any script
- ``mcp_server``   ``vmem mcp``: the façade's verbs as MCP tools over stdio
- ``mcp_relay``    ``vmem mcp`` as the console script starts it: the handshake answered at
                   once (standard library only), the server above started beside it
"""
