"""A word between the user and their verb, in Portuguese: "eu já morei em…", "eu sempre
assino…" were written "o usuário já o usuário morou…" and "o usuário sempre assino…" (the
verb left in the first person), while Spanish read "yo ya viví…" right. Found on the tune
halves; tested here on other words. Spanish had no "casi nunca", "a veces", "rara vez"
there (a helper's probe: "yo casi nunca tomo café…" kept "Casi nunca tomo café"), and read
"después de las 5" as an order said after the fact ("después, arreglá el test").
"""

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
        ("recuerda que yo a veces trabajo desde la casa de mi madre", "El usuario a veces trabaja"),
        ("anota que casi siempre salgo a correr antes del desayuno", "El usuario casi siempre sale a correr"),
    ],
)
def test_what_stands_between_the_user_and_their_verb(said, written, written_by_the_rules):
    assert written in written_by_the_rules(said)


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("acordate que mi suegra nos visita después del almuerzo los domingos", "después del almuerzo"),
        ("ten en cuenta que mi hija entra a natación después de las 6 los martes", "después de las 6"),
    ],
)
def test_after_a_time_is_no_order_said_after_the_fact(said, kept, written_by_the_rules):
    assert kept in written_by_the_rules(said)


def test_then_an_order_is_still_cut(written_by_the_rules):
    written = written_by_the_rules("recordá que uso Vim, después de eso corré los tests")
    assert "Vim" in written and "tests" not in written, written
