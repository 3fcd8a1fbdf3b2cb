"""The lexicon of verbs reads only what is a verb: a name it holds as one ("Mateo", not
"matear"'s first person), a noun typed without its accent ("numero" for "número"), a
pack's function word ("pelo"), and a present after its pronoun ("me sale", not "salar"'s
past typed without its accent) open their sentence as said. Found on the tune halves of the
data sets and tested here on other words.
"""

from __future__ import annotations

import pytest

from vault_memory.lang import in_third_person


@pytest.mark.parametrize(
    ("said", "lang"),
    [
        ("Rodrigo estudia Medicina en Salamanca", "es"),
        ("numero de sócio 4471 no clube de tênis", "pt"),
        ("titulo de la tesis: redes neuronales para suelos", "es"),
        ("me vende la moto un vecino del barrio", "es"),
    ],
)
def test_what_is_no_verb_of_the_user_stays_as_said(said, lang):
    assert in_third_person(said, lang) == said


def test_a_function_word_after_a_comma_stays():
    written = in_third_person("meu irmão mora no Porto, pelo menos por enquanto", "pt")
    assert written.endswith(", pelo menos por enquanto")
