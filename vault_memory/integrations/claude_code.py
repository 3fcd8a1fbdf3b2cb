"""``vmem hooks install claude-code``: Claude Code's hooks, merged into its settings.

Four events (Claude Code's hooks reference): ``SessionStart`` injects the pinned memories
and those about the project, ``UserPromptSubmit`` those about the prompt (both as
``hookSpecificOutput.additionalContext``), ``SessionEnd`` and ``PreCompact`` hand the
session's ``transcript_path`` to ``vmem ingest`` in the background. The settings file keeps
everything it held (permissions, other hooks, other tools' entries); a backup of it is
written before the first change; installing twice leaves one entry per event; uninstall
removes only entries whose command runs vmem's hook script.

Uninstall leaves nothing of vmem behind: what install created (the settings file, the
``hooks`` folder, the ``.claude`` folder; recorded in ``hooks/vmem-made.json``) is removed
once it holds nothing else, and vmem's entries are taken out of the backups it made (a
backup left holding nothing else is removed): restored, one would run a hook script that
is gone, and Python's exit 2 is Claude Code's "block this prompt".
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..vault.fsutil import atomic_write
from .hookfiles import SCRIPT_NAME, copy_script, python_command, remove_script, vmem_executable
from .settingsfile import backups_of, read_object, write_object

#: event → seconds Claude Code waits before giving up on the hook (the hook fails open anyway)
EVENTS = {"SessionStart": 30, "UserPromptSubmit": 5, "SessionEnd": 10, "PreCompact": 10}


@dataclass
class Installed:
    settings: Path
    script: Path | None
    backup: Path | None
    changed: bool
    events: list[str] = field(default_factory=list)
    #: uninstall: what install had created and is now removed, left empty
    removed: list[Path] = field(default_factory=list)
    #: uninstall: the backups vmem's entries were taken out of (those left with nothing are in ``removed``)
    cleaned: list[Path] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "settings": str(self.settings),
            "script": str(self.script) if self.script else None,
            "backup": str(self.backup) if self.backup else None,
            "changed": self.changed,
            "events": self.events,
            "removed": [str(p) for p in self.removed],
            "cleaned_backups": [str(p) for p in self.cleaned],
        }


#: vmem's MCP tools that only read the vault: what ``--allow-read-tools`` lets Claude Code
#: call without asking (headless ``claude -p`` denies any tool not allowed)
READ_ONLY_TOOLS = ("recall", "list", "show", "history")
#: how Claude Code names vmem's MCP server: installed as the plugin, or by ``claude mcp add vmem``
SERVER_PREFIXES = ("mcp__plugin_vmem_vmem__", "mcp__vmem__")


def allow_rules(tools: tuple[str, ...] = READ_ONLY_TOOLS) -> list[str]:
    """The ``permissions.allow`` entries for ``tools``, under both server names."""
    return [f"{prefix}{tool}" for prefix in SERVER_PREFIXES for tool in tools]


def allow_read_tools(settings: Path) -> Installed:
    """Add the read-only tools to ``permissions.allow`` (keeping every other rule)."""
    data = read_object(settings)
    permissions = data.get("permissions", {})
    if not isinstance(permissions, dict):
        raise ConfigError(f"'permissions' in {settings} must be an object, not {type(permissions).__name__}")
    allowed = permissions.get("allow", [])
    if not isinstance(allowed, list):
        raise ConfigError(f"'permissions.allow' in {settings} must be a list, not {type(allowed).__name__}")
    wanted = [rule for rule in allow_rules() if rule not in allowed]
    new = {**data, "permissions": {**permissions, "allow": [*allowed, *wanted]}}
    changed, backup = write_object(settings, data, new)
    return Installed(settings, None, backup, changed)


#: Claude Code's settings files in a ``.claude`` folder: the team's and the user's own
SETTINGS_FILES = ("settings.json", "settings.local.json")


def settings_path(project: Path | None, user_home: Path | None = None, local: bool = False) -> Path:
    """``<project>/.claude/settings.json`` (shared with the team), its ``settings.local.json``
    (the user's own, which Claude Code keeps out of git), or ``~/.claude/settings.json``."""
    if project is not None:
        return project / ".claude" / SETTINGS_FILES[local]
    return (user_home or Path.home()) / ".claude" / "settings.json"


def command_for(script: Path, vault: Path | None) -> str:
    parts = [*python_command(), str(script), "claude-code", "--vmem", vmem_executable()]
    if vault is not None:
        parts += ["--vault", str(vault)]
    return shlex.join(parts)


def install(settings: Path, vault: Path | None) -> Installed:
    folder = settings.parent
    data = read_object(settings)
    made = [name for name, path in _creatable(settings) if not path.exists() and not path.is_symlink()]
    script = copy_script(folder / "hooks")
    _record_made(folder, made)
    command = command_for(script, vault)
    hooks = _without_ours(data.get("hooks", {}), folder)
    for event, timeout in EVENTS.items():
        hooks.setdefault(event, []).append({"hooks": [{"type": "command", "command": command, "timeout": timeout}]})
    new = {**data, "hooks": hooks}
    changed, backup = write_object(settings, data, new)
    return Installed(settings, script, backup, changed, list(EVENTS))


def uninstall(settings: Path) -> Installed:
    """Take vmem's hooks out of ``settings`` (no backup of it: what changes is vmem's own),
    and out of the backups vmem made of it; remove what install created and is now empty."""
    folder = settings.parent
    made = _made(folder)
    data = read_object(settings)
    new = _without_hooks(data, folder)
    removed: list[Path] = []
    changed = False
    if settings.exists() and not new and settings.name in made and not settings.is_symlink():
        settings.unlink()  # vmem made it, and nothing of the user's is in it
        changed = True
        removed.append(settings)
    elif settings.exists():
        changed = write_object(settings, data, new, backup=False)[0]
    cleaned = []
    for backup in backups_of(settings):
        outcome = _clean_backup(backup, folder)
        if outcome == "removed":
            removed.append(backup)
        elif outcome == "cleaned":
            cleaned.append(backup)
    if not _still_used(folder):
        remove_script(folder / "hooks")
        removed += _remove_made(folder, made)
    return Installed(settings, None, None, changed, removed=removed, cleaned=cleaned)


def _without_hooks(data: dict[str, Any], folder: Path) -> dict[str, Any]:
    """``data`` (a settings object) without vmem's hook entries, and without ``hooks`` when none is left."""
    hooks = {event: groups for event, groups in _without_ours(data.get("hooks", {}), folder).items() if groups}
    return {**data, "hooks": hooks} if hooks else {k: v for k, v in data.items() if k != "hooks"}


def _clean_backup(backup: Path, folder: Path) -> str | None:
    """Take vmem's hook entries out of a backup vmem made (a later install's, taken while
    they were in the file): "removed" when nothing else was in it, "cleaned", or None
    (none of vmem's entries in it, or a backup vmem cannot read or write: left as it is)."""
    try:
        data = read_object(backup)
        new = _without_hooks(data, folder)
        if new == data:
            return None
        if not new:
            backup.unlink()
            return "removed"
        write_object(backup, data, new, backup=False)
    except (ConfigError, OSError):
        return None
    return "cleaned"


#: in a ``.claude`` folder, what install records having created (``_creatable``)
MADE_RECORD = "vmem-made.json"


def _creatable(settings: Path) -> list[tuple[str, Path]]:
    """What install may create, by the name it is recorded under: the folder, its
    ``hooks`` folder and the settings file."""
    folder = settings.parent
    return [(".", folder), ("hooks", folder / "hooks"), (settings.name, settings)]


def _made(folder: Path) -> set[str]:
    try:
        names = json.loads((folder / "hooks" / MADE_RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    return {n for n in names if isinstance(n, str)} if isinstance(names, list) else set()


def _record_made(folder: Path, names: list[str]) -> None:
    """Add ``names`` to the record of what vmem created in ``folder`` (kept beside the hook script)."""
    known = _made(folder)
    if set(names) <= known:
        return
    atomic_write(folder / "hooks" / MADE_RECORD, json.dumps(sorted(known | set(names))) + "\n")


def _remove_made(folder: Path, made: set[str]) -> list[Path]:
    """The record, then the ``hooks`` folder and the ``.claude`` folder when vmem created
    them and nothing is left in them; returns what was removed."""
    removed = []
    record = folder / "hooks" / MADE_RECORD
    if record.is_file():
        record.unlink()
    for name, path in (("hooks", folder / "hooks"), (".", folder)):
        try:
            if name in made and path.is_dir() and not path.is_symlink() and not any(path.iterdir()):
                path.rmdir()
                removed.append(path)
        except OSError:
            continue
    return removed


def _still_used(folder: Path) -> bool:
    """Does settings.json or settings.local.json in ``folder`` still run the hook script
    both share? (Deleting it under the other would make Python exit 2, which Claude Code
    reads as "block this prompt".) Unreadable or odd settings count as using it."""
    for name in SETTINGS_FILES:
        try:
            hooks = read_object(folder / name).get("hooks", {})
            if _without_ours(hooks, folder) != hooks:
                return True
        except ConfigError:
            return True
    return False


def is_ours(hook: Any, folder: Path | None = None) -> bool:
    """A hook entry vmem wrote: its command runs ``<folder>/hooks/vmem_hook.py claude-code``
    (the script ``install`` copied there; ``-S`` before it or not, as older installs wrote
    it), exactly; a user's own ``my_vmem_hook.py`` is not."""
    if not isinstance(hook, dict) or not isinstance(hook.get("command"), str):
        return False
    try:
        parts = shlex.split(hook["command"])
    except ValueError:
        return False
    scripts = [Path(p) for p in parts[:3] if p.endswith(".py")]  # after the interpreter and its flags
    if not scripts or scripts[0].name != SCRIPT_NAME or "claude-code" not in parts:
        return False
    return folder is None or scripts[0].parent == folder / "hooks"


def _without_ours(hooks: Any, folder: Path | None = None) -> dict[str, list[Any]]:
    if not isinstance(hooks, dict):
        raise ConfigError(f"'hooks' in Claude Code's settings must be an object, not {type(hooks).__name__}")
    out: dict[str, list[Any]] = {}
    for event, groups in hooks.items():
        if not isinstance(groups, list):  # replaced by [] it was lost: the user fixes it, vmem does not guess
            raise ConfigError(
                f"'hooks.{event}' in Claude Code's settings must be a list of hook groups, not "
                f"{type(groups).__name__}; vmem will not overwrite it"
            )
        kept = []
        for group in groups:
            if isinstance(group, dict) and isinstance(group.get("hooks"), list):
                inner = [h for h in group["hooks"] if not is_ours(h, folder)]
                if inner:
                    kept.append({**group, "hooks": inner})
                elif not group["hooks"]:
                    kept.append(group)
            else:
                kept.append(group)
        out[event] = kept
    return out
