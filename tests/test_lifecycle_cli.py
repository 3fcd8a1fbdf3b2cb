"""The lifecycle as a user meets it: through the CLI, on a real vault and index."""

import json

import pytest
from conftest import Cli, write

import vault_memory as vmem
from vault_memory.vault.template import create_vault


def test_expired_fact_is_absent_unless_included(cli, vault_dir):
    write(
        vault_dir / "facts" / "hotel.md",
        "---\nid: hotel-1\ntype: fact\nexpires: 2026-11-01\n---\nStaying at Hotel Lisboa in Alfama\n",
    )
    before = cli.json("recall", "where is the user staying?", "--as-of", "2026-10-30")
    assert "hotel-1" in [r["id"] for r in before["results"]]
    after = cli.json("recall", "where is the user staying?", "--as-of", "2026-11-05")
    assert "hotel-1" not in [r["id"] for r in after["results"]]
    included = cli.json("recall", "where is the user staying?", "--as-of", "2026-11-05", "--include-expired")
    assert "hotel-1" in [r["id"] for r in included["results"]]


def test_correct_recalls_only_the_new_text_and_keeps_the_old_file(cli, vault_dir):
    old = "2026-09-14-trabajo-backend-engineer-at-acme-7c21e0"
    path = vault_dir / "facts" / f"{old}.md"
    before = path.read_bytes()
    new = cli("correct", old, "Staff engineer at Globex").stdout.strip()
    block = cli("recall", "where does the user work?").stdout
    assert "Staff engineer at Globex" in block and "Backend engineer at Acme" not in block
    assert path.read_bytes() == before
    chain = cli.json("history", new)
    assert [m["id"] for m in chain] == [old, new]
    assert "(current)" in cli("history", old).stdout


def test_remembering_twice_reconfirms_instead_of_duplicating(cli, vault_dir):
    first = cli.json("remember", "Prefers window seats on long flights")
    files = sorted(vault_dir.rglob("*.md"))
    second = cli("remember", "prefers window seats on long flights!", "--json")
    data = json.loads(second.stdout)
    assert data["status"] == "reconfirmed" and data["id"] == first["id"]
    assert sorted(vault_dir.rglob("*.md")) == files  # no new file
    assert "last_confirmed:" not in (vault_dir / first["path"]).read_text()  # said again the same day: left alone
    plain = cli("remember", "Prefers window seats on long flights")
    assert plain.stdout.strip() == first["id"] and "reconfirmed" in plain.stderr
    paraphrase = cli.json("remember", "The user prefers window seats on long flights")
    assert paraphrase["status"] == "reconfirmed" and paraphrase["similarity"] >= 0.85
    different = cli.json("remember", "Prefers aisle seats on long flights")
    assert different["status"] == "created"
    forced = cli.json("remember", "Prefers window seats on long flights", "--new")
    assert forced["status"] == "created" and forced["id"] != first["id"]


def test_single_valued_key_supersedes_the_old_value(cli):
    out = cli.json("remember", "nombre: Luciano")
    assert out["status"] == "superseded" and out["previous"] == ["2026-09-14-nombre-lucas-a1f3c9"]
    block = cli("recall", "what is the user's name?").stdout
    assert "nombre: Luciano" in block and "nombre: Lucas" not in block
    multi = cli.json("remember", "hobby: climbing")
    again = cli.json("remember", "hobby: chess")
    assert multi["status"] == again["status"] == "created"  # not single-valued: both stand


def test_persona_memories_only_with_their_persona(cli):
    cli("remember", "Practises the subjunctive with flashcards", "--persona", "tutor")
    assert "flashcards" not in cli("recall", "how does the user practise?").stdout
    assert "flashcards" in cli("recall", "how does the user practise?", "--persona", "tutor").stdout
    assert "flashcards" not in cli("recall", "how does the user practise?", "--persona", "coach").stdout


def test_persona_cap_archives_the_least_important(tmp_path):
    vault_dir = create_vault(tmp_path / "v", with_examples=False)
    toml = vault_dir / "vmem.toml"
    toml.write_text(toml.read_text().replace("# persona_cap = 20", "persona_cap = 3"))
    cli = Cli(vault_dir)
    cli("remember", "We talked about the weather", "--persona", "coach")
    for text in ["Su perro se llama Max", "Lives in Porto", "Loves jazz"]:
        cli("remember", text, "--persona", "coach")
    listed = {m["text"]: m["path"] for m in cli.json("list")}
    assert listed["We talked about the weather"].startswith("archive/")
    assert not listed["Su perro se llama Max"].startswith("archive/")


def test_gc_moves_expired_to_archive_and_list_still_finds_it(cli, vault_dir):
    episode = "2026-11-03-postgres-migration-incident-93a7d4"
    dry = cli("gc", "--dry-run", "--as-of", "2026-12-10")
    assert dry.exit_code == 0 and "would move episodes/" in dry.stdout
    assert (vault_dir / "episodes" / f"{episode}.md").exists()
    moved = cli.json("gc", "--as-of", "2026-12-10", "--later")  # a later day acts only when asked to
    assert [m["id"] for m in moved["moved"]] == [episode]
    assert (vault_dir / "archive" / "episodes" / f"{episode}.md").exists()
    listed = {m["id"]: m for m in cli.json("list")}
    assert listed[episode]["path"] == f"archive/episodes/{episode}.md" and listed[episode]["state"] == "archived"
    assert cli.json("show", episode)["text"].startswith("Spent the afternoon")
    assert episode not in [r["id"] for r in cli.json("recall", "postgres migration lock")["results"]]
    assert episode in [
        r["id"]
        for r in cli.json("recall", "postgres migration lock", "--include-archived", "--include-expired")["results"]
    ]


def test_confirm_leaves_the_memory_file_as_it_is_and_journals_the_time(cli, vault_dir):
    """Confirming rewrote the file's last_confirmed: a concurrent edit could be lost, and two
    machines confirming one memory made a git conflict in a file the user never touched."""
    mid = "2026-10-20-prefers-short-answers-0d9e52"
    path = vault_dir / "facts" / f"{mid}.md"
    before, mtime = path.read_bytes(), path.stat().st_mtime_ns
    done = cli("confirm", mid, "--json")
    assert done.exit_code == 0 and json.loads(done.stdout)["last_confirmed"]
    assert path.read_bytes() == before and path.stat().st_mtime_ns == mtime
    [journal] = (vault_dir / "confirmations").glob("*.jsonl")
    assert json.loads(journal.read_text().splitlines()[-1])["id"] == mid


def test_stats_counts_states_and_block_size(cli, vault_dir):
    cli("remember", "Practises with flashcards", "--persona", "tutor")
    write(
        vault_dir / "facts" / "old.md",
        "---\nid: old-1\ntype: fact\ncreated: 2025-01-01T00:00:00+00:00\n---\nUsed to live in Bilbao\n",
    )
    data = cli.json("stats")
    assert data["memories"] == 8 and data["by_type"]["fact"] == 6
    assert data["by_state"]["stale"] == 1 and data["by_persona"] == {"tutor": 1}
    assert 0 < data["typical_block"]["tokens"] <= data["typical_block"]["budget"]


def test_explain_shows_lifecycle_parts(cli):
    data = cli.json("recall", "short answers", "--explain")
    first = data["results"][0]["explain"]
    assert {"confidence", "recency", "importance", "decay", "state", "weight"} <= set(first)


def test_gc_reports_its_reading_of_every_file(tmp_path):
    """gc reads every file of the vault (20 s and more at 100,000): it says how far it got
    (the CLI draws it as a bar on a terminal, as it does for the other long commands)."""
    import vault_memory as vmem

    mem = vmem.init(tmp_path / "v", examples=False)
    for i in range(1200):
        (mem.root / "episodes" / f"e{i}.md").write_text(
            f"---\nid: e{i}\ntype: episode\nexpires: 2020-01-01\n---\n\nOld {i}\n"
        )
    heard: list[tuple[str, int, int]] = []
    done = mem.gc(dry_run=True, progress=lambda stage, n, total: heard.append((stage, n, total)))
    assert len(done) == 1200 and [n for _, n, _ in heard] == [500, 1000, 1200]
    assert {stage for stage, _, _ in heard} == {"read"} and heard[-1][2] == 1200


def test_forgetting_a_replaced_value_leaves_no_dangling_chain(tmp_path):
    """Issue 59: forgetting the old value of a correction left `doctor` failing for good
    ("supersedes … which is not in the vault"); a chain cut by the user's own forget points
    at the trash, and doctor is clean."""
    mem = vmem.init(tmp_path / "v", examples=False)
    old = mem.remember("The user's gym membership is at FitBox").memory
    new = mem.correct(old.id, "The user's gym membership is at Pulse Athletics").memory
    mem.forget(old.id)
    checkup = mem.doctor()
    assert checkup.ok and not [p for p in checkup.problems if p.kind == "dangling_supersedes"]
    assert old.id in mem.show(new.id).supersedes


def test_gc_as_of_a_later_day_only_previews(tmp_path):
    """Issue 61: `gc --as-of` a future day archived memories that are live today, without a
    word. A later day is a preview (`--dry-run`); asked to act, gc refuses and moves nothing."""
    vault = create_vault(tmp_path / "v", with_examples=False)
    cli = Cli(vault)
    cli.json("remember", "The user's library books are due back", "--expires", "2099-01-10")
    later = cli("gc", "--as-of", "2099-02-01")
    assert later.exit_code == 2 and "--dry-run" in later.stderr
    assert not list((vault / "archive").rglob("*.md")) if (vault / "archive").exists() else True
    preview = cli("gc", "--as-of", "2099-02-01", "--dry-run")
    assert preview.exit_code == 0 and "would move" in preview.stdout
    assert cli.json("gc", "--as-of", "2099-02-01", "--later")["moved"]


def test_doctor_names_a_file_in_the_trash_that_no_record_names(mech_vault):
    """Issue 59: a file moved into the trash without its record (a forget cut short, a file
    dragged there in a file manager) could be restored by nothing and was named by no one."""
    with vmem.open(mech_vault, use_daemon=False) as mem:
        kept = mem.remember("The allotment key is under the blue pot").memory
        mem.forget(kept.id)
        (mech_vault / ".trash" / "dragged-here.md").write_text("The shed roof needs felt before winter\n")
        problems = [(p.path, p.kind) for p in mem.doctor().problems]
    assert (".trash/dragged-here.md", "trashed_unrecorded") in problems
    assert not [p for p in problems if p[1] == "trashed_unrecorded" and p[0] != ".trash/dragged-here.md"]


def test_restore_brings_back_no_link_and_no_memory_its_record_does_not_name(mech_vault):
    """Attack on the trash: a record edited to name a link in the trash restored a link into
    facts/, and another memory than the id asked for. Neither is restored; the real
    forgotten memory still is."""
    import json

    with vmem.open(mech_vault, use_daemon=False) as mem:
        kept = mem.remember("The kayak paddles hang in the garage").memory
        other = mem.remember("The tide tables are in the top drawer").memory
        mem.forget(kept.id)
        trash = mech_vault / ".trash"
        (trash / "linked.md").symlink_to(mech_vault / other.path)
        copy = next(p for p in trash.glob("*.md") if not p.is_symlink())
        (trash / "swapped.md").write_bytes((mech_vault / other.path).read_bytes())
        with (trash / "vmem-trash.jsonl").open("a") as f:
            for name, fake in (("linked.md", "fake-link"), ("swapped.md", "fake-swap")):
                record = {"id": fake, "original": f"facts/{fake}.md", "trashed": name, "at": "2026-11-01T00:00:00"}
                f.write(json.dumps(record) + "\n")
        assert copy.exists()
        for fake in ("fake-link", "fake-swap"):
            with pytest.raises(vmem.VaultError):
                mem.restore(fake)
        assert (
            not (mech_vault / "facts" / "fake-link.md").exists()
            and not (mech_vault / "facts" / "fake-swap.md").exists()
        )
        assert mem.restore(kept.id).id == kept.id


def test_doctor_prints_a_file_name_with_a_newline_as_one_line(mech_vault):
    """Attack on the trash: a file named "x\nfake: all good.md" in .trash/ printed a doctor
    line of its own that said what the attacker wrote."""
    trash = mech_vault / ".trash"
    trash.mkdir(exist_ok=True)
    (trash / "odd\nall-fine.md: nothing wrong here.md").write_text("A note\n")
    done = Cli(mech_vault)("doctor")
    lines = done.stdout.splitlines()
    assert not any(line.startswith("all-fine.md") for line in lines), done.stdout
    assert any("\\u000a" in line and "trashed_unrecorded" in line for line in lines), done.stdout


def test_a_manifest_with_copied_records_is_read_once_and_each_file_parsed_once(mech_vault, monkeypatch):
    """Attack on the trash: 200,000 copies of one record made the first recall after a
    forget take a minute (each copy's file parsed again, the manifest read several times a
    command). A record is read once a process, each trashed file once."""
    import vault_memory.vault.fileformat as fileformat
    from vault_memory.vault.trash import Trash

    with vmem.open(mech_vault, use_daemon=False) as mem:
        gone = mem.remember("The step ladder is behind the water heater").memory
        mem.forget(gone.id)
    manifest = mech_vault / ".trash" / "vmem-trash.jsonl"
    record = manifest.read_text().splitlines()[0]
    manifest.write_text((record + "\n") * 2000 + "not a record\n" * 2000)
    parsed = []
    real = fileformat.parse_memory
    monkeypatch.setattr(fileformat, "parse_memory", lambda raw, path: parsed.append(path) or real(raw, path))
    trash = Trash(mech_vault / ".trash")
    assert [e.id for e in trash.entries()] == [gone.id] and trash.superseded() == {}
    assert len(parsed) <= 1
