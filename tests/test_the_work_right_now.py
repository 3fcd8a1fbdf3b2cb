"""What the user just did to the work, or how their machine is right now, told in the first
person with a word of keeping ("fyi I already cleared the npm cache, so just rerun the
install") is the work at hand: not written as the user's fact, and named with why. A
lasting fact told with the same words ("I just switched my default shell to fish") is
kept. Found with a helper's `work_now` set, tested here on other words."""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import read_requests


@pytest.mark.parametrize(
    "said",
    [
        "fyi I already cleared the npm cache, so just rerun the install",
        "heads up, I already merged the hotfix branch into main",
        "anota aí que eu já rodei o seed do banco, agora é só testar o endpoint",
    ],
)
def test_the_work_right_now_is_not_the_user_s_fact(said, judge):
    kept, declined = read_requests(said, judge=judge)
    assert kept == [], kept
    assert any("right now" in n.reason for n in declined), declined


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("note that I just switched my default shell to fish", "fish"),
        ("lembra que eu já uso Linux no notebook do trabalho", "Linux"),
        ("recuerda que acabo de empezar en el equipo de datos, con Python y Airflow", "Airflow"),
    ],
)
def test_a_lasting_fact_told_alike_is_kept(said, value, judge):
    kept, _ = read_requests(said, judge=judge)
    assert any(value in k.text for k in kept), kept
