"""The ``vmem`` console script's first step: a ``vmem recall`` that the vault's daemon can
answer is answered before typer or anything heavy is imported.

Shell scripts and agents call ``vmem recall "..."`` as a subprocess on every prompt; the
full command line costs about 200 ms of imports before it asks the daemon. This module
uses the standard library only: it reads the arguments ``recall`` takes, finds the vault
and asks its daemon as every client does (``daemonlink``) and prints what
the daemon rendered with the same function the CLI prints with
(``RecallResult.output``), so output, ``--json`` and exit codes are the same.

``vmem mcp`` (the server, not its subcommands) goes to the relay of ``integrations.mcp_relay``, which
answers the handshake at once and starts the SDK's server beside it.

Everything else falls through to the full CLI (``vault_memory.cli.main``): another
command, ``--help``, an option it does not read (``--as-of``, ``--no-daemon``), a value the
CLI would refuse, no vault, no daemon, a daemon that is not ready or says no, or one that
does not answer within ``DEADLINE_SECONDS``. The CLI then does what it always did.
"""

from __future__ import annotations

import os
import sys

from .daemonlink import ask, find_vault
from .terminal import for_a_person, printable

#: the whole answer, not each read: a daemon that trickles bytes is given up on
DEADLINE_SECONDS = 10.0
#: what the fast path learned of the daemon before it fell through to the CLI
_silent: set[str] = set()
SILENT_DAEMON = "silent"

_VALUE_OPTIONS = {
    "--k": "k",
    "-n": "k",
    "--budget": "budget",
    "-b": "budget",
    "--type": "types",
    "-t": "types",
    "--persona": "persona",
    "--format": "format",
    "-f": "format",
    "--vault": "vault",
    "-V": "vault",
}
_FLAGS = {
    "--include-expired": "include_expired",
    "--include-archived": "include_archived",
    "--include-stale": "include_stale",
    "--json": "json",
    "--explain": "explain",
}
_FORMATS = ("block", "json", "md", "index")  # recall.results.FORMATS (a test holds them equal)


def main() -> int:
    """The console script: the fast path when it can serve, else the full CLI."""
    argv = sys.argv[1:]
    if argv[:1] == ["recall"]:
        served = serve_recall(argv[1:])
        if served is not None:
            return served
        if SILENT_DAEMON in _silent and "--no-daemon" not in argv:
            # the daemon took the whole deadline without a word (stopped, wedged): the CLI
            # answers in this process instead of waiting on it again (138 s before)
            sys.argv.append("--no-daemon")
    if argv[:1] == ["mcp"] and serves_mcp(argv[1:]):
        from .integrations.mcp_relay import relay

        return relay(argv[1:])
    from .cli import main as full_cli

    full_cli()
    return 0


def serves_mcp(args: list[str]) -> bool:
    """``vmem mcp [--vault PATH]``, the server itself (not ``install``, ``--help``…): the
    relay answers its handshake at once (``integrations.mcp_relay``)."""
    rest = list(args)
    while rest[:1] in (["--vault"], ["-V"]) and len(rest) >= 2:
        rest = rest[2:]
    rest = [a for a in rest if not a.startswith("--vault=")]
    return not rest


def serve_recall(args: list[str]) -> int | None:
    """The exit status after printing the daemon's answer, or None to fall through."""
    options = parse_recall(args)
    if options is None:
        return None
    vault = find_vault(options.pop("vault", None), os.getcwd())
    if vault is None:
        return None
    fmt = "json" if options.pop("json", False) else options.pop("format", "block")
    explain = options.pop("explain", False)
    answer = ask_daemon(vault, {"op": "recall", "query": options, "render": "cli", "format": fmt, "explain": explain})
    if not (answer and answer.get("ok") is True and isinstance(answer.get("stdout"), str)):
        return None  # no daemon, an older one, not ready, busy, or an error the CLI words
    errors = answer.get("stderr")
    for line in errors if isinstance(errors, list) else []:
        sys.stderr.write(f"{printable(str(line))}\n")
    sys.stdout.write(for_a_person(answer["stdout"], sys.stdout))
    sys.stdout.flush()
    return 0


def parse_recall(args: list[str]) -> dict | None:
    """``vmem recall``'s arguments as a wire query (plus ``vault``, ``json``, ``format``,
    ``explain``), or None for anything the full CLI should judge."""
    out: dict = {}
    text = None
    i = 0
    while i < len(args):
        arg = args[i]
        name, eq, inline = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        if name in _FLAGS and not eq:
            out[_FLAGS[name]] = True
        elif name in _VALUE_OPTIONS:
            if eq:
                value = inline
            elif i + 1 < len(args):
                i += 1
                value = args[i]
            else:
                return None
            if not _take(out, _VALUE_OPTIONS[name], value):
                return None  # the CLI says what is wrong with it
        elif arg.startswith("-") and arg != "-":
            return None  # --help, --as-of, --no-daemon, -n5, --: the CLI's
        elif text is None:
            text = arg
        else:
            return None
        i += 1
    if text is None:
        return None
    out["text"] = text
    return out


def _take(out: dict, key: str, value: str) -> bool:
    """Put an option's value into ``out`` as the wire query holds it; False for one the
    fast path does not take (a count that is not a plain positive number, an unknown format)."""
    if key == "types":
        out.setdefault("types", []).append(value)
    elif key in ("k", "budget"):
        if not (value.isascii() and value.isdigit()) or int(value) < 1:  # "²".isdigit() is True
            return False
        out[key] = int(value)
    elif key == "format" and value not in _FORMATS:
        return False
    else:
        out[key] = value
    return True


def ask_daemon(vault: str, request: dict) -> dict | None:
    """The daemon's answer within ``DEADLINE_SECONDS`` for the whole exchange; None on any
    failure (the full CLI will try and say what went wrong)."""
    try:
        answer = ask(vault, request, DEADLINE_SECONDS)
    except TimeoutError:
        _silent.add(SILENT_DAEMON)
        return None
    except (OSError, ValueError):
        return None  # no daemon (no socket: FileNotFoundError), another user's, an answer cut short
    return answer if isinstance(answer, dict) else None
