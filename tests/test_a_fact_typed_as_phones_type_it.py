"""A request typed as phones and Macs type it, and words of now that are names.

Phones and Macs type the apostrophe as "’": "remember that I’m allergic to penicillin" was
written "I’m allergic to penicillin", in the user's first person, read by the agent as its
own words in every later session; so was "I'M", typed in capitals. "I currently live in…"
was written "the user currentlies live…". And a name that spells a word of now ("my cat is called Agora") was read by the
judge of passing as a state of the moment. Found by an attacker's pass; tested here on other
words."""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import read_requests
from vault_memory.lang import with_apostrophes


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("don’t forget I’m left-handed", "The user is left-handed"),
        ("remember that I’ve got two rescue greyhounds", "The user has got two rescue greyhounds"),
        ("remember that I currently teach yoga on weekends", "The user currently teaches yoga"),
        ("remember that I recently started learning the cello", "The user recently started learning the cello"),
        # typed in capitals
        ("REMEMBER THAT I'M LEFT-HANDED", "The user is LEFT-HANDED"),
        ("DON'T FORGET I'VE BEEN VEGETARIAN FOR YEARS", "The user has BEEN VEGETARIAN"),
    ],
)
def test_a_fact_is_written_of_the_user_however_its_apostrophe_is_typed(said, written, judge):
    kept, _ = read_requests(said, judge=judge)
    assert any(written in k.text for k in kept), kept


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("remember that our parrot is called Today", "Today"),
        ("remember that my favourite café is Agora Lounge", "Agora Lounge"),
    ],
)
def test_a_name_that_spells_a_word_of_now_is_kept(said, value, judge):
    kept, _ = read_requests(said, judge=judge)
    assert any(value in k.text for k in kept), kept


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("dont forget the ferry to Vashon leaves at 6:10 on weekdays", "The ferry to Vashon leaves at 6:10"),
        ("pls remember im colour-blind, so no red/green charts", "The user is colour-blind"),
    ],
)
def test_a_contraction_typed_without_its_apostrophe_is_read(said, written, judge):
    """ "dont forget the bakery…" was dropped without a word where "don't forget…" was kept."""
    kept, _ = read_requests(said, judge=judge)
    assert any(written in k.text for k in kept), kept


def test_a_request_typed_in_capitals_without_apostrophes_is_named_at_least(judge):
    kept, declined = read_requests("DONT FORGET THE GARAGE CODE IS ON THE FRIDGE MAGNET", judge=judge)
    assert kept or declined


def test_a_name_that_spells_a_contraction_stays_a_name(judge):
    kept, _ = read_requests("my landlord is Mr. Im, remember that", judge=judge)
    assert [k.text for k in kept] == ["The user's landlord is Mr. Im"]


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("remember that i work at IM Global", "IM Global"),  # capitals in a text that is not shouted: a name
        ("remember that my cousin Hes Lindgren lives in Malmö", "Hes Lindgren"),
    ],
)
def test_a_name_in_capitals_is_no_contraction(said, name, judge):
    kept, _ = read_requests(said, judge=judge)
    assert any(name in k.text for k in kept), kept


def test_another_languages_word_is_no_english_contraction():
    assert with_apostrophes("recuerda que im es el nombre de mi gata") == "recuerda que im es el nombre de mi gata"
    assert with_apostrophes("lembra que dont é o nome do meu cachorro") == "lembra que dont é o nome do meu cachorro"
