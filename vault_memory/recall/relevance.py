"""Relevance that means something (pure rules over a hit's evidence).

The ranking scales each leg's scores within the question's own candidates, so the best of
several irrelevant memories scores like a perfect match: "what is my brother's name?" on a
vault with no brother brought the dog, the dentist and the favourite colour. A *fact* is
shown only with evidence of its own: a cosine to the question its model can vouch for, or
a shared word backed by some likeness. Facts are short statements: one that answers a
question is close to it (the answers of a 22-question set of personal facts: cosine .37
to .65, or a shared word; the best unrelated fact: .20 to .35). Episodes, summaries and
notes (conversation turns, long text) keep the ranking's own judgement: their cosines are
lower by nature, and LoCoMo's turns are found at .2.

Two kinds of question are read apart:

- a question about the user as a whole ("what do you know about me?", "¿qué sabés de
  mí?") has no words to match: it is answered with the profile (pinned facts, profile keys,
  and what the user is: name, city, work, partner…);
- a question about food ("what should I avoid eating at the party?") is answered by the
  user's allergies and diet, whatever its other words: they are what such a question must
  never miss.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..index.embedder import BUNDLED_MODEL_ID
from ..lifecycle import key_forms
from ..vault.memory import Memory, fold_accents


@dataclass(frozen=True)
class FactFloor:
    """What a fact needs to be shown, on one model's scale."""

    #: with no shared word: this cosine
    min_cosine: float
    #: with a shared word: this much likeness
    min_cosine_with_word: float
    #: or word pieces that match the question this well, whatever the cosine
    min_maxsim: float


#: the floors measured per model; a model not listed is not judged (its cosines have not
#: been measured against facts: the ranking alone decides, as before)
FLOORS = {
    # bundled MiniLM: the answers of the personal-facts set reach .37 and more; the unrelated
    # facts stay under .36 but one (a dentist for "who is my doctor?", not so wrong). With
    # a shared word: "which bank do I use?" shares "use" with "The user uses Neovim" at .04,
    # "where do I work these days?" shares "work" with its answer at .11
    BUNDLED_MODEL_ID: FactFloor(min_cosine=0.36, min_cosine_with_word=0.1, min_maxsim=0.45),
}


def fact_floor(model_id: str) -> FactFloor | None:
    return FLOORS.get(model_id)


_ABOUT_ME = re.compile(
    r"^[\s¿¡]*(?:(?:so|ok|okay|hey|and|y|bueno|che|hola)[\s,]+)?(?:"
    r"what\s+(?:do|else\s+do)\s+you\s+(?:know|remember)\s+about\s+me|tell\s+me\s+(?:about\s+)?(?:myself|about\s+me|what\s+you\s+know)|"
    r"who\s+am\s+i|what\s+have\s+you\s+learn(?:ed|t)\s+about\s+me|describe\s+me|my\s+profile|"
    r"qu[eé]\s+(?:sab[eé]s|sabes|recuerdas|record[aá]s)\s+(?:de|sobre)\s+m[ií]|"
    r"qu[eé]\s+sab[eé]s\s+de\s+m[ií]|qui[eé]n\s+soy|h[aá]blame\s+de\s+m[ií]|contame\s+(?:qu[eé]\s+sab[eé]s\s+)?de\s+m[ií]|"
    r"mi\s+perfil)\b[\s?!.¿¡]*$",
    re.IGNORECASE,
)
_FOOD = re.compile(
    r"\b(?:eat|eating|ate|food|foods|meal|meals|dinner|lunch|breakfast|snack|snacks|cook|cooking|restaurant|menu|dish|"
    r"dishes|diet|recipe|recipes|comer|como|comida|comidas|cena|cenar|almuerzo|almorzar|desayuno|desayunar|cocinar|"
    r"receta|recetas|restaurante|plato|platos|dieta|menú)\b",
    re.IGNORECASE,
)
#: a question about medicines, which the user's allergies answer ("which medicine must a
#: doctor never give me?", "¿qué antibiótico no me pueden recetar?")
_MEDICINE = re.compile(
    r"\b(?:medicines?|medications?|meds|drugs?|pills?|antibiotics?|painkillers?|prescriptions?|"
    r"prescribed?|anaesthe(?:sia|tics?)|anesthe(?:sia|tics?)|vaccines?|medicamentos?|medicinas?|remedios?|"
    r"pastillas?|antibi[oó]ticos?|analg[eé]sicos?|recet(?:ar|arme|an|e|en)|anestesia|vacunas?)\b",
    re.IGNORECASE,
)
#: what a fact about an allergy says, in both languages (accents folded)
ALLERGY_TERMS = "allergic allergy allergies alergico alergica alergia alergias"
_ALLERGY = re.compile(r"\b(?:" + "|".join(ALLERGY_TERMS.split()) + r")\b")
#: what a fact about what the user can eat says, in both languages
DIETARY_TERMS = (
    "allergic allergy allergies intolerant intolerance celiac coeliac vegetarian vegan pescatarian halal kosher "
    "alergico alergica alergia alergias intolerante celiaco celiaca vegetariano vegetariana vegano vegana pescetariano "
    "pescetariana pescatariano pescatariana"
)
_DIETARY = re.compile(r"\b(?:" + "|".join(DIETARY_TERMS.split()) + r")\b")
#: what a diet most often leaves out: "I don't eat pork", "No como carne roja" name no diet,
#: and are about one (found by these words, told apart by ``_NOT_EATING``); each word once
#: ("gluten" and "alcohol" are both languages')
AVOIDED_FOODS = (
    "meat pork beef fish seafood shellfish gluten dairy lactose eggs sugar alcohol "
    "carne cerdo pescado mariscos lácteos lactosa huevo huevos azúcar"
)
#: the user does not eat or drink something (accents folded, lower case)
_NOT_EATING = re.compile(
    r"\b(?:(?:do not|don['’]?t|never|no longer|can['’]?t|cannot|won['’]?t)\s+(?:eat|drink)|"
    r"(?:no|nunca|ya no)\s+(?:como|comemos|puedo comer|bebo|pruebo))\b"
)


#: questions about the user's work or home, whose answer shares no word with them ("what do
#: I do for a living?" for "Trabajo como enfermera"), and the slot subject (``vault.slots``)
#: of the facts that answer them
_SUBJECT_QUESTIONS = (
    (
        "work",
        re.compile(
            r"\b(?:do i do for a living|how do i (?:make|earn) (?:a|my) living|where do i work|what(?: is|['’]s) my (?:job|work|profession|occupation)|"
            r"what do i do for work|a qu[eé] me dedico|d[oó]nde trabajo|de qu[eé] trabajo|"
            r"cu[aá]l es mi (?:trabajo|profesi[oó]n|ocupaci[oó]n))\b",
            re.IGNORECASE,
        ),
    ),
    (
        "residence",
        re.compile(
            r"\b(?:where do i live|what city do i live in|where is my home|d[oó]nde vivo|en qu[eé] ciudad vivo)\b",
            re.IGNORECASE,
        ),
    ),
)


def asked_subject(question: str) -> str | None:
    """The slot subject a question about the user's work or home asks about, if it is one."""
    return next((subject for subject, asks in _SUBJECT_QUESTIONS if asks.search(question)), None)


def about_the_user(question: str) -> bool:
    """A question about the user as a whole, with no subject of its own."""
    return bool(_ABOUT_ME.match(question.strip()))


def about_food(question: str) -> bool:
    return bool(_FOOD.search(question))


def about_medicine(question: str) -> bool:
    return bool(_MEDICINE.search(question))


def allergy(memory: Memory) -> bool:
    """A fact about something the user is allergic to."""
    return bool(_ALLERGY.search(fold_accents(f"{memory.key or ''} {memory.text}").casefold()))


def dietary(memory: Memory) -> bool:
    """A fact about what the user can or will not eat: it names a diet or an allergy, or
    says the user does not eat or drink something."""
    text = fold_accents(f"{memory.key or ''} {memory.text}").casefold()
    return bool(_DIETARY.search(text) or _NOT_EATING.search(text))


def question_words(question: str) -> frozenset[str]:
    """The words of a question as ``names_key`` compares them (once per recall)."""
    return frozenset(re.findall(r"[^\W_]+", fold_accents(question).casefold()))


def names_key(words: frozenset[str], memory: Memory) -> bool:
    """The question (its ``question_words``) names the fact's key, under any of its names
    ("what is the user's name?" and ``nombre: Lucas``)."""
    if not memory.key:
        return False
    return any(set(form.split("_")) <= words for form in key_forms(memory.key))


def has_evidence(
    memory: Memory,
    floor: FactFloor | None,
    cosine: float | None,
    maxsim: float | None,
    shares_word: bool,
) -> bool:
    """Whether a recalled memory has relevance of its own, not only its rank among the
    question's candidates. Only facts are judged, on a model whose ``floor`` was measured;
    ``cosine`` and ``maxsim`` are None where the model cannot judge the pair (another
    language) or did not run. ``shares_word``: a keyword match, or the question names the
    fact's key."""
    if memory.type != "fact" or floor is None:
        return True
    if cosine is None and maxsim is None:
        return shares_word  # the keyword leg alone can speak for it
    if (cosine or 0.0) >= floor.min_cosine or (maxsim or 0.0) >= floor.min_maxsim:
        return True
    return shares_word and (cosine is None or cosine >= floor.min_cosine_with_word)
