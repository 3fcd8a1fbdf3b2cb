"""A fact said with a word of now or today is kept when it lasts, and not when it passes.

The rules read the moment from a few shapes ("today … I'm", "hoy … estoy"): they refused
"since today I'm vegetarian" and "as of today I'm the tech lead — keep that in mind" as
passing states, refused "desde hoy soy vegetariana, recuérdalo" as pointing at the task, and
wrote "I have a headache right now" and "ahorita tengo hambre" as lasting facts. A judge of
passing (``lang.judge.passes``, trained on statements a helper wrote) now reads each such
fact by what it says. Measured on another helper's set (``benchmarks/passing_judge.py``,
``now_lasting``); tested here on other words."""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import read_requests


@pytest.mark.parametrize(
    ("said", "value"),
    [
        (
            "remember that starting this week I'm allergic to shellfish, the doctor confirmed it",
            "allergic to shellfish",
        ),
        ("as of today I'm the new treasurer of the chess club — keep that in mind", "treasurer of the chess club"),
        ("Desde hoy soy celíaca, el médico me lo confirmó. Apúntalo.", "celíaca"),
        ("a partir de hoje sou sócio do clube de remo, anota aí", "sócio do clube de remo"),
    ],
)
def test_a_lasting_fact_begun_now_is_kept(said, value, judge):
    kept, _ = read_requests(said, judge=judge)
    assert any(value in k.text for k in kept), kept


@pytest.mark.parametrize(
    "said",
    [
        "keep in mind my phone is on 2% right now",
        "anota que ahora estoy haciendo fila en el banco",
        "lembra que agora tô preso no trânsito da marginal",
    ],
)
def test_a_state_of_the_moment_is_named_and_not_kept(said, judge):
    kept, declined = read_requests(said, judge=judge)
    assert kept == [], kept
    assert declined, "a request not kept is named"
