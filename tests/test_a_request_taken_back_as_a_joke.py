"""A request taken back as a joke in the next sentence ("… just kidding haha", "… Es broma
jajaja", "… Tô zoando kkk") keeps nothing: the fact is named as taken back. A retraction
had to be all the sentence said, and a laugh after it, or a joke's words, were not read as one."""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import read_requests


@pytest.mark.parametrize(
    "message",
    [
        "note that my favourite band is Nickelback. just kidding haha",
        "apunta que mi suegra se llama Carmen. Es broma jajaja",
        "anota que meu time é o Flamengo. Tô zoando kkk",
    ],
)
def test_a_request_taken_back_as_a_joke_keeps_nothing(judge, message):
    found, declined = read_requests(message, judge=judge)
    assert found == []
    assert [n.reason for n in declined] == ["taken back by the user in the same message"]


def test_a_joke_that_is_the_value_is_kept(judge):
    found, _ = read_requests('remember that my go-to reply is "just kidding"', judge=judge)
    assert [s.text for s in found] == ['The user\'s go-to reply is "just kidding"']
