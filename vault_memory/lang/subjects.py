"""Whether a fact is about the user, by how it opens in any installed pack."""

from __future__ import annotations

import functools
import re

from .registry import all_packs


@functools.cache
def _opening() -> re.Pattern[str]:
    phrases = sorted({s for p in all_packs() for s in p.user_subjects}, key=len, reverse=True)
    return re.compile(rf"^(?:{'|'.join(re.escape(s) for s in phrases)})(?![^\W_])", re.IGNORECASE)


def of_the_user(text: str) -> bool:
    """ "The user is lactose intolerant", "My standup is at 9:30", "O usuário mora no
    Porto": a fact that opens with the user as its subject."""
    return bool(_opening().match(text.lstrip(" \t\"'“«-*")))
