"""A request is not read as code for prose marks: a semicolon that goes on to a word
("…de la parroquia; soy la contralto") had made the whole request code, refused with no
judge to keep it, and a date or a share with a slash ("el 21/11", "24/7", "50/50") was a
file's path, a word of the task."""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import read_requests


def _written(said: str, judge=None) -> str:
    return " ".join(s.text for s in read_requests(said, judge=judge)[0])


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "Recuerda que formo parte del coro de la parroquia de Chamberí; soy la contralto desde 2021.",
            ["coro de la parroquia de Chamberí", "contralto desde 2021"],
        ),
        ("Recuerda que formo parte de la comparsa del barrio; salgo en carnaval desde 2018.", ["comparsa"]),
        # code is still code: nothing of it is written
        ("remember that the build must pass with x = 1; fix the loader", []),
        ("remember to run make check;make deploy after the merge", []),
        ("remember that the config reads fixtures/users/seed.json", []),
    ],
)
def test_a_semicolon_of_prose_is_no_code(judge, said, kept):
    written = _written(said, judge)
    assert all(value in written for value in kept) and (kept or written == ""), written


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("remember that the recital is on 5/14 at 6pm", "5/14"),
        ("recuerda que la boda de Lucía es el 21/11 en Mendoza", "21/11"),
        ("lembra que a festa da Bia é dia 09/08", "09/08"),
        ("remember that the clinic is open 24/7", "24/7"),
    ],
)
def test_a_date_is_no_path(said, kept):
    assert kept in _written(said)  # the rules alone: no judge to keep what they refuse
