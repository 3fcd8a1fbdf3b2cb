"""How much a memory matters (importance from content cues) and which persona memories
go over their cap (pure functions)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from ..vault.memory import Memory
from ..vault.sameness import key_and_text, normalize_key, normalize_text
from .rules import Rules, reference_time
from .states import memory_state

_IMPORTANCE_CUES: tuple[tuple[float, tuple[str, ...]], ...] = (
    (
        0.8,
        (
            "name",
            "nombre",
            "llamo",
            "family",
            "familia",
            "wife",
            "husband",
            "esposa",
            "esposo",
            "hijo",
            "hija",
            "son",
            "daughter",
            "mother",
            "father",
            "madre",
            "padre",
            "hermano",
            "hermana",
            "brother",
            "sister",
            "pet",
            "mascota",
            "dog",
            "perro",
            "cat",
            "gato",
            "lives in",
            "vive en",
            "vivo en",
            "birthday",
            "cumpleanos",
            "allergic",
            "alergico",
            "alergica",
            "works at",
            "trabaja en",
            "trabajo en",
        ),
    ),
    (
        0.7,
        (
            "struggled",
            "struggles",
            "difficulty",
            "hard time",
            "mistake",
            "error",
            "strength",
            "good at",
            "strong",
            "le cuesta",
            "dificultad",
            "dificil",
            "le va bien",
            "aprendio",
            "learned",
            "confuses",
            "confunde",
        ),
    ),
    (
        0.6,
        (
            "likes",
            "loves",
            "enjoys",
            "interested",
            "favorite",
            "favourite",
            "prefers",
            "hates",
            "dislikes",
            "le gusta",
            "le encanta",
            "prefiere",
            "odia",
            "favorito",
            "favorita",
            "disfruta",
        ),
    ),
)


def score_importance(text: str, key: str | None = None, rules: Rules = Rules()) -> float:
    """Importance 0–1 from content cues (English and Spanish): personal details 0.8,
    learning observations 0.7, preferences 0.6, anything else 0.4."""
    haystack = " " + normalize_text(key_and_text(key, text)) + " "
    if normalize_key(key) in rules.profile_keys:
        return 0.8
    for score, cues in _IMPORTANCE_CUES:
        if any(f" {normalize_text(cue)} " in haystack for cue in cues):
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
