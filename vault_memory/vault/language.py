"""Which language a memory or a question is written in: Spanish, English, or not known.

Recall needs this to know which evidence a leg can give: the keyword leg cannot match a
Spanish memory to an English question (its silence there says nothing), and an English-
only embedding model cannot judge a Spanish pair at all. A guess that is unsure says
``None``, and ``None`` changes nothing, so an unusual text is ranked as before.

The rule counts frequent function words that exist in only one of the two languages
("the", "what" / "el", "qué"), plus Spanish-only characters (¿ ¡ ñ and accented vowels).
"""

from __future__ import annotations

import re

SPANISH = "es"
ENGLISH = "en"

#: frequent words of one language that are rare or absent in the other ("a", "me", "no",
#: "son", "he", "sin", "con" and "come" are words of both, so they are left out)
_ES_WORDS = frozenset(
    """el la los las de del que qué y en un una unos unas es está están estoy estás soy sos se mi mis
    tu tus su sus nuestro nuestra nuestros nuestras por para al lo le les nos muy pero como cómo
    dónde donde adónde cuándo cuando quién quien cuál cual porque también hay tengo tenés tiene
    tienen vos usted ustedes yo tú él ella ellos ellas este esta estos estas eso esto ese esa desde
    hasta sobre entre todo todos más menos hace año años día días mañana tarde noche usuario usuaria""".split()
)
_EN_WORDS = frozenset(
    """the an and is are was were be been being of to in on at for with my your our their his its
    i you we they it this that these those what where when who whom how which why do does did have
    has had not will would can could should from by about there just so but or am i'm it's don't
    user""".split()
)
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
_SPANISH_MARKS = re.compile(r"[¿¡ñÑ]")
_SPANISH_ACCENTS = re.compile(r"[áéíóúÁÉÍÓÚ]")


def detect(text: str) -> str | None:
    """ "es", "en", or None when the text gives no clear sign (a name, a number, a mix)."""
    words = _WORD.findall(text.lower())
    spanish = sum(1 for w in words if w in _ES_WORDS)
    english = sum(1 for w in words if w in _EN_WORDS)
    spanish += 2 * bool(_SPANISH_MARKS.search(text)) + bool(_SPANISH_ACCENTS.search(text))
    if spanish > english:
        return SPANISH
    if english > spanish:
        return ENGLISH
    return None


def unread_note(count: int) -> str:
    """What to tell a user whose vault's model does not read ``count`` memories written in
    Spanish (its English-only model, ``vmem init --lang en`` or a vault made before)."""
    which = "this memory is" if count == 1 else f"{count} memories are"
    them = "it" if count == 1 else "them"
    return (
        f"{which} in Spanish, which the vault's model does not read: a question finds {them} by "
        'words alone. For English and Spanish, set [embedding] model = "bilingual" in vmem.toml and run `vmem reindex`'
    )
