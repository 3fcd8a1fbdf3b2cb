"""A request the user says holds for a while only is not kept as a lasting fact.

"for the time being, remember I'm on the hotel wifi" was written as the user's fact, read
in every later session: the reading knew "for this session" and "while we work on this",
not "for now", "de momento", "mientras tanto", "até o fim do dia" (each pack's
``for_a_while``), and not such words said before the request or after its fact. They are
now read in the request's own words and in the sentence that asks, and the request is
named as not kept. "Desde hoy", "agora" and a question's "for today" say no such thing.
Measured on a helper's thirty-second set (``language_eval.py``, ``*_fresh32``); tested here
on other words."""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import read_requests


@pytest.mark.parametrize(
    "said",
    [
        "for the time being, remember I'm on the hotel wifi so downloads are slow",
        "de momento, acuérdate de que estoy con el portátil viejo del trabajo",
        "tengo el médico en media hora, tenlo presente mientras tanto",
        "lembra até o fim do dia que eu tô com o notebook emprestado",
        # this conversation named between the request's word and its "that"
        "remember for the rest of this chat that I'm on the slow laptop",
        "recuerda en esta conversación que estoy en la oficina de Quito",
    ],
)
def test_a_request_for_a_while_only_is_named_and_not_kept(said, judge):
    kept, declined = read_requests(said, judge=judge)
    assert kept == [], kept
    assert declined, "a request not kept is named"


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("recuerda que desde hoy trabajo en Globant", "Globant"),
        ("lembra que agora eu moro em Coimbra", "Coimbra"),
        ("Can you remember that my sister is Lena? also any lunch idea for today?", "Lena"),
        ("remember for future chats that I drink oat milk", "oat milk"),
    ],
)
def test_a_lasting_fact_said_with_words_of_time_is_kept(said, value, judge):
    kept, _ = read_requests(said, judge=judge)
    assert any(value in k.text for k in kept), kept
