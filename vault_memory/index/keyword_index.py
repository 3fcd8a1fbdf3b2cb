"""The keyword leg: a Whoosh (whoosh-reloaded) BM25F index of the vault, under .vmem.

Text is indexed twice, with an English and a Spanish Snowball stemmer, both after lower-
casing and accent folding (``ubicación`` matches ``ubicacion``), so a vault that mixes the
two languages is searched well in either. Queries are analysed with the same chains and
OR-ed (a natural-language question must not turn into a strict AND); ``key`` and ``tags``
matches add a boost so an exact name or category ranks first.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from whoosh import index as windex
from whoosh.analysis import CharsetFilter, Filter, LowercaseFilter, RegexTokenizer, StemFilter, StopFilter
from whoosh.fields import ID, TEXT, Schema
from whoosh.lang.stopwords import stoplists
from whoosh.query import Or, Term
from whoosh.support.charset import accent_map

from ..lang import PORTUGUESE, SPANISH, all_packs, detect, fold_accents
from ..vault.links import aliases_of
from ..vault.memory import Memory
from ..vault.sameness import SIGNIFICANT_SYMBOLS

#: the languages the index stems (its ``body`` and ``body_es`` fields): their packs give the
#: words below
STEMMED = ("en", "es")


_STEMMED_PACKS = tuple(p for p in all_packs() if p.code in STEMMED)


def _of_stemmed(field: str) -> frozenset[str]:
    return frozenset(w for p in _STEMMED_PACKS for w in getattr(p, field))


#: negations are never stop words here: "no le gusta" must not match "le gusta"
NEGATIONS = _of_stemmed("negations")
#: the subject every ingested fact is written with ("The user lives in…", "El usuario
#: vive en…"): as a term it matched every memory of the vault for "what is the user's name?"
SUBJECT_STOP = _of_stemmed("subject_nouns")
_STOP = (
    frozenset(stoplists["en"]) | frozenset(stoplists["es"]) | _of_stemmed("extra_stop_words") | SUBJECT_STOP
) - NEGATIONS
#: stop words that are English words a memory is about ("my son", "hay fever", "the sea",
#: "a todo list", "the Victorian era"): the English field keeps them, but not in a text
#: written in Spanish, where they are "are", "be", "was", "there is", "all"
#: (``english_field_text``). The Spanish field drops them, as it always did
ENGLISH_WORDS_SPANISH_STOPS = _of_stemmed("english_homographs")
_ENGLISH_WORDS_SPANISH_STOPS = re.compile(rf"\b(?:{'|'.join(sorted(ENGLISH_WORDS_SPANISH_STOPS))})\b", re.IGNORECASE)
#: forms the Snowball stemmer does not take apart (voseo imperatives with a pronoun
#: attached: "acordate" stems to "acordat", "acordar" and "acordás" to "acord"): each
#: becomes the form it stems like. A closed list: a rule for "-ate" would also turn
#: "tomate" into "tomar"
STEM_AS = {form: base for p in _STEMMED_PACKS for form, base in p.stem_as.items()}
#: endings that do the same ("vivís" stems like "vivir"; accent folding would hide the
#: ending), and the words that only look so ("parís"); shorter words ("país", "anís",
#: "gris") are left by the filter's length bound
_STEM_ENDINGS = tuple(ending for p in _STEMMED_PACKS for ending in p.stem_endings)
_NOT_STEM_ENDINGS = _of_stemmed("stem_ending_exceptions")
_TOKEN = r"\w+(?:[.'’]\w+)*"


class StemAsFilter(Filter):
    """The forms a stemmer misses, as ``STEM_AS`` and ``_STEM_ENDINGS`` give them (the
    rioplatense voseo: "acordate", "vivís"). Runs before accent folding."""

    def __call__(self, tokens):
        for t in tokens:
            text = t.text
            if text in STEM_AS:
                t.text = STEM_AS[text]
            elif len(text) > 4 and text not in _NOT_STEM_ENDINGS:
                for ending, base in _STEM_ENDINGS:
                    if text.endswith(ending):
                        t.text = text[: -len(ending)] + base
                        break
            yield t


#: the name this filter had when it read the voseo alone: an index written then holds it in
#: its pickled schema, and must open as it is (renamed, every such index was rebuilt whole:
#: 90 s at 10,000 memories)
VoseoFilter = StemAsFilter


#: the longest term analysed: nobody searches for more of a word than this, and the
#: Snowball stemmers take time quadratic in a word's length (a 1 MB token: over 30 s)
MAX_TERM_CHARS = 64


class LengthCap(Filter):
    """Cuts every token to ``MAX_TERM_CHARS``, before anything costlier sees it: a base64
    blob or a pasted one-line log is analysed in time linear in its length."""

    def __call__(self, tokens):
        for t in tokens:
            if len(t.text) > MAX_TERM_CHARS:
                t.text = t.text[:MAX_TERM_CHARS]
            yield t


def _analyzer(lang: str, stop: frozenset[str]):
    return (
        RegexTokenizer(_TOKEN)
        | LengthCap()
        | LowercaseFilter()
        | StemAsFilter()
        | CharsetFilter(accent_map)
        | StopFilter(stoplist=stop, minsize=1)
        | StemFilter(lang=lang)
    )


def english_field_text(text: str) -> str:
    """``text`` as the English field reads it: a text written in Spanish without the
    ``ENGLISH_WORDS_SPANISH_STOPS`` ("Mis hijos son…" holds no "son" of "my son"). The
    language is told by the other words: "hay" and "todo" alone make "hay fever" Spanish."""
    without = _ENGLISH_WORDS_SPANISH_STOPS.sub(" ", text)
    return without if detect(without) == SPANISH else text


#: the analysis ``EN``, ``ES`` and ``PLAIN`` make of a text, as a generation records it
#: (``Meta.KEYWORD_ANALYSIS``): any change to them bumps it, so today's terms are compared
#: with an index's postings only when the index was made by the same analysis
ANALYSIS = "2"
EN = _analyzer("en", _STOP - ENGLISH_WORDS_SPANISH_STOPS)
ES = _analyzer("es", _STOP)
PLAIN = RegexTokenizer(_TOKEN) | LengthCap() | LowercaseFilter() | CharsetFilter(accent_map)


def schema() -> Schema:
    """Only what a search reads: the path (stored, to name a hit; unique, to delete it),
    the weighted text fields and the conversation column. Filters by type, persona,
    domain or date are the catalog's. A numeric ``created`` field here once cost 1.3 KB a
    memory (Whoosh indexes a float as 16 terms of its prefixes) and ``id``, indexed and
    stored, 170 bytes, and nothing read either."""
    return Schema(
        path=ID(stored=True, unique=True),
        # phrase=False: no word positions, which no search reads (``keyword_search`` reads
        # each posting's document and frequency): a third of the keyword index's bytes
        key=TEXT(analyzer=PLAIN, field_boost=1.0, phrase=False),
        # analysed like the query (words, lower case, accents folded): "Música" and "viaje en
        # tren" are found by the words of a question, which a KEYWORD field never matched
        tags=TEXT(analyzer=PLAIN, phrase=False),
        body=TEXT(analyzer=EN, phrase=False),
        body_es=TEXT(analyzer=ES, phrase=False),
        # the conversation a memory was taken from, as a column read whole per segment:
        # a question's BM25 over each conversation's text (``keyword_search.session_scores``)
        session=ID(sortable=True),
    )


def document(memory: Memory, schema: Schema | None = None) -> dict:
    """The fields Whoosh indexes for one memory; with ``schema`` (the index's own), only
    those it has: an index built before a field was added keeps taking documents."""
    key = memory.key or ""
    shared = memory.shared_text  # what is private is not searchable either
    text = f"{key.replace('_', ' ')} {shared}" if key else shared
    fields = {
        "path": memory.file.as_posix(),
        "key": key.replace("_", " "),
        # a note's Obsidian aliases are words of it too: "Nacho" finds "Ignacio Ortega"
        "tags": " ".join([*memory.tags, *aliases_of(memory.extra)]),
        "body": english_field_text(text),
        "body_es": text,
        "session": memory.conversation or "",
    }
    return fields if schema is None else {name: value for name, value in fields.items() if name in schema}


class KeywordIndex:
    """One Whoosh index folder. Writers hold vmem's write lock; readers open snapshots."""

    #: weight of each field's BM25 score in the sum (Spanish leg lower: it repeats English matches)
    FIELD_WEIGHTS = {"body": 1.0, "body_es": 0.35, "key": 2.0, "tags": 1.0}

    def __init__(self, folder: Path):
        self.folder = folder

    def exists(self) -> bool:
        return windex.exists_in(str(self.folder))

    def create(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        windex.create_in(str(self.folder), schema())

    def open(self):
        return windex.open_dir(str(self.folder))

    def file_sizes(self) -> str:
        """Each file of the index and its size, as one string: what a commit leaves, which
        the catalog keeps so a sync of the whole vault can tell the folder is as it was
        without opening every segment."""
        try:
            sizes = {f.name: f.stat().st_size for f in self.folder.iterdir() if f.suffix in (".seg", ".toc")}
        except OSError:
            return ""
        return ",".join(f"{name}:{size}" for name, size in sorted(sizes.items()))

    def document_count(self) -> int:
        """Documents not deleted, from the table of contents alone: Whoosh's own
        ``doc_count`` opens a reader over every segment, copying their term files (150 ms
        at 100,000 memories)."""
        ix = self.open()
        segments = getattr(ix, "_segments", None)  # a FileIndex's table of contents
        return sum(segment.doc_count() for segment in segments()) if callable(segments) else ix.doc_count()


#: words every memory may carry without saying anything new ("The user prefers…")
SUBJECT_WORDS = SUBJECT_STOP
#: a pronoun with its verb, as the analysis leaves it ("i'm", "we'r", "i'v"): says no more
#: than "I am", whose words are stop words
_PRONOUN_AND_VERB = re.compile(r"(?:" + "|".join(w for p in _STEMMED_PACKS for w in p.contracted_subjects) + r")'\w*")
#: the term every negation adds to a text's content words: "We do not deploy" adds nothing
#: to "We don't deploy", and "We deploy" drops what both deny (``lifecycle.dedup``)
NEGATED = "not"
#: a verb with its negation, as the analysis leaves it ("don't", "isn't", "won't"), and
#: "cannot": each says no more than ``NEGATED`` (the verb is a stop word, as in "do not")
_CONTRACTED_NEGATION = re.compile(r"\b\w+n't|cannot")
#: the words that deny, as the analysis leaves them ("nothing" → "noth", "jamás" →
#: "jama"; "nada" is a stop word, and "she swims" besides)
_DENYING = frozenset(t.text for word in _of_stemmed("denials") for t in EN(word))


def content_terms(text: str) -> frozenset[str]:
    """The stemmed content words of a text (stop words dropped, negations kept), for
    deciding whether one memory says anything the other does not."""
    english = EN(english_field_text(text))
    terms = {t.text for t in english if not _PRONOUN_AND_VERB.fullmatch(t.text)} - SUBJECT_WORDS
    contracted = {t for t in terms if _CONTRACTED_NEGATION.fullmatch(t)}
    if contracted or terms & _DENYING:
        terms = (terms - contracted) | {NEGATED}
    # "c++" is not "c#", "€500" not "$500": symbolic terms, looked for word by word
    terms |= {w.casefold() for word in text.split() if len(word) <= MAX_SYMBOLIC_WORD for w in _SYMBOLIC.findall(word)}
    return frozenset(terms)


def body_terms(terms: frozenset[str], text: str) -> frozenset[str]:
    """Those of ``terms`` (``content_terms(text)``) that every memory holding one has in
    its ``body`` postings: the analysed words, not a word a key joins with underscores (the
    body reads them as spaces), ``NEGATED`` ("don't" or "never" in another memory's postings)
    or a symbol's term (indexed otherwise)."""
    return frozenset(t.text for t in EN(english_field_text(text)) if "_" not in t.text) & terms - {NEGATED}


_SYMBOLIC = re.compile(rf"[^\s{re.escape(SIGNIFICANT_SYMBOLS)}]*[{re.escape(SIGNIFICANT_SYMBOLS)}][^\s.,;:!?]*")
#: a symbolic term is short ("c++", "€500", "node.js"); a longer word is never one, and
#: matching ``_SYMBOLIC`` inside it costs time quadratic in its length (40 KB: 20 s)
MAX_SYMBOLIC_WORD = 64


#: the function words of a language the index does not stem, accents folded: a question in
#: it asks without them ("quantos anos tem a minha irmã?" matched "O meu carro *tem* seguro",
#: and a shared word is evidence of relevance, ``recall.relevance``)
_UNSTEMMED_STOP = {
    PORTUGUESE: frozenset(fold_accents(w) for w in stoplists["pt"])
    - frozenset(stoplists["en"])
    - frozenset(stoplists["es"])
}


def _asked_without_stop_words(text: str) -> str:
    """``text`` without the function words of its language when the index does not stem it
    (its own stop words are not the English or Spanish fields' )."""
    stop = _UNSTEMMED_STOP.get(detect(text) or "")
    if not stop:
        return text
    return _TOKEN_RE.sub(lambda m: " " if fold_accents(m.group().casefold()) in stop else m.group(), text)


_TOKEN_RE = re.compile(_TOKEN)


@functools.lru_cache(maxsize=256)
def query_terms(text: str) -> tuple[tuple[str, str, float], ...]:
    """(field, analysed term, weight) of every clause a question turns into: each term
    over the weighted fields, OR-ed (scored by ``keyword_search``). Analysed once per
    process for the same text: a recall asks it of the question twice (its memories, its
    sessions) and of each kind's fixed keyword question."""
    clauses = []
    text = _asked_without_stop_words(text)
    fields = (("body", EN, english_field_text(text)), ("body_es", ES, text), ("key", PLAIN, text))
    for field, analyzer, read in fields:
        seen = set()
        for token in analyzer(read):
            term = token.text
            if term and term not in seen:
                seen.add(term)
                clauses.append((field, term, KeywordIndex.FIELD_WEIGHTS[field]))
    for token in PLAIN(text):
        clauses.append(("tags", token.text, KeywordIndex.FIELD_WEIGHTS["tags"]))
    return tuple(clauses)


def query_for(text: str):
    """The same question as a Whoosh query (what ``keyword_search`` reproduces); None if
    nothing is left after analysis."""
    clauses = [Term(field, term, boost=boost) for field, term, boost in query_terms(text)]
    return Or(clauses) if clauses else None
