"""A lead before a colon that says why it asks, or that the user forgets, keeps what follows.

"Toma nota, que luego se me olvida: uso Arch Linux…" kept nothing: the reason after the
request was read as its fact. "ugh I always forget this myself so you hold it: my car is…"
was read as a story of forgetting and dropped without a word. Now, when the judge of asking
reads such a lead as a request, what follows its colon is read as the plainest request of its
language would ask it, and judged as any request is. A story before a colon keeps nothing,
and a lead whose other words say for how long, or of what work, is read as said. Tested on
other words than the sets'."""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import read_requests


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("I never remember this so you keep it: my niece Priya's birthday is June 3", "Priya's birthday is June 3"),
        ("Apúntalo, que siempre se me olvida: calzo un 43 y mi talla de camisa es M", "la talla de camisa del usuario"),
        ("I always lose track of this, so note it: the gutters get cleaned every April", "gutters get cleaned"),
    ],
)
def test_what_follows_the_lead_is_kept_without_the_reason(said, written, judge):
    kept, _ = read_requests(said, judge=judge)
    assert any(written in k.text for k in kept), kept
    assert not any(k.text.casefold().startswith(("siempre", "i never", "i always")) for k in kept), kept


@pytest.mark.parametrize(
    "said",
    [
        "I remember the day we moved: it rained all week",  # a story of remembering
        "for this PR only, since I always forget: the linter runs with --strict",  # the work at hand
        "just for today, I always forget this: I'm on the guest wifi",  # for a while only
        "I never remember this so you keep it: I remember when grandpa took me sailing",  # a story after it
        'I never remember this so you keep it: "my flat is 4B," said my cousin',  # someone's words
        "I never remember this so you keep it: for this chat, I'm using the old laptop",  # for this chat
    ],
)
def test_a_lead_of_another_kind_keeps_nothing(said, judge):
    kept, _ = read_requests(said, judge=judge)
    assert kept == []
