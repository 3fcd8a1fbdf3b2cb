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
    continues=frozenset("ella él ellos ellas su sus también además ambos ambas".split()),
    remember_cues=("recuerd", "record", "acord", "olvid", "anot", "apunt", "guard", "conste", "memoriz", "cuenta"),
    that_words=frozenset({"que"}),
)
