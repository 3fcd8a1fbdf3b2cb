"""A request that asks to keep what was said for good, in a word of time after its pronoun
("…, remember that always", "…, no lo olvides jamás", "…, não esquece isso nunca"), keeps
what was said before it; the word is no fact ("Always" had been written as one). Found on
a tune half ("…!!! dont forget that ever") and tested here on other words.

"never forget this", said as an order that lasts, asks to keep: it is no standing
instruction ("nunca olvides esto" had been written "El usuario pide nunca «olvides
esto»"). A Portuguese request's fact is read in Portuguese ("lembra que sempre…" had been
read as Spanish, or left in the first person).
"""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("My locker at the gym is number 41, keep that in mind always", "41"),
        ("my kid's pediatrician is Dr. Moss. remember that forever and ever", "Moss"),
        ("i take my coffee black, dont forget it ever", "black"),
        ("Mi perro se llama Toby, no lo olvides jamás", "Toby"),
        ("Mi cuñada vive en Rosario. No te olvides de eso nunca", "Rosario"),
        ("Meu time é o Grêmio, não esquece isso nunca", "Grêmio"),
        ("A minha sogra chama-se Odete. Não te esqueças disso jamais", "Odete"),
    ],
)
def test_a_word_of_time_after_the_request_keeps_what_came_before(said, kept, written_with_the_judge):
    written = written_with_the_judge(said)
    assert kept in written
    assert not any(w in written.casefold().split() for w in ("always", "ever", "forever", "nunca", "jamás", "jamais"))


@pytest.mark.parametrize(
    "said",
    [
        "keep that in mind always",
        "no lo olvides jamás",
        "não esquece isso nunca",
        "nunca olvides esto",
        "nunca te esqueças disso",
    ],
)
def test_a_request_for_good_alone_writes_nothing(said, written_with_the_judge):
    assert written_with_the_judge(said) == ""


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Trabajo de noche. Nunca olvides eso.", "trabaja de noche"),
        ("Tenho dois filhos. Nunca te esqueças disso.", "tem dois filhos"),
    ],
)
def test_never_forget_keeps_the_fact_before_it(said, kept, written_with_the_judge):
    written = written_with_the_judge(said)
    assert kept in written
    assert "pide" not in written and "pede" not in written


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("lembra que sempre tomo chá antes de dormir", "o usuário sempre toma chá"),
        ("lembre que nunca bebo refrigerante", "o usuário nunca bebe refrigerante"),
    ],
)
def test_a_portuguese_request_reads_its_fact_in_portuguese(said, kept, written_with_the_judge):
    assert kept in written_with_the_judge(said).casefold()
