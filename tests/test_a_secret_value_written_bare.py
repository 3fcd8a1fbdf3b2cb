"""A secret's value said after a colon and before a sentence's mark ("remember my PIN:
4821!") is never written as a bare fact: the reader kept "4821" and checked it against the
value the rules found, "4821!", so the bare value passed, and the write, which finds no
secret in "4821" alone, wrote it (through the prompt hook, into the file's name too). A
value the fact writes with a capital ("sunflower" → "Sunflower") passed the same way.
Found by an attacker's pass on the request reader; tested here on other words."""

from __future__ import annotations

import pytest

import vault_memory as vmem
from vault_memory.conversation.ingestion import remember_said
from vault_memory.conversation.signals import read_requests
from vault_memory.vault.template import create_vault


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("remember my alarm code: 7733!", "7733"),
        ("save the garage password: tulipfield.", "tulipfield"),
        ("recuerda mi pin: 9051!", "9051"),
        ("lembra a senha do tablet: Jabuti2020.", "Jabuti2020"),
        ("note the locker password: marigold", "marigold"),
    ],
)
def test_a_secret_s_value_is_not_kept_bare(said, value):
    kept, declined = read_requests(said)
    assert not any(value.casefold() in k.text.casefold() for k in kept), kept
    assert any("password or a code" in n.reason for n in declined), declined


def test_the_prompt_hook_writes_no_file_of_it(tmp_path):
    vault = create_vault(tmp_path / "vault", with_examples=False)
    with vmem.open(vault, use_daemon=False) as mem:
        remember_said(mem, "remember my alarm code: 7733!")
        listed = mem.list().memories
    assert listed == []
    assert not any("7733" in p.name for p in vault.rglob("*.md"))


def test_a_harmless_fact_said_beside_it_is_kept():
    kept, _ = read_requests("remember my alarm code: 7733! My bank is Nubank, remember that too")
    text = " ".join(k.text for k in kept)
    assert "Nubank" in text and "7733" not in text, kept
