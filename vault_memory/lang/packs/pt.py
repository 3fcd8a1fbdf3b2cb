"""Portuguese, of Brazil and of Portugal."""

from ..pack import Pack

PACK = Pack(
    code="pt",
    name="Portuguese",
    #: words Spanish writes the same way ("que", "de", "se", "para", "por", "como") vote for
    #: both: Spanish against English is read as before, Portuguese wins on its own words
    function_words=frozenset(
        """o os as do da das na nas num numa um uma uns umas ao aos à às pelo pela pelos pelas
        não é são está estão estou sou és foi tem têm tenho temos eu você vocês ele ela eles elas nós
        meu minha meus minhas teu tua seu sua seus suas nosso nossa nossos nossas dele dela deles delas
        isso isto esse essa aquele aquela muito muita também já ainda até onde quando quem qual quais
        mais mas com sem em ou porque então aqui ali hoje ontem amanhã mês
        usuário usuária que de se para por como""".split()
    ),
    marks="ãõçÃÕÇ",
    accents="áéíóúâêôàÁÉÍÓÚÂÊÔÀ",
    abbreviations=frozenset("sr sra srta dr dra prof profa av r eng lda exmo exma pág tel nº dna dto".split()),
    continues=frozenset("ela ele eles elas seu sua seus suas dele dela também ambos ambas".split()),
    remember_cues=(
        "lembr",
        "esquec",
        "esquec",
        "anot",
        "guard",
        "regist",
        "grav",
        "memori",
        "constar",
        "salv",
        "mente",
    ),
    that_words=frozenset({"que"}),
    about_me=(
        r"o\s+que\s+(?:(?:voc[eê]|tu)\s+)?(?:sabe|sabes|lembra|lembras)\s+(?:sobre|de)\s+mim",
        r"quem\s+(?:sou\s+eu|eu\s+sou)",
        r"(?:me\s+)?fal[ae]\s+(?:sobre|de)\s+mim",
        r"(?:me\s+)?conta\s+(?:o\s+que\s+(?:voc[eê]\s+)?sabe\s+)?(?:sobre|de)\s+mim",
        r"meu\s+perfil",
    ),
    openers=("então", "entao", "e", "oi", "olá"),
    user_subjects=frozenset({"o usuário", "a usuária", "ao usuário", "eu", "meu", "minha", "meus", "minhas", "me"}),
    numbers={
        **{w: n for n, w in enumerate("um dois três quatro cinco seis sete oito nove dez onze doze".split(), start=1)},
        "uma": 1,
        "duas": 2,
        "tres": 3,
        "um par de": 2,
    },
    weekdays={
        **{w: n for n, w in enumerate("segunda terça quarta quinta sexta sábado domingo".split())},
        **{f"{w}-feira": n for n, w in enumerate("segunda terça quarta quinta sexta".split())},
        "terca": 1,
        "terca-feira": 1,
        "sabado": 5,
    },
    months={
        **{
            m: n
            for n, m in enumerate(
                "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro".split(),
                start=1,
            )
        },
        "marco": 3,
    },
    units={
        "hora": "hour",
        "horas": "hour",
        "dia": "day",
        "dias": "day",
        "semana": "week",
        "semanas": "week",
        "mês": "month",
        "mes": "month",
        "meses": "month",
        "ano": "year",
        "anos": "year",
    },
    relative_times=(
        (r"anteontem|antes de ontem", "shift:-2"),
        (r"depois de amanhã", "shift:2"),
        (r"ontem(?: à noite)?", "shift:-1"),
        (r"amanhã", "shift:1"),
        (r"(?:o|no) fim de semana passado|(?:o|no) último fim de semana", "last:weekend"),
        (r"(?:este|esse|neste|nesse) fim de semana", "this:weekend"),
        (r"(?:a |na )?semana passada", "last:week"),
        (r"(?:a |na )?semana que vem|(?:a|na) (?:próxima|proxima) semana", "next:week"),
        (r"(?:o |no )?mês passado", "last:month"),
        (r"(?:o |no )?mês que vem|(?:o|no) (?:próximo|proximo) mês", "next:month"),
        (r"(?:o |no )?ano passado", "last:year"),
        (r"(?:o |no )?ano que vem|(?:o|no) (?:próximo|proximo) ano", "next:year"),
        (r"há {N} (?P<unit>dias?|semanas?|m[eê]s|meses|anos?)", "ago"),
        (r"{N} (?P<unit>dias?|semanas?|m[eê]s|meses|anos?) atrás", "ago"),
        (r"(?:na|no) {DAY} passad[oa]", "weekday:-1"),
        (r"(?:na|no) últim[oa] {DAY}", "weekday:-1"),
        (r"(?:na|no) (?:próxim[oa]|proxim[oa]) {DAY}", "weekday:1"),
        (r"(?:na|no) {DAY} que vem", "weekday:1"),
    ),
    time_triggers=("ontem", "amanhã", "passad", "próxim", "proxim", "que vem", "há ", "atrás", "fim de semana"),
    present_times=(
        (r"hoje(?: à noite| de manhã)?|esta (?:manhã|tarde|noite)", "day"),
        (r"(?:esta|nesta|essa) semana", "week"),
        (r"(?:este|neste|esse) mês", "month"),
        (r"(?:este|neste|esse) ano", "year"),
    ),
    recent_times=(r"recentemente|ultimamente|esses dias|nos últimos tempos",),
    few=("poucos", "poucas", "alguns", "algumas", "uns", "umas"),
    spans=(
        # "nos últimos dias", "as últimas 2 semanas": a span that ends today
        r"(?:os|as|nos|nas) (?:ú|u)ltim(?:os|as)(?: (?P<n>{COUNT}))? (?P<unit>{UNITS})",
        # "há algumas semanas", "uns dias atrás": a while back, not today
        r"há (?P<ago>{FEW}) (?P<unit>{UNITS})",
        r"(?P<ago>{FEW}) (?P<unit>{UNITS}) atrás",
    ),
    span_of=("d[oa]s?", "de"),
    no_subject=frozenset(
        """
        que o a os as eu nós nos me meu minha meus minhas fiz fizemos fez fizeram fazer faço fazemos
        aconteceu acontece passou falei falamos disse dissemos trabalhei trabalhamos de do da dos das em no na
        um uma e ou com sobre algo tudo tem teve tive tivemos planos agenda durante foi fui
        """.split()
    ),
    parts_of_day=("noite", "manhã", "tarde", "hoje à noite"),
)
