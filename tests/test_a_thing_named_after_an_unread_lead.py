"""A thing of the user's world named after a lead no rule reads is read as the lead asks.

A lead that asks in words no pack holds ("would be handy for you to know going forward:")
had its rest read only when that rest told of the user or their group: "the school gate
locks at 8:40 sharp" names a thing with no owner, and the request was dropped without a
word. A request the rules read keeps such a thing when the judge reads the message as the
user's world (``lang.judge.KEEP_UNOWNED``); a lead the judge of asking reads now does too,
at its own thresholds. Tested on other words than the sets'."""

from __future__ import annotations

from vault_memory.conversation.signals import read_requests


def test_a_thing_named_after_an_asking_lead_is_kept(judge):
    kept, _ = read_requests(
        "would be handy for you to know going forward: the school gate locks at 8:40 sharp", judge=judge
    )
    assert [k.text for k in kept] == ["The school gate locks at 8:40 sharp"]


def test_one_the_judge_doubts_is_named_not_dropped(judge):
    said = "so you have it for next time: the building's bike room code changes every January"
    kept, declined = read_requests(said, judge=judge)
    assert kept or declined


def test_a_story_that_names_a_thing_keeps_nothing(judge):
    assert (
        read_requests("Funny thing from yesterday: the neighbour's cat got stuck on our roof again", judge=judge)[0]
        == []
    )
