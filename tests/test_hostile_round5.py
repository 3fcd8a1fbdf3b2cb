"""Low-severity defects of the fifth hostile round (issue 59): what vmem writes is its
owner's alone and stays bounded, dates a user types are judged before they are stored, a
client's secrets are never echoed, ``restore`` takes the ids ``forget`` takes, and an
uninstall leaves nothing of vmem behind."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

from conftest import VMEM, Cli, write

from vault_memory.vault.template import create_vault

ROOT = Path(__file__).resolve().parent.parent
HOOK = ROOT / "hooks" / "vmem_hook.py"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def run_hook(vault: Path, event: dict, tmp_path: Path, *extra: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VMEM_", "XDG_STATE"))}
    env |= {"XDG_STATE_HOME": str(tmp_path / "state"), "HOME": str(tmp_path / "home")}
    return subprocess.run(
        [sys.executable, str(HOOK), "claude-code", "--vault", str(vault), *extra],
        input=json.dumps({"cwd": str(tmp_path), **event}),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


# ------------------------------------------------------------- 1. files only their owner reads


def test_an_export_to_a_file_is_readable_by_its_owner_only(mech_vault, tmp_path):
    cli = Cli(mech_vault)
    assert cli("remember", "The user's sister lives in Porto").exit_code == 0
    target = tmp_path / "all-my-memories.jsonl"
    done = cli("export", "--output", str(target))
    assert done.exit_code == 0, done.output
    assert "sister lives in Porto" in target.read_text()
    assert mode(target) == 0o600


def test_a_first_ingest_makes_the_state_folder_private(mech_vault, tmp_path):
    assert not (mech_vault / ".vmem").exists()  # a vault as `vmem init` leaves it
    # nothing to remember in it: nothing opens the index, whose own folders were private
    chat = write(tmp_path / "chat.txt", "User: which bus goes to the harbour?\nAssistant: The 28.\n")
    done = Cli(mech_vault)("ingest", str(chat), "--format", "text")
    assert done.exit_code == 0, done.output
    assert mode(mech_vault / ".vmem") == 0o700
    assert all(mode(p) & 0o077 == 0 for p in (mech_vault / ".vmem").iterdir() if p.is_dir())


def test_the_hook_logs_are_private_and_a_full_one_is_moved_aside(mech_vault, tmp_path):
    state = mech_vault / ".vmem"
    state.mkdir(mode=0o700)
    log = write(state / "hooks.log", "2026-01-02T03:04:05+0000 an old line\n" * 40_000)  # 1.5 MB
    log.chmod(0o644)  # as a hook before this fix left it
    done = run_hook(mech_vault, {"hook_event_name": "Notification"}, tmp_path)
    assert done.returncode == 0
    assert mode(log) == 0o600 and log.stat().st_size < 1000
    assert "ignored event 'Notification'" in log.read_text()
    older = state / "hooks.log.1"
    assert mode(older) == 0o600 and older.read_text().startswith("2026-01-02T03:04:05+0000 an old line")
    # what a hook starts in the background writes to a private file too
    transcript = write(tmp_path / "session.jsonl", "{}\n")
    event = {"hook_event_name": "SessionEnd", "transcript_path": str(transcript), "session_id": "s-17"}
    assert run_hook(mech_vault, event, tmp_path, "--vmem", "/bin/true").returncode == 0
    assert mode(state / "hooks-output.log") == 0o600


# ------------------------------------------------------------- 2. dates judged before they are stored


def test_an_expiry_already_past_is_refused_and_nothing_is_written(mech_vault):
    cli = Cli(mech_vault)
    done = cli("remember", "Parking permit for the Rua Augusta garage", "--expires", "2025-07-14")
    assert done.exit_code == 2
    assert "2025-07-14 is past already" in done.output
    assert not list((mech_vault / "facts").glob("*.md"))
    later = cli("remember", "Parking permit for the Rua Augusta garage", "--expires", "2099-07-14")
    assert later.exit_code == 0 and "warning" not in later.output


def test_an_expiry_at_a_time_the_clock_skips_says_where_it_was_stored(mech_vault):
    """New York's clocks go from 01:59 to 03:00 on 14 March 2027: 02:15 is no time there."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("VMEM_")} | {"TZ": "America/New_York"}
    done = subprocess.run(
        [VMEM, "remember", "Dentist check-up", "--expires", "2027-03-14T02:15", "--vault", str(mech_vault)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "2027-03-14T02:15" in done.stderr and "stored as 2027-03-14T01:15:00-05:00" in done.stderr
    assert "60 minutes earlier" in done.stderr
    (written,) = (mech_vault / "facts").glob("*.md")
    assert "expires: 2027-03-14T01:15:00-05:00" in written.read_text()


def test_a_far_as_of_date_is_called_far_not_malformed(mech_vault):
    """The first day Python holds, given the local zone, was past what it can hold."""
    cli = Cli(mech_vault)
    for command in (["gc", "--dry-run"], ["recall", "tea"]):
        done = cli(*command, "--as-of", "0001-01-01T07:45")
        assert done.exit_code == 2
        assert "too far from today" in done.output and "ISO 8601" not in done.output
    assert "ISO 8601" in cli("gc", "--dry-run", "--as-of", "2026-14-01").output  # what is malformed still says so


# ------------------------------------------------------------- 3. a client's secrets are never echoed


def test_an_mcp_entry_vmem_did_not_write_is_named_without_its_secrets(mech_vault, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    cli = Cli(mech_vault)
    cursor = tmp_path / "home" / ".cursor" / "mcp.json"
    foreign = {
        "command": "/opt/tools/vmem-team",
        "args": ["mcp", "--vault", "/srv/shared-notes"],
        "env": {"OPENROUTER_API_KEY": "or-v1-7f3c9e2d", "VMEM_LLM_URL": "https://llm.example"},
    }
    write(cursor, json.dumps({"mcpServers": {"vmem": foreign}}))
    refused = cli("mcp", "install", "cursor")
    assert refused.exit_code == 1 and "did not write" in refused.output
    assert "or-v1-7f3c9e2d" not in refused.output and "llm.example" not in refused.output
    assert "OPENROUTER_API_KEY" in refused.output  # the user can tell which entry it is
    left = cli("mcp", "uninstall", "cursor", "--json", vault=False)
    assert left.exit_code == 0 and "or-v1-7f3c9e2d" not in left.output
    assert json.loads(left.stdout)["entry"]["env"] == {"OPENROUTER_API_KEY": "(hidden)", "VMEM_LLM_URL": "(hidden)"}
    # vmem's own entry, to which the user added a key: kept in the file, not printed
    ours = {"command": "vmem", "args": ["mcp", "--vault", str(mech_vault.resolve())], "env": {"GROQ_KEY": "gsk_51aa"}}
    write(cursor, json.dumps({"mcpServers": {"vmem": ours}}))
    kept = cli("mcp", "install", "cursor", "--json")
    assert kept.exit_code == 0 and "gsk_51aa" not in kept.output
    assert json.loads(cursor.read_text())["mcpServers"]["vmem"]["env"] == {"GROQ_KEY": "gsk_51aa"}


# ------------------------------------------------------------- 4. restore takes what forget takes


def test_restore_takes_the_short_ids_forget_takes(mech_vault):
    cli = Cli(mech_vault)
    first = cli.json("remember", "The user's bike is a green Brompton")["id"]
    second = cli.json("remember", "The user's locker at the gym is number 52")["id"]
    tail = first.rsplit("-", 1)[1]  # the hash at the end: what a person copies
    assert cli("forget", tail).exit_code == 0
    restored = cli("restore", tail)
    assert restored.exit_code == 0, restored.output
    assert first in restored.output and cli("show", first).exit_code == 0
    # a prefix of both, once both are forgotten: each named, and nothing said to be left out
    assert cli("forget", first).exit_code == 0 and cli("forget", second).exit_code == 0
    shared = os.path.commonprefix([first, second])
    both = cli("restore", shared)
    assert both.exit_code == 1
    assert first in both.output and second in both.output and "…" not in both.output
    assert cli("restore", second[:-7]).exit_code == 0  # enough of it to be one: all but its hash


def test_an_ambiguous_id_adds_an_ellipsis_only_when_it_left_ids_out(mech_vault):
    cli = Cli(mech_vault)
    ids = [cli.json("remember", f"Reading list item {n}: a book on {topic}")["id"] for n, topic in enumerate(
        ["tides", "bridges", "moss", "clocks", "salt", "kites", "glass"]
    )]  # fmt: skip
    shared = os.path.commonprefix(ids)
    many = cli("show", shared)
    assert many.exit_code == 1 and "more than 5" in many.output and "…" in many.output
    three = [cli("forget", i).exit_code for i in ids[:3]]
    assert three == [0, 0, 0]
    listed = cli("show", shared)
    assert listed.exit_code == 1 and "matches 4 memories" in listed.output and "…" not in listed.output
    assert all(i in listed.output for i in ids[3:])


# ------------------------------------------------------------- 5. an uninstall leaves nothing of vmem


def test_uninstalling_the_hooks_removes_what_install_created(mech_vault, tmp_path):
    """Nothing was there: install made .claude/, its settings file and hooks/; a second
    install for another vault backed up a file that held vmem's hooks."""
    project = tmp_path / "garden-planner"
    project.mkdir()
    elsewhere = create_vault(tmp_path / "second-vault", with_examples=False)
    cli = Cli(None)
    for vault in (mech_vault, elsewhere):
        done = cli("hooks", "install", "claude-code", "--project", str(project), "--vault", str(vault))
        assert done.exit_code == 0, done.output
    assert any("vmem_hook.py" in b.read_text() for b in (project / ".claude").glob("settings.json.vmem-backup*"))
    gone = cli("hooks", "uninstall", "claude-code", "--project", str(project))
    assert gone.exit_code == 0, gone.output
    assert not (project / ".claude").exists(), sorted(p.name for p in (project / ".claude").rglob("*"))
    assert list(project.iterdir()) == []


def test_uninstalling_the_hooks_keeps_the_users_settings_and_cleans_vmems_backups(mech_vault, tmp_path):
    project = tmp_path / "recipes-app"
    theirs = {"permissions": {"deny": ["Bash(rm -rf *)"]}, "model": "opus"}
    settings = write(project / ".claude" / "settings.json", json.dumps(theirs))
    original = settings.read_bytes()
    script = write(project / ".claude" / "hooks" / "lint_on_stop.sh", "#!/bin/sh\nmake lint\n")
    elsewhere = create_vault(tmp_path / "second-vault", with_examples=False)
    cli = Cli(None)
    for vault in (mech_vault, elsewhere):
        done = cli("hooks", "install", "claude-code", "--project", str(project), "--vault", str(vault))
        assert done.exit_code == 0, done.output
    gone = cli("hooks", "uninstall", "claude-code", "--project", str(project))
    assert gone.exit_code == 0, gone.output
    assert json.loads(settings.read_text()) == theirs
    backups = sorted((project / ".claude").glob("settings.json.vmem-backup*"))
    assert backups[0].read_bytes() == original  # what it was before vmem, untouched
    assert backups and not any("vmem" in b.read_text() for b in backups)
    assert all(json.loads(b.read_text()) == theirs for b in backups)
    assert "took vmem's hooks out of the backups" in gone.output
    assert sorted(p.name for p in script.parent.iterdir()) == ["lint_on_stop.sh"]  # their folder stays
