"""Spanish, of Spain and of the Americas (voseo included)."""

from ..pack import Pack

PACK = Pack(
    code="es",
    name="Spanish",
    #: "a", "me", "no", "son", "he", "sin", "con" and "come" are words of English too: left out
    function_words=frozenset(
        """el la los las de del que qué y en un una unos unas es está están estoy estás soy sos se mi mis
        tu tus su sus nuestro nuestra nuestros nuestras por para al lo le les nos muy pero como cómo
        dónde donde adónde cuándo cuando quién quien cuál cual porque también hay tengo tenés tiene
        tienen vos usted ustedes yo tú él ella ellos ellas este esta estos estas eso esto ese esa desde
        hasta sobre entre todo todos más menos hace año años día días mañana tarde noche usuario usuaria""".split()
    ),
    marks="¿¡ñÑ",
    accents="áéíóúÁÉÍÓÚ",
    abbreviations=frozenset(
        """sr sra srta sres dr dra lic lcda ing prof profa av avda c ud uds pág núm tel dto depto arq
        gral cnel p.ej e.e.u.u ee.uu""".split()
    ),
    #: a sentence that goes on about what the last named, its subject unsaid ("Es arquitecta.")
    continues=frozenset("ella él ellos ellas su sus también además ambos ambas es está trabaja vive tiene".split()),
    remember_cues=(
        "recuerd",
        "record",
        "acord",
        "olvid",
        "anot",
        "apunt",
        "guard",
        "conste",
        "memoriz",
        "cuenta",
        "presente",
        "futuro",
        "memoria",
        "sepas",
        "registr",
        "grab",
        "nota",
    ),  # fmt: skip
    that_words=frozenset({"que", "q"}),
    polite_requests=("puedes", "podes", "podés", "podrías", "podrias", "me puedes", "me podés", "me podrías"),
    about_me=(
        r"qu[eé]\s+(?:sab[eé]s|sabes|recuerdas|record[aá]s)\s+(?:de|sobre)\s+m[ií]",
        r"qu[eé]\s+sab[eé]s\s+de\s+m[ií]",
        r"qui[eé]n\s+soy",
        r"h[aá]blame\s+de\s+m[ií]",
        r"contame\s+(?:qu[eé]\s+sab[eé]s\s+)?de\s+m[ií]",
        r"mi\s+perfil",
    ),
    openers=("y", "bueno", "che", "hola"),
    user_subjects=frozenset({"el usuario", "la usuaria", "al usuario", "a la usuaria", "yo", "mi", "mis", "me"}),
    numbers={
        **{
            w: n
            for n, w in enumerate("uno dos tres cuatro cinco seis siete ocho nueve diez once doce".split(), start=1)
        },
        "un": 1,
        "una": 1,
        "un par de": 2,
    },
    weekdays={
        **{w: n for n, w in enumerate("lunes martes miércoles jueves viernes sábado domingo".split())},
        "miercoles": 2,
        "sabado": 5,
    },
    months={
        **{
            m: n
            for n, m in enumerate(
                "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre".split(),
                start=1,
            )
        },
        "setiembre": 9,
    },
    units={
        "hora": "hour",
        "horas": "hour",
        "día": "day",
        "días": "day",
        "dia": "day",
        "dias": "day",
        "semana": "week",
        "semanas": "week",
        "mes": "month",
        "meses": "month",
        "año": "year",
        "años": "year",
    },
    relative_times=(
        (r"anteayer|antier|antes de ayer", "shift:-2"),
        (r"pasado mañana", "shift:2"),
        (r"ayer|anoche", "shift:-1"),
        # "mañana" is tomorrow unless it is a morning ("la mañana", "esta mañana", "cada mañana")
        (r"(?<!la )(?<!esta )(?<!cada )(?<!una )(?<!de )mañana", "shift:1"),
        (r"el fin de semana pasado", "last:weekend"),
        (r"este fin de semana", "this:weekend"),
        (r"la semana pasada", "last:week"),
        (r"la semana que viene|la (?:próxima|proxima) semana|la semana (?:próxima|proxima)", "next:week"),
        (r"el mes pasado", "last:month"),
        (r"el mes que viene|el (?:próximo|proximo) mes", "next:month"),
        (r"el año pasado", "last:year"),
        (r"el año que viene|el (?:próximo|proximo) año", "next:year"),
        (r"hace {N} (?P<unit>días?|dias?|semanas?|mes(?:es)?|años?)", "ago"),
        (r"el {DAY} pasado", "weekday:-1"),
        (r"el (?:próximo|proximo) {DAY}", "weekday:1"),
        (r"el {DAY} que viene", "weekday:1"),
    ),
    time_triggers=("ayer", "antier", "anoche", "mañana", "pasad", "próxim", "proxim", "que viene", "hace ", "este fin"),
    present_times=(
        (r"hoy|esta (?:mañana|tarde|noche)", "day"),
        (r"esta semana", "week"),
        (r"este mes", "month"),
        (r"este año", "year"),
    ),
    recent_times=(r"(?:ú|u)ltimamente|estos (?:dí|di)as",),
    few=("pocos", "pocas", "unos", "unas", "algunos", "algunas"),
    spans=(
        # "los últimos días", "las últimas 2 semanas": a span that ends today
        r"(?:los|las|el|la) (?:ú|u)ltim(?:os|as|o|a)(?: (?P<n>{COUNT}))? (?P<unit>{UNITS})",
        # "hace unas semanas": a while back, not today
        r"hace (?P<ago>{FEW}) (?P<unit>{UNITS})",
    ),
    span_of=("del?",),
    no_subject=frozenset(
        """
        que qu hice hicimos hiciste hizo hicieron hacer hago hacemos paso pasa ocurrio
        hable hablamos hablaste dije dijiste dijimos trabaje trabajamos yo nosotros me nos mi mis
        tu vos te de del en el la los las un una y o con sobre lo algo todo hay hubo tengo tenemos tuve
        tuvimos planes agenda durante
        """.split()
    ),
    parts_of_day=("anoche", "noche", "tarde", "esta mañana"),
    change_cues=(
        r"ahora",
        r"ya no",
        r"ya",
        r"nuev[oa]s?",
        r"me mude",
        r"nos mudamos",
        r"mudamos",
        r"mude",
        r"cambie",
        r"cambiamos",
        r"cambio",
        r"pase a",
        r"pasamos a",
        r"paso a",
        r"desde",
        r"empece",
        r"empezamos",
        r"deje",
        r"dejamos",
        r"reemplazamos",
        r"migramos",
        r"renombramos",
        r"actualmente",
        r"hoy en dia",
        r"ultimamente",
        r"este ano",
        r"a partir de",
        r"en lugar de",
        r"en vez de",
        r"finalmente",
        r"al final",
        r"ahora es",
        r"se fue",
        r"me cambie",
        r"renuncie",
        r"entre a",
        r"volvi",
    ),
    contrast_cues=(
        r"otr[oa]s?",
        r"tambien",
        r"ademas",
        r"todavia",
        r"aun",
        r"segund[oa]",
        r"en casa",
        r"en el trabajo",
        r"de repuesto",
        r"personal",
        r"ambos",
    ),
    kin={
        **dict.fromkeys("pareja novio novia esposo esposa marido".split(), "partner"),
        **dict.fromkeys("madre mamá mama mami vieja".split(), "mother"),
        **dict.fromkeys("padre papá papa papi".split(), "father"),
        **dict.fromkeys("padres viejos".split(), "parent"),
        "hermana": "sister",
        "hermano": "brother",
        "hermanos": "sibling",
        "hijo": "son",
        "hija": "daughter",
        **dict.fromkeys("hijos niños ninos nenes nena nene bebé bebe".split(), "child"),
        **dict.fromkeys("abuela".split(), "grandmother"),
        **dict.fromkeys("abuelo".split(), "grandfather"),
        "abuelos": "grandparent",
        "nieto": "grandson",
        "nieta": "granddaughter",
        "nietos": "grandchild",
        **dict.fromkeys("primo prima primos".split(), "cousin"),
        **dict.fromkeys("tía tia".split(), "aunt"),
        **dict.fromkeys("tío tio".split(), "uncle"),
        "sobrino": "nephew",
        "sobrina": "niece",
        "suegra": "mother_in_law",
        "suegro": "father_in_law",
        **dict.fromkeys("amigo amiga amigos amigas".split(), "friend"),
        **dict.fromkeys("colega colegas compañero compañera companero companera".split(), "colleague"),
        **dict.fromkeys("vecino vecina vecinos".split(), "neighbour"),
        **dict.fromkeys("perro perra perros cachorro".split(), "dog"),
        **dict.fromkeys("gato gata gatos".split(), "cat"),
        **dict.fromkeys("mascota mascotas".split(), "pet"),
    },
)
