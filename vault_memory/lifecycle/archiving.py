"""What ``vmem gc`` moves to ``archive/``: expired memories, then persona memories over
their cap (a pure plan; the façade carries it out through ``Vault.archive``)."""

from __future__ import annotations

import datetime as dt

from ..vault.memory import Memory
from ..vault.supersession import superseded_ids
from .importance import persona_overflow
from .rules import Rules
from .states import STATES, memory_state


def archive_plan(memories: list[Memory], now: dt.datetime, rules: Rules = Rules()) -> list[tuple[Memory, str]]:
    """(memory, reason) for every memory that should move to ``archive/`` now."""
    superseded = superseded_ids(memories)
    moves = [(m, "expired") for m in memories if memory_state(m, now, superseded, rules) == "expired"]
    moving = {m.id for m, _ in moves}
    moves += [
        (m, "over persona cap")
        for m in persona_overflow(memories, rules.persona_cap, now, superseded, rules)
        if m.id not in moving
    ]
    return moves


def state_counts(memories: list[Memory], now: dt.datetime, rules: Rules = Rules()) -> dict[str, int]:
    """How many memories are in each lifecycle state now (every state listed)."""
    superseded = superseded_ids(memories)
    counts = {s: 0 for s in STATES}
    for m in memories:
        counts[memory_state(m, now, superseded, rules)] += 1
    return counts
