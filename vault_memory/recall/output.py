"""What `vmem recall` prints for a result: one function for the CLI and for the daemon,
which renders it for the command's fast path (``vault_memory.fastpath``), so a recall
answered without importing the CLI prints the same bytes as one that imports it."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .results import RecallResult

#: `vmem recall --format`
FORMATS = ("block", "json", "md")


def recall_output(result: RecallResult, *, format: str = "block", explain: bool = False) -> tuple[str, list[str]]:
    """(stdout, stderr lines): stdout ends with a newline unless it is empty (nothing
    relevant prints nothing); ``format`` is block, json or md."""
    errors = [f"warning: {w}" for w in result.warnings]
    if format == "json":
        return json.dumps(result.to_dict(explain), ensure_ascii=False, indent=2) + "\n", errors
    if result.budget_note:
        errors.append(f"warning: {result.budget_note}")
    text = result.block if format == "block" else result.markdown
    if explain:
        errors += [f"{hit.memory.id}  score={hit.score:.5f}  {json.dumps(hit.explain)}" for hit in result.hits]
    return (text + "\n" if text else ""), errors
