"""A code dictated as number words is read as the digits it says.

"the shed padlock opens with seven three seven three" gives a code as plainly as "…with
7373", yet the rules that read a secret's value read digits only, so such a fact was
written (the secret judge caught a few phrasings it had been fitted near). Each run of three
digits or more said as words is now read as its digits (``lang.numbers``), a span over them
masks every word of it, and counts said apart ("nine, seven and five") are no run. A phone
or a laptop is a thing a code unlocks only with its verb: "my phone: 644 218 903" is its
number. Measured on a helper's set (docs/benchmarks.md); tested here on other words."""

from __future__ import annotations

import pytest

import vault_memory as vmem
from vault_memory.conversation.signals import not_kept_notes, read_requests
from vault_memory.errors import SecretRefused
from vault_memory.lang.numbers import digits_said
from vault_memory.vault.secrets import find_secret, masked
from vault_memory.vault.template import create_vault

CODES = [
    "the bike shed lock opens with four one one four",
    "la caja fuerte del hotel se abre con tres cero cero nueve",
    "pra abrir o portão da chácara eu digito oito quatro oito quatro",
    "my work laptop unlocks with nine eight seven six",
    "the keypad at the back gate: double seven one three",
    "o cadeado do baú é dois-zero-dois-zero",
    "the lockbox by the back door opens with thirty-one forty-four",
    "la combinación del candado del gimnasio es cuarenta y dos diecisiete",
    "o cofre do escritório abre com vinte e seis oitenta e um",
]
HARMLESS = [
    "my nephews are nine, seven and five",
    "the back gate closes at nine thirty",
    "tengo tres hijos, dos perros y un gato",
    "a porta da garagem abre sozinha às sete",
    "my phone: 655 301 778",
    "Bus seven two takes me to the office",
    "I'm thirty-four and my brother is twenty-nine",
    "a sala tem vinte e duas cadeiras e doze mesas",
]


@pytest.mark.parametrize("said", CODES)
def test_a_code_said_in_number_words_is_a_secret_and_no_word_of_it_shows(said):
    assert find_secret(said) is not None
    shown = masked(said)
    assert "[secret left out]" in shown
    read, _, _ = digits_said(said)
    number_words = {w for w in said.replace("-", " ").split() if w not in read.split()}
    assert not number_words & set(shown.replace("-", " ").split()), shown


@pytest.mark.parametrize("said", HARMLESS)
def test_numbers_that_are_no_code_are_no_secret(said):
    assert find_secret(said) is None


def test_such_a_code_is_refused_by_the_write_and_the_rest_of_the_vault_is_written(tmp_path):
    vault = create_vault(tmp_path / "vault", with_examples=False)
    with vmem.open(vault, use_daemon=False) as mem:
        with pytest.raises(SecretRefused):
            mem.remember("the storage unit's padlock opens with six two six two")
        mem.remember("The storage unit is on the second floor of the depot")
    texts = [p.read_text(encoding="utf-8") for p in vault.rglob("*.md")]
    assert any("second floor of the depot" in t for t in texts)
    assert not any("six two" in t for t in texts)


def test_a_note_of_a_request_not_kept_quotes_no_word_of_such_a_code():
    _, declined = read_requests(
        "remember that the code for the allotment padlock is five oh five oh, then fix the tests"
    )
    notes = " ".join(not_kept_notes(declined))
    assert notes and "five" not in notes and "oh five" not in notes, notes
