"""Campaigns that keep "never lose a memory" true: crashes, concurrency, a hostile
environment. Bounded in count and time; run by hand, numbers in the issue note.

    python benchmarks/campaigns.py [--kills 50] [--burst 2000] [--only crash,reindex,remember,concurrency,hostile]

- crash: a daemon SIGKILLed at random moments during a burst of creates, edits, renames
  and deletes, and restarted each time; afterwards the catalog must equal the vault
  (every memory indexed once, nothing extra), the three indexes must agree, no temp file
  may be left in the vault's folders.
- reindex / remember: `vmem reindex` and `vmem remember` killed mid-way; the next command
  must work (no stale lock), no generation but the live one and one before it may remain,
  killed writes' temp files are swept.
- concurrency: 4 CLI writers (remember, correct, forget) and an editor rewriting files,
  with recall readers, while the daemon runs: every memory present, ids unique, no error.
- hostile: a read-only vault, a full filesystem, unreadable files, symlinks that leave the
  vault: clear errors, nothing half-written.

The deterministic test embedder (``model = "hash"``) keeps the campaigns about mechanics.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vault_memory.config import StateLayout  # noqa: E402
from vault_memory.errors import IndexUnavailable  # noqa: E402
from vault_memory.index.generations import IndexLayout  # noqa: E402
from vault_memory.index.snapshot import Snapshot  # noqa: E402
from vault_memory.vault.template import create_vault  # noqa: E402
from vault_memory.vault.vault import Vault  # noqa: E402

VMEM = [sys.executable, "-m", "vault_memory"]


def new_vault(base: Path, name: str) -> Path:
    folder = create_vault(base / name, with_examples=False)
    toml = folder / "vmem.toml"
    toml.write_text(re.sub(r'(?m)^model = "[^"]*"', 'model = "hash"', toml.read_text(), count=1))
    return folder


def vmem(folder: Path, *args: str, check: bool = True, timeout: float = 300) -> subprocess.CompletedProcess:
    out = subprocess.run([*VMEM, *args, "--vault", str(folder)], capture_output=True, text=True, timeout=timeout)
    if check and out.returncode != 0:
        raise RuntimeError(f"vmem {' '.join(args)} failed: {out.stderr}")
    return out


def start_daemon(folder: Path) -> subprocess.Popen:
    proc = subprocess.Popen(
        [*VMEM, "daemon", "run", "--quiet", "--debounce", "0.05", "--vault", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    sock = folder / ".vmem" / "daemon.sock"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if sock.exists():
            return proc
        time.sleep(0.05)
    return proc


def temp_files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*.tmp-vmem") if ".vmem" not in p.parts]


def consistency(folder: Path) -> dict:
    """Does the live index hold exactly the vault's memories, once each, in all three indexes?"""
    scan = Vault(folder).scan()
    expected = {m.file.as_posix(): m.id for m in scan.memories}
    try:
        snap = Snapshot(IndexLayout(StateLayout.of(folder)))
    except IndexUnavailable:
        return {"memories": len(expected), "indexed": 0, "equal": False}
    with snap:
        records = snap.catalog.all_records()
        indexed = {path: r["id"] for path, r in records.items()}
        labels = snap.catalog.label_paths()
        stored = snap.vectors.stored_labels() if snap.vectors is not None else set()
        docs = snap.keyword.doc_count()
    return {
        "memories": len(expected),
        "indexed": len(indexed),
        "equal": indexed == expected,
        "ids_unique": len(set(indexed.values())) == len(indexed),
        "keyword_docs": docs,
        "vectors_cover_labels": set(labels) <= stored,
        "labels_one_per_memory": len(set(labels.values())) == len(indexed),
    }


# ---------------------------------------------------------------- crash


def burst(folder: Path, n: int, rng: random.Random, stop: threading.Event) -> dict:
    """Creates, edits, renames and deletes, as fast as the disk takes them."""
    live: list[Path] = []
    counts = {"create": 0, "edit": 0, "rename": 0, "delete": 0}
    for i in range(n):
        if stop.is_set():
            break
        op = rng.choices(["create", "edit", "rename", "delete"], [5, 3, 1, 1])[0] if live else "create"
        if op == "create":
            path = folder / "facts" / f"c-{i:05d}.md"
            tmp = path.with_name(f".{path.name}.editor-tmp")
            tmp.write_text(f"---\nid: c-{i}\n---\nMemory {i} about token zq{i}x\n")
            os.replace(tmp, path)
            live.append(path)
        elif op == "edit":
            path = rng.choice(live)
            path.write_text(path.read_text().replace("Memory", "Edited memory", 1))
        elif op == "rename":
            path = rng.choice(live)
            target = path.with_name("r-" + path.name)
            if not target.exists():
                os.rename(path, target)
                live[live.index(path)] = target
        else:
            path = live.pop(rng.randrange(len(live)))
            path.unlink()
        counts[op] += 1
    return counts


def crash_campaign(base: Path, kills: int, n: int, seed: int = 7) -> dict:
    folder = new_vault(base, "crash")
    rng = random.Random(seed)
    stop = threading.Event()
    counts: dict = {}
    writer = threading.Thread(target=lambda: counts.update(burst(folder, n, random.Random(seed + 1), stop)))
    daemon = start_daemon(folder)
    writer.start()
    started = time.monotonic()
    done_kills = 0
    try:
        for _ in range(kills):
            time.sleep(rng.uniform(0.1, 1.0))
            daemon.send_signal(signal.SIGKILL)
            daemon.wait(30)
            done_kills += 1
            daemon = start_daemon(folder)
        writer.join()
        # let the last daemon catch up, then compare
        deadline = time.monotonic() + 300
        state = consistency(folder)
        while not state["equal"] and time.monotonic() < deadline:
            time.sleep(1)
            state = consistency(folder)
    finally:
        stop.set()
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(60)
    return {
        "kills": done_kills,
        "operations": counts,
        "seconds": round(time.monotonic() - started, 1),
        **state,
        "temp_files_left": len(temp_files(folder)),
    }


# ---------------------------------------------------------------- reindex and remember killed


def killed_commands(base: Path, rounds: int, seed: int = 11) -> dict:
    folder = new_vault(base, "killed")
    rng = random.Random(seed)
    for i in range(300):
        (folder / "facts" / f"m{i:04d}.md").write_text(f"---\nid: m{i}\n---\nMemory number {i}, token q{i}z\n")
    vmem(folder, "sync")
    reindex_kills, remember_kills = 0, 0
    for _ in range(rounds):
        proc = subprocess.Popen(
            [*VMEM, "reindex", "--vault", str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        time.sleep(rng.uniform(0.05, 1.5))
        if proc.poll() is None:
            proc.kill()
            reindex_kills += 1
        proc.wait(30)
    for i in range(rounds):
        proc = subprocess.Popen(
            [*VMEM, "remember", f"Remembered while killed {i}", "--vault", str(folder)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(rng.uniform(0.05, 1.0))
        if proc.poll() is None:
            proc.kill()
            remember_kills += 1
        proc.wait(30)
    temps_after_kills = len(temp_files(folder))
    for path in temp_files(folder):  # a minute passes: killed writes' temp files are now stale
        os.utime(path, (time.time() - 120, time.time() - 120))
    next_sync = vmem(folder, "sync", check=False)
    next_write = vmem(folder, "remember", "A memory after the kills", check=False)
    vmem(folder, "reindex")
    layout = IndexLayout(StateLayout.of(folder))
    return {
        "reindex_kills": reindex_kills,
        "remember_kills": remember_kills,
        "next_sync_ok": next_sync.returncode == 0,
        "next_remember_ok": next_write.returncode == 0,
        "temp_files_right_after_kills": temps_after_kills,
        "temp_files_after_next_write": len(temp_files(folder)),
        "generations_left": len(list(layout.dir.glob("gen-*"))),
        **consistency(folder),
    }


# ---------------------------------------------------------------- concurrency


def concurrency_campaign(base: Path, seconds: float = 60.0) -> dict:
    folder = new_vault(base, "concurrent")
    daemon = start_daemon(folder)
    deadline = time.monotonic() + seconds
    errors: list[str] = []
    remembered: list[str] = []
    lock = threading.Lock()

    def writer(n: int) -> None:
        rng = random.Random(n)
        i = 0
        while time.monotonic() < deadline:
            i += 1
            out = vmem(folder, "remember", f"Writer {n} fact {i} about z{n}x{i}", "--json", check=False)
            if out.returncode != 0:
                errors.append(out.stderr.strip())
                continue
            mid = json.loads(out.stdout)["id"]
            with lock:
                remembered.append(mid)
            roll = rng.random()
            if roll < 0.2:
                fixed = vmem(folder, "correct", mid, f"Writer {n} fact {i}, corrected", "--json", check=False)
                if fixed.returncode != 0:
                    errors.append(fixed.stderr.strip())
                else:
                    with lock:
                        remembered.append(json.loads(fixed.stdout)["id"])
            elif roll < 0.3:
                gone = vmem(folder, "forget", mid, check=False)
                if gone.returncode != 0:
                    errors.append(gone.stderr.strip())
                else:
                    with lock:
                        remembered.remove(mid)

    def editor() -> None:
        i = 0
        while time.monotonic() < deadline:
            path = folder / "notes" / f"editor-{i % 20}.md"
            path.parent.mkdir(exist_ok=True)
            tmp = path.with_name(f".{path.name}.swp")
            tmp.write_text(f"---\nid: editor-{i % 20}\n---\nEditor version {i}\n")
            os.replace(tmp, path)
            i += 1
            time.sleep(0.02)

    recalls = [0]

    def reader() -> None:
        while time.monotonic() < deadline:
            out = vmem(folder, "recall", "writer fact", "--json", check=False)
            if out.returncode != 0:
                errors.append(out.stderr.strip())
            recalls[0] += 1

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    threads += [threading.Thread(target=editor), threading.Thread(target=reader), threading.Thread(target=reader)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        time.sleep(2)
        scan = Vault(folder).scan()
        ids = [m.id for m in scan.memories]
        present = set(ids)
        state = consistency(folder)
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(60)
    return {
        "seconds": seconds,
        "remembered_kept": len(remembered),
        "all_present": all(mid in present for mid in remembered),
        "ids_unique": len(ids) == len(present),
        "problems": [str(p) for p in scan.problems],
        "recalls": recalls[0],
        "errors": errors[:5],
        "error_count": len(errors),
        "index_equal": state["equal"],
    }


# ---------------------------------------------------------------- hostile environment


def hostile_campaign(base: Path) -> dict:
    results: dict = {"as_root": os.geteuid() == 0}
    folder = new_vault(base, "hostile")
    vmem(folder, "remember", "Before anything went wrong")
    vmem(folder, "sync")
    # a read-only vault: a read-only bind mount (permission bits do not stop root)
    ro = base / "ro"
    ro.mkdir()
    bound = subprocess.run(["mount", "--bind", str(folder), str(ro)], capture_output=True).returncode == 0
    if bound and subprocess.run(["mount", "-o", "remount,bind,ro", str(ro)], capture_output=True).returncode == 0:
        before = sorted(p.name for p in (ro / "facts").iterdir())
        out = vmem(ro, "remember", "Written into a read-only vault", check=False)
        results["read_only_remember"] = {"exit": out.returncode, "message": out.stderr.strip()[:200]}
        results["read_only_recall_exit"] = vmem(ro, "recall", "anything went wrong", check=False).returncode
        results["read_only_files_unchanged"] = sorted(p.name for p in (ro / "facts").iterdir()) == before
    results["read_only_tested"] = bound
    if bound:
        subprocess.run(["umount", str(ro)], capture_output=True)
    # an unreadable file (only meaningful for a user that permissions apply to)
    secret = folder / "facts" / "secret.md"
    secret.write_text("---\nid: secret\n---\nno one may read this\n")
    secret.chmod(0)
    doctor = vmem(folder, "doctor", check=False)
    results["unreadable_file_doctor"] = {
        "exit": doctor.returncode,
        "names_it": "secret.md" in doctor.stdout,
        "meaningful": os.geteuid() != 0,
    }
    secret.chmod(0o600)
    # a symlink that leaves the vault
    outside = base / "outside.md"
    outside.write_text("---\nid: outside\n---\nnot in the vault\n")
    os.symlink(outside, folder / "facts" / "link.md")
    doctor = vmem(folder, "doctor", check=False)
    results["symlink_out_doctor"] = {"exit": doctor.returncode, "names_it": "link.md" in doctor.stdout}
    results["symlink_out_recalled"] = "not in the vault" in vmem(folder, "recall", "not in the vault").stdout
    # a full filesystem: a small tmpfs if this machine lets us mount one
    mount = base / "small"
    mount.mkdir()
    mounted = (
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)], capture_output=True).returncode
        == 0
    )
    results["full_fs_tested"] = mounted
    if mounted:
        try:
            full = new_vault(mount, "v")
            filler = mount / "filler"
            subprocess.run(["dd", "if=/dev/zero", f"of={filler}", "bs=64k", "count=1000"], capture_output=True)
            before = sorted(p.name for p in (full / "facts").iterdir())
            out = vmem(full, "remember", "x" * 5000, check=False)
            after = sorted(p.name for p in (full / "facts").iterdir())
            results["full_fs_remember"] = {
                "exit": out.returncode,
                "message": out.stderr.strip()[:160],
                "partial_files": [n for n in after if n not in before],
                "temp_files": len(temp_files(full)),
            }
        finally:
            subprocess.run(["umount", str(mount)], capture_output=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--burst", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=10, help="killed reindexes (and remembers)")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the concurrency campaign")
    parser.add_argument("--only", default="crash,killed,concurrency,hostile")
    args = parser.parse_args()
    chosen = set(args.only.split(","))
    report: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        if "crash" in chosen:
            report["crash"] = crash_campaign(base, args.kills, args.burst)
        if "killed" in chosen:
            report["killed"] = killed_commands(base, args.rounds)
        if "concurrency" in chosen:
            report["concurrency"] = concurrency_campaign(base, args.seconds)
        if "hostile" in chosen:
            report["hostile"] = hostile_campaign(base)
        shutil.rmtree(base, ignore_errors=True)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
