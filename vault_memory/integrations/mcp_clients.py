"""``vmem mcp install CLIENT``: vmem's MCP server entry in the config of the agents people use.

Each client's documented file and format (checked against its docs, November 2026):

=============== ============================================================ ===================== ======
client          user file                                                    project file          format
=============== ============================================================ ===================== ======
claude-desktop  macOS ``~/Library/Application Support/Claude/``, Windows     —                     JSON
                ``%APPDATA%\\Claude\\``, elsewhere ``~/.config/Claude/``:
                ``claude_desktop_config.json``
claude-code     — (``claude mcp add --scope user``, or the plugin)           ``.mcp.json``         JSON
cursor          ``~/.cursor/mcp.json``                                       ``.cursor/mcp.json``  JSON
gemini          ``~/.gemini/settings.json``                                  ``.gemini/settings.json`` JSON
codex           ``$CODEX_HOME/config.toml`` (``~/.codex/config.toml``)       ``.codex/config.toml`` TOML
=============== ============================================================ ===================== ======

JSON clients keep servers under ``mcpServers.<name>``; Codex under ``[mcp_servers.<name>]``.
The entry is named ``vmem`` and holds absolute paths (GUI apps do not see the shell's PATH).
Installing twice changes nothing; uninstall removes only an entry vmem wrote; every other
byte of the file stays as it was (a JSON file is edited in place, ``jsonc``: indentation,
key order, line endings, and the Gemini CLI's comments), a symlinked file is written where
it points, a read-only one is refused, and the previous file is kept beside it as
``<name>.vmem-backup``.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from . import jsonc
from .hookfiles import vmem_executable
from .settingsfile import parse_object, read_text, write_text

SERVER_NAME = "vmem"


def _claude_desktop(home: Path) -> Path:
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "Claude" / "claude_desktop_config.json"
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming") / "Claude" / "claude_desktop_config.json"
    return home / ".config" / "Claude" / "claude_desktop_config.json"


def _codex(home: Path) -> Path:
    return Path(os.environ.get("CODEX_HOME") or home / ".codex") / "config.toml"


@dataclass(frozen=True)
class Client:
    name: str
    user_file: Callable[[Path], Path] | None  # home → the per-user file
    project_file: str | None  # relative to the project folder
    toml: bool = False
    #: the client reads // and /* */ comments in its JSON (vmem keeps them)
    comments: bool = False

    def config_file(self, project: Path | None, home: Path | None = None) -> Path:
        if project is not None:
            if self.project_file is None:
                raise ConfigError(f"{self.name} has no per-project MCP file; install without --project")
            return project / self.project_file
        if self.user_file is None:
            raise ConfigError(
                f"{self.name} keeps user-wide servers in its own state; use --project DIR "
                "(or, for Claude Code, the plugin: claude plugin install vmem@vmem)"
            )
        return self.user_file(home or Path.home())


CLIENTS: dict[str, Client] = {
    c.name: c
    for c in (
        Client("claude-desktop", _claude_desktop, None),
        Client("claude-code", None, ".mcp.json"),
        Client("cursor", lambda home: home / ".cursor" / "mcp.json", ".cursor/mcp.json"),
        Client("gemini", lambda home: home / ".gemini" / "settings.json", ".gemini/settings.json", comments=True),
        Client("codex", _codex, ".codex/config.toml", toml=True),
    )
}


@dataclass
class McpInstalled:
    client: str
    config: Path
    changed: bool
    backup: Path | None
    entry: dict[str, Any] | None  # what the file now says for vmem (None after uninstall)
    replaced: dict[str, Any] | None = None  # a different 'vmem' entry that was there before
    kept: list[str] = field(default_factory=list)  # keys the user added to vmem's entry, kept

    def to_dict(self) -> dict[str, Any]:
        return {
            "client": self.client,
            "config": str(self.config),
            "changed": self.changed,
            "backup": str(self.backup) if self.backup else None,
            "entry": shown(self.entry),
            "replaced": shown(self.replaced),
            "kept": self.kept,
        }


def server_entry(vault: Path) -> dict[str, Any]:
    return {"command": vmem_executable(), "args": ["mcp", "--vault", str(vault)]}


def is_ours(entry: Any) -> bool:
    """An entry that runs ``vmem mcp`` (whichever vmem and vault)."""
    if not isinstance(entry, dict):
        return False
    command, args = str(entry.get("command", "")), entry.get("args")
    return Path(command).name.startswith("vmem") and isinstance(args, list) and args[:1] == ["mcp"]


def written_by_vmem(entry: Any) -> bool:
    """An entry exactly as ``install`` writes one (``vmem mcp --vault PATH``, nothing else):
    one the user changed or wrote (another vault's flags, an ``env`` with a key) is theirs."""
    if not is_ours(entry) or set(entry) - {"command", "args"}:
        return False
    args = entry["args"]
    return len(args) == 3 and args[1] == "--vault" and isinstance(args[2], str)


def entry_to_write(before: Any, entry: dict[str, Any], config: Path) -> tuple[dict[str, Any], list[str]]:
    """What install writes over ``before`` (the ``vmem`` entry there, or None), and the keys
    of it that are kept: vmem's entry for this vault keeps what the user added to it (an
    ``env`` with a key); an entry vmem did not write is refused, never replaced."""
    if before is None or before == entry or written_by_vmem(before):
        return entry, []
    if is_ours(before) and before.get("args") == entry["args"]:
        kept = sorted(set(before) - set(entry))
        return {**before, **entry}, kept
    raise ConfigError(
        f"{config} already has an MCP server named {SERVER_NAME!r} that vmem did not write "
        f"({described(before)}); vmem will not replace it: remove or rename it there, then install again"
    )


#: the parts of an MCP entry that hold secrets by name: ``env`` (an API key for the server),
#: ``headers`` (an HTTP server's Authorization)
SECRET_PARTS = ("env", "headers")


def described(entry: Any) -> str:
    """An entry as a message names it: the command it runs and the names of what else it
    holds (of ``env``, its variables' names), never a value that may be a key."""
    if not isinstance(entry, dict):
        return f"a {type(entry).__name__}, not an object"
    parts = [f"runs {str(entry.get('command') or entry.get('url') or '?')[:100]!r}"]
    for key in sorted(set(entry) - {"command", "url"}):
        value = entry[key]
        names = ", ".join(sorted(map(str, value)))[:200] if key in SECRET_PARTS and isinstance(value, dict) else ""
        parts.append(f"{key} ({names})" if names else key)
    return "; ".join(parts)


def shown(entry: Any) -> Any:
    """``entry`` as vmem prints it (``--json``): the values under ``env`` and ``headers``
    left out, their names kept."""
    if not isinstance(entry, dict):
        return entry
    return {
        key: {name: "(hidden)" for name in value} if key in SECRET_PARTS and isinstance(value, dict) else value
        for key, value in entry.items()
    }


def install(client: Client, config: Path, vault: Path) -> McpInstalled:
    if client.toml:
        before = _toml_servers(config).get(SERVER_NAME)
        entry, kept = entry_to_write(before, server_entry(vault), config)
        changed, backup = _toml_set(config, entry)
    else:
        text = read_text(config)
        data = parse_object(config, text, comments=client.comments)
        servers = _servers(data, config)
        before = servers.get(SERVER_NAME)
        entry, kept = entry_to_write(before, server_entry(vault), config)
        new = {**data, "mcpServers": {**servers, SERVER_NAME: entry}}
        changed, backup = _json_edit(client, config, text, new, lambda t: _set(t, entry, client.comments))
    return McpInstalled(client.name, config, changed, backup, entry, None, kept)


def uninstall(client: Client, config: Path) -> McpInstalled:
    if client.toml:
        current = _toml_servers(config).get(SERVER_NAME)
        if not written_by_vmem(current):
            return McpInstalled(client.name, config, False, None, current)
        changed, backup = _toml_set(config, None)
        return McpInstalled(client.name, config, changed, backup, None)
    text = read_text(config)
    data = parse_object(config, text, comments=client.comments)
    servers = _servers(data, config)
    if not written_by_vmem(servers.get(SERVER_NAME)):  # the user's own entry stays
        return McpInstalled(client.name, config, False, None, servers.get(SERVER_NAME))
    rest = {k: v for k, v in servers.items() if k != SERVER_NAME}
    new = {**data, "mcpServers": rest} if rest else {k: v for k, v in data.items() if k != "mcpServers"}

    def remove(t: str) -> str:
        if rest:
            return jsonc.remove_member(t, ["mcpServers"], SERVER_NAME, comments=client.comments)
        return jsonc.remove_member(t, [], "mcpServers", comments=client.comments)

    changed, backup = _json_edit(client, config, text, new, remove)
    return McpInstalled(client.name, config, changed, backup, None)


def _set(text: str, entry: dict[str, Any], comments: bool) -> str:
    return jsonc.set_member(text, ["mcpServers"], SERVER_NAME, entry, comments=comments)


def _json_edit(
    client: Client, config: Path, text: str | None, expected: dict[str, Any], edit: Callable[[str], str]
) -> tuple[bool, Path | None]:
    """Apply ``edit`` to the file's text in place (every other byte kept); the result must
    read back as ``expected``, else nothing is written."""
    if text is None or not text.strip():
        new_text = json.dumps(expected, indent=2, ensure_ascii=False) + "\n"
    else:
        try:
            new_text = edit(text)
            same = jsonc.loads(new_text, comments=client.comments) == expected
        except (ValueError, ConfigError):
            same = False
        if not same:
            raise ConfigError(
                f"cannot edit the vmem entry of {config} in place; change mcpServers.{SERVER_NAME} by hand"
            )
    return write_text(config, text, new_text)


def _servers(data: dict[str, Any], config: Path) -> dict[str, Any]:
    servers = data.get("mcpServers", {})
    if not isinstance(servers, dict):
        raise ConfigError(f"'mcpServers' in {config} must be an object; vmem will not overwrite it")
    return servers


# ---------------------------------------------------------------------------- Codex's TOML

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")


def _toml_read(config: Path) -> tuple[str | None, dict[str, Any]]:
    try:
        text = config.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, {}
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"cannot read {config} ({e}); vmem will not overwrite it") from None
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{config} is not valid TOML ({e}); fix it first, vmem will not overwrite it") from None


def _toml_servers(config: Path) -> dict[str, Any]:
    servers = _toml_read(config)[1].get("mcp_servers", {})
    return servers if isinstance(servers, dict) else {}


def _toml_set(config: Path, entry: dict[str, Any] | None) -> tuple[bool, Path | None]:
    """Replace (or, with None, remove) the ``[mcp_servers.vmem]`` table and its sub-tables,
    leaving every other line as it was (blank lines at the end of the file become one); the
    result must parse to the same data but vmem's entry, else nothing is written."""
    old, data = _toml_read(config)
    kept: list[str] = []
    inside = False
    for line in (old or "").splitlines(keepends=True):
        header = _HEADER.match(line)
        if header:
            inside = _is_vmem_table(header.group(1))
        if not inside:
            kept.append(line)
    text = "".join(kept).rstrip("\n")
    text = text + "\n" if text else ""
    servers = {k: v for k, v in data.get("mcp_servers", {}).items() if k != SERVER_NAME}
    if entry is not None:
        text += ("\n" if text else "") + _toml_table(entry)
        servers[SERVER_NAME] = entry
    expected = {**data, "mcp_servers": servers}
    try:
        got: dict[str, Any] | None = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        got = None
    if got is None or _without_empty_servers(got) != _without_empty_servers(expected):
        # e.g. vmem's entry written as an inline table, or a header inside a multi-line string
        raise ConfigError(
            f"cannot edit the vmem entry of {config} line by line; change [mcp_servers.{SERVER_NAME}] by hand"
        )
    return write_text(config, old, text)


def _without_empty_servers(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if not (k == "mcp_servers" and not v)}


def _is_vmem_table(name: str) -> bool:
    parts = [p.strip().strip('"').strip("'") for p in name.split(".")]
    return parts[:2] == ["mcp_servers", SERVER_NAME]


def _toml_table(entry: dict[str, Any]) -> str:
    def value(v: Any) -> str:  # a JSON string is a valid TOML basic string
        return (
            "[" + ", ".join(json.dumps(x, ensure_ascii=False) for x in v) + "]"
            if isinstance(v, list)
            else (json.dumps(v, ensure_ascii=False))
        )

    body = "".join(f"{k} = {value(v)}\n" for k, v in entry.items())
    return f"[mcp_servers.{SERVER_NAME}]\n{body}"
