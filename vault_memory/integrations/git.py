"""``vmem hooks install git``: the vault's repository checks and refreshes itself.

- ``pre-commit`` runs ``vmem doctor --staged``: a commit that would add a broken memory
  file (bad YAML, wrong types, not UTF-8…) is blocked, naming file and line;
- ``post-merge`` and ``post-checkout`` bring the indexes up to date in the background when
  no daemon runs (a running daemon sees the files change by itself).

A hook that was already there is chained, not overwritten: it is moved to
``<name>.vmem-chained`` and runs first, with the same arguments and input; if it fails,
the commit fails as it did before. Uninstall puts it back.
"""

from __future__ import annotations

import shlex
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ConfigError
from ..vault.fsutil import atomic_write
from .hookfiles import MARK, vmem_executable

if TYPE_CHECKING:
    from ..api import VaultMemory
    from ..vault.vault import Problem

HOOKS = ("pre-commit", "post-merge", "post-checkout")
CHAINED = ".vmem-chained"

_TEMPLATE = """#!/bin/sh
# {mark}: installed by `vmem hooks install git`; `vmem hooks uninstall git` removes it
hook_dir=$(dirname "$0")
if [ -x "$hook_dir/{name}{chained}" ]; then
    "$hook_dir/{name}{chained}" "$@" || exit $?
fi
VMEM={vmem}
if ! command -v "$VMEM" >/dev/null 2>&1; then
    echo "vmem {name} hook: $VMEM not found; skipped" >&2
    exit 0
fi
{body}
"""

_BODIES = {
    "pre-commit": 'exec "$VMEM" doctor --staged --vault {vault}',
    "post-merge": '"$VMEM" daemon status --vault {vault} >/dev/null 2>&1 || '
    '(nohup "$VMEM" sync --vault {vault} >/dev/null 2>&1 &)',
    "post-checkout": '"$VMEM" daemon status --vault {vault} >/dev/null 2>&1 || '
    '(nohup "$VMEM" sync --vault {vault} >/dev/null 2>&1 &)',
}


@dataclass
class GitHooks:
    hooks_dir: Path
    installed: list[str] = field(default_factory=list)
    chained: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {k: str(v) if isinstance(v, Path) else v for k, v in self.__dict__.items()}


def hooks_dir(vault: Path) -> Path:
    """The repository's hooks folder (``core.hooksPath`` honoured); ConfigError when the
    vault is not in a git repository."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--git-path", "hooks"], cwd=vault, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        raise ConfigError(f"{vault} is not in a git repository (git init it first)") from None
    path = Path(out)
    return path if path.is_absolute() else (vault / path).resolve()


def install(vault: Path) -> GitHooks:
    folder = hooks_dir(vault)
    folder.mkdir(parents=True, exist_ok=True)
    done = GitHooks(folder)
    for name in HOOKS:
        target = folder / name
        if target.is_file() and MARK not in target.read_text(errors="replace"):
            target.rename(folder / f"{name}{CHAINED}")
            done.chained.append(name)
        body = _BODIES[name].format(vault=shlex.quote(str(vault)))
        text = _TEMPLATE.format(mark=MARK, name=name, chained=CHAINED, vmem=shlex.quote(vmem_executable()), body=body)
        atomic_write(target, text)
        target.chmod(0o755)
        done.installed.append(name)
    return done


def uninstall(vault: Path) -> GitHooks:
    folder = hooks_dir(vault)
    done = GitHooks(folder)
    for name in HOOKS:
        target = folder / name
        if target.is_file() and MARK in target.read_text(errors="replace"):
            target.unlink()
            done.removed.append(name)
            chained = folder / f"{name}{CHAINED}"
            if chained.is_file():
                chained.rename(target)
                done.chained.append(name)
    return done


def staged_problems(mem: VaultMemory) -> tuple[int, list[Problem]]:
    """(files checked, problems) in the memory files staged for commit, as staged (not as
    they are in the working tree)."""
    root = mem.root
    try:
        top = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
        names = subprocess.run(
            ["git", "diff", "--cached", "--name-only", "--diff-filter=ACMR", "-z", "--", "."],
            cwd=root,
            capture_output=True,
            check=True,
        ).stdout.split(b"\0")
    except (OSError, subprocess.CalledProcessError):
        raise ConfigError(f"{root} is not in a git repository") from None
    blobs: dict[str, bytes] = {}
    for name in filter(None, names):
        path = Path(top) / name.decode("utf-8", "surrogateescape")
        try:
            rel = path.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            continue
        shown = subprocess.run(
            ["git", "show", f":{name.decode('utf-8', 'surrogateescape')}"], cwd=top, capture_output=True
        )
        if shown.returncode == 0:
            blobs[rel] = shown.stdout
    return mem.check_files(blobs)
