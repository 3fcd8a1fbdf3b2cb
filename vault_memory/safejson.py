"""JSON read from outside (a transcript, an LLM's reply, a socket, a file under .vmem/):
a document nested deeper than Python's parser can recurse is malformed input like any
other, a ``json.JSONDecodeError`` (a ``ValueError``) the caller reports and skips, never a
``RecursionError`` that takes the rest down (100,000 ``[`` in one line did)."""

from __future__ import annotations

import json
from typing import Any


def loads(text: str | bytes) -> Any:
    try:
        return json.loads(text)
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply to read", "", 0) from None
