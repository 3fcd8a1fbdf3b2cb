"""After a request that carries what it keeps ("Apúntalo", "Anota isso"), a "que" that
speaks to the assistant says why, as "porque" does ("…que te voy a pedir una lista"): it
had been written as the fact, and the fact before it lost."""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import read_requests


@pytest.mark.parametrize(
    ("said", "kept", "not_written"),
    [
        ("Tengo un huerto en Alcalá. Apúntalo que te voy a preguntar por riegos.", "huerto", "riegos"),
        ("Faço natação às terças. Anota isso que depois te peço um plano de treino.", "natação", "plano"),
    ],
)
def test_a_que_that_says_why_to_the_assistant_is_no_fact(judge, said, kept, not_written):
    """ "Apúntalo que te voy a…": after a request that carries what it keeps, a "que" that
    speaks to the assistant says why, as "porque" does; the fact before it is kept."""
    written = " ".join(s.text for s in read_requests(said, judge=judge)[0])
    assert kept in written and not_written not in written, written
