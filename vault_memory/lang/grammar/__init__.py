"""What of a language is code, not words: each pack may bring its grammar's functions
(``Pack.third_person``), written here one module per language, and the rules call them
through the pack of the text's language. A language whose pack brings none leaves the text
as it was said."""

from __future__ import annotations

import re
import unicodedata
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
    grammar, code = found.third_person, found.code
    # an accent typed as its own mark ("perdí" as "i" and U+0301, as some keyboards and
    # pastes give it) is read composed: the rules' endings are composed letters
    text = unicodedata.normalize("NFC", text)
    said = as_typed_kept(lambda held: guarded(grammar, code, held), text)
    return said if isinstance(said, str) else text


def now_and_the_days_around(lang: str) -> list[str]:
    """The patterns pack ``lang`` says now and the days around it with (its ``now_words``
    and each relative time that names no part): a time a grammar reads said before the
    user's verb ("desde hoy trabajo…", "a partir de amanhã…")."""
    found = pack(lang)
    if found is None:
        return []
    return [p for p, _ in found.relative_times if "(?P<" not in p] + ([found.now_words] if found.now_words else [])


def in_one_gender(text: str, lang: str | None) -> str:
    """``text``, a fact about the user in ``lang``, with every mention of the user in the
    gender one of them has ("La usuaria es vegana. El usuario corre…" → "…La usuaria corre…")."""
    found = pack(lang or "en")
    return found.one_gender(text) if found is not None and found.one_gender is not None else text


def in_her_gender(
    text: str,
    said_of: re.Pattern[str],
    feminine: tuple[str, ...],
    her: dict[str, str],
    user: tuple[str, str],
    no_gender: frozenset[str] = frozenset(),
) -> str:
    """One woman through a fact, in a language whose words for the user have a gender: the
    user's noun after its article agrees with a feminine word she says of herself after a
    copula (``said_of``: groups article, copula, word; a word of a ``feminine`` ending, not
    one of ``no_gender``), and once the fact names her so, every mention of the user is
    hers (``her``: each article or contraction before the user's noun, and its feminine;
    ``user``: the noun, masculine and feminine)."""
    he, she = user

    def hers(article: str) -> str:
        said = her[article.lower()]
        return said[0].upper() + said[1:] if article[0].isupper() else said

    def agree(m: re.Match[str]) -> str:
        word = m.group(3).lower()
        if not word.endswith(feminine) or word in no_gender:
            return m.group(0)
        return f"{hers(m.group(1))} {she} {m.group(2)} {m.group(3)}"

    agreed = said_of.sub(agree, text)
    if re.search(rf"\b{she}\b", agreed) is None:
        return text
    mention = re.compile(rf"\b({'|'.join(map(re.escape, her))}) {he}\b", re.IGNORECASE)
    return mention.sub(lambda m: f"{hers(m.group(1))} {she}", agreed)


def as_typed_kept(rewrite: Callable[[str], str | None], text: str) -> str | None:
    """``rewrite(text)`` with what the user typed as it is held aside, so no grammar reads it
    as words: a name in quotes ("Me and You", "Meu Bem") and an address, a path or a handle
    ("me" in "jen.side@proton.me" or "/home/me/notes" is not the user)."""
    quoted: list[str] = []

    def aside(m: re.Match[str]) -> str:
        quoted.append(m.group())
        return chr(_HELD + len(quoted) - 1)

    held = _QUOTED.sub(aside, text) if len(_QUOTED.findall(text)) < _MOST_QUOTED else text
    held = _WORD_RUN.sub(lambda m: aside(m) if len(quoted) < _MOST_QUOTED and _is_typed(m.group()) else m.group(), held)
    said = rewrite(held)
    if not isinstance(said, str):
        return None
    return re.sub(f"[{chr(_HELD)}-{chr(_HELD + _MOST_QUOTED)}]", lambda m: quoted[ord(m.group()) - _HELD], said)


#: what is in quotes in a fact, left as typed; held aside as one private-use character each
#: (no grammar's pattern reads one as a word)
_QUOTED = re.compile(r'"[^"\n]{1,200}+"|“[^”\n]{1,200}+”|«[^»\n]{1,200}+»')
_HELD = 0xE000
_MOST_QUOTED = 64
#: a run of text between spaces, and what makes one an address, a path or a handle, never
#: words (each run read once: linear in the text)
_WORD_RUN = re.compile(r"\S+")
_TYPED = re.compile(r"@|://|\w\.\w|^(?:~|\.\.?)?/\w|\w\\\w")


def _is_typed(run: str) -> bool:
    """Whether a run between spaces is an address, a path or a handle: an "@", a "://", a
    dot between letters ("proton.me", not "me."), a path's first "/" ("/", "~/", "./",
    "../") or a backslash between names. "dad/my" is two words."""
    return _TYPED.search(run) is not None


def guarded(function: Callable[..., str | None], code: str, *args: str) -> str | None:
    """A pack's grammar called, or None when it fails: a pack from another package is code
    vmem did not write, and one that raises must not stop a request from being read (it is
    warned of, and the words are kept as said)."""
    try:
        return function(*args)
    except Exception as exc:  # a plugin's bug, whatever it is
        warnings.warn(f"language pack {code!r}: its grammar failed ({type(exc).__name__}: {exc})", stacklevel=2)
        return None


def we_to_they(verb: str, irregular: dict[str, str], endings: tuple[tuple[str, str], ...]) -> str:
    """A verb of the first person plural in the third ("vivimos" → "viven", "somos" →
    "são"): ``irregular`` first, then the first of ``endings`` (ending, its third) it has;
    as it is when none."""
    low = verb.lower()
    if low in irregular:
        return irregular[low]
    for ending, their in endings:
        if low.endswith(ending):
            return verb[: -len(ending)] + their
    return verb


def of_a_known_verb(
    folded: str,
    endings: tuple[tuple[str, tuple[str, ...]], ...],
    roots_of: Callable[[str], list[str]],
    verbs: frozenset[str],
) -> bool:
    """Whether a word (``folded``: lower-cased, accents folded) is a form of a verb of
    ``verbs`` by one of ``endings`` (each with the classes of infinitive it is of, "-ar",
    "-er"): its stem, or one ``roots_of`` gives it (a stem's change undone), and a class's
    ending make a known infinitive ("duerme" → "dorm" + "ir")."""
    for ending, classes in endings:
        if not folded.endswith(ending) or len(folded) - len(ending) < 2:
            continue
        stem = folded[: -len(ending)]
        if any(root + c in verbs for root in roots_of(stem) for c in classes):
            return True
    return False


#: what follows a word that ends its clause: a sign, or the text's end
CLAUSE_END = re.compile(r"(?<!\s)\s*+(?:[.!?;]|$)")  # read after a word: from a run's start only

#: what ends a list's item or a clause before a join
_SEGMENT_END = re.compile(r"[,;:]|\b(?:and|but|y|e|pero|mas|o|ou)\b", re.IGNORECASE)


#: the words that join a name's parts ("Rio *de* Janeiro", "Mato Grosso *do* Sul", "Salto *de* Pirapora")
_NAME_JOINS = frozenset({"de", "do", "da", "dos", "das", "del"})
_NAME_ARTICLES = frozenset({"la", "las", "los", "el", "o", "a", "os", "as"})


def a_name_of(word: str, after: str, third_form: Callable[[str], bool]) -> bool:
    """Whether ``word``, capitalised, opens a name "X de Y" that is the subject of the verb
    after it (``third_form``: a verb's third person): "Rio de Janeiro é onde moro", not the
    user's "rio" (I laugh); "Salgo de Madrid a las 8" has no such verb, and is the user's."""
    said = after.split(None, 7)[:7]
    if not word[:1].isupper() or not said or said[0].lower() not in _NAME_JOINS:
        return False
    at = 2 if len(said) > 1 and said[1].lower() in _NAME_ARTICLES else 1  # "Paso de los Libres"
    start = at
    while at < len(said) and said[at][:1].isupper():
        at += 1
    return start < at < len(said) and third_form(said[at].strip(",.;:!?"))


#: how far back a list's item is looked for: three words of any length one would type
_ITEM_REACH = 200


def a_list_item(
    before: str, a_verb: Callable[[str], object] = lambda word: None, segment_end: re.Pattern[str] = _SEGMENT_END
) -> bool:
    """Whether the words just before a join are an item of a list, two words or fewer since
    the last comma or join ("baile, canto, juego de mesa", "drinks, food and live music"):
    what follows is the next item, not a clause with a verb of the user's. Two words that
    open with a verb (``a_verb``: its third, or None) are a clause ("…, duermo poco y pido…");
    one word alone is an item whatever it is ("baile, canto, juego de mesa")."""
    words = segment_end.split(before[-_ITEM_REACH:])[-1].split()  # the last words only: linear in a long text
    return len(words) <= 1 or (len(words) == 2 and not a_verb(words[0]))


#: a word an item of a list is followed by: a comma or a join ("estudio y deporte")
#: (from a space's run's start only: a search from each of its spaces read the rest of it again)
_ITEM_AFTER = re.compile(r"(?<!\s)\s*+(?:,|(?<=\s)(?:and|or|y|e|o|ou)\b)", re.IGNORECASE)


def an_item_before(after: str, item_after: re.Pattern[str] = _ITEM_AFTER) -> bool:
    """Whether what follows a word (``after``) makes it an item of a list, not a clause's verb
    (``item_after``: a language's own joins, where another's is a word of its own: Portuguese
    "o" is "the", not Spanish "or")."""
    return item_after.match(after) is not None


#: a list's joins of one language (``said_again``): what ends an item before and after a word
Joins = tuple[re.Pattern[str], re.Pattern[str]]


def said_again(
    text: str,
    joined: re.Pattern[str],
    third_of: Callable[[str], str | None],
    user: str,
    reflexive: str,
    stays: Callable[[str, str], bool],
    joins: Joins = (_SEGMENT_END, _ITEM_AFTER),
) -> str:
    """``text`` with each verb of the first person that opens a clause joined to another
    (``joined``: groups the join, the words before the verb, a reflexive pronoun, the verb)
    in the third (``third_of``), the user said again before it (``user``; ``reflexive``: the
    third's pronoun): "…y corro los jueves" → "…y el usuario corre los jueves". A name, a
    list's item (``joins``: its language's), a word no verb's, and one ``stays(word, what
    follows)`` keeps, stay as said."""

    def again(m: re.Match[str]) -> str:
        word, after = m.group(4), m.string[m.end() :]
        labelled = m.group(1).startswith(":")  # "Carro: dirijo um Gol": a label, no list's item, before it
        listed = not labelled and a_list_item(m.string[: m.start()], third_of, joins[0])
        listed = listed or an_item_before(after, joins[1])
        if word[0].isupper() or listed:
            return m.group(0)  # a name ("Paseo de Gracia"), an item ("baile, canto, juego de mesa")
        if not m.group(2) and CLAUSE_END.match(after):
            return m.group(0)  # a word that ends what is said is as often a noun, unless an adverb stands before
        third = None if stays(word, after) else third_of(word)
        if third is None:
            return m.group(0)
        pronoun = f"{reflexive} " if m.group(3) else ""
        return f"{m.group(1)}{user} {(m.group(2) or '').lower()}{pronoun}{third}"

    return joined.sub(again, text)
