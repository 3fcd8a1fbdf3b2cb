"""Spanish grammar a pack brings (``Pack.third_person``): the user's own words as a fact
about them, "mi hermana" → "la hermana del usuario", "me mudé a Quito" → "el usuario se
mudó a Quito" (pure functions)."""

from __future__ import annotations

import functools
import re
from collections.abc import Collection

from ..lexicon import of_a_verb, verb_lemmas
from ..text import fold_accents, longest_first
from . import a_name_of, in_her_gender, now_and_the_days_around, of_a_known_verb, said_again, we_to_they
from .phrase import PHRASE_WORD, Modifiers, modifiers_after

_I = re.IGNORECASE

FIRST_PERSON = {
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


#: the first person plural's third ("mi mujer y yo vivimos" → "…y el usuario viven"): the
#: irregular ones, and the endings of the rest
_ES_WE = {"somos": "son", "tenemos": "tienen", "queremos": "quieren", "podemos": "pueden", "vamos": "van",
          "estamos": "están", "preferimos": "prefieren", "jugamos": "juegan", "volvemos": "vuelven",
          "hicimos": "hicieron", "fuimos": "fueron", "tuvimos": "tuvieron", "estuvimos": "estuvieron"}  # fmt: skip
#: "X y yo", a few words opening the text, then the verb of both
_ES_ONE_SUBJECT = re.compile(r"^(?!yo\b)((?:[^\s,;.:]+\s+){1,3}?(?:y|o|e))\s+yo\s+(\w+)", _I)


def _we_to_they(verb: str) -> str:
    return we_to_they(verb, _ES_WE, (("amos", "an"), ("emos", "en"), ("imos", "en")))


#: the user's own "usuario" is the name of an account ("mi usuario en gitlab es…"): written
#: "el usuario del usuario" it read as the user twice
_ES_ACCOUNT_NAME = {"usuario": "nombre de usuario", "usuarios": "nombres de usuario"}


def _possessives(text: str) -> str:
    """Each "mi"/"mis" and its noun's phrase as the user's: "mi seguro médico es…" → "el seguro
    médico del usuario es…", "mi número de teléfono nuevo" → "el número de teléfono nuevo del
    usuario"; the noun's article from its number and its gender as its ending tells it."""
    out: list[str] = []
    last = 0
    for m in _ES_POSSESSIVE.finditer(text):
        before, noun = m.group(2) or "", m.group(3)
        noun = _ES_ACCOUNT_NAME.get(noun.casefold(), noun)  # "mi usuario de GitHub": a name, not the user
        plural = m.group(1).lower() == "mis"
        gender = _noun_gender(noun, plural)
        read = modifiers_after(text[m.end() :], plural, gender, _ES_MODIFIERS)
        feminine = gender if gender is not None else bool(read.feminine)  # "mi serie favorita"
        article = ("las" if plural else "la") if feminine else ("los" if plural else "el")
        phrase = m.end() + read.length
        head = text[last : m.start()]
        contracted = re.search(r"\b([Dd]e|[Aa])\s+$", head) if article == "el" else None
        if contracted:  # "de mi hermano" → "del hermano del usuario", "a mi jefe" → "al jefe del usuario"
            head, article = head[: contracted.start()], contracted.group(1) + "l"
        out += [head, f"{article} {before}{noun}{text[m.end() : phrase]} del usuario"]
        last = phrase
    return "".join(out) + text[last:]


def _noun_gender(noun: str, plural: bool) -> bool | None:
    """Whether a noun is feminine (True) or masculine (False) as its ending or the list of
    feminine nouns in "-o" and "-e" tells, or None ("serie", "red", "coche": its adjective
    may tell, else masculine)."""
    low = noun.lower()
    stem = low[:-1] if plural and low.endswith("s") else low
    if low in _ES_MASCULINE_NOUNS or stem in _ES_MASCULINE_NOUNS:
        return False
    if low in _ES_FEMININE_NOUNS or stem in _ES_FEMININE_NOUNS or re.search(r"as?$|ión$|dad$", low):
        return True
    return False if stem.endswith("o") else None


def third_person(text: str) -> str:
    """First person to the user in the third person: "mi hermana" → "la hermana del usuario"."""
    text = _ES_ONE_SUBJECT.sub(lambda m: f"{m.group(1)} el usuario {_we_to_they(m.group(2))}", text)

    out = _possessives(text)
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
    # "me mudé a Quito" → "el usuario se mudó a Quito", "me ducho de noche" → "el usuario se ducha…"
    third = reflexive and (
        _ES_REFLEXIVE.get(fold_accents(reflexive.group(2).lower()))
        or first_third(reflexive.group(2))
        or _typed_past(reflexive.group(2))
    )
    if reflexive and third:
        out = f"el usuario {(reflexive.group(1) or '').lower()}se {third}{out[reflexive.end() :]}"
    out = re.sub(  # "ya no soy vegetariana" → "el usuario ya no es vegetariana", not "ya no el usuario es"
        rf"^(?:yo\s+)?({_ES_LEADING}\s+)?(\w+)(?!\s+(?:{_ES_VERB_AFTER}|{_ES_CLITICS})\b)",
        lambda m: m.group(0) if _opens_a_clause(m) or _a_name(m) else _subject(m.group(2), m.group(1) or ""),
        out,
        count=1,
        flags=_I,
    )  # not "Como soy vegetariano": a verb after it makes "como" the "since" of its clause; nor
    # "Como te dije, …": a pronoun comes before the verb it goes with, never after one
    out = re.sub(  # "…, no como carne": "no" and a verb of the first person open the user's clause
        rf"(?<=,\s)no\s+({_ES_VERB_AFTER})\b", lambda m: _subject(m.group(1), "no "), out, flags=_I
    )
    out = _after_a_time(out)
    out = re.sub(  # "…, no tengo portátil" → "…, el usuario no tiene portátil", not "no el usuario tiene";
        # "los viernes los tengo libres" → "los viernes el usuario los tiene libres", not "los el usuario tiene"
        rf"(?<=\s)(?:yo\s+)?((?:ya\s+|todav[ií]a\s+)?no\s+)?((?:lo|la|los|las|le|les)\s+)?({'|'.join(_ES_UNAMBIGUOUS)})\b",
        lambda m: _subject(m.group(3), (m.group(1) or "").lower() + (m.group(2) or "").lower()),
        out,
        flags=_I,
    )
    out = _joined_clauses(out)
    out = _ES_USER_INFINITIVE.sub(_reflexive_infinitive, out)
    out = re.sub(r"\bconmigo\b", "con el usuario", out, flags=_I)
    return gender(out)


#: a verb's infinitive or gerund with "me" on it, right after a verb or two whose subject is
#: the user (each with a preposition): "el usuario acaba de mudar*me*", "quiere casar*me*",
#: "está pensando en mudar*me*" (the user's own "me": "se"). After another subject it is that one's object
#: ("mi hermano va a ayudarme") and stays
_ES_USER_INFINITIVE = re.compile(
    r"\b((?:el\s+usuario|la\s+usuaria)\s+(?:(?:ya|no|todav[ií]a)\s+)*(?:[^\W\d_]+\s+(?:(?:de|a|que|en|por)\s+)?){1,2})"
    r"([^\W\d_]{3,}?)me(lo|la|los|las)?\b",
    _I,
)


def _reflexive_infinitive(m: re.Match[str]) -> str:
    """ "…de mudarme" → "…de mudarse", when the word without its "me" is an infinitive or a
    gerund the lexicon knows for a verb's ("firme" is no "fir" + "me")."""
    verb = m.group(2)
    untimed = fold_accents(verb.casefold()).endswith(_ES_UNTIMED)  # "llámame" is an order
    return f"{m.group(1)}{verb}se{m.group(3) or ''}" if untimed and of_a_verb(verb, "es") else m.group(0)


#: the endings of an infinitive and a gerund, accents folded: the forms a pronoun goes on
_ES_UNTIMED = ("ar", "er", "ir", "ando", "iendo", "yendo")


#: first persons of a verb that also open a clause ("visto que trabajo de noche": given that;
#: "caso de que…"), read as the verb only when no "que" or subject follows
_ES_ALSO_OPENS = frozenset({"como", "caso", "visto"})
_ES_AFTER_AN_OPENING = re.compile(r"(?<!\s)\s++(?:que|q|de\s++que|yo|t[uú]|usted|[eé]l|ella|nosotr[oa]s)\b", _I)


def _a_name(m: re.Match[str]) -> bool:
    """Whether the first word opens a name the sentence is about ("Puerto de Sagunto queda
    cerca"), not a verb of the user's; never after "yo"."""
    return not m.group(0).lower().startswith("yo") and a_name_of(m.group(2), m.string[m.end() :], _third_form)


def _opens_a_clause(m: re.Match[str]) -> bool:
    """Whether the first word ``m`` read opens a clause before what follows it ("Visto que
    trabajo de noche…" is no "viste que")."""
    return m.group(2).lower() in _ES_ALSO_OPENS and _ES_AFTER_AN_OPENING.match(m.string, m.end()) is not None


#: the object pronouns, which stand before a verb that is said alone, never after it
_ES_CLITICS = "me|te|se|le|les|nos|os"
#: the first-person verbs that say a clause is the user's when they follow its opening word
_ES_VERB_AFTER = "|".join(v for v in FIRST_PERSON if v not in ("me", "mi"))
#: what can stand before the verb and stays after the subject: "ya no soy" → "el usuario ya no es"
_ES_LEADING = (
    r"(?:casi\s+nunca|casi\s+siempre|a\s+veces|rara\s+vez|ya\s+no|todav[ií]a\s+no|a[uú]n\s+no|no|ya|ahora|tambi[eé]n|tampoco|nunca|siempre|todav[ií]a"
    r"|s[oó]lo|solamente)"  # "Solo té verde" is no verb ("sole"): "Solo como pescado" is one after it
)
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
_ES_FEMININE_NOUNS = {"madre", "mamá", "mujer", "llave", "clase", "calle", "gente", "leche", "piel", "noche", "sangre",
                      "moto", "foto", "mano", "bici", "radio", "tele", "suegra", "jefa", "voz", "red", "luz", "paz",
                      "vez", "nariz", "sal", "miel", "ley", "flor", "crisis", "tesis", "costumbre", "frase", "parte",
                      "suerte", "muerte", "fuente", "mente", "torre", "nube", "serie", "tarde", "carne", "nieve",
                      "imagen", "razón", "sed", "hambre", "fe", "cárcel", "col", "catedral", "señal"}  # fmt: skip
#: masculine nouns that end in -a ("el problema del usuario", not "la problema")
_ES_MASCULINE_NOUNS = {"día", "dia", "mapa", "problema", "sistema", "tema", "idioma", "programa", "clima", "planeta",
                       "sofá", "sofa", "esquema", "drama", "poema", "dilema", "lema", "aroma", "pijama", "papá",
                       "papa", "tranvía", "diploma", "síntoma", "panorama", "telegrama", "crucigrama"}  # fmt: skip
#: words that sit between the possessive and its noun and move with it: "mi mejor amigo" →
#: "el mejor amigo del usuario" (what follows the noun is read by ``_ES_MODIFIERS``)
_ES_BEFORE_NOUN = r"mejor(?:es)?|primer[oa]?|únic[oa]s?|antigu[oa]s?|nuev[oa]s?"  # "mi nuevo veterinario"

_ES_POSSESSIVE = re.compile(rf"\b(mis?)\s+((?:{_ES_BEFORE_NOUN})\s+)?({PHRASE_WORD})(?![\w-])", _I)


def _third_form(word: str) -> bool:
    """Whether ``word`` is a form of the third person of a known verb (``_ES_VERBS``): the
    present, the past, the imperfect, the future or the conditional ("vive", "duerme",
    "trabajaba", "cambió", "vivirá"), or one of the irregular ones ("es", "fue", "tuvo")."""
    low = word.lower()
    folded = fold_accents(low)
    if folded in _ES_IRREGULAR_THIRD:
        return True
    endings = _ES_THIRD_ENDINGS if low.endswith("ó") else _ES_THIRD_ENDINGS_NO_PAST  # "cambió"; not "médico"
    return of_a_known_verb(folded, endings, _es_roots, _ES_VERBS)


def _es_roots(stem: str) -> list[str]:
    """The infinitive's stems a third person's ``stem`` may be of ("duerm" → "dorm",
    "construy" → "constru")."""
    return [*_undone(stem), *([stem[:-1]] if stem.endswith("y") else [])]


#: the endings of a verb's third person, folded, with the classes of infinitive each is of
_ES_THIRD_ENDINGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("aron", ("ar",)), ("ieron", ("er", "ir")), ("aban", ("ar",)), ("aba", ("ar",)), ("arian", ("ar",)),
    ("aria", ("ar",)), ("aran", ("ar",)), ("ara", ("ar",)), ("erian", ("er",)), ("eria", ("er",)),
    ("eran", ("er",)), ("era", ("er",)), ("irian", ("ir",)), ("iria", ("ir",)), ("iran", ("ir",)),
    ("ira", ("ir",)), ("ian", ("er", "ir")), ("ia", ("er", "ir")), ("io", ("er", "ir")), ("o", ("ar",)),
    ("an", ("ar",)), ("en", ("er", "ir")), ("a", ("ar",)), ("e", ("er", "ir")),
)  # fmt: skip
#: the same but the past's "-ó", read only where its accent is typed ("médico" is no "medicar")
_ES_THIRD_ENDINGS_NO_PAST = tuple((ending, classes) for ending, classes in _ES_THIRD_ENDINGS if ending != "o")
#: third persons no ending tells, folded
_ES_IRREGULAR_THIRD = frozenset(
    """es son esta estan era eran fue fueron ha han hay habia va van iba iban tuvo hizo pudo quiso dijo vino
    puso supo vio dio trajo sera seran seria serian tendra hara podra dira vendra saldra pondra habra estuvo
    hubo anduvo da dan ve ven""".split()
)
#: what may follow a noun inside its phrase ("el seguro médico del usuario", not "el seguro del
#: usuario médico"), and what closes it (``grammar.phrase``)
_ES_CLOSERS = frozenset(
    """se me te le les lo los la las nos no ya también tambien tampoco siempre nunca jamás todavía todavia
    aún aun solo sólo casi que q quien cuando donde y e o u pero ni ahora hoy ayer antes después despues
    ahí allí aquí acá allá tb mañana diariamente""".split()
)
#: what stands before a verb and never after one: what closes a phrase after a word that may be a verb
_ES_BEFORE_A_VERB = frozenset("se me te le les lo los la las nos no".split())
_ES_MODIFIERS = Modifiers(
    verb=_third_form,
    closers=_ES_CLOSERS,
    before_a_verb=_ES_BEFORE_A_VERB,
    complements=frozenset({"de", "del"}),
    articles=frozenset({"la", "las", "los"}),
    idioms=frozenset(
        """repente nuevo verdad hecho pronto golpe vez veras niño niña pequeño pequeña joven chico chica momento
        noche tarde mañana madrugada día súbito costumbre acuerdo prisa lejos cerca""".split()
    ),
    degree=frozenset({"más", "mas", "menos", "muy", "tan"}),
    never=_ES_CLOSERS
    | frozenset(
        """el un una unos unas mi mis tu tus su sus nuestro nuestra nuestros nuestras a al de del en con para
        pa por desde hasta sin sobre entre hacia según segun tras más mas menos muy tan bien mal mucho mucha
        muchos muchas poco poca bastante demasiado todo toda todos todas otro otra este esta ese esa aquel
        aquella yo él ella usted vos""".split()
    ),
    verb_like=("a", "e", "á", "é", "í"),
    verb_endings=("ó", "ió", "aron", "ieron", "aban", "aba"),
    invariable=("ista",),
)

#: endings of a feminine adjective or noun whose masculine differs ("vegetariana",
#: "casada", "alérgica", "programadora"); "dentista", "atleta", "psiquiatra" are both
_ES_FEMININE = ("ada", "ida", "ana", "ina", "ena", "ica", "aca", "era", "ora", "osa", "iva", "ola", "ona")


#: the user said to be something after a copula, read for the gender of what she is
_ES_SAID_OF = re.compile(
    r"\b([Ee]l) usuario ((?:(?:ya\s+no|no|ahora|todavía|ya)\s+)?(?:es|está|era|estaba|fue|sigue)) (\w+)"
)
#: what "el usuario" is after a preposition, for a woman ("del usuario" → "de la usuaria")
_ES_HER = {"el": "la", "del": "de la", "al": "a la"}


def gender(text: str) -> str:
    """ "el usuario está embarazada" → "la usuaria está embarazada": the subject agrees with
    what the user said of herself (it read "El usuario es vegetariana"), and so does every
    other mention of her ("la usuaria es celíaca, el usuario no come gluten" → "…, la
    usuaria no come gluten")."""
    return in_her_gender(text, _ES_SAID_OF, _ES_FEMININE, _ES_HER, ("usuario", "usuaria"))


#: what a time said before the verb opens with ("los viernes", "de lunes a viernes", "en
#: verano", "por las mañanas", "cada martes"): the days come from the pack, these are the rest
_ES_TIMES = r"mañanas|tardes|noches|madrugadas|fines\s+de\s+semana|finde|verano|invierno|primavera|otoño|semanas?"
_ES_TIME_LEADS = r"(?:los|las|el|la|cada|todos\s+los|todas\s+las|por\s+las|por\s+la|en|de|entre\s+semana)"
#: the times a verb of the past is told after ("ayer compré…", "en 2015 trabajé…")
_ES_PAST_TIMES = (
    r"ayer|anoche|anteayer|(?:este|el)\s+(?:año|mes|verano|invierno)(?:\s+pasado)?|la\s+semana\s+pasada|"
    r"hace\s+\w+\s+(?:años|meses|semanas|días|dias)|en\s+\d{4}"
)


@functools.cache
def _time_opening() -> re.Pattern[str]:
    from ..registry import pack  # the pack that brings this grammar, read once it is registered

    spanish = pack("es")
    days = longest_first(spanish.weekdays) if spanish is not None else []
    months = longest_first(spanish.months) if spanish is not None else []
    month = rf"|en\s+(?:{'|'.join(map(re.escape, months))})" if months else ""  # "en julio"
    # today and the days beside it, and since when ("desde hoy", "a partir de mañana", "de
    # ahora en adelante"): what the pack says of now and of the days around it
    now = "|".join(now_and_the_days_around("es")) or "hoy"
    since = rf"(?:(?:desde|a\s+partir\s+de|de)\s+)?(?:{now})(?:\s+en\s+adelante)?"
    time = rf"(?:(?:{'|'.join(map(re.escape, days))})s?|{_ES_TIMES}|{_ES_PAST_TIMES}{month}|{since})"  # "los sábados", "ayer"
    return re.compile(
        rf"^((?:{_ES_TIME_LEADS}\s+)?{time}(?:\s+(?:a|y)\s+(?:{_ES_TIME_LEADS}\s+)?{time})?,?\s+)(?:yo\s+)?({_ES_LEADING}\s+)?(\w+)\b",
        _I,
    )


def _after_a_time(text: str) -> str:
    """A first-person verb after a time said before it: "los viernes trabajo desde casa" →
    "los viernes el usuario trabaja desde casa" (after a time, "trabajo" is a verb)."""
    m = _time_opening().match(text)
    if m is None or m.group(3).lower() in ("me", "mi"):
        return text
    if fold_accents(m.group(3).lower()) not in FIRST_PERSON and preterite_third(m.group(3)) is None:
        return text  # "en 2015 trabajé…", "el año pasado busqué…": the past's verbs too
    return f"{m.group(1)}{_subject(m.group(3), m.group(2) or '')}{text[m.end() :]}"


def _subject(word: str, negation: str = "") -> str:
    """ "tomo" → "el usuario toma"; with ``negation`` ("no "): "el usuario no toma"."""
    if word.lower() in ("me", "mi"):
        return f"{negation}{word}"
    third = FIRST_PERSON.get(fold_accents(word.lower())) or first_third(word)
    if third is None:
        return f"{negation}{word}"
    return f"el usuario {negation.lower()}{third}"


#: the infinitives of the verbs a fact says most, to tell a verb of the first person said
#: after a join from a noun and to know its third ("y corro los jueves" → "y el usuario corre
#: los jueves": "correr"); its class gives the ending, its first person the stem
_ES_VERBS = frozenset(
    fold_accents(verb)
    for verb in """
    abandonar abrazar abrir laburar merendar sonreír aburrir acabar aceptar acompañar aconsejar acordar acostar acostumbrar
    actualizar administrar admirar adoptar adorar afeitar agarrar agradecer aguantar ahorrar almorzar
    alquilar amar andar apagar aparcar aplicar apoyar aprender aprobar aprovechar apuntar arreglar
    asistir atender aterrizar avisar ayudar añadir bailar bajar barrer bañar beber besar borrar bucear
    buscar caber caer calentar cambiar caminar cancelar cansar cantar cargar casar celebrar cenar cerrar
    charlar chatear chequear cobrar cocinar coger colaborar coleccionar colgar comenzar comer compartir
    competir comprar comprender conducir conectar confiar conocer conseguir conservar construir
    consultar consumir contar contestar contratar controlar convivir copiar corregir correr cortar coser
    crear crecer creer criar cruzar cubrir cuidar cumplir curar dar deber decidir decir dedicar defender
    dejar depender desarrollar desayunar descansar descargar describir descubrir desear despertar
    destacar detestar dibujar dirigir diseñar disfrutar disponer distinguir divertir dividir doblar
    doler dormir duchar echar editar educar ejercer elegir empezar emplear empujar encantar encender
    encontrar enfadar enseñar entender entrar entregar entrenar enviar equivocar escalar escoger
    escribir escuchar esperar esquiar estar estudiar evitar existir explicar expresar extrañar fabricar
    faltar fijar firmar formar fregar freír fumar funcionar ganar gastar gestionar gobernar grabar
    gritar guardar gustar haber habitar hablar hacer heredar hornear huir imprimir incluir instalar
    intentar interesar invertir invitar ir jugar lavar leer levantar limpiar llamar llegar llenar llevar
    llorar llover lograr luchar mandar manejar mantener maquillar medir mejorar mentir merecer meter
    mirar montar morir mostrar mover mudar nacer nadar navegar necesitar negociar nevar obedecer
    observar obtener ocupar odiar ofrecer oler olvidar operar opinar ordenar organizar oír pagar parar
    parecer participar partir pasar pasear patinar pedir pegar peinar pelear pensar perder perdonar
    permitir pertenecer pesar pescar pintar planchar planear plantar poder poner practicar preferir
    preguntar preocupar preparar presentar prestar probar producir programar prohibir prometer proteger
    publicar quedar quejar querer quitar realizar recibir reciclar recoger recomendar reconocer recordar
    recorrer reducir regalar regar regresar remar reparar repartir repasar repetir reservar resolver
    respetar respirar responder revisar rezar reír robar rodar romper saber sacar salir saltar saludar
    secar seguir sembrar sentar sentir separar ser servir soler soltar sonar soñar subir sufrir sugerir
    sumar suspender tardar tejer temer tender tener terminar tirar tocar tomar trabajar traducir traer
    tratar usar utilizar vender venir ver vestir viajar vigilar visitar vivir volar volver votar
    """.split()
)
#: what may stand between a join and the user's verb besides ``_ES_LEADING``, and stays
_ES_JOINED_LEADING = (
    rf"(?:{_ES_LEADING}|a\s+veces|casi\s+siempre|casi\s+nunca|rara\s+vez|raramente|a\s+menudo|luego|despu[eé]s|"
    r"normalmente|solo|sólo|encima)"
)
#: how a clause joined to one of the user's opens: a comma or a join, with who says it left out
_ES_JOINED = re.compile(
    rf"([,;:]\s*(?:y\s+|pero\s+|mas\s+)?|\s(?:y|e|pero|mas|o|porque)\s+)(?:yo\s+)?((?:{_ES_JOINED_LEADING}\s+)*)(me\s+)?([^\W\d_]{{3,}})(?=\s+[^\W\d_]|\s*+(?:[.!?;]|$))",
    _I,
)


def _joined_clauses(text: str) -> str:
    """A verb of the first person that opens a clause joined to another ("el usuario juega al
    pádel y corro los jueves", "…, nunca bebo café"), with the user said again: "…y el usuario
    corre los jueves" (``said_again``). "Como" before a verb stays ("y como soy vegano": "since")."""

    def since(word: str, after: str) -> bool:  # "y como soy celíaco" (read before as "…el usuario es…")
        return (
            word.lower() == "como"
            and re.match(rf"\s+(?:{_ES_VERB_AFTER}|(?:el|la)\s+usuari[oa])\b", after, _I) is not None
        )

    return said_again(text, _ES_JOINED, first_third, "el usuario", "se", since)


#: the first persons of the present whose third is no ending's change ("tengo" → "tiene")
_ES_IRREGULAR_PRESENT = {
    "tengo": "tiene", "vengo": "viene", "hago": "hace", "pongo": "pone", "salgo": "sale", "digo": "dice",
    "traigo": "trae", "oigo": "oye", "caigo": "cae", "valgo": "vale", "quepo": "cabe", "sé": "sabe",
    "doy": "da", "voy": "va", "soy": "es", "estoy": "está", "veo": "ve", "huelo": "huele", "rio": "ríe", "he": "ha",
    "frio": "fríe", "conduzco": "conduce", "traduzco": "traduce", "produzco": "produce", "reduzco": "reduce",
}  # fmt: skip


def present_third(word: str) -> str | None:
    """The third person of a first person of the present ("corro" → "corre", "pienso" →
    "piensa", "conozco" → "conoce", "elijo" → "elige", "sigo" → "sigue"), or None for a
    word that is none of a known verb's: its stem as said, the ending of its infinitive's
    class, found by undoing the stem's changes (ie → e, ue → o or u, i → e) and the
    spelling's (zc → c, j → g, g → gu)."""
    low = word.lower()
    folded = fold_accents(low)
    if low in _ES_IRREGULAR_PRESENT or (folded in _ES_IRREGULAR_PRESENT and folded != "se"):
        return _ES_IRREGULAR_PRESENT.get(low) or _ES_IRREGULAR_PRESENT[folded]
    if not low.endswith("o") or len(low) < 4:
        return None
    return _present_of(low[:-1], _ES_VERBS) or _present_of(low[:-1], verb_lemmas(word, "es"))


def _present_of(stem: str, verbs: Collection[str]) -> str | None:
    for said, spelt in ((stem, stem), *_ES_SPELLING(stem)):
        for root in _undone(fold_accents(spelt)):
            for ending in ("ar", "er", "ir"):
                if root + ending in verbs:
                    return said + ("a" if ending == "ar" else "e")
    return None


def first_third(word: str) -> str | None:
    """The third person of a first person of the present or of the past ("corro" →
    "corre", "vendí" → "vendió"), or None for a word that is neither of a known verb's."""
    return present_third(word) or preterite_third(word)


#: the first persons of the past whose third is no ending's change ("hice" → "hizo")
_ES_IRREGULAR_PRETERITE = {
    "fui": "fue", "tuve": "tuvo", "hice": "hizo", "estuve": "estuvo", "pude": "pudo", "puse": "puso",
    "dije": "dijo", "vine": "vino", "supe": "supo", "quise": "quiso", "traje": "trajo", "conduje": "condujo",
    "traduje": "tradujo", "produje": "produjo", "anduve": "anduvo", "di": "dio", "vi": "vio", "rei": "rió",
    "sonrei": "sonrió", "frei": "frió", "lei": "leyó", "crei": "creyó", "oi": "oyó", "cai": "cayó",
}  # fmt: skip


def preterite_third(word: str) -> str | None:
    """The third person of a first person of the past ("borré" → "borró", "vendí" →
    "vendió", "busqué" → "buscó", "empecé" → "empezó", "pedí" → "pidió", "dormí" → "durmió",
    "construí" → "construyó"), or None for a word that is none of a known verb's: an -ar
    verb's only when written with its accent ("borre" is also an order), an -ir verb's stem
    closing its last e or o as the third person does."""
    low = word.lower()
    folded = fold_accents(low)
    if folded in _ES_IRREGULAR_PRETERITE:
        return _ES_IRREGULAR_PRETERITE[folded]
    if len(folded) < 4:
        return None  # "sí", "mí", "así"
    return _preterite_of(low, _ES_VERBS) or _preterite_of(low, verb_lemmas(word, "es"))


def _preterite_of(low: str, verbs: Collection[str]) -> str | None:
    folded = fold_accents(low)
    stem = folded[:-1]
    if low.endswith("é"):
        spellings = [stem]
        if stem.endswith("qu"):
            spellings.append(stem[:-2] + "c")  # "busqué" → "buscar"
        if stem.endswith("gu"):
            spellings.append(stem[:-1])  # "llegué" → "llegar"
        if stem.endswith("c"):
            spellings.append(stem[:-1] + "z")  # "empecé" → "empezar"
        return next((spelt + "ó" for spelt in spellings if spelt + "ar" in verbs), None)
    if folded.endswith("i"):
        if stem + "er" in verbs:
            return stem + ("yó" if stem[-1] in "aeiou" else "ió")
        if stem + "ir" in verbs:
            spelt = stem.endswith(("gu", "qu"))  # "seguí": the u is the g's, not the stem's vowel
            if stem[-1] in "aeiou" and not spelt:
                return stem + "yó"  # "construí" → "construyó"
            vowels = stem[:-1] if spelt else stem
            at = max(vowels.rfind(v) for v in "aeiou")
            if at > 0 and stem[at] in "eo":  # its last vowel closes: "pedí" → "pidió", "dormí" → "durmió"
                stem = stem[:at] + ("i" if stem[at] == "e" else "u") + stem[at + 1 :]
            return stem + "ió"
    return None


def _typed_past(word: str) -> str | None:
    """The third person of a past in "-é" typed without its accent, after a pronoun that
    stands before it ("me gradue" → "se graduó"): an order puts its pronoun after ("gradúese")."""
    if not word.lower().endswith("e") or _third_form(word):
        return None  # "me sale un error": "salir"'s present, not "salar"'s past
    return preterite_third(word[:-1] + "é")


def order_form(word: str) -> bool:
    """Whether ``word`` is vos's order of a known verb, which no statement's verb is:
    "actualizá", "borrá", "corré", "poné" (an -ar verb's stem and "á", an -er verb's and
    "é"). An -ir verb's ("escribí") is also the past of "yo", and "actualiza" is "él"'s."""
    low = word.lower().strip(",.;:!?¿¡")
    if len(low) < 4 or low[-1] not in "áé" or low in ("está", "bebé"):  # "él está", "el bebé"
        return False
    stem = fold_accents(low[:-1])
    return stem + ("ar" if low[-1] == "á" else "er") in _ES_VERBS


def _ES_SPELLING(stem: str) -> list[tuple[str, str]]:
    """(the third's stem, the infinitive's) where the first person spells its stem apart."""
    out = []
    if stem.endswith("zc"):
        out.append((stem[:-2] + "c", stem[:-2] + "c"))
    if stem.endswith("j"):
        out.append((stem[:-1] + "g", stem[:-1] + "g"))
    if stem.endswith("g"):
        out.append((stem + "u", stem + "u"))
    if stem.endswith("y"):
        out.append((stem, stem[:-1]))
    return out


def _undone(stem: str) -> list[str]:
    """``stem`` and the stems it is of before a change of its last vowel (ie → e, ue → o, ue
    → u, i → e): "piens" → "pens", "vuelv" → "volv", "jueg" → "jug", "pid" → "ped"."""
    out = [stem]
    for changed, plain in (("ie", "e"), ("ue", "o"), ("ue", "u"), ("i", "e")):
        at = stem.rfind(changed)
        if at > 0:
            out.append(stem[:at] + plain + stem[at + len(changed) :])
    return out


def instruction(said: str, rule: str) -> str | None:
    """A Spanish instruction that lasts ("siempre usá tabs", "a partir de ahora respondeme
    en español"), as what the user asks ("el usuario pide siempre usar tabs"); ``rule``: the
    pack's directive that read it ("siempre", "a-partir-de-ahora"). None for "siempre me
    pasa lo mismo"."""
    words = said.split()
    lead = ""
    if rule == "siempre":
        lead, said = words[0].lower() + " ", " ".join(words[1:])
        if not said or said.split()[0].lower() in _NOT_IMPERATIVE:
            return None  # "siempre me pasa lo mismo", "nunca es tarde"
    adverbs = _ES_ADVERBS_FIRST.match(said)  # "solo tomo…", "ya no como…", "siempre usá…": the verb past them
    if adverbs is not None and adverbs.end() < len(said):
        lead, said = lead + adverbs.group().lower(), said[adverbs.end() :]
    verb, *rest = said.split()
    person = FIRST_PERSON.get(fold_accents(verb.lower())) or present_third(verb)  # "doy clases…" → "da clases…"
    if verb.lower() in ("mi", "mis"):  # "a partir de ahora mi horario es…": the user's noun, no verb
        body = third_person(said[0].lower() + said[1:])
    elif person:  # "…vivo con mi pareja" → "el usuario vive con la pareja del usuario"
        body = gender(f"el usuario {lead}{person} {_possessives(' '.join(rest))}".strip())
    else:
        infinitive = _infinitive(verb)
        if infinitive is None:
            body = f"el usuario pide {lead}«{said}»".replace("pide siempre «", "pide siempre: «")
        else:
            body = f"el usuario pide {lead}{infinitive} {' '.join(rest)}".strip()
    return f"A partir de ahora, {body}" if rule == "a-partir-de-ahora" else body


#: the adverbs an instruction or a fact may open with before its verb
_ES_ADVERBS_FIRST = re.compile(rf"(?:(?:{_ES_LEADING})\s++)++", _I)  # possessive: "ya no" and "ya" "no" are one reading


#: the words after "siempre" or "nunca" that make no instruction ("siempre me pasa lo mismo")
_NOT_IMPERATIVE = {
    "me",
    "te",
    "se",
    "le",
    "lo",
    "la",
    "los",
    "las",
    "es",
    "está",
    "esta",
    "estoy",
    "fue",
    "era",
    "hay",
    "que",
    "el",
    "un",
    "una",
    "mi",
    "tu",
    "su",
    "pasa",
    "igual",
    "mismo",
    "tarde",
    "nos",
    "con",
    "en",
    "de",
    "a",
    "por",
}
_IMPERATIVE_INFINITIVE = {
    "escribe": "escribir",
    "decide": "decidir",
    "sube": "subir",
    "abre": "abrir",
    "divide": "dividir",
    "incluye": "incluir",
    "añade": "añadir",
    "pide": "pedir",
    "sigue": "seguir",
    "repite": "repetir",
    "di": "decir",
    "decí": "decir",
    "haz": "hacer",
    "pon": "poner",
    "ten": "tener",
    "sal": "salir",
    "ven": "venir",
    "traduce": "traducir",
    "resume": "resumir",
    "corrige": "corregir",
    "elige": "elegir",
    "vive": "vivir",
}
_CLITIC = {"me": "le", "nos": "les", "lo": "lo", "la": "la", "le": "le"}


def _infinitive(verb: str) -> str | None:
    """An imperative (voseo or tú, with "-me"/"-nos" attached) as an infinitive, the
    form Spanish writes an instruction in: "respondeme" → "responderle", "usá" → "usar"."""
    word = verb.lower().strip(",.:")
    clitic = ""
    for attached in ("nos", "me", "lo", "la"):
        if len(word) > len(attached) + 2 and word.endswith(attached):
            word, clitic = word[: -len(attached)], _CLITIC[attached]
            break
    if word in _IMPERATIVE_INFINITIVE:
        return _IMPERATIVE_INFINITIVE[word] + clitic
    plain = fold_accents(word)
    if not plain.isalpha() or len(plain) < 2 or plain[-1] not in "aei":
        return None
    if plain[-1] == "i" and not word.endswith("í") and not clitic:
        return None  # "si", "ni": not verbs
    return plain + "r" + clitic


#: the pasts whose forms no ending gives (yo, él, nosotros, ellos)
_ES_IRREGULAR_PAST = {
    "ir": ("fui", "fue", "fuimos", "fueron"),
    "dar": ("di", "dio", "dimos", "dieron"),
    "morir": ("morí", "murió", "morimos", "murieron"),
    "poner": ("puse", "puso", "pusimos", "pusieron"),
}


def past_forms(verb: str) -> tuple[str, ...]:
    """The past of ``verb`` ("vender"; "dar de baja": what follows the infinitive is kept) as
    said of anyone, yo, él or ella, nosotros, ellos ("vendí", "vendió", "vendimos",
    "vendieron"; "empecé", "empezó"; "pidió"), accents folded: how a fact tells a change by
    what was done, whoever did it."""
    infinitive, _, rest = verb.partition(" ")
    tail = f" {rest}" if rest else ""
    if infinitive in _ES_IRREGULAR_PAST:
        return tuple(fold_accents(form) + tail for form in _ES_IRREGULAR_PAST[infinitive])
    stem, ending = infinitive[:-2], infinitive[-2:]
    if ending == "ar":
        first = stem[:-1] + "qu" if stem.endswith("c") else stem + "u" if stem.endswith("g") else stem
        first = stem[:-1] + "c" if stem.endswith("z") else first
        forms = (first + "e", stem + "o", stem + "amos", stem + "aron")
    else:
        spelt = stem.endswith(("gu", "qu"))  # "seguir": the u is the g's, not a vowel of the stem
        if stem[-1] in "aeiou" and not spelt:  # "leyó", "sustituyó"
            third, they = stem + "yo", stem + "yeron"
        else:  # an -ir verb's last e or o closes: "pidió", "murió", "siguió"; an -er's stays: "vendió"
            at = max((stem[:-1] if spelt else stem).rfind(v) for v in "aeiou")
            closes = ending == "ir" and stem[at] in "eo"
            closed = stem[:at] + {"e": "i", "o": "u"}[stem[at]] + stem[at + 1 :] if closes else stem
            third, they = closed + "io", closed + "ieron"
        forms = (stem + "i", third, stem + "imos", they)
    return tuple(form + tail for form in forms)
