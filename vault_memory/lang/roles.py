"""Whose a fact is, and whom a question asks about, by the roles of the user's people.

"My son is allergic to peanuts" is the son's ({son}); "¿dónde vive mi hermana?" asks about
the user's sister; "what do my kids do?" is answered by the facts about their son and their
daughter. The words are each pack's slot grammar (``lang.slot_grammar``: names, roles,
groups, possessives); the roles are the ones the catalog's people tags are made of
(``vault.slots.people_tags``). ``lang.subjects.people`` reads the people a fact opens with
from the packs' kinship instead; making the two one reading changes every stored people tag,
so it is a migration of its own. Pure functions.
"""

from __future__ import annotations

import re
import unicodedata

from .borrow import borrowed
from .registry import all_packs
from .slot_grammar import SlotGrammar
from .subjects import WIDER
from .text import fold_accents

#: the slot grammars of the packs (``lang.slot_grammar``), in the packs' order: a pattern
#: several of them hold is tried in it; a pack that ``reads_as`` another brings none
GRAMMARS: tuple[SlotGrammar, ...] = tuple(p.slots for p in all_packs() if p.slots is not None)


def words_of(field: str) -> frozenset[str]:
    """Every grammar's words of ``field``."""
    return frozenset(w for g in GRAMMARS for w in getattr(g, field))


def either(field: str) -> str:
    """Every grammar's pattern of ``field``, as one alternation."""
    return "|".join(f"(?:{getattr(g, field)})" for g in GRAMMARS if getattr(g, field))


def normal_form(text: str) -> str:
    """A fact as the slot rules read it: lower case, Latin accents folded, one apostrophe,
    single spaces, no closing stop."""
    folded = fold_accents(unicodedata.normalize("NFKC", text)).casefold().replace("’", "'")
    return re.sub(r"\s+", " ", folded).strip().rstrip(".!;")


#: each subject by every name a pack gives it, as its one spelling ("novia", "wife" → "partner")
SUBJECT_NAMES = {word: subject for g in GRAMMARS for word, subject in g.names.items()}

#: the people and animals of the user's, one name per role: a fact about one of them is
#: not about the user ("my son is allergic to peanuts")
KIN = words_of("several_people") | {"partner", "mother", "father", "parent", "grandparent", "family"}
#: the user's family among them: a fact keyed by one of these ("sister: Ana", "hermano:
#: Tomás", "wife: Robin") is about the user's family, which the lifecycle keeps as it keeps
#: the profile key "familia" (``lifecycle.rules.is_profile``); a friend, a colleague, a
#: neighbour or a pet is not family
FAMILY = KIN - words_of("not_family")
#: names of several people at once, and the role they are read as: a Spanish masculine
#: plural names a group ("mis hijos" are the user's children, sons and daughters alike)
GROUP_NAMES = {word: role for g in GRAMMARS for word, role in g.group_names.items()}
_POSSESSED = r"\s+(?=((?:[^\W_]+\s+){0,2}[^\W_]+))"
#: a possessive and the three words after it, the first of its people named ("my best
#: friend", "their mother", "mi hermana mayor"; read ahead, so "with my coffee and my son"
#: reads both); and the Spanish "la hermana del usuario"
_OWNED = re.compile("|".join([rf"\b(?:{either('owners')}){_POSSESSED}", *(a for g in GRAMMARS for a in g.owned_after)]))
#: the same, owned by the one who asks: in a question "her son" is someone else's
_OWNED_BY_ASKER = re.compile(
    "|".join([rf"\b(?:{either('own')}){_POSSESSED}", *(a for g in GRAMMARS for a in g.owned_after)])
)


def people_of(text: str) -> frozenset[str]:
    """Whose a fact is, when not the user's own: the roles of the people and animals of
    theirs it names ("My son is allergic to peanuts" → {son}; "La esposa del usuario es
    enfermera" → {partner}; "mis hijos" → {child}); empty for one about the user. A fact
    about the user never restates one about their son, whatever words they share."""
    return _roles_in(_OWNED, borrowed(text))


def people_asked(question: str) -> frozenset[str]:
    """The roles of the user's own people a question names ("what do my kids like?" →
    {kid}, "¿dónde vive mi hermana?" → {hermana}); not someone else's ("her son")."""
    return _roles_in(_OWNED_BY_ASKER, borrowed(question))


#: the roles of the user's people (as ``people_of`` reads them), each with its names in
#: every language, and the wider role a fact may name the same one by ("my kid" may be the
#: son, "mi perro" a pet: ``lang.subjects.WIDER``)
_ROLES: dict[str, tuple[str, str | None]] = {
    role: (" ".join(n for g in GRAMMARS for n in g.roles.get(role, ())), WIDER.get(role))
    for role in dict.fromkeys(r for g in GRAMMARS for r in g.roles)
}
#: the roles a question about the user's family asks about: not friends, colleagues,
#: neighbours or pets
_FAMILY = frozenset(
    role
    for role, (_, wider) in _ROLES.items()
    if "pet" not in (role, wider) and role not in ("friend", "colleague", "neighbour")
)
#: each word of the user's people, in every grammar, as the role it names ("hermana",
#: "sister" → sister; "grandma" → grandmother)
ROLE_OF_NAME = {name: role for role, (names, _) in _ROLES.items() for name in names.split()}


def people_answering(asked: frozenset[str]) -> frozenset[str]:
    """The names of the people whose facts answer a question about ``asked`` (the roles of
    ``people_asked``): each role in both languages, the wider one that may name
    the same person, and the narrower ones it covers ("my kids" → son, daughter, hijo…;
    "my son" → son, hijo, child, kid…; "my family" → every relative)."""
    roles: set[str] = set()
    for name in asked:
        role = ROLE_OF_NAME.get(name)
        if role is None:
            roles.add(name)
        elif role == "family":
            roles |= _FAMILY
        else:
            wider = _ROLES[role][1]
            roles |= {role, *([wider] if wider else []), *(r for r, (_, w) in _ROLES.items() if w == role)}
    return frozenset(name for role in roles for name in (_ROLES[role][0].split() if role in _ROLES else [role]))


def _roles_in(owned: re.Pattern[str], text: str) -> frozenset[str]:
    found = set()
    for match in owned.finditer(normal_form(text)):
        role = next(filter(None, map(role_of, (match.group(1) or match.group(2)).split())), None)
        if role:
            found.add(role)
    return frozenset(found)


def role_of(word: str) -> str | None:
    """The role of the user's people a word names ("hermanos" → sibling, "wife" → partner,
    "sons" → son), or None."""
    role = GROUP_NAMES.get(word) or SUBJECT_NAMES.get(word, word)
    role = role if role in KIN or not role.endswith("s") else SUBJECT_NAMES.get(role[:-1], role[:-1])
    return role if role in KIN else None
