"""A word between the user and their verb, in Portuguese: "eu já morei em…", "eu sempre
assino…" were written "o usuário já o usuário morou…" and "o usuário sempre assino…" (the
verb left in the first person), while Spanish read "yo ya viví…" right. Found on the tune
halves; tested here on other words."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("lembra que eu já morei em Manaus", "O usuário já morou em Manaus"),
        ("anota que eu nunca tomo café depois das 16h", "O usuário nunca toma café depois das 16h"),
        ("lembra que eu sempre viajo de ônibus", "O usuário sempre viaja de ônibus"),
        ("guarda isso: eu às vezes trabalho do sítio do meu pai", "O usuário às vezes trabalha"),
        ("lembra que minha irmã torce pro Bahia e eu também torço", "O usuário também torce"),
    ],
)
def test_what_stands_between_the_user_and_their_verb(said, written, written_by_the_rules):
    assert written in written_by_the_rules(said)
