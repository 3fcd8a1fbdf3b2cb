"""A message whose item opens with a dash and holds a word of keeping after a comma ("- la
cuenta, por favor": "cuenta" is one of "ten en cuenta") had crashed the reading of the
whole message: the request was read as said after a lead, and the lead before the dash was
empty (an IndexError). Found with a helper's `list_then_request` set, tested on other words."""

from __future__ import annotations

import pytest

from vault_memory.conversation.request_judge import request_judge
from vault_memory.conversation.signals import read_requests


@pytest.mark.parametrize(
    "said",
    ["— tu cuenta, por favor", "- a nota, por favor", "- buenos días\n- la cuenta, por favor"],
)
def test_an_item_that_opens_with_a_dash_is_read(said):
    assert read_requests(said, judge=request_judge()) is not None
    assert read_requests(said) is not None
