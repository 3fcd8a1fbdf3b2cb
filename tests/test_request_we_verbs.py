"""A fact told with a verb of "we" and no subject, as Spanish and Portuguese speakers tell
it ("alugamos uma casa…", "pagamos la luz…"), is the user's group's, as "we rent…" is: it
had been kept nowhere, and said nothing. A verb of "we" of the talk with the assistant
("lo que hablamos") opens no fact."""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import read_requests


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Alugamos uma casa na Ericeira todo agosto. Anota isso.", "Ericeira"),
        ("pagamos la luz con la tarjeta del Sabadell, apúntalo porfa", "Sabadell"),
        ("Cenamos siempre a las nueve y media. Tenlo en cuenta.", "nueve"),
    ],
)
def test_a_fact_of_we_is_kept(judge, said, kept):
    written = " ".join(s.text for s in read_requests(said, judge=judge)[0])
    assert kept in written, written


@pytest.mark.parametrize(
    ("said", "not_written"),
    [
        ("Acuérdate de lo que hablamos al principio: el parser falla con tildes, arréglalo", "parser"),
        ("Falamos ontem do deploy em staging. Anota isso.", "staging"),
    ],
)
def test_a_verb_of_the_talk_opens_no_fact(judge, said, not_written):
    written = " ".join(s.text for s in read_requests(said, judge=judge)[0])
    assert not_written not in written, written
