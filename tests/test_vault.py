import datetime as dt
import os
from pathlib import Path

import pytest
from conftest import tree_digest, write

import vault_memory as vmem
from vault_memory import InvalidId, NotFound, VaultNotFound, WriteRefused
from vault_memory.config import locate_vault
from vault_memory.vault.template import create_vault
from vault_memory.vault.vault import Vault

NOW = dt.datetime(2026, 11, 22, 9, 30, tzinfo=dt.timezone(dt.timedelta(hours=1)))


def test_add_get_iterate(empty_vault_dir):
    v = Vault(empty_vault_dir)
    m = v.add("nombre: Lucas", now=NOW)
    assert (m.key, m.text, m.type, m.confidence, m.source) == ("nombre", "Lucas", "fact", "high", "explicit")
    assert m.path == Path("facts") / f"{m.id}.md"
    assert m.id.startswith("2026-11-22-nombre-lucas-")
    assert v.get(m.id).text == "Lucas"
    assert v.get(m.id[:-2], prefix=True).id == m.id  # unique prefix, as a person types it
    with pytest.raises(NotFound):
        v.get(m.id[:-2])  # exact by default
    assert [x.id for x in v] == [m.id]


def test_same_memory_same_instant_never_reuses_an_id(empty_vault_dir):
    v = Vault(empty_vault_dir)
    a = v.add("nombre: Lucas", now=NOW)
    b = v.add("nombre: Lucas", now=NOW)
    assert a.id != b.id and (empty_vault_dir / a.path).read_text() != ""
    assert len(list(v)) == 2


def test_forget_moves_to_trash_and_restore_brings_it_back(empty_vault_dir):
    v = Vault(empty_vault_dir)
    m = v.add("trabajo: Acme", now=NOW)
    before = (empty_vault_dir / m.path).read_bytes()
    entry = v.forget(m.id)
    assert not (empty_vault_dir / m.path).exists()
    assert (v.trash_dir / entry.trashed).read_bytes() == before
    with pytest.raises(NotFound):
        v.get(m.id)
    # a new memory never takes a forgotten id
    again = v.add("trabajo: Acme", now=NOW)
    assert again.id != m.id
    restored = v.restore(m.id)
    assert (empty_vault_dir / restored.path).read_bytes() == before
    with pytest.raises(NotFound):
        v.restore(m.id)


def test_correct_supersedes_and_leaves_old_file_untouched(empty_vault_dir):
    v = Vault(empty_vault_dir)
    old = v.add("trabajo: backend at Acme", domain="work", now=NOW)
    before = (empty_vault_dir / old.path).read_bytes()
    new = (
        vmem.open(v.root, use_daemon=False)
        .correct(old.id, "staff engineer at Acme", now=NOW + dt.timedelta(days=1))
        .memory
    )
    assert new.supersedes == [old.id] and new.key == "trabajo" and new.domain == "work"
    assert (empty_vault_dir / old.path).read_bytes() == before


def test_update_frontmatter_keeps_unknown_keys_and_body(empty_vault_dir):
    v = Vault(empty_vault_dir)
    original = "---\nid: hand-1\nmy_key: {a: 1}\ntype: fact\n---\n\nText  exactly\n\n\n"
    path = write(empty_vault_dir / "facts" / "hand.md", original)
    v.update_frontmatter("hand-1", {"last_confirmed": NOW}, "confirm")
    assert path.read_text() == original.replace(
        "type: fact\n", "type: fact\nlast_confirmed: 2026-11-22T09:30:00+01:00\n"
    )


def test_locate_vault_order(tmp_path, monkeypatch):
    a = create_vault(tmp_path / "a", with_examples=False)
    b = create_vault(tmp_path / "b", with_examples=False)
    (a / "facts" / "deep").mkdir()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("VMEM_VAULT", raising=False)
    assert locate_vault(None, cwd=a / "facts" / "deep") == a
    monkeypatch.setenv("VMEM_VAULT", str(b))
    assert locate_vault(None, cwd=a) == b
    assert locate_vault(a, cwd=tmp_path) == a
    monkeypatch.delenv("VMEM_VAULT")
    with pytest.raises(VaultNotFound) as e:
        locate_vault(None, cwd=tmp_path)
    assert "vmem init" in str(e.value)
    default = create_vault(tmp_path / "xdg" / "vmem" / "vault", with_examples=False)
    assert locate_vault(None, cwd=tmp_path) == default


@pytest.mark.parametrize("bad", ["../etc/passwd", "facts/x", "..", "", "a" * 200])
def test_ids_that_could_escape_are_refused(vault, bad):
    with pytest.raises(InvalidId):
        vault.get(bad)


def test_bad_files_are_reported_and_others_keep_working(vault, vault_dir, tmp_path):
    write(vault_dir / "facts" / "broken.md", "---\nid: [oops\n---\nx\n")
    write(vault_dir / "facts" / "binary.md", b"\x00\x01\x02")
    write(vault_dir / "facts" / "latin1.md", "caf\u00e9\n".encode("latin-1"))
    write(vault_dir / "facts" / "empty.md", "")
    with open(vault_dir / "facts" / "huge.md", "wb") as f:
        f.truncate(50 * 1024 * 1024)
    outside = write(tmp_path / "secret.md", "---\nid: secret-1\n---\nsecret\n")
    os.symlink(outside, vault_dir / "facts" / "link.md")
    write(vault_dir / "facts" / "dup.md", "---\nid: 2026-10-02-allergy-peanuts-4be810\n---\nduplicate\n")
    before = tree_digest(vault_dir)

    result = vault.scan()
    kinds = {p.path: p.kind for p in result.problems}
    assert kinds == {
        "facts/broken.md": "frontmatter",
        "facts/binary.md": "encoding",
        "facts/latin1.md": "encoding",
        "facts/empty.md": "unreadable",
        "facts/huge.md": "too_large",
        "facts/link.md": "outside_vault",
        "facts/dup.md": "duplicate_id",
    }
    assert len(result.memories) == 6  # the template's examples all still work
    assert "secret" not in " ".join(m.text for m in result.memories)
    assert tree_digest(vault_dir) == before


def test_write_never_clobbers(empty_vault_dir):
    v = Vault(empty_vault_dir)
    m = v.add("x: y", now=NOW)
    with pytest.raises(WriteRefused):
        v.write_new(v.get(m.id), relpath=m.path)
