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
