"""A request whose fact opens with a phrase of time, place, case or cause before the user's
clause keeps it whole: its "that" opens the fact ("remember that since the accident I…"),
as one right before the user's clause does. It had been read as pointing back, and nothing
was kept. A "that" that points back before why the assistant will need it still does."""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import read_requests


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("remember that since the accident in 2019 I can't drive at night", ["accident", "night"]),
        ("note that in case of a flood my insurer is Allianz", ["flood", "Allianz"]),
        ("remember that because I'm the only one with a key, I open the office on Mondays", ["key", "office"]),
        ("write down that at the pottery studio my shelf is number 9", ["pottery", "9"]),
    ],
)
def test_a_fact_that_opens_with_a_phrase_is_kept_whole(judge, said, kept):
    written = " ".join(s.text for s in read_requests(said, judge=judge)[0])
    assert all(k in written for k in kept), written


@pytest.mark.parametrize(
    ("said", "kept", "not_written"),
    [
        ("I'm allergic to latex. Remember that since you'll book the dentist", "latex", "dentist"),
        ("My sister is Ana Lobo. save that somewhere safe, I'll need it soon", "Ana", "soon"),
        ("i work nights at the depot. factor that in if i ever ask you to plan my week", "depot", "week"),
    ],
)
def test_a_that_that_points_back_still_does(judge, said, kept, not_written):
    written = " ".join(s.text for s in read_requests(said, judge=judge)[0])
    assert kept in written and not_written not in written, written
