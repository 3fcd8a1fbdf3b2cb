"""Which files in a vault are memories: the walk and its ignore rules.

The sync daemon and every command use this one walk, so they always agree on what the
vault holds. Files are found, not read: ``stat`` only, which keeps a no-change check of a
10,000-file vault cheap.
"""

from __future__ import annotations

import fnmatch
import os
import re
from pathlib import Path
from typing import NamedTuple

#: Folders that never hold memories: vmem's own state, version control, editors' state.
SKIP_DIRS = {".vmem", ".git", ".obsidian", ".trash", ".stfolder", ".stversions", "node_modules", "__pycache__"}
MEMORY_SUFFIXES = (".md",)


def is_temp_name(name: str) -> bool:
    """Editor and sync-tool scratch files: swap, backup, temp and partial downloads."""
    return (
        name.startswith((".", "~", "#"))
        or name.endswith(("~", ".swp", ".swx", ".swo", ".tmp", ".part", ".crdownload", ".bak"))
        or name == "4913"  # vim's write test
        or ".tmp-" in name
        or ".syncthing." in name
    )


class IgnoreRules:
    """gitignore-style patterns from vmem.toml, ``.vmemignore`` and ``.gitignore``.

    A pattern with a ``/`` inside is anchored at the vault root; one without matches a
    file or folder name at any depth; a trailing ``/`` matches folders only; ``!`` re-includes.
    """

    def __init__(self, patterns: list[str]):
        self.patterns: list[tuple[bool, bool, bool, re.Pattern[str]]] = []
        for raw in patterns:
            p = raw.strip()
            if not p or p.startswith("#"):
                continue
            negate = p.startswith("!")
            p = p[1:] if negate else p
            dir_only = p.endswith("/")
            p = p.strip("/")
            anchored = "/" in p or raw.strip().lstrip("!").startswith("/")
            self.patterns.append((negate, dir_only, anchored, re.compile(fnmatch.translate(p))))

    @classmethod
    def for_vault(cls, root: Path, configured: list[str]) -> IgnoreRules:
        patterns = list(configured)
        for name in (".vmemignore", ".gitignore"):
            f = root / name
            if f.is_file():
                try:
                    patterns += f.read_text(encoding="utf-8", errors="replace").splitlines()
                except OSError:
                    pass
        return cls(patterns)

    def ignored(self, relpath: str, is_dir: bool) -> bool:
        result = False
        name = relpath.rsplit("/", 1)[-1]
        for negate, dir_only, anchored, pattern in self.patterns:
            if dir_only and not is_dir:
                continue
            if pattern.match(relpath if anchored else name):
                result = not negate
        return result


class FileEntry(NamedTuple):
    """A candidate file as the walk saw it (a tuple: 10,000 of these are made per check).

    Size, mtime, ctime and inode together say whether a file may have changed, as git's
    index does: ``cp -p``, ``rsync -a`` or a restored backup keep size and mtime, but not
    ctime or the inode."""

    relpath: str  # POSIX, relative to the vault root
    size: int
    mtime_ns: int
    ctime_ns: int = 0
    inode: int = 0
    outside: bool = False  # a symlink whose target leaves the vault
    #: the name on disk is not UTF-8: ``relpath`` shows it escaped (``facts/\\xff.md``),
    #: and the file is reported, never read
    bad_name: bool = False

    @property
    def stamp(self) -> tuple[int, int, int, int]:
        return self.size, self.mtime_ns, self.ctime_ns, self.inode


def is_utf8(name: str) -> bool:
    """A name as ``os`` gives it holds surrogates where the bytes on disk are not UTF-8."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def escaped(name: str) -> str:
    """A name that is not UTF-8, printable: its odd bytes as ``\\xff``."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def _skip_dir(name: str) -> bool:
    return name in SKIP_DIRS or name.startswith(".")


def is_candidate(relpath: str, rules: IgnoreRules) -> bool:
    """Would the walk consider this path? Used by the daemon to filter events cheaply."""
    parts = relpath.split("/")
    if any(_skip_dir(p) for p in parts[:-1]):
        return False
    name = parts[-1]
    if not name.endswith(MEMORY_SUFFIXES) or is_temp_name(name):
        return False
    for i in range(1, len(parts)):
        if rules.ignored("/".join(parts[:i]), True):
            return False
    return not rules.ignored(relpath, False)


def walk(root: Path, rules: IgnoreRules) -> list[FileEntry]:
    """Every candidate memory file under ``root``, sorted by path."""
    root = root.resolve()
    found: list[FileEntry] = []
    stack = [""]
    check_rules = bool(rules.patterns)
    while stack:
        rel_dir = stack.pop()
        prefix = f"{rel_dir}/" if rel_dir else ""
        try:
            it = os.scandir(root / rel_dir if rel_dir else root)
        except OSError:
            continue
        with it:
            for entry in it:
                name = entry.name
                try:
                    if entry.is_dir(follow_symlinks=False):
                        if not _skip_dir(name) and not (check_rules and rules.ignored(prefix + name, True)):
                            stack.append(prefix + name)
                        continue
                    if not name.endswith(MEMORY_SUFFIXES) or is_temp_name(name):
                        continue
                    rel = prefix + name
                    if check_rules and rules.ignored(rel, False):
                        continue
                    if not is_utf8(rel):
                        st = entry.stat(follow_symlinks=False)
                        found.append(
                            FileEntry(
                                escaped(rel), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, bad_name=True
                            )
                        )
                        continue
                    if entry.is_symlink():
                        target = Path(os.path.realpath(entry.path))
                        if not target.is_relative_to(root):
                            found.append(FileEntry(rel, 0, 0, outside=True))
                            continue
                        if not target.is_file():
                            continue
                    st = entry.stat()
                except OSError:
                    continue
                found.append(FileEntry(rel, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino))
    found.sort()
    return found
