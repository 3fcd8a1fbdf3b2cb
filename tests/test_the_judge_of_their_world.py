"""The judge of the user's world, refitted on the tune halves of later sets (a home's things
told in words that sound technical among them): a fact of the user's world said with an
order for the task after it ("…, então sem walrus") is the task's and is not written; the
user's home and their team's tools, asked to be kept, still are."""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import read_requests


def test_a_version_said_for_the_code_at_hand_is_not_written(judge):
    kept, _ = read_requests("lembra que o nosso CI usa python 3.8, então sem walrus", judge=judge)
    assert kept == []


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("remember that our CI runs on Buildkite", "Buildkite"),
        ("recuerda que nuestro repositorio principal está en GitLab", "GitLab"),
        ("recuerda que la calefacción de casa se enciende con el termostato del pasillo", "termostato"),
        ("lembra que a chave do portão da garagem fica na gaveta da cozinha", "gaveta"),
        ("Remember that the basement fuse box is behind the blue shelf", "blue shelf"),
    ],
)
def test_their_home_and_their_team_s_tools_are_kept(said, value, judge):
    kept, _ = read_requests(said, judge=judge)
    assert any(value in k.text for k in kept), (said, kept)
