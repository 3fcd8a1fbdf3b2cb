"""A key and its value read from a one-line memory ("editor: Neovim", "key: [[link]]");
the words before a colon that label, no key ("Important: …"), are the packs'."""

from __future__ import annotations

import re

from ..lang import a_label

#: a value longer than this many words is a sentence, not the value of a key
MAX_VALUE_WORDS = 12


def split_key_value(text: str, max_value_words: int = MAX_VALUE_WORDS) -> tuple[str | None, str]:
    """``"nombre: Lucas"`` → ``("nombre", "Lucas")``. Only text that looks like a key and its
    value is split: a key of at most three words that is not a label (``Important:``,
    ``Nota:``) and a value on one line of at most ``max_value_words`` words (the write rules
    allow fewer where a key would replace an old value: ``"City: Porto is where my sister
    lives"`` is a sentence, not a new city)."""
    m = re.match(r"^\s*([^\W\d_][\w .\-/'’]{0,30}?)\s*:\s+(\S.*)$", text, flags=re.S)  # "mom's birthday: …"
    if m is None:
        return None, text.strip()
    key, value = m.group(1).strip(), m.group(2).strip()
    if (
        "\n" in key
        or "\n" in value
        or len(key.split()) > 3
        or len(value.split()) > max_value_words
        or key.lower().startswith(("http", "https"))
        or a_label(key, value)
    ):
        return None, text.strip()
    return key, value
