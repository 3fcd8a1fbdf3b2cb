"""Nothing said twice in a session (seed 004, "delta mínimo"): an agent keeps every block a
hook or a tool gave it in its conversation, so a memory it already has is sent again only
when it changed. Each session's ledger holds, per memory id, the version of the line the
agent was shown; a compaction or a /clear empties it, since the agent lost what it had.

Plain data and pure functions over a ``RecallResult``; the daemon (the hooks' sessions) and
the MCP server (one client's session) keep the ledgers.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import replace

from .render import mark_of, memory_line, select
from .results import Hit, RecallResult

#: sessions a process remembers at once; the oldest is dropped first (it then gets what it
#: already had once more: a few tokens, never a missing memory)
MAX_SESSIONS = 256


def version(hit) -> str:
    """What the agent was shown of a memory: its line as the block renders it (text, key,
    date, confidence, pin, the mark of an older fact). A change to any of them is a
    new version, sent again."""
    line = memory_line(hit.memory, mark=mark_of(hit))
    return hashlib.blake2b(line.encode("utf-8"), digest_size=8).hexdigest()


class Sessions:
    """Per session, {memory id: version sent}: bounded, newest sessions kept."""

    def __init__(self, limit: int = MAX_SESSIONS):
        self.limit = limit
        self._sent: OrderedDict[str, dict[str, str]] = OrderedDict()

    def forget(self, session: str) -> None:
        """The agent lost its context (a compaction, a /clear): send what matters again."""
        self._sent.pop(session, None)

    def sent(self, session: str) -> dict[str, str]:
        ledger = self._sent.get(session)
        if ledger is None:
            ledger = self._sent[session] = {}
            while len(self._sent) > self.limit:
                self._sent.popitem(last=False)
        else:
            self._sent.move_to_end(session)
        return ledger

    def already_has(self, session: str | None, memories: list) -> None:
        """``memories`` are in what the agent reads already (the prompt that said them)."""
        if session and memories:
            ledger = self.sent(session)
            for memory in memories:
                ledger[memory.id] = version(Hit(memory, 0.0))

    def deliver(self, session: str | None, result: RecallResult, *, index: bool = False) -> RecallResult:
        """``result`` with only what ``session`` has not been shown yet (all of it with no
        session), and what its block shows recorded as shown; as an ``index``, only the
        memories its lines show whole (one cut short is sent whole when a prompt needs it)."""
        if not session:
            return result
        ledger = self.sent(session)
        fresh = [h for h in result.hits if ledger.get(h.memory.id) != version(h)]
        delivered = replace(result, hits=fresh) if len(fresh) != len(result.hits) else result
        if index:
            shown = select(delivered.hits, delivered.query.budget, index=True)
            for group in shown.groups.values():
                for hit, line in group:
                    if line == memory_line(hit.memory, mark=mark_of(hit)):
                        ledger[hit.memory.id] = version(hit)
            return delivered
        for hit in delivered.selection.hits:
            ledger[hit.memory.id] = version(hit)
        return delivered
