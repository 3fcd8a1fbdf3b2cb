"""A question about the user as a whole ("what do you know about me?"): the current profile
facts, most important first, whatever words they use."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from ..index.snapshot import Snapshot
from ..lang import of_the_user, tells_of_the_user
from ..lifecycle import Rules, exclusion_reason, key_forms
from ..vault.memory import Memory
from ..vault.slots import subject_tag
from .results import Hit

#: how many of the most important facts a profile reads for each place it fills
PROFILE_READ = 4
#: what the user is, as slot subjects (``vault.slots``): the profile a question about the
#: user as a whole is answered with, with the pinned facts and the profile keys
PROFILE_SUBJECTS = ("name", "surname", "pronouns", "birthday", "age", "residence", "work", "partner", "diet")


def profile_hits(
    snap: Snapshot, rules: Rules, now: dt.datetime, superseded: set[str], allowed, seen: set[str], k: int
) -> list[Hit]:
    """The current profile facts, most important first: pinned, under a profile key, or
    about what the user is (name, city, work…); found by the catalog's indexes. Room
    left goes to the user's other facts, whatever they say ("The user is lactose
    intolerant", "my standup is at 9:30", "born in Montevideo"), the most important first,
    then to the other facts the user wrote ("the billing service runs on port 8443": in a
    vault of project notes, they had filled the profile)."""
    keys = frozenset(form for key in rules.profile_keys for form in key_forms(key))
    found = snap.memories_like(None, keys) | snap.memories_tagged([subject_tag(s) for s in PROFILE_SUBJECTS])
    found |= snap.memories(snap.pinned_paths())
    profile = [m for _, m in sorted(found.items(), key=lambda kv: (-(kv[1].importance or 0.5), kv[0]))]

    def in_turn() -> Iterator[Memory]:  # the user's other facts read only when the profile leaves room
        yield from (m for m in profile if m.type == "fact")
        others = list(snap.facts_by_importance(PROFILE_READ * k).values())
        theirs = {m.id for m in others if tells_of_the_user(m.text)}  # "born in Montevideo" before "the CI cache…"
        yield from (m for m in others if m.id in theirs)
        yield from (
            m for m in others if m.id not in theirs and (of_the_user(m.text) or m.source in ("user", "explicit"))
        )

    def current(memory: Memory) -> bool:
        return memory.id not in seen and not exclusion_reason(memory, now, superseded, allowed, rules)

    out: list[Hit] = []
    for memory in in_turn():
        if len(out) >= k:
            break
        if current(memory):
            seen.add(memory.id)
            out.append(Hit(memory, memory.importance or 0.5, explain={"profile": True}))
    return out
