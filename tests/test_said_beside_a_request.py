"""A sentence said with a request that the request does not keep is named, not dropped.

"Consider this permanent knowledge: I don't fly, ever. Any travel plans = trains or
driving" kept the first sentence and dropped the second without a word: the agent, told
nothing, answered "noted" of both. Now each sentence of a message whose request was kept,
that no fact kept holds, is named as not kept (so the agent's own remember tool can keep
it), unless it asks (a question), thanks or exclaims to the chat, orders a task, or is the
request itself. Tested on other words than the report's."""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import BESIDE, not_kept_notes, read_requests


@pytest.mark.parametrize(
    ("said", "kept", "named"),
    [
        ("anota pra sempre: não como carne de porco. qualquer receita = frango ou peixe", "carne de porco", "frango"),
        ("guárdalo para siempre: no manejo de noche. cualquier viaje largo = tren o bus", "no maneja", "tren o bus"),
        ("Remember that I never drink coffee after noon. any meeting after lunch = tea for me", "coffee", "tea for me"),
    ],
)
def test_a_sentence_a_request_left_out_is_named(said, kept, named, judge):
    found, declined = read_requests(said, judge=judge)
    assert any(kept in f.text for f in found), found
    assert all(named not in f.text for f in found)
    beside = [n for n in declined if n.reason == BESIDE]
    assert [named in n.sentence for n in beside] == [True], declined
    assert any(named in note for note in not_kept_notes(declined))


@pytest.mark.parametrize(
    "after",
    [
        "Can you suggest a birthday gift?",  # a question to the assistant
        "Thanks a lot!",
        "Wow, what a week!",  # said to the chat
        "Refactor the date parser next.",  # an order of the task
        "Now rerun the failing test.",  # past a word of now
        "Keep your answers short from here on.",  # names the assistant
        "Remember that too.",  # the request itself
    ],
)
def test_what_is_no_fact_is_not_named(after, judge):
    found, declined = read_requests(f"Remember that my nephew Tariq turns nine in March. {after}", judge=judge)
    assert any("Tariq turns nine" in f.text for f in found), found
    assert not [n for n in declined if n.reason == BESIDE], declined


def test_a_message_that_keeps_nothing_names_nothing_beside(judge):
    said = "Our offsite went well. The lake was freezing but the food was great."
    assert read_requests(said, judge=judge) == ([], [])


def test_a_secret_said_beside_is_named_as_a_secret_and_never_quoted(judge):
    found, declined = read_requests("Remember that I'm vegetarian. My alarm PIN is 7391.", judge=judge)
    assert [f.text for f in found] == ["The user is vegetarian"]
    assert not [n for n in declined if n.reason == BESIDE]
    notes = not_kept_notes(declined)
    assert notes and all("7391" not in note for note in notes) and "never kept" in notes[0]
