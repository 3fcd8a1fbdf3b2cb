"""A lead or tail that may ask to keep the rest of a message is never cut at an
abbreviation's full stop ("la Dra. Paula Méndez"): the name after it had been read as a
clause that may ask, and the rest cut before it."""

from __future__ import annotations

import pytest

from vault_memory.conversation.request_shapes import may_ask


@pytest.mark.parametrize(
    "said",
    [
        "Mi dentista es la Dra. Paula Méndez y atiende los martes, por si alguna vez te hablo de ella",
        "My physio is Dr. Hannah Lowe and I see her on Fridays, for when I ask you to plan my week",
        "O meu contabilista é o Sr. Abílio Marques, escritório na R. Augusta. Fica a saber.",
    ],
)
def test_no_lead_or_tail_is_cut_at_an_abbreviation(said):
    for part in may_ask(said):
        for piece in (part.clause, part.rest):
            assert not piece.rstrip().endswith(("Dra", "Dr", "Sr", "R")), part
