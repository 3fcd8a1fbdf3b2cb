"""What a pack tells the slot rules (``vault.slots``: what a fact is about, and whether a
newer one replaces it): data only, as patterns over a fact's normal form (lower case,
accents folded, one apostrophe). A pack that ``reads_as`` another brings none: its facts are
read in that one's forms."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class SlotGrammar:
    """The words and shapes of one language the slot rules read.

    Words: ``stop_words`` carry no value ("the", "de"); ``articles`` may open a subject's
    name and leave it the same subject; ``stem_suffixes`` are cut from a word's end for the
    light stem one verb's forms share ("smok", "fum"); ``names`` give each name of a subject
    its one spelling, shared by every language ("wife", "novia" → "partner"; "trabajo" →
    "work/role"); ``several_people`` are the roles a person has several of ("sister",
    "amigo") and ``several_things`` the things ("project"); ``not_family`` are the roles of
    those that are not family (a friend, a pet); ``group_names`` name several at once, with
    the role they are read as ("hijos" → child); ``roles`` the names of each role of the
    user's people as a question asks for them; ``hints`` the words a fact with a subject a
    profile key names holds ("called", "vive", "allergic"); ``diets`` each diet's name;
    ``measure_stems`` the stems of verbs whose number is a measure that changes ("weigh");
    ``often`` and ``when`` the words of how often and when ("every", "tardes", "monday");
    ``move_verbs`` what opens a move ("moved", "se mudo"); ``unchanging_plurals`` nouns in
    "-s" that name one thing ("series").

    Patterns: ``trailing_times``, each ending in ``.*``, cut a time said after a fact
    ("…last month"); ``owners`` are the possessives of anyone ("my", "su") and ``own`` those
    of whoever speaks ("my", "mi"), as alternations; ``owned_after`` a possessive said after
    its noun, one group for the noun ("la hermana del usuario"); ``negation``, a
    ``negated_copula`` (its positive ``copula``), ``negated_modals`` (each pattern with its
    positive), ``stopped`` (group 1: what was stopped), ``anymore`` and ``auxiliaries`` (the
    words a denial leaves behind, "does"); ``relations``, by name, each matched at the start
    of what follows the subject, with group ``x`` the value (and ``from``, ``n``): residence,
    work_at, work_as, called, age, diet (``{diets}`` stands for every pack's diets),
    eats_meat, partner, count (``{counts}`` for the numbers from two to ten), switch,
    swapped, is, costs; ``like`` the verbs of liking, read as one; ``event`` and ``past``
    what happened once or is over; ``verb_first`` a sentence whose verb opens it and speaks
    of the user ("vivo en Lima"); ``now`` what opens it and says now; ``not_an_employer``
    and ``not_an_employer_when`` what follows "works at" and is no employer ("home",
    "weekends"); ``possessed`` a fact about something of the user's (groups ``s``, ``s1`` or
    ``s2`` for the thing, ``r`` for the rest) and ``self_subject`` one about the user (group
    ``r``); ``first_person`` a pattern and what it becomes ("i'm" → "i is "); ``also`` what
    adds a value and ``more`` what opens a second clause."""

    stop_words: frozenset[str] = field(default_factory=frozenset)
    articles: frozenset[str] = field(default_factory=frozenset)
    #: what says a subject's value is new ("my *new* dentist", "mi email *nuevo*"): the same
    #: subject, its new value
    new_words: frozenset[str] = field(default_factory=frozenset)
    #: the prepositions a residence's place follows and the indefinite articles: "lives *in a*
    #: flat" says what the home is, not where (``vault.slots``)
    residence_prepositions: frozenset[str] = field(default_factory=frozenset)
    indefinite_articles: frozenset[str] = field(default_factory=frozenset)
    stem_suffixes: tuple[str, ...] = ()
    names: Mapping[str, str] = field(default_factory=dict)
    several_people: frozenset[str] = field(default_factory=frozenset)
    several_things: frozenset[str] = field(default_factory=frozenset)
    not_family: frozenset[str] = field(default_factory=frozenset)
    group_names: Mapping[str, str] = field(default_factory=dict)
    roles: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    hints: frozenset[str] = field(default_factory=frozenset)
    diets: Mapping[str, str] = field(default_factory=dict)
    measure_stems: frozenset[str] = field(default_factory=frozenset)
    often: frozenset[str] = field(default_factory=frozenset)
    when: frozenset[str] = field(default_factory=frozenset)
    move_verbs: tuple[str, ...] = ()
    unchanging_plurals: frozenset[str] = field(default_factory=frozenset)
    trailing_times: tuple[str, ...] = ()
    owners: str = ""
    own: str = ""
    owned_after: tuple[str, ...] = ()
    negation: str = ""
    negated_copula: str = ""
    copula: str = ""
    negated_modals: Mapping[str, str] = field(default_factory=dict)
    stopped: str = ""
    anymore: str = ""
    auxiliaries: str = ""
    relations: Mapping[str, str] = field(default_factory=dict)
    like: str = ""
    event: str = ""
    past: str = ""
    verb_first: str = ""
    now: str = ""
    not_an_employer: str = ""
    not_an_employer_when: str = ""
    possessed: str = ""
    self_subject: str = ""
    #: the user with those they live with as the subject ("we", "my wife and I", "vivimos"):
    #: read for where the user lives alone (group ``r``)
    household: str = ""
    first_person: tuple[str, str] = ("", "")
    #: a name told of its owner, and how the grammar says it with a naming word: "my dog's
    #: name is rex", "el nombre de mi perro es rex" → "my dog is called rex", "mi perro se
    #: llama rex" (each a pattern on the normal form and its replacement)
    named_as: tuple[tuple[str, str], ...] = ()
    also: str = ""
    more: str = ""
