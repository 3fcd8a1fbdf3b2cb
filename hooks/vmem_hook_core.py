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
daemon over its socket for the rendered block (``vmem_daemonlink.py``, vmem's own
``daemonlink`` copied beside it: where the vault is, the socket, JSON): no model, no index,
no vmem import. With no daemon running it starts one in the background for the next
prompt and stays silent now.
"""

import os
import sys

import vmem_daemonlink as link  # vault_memory/daemonlink.py, copied beside this file

TIMEOUT = 2.0  # seconds for one daemon answer; Claude Code's own timeout is the backstop
#: the most of a prompt sent to be read for what it asks to keep (the daemon reads no more:
#: ``daemon.requests.MAX_SAID_CHARS``)
SAID_MOST = 9_000


def main(argv):
    args = _options(argv[1:])
    kind = args.get("kind")
    stdin = "" if kind == "shell" and args.get("prompt") else sys.stdin.read()
    if kind == "claude-code":
        try:
            event = link.loads(stdin or "{}")
        except ValueError as e:
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
        head = prompt[:2000]
        # a lone surrogate of a JSON escape is no text: recalled without it, said as it came
        # (the daemon names a request in it as not read rather than write it altered)
        query = head.encode("utf-8", "replace").decode("utf-8")
        # what is read for "remember that…": the whole prompt, or its start and its end (a
        # request after a pasted log was lost with everything past the first 2,000 characters)
        said = prompt if len(prompt) <= SAID_MOST else f"{prompt[: SAID_MOST // 2]}\n\n{prompt[-(SAID_MOST // 2) :]}"
        if query != head:
            _log(vault, f"{name}: the prompt holds characters that are not UTF-8 text; recalled without them")
        # "remember that…" in the prompt is written by the daemon before it recalls
        return _context(name, _recall(vault, query, budget, args, session, said=said))
    if name == "SessionStart":
        if not _ask(vault, {"op": "ping"}, 0.5):
            _start_daemon(vault, args, wait=True)
        # after a compaction or a /clear the agent lost what it was shown: all of it again
        reset = event.get("source") in ("compact", "clear")
        # what the vault holds, as an index (a line each; the agent reads the rest by id)
        return _context(name, _recall(vault, _project_query(cwd), budget, args, session, reset, shape="index"))
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
        sys.stdout.write(link.dumps(out) + "\n")
    return 0


def _budget(args):
    """--budget N, or None: the vault's own ``[recall] budget`` (the daemon applies it)."""
    try:
        return int(args["budget"]) if args.get("budget") else None
    except ValueError:
        return None


def _recall(vault, text, budget, args, session=None, reset=False, said=None, shape="block"):
    """The rendered block from the vault's daemon; '' (and a log line) when it cannot say.
    k and the budget default to the vault's ``[recall]`` settings, applied by the daemon.
    With ``session``, only what that session was not shown yet (the daemon keeps track);
    ``shape`` "index": one short line a memory, those cut short named by id."""
    query = {"text": text} if budget is None else {"text": text, "budget": budget}
    request = {"op": "recall", "query": query, "render": "cli", "format": shape}
    if session:
        request["session"] = session
        if reset:
            request["reset"] = True
    if said:
        request["said"] = said
    answer = _ask(vault, request, TIMEOUT)
    if answer is BUSY:  # alive: another daemon would only find it running
        return ""
    if answer is None:
        _log(vault, "no daemon answered; starting one for the next prompt")
        _start_daemon(vault, args, wait=False)
        return ""
    if not answer.get("ok"):
        _log(vault, f"the daemon could not recall: {answer.get('error')}")
        return ""
    warnings = answer.get("stderr")
    for warning in warnings[:5] if isinstance(warnings, list) else []:
        _log(vault, f"recall: {_printable(str(warning))[:500]}")
    block = answer.get("stdout")
    block = _fenced(block[:-1] if isinstance(block, str) and block.endswith("\n") else block, vault)
    # what became of the prompt's "remember that…" (written, known, or not kept and why)
    saved = _noticed(answer.get("saved"), vault) if said else ""
    return "\n".join(part for part in (block, saved) if part)


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


def _noticed(notice, vault):
    """The daemon's notice of what it did with the prompt's request to remember, only when
    it is one whole fence of its own with nothing outside it and no block inside it."""
    if not isinstance(notice, str) or not notice:
        return ""
    one = notice.startswith(SAVED_OPEN) and notice.endswith(SAVED_CLOSE) and notice.count(SAVED_CLOSE) == 1
    if not one or notice.count(SAVED_OPEN) != 1 or "<memory" in notice or "</memory" in notice:
        _log(vault, "the daemon's notice of what it remembered is not one fenced notice; not passed on")
        return ""
    return "".join(c for c in notice if c == "\n" or not _control(c))


#: the notice's fence, as ``conversation.notice`` writes it
SAVED_OPEN, SAVED_CLOSE = "<vmem-saved>", "</vmem-saved>"


#: ``_ask``'s answer when the daemon took the request and did not answer in time: it runs
#: (busy: a first load, a rebuild, a loaded machine), and starting another only costs the
#: machine a vmem process more
BUSY = {"ok": False, "error": "busy"}


def _ask(vault, request, timeout):
    """The daemon's answer; ``BUSY`` (logged) when it did not answer in time; None (logged)
    when none came: nothing published (no daemon), a socket nobody listens on, another
    user's socket or a port that cannot prove the vault's key, or an answer that is not
    JSON."""
    if not link.published(vault):
        return None
    try:
        answer = link.ask(vault, request, timeout)
    except TimeoutError:
        _log(vault, f"the daemon did not answer within {timeout:g} s (busy); this prompt goes without memory")
        return BUSY
    except (OSError, ValueError) as e:
        _log(vault, f"daemon socket: {e}")
        return None
    return answer if isinstance(answer, dict) else None


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
        with os.fdopen(_open_log(output), "a", encoding="utf-8") as out:
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
    return link.find_vault(explicit, cwd, chosen_only=True, passed=passed)


def _log_path(vault, name="hooks.log"):
    if vault is not None and os.path.isdir(os.path.join(vault, ".vmem")):
        return os.path.join(vault, ".vmem", name)
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    folder = os.path.join(base, "vmem")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    return os.path.join(folder, name)


#: a log over this many bytes is moved to ``<log>.1`` (replacing the one before) and begun
#: again: a hook runs on every prompt for months and nobody empties its logs, so each keeps
#: its latest 1 to 2 MB (some 8,000 lines of the usual 120 bytes, or as many ingests' output)
LOG_LIMIT = 1_000_000


def _open_log(path):
    """A file descriptor appending to the log ``path``: its owner's alone (0600, as vmem's
    other state: a line names files, prompts' recall warnings and transcripts), and moved
    to ``<path>.1`` first when it is over ``LOG_LIMIT``, so it never grows without bound."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags, 0o600)
    try:
        st = os.fstat(fd)
        if st.st_mode & 0o077:  # made by an older hook with the umask's mode
            os.fchmod(fd, 0o600)
        if st.st_size < LOG_LIMIT or os.stat(path).st_ino != st.st_ino:  # another hook moved it just now
            return fd
        os.replace(path, path + ".1")
    except OSError:
        return fd
    os.close(fd)
    return os.open(path, flags, 0o600)


def _log(vault, message):
    """One line in the hook log; returns 0, the exit status of every hook outcome."""
    try:
        import time

        with os.fdopen(_open_log(_log_path(vault)), "a", encoding="utf-8") as f:
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
