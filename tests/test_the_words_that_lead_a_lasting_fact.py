"""The words that lead a lasting fact are read as its own, and the user's verb after them.

Found while measuring a helper's set of facts said with words of now (``now_lasting``):
"remember that from now on I…" was read as pointing back at what was said before; "from now
on I…, remember that" kept its own request in the fact ("…, remembers that"); "recuerda que
de niño…" lost its "de" to the request ("acordarse de"); the user's verb after "desde hoy",
"de ahora en adelante", "desde ontem", "daqui pra frente" stayed in the first person; and
"a partir de agora só bebo…" was written as an order to the assistant. Tested here on other
words."""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import read_requests


@pytest.mark.parametrize(
    ("said", "value", "not_said"),
    [
        ("remember that from now on I take the bus to work", "takes the bus to work", ""),
        ("going forward I commute by bike, remember that", "commutes by bike", "remember"),
    ],
)
def test_a_lasting_fact_from_now_on_is_kept_without_its_request(said, value, not_said, judge):
    kept, _ = read_requests(said, judge=judge)
    assert any(value in k.text for k in kept), kept
    assert not not_said or all(not_said not in k.text.casefold() for k in kept), kept


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("recuerda que de pequeña tocaba el piano", "De pequeña"),
        ("recuerda que desde hoy estudio alemán", "el usuario estudia alemán"),
        ("lembra que desde ontem estudo alemão", "o usuário estuda alemão"),
        ("lembra que daqui pra frente só tomo chá de noite", "o usuário só toma chá"),
        # a fact after a lead of what lasts, its verb past an adverb, not an order to the assistant
        ("a partir de ahora solo ceno ensaladas, recuérdalo", "el usuario solo cena ensaladas"),
        ("a partir de agora só vou de metrô pro trabalho, lembra disso", "o usuário só vai de metrô"),
        ("a partir de agora eu vou de bicicleta pro trabalho, lembra disso", "o usuário vai de bicicleta"),
    ],
)
def test_the_words_before_the_user_s_verb_are_kept_and_the_verb_is_theirs(said, written):
    kept, _ = read_requests(said)
    assert any(written in k.text for k in kept), kept
