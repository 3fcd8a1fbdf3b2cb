"""``vmem doctor``: report everything wrong in a vault, change nothing."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from ..config import NOTE_TYPE
from ..errors import FrontmatterError, MemoryFileError
from ..lang import SPANISH, detect
from .fileformat import decode, load_yaml, parse_memory, repeated_keys, split_frontmatter, type_warning
from .language import unread_note
from .memory import COMPATIBLE_KEY, Memory, claims_by_id, names_memories
from .sameness import same_words
from .scanner import escaped, is_candidate, is_utf8
from .secrets import find_secret
from .supersession import supersession_problems
from .trash import TRASH_DIR, Trash
from .vault import Problem, ScanResult, Vault, problem_from_error


def diagnose(vault: Vault, reads_spanish: bool = True) -> tuple[int, list[Problem], list[str]]:
    """(number of files checked, problems found, advice: ``secrets_in``, and how many
    memories are in Spanish when the vault's model does not read it: ``reads_spanish``).
    Read-only by construction. Every wrong field of a file is named (the scan names the
    first, which is enough to skip it)."""
    files = vault.files()
    result = vault.scan()
    problems = _scanned_problems(vault, result) + _lifecycle_problems(vault, result.memories)
    problems.sort(key=lambda p: (p.path, p.line or 0))
    spanish = 0 if reads_spanish else sum(1 for m in result.memories if detect(m.text) == SPANISH)
    advice = secrets_in(result.memories) + copies_in(result.memories)
    return len(files), problems, advice + ([unread_note(spanish)] if spanish else [])


def _scanned_problems(vault: Vault, result: ScanResult) -> list[Problem]:
    """The scan's problems, each file's read again for every wrong field (the scan names
    the first), and what the memories that loaded still get wrong (``_loaded_problems``)."""
    problems: list[Problem] = []
    for problem in result.problems:
        problems.extend(_reread(vault, problem.path) if problem.kind == "frontmatter" else [problem])
    for memory in result.memories:
        problems.extend(_loaded_problems(vault, memory))
    return problems


def _loaded_problems(vault: Vault, memory: Memory) -> list[Problem]:
    """What a memory that loaded still gets wrong: a typo'd type (it reads as a note), or
    a key set twice (the file loads with the last value)."""
    if memory.path is None:
        return []
    if memory.type == NOTE_TYPE:  # a typo'd type reads as a note
        return _reread(vault, memory.path.as_posix())
    try:  # a key set twice: the file loads with the last value
        problems = _repeated(vault.read_bytes(memory.path.as_posix()), memory.path.as_posix())
    except MemoryFileError:
        problems = []
    return problems + _settled_problems(memory) + _future_problems(memory)


#: how far ahead of this machine's clock a ``created`` may be before it is named: a
#: machine's clock a little ahead, or a time zone written wrong, is not worth a line
FUTURE_SLACK = dt.timedelta(days=1)


def dated_ahead(memory: Memory, now: dt.datetime | None = None) -> bool:
    """Whether ``memory``'s ``created`` is after today's clock, past ``FUTURE_SLACK``: which
    of it and a fact said since was said later is not known."""
    created = memory.created
    now = now or dt.datetime.now().astimezone()
    return created is not None and created.tzinfo is not None and created > now + FUTURE_SLACK


def _future_problems(memory: Memory, now: dt.datetime | None = None) -> list[Problem]:
    """A ``created`` after today (a clock ahead on the machine that wrote it, a typo): the
    memory reads as said after everything said until that day, so a change said since is
    read as the older of the two."""
    if not dated_ahead(memory, now):
        return []
    created = memory.created
    assert created is not None
    message = (
        f"created {created.isoformat()} is in the future (a clock ahead, or a typo): it reads as said after "
        "everything said until then, so a change said since reads as the older; set 'created' to when it was said"
    )
    return [Problem(memory.path.as_posix() if memory.path else memory.id, message, "future_created")]


def _settled_problems(memory: Memory) -> list[Problem]:
    """A ``compatible_with`` that names no memory the way `vmem conflicts --both-true` writes
    it (an id, or a list of ids): the pairs it meant to settle are marked again."""
    value = memory.extra.get(COMPATIBLE_KEY)
    if (value is None and COMPATIBLE_KEY not in memory.extra) or names_memories(value):
        return []
    message = (
        f"'{COMPATIBLE_KEY}' must be a memory id or a list of them (`vmem conflicts --both-true` writes it); "
        "what is not one settles no pair, and recall marks that pair again"
    )
    return [Problem(memory.path.as_posix() if memory.path else memory.id, message, "wrong_type")]


def _lifecycle_problems(vault: Vault, memories: list[Memory]) -> list[Problem]:
    """What went wrong after the memories were written: a file in the trash no record names,
    one forgotten then edited in the trash (a merge), and ``supersedes`` that fork, point
    nowhere or loop."""
    problems: list[Problem] = []
    forgotten = {entry.id for entry in vault.trash()}
    trash = Trash(vault.trash_dir)
    for name in trash.unrecorded():  # a forget cut short, or a file put there by hand
        message = (
            "in the trash with no record of where it came from, so `vmem restore` cannot find it: "
            "move it back where it belongs to keep it (facts/, notes/…), or delete it"
        )
        problems.append(Problem(f"{TRASH_DIR}/{name}", message, "trashed_unrecorded"))
    for entry in trash.edited():
        message = (
            f"forgotten on {entry.at[:10]}, then edited (a merge brought an edit to it into the trash, "
            f"{TRASH_DIR}/{entry.trashed}): `vmem restore {entry.id}` makes it current again"
        )
        problems.append(Problem(entry.original, message, "edited_after_forget"))
    for memory, kind, message in supersession_problems(memories, forgotten):
        problems.append(Problem(memory.path.as_posix() if memory.path else memory.id, message, kind))
    return problems


def check_blobs(vault: Vault, blobs: dict[str, bytes]) -> tuple[int, list[Problem]]:
    """Check file contents that are not (or not yet) on disk as they are here, such as a
    commit's staged files: (memory files checked, problems). Paths are relative to the
    vault; files the vault would not read as memories are skipped."""
    limit = vault.config["vault"]["max_file_bytes"]
    checked, problems = 0, []
    for rel, raw in sorted(blobs.items()):
        if not is_candidate(rel, vault.ignore_rules):
            continue
        checked += 1
        if not is_utf8(rel):
            problems.append(Problem(escaped(rel), "the file name is not UTF-8; rename it", "encoding"))
            continue
        if len(raw) > limit:
            problems.append(Problem(rel, f"larger than [vault] max_file_bytes ({limit:,} bytes)", "too_large"))
            continue
        problems.extend(file_problems(raw, rel))
    return checked, problems + duplicate_ids(blobs, vault)


def staged_ids(blobs: dict[str, bytes], vault: Vault) -> dict[str, list[str]]:
    """{id: the blobs that set it, the memory first (``claim_order``)}, for the blobs that
    are memory files with an ``id:`` of their own (a derived id is the path's, and two paths
    never share one)."""
    claims: list[tuple[Memory, str]] = []
    for rel, raw in sorted(blobs.items()):
        if not is_candidate(rel, vault.ignore_rules) or not is_utf8(rel):
            continue
        try:
            memory = parse_memory(raw, Path(rel))
        except MemoryFileError:
            continue  # reported as its own problem
        if not memory.id_derived:
            claims.append((memory, rel))
    return {memory_id: [rel for _, rel in claimed] for memory_id, claimed in claims_by_id(claims).items()}


def duplicate_ids(blobs: dict[str, bytes], vault: Vault) -> list[Problem]:
    """Two staged files that claim one id (an editor's "duplicate file" copies it)."""
    return [
        Problem(rel, f"duplicate id {memory_id!r}, also used by {paths[0]}", "duplicate_id")
        for memory_id, paths in staged_ids(blobs, vault).items()
        if len(paths) > 1
        for rel in paths[1:]
    ]


def file_problems(raw: bytes, rel: str) -> list[Problem]:
    """Everything wrong with one file's bytes: every wrong field, or a type vmem does not
    know (the file then loads as a note); [] for a good file."""
    path = Path(rel)
    problems: list[Problem] = []
    try:
        if parse_memory(raw, path).type != NOTE_TYPE:
            return _repeated(raw, rel)
    except FrontmatterError as e:
        problems = [problem_from_error(e), *(Problem(rel, message, "frontmatter", line) for line, message in e.more)]
    except MemoryFileError as e:
        return [problem_from_error(e)]
    try:
        fm = split_frontmatter(decode(raw, path), path)[0]
        warning = type_warning(load_yaml(fm, path), fm) if fm else None
    except MemoryFileError:  # the YAML itself is broken: already said
        warning = None
    if warning:
        problems.append(Problem(rel, warning[1], "unknown_type", warning[0]))
    return sorted(problems + _repeated(raw, rel), key=lambda p: p.line or 0)


def _repeated(raw: bytes, rel: str) -> list[Problem]:
    """A key the frontmatter sets twice: the file loads (with the last value), and says so."""
    path = Path(rel)
    try:
        fm = split_frontmatter(decode(raw, path), path)[0]
    except MemoryFileError:
        return []
    return [
        Problem(rel, f"'{key}' is set {len(lines)} times (lines {', '.join(map(str, lines))}); the last one is used",
                "repeated_key", lines[-1])
        for key, lines in repeated_keys(fm or "")
    ]  # fmt: skip


def _reread(vault: Vault, rel: str) -> list[Problem]:
    try:
        return file_problems(vault.read_bytes(rel), rel)
    except MemoryFileError as e:  # changed or went away since the scan
        return [problem_from_error(e)]


def secrets_in(memories: list[Memory]) -> list[str]:
    """Advice, not a problem: memory files that hold what looks like a secret (written
    before vmem refused them, or by hand): the person decides what to do with their file."""
    found = []
    for memory in memories:
        kind = find_secret(memory.text)
        if kind is not None and memory.path is not None:
            found.append(
                f"{memory.path.as_posix()} holds what looks like {kind}: move it to a password manager, or wrap it in <private>…</private>"
            )
    return found


def copies_in(memories: list[Memory]) -> list[str]:
    """Advice, not a problem: files that say the same words (``same_words``: a file
    copied by hand, an import run twice, both sides of a merge kept, "I'm" and "I am").
    Recall shows one of them; which to keep is the person's choice, so nothing is moved."""
    by_words: dict[str, list[Memory]] = {}
    for memory in memories:
        digest = same_words(memory.key, memory.text)
        if digest is not None and memory.path is not None:
            by_words.setdefault(digest, []).append(memory)
    found = []
    for copies in by_words.values():
        if len(copies) > 1:
            paths = sorted(m.path.as_posix() for m in copies if m.path is not None)
            found.append(
                f"{', '.join(paths)} say the same words: recall shows one of them; keep the one you want "
                f"and `vmem forget ID` the others (they go to the trash)"
            )
    return sorted(found)


def readable_by_others(root: Path) -> list[str]:
    """Advice, not a problem: other users of the machine can read the vault (an existing
    vault keeps the modes its owner gave it; `vmem init` makes new ones 0700)."""
    try:
        mode = root.stat().st_mode & 0o777
    except OSError:
        return []
    if not mode & 0o077:
        return []
    return [
        f"other users of this machine can read the vault {root} (mode {mode:o}): `chmod 700 {root}` keeps your "
        "memories yours; for a vault pushed somewhere, an encrypted repository (git-crypt, age) or filesystem"
    ]
