"""A lasting instruction in Portuguese, as in Spanish and English: the Portuguese pack had
none ("a partir de agora", "daqui pra frente", "sempre", "nunca"), so "a partir de agora
me responde sempre em espanhol" kept nothing while "a partir de ahora respóndeme…" did.
What the user says of themselves after "sempre" asks nothing ("nunca vou deixar de
torcer…"), as before; after "a partir de agora" it is their fact, as in English and Spanish
(``test_a_fact_said_from_now_on.py``). Found by
a helper's probes of this stop's rules, written before they were run.

A lasting lead before a request ("From now on, remember that…", "A partir de agora, lembra
que…") is the request's: it had been written as an instruction ("…the user wants the
assistant to remember that…")."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("daqui pra frente sempre me trata por tu", "trata por tu"),
        ("a partir de agora responde-me em inglês", "em inglês"),
        ("de agora em diante, sem emojis nas respostas", "sem emojis"),
    ],
)
def test_a_lasting_instruction_in_portuguese(said, kept, written_by_the_rules):
    written = written_by_the_rules(said)
    assert kept in written and "assistente" in written, written


@pytest.mark.parametrize(
    "said",
    [
        "sempre corro no parque aos domingos",
        "nunca mais vou pedir pizza naquele sítio",
    ],
)
def test_a_habit_said_of_oneself_asks_nothing(said, written_by_the_rules):
    assert written_by_the_rules(said) == ""


def test_a_fact_said_of_oneself_from_now_on_is_kept_as_in_english_and_spanish(written_by_the_rules):
    """ "from now on I go to bed earlier" and "de ahora en adelante soy vegetariana" were
    always kept; their Portuguese was not. Now each is the user's fact, in the third person."""
    assert "o usuário dorme mais cedo" in written_by_the_rules("a partir de agora durmo mais cedo")


@pytest.mark.parametrize("said", ["sempre foi assim com ela", "nunca é fácil, pois não?"])
def test_always_before_what_orders_nothing(said, written_by_the_rules):
    assert "assistente" not in written_by_the_rules(said)


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("From now on, remember that my wife's name is Ingrid", "wife's name is Ingrid"),
        ("A partir de ahora, recuerda que mi perro se llama Kiwi", "perro del usuario se llama Kiwi"),
        ("Daqui pra frente, lembra que a minha filha se chama Inês", "filha do usuário se chama Inês"),
    ],
)
def test_a_lasting_lead_before_a_request_keeps_the_fact(said, kept, written_by_the_rules):
    written = written_by_the_rules(said)
    assert kept in written and not any(w in written for w in ("remember", "recuerd", "lembra")), written


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Going forward, always use Celsius with me, I never learned Fahrenheit", "Celsius"),
        ("de agora em diante, usa sempre o sistema métrico comigo, eu não penso em pés", "sistema métrico"),
    ],
)
def test_the_order_is_the_instruction_not_the_reason_after_it(said, kept, written_by_the_rules):
    """ "Going forward, always use metric units with me, I don't think in feet and pounds"
    had been written as "the user does not think in feet and pounds": the order was taken
    for a phrase of where or when before the user's clause."""
    assert kept in written_by_the_rules(said)
