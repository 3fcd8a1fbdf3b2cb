"""The vault's trash: forgotten memories stay inside the vault (Obsidian's own
``.trash/`` folder, where a person and git see them), and a manifest records where each
came from so ``restore`` can put it back."""

from __future__ import annotations

import functools
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from .. import safejson
from ..errors import VaultError, WriteRefused
from .ids import is_valid_id

#: the trash folder inside the vault, and the record of what is in it
TRASH_DIR = ".trash"
TRASH_MANIFEST = "vmem-trash.jsonl"


@dataclass
class TrashEntry:
    id: str
    original: str
    trashed: str
    at: str
    #: the digest of the file as it was forgotten (``digest_of``): a merge that brings an
    #: edit to it in the trash is told from it ("" in an entry an older vmem wrote)
    sha: str = ""


def digest_of(raw: bytes) -> str:
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


class Trash:
    def __init__(self, folder: Path):
        self.folder = folder
        self.manifest = folder / TRASH_MANIFEST

    def entries(self) -> list[TrashEntry]:
        """Forgotten memories that can still be restored, newest first. A record is used
        only if it names a file inside the trash and a memory path inside the vault: the
        manifest travels through git and sync, and a tampered one must reach nothing else."""
        try:
            st = self.manifest.stat()
        except OSError:
            return []
        entries = []
        for entry in _recorded(self.manifest, (st.st_mtime_ns, st.st_size, st.st_ino)):
            trashed = self.folder / entry.trashed
            if trashed.is_file() and not trashed.is_symlink():
                entries.append(entry)
        return sorted(entries, key=lambda e: e.trashed, reverse=True)

    def superseded(self) -> dict[str, list[str]]:
        """What each forgotten memory had replaced, by its id. Forgetting a correction makes
        the value it replaced current again; but a chain that goes on past a forgotten
        memory holds through it: one clone forgets "deploys on Thursdays" (which had
        replaced "Tuesdays"), another corrects Thursdays to Mondays, and after the merge
        Tuesdays must not come back (``Catalog.superseded_targets`` follows it)."""
        from .fileformat import parse_memory

        out: dict[str, list[str]] = {}
        for entry in self.entries():
            try:
                memory = parse_memory((self.folder / entry.trashed).read_bytes(), Path(entry.original))
            except (OSError, VaultError):
                continue  # a trashed file that cannot be read replaces nothing it can say
            if memory.supersedes:
                out[memory.id] = list(memory.supersedes)
        return out

    def edited(self) -> list[TrashEntry]:
        """Forgotten memories edited since: one clone forgot it, another edited it, and
        git's merge took the move into the trash and the edit together, so the edit is in
        the trash. The person's newest words are there: they are said (doctor, recall), and
        what the memory replaced stays replaced (``superseded``)."""
        out = []
        for entry in self.entries():
            try:
                now = digest_of((self.folder / entry.trashed).read_bytes())
            except OSError:
                continue
            if entry.sha and now != entry.sha:
                out.append(entry)
        return out

    def record(self, entry: TrashEntry) -> None:
        """Append ``entry`` to the manifest, durably, on a line of its own: a record an
        earlier write left cut mid-line (a full disk) never swallows this one."""
        self.folder.mkdir(parents=True, exist_ok=True)
        with open(self.manifest, "a+b") as f:
            f.seek(0, os.SEEK_END)
            cut = f.tell() > 0 and (f.seek(-1, os.SEEK_END) or f.read(1)) != b"\n"
            f.write((b"\n" if cut else b"") + (json.dumps(entry.__dict__, ensure_ascii=False) + "\n").encode("utf-8"))
            f.flush()
            os.fsync(f.fileno())

    def unrecorded(self) -> list[str]:
        """The files in the trash no record names (a forget cut short before it recorded one,
        or a file put there by hand): ``restore`` cannot find them, ``doctor`` says so."""
        if not self.folder.is_dir():
            return []
        named = {entry.trashed for entry in self.entries()}
        return sorted(p.name for p in self.folder.glob("*.md") if p.is_file() and p.name not in named)


@functools.lru_cache(maxsize=4)
def _recorded(manifest: Path, stamp: tuple[int, int, int]) -> tuple[TrashEntry, ...]:
    """The valid records of a manifest as it is at ``stamp``, each trashed file once (the
    last record of it): read once a process, however often a command asks and however
    many times a record was copied into it."""
    found: dict[str, TrashEntry] = {}
    with open(manifest, encoding="utf-8", errors="replace") as f:
        for line in f:
            if not line.lstrip().startswith("{"):
                continue  # no record: skipped without parsing it
            try:
                entry = TrashEntry(**safejson.loads(line))
            except (ValueError, TypeError):
                continue
            if _valid(entry):
                found[entry.trashed] = entry
    return tuple(found.values())


def check_trashed_id(trashed: Path, memory_id: str, limit: int) -> None:
    """Refuse to restore a link, or a trashed file whose own id is not its record's: a
    record edited to name another file would bring back a memory nobody asked for."""
    from .fileformat import parse_memory
    from .fsutil import read_regular

    if trashed.is_symlink():
        raise WriteRefused(f"{TRASH_DIR}/{trashed.name} is a link, not a forgotten file; not restored")
    try:
        own = parse_memory(read_regular(trashed, limit), Path(trashed.name))
    except VaultError:
        return  # a broken file is restored as it is: doctor names it once it is back
    if not own.id_derived and own.id != memory_id:
        raise WriteRefused(
            f"{TRASH_DIR}/{trashed.name} holds the memory {own.id!r}, not {memory_id!r}: "
            "its record names another file; not restored"
        )


def _valid(entry: TrashEntry) -> bool:
    if not all(isinstance(v, str) for v in (entry.id, entry.original, entry.trashed)):
        return False
    name, original = Path(entry.trashed), Path(entry.original)
    if len(name.parts) != 1 or name.name in ("", ".", "..", TRASH_MANIFEST) or not name.name.endswith(".md"):
        return False
    if original.is_absolute() or ".." in original.parts or original.suffix != ".md":
        return False
    return not any(part.startswith(".") for part in original.parts) and is_valid_id(entry.id)
