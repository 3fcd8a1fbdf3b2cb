"""A vault people keep in git and open in Obsidian (issue 61): real git with a bare origin
and two clones, and Obsidian-shaped folders."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import VMEM

import vault_memory as vmem
from vault_memory.vault.template import create_vault

IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e"}


def git(repo: Path, *args: str) -> subprocess.CompletedProcess:
    import os

    env = {**os.environ, **IDENTITY}
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, env=env)


def _vmem(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([VMEM, *args], capture_output=True, text=True, timeout=120)


@pytest.fixture
def two_clones(tmp_path: Path) -> tuple[Path, Path]:
    """A vault pushed to a bare origin, and a second clone of it."""
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(origin))
    first = create_vault(tmp_path / "a", with_examples=False)
    git(first, "init", "-q", "-b", "main")
    git(first, "remote", "add", "origin", str(origin))
    (first / "facts" / "bike.md").write_text("---\nid: bike\ntype: fact\n---\nMy bike is a blue Brompton\n")
    git(first, "add", "-A")
    git(first, "commit", "-qm", "first")
    git(first, "push", "-q", "origin", "main")
    second = tmp_path / "b"
    git(tmp_path, "clone", "-q", str(origin), str(second))
    return first, second


@pytest.mark.slow
def test_conflict_markers_never_reach_the_agent_and_are_named_with_their_sides(two_clones):
    first, second = two_clones
    assert _vmem("hooks", "install", "git", "--vault", str(first)).returncode == 0
    (second / "facts" / "bike.md").write_text("---\nid: bike\ntype: fact\n---\nMy bike is a green Brompton\n")
    git(second, "commit", "-qam", "green")
    git(second, "push", "-q", "origin", "main")
    (first / "facts" / "bike.md").write_text("---\nid: bike\ntype: fact\n---\nMy bike is a red Brompton\n")
    git(first, "commit", "-qam", "red")
    merged = git(first, "pull", "-q", "--no-rebase", "origin", "main")
    assert merged.returncode != 0 and "<<<<<<<" in (first / "facts" / "bike.md").read_text()

    recalled = _vmem("recall", "what bike do I ride?", "--vault", str(first))
    assert recalled.returncode == 0 and "<<<<<<<" not in recalled.stdout and "=======" not in recalled.stdout
    doctor = _vmem("doctor", "--vault", str(first))
    said = doctor.stdout + doctor.stderr
    assert doctor.returncode != 0 and "facts/bike.md" in said and "merge conflict between HEAD and" in said

    git(first, "add", "facts/bike.md")  # markers and all: the pre-commit hook stops it
    blocked = git(first, "commit", "-qm", "merge")
    assert blocked.returncode != 0 and "merge conflict" in blocked.stderr + blocked.stdout

    (first / "facts" / "bike.md").write_text("---\nid: bike\ntype: fact\n---\nMy bike is a red Brompton\n")
    git(first, "add", "facts/bike.md")
    assert git(first, "commit", "-qm", "merge").returncode == 0
    with vmem.open(first, use_daemon=False) as mem:
        assert "red Brompton" in mem.recall("what bike do I ride?").block
