"""How anything reaches a vault's daemon, with the standard library alone: where the vault
is (the rule ``config.locate_vault`` applies and words the errors of), whether the user
chose it (``trust``), its daemon's socket, one request line and its one answer line, and
JSON read and written with the C halves of ``json`` only (the Python module around them,
and the ``re`` and ``enum`` it imports, cost a prompt hook as much as Python's start).

`vmem recall`'s fast path, the CLI's client (``backend.client``) and the daemon speak
through it. ``hooks/vmem_daemonlink.py`` is a byte-for-byte copy the hook script imports
(it runs even with vmem uninstalled; a test keeps the two equal), so this module imports
nothing of vmem and nothing a bare ``python -S`` does not have.
"""

from __future__ import annotations

import os
import time

TYPE_CHECKING = False  # not `from typing import`: a hook would pay for importing typing
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

try:  # the C halves of json and socket
    import _socket as _socket_c
    from _json import encode_basestring_ascii as _quote
    from _json import make_scanner as _make_scanner
except ImportError:  # a Python without them: the modules, slower to import, same answers
    import json as _json_module
    import socket as _socket_c  # type: ignore[no-redef]

    _quote = _json_module.encoder.encode_basestring_ascii
    _make_scanner = None  # type: ignore[misc, assignment]
_new_socket = _socket_c.socket
SOCK_STREAM, AF_INET = _socket_c.SOCK_STREAM, _socket_c.AF_INET
#: None where the platform has no Unix sockets (Windows' CPython)
AF_UNIX = getattr(_socket_c, "AF_UNIX", None)

#: the file that makes a folder a vault
CONFIG_NAME = "vmem.toml"
#: the folder of vmem's own files in a vault, and its daemon's socket in it
STATE_DIR = ".vmem"
SOCKET_NAME = "daemon.sock"
#: the portable transport's address: the loopback port and the key a request must prove
ADDRESS_NAME = "daemon.addr"
#: how vmem's processes reach each other and share the index: ``posix`` (the daemon on a
#: Unix socket, locks by ``fcntl``) or ``portable`` (a loopback TCP port and a key file only
#: this user reads, locks by portalocker: what Windows has). The daemon's choice is the one
#: its clients follow: they look for the file it published.
IPC_ENV = "VMEM_IPC"
POSIX, PORTABLE = "posix", "portable"
#: sun_path holds 107 bytes on Linux; longer paths are reached through the folder instead
MAX_SOCKET_PATH = 100
#: the largest answer read (a recall of 1,000 whole memories is a few MB): a peer that
#: sends more without a newline is not a daemon answering a question
MAX_ANSWER_BYTES = 64 << 20
#: the largest record of a chosen vault read
MAX_RECORD_BYTES = 65_536


# ---------------------------------------------------------------------- where the vault is


def data_home() -> str:
    """``$XDG_DATA_HOME/vmem`` (``~/.local/share/vmem`` without it): the per-user vault and
    the records of the vaults the user chose."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "vmem")


def default_vault_path() -> str:
    """The per-user vault: ``$XDG_DATA_HOME/vmem/vault``."""
    return os.path.join(data_home(), "vault")


def vaults_above(cwd: str) -> list[str]:
    """Every folder at or above ``cwd`` holding vmem.toml, nearest first."""
    here = os.path.realpath(cwd)
    found = []
    while True:
        if os.path.isfile(os.path.join(here, CONFIG_NAME)):
            found.append(here)
        parent = os.path.dirname(here)
        if parent == here:
            return found
        here = parent


def nearest_vault(cwd: str, accept: Callable[[str], bool] | None = None) -> str | None:
    """The nearest folder at or above ``cwd`` holding vmem.toml (of those ``accept`` takes,
    when given), else the per-user default when it is a vault; None when neither is."""
    for folder in vaults_above(cwd):
        if accept is None or accept(folder):
            return folder
    default = default_vault_path()
    return default if os.path.isfile(os.path.join(default, CONFIG_NAME)) else None


def find_vault(
    explicit: str | None, cwd: str, chosen_only: bool = False, passed: list[str] | None = None
) -> str | None:
    """``--vault`` (``explicit``), ``VMEM_VAULT``, the nearest folder above ``cwd`` holding
    vmem.toml (with ``chosen_only``, one the user created or trusted: the others are added
    to ``passed``), the per-user default; None where ``config.locate_vault`` raises."""
    for value in (explicit, os.environ.get("VMEM_VAULT")):
        if value:
            path = os.path.realpath(os.path.expanduser(value))
            return path if os.path.isdir(path) else None
    if not chosen_only:
        return nearest_vault(cwd)

    def chosen(folder: str) -> bool:
        if is_trusted(folder):
            return True
        if passed is not None:
            passed.append(folder)
        return False

    return nearest_vault(cwd, chosen)


# ---------------------------------------------------------------------- vaults the user chose


def trust_dir() -> str:
    """``$XDG_DATA_HOME/vmem/trusted``: one record a vault."""
    return os.path.join(data_home(), "trusted")


def trust_record_path(root: str | os.PathLike[str]) -> str:
    """The record of the vault at ``root``: named by a digest of its real path."""
    import hashlib

    real = os.path.realpath(os.fspath(root))
    return os.path.join(trust_dir(), hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:32] + ".json")


def trust_record(root: str | os.PathLike[str]) -> dict | None:
    """The record for ``root``, or None: none, not this user's regular file, or not this path."""
    import stat

    try:
        fd = os.open(trust_record_path(root), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if st.st_uid != os.getuid() or st.st_size > MAX_RECORD_BYTES or not stat.S_ISREG(st.st_mode):
            return None
        data = loads(os.read(fd, MAX_RECORD_BYTES).decode("utf-8"))
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)
    if not isinstance(data, dict) or data.get("path") != os.path.realpath(os.fspath(root)):
        return None
    return data


def is_default(root: str | os.PathLike[str]) -> bool:
    return os.path.realpath(os.fspath(root)) == os.path.realpath(default_vault_path())


def is_trusted(root: str | os.PathLike[str]) -> bool:
    """Whether hooks and MCP may use the vault at ``root`` when nobody named it."""
    return is_default(root) or trust_record(root) is not None


# ---------------------------------------------------------------------- the exchange


def ipc() -> str:
    """``posix`` or ``portable``: what ``$VMEM_IPC`` asks for, else posix where the platform
    has Unix sockets and ``fcntl``. ValueError for a value it cannot be."""
    asked = os.environ.get(IPC_ENV, "").strip().lower()
    has_posix = os.name == "posix" and AF_UNIX is not None
    if asked and asked not in (POSIX, PORTABLE):
        raise ValueError(f"{IPC_ENV}={asked!r}: it may be {POSIX} or {PORTABLE}")
    if asked == POSIX and not has_posix:
        raise ValueError(f"{IPC_ENV}=posix, but this platform has no Unix sockets")
    return asked or (POSIX if has_posix else PORTABLE)


class CutShort(OSError):
    """The daemon stopped answering, or the deadline came, after part of an answer."""


class ForeignSocket(OSError):
    """A socket (or its ``.vmem`` folder) that another user owns: never asked (a shared
    ``/tmp`` or project folder could hold anyone's)."""


def socket_path(vault: str | os.PathLike[str]) -> str:
    return os.path.join(os.fspath(vault), STATE_DIR, SOCKET_NAME)


def check_owner(path: str) -> None:
    """Refuse a daemon socket or address file, or the folder it is in, that is not this
    user's (where files have owners by number: on Windows the user's folders' ACLs)."""
    if not hasattr(os, "getuid"):
        return
    me = os.getuid()
    for where in (path, os.path.dirname(path) or "."):
        owner = os.stat(where).st_uid
        if owner != me:
            raise ForeignSocket(f"{where} belongs to uid {owner}, not to this user; not asked")


def at_address(use, path):
    """``use(address)`` (a socket's ``connect`` or ``bind``) with an address for ``path``
    that fits in sun_path: the path itself, or its name relative to its folder while the
    process sits in that folder (the CLI and the daemon's start-up are single-threaded
    when they bind or connect)."""
    full = os.fspath(path)
    if len(full) <= MAX_SOCKET_PATH:
        return use(full)
    previous = os.getcwd()
    os.chdir(os.path.dirname(full))
    try:
        return use(os.path.basename(full))
    finally:
        os.chdir(previous)


def address_path(vault: str | os.PathLike[str]) -> str:
    return os.path.join(os.fspath(vault), STATE_DIR, ADDRESS_NAME)


def published(vault: str | os.PathLike[str]) -> bool:
    """Whether a daemon published where it listens (a socket or an address file): asking
    costs a request, learning that nobody published costs a ``stat``."""
    return os.path.exists(socket_path(vault)) or os.path.exists(address_path(vault))


def exchange(path: str | os.PathLike[str], request: bytes, seconds: float) -> bytes:
    """Send ``request`` (one line of bytes) to the Unix socket ``path`` and return the
    answer's bytes (see ``_exchange``)."""
    if AF_UNIX is None:
        raise FileNotFoundError(f"{path}: this platform has no Unix sockets")
    check_owner(os.fspath(path))
    return _exchange(_new_socket(AF_UNIX, SOCK_STREAM), lambda sock: at_address(sock.connect, path), request, seconds)


def _exchange(sock, connect, request: bytes, seconds: float) -> bytes:
    """Connect, send ``request`` and return the answer's bytes (up to its newline, or all
    the peer sent before closing), within ``seconds`` for the whole exchange: a peer that
    trickles bytes is let go at the deadline. Raises ``OSError`` when nobody answers
    (``ConnectionRefusedError``, ``FileNotFoundError``, ``TimeoutError``,
    ``ForeignSocket``) and ``CutShort`` when the answer stopped part-way."""
    deadline = time.monotonic() + seconds
    chunks = []
    received = 0
    try:
        sock.settimeout(seconds)
        connect(sock)
        sock.sendall(request)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no whole answer within {seconds:g} s")
            sock.settimeout(left)
            chunk = sock.recv(1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
            received += len(chunk)
            if chunk.endswith(b"\n"):
                break
            if received > MAX_ANSWER_BYTES:
                raise CutShort(f"an answer over {MAX_ANSWER_BYTES >> 20} MiB; not read")
    except OSError as e:
        if chunks and not isinstance(e, CutShort):
            raise CutShort(str(e)) from e
        raise
    finally:
        sock.close()
    return b"".join(chunks)


def ask(vault: str | os.PathLike[str], request: dict, seconds: float) -> Any:
    """The daemon's answer to ``request`` (which names ``vault``: a socket linked from
    another vault's folder is told apart), within ``seconds``, over whichever transport the
    daemon published; raises ``OSError`` (nobody answered, one that is not the daemon, or
    ``CutShort``) or ``ValueError`` (not JSON)."""
    request = {**request, "vault": os.fspath(vault)}
    if os.path.exists(socket_path(vault)) or not os.path.exists(address_path(vault)):
        line = dumps(request).encode("ascii") + b"\n"
        return loads(_said(exchange(socket_path(vault), line, seconds)))
    path = address_path(vault)
    check_owner(path)
    port, key = read_address(path)
    nonce = os.urandom(16).hex()
    line = dumps({**request, "nonce": nonce, "proof": proof(key, "client", nonce)}).encode("ascii") + b"\n"
    raw = _exchange(_new_socket(AF_INET, SOCK_STREAM), lambda sock: sock.connect(("127.0.0.1", port)), line, seconds)
    answer = loads(_said(raw))
    if not isinstance(answer, dict) or answer.pop("proof", None) != proof(key, "daemon", nonce):
        raise ForeignSocket(f"what answers on 127.0.0.1:{port} does not hold the key of {path}; not believed")
    return answer


def _said(raw: bytes) -> str:
    """An answer's text; a connection closed with nothing said is nobody answering."""
    if not raw:
        raise ConnectionAbortedError("the daemon closed the connection without an answer")
    return raw.decode("utf-8", "replace")


def read_address(path: str) -> tuple[int, str]:
    """(port, key) of an address file; ``ForeignSocket`` for one that is not a daemon's."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        raise FileNotFoundError(path) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_RECORD_BYTES:
            raise ForeignSocket(f"{path} is not a daemon's address")
        record = loads(os.read(fd, MAX_RECORD_BYTES).decode("utf-8"))
    except ValueError:
        raise ForeignSocket(f"{path} is not a daemon's address") from None
    finally:
        os.close(fd)
    port, key = (record.get("port"), record.get("key")) if isinstance(record, dict) else (None, None)
    if not isinstance(port, int) or not 0 < port < 65536 or not isinstance(key, str) or len(key) != 64:
        raise ForeignSocket(f"{path} is not a daemon's address")
    return port, key


def proof(key: str, role: str, nonce: str) -> str:
    """What only a holder of ``key`` can say about ``nonce`` in ``role`` (``client`` or
    ``daemon``): keyed BLAKE2, so neither side ever sends the key (a process that took the
    port of a daemon gone learns nothing it can answer with)."""
    try:
        from _blake2 import blake2b
    except ImportError:  # a Python without it: the module
        from hashlib import blake2b
    try:
        secret = bytes.fromhex(key)
    except ValueError:
        return ""
    return blake2b(f"{role}:{nonce}".encode("utf-8", "replace"), key=secret[:64], digest_size=32).hexdigest()


# ---------------------------------------------------------------------- JSON


class _Decoding:
    """What json.loads gives its scanner by default (strict strings, NaN and Infinity read)."""

    strict = True
    object_hook = object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}.__getitem__


_scan = _make_scanner(_Decoding()) if _make_scanner is not None else None  # type: ignore[arg-type]


def loads(text: str | bytes) -> Any:
    """``json.loads(text)``, and a ``ValueError`` for a document nested deeper than the
    parser recurses (malformed input like any other): the scanner alone reads good input;
    for anything else json itself is loaded to say what is wrong."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    stripped = text.strip(" \t\n\r")
    try:
        # without the C scanner: a TypeError, and json below
        value, end = _scan(stripped, 0)  # type: ignore[misc]
        if end == len(stripped):
            return value
    except Exception:  # noqa: BLE001 - any failure is answered by json.loads below
        pass
    import json

    try:
        return json.loads(text)
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply to read", "", 0) from None


def dumps(value: object) -> str:
    """``json.dumps(value)`` (ASCII) for what travels: dicts, lists, text, numbers."""
    if isinstance(value, str):
        return _quote(value)
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float) and value == value and value not in (float("inf"), float("-inf")):
        return repr(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_quote(str(k))}: {dumps(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(dumps(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as JSON")
