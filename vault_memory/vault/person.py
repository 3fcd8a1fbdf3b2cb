"""The user's own words as a fact about them: first person to the third, in English and
Spanish ("I live in Lima" → "the user lives in Lima", "mi hermana" → "la hermana del
usuario"; pure functions). Explicit signals are written this way, and the restatement check
compares two texts in it, so "I am allergic to peanuts" and "The user is allergic to
peanuts" are one fact."""

from __future__ import annotations

import re

from ..lang import PORTUGUESE, SPANISH, fold_accents

_I = re.IGNORECASE

_EN_MODALS = {"can", "could", "will", "would", "should", "must", "might", "may", "did", "had", "was", "used"}
#: verbs whose form does not change with the person: negated modals and the past ("I won't
#: fly", "I just moved", "I ran a marathon"), which took an "s" ("wons't", "moveds")
_EN_UNCHANGED = _EN_MODALS | {
    "can't", "cannot", "couldn't", "won't", "wouldn't", "shouldn't", "mustn't", "didn't", "wasn't", "hadn't",
    "ought", "were", "weren't",
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
    r"constantly|mainly|already|probably|absolutely|totally|kind\s+of|sort\s+of|no\s+longer|now"
)
_EN_SUBJECT = rf"\bI\s+((?:(?:{_EN_ADVERBS})\s+)*)"


def third_person_en(text: str) -> str:
    """First person to the user in the third person: "my sister" → "the user's sister"."""
    out = re.sub(r"\bI(?:'m|\s+am)\b", "the user is", text)
    out = re.sub(r"\bI(?:'ve|\s+have)\b", "the user has", out)
    out = re.sub(r"\bI(?:'ll|\s+will)\b", "the user will", out)
    out = re.sub(r"\bI'd\b", "the user would", out)
    out = re.sub(_EN_SUBJECT + r"(?:don't|do\s+not)\b", lambda m: f"the user {m.group(1)}does not", out)
    out = re.sub(_EN_SUBJECT + r"(\w+(?:'\w+)?)", lambda m: f"the user {m.group(1)}{_en_third(m.group(2))}", out)
    subject = re.search(r"\bthe user\b(?!'s)", out, flags=_I)  # once: each "my" looked back over the text
    out = re.sub(r"\bmy\b", lambda m: _their_after_the_user(subject, m.start()), out, flags=_I)
    out = re.sub(r"\bmine\b", "the user's", out, flags=_I)
    out = re.sub(r"\bmyself\b", "themselves", out, flags=_I)
    out = re.sub(r"\bme\b", "the user", out, flags=_I)
    return out


def _their_after_the_user(subject: re.Match[str] | None, at: int) -> str:
    """ "my" once the user is the subject (``subject``: where "the user" is first) is
    "their" ("I take my coffee" → "the user takes their coffee", not "the user takes the
    user's coffee"); before, "the user's"."""
    return "their" if subject is not None and subject.end() <= at else "the user's"


ES_FIRST_PERSON = {
    "soy": "es",
    "estoy": "está",
    "tengo": "tiene",
    "vivo": "vive",
    "trabajo": "trabaja",
    "prefiero": "prefiere",
    "uso": "usa",
    "quiero": "quiere",
    "necesito": "necesita",
    "odio": "odia",
    "decidi": "decidió",
    "voy": "va",
    "hago": "hace",
    "puedo": "puede",
    "estudio": "estudia",
    "juego": "juega",
    "corro": "corre",
    "como": "come",
    "bebo": "bebe",
    "tomo": "toma",
    "naci": "nació",
    "cumplo": "cumple",
    "escribo": "escribe",
    "leo": "lee",
    "programo": "programa",
    "manejo": "maneja",
    "hablo": "habla",
    "entreno": "entrena",
    "viajo": "viaja",
    "toco": "toca",
    "cocino": "cocina",
    "camino": "camina",
    "nado": "nada",
    "duermo": "duerme",
    "conozco": "conoce",
    "sigo": "sigue",
    "deje": "dejó",
    "empece": "empezó",
    "volvi": "volvió",
    "cambie": "cambió",
    "compre": "compró",
    "pase": "pasó",
    "adopte": "adoptó",
    "termine": "terminó",
    "me": "se",
    "mi": "su",
}
#: first-person verbs that are nothing else, so they are safe to change mid-sentence
#: ("el lunes tengo turno" → "el lunes el usuario tiene turno"; not "como", "trabajo")
_ES_UNAMBIGUOUS = ("tengo", "estoy", "soy", "quiero", "necesito", "voy", "puedo", "prefiero", "vivo", "odio")


def third_person_es(text: str) -> str:
    """First person to the user in the third person: "mi hermana" → "la hermana del usuario"."""

    def possessive(m: re.Match[str]) -> str:
        before, noun, after = m.group(2) or "", m.group(3), m.group(4) or ""
        plural = m.group(1).lower() == "mis"
        feminine = noun.lower() in _ES_FEMININE_NOUNS or re.search(r"as?$|ión$|dad$", noun)
        article = ("las" if plural else "la") if feminine else ("los" if plural else "el")
        return f"{article} {before}{noun}{after} del usuario"

    out = re.sub(
        rf"\b(mis?)\s+((?:{_ES_BEFORE_NOUN})\s+)?(\w+)(\s+(?:{_ES_AFTER_NOUN}))?\b", possessive, text, flags=_I
    )
    out = re.sub(  # "no me gusta el picante" → "al usuario no le gusta el picante"
        r"^(?:a\s+mí\s+)?(no\s+)?me\s+(gusta|gustan|encanta|encantan|interesa|interesan|cae|caen)\b",
        lambda m: f"al usuario {(m.group(1) or '').lower()}le {m.group(2)}",
        out,
        count=1,
        flags=_I,
    )
    out = re.sub(
        r"\bme\s+(llamo|gusta|gustan|encanta|encantan|interesa|interesan|cae|caen)\b",
        lambda m: "se llama" if m.group(1).lower() == "llamo" else f"le {m.group(1)}",
        out,
        flags=_I,
    )
    reflexive = re.match(rf"^(?:yo\s+)?({_ES_LEADING}\s+)?me\s+(\w+)\b", out, flags=_I)
    if (
        reflexive and fold_accents(reflexive.group(2).lower()) in _ES_REFLEXIVE
    ):  # "me mudé a Quito" → "el usuario se mudó a Quito"
        third = _ES_REFLEXIVE[fold_accents(reflexive.group(2).lower())]
        out = f"el usuario {(reflexive.group(1) or '').lower()}se {third}{out[reflexive.end() :]}"
    out = re.sub(  # "ya no soy vegetariana" → "el usuario ya no es vegetariana", not "ya no el usuario es"
        rf"^(?:yo\s+)?({_ES_LEADING}\s+)?(\w+)",
        lambda m: _es_subject(m.group(2), m.group(1) or ""),
        out,
        count=1,
        flags=_I,
    )
    out = re.sub(rf"(?<=\s)(?:yo\s+)?({'|'.join(_ES_UNAMBIGUOUS)})\b", lambda m: _es_subject(m.group(1)), out, flags=_I)
    out = re.sub(r"\bconmigo\b", "con el usuario", out, flags=_I)
    return es_gender(out)


#: what can stand before the verb and stays after the subject: "ya no soy" → "el usuario ya no es"
_ES_LEADING = r"(?:ya\s+no|todav[ií]a\s+no|a[uú]n\s+no|no|ya|ahora|tambi[eé]n|tampoco|nunca|siempre|todav[ií]a)"
#: first-person reflexive verbs of a change, and their third person ("me mudé" → "se mudó")
_ES_REFLEXIVE = {
    "mude": "mudó",
    "mudo": "muda",
    "case": "casó",
    "separe": "separó",
    "divorcie": "divorció",
    "jubile": "jubiló",
    "fui": "fue",
    "hice": "hizo",
    "pase": "pasó",
    "cambie": "cambió",
    "compre": "compró",
    "converti": "convirtió",
}

#: feminine nouns that do not end in -a ("la madre del usuario", not "el madre")
_ES_FEMININE_NOUNS = {"madre", "mamá", "mujer", "llave", "clase", "calle", "gente", "leche", "piel", "noche", "sangre"}
#: words that sit between the possessive and its noun, or after the noun, and move with it:
#: "mi mejor amigo" → "el mejor amigo del usuario", "mi color favorito" → "el color favorito del usuario"
_ES_BEFORE_NOUN = r"mejor(?:es)?|primer[oa]?|únic[oa]s?|antigu[oa]s?"
_ES_AFTER_NOUN = r"favorit[oa]s?|preferid[oa]s?|mayor(?:es)?|menor(?:es)?|nuev[oa]s?|actual(?:es)?|del\s+alma"

#: endings of a feminine adjective or noun whose masculine differs ("vegetariana",
#: "casada", "alérgica", "programadora"); "dentista", "atleta", "psiquiatra" are both
_ES_FEMININE = ("ada", "ida", "ana", "ina", "ena", "ica", "aca", "era", "ora", "osa", "iva", "ola", "ona")


def es_gender(text: str) -> str:
    """ "el usuario está embarazada" → "la usuaria está embarazada": the subject agrees with
    what the user said of herself (it read "El usuario es vegetariana")."""

    def agree(m: re.Match[str]) -> str:
        if not m.group(3).lower().endswith(_ES_FEMININE):
            return m.group(0)
        return f"{'L' if m.group(1) == 'E' else 'l'}a usuaria {m.group(2)} {m.group(3)}"

    return re.sub(
        r"\b([Ee])l usuario ((?:(?:ya\s+no|no|ahora|todavía|ya)\s+)?(?:es|está|era|estaba|fue|sigue)) (\w+)",
        agree,
        text,
    )


def _es_subject(word: str, negation: str = "") -> str:
    """ "tomo" → "el usuario toma"; with ``negation`` ("no "): "el usuario no toma"."""
    third = ES_FIRST_PERSON.get(fold_accents(word.lower()))
    if third is None or word.lower() in ("me", "mi"):
        return f"{negation}{word}"
    return f"el usuario {negation.lower()}{third}"


def in_third_person(text: str, lang: str | None) -> str:
    """``text`` as a fact about the user, in the language it is written in (``lang``, as
    ``vault.language.detect`` tells it): what a fact already in the third person stays."""
    if lang == SPANISH:
        return third_person_es(text)
    return third_person_pt(text) if lang == PORTUGUESE else third_person_en(text)


#: Portuguese verbs said in the first person, with their third person; a verb not here in
#: "-o" is taken as one of "-ar" (the most of them): "moro" → "mora"
_PT_FIRST_PERSON = {
    "sou": "é", "estou": "está", "tô": "tá", "tenho": "tem", "vou": "vai", "faço": "faz", "posso": "pode",
    "quero": "quer", "sei": "sabe", "digo": "diz", "trago": "traz", "vejo": "vê", "leio": "lê", "durmo": "dorme",
    "prefiro": "prefere", "sigo": "segue", "odeio": "odeia", "bebo": "bebe", "como": "come", "corro": "corre",
    "escrevo": "escreve", "vivo": "vive", "aprendo": "aprende", "entendo": "entende", "conheço": "conhece",
    "recebo": "recebe", "vendo": "vende", "dependo": "depende", "sofro": "sofre", "assisto": "assiste",
    "divido": "divide", "decido": "decide", "abro": "abre", "parto": "parte", "subo": "sobe", "curto": "curte",
    "preciso": "precisa", "consigo": "consegue", "visto": "veste", "sinto": "sente", "venho": "vem",
    "ponho": "põe", "dou": "dá", "trabalho": "trabalha", "uso": "usa", "jogo": "joga", "toco": "toca",
    "falo": "fala", "estudo": "estuda", "gosto": "gosta", "adoro": "adora", "ando": "anda", "treino": "treina",
    "viajo": "viaja", "cozinho": "cozinha", "programo": "programa", "dirijo": "dirige", "tomo": "toma", "leciono": "leciona", "mexo": "mexe", "atendo": "atende", "moro": "mora",
    "fui": "foi", "tive": "teve", "fiz": "fez", "estive": "esteve", "pude": "pôde", "vim": "veio",
    "comecei": "começou", "mudei": "mudou", "troquei": "trocou", "deixei": "deixou", "voltei": "voltou",
    "passei": "passou", "comprei": "comprou", "casei": "casou", "parei": "parou", "decidi": "decidiu",
    "vivi": "viveu", "nasci": "nasceu", "cresci": "cresceu", "escolhi": "escolheu", "aprendi": "aprendeu",
}  # fmt: skip
_PT_POSSESSIVE = {"meu": "o", "minha": "a", "meus": "os", "minhas": "as"}
_PT_ARTICLE_POSSESSIVE = re.compile(r"\b([oa]s?)\s+(meu|minha|meus|minhas)\s+", _I)


def third_person_pt(text: str) -> str:
    """First person to the user in the third person, in Portuguese: "eu moro no Porto" →
    "o usuário mora no Porto", "minha irmã se chama Ana" → "a irmã do usuário se chama Ana"."""
    out = _PT_ARTICLE_POSSESSIVE.sub(lambda m: f"{m.group(2)} ", text)  # "o meu carro" → "meu carro"

    def possessive(m: re.Match[str]) -> str:
        article = _PT_POSSESSIVE[m.group(1).lower()]
        return f"{article} {m.group(2)} do usuário"

    out = re.sub(r"\b(meu|minha|meus|minhas)\s+([^\W\d_]+)", possessive, out, flags=_I)

    out = re.sub(r"^(?:eu\s+)?me\s+chamo\b", "o usuário se chama", out, flags=_I)

    def subject(m: re.Match[str]) -> str:
        """The first verb is the user's when "eu" says it or it is one of the first person."""
        neg, verb = m.group(1) or "", m.group(2)
        third = _PT_FIRST_PERSON.get(verb.lower())
        if third is None and m.group(0).lower().startswith("eu") and verb.lower().endswith("o") and len(verb) > 3:
            third = verb[:-1] + "a"
        return f"o usuário {neg}{third}" if third else m.group(0)

    out = re.sub(r"^(?:eu\s+)?((?:j[aá]\s+|ainda\s+)?n[aã]o\s+)?([^\W\d_]+)", subject, out, count=1, flags=_I)
    out = re.sub(r"\beu\b", "o usuário", out, flags=_I)
    return re.sub(r"\bcomigo\b", "com o usuário", out, flags=_I)
