"""What a recall returns: plain data, no heavy imports, so the daemon's clients and the
renderer can use it without loading numpy, Whoosh or the model."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..config import SETTINGS
from ..lifecycle import RecallFilter
from ..vault.memory import Memory, jsonable
from .render import MIN_BUDGET, Selection, block_text, estimate_tokens, markdown_text, select

DEFAULT_BUDGET: int = SETTINGS["recall"]["budget"].default
DEFAULT_K: int = SETTINGS["recall"]["k"].default

if TYPE_CHECKING:
    from ..index.sync import SyncReport


@dataclass
class RecallQuery:
    text: str
    k: int = DEFAULT_K
    types: set[str] | None = None
    persona: str | None = None
    as_of: dt.datetime | None = None
    include_expired: bool = False
    include_archived: bool = False
    include_stale: bool = False
    legs: tuple[str, ...] = ("keyword", "vector")
    include_pinned: bool = True

    @property
    def filter(self) -> RecallFilter:
        return RecallFilter(
            self.persona,
            frozenset(self.types) if self.types else None,
            self.include_expired,
            self.include_archived,
            self.include_stale,
        )


@dataclass
class Hit:
    memory: Memory
    score: float
    #: included because it is pinned, not because it matched the query
    pinned_only: bool = False
    explain: dict[str, Any] = field(default_factory=dict)

    def to_dict(self, explain: bool = False) -> dict[str, Any]:
        m = self.memory
        data: dict[str, Any] = {
            "id": m.id,
            "type": m.type,
            "key": m.key,
            "text": m.text,
            "path": m.path.as_posix() if m.path else None,
            "score": round(self.score, 6),
            "created": m.created,
            "confidence": m.confidence,
            "pinned": m.pinned,
            "domain": m.domain,
            "persona": m.persona,
            "tags": m.tags,
            "expires": m.expires,
        }
        if explain:
            data["explain"] = self.explain
        return jsonable(data)


@dataclass
class RecallResult:
    query: str
    hits: list[Hit]
    took_ms: float
    sync: SyncReport | None = None
    warnings: list[str] = field(default_factory=list)
    #: "daemon" when a running daemon answered, with its own time for the ranking
    answered_by: str = "in-process"
    server_ms: float | None = None
    #: where the ranking's time went: keyword_ms, embed_ms, vector_ms, rank_ms (the whole ranking)
    timings: dict[str, float] = field(default_factory=dict)
    #: tokens the block may take (``[recall] budget`` unless the caller said otherwise)
    budget: int = DEFAULT_BUDGET

    @property
    def selection(self) -> Selection:
        """The hits that fit the budget, with their lines: what the block shows."""
        return select(self.hits, self.budget)

    @property
    def block(self) -> str:
        """The prompt-ready ``<memory>`` block; empty when nothing relevant fits."""
        return block_text(self.selection)

    @property
    def markdown(self) -> str:
        return markdown_text(self.selection)

    @property
    def budget_note(self) -> str | None:
        """Said when memories were found but the budget left room for none of them (an
        empty block must not look like "nothing relevant")."""
        if self.hits and not self.selection:
            return (
                f"found {len(self.hits)} memories but a budget of {self.budget} tokens leaves no room for any; "
                f"the smallest useful budget is {MIN_BUDGET}"
            )
        return None

    def to_dict(self, explain: bool = False) -> dict[str, Any]:
        block = self.block
        data: dict[str, Any] = {
            "query": self.query,
            "results": [h.to_dict(explain) for h in self.hits],
            "block": block,
            "block_tokens": estimate_tokens(block),
            "budget": self.budget,
            "took_ms": round(self.took_ms, 2),
            "answered_by": self.answered_by,
        }
        note = self.budget_note
        if self.server_ms is not None:
            data["server_ms"] = round(self.server_ms, 2)
        if self.timings:
            data["timings"] = {k: round(v, 2) for k, v in self.timings.items()}
        if self.warnings or note:
            data["warnings"] = [*self.warnings, *([note] if note else [])]
        if explain and self.sync is not None:
            data["sync"] = self.sync.to_dict()
        return data
