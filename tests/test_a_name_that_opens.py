"""A name of the shape "X de Y" that opens a sentence and is the subject of its verb is no
verb of the user's, though its first word is one ("Rio de Janeiro é onde moro" had been "o
usuário ri de Janeiro…", found by a helper attacking the grammars; tested here on other
words). "Salgo de Madrid a las 8" has no verb after the name: the user's, as before.
"""

from __future__ import annotations

import pytest

from vault_memory.lang import in_third_person


@pytest.mark.parametrize(
    ("said", "lang", "opens"),
    [
        ("Salto de Pirapora fica a uma hora daqui", "pt", "Salto de Pirapora fica"),
        ("Paso de los Libres queda en Corrientes", "es", "Paso de los Libres queda"),
        ("Juego de Tronos es mi serie favorita", "es", "Juego de Tronos es"),
    ],
)
def test_a_name_that_opens_the_sentence_stays(said, lang, opens):
    assert in_third_person(said, lang).startswith(opens)


@pytest.mark.parametrize(
    ("said", "lang", "written"),
    [
        ("Salgo de Madrid a las 8", "es", "el usuario sale de Madrid"),
        ("Saio de Lisboa às 8 e chego ao Porto às 11", "pt", "o usuário sai de Lisboa"),
        ("eu venho de Recife e moro em Natal", "pt", "o usuário vem de Recife"),
    ],
)
def test_the_users_verb_before_a_place_is_still_theirs(said, lang, written):
    assert in_third_person(said, lang).startswith(written)
