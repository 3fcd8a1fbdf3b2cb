"""Text as every rule reads it: spacing made plain, accents folded, words found once."""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable


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


#: a character no one sees: a format character (Unicode's Cf: zero-width spaces and
#: joiners, the soft hyphen, marks and overrides of direction, a byte order mark, tags; the
#: ranges of Unicode 15.1) or a control other than a line break, a tab, a form feed or an
#: escape (a terminal's colour code is taken out whole, by the reader of a transcript). Text
#: pasted from a web page, a chat or a document carries them inside a word or between two
#: ("pass\u00adword", "is\u200bsunflower"), and a rule that reads words meets none there
UNSEEN = re.compile(
    "[\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
    "\x00-\x08\x0e-\x1a\x7f-\x84\x86-\x9f]"
)


def as_seen(text: str) -> tuple[str, list[int]]:
    """``text`` as a person sees it, without its ``UNSEEN`` characters, and where each of its
    characters is in ``text`` (``text`` itself when it holds none: then the list is empty)."""
    if UNSEEN.search(text) is None:
        return text, []
    kept = [i for i, ch in enumerate(text) if UNSEEN.match(ch) is None]
    return "".join(text[i] for i in kept), kept


#: every run of horizontal space: tabs, NBSP, U+3000, the thin ones
_SPACE_RUN = re.compile(r"[^\S\n]+")


def normalize_space(text: str) -> str:
    """``text`` as it is seen (``as_seen``: no zero-width space, soft hyphen or mark of
    direction inside a word or beside a space), with one plain space for each run of
    horizontal space (a tab, NBSP, U+3000, a pasted table's column gap); newlines stay, as
    they end a sentence. A rule reads a text only after this: a pattern that backtracks on a
    run of spaces then meets one space, and "sun\\u200bflower" is the word a person reads
    (read as two words, a password in it was written as "sun flower")."""
    return _SPACE_RUN.sub(" ", UNSEEN.sub("", text))


#: an apostrophe typed as a typographic one between letters ("I’m", "don’t", "María’s"), as
#: phones and Macs type it by default
_CURLY_APOSTROPHE = re.compile(r"(?<=[^\W\d_])[’‘ʼ](?=[^\W\d_])")


def plain_apostrophes(text: str) -> str:
    """``text`` with each apostrophe typed between letters as the plain one every rule reads
    ("I’m vegan" → "I'm vegan"): each character stays where it was."""
    return _CURLY_APOSTROPHE.sub("'", text)


def longest_first(words: Iterable[str]) -> list[str]:
    """``words`` once each, the longest first and alike in length by their letters: the order
    of an alternation that must try "passphrase" before "pass". Sorted by length alone, the
    words of one length came in a set's order, which differs from one process to the next."""
    return sorted(set(words), key=lambda w: (-len(w), w))


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
