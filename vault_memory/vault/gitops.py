"""Optional git autocommit of vault changes (``git.autocommit = true`` in vmem.toml)."""

from __future__ import annotations

import subprocess
from pathlib import Path


def is_git_repo(root: Path) -> bool:
    return (root / ".git").exists()


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
