"""What a recall returns: plain data, no heavy imports, so the daemon's clients and the
renderer can use it without loading numpy, Whoosh or the model."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..vault.memory import Memory, jsonable

if TYPE_CHECKING:
    from ..index.sync import SyncReport


@dataclass
class RecallQuery:
    text: str
    k: int = 10
    types: set[str] | None = None
    persona: str | None = None
    as_of: dt.datetime | None = None
    include_expired: bool = False
    include_archived: bool = False
    include_stale: bool = False
    legs: tuple[str, ...] = ("keyword", "vector")
    include_pinned: bool = True


@dataclass
class Hit:
    memory: Memory
    score: float
    #: included because it is pinned, not because it matched the query
    pinned_only: bool = False
    explain: dict[str, Any] = field(default_factory=dict)

    def to_dict(self, explain: bool = False) -> dict[str, Any]:
        m = self.memory
        data = {
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

    def to_dict(self, explain: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "query": self.query,
            "results": [h.to_dict(explain) for h in self.hits],
            "took_ms": round(self.took_ms, 2),
            "answered_by": self.answered_by,
        }
        if self.server_ms is not None:
            data["server_ms"] = round(self.server_ms, 2)
        if self.timings:
            data["timings"] = {k: round(v, 2) for k, v in self.timings.items()}
        if self.warnings:
            data["warnings"] = self.warnings
        if explain and self.sync is not None:
            data["sync"] = self.sync.to_dict()
        return data


def query_to_dict(query: RecallQuery) -> dict[str, Any]:
    return {
        "text": query.text, "k": query.k, "types": sorted(query.types) if query.types else None,
        "persona": query.persona, "as_of": query.as_of.isoformat() if query.as_of else None,
        "include_expired": query.include_expired, "include_archived": query.include_archived,
        "include_stale": query.include_stale, "legs": list(query.legs), "include_pinned": query.include_pinned,
    }


def query_from_dict(data: dict[str, Any]) -> RecallQuery:
    return RecallQuery(
        text=data["text"], k=int(data.get("k") or 10), types=set(data["types"]) if data.get("types") else None,
        persona=data.get("persona"), as_of=dt.datetime.fromisoformat(data["as_of"]) if data.get("as_of") else None,
        include_expired=bool(data.get("include_expired")), include_archived=bool(data.get("include_archived")),
        include_stale=bool(data.get("include_stale")), legs=tuple(data.get("legs") or ("keyword", "vector")),
        include_pinned=data.get("include_pinned", True),
    )


def result_to_wire(result: RecallResult) -> dict[str, Any]:
    """The daemon's answer: every hit's full memory, so the client renders exactly what an
    in-process recall would."""
    return {
        "query": result.query, "took_ms": result.took_ms, "warnings": result.warnings, "timings": result.timings,
        "hits": [{"memory": h.memory.to_dict() | {"id_derived": h.memory.id_derived}, "score": h.score,
                  "pinned_only": h.pinned_only, "explain": h.explain} for h in result.hits],
    }


def result_from_wire(data: dict[str, Any]) -> RecallResult:
    hits = [Hit(Memory.from_record(h["memory"]), h["score"], h.get("pinned_only", False), h.get("explain") or {})
            for h in data["hits"]]
    return RecallResult(data["query"], hits, data.get("took_ms", 0.0), None, list(data.get("warnings") or []),
                        timings=dict(data.get("timings") or {}))
