"""When two texts say the same thing (pure rules): a memory's words normalised (case,
accents, punctuation, spacing; the symbols that change a meaning kept), contractions said
in full, and the digest that finds a hand-written file by what it says."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import lru_cache

from ..lang import fold_accents

#: symbols that change what a text says ("C++" is not "C#", "€500" is not "$500")
SIGNIFICANT_SYMBOLS = "+#$€£¥₹%&@"


def normalize_text(text: str) -> str:
    """For exact-duplicate checks: case, Latin accents, punctuation and spacing do not
    count; letters of every script and the symbols that change a meaning (``C++``/``C#``,
    ``€``/``$``) do. A text with none of them normalises to "" and matches nothing."""
    # ASCII has no accents and is its own NFKC: the fast path of most texts (recall asks
    # for every hit it weighs, to show copies of one text once)
    folded = (text if text.isascii() else fold_accents(unicodedata.normalize("NFKC", text))).casefold()
    return " ".join(_NORMAL_WORD.findall(folded))


_NORMAL_WORD = re.compile(rf"[^\W_]+|[{re.escape(SIGNIFICANT_SYMBOLS)}]")


@lru_cache(maxsize=4096)  # called for every recall candidate; a vault has few distinct keys
def normalize_key(key: str | None) -> str:
    """``Ubicación`` → ``ubicacion``; ``proyecto actual`` → ``proyecto_actual``."""
    if not key:
        return ""
    folded = fold_accents(unicodedata.normalize("NFKC", key)).casefold()
    return re.sub(r"[\W_]+", "_", folded).strip("_")


def key_and_text(key: str | None, text: str) -> str:
    """All a memory says, its key first ("health User is allergic to peanuts"): what the
    rules that compare two memories read."""
    return f"{key or ''} {text}"


def said_in_full(normalized: str) -> str:
    """A ``normalize_text`` result with English contractions said in full ("i m" → "i am",
    "we don t" → "we do not", "can t" and "cannot" → "can not"): two texts that differ
    only there say the same to a reader. "'d" (had or would) is left as it is."""
    words = normalized.split(" ")
    if _CONTRACTED.isdisjoint(words):  # most texts: nothing to say in full
        return normalized
    out: list[str] = []
    for word in words:
        before = out[-1] if out else ""
        if word == "t" and len(before) > 1 and before.endswith("n"):  # "don t", "isn t", "won t"
            out[-1:] = [_NEGATED_VERBS.get(before, before[:-1]), "not"]
        elif word == "cannot":
            out += ["can", "not"]
        elif word == "s" and before == "let":
            out.append("us")
        elif word in _ENDINGS and before in _ENDINGS[word][1]:
            out.append(_ENDINGS[word][0])
        else:
            out.append(word)
    return " ".join(out)


#: what each contracted ending says in full, after the words it follows ("i m", "we re")
_ENDINGS = {
    "m": ("am", frozenset({"i"})),
    "re": ("are", frozenset({"you", "we", "they", "who", "what"})),
    "ve": ("have", frozenset({"i", "you", "we", "they", "who", "could", "should", "would"})),
    "ll": ("will", frozenset({"i", "you", "he", "she", "it", "we", "they", "that", "there", "who", "what"})),
    "s": ("is", frozenset({"it", "that", "there", "he", "she", "what", "who", "here", "where", "how"})),
}


#: "won t" is "will not", "can t" "can not", "shan t" "shall not"; any other "…n t" drops its n
_NEGATED_VERBS = {"won": "will", "can": "can", "shan": "shall"}


_CONTRACTED = frozenset({"t", "cannot", *_ENDINGS})


@lru_cache(maxsize=4096)  # asked for every recalled memory and its rivals, by every recall
def same_words(key: str | None, text: str) -> str | None:
    """What a memory says as a reader hears it (``normalize_text``, contractions said in
    full): recall shows one memory of each. Not a stored digest: ``same_text_digest`` stays
    what users' ``supersedes_digest`` fields and the catalog hold."""
    return said_in_full(normalize_text(key_and_text(key, text))) or None


def same_text_digest(key: str | None, text: str) -> str | None:
    """What two memories share when they say the same as a person reads them (key and
    text through ``normalize_text``), as a short digest the catalog indexes; None for a
    text that normalises to nothing (it is the same as nothing)."""
    normalized = normalize_text(key_and_text(key, text))
    return hashlib.blake2b(normalized.encode(), digest_size=12).hexdigest() if normalized else None
