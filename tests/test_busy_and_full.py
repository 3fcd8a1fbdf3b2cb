"""A database another program holds, and a full disk (issue 59): recall answers from the
index it has and says why, a write says which file and what to do, quickly, and no command
ends in a traceback. Real processes, a real SQLite lock, a real full file system."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import VMEM

import vault_memory as vmem
from vault_memory.vault.template import create_vault

#: a program that holds a SQLite database in an exclusive transaction until killed
HOLDER = textwrap.dedent(
    """
    import sqlite3, sys, time
    db = sqlite3.connect(sys.argv[1], isolation_level=None)
    db.execute("BEGIN EXCLUSIVE")
    print("held", flush=True)
    time.sleep(120)
    """
)


def _hold(path: Path) -> subprocess.Popen:
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return holder


def _vmem(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([VMEM, *args], capture_output=True, text=True, timeout=120)


def test_a_catalog_another_program_holds_is_said_and_recall_still_answers(tmp_path):
    vault = create_vault(tmp_path / "vault", with_examples=False)
    with vmem.open(vault, use_daemon=False) as mem:
        mem.remember("The user's canoe is stored at the rowing club")
        mem.sync()
    [catalog] = (vault / ".vmem").rglob("catalog.sqlite")
    holder = _hold(catalog)
    try:
        (vault / "facts" / "paddle.md").write_text("The user's paddle is a carbon one\n")
        recalled = _vmem("recall", "where is my canoe?", "--vault", str(vault))
        synced = _vmem("sync", "--vault", str(vault))
    finally:
        holder.kill()
        holder.wait()
    assert recalled.returncode == 0 and "rowing club" in recalled.stdout
    assert "held by another program" in recalled.stderr and "Traceback" not in recalled.stderr
    assert "Traceback" not in synced.stderr, synced.stderr
    assert synced.returncode != 0 and str(catalog) in synced.stderr and "try again" in synced.stderr
    with vmem.open(vault, use_daemon=False) as mem:  # once let go, all is as before
        assert "carbon" in mem.recall("what paddle do I use?").block


def test_a_ledger_another_program_holds_is_said(tmp_path):
    vault = create_vault(tmp_path / "vault", with_examples=False)
    transcript = tmp_path / "chat.txt"
    transcript.write_text("User: Remember that my canoe is green\nAssistant: Noted.\n")
    first = _vmem("ingest", str(transcript), "--vault", str(vault))
    assert first.returncode == 0, first.stderr
    [ledger] = (vault / ".vmem").rglob("ledger.sqlite")
    holder = _hold(ledger)
    try:
        transcript.write_text("User: Remember that my kayak is red\nAssistant: Noted.\n")
        again = _vmem("ingest", str(transcript), "--vault", str(vault))
    finally:
        holder.kill()
        holder.wait()
    assert "Traceback" not in again.stderr and "held by another program" in again.stderr, again.stderr


FULL_DISK = textwrap.dedent(
    """
    set -e
    mount -t tmpfs -o size=4m tmpfs "$MNT"
    "$PY" -c "import vault_memory as v; m = v.init('$MNT/v', examples=False); m.remember('The user keeps the tent in the loft'); m.sync()"
    dd if=/dev/zero of="$MNT/filler" bs=4k 2>/dev/null || true
    printf 'The stove fuel is under the stairs\\n' > "$MNT/v/facts/fuel.md" || true
    set +e
    for verb in recall sync doctor; do
        if [ $verb = recall ]; then "$VMEM" recall "where is the tent?" --vault "$MNT/v" > "$OUT/$verb.out" 2> "$OUT/$verb.err"
        else "$VMEM" $verb --vault "$MNT/v" > "$OUT/$verb.out" 2> "$OUT/$verb.err"; fi
        echo $? > "$OUT/$verb.rc"
    done
    rm -f "$MNT/filler"
    "$VMEM" sync --vault "$MNT/v" > "$OUT/after.out" 2> "$OUT/after.err"; echo $? > "$OUT/after.rc"
    umount "$MNT"
    """
)


def _on_a_full_disk(tmp_path: Path, script: str) -> dict[str, str]:
    """Run ``script`` with a small tmpfs mounted at $MNT (in a user namespace); what it wrote
    into $OUT, by file name."""
    if shutil.which("unshare") is None or subprocess.run(["unshare", "-rm", "true"]).returncode != 0:
        pytest.skip("no user namespaces here: a full file system cannot be mounted without root")
    out, mnt = tmp_path / "out", tmp_path / "mnt"
    out.mkdir()
    mnt.mkdir()
    env = {"PATH": "/usr/bin:/bin", "MNT": str(mnt), "OUT": str(out), "VMEM": VMEM, "PY": sys.executable}
    done = subprocess.run(["unshare", "-rm", "bash", "-c", script], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return {p.name: p.read_text() for p in out.iterdir()}


def test_read_commands_on_a_full_disk_answer_or_report_and_nothing_is_half_written(tmp_path):
    said = _on_a_full_disk(tmp_path, FULL_DISK)
    assert said["recall.rc"].strip() == "0" and "tent" in said["recall.out"]
    assert "disk may be full" in said["recall.err"]
    assert said["sync.rc"].strip() != "0" and "disk may be full" in said["sync.err"]
    assert "disk may be full" in said["doctor.out"] + said["doctor.err"]
    assert not any("Traceback" in text for name, text in said.items() if name.endswith(".err")), said
    assert said["after.rc"].strip() == "0", said["after.err"]  # the index was left whole


FORGET_ON_A_FULL_DISK = textwrap.dedent(
    """
    set -e
    mount -t tmpfs -o size=4m tmpfs "$MNT"
    "$PY" - <<PY
    import vault_memory as v
    m = v.init("$MNT/v", examples=False)
    print(m.remember("The spare bike key hangs by the meter box").memory.id, file=open("$OUT/bike.id", "w"))
    print(m.remember("The boiler is serviced every October").memory.id, file=open("$OUT/boiler.id", "w"))
    m.forget(open("$OUT/boiler.id").read().strip())  # the manifest exists: the next record appends to it
    m.sync()
    import os  # a record cut mid-line, that ends the manifest's last page: the next record needs a new one
    manifest, cut = "$MNT/v/.trash/vmem-trash.jsonl", '{"id": "cut-short", "original": "facts/'
    open(manifest, "a").write(cut + "x" * (4096 - os.path.getsize(manifest) % 4096 - len(cut)))
    PY
    dd if=/dev/zero of="$MNT/filler" bs=4k 2>/dev/null || true
    set +e
    "$VMEM" forget "$(cat "$OUT/bike.id")" --vault "$MNT/v" > "$OUT/full.out" 2> "$OUT/full.err"; echo $? > "$OUT/full.rc"
    ls "$MNT/v/facts" > "$OUT/facts.ls"
    rm -f "$MNT/filler"
    "$VMEM" forget "$(cat "$OUT/bike.id")" --vault "$MNT/v" > "$OUT/again.out" 2> "$OUT/again.err"; echo $? > "$OUT/again.rc"
    "$VMEM" restore "$(cat "$OUT/bike.id")" --vault "$MNT/v" > "$OUT/restore.out" 2> "$OUT/restore.err"; echo $? > "$OUT/restore.rc"
    "$VMEM" restore "$(cat "$OUT/boiler.id")" --vault "$MNT/v" > "$OUT/boiler.out" 2> "$OUT/boiler.err"; echo $? > "$OUT/boiler.rc"
    ls "$MNT/v/facts" > "$OUT/after.ls"
    umount "$MNT"
    """
)


def test_a_forget_on_a_full_disk_keeps_the_memory_or_its_undo_and_a_cut_record_swallows_no_other(tmp_path):
    """Issue 59: the file moved into the trash before its record was written, so on a full
    disk the memory left facts/ and `restore` could not find it; a record cut mid-line also
    swallowed the next forget's. Now the record comes first, on a line of its own."""
    said = _on_a_full_disk(tmp_path, FORGET_ON_A_FULL_DISK)
    bike = said["bike.id"].strip()
    assert said["full.rc"].strip() != "0" and "Traceback" not in said["full.err"], said["full.err"]
    assert any(bike in name for name in said["facts.ls"].split()), said  # refused whole: still a memory
    assert said["again.rc"].strip() == "0", said["again.err"]
    assert said["restore.rc"].strip() == "0", said["restore.err"]  # its record was not swallowed by the cut one
    assert said["boiler.rc"].strip() == "0", said["boiler.err"]  # nor the records before the cut one
    assert sum(bike in name for name in said["after.ls"].split()) == 1
