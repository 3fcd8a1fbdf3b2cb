"""A long message is read for its first and last part, and what lies between is named as
not read: the reading is linear, and still a pasted dump held a daemon's thread or an
``ingest`` for seconds (a 4 MB log took 90 s through ``ingest``, 50,000 one-letter lines 14
s, whatever ``seconds`` said: the stages after the sentences ignored the deadline). Found by
an attacker's pass on the request reader. A request before a paste or after it is kept as
before; one inside it is named, never kept silently nor dropped without a word."""

from __future__ import annotations

import vault_memory as vmem
from vault_memory.conversation import signals
from vault_memory.conversation.ingestion import remember_said
from vault_memory.conversation.signals import not_kept_notes, read_requests
from vault_memory.vault.template import create_vault

#: a dump of a table, longer than the reach (about 60,000 characters)
_ROWS = "".join(f"{n},sensor-{n % 17},{20 + n % 9}.{n % 10},ok\n" for n in range(3_000))
#: short lines, more than a message's sentences the rules read, fewer characters than its reach
_LINES = "vale\n" * 2_500


def test_a_request_inside_a_long_paste_is_named_not_read():
    said = _ROWS + "\nremember that my bike is a Brompton\n" + _ROWS
    assert len(said) > getattr(signals, "READ_AT_MOST", 20_000)
    kept, declined = read_requests(said)
    assert not any("Brompton" in k.text for k in kept), kept
    assert any(n.reason.startswith("not read") for n in declined), declined


def test_a_request_after_a_long_paste_is_kept():
    kept, declined = read_requests(_ROWS + "\nremember that my bike is a Brompton")
    assert any("Brompton" in k.text for k in kept), (kept, declined)
    assert any(n.reason.startswith("not read") for n in declined), declined


def test_a_request_before_a_long_list_of_lines_is_kept_and_the_rest_named():
    said = "recuerda que mi bici es una Brompton\n" + _LINES
    assert len(said) < getattr(signals, "READ_AT_MOST", 20_000)  # the lines, not the characters, are past it
    kept, declined = read_requests(said)
    assert any("Brompton" in k.text for k in kept), (kept, declined[:3])
    assert any(n.reason.startswith("not read") for n in declined), declined[:3]


def test_what_is_past_the_reach_is_named_in_text_a_log_can_write():
    said = "lembra que a minha bicicleta é uma Brompton\n" + "x " * 15_000 + "\ud800" + " y" * 15_000
    kept, declined = read_requests(said)
    assert any("Brompton" in k.text for k in kept), (kept, declined)
    for note in not_kept_notes(declined):
        note.encode("utf-8")  # a lone surrogate past the reach would raise here


def test_the_hook_names_a_request_past_the_reach(tmp_path):
    vault = create_vault(tmp_path / "vault", with_examples=False)
    with vmem.open(vault, use_daemon=False) as mem:
        remember_said(mem, _ROWS + "\nremember that my bike is a Brompton\n" + _ROWS)
        texts = [m.text for m in mem.list().memories]
        warnings = list(mem.vault.warnings)
    assert not any("Brompton" in t for t in texts), texts
    assert any("not read" in w for w in warnings), warnings


def test_past_many_requests_not_kept_the_part_not_read_is_still_named():
    said = " ".join(f"lembra de responder o chamado {n}." for n in range(1_200))
    kept, declined = read_requests(said)
    notes = not_kept_notes(declined)
    assert kept == [] and len(notes) <= 8, notes
    assert any("more requests" in n for n in notes) and any("not read" in n for n in notes), notes
