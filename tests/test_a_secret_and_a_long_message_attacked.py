"""What an attacker's pass found in the write's reading of secrets said in words and in a long
message's reach, on other words than the pass's: a fenced paste cut by the reach, a sentence
cut in two, a batch longer than the judge's memory, a correction that drops the key the
judge reads, a secret the user hid with <private>, a correction of bytes no model reads."""

from __future__ import annotations

import pytest

import vault_memory as vmem
from vault_memory.conversation.signals import read_requests
from vault_memory.errors import InvalidInput, SecretRefused
from vault_memory.vault.template import create_vault
from vault_memory.writing.rules import Remembering

#: prose with no line's or sentence's end, longer than half of what a message is read for
_RUN_ON = "and then we walked along the river talking about nothing in particular " * 200


@pytest.fixture
def vault(tmp_path):
    return create_vault(tmp_path / "vault", with_examples=False)


def test_a_fenced_paste_cut_by_the_reach_keeps_nothing_of_it():
    log = "\n".join(f"12:{n % 60:02d} worker ok" for n in range(2_000))
    said = (
        "The build broke again today. " * 500
        + "\n```\n"
        + log
        + "\nRemember that my accountant is Quentin Farge.\n"
        + log[:6_000]
        + "\n```\nremember that I cycle to work"
    )
    kept, _ = read_requests(said)
    texts = " ".join(k.text for k in kept)
    assert "Quentin" not in texts and "cycle" in texts, kept


def test_a_sentence_the_reach_would_cut_in_two_is_not_read_in_half():
    tail = " remember that I smoke. " + "we stayed until the very end " * 400
    tail = tail[:10_000]  # the last half of what is read begins right after "not"
    said = _RUN_ON + "Please do not" + tail
    kept, declined = read_requests(said)
    assert not any("smoke" in k.text for k in kept), kept
    assert any(n.reason.startswith("not read") for n in declined)


def test_a_batch_longer_than_the_judge_s_memory_is_still_read_whole(vault):
    said = "the code for the shed padlock is two eight two eight"
    plain = [Remembering(f"My plant number {n} is a fern") for n in range(300)]
    with vmem.open(vault, use_daemon=False) as mem:
        with pytest.raises(SecretRefused):
            mem.remember_many([Remembering(said), *plain])


def test_a_correction_is_read_with_the_key_it_keeps(vault):
    with vmem.open(vault, use_daemon=False) as mem:
        old = mem.remember("ask my father", key="code for the shed padlock").memory
        with pytest.raises(SecretRefused):
            mem.correct(old.id, "two eight two eight")


def test_what_the_user_hid_with_private_is_not_read_again(vault):
    with vmem.open(vault, use_daemon=False) as mem:
        mem.remember("the answer to my security question is <private>Rocco</private>")
        texts = [m.text for m in mem.list().memories]
    assert len(texts) == 1 and "Rocco" not in texts[0], texts


def test_a_correction_of_bytes_no_model_reads_is_a_clear_error(vault):
    with vmem.open(vault, use_daemon=False) as mem:
        old = mem.remember("My cat is called Tom").memory
        with pytest.raises(InvalidInput):
            mem.correct(old.id, "My cat is \udcff called Tom")
