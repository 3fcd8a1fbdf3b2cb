"""What the user did to the code at hand is no fact of theirs, when the judge of meaning
reads the message as the task and the fact is written as code is (a backtick, a file, a
path); found on the tune halves ("Remember I already renamed `UserSvc`…") and tested here
on other words.

A fact whose subject is the user was never refused by the judge, so that "I indent with two
spaces" (read as code by its meaning) stays theirs; "I already moved `parse_date` into
utils/dates.py, so fix the imports" was written as the user's fact for the same reason. A
habit written with code ("programo siempre … con `poetry`", a helper's probe) stays theirs.
"""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    "said",
    [
        "remember I already moved `parse_date` into utils/dates.py, so fix the imports in the tests",
        "lembra que eu já renomeei o `ClienteRepo` pra `ClientRepository`, então ajusta os imports",
    ],
)
def test_what_the_user_did_to_the_code_at_hand_is_not_written(said, written_with_the_judge):
    assert written_with_the_judge(said) == ""


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("remember that I indent with two spaces in every project", "two spaces"),
        ("remember that my dotfiles live in ~/.config and I sync them with chezmoi", "chezmoi"),
        ("remember I always run `make lint` before I commit, in every repo I touch", "make lint"),
        ("ten en cuenta que yo siempre uso `uv` para los entornos de Python", "`uv`"),
        ("Que no se te olvide, programo siempre en Rust 1.80 con `cargo-nextest` para los tests", "Rust 1.80"),
        ("lembra que eu nunca faço push direto na `main`, em nenhum repo", "push direto"),
    ],
)
def test_the_users_own_ways_with_code_stay_theirs(said, kept, written_with_the_judge):
    assert kept in written_with_the_judge(said)
