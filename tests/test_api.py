"""The façade: the README's example as written, the verbs' defaults, one error tree."""

from __future__ import annotations

import json
import re
import socket
import threading
from pathlib import Path

import pytest
from conftest import write

import vault_memory
import vault_memory as vmem
from vault_memory import DaemonError, VaultError
from vault_memory.config import StateLayout

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def readme_python_example() -> str:
    """The first Python block of the README that opens a vault."""
    for block in re.findall(r"```python\n(.*?)```", README, flags=re.S):
        if "vmem.open(" in block:
            return block
    raise AssertionError("the README has no Python example that opens a vault")


def test_the_readme_example_runs_as_written(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(Path.home() / ".cache"))  # keep the assembled model where it was
    monkeypatch.delenv("VMEM_VAULT", raising=False)
    monkeypatch.delenv("VMEM_LLM_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "session.jsonl").write_text('{"role": "user", "content": "Remember that my sister is called Ana"}\n')
    vmem.init(tmp_path / "memory", examples=False)
    exec(compile(readme_python_example(), "README.md", "exec"), {})
    block = capsys.readouterr().out
    assert block.startswith('<memory source="vmem">') and "nombre: Lucas" in block
    with vmem.open(tmp_path / "memory") as mem:  # the example's ingest wrote the conversation's fact
        assert "The user's sister is called Ana" in [m.text for m in mem.list()]


def test_the_public_surface_is_the_facade_types_and_errors():
    for name in vault_memory.__all__:
        assert getattr(vault_memory, name) is not None, name
    assert "Vault" not in vault_memory.__all__  # a bare file write skips the write rules
    errors = [getattr(vault_memory, n) for n in vault_memory.__all__ if n.endswith(("Error", "Found", "Stale"))]
    assert all(issubclass(e, VaultError) for e in errors)


def test_recall_defaults_come_from_vmem_toml(vault_dir, embedder):
    for i, drink in enumerate(["espresso", "flat white", "cold brew", "cortado", "filter"]):
        write(vault_dir / "facts" / f"coffee-{i}.md", f"---\nid: coffee-{i}\n---\nThe user drinks {drink} coffee\n")
    query = "what coffee does the user drink?"
    assert len(vmem.open(vault_dir, embedder=embedder).recall(query, include_pinned=False).hits) >= 3
    toml = vault_dir / "vmem.toml"
    toml.write_text(toml.read_text().replace("budget = 400", "budget = 90").replace("k = 10", "k = 1"))
    with vmem.open(vault_dir, embedder=embedder) as mem:
        result = mem.recall(query, include_pinned=False)
        assert len(result.hits) == 1 and result.budget == 90 and result.block
        assert len(mem.recall(query, k=3, include_pinned=False).hits) == 3


def test_remember_applies_the_write_rules(vault_dir, embedder):
    with vmem.open(vault_dir, embedder=embedder) as mem:
        first = mem.remember("Prefers aisle seats on short flights")
        again = mem.remember("prefers aisle seats on short flights!")
        assert (first.status, again.status) == ("created", "reconfirmed") and again.memory.id == first.memory.id
        moved = mem.remember("ubicacion: Porto")
        assert moved.status == "created"
        newer = mem.remember("ubicacion: Lisboa")
        assert newer.status == "superseded" and [m.id for m in newer.previous] == [moved.memory.id]
        assert [m.id for m in mem.history(moved.memory.id).chain] == [moved.memory.id, newer.memory.id]
        assert mem.list(key="ubicacion").states == {moved.memory.id: "superseded", newer.memory.id: "active"}
        with pytest.raises(ValueError):
            mem.remember("x", type="bogus")


def test_a_fact_about_the_user_is_not_swallowed_by_one_about_their_son(empty_vault_dir, embedder):
    """ "I am allergic to peanuts" is 0.88 from "My son is allergic to peanuts" and adds no
    content word ("son" is a Spanish stop word): it was reconfirmed as the son's allergy and
    the user's own was never written. And "I'm" counted as a word of its own, so "I'm
    allergic to peanuts." was written beside "I am allergic to peanuts"."""
    with vmem.open(empty_vault_dir, embedder=embedder) as mem:
        son = mem.remember("My son is allergic to peanuts")
        mine = mem.remember("I am allergic to peanuts")
        assert (son.status, mine.status) == ("created", "created")
        assert mem.remember("I'm allergic to peanuts.").memory.id == mine.memory.id  # reconfirmed
        assert mem.remember("The user's son is allergic to peanuts").memory.id == son.memory.id
        assert len(mem.list().memories) == 2


def test_one_fact_said_in_the_first_person_and_in_the_third_is_known_once(vault_dir, embedder):
    """`vmem remember "I am allergic to peanuts"` wrote a second file beside the example's
    "health: User is allergic to peanuts." (0.77 as written: the person moves the vector),
    and a fact the prompt hook or an ingest writes in the third person beside one the user
    typed in the first. Both are compared as facts about the user now."""
    with vmem.open(vault_dir, embedder=embedder) as mem:
        assert mem.remember("I am allergic to peanuts").memory.id == "2026-10-02-allergy-peanuts-4be810"
        lisbon = mem.remember("I live in Lisbon with my partner")
        assert mem.remember("The user lives in Lisbon with their partner").memory.id == lisbon.memory.id
        veggie = mem.remember("Soy vegetariana desde 2019")
        assert mem.remember("La usuaria es vegetariana desde 2019").memory.id == veggie.memory.id
        assert mem.remember("My sister lives in Lisbon").status == "created"  # someone else's
        # the prompt hook keys "remember that I'm allergic to peanuts" "allergies": a word
        # its text says, that the example's "health" key lacks
        [hook] = mem.remember_many([vmem.Remembering("The user is allergic to peanuts", key="allergies")])
        assert (hook.status, hook.memory.id) == ("reconfirmed", "2026-10-02-allergy-peanuts-4be810")
        friend = mem.remember("Ana lives in Lima")
        assert mem.remember("Ana lives in Lima", key="sister").memory.id != friend.memory.id  # the key says whose


def test_every_verb_is_on_the_facade(vault_dir, embedder, tmp_path):
    with vmem.open(vault_dir, embedder=embedder) as mem:
        peanuts = "2026-10-02-allergy-peanuts-4be810"
        assert mem.show(peanuts[:14], prefix=True).id == peanuts
        with pytest.raises(vmem.NotFound):
            mem.show(peanuts[:14])  # exact unless a person typed it
        assert mem.confirm(peanuts).last_confirmed is not None
        lines, problems = mem.export()
        assert len(lines) == 6 and problems == []
        fixed = mem.correct(peanuts, "Allergic to peanuts and cashews").memory
        assert fixed.supersedes == [peanuts]
        entry = mem.forget(fixed.id)
        assert mem.restore(entry.id).id == fixed.id
        assert mem.doctor().ok
        assert mem.stats()["memories"] == 7
        report, by = mem.sync()
        assert by == "in-process" and report.unchanged == 7
        other = vmem.init(tmp_path / "copy", examples=False)
        assert other.import_(lines).counts["added"] == 6
        assert [a.reason for a in mem.gc(dry_run=True, as_of=vmem_date("2027-06-01"))] == ["expired", "expired"]
        assert mem.daemon("status")["running"] is False


def vmem_date(text: str):
    from vault_memory.api import parse_moment

    return parse_moment(text)


def test_open_finds_the_vault_like_the_cli(vault_dir, monkeypatch):
    monkeypatch.setenv("VMEM_VAULT", str(vault_dir))
    assert vmem.open().root == vault_dir
    monkeypatch.delenv("VMEM_VAULT")
    monkeypatch.chdir(vault_dir / "facts")
    assert vmem.open().root == vault_dir
    with pytest.raises(vmem.VaultNotFound):
        vmem.open(vault_dir / "nowhere")


def test_a_truncated_daemon_answer_is_a_daemon_error(vault_dir):
    """A daemon that dies mid-answer must not leak a JSONDecodeError to the caller."""
    state = vault_dir / ".vmem"
    state.mkdir(exist_ok=True)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(state / "daemon.sock"))
    server.listen(1)

    def answer_half() -> None:
        conn, _ = server.accept()
        conn.recv(1 << 16)
        conn.sendall(json.dumps({"ok": True, "result": {"hits": []}}).encode()[:20])
        conn.close()

    threading.Thread(target=answer_half, daemon=True).start()
    try:
        with pytest.raises(DaemonError, match="cut short"):
            vmem.open(vault_dir).recall("peanuts")
    finally:
        server.close()


def test_a_missing_index_is_an_index_error_not_a_file_error(vault_dir):
    from vault_memory.index.generations import IndexLayout
    from vault_memory.index.snapshot import Snapshot

    with pytest.raises(vmem.IndexUnavailable, match="vmem sync"):
        Snapshot(IndexLayout(StateLayout.of(vault_dir)))


def test_import_and_export_lines(vault_dir, tmp_path):
    mem = vmem.open(vault_dir)
    lines, _ = mem.export()
    target = vmem.init(tmp_path / "other", examples=False)
    report = target.import_([*lines, "not json", "[1]"], source="dump.jsonl")
    assert report.counts == {"added": 6, "unchanged": 0, "conflict": 0, "error": 2} and not report.ok
    assert [r["error"].split(":")[:2] for r in report.records if r["status"] == "error"] == [
        ["dump.jsonl", "7"],
        ["dump.jsonl", "8"],
    ]
