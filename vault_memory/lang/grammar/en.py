"""English grammar a pack brings (``Pack.third_person``): the user's own words as a fact
about them, "I live in Lima" → "the user lives in Lima" (pure functions)."""

from __future__ import annotations

import re

from . import CLAUSE_END, a_list_item, an_item_before

_I = re.IGNORECASE

_EN_MODALS = {"can", "could", "will", "would", "should", "must", "might", "may", "did", "had", "was", "used"}
#: verbs whose form does not change with the person: negated modals and the past ("I won't
#: fly", "I just moved", "I ran a marathon"), which took an "s" ("wons't", "moveds")
_EN_UNCHANGED = _EN_MODALS | {
    "can't", "cannot", "couldn't", "won't", "wouldn't", "shouldn't", "mustn't", "didn't", "wasn't", "hadn't",
    "ought", "are", "were", "weren't",
    "went", "got", "made", "took", "bought", "came", "became", "began", "found", "lost", "sold", "thought",
    "told", "wrote", "ran", "grew", "knew", "felt", "kept", "paid", "said", "spent", "won", "broke", "drove",
    "ate", "gave", "fell", "flew", "forgot", "left", "met", "saw", "sent", "built", "taught", "caught", "brought",
    "heard", "held", "led", "meant", "slept", "stood", "understood", "wore", "swam", "sang", "rode", "chose",
}  # fmt: skip
_EN_IRREGULAR = {"have": "has", "do": "does", "go": "goes", "am": "is", "'m": "is", "haven't": "hasn't"}
#: present verbs ending in "-ed" (the others in "-ed" are past tense)
_EN_PRESENT_ED = {"embed", "shed", "wed", "shred", "bed"}


def _en_third(verb: str) -> str:
    low = verb.lower()
    if low in _EN_UNCHANGED:
        return verb
    if low.endswith("ed") and low not in _EN_PRESENT_ED and (not low.endswith("eed") or low in ("agreed", "freed")):
        return verb
    if low in _EN_IRREGULAR:
        return _EN_IRREGULAR[low]
    if re.search(r"(?:s|sh|ch|x|z|o)$", low):
        return verb + "es"
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    return verb + "s"


#: adverbs that stand between "I" and its verb ("I always run"): the verb after them is
#: the one that agrees ("the user always runs", not "the user alwayses run")
_EN_ADVERBS = (
    "always|usually|never|often|sometimes|really|rarely|seldom|also|just|still|generally|normally|"
    "typically|mostly|only|even|actually|definitely|truly|hardly|barely|frequently|occasionally|"
    r"constantly|mainly|already|probably|absolutely|totally|kind\s+of|sort\s+of|no\s+longer|now|currently|"
    r"nowadays|recently|officially|finally"
)
_EN_SUBJECT = rf"\bI\s+((?:(?:{_EN_ADVERBS})\s+)*)"


#: how a note about the user opens with its subject left out, by what the subject needs:
#: "is" ("allergic to", "based in", "training for"), "was" ("born in"), "has" ("been
#: living in"), or nothing (a past: "grew up in", "moved to"); then a preposition or an
#: article ("Spring in Lisbon", "staging DB gets wiped" open with none of these words)
_ELIDED_IS = (
    "allergic|intolerant|based|married|engaged|divorced|retired|vegan|vegetarian|pescatarian|celiac|coeliac|"
    "diabetic|left-handed|right-handed|colou?rblind|interested|located|obsessed|addicted|training|working|living|"
    "studying|learning|coding|renting|commuting|freelancing|volunteering|saving|planning"
)
_ELIDED_WAS = "born|raised"
_ELIDED_PAST = "grew|moved|lived|worked|studied|started|joined|switched|quit|adopted|bought|got"
_ELIDED_AFTER = r"in|at|for|to|on|with|from|as|since|out|of|by|about|into|up|near|a|an|the|my|our"
#: the whole opening, as ``Pack.elided_user_opening``
#: an adverb a note may open with before its verb ("just got a Pixel", "recently moved to Leeds")
_ELIDED_ADVERB = rf"(?:{_EN_ADVERBS}|recently|finally)\s+"
_ELIDED_ADVERB_OPENING = re.compile(rf"{_ELIDED_ADVERB}(?=\S)", _I)
ELIDED_OPENING = (
    rf"(?:{_ELIDED_ADVERB})?"
    rf"(?:been\s+(?:[a-z]+ing\s+)?|(?:{_ELIDED_IS}|{_ELIDED_WAS}|{_ELIDED_PAST})\s+)(?:{_ELIDED_AFTER})\b"
)
_ELIDED = re.compile(rf"^(?:{ELIDED_OPENING})", _I)


def _subject_said(text: str) -> str:
    """``text`` with the user said where a note left its subject out: "allergic to tree
    nuts" → "the user is allergic to tree nuts", "born in Cork" → "the user was born in
    Cork", "moved to Lyon in 2019" → "the user moved to Lyon in 2019"."""
    if _ELIDED.match(text) is None:
        return text
    adverb = _ELIDED_ADVERB_OPENING.match(text)
    first = text[adverb.end() if adverb else 0 :].split(None, 1)[0].lower()
    verb = "has " if first == "been" else "was " if re.fullmatch(_ELIDED_WAS, first) else ""
    verb = verb or ("is " if re.fullmatch(_ELIDED_IS, first) else "")
    return f"the user {verb}{text[0].lower()}{text[1:]}"


#: "i" typed in lower case where a clause opens: the pronoun ("i use a dvorak layout", "…,
#: and i'm vegan"); not "for i in range" (a loop's "i" opens no clause)
_LOWER_I = re.compile(
    r"(?:^|(?<=[,;:.!?]\s)|(?<=\band\s)|(?<=\bbut\s)|(?<=\bso\s)|(?<=\bbecause\s))i"
    r"(?=['’]\w|\s+(?!(?:is|was|has|does|=)\b)\w)"  # "i is the imaginary unit" is no pronoun
)


#: "im", "ive" typed without their apostrophe, wherever a word follows ("im vegan", "…, and ive
#: got two cats"): "I'm", "I've"; no English word is spelt so
_BARE_CONTRACTION = re.compile(r"(?<![^\s,;:.!?])[iI](m|ve)(?=\s+\w)")


#: "X and I" opening a text, X a few words not "I": one subject of two
_ONE_SUBJECT = re.compile(r"^(?!I\b)((?:[^\s,;.]+\s+){1,3}?(?:and|or))\s+I\b(?!['’])(?!\s+(?:am|was)\b)")


#: "my wife's a nurse", "my name's Dave": the "'s" of "is" after a thing of the user's, told by
#: what follows it (an article, a preposition, an adverb, a number, a participle or an
#: adjective's ending, a name that ends the clause) when no other verb follows in the clause;
#: "my wife's car", "my boss's assistant is Jo" keep their possessive
_IS_CONTRACTED = re.compile(
    r"\b((?:[Mm]y|[Oo]ur)\s+(?:[a-z]+\s+)?[A-Za-z]+)['’]s\s+"
    r"(?=(?:a|an|the|my|our|his|her|their|not|also|always|never|still|now|just|from|in|at|on|with|"
    r"called|named|been|very|really|so|too|back|away|over|home|one|two|three|four|five|six|seven|"
    r"eight|nine|ten|eleven|twelve|\d+|[a-z][a-z-]*(?:ed|ing|ic|ous|ful|ive|less))\b"
    r"|[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?\s*(?:$|[,.!;]|\s+and\b))"
    r"(?![^,.;!?]*\b(?:is|are|was|were|has|have|had|lives|works)\b)"
)


def as_written(text: str) -> str:
    """``text`` with "im" and "ive" typed without their apostrophe as "I'm", "I've", wherever
    a word follows ("im lactose intolerant, remember that", "pls remember im allergic to…";
    "im.show()" and "IM me" are none): neither is an English word; and the "'s" of "is"
    after a thing of the user's written out ("my wife's a nurse" → "my wife is a nurse")."""
    return _IS_CONTRACTED.sub(r"\1 is ", _BARE_CONTRACTION.sub(r"I'\1", text))


def third_person(text: str) -> str:
    """First person to the user in the third person: "my sister" → "the user's sister"."""
    text = _subject_said(_LOWER_I.sub("I", as_written(text)))
    # "my wife and I live in Cork": one subject of two, its verb as said ("the user lives" was
    # the verb of the user alone)
    text = _ONE_SUBJECT.sub(r"\1 the user", text)
    # "I'M", "I'VE" typed in capitals are the user's too
    out = re.sub(r"\bI(?:'[mM]|\s+(?:am|AM))\b", "the user is", text)
    out = re.sub(r"\bI(?:'(?:ve|VE)|\s+(?:have|HAVE))\b", "the user has", out)
    out = re.sub(r"\bI(?:'(?:ll|LL)|\s+(?:will|WILL))\b", "the user will", out)
    out = re.sub(r"\bI'[dD]\b", "the user would", out)
    out = re.sub(_EN_SUBJECT + r"(?:don't|do\s+not)\b", lambda m: f"the user {m.group(1)}does not", out)
    out = re.sub(_EN_SUBJECT + r"(\w+(?:'\w+)?)", lambda m: f"the user {m.group(1)}{_en_third(m.group(2))}", out)
    subject = re.search(r"\bthe user\b(?!'s)", out, flags=_I)  # once: each "my" looked back over the text
    out = re.sub(r"\bmy\b", lambda m: _their_after_the_user(subject, m.start()), out, flags=_I)
    out = re.sub(r"\bmine\b", "the user's", out, flags=_I)
    out = re.sub(r"\bmyself\b", "themselves", out, flags=_I)
    out = re.sub(r"\bme\b", "the user", out, flags=_I)
    return _joined_clauses(out)


#: the verbs a fact says most, as said after "I": a clause joined to the user's that opens
#: with one is the user's too ("the user plays padel and runs on Thursdays"); words that are
#: as often nouns ("park", "paint", "ski") are left out: "I like tea and paint" has none
_EN_VERBS = frozenset(
    """
    practice practise ship stretch volunteer babysit bartend cater clean commute
    accept act add admire adopt advise agree allow answer apply argue arrive ask attend avoid bake
    believe belong bet bike borrow bring brush build buy call camp care carry catch change chat check
    choose clean climb coach code collect come commute compete complain cook count cover crave create
    cry cut cycle dance deal decide deliver design develop die dig dine dislike dive do draw dream dress
    drink drive drop earn eat edit email enjoy escape exercise expect explain fear feed feel fight fill
    find finish fix fly fold follow forget get give go grab grow guess hang hate have hear help hike
    hire hold hope host hunt hurt identify ignore import improve include intend invest iron jog join
    joke jump keep kick kill kiss knit know lead learn leave lend let lift like listen live lose love
    maintain make manage measure meet mentor miss mix move nap need obey offer open organize own pass
    pay perform pick plan play pray prefer prepare promote protect publish pull push put quit reach read
    realize receive recommend recycle refuse relax remember rent repair repeat reply research return
    ride rise run sail save say search see sell send serve sew shave shop shower sing sit skate sketch
    sleep smoke snore solve speak spend stand start stay stop study surf swim take talk teach tell thank
    think throw train translate travel try tutor understand use visit vote wait wake walk want wash
    watch wear win wish work worry write
    """.split()
)
#: a clause joined to the user's, its subject left out: a join, the adverbs, the verb, and a
#: word after it ("…and run on Thursdays"; not "…and travel." at the end, likely a noun,
#: unless an adverb says it is a verb: "…and rarely cook")
_EN_JOINED = re.compile(
    rf"(,\s*(?:and\s+|but\s+)?|\s(?:and|but)\s+)((?:(?:{_EN_ADVERBS}|then)\s+)*)(don't|do\s+not|[a-z]+)\b"
    r"(?=\s+[^\W_]|\s*+(?:[.!?;]|$))"
)


#: what makes the verb after a join go on unconjugated: "to" ("wants to learn Rust and build
#: games"), a modal ("can swim and ride"), "does not"
_EN_BARE_BEFORE = frozenset(
    {"not", "doesn't", "can't", "cannot", "couldn't", "won't", "wouldn't", "shouldn't", "mustn't"} | _EN_MODALS
)


def _goes_on_unconjugated(before: str) -> bool:
    """Whether the clause that ends ``before`` holds what a verb after a join shares with it
    unconjugated ("to", a modal, "does not")."""
    words = re.split(r",|\b(?:and|but)\b", before)[-1].lower().split()
    if any(a == "to" and b in _EN_VERBS for a, b in zip(words, words[1:])):  # not "moved to Lyon"
        return True
    return any(word in _EN_BARE_BEFORE for word in words)


def _joined_clauses(text: str) -> str:
    """The verbs of the clauses joined to the user's, in its person: "the user plays padel
    and run on Thursdays" → "…and runs on Thursdays". Only after the user is the subject, and
    only a verb that is one (``_EN_VERBS``), never a noun after "and"."""
    subject = re.search(r"\bthe user\b(?!'s)", text)
    if subject is None:
        return text

    def joined(m: re.Match[str]) -> str:
        word = m.group(3)
        if word.startswith("do"):
            if word == "do":  # "and do the dishes"
                return f"{m.group(1)}{m.group(2)}does"
            return f"{m.group(1)}{m.group(2)}does not"
        before = text[: subject.end()] + m.string[: m.start()]
        if word == "am":  # a verb and nothing else, after a list's item too ("…and Italian and am learning…")
            return f"{m.group(1)}{m.group(2)}is"
        if word not in _EN_VERBS or _goes_on_unconjugated(before) or a_list_item(before, _EN_VERBS.__contains__):
            return m.group(0)
        if an_item_before(m.string[m.end() :]) or (not m.group(2) and CLAUSE_END.match(m.string, m.end())):
            return m.group(0)
        return f"{m.group(1)}{m.group(2)}{_en_third(word)}"

    return text[: subject.end()] + _EN_JOINED.sub(joined, text[subject.end() :])


def _their_after_the_user(subject: re.Match[str] | None, at: int) -> str:
    """ "my" once the user is the subject (``subject``: where "the user" is first) is
    "their" ("I take my coffee" → "the user takes their coffee", not "the user takes the
    user's coffee"); before, "the user's"."""
    return "their" if subject is not None and subject.end() <= at else "the user's"


#: the words after "always" or "never" that make no instruction ("always the same", "never mind")
_NOT_IMPERATIVE = {"mind", "the", "a", "an", "same", "it", "is", "was", "happens", "that", "this"}


def instruction(said: str, rule: str) -> str | None:
    """An instruction that lasts, as what the user wants the assistant to do ("always use
    tabs" → "The user wants the assistant to use tabs"), or what the user says of
    themselves ("I'll…", "my…"); ``rule``: the pack's directive that read it ("always",
    "from-now-on"). None for "always the same"."""
    words = said.split()
    if rule == "always" and len(words) > 1 and words[1].lower() in _NOT_IMPERATIVE:
        return None
    if words[0].lower() in ("i", "i'm", "i'll", "i've", "i'd", "my", "we", "we'll", "we're", "we've", "our"):
        told = _assistant_named(third_person(said))  # "I want you to…" → "the user wants the assistant to…"
        return f"From now on, {told}" if rule == "from-now-on" else told
    asked = _user_as_object(_addressed(said[0].lower() + said[1:]))
    if rule == "always":
        return f"The user wants the assistant to {asked}"
    return f"From now on, the user wants the assistant to {asked}"


#: the assistant named before what it is to do or be ("you'll answer…", "you are my coach")
_YOU_WILL = re.compile(r"^you(?:'ll|\s+will|\s+should|\s+can|\s+must|\s+need\s+to|\s+have\s+to)\s+(?=\S)", _I)
_YOU_ARE = re.compile(r"^(?:you(?:'re|\s+are)|youre)\s+(?=\S)", _I)


def _assistant_named(said: str) -> str:
    """``said`` with the assistant named as the memory reads it in a later session, where
    "you" is no one."""
    return re.sub(r"\byourself\b|\byou\b", "the assistant", re.sub(r"\byour\b", "the assistant's", said))


def _addressed(said: str) -> str:
    """What an instruction said to the assistant by name asks, as an order ("you'll answer in
    Spanish" → "answer in Spanish", "you are my coach" → "be my coach"): "the user wants the
    assistant to you are…" had been written."""
    return _YOU_ARE.sub("be ", _YOU_WILL.sub("", said, count=1), count=1)


def _user_as_object(said: str) -> str:
    """ "call me cariño" → "call the user cariño": an instruction said to the assistant, in
    the words the fact is written in."""
    out = re.sub(r"\b(?:my|mine)\b", "the user's", said, flags=_I)
    return re.sub(r"\b(?:me|myself)\b", "the user", out, flags=_I)
