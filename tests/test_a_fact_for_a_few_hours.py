"""A fact a request keeps that holds a span of hours or of this conversation ("for the next
hour", "solo por esta charla", "só por hoje") is passing wherever the span is said: inside
the fact it had been written as the user's ("The user is on their phone for the next hour,
so keep answers short"), since only a span said outside the fact, or leading it, was read.
"for a while", "for now" inside a fact may tell of a lasting one, and are read as before."""

from __future__ import annotations

import pytest

from vault_memory.conversation.request_facts import FOR_NOW_ONLY
from vault_memory.conversation.signals import read_requests


@pytest.mark.parametrize(
    "message",
    [
        "note that I'm working from the café for the next couple of hours, so keep replies brief",
        "ten en cuenta que uso la laptop de mi hermano solo por esta conversación",
        "registra aí que trabalho do sofá só nesta sessão",
    ],
)
def test_a_fact_of_a_few_hours_is_named_not_kept(message, judge):
    found, declined = read_requests(message, judge=judge)
    assert found == []
    assert [n.reason for n in declined] == [FOR_NOW_ONLY]


def test_a_lasting_fact_said_with_a_while_is_kept(judge):
    found, _ = read_requests("remember that I taught in Lisbon for a while", judge=judge)
    assert [s.text for s in found] == ["The user taught in Lisbon for a while"]
