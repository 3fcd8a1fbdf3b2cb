"""Text as every rule reads it: spacing made plain, accents folded, words found once."""

from __future__ import annotations

import os
import re
import unicodedata


def fold_accents(text: str) -> str:
    """``ubicación`` → ``ubicacion``: marks on Latin letters go; letters of other scripts
    stay whole (``й`` is not ``и``, ``Москва`` stays ``Москва``)."""
    if text.isascii():  # most texts: no marks to fold, and walking them was 40 µs each
        return text
    out: list[str] = []
    for ch in unicodedata.normalize("NFKD", text):
        if unicodedata.combining(ch) and out and out[-1].isascii():
            continue
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


#: every run of horizontal space: tabs, NBSP, U+3000, the thin and zero-width ones
_SPACE_RUN = re.compile(r"[^\S\n]+|[\u200b\u2060\ufeff]+")


def normalize_space(text: str) -> str:
    """One plain space for each run of horizontal space (a tab, NBSP, U+3000, a pasted
    table's column gap); newlines stay, as they end a sentence. A rule reads a text only
    after this: a pattern that backtracks on a run of spaces then meets one space."""
    return _SPACE_RUN.sub(" ", text)


#: a word: letters, with one inner apostrophe ("don't", "user's"); no digits
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def words(text: str) -> list[str]:
    """The lower-case words of ``text`` (letters, an inner apostrophe kept), in order."""
    return _WORD.findall(text.lower())


def not_utf8(text: str) -> str | None:
    """Where ``text`` is no UTF-8 text, as a person can find it ("byte 0xff at character
    16": bytes a shell or a JSON escape passed on as lone surrogates), or None. No rule
    reads such a text: the sentence splitter and every writer of it fail on it."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        char = text[e.start]
        try:  # bytes a shell passed on (U+DC80–U+DCFF): the byte they stand for
            return f"byte 0x{os.fsencode(char)[:1].hex()} at character {e.start}"
        except UnicodeEncodeError:  # half of a pair a JSON escape cut ("\ud83d")
            return f"U+{ord(char):04X} (half of a surrogate pair) at character {e.start}"
    return None
