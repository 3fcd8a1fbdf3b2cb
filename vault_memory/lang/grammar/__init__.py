"""What of a language is code, not words: each pack may bring its grammar's functions
(``Pack.third_person``), written here one module per language, and the rules call them
through the pack of the text's language. A language whose pack brings none leaves the text
as it was said."""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass

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
    said = as_typed_kept(lambda held: guarded(grammar, code, held), text)
    return said if isinstance(said, str) else text


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


#: what follows a word that ends its clause: a sign, or the text's end
CLAUSE_END = re.compile(r"\s*+(?:[.!?;]|$)")

#: what ends a list's item or a clause before a join
_SEGMENT_END = re.compile(r"[,;:]|\b(?:and|but|y|e|pero|mas|o|ou)\b", re.IGNORECASE)


def a_list_item(before: str, a_verb: Callable[[str], object] = lambda word: None) -> bool:
    """Whether the words just before a join are an item of a list, two words or fewer since
    the last comma or join ("baile, canto, juego de mesa", "drinks, food and live music"):
    what follows is the next item, not a clause with a verb of the user's. Two words that
    open with a verb (``a_verb``: its third, or None) are a clause ("…, duermo poco y pido…");
    one word alone is an item whatever it is ("baile, canto, juego de mesa")."""
    words = _SEGMENT_END.split(before)[-1].split()
    return len(words) <= 1 or (len(words) == 2 and not a_verb(words[0]))


#: a word an item of a list is followed by: a comma or a join ("estudio y deporte")
_ITEM_AFTER = re.compile(r"\s*+(?:,|(?<=\s)(?:and|or|y|e|o|ou)\b)", re.IGNORECASE)


def an_item_before(after: str) -> bool:
    """Whether what follows a word (``after``) makes it an item of a list, not a clause's verb."""
    return _ITEM_AFTER.match(after) is not None


def said_again(
    text: str,
    joined: re.Pattern[str],
    third_of: Callable[[str], str | None],
    user: str,
    reflexive: str,
    stays: Callable[[str, str], bool],
) -> str:
    """``text`` with each verb of the first person that opens a clause joined to another
    (``joined``: groups the join, the words before the verb, a reflexive pronoun, the verb)
    in the third (``third_of``), the user said again before it (``user``; ``reflexive``: the
    third's pronoun): "…y corro los jueves" → "…y el usuario corre los jueves". A name, a
    list's item, a word no verb's, and one ``stays(word, what follows)`` keeps, stay as said."""

    def again(m: re.Match[str]) -> str:
        word, after = m.group(4), m.string[m.end() :]
        if word[0].isupper() or a_list_item(m.string[: m.start()], third_of) or an_item_before(after):
            return m.group(0)  # a name ("Paseo de Gracia"), an item ("baile, canto, juego de mesa")
        if not m.group(2) and CLAUSE_END.match(after):
            return m.group(0)  # a word that ends what is said is as often a noun, unless an adverb stands before
        third = None if stays(word, after) else third_of(word)
        if third is None:
            return m.group(0)
        pronoun = f"{reflexive} " if m.group(3) else ""
        return f"{m.group(1)}{user} {(m.group(2) or '').lower()}{pronoun}{third}"

    return joined.sub(again, text)


#: a word as a noun's phrase is read: letters, a hyphen inside ("e-mail", "check-in")
PHRASE_WORD = r"[^\W\d_]+(?:-[^\W\d_]+)*"
_NEXT_WORD = re.compile(rf"\s+({PHRASE_WORD})(?![\w-])")
#: what closes a phrase whatever follows: a sign, or the text's end
_CLOSED = re.compile(r"\s*+(?:[,.;:!?)\]]|$)")


@dataclass(frozen=True)
class Modifiers:
    """What may follow a noun inside its phrase in a language that says its adjectives after
    the noun ("mi seguro médico", "meu e-mail pessoal"), in that language's words: what a
    possessive's noun brings along before "del usuario" / "do usuário"."""

    #: whether a word is a form of a known verb (a verb opens what is said of the noun)
    verb: Callable[[str], bool]
    #: words that open what is said of the noun: clitics, negations, adverbs, "que", joins
    closers: frozenset[str]
    #: of those, the ones that stand before a verb, never after one (clitics, "no"): the only
    #: ones that close after a word that may itself be a verb ("mi perro muerde siempre")
    before_a_verb: frozenset[str]
    #: words that bring a complement naming the thing ("número de teléfono", "time do coração")
    complements: frozenset[str]
    #: articles a complement may have after its word ("casa de la playa")
    articles: frozenset[str]
    #: words after "de" that make it an adverb, no name's complement ("de repente", "de novo")
    idioms: frozenset[str]
    #: words before an adjective inside the phrase ("más", "mais")
    degree: frozenset[str]
    #: words that are never a noun's adjective or a complement's noun (articles, pronouns,
    #: adverbs, prepositions; "repente" of "de repente")
    never: frozenset[str]
    #: the endings a verb's third person singular may have ("-a", "-e"): a word that ends so
    #: is an adjective only where what follows closes the phrase; any other is one wherever
    #: it stands ("médico", "personal", and every plural: a verb's plural ends in "-n"/"-m")
    verb_like: tuple[str, ...]
    #: endings only a verb's form has ("-ó", "-ou"): a verb no list holds is still no adjective
    verb_endings: tuple[str, ...]
    #: endings of an adjective that has one form for both genders ("-ista")
    invariable: tuple[str, ...] = ()
    #: pronouns a verb takes after a hyphen ("formou-se"): a word with one is a verb
    enclitics: tuple[str, ...] = ()

    def a_verb(self, low: str) -> bool:
        """Whether a lowercase word is a verb's form: by its list, an ending only a verb has,
        or a pronoun after a hyphen."""
        return (
            low.endswith(self.verb_endings) or (bool(self.enclitics) and low.endswith(self.enclitics)) or self.verb(low)
        )


@dataclass(frozen=True)
class Phrase:
    """What of the words after a noun belongs to its phrase."""

    #: how many characters of them
    length: int
    #: the gender its adjectives show (True: feminine), or None when none does
    feminine: bool | None


def modifiers_after(after: str, plural: bool, feminine: bool | None, said: Modifiers) -> Phrase:
    """How much of ``after`` (what follows a possessed noun of this number, and of this gender
    when known) belongs to the noun's phrase: its adjectives and a complement of "de", up to
    what is said of it. A word is the noun's adjective when it agrees with the noun (number;
    gender where its ending shows it) and is no verb's form; one that might be a verb's third
    person ("-a", "-e") only when what follows closes the phrase: a sign, a known verb, a
    clitic or an adverb (two such words in a row: a known verb). Anything else ends the phrase
    where it stood ("mi perro ladra mucho": "ladra" does not agree; "mi perra ladra mucho":
    nothing closes it): what is not read is left as said."""
    end = position = 0
    complement = graded = pending = False
    shown: bool | None = None
    for _ in range(6):
        m = _NEXT_WORD.match(after, position)
        if m is None:
            break
        word = m.group(1)
        low = word.lower()
        if low in said.complements and not complement and not pending:
            found = _complement(after, m.end(), said)
            if found is None:
                break
            position = end = found
            complement = True
            continue
        if low in said.degree:
            position, graded = m.end(), True
            continue
        if not _agrees(word, plural, feminine if feminine is not None else shown, said):
            break
        position = m.end()
        sure = graded or plural or not low.endswith(said.verb_like)
        graded = False
        if pending or not sure:  # maybe a verb no list holds: what follows must say it is not
            closed = _closes(after, position, said, unsure=True, by_a_verb=pending)
            pending = pending or not closed
            if not closed:
                continue
            pending = False
        end = position
        shown = shown if shown is not None else _gender_of(low, plural, said)
    return Phrase(end, shown)


def _complement(after: str, at: int, said: Modifiers) -> int | None:
    """Where a complement of "de" that names the thing ends ("de teléfono", "de la playa",
    "do coração"), or None: its noun is a lowercase word (after "de", a bare word names a
    thing: no verb's form stands there)."""
    m = _NEXT_WORD.match(after, at)
    if m is not None and m.group(1).lower() in said.articles:
        m = _NEXT_WORD.match(after, m.end())
    if m is None:
        return None
    word = m.group(1)
    return m.end() if word[0].islower() and word.lower() not in said.never | said.idioms else None


def _agrees(word: str, plural: bool, feminine: bool | None, said: Modifiers) -> bool:
    """Whether ``word`` may be an adjective of a noun of this number and gender (None: unknown)."""
    low = word.lower()
    if not word[0].islower() or len(low) < 3 or low in said.never:
        return False
    if said.a_verb(low):
        return False
    if plural and not low.endswith("s"):
        return False
    if not plural and low.endswith("s") and not low.endswith(("és", "ês", "is", "us")):  # "inglés", "gris"
        return False
    gender = _gender_of(low, plural, said)
    return feminine is None or gender is None or gender == feminine


def _gender_of(low: str, plural: bool, said: Modifiers) -> bool | None:
    """The gender an adjective's ending shows (True: feminine; "-a", "-o"), or None."""
    stem = low[:-1] if plural else low
    if stem.endswith(said.invariable):
        return None
    return True if stem.endswith("a") else False if stem.endswith("o") else None


def _closes(after: str, at: int, said: Modifiers, unsure: bool = False, by_a_verb: bool = False) -> bool:
    """Whether what follows ``at`` closes a noun's phrase: a sign, a known verb's form, a
    word that opens what is said of the noun. After a word that may be a verb no list holds
    (``unsure``), only a known verb or a word that stands before one ("Mi perro muerde." and
    "…muerde siempre" are not closed); after two such words (``by_a_verb``), only a known
    verb ("cuenta bancaria nueva está" is closed, "perra ladra fuerte y…" is not)."""
    if not unsure and _CLOSED.match(after, at):
        return True
    m = _NEXT_WORD.match(after, at)
    if m is None:
        return False
    low = m.group(1).lower()
    if said.a_verb(low):
        return True
    return not by_a_verb and low in (said.before_a_verb if unsure else said.closers)
