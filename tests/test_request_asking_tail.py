"""A fact told, then a last clause that asks to keep it in words no pack holds ("…. Good
for you to know whenever I ask about restaurants", "…, pra quando eu te pedir dicas"): when
the judge of asking is sure of it, the fact is kept, as a lead it is as sure of keeps what
follows it; it had only been named as a request not kept. A tail of chat ("Talk to you
later!", "one I'll never forget") keeps nothing. A lead or tail is never cut at an
abbreviation's full stop ("la Dra. Paula Méndez")."""

from __future__ import annotations

import pytest

from vault_memory.conversation.request_shapes import may_ask
from vault_memory.conversation.signals import read_requests


@pytest.mark.parametrize(
    "said",
    [
        "Mi dentista es la Dra. Paula Méndez y atiende los martes, por si alguna vez te hablo de ella",
        "My physio is Dr. Hannah Lowe and I see her on Fridays, for when I ask you to plan my week",
        "O meu contabilista é o Sr. Abílio Marques, escritório na R. Augusta. Fica a saber.",
    ],
)
def test_no_lead_or_tail_is_cut_at_an_abbreviation(said):
    for part in may_ask(said):
        for piece in (part.clause, part.rest):
            assert not piece.rstrip().endswith(("Dra", "Dr", "Sr", "R")), part


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "My daughter Priya is allergic to shellfish. Good for you to know whenever I ask about restaurants.",
            ["Priya", "shellfish"],
        ),
        (
            "I drive a 2012 Subaru Outback with 180k miles on it. Worth having in the back of your head "
            "when I ask about road trips.",
            ["2012 Subaru Outback", "180k miles"],
        ),
        ("Sou canhota e jogo tênis aos sábados, pra quando eu te pedir dicas de raquete", ["canhota", "sábados"]),
        (
            "Mi dentista es la Dra. Paula Méndez y atiende los martes, por si alguna vez te hablo de ella",
            ["Dra. Paula Méndez", "martes"],
        ),
    ],
)
def test_a_fact_before_a_tail_that_asks_is_kept_whole(written_with_the_judge, said, kept):
    written = written_with_the_judge(said)
    for value in kept:
        assert value in written, written


@pytest.mark.parametrize(
    "said",
    [
        "We finally finished the deck renovation last weekend. Talk to you later!",
        "I adopted a greyhound named Biscuit yesterday. What a day - one I'll never forget.",
        "Fui a la boda de mi prima en Cádiz, fue precioso. Un día que nunca olvidaré.",
        "Acabei de voltar de Lisboa, foi incrível. Depois te conto mais!",
        "My sister just got promoted to head nurse, so proud of her! Anyway, catch you tomorrow.",
    ],
)
def test_a_tail_of_chat_keeps_nothing(written_with_the_judge, said):
    assert written_with_the_judge(said) == ""


class _ScriptedJudge:
    """The request judge's three readings, scripted: every message of the user's world, a
    clause asks when it holds a comma (a longer tail), not when it is the last clause alone."""

    def __call__(self, message: str) -> float:
        return 1.0

    def asks(self, clauses):
        return [0.95 if "," in clause else 0.5 for clause in clauses]

    def goes_on(self, sentence: str) -> float:
        return 0.0

    def secret(self, texts):
        return [0.0 for _ in texts]


def test_only_the_last_clause_of_a_tail_asks():
    """Of the tails a message ends with, the last clause alone asks: a longer one holds an
    order before it ("…, impede-me, pra quando esse dia chegar"), and a hypothetical had
    been kept as the user's fact."""
    said = "Se um dia eu disser que vou vender o carro, impede-me, pra quando esse dia chegar."
    assert read_requests(said, judge=_ScriptedJudge())[0] == []
