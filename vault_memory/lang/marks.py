"""The words a recall block marks a fact with, in the fact's own language."""

from __future__ import annotations

from .detect import ENGLISH, detect
from .registry import pack


def conflict_marks(text: str) -> tuple[str, str, str]:
    """How the block says, of a fact written in ``text``'s language, that it is the older
    of two that may contradict each other ("older — may be outdated"), that it was said
    again ("confirmed"), and that a newer fact related to it only by meaning follows
    ("newer related memory above"); in English where its pack has no words for them."""
    own, english = pack(detect(text) or ENGLISH), pack(ENGLISH)
    assert english is not None  # the English pack ships with vmem
    outdated = (own.outdated_mark if own else "") or english.outdated_mark
    said_again = (own.said_again if own else "") or english.said_again
    related = (own.related_mark if own else "") or english.related_mark
    return outdated, said_again, related
