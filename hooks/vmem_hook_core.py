"""vmem's hook for agents: Claude Code's hook events, and a shell hook for anything else.

    vmem_hook.py claude-code [--vault PATH] [--vmem EXE]    (Claude Code's hook JSON on stdin)
    vmem_hook.py shell [PROMPT] [--vault PATH] [--budget N]  (the prompt as argument or on stdin)

Installed by `vmem hooks install claude-code|shell`, which copies this file and its
launcher ``vmem_hook.py`` beside the agent's settings (so a vmem that was uninstalled still
leaves a hook that runs). The launcher is what agents run; the code is here so Python
caches its bytecode instead of compiling it again on every prompt.

Fail-open and fast: on any problem (no vault, no daemon, no `vmem`, bad JSON) it prints
nothing, exits 0 and writes one line to the vault's .vmem/hooks.log (or, with no vault,
~/.local/state/vmem/hooks.log). It imports only the standard library and asks the vault's
daemon over its socket for the rendered block: no model, no index, no vmem import. With no
daemon running it starts one in the background for the next prompt and stays silent now.
"""

import os
import sys
import time

try:  # the C halves of json and socket: the Python modules around them (and the re and
    # enum they import) are half of what Python's start costs, paid on every prompt
    from _json import encode_basestring_ascii as _quote
    from _json import make_scanner as _make_scanner
    from _socket import AF_UNIX, SOCK_STREAM
    from _socket import socket as _unix_socket
except ImportError:  # a Python without them: the modules, slower to import, same answers
    import json as _json_module
    import socket as _socket_module

    _quote = _json_module.encoder.encode_basestring_ascii
    _make_scanner = None
    AF_UNIX, SOCK_STREAM, _unix_socket = _socket_module.AF_UNIX, _socket_module.SOCK_STREAM, _socket_module.socket

TIMEOUT = 2.0  # seconds for one daemon answer; Claude Code's own timeout is the backstop
SOCKET_PATH_MAX = 100


class _Decoding:
    """What json.loads gives its scanner by default (strict strings, NaN and Infinity read)."""

    strict = True
    object_hook = object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}.__getitem__


_scan = _make_scanner(_Decoding()) if _make_scanner is not None else None


def _loads(text):
    """``json.loads(text)``: the scanner alone reads good input; for anything else json itself
    is loaded to say what is wrong (the C scanner reports errors through json.decoder)."""
    stripped = text.strip(" \t\n\r")
    try:
        value, end = _scan(stripped, 0)  # a TypeError without the C scanner: json below
        if end == len(stripped):
            return value
    except Exception:  # noqa: BLE001 - any failure is answered by json.loads below
        pass
    import json

    return json.loads(text)


def _dumps(value):
    """``json.dumps(value)`` for what the hook sends and prints: dicts, lists, text, ints."""
    if isinstance(value, str):
        return _quote(value)
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, int):
        return str(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_quote(str(k))}: {_dumps(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_dumps(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def main(argv):
    args = _options(argv[1:])
    kind = args.get("kind")
    stdin = "" if kind == "shell" and args.get("prompt") else sys.stdin.read()
    if kind == "claude-code":
        try:
            event = _loads(stdin or "{}")
        except (ValueError, RecursionError) as e:  # RecursionError: JSON nested too deeply
            return _log(None, f"claude-code: stdin is not JSON ({e})")
        if not isinstance(event, dict):
            return _log(None, "claude-code: stdin is not a JSON object")
        return claude_code(event, args)
    if kind == "shell":
        prompt = args.get("prompt") or stdin
        vault = _vault(args.get("vault"), os.getcwd())
        if vault is None:
            return _log(None, "shell: no vault found")
        block = _recall(vault, prompt, _budget(args), args)
        if block:
            sys.stdout.write(block + "\n")
        return 0
    return _log(None, f"unknown hook kind {kind!r} (expected claude-code or shell)")


def claude_code(event, args):
    name = event.get("hook_event_name")
    cwd = event.get("cwd") or os.getcwd()
    passed = []
    vault = _vault(args.get("vault"), cwd, passed)
    for folder in passed:  # said once a session, where the user will look
        if name == "SessionStart" or vault is None:
            _log(
                vault,
                f"{name}: passed over the vault at {folder}: you did not create or trust it (`vmem trust {folder}`)",
            )
    if vault is None:
        return _log(None, f"{name}: no vault found (use --vault, VMEM_VAULT or a vmem.toml above {cwd})")
    budget = _budget(args)
    session = event.get("session_id") if isinstance(event.get("session_id"), str) else None
    if name == "UserPromptSubmit":
        prompt = event.get("prompt")
        if not isinstance(prompt, str) or not prompt.strip():
            return 0
        # "remember that…" in the prompt is written by the daemon before it recalls
        return _context(name, _recall(vault, prompt[:2000], budget, args, session, said=prompt[:2000]))
    if name == "SessionStart":
        if not _ask(vault, {"op": "ping"}, 0.5):
            _start_daemon(vault, args, wait=True)
        # after a compaction or a /clear the agent lost what it was shown: all of it again
        reset = event.get("source") in ("compact", "clear")
        return _context(name, _recall(vault, _project_query(cwd), budget, args, session, reset))
    if name in ("SessionEnd", "PreCompact"):
        path = event.get("transcript_path")
        if not isinstance(path, str) or not os.path.isfile(path):
            return _log(vault, f"{name}: no transcript at {path!r}")
        command = [args.get("vmem") or "vmem", "ingest", path, "--format", "claude-code", "--vault", vault]
        if isinstance(event.get("session_id"), str):
            command += ["--session", event["session_id"]]
        return _spawn(vault, command, f"{name}: ingest {path}")
    return _log(vault, f"ignored event {name!r}")


def _context(name, block):
    if block:
        out = {"hookSpecificOutput": {"hookEventName": name, "additionalContext": block}}
        sys.stdout.write(_dumps(out) + "\n")
    return 0


def _budget(args):
    """--budget N, or None: the vault's own ``[recall] budget`` (the daemon applies it)."""
    try:
        return int(args["budget"]) if args.get("budget") else None
    except ValueError:
        return None


def _recall(vault, text, budget, args, session=None, reset=False, said=None):
    """The rendered block from the vault's daemon; '' (and a log line) when it cannot say.
    k and the budget default to the vault's ``[recall]`` settings, applied by the daemon.
    With ``session``, only what that session was not shown yet (the daemon keeps track)."""
    query = {"text": text} if budget is None else {"text": text, "budget": budget}
    request = {"op": "recall", "query": query, "render": "block"}
    if session:
        request["session"] = session
        if reset:
            request["reset"] = True
    if said:
        request["said"] = said
    answer = _ask(vault, request, TIMEOUT)
    if answer is None:
        _log(vault, "no daemon answered; starting one for the next prompt")
        _start_daemon(vault, args, wait=False)
        return ""
    if not answer.get("ok"):
        _log(vault, f"the daemon could not recall: {answer.get('error')}")
        return ""
    warnings = answer.get("warnings")
    for warning in warnings[:5] if isinstance(warnings, list) else []:
        _log(vault, f"recall: {_printable(str(warning))[:500]}")
    return _fenced(answer.get("block") or "", vault)


def _printable(text):
    """``text`` without terminal control characters (a file name can hold an escape)."""
    return "".join("?" if _control(c) else c for c in text)


def _control(c):
    """C0 and C1 control characters and DEL: what a terminal or a prompt must not get."""
    return ord(c) < 32 or 127 <= ord(c) < 160


def _fenced(block, vault):
    """The daemon's block only when it is one whole fence with nothing outside it (a foreign
    or broken peer must not put text beside it), without terminal control characters."""
    if not isinstance(block, str) or not block:
        return ""
    if not (block.startswith(OPEN) and block.endswith(CLOSE)) or block.count(CLOSE) != 1 or block.count("<memory") != 1:
        _log(vault, "the daemon's answer is not one fenced block; not passed on")
        return ""
    return "".join(c for c in block if c in "\n\t" or not _control(c))


#: the block's fence, as ``recall.render`` writes it
OPEN, CLOSE = '<memory source="vmem">', "</memory>"
#: the largest answer read from the socket
MAX_ANSWER_BYTES = 16 << 20


def _ask(vault, request, timeout):
    path = os.path.join(vault, ".vmem", "daemon.sock")
    if not os.path.exists(path):
        return None
    me = os.getuid()
    for where in (path, os.path.dirname(path)):  # another user's socket is never asked
        if os.stat(where).st_uid != me:
            _log(vault, f"{where} is not this user's (uid {os.stat(where).st_uid}); not asked")
            return None
    sock = _unix_socket(AF_UNIX, SOCK_STREAM)
    sock.settimeout(timeout)
    chunks = []
    try:
        if len(path) > SOCKET_PATH_MAX:  # sun_path is short: connect by name from its folder
            here = os.getcwd()
            os.chdir(os.path.dirname(path))
            try:
                sock.connect("daemon.sock")
            finally:
                os.chdir(here)
        else:
            sock.connect(path)
        sock.sendall(_dumps({**request, "vault": vault}).encode("ascii") + b"\n")
        deadline = time.monotonic() + timeout  # for the whole answer: a peer trickling bytes is let go
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no whole answer within {timeout:g} s")
            sock.settimeout(left)
            chunk = sock.recv(1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
            if chunk.endswith(b"\n"):
                break
            if sum(len(c) for c in chunks) > MAX_ANSWER_BYTES:
                raise TimeoutError("an answer over 16 MiB; not read")
        return _loads(b"".join(chunks).decode("utf-8"))
    except (OSError, ValueError, RecursionError) as e:
        _log(vault, f"daemon socket: {e}")
        return None
    finally:
        sock.close()


def _start_daemon(vault, args, wait):
    command = [args.get("vmem") or "vmem", "daemon", "start", "--vault", vault]
    if wait:
        import subprocess

        try:
            subprocess.run(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=25,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as e:
            _log(vault, f"cannot start the daemon with {command[0]}: {e}")
        return
    _spawn(vault, command, "daemon start")


def _spawn(vault, command, what):
    """Run ``command`` detached: the agent's session does not wait for it."""
    import subprocess

    output = _log_path(vault, "hooks-output.log")  # many lines: not in hooks.log
    try:
        with open(output, "a", encoding="utf-8") as out:
            subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True)
    except OSError as e:
        return _log(vault, f"{what}: cannot run {command[0]}: {e}")
    return _log(vault, f"{what}: started (its output goes to {output})")


def _project_query(cwd):
    """What a session in ``cwd`` is about: the folder's name and its git remote."""
    words = [os.path.basename(os.path.abspath(cwd))]
    try:
        with open(os.path.join(cwd, ".git", "config"), encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if line.startswith("url ="):
                    remote = line.split("=", 1)[1].strip().rstrip("/")
                    words.append(remote.rsplit("/", 1)[-1].rsplit(":", 1)[-1].removesuffix(".git"))
                    break
    except OSError:
        pass
    return "project " + " ".join(dict.fromkeys(w for w in words if w))


def _vault(explicit, cwd, passed=None):
    """As vmem's ``config.locate_vault(chosen_only=True)``: a vault named by --vault or
    VMEM_VAULT, else the nearest one above ``cwd`` that the user created or trusted (a
    cloned repository's vmem.toml is passed over, and named in ``passed``), else the
    per-user default."""
    for value in (explicit, os.environ.get("VMEM_VAULT")):
        if value:
            path = os.path.abspath(os.path.expanduser(value))
            return path if os.path.isdir(path) else None
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    default = os.path.join(base, "vmem", "vault")
    here = os.path.realpath(cwd)
    while True:
        if os.path.isfile(os.path.join(here, "vmem.toml")):
            if here == os.path.realpath(default) or _trusted(base, here):
                return here
            if passed is not None:
                passed.append(here)
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    return default if os.path.isfile(os.path.join(default, "vmem.toml")) else None


def _trusted(base, folder):
    """vmem's ``trust.entry(folder) is not None``: this user's record names the folder."""
    import hashlib
    import stat

    name = hashlib.sha256(folder.encode("utf-8", "surrogateescape")).hexdigest()[:32] + ".json"
    try:
        fd = os.open(os.path.join(base, "vmem", "trusted", name), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        st = os.fstat(fd)
        if st.st_uid != os.getuid() or not stat.S_ISREG(st.st_mode) or st.st_size > 65_536:
            return False
        record = _loads(os.read(fd, 65_536).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return False
    finally:
        os.close(fd)
    return isinstance(record, dict) and record.get("path") == folder


def _log_path(vault, name="hooks.log"):
    if vault is not None and os.path.isdir(os.path.join(vault, ".vmem")):
        return os.path.join(vault, ".vmem", name)
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    folder = os.path.join(base, "vmem")
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, name)


def _log(vault, message):
    """One line in the hook log; returns 0, the exit status of every hook outcome."""
    try:
        import time

        with open(_log_path(vault), "a", encoding="utf-8") as f:
            line = " ".join(str(message).split())  # one entry, one line, whatever the message held
            f.write(f"{time.strftime('%Y-%m-%dT%H:%M:%S%z')} {line}\n")
    except OSError:
        pass
    return 0


def _options(argv):
    out = {}
    rest = []
    i = 0
    while i < len(argv):
        if argv[i] in ("--vault", "--vmem", "--budget") and i + 1 < len(argv):
            out[argv[i][2:]] = argv[i + 1]
            i += 2
            continue
        rest.append(argv[i])
        i += 1
    if rest:
        out["kind"] = rest[0]
    if len(rest) > 1:
        out["prompt"] = " ".join(rest[1:])
    return out


def run(argv):
    """The exit code for one hook call: 0 whatever went wrong (a hook never breaks the session)."""
    try:
        return main(argv)
    except Exception as e:
        return _log(None, f"hook failed: {e!r}")


if __name__ == "__main__":
    sys.exit(run(sys.argv))
