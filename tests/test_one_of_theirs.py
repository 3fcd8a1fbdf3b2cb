"""A number is not a word that points back.

"remember that one branch of my family tree is the O'Donovans…" had been read as "remember
that one" (pointing back at what was said before it), so nothing was kept. "that one"
still points back where nothing counted follows it."""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import read_requests


def _written(said: str) -> str:
    return " | ".join(s.text for s in read_requests(said)[0])  # the rules alone


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("remember that one side of my family is from Madeira", "Madeira"),
        ("remember that one of my cousins is a pilot in Lisbon", "pilot in Lisbon"),
        ("please remember that one wall of my flat is load-bearing", "load-bearing"),
    ],
)
def test_a_number_after_that_opens_the_users_clause(said, kept):
    assert kept in _written(said)


@pytest.mark.parametrize("said", ["remember that one for later", "remember that one, ok?", "remember that one please"])
def test_that_one_alone_points_back(said):
    found, declined = read_requests(said)
    assert found == [] and declined
