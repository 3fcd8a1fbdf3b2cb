"""Which conversations a request is for, and asking whether it was kept, read alike in
each pack; each found by a helper's probes of this stop's rules, written before they were
run.

- A phrase for every conversation with a word after its noun ("para todas las sesiones
  futuras, recuerda que…", "em todas as conversas futuras, lembra que…") stayed in the fact.
- "for this conversation keep in mind I'm…" was kept: the conversation bound only a request
  read with a colon or a "that".
- "cê lembra que eu…?", "vc se lembra…?" (asking whether it was kept) wrote what followed.
"""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("said", "kept", "not_kept"),
    [
        ("para todas las sesiones futuras, recuerda que vivo en Mendoza", "Mendoza", "sesiones"),
        ("em todas as conversas futuras, lembra que sou canhoto", "canhoto", "conversas"),
        ("in all future conversations too, remember that I live in Perth", "Perth", "onversations"),
    ],
)
def test_a_phrase_for_every_conversation_with_a_word_after_its_noun(said, kept, not_kept, written_by_the_rules):
    written = written_by_the_rules(said)
    assert kept in written and not_kept not in written, written


@pytest.mark.parametrize(
    "said",
    ["for this conversation keep in mind I'm on a train", "in this chat, keep in mind I'm using my tablet"],
)
def test_this_conversation_binds_a_request_without_that(said, written_by_the_rules):
    assert written_by_the_rules(said) == ""


@pytest.mark.parametrize(
    "said", ["cê lembra que eu te falei da minha bicicleta nova?", "vc se lembra que eu moro em Recife?"]
)
def test_asking_in_portuguese_whether_it_was_kept(said, written_with_the_judge, written_by_the_rules):
    assert written_by_the_rules(said) == "" and written_with_the_judge(said) == ""


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("from now on, in every chat, remember that I work night shifts", "The user works night shifts"),
        ("de agora em diante, em qualquer conversa, lembra que sou enfermeira no SUS", "é enfermeira no SUS"),
    ],
)
def test_a_lasting_lead_and_a_phrase_for_every_conversation_before_a_request(said, kept, written_by_the_rules):
    """ "de agora em diante, em qualquer conversa, lembra que…" had been written whole as an
    instruction: the phrase stood between the lead and its request."""
    written = written_by_the_rules(said)
    assert kept in written and "conversa" not in written and "chat" not in written, written
