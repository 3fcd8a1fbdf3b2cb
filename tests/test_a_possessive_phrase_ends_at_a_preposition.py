"""A possessive's noun phrase ends at a preposition, in Portuguese as in Spanish."""

from __future__ import annotations

from vault_memory.lang.grammar import pt


def test_a_possessive_phrase_ends_at_a_preposition():
    """ "…do meu irmão durante esta conversa" had been written "…do irmão durante do usuário
    esta conversa": "durante" was read as part of the noun's phrase (an attacker's probe)."""
    assert pt.third_person("empresto o carro do meu pai durante esta semana") == (
        "o usuário empresta o carro do pai do usuário durante esta semana"
    )
