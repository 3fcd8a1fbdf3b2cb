"""A fact of the user's said after "from now on" is a fact of theirs, written under its own
subject so that it replaces the older value; an order after "from now on" stays an
instruction. It had been written as an instruction ("From now on, the user's … is …",
under the key "instruction"), which replaced nothing, and in Portuguese dropped; and "remember
that from now on my … is …" was kept, but its lead hid its subject from the slot rules, so it
replaced nothing either."""

from __future__ import annotations

import datetime as dt

import pytest

import vault_memory as vmem
from vault_memory.conversation.ingestion import remember_said
from vault_memory.conversation.request_judge import request_judge
from vault_memory.conversation.signals import read_requests
from vault_memory.vault.template import create_vault


@pytest.fixture(scope="module")
def judge():
    return request_judge()


def test_a_change_said_from_now_on_replaces_the_older_value(tmp_path):
    vault = create_vault(tmp_path / "vault", with_examples=False)
    now = dt.datetime.now().astimezone()
    with vmem.open(vault, use_daemon=False) as mem:
        first = remember_said(
            mem, "remember that my dentist is Dr. Alvarez", session="a", now=now - dt.timedelta(days=9)
        )
        later = remember_said(
            mem, "from now on my dentist is Dr. Kowalski", session="b", now=now - dt.timedelta(days=2)
        )
        assert [o.status for o in first] == ["created"]
        assert [(o.status, o.memory.key) for o in later] == [("superseded", "dentist")]
        block = mem.recall("who is my dentist?").block
    assert "Kowalski" in block
    assert "Alvarez" not in block


@pytest.mark.parametrize(
    ("older", "newer", "question", "old_value", "new_value"),
    [
        (
            "remember that my yoga studio is Lotus Flow",
            "remember that going forward my yoga studio is Bend & Breathe",
            "which yoga studio do I go to?",
            "Lotus",
            "Bend",
        ),
        ("lembra que eu moro em Santos", "daqui pra frente eu moro em Niterói", "onde eu moro?", "Santos", "Niterói"),
        (
            "recuerda que mi gimnasio es el de Palermo",
            "de ahora en más mi gimnasio es el de Belgrano",
            "¿a qué gimnasio voy?",
            "Palermo",
            "Belgrano",
        ),
    ],
)
def test_the_newer_value_said_from_now_on_replaces_the_older(tmp_path, older, newer, question, old_value, new_value):
    vault = create_vault(tmp_path / "vault", with_examples=False)
    now = dt.datetime.now().astimezone()
    with vmem.open(vault, use_daemon=False) as mem:
        remember_said(mem, older, session="a", now=now - dt.timedelta(days=9))
        later = remember_said(mem, newer, session="b", now=now - dt.timedelta(days=2))
        assert [o.status for o in later] == ["superseded"]
        block = mem.recall(question).block
    assert new_value in block
    assert old_value not in block


@pytest.mark.parametrize(
    ("message", "value", "not_in_it"),
    [
        ("de ahora en más, mi gimnasio es el de Palermo", "gimnasio del usuario es el de Palermo", "pide"),
        ("daqui para a frente a minha academia é a SmartFit do centro", "academia do usuário", "pede"),
        ("a partir de agora moro em Niterói", "usuário mora em Niterói", "pede"),
        ("going forward, in every chat, I teach on Saturdays", "The user teaches on Saturdays", "wants"),
        ("as of today my optician is Dr. Brandt", "the user's optician is Dr. Brandt", "wants"),
        ("de acá en adelante mi contador es Julián", "el contador del usuario es Julián", "pide"),
        ("de hoje em diante a minha nutricionista é a Dra. Lima", "nutricionista do usuário", "pede"),
    ],
)
def test_the_fact_is_written_as_the_users_and_nothing_is_named(judge, message, value, not_in_it):
    found, declined = read_requests(message, judge=judge)
    assert [value in s.text for s in found] == [True]
    assert not_in_it not in found[0].text.casefold()
    assert found[0].key not in ("instruction", "instruccion")
    assert declined == []


@pytest.mark.parametrize(
    "message",
    ["henceforth, call me Bea", "daqui pra frente me chama de Juju", "from now on, I want you to reply in French"],
)
def test_an_order_after_from_now_on_stays_an_instruction(judge, message):
    found, _ = read_requests(message, judge=judge)
    assert [s.key for s in found] == ["instruction"]


@pytest.mark.parametrize(
    "message",
    [
        "se daqui para a frente a minha renda subir, quanto pago de imposto?",
        "acho que daqui pra frente a minha chefe vai ser a Rita, sei lá",
        "o meu personagem diz 'daqui pra frente me chama de Capitão'",
    ],
)
def test_from_now_on_inside_a_question_a_guess_or_someones_words_keeps_nothing(judge, message):
    """Portuguese's "daqui pra frente" was also a word of keeping read anywhere ("frente"
    among the cues, and a lead of keeping), so a conditional question, a guess or a line
    someone says were written as the user's facts; English and Spanish kept none."""
    assert read_requests(message, judge=judge)[0] == []


@pytest.mark.parametrize(
    ("message", "written"),
    [
        ("going forward you are my sparring partner for interviews", "the assistant to be the user's sparring partner"),
        ("from now on you'll reply in French", "the assistant to reply in French"),
        ("from now on I need you to double-check my maths", "the user needs the assistant to double-check"),
    ],
)
def test_an_instruction_names_the_assistant_not_you(judge, message, written):
    """Read in a later session, "you" is no one: "the user wants the assistant to you are…"
    and "the user wants you to…" had been written."""
    found, _ = read_requests(message, judge=judge)
    assert [written in s.text for s in found] == [True], found
