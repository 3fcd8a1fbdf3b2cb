"""The vault as the backend of Claude's memory tool (``memory_20250818``), for agents built
on the Anthropic API: what the model keeps under ``/memories`` is a folder of the vault
(``agent/`` by default), so an API agent, Claude Code and a person in Obsidian share one
memory::

    from anthropic import Anthropic
    from vault_memory.integrations.memory_tool import VaultMemoryTool

    runner = Anthropic().beta.messages.tool_runner(
        model="claude-sonnet-4-5", max_tokens=2048, tools=[VaultMemoryTool("~/memory")],
        betas=[MEMORY_BETA], messages=[{"role": "user", "content": "Remember that I take the 8:15 train"}],
    )
    print(runner.until_done().content)

Every file the model creates is a memory file: vmem writes its frontmatter (an id, ``type:
note``, ``source: agent``, when), the model reads and edits the body alone, line numbers
and all, and the frontmatter keeps its bytes through every edit (a person's keys too).
``vmem recall`` finds it at once. ``delete`` moves it to vmem's trash (``vmem restore``
brings it back), ``rename`` keeps its id. A path outside ``/memories`` (``..``, an encoded
one, a symlink out) is refused and nothing is written outside; a file over the vault's
``max_file_bytes``, or longer than recall reads, or holding a secret (``vault.secrets``) is refused with what to do.
The model's notes are never the user's facts: they are notes, recalled as what the agent
wrote.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import re
import stat
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING, Any

try:
    from anthropic.lib.tools import BetaAbstractMemoryTool, ToolError
except ImportError as e:  # an optional extra: say how to get it
    raise ImportError(f"VaultMemoryTool needs the anthropic SDK: pip install 'vault-memory[anthropic]' ({e})") from e

from ..errors import VaultError
from ..index.chunking import EMBED_CHARS
from ..vault.fileformat import head_length, parse_memory, serialize_memory
from ..vault.fsutil import MEMORY_FILE_MODE, atomic_write, move_no_clobber, read_regular
from ..vault.markers import merge_conflict
from ..vault.memory import Memory
from ..vault.secrets import find_secret, masked, without_private

if TYPE_CHECKING:
    from anthropic.types.beta import (
        BetaMemoryTool20250818CreateCommand,
        BetaMemoryTool20250818DeleteCommand,
        BetaMemoryTool20250818InsertCommand,
        BetaMemoryTool20250818RenameCommand,
        BetaMemoryTool20250818StrReplaceCommand,
        BetaMemoryTool20250818ViewCommand,
    )

    from ..api import VaultMemory

ROOT = "/memories"
#: the beta the memory tool is served under
MEMORY_BETA = "context-management-2025-06-27"
#: the folder of the vault ``/memories`` is, unless the caller names another
DEFAULT_FOLDER = "agent"
LINE_NUMBER_WIDTH = 6
_SAFE_PART = re.compile(r"[^\x00-\x1f\x7f/\\:*?\"<>|%]+")
#: a path the model names: this many folders deep, this long, each name this many bytes
#: (a file system's NAME_MAX is 255, and ".md" is added)
MAX_DEPTH = 12
MAX_PATH_CHARS = 1024
MAX_NAME_BYTES = 200


class VaultMemoryTool(BetaAbstractMemoryTool):
    """Claude's memory tool on a vmem vault (a path, or an open ``VaultMemory``)."""

    def __init__(self, vault: str | os.PathLike[str] | VaultMemory, folder: str = DEFAULT_FOLDER, **kwargs: Any):
        super().__init__(**kwargs)
        from ..api import VaultMemory, open

        self.mem = vault if isinstance(vault, VaultMemory) else open(Path(vault).expanduser())
        self.folder = Path(folder)
        if self.folder.is_absolute() or any(part in ("", ".", "..") for part in self.folder.parts):
            raise ValueError(f"folder must be a folder inside the vault, not {folder!r}")
        self.root = self.mem.root.resolve() / self.folder

    # ------------------------------------------------------------------ paths

    def _path(self, path: str) -> Path:
        """The file of the vault a ``/memories`` path names; ToolError for any other."""
        parts = _path_parts(path)
        target = self.root.joinpath(*parts)
        self._refuse_links(path, parts)
        if self.root.is_symlink() or not str(target.resolve()).startswith(str(self.root.resolve())):
            raise ToolError(f"Path {path} would escape {ROOT}")
        return target

    def _refuse_links(self, path: str, parts: list[str]) -> None:
        """ToolError when a step of the way is a link: nothing is reached outside."""
        here = self.root
        for part in parts:
            here = here / part
            if here.is_symlink():
                raise ToolError(f"Path {path} goes through a link; not followed")

    def _file(self, path: str) -> Path:
        """The file on disk of a memory path (``notes.txt`` is kept as ``notes.txt.md``, a
        memory file, and shown under the name the model gave it)."""
        target = self._path(path)
        if target == self.root:
            raise ToolError(f"{ROOT} is a directory")
        return target if target.suffix == ".md" else target.with_name(target.name + ".md")

    def _shown(self, file: Path) -> str:
        rel = file.relative_to(self.root).as_posix()
        return f"{ROOT}/{rel[:-3] if rel.endswith('.md') and rel[:-3].rsplit('/', 1)[-1].count('.') else rel}"

    # ------------------------------------------------------------------ commands

    def view(self, command: BetaMemoryTool20250818ViewCommand) -> str:
        target = self._path(command.path)
        if target == self.root or target.is_dir():
            return self._listing(command.path, target)
        file = self._file(command.path)
        if not file.is_file():
            raise ToolError(f"The path {command.path} does not exist. Please provide a valid path.")
        _, body = self._read(file, command.path)
        body = masked(without_private(body))  # what a person marked private, or a secret, never reaches the model
        lines = body.split("\n")
        start, shown = 1, lines
        if command.view_range is not None and not (
            isinstance(command.view_range, list)
            and len(command.view_range) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) for n in command.view_range)
        ):
            raise ToolError(f"`view_range` must be two line numbers, got {command.view_range!r:.60}")
        if command.view_range:
            first = max(1, command.view_range[0])
            last = len(lines) if command.view_range[1] == -1 else command.view_range[1]
            start, shown = first, lines[first - 1 : last]
        numbered = [f"{str(n).rjust(LINE_NUMBER_WIDTH)}\t{line}" for n, line in enumerate(shown, start=start)]
        return f"Here's the content of {command.path} with line numbers:\n" + "\n".join(numbered)

    def create(self, command: BetaMemoryTool20250818CreateCommand) -> str:
        file = self._file(command.path)
        if file.exists() or file.is_symlink():
            raise ToolError(f"File {command.path} already exists")
        body = _text(command.file_text, "file_text")
        self._check(body, command.path)
        memory = Memory(
            id=self._new_id(file),
            text=body,
            type="note",
            confidence="medium",
            source="agent",
            created=dt.datetime.now().astimezone(),
        )
        head = serialize_memory(dataclasses.replace(memory, text="x")).removesuffix("x\n")  # "---\n…---\n\n"
        self._write(file, head, body, command.path, new=True)
        return f"File created successfully at: {command.path}"

    def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> str:
        old_str, new_str = _text(command.old_str, "old_str"), _text(command.new_str, "new_str")
        file = self._existing(command.path)
        head, body = self._editable(file, command.path)
        count = body.count(old_str) if old_str else 0
        if count == 0:
            raise ToolError(
                f"No replacement was performed, old_str `{old_str}` did not appear verbatim in {command.path}."
            )
        if count > 1:
            raise ToolError(
                f"No replacement was performed. Multiple occurrences of old_str `{old_str}` in "
                f"{command.path}. Please ensure it is unique"
            )
        at = body[: body.find(old_str)].count("\n")
        new = body.replace(old_str, new_str)
        self._check(new, command.path)
        self._write(file, head, new, command.path)
        lines = new.split("\n")
        around = range(max(0, at - 2), min(len(lines), at + 3))
        snippet = "\n".join(f"{str(n + 1).rjust(LINE_NUMBER_WIDTH)}\t{lines[n]}" for n in around)
        return (
            f"The memory file has been edited. Here is the snippet showing the change (with line numbers):\n{snippet}"
        )

    def insert(self, command: BetaMemoryTool20250818InsertCommand) -> str:
        text = _text(command.insert_text, "insert_text")
        if isinstance(command.insert_line, bool) or not isinstance(command.insert_line, int):
            raise ToolError(f"`insert_line` must be a line number, got {command.insert_line!r:.40}")
        file = self._existing(command.path)
        head, body = self._editable(file, command.path)
        lines = body.split("\n")
        if body.endswith("\n"):
            lines.pop()
        if not 0 <= command.insert_line <= len(lines):
            raise ToolError(
                f"Invalid `insert_line` parameter: {command.insert_line}. It should be within the range [0, {len(lines)}]."
            )
        lines.insert(command.insert_line, text.rstrip("\n"))
        new = "\n".join(lines) + "\n"
        self._check(new, command.path)
        self._write(file, head, new, command.path)
        return f"The file {command.path} has been edited."

    def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> str:
        target = self._path(command.path)
        if target == self.root:
            raise ToolError(f"Cannot delete the {ROOT} directory itself")
        files = self._folder_memories(target, command.path) if target.is_dir() else [self._existing(command.path)]
        ids = self._planned_ids(files)
        for file, memory_id in ids:  # to vmem's trash, each: `vmem restore ID` brings it back
            try:
                self.mem.forget(memory_id)
            except VaultError as e:
                raise ToolError(f"Could not delete {self._shown(file)}: {self._quiet(e)}") from None
        if target.is_dir():
            _remove_empty_folders(target)
        return f"Successfully deleted {command.path}"

    def _folder_memories(self, folder: Path, shown: str) -> list[Path]:
        """The memory files of a folder to delete; ToolError when it holds any other file or a
        link (a folder linked in would stay, and "deleted" would be untrue), planned before
        acting: a folder is deleted whole or not at all."""
        others = [p for p in folder.rglob("*") if p.is_symlink() or (not p.is_dir() and p.suffix != ".md")]
        if others:
            names = ", ".join(self._shown(p) for p in others[:3])
            raise ToolError(
                f"{shown} holds {len(others)} file(s) that are no memories ({names}); nothing was "
                "deleted. Delete the memories in it one by one."
            )
        return sorted(folder.rglob("*.md"))

    def _planned_ids(self, files: list[Path]) -> list[tuple[Path, str]]:
        """Each file to delete with its id, planned before acting: every file the model's
        and its id known, or nothing is deleted."""
        ids = []
        for file in files:
            self._models(file, "deleted")
            try:
                ids.append((file, self._memory_id(file)))
            except VaultError as e:
                raise ToolError(f"Nothing was deleted: {self._shown(file)} is no memory ({self._quiet(e)})") from None
        return ids

    def rename(self, command: BetaMemoryTool20250818RenameCommand) -> str:
        old = self._path(command.old_path)
        if old == self.root:
            raise ToolError(f"Cannot rename the {ROOT} directory itself")
        source = old if old.is_dir() else self._existing(command.old_path)
        target = self._path(command.new_path) if source.is_dir() else self._file(command.new_path)
        if target.exists() or target.is_symlink():
            raise ToolError(f"The destination {command.new_path} already exists")
        for file in sorted(p for p in source.rglob("*") if not p.is_dir()) if source.is_dir() else [source]:
            self._models(file, "renamed")  # planned before acting: a person's file is never moved
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            move_no_clobber(source, target)  # the file moves whole: its id stays
        except (OSError, VaultError) as e:
            raise ToolError(f"Could not rename {command.old_path}: {self._quiet(e)}") from None
        return f"Successfully renamed {command.old_path} to {command.new_path}"

    # ------------------------------------------------------------------ helpers

    def _listing(self, shown: str, folder: Path) -> str:
        if not folder.exists():
            if folder != self.root:
                raise ToolError(f"The path {shown} does not exist. Please provide a valid path.")
            folder.mkdir(parents=True, exist_ok=True)
        rows = [f"{_size(folder.stat().st_size)}\t{shown}"]
        for item in sorted(folder.rglob("*")):
            rel = item.relative_to(folder)
            if any(part.startswith(".") for part in rel.parts) or len(rel.parts) > 2 or item.is_symlink():
                continue
            if item.is_dir():
                rows.append(f"{_size(item.stat().st_size)}\t{shown.rstrip('/')}/{rel.as_posix()}/")
            elif item.is_file() and item.suffix == ".md":
                try:
                    size = len(self._read(item, str(rel))[1].encode("utf-8"))
                except ToolError:  # one file it cannot read is listed by its size on disk
                    size = item.stat().st_size
                name = self._shown(item)[len(ROOT) :].lstrip("/")
                prefix = folder.relative_to(self.root).as_posix()
                name = name[len(prefix) + 1 :] if prefix != "." else name
                rows.append(f"{_size(size)}\t{shown.rstrip('/')}/{name}")
        header = f"Here're the files and directories up to 2 levels deep in {shown}, excluding hidden items:"
        return header + "\n" + "\n".join(rows)

    def _existing(self, path: str) -> Path:
        file = self._file(path)
        if not file.is_file():
            raise ToolError(f"The path {path} does not exist. Please provide a valid path.")
        return file

    def _read(self, file: Path, shown: str) -> tuple[str, str]:
        """(everything before the body, as its bytes say it: a BOM, the frontmatter with its
        closing line and the blank line after it; the body). ToolError for a file that is not
        UTF-8 text, or too large, or no regular file (a FIFO), or whose frontmatter never closes."""
        limit = self.mem.config["vault"]["max_file_bytes"]
        try:
            raw = read_regular(file, limit + 1)
            text = raw.decode("utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise ToolError(f"{shown} cannot be read as a memory ({_plain_error(e)}); it was left as it is") from None
        if len(raw) > limit:
            raise ToolError(f"{shown} is over the vault's {limit:,}-byte limit; it was left as it is")
        try:
            end = head_length(text)
        except VaultError:
            raise ToolError(f"{shown} has a frontmatter that never closes; it was left as it is") from None
        for blank in ("\r\n", "\n"):
            if end and text.startswith(blank, end):
                end += len(blank)
                break
        return text[:end], text[end:]

    def _editable(self, file: Path, shown: str) -> tuple[str, str]:
        """``_read`` of a note the model wrote: the model edits its own notes' bodies, never a
        frontmatter and never a person's file (whose words would become the model's, or whose
        body could become a frontmatter: a BOM and ``---`` inserted at line 0)."""
        head, body = self._read(file, shown)
        try:
            memory = parse_memory((head + body).encode("utf-8"), Path(shown))
        except VaultError:
            memory = None
        if not head or memory is None or memory.source != "agent":
            whose = "has no frontmatter" if not head else f"is of source {memory.source!r}" if memory else "is broken"
            raise ToolError(
                f"{shown} is not a note the model wrote (it {whose}): it can be viewed, not edited. "
                "Create a note of your own instead."
            )
        return head, body

    def _models(self, file: Path, done: str) -> None:
        """Refuse to delete or rename what the model did not write (``_editable``): a person's
        note kept in the model's folder stays where they put it."""
        shown = self._shown(file)
        if file.suffix != ".md":
            raise ToolError(f"Nothing was {done}: {shown} is no memory the model wrote")
        try:
            self._editable(file, shown)
        except ToolError as e:
            raise ToolError(f"Nothing was {done}: {e}") from None

    def _check(self, body: str, shown: str) -> None:
        limit = self.mem.config["vault"]["max_file_bytes"]
        size = len(body.encode("utf-8"))
        if size + 512 > limit:
            raise ToolError(f"{shown} would be {size:,} bytes; a memory may hold {limit - 512:,}. Keep what matters.")
        if len(body) > EMBED_CHARS:  # recall reads a memory by its beginning: the rest would never be found
            raise ToolError(
                f"{shown} would be {len(body):,} characters; recall finds a memory by its first {EMBED_CHARS:,}. "
                "Keep it shorter, or split it into several files."
            )
        secret = find_secret(body)
        if secret is not None:
            raise ToolError(
                f"{shown} would hold what looks like {secret}: secrets are never stored in memory. Leave it out."
            )
        if "\x00" in body:
            raise ToolError(f"{shown} would hold a NUL character; it cannot be stored in a Markdown file")
        if merge_conflict(body) is not None:
            raise ToolError(
                f"{shown} would hold git conflict markers (<<<<<<< ======= >>>>>>> lines) and be read as a merge "
                "left half-done; put them in a ``` code block"
            )

    def _write(self, file: Path, head: str, body: str, shown: str, new: bool = False) -> None:
        if head and not head.endswith(("\n", "\r")):  # a frontmatter closed at the end of the file
            head += "\r\n" if "\r\n" in head else "\n"
        text = head + body
        try:
            moved = head_length(text) > len(head)
        except VaultError:
            moved = True
        if moved:  # cannot happen (the body follows a closed frontmatter): said if it does
            raise ToolError(f"{shown} would change its frontmatter; nothing was written")
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(file, text, overwrite=not new, new_mode=MEMORY_FILE_MODE)
        except (OSError, VaultError) as e:
            raise ToolError(f"Could not write {shown}: {_plain_error(e)}") from None

    def _new_id(self, file: Path) -> str:
        """``agent-<name>``, or with a number after it: an id no file anywhere in the vault
        claims (a note the person moved out of ``agent/`` keeps its id) nor the trash holds."""
        stem = re.sub(r"[^a-z0-9]+", "-", file.name[:-3].lower()).strip("-") or "note"
        wanted = f"agent-{stem}"[:60]
        candidates = [wanted, *(f"{wanted}-{n}" for n in range(2, 50))]
        taken = self.mem.taken(candidates)
        free = [c for c in candidates if c not in taken]
        if not free:
            raise ToolError(f"Too many notes are named like {self._shown(file)}; choose another name")
        return free[0]

    def _quiet(self, e: BaseException) -> str:
        """An error's words without the vault's absolute path (the model and its logs see them)."""
        said = _plain_error(e)
        for root in {str(self.mem.root.resolve()), str(self.mem.root)}:
            said = said.replace(root + "/", "").replace(root, "the vault")
        return said

    def _memory_id(self, file: Path) -> str:
        memory = self.mem.vault.read(file.relative_to(self.mem.root.resolve()).as_posix())
        return memory.id


def _text(value: Any, name: str) -> str:
    """A command's text argument, or a ToolError the model can act on."""
    if not isinstance(value, str):
        raise ToolError(f"`{name}` must be text, got {type(value).__name__}")
    return value


def _path_parts(path: str) -> list[str]:
    """The names of a ``/memories`` path, each checked (``_check_name``); ToolError for a
    path outside ``/memories``, too long or too deep."""
    if not isinstance(path, str) or not (path == ROOT or path.startswith(ROOT + "/")):
        raise ToolError(f"Path must start with {ROOT}, got: {path!r:.200}")
    if len(path) > MAX_PATH_CHARS:
        raise ToolError(f"Path is {len(path):,} characters long; a memory path may have {MAX_PATH_CHARS:,}")
    parts = [p for p in path[len(ROOT) :].split("/") if p]
    if len(parts) > MAX_DEPTH:
        raise ToolError(f"Path is {len(parts)} folders deep; a memory path may be {MAX_DEPTH} deep")
    for part in parts:
        _check_name(part, path)
    return parts


def _check_name(part: str, path: str) -> None:
    """ToolError for a name too long, holding a secret, or not plain (``..``, hidden,
    encoded, odd characters): what a file system, a listing or a person would trip on."""
    if len(part.encode("utf-8")) > MAX_NAME_BYTES:
        raise ToolError(f"The name {part[:40]!r}… is too long; a name may have {MAX_NAME_BYTES} bytes")
    secret = find_secret(part.removesuffix(".md"))
    if secret is not None:  # a name is shown by `ls`, git and every listing
        raise ToolError(f"A file name may not hold what looks like {secret}; name the file by its subject")
    if part in (".", "..") or part.startswith(".") or not _plain_name(part):
        raise ToolError(
            f"Path {path!r} is not a plain path inside {ROOT} (no '..', hidden, encoded or odd names,"
            " no control or direction characters)"
        )


def _plain_name(part: str) -> bool:
    """A name a person can read in a listing: no control, format (direction overrides,
    zero-width), or line-separator characters, nothing a file system or a URL treats apart."""
    return bool(_SAFE_PART.fullmatch(part)) and not any(
        unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn") for ch in part
    )


def _plain_error(e: BaseException) -> str:
    """An OS error without the vault's absolute path (the model and its logs see the reply)."""
    if isinstance(e, OSError):
        return e.strerror or type(e).__name__
    return str(e)


def _size(n: int) -> str:
    """A size as the SDK's local memory tool writes it (4.0K, 512B)."""
    if n == 0:
        return "0B"
    unit = min((n.bit_length() - 1) // 10, 3)
    value = n / 1024**unit
    return f"{int(value) if value == int(value) else round(value, 1)}{'BKMG'[unit]}"


def _remove_empty_folders(target: Path) -> None:
    """A deleted folder and the folders in it, deepest first, where nothing is left."""
    for folder in sorted((p for p in target.rglob("*") if p.is_dir()), reverse=True):
        _remove_if_empty(folder)
    _remove_if_empty(target)


def _remove_if_empty(folder: Path) -> None:
    try:
        if stat.S_ISDIR(os.lstat(folder).st_mode) and not any(folder.iterdir()):
            folder.rmdir()
    except OSError:
        pass
