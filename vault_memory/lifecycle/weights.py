"""How much a recalled memory weighs, and why one must stay out of the block (pure functions)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from ..vault.memory import Memory
from .rules import Rules
from .states import Timeline, memory_state, timeline

CONFIDENCE_WEIGHT = {"high": 1.0, "medium": 0.92, "low": 0.75}
#: recency: a memory loses at most this fraction of its score as it ages
RECENCY_MAX_PENALTY = 0.15
#: age (days) at which half of that penalty applies
RECENCY_HALF_DAYS = 180.0


@dataclass(frozen=True)
class RecallFilter:
    """What a recall asks to see beyond the default (current, unexpired, unarchived, fresh
    memories of no persona or of its own)."""

    persona: str | None = None
    types: frozenset[str] | None = None
    include_expired: bool = False
    include_archived: bool = False
    include_stale: bool = False
    #: the moment judged is one the user chose (``--as-of``): a memory created after it did
    #: not exist yet. At today's moment a ``created`` in the future is a clock ahead of this
    #: one (another machine's, a synced file's) or a typo: the memory is shown, and
    #: ``vmem doctor`` names it (it had left a person's fact out of every recall, unsaid)
    as_of: bool = False


def exclusion_reason(
    memory: Memory,
    now: dt.datetime,
    superseded: set[str],
    filter: RecallFilter = RecallFilter(),
    rules: Rules = Rules(),
    tl: Timeline | None = None,
) -> str | None:
    """Why ``memory`` must stay out of the block ("superseded", "expired", …), or None when
    it may be recalled."""
    if memory.persona and memory.persona != filter.persona:
        return "other persona"
    if filter.types and memory.type not in filter.types:
        return "type"
    tl = tl or timeline(memory, rules)
    if filter.as_of and tl.created is not None and tl.created > now + dt.timedelta(minutes=1):
        return "created after --as-of"
    return _state_reason(memory_state(memory, now, superseded, rules, tl), tl, now, filter)


def _state_reason(state: str, tl: Timeline, now: dt.datetime, filter: RecallFilter) -> str | None:
    """Why a memory in ``state`` stays out under ``filter``, or None. ``memory_state`` stops
    at the first state that applies: an archived memory may also be expired, an expired
    one also stale."""
    if state == "superseded":
        return "superseded"
    if state == "archived" and not filter.include_archived:
        return "archived"
    if (state == "expired" or (state == "archived" and tl.is_expired(now))) and not filter.include_expired:
        return "expired"
    stale = state == "stale" or (state in ("archived", "expired") and tl.decay_state(now) == "stale")
    if stale and not filter.include_stale:
        return "stale"
    return None


def recency_weight(tl: Timeline, now: dt.datetime) -> float:
    """1.0 for a memory confirmed now, sliding smoothly towards 1 - RECENCY_MAX_PENALTY; 1.0
    for one that never decays (pinned, a profile fact, a note): its age says nothing
    against it, as its state does not."""
    age = tl.age_days(now)
    if age is None or tl.limits is None:
        return 1.0
    age = max(0.0, age)
    return 1.0 - RECENCY_MAX_PENALTY * age / (age + RECENCY_HALF_DAYS)


def max_lifecycle_weight(rules: Rules = Rules()) -> float:
    """The largest weight ``lifecycle_weight`` can give under ``rules`` (best confidence, no
    age, importance 1, the heaviest state, pinned): what lets recall stop early, exactly."""
    heaviest_state = max(1.0, *rules.state_weight.values())
    return max(CONFIDENCE_WEIGHT.values()) * 1.0 * (0.9 + 0.2 * 1.0) * heaviest_state * 1.1


def lifecycle_weight(
    memory: Memory, now: dt.datetime, rules: Rules = Rules(), tl: Timeline | None = None
) -> tuple[float, dict[str, Any]]:
    """Multiplier on a memory's relevance, and its parts (shown by ``--explain``)."""
    tl = tl or timeline(memory, rules)
    state = tl.decay_state(now)
    importance = memory.importance if memory.importance is not None else 0.5
    parts: dict[str, Any] = {
        "confidence": CONFIDENCE_WEIGHT.get(memory.confidence, 0.9),
        "recency": recency_weight(tl, now),
        "importance": 0.9 + 0.2 * importance,
        "decay": rules.state_weight.get(state, 1.0),
        "pinned": 1.1 if memory.pinned else 1.0,
    }
    weight = 1.0
    for value in parts.values():
        weight *= value
    parts["state"] = state
    return weight, parts
