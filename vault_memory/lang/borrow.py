"""A fact in a language read through a close one's forms, for the rules written in that
one: Portuguese facts by the Spanish slot rules ("Minha irmã se chama Ana" → "mi hermana
se llama ana"). The forms are the pack's data (``Pack.borrowed_forms``); a text in a
language that borrows none comes back as it was."""

from __future__ import annotations

import functools
import re

from .detect import detect
from .registry import all_packs, pack


@functools.cache
def _forms(code: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    own = pack(code)
    if own is None or not own.reads_as:
        return ()
    return tuple((re.compile(rf"(?<![^\W_])(?:{pattern})(?![^\W_])"), form) for pattern, form in own.borrowed_forms)


#: how much of a text is read in borrowed forms: the slot rules read a fact's first sentence
#: and opening, never more
BORROWED_CHARS = 2_000


def borrowed(text: str) -> str:
    """``text`` (its first ``BORROWED_CHARS``) in the forms of the language its pack reads
    as, lower case; itself, whole, when its language borrows none (English, Spanish, or not
    clear).
    The forms are of lower-case words: a name keeps its own ("São Paulo" is no "são", the
    town "Mora" no "mora"), bar the text's first word, capitalised as a sentence opens."""
    head = text[:BORROWED_CHARS]
    code = detect(head)
    forms = _forms(code) if code else ()
    if not forms:
        return text  # whole and as it was: only what is borrowed is cut to its opening
    out = head[:1].lower() + head[1:] if not head[1:2].isupper() else head  # not an acronym's
    for pattern, form in forms:
        out = pattern.sub(form, out)
    return out.casefold()


def compiled() -> list[re.Pattern[str]]:
    """Every pattern of every pack's borrowed forms (the linear-time test reads them all)."""
    return [pattern for p in all_packs() for pattern, _ in _forms(p.code)]
