"""The user's verb is read in the third person where a clause of theirs opens after a
colon ("Carro: dirijo um Gol"), in a verb whose third drops its "e" ("conduzo" →
"conduz"), in a past of three letters ("caí" → "caiu"), typed without its accent after its
pronoun ("me gradue" → "se graduó"), and before Portuguese "o", an article there, not
Spanish "or" ("…e parti o tornozelo" had stayed). Found on the tune half of ``first_verbs``
and tested here on other words.
"""

from __future__ import annotations

import pytest

from vault_memory.lang import in_third_person


@pytest.mark.parametrize(
    ("said", "lang", "written"),
    [
        ("Carro: dirijo um Gol 2012", "pt", "Carro: o usuário dirige um Gol 2012"),
        ("Idiomas: hablo alemán y francés", "es", "Idiomas: el usuario habla alemán y francés"),
        ("produzo podcasts para uma rádio", "pt", "o usuário produz podcasts para uma rádio"),
        ("eu reduzo o açúcar desde março", "pt", "o usuário reduz o açúcar desde março"),
        ("caí de bicicleta ontem", "pt", "o usuário caiu de bicicleta ontem"),
        ("me matricule en Medicina en 2015", "es", "el usuario se matriculó en Medicina en 2015"),
        ("me lesione la rodilla jugando al fútbol", "es", "el usuario se lesionó la rodilla"),
        ("moro em Braga e conheço o bairro todo", "pt", "e o usuário conhece o bairro todo"),
        ("treino de manhã e sinto o corpo mais leve", "pt", "e o usuário sente o corpo mais leve"),
    ],
)
def test_the_users_verb_in_the_third_person(said, lang, written):
    assert written in in_third_person(said, lang)


@pytest.mark.parametrize(
    ("said", "lang"),
    [
        ("gosto de pão, queijo e vinho", "pt"),
        ("Nota: o dentista muda de endereço em maio", "pt"),
    ],
)
def test_a_list_and_a_colons_noun_stay(said, lang):
    assert said.split(":")[-1].split(",")[-1].strip() in in_third_person(said, lang)
