"""``vmem.toml``: the vault's settings, merged over defaults and checked once at load; and
finding the vault (the folder that holds it). Standard library only, so a command that
needs no more than these (a recall the daemon answers) stays light."""

from __future__ import annotations

import copy
import difflib
import json
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import safejson, trust
from .daemonlink import ADDRESS_NAME, CONFIG_NAME, SOCKET_NAME, STATE_DIR, nearest_vault, vaults_above
from .daemonlink import default_vault_path as _default_vault_path
from .errors import ConfigError, VaultNotFound


@dataclass(frozen=True)
class Setting:
    """One key of vmem.toml: its default, the kind of value it takes, and what it is for
    (the template's comments are generated from ``doc``)."""

    default: Any
    kind: str  # int | number | bool | str | strings | int_by | number_by (a table of numbers)
    doc: str
    minimum: float | None = None
    maximum: float | None = None
    #: for int_by / number_by: the names the table may hold
    names: tuple[str, ...] = ()
    #: what a new vault's vmem.toml says, where it differs from what a vmem.toml without the
    #: key means (a vault made before keeps the index it was built with)
    for_new_vault: Any = None


#: Every type a memory can have, in the order a recalled block shows them, with the block's
#: heading. A file whose ``type`` is missing or unknown is read as a note; vmem writes only
#: the other three.
TYPE_HEADINGS = {"fact": "Facts", "summary": "Summaries", "episode": "Episodes", "note": "Notes"}
NOTE_TYPE = "note"
ALL_TYPES = tuple(TYPE_HEADINGS)
MEMORY_TYPES = tuple(t for t in ALL_TYPES if t != NOTE_TYPE)

#: Every setting vmem reads, by section. Loading checks a vault's vmem.toml against this:
#: an unknown section or key, or a value of the wrong kind, is an error that names it.
SETTINGS: dict[str, dict[str, Setting]] = {
    "vault": {
        "ignore": Setting(["README.md"], "strings", "gitignore-style patterns of Markdown files that are not memories"),
        "max_file_bytes": Setting(
            1_048_576, "int", "larger files are reported by `vmem doctor` and skipped", minimum=1
        ),
    },
    "recall": {
        "budget": Setting(400, "int", "the memory block never exceeds this many tokens", minimum=1),
        "k": Setting(10, "int", "how many memories recall considers for the block", minimum=1),
        "late_interaction": Setting(
            True,
            "bool",
            "re-score the best candidates word piece by word piece (the bundled model; keeps each memory's token "
            "vectors, about 2.3 KB a memory; turned on for an index built without them, it starts at the next "
            "`vmem reindex`)",
        ),
    },
    "embedding": {
        "model": Setting(
            "bundled",
            "str",
            '"bilingual" (a new vault\'s: English by the bundled model, Spanish and across languages by the '
            'multilingual one; offline), "bundled" (all-MiniLM-L6-v2, int8, offline; English only: what a vmem.toml '
            'without this key means), "use-multilingual" (offline; Spanish, English and 14 more languages in one '
            "space), a fastembed model name, or a local model folder. Changing it needs `vmem reindex`",
            for_new_vault="bilingual",
        ),
        "cache_dir": Setting("", "str", "where models are assembled and cached (empty: ~/.cache/vmem)"),
    },
    "daemon": {
        "release_model_after": Setting(
            600.0,
            "number",
            "seconds a daemon keeps the model loaded with nothing to do (it holds about 150 MB); the next recall "
            "loads it again, in about 0.2 s (0: keep it loaded)",
            minimum=0,
        ),
    },
    "llm": {
        "url": Setting(
            "",
            "str",
            "an OpenAI-compatible endpoint for `vmem ingest` (e.g. http://localhost:11434/v1 for Ollama); empty: "
            'explicit "remember that…" signals only ($VMEM_LLM_URL overrides)',
        ),
        "model": Setting("", "str", "the model the endpoint serves ($VMEM_LLM_MODEL overrides)"),
        "api_key_env": Setting(
            "VMEM_LLM_API_KEY", "str", "the environment variable holding the API key (never the key itself)"
        ),
        "timeout": Setting(10.0, "number", "seconds to wait for one answer", minimum=0.1),
        "retries": Setting(2, "int", "further attempts after a failed call, with backoff", minimum=0),
        "max_facts": Setting(
            50, "int", "facts and episodes kept from one answer (the rest are dropped, and said)", minimum=0
        ),
        "max_session_facts": Setting(
            500, "int", "facts and episodes an LLM may write for one conversation, all answers together", minimum=0
        ),
    },
    "context": {
        "budget": Setting(4000, "int", "`vmem context` never prints more than this many tokens", minimum=200),
        "window": Setting(6, "int", "recent turns kept verbatim (4–8 as the conversation stays on topic)", minimum=1),
    },
    "git": {
        "autocommit": Setting(False, "bool", "commit every change vmem makes, when this vault is a git repository"),
    },
    "lifecycle": {
        "ttl_days": Setting(
            {"episode": 30, "summary": 90, "fact": 0, "note": 0},
            "int_by",
            "days a memory of each type lives without an `expires` (0: forever)",
            minimum=0,
            names=ALL_TYPES,
        ),
        "aging_days": Setting(60, "number", "days unconfirmed before a medium-confidence memory is aging", minimum=0),
        "low_priority_days": Setting(90, "number", "... before it is recalled only when highly relevant", minimum=0),
        "stale_days": Setting(120, "number", "... before it is no longer recalled", minimum=0),
        "decay_factor": Setting(
            {"low": 0.25, "medium": 1.0, "high": 1.5, "explicit_high": 2.0},
            "number_by",
            "those days are multiplied by this, per confidence (0: never decays)",
            minimum=0,
            names=("low", "medium", "high", "explicit_high"),
        ),
        "profile_keys": Setting(
            [
                "name",
                "surname",
                "location",
                "city",
                "work",
                "family",
                "partner",
                "language",
                "pronouns",
                "birthday",
                "allergies",
                "health",
            ],  # fmt: skip
            "strings",
            "keys that say who the user is, each in any language a pack names it in: they neither expire by type"
            " nor decay (with family, a key naming a relative too; a fact without a key counts by what it says: I"
            " live in…, I am allergic to…)",
        ),
        "single_valued_keys": Setting(
            ["name", "location", "city", "work", "partner", "birthday", "pronouns"],
            "strings",
            "keys that hold one value, in any language a pack names them in: remembering a new value supersedes"
            " the old one",
        ),
        "no_decay_types": Setting(["note"], "strings", "types that never decay"),
        "persona_cap": Setting(20, "int", "memories kept active per persona; the rest are archived", minimum=0),
        "low_priority_min_relevance": Setting(
            0.8,
            "number",
            "a low-priority memory is recalled only this close to the best candidate",
            minimum=0,
            maximum=1,
        ),
        "dedup_similarity": Setting(
            0.85,
            "number",
            "cosine at or above which `remember` may treat a text as already known",
            minimum=0,
            maximum=1,
        ),
        "state_weight": Setting(
            {"active": 1.0, "aging": 0.9, "low_priority": 0.75},
            "number_by",
            "weight of each lifecycle state in recall",
            minimum=0,
            maximum=1,
            names=("active", "aging", "low_priority"),
        ),
    },
}

#: sections the template shows commented out: their defaults suit almost every vault
_COMMENTED_SECTIONS = ("lifecycle", "context")


def defaults() -> dict[str, dict[str, Any]]:
    return {section: {key: copy.deepcopy(s.default) for key, s in keys.items()} for section, keys in SETTINGS.items()}


class Config:
    """Read-only view of the merged settings: ``config["recall"]["budget"]``."""

    def __init__(self, data: dict[str, Any], path: Path | None = None):
        self.data = data
        self.path = path

    def __getitem__(self, section: str) -> dict[str, Any]:
        return self.data[section]

    def get(self, section: str, key: str, default: Any = None) -> Any:
        return self.data.get(section, {}).get(key, default)

    @classmethod
    def load(cls, vault_root: Path) -> Config:
        path = vault_root / CONFIG_NAME
        if not path.is_file():
            return cls(defaults(), None)
        try:
            user = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
            raise ConfigError(f"{path}: {e}") from None
        except OSError as e:
            raise ConfigError(f"{path}: cannot be read: {e.strerror or e}") from None
        return cls(merged(user, path), path)


def merged(user: dict[str, Any], path: Path | str = CONFIG_NAME) -> dict[str, dict[str, Any]]:
    """The defaults with ``user``'s settings over them, every one checked. Tables of numbers
    (``ttl_days = { episode = 7 }``) change only the names they give."""
    data = defaults()
    for section, values in user.items():
        if section not in SETTINGS:
            raise ConfigError(f"{path}: [{section}] is not a vmem.toml section{_suggest(section, SETTINGS)}")
        if not isinstance(values, dict):
            raise ConfigError(f"{path}: {section} must be a [{section}] section, not a single value")
        for key, value in values.items():
            setting = SETTINGS[section].get(key)
            if setting is None:
                raise ConfigError(f"{path}: [{section}] {key} is not a setting{_suggest(key, SETTINGS[section])}")
            data[section][key] = _checked(value, setting, f"{path}: [{section}] {key}")
    return data


def _suggest(name: str, known: dict[str, Any]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1)
    return f"; did you mean {close[0]!r}?" if close else f" (known: {', '.join(known)})"


def _checked(value: Any, s: Setting, where: str) -> Any:
    """``value`` when it is of the setting's kind and within its bounds; a table of
    numbers by name over the default table. Else ``ConfigError`` naming ``where``."""
    if s.kind in ("int", "number"):
        return _number(value, s, where, whole=s.kind == "int")
    if s.kind in _SIMPLE_KINDS:
        accepts, wanted = _SIMPLE_KINDS[s.kind]
        if not accepts(value):
            raise ConfigError(f"{where} must be {wanted}, not {value!r}")
        return value
    if not isinstance(value, dict):
        raise ConfigError(f"{where} must be a table such as {_toml(s.default)}, not {value!r}")
    table = dict(s.default)
    for name, v in value.items():
        if name not in s.names:
            raise ConfigError(f"{where}: {name!r} is not one of {', '.join(s.names)}")
        table[name] = _number(v, s, f"{where}.{name}", whole=s.kind == "int_by")
    return table


#: the kinds a value only has to be: (the check, what it says a value must be)
_SIMPLE_KINDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "bool": (lambda v: isinstance(v, bool), "true or false"),
    "str": (lambda v: isinstance(v, str), "a string"),
    "strings": (lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v), "a list of strings"),
}


def _number(value: Any, s: Setting, where: str, *, whole: bool) -> Any:
    """``value`` when it is a number (``whole``: an integer; never a bool) within the
    setting's bounds."""
    if isinstance(value, bool) or not isinstance(value, int if whole else (int, float)):
        raise ConfigError(f"{where} must be {'a whole number' if whole else 'a number'}, not {value!r}")
    if (s.minimum is not None and value < s.minimum) or (s.maximum is not None and value > s.maximum):
        bounds = f"at least {s.minimum:g}" if s.maximum is None else f"from {s.minimum:g} to {s.maximum:g}"
        raise ConfigError(f"{where} must be {bounds}, not {value!r}")
    return value


def _toml(value: Any) -> str:
    """A value as TOML (the few kinds settings take)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    return repr(value)


def template_text() -> str:
    """The vmem.toml a new vault gets: every setting with its default and what it is for
    (``vault-template/vmem.toml`` is this text, checked by a test)."""
    out = [
        "# vmem settings for this vault. Every key is optional; these are the defaults (a key left",
        "# out means what its comment says).",
        "# Unknown keys and wrong types are reported by every command, naming the key.",
    ]
    for section, keys in SETTINGS.items():
        out.append("")
        out.append(f"[{section}]")
        commented = section in _COMMENTED_SECTIONS
        if commented:
            guide = "lifecycle" if section == "lifecycle" else "conversations"
            out.append(f"# See docs/{guide}.md (`vmem docs {guide}`). Uncomment a line to change it.")
        for key, s in keys.items():
            out.append(f"# {s.doc}")
            value = s.default if s.for_new_vault is None else s.for_new_vault
            out.append(f"{'# ' if commented else ''}{key} = {_toml(value)}")
    return "\n".join(out) + "\n"


#: Every environment variable vmem reads, and what for (the README's table says the same;
#: a test holds the code, this table and the README together).
ENVIRONMENT = {
    "VMEM_VAULT": "the vault when no --vault is given",
    "VMEM_LLM_URL": "an OpenAI-compatible endpoint for `vmem ingest`; wins over [llm] url",
    "VMEM_LLM_MODEL": "the model that endpoint serves; wins over [llm] model",
    "VMEM_LLM_API_KEY": "its API key, when [llm] api_key_env names no other variable",
    "VMEM_LLM_TIMEOUT": "seconds to wait for one answer of the endpoint; wins over [llm] timeout",
    "XDG_DATA_HOME": "where the per-user default vault lives ($XDG_DATA_HOME/vmem/vault; else ~/.local/share), "
    "and the record of the vaults you created or trusted ($XDG_DATA_HOME/vmem/trusted)",
    "XDG_CACHE_HOME": "where models are assembled and cached ($XDG_CACHE_HOME/vmem; else ~/.cache), "
    "unless [embedding] cache_dir says otherwise, and where `vmem mcp` keeps the MCP SDK's handshake answers",
    "XDG_STATE_HOME": "where the hooks log when there is no vault ($XDG_STATE_HOME/vmem/hooks.log; else ~/.local/state)",
    "VMEM_IPC": "posix (the daemon on a Unix socket, fcntl locks; the default where there are both) or portable "
    "(a loopback TCP port with a key only you can read, portalocker locks; what Windows has)",
    "VMEM_VECTOR_INDEX": "hnswlib (a graph; the default where a build of it is installed) or exact (numpy, "
    "no compiled library): the vector index this machine uses; either reads the other's files",
    "HF_HUB_OFFLINE": "set to 1 by vmem before the bundled model loads, so nothing is ever downloaded",
}


#: how the queue file of an export's batch of conversations begins (``conversation.queue``)
PENDING_BATCH_PREFIX = "batch-"


@dataclass(frozen=True)
class StateLayout:
    """Every path vmem keeps under ``<vault>/.vmem/``, named once.

    Derived (safe to delete; rebuilt or redone): ``index/`` (the indexes and their locks),
    ``ingested/`` (turns already ingested: only saves work), ``context/`` (``vmem
    context``'s cut and summaries), ``daemon.*`` and ``hooks.log`` (a running daemon's lock,
    pid, socket and log; the hooks' log).

    State (deleting it loses data): ``pending/``, transcripts ``vmem ingest`` has not yet
    turned into memories. The hook script (``hooks/vmem_hook.py``, standard library only,
    run even with vmem uninstalled) spells the socket and log paths itself; a test holds
    them equal to these.
    """

    root: Path

    @classmethod
    def of(cls, vault_root: Path) -> StateLayout:
        return cls(Path(vault_root) / STATE_DIR)

    @property
    def index(self) -> Path:
        return self.root / "index"

    @property
    def remember_lock(self) -> Path:
        """Held while a remember decides and writes: one at a time per vault."""
        return self.index / "remember.lock"

    @property
    def daemon_lock(self) -> Path:
        return self.root / "daemon.lock"

    @property
    def daemon_pid(self) -> Path:
        return self.root / "daemon.pid"

    @property
    def daemon_socket(self) -> Path:
        return self.root / SOCKET_NAME

    @property
    def daemon_address(self) -> Path:
        """The portable transport's port and key (``daemonlink.ADDRESS_NAME``)."""
        return self.root / ADDRESS_NAME

    def daemon_published(self) -> bool:
        """Whether a daemon published where it listens (socket or address file)."""
        return self.daemon_socket.exists() or self.daemon_address.exists()

    @property
    def daemon_log(self) -> Path:
        return self.root / "daemon.log"

    @property
    def hooks_log(self) -> Path:
        return self.root / "hooks.log"

    @property
    def hooks_output(self) -> Path:
        """What the commands a hook starts in the background print (one line per entry
        stays true of hooks.log)."""
        return self.root / "hooks-output.log"

    @property
    def pending(self) -> Path:
        return self.root / "pending"

    def waiting_transcripts(self) -> int:
        """The conversations waiting in ``pending/``: a file each, or many in one
        ``batch-*.json`` (an export's batch, counted by what it holds); read, never written."""
        count = 0
        for path in self.pending.glob("*.json") if self.pending.is_dir() else []:
            if not path.name.startswith(PENDING_BATCH_PREFIX):
                count += 1
                continue
            try:
                data = safejson.loads(path.read_text(encoding="utf-8"))
                count += len(data["batch"]) if isinstance(data, dict) and isinstance(data.get("batch"), list) else 1
            except (OSError, ValueError, UnicodeDecodeError):
                count += 1
        return count

    @property
    def quarantine(self) -> Path:
        """Pending transcripts that cannot be processed, moved out of the queue's way (state too)."""
        return self.pending / "quarantine"

    @property
    def ingested(self) -> Path:
        return self.root / "ingested"

    @property
    def context(self) -> Path:
        return self.root / "context"


def llm_url(config: Config, env: Mapping[str, str] | None = None) -> str:
    """The LLM endpoint ingestion uses ('' when none): ``$VMEM_LLM_URL`` over ``[llm] url``,
    and a vault's own endpoint only when the user chose it (``trust.llm_url_allowed``)."""
    return (os.environ if env is None else env).get("VMEM_LLM_URL") or (
        "" if llm_url_refused(config) else config["llm"]["url"]
    )


def redacted_url(url: str) -> str:
    """An endpoint as a message may show it: no ``user:password@`` (whatever the password
    holds: "/", "?", "#"), no query or fragment (an ``?api_key=…``)."""
    url = re.sub(r"[?#].*$", "", url.strip(), flags=re.S)
    scheme, sep, rest = url.rpartition("://")
    return f"{scheme}{sep}{rest.rpartition('@')[2]}" if "@" in rest else url


def llm_url_refused(config: Config) -> str | None:
    """Why the vault's ``[llm] url`` is not used, or None when it is (or there is none): a
    cloned repository's vmem.toml must not receive the user's conversations."""
    url = config["llm"]["url"]
    if not url or config.path is None:
        return None
    root = config.path.parent
    if trust.llm_url_allowed(root, url):
        return None
    if trust.entry(root) is not None:
        return (
            f"[llm] url in {config.path} ({redacted_url(url)}) is not the endpoint this vault had when you trusted it; "
            f"if you set it, run `vmem trust {root}` again"
        )
    return (
        f"[llm] url in {config.path} ({redacted_url(url)}) is not used: you did not create or trust this vault; "
        f"`vmem trust {root}` if conversations may go there"
    )


def llm_key_env(config: Config) -> str:
    """The variable the API key is read from: the vault's ``api_key_env`` only when the user
    chose it (``trust.key_env_allowed``: else a cloned or pulled vmem.toml could name any
    variable, and its value would be sent to the endpoint)."""
    chosen = config["llm"]["api_key_env"]
    if config.path is None or trust.key_env_allowed(config.path.parent, chosen, SETTINGS["llm"]["api_key_env"].default):
        return chosen
    return "VMEM_LLM_API_KEY"


def default_vault_path() -> Path:
    return Path(_default_vault_path())


def locate_vault(explicit: str | Path | None = None, cwd: Path | None = None, *, chosen_only: bool = False) -> Path:
    """``--vault``, else ``VMEM_VAULT``, else the nearest parent with vmem.toml, else the
    per-user default. Raises ``VaultNotFound`` with what was tried. ``chosen_only`` (hooks,
    MCP: an agent runs in folders the user did not pick) passes over a parent vault the
    user neither created nor trusted (``vault_memory.trust``)."""
    for source, value in (("--vault", explicit), ("VMEM_VAULT", os.environ.get("VMEM_VAULT"))):
        if value:
            path = Path(value).expanduser()
            if not path.is_dir():
                raise VaultNotFound(
                    f"{source} points to {path}, which is not a folder (create one with `vmem init {path}`)"
                )
            return path.resolve()
    here = str(cwd or Path.cwd())
    found = nearest_vault(here, trust.is_trusted if chosen_only else None)
    if found is not None:
        return Path(found)
    default = default_vault_path()
    passed = [p for p in vaults_above(here) if chosen_only and not trust.is_trusted(p)]
    if passed:
        raise VaultNotFound(
            f"the vault at {passed[0]} was found above this folder, but you did not create or trust it: "
            f"`vmem trust {passed[0]}` lets agents use it, or pass --vault PATH / set VMEM_VAULT"
        )
    raise VaultNotFound(
        "no vault found: pass --vault PATH, set VMEM_VAULT, run inside a folder holding vmem.toml, "
        f"or create the default one with `vmem init {default}`"
    )
