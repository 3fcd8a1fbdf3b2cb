"""What a fact says of itself beside its subject: that it tells of a change ("I'm fully
remote *now*", "*mudei* para Nantes"), or of another thing beside a first ("*our other*
dog", "*also* a Mac mini at home"). Words of every installed pack, accents folded."""

from __future__ import annotations

import functools
import re

from .registry import all_packs
from .text import fold_accents


@functools.cache
def _cues(field: str) -> re.Pattern[str]:
    words = [fold_accents(cue) for p in all_packs() for cue in getattr(p, field)]
    if field == "change_cues":  # and the past of each verb of change, in every person
        words += [
            form for p in all_packs() if p.past_forms is not None for v in p.change_verbs for form in p.past_forms(v)
        ]
    return re.compile(rf"\b(?:{'|'.join(words)})\b", re.IGNORECASE) if words else re.compile(r"(?!)")


def says_change(text: str) -> bool:
    """Whether ``text`` tells that something changed ("now", "switched", "ya no", "mudei")."""
    return bool(_cues("change_cues").search(fold_accents(text)))


def says_contrast(text: str) -> bool:
    """Whether ``text`` tells of another thing beside a first ("other", "also", "todavía")."""
    return bool(_cues("contrast_cues").search(fold_accents(text)))


def compiled() -> list[re.Pattern[str]]:
    """Both patterns this module builds from the installed packs (the linear-time test reads
    them)."""
    return [_cues("change_cues"), _cues("contrast_cues")]
