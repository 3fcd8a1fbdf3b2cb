"""``vmem doctor``: report everything wrong in a vault, change nothing."""

from __future__ import annotations

from .supersession import supersession_problems
from .vault import Problem, Vault


def diagnose(vault: Vault) -> tuple[int, list[Problem]]:
    """(number of files checked, problems found). Read-only by construction."""
    files = vault.files()
    result = vault.scan()
    problems = list(result.problems)
    for memory, kind, message in supersession_problems(result.memories):
        problems.append(Problem(memory.path.as_posix() if memory.path else memory.id, message, kind))
    problems.sort(key=lambda p: (p.path, p.line or 0))
    return len(files), problems


def check_blobs(vault: Vault, blobs: dict[str, bytes]) -> tuple[int, list[Problem]]:
    """Check file contents that are not (or not yet) on disk as they are here, such as a
    commit's staged files: (memory files checked, problems). Paths are relative to the
    vault; files the vault would not read as memories are skipped."""
    from pathlib import Path

    from ..errors import MemoryFileError
    from .fileformat import parse_memory
    from .scanner import escaped, is_candidate, is_utf8
    from .vault import problem_from_error

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
        try:
            parse_memory(raw, Path(rel))
        except MemoryFileError as e:
            problems.append(problem_from_error(e))
    return checked, problems
