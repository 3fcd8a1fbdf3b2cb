"""Spanish for the slot rules (``lang.slot_grammar``): what a fact is about and whether a
newer one replaces it. Portuguese facts are read in these forms (``Pack.reads_as``)."""

from __future__ import annotations

from ..slot_grammar import SlotGrammar

#: after "trabajo de", what says when one works, not the trade ("de 8 a 5", "de lunes a
#: viernes", "de noche", "de casa"), as read with accents folded and as typed: the trade is
#: "trabajo de enfermera". Portuguese is read in these forms too (``lang.borrowed``: "trabalho
#: das 9 às 18" → "trabaja de las 9 às 18"), so its weekdays are here as well
NOT_WHEN = (
    r"(?!\s+(?:\d|(?:las?|los?)\s+\d|(?:lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bados?|domingos?|noche|d[ií]a"
    r"|tarde|ma[ñn]ana|madrugada|turno|guardia|casa|remoto|segunda|ter[cç]a|quarta|quinta|sexta)\b))"
)

#: what says now, before or after the verb ("ahora vive", "el jefe ahora es…")
#: the words that say a fact holds from the moment it is said ("a partir de ahora mi gimnasio
#: es…"): a directive's lead (``es.signal_directives``) and, before a fact, a word of now to the
#: slot rules (Portuguese's are read in these forms, ``pt.borrowed_forms``)
FROM_NOW_ON = r"a\s+partir\s+de\s+(?:ahora|hoy)|de\s+ahora\s+en\s+m[aá]s|de\s+(?:ahora|aqu[ií]|ac[aá])\s+en\s+adelante|desde\s+(?:ahora|hoy)"
NOW = (
    FROM_NOW_ON
    + r"|ahora|actualmente|todavia|aun|hoy\s+en\s+dia|hoy\s+dia|estos\s+dias|ultimamente|en\s+la\s+actualidad|ya|finalmente|por\s+fin"
)

SLOTS = SlotGrammar(
    stop_words=frozenset(
        """mi mis tu tus nuestro nuestra nuestros nuestras el la los las un una unos unas de del al en con por para y
        o e u es son fue ser esta estan su sus muy tambien ya ahora actualmente hoy dia dias nuevo nueva otra vez
        mas""".split()
    ),
    articles=frozenset("de del la el los las un una".split()),
    # Portuguese is read in these forms: "novo", "nova" as written
    new_words=frozenset("nuevo nueva nuevos nuevas novo nova novos novas".split()),
    residence_prepositions=frozenset({"en", "a", "al"}),
    indefinite_articles=frozenset({"un", "una"}),
    stem_suffixes=("ar", "er", "ir", "e", "a", "o"),
    names={
        **dict.fromkeys("pareja novio novia esposo esposa marido".split(), "partner"),
        **dict.fromkeys("trabajo ocupacion profesion oficio puesto".split(), "work/role"),
        **dict.fromkeys("empleador empresa".split(), "work/employer"),
        "nombre": "name",
        "apellido": "surname",
        **dict.fromkeys("ciudad ubicacion".split(), "residence"),
        "cumpleanos": "birthday",
        "pronombres": "pronouns",
        "edad": "age",
        "dieta": "diet",
        **dict.fromkeys("madre mama".split(), "mother"),
        **dict.fromkeys("padre papa".split(), "father"),
        "color": "colour",
        **dict.fromkeys("telefono celular movil".split(), "phone"),
        **dict.fromkeys("portatil computadora ordenador".split(), "computer"),
        **dict.fromkeys("coche auto carro".split(), "car"),
        **dict.fromkeys("favorito favorita preferido preferida".split(), "fav"),
        # the people and things of the user's one of each, by one name whatever the language
        # or the gender they are said in ("Mi dentista…" and "My dentist…" are one subject;
        # Portuguese reads through these forms: "senhorio", "advogada", "contabilista")
        "dentista": "dentist",
        **dict.fromkeys("medico medica".split(), "doctor"),
        **dict.fromkeys("casero casera arrendador arrendadora senhorio senhoria".split(), "landlord"),
        **dict.fromkeys("jefe jefa chefe".split(), "boss"),
        **dict.fromkeys("gestor gestora".split(), "manager"),
        **dict.fromkeys("abogado abogada advogado advogada".split(), "lawyer"),
        **dict.fromkeys("contador contadora contable contabilista".split(), "accountant"),
        **dict.fromkeys("veterinario veterinaria".split(), "vet"),
        "terapeuta": "therapist",
        "gimnasio": "gym",
        "banco": "bank",
        **dict.fromkeys("correo email e-mail".split(), "email"),
        **dict.fromkeys("bici bicicleta".split(), "bike"),
    },
    several_people=frozenset(
        """hermana hermano amigo amiga hijo hija bebe perro perra gato gata mascota primo prima colega companero
        companera vecino vecina tia tio sobrino sobrina nieto nieta abuela abuelo""".split()
    ),
    several_things=frozenset({"proyecto"}),
    not_family=frozenset("amigo amiga colega companero companera vecino vecina perro perra gato gata mascota".split()),
    group_names={
        **dict.fromkeys("hijos ninos nenes".split(), "child"),
        "nietos": "grandchild",
        **dict.fromkeys("padres viejos".split(), "parent"),  # "mis viejos": rioplatense
        "abuelos": "grandparent",
        "hermanos": "sibling",
        "familia": "family",
    },
    roles={
        "son": ("hijo",),
        "daughter": ("hija",),
        "child": ("bebe",),
        "brother": ("hermano",),
        "sister": ("hermana",),
        "grandmother": ("abuela",),
        "grandfather": ("abuelo",),
        "grandson": ("nieto",),
        "granddaughter": ("nieta",),
        "cousin": ("primo", "prima"),
        "aunt": ("tia",),
        "uncle": ("tio",),
        "nephew": ("sobrino",),
        "niece": ("sobrina",),
        "friend": ("amigo", "amiga"),
        "colleague": ("colega", "companero", "companera"),
        "neighbour": ("vecino", "vecina"),
        "dog": ("perro", "perra"),
        "cat": ("gato", "gata"),
        "pet": ("mascota",),
    },
    hints=frozenset(
        """llamo llama llaman llamas apellido vivo vive vivimos mude mudo mudamos trabajo trabaja trabajamos
        cumpleanos naci pronombres alergico alergica alergia alergias""".split()
    ),
    diets={
        "vegetariano": "vegetarian",
        "vegetariana": "vegetarian",
        "vegano": "vegan",
        "vegana": "vegan",
        "pescetariano": "pescatarian",
        "pescetariana": "pescatarian",
        "pescatariano": "pescatarian",
        "pescatariana": "pescatarian",
        "omnivoro": "omnivore",
        "omnivora": "omnivore",
        "flexitariano": "flexitarian",
        "flexitariana": "flexitarian",
    },
    measure_stems=frozenset("pes corr pag gan duerm mid camin beb fum".split()),
    often=frozenset("cada todos todas siempre normalmente manana mananas tarde tardes noche noches".split()),
    when=frozenset(
        """cada todos todas siempre normalmente manana mananas tarde tardes noche noches semana semanas lunes martes
        miercoles jueves viernes sabado sabados domingo domingos dia""".split()
    ),
    move_verbs=("se mudo",),
    trailing_times=(
        r"(?:desde|a\s+partir\s+de|hace)\b.*",
        r"(?:el|la|este|esta|el\s+pasado)\s+(?:semana|mes|ano|fin\s+de\s+semana)\b.*",
        r"(?:(?:el|la)\s+)?(?:semana|mes|ano)\s+pasad[oa]\b.*",
        r"(?:ahora|de\s+nuevo|otra\s+vez|recientemente|ultimamente|hoy\s+en\s+dia|para\s+siempre)\b.*",
    ),
    owners=r"mi|mis|su|sus|nuestr[oa]s?",
    own=r"mi|mis|nuestr[oa]s?",
    owned_after=(r"\b(?:el|la|los|las)\s+([^\W_]+)\s+(?:del\s+usuario|de\s+la\s+usuaria)\b",),
    negation=r"\b(?:ya\s+no|no)\b\s*",
    stopped=r"\b(?:dejo|dejaste|deje|ha\s+dejado|he\s+dejado|dejara)\s+de\s+(\w+?)(?:ar|er|ir)\b",
    anymore=r"mas|nunca\s+mas|ya",
    relations={
        "residence": (
            r"^(?:vive|vivo|reside|resido|ahora\s+vive|se\s+mudo|me\s+mude|se\s+ha\s+mudado|me\s+he\s+mudado|"
            # the household's own verb of living (``household``): "vivimos en Vigo"
            r"vivimos|"
            # "vive en un cuarto piso" says what the home is, not where: no place after it
            r"se\s+fue\s+a\s+vivir|se\s+muda|me\s+mudo)\s+(?:de\s+(?P<from>.+?)\s+)?(?:en|a|al|para)\s+"
            r"(?!(?:un|una)\s+(?!.*\s(?:en|a)\s))(?P<x>.+)$"
        ),
        "work_at": (
            r"^(?:(?:trabaja|trabajo|ahora\s+trabaja|empezo\s+a\s+trabajar|entro\s+a\s+trabajar|empece\s+a\s+trabajar|"
            r"entre\s+a\s+trabajar)\s+(?:en|para)|"
            r"se\s+unio\s+a)\s+(?P<x>.+)$"
        ),
        "work_as": rf"^(?:trabaja|trabajo|ahora\s+trabaja)\s+(?:como|de{NOT_WHEN})\s+(?P<x>.+)$",
        "called": r"^(?:se\s+llama|me\s+llamo)\s+(?P<x>.+)$",
        "age": r"^(?:tiene|tengo|cumplio|cumpli|acaba\s+de\s+cumplir)\s+(?P<x>\d{1,3})(?:\s+anos)?$",
        "diet": r"^(?:es|soy|se\s+hizo|se\s+volvio|ahora\s+es)\s+(?:(?:estricto|estricta)\s+)?(?P<x>{diets})\b.*$",
        "eats_meat": r"^(?:come|como|ha\s+vuelto\s+a\s+comer|volvio\s+a\s+comer)\s+carne\b.*$",
        "partner": (
            r"^(?:sale\s+con|esta\s+(?:saliendo|casad[oa]|comprometid[oa]|de\s+novi[oa])\s+con|esta\s+con|"
            r"se\s+caso\s+con)\s+(?P<x>.+)$"
        ),
        "count": r"^(?:tiene|tengo)\s+(?P<n>\d+|{counts})\s+(?P<x>[^\W\d_]+)$",
        "switch": r"^(?:cambio|paso|se\s+paso|migro)\s+(?:de|del)\s+(?P<from>.+?)\s+(?:a|al|por)\s+(?P<x>.+)$",
        "swapped": r"^(?:dejo|cambio|reemplazo)\s+(?P<from>.+?)\s+por\s+(?P<x>.+)$",
        "is": r"^(?:es|son)\s+(?P<x>.+)$",
        "costs": r"^(?:cuesta|vale|sale)\s+(?P<x>.+)$",
    },
    like=r"le\s+gusta|le\s+gustan|le\s+encanta|le\s+encantan|me\s+gusta|me\s+gustan|me\s+encanta|me\s+encantan",
    event=r"^(?:fue|vio|visito|tuvo|hizo|compro|conocio|va\s+a|planea|piensa)\b|\b(?:ayer|manana)\b",
    past=(
        r"\b(?:entre|de|en|durante)\s+(?:\w+\s+)?\d{4}\b|"
        r"\b(?:trabajó|vivió|estudió|estuvo|tuvo|salió|jugó|usó|fue|era|trabajaba|vivía|usaba|solía)\b"
    ),
    verb_first=(
        r"^(?:vive|vivo|trabaja|trabajo|tiene|tengo|es|soy|se\s+mudo|me\s+mude|ya\s+no|dejo|deje|come|como|sale|"
        r"esta|estoy|cambio|paso|le\s+gusta|me\s+gusta|le\s+encanta|me\s+encanta|usa|uso)\b"
    ),
    now=NOW,
    not_an_employer=r"en\s+(?:el|la|un|una)\s+proyecto|desde\s+casa",
    not_an_employer_when=r"(?:los|las|el|la)?\s*(?:fines|sabados|domingos|noches)",
    named_as=(
        # "de la mi": a Portuguese "da minha" read in Spanish forms (``Pack.borrowed_forms``)
        (
            r"^el nombre (?:de la |del |de )(?P<o>(?:mi|mis|nuestro|nuestra|su) (?:[^\W_]+ ){0,3}?[^\W_]+) es ",
            r"\g<o> se llama ",
        ),
        (r"^el nombre del (?P<o>(?:[^\W_]+ ){0,3}?[^\W_]+) es ", r"el \g<o> se llama "),
        (r"^el nombre de la (?P<o>(?:[^\W_]+ ){0,3}?[^\W_]+) es ", r"la \g<o> se llama "),
    ),
    possessed=(
        r"^(?:(?:el|la|los|las)\s+(?P<s1>[\w ]+?)\s+(?:del\s+usuario|de\s+la\s+usuaria)|(?:mi|su)\s+(?P<s2>[\w ]+?))"
        # "el jefe del usuario ahora es Bruno": a word of now before the verb is read with it
        rf"\s+(?P<r>(?:(?:{NOW})\s+)?(?:es|son|se\s+llama|vive|trabaja|tiene|cuesta|vale|se\s+mudo|ya\s+no|no)\b.*)$"
    ),
    self_subject=r"^(?:(?:(?:el|la)\s+usuari[oa]|yo)\s+|(?:al|a\s+la)\s+usuari[oa]\s+)(?P<r>.*)$",
    # the household's own verb of living ("vivimos en Vigo", "a gente mora em…" in Spanish forms)
    household=(
        r"^(?:(?:nosotros|nosotras|mi\s+(?:mujer|esposa|marido|esposo|pareja|familia)\s+y\s+yo)\s+)?"
        r"(?P<r>vivimos\s+en\s+.*)$"
    ),
    also=r"tambien|ademas",
    more=(
        r"(?:[,;]|\b(?:y|pero|mientras))\s+(?:(?:el\s+usuario|la\s+usuaria|tambien|ademas)\b|"
        r"(?:vive|vivo|trabaja|trabajo|tiene|tengo|es|soy)\b)"
    ),
)
