"""How much a memory matters (importance from content cues) and which persona memories
go over their cap (pure functions)."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterable

from ..lang import all_packs
from ..vault.memory import Memory
from ..vault.sameness import key_and_text, normalize_text
from .rules import Rules, is_profile_key, reference_time
from .states import memory_state


@functools.cache
def _importance_cues() -> tuple[tuple[float, frozenset[str]], ...]:
    """Every pack's cues (``Pack.importance_cues``), by importance from the most down, each
    phrase as ``normalize_text`` reads it."""
    by_score: dict[float, set[str]] = {}
    for pack in all_packs():
        for score, phrases in pack.importance_cues:
            by_score.setdefault(score, set()).update(normalize_text(phrase) for phrase in phrases)
    return tuple((score, frozenset(by_score[score])) for score in sorted(by_score, reverse=True))


def score_importance(text: str, key: str | None = None, rules: Rules = Rules()) -> float:
    """Importance 0–1 from content cues, in every installed pack's words: personal details
    0.8, learning observations 0.7, preferences 0.6, anything else 0.4."""
    haystack = " " + normalize_text(key_and_text(key, text)) + " "
    if is_profile_key(key, rules):
        return 0.8
    for score, cues in _importance_cues():
        if any(f" {cue} " in haystack for cue in cues):
            return score
    return 0.4


def persona_overflow(
    memories: Iterable[Memory], cap: int, now: dt.datetime, superseded: set[str], rules: Rules = Rules()
) -> list[Memory]:
    """Persona memories beyond each persona's cap: lowest importance first, then oldest.
    Only memories that could still be recalled count towards the cap."""
    by_persona: dict[str, list[Memory]] = {}
    for m in memories:
        if m.persona and memory_state(m, now, superseded, rules) not in ("archived", "superseded", "expired", "stale"):
            by_persona.setdefault(m.persona, []).append(m)
    overflow: list[Memory] = []
    for items in by_persona.values():
        if len(items) <= cap:
            continue
        epoch = dt.datetime.min.replace(tzinfo=dt.UTC)
        keep_order = sorted(
            items,
            key=lambda m: (
                m.pinned,
                m.importance if m.importance is not None else score_importance(m.text, m.key, rules),
                reference_time(m) or epoch,
            ),
            reverse=True,
        )
        overflow += keep_order[cap:]
    return overflow
