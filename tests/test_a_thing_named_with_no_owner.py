"""A request whose fact names a thing of the user's world with no word of whose it is
("remember the spare key hangs by the fridge", "anota aí, o banco de testes fica em…") was
refused as "not a fact about the user or their world", whatever the user asked: no rule
tells a thing at home from a thing of the code. Now the judge of meaning settles it, as it
settles a request refused by words of the task alone, and a request said after such a fact
("…, don't forget") is read the same way. A tail that asks in a verb of keeping no rule reads
("…. Deixa guardado.") is kept when the judge of asking leans to it, and a fact kept by a
request that points back is written in the language of the request's word when its own
words could be either ("… todo dia. Salva isso."). Measured on a helper's thirtieth set
(``language_eval.py``, ``explicit_fresh30``, ``coding_fresh30``); tested here on other words."""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import read_requests


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("remember the fuse box is behind the coats in the hallway closet", "hallway closet"),
        ("Keep in mind the laundromat on Birch St closes at 8 on weekdays.", "Birch St"),
        ("acordate el termo del baño hay que purgarlo cada octubre", "cada octubre"),
        ("lembra a caixa d'água do prédio é lavada todo mês de março", "março"),
        ("the farmers market by the station only opens on saturdays, don't forget", "saturdays"),
        ("la piscina municipal cierra los lunes por mantenimiento, no lo olvides", "lunes"),
    ],
)
def test_a_thing_of_their_world_with_no_owner_is_kept(said, value, judge):
    kept, _ = read_requests(said, judge=judge)
    assert any(value.casefold() in k.text.casefold() for k in kept), kept


@pytest.mark.parametrize(
    "said",
    [
        "remember the parser in lib/tokens.py drops the last line, fix that",
        "I still remember the smell of the old bookshop near school",
        "It helps to slow down and remember the little joys of the day.",
        "recuerda el job de lint en CI está roto en esta rama, sáltalo por ahora",
    ],
)
def test_a_thing_of_the_task_or_a_memory_of_their_own_is_not(said, judge):
    kept, _ = read_requests(said, judge=judge)
    assert kept == [], kept


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("Minha filha faz balé às terças e quintas na escola de dança da rua Augusta. Deixa registrado.", "balé"),
        ("My uncle Viktor repairs clocks in Ghent. Worth keeping on file.", "Viktor"),
    ],
)
def test_a_tail_in_a_verb_of_keeping_no_rule_reads_keeps_what_came_before(said, value, judge):
    kept, _ = read_requests(said, judge=judge)
    assert any(value in k.text for k in kept), kept


def test_a_fact_pointed_back_at_is_written_in_the_language_of_its_request(judge):
    kept, _ = read_requests("tomo losartana todo dia. salva isso", judge=judge)
    assert [k.lang for k in kept] == ["pt"], kept
    assert kept[0].text.startswith("O usuário"), kept
