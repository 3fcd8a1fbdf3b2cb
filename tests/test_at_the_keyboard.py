"""What holds only while the work at hand lasts is not the user's lasting fact, and a phrase
that says a request is for every conversation is no part of what it keeps.

- The user's own state at the keyboard, with an order for the work after it ("I'm on the old
  laptop so the build is slow, skip the e2e tests", "estoy en la rama fix/x, no toques
  main"), had been written as a fact of the user: only a thing of theirs ("my branch is…")
  was read with its order.
- A lasting instruction bound to a thing of the task ("always use STAGING_URL throughout
  this PR") had been written as the user's standing preference.
- "for the rest of the session" binds a request to this conversation as "for this session"
  does.
- "remember for all future sessions that I'm…" had been refused, "in all our future chats,
  remember that…" written with its "Remember", and the Spanish and Portuguese with the
  phrase ("En todas nuestras conversaciones el usuario…").
"""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import read_requests


@pytest.mark.parametrize(
    "said",
    [
        "remember I'm on the VPN laptop so the build can't reach the mirror, skip the lint step",
        "note that I'm running an old Python so the tests choke on f-strings, don't touch the CI config",
        "recuerda que estoy en la rama hotfix/pagos, no hagas merge a develop",
        "ten en cuenta que estoy con el repositorio viejo clonado, sáltate los tests de humo",
        "lembra que eu tô com o repositório antigo clonado, não faz commit direto",
    ],
)
def test_the_users_state_at_the_keyboard_with_an_order_is_the_tasks(said, written_with_the_judge, written_by_the_rules):
    assert written_by_the_rules(said) == ""  # the rules alone
    assert written_with_the_judge(said) == ""


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        # the user's own, with no thing of the task: theirs, whatever the order after it
        ("remember I'm colorblind, so never use red and green alone in charts", "colorblind"),
        ("recuerda que soy zurda, no pongas el ratón a la derecha", "zurda"),
        # an order joined by "and" is cut, and the fact before it kept
        ("remember that I work on the search service and rerun the flaky tests", "search service"),
    ],
)
def test_the_users_own_fact_stays_theirs(said, kept, written_by_the_rules):
    assert kept in written_by_the_rules(said)


@pytest.mark.parametrize(
    "said",
    [
        "always use two-space indents in this file",
        "siempre usa comillas dobles en este archivo",
        "from now on, never log the token in this branch",
    ],
)
def test_a_lasting_instruction_for_a_thing_at_hand_is_not_kept(said):
    found, declined = read_requests(said)
    assert found == [] and declined, declined


def test_a_lasting_instruction_alone_is_kept(written_by_the_rules):
    assert "two-space indents" in written_by_the_rules("always use two-space indents")


@pytest.mark.parametrize(
    "said",
    [
        "para el resto de la sesión recuerda que estoy en el portátil del curro",
        "for the rest of the conversation remember that I'm on my phone",
        "pelo resto da sessão lembra que estou no computador da escola",
    ],
)
def test_the_rest_of_this_conversation_is_not_lasting(said):
    found, declined = read_requests(said)
    assert found == [] and declined, declined


def test_the_rest_of_a_time_of_the_users_is_theirs(written_by_the_rules):
    assert "Lisbon" in written_by_the_rules("for the rest of the year remember that I live in Lisbon")


@pytest.mark.parametrize(
    ("said", "kept", "not_kept"),
    [
        ("please remember for all future sessions that I'm lactose intolerant", "lactose intolerant", "sessions"),
        ("remember, in every future chat, that my brother is called Idris", "Idris", "chat"),
        ("in all our future conversations, remember that I cycle to work", "cycle", "emember"),
        ("en todas nuestras charlas, recuerda que trabajo en una panadería", "panadería", "charlas"),
        ("em todas as nossas conversas, lembra que toco violoncelo", "violoncelo", "conversas"),
    ],
)
def test_a_phrase_for_every_conversation_is_no_part_of_the_fact(
    said, kept, not_kept, written_with_the_judge, written_by_the_rules
):
    for written in (written_by_the_rules(said), written_with_the_judge(said)):
        assert kept in written and not_kept not in written, written


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Para futuras conversas: toco violoncelo numa orquestra amadora", "violoncelo"),
        ("for future chats: my brother is called Idris", "Idris"),
    ],
)
def test_a_phrase_for_every_conversation_alone_is_the_request(said, kept, written_by_the_rules):
    assert kept in written_by_the_rules(said)
