"""Questions of a kind, and the facts that answer them whatever their words (pure rules).

Some questions are answered by what the user *is*, not by the words they share with a
memory: one about food by the user's diet and allergies ("should you suggest a steakhouse
for my dinner?" → "No como carne roja"), one about medicines by their allergies ("which
medicine must a doctor never give me?" → "I am allergic to penicillin"), one about the
user's own work or home by those facts ("what do I do for a living?" → "Trabajo como
enfermera"), one about the user's people by the facts about them ("what do my kids do?" →
"My daughter Ana plays the violin"). Each kind is one entry of ``KINDS``: what makes a
question of that kind, and how the index finds its facts (keyword questions and which of
their results answer, or the slot and people tags of ``vault.slots``). Recall lifts a kind's facts above the rest, in their own
order (those no leg found: by their likeness to the question), and counts them relevant
(``Engine._by_kind``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..lang import fold_accents
from ..vault.memory import Memory
from ..vault.sameness import key_and_text
from ..vault.slots import people_asked, people_named, people_tags_of, subject_tag

#: a question about food, which the user's diet and allergies answer ("what should I avoid
#: eating at the party?")
_FOOD = re.compile(
    r"\b(?:eat|eating|ate|food|foods|meal|meals|dinner|lunch|breakfast|snack|snacks|cook|cooking|restaurant|menu|dish|"
    r"dishes|diet|recipe|recipes|comer|como|comida|comidas|cena|cenar|almuerzo|almorzar|desayuno|desayunar|cocinar|"
    r"receta|recetas|restaurante|plato|platos|dieta|menú)\b",
    re.IGNORECASE,
)
#: a question about medicines, which the user's allergies answer ("which medicine must a
#: doctor never give me?", "¿qué antibiótico no me pueden recetar?")
_MEDICINE_WORDS = (
    r"medicines?|medications?|meds|drugs?|pills?|antibiotics?|painkillers?|prescriptions?|"
    r"prescribed?|anaesthe(?:sia|tics?)|anesthe(?:sia|tics?)|vaccines?|medicamentos?|medicinas?|remedios?|"
    r"pastillas?|antibi[oó]ticos?|analg[eé]sicos?|recet(?:ar|arme|an|e|en)|anestesia|vacunas?"
)
_MEDICINE = re.compile(rf"\b(?:{_MEDICINE_WORDS})\b", re.IGNORECASE)
#: what makes a question about a medicine or a dish one of what is safe or allowed, which the
#: allergies and diet answer: "which medicine must a doctor never give me?", "what
#: painkiller can I take?", "can I order the chicken wings?"; not "what medication do I
#: take every morning?", answered by the medicine itself
_MAY_I_HAVE = re.compile(
    r"\b(?:never|not|no|avoid|allergic|allergy|allergies|safe|safely|can i|could i|should i|may i|"
    r"ok to|okay to|puedo|podr[ií]a|debo|deber[ií]a|evitar|evito|nunca|seguro|al[eé]rgic[oa]|alergias?)\b|n[’']t\b",
    re.IGNORECASE,
)
#: what a fact about an allergy says, in both languages (accents folded)
ALLERGY_TERMS = "allergic allergy allergies alergico alergica alergia alergias"
_ALLERGY = re.compile(r"\b(?:" + "|".join(ALLERGY_TERMS.split()) + r")\b")
#: what a fact about what the user can eat says, in both languages: an allergy, or a diet
DIETARY_TERMS = (
    f"{ALLERGY_TERMS} intolerant intolerance celiac coeliac vegetarian vegan pescatarian halal kosher "
    "intolerante celiaco celiaca vegetariano vegetariana vegano vegana pescetariano pescetariana pescatariano "
    "pescatariana"
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

#: dishes and foods a question may name without a word of meals (English and Spanish)
_DISHES = re.compile(
    r"\b(?:chicken|wings|beef|steaks?|burgers?|hamburgers?|pork|bacon|ham|sausages?|hot\s+dogs?|pizzas?|"
    r"pasta|spaghetti|lasagna|sushi|salmon|tuna|shrimps?|prawns?|seafood|lobsters?|crabs?|oysters?|cheese|"
    r"yogh?urt|omelett?e|sandwich(?:es)?|toast|cakes?|cookies|ice\s+cream|chocolate|desserts?|salads?|soups?|"
    r"curry|tacos?|burritos?|nachos|fries|noodles|ramen|tofu|peanuts?|wine|beer|cocktails?|"
    r"pollo|alitas|carne|bifes?|asado|hamburguesas?|cerdo|jam[oó]n|chorizos?|salchichas?|fideos|ñoquis|"
    r"empanadas?|milanesas?|pescado|salm[oó]n|at[uú]n|mariscos|camarones|langostinos|queso|yogur|tortilla|"
    r"s[aá]ndwich(?:es)?|tortas?|galletitas|helado|postres?|ensaladas?|sopas?|guiso|locro|papas\s+fritas|"
    r"arroz|man[ií]|vino|cerveza|tragos?)\b",
    re.IGNORECASE,
)
#: a question that recalls what the user eats or likes, not what they may eat ("what do I
#: usually have for lunch?", "what's the user's favourite restaurant?", "¿cuál es mi comida
#: favorita?", "¿qué cené ayer?"); a present "¿qué como hoy?" asks what to eat, so only the
#: past and "suelo" recall in Spanish
_RECALLS_A_HABIT = re.compile(
    r"\b(?:(?:do|did|does) (?:i|the user|user) (?:usually |normally |always |often |ever )?"
    r"(?:have|eat|drink|order|cook|make|get)|"
    r"(?:my|the user'?s|user'?s) usual|favou?rites?|i (?:usually|normally|always) (?:have|eat|drink|order)|"
    r"favorit[oa]s?|(?:com[ií]|tom[eé]|cen[eé]|desayun[eé]|almorc[eé]|ped[ií]|cocin[eé])\b|"
    r"suelo (?:comer|tomar|cenar|desayunar|almorzar|pedir|cocinar))",
    re.IGNORECASE,
)
#: what an allergy is to, when it is a food (accents folded): the allergies a question about
#: food is answered by
_FOOD_ALLERGENS = re.compile(
    r"\b(?:peanuts?|nuts?|tree nuts|almonds?|cashews?|walnuts?|hazelnuts?|pistachios?|pecans?|shellfish|shrimps?|"
    r"prawns?|crabs?|lobsters?|fish|eggs?|milk|dairy|lactose|gluten|wheat|soya|sesame|mustard|celery|lupin|"
    r"soy(?!\s+(?:alergic|intoleran|celiac))|"  # not the Spanish "soy alérgica": "I am"
    r"strawberr(?:y|ies)|kiwis?|foods?|mani|manies|cacahuetes?|cacahuates?|nuez|nueces|almendras?|avellanas?|"
    r"mariscos?|camarones|camaron|gambas?|pescados?|huevos?|leche|lacteos|lactosa|trigo|soja|sesamo|mostaza|apio|"
    r"frutillas?|fresas?|alimentos?|comidas?)\b"
)
#: what an allergy is to, when it is a medicine or something around the user (accents
#: folded): the allergies a question about medicines is answered by, and no food question
_NOT_FOOD_ALLERGENS = re.compile(
    rf"\b(?:{_MEDICINE_WORDS}|penicillin|amoxicillin|sulfa|sulfonamides?|ibuprofen|aspirin|codeine|morphine|"
    r"nsaids?|paracetamol|acetaminophen|naproxen|iodine|contrast|latex|pollen|dust|mites?|bees?|wasps?|stings?|"
    r"cats?|dogs?|nickel|mou?ld|grass|hay fever|penicilina|amoxicilina|antibioticos?|sulfas?|ibuprofeno|aspirina|"
    r"codeina|morfina|naproxeno|yodo|contraste|polen|polvo|acaros|abejas?|avispas?|picaduras?|gatos?|perros?|"
    r"niquel|moho|pasto|cesped)\b"
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


#: the roles of the user's people (as ``vault.slots.people_of`` reads them), each with its
#: names in both languages and the wider role a fact may name the same one by ("my kid" may
#: be the son, "mi perro" a pet)
_ROLES: dict[str, tuple[str, str | None]] = {
    "son": ("son hijo", "child"),
    "daughter": ("daughter hija", "child"),
    "child": ("child kid baby bebe", None),
    "brother": ("brother hermano", "sibling"),
    "sister": ("sister hermana", "sibling"),
    "sibling": ("sibling", None),
    "mother": ("mother", "parent"),
    "father": ("father", "parent"),
    "parent": ("parent", None),
    "grandmother": ("grandmother grandma abuela", "grandparent"),
    "grandfather": ("grandfather grandpa abuelo", "grandparent"),
    "grandparent": ("grandparent", None),
    "grandson": ("grandson nieto", "grandchild"),
    "granddaughter": ("granddaughter nieta", "grandchild"),
    "grandchild": ("grandchild", None),
    "partner": ("partner", None),
    "cousin": ("cousin primo prima", None),
    "aunt": ("aunt tia", None),
    "uncle": ("uncle tio", None),
    "nephew": ("nephew sobrino", None),
    "niece": ("niece sobrina", None),
    "family": ("family", None),
    "friend": ("friend amigo amiga", None),
    "colleague": ("colleague coworker colega companero companera", None),
    "neighbour": ("neighbour neighbor vecino vecina", None),
    "dog": ("dog perro perra", "pet"),
    "cat": ("cat gato gata", "pet"),
    "bird": ("bird", "pet"),
    "fish": ("fish", "pet"),
    "horse": ("horse", "pet"),
    "pet": ("pet mascota", None),
}
#: the roles a question about the user's family asks about: not friends, colleagues,
#: neighbours or pets
_FAMILY = frozenset(
    role
    for role, (_, wider) in _ROLES.items()
    if "pet" not in (role, wider) and role not in ("friend", "colleague", "neighbour")
)
_ROLE_OF_NAME = {name: role for role, (names, _) in _ROLES.items() for name in names.split()}


def people_answering(asked: frozenset[str]) -> frozenset[str]:
    """The names of the people whose facts answer a question about ``asked`` (the roles of
    ``vault.slots.people_asked``): each role in both languages, the wider one that may name
    the same person, and the narrower ones it covers ("my kids" → son, daughter, hijo…;
    "my son" → son, hijo, child, kid…; "my family" → every relative)."""
    roles: set[str] = set()
    for name in asked:
        role = _ROLE_OF_NAME.get(name)
        if role is None:
            roles.add(name)
        elif role == "family":
            roles |= _FAMILY
        else:
            wider = _ROLES[role][1]
            roles |= {role, *([wider] if wider else []), *(r for r, (_, w) in _ROLES.items() if w == role)}
    return frozenset(name for role in roles for name in (_ROLES[role][0].split() if role in _ROLES else [role]))


def whom_asked(question: str) -> frozenset[str]:
    """The names of the user's people a question asks about (``people_answering``); empty
    for a question about the user."""
    return people_answering(people_asked(question))


def about_whom_asked(memory: Memory, whom: frozenset[str]) -> bool:
    """Whether a fact of a kind is about the people a question asks about (``whom_asked``):
    "can my daughter eat shrimp?" is answered by her allergy, not by the user's; a question
    about the user takes every fact of its kind, the family's too ("what should I cook
    tonight?" may be for all of them)."""
    return not whom or bool(people_named(memory.key, memory.text) & whom)


def asked_subject(question: str) -> str | None:
    """The slot subject a question about the user's work or home asks about, if it is one."""
    return next((subject for subject, asks in _SUBJECT_QUESTIONS if asks.search(question)), None)


def about_food(question: str) -> bool:
    """A question about what the user may eat, which their diet and allergies answer: one
    with a word of meals ("dinner", "restaurant", "comer"), or one that asks whether a
    dish is safe or allowed ("can I order the chicken wings?", "¿puedo pedir milanesa?";
    not "who taught me to make empanadas?"); not one that recalls what they eat or like
    ("what hot drink do I have at breakfast?", "what's my favourite restaurant?"),
    answered by that memory itself."""
    may_i_have = _DISHES.search(question) and _MAY_I_HAVE.search(question)
    return bool(_FOOD.search(question) or may_i_have) and not _RECALLS_A_HABIT.search(question)


def about_medicine(question: str) -> bool:
    """A question about which medicines are safe for the user to take."""
    return bool(_MEDICINE.search(question) and _MAY_I_HAVE.search(question))


def answers_food(memory: Memory) -> bool:
    """A fact found by the diet words that answers what the user may eat: all but an
    allergy to medicines or to what is around ("penicillin", "latex", "bee stings") that
    names no food."""
    text = _folded(memory)
    return not (_ALLERGY.search(text) and _NOT_FOOD_ALLERGENS.search(text) and not _FOOD_ALLERGENS.search(text))


def answers_medicine(memory: Memory) -> bool:
    """An allergy that answers what the user may be given: all but one to a food
    ("peanuts", "maní") that names no medicine or other allergen."""
    text = _folded(memory)
    return bool(_ALLERGY.search(text)) and not (_FOOD_ALLERGENS.search(text) and not _NOT_FOOD_ALLERGENS.search(text))


def dietary(memory: Memory) -> bool:
    """A fact about what the user can or will not eat: it names a diet or an allergy, or
    says the user does not eat or drink something."""
    text = _folded(memory)
    return bool(_DIETARY.search(text) or _NOT_EATING.search(text))


def _folded(memory: Memory) -> str:
    """A memory's key and text, accents folded and lower case, as the fact patterns read it."""
    return fold_accents(key_and_text(memory.key, memory.text)).casefold()


#: the keyword question that finds the user's allergies (``ALLERGY_TERMS``, with the accents
#: a Spanish fact is written with)
ALLERGY_QUERY = f"{ALLERGY_TERMS} alérgico alérgica"
#: the keyword question that finds the user's allergies and diet
DIETARY_QUERY = f"{DIETARY_TERMS} alérgico alérgica celíaco celíaca"


#: of a kind's facts no leg found, the most recall reads and weighs (by their ids): those
#: that share a word or a likeness with the question are among the candidates already
UNFOUND_FACTS = 50


@dataclass(frozen=True)
class Search:
    """A keyword question for a kind's facts, and which of its results answer (None: all)."""

    query: str
    keeps: Callable[[Memory], bool] | None = None


@dataclass(frozen=True)
class Kind:
    """A kind of question (``asks``) and where its facts are: the results of ``searches``,
    and the facts under the catalog tags ``tags`` and ``tags_of`` the people the question
    asks about (``whom_asked``)."""

    name: str
    asks: Callable[[str], bool]
    searches: tuple[Search, ...] = ()
    tags: tuple[str, ...] = ()
    tags_of: Callable[[frozenset[str]], list[str]] | None = None

    def tags_for(self, whom: frozenset[str]) -> list[str]:
        return [*self.tags, *(self.tags_of(whom) if self.tags_of else [])]


#: every kind, in the order recall lifts their facts
KINDS = (
    Kind("food", about_food, (Search(DIETARY_QUERY, answers_food), Search(AVOIDED_FOODS, dietary))),
    Kind("medicine", about_medicine, (Search(ALLERGY_QUERY, answers_medicine),)),
    Kind("work", lambda question: asked_subject(question) == "work", tags=(subject_tag("work"),)),
    Kind("residence", lambda question: asked_subject(question) == "residence", tags=(subject_tag("residence"),)),
    # last, so above the others: "can my son eat peanuts?" is answered by the son's allergy first
    Kind("people", lambda question: bool(people_asked(question)), tags_of=people_tags_of),
)


def kinds_of(question: str) -> list[Kind]:
    """The kinds ``question`` is of (most often none)."""
    return [kind for kind in KINDS if kind.asks(question)]
