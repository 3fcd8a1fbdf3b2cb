"""A word of address or a slang filler said with a request ("bro", "güey", "po", "cara",
"pá") is no fact and no word of one: "…. anota aí, mano" had written "Mano" as the user's
fact and lost the one said before it, "bro my blood type is…" kept "Bro". Said as a fact's
value ("my brother's nickname is Bro") it is kept. Found with a helper's `vocatives` set,
tested here on other words."""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import read_requests


@pytest.mark.parametrize(
    ("said", "value", "word"),
    [
        ("a minha irmã mora em Braga. anota aí, pá", "Braga", "pá"),
        ("la clínica de mi perra está en Ñuñoa, guárdalo wey", "Ñuñoa", "wey"),
        ("dude, my landlord is Mr. Haddad, remember it", "Haddad", "dude"),
        ("lembra que eu corro todo domingo no parque, cara", "domingo", "cara"),
        ("recuerda que trabajo en el turno de noche, parce", "noche", "parce"),
    ],
)
def test_the_fact_is_kept_and_the_word_of_address_is_not(said, value, word, judge):
    kept, _ = read_requests(said, judge=judge)
    text = " ".join(k.text for k in kept)
    assert value in text, (said, text)
    assert word not in text.casefold().split(), (said, text)


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("remember my cat's name is Dude", "Dude"),
        ("anota que o apelido do meu pai é Brother", "Brother"),
        ("remember that my husband calls me mate", "mate"),
    ],
)
def test_such_a_word_as_the_value_is_kept(said, value, judge):
    kept, _ = read_requests(said, judge=judge)
    assert any(value in k.text for k in kept), (said, kept)


@pytest.mark.parametrize("said", ["remember: homie", "apunta eso, compa", "anota aí: parça", "save it, fam"])
def test_a_request_whose_only_word_is_one_of_address_keeps_nothing(said, judge):
    """ "remember: dude" had written "Dude" as the user's fact (an attacker's pass)."""
    kept, _ = read_requests(said, judge=judge)
    assert kept == [], kept
