"""Which vaults the user chose, recorded per user (like direnv's allow): standard library
only; whether a vault is chosen is asked where the fast path and the hook can ask it too
(``daemonlink``).

A vault is *chosen* when the user named it (``--vault``, ``VMEM_VAULT``), made it (``vmem
init``: recorded as ``created``), trusted it (``vmem trust``: recorded as ``trusted``), or
when it is the per-user default vault. A folder holding ``vmem.toml`` found by walking up
from where an agent runs (a cloned repository) is none of these until the user says so:
hooks and the MCP server pass it over, and its ``[llm]`` endpoint never receives a
conversation. A trusted vault's endpoint is the one it had when the user trusted it: a
later ``git pull`` that points it elsewhere needs ``vmem trust`` again.
"""

from __future__ import annotations

import json
import os
import tempfile
import time

from .daemonlink import is_default, is_trusted, trust_dir
from .daemonlink import trust_record as entry
from .daemonlink import trust_record_path as record_path

__all__ = [
    "CREATED",
    "TRUSTED",
    "entry",
    "is_default",
    "is_trusted",
    "key_env_allowed",
    "llm_url_allowed",
    "record",
    "recorded",
    "revoke",
]

#: how a vault came to be chosen, as the record says
CREATED = "created"
TRUSTED = "trusted"


def llm_url_allowed(root: str | os.PathLike[str], url: str) -> bool:
    """Whether ``[llm] url`` of the vault at ``root`` may receive conversations: always for
    a vault the user created or the default one; for a trusted one, only the endpoint it
    had when trusted; never for any other."""
    if not url or is_default(root):
        return True
    record = entry(root)
    if record is None:
        return False
    return record.get("how") == CREATED or record.get("llm_url", "") == url


def key_env_allowed(root: str | os.PathLike[str], name: str, default: str) -> bool:
    """Whether ``[llm] api_key_env`` of the vault at ``root`` may name the variable sent as
    the endpoint's key: always for a vault the user created or the default one; for a
    trusted one, only the variable it named when trusted (``default`` for a record made
    before the variable was recorded): a later ``git pull`` must not make vmem send
    ``GITHUB_TOKEN``; never for any other."""
    if is_default(root):
        return True
    record = entry(root)
    if record is None:
        return False
    return record.get("how") == CREATED or record.get("api_key_env", default) == name


def record(root: str | os.PathLike[str], how: str, llm_url: str = "", api_key_env: str | None = None) -> str:
    """Record the vault at ``root`` as chosen (written atomically, readable by this user
    alone), with the ``[llm]`` endpoint and key variable it has now; returns the record's
    path."""
    folder = trust_dir()
    os.makedirs(folder, mode=0o700, exist_ok=True)
    data: dict[str, str] = {
        "path": os.path.realpath(os.fspath(root)),
        "how": how,
        "llm_url": llm_url,
        **({"api_key_env": api_key_env} if api_key_env is not None else {}),
        "at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    target = record_path(root)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".trust-", suffix=".tmp")  # 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return target


def revoke(root: str | os.PathLike[str]) -> bool:
    """Forget the record for ``root``; False when there was none."""
    if entry(root) is None:
        return False
    os.unlink(record_path(root))
    return True


def recorded() -> list[dict]:
    """Every vault this user chose, as recorded (oldest first)."""
    folder = trust_dir()
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".json"))
    except OSError:
        return []
    out = []
    for name in names:
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and isinstance(data.get("path"), str) and entry(data["path"]) is not None:
            out.append(data)
    return sorted(out, key=lambda d: str(d.get("at", "")))
