"""What a fact says of itself beside its subject: that it tells of a change ("I'm fully
remote *now*", "*mudei* para Nantes"), or of another thing beside a first ("*our other*
dog", "*also* a Mac mini at home"). Words of every installed pack, accents folded."""

from __future__ import annotations

import functools
import re

from .registry import all_packs
from .text import fold_accents

#: a word of a text; a cue that is one such word is looked up among them, the others are patterns
_WORD = re.compile(r"\w+")


@functools.cache
def _cues(field: str) -> tuple[frozenset[str], re.Pattern[str]]:
    """The cues of ``field`` in every pack: the plain words as a set (a verb's forms are
    hundreds: one alternation of them all cost a fact three times the time), the rest as
    one pattern."""
    words = [fold_accents(cue).lower() for p in all_packs() for cue in getattr(p, field)]
    if field == "change_cues":  # and the past of each verb of change, in every person
        words += [
            form for p in all_packs() if p.past_forms is not None for v in p.change_verbs for form in p.past_forms(v)
        ]
    plain = frozenset(w for w in words if _WORD.fullmatch(w))
    rest = [w for w in words if w not in plain]
    return plain, re.compile(rf"\b(?:{'|'.join(rest)})\b", re.IGNORECASE) if rest else re.compile(r"(?!)")


@functools.cache
def _negations() -> frozenset[str]:
    return frozenset(fold_accents(w).lower() for p in all_packs() for w in p.negations)


def _says(field: str, text: str) -> bool:
    """Whether ``text`` says a cue of ``field``: a plain one not right after a negation
    ("never sold", "nunca vendí", "não mudei" tell of no change), or a pattern's."""
    plain, pattern = _cues(field)
    folded = fold_accents(text)
    words = _WORD.findall(folded.lower())
    negations = _negations()
    said = any(w in plain and (i == 0 or words[i - 1] not in negations) for i, w in enumerate(words))
    return said or bool(pattern.search(folded))


def says_change(text: str) -> bool:
    """Whether ``text`` tells that something changed ("now", "switched", "ya no", "mudei")."""
    return _says("change_cues", text)


def says_contrast(text: str) -> bool:
    """Whether ``text`` tells of another thing beside a first ("other", "also", "todavía")."""
    return _says("contrast_cues", text)


def compiled() -> list[re.Pattern[str]]:
    """The patterns this module builds from the installed packs (the linear-time test reads
    them)."""
    return [_cues("change_cues")[1], _cues("contrast_cues")[1]]
