"""A list a request says is of a thing of the user's ("these about my garden:") keeps an
item that names no one when the judge of meaning reads it as their world: it had been
refused as saying nothing of the user. Items of the task stay refused."""

from __future__ import annotations

from vault_memory.conversation.signals import read_requests


def test_an_item_of_a_thing_of_theirs_is_kept(judge):
    said = "Save these about my garden:\n- the plot is 4 by 6 metres\n- tomatoes go in the south bed"
    kept, _ = read_requests(said, judge=judge)
    assert any("south bed" in k.text for k in kept)
    assert any("4 by 6" in k.text for k in kept)


def test_an_item_of_the_task_is_not(judge):
    said = "Note these about my branch:\n- rename the helper to parse_row\n- add a test for empty input"
    kept, _ = read_requests(said, judge=judge)
    assert not any("parse_row" in k.text or "empty input" in k.text for k in kept)
