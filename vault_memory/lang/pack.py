"""What a language pack holds: data only, no code of its own."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Pack:
    """The words of one language that vmem's rules read.

    ``code`` is the ISO 639-1 code stored in tags and reports. ``function_words`` are
    frequent words of this language that are rare in the other packs' (the detector's
    vote); ``marks`` are characters only this language writes, each worth ``mark_weight``
    votes, and ``accents`` characters it shares with few others, worth one. ``abbreviations``
    end in a full stop that ends no sentence ("Mr.", "Dra.", "Av."). ``continues`` are the
    words that open a sentence going on about what the last one named ("She is a nurse.",
    "Ela é enfermeira."): said after a request to remember, it is part of it."""

    code: str
    name: str
    function_words: frozenset[str]
    marks: str = ""
    mark_weight: int = 2
    accents: str = ""
    abbreviations: frozenset[str] = field(default_factory=frozenset)
    continues: frozenset[str] = field(default_factory=frozenset)
    #: how a word that asks to keep something begins, accents folded ("remember", "guard"
    #: of "guárdalo", "lembr" of "lembre-se"), and the words after which what to keep is said
    #: ("that", "que"): "Save this for future sessions: …", "Quero que você lembre que …"
    remember_cues: tuple[str, ...] = ()
    that_words: frozenset[str] = field(default_factory=frozenset)
