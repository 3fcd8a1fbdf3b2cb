"""A fact said in the first person with "me" on an infinitive or a gerund of the user's own
verb is written with "se": "acabo de mudarme a Madrid" had been written "El usuario acaba
de mudarme a Madrid" (the user moves "me"), "acabei de me mudar pra Lisboa" likewise. After
another's verb "me" is that one's object, and stays. Found by an attacker's pass on the
request reader; tested here on other words."""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import read_requests


@pytest.mark.parametrize(
    ("said", "expected", "wrong"),
    [
        ("recuerda que pienso operarme de la rodilla en junio", "operarse", "operarme"),
        ("acuérdate de que voy a apuntarme al gimnasio del barrio", "apuntarse", "apuntarme"),
        ("recuerda que estoy preparándome para las oposiciones", "preparándose", "preparándome"),
        ("lembra que vou me formar em dezembro", "se formar", "me formar"),
        ("lembra que vou inscrever-me no curso de alemão", "inscrever-se", "inscrever-me"),
    ],
)
def test_the_user_s_own_me_is_written_se(said, expected, wrong):
    kept, _ = read_requests(said)
    text = " ".join(k.text for k in kept)
    assert expected in text and wrong not in text, text


@pytest.mark.parametrize(
    ("said", "kept_as"),
    [
        ("recuerda que mi jefa quiere ascenderme en enero", "ascenderme"),
        ("lembra que minha irmã vai me levar ao aeroporto", "me levar"),
        ("lembra que eu quero que você me chame de Zé", "me chame"),
    ],
)
def test_another_s_verb_keeps_its_object(said, kept_as):
    kept, _ = read_requests(said)
    assert kept_as in " ".join(k.text for k in kept), kept
