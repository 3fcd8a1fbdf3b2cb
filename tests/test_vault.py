import datetime as dt
import json
import os
import stat
import threading
import time
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


def test_the_trash_lives_in_the_vault_and_survives_losing_vmem(mech_vault):
    import shutil

    mem = vmem.open(mech_vault)
    memory = mem.remember("Prefers window seats").memory
    entry = mem.forget(memory.id)
    assert (mech_vault / ".trash" / entry.trashed).is_file() and not (mech_vault / ".vmem" / "trash").exists()
    shutil.rmtree(mech_vault / ".vmem")
    assert vmem.open(mech_vault).restore(memory.id).text == "Prefers window seats"


def test_a_tampered_trash_record_reaches_nothing_outside_the_trash(mech_vault, tmp_path):
    victim = write(tmp_path / "outside.md", "---\nid: victim\n---\nnot the vault's\n")
    inside = write(mech_vault / "facts" / "keep.md", "---\nid: keep\n---\nstays\n")
    records = [
        {"id": "victim", "original": "facts/victim.md", "trashed": "../../outside.md", "at": "x"},
        {"id": "victim", "original": "facts/victim.md", "trashed": str(victim), "at": "x"},
        {"id": "keep", "original": "facts/moved.md", "trashed": "../facts/keep.md", "at": "x"},
        {"id": "evil", "original": "../../evil.md", "trashed": "evil.md", "at": "x"},
        {"id": "dot", "original": ".vmemignore", "trashed": "dot.md", "at": "x"},
    ]
    write(mech_vault / ".trash" / "evil.md", "---\nid: evil\n---\nx\n")
    write(mech_vault / ".trash" / "dot.md", "*\n")
    write(mech_vault / ".trash" / "vmem-trash.jsonl", "".join(json.dumps(r) + "\n" for r in records))
    mem = vmem.open(mech_vault)
    for ref in ("victim", "keep", "evil", "dot"):
        with pytest.raises(vmem.NotFound):
            mem.restore(ref)
    assert victim.is_file() and inside.is_file() and not (tmp_path.parent / "evil.md").exists()
    assert not (mech_vault / ".vmemignore").exists()


def test_import_without_ids_keeps_every_record_and_lookups_are_exact(mech_vault):
    lines = [json.dumps({"text": f"Imported fact number {i}", "type": "fact"}) for i in range(3)]
    mem = vmem.open(mech_vault)
    report = mem.import_(lines)
    assert report.counts["added"] == 3 and len({r["id"] for r in report.records}) == 3
    ids = [r["id"] for r in report.records]
    prefix_record = json.dumps({"id": ids[0][:-3], "text": "a different memory"})
    assert mem.import_([prefix_record]).counts["added"] == 1  # a prefix of an id is another id


def test_an_import_reads_the_vault_once_whatever_its_size(mech_vault, monkeypatch):
    """Each record asked for its id among every file (a whole read of the vault a record:
    154 ms a record at 1,000, 3,000 unfinished after 10 minutes). Now the vault is read
    once; a record repeated in the file, or already in the vault or its trash, is still seen."""
    from vault_memory.vault.vault import Vault

    mem = vmem.open(mech_vault)
    kept = mem.remember("The user's locker is number 4312").memory
    forgotten = mem.remember("The user's old locker was number 1111").memory
    mem.forget(forgotten.id)
    reads = []
    real_scan = Vault.scan
    monkeypatch.setattr(Vault, "scan", lambda self: reads.append(1) or real_scan(self))
    records = [{"id": f"rec-{i}", "type": "fact", "text": f"Imported fact {i}"} for i in range(40)]
    records += [records[3], {**records[4], "text": "another text"}, kept.to_dict(), {**forgotten.to_dict()}]
    seen = []
    report = mem.import_([json.dumps(r) for r in records], progress=lambda stage, done, total: seen.append(done))
    assert len(reads) == 1
    assert report.counts == {"added": 41, "unchanged": 2, "conflict": 1, "error": 0}
    assert report.records[-1]["id"] == f"{forgotten.id}-2"  # a forgotten id is never reused
    assert seen[-1] == len(records) == 44


def test_import_writes_memory_files_only_where_vmem_names_them(mech_vault):
    records = [
        {"id": "ign", "path": ".vmemignore", "text": "*"},
        {"id": "cfg", "path": "vmem.toml", "text": "[recall]\nbudget = 7"},
        {"id": "deep", "path": "facts/" + "x" * 300 + ".md", "text": "an over-long path"},
        {"id": "big", "text": "y" * 2_000_000},
        {"id": "fine", "path": "../../escape.md", "text": "a fine memory"},
    ]
    mem = vmem.open(mech_vault)
    report = mem.import_([json.dumps(r) for r in records])
    assert report.counts == {"added": 4, "unchanged": 0, "conflict": 0, "error": 1}
    assert "over the" in next(r["error"] for r in report.records if r["status"] == "error")
    assert not (mech_vault / ".vmemignore").exists() and "budget = 7" not in (mech_vault / "vmem.toml").read_text()
    written = {p.relative_to(mech_vault).as_posix() for p in mech_vault.rglob("*.md") if p.name != "README.md"}
    assert written == {"notes/ign.md", "notes/cfg.md", "notes/deep.md", "notes/fine.md"}  # no type: a note
    assert len(mem.list()) == 4 and mem.doctor().checked == 4


def test_confirm_never_loses_a_concurrent_append(mech_vault):
    path = write(mech_vault / "facts" / "log.md", "---\nid: log\n---\nLines:\n")
    mem = vmem.open(mech_vault)
    stop = threading.Event()

    def editor():
        for i in range(200):
            with open(path, "a", encoding="utf-8") as f:
                f.write(f"line {i}\n")
            time.sleep(0.0005)
        stop.set()

    thread = threading.Thread(target=editor)
    thread.start()
    while not stop.is_set():
        mem.confirm("log")
    thread.join()
    body = path.read_text()
    assert [i for i in range(200) if f"line {i}\n" not in body] == []
    assert "last_confirmed:" not in body  # confirming never writes the memory's file: nothing to lose
    assert mem.list().memories[0].last_confirmed is not None  # the journal says when


def test_a_frontmatter_edit_edits_a_symlink_target_and_keeps_mode_and_links(mech_vault):
    target = write(mech_vault / "facts" / "real.md", "---\nid: real\n---\nThe real file\n")
    os.chmod(target, 0o644)
    (mech_vault / "notes").mkdir(exist_ok=True)
    os.symlink(target, mech_vault / "notes" / "link.md")
    os.link(target, mech_vault / "facts" / "hard.md.bak")
    write(mech_vault / ".vmemignore", "notes/\n")
    Vault(mech_vault).update_frontmatter("real", {"last_confirmed": NOW}, "vmem: test")  # as --both-true edits
    assert (mech_vault / "notes" / "link.md").is_symlink()
    assert stat.S_IMODE(target.stat().st_mode) == 0o644 and target.stat().st_nlink == 2
    assert "last_confirmed" in (mech_vault / "facts" / "hard.md.bak").read_text()


@pytest.mark.parametrize(
    "frontmatter",
    [
        "id: c1\n  # an indented comment\nlast_confirmed: 2020-01-01\n",
        "id: c1\nlast_confirmed: 2020-01-01\n    # odd indentation\ntags:\n  - a\n  # inside a list\n  - b\n",
        "# leading comment\nid: c1\nnote: |\n  a block\n  scalar\n",
    ],
)
@pytest.mark.parametrize("newline,bom", [("\n", ""), ("\r\n", ""), ("\n", "\ufeff")])
def test_a_single_key_edit_changes_that_line_and_nothing_else(mech_vault, frontmatter, newline, bom):
    text = bom + ("---\n" + frontmatter + "---\nBody text\n").replace("\n", newline)
    path = mech_vault / "facts" / "c1.md"
    path.write_bytes(text.encode("utf-8"))
    Vault(mech_vault).update_frontmatter("c1", {"last_confirmed": NOW}, "vmem: test")  # as --both-true edits
    after = path.read_bytes().decode("utf-8")
    old_lines, new_lines = text.split(newline), after.split(newline)
    changed = [line for line in new_lines if line not in old_lines]
    assert len(changed) == 1 and changed[0].startswith("last_confirmed: ")
    assert [line for line in old_lines if line not in new_lines] in ([], ["last_confirmed: 2020-01-01"])
    assert after.startswith(bom + "---") and after.count("\r\n") == (after.count("\n") if newline == "\r\n" else 0)


def test_reconfirming_leaves_a_hand_written_file_without_id_alone(mech_vault):
    path = write(mech_vault / "notes" / "mine.md", "---\ntype: fact\n---\nThe user writes by hand\n")
    memory = vmem.open(mech_vault).confirm("mine", prefix=True)
    assert "id:" not in path.read_text() and memory.id_derived


def test_new_memory_files_are_the_owners_alone_and_reconfirming_is_not_a_rewrite(mech_vault):
    """Memory files were written 0644 (the umask's) in a 0755 vault: every user of the
    machine could read them. New ones are 0600; a file vmem edits keeps the mode its owner
    gave it."""
    mem = vmem.open(mech_vault)
    memory = mem.remember("Prefers green tea", now=NOW).memory
    path = mech_vault / memory.file
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    written, mtime = path.read_bytes(), path.stat().st_mtime_ns
    assert mem.remember("prefers green tea", now=NOW + dt.timedelta(hours=3)).status == "reconfirmed"
    assert path.read_bytes() == written  # said again the same day: the file is left alone
    later = NOW + dt.timedelta(days=3)
    assert mem.remember("Prefers green tea.", now=later).status == "reconfirmed"
    assert path.read_bytes() == written  # a day later too: the time goes to the confirmation journal
    assert path.stat().st_mtime_ns == mtime
    assert mem.list().memories[0].last_confirmed == later
    path.chmod(0o640)  # the owner's choice
    mem.confirm(memory.id)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_killed_write_leaves_no_temp_file_behind(mech_vault):
    stale = write(mech_vault / "facts" / ".x.md.abc123.tmp-vmem", "half a write")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    vmem.open(mech_vault).remember("Something new")
    assert not stale.exists()
    assert tree_digest(mech_vault)  # the vault is still readable


def test_a_file_whose_name_is_not_utf8_is_reported_and_the_rest_works(mech_vault):
    """`printf ... > $'facts/\\xff.md'` made doctor, sync, list and recall exit 2
    ("surrogates not allowed"). It is one broken file now, named with its byte escaped."""
    import os

    from vault_memory.vault.doctor import check_blobs

    (mech_vault / "facts").mkdir(exist_ok=True)
    with open(os.fsencode(mech_vault / "facts") + b"/\xff.md", "wb") as f:
        f.write(b"---\ntype: fact\n---\nx\n")
    write(mech_vault / "facts" / "ok.md", "---\ntype: fact\n---\nThe user likes green tea\n")
    mem = vmem.open(mech_vault, use_daemon=False)
    recalled = mem.recall("green tea")  # syncs first: the broken file is skipped, and said so
    assert [h.memory.text for h in recalled.hits] == ["The user likes green tea"]
    assert any("facts/\\xff.md" in w for w in recalled.warnings)
    listing = mem.list()
    assert [m.text for m in listing] == ["The user likes green tea"]
    assert [(p.path, p.kind) for p in listing.problems] == [("facts/\\xff.md", "encoding")]
    assert [p.path for p in mem.doctor().problems] == ["facts/\\xff.md"]
    _, staged = check_blobs(mem.vault, {os.fsdecode(b"facts/\xfe.md"): b"x", "facts/fine.md": b"fine\n"})
    assert [p.path for p in staged] == ["facts/\\xfe.md"]


def test_restore_refuses_a_trashed_link_that_leads_outside_before_moving_it(mech_vault, tmp_path):
    secret = write(tmp_path / "secret.md", "not the vault's\n")
    trash = mech_vault / ".trash"
    trash.mkdir()
    (trash / "x.md").symlink_to(secret)
    record = {"id": "sneaky", "original": "facts/sneaky.md", "trashed": "x.md", "at": "2026"}
    (trash / "vmem-trash.jsonl").write_text(json.dumps(record) + "\n")
    with pytest.raises(vmem.VaultError):  # a link is no forgotten file: no record of one names it
        vmem.open(mech_vault).restore("sneaky")
    assert not (mech_vault / "facts" / "sneaky.md").exists() and (trash / "x.md").is_symlink()


def test_gc_archives_the_rest_when_one_memory_collides(mech_vault):
    mem = vmem.open(mech_vault)
    old = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
    first = mem.remember("Went to the dentist", type="episode", now=old).memory
    second = mem.remember("Fixed the bike", type="episode", now=old).memory
    write(mech_vault / "archive" / first.file, "someone's own file\n")  # archive/ already holds that name
    moved = mem.gc(as_of=dt.datetime(2026, 11, 23, tzinfo=dt.UTC))
    assert [a.memory.id for a in moved] == [second.id]
    assert any(first.id in w for w in mem.warnings)


def test_a_sync_sweeps_stale_temp_files_wherever_they_were_left(mech_vault):
    """Killed writes' temp files were swept only from the folder the next remember wrote to;
    one left anywhere else stayed for ever. A sync now sweeps every folder (after a minute)."""
    write(mech_vault / "notes" / "deep" / "n.md", "---\nid: n\n---\nA note\n")
    stale = write(mech_vault / "notes" / "deep" / ".n.md.abc123.tmp-vmem", "half a write")
    fresh = write(mech_vault / "facts" / ".f.md.def456.tmp-vmem", "a write under way")
    old = time.time() - 120
    os.utime(stale, (old, old))
    vmem.open(mech_vault, use_daemon=False).sync()
    assert not stale.exists() and fresh.exists()  # a temp younger than a minute may be a live write


def test_a_confirmation_in_the_journal_is_what_decay_reads(mech_vault):
    """A stale fact confirmed now is fresh again for list, recall and gc, though its file
    still says it was written two years ago; a hand-written last_confirmed keeps working."""
    old = "---\nid: tea\ntype: fact\ncreated: 2024-01-01T10:00:00+00:00\n---\nThe user drinks rooibos tea\n"
    path = write(mech_vault / "facts" / "tea.md", old)
    mem = vmem.open(mech_vault, use_daemon=False)
    now = dt.datetime.now().astimezone()
    assert mem.list().states["tea"] == "stale"
    assert [h.memory.id for h in mem.recall("rooibos tea").hits] == []
    mem.confirm("tea")
    assert path.read_text() == old
    assert mem.list().states["tea"] == "active"
    assert [h.memory.id for h in mem.recall("rooibos tea").hits] == ["tea"]
    write(mech_vault / "facts" / "cocoa.md", f"---\nid: cocoa\ntype: fact\ncreated: 2024-01-01T10:00:00+00:00\n"
          f"last_confirmed: {now.isoformat()}\n---\nThe user drinks cocoa\n")  # fmt: skip
    assert mem.list().states["cocoa"] == "active"
    write(mech_vault / "confirmations" / "broken.jsonl", "not json\n")
    assert any(p.kind == "confirmations" for p in mem.doctor().problems)


@pytest.mark.parametrize(
    "value",
    ["2026-02-30", "2026-01-01T25:00:00", "0000-01-01", "2026-01-01T10:00:00+24:00", "2026-01-01T10:00:00-25:30"],
)
@pytest.mark.parametrize("key", ["expires", "created", "last_confirmed", "my_own_date"])
def test_an_impossible_date_is_one_broken_file_not_a_broken_vault(mech_vault, value, key):
    """`expires: 2026-02-30` (hour 25, year 0000, an offset of a day) in any key made recall,
    remember, list and doctor exit with "day is out of range for month" and no file name."""
    write(mech_vault / "facts" / "bad.md", f"---\nid: bad\ntype: fact\n{key}: {value}\n---\nThe user likes tea\n")
    write(mech_vault / "facts" / "good.md", "---\nid: good\ntype: fact\n---\nThe user likes coffee\n")
    mem = vmem.open(mech_vault, use_daemon=False)
    assert [m.id for m in mem.list()] == ["good"]
    [problem] = mem.doctor().problems
    assert problem.path == "facts/bad.md" and problem.line == 4 and value in problem.message
    assert [h.memory.id for h in mem.recall("coffee").hits] == ["good"]
    assert mem.remember("The user likes cocoa").status == "created"


def test_a_fifo_named_like_a_memory_is_skipped_not_waited_on(mech_vault):
    """`mkfifo facts/pipe.md` held every sync, and the index's write lock, for ever; only
    regular files are read, checked on the opened descriptor."""
    write(mech_vault / "facts" / "good.md", "---\nid: good\ntype: fact\n---\nThe user likes coffee\n")
    os.mkfifo(mech_vault / "facts" / "pipe.md")
    done: dict = {}

    def work():
        mem = vmem.open(mech_vault, use_daemon=False)
        done["ids"] = [h.memory.id for h in mem.recall("coffee").hits]
        done["problems"] = [(p.path, p.message) for p in mem.doctor().problems]

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    thread.join(60)
    assert not thread.is_alive(), "a read of the FIFO blocked"
    assert done["ids"] == ["good"]
    assert any(path == "facts/pipe.md" and "FIFO" in message for path, message in done["problems"])


def test_obsidians_template_folder_is_not_memories_and_a_template_says_what_it_is(mech_vault):
    """An Obsidian `Templates/` note with `{{date}}` was read as a broken memory ("found
    unhashable key"): doctor failed for ever and the pre-commit hook blocked commits."""
    template = "---\ncreated: {{date}}\ntags: [daily]\n---\n# {{title}}\n"
    write(mech_vault / "Plantillas" / "daily.md", template)  # not the default Templates/ folder
    mem = vmem.open(mech_vault, use_daemon=False)
    [problem] = mem.doctor().problems
    assert "placeholders" in problem.message and "Templates setting" in problem.message
    write(mech_vault / ".obsidian" / "templates.json", '{"folder": "Plantillas"}')
    mem = vmem.open(mech_vault, use_daemon=False)
    assert mem.doctor().ok and mem.doctor().checked == 0
    assert mem.check_files({"Plantillas/daily.md": template.encode()}) == (0, [])


def test_a_new_vault_is_its_owners_alone_and_doctor_says_when_one_is_not(tmp_path):
    """`vmem init` made the vault 0755; now 0700, as ~/.ssh is. An existing vault keeps its
    modes, and doctor says when other users can read it (a note, not a problem)."""
    fresh = vmem.init(tmp_path / "fresh", examples=False)
    assert stat.S_IMODE(fresh.root.stat().st_mode) == 0o700
    assert fresh.doctor().notes == [] and fresh.doctor().ok
    fresh.root.chmod(0o755)
    checkup = vmem.open(fresh.root).doctor()
    assert checkup.ok and len(checkup.notes) == 1 and "chmod 700" in checkup.notes[0]


def test_files_written_together_are_whole_and_flushed_even_when_the_batch_fails(vault):
    """A batch's new files skip their own fsyncs and reach the disk with one flush at the
    end; a batch that fails half-way still flushes what it wrote, each file whole, and a
    batch inside another is part of it."""
    with pytest.raises(RuntimeError):
        with vault.flushed_together():
            first = vault.add("My sister is called Ana")
            with vault.flushed_together():
                second = vault.add("My bike is a green Brompton")
            raise RuntimeError("stopped half-way")
    again = Vault(vault.root)
    assert again.get(first.id).text == "My sister is called Ana"
    assert again.get(second.id).text == "My bike is a green Brompton"
    assert stat.S_IMODE((vault.root / first.path).stat().st_mode) == 0o600
    third = vault.add("I play the cello")  # outside a batch: its own fsyncs, as ever
    assert Vault(vault.root).get(third.id).text == "I play the cello"
