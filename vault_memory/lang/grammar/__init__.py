"""What of a language is code, not words: each pack may bring its grammar's functions
(``Pack.third_person``), written here one module per language, and the rules call them
through the pack of the text's language. A language whose pack brings none leaves the text
as it was said."""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable

from ..registry import pack


def in_third_person(text: str, lang: str | None) -> str:
    """``text`` as a fact about the user, in the language it is written in (``lang``, as
    ``lang.detect`` tells it; English when it could not): "I live in Lima" → "the user lives
    in Lima", "mi hermana" → "la hermana del usuario". What a fact already in the third
    person says stays."""
    found = pack(lang or "en")
    if found is None or found.third_person is None:
        return text
    quoted: list[str] = []

    def aside(m: re.Match[str]) -> str:  # a name in quotes is as typed: "Me and You", "Meu Bem"
        quoted.append(m.group())
        return chr(_HELD + len(quoted) - 1)

    held = _QUOTED.sub(aside, text) if len(_QUOTED.findall(text)) < _MOST_QUOTED else text
    said = guarded(found.third_person, found.code, held)
    if not isinstance(said, str):
        return text
    return re.sub(f"[{chr(_HELD)}-{chr(_HELD + _MOST_QUOTED)}]", lambda m: quoted[ord(m.group()) - _HELD], said)


#: what is in quotes in a fact, left as typed; held aside as one private-use character each
#: (no grammar's pattern reads one as a word)
_QUOTED = re.compile(r'"[^"\n]{1,200}+"|“[^”\n]{1,200}+”|«[^»\n]{1,200}+»')
_HELD = 0xE000
_MOST_QUOTED = 64


def guarded(function: Callable[..., str | None], code: str, *args: str) -> str | None:
    """A pack's grammar called, or None when it fails: a pack from another package is code
    vmem did not write, and one that raises must not stop a request from being read (it is
    warned of, and the words are kept as said)."""
    try:
        return function(*args)
    except Exception as exc:  # a plugin's bug, whatever it is
        warnings.warn(f"language pack {code!r}: its grammar failed ({type(exc).__name__}: {exc})", stacklevel=2)
        return None
