"""Lifecycle states: which memories may reach the prompt.

Pure functions of (memory, now, rules); no I/O. ``docs/lifecycle.md`` explains each rule
and where its numbers come from. The states, in the order they are checked:

    archived      the file lives under archive/ (moved there by `vmem gc`)
    superseded    another present memory `supersedes` it
    expired       past its `expires`, or past its type's time-to-live
    stale         unconfirmed for too long: never injected automatically
    low_priority  injected only when highly relevant to the query
    aging         still injected, weighs a little less
    active
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from ..vault.memory import Memory
from ..vault.supersession import is_superseded
from ..vault.values import as_datetime
from .rules import Rules, is_archived, is_profile, reference_time

STATES = ("active", "aging", "low_priority", "stale", "expired", "superseded", "archived")


def expires_at(memory: Memory, rules: Rules = Rules()) -> dt.datetime | None:
    """When the memory stops being valid. An explicit `expires` always wins (a date lasts
    the whole day); otherwise the type's TTL from `created`, except for pinned memories and
    profile facts, which never expire by default."""
    try:
        if memory.expires is not None:
            if isinstance(memory.expires, dt.datetime):
                return as_datetime(memory.expires)
            end = dt.datetime.combine(memory.expires + dt.timedelta(days=1), dt.time())
            return end.astimezone()
        ttl = rules.ttl_days.get(memory.type, 0)
        if not ttl or memory.pinned or is_profile(memory, rules) or memory.created is None:
            return None
        return as_datetime(memory.created) + dt.timedelta(days=ttl)
    except OverflowError:  # a hand-written year 9999: past the last time Python can hold, so never
        return None


def is_expired(memory: Memory, now: dt.datetime, rules: Rules = Rules()) -> bool:
    at = expires_at(memory, rules)
    return at is not None and now >= at


def decay_thresholds(memory: Memory, rules: Rules = Rules()) -> tuple[float, float, float] | None:
    """(aging, low priority, stale) in days for this memory, or None if it never decays."""
    if memory.pinned or is_profile(memory, rules) or memory.type in rules.no_decay_types:
        return None
    level = memory.confidence
    if level == "high" and memory.source == "explicit":
        level = "explicit_high"
    factor = rules.decay_factor.get(level, 1.0)
    if factor <= 0:
        return None
    return rules.aging_days * factor, rules.low_priority_days * factor, rules.stale_days * factor


def decay_state(memory: Memory, now: dt.datetime, rules: Rules = Rules()) -> str:
    """``active``, ``aging``, ``low_priority`` or ``stale``, by days since last confirmation."""
    return timeline(memory, rules).decay_state(now)


@dataclass(frozen=True)
class Timeline:
    """What a memory's state at any moment depends on, worked out once from the memory and
    the rules. Recall checks dozens of candidates per query; with a timeline kept per
    memory (``recall.engine.Engine.timeline``) each check is a few comparisons."""

    archived: bool
    created: dt.datetime | None
    expires_at: dt.datetime | None
    reference: dt.datetime | None  # last known true (see reference_time)
    limits: tuple[float, float, float] | None  # decay thresholds in days, None: never decays

    def age_days(self, now: dt.datetime) -> float | None:
        return None if self.reference is None else (now - self.reference).total_seconds() / 86400

    def is_expired(self, now: dt.datetime) -> bool:
        return self.expires_at is not None and now >= self.expires_at

    def decay_state(self, now: dt.datetime) -> str:
        age = self.age_days(now)
        if self.limits is None or age is None:
            return "active"
        aging, low, stale = self.limits
        if age >= stale:
            return "stale"
        if age >= low:
            return "low_priority"
        if age >= aging:
            return "aging"
        return "active"


def timeline(memory: Memory, rules: Rules = Rules()) -> Timeline:
    return Timeline(
        archived=is_archived(memory),
        created=as_datetime(memory.created) if memory.created is not None else None,
        expires_at=expires_at(memory, rules),
        reference=reference_time(memory),
        limits=decay_thresholds(memory, rules),
    )


def memory_state(
    memory: Memory, now: dt.datetime, superseded: set[str], rules: Rules = Rules(), tl: Timeline | None = None
) -> str:
    """The one state that describes the memory now (see the module docstring)."""
    tl = tl or timeline(memory, rules)
    if tl.archived:
        return "archived"
    if is_superseded(memory, superseded):  # by id, file stem (a wikilink) or what it says (a renamed file)
        return "superseded"
    if tl.is_expired(now):
        return "expired"
    return tl.decay_state(now)
