"""The derived index pieces on their own: hnswlib slots, format versions."""

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from conftest import Cli, write

import vault_memory as vmem
from vault_memory import IndexStale
from vault_memory.config import StateLayout
from vault_memory.index import ann
from vault_memory.index.catalog import Catalog, Meta
from vault_memory.index.generations import IndexLayout
from vault_memory.index.vector_index import DELTA_MAX, VectorIndex, Vectors


def unit(rows: int, dim: int = 8, seed: int = 0) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=(rows, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def index_of(indexer) -> tuple:
    """What an index holds, to compare two ways of building it: catalog rows, the files of
    the vector labels, chunk totals, Whoosh's documents, and the vectors stored."""
    generation = indexer.layout.current()
    catalog = Catalog(generation.catalog_path)
    rows = {p: (r.id, r.error, r.sha) for p, r in catalog.files().items()}
    labels = sorted(catalog.label_paths().values())
    chunks = catalog.chunk_counts()
    catalog.close()
    with generation.keyword.open().searcher() as searcher:
        docs = sorted(d["path"] for d in searcher.all_stored_fields())
    return rows, labels, chunks, docs, len(live_labels(generation))


def live_labels(generation) -> set[int]:
    """The labels a search can find: the hnswlib file's not marked deleted, less the
    delta's deletions, with the delta's additions."""
    catalog = Catalog(generation.catalog_path)
    dim = int(catalog.meta()["dim"])
    catalog.close()
    vectors = Vectors.read(generation.vectors_path, generation.vectors_delta_path, dim)
    base = {label for label in vectors.base.index.get_ids_list() if not _is_deleted(vectors.base, label)}
    return (base - set(vectors.deleted.tolist())) | set(vectors.labels.tolist())


def vectors_deleted(vectors: VectorIndex) -> int:
    return sum(1 for label in vectors.index.get_ids_list() if _is_deleted(vectors, label))


def _is_deleted(vectors: VectorIndex, label: int) -> bool:
    try:
        vectors.index.get_items([label])
    except RuntimeError:
        return True
    return False


def test_deleted_slots_are_reused_and_the_index_grows(tmp_path):
    vi = VectorIndex.create(tmp_path / "v.hnsw", 8, capacity=16)
    vi.add(list(range(16)), unit(16))
    vi.delete(list(range(8)))
    vi.add(list(range(100, 108)), unit(8, seed=1))
    assert vi.index.get_max_elements() == 16 and vi.index.get_current_count() == 16  # slots reused, no growth
    vi.add(list(range(200, 210)), unit(10, seed=2))
    assert vi.index.get_max_elements() >= 26  # grown before it filled
    vi.save()
    again = VectorIndex.load(tmp_path / "v.hnsw", 8)
    found = {label for label, _ in again.search(unit(1, seed=2)[0], 5, live=26)}
    assert found and not found & set(range(8))  # deleted labels never come back
    assert not list(tmp_path.glob(".*.tmp"))  # atomic save leaves no temp file


def test_an_index_of_another_format_is_rebuilt_by_the_next_sync(cli, vault_dir):
    """An index is derived: one written in another format is rebuilt, never half-read."""
    assert cli("sync").exit_code == 0
    layout = IndexLayout(StateLayout.of(vault_dir))
    old = layout.current()
    catalog = Catalog(old.catalog_path)
    catalog.set_meta(format_version=0)
    catalog.close()
    out = cli("recall", "peanuts")
    assert out.exit_code == 0 and "allergic to peanuts" in out.stdout
    assert layout.current() != old
    report = cli.json("sync")
    assert report["unchanged"] == 6 and not report["rebuilt"]


def test_index_stale_is_a_vault_error():
    from vault_memory import VaultError

    assert issubclass(IndexStale, VaultError)
    with pytest.raises(VaultError):
        raise IndexStale("x")


def test_an_edit_that_keeps_size_and_mtime_is_still_seen(mech_vault):
    path = write(mech_vault / "facts" / "f.md", "---\nid: f\n---\nLikes apples\n")
    mem = vmem.open(mech_vault)
    mem.sync()
    st = path.stat()
    path.write_text("---\nid: f\n---\nLikes grapes\n")  # same size
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # same mtime, as cp -p or rsync -a leave it
    assert [h.memory.id for h in vmem.open(mech_vault).recall("grapes", include_pinned=False).hits] == ["f"]


def test_the_no_change_check_trusts_its_stamps_file_only_for_the_catalog_that_wrote_it(mech_vault):
    """The check reads the stamps a sync recorded instead of every catalog row; a file that
    is missing, unreadable, from another catalog (a stale or forged token) or older than
    the catalog can only send it back to the rows, never make it say "fresh" wrongly."""
    from vault_memory.index.generations import read_stamps, write_stamps
    from vault_memory.index.sync import Indexer

    write(mech_vault / "facts" / "f.md", "---\nid: f\n---\nLikes apples\n")
    mem = vmem.open(mech_vault)
    mem.sync()
    vault = mem.vault
    indexer = Indexer(vault, embedder=None)
    stamps_path = IndexLayout(StateLayout.of(mech_vault)).current().stamps_path
    token, _, recorded = read_stamps(stamps_path)
    assert indexer.is_fresh() and sorted(recorded) == sorted(vault.stamps())

    write(mech_vault / "facts" / "g.md", "---\nid: g\n---\nLikes pears\n")
    assert not indexer.is_fresh()
    # a forged file that claims today's files for another catalog is not believed
    write_stamps(stamps_path, "not-the-catalogs-token", False, vault.stamps())
    assert not indexer.is_fresh()
    # nor one with the right token but garbage in it
    stamps_path.write_bytes(b"\x00garbage")
    assert not indexer.is_fresh()
    stamps_path.unlink()
    assert not indexer.is_fresh()
    mem.sync()  # records them again, with a new token
    assert indexer.is_fresh() and read_stamps(stamps_path)[0] != token
    # a sync that changes the catalog takes the old file away before it commits
    path = write(mech_vault / "facts" / "g.md", "---\nid: g\n---\nLikes plums\n")
    st = path.stat()
    assert not indexer.is_fresh()
    mem.sync()
    assert (
        indexer.is_fresh()
        and ("facts/g.md", st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino) in (read_stamps(stamps_path)[2])
    )


def test_snapshots_of_one_process_share_the_vectors_until_a_sync_replaces_the_file(mech_vault):
    """Every in-process recall loaded the whole vectors file again (113 ms at 20,000
    memories, half a second at 100,000)."""
    write(mech_vault / "facts" / "f.md", "---\nid: f\n---\nLikes apples\n")
    mem = vmem.open(mech_vault)
    mem.sync()
    engine = mem.backend.engine
    with engine.index.snapshot() as first, engine.index.snapshot() as second:
        assert first.vectors is second.vectors
    write(mech_vault / "facts" / "g.md", "---\nid: g\n---\nLikes pears\n")
    assert [h.memory.id for h in mem.recall("pears", include_pinned=False).hits][:1] == ["g"]
    with engine.index.snapshot() as third:
        assert third.vectors is not first.vectors and len(live_labels(third.generation)) == 2
        assert third.vectors.base is first.vectors.base  # one edit: the delta changed, the hnswlib file did not


def test_a_corrupt_catalog_is_rebuilt_and_doctor_checks_the_indexes(mech_vault):
    write(mech_vault / "facts" / "f.md", "---\nid: f\n---\nLikes apples\n")
    mem = vmem.open(mech_vault)
    mem.sync()
    from vault_memory.index.generations import IndexLayout

    catalog = IndexLayout(StateLayout.of(mech_vault)).current().catalog_path
    catalog.write_bytes(b"this is not a database" * 100)
    assert [p.kind for p in mem.doctor().problems] == ["index"]
    assert [h.memory.id for h in vmem.open(mech_vault).recall("apples", include_pinned=False).hits] == ["f"]
    assert mem.doctor().ok


def test_a_truncated_keyword_segment_is_rebuilt(mech_vault):
    write(mech_vault / "facts" / "f.md", "---\nid: f\n---\nLikes apples\n")
    mem = vmem.open(mech_vault)
    mem.sync()
    from vault_memory.index.generations import IndexLayout

    keyword = IndexLayout(StateLayout.of(mech_vault)).current().keyword.folder
    for seg in keyword.glob("*.seg"):
        seg.write_bytes(seg.read_bytes()[:40])
    report, _ = vmem.open(mech_vault).sync()
    assert report.rebuilt and report.repaired
    assert [h.memory.id for h in vmem.open(mech_vault).recall("apples", include_pinned=False).hits] == ["f"]


def test_a_sync_with_nothing_changed_opens_no_keyword_segment_while_the_folder_is_as_committed(mech_vault, monkeypatch):
    """`vmem sync` with nothing changed opened every keyword segment to check it (Whoosh
    copies each term file: 130 ms at 100,000 memories). The catalog keeps the folder's
    files and sizes at each commit; while they are as committed nothing is opened, and a
    segment of another size is opened, found damaged and rebuilt
    (``test_a_truncated_keyword_segment_is_rebuilt``)."""
    from whoosh.index import FileIndex

    write(mech_vault / "facts" / "f.md", "---\nid: f\n---\nLikes apples\n")
    mem = vmem.open(mech_vault, use_daemon=False)
    mem.sync()
    write(mech_vault / "facts" / "g.md", "---\nid: g\n---\nLikes grapes\n")
    assert mem.sync()[0].added == 1
    with monkeypatch.context() as m:
        m.setattr(FileIndex, "reader", lambda self, **kw: pytest.fail("opened every segment"))
        report, _ = vmem.open(mech_vault, use_daemon=False).sync()
    assert report.changed == 0 and not report.rebuilt


def test_a_deleted_vectors_file_is_rebuilt(mech_vault):
    write(mech_vault / "facts" / "f.md", "---\nid: f\n---\nLikes apples\n")
    mem = vmem.open(mech_vault)
    mem.sync()
    from vault_memory.index.generations import IndexLayout

    IndexLayout(StateLayout.of(mech_vault)).current().vectors_path.unlink()
    report, _ = vmem.open(mech_vault).sync()
    assert report.repaired and "missing" in report.repaired


def test_killed_reindexes_never_cost_the_live_generation(mech_vault):
    from vault_memory.index.generations import IndexLayout

    write(mech_vault / "facts" / "f.md", "---\nid: f\n---\nLikes apples\n")
    mem = vmem.open(mech_vault)
    mem.reindex()
    layout = IndexLayout(StateLayout.of(mech_vault))
    live = layout.current()
    for _ in range(3):  # what a reindex killed half-way leaves behind
        partial = layout.new_generation()
        (partial.folder / "catalog.sqlite").write_bytes(b"")
    mem.reindex()
    new = layout.current()
    folders = sorted(p.name for p in layout.dir.glob("gen-*"))
    assert folders == sorted({live.folder.name, new.folder.name}) and new.complete


def test_a_skipped_duplicate_id_is_skipped_everywhere(mech_vault):
    write(mech_vault / "facts" / "a.md", "---\nid: same\n---\nThe first claims the id: apples\n")
    write(mech_vault / "facts" / "b.md", "---\nid: same\n---\nThe second claims it too: oranges\n")
    mem = vmem.open(mech_vault)
    report, _ = mem.sync()
    assert [(p.path, p.kind) for p in report.problems] == [("facts/b.md", "duplicate_id")]
    assert [p.path for p in mem.doctor().problems] == ["facts/b.md"]
    assert mem.recall("oranges", include_pinned=False).hits == []
    (mech_vault / "facts" / "a.md").unlink()  # b is unique now: it joins the index
    assert [h.memory.text for h in vmem.open(mech_vault).recall("oranges", include_pinned=False).hits] == [
        "The second claims it too: oranges"
    ]


@pytest.mark.parametrize("how", ["sync", "reindex"])
def test_on_an_id_two_files_claim_a_persons_file_wins_over_the_agents(mech_vault, how):
    """Issue 59: the first file by path kept a clashing id, so the agent's note in ``agent/``
    hid a person's file in ``facts/`` (doctor skipped the person's). A person's file wins;
    between two of the agent's, the one written first (a person's move of it keeps its
    ``created``), whatever their paths."""
    write(
        mech_vault / "agent" / "standup.md",
        "---\nid: standup\nsource: agent\ncreated: 2026-11-01T09:00:00+00:00\n---\nStandup is at 9:15\n",
    )
    write(
        mech_vault / "facts" / "standup.md",
        "---\nid: standup\ncreated: 2026-11-20T09:00:00+00:00\n---\nStandup moved to 10:40\n",
    )
    write(
        mech_vault / "agent" / "gym.md",
        "---\nid: gym\nsource: agent\ncreated: 2026-11-25T09:00:00+00:00\n---\nGym on Fridays\n",
    )
    write(
        mech_vault / "notes" / "gym.md",
        "---\nid: gym\nsource: agent\ncreated: 2026-11-02T09:00:00+00:00\n---\nGym on Wednesdays\n",
    )
    mem = vmem.open(mech_vault)
    mem.reindex() if how == "reindex" else mem.sync()
    mem = vmem.open(mech_vault)
    shown = {h.memory.id: h.memory.text for h in mem.recall("standup gym", include_pinned=False).hits}
    assert shown == {"standup": "Standup moved to 10:40", "gym": "Gym on Wednesdays"}
    assert sorted(p.path for p in mem.doctor().problems) == ["agent/gym.md", "agent/standup.md"]
    assert {m.text for m in mem.vault.scan().memories} >= {"Standup moved to 10:40", "Gym on Wednesdays"}


def test_an_edit_to_the_file_that_holds_a_clashing_id_keeps_it_the_memory(mech_vault):
    """Attack on this stop's duplicate-id order: with no ``created:``, the files were ordered
    by their modification dates, so editing the copy that held the id handed it to the stale
    copy (the person's edit disappeared from list and recall). A date the file system gives
    decides nothing; the path does."""
    import os

    write(mech_vault / "notes" / "a-boat.md", "---\nid: boat\n---\nThe dinghy is moored at pier 4\n")
    write(mech_vault / "notes" / "b-boat.md", "---\nid: boat\n---\nThe dinghy was at pier 2\n")
    os.utime(mech_vault / "notes" / "b-boat.md", (1_600_000_000, 1_600_000_000))  # the stale copy is older
    mem = vmem.open(mech_vault)
    mem.sync()
    write(mech_vault / "notes" / "a-boat.md", "---\nid: boat\n---\nThe dinghy is moored at pier 7\n")
    mem = vmem.open(mech_vault)
    mem.sync()
    assert [m.text for m in mem.list().memories if m.id == "boat"] == ["The dinghy is moored at pier 7"]


def test_a_build_streamed_in_batches_indexes_what_a_sync_of_each_file_does(mech_vault):
    """A rebuild reads, embeds and writes a few files at a time (its memory is one batch, not
    the vault); the index it leaves is the one the live sync leaves, duplicates included:
    the first file by path keeps the id even when its rival falls in a later batch."""
    from vault_memory.index.embedder import HashEmbedder
    from vault_memory.index.sync import Indexer

    files = {
        "facts/a.md": "---\nid: same\n---\nThe first claims the id: apples\n",
        "facts/b.md": "---\nid: b\n---\nLikes pears\n",
        "facts/c.md": "---\nid: c\nconfidence: [\n---\nbroken frontmatter\n",
        "facts/d.md": "---\nid: d\n---\n" + "A long memory about plums. " * 200 + "\n",
        "facts/e.md": "---\nid: same\n---\nThe second claims it too: oranges\n",
        "notes/f.md": "Likes figs\n",
    }
    for path, text in files.items():
        write(mech_vault / path, text)

    vault = vmem.open(mech_vault).vault
    built = Indexer(vault, HashEmbedder(16), build_batch=2)
    report = built.reindex()
    assert [(p.path, p.kind) for p in report.problems if p.kind == "duplicate_id"] == [("facts/e.md", "duplicate_id")]
    assert report.added == 4 and built.is_fresh()
    streamed = index_of(built)

    other = mech_vault.parent / "synced"
    for path, text in files.items():  # the same files, added to a live index one sync at a time
        write(other / path, text)
        (other / "vmem.toml").write_text((mech_vault / "vmem.toml").read_text())
        synced = Indexer(vmem.open(other).vault, HashEmbedder(16))
        synced.sync()
    assert index_of(synced) == streamed
    assert streamed[0]["facts/e.md"][1].startswith("duplicate id 'same', also used by facts/a.md")
    assert streamed[2][0] > 4  # the long memory is cut in several chunks, each a vector


def test_the_chunk_totals_a_snapshot_reads_stay_the_counted_ones(mech_vault):
    """Every snapshot needs how many vector labels are in use and how many files hold them;
    triggers keep the totals instead of counting every row, through adds, edits that change
    the number of chunks, renames and deletes, and a catalog of the older schema gets them
    when it is migrated."""
    import sqlite3

    def counted(path) -> tuple[int, int]:
        with sqlite3.connect(path) as db:
            return db.execute("SELECT COUNT(*), COUNT(DISTINCT path) FROM chunks").fetchone()

    def kept(path) -> tuple[int, int]:
        catalog = Catalog(path)
        try:
            return catalog.chunk_counts()
        finally:
            catalog.close()

    long = "---\nid: {}\n---\n" + "A long memory about plums. " * 200 + "\n"
    write(mech_vault / "facts" / "a.md", "---\nid: a\n---\nLikes apples\n")
    write(mech_vault / "facts" / "b.md", long.format("b"))
    mem = vmem.open(mech_vault)
    mem.sync()
    catalog_path = IndexLayout(StateLayout.of(mech_vault)).current().catalog_path
    assert kept(catalog_path) == counted(catalog_path) and counted(catalog_path)[0] > 2
    write(mech_vault / "facts" / "a.md", long.format("a"))  # one chunk becomes several
    write(mech_vault / "facts" / "c.md", "---\nid: c\n---\nLikes pears\n")
    (mech_vault / "facts" / "b.md").rename(mech_vault / "facts" / "b2.md")
    mem.sync()
    assert kept(catalog_path) == counted(catalog_path)
    (mech_vault / "facts" / "a.md").unlink()
    mem.sync()
    assert kept(catalog_path) == counted(catalog_path) == (counted(catalog_path)[0], 2)

    with sqlite3.connect(catalog_path) as db:  # as vmem 0.x left it: schema 1, no totals
        db.executescript(
            "DROP TRIGGER chunk_added; DROP TRIGGER chunk_removed; DROP TABLE chunk_totals;"
            "DROP INDEX files_pinned; DROP INDEX files_same_text; DROP INDEX files_key_norm; DROP INDEX files_unreadable;"
            "DROP INDEX files_created; ALTER TABLE files DROP COLUMN created;"
            "ALTER TABLE files DROP COLUMN same_text; ALTER TABLE files DROP COLUMN key_norm;"
            "ALTER TABLE chunks DROP COLUMN tok_first; ALTER TABLE chunks DROP COLUMN tok_rows; DROP TABLE slots;"
            "PRAGMA user_version = 1;"
        )
    assert kept(catalog_path) == counted(catalog_path)  # a reader counts
    catalog = Catalog(catalog_path)
    catalog.migrate()
    catalog.close()
    assert kept(catalog_path) == counted(catalog_path)


def test_a_recall_on_a_truncated_keyword_segment_rebuilds_it_and_answers(mech_vault):
    """A segment cut short where only opening a reader notices (its table of contents) made
    `vmem recall --no-daemon` print only "Aborted!"."""
    write(mech_vault / "facts" / "f.md", "---\nid: f\n---\nLikes apples\n")
    vmem.open(mech_vault).sync()
    from vault_memory.index.generations import IndexLayout

    keyword = IndexLayout(StateLayout.of(mech_vault)).current().keyword.folder
    for seg in keyword.glob("*.seg"):
        seg.write_bytes(seg.read_bytes()[:100])
    out = Cli(mech_vault)("recall", "apples", "--no-daemon", "--json")
    assert out.exit_code == 0, out.output
    assert [r["id"] for r in json.loads(out.stdout)["results"]] == ["f"]


@pytest.mark.parametrize("named_by", ["events", "walk"])
def test_a_sync_of_named_paths_leaves_the_index_a_whole_sync_leaves(mech_vault, named_by):
    """The daemon syncs the files its events named, without walking the vault (at 100,000
    memories a walk and every catalog row cost seconds per edit); in process, the walk of
    the no-change check names them (its stamps against the recorded ones). Step by step
    (add, edit, touch, rename, delete, a broken file, a duplicate id freed by its rival's
    deletion, a path that is ignored or gone), the index is the one a rebuild of the same
    files makes, and the patched stamps file keeps the no-change check exact (after a
    walk, in the walk's order: the check's fast path)."""
    from vault_memory.index.embedder import HashEmbedder
    from vault_memory.index.generations import read_stamps
    from vault_memory.index.sync import Indexer

    vault = vmem.open(mech_vault).vault
    indexer = Indexer(vault, HashEmbedder(16))
    write(mech_vault / "facts" / "seed.md", "---\nid: seed\n---\nLikes figs\n")
    indexer.sync()
    stamps_path = indexer.layout.current().stamps_path

    def step(*paths: str, **expected: int) -> None:
        walked = vault.walk()
        report = indexer.sync(paths=paths) if named_by == "events" else indexer.sync(walked=walked)
        assert {k: getattr(report, k) for k in expected} == expected, report
        catalog = Catalog(indexer.layout.current().catalog_path)
        assert sorted(read_stamps(stamps_path)[2]) == sorted(catalog.stat_rows())
        if named_by == "walk":
            assert read_stamps(stamps_path)[2] == walked.stamps
        catalog.close()
        assert indexer.is_fresh()
        copy = mech_vault.parent / "copy"  # the same files, built from scratch
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(mech_vault, copy, ignore=shutil.ignore_patterns(".vmem"))
        rebuilt = Indexer(vmem.open(copy).vault, HashEmbedder(16))
        rebuilt.reindex()
        assert index_of(rebuilt) == index_of(indexer)

    write(mech_vault / "facts" / "a.md", "---\nid: same\n---\nThe first claims the id: apples\n")
    write(mech_vault / "facts" / "b.md", "---\nid: b\n---\nLikes pears\n")
    step("facts/a.md", "facts/b.md", added=2)
    write(mech_vault / "facts" / "e.md", "---\nid: same\n---\nThe second claims it too: oranges\n")
    step("facts/e.md")
    write(mech_vault / "facts" / "b.md", "---\nid: b\n---\nLikes plums\n")
    step("facts/b.md", updated=2)  # and e.md, read again in case it is unique now
    os.utime(mech_vault / "facts" / "b.md", ns=(1, 1))
    step("facts/b.md", added=0)  # touched: the stamp changes
    (mech_vault / "facts" / "b.md").rename(mech_vault / "notes.md")
    step("facts/b.md", "notes.md", renamed=1, added=0, deleted=0)
    write(mech_vault / "facts" / "c.md", "---\nid: c\nconfidence: [\n---\nbroken frontmatter\n")
    step("facts/c.md", "facts/gone.md", "facts", ".obsidian/x.md", added=0)
    (mech_vault / "facts" / "a.md").unlink()  # e.md is unique now, though no event named it
    step("facts/a.md", deleted=1)
    catalog = Catalog(indexer.layout.current().catalog_path)
    assert catalog.files()["facts/e.md"].error is None
    catalog.close()

    # a stamps file that does not speak for the catalog: the named paths are not enough
    stamps_path.unlink()
    write(mech_vault / "facts" / "unnamed.md", "---\nid: unnamed\n---\nLikes kiwis\n")
    report = indexer.sync(paths=[]) if named_by == "events" else indexer.sync(walked=vault.walk())
    assert report.added == 1 and indexer.is_fresh()


def test_a_snapshot_carried_over_a_commit_answers_as_a_new_one(mech_vault):
    """The daemon's snapshot after a write keeps what the one before read on demand except
    what the sync's commit touched (reading the catalog whole after each write cost a
    third of a second at 100,000 memories, and at start 14 s). Step by step (add, a
    duplicate id, edit, touch, rename, a broken file, a delete that frees the id, turns of
    a conversation) it answers every read as a new snapshot does; one that is not the
    commit after its own keeps nothing."""
    from vault_memory.index.catalog import Meta
    from vault_memory.index.embedder import HashEmbedder
    from vault_memory.index.snapshot import Snapshot
    from vault_memory.index.sync import Indexer

    vault = vmem.open(mech_vault).vault
    embedder = HashEmbedder(16)
    indexer = Indexer(vault, embedder)
    write(mech_vault / "facts" / "seed.md", "---\nid: seed\n---\nLikes figs\n")
    indexer.sync()  # a build: commit 0
    held = Snapshot(indexer.layout)
    seen: set[str] = set()  # every path ever indexed, the deleted and renamed ones too

    def read(snapshot: Snapshot) -> tuple:
        seen.update(snapshot.catalog.shas())
        paths = sorted(seen)
        memories = {path: m.to_dict() for path, m in snapshot.memories(paths).items()}
        hits = [snapshot.vector_hits(v, 3) for v in embedder.embed(["figs pears plums", "turn of the chat"])]
        return memories, snapshot.neighbours(paths), snapshot.pinned_paths(), snapshot.superseded_targets(), hits

    def step(*paths: str) -> None:
        nonlocal held
        read(held)  # what the daemon's recalls read before the write
        report = indexer.sync(paths=paths)
        carried, new = Snapshot(indexer.layout), Snapshot(indexer.layout)
        carried.carry_over(held, report.commit)
        assert report.commit is not None and carried.meta[Meta.COMMIT_SEQ] == str(report.commit[0])
        kept = carried.reads()[0]
        assert kept and not set(kept) & report.commit[1]  # kept what it read, less what the commit touched
        assert read(carried) == read(new)
        for snap in (held, new):
            snap.close()
        held = carried

    write(mech_vault / "facts" / "a.md", "---\nid: same\n---\nThe first claims the id: apples\n")
    write(mech_vault / "facts" / "b.md", "---\nid: b\npinned: true\n---\nLikes pears\n")
    step("facts/a.md", "facts/b.md")
    write(mech_vault / "facts" / "e.md", "---\nid: same\n---\nThe second claims it too: oranges\n")
    step("facts/e.md")
    write(mech_vault / "facts" / "b.md", "---\nid: b\nsupersedes: [seed]\n---\nLikes plums\n")
    step("facts/b.md")
    os.utime(mech_vault / "facts" / "b.md", ns=(1, 1))
    step("facts/b.md")
    (mech_vault / "facts" / "b.md").rename(mech_vault / "notes.md")
    step("facts/b.md", "notes.md")
    write(mech_vault / "facts" / "c.md", "---\nid: c\nconfidence: [\n---\nbroken frontmatter\n")
    step("facts/c.md")
    (mech_vault / "facts" / "a.md").unlink()  # e.md is unique now
    step("facts/a.md")
    for turn in (1, 3, 2):  # the middle turn last: the neighbours of both others change
        write(
            mech_vault / "episodes" / f"t{turn}.md",
            f"---\nid: t{turn}\ntype: episode\nconversation: chat-1\nturn: {turn}\n---\nTurn {turn} of the chat\n",
        )
        step(f"episodes/t{turn}.md")
    assert held.neighbours(["episodes/t1.md"]) == {"episodes/t1.md": ["episodes/t2.md"]}

    # another writer's commit in between: the daemon's report is not the next commit
    read(held)
    write(mech_vault / "facts" / "x.md", "---\nid: x\n---\nLikes quinces\n")
    indexer.sync(paths=["facts/x.md"])
    write(mech_vault / "facts" / "y.md", "---\nid: y\n---\nLikes limes\n")
    report = indexer.sync(paths=["facts/y.md"])
    late, new = Snapshot(indexer.layout), Snapshot(indexer.layout)
    late.carry_over(held, report.commit)
    assert late.reads() == ({}, {}, {})
    assert read(late) == read(new)


def test_a_new_file_is_added_to_the_keyword_index_once_even_after_a_killed_sync(mech_vault):
    """A one-file sync deleted the path from the keyword index before adding it, which
    opened a reader over every segment (160 ms at 100,000 memories); a new file now skips
    the delete while the index holds exactly the catalog's memories. A sync killed after
    its keyword commit leaves a document the catalog does not know: the counts differ,
    the delete is made, and the path is still in the index once."""
    from vault_memory.index.embedder import HashEmbedder
    from vault_memory.index.keyword_index import document
    from vault_memory.index.sync import Indexer
    from vault_memory.vault.memory import Memory

    vault = vmem.open(mech_vault).vault
    indexer = Indexer(vault, HashEmbedder(16))
    write(mech_vault / "facts" / "seed.md", "---\nid: seed\n---\nLikes figs\n")
    indexer.sync()

    def documents(path: str) -> int:
        with indexer.layout.current().keyword.open().searcher() as searcher:
            return len(list(searcher.document_numbers(path=path)))

    write(mech_vault / "facts" / "a.md", "---\nid: a\n---\nLikes apples\n")
    indexer.sync(paths=["facts/a.md"])
    assert documents("facts/a.md") == 1
    keyword = indexer.layout.current().keyword
    writer = keyword.open().writer()  # what a sync killed between its two commits leaves
    writer.add_document(**document(Memory(id="b", text="Likes pears", type="fact", path=Path("facts/b.md"))))
    writer.commit()
    write(mech_vault / "facts" / "b.md", "---\nid: b\n---\nLikes pears\n")
    indexer.sync(paths=["facts/b.md"])
    assert documents("facts/b.md") == 1
    catalog = Catalog(indexer.layout.current().catalog_path)
    assert keyword.document_count() == catalog.count() == 3
    catalog.close()


def test_an_unchanged_walk_is_known_by_its_digest_without_reading_the_stamps(mech_vault):
    """The no-change check and a sync with nothing changed read the 100,000 recorded stamps
    back (40-80 ms at 100k); the catalog now keeps their digest, so an unchanged walk is
    told by its own. The digest is of the values: equal lists built apart (strings
    interned or not, shared or not) have one digest, which marshal's later versions, with
    their references, did not give. A change is still seen, and a sync clears the
    digest in its own transaction."""
    import sys

    from vault_memory.index.catalog import Meta
    from vault_memory.index.embedder import HashEmbedder
    from vault_memory.index.generations import stamps_digest
    from vault_memory.index.sync import Indexer

    stamps = [("facts/a.md", 10, 123456789, 123456790, 42), ("facts/b.md", 11, 5, 6, 7)]
    apart = [(sys.intern("".join(["facts/", "a.md"])), int("10"), 123456789, 123456790, 42), tuple(stamps[1])]
    shared = [stamps[0], stamps[0], stamps[1]]
    assert stamps_digest(stamps) == stamps_digest(apart) == stamps_digest([tuple(s) for s in stamps])
    assert stamps_digest(shared) == stamps_digest([stamps[0], tuple(stamps[0]), stamps[1]])
    assert stamps_digest(stamps) != stamps_digest(stamps[::-1])

    vault = vmem.open(mech_vault).vault
    indexer = Indexer(vault, HashEmbedder(16))
    write(mech_vault / "facts" / "a.md", "---\nid: a\n---\nLikes apples\n")
    indexer.sync()
    write(mech_vault / "facts" / "b.md", "---\nid: b\n---\nLikes pears\n")
    indexer.sync()
    generation = indexer.layout.current()
    catalog = Catalog(generation.catalog_path)
    assert catalog.meta()[Meta.STAMPS_DIGEST] == stamps_digest(vault.walk().stamps)
    catalog.close()
    generation.stamps_path.unlink()  # not read: the digest speaks for the catalog
    assert indexer.is_fresh() and indexer.sync().changed == 0
    write(mech_vault / "facts" / "b.md", "---\nid: b\n---\nLikes plums\n")
    assert not indexer.is_fresh()
    assert indexer.sync().updated == 1 and indexer.is_fresh()


def test_a_digest_that_no_longer_matches_an_unchanged_vault_is_recorded_again(mech_vault):
    """A digest of another kind (an earlier vmem's) or of another order (a restore lists the
    files otherwise) left every later check reading the stamps file; the first whole sync
    that finds nothing changed records the walk's own, and checks use it again. An
    indexer remembers the last digest it worked out, by the walk's hash, and a change is
    still seen."""
    from vault_memory.index.catalog import Meta
    from vault_memory.index.embedder import HashEmbedder
    from vault_memory.index.generations import stamps_digest
    from vault_memory.index.store import Index
    from vault_memory.index.sync import Indexer

    vault = vmem.open(mech_vault).vault
    for name in "abc":
        write(mech_vault / "facts" / f"{name}.md", f"---\nid: {name}\n---\nLikes {name}\n")
    indexer = Indexer(vault, HashEmbedder(16))
    indexer.sync()
    generation = indexer.layout.current()
    catalog = Catalog(generation.catalog_path)
    catalog.set_meta(**{Meta.STAMPS_DIGEST: "an-older-kind-of-digest"})
    catalog.close()
    assert indexer.is_fresh() and indexer.stale_digest  # the stamps file says so, the slow way
    assert indexer.sync().changed == 0
    catalog = Catalog(generation.catalog_path)
    assert catalog.meta()[Meta.STAMPS_DIGEST] == stamps_digest(vault.walk().stamps)
    catalog.close()
    generation.stamps_path.unlink()  # not read again: the digest speaks
    assert indexer.is_fresh() and indexer.is_fresh() and not indexer.stale_digest
    write(mech_vault / "facts" / "b.md", "---\nid: b\n---\nLikes bees\n")
    assert not indexer.is_fresh()
    # a reader's freshness check that finds the digest stale has it recorded again
    index = Index(vault, HashEmbedder(16))
    assert index.ensure_fresh() is not None  # the edit
    catalog = Catalog(generation.catalog_path)
    catalog.set_meta(**{Meta.STAMPS_DIGEST: "an-older-kind-of-digest"})
    catalog.close()
    assert index.ensure_fresh() is None  # fresh, and the digest written again
    catalog = Catalog(index.layout.current().catalog_path)
    assert catalog.meta()[Meta.STAMPS_DIGEST] == stamps_digest(vault.walk().stamps)
    catalog.close()


def test_the_delta_is_searched_beside_the_hnswlib_file_and_folds_into_it(tmp_path):
    """A sync of a few files writes the vectors it adds and the labels it deletes beside
    the hnswlib file instead of rewriting it; a search sees both as one index, and folding
    (again, after a fold killed half-way) changes no answer."""
    import os

    from vault_memory.errors import IndexDamaged

    base_path, delta_path = tmp_path / "v.hnsw", tmp_path / "v.delta"
    base = VectorIndex.create(base_path, 8)
    base.add(list(range(20)), unit(20))
    base.save()
    change = Vectors.for_sync(base_path, delta_path, 8, whole=False, live=20, adding=2)
    assert change.base is None  # a sync of a few files does not read the hnswlib file
    change.add([20, 21], unit(2, seed=3) * 5)  # stored unit length, whatever it is given
    change.delete([3, 21])  # one of the file, one of the delta
    assert change.labels.tolist() == [20] and change.deleted.tolist() == [3]
    for live, staged in change.stage(live=20):
        os.replace(staged, live)
    query = unit(1, seed=3)[0]
    found = Vectors.read(base_path, delta_path, 8).search(query, 5, live=20)
    assert found[0][0] == 20 and abs(found[0][1] - 1.0) < 1e-5 and 3 not in {label for label, _ in found}
    everything = Vectors.read(base_path, delta_path, 8).search(unit(20)[3], 25, live=20)
    assert sorted(label for label, _ in everything) == [*range(3), *range(4, 21)]
    folded = Vectors.read(base_path, delta_path, 8)
    folded.fold(live=20)
    folded.base.save()  # the fold reached the hnswlib file; the delta is still there (killed)
    for _ in range(2):
        again = Vectors.read(base_path, delta_path, 8)
        seen = again.search(query, 5, live=20)
        assert [label for label, _ in seen] == [label for label, _ in found]
        assert [score for _, score in seen] == pytest.approx([score for _, score in found], abs=1e-5)
        again.fold(live=20)
        after = again.search(query, 5, live=20)
        assert again.changes == 0 and [label for label, _ in after] == [label for label, _ in seen]
    (tmp_path / "bad.delta").write_bytes(b"not numpy")
    with pytest.raises(IndexDamaged):
        Vectors.read(base_path, tmp_path / "bad.delta", 8)


def test_syncs_of_a_few_files_leave_the_hnswlib_file_until_the_delta_is_full(mech_vault, monkeypatch):
    """At 100,000 memories every one-file sync loaded and rewrote the 150 MB hnswlib file
    (1.2 s). Now it is written only when the delta passes its bound, or by a sync of the
    whole vault, which also sweeps what a killed sync left in the delta."""
    from vault_memory.index import vector_index
    from vault_memory.index.embedder import HashEmbedder
    from vault_memory.index.generations import read_stamps
    from vault_memory.index.sync import Indexer

    monkeypatch.setattr(vector_index, "DELTA_MAX", 3)
    vault = vmem.open(mech_vault).vault
    indexer = Indexer(vault, HashEmbedder(16))
    write(mech_vault / "facts" / "seed.md", "---\nid: seed\n---\nLikes figs\n")
    indexer.sync()
    generation = indexer.layout.current()
    written = generation.vectors_path.stat().st_mtime_ns
    for i in range(2):
        write(mech_vault / "facts" / f"n{i}.md", f"---\nid: n{i}\n---\nLikes fruit {i}\n")
        indexer.sync(paths=[f"facts/n{i}.md"])
    assert generation.vectors_path.stat().st_mtime_ns == written and generation.vectors_delta_path.exists()
    assert len(live_labels(generation)) == 3
    (mech_vault / "facts" / "seed.md").unlink()  # a label of the hnswlib file: listed as deleted
    write(mech_vault / "facts" / "n2.md", "---\nid: n2\n---\nLikes fruit 2\n")
    indexer.sync(paths=["facts/seed.md", "facts/n2.md"])  # 4 changes: folded
    assert generation.vectors_path.stat().st_mtime_ns != written and not generation.vectors_delta_path.exists()
    assert len(live_labels(generation)) == 3

    # a sync killed after its delta was in place, before its catalog commit
    write(mech_vault / "facts" / "n3.md", "---\nid: n3\n---\nLikes fruit 3\n")
    indexer.sync(paths=["facts/n3.md"])
    delta = vector_index.Vectors.for_sync(
        generation.vectors_path, generation.vectors_delta_path, 16, whole=False, live=4, adding=1
    )
    delta.add([999], unit(1, dim=16))
    for live, staged in delta.stage(live=5):
        os.replace(staged, live)
    generation.stamps_path.unlink()  # as the killed sync left it
    write(mech_vault / "facts" / "n4.md", "---\nid: n4\n---\nLikes fruit 4\n")
    indexer.sync(paths=["facts/n4.md"])  # the stamps do not speak: the whole vault, folded
    assert not generation.vectors_delta_path.exists() and 999 not in live_labels(generation)
    assert len(live_labels(generation)) == 5 and read_stamps(generation.stamps_path) is not None


def test_a_build_in_several_keyword_segments_holds_what_one_segment_holds(mech_vault, monkeypatch):
    """A build of 100,000 memories committed one Whoosh segment whose postings no longer
    sorted in memory (168 s of a 373 s build); it now commits a segment every
    ``BUILD_SEGMENT`` memories. The index, and what a search finds, are the same."""
    from vault_memory.index import build
    from vault_memory.index.embedder import HashEmbedder
    from vault_memory.index.sync import Indexer

    for i in range(7):
        write(mech_vault / "facts" / f"m{i}.md", f"---\nid: m{i}\n---\nLikes plum number {i} and figs\n")
    vault = vmem.open(mech_vault).vault
    one = Indexer(vault, HashEmbedder(16))
    one.reindex()
    expected = index_of(one)
    assert len(one.layout.current().keyword.open()._segments()) == 1
    monkeypatch.setattr(build, "BUILD_SEGMENT", 2)
    several = Indexer(vault, HashEmbedder(16), build_batch=2)
    several.reindex()
    assert len(several.layout.current().keyword.open()._segments()) == 4
    assert index_of(several) == expected
    with vmem.open(mech_vault).backend.index.snapshot() as snap:
        assert len(snap.keyword.search("figs", 10)) == 7


def test_token_files_keep_int8_pieces_and_cut_a_torn_tail(tmp_path):
    """Token vectors for late interaction: int8 rows with a scale each (the MaxSim they give
    is the float one to a few thousandths), appended; a write killed half-way leaves a torn
    tail that the next append cuts, so rows stay aligned."""
    from vault_memory.index.token_store import Int8Rows, TokenFiles, maxsim

    files = TokenFiles(tmp_path, Int8Rows(8))
    first, second = unit(3), unit(2, seed=1)
    assert files.append([first, second]) == [(0, 3), (3, 2)]
    with open(files.rows_path, "ab") as f:
        f.write(b"\x01\x02\x03")  # a torn row
    assert files.row_count() == 5
    assert files.append([unit(1, seed=2)]) == [(5, 1)] and files.row_count() == 6
    reader = files.reader(6)
    assert np.allclose(reader.vectors(0, 3), first, atol=0.01) and np.allclose(reader.vectors(3, 2), second, atol=0.01)
    assert abs(maxsim(second, reader.vectors(0, 3)) - maxsim(second, first)) < 0.01
    assert files.reader(0).vectors(0, 0).shape == (0, 8)


@pytest.mark.parametrize("product_size", [1 << 18, 1])  # one product; products of 16 rows
def test_maxsims_of_many_memories_at_once_are_each_memorys_maxsim(tmp_path, monkeypatch, product_size):
    """Recall scores its candidates in one pass over their gathered rows; each score must
    be ``maxsim`` of that memory alone: a memory of several chunks takes its best piece over
    all of them, one without rows is left out, and a reused buffer holds nothing over."""
    from vault_memory.index import token_store
    from vault_memory.index.token_store import Int8Rows, TokenFiles, maxsim

    monkeypatch.setattr(token_store, "PRODUCT_SIZE", product_size)
    files = TokenFiles(tmp_path, Int8Rows(8))
    chunks = [unit(3), unit(5, seed=1), unit(0, seed=2), unit(2, seed=3), unit(4, seed=4), unit(30, seed=6)]
    spans = files.append(chunks)
    reader = files.reader(files.row_count())
    asked = unit(4, seed=5)
    wanted = {"a": [spans[0]], "b": [spans[1], spans[3]], "empty": [spans[2]], "c": [spans[4]], "d": [spans[5]]}
    got = reader.maxsims(asked, wanted)
    assert sorted(got) == ["a", "b", "c", "d"]
    for key, key_spans in wanted.items():
        if key != "empty":
            alone = np.concatenate([reader.vectors(first, count) for first, count in key_spans])
            assert abs(got[key] - maxsim(asked, alone)) < 1e-5
    assert abs(reader.maxsims(asked, {"c": [spans[4]]})["c"] - got["c"]) < 1e-6  # the larger call left nothing behind
    assert reader.maxsims(asked, {}) == {} and reader.maxsims(asked[:0], wanted) == {}


def test_int8_rows_with_a_scale_that_is_not_finite_score_as_zero_not_nan(tmp_path):
    """A NaN scale (a damaged tokens.scale) made every score NaN, and a JSON answer invalid."""
    from vault_memory.index.token_store import Int8Rows, TokenFiles

    files = TokenFiles(tmp_path, Int8Rows(8))
    spans = files.append([unit(3), unit(2, seed=1)])
    with open(tmp_path / "tokens.scale", "r+b") as f:
        f.write(b"\x00\x00\xc0\x7f" * 3)  # the first memory's scales: NaN
    got = files.reader(5).maxsims(unit(4, seed=5), {"a": [spans[0]], "b": [spans[1]]})
    assert got["a"] == 0.0 and np.isfinite(got["b"]) and got["b"] > 0


def test_product_codes_keep_a_piece_in_48_bytes_close_to_itself(tmp_path):
    """The bundled model's pieces are stored as 48 one-byte codes (an eighth of int8 rows):
    decoded, each is a unit row close to the piece, and MaxSim over decoded pieces stays
    near MaxSim over the pieces themselves; the files hold 48 bytes a row and nothing else."""
    from vault_memory.index.embedder import BUNDLED_MODEL_ID, FastEmbedEmbedder
    from vault_memory.index.token_store import ProductCodes, TokenFiles, codec_for, maxsim

    codec = codec_for(BUNDLED_MODEL_ID, 384)
    assert isinstance(codec, ProductCodes) and codec.files == (("tokens.pq", 48),)
    texts = [
        "The user is allergic to peanuts",
        "Mi hermano se llama Tomás y vive en Valencia",
        "deploy with make release",
    ]
    _, pieces = FastEmbedEmbedder().embed_with_tokens(texts)
    files = TokenFiles(tmp_path, codec)
    spans = files.append(pieces)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tokens.pq"]
    assert (tmp_path / "tokens.pq").stat().st_size == 48 * sum(len(p) for p in pieces)
    reader = files.reader(files.row_count(), files.fingerprint(files.row_count()))
    for (first, count), piece in zip(spans, pieces, strict=True):
        decoded = reader.vectors(first, count)
        assert np.allclose(np.linalg.norm(decoded, axis=1), 1.0, atol=1e-5)
        assert (decoded * piece).sum(axis=1).mean() > 0.8
    [question] = FastEmbedEmbedder().token_vectors(["what can't the user eat?"])
    scores = reader.maxsims(question, {str(i): [span] for i, span in enumerate(spans)})
    for i, piece in enumerate(pieces):
        assert abs(scores[str(i)] - maxsim(question, piece)) < 0.05
    assert max(scores, key=scores.get) == "0"


def test_product_codes_decode_each_row_as_its_centroids_put_to_unit_length():
    """A row decoded from its codes is its groups' centroids side by side, of unit length,
    whatever rows are decoded with it (a recall decodes 50 memories' rows at once; the
    length is read from the centroids' own, not worked out from the row)."""
    from vault_memory.index.embedder import BUNDLED_MODEL_ID
    from vault_memory.index.token_store import codec_for

    codec = codec_for(BUNDLED_MODEL_ID, 384)
    groups = len(codec.centroids)
    codes = np.random.default_rng(7).integers(0, 256, (300, groups), dtype=np.uint8)
    together = codec.decode([codes.tobytes()], len(codes))
    reference = np.concatenate([codec.centroids[g, codes[:, g]] for g in range(groups)], axis=1)
    reference /= np.linalg.norm(reference, axis=1, keepdims=True)
    assert together.shape == (300, 384) and together.dtype == np.float32
    assert np.allclose(together, reference, atol=1e-6)
    for i in (0, 137, 299):
        assert np.array_equal(codec.decode([codes[i].tobytes()], 1)[0], together[i])


def test_an_index_names_how_it_stores_token_vectors_and_one_from_before_still_reads(empty_vault_dir, monkeypatch):
    """A generation records its codec (``tokens_codec``); one built before there was a
    choice holds int8 rows and no record of it: it is read as int8, a sync appends int8
    rows to it, and only a whole rebuild moves it to product codes."""
    import sqlite3

    from vault_memory.index import token_store
    from vault_memory.index.embedder import BUNDLED_MODEL_ID

    write(empty_vault_dir / "facts" / "a.md", "---\nid: a\n---\nThe user is allergic to peanuts\n")
    monkeypatch.delitem(token_store.CODEBOOKS, BUNDLED_MODEL_ID)  # what a vmem without codebooks built
    mem = vmem.open(empty_vault_dir, use_daemon=False)
    mem.reindex()
    folder = mem.backend.index.layout.current().folder
    with sqlite3.connect(folder / "catalog.sqlite") as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'tokens_codec'").fetchone() == ("int8",)
        db.execute("DELETE FROM meta WHERE key = 'tokens_codec'")  # as it was written before
    db.close()
    monkeypatch.undo()
    mem = vmem.open(empty_vault_dir, use_daemon=False)
    write(empty_vault_dir / "facts" / "b.md", "---\nid: b\n---\nThe user rides a red bicycle to work\n")
    assert [h.memory.id for h in mem.recall("how does the user get to work?", include_pinned=False).hits][0] == "b"
    assert not (folder / "tokens.pq").exists() and (folder / "tokens.i8").stat().st_size > 0
    assert any("`vmem reindex` stores them in about an eighth" in note for note in mem.doctor().notes)
    mem.reindex()
    rebuilt = mem.backend.index.layout.current().folder
    assert rebuilt != folder and (rebuilt / "tokens.pq").exists() and not (rebuilt / "tokens.i8").exists()
    assert [h.memory.id for h in mem.recall("which food must the user avoid?", include_pinned=False).hits][0] == "a"
    assert not any("reindex" in note for note in mem.doctor().notes)


def test_warming_token_files_reads_them_whole_and_forgives_a_missing_generation(tmp_path):
    import numpy as np

    from vault_memory.index.token_store import Int8Rows, TokenFiles

    files = TokenFiles(tmp_path, Int8Rows(4))
    files.append([np.ones((3, 4), np.float32), np.ones((2, 4), np.float32)])
    assert files.warm(chunk=7) == 5 * 4 + 5 * 4  # int8 rows, one float32 scale per row
    assert TokenFiles(tmp_path / "gone", Int8Rows(4)).warm() == 0


def test_a_vault_keeps_token_vectors_for_every_chunk_it_indexes(empty_vault_dir):
    """With late interaction (the default, bundled model) a build stores each chunk's token
    vectors and a sync stores those of the files it adds; an edit or a deletion leaves the
    old rows unreferenced. Turned off, nothing is stored and recall ranks as before."""
    from vault_memory.index.embedder import FastEmbedEmbedder

    write(empty_vault_dir / "facts" / "a.md", "---\nid: a\n---\nThe user is allergic to peanuts\n")
    write(empty_vault_dir / "facts" / "b.md", "---\nid: b\n---\nThe user rides a red bicycle to work\n")
    mem = vmem.open(empty_vault_dir, use_daemon=False)
    mem.reindex()
    write(empty_vault_dir / "facts" / "c.md", "---\nid: c\n---\nThe user keeps bees on the roof\n")
    (empty_vault_dir / "facts" / "b.md").unlink()
    assert [h.memory.id for h in mem.recall("which food must the user avoid?", include_pinned=False).hits][0] == "a"
    engine = mem.backend.engine
    with engine.index.snapshot() as snap:
        stored = snap.token_vectors(["facts/a.md", "facts/b.md", "facts/c.md"])
        assert sorted(stored) == ["facts/a.md", "facts/c.md"]
        [expected] = FastEmbedEmbedder().token_vectors(["The user keeps bees on the roof"])
        assert stored["facts/c.md"].shape == expected.shape
        assert (stored["facts/c.md"] * expected).sum(axis=1).mean() > 0.8  # product codes: close, not equal

    toml = empty_vault_dir / "vmem.toml"
    toml.write_text(toml.read_text().replace("late_interaction = true", "late_interaction = false"))
    off = vmem.open(empty_vault_dir, use_daemon=False)
    off.reindex()
    generation = off.backend.index.layout.current()
    assert not list(generation.folder.glob("tokens.*"))
    assert [h.memory.id for h in off.recall("which food must the user avoid?", include_pinned=False).hits][0] == "a"


@pytest.mark.slow
def test_a_large_memory_costs_what_its_first_few_thousand_words_cost(empty_vault_dir):
    """One 980 KB file (under the 1 MB limit) took 135 s and 1.9 GB to sync and added 106 MB
    of token rows. The model now reads its first ~3,000 words in at most MAX_CHUNKS chunks;
    the keyword index still holds the rest, so a word near its end is still found."""
    from vault_memory.index.chunking import MAX_CHUNKS

    words = " ".join(f"line {i} of the user's travel diary about trains and rivers." for i in range(16_000))
    write(empty_vault_dir / "episodes" / "diary.md", f"---\nid: diary\ntype: episode\n---\n{words} zanzibarwalrus\n")
    write(empty_vault_dir / "facts" / "a.md", "---\nid: a\n---\nThe user is allergic to peanuts\n")
    assert (empty_vault_dir / "episodes" / "diary.md").stat().st_size > 900_000
    mem = vmem.open(empty_vault_dir, use_daemon=False)
    mem.sync()
    generation = mem.backend.index.layout.current()
    catalog = Catalog(generation.catalog_path)
    try:
        rows = int(catalog.meta()[Meta.TOKEN_ROWS])
        [(first, chunks)] = [(p, n) for p, n in catalog.token_spans(["episodes/diary.md"]).items()]
    finally:
        catalog.close()
    assert len(chunks) <= MAX_CHUNKS and rows <= (MAX_CHUNKS + 1) * 256
    assert "diary" in [h.memory.id for h in mem.recall("zanzibarwalrus", include_pinned=False).hits]


def test_a_batch_is_indexed_with_the_vectors_its_restatement_check_embedded(vault_dir):
    """A remembered batch's texts were embedded twice: by the restatement check, then by
    the sync that indexes them. The model keeps their token vectors for that sync, which
    takes them, and what it indexes ranks as a rebuild's index ranks. A text whose every
    word no memory holds cannot be a restatement: the check does not embed it at all (an
    export's last batch was embedded for nothing), and the sync embeds it once."""
    from vault_memory.backend import LocalBackend
    from vault_memory.config import Config
    from vault_memory.index.embedder import FastEmbedEmbedder
    from vault_memory.index.store import Index
    from vault_memory.recall.engine import Engine
    from vault_memory.recall.results import RecallQuery
    from vault_memory.vault.vault import Vault
    from vault_memory.writing.rules import Remembering, remember_many

    embedder = FastEmbedEmbedder()  # its own: nothing kept by another test
    vault = Vault(vault_dir)
    backend = LocalBackend(vault.root, Config.load(vault.root), engine=Engine(Index(vault, embedder)))
    said = ["My sister Ana lives in Porto", "My bike is a green Brompton", "I play the cello on Sundays"]
    again = "On Sundays I play the cello"  # every word of a memory the batch wrote: checked
    outcomes = remember_many(backend, [Remembering(text) for text in [*said, again]])
    assert [o.status for o in outcomes] == ["created"] * 3 + ["reconfirmed"]
    assert set(embedder._kept) == {*said, again}  # embedded once, for the check, and kept
    tortoise = "My tortoise Speedy eats dandelions"
    alone = remember_many(backend, [Remembering(tortoise)])[0]
    # its snapshot's sync took the batch's vectors; no memory holds the new words: the
    # restatement check does not embed it, the judge of secrets said in words does, once,
    # and keeps it for the sync that indexes it
    assert alone.status == "created" and set(embedder._kept) == {again, tortoise}

    def ranked() -> list[tuple[str, float]]:
        result = backend.recall(RecallQuery("what instrument do I play?", include_pinned=False))
        return [(hit.memory.id, round(hit.score, 4)) for hit in result.hits]

    synced = ranked()
    assert set(embedder._kept) == {again}  # never written, so never taken (until pushed out)
    assert synced[0][0] == outcomes[2].memory.id
    backend.sync(full=True)
    assert ranked() == synced


def test_a_bilingual_batch_is_embedded_by_each_model_once(empty_vault_dir):
    """The bilingual model kept MiniLM's vectors for the sync, not USE's: every fact an
    export wrote was embedded by USE twice, by the restatement check and by the sync (a
    third of an export ingest's model time). The sync now takes USE's too, and what it
    indexes ranks as a rebuild's index ranks."""
    from vault_memory.backend import LocalBackend
    from vault_memory.config import Config
    from vault_memory.index.embedder import BilingualEmbedder
    from vault_memory.index.store import Index
    from vault_memory.recall.engine import Engine
    from vault_memory.recall.results import RecallQuery
    from vault_memory.vault.vault import Vault
    from vault_memory.writing.rules import Remembering, remember_many

    embedder = BilingualEmbedder()  # its own: nothing kept by another test
    asked: list[str] = []
    use_embed = embedder.multilingual.embed
    embedder.multilingual.embed = lambda texts, **kw: asked.extend(texts) or use_embed(texts, **kw)
    vault = Vault(empty_vault_dir)
    backend = LocalBackend(vault.root, Config.load(vault.root), engine=Engine(Index(vault, embedder)))
    backend.recall(RecallQuery("nothing yet"))  # the index built
    said = ["My sister Ana lives in Porto", "Mi bici es una Brompton verde", "I play the cello on Sundays"]
    outcomes = remember_many(backend, [Remembering(text) for text in said])
    assert [o.status for o in outcomes] == ["created"] * 3

    def ranked() -> list[tuple[str, float]]:
        result = backend.recall(RecallQuery("¿qué instrumento toco?", include_pinned=False))
        return [(hit.memory.id, round(hit.score, 4)) for hit in result.hits]

    synced = ranked()
    assert sorted(t for t in asked if t in said) == sorted(said)  # each once, by the check or the sync
    assert embedder._kept == {} and embedder.english._kept == {}  # the sync took them
    assert synced[0][0] == outcomes[2].memory.id
    backend.sync(full=True)
    assert ranked() == synced


def test_a_vector_search_among_some_labels_finds_only_those_by_any_path(tmp_path):
    """``only`` (an English question's multilingual half looks among Spanish memories): a
    few labels are scored exactly, many through a filtered walk of the graph, and the
    delta's by brute force; each finds the best of the allowed labels and nothing else."""
    rng = np.random.default_rng(7)
    data = rng.standard_normal((DELTA_MAX + 900, 16)).astype(np.float32)
    data /= np.linalg.norm(data, axis=1, keepdims=True)
    index = VectorIndex.create(tmp_path / "v.hnsw", 16, capacity=len(data))
    index.add(list(range(len(data) - 100)), data[:-100])
    query = data[3]
    for only in (frozenset({3, 10, 20}), frozenset(range(0, len(data) - 100, 2)) - {3}):
        found = index.search(query, 5, len(data) - 100, only)
        assert found and {label for label, _ in found} <= only
        exact = sorted(only, key=lambda label: -float(data[label] @ query))[:5]
        assert [label for label, _ in found][:3] == exact[:3]
    index.save()
    vectors = Vectors.read(tmp_path / "v.hnsw", tmp_path / "v.delta", 16)
    vectors.add(list(range(len(data) - 100, len(data))), data[-100:])
    only = frozenset({len(data) - 1, len(data) - 50, 5})
    found = vectors.search(data[-1], 3, len(data), only)
    assert [label for label, _ in found][0] == len(data) - 1 and {label for label, _ in found} <= only


def test_split_vectors_score_as_the_whole_vectors_did(tmp_path):
    """A bilingual generation keeps the first part's columns in hnswlib and the rest as int8
    ``SideRows``: a question asking either part, or both, finds the same memories with the
    same cosines (to the int8 rows' precision) as the whole vectors in hnswlib, before and
    after a delta of writes and deletes is folded in; the rest's columns read alone
    (``side_of``) are those of the stored vectors."""
    from vault_memory.index.vector_index import SideRows

    rng = np.random.default_rng(7)
    weight = 0.5**0.5

    def joined(n: int) -> np.ndarray:
        head, tail = rng.normal(size=(n, 6)), rng.normal(size=(n, 10))
        head /= np.linalg.norm(head, axis=1, keepdims=True)
        tail /= np.linalg.norm(tail, axis=1, keepdims=True)
        return np.hstack([head * weight, tail * weight]).astype(np.float32)

    def publish(moves) -> None:  # as a sync's publish applies them
        for live, staged in moves:
            if staged is not None:
                os.replace(staged, live)
            elif live.exists():
                live.unlink()

    first, later = joined(40), joined(5)
    layouts = {}
    for name, split in (("whole", None), ("split", (6, weight))):
        folder = tmp_path / name
        folder.mkdir()
        vectors = Vectors.for_sync(
            folder / "vectors.hnsw", folder / "vectors.delta", 16, whole=True, live=0, adding=40, split=split
        )
        vectors.add(list(range(40)), first)
        publish(vectors.stage(40))
        delta = Vectors.for_sync(
            folder / "vectors.hnsw", folder / "vectors.delta", 16, whole=False, live=40, adding=5, split=split
        )
        delta.add(list(range(40, 45)), later)
        delta.delete([3, 41])
        publish(delta.stage(45))
        layouts[name] = split
    questions = {"head": np.r_[first[10, :6], np.zeros(10)], "tail": np.r_[np.zeros(6), later[0, 6:]]}
    questions["both"] = first[20] * 0.6 + later[2] * 0.4
    for fold in (False, True):
        found = {}
        for name, split in layouts.items():
            folder = tmp_path / name
            if fold:
                vectors = Vectors.for_sync(
                    folder / "vectors.hnsw", folder / "vectors.delta", 16, whole=True, live=43, adding=0, split=split
                )
                publish(vectors.stage(43))
            vectors = Vectors.read(folder / "vectors.hnsw", folder / "vectors.delta", 16, split=split)
            assert (vectors.side is not None) == (split is not None)
            found[name] = {q: vectors.search(v.astype(np.float32), 8, 43) for q, v in questions.items()}
            # the second part's columns read alone (the judge of kinds reads them) are the stored ones
            labels = [0, 3, 12, 39, 40, 41, 44, 99]
            stored, side = vectors.stored(labels), vectors.side_of(labels)
            if split is None:
                assert side == {}
            else:
                assert set(side) == set(stored) == set(labels) - {3, 41, 99}
                assert all(np.array_equal(side[label], stored[label][6:]) for label in side)
        for q in questions:
            whole, split_hits = dict(found["whole"][q]), dict(found["split"][q])
            assert 3 not in split_hits and 41 not in split_hits
            assert list(whole)[:3] == list(split_hits)[:3], q
            for label in set(whole) & set(split_hits):
                assert split_hits[label] == pytest.approx(whole[label], abs=0.01), (q, label)
    assert isinstance(
        Vectors.read(
            tmp_path / "split" / "vectors.hnsw", tmp_path / "split" / "vectors.delta", 16, split=(6, weight)
        ).side,
        SideRows,
    )


def test_a_word_no_memory_holds_is_known_only_from_todays_analysis_of_every_word(mech_vault):
    """The restatement check leaves the model out for a word no indexed memory holds,
    known from the keyword postings; those are every word of every memory only when the
    generation was built by today's analysis and no ``<private>`` span was cut out of them."""
    from vault_memory.index.keyword_index import body_terms, content_terms
    from vault_memory.index.snapshot import Snapshot

    write(
        mech_vault / "facts" / "orchard.md", "---\nid: orchard\nkey: lantern_colour\n---\nThe orchard lantern is blue\n"
    )
    mem = vmem.open(mech_vault, use_daemon=False)
    layout = IndexLayout(StateLayout.of(mech_vault))

    def may_hold(text: str) -> bool:
        with Snapshot(layout) as snap:
            return snap.may_hold_words(body_terms(content_terms(text), text))

    mem.reindex()
    assert may_hold("orchard lantern") and may_hold("lanterns of the orchard")
    assert not may_hold("orchard zeppelin")
    # a key's words joined by underscores are the body's words apart: never ruled out
    assert body_terms(content_terms("lantern_colour blue"), "lantern_colour blue") == {"blue"}
    write(mech_vault / "facts" / "gate.md", "---\nid: gate\n---\nThe gate code is <private>zeppelin</private>\n")
    mem.sync()
    assert may_hold("orchard zeppelin")  # a private word is in no posting: nothing is ruled out
    (mech_vault / "facts" / "gate.md").unlink()
    mem.reindex()
    assert not may_hold("orchard zeppelin")
    catalog = Catalog(layout.current().catalog_path)
    catalog._sql("DELETE FROM meta WHERE key = ?", (Meta.KEYWORD_ANALYSIS,))  # as built before it was recorded
    catalog.close()
    assert may_hold("orchard zeppelin")
    mem.close()


def test_an_index_analysed_before_english_words_were_kept_says_a_reindex_finds_them(empty_vault_dir):
    """An index made before "son", "sea", "hay", "todo" and "era" were kept as English
    words (keyword analysis 1) holds no term for them; it still answers, and the doctor
    says what a reindex adds. A sound index of today's analysis says nothing."""
    import sqlite3

    write(empty_vault_dir / "facts" / "a.md", "---\nid: a\n---\nMy son Leo is seven\n")
    mem = vmem.open(empty_vault_dir, use_daemon=False)
    mem.reindex()
    assert not any("analysed by an earlier vmem" in note for note in mem.doctor().notes)
    folder = mem.backend.index.layout.current().folder
    with sqlite3.connect(folder / "catalog.sqlite") as db:
        db.execute("UPDATE meta SET value = '1' WHERE key = 'keyword_analysis'")
    db.close()
    mem = vmem.open(empty_vault_dir, use_daemon=False)
    assert any("`vmem reindex` also finds English words" in note for note in mem.doctor().notes)
    assert [h.memory.id for h in mem.recall("who is my son?", include_pinned=False).hits] == ["a"]
    mem.reindex()
    assert not any("analysed by an earlier vmem" in note for note in mem.doctor().notes)


def test_a_read_graph_scores_from_its_file_as_from_the_graph_and_a_changed_one_from_the_graph(tmp_path):
    """A reader's graph is scored from the file it was loaded from (its vectors in place, not
    a Python list per vector): the same candidates and cosines, deleted labels and labels it
    never held left out; once the graph changes, the file is no longer its truth."""
    pytest.importorskip("hnswlib")
    dim, n = 16, 4200  # past the exact search's bound: a graph
    rows = unit(n, dim, seed=3) * np.linspace(0.5, 2.0, n, dtype=np.float32)[:, None]  # any length
    vi = VectorIndex.create(tmp_path / "v.hnsw", dim, capacity=n)
    vi.add(list(range(n)), rows)
    vi.delete([5, 6, 7])
    vi.save()
    again = VectorIndex.load(tmp_path / "v.hnsw", dim)
    assert not isinstance(again.index, ann.Exact)
    query = unit(1, dim, seed=4)[0]
    asked = [3, 5, 9, 10**6, 40, 4199, 6]
    scored = dict(again.rescored(asked, query, k=10))
    expected = {label: float(rows[label] @ query / np.linalg.norm(rows[label])) for label in (3, 9, 40, 4199)}
    assert set(scored) == set(expected)
    assert all(abs(scored[label] - expected[label]) < 1e-6 for label in expected)
    assert again._file_rows not in (None, False)  # read in place
    changed = unit(1, dim, seed=5)
    again.add([9], changed)  # the graph now differs from its file
    assert abs(dict(again.rescored([9], query, k=1))[9] - float(changed[0] @ query)) < 1e-6
