"""Portuguese grammar a pack brings (``Pack.third_person``): the user's own words as a
fact about them, "eu moro no Porto" → "o usuário mora no Porto" (pure functions)."""

from __future__ import annotations

import functools
import re
from collections.abc import Collection

from ..lexicon import of_a_verb, verb_lemmas
from ..text import fold_accents
from . import a_name_of, in_her_gender, now_and_the_days_around, of_a_known_verb, said_again, we_to_they
from .phrase import PHRASE_WORD, Modifiers, modifiers_after

_I = re.IGNORECASE


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
    "viajo": "viaja", "cozinho": "cozinha", "programo": "programa", "dirijo": "dirige", "tomo": "toma", "leciono": "leciona", "mexo": "mexe", "atendo": "atende", "moro": "mora", "saio": "sai", "caio": "cai",
    "fui": "foi", "tive": "teve", "fiz": "fez", "estive": "esteve", "pude": "pôde", "vim": "veio",
    "comecei": "começou", "mudei": "mudou", "troquei": "trocou", "deixei": "deixou", "voltei": "voltou",
    "passei": "passou", "comprei": "comprou", "casei": "casou", "parei": "parou", "decidi": "decidiu",
    "vivi": "viveu", "nasci": "nasceu", "cresci": "cresceu", "escolhi": "escolheu", "aprendi": "aprendeu",
}  # fmt: skip
#: first-person verbs that are nothing else, so they are safe to change mid-sentence
#: ("…e agora moro em…"; not "trabalho", "uso", "gosto", "vivo", "preciso": nouns or adjectives too)
_PT_UNAMBIGUOUS = ("tenho", "estou", "sou", "quero", "vou", "posso", "prefiro", "moro", "odeio", "adoro")
_PT_POSSESSIVE = {"meu": "o", "minha": "a", "meus": "os", "minhas": "as"}
#: words before the noun that move with it: "minha nova dentista" → "a nova dentista do usuário"
_PT_BEFORE_NOUN = r"nov[oa]s?|melhor(?:es)?|primeir[oa]s?|únic[oa]s?"
_PT_POSSESSIVE_NOUN = re.compile(
    rf"\b(meu|minha|meus|minhas)\s+((?:(?:{_PT_BEFORE_NOUN})\s+)?{PHRASE_WORD})(?![\w-])", _I
)
_PT_ARTICLE_POSSESSIVE = re.compile(r"\b([oa]s?)\s+(meu|minha|meus|minhas)\s+", _I)
#: a preposition before a possessive takes its article ("em meu carro" → "no carro do
#: usuário"); one that holds it already ("no", "da", "pelas") keeps it, so no second comes
_PT_CONTRACTED = {
    "em": {"o": "no", "a": "na", "os": "nos", "as": "nas"},
    "de": {"o": "do", "a": "da", "os": "dos", "as": "das"},
    "por": {"o": "pelo", "a": "pela", "os": "pelos", "as": "pelas"},
}
_PT_HOLDS_ARTICLE = frozenset(
    "no na nos nas do da dos das pelo pela pelos pelas ao à aos às num numa nuns numas dum duma".split()
)


#: what may stand between a join and the user's verb, and stays after the subject
_PT_LEADING = (
    r"(?:j[aá]\s+n[aã]o|ainda\s+n[aã]o|n[aã]o|j[aá]|agora|hoje|depois|tamb[eé]m|nunca|sempre|ainda|[aà]s\s+vezes|"
    r"quase\s+sempre|quase\s+nunca|raramente|frequentemente|normalmente|s[oó])"
)
#: the first person of the past of a verb in "-ar" ("adotei", "me mudei", "mudei-me"), where a verb
#: opens the clause: at its start, after "eu", "me", "e", "já", "não", a time ("nesse ano",
#: "em 2020") or a comma ("joga hóquei" is a noun); a word of two letters or more before
#: "-ei" ("sei", "dei", "lei" are shorter), spelt as its third person is ("fiquei" →
#: "ficou", "cheguei" → "chegou", "comecei" → "começou")
#: (what stands between "eu" and it stays after the subject: "eu já morei" → "o usuário já morou")
_PT_PAST = re.compile(rf"\b(?:eu\s+)?((?:{_PT_LEADING}\s+)*)(me\s+)?([^\W\d_]{{2,}}?)(qu|gu|c)?ei(-me)?\b", _I)
_PT_PAST_SPELLING = {"qu": "c", "gu": "g", "c": "ç"}
#: the words after which a verb opens its clause
_PT_BEFORE_VERB = frozenset(
    "eu me e já ja não nao também tambem nunca ainda ontem hoje depois então entao ano mês mes semana passado passada".split()
)


#: a word of time a sentence may open with before the user's verb
_PT_TIME_FIRST = r"agora|hoje|atualmente|ontem|depois|ent[aã]o"


@functools.cache
def _time_first() -> re.Pattern[str]:
    """A time a sentence opens with before the user's verb: the words of ``_PT_TIME_FIRST``,
    and what the pack says of now and of the days around it, with since when ("desde ontem",
    "a partir de hoje", "de agora em diante", "daqui pra frente")."""
    now = "|".join([_PT_TIME_FIRST, *now_and_the_days_around("pt")])
    since = rf"(?:(?:desde|a\s+partir\s+de|de)\s+)?(?:{now})(?:\s+em\s+diante)?"
    return re.compile(rf"^(?:{since}|daqui\s+(?:pra|para)\s+(?:a\s+)?frente),?\s+(?=\S)", _I)


def _opens_its_clause(text: str, at: int) -> bool:
    before = text[:at].rstrip()
    if not before or before[-1] in ",;:(":
        return True
    last = before.split()[-1].casefold()
    return last in _PT_BEFORE_VERB or (last.isdigit() and len(last) >= 2)


def _past(m: re.Match[str]) -> str:
    if not _opens_its_clause(m.string, m.start()):
        return m.group(0)  # "joga hóquei": a noun
    leading, reflexive = (m.group(1) or "").lower(), "se " if m.group(2) else ""
    stem = m.group(3).lower() + _PT_PAST_SPELLING.get((m.group(4) or "").lower(), "")
    return f"o usuário {leading}{reflexive}{stem}ou{'-se' if m.group(5) else ''}"  # "mudei-me" → "mudou-se"


#: the first person plural's third ("a Ana e eu somos sócias" → "…e o usuário são sócias"):
#: the irregular ones, and the endings of the rest
_PT_WE = {"somos": "são", "temos": "têm", "vamos": "vão", "estamos": "estão", "fomos": "foram",
          "tivemos": "tiveram", "fizemos": "fizeram", "podemos": "podem", "queremos": "querem"}  # fmt: skip
#: "X e eu", a few words opening the text, then the verb of both
_PT_ONE_SUBJECT = re.compile(r"^(?!eu\b)((?:[^\s,;.:]+\s+){1,3}?(?:e|ou))\s+eu\s+(\w+)", _I)


def _we_to_they(verb: str) -> str:
    return we_to_they(verb, _PT_WE, (("amos", "am"), ("emos", "em"), ("imos", "em")))


#: the user's own "usuário" is the name of an account ("meu usuário no gitlab é…"): written
#: "o usuário do usuário" it read as the user twice
_PT_ACCOUNT_NAME = {"usuário": "nome de usuário", "usuario": "nome de usuário"}


def _possessives(text: str) -> str:
    """Each "meu"/"minha" and its noun's phrase as the user's: "meu e-mail pessoal é…" → "o
    e-mail pessoal do usuário é…", "meu plano de saúde" → "o plano de saúde do usuário"; after
    a preposition that holds its article ("no meu trabalho") no second one comes."""
    out: list[str] = []
    last = 0
    for m in _PT_POSSESSIVE_NOUN.finditer(text):
        head = text[: m.start()]
        before = head.rsplit(None, 1)[-1] if head[-1:].isspace() and head.strip() else ""
        article = _PT_POSSESSIVE[m.group(1).lower()]
        plural, feminine = article.endswith("s"), article.startswith("a")
        phrase = m.end() + modifiers_after(text[m.end() :], plural, feminine, _PT_MODIFIERS).length
        noun = _PT_ACCOUNT_NAME.get(m.group(2).casefold(), m.group(2))  # "meu usuário do GitHub": a name
        if noun != m.group(2):
            article = "os" if plural else "o"  # "nome": masculine, whoever's account it is
        said = f"{noun}{text[m.end() : phrase]} do usuário"
        out += [text[last : m.start()], said if before.casefold() in _PT_HOLDS_ARTICLE else f"{article} {said}"]
        last = phrase
    return "".join(out) + text[last:]


def third_person(text: str) -> str:
    """First person to the user in the third person, in Portuguese: "eu moro no Porto" →
    "o usuário mora no Porto", "minha irmã se chama Ana" → "a irmã do usuário se chama Ana",
    "nesse ano me mudei pra Lisboa" → "nesse ano o usuário se mudou pra Lisboa"."""
    text = _PT_ONE_SUBJECT.sub(lambda m: f"{m.group(1)} o usuário {_we_to_they(m.group(2))}", text)
    out = _PT_ARTICLE_POSSESSIVE.sub(lambda m: f"{m.group(2)} ", text)  # "o meu carro" → "meu carro"
    out = _PT_PAST.sub(_past, out)

    def contracted(m: re.Match[str]) -> str:  # "em meu trabalho" → "no meu trabalho"
        preposition = _PT_CONTRACTED[m.group(1).casefold()][_PT_POSSESSIVE[m.group(2).lower()]]
        return f"{preposition.capitalize() if m.group(1)[0].isupper() else preposition} {m.group(2)}"

    out = re.sub(r"\b(em|de|por)\s+(meu|minha|meus|minhas)\b", contracted, out, flags=_I)
    out = _possessives(out)

    out = re.sub(r"^(?:eu\s+)?me\s+chamo\b", "o usuário se chama", out, flags=_I)
    out = re.sub(  # "eu me deito cedo" → "o usuário se deita cedo"
        r"^(?:eu\s+)?me\s+([^\W\d_]{3,})\b",
        lambda m: f"o usuário se {third}" if (third := present_third(m.group(1))) else m.group(0),
        out,
        count=1,
        flags=_I,
    )

    def subject(m: re.Match[str]) -> str:
        """The first verb is the user's when "eu" says it or it is one of the first person."""
        neg, verb = (m.group(1) or "").lower(), m.group(2)  # "Não como…" → "o usuário não come…"
        said_with_eu = m.group(0).lower().startswith("eu")
        if not said_with_eu and a_name_of(verb, m.string[m.end() :], _third_form):
            return m.group(0)  # "Rio de Janeiro é onde moro"
        third = _in_third(verb, said_with_eu)
        return f"o usuário {neg}{third}" if third else m.group(0)

    # a time said first is of the verb after it: "agora trabalho no Itaú" → "agora o usuário trabalha no Itaú"
    opening = _time_first().match(out)
    at = opening.end() if opening else 0
    # a word that opens a clause, first: the verb after it is the user's ("como sou diabética"
    # → "como a usuária é diabética", not "a usuária come a usuária é…")
    first = re.match(r"([^\W\d_]+)\s++(?=\S)", out[at:])
    if first is not None and _opens_a_clause(first.group(1), out[at + first.end() :]):
        at += first.end()
    out = out[:at] + re.sub(rf"^(?:eu\s+)?((?:{_PT_LEADING}\s+)*)([^\W\d_]+)", subject, out[at:], count=1, flags=_I)
    out = re.sub(  # "às sextas eu trabalho de casa" → "às sextas o usuário trabalha de casa"
        rf"(?<=\s)eu\s+((?:{_PT_LEADING}\s+)*)([^\W\d_]+)", lambda m: _said_by_eu(m), out, flags=_I
    )
    out = re.sub(  # "…e agora moro em Cedofeita" → "…e agora o usuário mora em Cedofeita"
        rf"(?<=\s)(?:eu\s+)?((?:j[aá]\s+|ainda\s+)?n[aã]o\s+)?({'|'.join(_PT_UNAMBIGUOUS)})\b",
        lambda m: f"o usuário {m.group(1) or ''}{_PT_FIRST_PERSON[m.group(2).lower()]}",
        out,
        flags=_I,
    )  # "eu não estou" → "o usuário não está", not "…não o usuário está"
    out = _joined_clauses(out)
    out = _PT_USER_INFINITIVE.sub(_reflexive_infinitive, out)
    out = re.sub(r"\beu\b", "o usuário", out, flags=_I)
    return gender(re.sub(r"\bcomigo\b", "com o usuário", out, flags=_I))


#: an infinitive or a gerund with "me" before it or on it, right after a verb or two whose subject is
#: the user (each with a preposition): "o usuário acabou de *me* mudar", "quer *me* aposentar", "vai
#: mudar-*me*" (the user's own "me": "se"). After another subject it is that one's object
#: ("o meu irmão vai me ajudar") and stays
_PT_USER_INFINITIVE = re.compile(
    r"\b((?:o\s+usuário|a\s+usuária)\s+(?:(?:j[aá]|n[aã]o|ainda)\s+)*(?:[^\W\d_]+\s+(?:(?:de|a|que|em|por|pra|para)\s+)?){1,2})"
    r"(?:me\s+([^\W\d_]{3,})\b|([^\W\d_]{3,})-me\b)",
    _I,
)


def _reflexive_infinitive(m: re.Match[str]) -> str:
    """ "…de me mudar" → "…de se mudar", "…mudar-me" → "…mudar-se", when the word is an
    infinitive or a gerund the lexicon knows for a verb's."""
    before, proclitic, enclitic = m.group(1), m.group(2), m.group(3)
    verb = proclitic if proclitic is not None else enclitic
    if not (fold_accents(verb.casefold()).endswith(_PT_INFINITIVE) and of_a_verb(verb, "pt")):
        return m.group(0)  # "…quer que você me chame": another's verb, "me" its object
    return f"{before}se {verb}" if proclitic is not None else f"{before}{verb}-se"


#: the endings of an infinitive and a gerund, accents folded: the forms "me" goes with
#: after the user's own verb ("tô *me sentindo* melhor")
_PT_INFINITIVE = ("ar", "er", "ir", "or", "ando", "endo", "indo")


#: endings of a feminine adjective or noun whose masculine differs ("vegana", "casada",
#: "grávida", "celíaca", "professora", "solteira"); "dentista", "atleta" are both
_PT_FEMININE = ("ada", "ida", "ana", "ina", "ica", "aca", "eira", "ora", "osa", "iva", "ona", "ela")
#: words of those endings that say nothing of the user's gender ("o usuário não é nada disso")
_PT_NO_GENDER = frozenset({"nada", "toda", "cada", "ainda", "fora", "agora", "embora", "vida"})
#: what "o usuário" is after a preposition, for a woman ("do usuário" → "da usuária")
_PT_HER = {"o": "a", "do": "da", "no": "na", "pelo": "pela", "ao": "à"}


#: the user said to be something after a copula, read for the gender of what she is
_PT_SAID_OF = re.compile(
    r"\b([Oo]) usuário ((?:(?:j[aá]\s+n[aã]o|n[aã]o|agora|ainda|j[aá])\s+)?(?:é|está|era|estava|foi|continua|segue|ficou)) (\w+)"
)


def gender(text: str) -> str:
    """ "o usuário é vegana" → "a usuária é vegana": the subject agrees with what the user
    said of herself, and so does every other mention of her in the fact ("a irmã da
    usuária")."""
    return in_her_gender(text, _PT_SAID_OF, _PT_FEMININE, _PT_HER, ("usuário", "usuária"), _PT_NO_GENDER)


#: first persons of a verb that also open a clause: "como" (as), "caso" (in case), "visto"
#: (given that); read as the verb only when what follows is no verb, subject or "que"
_PT_ALSO_OPENS = frozenset({"como", "caso", "visto"})
#: what makes such a word the clause's opening when it follows: "que", a subject
_PT_AFTER_AN_OPENING = frozenset({"que", "q", "eu", "tu", "você", "vc", "ele", "ela", "nós", "vocês", "eles", "elas"})


def _opens_a_clause(word: str, after: str) -> bool:
    """Whether ``word``, a first person that may open a clause, opens one before ``after``:
    "como sou diabética" (as), "caso eu precise" (in case), "visto que moro longe" (given
    that); not "como peixe às sextas" (eat), "caso com a Ana em maio" (marry)."""
    if word.lower() not in _PT_ALSO_OPENS:
        return False
    following = after.split()[:1]
    if not following:
        return False
    nxt = following[0].strip(",.;:!?").lower()
    return nxt in _PT_AFTER_AN_OPENING or _in_third(nxt, False) is not None or _a_verb_of_another(nxt)


def _a_verb_of_another(word: str) -> bool:
    """Whether ``word`` is a known verb said of someone else or wished ("aconteça", "precise",
    "chega"): its stem, less a third person's or a subjunctive's ending, is a known verb's."""
    for ending in ("am", "em", "as", "es", "a", "e"):
        if word.endswith(ending) and len(word) > len(ending) + 2:
            stem = word[: -len(ending)]
            if any(spelt + end in _PT_VERBS for spelt in _pt_spellings(stem) for end in ("ar", "er", "ir")):
                return True
    return False


def _said_by_eu(m: re.Match[str]) -> str:
    """ "eu" and the verb after it, mid-sentence, in the third person: the verb of the first
    person (a known one, or one in "-o"), else "o usuário" before it as it was."""
    neg, verb = m.group(1) or "", m.group(2)
    return f"o usuário {neg}{_in_third(verb, True) or verb}"


def _in_third(verb: str, said_with_eu: bool) -> str | None:
    """A verb of the first person in the third: a known one, or, after "eu", one in "-o"
    ("trabalho" → "trabalha"); None for a word that is neither."""
    third = _PT_FIRST_PERSON.get(verb.lower()) or first_third(verb)
    if third is None and said_with_eu and verb.lower().endswith("o") and len(verb) > 3:
        third = verb[:-1] + "a"
    return third


#: the infinitives of the verbs a fact says most, to tell a verb of the first person said
#: after a join from a noun and to know its third ("e torço pro Corinthians" → "e o usuário
#: torce pro Corinthians": "torcer")
_PT_VERBS = frozenset(
    """
    divertir abraçar abrir acabar aceitar acompanhar aconselhar acontecer acordar acreditar adorar adotar agradecer ajudar
    alimentar almoçar alugar amar andar apagar aparecer aplicar apoiar aprender aproveitar arrumar
    assistir atender atualizar avisar bater beber beijar brincar buscar caber cair caminhar cancelar
    cansar cantar carregar casar celebrar chamar chegar chorar chover cobrir colaborar colecionar
    colocar comer começar compartilhar competir comprar compreender conduzir conectar confiar conhecer
    conseguir conservar construir consultar consumir contar continuar contratar controlar conversar
    convidar copiar correr corrigir cortar costurar cozinhar coçar crescer criar cuidar cumprir curtir
    dançar dar decidir deitar deixar depender descansar descobrir desejar desenhar desenvolver desligar
    despertar detestar dever digitar dirigir discutir dividir dormir editar educar ensinar entender
    entrar entregar enviar errar escalar escolher escrever escutar esperar esquecer estar estudar evitar
    existir explicar falar faltar fazer fechar ficar fugir fumar funcionar ganhar gastar gerenciar
    gostar gravar guardar imprimir incluir instalar investir ir jantar jogar lavar lembrar ler levantar
    levar ligar limpar lutar mandar manter medir melhorar mentir merecer mexer montar morar morrer
    mostrar mudar nadar nascer navegar necessitar odiar oferecer olhar organizar ouvir pagar parar
    parecer participar partir passar passear patinar pedir pegar pensar perder perguntar permitir
    pertencer pescar pintar planejar plantar poder praticar precisar preferir preparar pretender
    procurar produzir programar proibir prometer proteger publicar puxar pôr querer receber reciclar
    recomendar reconhecer reduzir regar remar repetir resolver respeitar respirar responder reunir
    revisar rezar rir saber sair saltar sentar sentir ser servir sofrer subir sugerir surfar telefonar
    temer ter terminar tirar tocar tomar torcer tossir trabalhar traduzir trazer treinar trocar usar
    utilizar vender ver vestir viajar vir visitar viver voar voltar votar
    """.split()
)
#: how a clause joined to one of the user's opens: a comma or a join, with who says it left out
_PT_JOINED = re.compile(
    rf"([,;:]\s*(?:e\s+|mas\s+)?|\s(?:e|mas|ou|porque)\s+)(?:eu\s+)?((?:{_PT_LEADING}\s+)*)(me\s+)?([^\W\d_]{{3,}})(?=\s+[^\W\d_]|\s*+(?:[.!?;]|$))",
    _I,
)
#: the first persons of the present whose third is no ending's change ("faço" → "faz")
_PT_IRREGULAR_PRESENT = {
    "perco": "perde", "peço": "pede", "meço": "mede", "ouço": "ouve", "fujo": "foge", "subo": "sobe",
    "cubro": "cobre", "tusso": "tosse", "construo": "constrói", "destruo": "destrói", "ponho": "põe",
    "leio": "lê", "creio": "crê", "vejo": "vê", "rio": "ri", "caibo": "cabe", "valho": "vale", "sei": "sabe",
}  # fmt: skip


def _joined_clauses(text: str) -> str:
    """A verb of the first person that opens a clause joined to another ("o usuário joga
    futsal e torço pro Corinthians", "…, nunca bebo café"), with the user said again: "…e o
    usuário torce pro Corinthians" (``said_again``). A word before "o usuário" or a verb of
    being stays ("e como sou vegano": "as")."""

    def before_a_verb(word: str, after: str) -> bool:
        return re.match(r"\s+(?:[oa]\s+usuári[oa]|sou|estou|tenho)\b", after, _I) is not None

    return said_again(text, _PT_JOINED, first_third, "o usuário", "se", before_a_verb, _PT_JOINS)


#: what ends a list's item in Portuguese, before a word and after it ("o" is the article)
_PT_JOINS = (
    re.compile(r"[,;:]|\b(?:e|mas|ou)\b", _I),
    re.compile(r"(?<!\s)\s*+(?:,|(?<=\s)(?:e|ou)\b)", _I),
)


def present_third(word: str) -> str | None:
    """The third person of a first person of the present ("torço" → "torce", "durmo" →
    "dorme", "sinto" → "sente", "sigo" → "segue", "odeio" → "odeia"), or None for a word
    that is none of a known verb's: a verb in "-ar" keeps the first person's stem, one in
    "-er" or "-ir" takes its infinitive's (found by undoing ç → c, j → g, g → gu, i → e,
    u → o)."""
    low = word.lower()
    known = _PT_FIRST_PERSON.get(low) or _PT_IRREGULAR_PRESENT.get(low) or _PT_TYPED_PLAIN().get(low)
    if known is not None:
        return known
    if not low.endswith("o") or len(low) < 4:
        return None
    return _present_of(low[:-1], _PT_VERBS) or _present_of(low[:-1], verb_lemmas(word, "pt"))


def _present_of(stem: str, verbs: Collection[str]) -> str | None:
    if stem + "ar" in verbs:
        return stem + "a"
    for spelt in _pt_spellings(stem):
        for ending in ("er", "ir"):
            if spelt + ending in verbs:  # "conduzo" → "conduz", as "faço" → "faz"
                return spelt if spelt.endswith("z") else spelt + "e"
    return None


def preterite_third(word: str) -> str | None:
    """The third person of a first person of the past of a verb in "-er" or "-ir"
    ("descobri" → "descobriu", "perdi" → "perdeu", "abasteci" → "abasteceu"), or None for a
    word that is none of a known verb's; those in "-ar" ("troquei") are ``_PT_PAST``'s."""
    low = word.lower()
    if len(low) < 3 or not low.endswith(("i", "í")):
        return None  # "vi", "li": "ver", "ler" say "viu", "leu"
    stem = fold_accents(low)[:-1]
    return _past_of(low, stem, _PT_FOLDED_VERBS()) or _past_of(low, stem, verb_lemmas(word, "pt"))


def _past_of(low: str, stem: str, verbs: Collection[str]) -> str | None:
    for ending, third in (("er", "eu"), ("ir", "iu")):
        if stem + ending in verbs:
            return low[:-1] + third
    return None


def first_third(word: str) -> str | None:
    """The third person of a first person of the present or of the past ("torço" →
    "torce", "perdi" → "perdeu"), or None for a word that is neither of a known verb's."""
    return present_third(word) or preterite_third(word)


@functools.cache
def _PT_TYPED_PLAIN() -> dict[str, str]:
    """The known first persons as typed without their cedilla or accent ("faco", "conheco")."""
    known = {**_PT_FIRST_PERSON, **_PT_IRREGULAR_PRESENT}
    return {fold_accents(first): third for first, third in known.items() if fold_accents(first) != first}


def _third_form(word: str) -> bool:
    """Whether ``word`` is a form of the third person of a known verb (``_PT_VERBS``): the
    present, the past, the imperfect, the future or the conditional ("mora", "dorme",
    "morava", "mudou", "vendeu", "morará"), with a pronoun after a hyphen ("chama-se"), or
    one of the irregular ones ("é", "foi", "tem")."""
    low = word.lower().split("-", 1)[0] if word.lower().endswith(_PT_HYPHEN_CLITICS) else word.lower()
    if low in _PT_IRREGULAR_THIRD:
        return True
    return of_a_known_verb(fold_accents(low), _PT_THIRD_ENDINGS, _pt_roots, _PT_FOLDED_VERBS())


def _pt_roots(stem: str) -> list[str]:
    """The infinitive's stems a third person's ``stem`` may be of ("sob" → "sub")."""
    return [stem, *([stem[:at] + "u" + stem[at + 1 :]] if (at := stem.rfind("o")) > 0 else [])]


@functools.cache
def _PT_FOLDED_VERBS() -> frozenset[str]:
    return frozenset(fold_accents(verb) for verb in _PT_VERBS)


_PT_HYPHEN_CLITICS = ("-se", "-me", "-lhe", "-lhes", "-nos", "-o", "-a", "-os", "-as")
#: the endings of a verb's third person, folded, with the classes of infinitive each is of
_PT_THIRD_ENDINGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("aram", ("ar",)), ("eram", ("er",)), ("iram", ("ir",)), ("avam", ("ar",)), ("ava", ("ar",)),
    ("ariam", ("ar",)), ("aria", ("ar",)), ("arao", ("ar",)), ("ara", ("ar",)), ("eriam", ("er",)),
    ("eria", ("er",)), ("erao", ("er",)), ("era", ("er",)), ("iriam", ("ir",)), ("iria", ("ir",)),
    ("irao", ("ir",)), ("ira", ("ir",)), ("iam", ("er", "ir")), ("ia", ("er", "ir")), ("ou", ("ar",)),
    ("eu", ("er",)), ("iu", ("ir",)), ("am", ("ar",)), ("em", ("er", "ir")), ("a", ("ar",)), ("e", ("er", "ir")),
)  # fmt: skip
#: third persons no ending tells, as written and as typed without accents where no other word is so spelt
_PT_IRREGULAR_THIRD = frozenset(
    """é são sao era eram foi foram está estão estao esteve tem têm teve vai vão vao ia iam faz fazem fez
    fizeram pode pôde podem quer querem quis diz dizem disse vem vêm veio põe poe pôs sabe soube vê veem viu
    dá dão deu traz trouxe há houve havia será sera serão seria terá fará poderá dirá virá""".split()
)
#: what may follow a noun inside its phrase ("o e-mail pessoal do usuário", not "o e-mail do
#: usuário pessoal"), and what closes it (``grammar.phrase``)
_PT_CLOSERS = frozenset(
    """se me te lhe lhes nos não nao já ja também tambem tb nunca jamais sempre ainda só so quase que q quem
    quando onde e ou mas nem agora hoje ontem amanhã antes depois aí ai ali aqui lá diariamente""".split()
)
#: what stands before a verb and never after one: what closes a phrase after a word that may be a verb
_PT_BEFORE_A_VERB = frozenset("se me te lhe lhes nos não nao".split())
_PT_MODIFIERS = Modifiers(
    verb=_third_form,
    closers=_PT_CLOSERS,
    before_a_verb=_PT_BEFORE_A_VERB,
    complements=frozenset({"de", "do", "da", "dos", "das"}),
    articles=frozenset(),
    idioms=frozenset(
        """repente novo fato facto vez verdade criança pequeno pequena jovem momento noite tarde manhã madrugada
        dia súbito costume acordo pressa longe perto""".split()
    ),
    degree=frozenset({"mais", "menos", "muito", "muita", "tão", "bem"}),
    never=_PT_CLOSERS
    | frozenset(
        """o a os as um uma uns umas meu minha meus minhas teu tua seu sua seus suas nosso nossa nossos nossas
        ao aos à às em no na nos nas num numa com para pra pro por pelo pela pelos pelas desde até sem sobre entre
        durante após contra perante conforme mediante de do da dos das mais menos muito muita muitos muitas tão bem mal pouco pouca bastante demais todo
        toda todos todas outro outra este esta esse essa aquele aquela eu ele ela você voce""".split()
    ),
    verb_like=("a", "e", "á", "é", "ê", "m", "u", "i"),
    verb_endings=("ou", "iu", "aram", "eram", "iram", "avam"),
    invariable=("ista", "caçula"),
    enclitics=("-se", "-me", "-lhe", "-lhes", "-nos", "-o", "-a", "-os", "-as"),
)


def _pt_spellings(stem: str) -> list[str]:
    """The infinitive's stems a first person's ``stem`` may be of ("torç" → "torc", "sig" →
    "segu", "durm" → "dorm", "sint" → "sent")."""
    spelt = [stem]
    if stem.endswith("ç"):
        spelt.append(stem[:-1] + "c")
    if stem.endswith("j"):
        spelt.append(stem[:-1] + "g")
    if stem.endswith("g"):
        spelt.append(stem + "u")
    out = []
    for s in spelt:
        out.append(s)
        for changed, plain in (("i", "e"), ("u", "o")):
            at = s.rfind(changed, 0, len(s) - 1 if s.endswith("u") else len(s))
            if at > 0:
                out.append(s[:at] + plain + s[at + 1 :])
    return out


def instruction(said: str, rule: str) -> str | None:
    """A Portuguese instruction that lasts ("sempre responde em português", "a partir de
    agora me chama de Rafa"), kept as said with whom it is for ("o usuário pede ao
    assistente: sempre responde em português"); ``rule``: the pack's directive that read it
    ("sempre", "a-partir-de-agora"). None for what orders nothing ("sempre é assim", "nunca
    é tarde") and for what the user says of themselves ("nunca vou deixar de torcer pelo
    Grêmio", "a partir de agora vou correr…": no request; the request rules read it)."""
    words = said.split()
    verbs = words[1:] if rule == "sempre" else words
    verbs = verbs[1:] if verbs and verbs[0].lower() == "mais" else verbs  # "nunca mais vou…"
    verbs = verbs[1:] if verbs and verbs[0].lower() in _CLITICS else verbs  # "sempre me esqueço", "me chama de Rafa"
    verbs = verbs[1:] if len(verbs) > 1 and verbs[0].lower() == "eu" else verbs  # "daqui pra frente eu uso…"
    while len(verbs) > 1 and re.fullmatch(_PT_LEADING, verbs[0], _I):
        verbs = verbs[1:]  # "a partir de agora só bebo descafeinado": the verb past its adverb
    if not verbs or verbs[0].lower().strip(",.") in _NOT_IMPERATIVE:
        return None
    if present_third(verbs[0].strip(",.")) is not None:
        # said of oneself, asking nothing ("nunca vou deixar de torcer pelo Grêmio", "a partir
        # de agora vou correr toda manhã, me deseja sorte!": the chat after it is no fact)
        return None
    return f"o usuário pede ao assistente: {said}"


#: the pronouns said before a verb ("sempre *me* chama de Rafa", "nunca *se* esqueça")
_CLITICS = frozenset("me te se nos lhe".split())
#: what follows "sempre", "nunca" or "a partir de agora" in no order ("sempre é assim",
#: "nunca foi fácil", "a partir de agora o meu horário é…": a fact, read by the request rules)
_NOT_IMPERATIVE = frozenset(
    """é e está esta estou tô to foi era são sao há ha tem têm houve que o a os as um uma meu minha meus minhas
    nosso nossa com em de no na nos nas do da mesmo mesma tarde assim bom""".split()
)


#: the pasts whose forms no ending gives (eu, ele, nós, eles)
_PT_IRREGULAR_PAST = {
    "sair": ("sai", "saiu", "saimos", "sairam"),
    "ir": ("fui", "foi", "fomos", "foram"),
    "pôr": ("pus", "pôs", "pusemos", "puseram"),
}


def past_forms(verb: str) -> tuple[str, ...]:
    """The past of ``verb`` ("vender"; "passar a": what follows the infinitive is kept) as
    said of anyone, eu, ele or ela, nós, eles ("vendi", "vendeu", "vendemos", "venderam";
    "troquei", "comecei"), accents folded: how a fact tells a change by what was done,
    whoever did it."""
    infinitive, _, rest = verb.partition(" ")
    tail = f" {rest}" if rest else ""
    if infinitive in _PT_IRREGULAR_PAST:
        return tuple(fold_accents(form) + tail for form in _PT_IRREGULAR_PAST[infinitive])
    said, ending = infinitive[:-2], infinitive[-2:]
    stem = fold_accents(said)
    if ending == "ar":  # "troquei", "cheguei", "comecei"
        first = stem[:-1] + "qu" if said.endswith("c") else stem + "u" if stem.endswith("g") else stem
        forms = (first + "ei", stem + "ou", stem + "amos", stem + "aram")
    elif ending == "er":
        forms = (stem + "i", stem + "eu", stem + "emos", stem + "eram")
    else:
        forms = (stem + "i", stem + "iu", stem + "imos", stem + "iram")
    return tuple(form + tail for form in forms)
