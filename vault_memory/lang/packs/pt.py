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
)
