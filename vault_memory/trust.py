"""Which vaults the user chose, recorded per user (like direnv's allow): standard library
only, so the fast path can ask it (``hooks/vmem_hook_core.py`` keeps its own copy of the
check).

A vault is *chosen* when the user named it (``--vault``, ``VMEM_VAULT``), made it (``vmem
init``: recorded as ``created``), trusted it (``vmem trust``: recorded as ``trusted``), or
when it is the per-user default vault. A folder holding ``vmem.toml`` found by walking up
from where an agent runs (a cloned repository) is none of these until the user says so:
hooks and the MCP server pass it over, and its ``[llm]`` endpoint never receives a
conversation. A trusted vault's endpoint is the one it had when the user trusted it: a
later ``git pull`` that points it elsewhere needs ``vmem trust`` again.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile
import time

from .vaultpath import data_home, default_vault_path

#: how a vault came to be chosen, as the record says
CREATED = "created"
TRUSTED = "trusted"


def trust_dir() -> str:
    """``$XDG_DATA_HOME/vmem/trusted`` (``~/.local/share`` without it): one file a vault."""
    return os.path.join(data_home(), "trusted")


def record_path(root: str | os.PathLike[str]) -> str:
    """The record of the vault at ``root``: named by a digest of its real path."""
    real = os.path.realpath(os.fspath(root))
    return os.path.join(trust_dir(), hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:32] + ".json")


def is_default(root: str | os.PathLike[str]) -> bool:
    return os.path.realpath(os.fspath(root)) == os.path.realpath(default_vault_path())


def entry(root: str | os.PathLike[str]) -> dict | None:
    """The record for ``root``, or None: none, not this user's file, or not this path."""
    path = record_path(root)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if st.st_uid != os.getuid() or st.st_size > 65_536 or not stat.S_ISREG(st.st_mode):
            return None
        data = json.loads(os.read(fd, 65_536).decode("utf-8"))
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)
    if not isinstance(data, dict) or data.get("path") != os.path.realpath(os.fspath(root)):
        return None
    return data


def is_trusted(root: str | os.PathLike[str]) -> bool:
    """Whether hooks and MCP may use the vault at ``root`` when nobody named it."""
    return is_default(root) or entry(root) is not None


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


def record(root: str | os.PathLike[str], how: str, llm_url: str = "") -> str:
    """Record the vault at ``root`` as chosen (written atomically, readable by this user
    alone); returns the record's path."""
    folder = trust_dir()
    os.makedirs(folder, mode=0o700, exist_ok=True)
    data = {
        "path": os.path.realpath(os.fspath(root)),
        "how": how,
        "llm_url": llm_url,
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
