"""Lifecycle rules as pure functions: which memories may reach the prompt, and how much
their state weighs. No I/O here; callers pass the memories and ``now``.
"""

from __future__ import annotations

import datetime as dt
from typing import Iterable

from .memory import Memory, as_datetime


def expires_at(memory: Memory) -> dt.datetime | None:
    """When the memory stops being valid. A date expires at the end of that day (local)."""
    if memory.expires is None:
        return None
    if isinstance(memory.expires, dt.datetime):
        return as_datetime(memory.expires)
    end = dt.datetime.combine(memory.expires + dt.timedelta(days=1), dt.time())
    return end.astimezone()


def is_expired(memory: Memory, now: dt.datetime) -> bool:
    at = expires_at(memory)
    return at is not None and now >= at


def superseded_ids(memories: Iterable[Memory]) -> set[str]:
    """Ids that some other present memory replaces (``supersedes``): never recalled."""
    out: set[str] = set()
    for m in memories:
        for ref in m.supersedes:
            if ref != m.id:
                out.add(ref)
    return out


def supersession_problems(memories: list[Memory]) -> list[tuple[Memory, str, str]]:
    """(memory, kind, message) for ``supersedes`` that point nowhere or form a cycle."""
    by_id = {m.id: m for m in memories}
    by_stem = {m.path.stem: m for m in memories if m.path is not None}
    problems: list[tuple[Memory, str, str]] = []
    for m in memories:
        for ref in m.supersedes:
            if ref == m.id:
                problems.append((m, "supersedes_cycle", "supersedes itself"))
            elif ref not in by_id and ref not in by_stem:
                problems.append((m, "dangling_supersedes", f"supersedes {ref!r}, which is not in the vault"))
    # cycles: follow each chain of supersedes; revisiting a node on the current path is a cycle
    state: dict[str, int] = {}
    reported: set[frozenset[str]] = set()

    def visit(mid: str, path: list[str]) -> None:
        state[mid] = 1
        path.append(mid)
        for ref in by_id[mid].supersedes:
            target = by_id.get(ref) or by_stem.get(ref)
            if target is None or target.id == mid:
                continue
            if state.get(target.id) == 1:
                cycle = path[path.index(target.id):]
                key = frozenset(cycle)
                if key not in reported:
                    reported.add(key)
                    chain = " → ".join([*cycle, target.id])
                    problems.append((by_id[cycle[0]], "supersedes_cycle", f"supersedes cycle: {chain}"))
            elif state.get(target.id) is None:
                visit(target.id, path)
        path.pop()
        state[mid] = 2

    for mid in sorted(by_id):
        if mid not in state:
            visit(mid, [])
    return problems


# ---------------------------------------------------------------- recall eligibility and weight

CONFIDENCE_WEIGHT = {"high": 1.0, "medium": 0.92, "low": 0.75}
#: recency: a memory loses at most this fraction of its score as it ages
RECENCY_MAX_PENALTY = 0.15
#: age (days) at which half of that penalty applies
RECENCY_HALF_DAYS = 180.0


def reference_time(memory: Memory) -> dt.datetime | None:
    """The last time the memory was known true: confirmed, else updated, else created."""
    for value in (memory.last_confirmed, memory.updated, memory.created):
        if value is not None:
            return as_datetime(value)
    return None


def eligible(memory: Memory, now: dt.datetime, *, superseded: set[str], persona: str | None,
             types: set[str] | None = None, include_expired: bool = False) -> str | None:
    """Why ``memory`` must stay out of the block, or None if it may be recalled."""
    if memory.id in superseded or (memory.path is not None and memory.path.stem in superseded):
        return "superseded"
    if memory.persona and memory.persona != persona:
        return "other persona"
    if types and memory.type not in types:
        return "type"
    if not include_expired and is_expired(memory, now):
        return "expired"
    if memory.created is not None and as_datetime(memory.created) > now + dt.timedelta(minutes=1):
        return "created after --as-of"
    return None


def recency_weight(memory: Memory, now: dt.datetime) -> float:
    """1.0 for a memory confirmed now, sliding smoothly towards 1 - RECENCY_MAX_PENALTY."""
    when = reference_time(memory)
    if when is None or memory.pinned:
        return 1.0
    age_days = max(0.0, (now - when).total_seconds() / 86400)
    return 1.0 - RECENCY_MAX_PENALTY * age_days / (age_days + RECENCY_HALF_DAYS)


def lifecycle_weight(memory: Memory, now: dt.datetime) -> tuple[float, dict[str, float]]:
    """Multiplier on a memory's relevance, and its parts (shown by ``--explain``)."""
    parts = {
        "confidence": CONFIDENCE_WEIGHT.get(memory.confidence, 0.9),
        "recency": recency_weight(memory, now),
        "importance": 0.9 + 0.2 * memory.importance if memory.importance is not None else 1.0,
    }
    weight = 1.0
    for value in parts.values():
        weight *= value
    return weight, parts
