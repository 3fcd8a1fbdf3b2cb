"""Git beside the vault: optional autocommit of its changes (``git.autocommit = true`` in
vmem.toml), and when each file was added (``added_dates``), which dates a hand-written note."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
from pathlib import Path

#: how long ``added_dates`` may take: a vault's history read once, or not at all
HISTORY_SECONDS = 10.0


def is_git_repo(root: Path) -> bool:
    return (root / ".git").exists()


def added_dates(root: Path) -> dict[str, dt.datetime]:
    """When the commit that last added each file of the vault's repository was written
    (author date), by path relative to ``root``; empty when the vault is no repository,
    git is missing, or its history cannot be read in ``HISTORY_SECONDS``. One ``git log``,
    which runs no hook and no pager."""
    if not is_git_repo(root):
        return {}
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "GIT_PAGER": "cat", "LC_ALL": "C"}
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "-c", "core.quotePath=false", "log", "--diff-filter=A", "--no-renames",
             "--format=%x1f%aI", "--name-only", "--relative"],
            capture_output=True, text=True, timeout=HISTORY_SECONDS, env=env, errors="replace",
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return {}
    if done.returncode != 0:
        return {}
    out: dict[str, dt.datetime] = {}
    when: dt.datetime | None = None
    for line in done.stdout.splitlines():
        if line.startswith("\x1f"):
            try:
                when = dt.datetime.fromisoformat(line[1:].strip())
            except ValueError:
                when = None
        elif line and when is not None:
            out.setdefault(line, when)  # newest first: the last time it was added
    return out


def commit_paths(root: Path, paths: list[Path], message: str) -> str | None:
    """Commit exactly ``paths`` (added, changed or removed). Returns an error text, or None.

    A failed commit never undoes the write: the file is the truth, git is a convenience.
    """
    rel = [p.relative_to(root).as_posix() if p.is_absolute() else p.as_posix() for p in paths]
    try:
        subprocess.run(["git", "-C", str(root), "add", "-A", "--", *rel], check=True, capture_output=True, text=True)
        subprocess.run(
            ["git", "-C", str(root), "commit", "--quiet", "-m", message, "--", *rel],
            check=True,
            capture_output=True,
            text=True,
        )
    except FileNotFoundError:
        return "git is not installed"
    except subprocess.CalledProcessError as e:
        return (e.stderr or e.stdout or str(e)).strip()
    return None
