"""English for the slot rules (``lang.slot_grammar``): what a fact is about and whether a
newer one replaces it."""

from __future__ import annotations

from ..slot_grammar import SlotGrammar

#: the words that say a fact holds from the moment it is said ("from now on my gym is…"):
#: a directive's lead (``en.signal_directives``) and, before a fact, a word of now to the slot rules
FROM_NOW_ON = r"from\s+now\s+on(?:wards?)?|going\s+forward|moving\s+forward|from\s+here\s+on(?:\s+out)?|henceforth|starting\s+(?:today|now)|as\s+of\s+(?:today|now)"

SLOTS = SlotGrammar(
    stop_words=frozenset(
        """a an the of to in at on for with and or is are was be been being it its this that these those his her
        their my our your there here very really quite also just still now currently today these days again anymore
        any more recently lately""".split()
    ),
    articles=frozenset("a an the of".split()),
    new_words=frozenset({"new"}),
    residence_prepositions=frozenset({"in", "to"}),
    indefinite_articles=frozenset({"a", "an"}),
    stem_suffixes=("ing", "ed", "er", "e"),
    names={
        **dict.fromkeys("partner boyfriend girlfriend husband wife spouse fiance fiancee".split(), "partner"),
        **dict.fromkeys("job occupation profession role".split(), "work/role"),
        **dict.fromkeys("employer company".split(), "work/employer"),
        "work": "work",
        "name": "name",
        **dict.fromkeys("surname last_name".split(), "surname"),
        **dict.fromkeys("city location home hometown".split(), "residence"),
        "birthday": "birthday",
        "pronouns": "pronouns",
        "age": "age",
        "diet": "diet",
        **dict.fromkeys("mother mom mum".split(), "mother"),
        **dict.fromkeys("father dad".split(), "father"),
        **dict.fromkeys("colour color".split(), "colour"),
        **dict.fromkeys("phone cellphone smartphone".split(), "phone"),
        **dict.fromkeys("laptop notebook computer".split(), "computer"),
        "car": "car",
        **dict.fromkeys("favorite favourite".split(), "fav"),
        # the people and things of the user's one of each, by the names the other packs give them
        **dict.fromkeys("landlord landlady".split(), "landlord"),
        **dict.fromkeys("doctor gp physician".split(), "doctor"),
        **dict.fromkeys("lawyer attorney".split(), "lawyer"),
        **dict.fromkeys("vet veterinarian".split(), "vet"),
        **dict.fromkeys("email e-mail".split(), "email"),
        **dict.fromkeys("bike bicycle".split(), "bike"),
    },
    several_people=frozenset(
        """sister brother sibling friend son daughter child kid baby dog cat pet bird fish horse cousin colleague
        coworker neighbour neighbor aunt uncle nephew niece grandchild grandson granddaughter grandmother grandfather
        grandma grandpa roommate flatmate housemate classmate teammate bandmate""".split()
    ),
    several_things=frozenset({"project"}),
    not_family=frozenset(
        "friend colleague coworker neighbour neighbor dog cat pet bird fish horse roommate flatmate housemate classmate teammate bandmate".split()
    ),
    group_names={
        "children": "child",
        **dict.fromkeys("grandchildren grandkids".split(), "grandchild"),
        "parents": "parent",
        "grandparents": "grandparent",
        "siblings": "sibling",
    },
    roles={
        "son": ("son",),
        "daughter": ("daughter",),
        "child": ("child", "kid", "baby"),
        "brother": ("brother",),
        "sister": ("sister",),
        "sibling": ("sibling",),
        "mother": ("mother",),
        "father": ("father",),
        "parent": ("parent",),
        "grandmother": ("grandmother", "grandma"),
        "grandfather": ("grandfather", "grandpa"),
        "grandparent": ("grandparent",),
        "grandson": ("grandson",),
        "granddaughter": ("granddaughter",),
        "grandchild": ("grandchild",),
        "partner": ("partner",),
        "cousin": ("cousin",),
        "aunt": ("aunt",),
        "uncle": ("uncle",),
        "nephew": ("nephew",),
        "niece": ("niece",),
        "family": ("family",),
        "friend": ("friend",),
        "colleague": ("colleague", "coworker"),
        "neighbour": ("neighbour", "neighbor"),
        "dog": ("dog",),
        "cat": ("cat",),
        "bird": ("bird",),
        "fish": ("fish",),
        "horse": ("horse",),
        "pet": ("pet",),
    },
    hints=frozenset(
        """name named called call surname live lives living lived moved move work works working birthday born
        pronouns allergic allergy allergies""".split()
    ),
    diets={
        "vegetarian": "vegetarian",
        "vegan": "vegan",
        "pescatarian": "pescatarian",
        "omnivore": "omnivore",
        "flexitarian": "flexitarian",
        "keto": "keto",
        "carnivore": "carnivore",
    },
    measure_stems=frozenset("weigh run pay earn sleep walk drink smok".split()),
    often=frozenset(
        "every each daily weekly always usually often morning mornings evening evenings night nights".split()
    ),
    when=frozenset(
        """every each daily weekly always usually often morning mornings evening evenings night nights weekend
        weekends monday mondays tuesday tuesdays wednesday wednesdays thursday thursdays friday fridays saturday
        saturdays sunday sundays""".split()
    ),
    move_verbs=("moved",),
    unchanging_plurals=frozenset({"series"}),
    trailing_times=(
        r"(?:since|from|starting|as\s+of)\b.*",
        r"(?:last|this|next)\s+(?:week|month|year|weekend)\b.*",
        r"(?:recently|lately|now|again|anymore|any\s+more|these\s+days|nowadays|for\s+good)\b.*",
    ),
    owners=r"my|our|their|his|her|(?:the\s+)?user'?s",
    own=r"my|our|(?:the\s+)?user'?s",
    negation=(
        r"\b(?:no\s+longer|not\s+any\s*more|doesn'?t|does\s+not|don'?t|do\s+not|hasn'?t|has\s+not|never|not)\b\s*"
    ),
    negated_copula=r"\b(?:(?:is|are|am|'s)\s+(?:not|no\s+longer|never)|isn'?t|aren'?t)\b",
    copula="is",
    negated_modals={r"can'?t|cannot|can\s+not": "can", r"won'?t|will\s+not": "will"},
    stopped=r"\b(?:stopped|quit|gave\s+up|has\s+stopped|has\s+quit|has\s+given\s+up)\s+(\w+?)(?:ing)?\b",
    anymore=r"anymore|any\s+more",
    auxiliaries=r"\b(does|do|did|has)\s+",
    relations={
        "residence": (
            r"^(?:lives?|is\s+living|'s\s+living|am\s+living|resides?|now\s+lives?|"
            # "is based in Lyon", "packed up and moved to Nantes" (not "based in the London office")
            r"(?:is|are|(?:has|have)\s+been)\s+based(?=\s+in\s+(?!(?:the|a|an)\s))|"
            r"(?:packed\s+up\s+and\s+)?(?:has\s+|have\s+|just\s+)?(?:moved(?:\s+house)?|relocated))"
            # "lives in a flat with two cats" says what the home is, not where: no place after it
            r"\s+(?:from\s+(?P<from>.+?)\s+)?(?:in|to)\s+(?!(?:a|an)\s+(?!.*\s(?:in|to)\s))(?P<x>.+)$"
        ),
        "work_at": (
            r"^(?:(?:works?|is\s+working|'s\s+working|am\s+working|now\s+works?|(?:has\s+)?(?:started|begun)\s+"
            r"(?:working|a\s+job)|(?:has\s+)?got\s+a\s+job)\s+(?:at|for))\s+(?P<x>.+)$"
        ),
        # an employer one has just joined ("joined Initech", "signed with Hooli as a staff engineer"),
        # not a group, a call, a contract ("joined the gym", "joined a choir": ``slots``)
        "joined": (
            r"^(?:has\s+|have\s+|'ve\s+|just\s+)*(?:joined\s+(?P<x>.+)|signed\s+with\s+(?P<with>.+?)\s+as\s+(?:a|an)\s+.+)$"
        ),
        "work_as": r"^(?:works?|is\s+working|now\s+works?|is\s+employed)\s+as\s+(?P<x>.+)$",
        "called": r"^(?:is\s+called|is\s+named|goes\s+by|(?:'s|is)\s+name\s+is)\s+(?P<x>.+)$",
        "age": r"^(?:is|am|'s|turned|has\s+turned|just\s+turned)\s+(?P<x>\d{1,3})(?:\s+(?:years?\s+old|years))?$",
        "diet": (
            r"^(?:is|am|'s|went|has\s+gone|became|has\s+become)\s+(?:a\s+|an\s+)?(?:(?:strict|strictly|fully)\s+)?"
            r"(?P<x>{diets})\b.*$"
        ),
        "eats_meat": r"^(?:eats?|is\s+eating)\s+meat\b.*$",
        "partner": (
            r"^(?:is\s+(?:dating|seeing|married\s+to|engaged\s+to|in\s+a\s+relationship\s+with|with|together\s+with)|"
            r"(?:got\s+)?married)\s+(?:to\s+)?(?P<x>.+)$"
        ),
        "count": r"^(?:has|have|owns?)\s+(?P<n>\d+|{counts})\s+(?P<x>[^\W\d_]+)$",
        "switch": (
            r"^(?:has\s+)?(?:switched|changed|moved|migrated|upgraded|went)\s+from\s+(?P<from>.+?)\s+to\s+(?P<x>.+)$"
        ),
        "swapped": r"^(?:replaced|swapped)\s+(?P<from>.+?)\s+(?:for|with)\s+(?P<x>.+)$",
        "is": r"^(?:is|are|=|:)\s+(?P<x>.+)$",
        "costs": r"^costs?\s+(?P<x>.+)$",
    },
    like=r"loves?|enjoys?|adores?|is\s+a\s+fan\s+of|is\s+into",
    event=(
        r"^(?:went|visited|saw|met|had|did|was|were|got|bought|made|took|will|is\s+going\s+to|plans?)\b"
        r"|\b(?:yesterday|tomorrow)\b"
    ),
    past=r"\b(?:from|between|in|during)\s+(?:\w+\s+)?\d{4}\b|\bused\s+to\b",
    now=r"now|currently|still|actually|these\s+days|nowadays|lately|finally|" + FROM_NOW_ON,
    not_an_employer=r"on|hard|from\s+home",
    not_an_employer_when=r"(?:the)?\s*(?:weekends?|saturdays|sundays|nights)",
    possessed=(
        r"^(?:the\s+user'?s|user'?s|my)\s+(?P<s>[\w' ]+?)\s+(?P<r>(?:is|are|'s|costs?|lives?|works?|now\s+lives|"
        r"goes\s+by|moved|(?:has\s+)?(?:moved|relocated|joined)|no\s+longer|isn'?t|doesn'?t|does\s+not|"
        r"is\s+no\s+longer|=)\b.*)$"
    ),
    self_subject=r"^(?:the\s+user|user|i)(?:'m|'s|\s+)(?P<r>.*)$",
    # where the user lives said of their household: its verb of living alone ("we live in Vigo";
    # "we moved to…" is as often an office, a tool or a meeting: not read)
    household=(
        r"^(?:we|we've|my\s+(?:wife|husband|partner|family)\s+and\s+i)\s+"
        # its verb of living, or a move that can only be a home's ("packed up and moved", "moved house")
        r"(?P<r>(?:(?:live|have\s+lived|now\s+live)\s+in|(?:packed\s+up\s+and\s+)moved\s+to|(?:have\s+)?moved\s+house\s+to)\s+.*)$"
    ),
    # a fact that leaves its subject out opens with its verb ("just signed with Hooli", "moved
    # to Lyon in 2019"): the user's, read only for what such a verb says
    verb_first=r"^(?:just\s+)?(?:signed\s+with|moved\s+to|relocated\s+to|started\s+working\s+at)\b",
    first_person=(r"^(?:i'm|i\s+am)\s+", "i is "),
    named_as=(
        (
            r"^(?P<o>(?:my|our|the user's|the user s) (?:[^\W_]+ ){0,2}?[^\W_]+)'s (?:first )?name is ",
            r"\g<o> is called ",
        ),
        (r"^the (?:first )?name of (?P<o>(?:my|our|the user's) (?:[^\W_]+ ){0,2}?[^\W_]+) is ", r"\g<o> is called "),
    ),
    also=r"also|too|as\s+well",
    more=(
        r"(?:[,;]|\b(?:and|but|while))\s+(?:(?:the\s+user|he|she|i|also)\b|\w+s\s+(?:at|in|as|for|to)\b|"
        r"(?:works|work|lives|live|has|have|is|am)\b)"
    ),
)
