"""The daemon's socket protocol, all of it: where the socket lives, every operation's name,
and the wire form of what travels (newline-delimited JSON, one request per connection).

    request   {"op": <Op>, ...payload}
    answer    {"ok": true, ...} or {"ok": false, "error": "...", "kind": "<error class>"}

Standard library and plain data only, so a client that the daemon answers starts fast.
Every client reaches the daemon through ``daemonlink`` (the hook script through its copy).
A recall is answered in one of two shapes: rendered (``render: "cli"``: what `vmem
recall` prints, for the fast path and the hook) or as data (the ``result`` the CLI's
backend renders itself). Hooks installed before they asked for the rendered answer send
``render: "block"`` (and ``block_budget``): their answer, ``{block, hits, warnings}``, is
kept for them until they are installed again.
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Any

from ..recall.query import LEGS
from ..recall.results import Hit, RecallQuery, RecallResult
from ..vault.memory import Memory

#: texts one EMBED request may carry (the answer must fit the socket's size bound)
MAX_EMBED_TEXTS = 64
#: the ``kind`` of the answer of a daemon asked about a vault it does not serve (every request
#: names its vault: a socket linked from another vault's .vmem/ must not answer for it)
WRONG_VAULT = "WrongVault"
#: the ``kind`` of the answer of a daemon with no room for another connection: the caller
#: does the work in its own process
BUSY = "Busy"


class Op(StrEnum):
    PING = "ping"  # → {pid}
    STATUS = "status"  # → {status: {...}}
    RECALL = "recall"  # {query} → {result}; {query, render: "cli", format, explain} → {stdout, stderr};
    # with {session}: only what that session was not shown yet (``recall.delta``); {reset: true} forgets what it was
    NEAREST = "nearest"  # {text, limit} → {hits: [[path, cosine]]} (writers of an earlier vmem)
    EMBED = "embed"  # {texts} → {vectors: [[float]]} (at most MAX_EMBED_TEXTS)
    SYNC = "sync"  # → {report} (the whole vault walked); {scope: "pending"}: only what file events named
    REINDEX = "reindex"  # → {report}


def query_to_wire(query: RecallQuery) -> dict[str, Any]:
    return {
        "text": query.text,
        "k": query.k,
        "types": sorted(query.types) if query.types else None,
        "persona": query.persona,
        "as_of": query.as_of.isoformat() if query.as_of else None,
        "include_expired": query.include_expired,
        "include_archived": query.include_archived,
        "include_stale": query.include_stale,
        "legs": list(query.legs),
        "include_pinned": query.include_pinned,
        "budget": query.budget,
    }


def query_from_wire(data: dict[str, Any], *, k: int, budget: int) -> RecallQuery:
    """A wire query; ``k`` and ``budget`` fill what it leaves out (the vault's ``[recall]``,
    so a client as small as the hook script need not know them)."""
    return RecallQuery(
        text=data["text"],
        k=int(data.get("k") or k),
        types=frozenset(data["types"]) if data.get("types") else None,
        persona=data.get("persona"),
        as_of=dt.datetime.fromisoformat(data["as_of"]) if data.get("as_of") else None,
        include_expired=bool(data.get("include_expired")),
        include_archived=bool(data.get("include_archived")),
        include_stale=bool(data.get("include_stale")),
        legs=tuple(data.get("legs") or LEGS),
        include_pinned=data.get("include_pinned", True),
        budget=int(data.get("budget") or budget),
    )


def result_to_wire(result: RecallResult) -> dict[str, Any]:
    """Every hit's full memory, so the client renders exactly what an in-process recall would."""
    return {
        "took_ms": result.took_ms,
        "warnings": result.warnings,
        "notes": result.notes,
        "timings": result.timings,
        "hits": [
            {
                "memory": h.memory.to_dict() | {"id_derived": h.memory.id_derived},
                "score": h.score,
                "pinned_only": h.pinned_only,
                "explain": h.explain,
                "outdated_by": h.outdated_by,
                "conflicts_with": h.conflicts_with,
            }
            for h in result.hits
        ],
    }


def result_from_wire(data: dict[str, Any], query: RecallQuery, took_ms: float) -> RecallResult:
    """The daemon's result as the caller sees it: ``took_ms`` is the whole round trip, the
    daemon's own time becomes ``server_ms``."""
    hits = [
        Hit(
            Memory.from_record(h["memory"]),
            h["score"],
            h.get("pinned_only", False),
            h.get("explain") or {},
            h.get("outdated_by"),
            list(h.get("conflicts_with") or []),
        )
        for h in data["hits"]
    ]
    return RecallResult(
        query,
        hits,
        took_ms,
        None,
        list(data.get("warnings") or []),
        answered_by="daemon",
        server_ms=float(data.get("took_ms") or 0.0),
        timings=dict(data.get("timings") or {}),
        notes=[str(note) for note in data.get("notes") or []],
    )


def error_answer(error: BaseException) -> dict[str, Any]:
    return {"ok": False, "error": str(error) or type(error).__name__, "kind": type(error).__name__}
