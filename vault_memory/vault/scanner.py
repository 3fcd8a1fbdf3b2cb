"""Which files in a vault are memories: the walk and its ignore rules.

The sync daemon and every command use this one walk, so they always agree on what the
vault holds. Files are found, not read: ``stat`` only, which keeps a no-change check of a
10,000-file vault cheap.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import stat
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

#: Folders that never hold memories: vmem's own state, version control, editors' state.
SKIP_DIRS = {".vmem", ".git", ".obsidian", ".trash", ".stfolder", ".stversions", "node_modules", "__pycache__"}
MEMORY_SUFFIXES = (".md",)


_TEMP_FIRST = (".", "~", "#")
_S_IFMT, _S_IFLNK = stat.S_IFMT(0o177777), stat.S_IFLNK


def is_temp_name(name: str) -> bool:
    """Editor and sync-tool scratch files: swap, backup, temp and partial downloads."""
    return (
        name[:1] in _TEMP_FIRST
        or name.endswith(("~", ".swp", ".swx", ".swo", ".tmp", ".part", ".crdownload", ".bak"))
        or name == "4913"  # vim's write test
        or ".tmp-" in name
        or ".syncthing." in name
    )


#: where templates are kept when Obsidian's settings do not say: the folder its Templates
#: plugin and most vaults use, at the vault's root
DEFAULT_TEMPLATE_FOLDERS = ("/Templates/", "/templates/")


def obsidian_template_folders(root: Path) -> list[str]:
    """The folder Obsidian's Templates plugin keeps its templates in (``.obsidian/
    templates.json``), as an ignore pattern, else ``DEFAULT_TEMPLATE_FOLDERS``: a note full
    of ``{{date}}`` placeholders is no memory, and read as one it failed doctor, blocked
    every commit and made every recall warn."""
    try:
        data = json.loads((root / ".obsidian" / "templates.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return list(DEFAULT_TEMPLATE_FOLDERS)
    folder = data.get("folder") if isinstance(data, dict) else None
    if not isinstance(folder, str) or not folder.strip("/ ") or ".." in folder:
        return list(DEFAULT_TEMPLATE_FOLDERS)
    return [f"/{folder.strip('/ ')}/"]


class IgnoreRules:
    """gitignore-style patterns from vmem.toml, ``.vmemignore`` and ``.gitignore``.

    A pattern with a ``/`` inside is anchored at the vault root; one without matches a
    file or folder name at any depth; a trailing ``/`` matches folders only; ``!`` re-includes.
    """

    def __init__(self, patterns: list[str]):
        self.patterns: list[tuple[bool, bool, bool, re.Pattern[str]]] = []
        self._globs: list[str] = []  # each pattern as written, without '!' and slashes
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
            self._globs.append(p)
        self._prepare()

    @classmethod
    def for_vault(cls, root: Path, configured: list[str]) -> IgnoreRules:
        patterns = list(configured) + obsidian_template_folders(root)
        for name in (".vmemignore", ".gitignore"):
            f = root / name
            if f.is_file():
                try:
                    patterns += f.read_text(encoding="utf-8", errors="replace").splitlines()
                except OSError:
                    pass
        return cls(patterns)

    def _prepare(self) -> None:
        # Without a '!' the last match is any match: one regex per kind of path does it all
        # (the walk asks once per file, 100,000 times in a large vault).
        self._combined: dict[bool, tuple[re.Pattern[str] | None, re.Pattern[str] | None]] | None = None
        if not any(negate for negate, *_ in self.patterns):
            self._combined = {is_dir: self._union(is_dir) for is_dir in (False, True)}

    def _union(self, is_dir: bool) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
        """(one regex for the anchored patterns, one for the name patterns) for files or folders."""
        wanted = [(anchored, rx) for _, dir_only, anchored, rx in self.patterns if is_dir or not dir_only]
        paths = [rx.pattern for anchored, rx in wanted if anchored]
        names = [rx.pattern for anchored, rx in wanted if not anchored]
        return (
            re.compile("|".join(f"(?:{p})" for p in paths)) if paths else None,
            re.compile("|".join(f"(?:{p})" for p in names)) if names else None,
        )

    def ignored(self, relpath: str, is_dir: bool) -> bool:
        if self._combined is not None:
            by_path, by_name = self._combined[is_dir]
            return bool(
                (by_path is not None and by_path.match(relpath))
                or (by_name is not None and by_name.match(relpath.rsplit("/", 1)[-1]))
            )
        result = False
        name = relpath.rsplit("/", 1)[-1]
        for negate, dir_only, anchored, pattern in self.patterns:
            if dir_only and not is_dir:
                continue
            if pattern.match(relpath if anchored else name):
                result = not negate
        return result

    def file_matchers(self) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None, frozenset[str]] | None:
        """For the walk, which asks only of ``.md`` files outside dot folders: (a regex for
        the anchored patterns, a regex for the name patterns, the names written without a
        wildcard); None when the rules hold a '!' and must be read in order (:meth:`ignored`).
        Patterns that cannot match such a file are left out: one ending in a literal other
        than 'd' (``*.json``), one anchored under a dot folder (``.obsidian/…``)."""
        if self._combined is None:
            return None
        paths, names, literal = [], [], set()
        for (_, dir_only, anchored, rx), glob in zip(self.patterns, self._globs, strict=True):
            if dir_only or (glob[-1:] not in ("d", "*", "?", "]")) or (anchored and glob.startswith(".")):
                continue
            if anchored:
                paths.append(rx.pattern)
            elif not any(ch in glob for ch in "*?["):
                literal.add(glob)
            else:
                names.append(rx.pattern)
        return (
            re.compile("|".join(f"(?:{p})" for p in paths)) if paths else None,
            re.compile("|".join(f"(?:{p})" for p in names)) if names else None,
            frozenset(literal),
        )

    @property
    def files_can_be_ignored(self) -> bool:
        """Can a file be ignored by its own path (not only by a folder above it)?"""
        return any(not dir_only for _, dir_only, _, _ in self.patterns)


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


#: the largest time a catalog row holds (SQLite's 64-bit integer): a file touched to the year
#: 2400 is stamped there, not a crash of every recall
_LATEST_NS = 2**63 - 1


def held(ns: int) -> int:
    """A stat time in nanoseconds, within what the catalog can hold."""
    return min(max(ns, -_LATEST_NS), _LATEST_NS)


def escaped(name: str) -> str:
    """A name that is not UTF-8, printable: its odd bytes as ``\\xff``."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def visible(name: str) -> str:
    """A file name as a person must see it: a control, format (a direction override, a
    zero-width space) or line-separator character as its ``\\u202e`` escape, so a name that
    reverses or hides its own text is shown as what it is."""
    if name.isascii() and name.isprintable():
        return name
    return "".join(
        f"\\u{ord(ch):04x}" if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Co", "Cs") else ch
        for ch in escaped(name)
    )


def skipped_dir(name: str) -> bool:
    """A folder the walk never enters: vmem's and git's state, hidden and tool folders."""
    return name in SKIP_DIRS or name.startswith(".")


def is_candidate(relpath: str, rules: IgnoreRules) -> bool:
    """Would the walk consider this path? Used by the daemon to filter events cheaply."""
    parts = relpath.split("/")
    if any(skipped_dir(p) for p in parts[:-1]):
        return False
    name = parts[-1]
    if not name.endswith(MEMORY_SUFFIXES) or is_temp_name(name):
        return False
    for i in range(1, len(parts)):
        if rules.ignored("/".join(parts[:i]), True):
            return False
    return not rules.ignored(relpath, False)


def stat_entry(root: Path, relpath: str, rules: IgnoreRules) -> FileEntry | None:
    """What the walk would find at one path, without walking: its entry, or None where the
    walk finds no memory file (gone, ignored, a folder, a link to nothing). How a sync of
    the paths a file event named sees them. ``root`` is resolved, as ``Vault.root`` is."""
    if not is_utf8(relpath) or not is_candidate(relpath, rules):
        return None  # a name that is not UTF-8 is the walk's to report (escaped)
    full = os.path.join(root, relpath)
    try:
        st = os.lstat(full)
        if stat.S_ISLNK(st.st_mode):
            target = Path(os.path.realpath(full))
            if not target.is_relative_to(root):
                return FileEntry(relpath, 0, 0, outside=True)
            if not target.is_file():
                return None
            st = os.stat(full)
        elif stat.S_ISDIR(st.st_mode):
            return None
    except OSError:
        return None
    return FileEntry(relpath, st.st_size, held(st.st_mtime_ns), held(st.st_ctime_ns), st.st_ino)


#: what the no-change check compares: (relpath, size, mtime_ns, ctime_ns, inode)
Stamp = tuple[str, int, int, int, int]


class Scan(NamedTuple):
    """One walk of a vault: every candidate file's stamp in the order the file system gave
    them (the no-change check compares these), and the entries of the rare files that are
    not plain (a symlink out of the vault, a name that is not UTF-8)."""

    stamps: list[Stamp]
    special: list[FileEntry]
    #: every folder the walk listed, relative to the root ("" for the root itself)
    folders: tuple[str, ...] = ()

    def entries(self) -> list[FileEntry]:
        """Every file as a ``FileEntry``, sorted by path."""
        odd = {e.relpath for e in self.special}
        found = [FileEntry(*stamp) for stamp in self.stamps if stamp[0] not in odd] + self.special
        found.sort()
        return found


def walk(root: Path, rules: IgnoreRules) -> list[FileEntry]:
    """Every candidate memory file under ``root``, sorted by path."""
    return scan(root, rules).entries()


def scan(root: Path, rules: IgnoreRules) -> Scan:
    """The walk itself. ``stat`` only; nothing is read. Every test here runs once per file
    of a 100,000-file vault, so the no-change check costs about what the file system does."""
    stamps, special, folders = _scan(root, rules)
    return Scan(stamps, special, tuple(folders))


def _scan(root: Path, rules: IgnoreRules) -> tuple[list[Stamp], list[FileEntry], list[str]]:
    root = root.resolve()
    plain: list[Stamp] = []
    append = plain.append
    special: list[FileEntry] = []
    folders: list[str] = []
    stack = [(str(root), "", "")]  # (folder, its vault path, the prefix of its entries' paths)
    check_dirs = bool(rules.patterns)
    ignored_names, ignored_file = _file_ignorer(rules)
    suffixes, temp_first, ifmt, iflnk = MEMORY_SUFFIXES, _TEMP_FIRST, _S_IFMT, _S_IFLNK  # locals: read per file
    while stack:
        folder, rel_dir, prefix = stack.pop()
        try:
            it = os.scandir(folder)
        except OSError:
            continue
        folders.append(rel_dir)
        with it:
            for entry in it:
                name = entry.name
                try:
                    if entry.is_dir(follow_symlinks=False):
                        if not skipped_dir(name) and not (check_dirs and rules.ignored(prefix + name, True)):
                            stack.append((entry.path, prefix + name, f"{prefix}{name}/"))
                        continue
                    # is_temp_name, for a name that ends in .md (no scratch suffix can); a sync tool's temp
                    if not name.endswith(suffixes) or name[0] in temp_first or ".tmp-" in name or ".syncthing." in name:
                        continue
                    rel = prefix + name
                    if name in ignored_names or (ignored_file is not None and ignored_file(name, rel)):
                        continue
                    st = entry.stat(follow_symlinks=False)  # one call: the link itself, or the file
                    if st.st_mode & ifmt == iflnk or not rel.isascii():  # rare: said, or followed
                        followed = _unusual(entry, rel, st, root, special, append)
                        if followed is None:
                            continue
                        st = followed
                except OSError:
                    continue
                append((rel, st.st_size, held(st.st_mtime_ns), held(st.st_ctime_ns), st.st_ino))
    return plain, special, folders


def _file_ignorer(rules: IgnoreRules) -> tuple[frozenset[str], Callable[[str, str], bool] | None]:
    """(names ignored wherever they are, a test of whether any other file is ignored by its
    name or vault path), as fast as the rules allow: the names looked up in a set (what a
    default vault's rules come to), compiled matchers, or the rules in order when they
    hold a '!'; no test when nothing else can ignore a file by itself."""
    if not rules.files_can_be_ignored:
        return frozenset(), None
    matchers = rules.file_matchers()
    if matchers is None:
        return frozenset(), lambda name, rel: rules.ignored(rel, False)
    by_path, by_name, literal_names = matchers
    if by_path is None and by_name is None:
        return literal_names, None

    def ignored(name: str, rel: str) -> bool:
        return (by_name is not None and by_name.match(name) is not None) or (
            by_path is not None and by_path.match(rel) is not None
        )

    return literal_names, ignored


def _unusual(
    entry: os.DirEntry[str],
    rel: str,
    st: os.stat_result,
    root: Path,
    special: list[FileEntry],
    append: Callable[[Stamp], None],
) -> os.stat_result | None:
    """A name that is not UTF-8, or a symlink: the stat to record, or None when the entry
    is recorded already (in ``special``) or is nothing to record. A link is followed only
    inside the vault."""
    if not rel.isascii() and not is_utf8(rel):
        special.append(
            FileEntry(escaped(rel), st.st_size, held(st.st_mtime_ns), held(st.st_ctime_ns), st.st_ino, bad_name=True)
        )
        return None
    if st.st_mode & _S_IFMT != _S_IFLNK:
        return st
    target = Path(os.path.realpath(entry.path))
    if not target.is_relative_to(root):
        special.append(FileEntry(rel, 0, 0, outside=True))
        append((rel, 0, 0, 0, 0))
        return None
    if not target.is_file():
        return None
    return entry.stat()
