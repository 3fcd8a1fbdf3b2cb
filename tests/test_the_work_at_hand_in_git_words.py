"""What the user just did to their checkout, told in git's words ("stashed", "rebased",
"uncommitted", "working tree"), is the work at hand, not a lasting fact; and an order to
carry on said after it ("Go ahead and merge it.") is the assistant's, not a sentence the
request left unread. Both had been missed: the task's words held none of git's verbs, and
"go ahead and" hid the order's verb."""

from __future__ import annotations

from vault_memory.conversation.signals import read_requests


def test_what_was_just_done_to_the_checkout_is_not_kept(judge):
    found, declined = read_requests(
        "for the record, I just stashed everything uncommitted, so my checkout is clean. Go ahead and merge it.",
        judge=judge,
    )
    assert found == []
    assert [n.sentence for n in declined] == [
        "The user just stashed everything uncommitted, so their checkout is clean"
    ]


def test_an_order_to_carry_on_is_not_named_beside_a_kept_fact(judge):
    found, declined = read_requests("remember that my sister lives in Porto. Go ahead and rebase it.", judge=judge)
    assert [s.text for s in found] == ["The user's sister lives in Porto"]
    assert declined == []
