"""The ``vmem`` command: parse the arguments, call the façade (``vault_memory.api``), print.

Nothing here decides anything about memories; a rule found here belongs in the library.
Exit codes: 0 success, 1 a problem was found or the command could not proceed, 2 usage.
Heavy modules (fastembed, whoosh, hnswlib) are imported only by the verbs that need them,
and a recall the daemon answers imports none of them.
"""

from __future__ import annotations

import contextlib
import json
import shlex
import sys
import time
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, Optional, TypeVar

import typer
from typer.core import TyperCommand

from ..errors import VaultError
from ..terminal import for_a_person, printable

if TYPE_CHECKING:
    from ..api import VaultMemory

T = TypeVar("T")


def _topics() -> list[str]:
    """``vmem docs``' topics, as the installed files are (no list kept by hand)."""
    from .docs import topics

    return topics()


app = typer.Typer(
    name="vmem",
    help="Filesystem-first memory for AI agents: Markdown memories in a vault, recalled as a prompt-ready block.",
    epilog=(
        'Examples:\n\n  vmem init ~/memory && export VMEM_VAULT=~/memory\n\n  vmem remember "nombre: Lucas"\n\n'
        '  vmem recall "what is the user\'s name?"\n\nDocumentation: vmem docs TOPIC, one of: '
        + ", ".join(_topics())
        + "."
    ),
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class _Command(TyperCommand):
    """Usage lines as people write them: ``vmem recall [OPTIONS] QUERY``, not ``{QUERY}``."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return [
            piece[1:-1] if piece.startswith("{") and piece.endswith("}") else piece
            for piece in super().collect_usage_pieces(ctx)
        ]


class _ProjectCommand(_Command):
    """``--project`` alone means the current folder (click has no optional option values)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        fixed: list[str] = []
        for i, arg in enumerate(args):
            fixed.append(arg)
            if arg == "--project" and (i + 1 == len(args) or args[i + 1].startswith("-")):
                fixed.append(".")
        return super().parse_args(ctx, fixed)


VaultOpt = Annotated[
    Optional[Path],
    typer.Option(
        "--vault",
        "-V",
        metavar="PATH",
        show_default=False,
        help="Vault folder (else $VMEM_VAULT, else the nearest parent with vmem.toml, else the per-user default).",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
#: the user insists that what looks like a secret be written (``remember``, ``correct``)
AllowSecretOpt = Annotated[
    bool,
    typer.Option(
        "--allow-secret",
        help="Store it even though it looks like a key, token or password (it is refused otherwise).",
    ),
]


def _complete_ids(ctx: typer.Context, incomplete: str) -> list[str]:
    """The shell's completion of an id: the vault's ids that begin with what was typed. A
    completion never fails out loud (a shell prints whatever it is given): none, then."""
    from ..api import open as open_vault

    try:
        with open_vault(ctx.params.get("vault")) as mem:
            return mem.ids_starting(incomplete)
    except Exception:  # noqa: BLE001 (any failure is "nothing to offer")
        return []


def _complete_topics(incomplete: str) -> list[str]:
    from .docs import topics

    return [t for t in topics() if t.startswith(incomplete.lower())]


IdArg = Annotated[
    str,
    typer.Argument(
        metavar="ID", help="Memory id (or a unique prefix of at least 4 characters).", autocompletion=_complete_ids
    ),
]


def _fail(message: str, code: int = 1) -> NoReturn:
    typer.echo(f"vmem: {printable(message)}", err=True)
    raise typer.Exit(code)


def _run(fn: Callable[[], T]) -> T:
    """Turn library errors into a one-line message and exit code 1, never a traceback."""
    try:
        return fn()
    except VaultError as e:  # each error says its exit status (a value the verb cannot take: 2)
        _fail(str(e), e.exit_code)
    except ValueError as e:
        _fail(str(e), 2)


def _open(path: Optional[Path]) -> VaultMemory:
    from ..api import open as open_vault

    return _run(lambda: open_vault(path))


def _print_json(data: Any) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


def _warn(lines) -> None:
    for line in lines:
        typer.echo(f"warning: {printable(str(line))}", err=True)


def _clip(text: str, width: int) -> str:
    text = printable(" ".join(text.split()))
    return text if len(text) <= width else text[: width - 1] + "…"


def _moment(value: Optional[str], option: str):
    if not value:
        return None
    from ..api import parse_moment

    try:
        return parse_moment(value)
    except ValueError as e:
        _fail(f"{option} {e}", 2)


def _version(value: bool) -> None:
    if value:
        from .. import __version__

        typer.echo(f"vmem {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Filesystem-first memory for AI agents: Markdown memories in a vault, recalled as a prompt-ready block."""


# ---------------------------------------------------------------------- init / docs


@app.command(cls=_Command)
def init(
    path: Annotated[
        Optional[Path],
        typer.Argument(metavar="PATH", help="Folder for the new vault (created if missing).", show_default=False),
    ] = None,
    empty: Annotated[bool, typer.Option("--empty", help="Leave out the example memories.")] = False,
    here: Annotated[
        bool,
        typer.Option(
            "--here",
            help="Make an existing folder of notes (the current one, or PATH) a vault without touching a file: "
            "adds vmem.toml and .vmem/ only.",
        ),
    ] = False,
    lang: Annotated[
        str,
        typer.Option(
            "--lang",
            metavar="LANG",
            help="en+es (the default: English and Spanish memories and questions find each other), en (English "
            "only, the bundled model alone), or es / multi (the offline multilingual model alone).",
        ),
    ] = "en+es",
) -> None:
    """Create a vault from the template: folders, vmem.toml, .gitignore, a README and examples.

    With --here, an existing folder (an Obsidian vault) becomes a vault as it is: nothing in it
    is changed, and vmem says how many notes it found and how it will read them.

    Examples:

      vmem init ~/memory && export VMEM_VAULT=~/memory

      vmem init ~/work-notes --lang en

      cd ~/Obsidian/MyVault && vmem init --here
    """
    from ..api import init as create

    if here:
        _adopt(path or Path.cwd(), lang)
        return
    if path is None:
        _fail("PATH is missing: `vmem init PATH` creates a vault there, `vmem init --here` adopts this folder", 2)
    mem = _run(lambda: create(path, examples=not empty, lang=lang))
    typer.echo(f"Created vault at {mem.root}")
    typer.echo(f"Use it with: export VMEM_VAULT={mem.root}")
    examples = list(mem.list())
    if examples:  # else they reach every prompt of someone who installs the hooks, as if theirs
        pinned = [m.title for m in examples if m.pinned]
        typer.echo(
            f"note: it holds {len(examples)} example memories about a made-up user"
            + (f" ({len(pinned)} pinned, shown in every prompt: {', '.join(pinned)})" if pinned else "")
            + "; an agent with vmem's hooks will read them as yours. Remove each with `vmem forget ID` "
            "(ids: vmem list), or start from `vmem init PATH --empty`.",
            err=True,
        )


def _trusted_list(as_json: bool) -> None:
    from .. import trust as trusting

    records = trusting.recorded()
    if as_json:
        _print_json(records)
        return
    for r in records:
        url = f"  [llm] {r['llm_url']}" if r.get("llm_url") else ""
        typer.echo(f"{r['path']}  ({r.get('how')} {r.get('at', '')}){url}")
    if not records:
        typer.echo("no vault recorded yet: `vmem init PATH` records the vaults you create, `vmem trust PATH` others")


def _trust_revoked(root: Path, as_json: bool) -> None:
    from .. import trust as trusting

    removed = trusting.revoke(root)
    if as_json:
        _print_json({"path": str(root), "revoked": removed})
    elif removed:
        typer.echo(f"no longer trusted: {root}; agents pass it over unless it is named by --vault or VMEM_VAULT")
    else:
        typer.echo(f"{root} was not trusted; nothing changed")


def _adopt(path: Path, lang: str) -> None:
    from ..api import adopt, census

    mem = _run(lambda: adopt(path, lang=lang))
    seen = census(mem)
    typer.echo(f"{mem.root} is now a vault: vmem.toml and .vmem/ were added, no note was changed")
    kinds = ", ".join(f"{n} {kind}{'s' if n != 1 else ''}" for kind, n in sorted(seen.by_type.items())) or "none"
    typer.echo(f"  {seen.found} Markdown file{'s' if seen.found != 1 else ''} found; read as memories: {kinds}")
    if seen.by_type.get("note"):
        typer.echo("  a file without a vmem `type:` is a note: recalled when relevant, never superseded or expired")
    if seen.ignored:
        typer.echo(f"  {seen.ignored} left out by the ignore rules (README.md, templates, [vault] ignore in vmem.toml)")
    if seen.unreadable:
        typer.echo(f"  {seen.unreadable} cannot be read as memories: `vmem doctor` lists them", err=True)
    typer.echo(f"Use it with: export VMEM_VAULT={mem.root}  (the first recall indexes it)")


@app.command(cls=_Command)
def trust(
    path: Annotated[
        Optional[Path],
        typer.Argument(
            metavar="PATH", help="The vault to trust (else the one vmem finds from here).", show_default=False
        ),
    ] = None,
    revoke: Annotated[bool, typer.Option("--revoke", help="Stop trusting it.")] = False,
    show: Annotated[bool, typer.Option("--list", help="List the vaults you created or trusted.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Let agents use a vault found above their folder, and its [llm] url receive conversations.

    Hooks and `vmem mcp` use a vault they find by walking up from the agent's folder (a
    cloned repository's vmem.toml) only when you created it with `vmem init` or trusted it
    here; one named by --vault or VMEM_VAULT is always used. A trusted vault's [llm] url is
    the one it had when you trusted it, and so is the variable its api_key_env names: if either
    changes, trust it again. Recorded per user in
    $XDG_DATA_HOME/vmem/trusted.

    Examples:

      vmem trust ~/work/team-notes

      vmem trust --list

      vmem trust --revoke ~/work/team-notes
    """
    from .. import trust as trusting
    from ..api import locate_vault
    from ..config import Config

    if show:
        _trusted_list(as_json)
        return
    if path is not None and not (path.expanduser() / "vmem.toml").is_file():
        _fail(f"{path} holds no vmem.toml, so it is not a vault (make one with `vmem init --here` inside it)", 2)
    root = _run(lambda: locate_vault(path))
    if revoke:
        _trust_revoked(root, as_json)
        return
    config = _run(lambda: Config.load(root))
    previous = trusting.entry(root)
    how = previous.get("how", trusting.TRUSTED) if previous else trusting.TRUSTED
    url = config["llm"]["url"]
    try:
        record = trusting.record(root, how, url, config["llm"]["api_key_env"])
    except OSError as e:
        _fail(f"cannot record the trust in {trusting.trust_dir()}: {e.strerror or e}")
    if as_json:
        _print_json({"path": str(root), "how": how, "llm_url": url, "record": record})
        return
    typer.echo(f"trusted {root}: hooks and `vmem mcp` may use it when an agent works below it")
    if url:
        typer.echo(f"  its [llm] url {url} will receive the conversations ingested into it")
    if config["llm"]["api_key_env"] != "VMEM_LLM_API_KEY":
        typer.echo(f"  the value of ${config['llm']['api_key_env']} will be sent to it as the API key")


@app.command(cls=_Command)
def docs(
    topic: Annotated[
        Optional[str],
        typer.Argument(metavar="TOPIC", help=f"One of: {', '.join(_topics())}.", autocompletion=_complete_topics),
    ] = None,
) -> None:
    """Print vmem's documentation: the file format, the lifecycle rules, the daemon.

    Example: vmem docs format | less
    """
    from .docs import read_topic, topics

    if topic is None:
        typer.echo("Topics: " + ", ".join(topics()) + "   (vmem docs TOPIC)")
        return
    text = read_topic(topic)
    if text is None:
        _fail(f"no topic {topic!r}; topics: {', '.join(topics())}", 2)
    typer.echo(text)


# ---------------------------------------------------------------------- writing


@app.command(cls=_Command)
def remember(
    text: Annotated[
        str,
        typer.Argument(
            metavar="TEXT", help='The memory ("-": read it from stdin). "key: value" is split into key and value.'
        ),
    ],
    key: Annotated[
        Optional[str], typer.Option("--key", "-k", metavar="KEY", help="Category, e.g. nombre, trabajo.")
    ] = None,
    type: Annotated[str, typer.Option("--type", "-t", metavar="TYPE", help="fact, episode or summary.")] = "fact",
    domain: Annotated[
        Optional[str], typer.Option("--domain", "-d", metavar="DOMAIN", help="work, preferences, personal, …")
    ] = None,
    confidence: Annotated[
        str, typer.Option("--confidence", "-c", metavar="LEVEL", help="high, medium, low or 0-1.")
    ] = "high",
    expires: Annotated[
        Optional[str],
        typer.Option("--expires", metavar="DATE", help="Date or datetime (ISO 8601) after which it is forgotten."),
    ] = None,
    persona: Annotated[
        Optional[str], typer.Option("--persona", metavar="NAME", help="Only recalled for this persona.")
    ] = None,
    tag: Annotated[Optional[list[str]], typer.Option("--tag", metavar="TAG", help="A tag; repeat for more.")] = None,
    pin: Annotated[bool, typer.Option("--pin", help="Always include it in recall.")] = False,
    importance: Annotated[
        Optional[float],
        typer.Option("--importance", metavar="0-1", min=0, max=1, help="Scored from the text when left out."),
    ] = None,
    new: Annotated[
        bool, typer.Option("--new", help="Write a new memory even if the vault already holds this one.")
    ] = False,
    allow_secret: AllowSecretOpt = False,
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Write a new memory and print its id.

    If the vault already holds the same memory, it is reconfirmed instead (its
    last_confirmed becomes now) and its id printed; a new value for a single-valued key
    (nombre, ubicacion, …) supersedes the old one. --new always writes a new file.

    Examples:

      vmem remember "nombre: Lucas"

      vmem remember "Deploys happen on Tuesdays" --domain work --tag deploy

      vmem remember "Staying at Hotel Lisboa" --type episode --expires 2027-12-16

      echo "Prefers tea in the afternoon" | vmem remember -
    """
    if text == "-":
        text = sys.stdin.read()
    from .. import Reconfirmed, Superseded
    from ..conversation.llm import use_llm_judge

    mem = _open(vault)
    _run(lambda: use_llm_judge(mem))  # with an [llm] endpoint, it settles what the rules cannot (a possible conflict)
    outcome = _run(
        lambda: mem.remember(
            text,
            key=key,
            type=type,
            persona=persona,
            importance=importance,
            force_new=new,
            allow_secret=allow_secret,
            domain=domain,
            confidence=confidence,
            expires=expires,
            tags=tag or [],
            pinned=pin,
        )
    )
    _warn([*mem.warnings, *outcome.warnings])
    if as_json:
        _print_json(outcome.to_dict())
        return
    typer.echo(outcome.memory.id)
    if isinstance(outcome, Reconfirmed):
        how = f" (similarity {outcome.similarity:.2f})" if outcome.similarity is not None else ""
        typer.echo(
            f"Already known{how}: reconfirmed {outcome.memory.id} instead of writing a duplicate (--new to force one).",
            err=True,
        )
    elif isinstance(outcome, Superseded):
        why = (
            f"single-valued key {outcome.memory.key!r}"
            if outcome.replaced_by == "key"
            else f"a new value of the same subject, {outcome.replaced_by}"
            if outcome.replaced_by
            else "replaced"
        )
        typer.echo(
            f"Supersedes {', '.join(m.id for m in outcome.previous)} ({why}; `vmem history` shows the chain).", err=True
        )
    for m in outcome.archived:
        typer.echo(f"Archived {m.id}: persona {m.persona!r} is over its cap.", err=True)


@app.command(cls=_Command)
def confirm(id: IdArg, vault: VaultOpt = None, as_json: JsonOpt = False) -> None:
    """Reconfirm a memory by hand: its last_confirmed becomes now, so it stops decaying.

    Only that frontmatter line changes; every other byte of the file stays as it was.

    Example: vmem confirm 2026-09-14-nombre-lucas-a1f3c9
    """
    mem = _open(vault)
    memory = _run(lambda: mem.confirm(id, prefix=True))
    _warn(mem.warnings)
    when = memory.last_confirmed.isoformat() if memory.last_confirmed else None
    if as_json:
        _print_json({"id": memory.id, "path": memory.path.as_posix() if memory.path else None, "last_confirmed": when})
    else:
        typer.echo(f"Confirmed {memory.id} at {when}")


@app.command(cls=_Command)
def correct(
    id: Annotated[str, typer.Argument(metavar="ID", help="Id of the memory that is wrong.")],
    text: Annotated[str, typer.Argument(metavar="TEXT", help="The right text.")],
    allow_secret: AllowSecretOpt = False,
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Write a corrected memory that supersedes ID; the old file stays untouched (history is kept).

    Example: vmem correct 2026-09-14-trabajo-backend-engineer-at-acme-7c21e0 "Staff engineer at Acme"
    """
    mem = _open(vault)
    correction = _run(lambda: mem.correct(id, text, prefix=True, allow_secret=allow_secret))
    memory = correction.memory
    if correction.redirected:
        _warn([f"{correction.named.id} was superseded already; corrected the current one, {correction.corrected.id}"])
    _warn(mem.warnings)
    if as_json:
        path = memory.path.as_posix() if memory.path else None
        _print_json(
            {"id": memory.id, "path": path, "supersedes": memory.supersedes, "redirected": correction.redirected}
        )
    else:
        typer.echo(memory.id)


@app.command(cls=_Command)
def forget(id: IdArg, vault: VaultOpt = None, as_json: JsonOpt = False) -> None:
    """Forget a memory: its file moves to the trash (nothing is destroyed; see `vmem restore`).

    Example: vmem forget 2026-10-02-allergy-peanuts-4be810
    """
    mem = _open(vault)
    entry = _run(lambda: mem.forget(id, prefix=True))
    _warn(mem.warnings)
    if as_json:
        _print_json(entry.__dict__)
    else:
        typer.echo(f"Forgot {entry.id} ({entry.original} → .trash/{entry.trashed}); undo with: vmem restore {entry.id}")


@app.command(cls=_Command)
def restore(
    id: Annotated[
        str, typer.Argument(metavar="ID", help="Id of a forgotten memory, or a unique part of it (as forget takes).")
    ],
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Bring a forgotten memory back to where it was.

    Example: vmem restore 2026-10-02-allergy-peanuts-4be810   (or: vmem restore 4be810)
    """
    mem = _open(vault)
    memory = _run(lambda: mem.restore(id, prefix=True))
    _warn(mem.warnings)
    path = memory.path.as_posix() if memory.path else None
    if as_json:
        _print_json({"id": memory.id, "path": path, "status": "restored"})
    else:
        typer.echo(f"Restored {memory.id} to {path}")


@app.command("import", cls=_Command)
def import_(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="JSON Lines file from `vmem export` ('-' for stdin).")],
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Import memories from JSON Lines. Existing ids are left alone (reported as unchanged or conflict).

    Exit status 1 when a line could not be imported (each is named on stderr).

    Example: vmem import backup.jsonl --vault ~/new-vault
    """
    mem = _open(vault)
    try:
        source = sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        _fail(f"cannot read {file}: {e}")
    lines = source.splitlines()
    progress, update = (None, None) if as_json else _progress_printer()
    if progress:
        with progress:
            report = _run(lambda: mem.import_(lines, source=str(file), progress=update))
    else:
        report = _run(lambda: mem.import_(lines, source=str(file)))
    for record in report.records:
        if record["status"] == "error":
            typer.echo(record["error"], err=True)
    _warn(mem.warnings)
    if as_json:
        _print_json(report.to_dict())
    else:
        typer.echo(", ".join(f"{n} {k}" for k, n in report.counts.items()))
    raise typer.Exit(0 if report.ok else 1)


class TranscriptFormat(StrEnum):
    auto = "auto"
    jsonl = "jsonl"
    claude_code = "claude-code"
    openai = "openai"
    text = "text"
    chatgpt = "chatgpt"
    claude_ai = "claude-ai"
    openai_jsonl = "openai-jsonl"


TranscriptArg = Annotated[
    Optional[str],
    typer.Argument(
        metavar="FILE",
        show_default=False,
        help="The conversation: a file, or '-' for stdin.",
    ),
]
FormatOpt = Annotated[
    TranscriptFormat,
    typer.Option(
        "--format",
        "-f",
        metavar="FORMAT",
        help="auto, jsonl ({role, content} per line), claude-code (its transcript), openai ([{role, content}]), "
        "text (User: / Assistant: lines), or an export of many conversations: chatgpt (conversations.json), "
        "claude-ai (conversations.json), openai-jsonl ({messages} per line).",
    ),
]
SessionOpt = Annotated[
    Optional[str],
    typer.Option("--session", metavar="ID", help="The conversation's id (default: from the transcript)."),
]


def _read_source(file: Optional[str]) -> str:
    if file is None:
        _fail("say which conversation: a FILE, or '-' to read it from stdin", 2)
    if file != "-":  # a regular file within a bound (``source_text``): /dev/zero never hangs it
        from ..conversation.transcript import source_text

        return _run(lambda: source_text(Path(file).expanduser()))
    try:
        return sys.stdin.read()
    except (OSError, UnicodeDecodeError) as e:
        _fail(f"cannot read {file}: {e}")


@app.command(cls=_Command)
def ingest(
    file: TranscriptArg = None,
    format: FormatOpt = TranscriptFormat.auto,
    session: SessionOpt = None,
    persona: Annotated[
        Optional[str], typer.Option("--persona", metavar="NAME", help="Write the memories under this persona.")
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show the explicit facts that would be written; write nothing.")
    ] = False,
    retry_pending: Annotated[
        bool, typer.Option("--retry-pending", help="Work through the transcripts still pending (no FILE).")
    ] = False,
    due_only: Annotated[
        bool, typer.Option("--due-only", hidden=True, help="With --retry-pending: honour each one's backoff.")
    ] = False,
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Turn a conversation into memories: what the user asked to remember, and more with an LLM.

    With an LLM configured ([llm] in vmem.toml or $VMEM_LLM_URL) it also writes stable facts,
    episodes and a session summary. Only the user's own words can become the user's facts: text the harness or a tool wrote
    (compaction summaries, task notifications, command output) is not read as the user's.
    An export of many conversations (ChatGPT's or Claude.ai's conversations.json, OpenAI chat
    JSONL) is read conversation by conversation, each its own session; --json then prints
    {"conversations": [...]} instead of one report.

    The transcript is queued under .vmem/pending/ first and leaves the queue only when all its
    memories are written: an LLM that is down leaves it pending (exit 0, and it says so), and
    --retry-pending (or the daemon) finishes it later. Ingesting the same conversation again writes
    nothing twice. Exit status 1 when lines of the transcript could not be read.

    Examples:

      vmem ingest session.jsonl

      vmem ingest ~/.claude/projects/myapp/SESSION.jsonl --format claude-code --json

      vmem ingest ~/Downloads/chatgpt-export/conversations.json --dry-run

      echo 'User: remember that my sister is called Ana' | vmem ingest - --dry-run

      vmem ingest --retry-pending
    """
    from ..conversation import ingest_all

    mem = _open(vault)
    if retry_pending:
        if file is not None:
            _fail("--retry-pending takes no FILE", 2)
        _retry_pending(mem, due_only, as_json)
    text = _read_source(file)
    bar, update = (None, None) if as_json else _progress_printer(after=1.0)
    with bar or contextlib.nullcontext():
        reports = _run(
            lambda: ingest_all(
                mem, text, format=format.value, session=session, persona=persona, dry_run=dry_run, progress=update
            )
        )
    for report in reports:
        for problem in report.problems:
            typer.echo(f"{file}: {problem}; skipped", err=True)
    _warn([note for r in reports for note in r.notes] + mem.warnings)
    if as_json:
        _print_json(reports[0].to_dict() if len(reports) == 1 else {"conversations": [r.to_dict() for r in reports]})
    else:
        _echo_ingests(reports, dry_run)
    raise typer.Exit(1 if any(r.problems for r in reports) else 0)


def _retry_pending(mem: VaultMemory, due_only: bool, as_json: bool) -> NoReturn:
    from ..conversation import retry_pending as retry

    reports, problems = _run(lambda: retry(mem, due_only=due_only))
    _warn(problems)
    if as_json:
        _print_json({"reports": [r.to_dict() for r in reports], "problems": problems})
    elif not reports:
        typer.echo("nothing pending")
    for report in reports if not as_json else []:
        _echo_ingest(report)
    raise typer.Exit(1 if problems else 0)


def _echo_ingests(reports, dry_run: bool) -> None:
    """Each conversation's report, and a total line for an export of several."""
    for report in reports:
        _echo_ingest(report, say_llm_off=len(reports) == 1)
    if len(reports) > 1:
        written = sum(1 for r in reports for w in r.written if w.status in ("created", "superseded", "would write"))
        verb = "would write" if dry_run else "written"
        off = "; explicit signals only (no [llm] configured)" if reports[0].llm == "off" and not dry_run else ""
        typer.echo(
            f"{len(reports)} conversations, {sum(r.turns for r in reports)} turns, {written} memories {verb}{off}"
        )


#: what ingest says of each memory: what happened to it, in words that cannot be misread
_WRITTEN_LABEL = {
    "created": "new",
    "reconfirmed": "already known",
    "superseded": "replaces an older value",
    "declined": "declined",
    "would write": "would write",
}


def _echo_ingest(report, say_llm_off: bool = True) -> None:
    counts: dict[str, int] = {}
    for w in report.written:
        counts[w.status] = counts.get(w.status, 0) + 1
    done = ", ".join(f"{n} {_WRITTEN_LABEL[status]}" for status, n in counts.items()) or "nothing new"
    title = f" {_clip(report.title, 60)!r}" if report.title else ""
    typer.echo(f"{report.session}{title}: {report.turns} turns ({report.new_turns} new), {done}")
    for w in report.written:
        where = f" (turn {w.turn})" if w.turn else ""
        typer.echo(f"  {_WRITTEN_LABEL[w.status]}: [{w.type}] {_clip(w.text, 90)}{where}")
    if report.llm == "failed":
        typer.echo(
            f"  the LLM failed ({report.llm_error}); the transcript stays pending: `vmem ingest --retry-pending`",
            err=True,
        )
    elif report.llm == "off" and not report.dry_run and say_llm_off:
        typer.echo("  explicit signals only (no [llm] configured)")


@app.command(cls=_Command)
def context(
    file: TranscriptArg = None,
    format: FormatOpt = TranscriptFormat.auto,
    session: SessionOpt = None,
    budget: Annotated[
        Optional[int],
        typer.Option("--budget", "-b", metavar="TOKENS", min=200, help="Token budget of the block (default 4000)."),
    ] = None,
    window: Annotated[
        Optional[int],
        typer.Option("--window", metavar="TURNS", min=1, help="Recent turns kept verbatim (default: 4–8, adaptive)."),
    ] = None,
    persona: Annotated[
        Optional[str], typer.Option("--persona", metavar="NAME", help="Include this persona's memories.")
    ] = None,
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Print one prompt-ready block for a running conversation: the memories for its latest user turn,
    its older turns folded into key-value summaries (or the facts they stated), and its recent turns,
    within a fixed token budget however long the conversation runs.

    Examples:

      vmem context conversation.jsonl --budget 3000

      my-agent --dump-history | vmem context - --json
    """
    from ..conversation import context as build_context

    mem = _open(vault)
    text = _read_source(file)
    block = _run(
        lambda: build_context(
            mem, text, format=format.value, session=session, budget=budget, window=window, persona=persona
        )
    )
    _warn(block.warnings)
    if as_json:
        _print_json(block.to_dict())
    elif block.text:
        typer.echo(block.text)


@app.command(cls=_Command)
def gc(
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Only print what would move.")] = False,
    as_of: Annotated[
        Optional[str], typer.Option("--as-of", metavar="DATE", help="Judge expiry at this date instead of now.")
    ] = None,
    later: Annotated[
        bool, typer.Option("--later", help="With --as-of a later day: archive what is live today but expired then.")
    ] = False,
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Move expired memories, and persona memories over their cap, to archive/ (nothing is deleted).

    Archived files stay in the vault and in git, `vmem list` still shows them, and
    `vmem recall --include-archived` still finds them.

    Example: vmem gc --dry-run
    """
    mem = _open(vault)
    moment = _moment(as_of, "--as-of")
    bar, update = (None, None) if as_json else _progress_printer(after=1.0)
    with bar or contextlib.nullcontext():
        done = _run(lambda: mem.gc(dry_run=dry_run, as_of=moment, progress=update, later=later))
    _warn(mem.warnings)
    if as_json:
        _print_json({"dry_run": dry_run, "moved": [d.to_dict() for d in done]})
        return
    for d in done:
        typer.echo(f"{'would move' if dry_run else 'moved'} {d.to_dict()['from']} → {d.to} ({d.reason})")
    typer.echo(f"{len(done)} memor{'y' if len(done) == 1 else 'ies'} {'would be ' if dry_run else ''}archived")


# ---------------------------------------------------------------------- reading


@app.command("list", cls=_Command)
def list_(
    type: Annotated[
        Optional[str],
        typer.Option("--type", "-t", metavar="TYPE", help="Only this type (fact, episode, summary, note)."),
    ] = None,
    key: Annotated[Optional[str], typer.Option("--key", "-k", metavar="KEY", help="Only this key.")] = None,
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List memories with their lifecycle state (broken files are reported on stderr and skipped).

    Example: vmem list --type fact --json | jq '.[].text'
    """
    mem = _open(vault)
    listing = _run(lambda: mem.list(type=type, key=key))
    _warn(f"skipped {p}" for p in listing.problems)
    if as_json:
        _print_json([m.to_dict() | {"state": listing.states[m.id]} for m in listing])
        return
    rows = [
        (
            m.id,
            m.type,
            m.written_at.date().isoformat() if m.written_at else "",
            listing.states[m.id],
            _clip(m.title, 70),
        )
        for m in listing
    ]
    widths = [max((len(row[i]) for row in rows), default=0) for i in range(4)]
    for row in rows:  # columns as wide as their widest cell, so they line up
        typer.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[4])


@app.command(cls=_Command)
def show(id: IdArg, vault: VaultOpt = None, as_json: JsonOpt = False) -> None:
    """Show one memory as it is on disk now.

    Example: vmem show 2026-09-14-nombre-lucas-a1f3c9
    """
    mem = _open(vault)
    memory = _run(lambda: mem.show(id, prefix=True))
    if as_json:
        _print_json(memory.to_dict())
        return
    typer.echo(f"id:         {memory.id}{'  (derived from the path)' if memory.id_derived else ''}")
    typer.echo(f"path:       {memory.path.as_posix() if memory.path else ''}")
    shown = memory.frontmatter() | {"supersedes": memory.supersedes or None}  # ids, not wikilinks
    for name, value in shown.items():
        if name == "id" or value in (None, "", []):
            continue
        if isinstance(value, list):
            value = ", ".join(str(v) for v in value)
        elif hasattr(value, "isoformat"):
            value = value.isoformat()
        elif value is True:
            value = "true"
        typer.echo(f"{name + ':':<12}{value}")
    if memory.dated is not None:  # no created: dated by what its person did (vault.dating)
        typer.echo(f"{'dated:':<12}{memory.dated.date().isoformat()}  (by {memory.dated_by}; the file has no created:)")
    typer.echo("")
    typer.echo(for_a_person(memory.text, sys.stdout))


@app.command(cls=_Command)
def history(
    id: Annotated[str, typer.Argument(metavar="ID", help="Any memory of the chain.")],
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Print a memory's supersession chain, oldest first; the last one is what recall uses.

    Example: vmem history 2026-09-14-trabajo-backend-engineer-at-acme-7c21e0
    """
    mem = _open(vault)
    history = _run(lambda: mem.history(id, prefix=True))
    target, chain = history.target, history.chain
    _warn(history.forks)
    if as_json:
        _print_json([m.to_dict() for m in chain])
        return
    for n, m in enumerate(chain):
        mark = "→" if m.id == target.id else " "
        head = "  (current)" if n == len(chain) - 1 and not history.cycle else ""
        created = m.written_at.date().isoformat() if m.written_at else "?"
        typer.echo(f"{mark} {created}  {m.id}  {_clip(m.title, 70)}{head}")


@app.command(cls=_Command)
def conflicts(
    pair: Annotated[
        Optional[list[str]],
        typer.Argument(metavar="[NEWER OLDER]", help="The pair to settle, with --replaces or --both-true."),
    ] = None,
    replaces: Annotated[
        bool, typer.Option("--replaces", help="Settle the pair NEWER OLDER: NEWER replaces OLDER (its supersedes).")
    ] = False,
    both_true: Annotated[bool, typer.Option("--both-true", help="Settle the pair NEWER OLDER as both true.")] = False,
    ask_llm: Annotated[
        bool,
        typer.Option(
            "--ask-llm",
            help="Ask the [llm] endpoint about every open pair and settle what it answers "
            "(replaces: supersedes; both true: compatible_with; unsure: left open).",
        ),
    ] = False,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="With --ask-llm: ask, and write nothing.")] = False,
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List facts that may contradict each other, with the commands that settle each pair.

    Two current facts about one subject (a city, a sister's name, a phone) that no
    supersession settles: recall shows both, the newer first and the older marked "older —
    may be outdated". Also a newer fact close in meaning that tells of a change ("We packed
    up and moved to Nantes" after "I'm based in Lyon"): recall marks the older "newer related
    memory above". Settle a pair by saying which replaces which (recorded in its
    supersedes, so `vmem history` shows the chain), by saying both are true (recorded in
    the newer file, so it is not asked again), or by correcting or forgetting the wrong
    one. Nothing is deleted.
    With an LLM endpoint ([llm] in vmem.toml, or VMEM_LLM_URL), --ask-llm asks it about
    every open pair and settles what it answers: the newer replaces the older (written in
    the newer's supersedes), both are true, or it cannot tell (left open); --dry-run shows
    its answers and writes nothing. Exit code 1 when open conflicts remain, so scripts and
    hooks can check.

    Examples:

      vmem conflicts

      vmem conflicts --replaces 2026-11-25-dentist-okafor-9b1d2e 2026-11-02-dentist-alvarez-4c0a11

      vmem conflicts --both-true 2026-11-25-sister-marta-1c2a0d 2026-11-24-sister-ana-11e1e4

      vmem conflicts --ask-llm --dry-run
    """
    if replaces and both_true:
        _fail("a pair is settled one way: --replaces NEWER OLDER or --both-true NEWER OLDER", 2)
    if bool(pair) != (both_true or replaces) or (pair and len(pair) != 2):
        _fail(
            "to settle a pair: vmem conflicts --replaces NEWER OLDER, or --both-true NEWER OLDER "
            "(the two ids `vmem conflicts` lists)",
            2,
        )
    if ask_llm and pair:
        _fail("--ask-llm settles every open pair; --replaces and --both-true the one you name: use one of them", 2)
    if dry_run and not ask_llm:
        _fail("--dry-run goes with --ask-llm (it asks the LLM and writes nothing)", 2)
    mem = _open(vault)
    if ask_llm:
        _settle_by_llm(mem, dry_run, as_json)
        return
    if replaces and pair:
        newer, older = pair
        kept = _run(lambda: mem.replaces(newer, older, prefix=True))
        _warn(mem.warnings)
        if as_json:
            _print_json({"settled": [kept.id, older], "supersedes": kept.supersedes})
        else:
            typer.echo(f"Recorded that {kept.id} replaces {older}; recall shows {kept.id} alone (`vmem history`).")
        return
    if both_true and pair:
        newer, older = pair
        settled = _run(lambda: mem.both_true(newer, older, prefix=True))
        _warn(mem.warnings)
        if as_json:
            _print_json({"settled": [settled.id, older], "compatible_with": settled.extra.get("compatible_with")})
        else:
            typer.echo(f"Recorded that {settled.id} and {older} are both true; recall no longer marks them.")
        return
    found = _run(mem.conflicts)
    _warn(mem.warnings)
    if as_json:
        _print_json([c.to_dict() | {"newer_text": c.newer.text, "older_text": c.older.text} for c in found])
    elif not found:
        typer.echo("No open conflicts.")
    else:
        for c in found:
            typer.echo(f"{c.subject}:")
            typer.echo(f"  newer  {c.newer.id}  {_clip(c.newer.title, 70)}")
            mark = "a newer related memory" if c.related else "maybe outdated"
            typer.echo(f"  older  {c.older.id}  {_clip(c.older.title, 70)}  (recall marks it: {mark})")
            typer.echo(f"  settle: vmem conflicts --replaces {c.newer.id} {c.older.id}")
            typer.echo(f"          vmem conflicts --both-true {c.newer.id} {c.older.id}")
            typer.echo(f"          vmem correct {c.older.id} TEXT  |  vmem forget {c.older.id}")
    if found:
        raise typer.Exit(1)


def _settle_by_llm(mem, dry_run: bool, as_json: bool) -> None:
    """``vmem conflicts --ask-llm``: each pair, what the LLM said, what was believed and
    done; then how many pairs are open now, read again (exit 1 when any is)."""
    from ..conversation.settling import settle_conflicts

    settled = _run(lambda: settle_conflicts(mem, dry_run=dry_run))
    still = len(settled) if dry_run else len(_run(mem.conflicts))
    _warn(mem.warnings)
    if as_json:
        _print_json({"dry_run": dry_run, "pairs": [s.to_dict() for s in settled], "open": still})
    elif not settled:
        typer.echo("No open conflicts.")
    else:
        would = "would be " if dry_run else ""
        done = {"superseded": f"{would}superseded", "both true": f"{would}recorded as both true", "left": "left open"}
        for s in settled:
            c = s.conflict
            told = "not asked" if s.said is None else f"the LLM says {s.said!r}"
            typer.echo(f"{c.subject}: {told}: {c.older.id} {done[s.done]}" + (f" ({s.why})" if s.why else ""))
            typer.echo(f"  newer  {c.newer.id}  {_clip(c.newer.title, 70)}")
            typer.echo(f"  older  {c.older.id}  {_clip(c.older.title, 70)}")
        settled_now = sum(1 for s in settled if s.done != "left")
        typer.echo(f"{settled_now} of {len(settled)} pair(s) {would}settled; {still} open conflict(s) now.")
    if still:
        raise typer.Exit(1)


class Format(StrEnum):
    block = "block"
    json = "json"
    md = "md"
    index_ = "index"  # (not `index`: str.index)


@app.command(cls=_Command)
def recall(
    query: Annotated[
        str, typer.Argument(metavar="QUERY", help="What to recall, in natural language: a question or a topic.")
    ],
    k: Annotated[
        Optional[int],
        typer.Option("--k", "-n", metavar="N", min=1, help="How many memories to consider (default from vmem.toml)."),
    ] = None,
    budget: Annotated[
        Optional[int],
        typer.Option(
            "--budget", "-b", metavar="TOKENS", min=1, help="Token budget of the block (default from vmem.toml)."
        ),
    ] = None,
    type: Annotated[
        Optional[list[str]], typer.Option("--type", "-t", metavar="TYPE", help="Only these types; repeat for more.")
    ] = None,
    persona: Annotated[
        Optional[str], typer.Option("--persona", metavar="NAME", help="Include this persona's memories.")
    ] = None,
    as_of: Annotated[
        Optional[str],
        typer.Option("--as-of", metavar="DATE", help="Evaluate expiry and decay at this date/datetime instead of now."),
    ] = None,
    include_expired: Annotated[bool, typer.Option("--include-expired", help="Also recall expired memories.")] = False,
    include_archived: Annotated[
        bool, typer.Option("--include-archived", help="Also recall memories moved to archive/.")
    ] = False,
    include_stale: Annotated[
        bool, typer.Option("--include-stale", help="Also recall memories unconfirmed for too long.")
    ] = False,
    format: Annotated[
        Format,
        typer.Option(
            "--format",
            "-f",
            metavar="FORMAT",
            help="block (prompt-ready), json, md, or index (one short line a memory, by id).",
        ),
    ] = Format.block,
    as_json: JsonOpt = False,
    explain: Annotated[
        bool, typer.Option("--explain", help="Show each leg's rank and score, and the lifecycle weights.")
    ] = False,
    no_daemon: Annotated[
        bool, typer.Option("--no-daemon", help="Recall in this process even if a daemon serves the vault.")
    ] = False,
    vault: VaultOpt = None,
) -> None:
    """Print the memories that matter for QUERY, as a prompt-ready block within a token budget.

    Prints nothing (and exits 0) when nothing relevant is found.

    Examples:

      vmem recall "what should I avoid eating?"

      vmem recall "where does the user work" --json --explain

      vmem recall "what did I do yesterday?"   # that day's memories

      context=$(vmem recall "$USER_MESSAGE" --budget 300)
    """
    from ..api import VaultMemory, locate_vault

    # only locate the vault and read vmem.toml: a recall the daemon answers opens no memory file
    moment = _moment(as_of, "--as-of")
    # a first recall indexes the vault first (17 s for 1,600 files): a bar once it takes a while
    bar, update = (None, None) if as_json or format == Format.json else _progress_printer(after=1.0)
    mem = _run(lambda: VaultMemory(locate_vault(vault), use_daemon=not no_daemon, progress=update))
    with bar or contextlib.nullcontext():
        result = _run(
            lambda: mem.recall(
                query,
                k=k,
                budget=budget,
                types=type,
                persona=persona,
                as_of=moment,
                include_expired=include_expired,
                include_archived=include_archived,
                include_stale=include_stale,
            )
        )
    out, errors = result.output("json" if as_json else format.value, explain)
    for line in errors:
        typer.echo(printable(line), err=True)
    typer.echo(for_a_person(out, sys.stdout), nl=False)


@app.command(cls=_Command)
def doctor(
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
    staged: Annotated[
        bool,
        typer.Option("--staged", help="Check only the memory files staged for a git commit, as staged (pre-commit)."),
    ] = False,
) -> None:
    """Check every file; report broken frontmatter (file:line), wrong types, duplicate ids,
    dangling or cyclic `supersedes`, non-UTF-8 and oversized files. Never changes a file.

    Exit status: 0 when all is well, 1 when a problem was found.

    Examples:

      vmem doctor || echo "see above"

      vmem doctor --staged    (what `vmem hooks install git` runs before each commit)
    """
    mem = _open(vault)
    if staged:
        from ..api import Checkup
        from ..integrations.git import staged_problems

        checked, problems = _run(lambda: staged_problems(mem))
        checkup = Checkup(mem.root, checked, problems)
        if problems and not as_json:
            typer.echo("vmem: this commit would add broken memory files:", err=True)
            for p in problems:
                typer.echo(f"  {p}", err=True)
            typer.echo("fix them (or unstage them) and commit again", err=True)
            raise typer.Exit(1)
    else:
        checkup = _run(mem.doctor)
    if as_json:
        _print_json(checkup.to_dict())
    else:
        for p in checkup.problems:
            typer.echo(printable(f"{p}  [{p.kind}]"))
        if checkup.conflicts:
            typer.echo(f"{len(checkup.conflicts)} pair(s) of facts may contradict each other (recall marks the older):")
            for c in checkup.conflicts:
                typer.echo(f"  {c.subject}: {c.newer.id} (newer) / {c.older.id}")
            typer.echo("  settle them with `vmem conflicts` (--replaces, --both-true, correct or forget)")
        for note in checkup.notes:
            typer.echo(printable(f"note: {note}"))
        for part, what in checkup.runs_on.items():
            typer.echo(f"{part}: {what}")
        n = len(checkup.problems)
        typer.echo(
            f"{checkup.checked} file{'s' if checkup.checked != 1 else ''} checked, {n} problem{'s' if n != 1 else ''} found"
            + ("" if n else ": all good")
        )
    raise typer.Exit(0 if checkup.ok else 1)


@app.command("export", cls=_Command)
def export_(
    output: Annotated[
        Optional[Path], typer.Option("--output", "-o", metavar="FILE", help="Write to this file instead of stdout.")
    ] = None,
    vault: VaultOpt = None,
) -> None:
    """Export every memory as JSON Lines (one object per memory). `vmem import` reads it back.

    Example: vmem export -o backup.jsonl
    """
    mem = _open(vault)
    lines, problems = _run(mem.export)
    _warn(f"skipped {p}" for p in problems)
    text = "".join(line + "\n" for line in lines)
    if output:
        from ..api import write_file

        _run(lambda: write_file(output, text))
        typer.echo(f"Exported {len(lines)} memories to {output}", err=True)
    else:
        sys.stdout.write(text)


@app.command(cls=_Command)
def stats(
    query: Annotated[
        str, typer.Option("--query", metavar="QUERY", help="The query whose block size is measured.")
    ] = "what do you know about the user?",
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Counts by type, by lifecycle state and by persona, and the size of a typical recall block.

    Example: vmem stats --json
    """
    mem = _open(vault)
    data = _run(lambda: mem.stats(query))
    if as_json:
        _print_json(data)
        return
    typer.echo(f"{data['memories']} memories, {data['broken_files']} broken files")
    if data["pending_transcripts"]:
        typer.echo(f"pending:    {data['pending_transcripts']} transcripts (vmem ingest --retry-pending)")
    if data["quarantined_transcripts"]:
        typer.echo(
            f"quarantined: {data['quarantined_transcripts']} transcripts that could not be ingested "
            "(.vmem/pending/quarantine/: fix or delete them)"
        )
    typer.echo("by type:    " + ", ".join(f"{k} {n}" for k, n in sorted(data["by_type"].items())))
    typer.echo("by state:   " + ", ".join(f"{k} {n}" for k, n in data["by_state"].items()))
    if data["by_persona"]:
        typer.echo("by persona: " + ", ".join(f"{k} {n}" for k, n in sorted(data["by_persona"].items())))
    if data["conflicts"]:
        typer.echo(f"conflicts:  {data['conflicts']} pairs of facts that may contradict each other (vmem conflicts)")
    tb = data["typical_block"]
    typer.echo(f"a typical recall block: {tb['memories']} memories, {tb['tokens']} of {tb['budget']} tokens")


# ---------------------------------------------------------------------- indexes


#: what each stage of long work is called on its bar
_STAGES = {
    "build": "Indexing",
    "embed": "Embedding",
    "commit": "Saving",
    "import": "Importing",
    "ingest": "Ingesting",
    "read": "Reading",
}


class _Bar:
    """A progress bar on stderr (``with`` it around the work; ``update`` is its callback),
    drawn from the first update that comes ``after`` seconds into the work: a recall whose
    sync takes a moment shows nothing, one that indexes a whole vault shows the bar."""

    def __init__(self, after: float):
        self.after = after
        self.started = 0.0
        self.progress: Any = None
        self.tasks: dict[str, Any] = {}

    def __enter__(self) -> _Bar:
        self.started = time.monotonic()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()

    def update(self, stage: str, done: int, total: int) -> None:
        if self.progress is None:
            if time.monotonic() - self.started < self.after:
                return
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self.progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                transient=True,
                console=Console(stderr=True),
            )
            self.progress.start()
        if stage not in self.tasks:
            self.tasks[stage] = self.progress.add_task(_STAGES.get(stage, stage), total=total or None)
        self.progress.update(self.tasks[stage], completed=done, total=total or None)


def _progress_printer(after: float = 0.0) -> tuple[_Bar | None, Callable[[str, int, int], None] | None]:
    """A progress bar on stderr when it is a terminal (see ``_Bar``); silence otherwise."""
    if not sys.stderr.isatty():
        return None, None
    bar = _Bar(after)
    return bar, bar.update


def _index_command(vault: Optional[Path], as_json: bool, full: bool) -> None:
    mem = _open(vault)
    progress, update = _progress_printer()
    verb = mem.reindex if full else mem.sync
    if progress:
        with progress:
            report, by = _run(lambda: verb(update))
    else:
        report, by = _run(verb)
    if as_json:
        _print_json(report.to_dict() | {"by": by})
        return
    _warn(f"skipped {p}" for p in report.problems)
    if report.repaired:
        _warn([f"the index was rebuilt from the files: {report.repaired}"])
    done = "Rebuilt" if report.rebuilt or full else "Synced"
    who = " by the daemon" if by == "daemon" else ""
    typer.echo(
        f"{done}{who} in {report.seconds:.1f}s: {report.added} added, {report.updated} updated, "
        f"{report.deleted} deleted, {report.renamed} renamed, {report.unchanged} unchanged, "
        f"{max(report.unreadable, len(report.problems))} unreadable"
        + (" (`vmem doctor` lists them)" if report.unreadable or report.problems else "")
    )


@app.command(cls=_Command)
def reindex(vault: VaultOpt = None, as_json: JsonOpt = False) -> None:
    """Rebuild the keyword and vector indexes from the files (recalls keep working meanwhile).

    Needed after changing [embedding] model in vmem.toml.

    Example: vmem reindex --vault ~/memory
    """
    _index_command(vault, as_json, full=True)


@app.command(cls=_Command)
def sync(vault: VaultOpt = None, as_json: JsonOpt = False) -> None:
    """Bring the indexes up to date with the files (recall does this by itself when needed).

    Example: vmem sync --json
    """
    _index_command(vault, as_json, full=False)


# ---------------------------------------------------------------------- daemon

daemon_app = typer.Typer(
    help="Keep the indexes in step with the vault as files change, and answer recalls warm.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(daemon_app, name="daemon")


@daemon_app.command("run", cls=_Command)
def daemon_run(
    vault: VaultOpt = None,
    debounce: Annotated[
        float, typer.Option(metavar="SECONDS", help="Seconds of quiet before a batch of changes is indexed.")
    ] = 0.1,
    reconcile_every: Annotated[
        float, typer.Option(metavar="SECONDS", help="Seconds between full reconciles (missed events).")
    ] = 60.0,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Log to .vmem/daemon.log only.")] = False,
) -> None:
    """Run the daemon in the foreground (for systemd, launchd or a supervisor). Stops on SIGTERM.

    Example: vmem daemon run --vault ~/memory
    """
    from ..daemon.server import run

    mem = _open(vault)
    _run(lambda: run(mem.root, debounce=debounce, reconcile_every=reconcile_every, foreground=not quiet))


@daemon_app.command("start", cls=_Command)
def daemon_start(
    vault: VaultOpt = None,
    timeout: Annotated[float, typer.Option(metavar="SECONDS", help="Seconds to wait for it to answer.")] = 60.0,
) -> None:
    """Start the daemon in the background; return once it is ready to answer a recall warm
    (model loaded, files changed meanwhile indexed), with a progress bar on a terminal.

    Example: vmem daemon start && vmem daemon status
    """
    mem = _open(vault)
    progress, update = _progress_printer()
    if progress:
        with progress:
            started = _run(lambda: mem.daemon("start", timeout, progress=update))
    else:
        started = _run(lambda: mem.daemon("start", timeout))
    if started["already_running"]:
        typer.echo(f"vmem daemon already running for {mem.root} (pid {started['pid']})")
    else:
        typer.echo(f"vmem daemon started for {mem.root} (pid {started['pid']}); log: {started['log']}")


@daemon_app.command("stop", cls=_Command)
def daemon_stop(
    vault: VaultOpt = None,
    timeout: Annotated[
        float, typer.Option(metavar="SECONDS", help="Seconds to wait for it to finish its batch.")
    ] = 60.0,
) -> None:
    """Stop the daemon cleanly (SIGTERM: it finishes the batch in progress first).

    Example: vmem daemon stop --vault ~/memory
    """
    mem = _open(vault)
    pid = _run(lambda: mem.daemon("stop", timeout))["stopped"]
    typer.echo(f"vmem daemon stopped (pid {pid})" if pid else f"no vmem daemon is running for {mem.root}")


@daemon_app.command("status", cls=_Command)
def daemon_status(vault: VaultOpt = None, as_json: JsonOpt = False) -> None:
    """Is the daemon running, and how far behind the files is it? Exit 1 when not running.

    Example: vmem daemon status --json
    """
    import time

    mem = _open(vault)
    st = _run(lambda: mem.daemon("status"))
    if not st["answering"]:
        if as_json:
            _print_json(st)
        else:
            typer.echo(f"vmem daemon {'running but not answering' if st['running'] else 'not running'} for {mem.root}")
        raise typer.Exit(1)
    if as_json:
        _print_json(st)
        return
    starting = ""
    if not st["ready"]:
        stage, done, total = st.get("progress") or ("starting", 0, 0)
        starting = f", starting: {stage}" + (f" {done}/{total}" if total else "")
    typer.echo(f"running (pid {st['pid']}) for {st['vault']}, up {st['uptime_s']:.0f}s{starting}")
    if st.get("transport") == "portable":
        typer.echo("listening on a loopback port (VMEM_IPC=portable; .vmem/daemon.addr holds its key)")
    typer.echo(f"memories indexed: {st['memories_indexed']}, queue: {st['queue_length']}, lag: {st['lag_s']}s")
    if st.get("last_sync"):
        ls = st["last_sync"]
        typer.echo(f"last sync: {time.strftime('%H:%M:%S', time.localtime(ls['at']))}, {ls['seconds']}s")
    for p in st.get("problems", []):
        typer.echo(f"skipped: {p['path']}{':' + str(p['line']) if p.get('line') else ''}: {p['message']}")
    if st.get("last_error"):
        typer.echo(f"last error: {st['last_error']}")
    if st.get("config_warning"):
        typer.echo(f"warning: {st['config_warning']}", err=True)


# ---------------------------------------------------------------------- integrations

hooks_app = typer.Typer(
    help="Install vmem's hooks for Claude Code, git and shell scripts (see hooks/README.md).",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(hooks_app, name="hooks")


class HookTarget(StrEnum):
    claude_code = "claude-code"
    git = "git"
    shell = "shell"


TargetArg = Annotated[HookTarget, typer.Argument(metavar="TARGET", help="claude-code, git or shell.")]
ProjectOpt = Annotated[
    Optional[Path],
    typer.Option(
        "--project",
        metavar="DIR",
        show_default=False,
        help="claude-code: install into DIR/.claude/settings.json (DIR defaults to the current folder; "
        "--user for ~/.claude).",
    ),
]
UserOpt = Annotated[bool, typer.Option("--user", help="claude-code: install into ~/.claude/settings.json.")]
LocalOpt = Annotated[
    bool,
    typer.Option(
        "--local",
        help="claude-code: install into .claude/settings.local.json of --project DIR or the current folder (Claude "
        "Code's place for settings that are yours, not the team's).",
    ),
]
DirOpt = Annotated[
    Optional[Path], typer.Option("--dir", metavar="DIR", help="shell: where vmem-hook goes (default ~/.local/bin).")
]


def _claude_settings(project: Optional[Path], user: bool, local: bool = False) -> Path:
    from ..integrations import claude_code

    if user and (project is not None or local):
        _fail(f"--user and {'--local' if local else '--project'} say different things; use one", 2)
    return claude_code.settings_path(None if user else (project or Path.cwd()).resolve(), local=local)


def _install_claude_code(settings: Path, root: Path, allow_read_tools: Optional[bool], as_json: bool) -> None:
    """`vmem hooks install claude-code`: the hooks, then (asked, or as the flag says) the
    read-only MCP tools in permissions.allow."""
    from ..integrations import claude_code

    done = _run(lambda: claude_code.install(settings, root))
    if as_json:
        if allow_read_tools:
            _run(lambda: claude_code.allow_read_tools(done.settings))
        _print_json(done.to_dict() | {"allowed_tools": claude_code.allow_rules() if allow_read_tools else []})
        return
    typer.echo(f"{'installed in' if done.changed else 'already installed in'} {done.settings}")
    if done.backup:
        typer.echo(f"  the previous settings are in {done.backup}")
    typer.echo(f"  hook script: {done.script}; events: {', '.join(done.events)}")
    typer.echo("  start the daemon for fast prompts: vmem daemon start")
    if allow_read_tools is None and sys.stdin.isatty():
        allow_read_tools = typer.confirm(
            "Let Claude Code call vmem's read-only MCP tools (recall, list, show, history) without asking?",
            default=False,
        )
    if allow_read_tools:
        allowed = _run(lambda: claude_code.allow_read_tools(done.settings))
        typer.echo(f"  allowed {', '.join(claude_code.READ_ONLY_TOOLS)} in {allowed.settings} (permissions.allow)")
    else:
        typer.echo(
            "  headless runs (claude -p) ask before any MCP tool: `vmem hooks install claude-code "
            "--allow-read-tools` allows the read-only ones, or see `vmem docs hooks`"
        )


@hooks_app.command("install", cls=_ProjectCommand)
def hooks_install(
    target: TargetArg,
    project: ProjectOpt = None,
    user: UserOpt = False,
    local: LocalOpt = False,
    dir: DirOpt = None,
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
    allow_read_tools: Annotated[
        Optional[bool],
        typer.Option(
            "--allow-read-tools/--no-allow-read-tools",
            help="claude-code: also let Claude Code call vmem's read-only MCP tools (recall, list, show, history) "
            "without asking; asked when not given and the terminal is interactive.",
        ),
    ] = None,
) -> None:
    """Install vmem's hooks. Idempotent; existing settings and hooks are kept.

    claude-code: SessionStart and UserPromptSubmit inject memories; SessionEnd and PreCompact ingest the
    transcript in the background. git: pre-commit blocks broken memory files; post-merge/post-checkout
    refresh the indexes. shell: a `vmem-hook PROMPT` command that prints the block.

    Examples:

      vmem hooks install claude-code --project --vault ~/memory

      vmem hooks install claude-code --local     (.claude/settings.local.json: not shared with the team)

      vmem hooks install git --vault ~/memory

      vmem hooks install shell && vmem-hook "what does the user prefer?"
    """
    from ..api import locate_vault

    root = _run(lambda: locate_vault(vault))
    if target is HookTarget.claude_code:
        _install_claude_code(_claude_settings(project, user, local), root, allow_read_tools, as_json)
    elif target is HookTarget.git:
        from ..integrations import git

        hooks = _run(lambda: git.install(root))
        if as_json:
            _print_json(hooks.to_dict())
            return
        typer.echo(f"installed {', '.join(hooks.installed)} in {hooks.hooks_dir}")
        if hooks.chained:
            typer.echo(f"  existing hooks kept and run first: {', '.join(hooks.chained)}")
    else:
        from ..integrations import shell

        wrapper = _run(lambda: shell.install(dir or shell.default_dir(), root))
        reachable = shell.on_path(wrapper.parent)
        if as_json:
            _print_json({"command": str(wrapper), "on_path": reachable})
            return
        typer.echo(f"installed {wrapper}")
        if not reachable:  # else the help's own example ends in "command not found"
            typer.echo(
                f"note: {wrapper.parent} is not on your PATH: add `export PATH={shlex.quote(str(wrapper.parent))}"
                f':"$PATH"` to your '
                f"shell's startup file, or call {wrapper} by its full path",
                err=True,
            )


@hooks_app.command("uninstall", cls=_ProjectCommand)
def hooks_uninstall(
    target: TargetArg,
    project: ProjectOpt = None,
    user: UserOpt = False,
    local: LocalOpt = False,
    dir: DirOpt = None,
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Remove vmem's hooks, and only them (other settings and hooks stay; chained git hooks come back).

    Example: vmem hooks uninstall claude-code --project .
    """
    if target is HookTarget.claude_code:
        from ..integrations import claude_code

        done = _run(lambda: claude_code.uninstall(_claude_settings(project, user, local)))
        if as_json:
            _print_json(done.to_dict())
            return
        typer.echo(
            f"removed vmem's hooks from {done.settings}" if done.changed else f"no vmem hooks in {done.settings}"
        )
        if done.removed:
            typer.echo(f"  removed what vmem had made, now empty: {', '.join(map(str, done.removed))}")
        if done.cleaned:
            typer.echo(f"  took vmem's hooks out of the backups: {', '.join(map(str, done.cleaned))}")
    elif target is HookTarget.git:
        from ..api import locate_vault
        from ..integrations import git

        root = _run(lambda: locate_vault(vault))
        hooks = _run(lambda: git.uninstall(root))
        _print_json(hooks.to_dict()) if as_json else typer.echo(
            f"removed {', '.join(hooks.removed) or 'nothing'} from {hooks.hooks_dir}"
        )
    else:
        from ..integrations import shell

        removed = shell.uninstall(dir or shell.default_dir())
        _print_json({"removed": [str(p) for p in removed]}) if as_json else typer.echo(
            f"removed {len(removed)} files" if removed else "vmem-hook was not installed there"
        )


mcp_app = typer.Typer(rich_markup_mode=None)
app.add_typer(mcp_app, name="mcp")


@mcp_app.callback(invoke_without_command=True)
def mcp(ctx: typer.Context, vault: VaultOpt = None) -> None:
    """Serve the vault over MCP (stdio): recall, remember, correct, forget, restore, list, show, history, ingest.

    Needs the `mcp` extra: pip install 'vault-memory[mcp]'. `vmem mcp install CLIENT` writes the entry
    into Claude Desktop's, Cursor's, Gemini CLI's or Codex's config.

    Examples:

      claude mcp add vmem -- vmem mcp --vault ~/memory

      vmem mcp install cursor --vault ~/memory
    """
    if ctx.invoked_subcommand is not None:
        return
    try:
        import mcp as _sdk  # noqa: F401

        from ..integrations.mcp_server import serve, serve_unavailable
    except ImportError:
        _fail("the MCP server needs the mcp package: pip install 'vault-memory[mcp]'")
    from ..api import VaultMemory, locate_vault

    # an MCP client starts this in whatever folder its session is in: a parent vmem.toml
    # the user did not create or trust (a cloned repository) is passed over
    try:
        mem = VaultMemory(locate_vault(vault, chosen_only=True))
    except VaultError as e:
        if sys.stdin.isatty():  # a person at a terminal: say it and stop
            _fail(str(e))
        typer.echo(f"vmem: {printable(str(e))}", err=True)
        serve_unavailable(e)  # a client started it: connect anyway, every tool answers why and what to do
        return
    serve(mem)


def _mcp_client(name: str) -> Any:
    from ..integrations.mcp_clients import CLIENTS

    if name not in CLIENTS:
        _fail(f"unknown MCP client {name!r}; one of: {', '.join(CLIENTS)}", 2)
    return CLIENTS[name]


ClientArg = Annotated[
    str,
    typer.Argument(metavar="CLIENT", help="claude-desktop, claude-code (--project only), cursor, gemini or codex."),
]
McpProjectOpt = Annotated[
    Optional[Path],
    typer.Option(
        "--project",
        metavar="DIR",
        show_default=False,
        help="The client's per-project file in DIR (the current folder when DIR is left out) instead of the "
        "user's: .mcp.json, .cursor/mcp.json, .gemini/settings.json, .codex/config.toml.",
    ),
]


@mcp_app.command("install", cls=_ProjectCommand)
def mcp_install(
    client: ClientArg, project: McpProjectOpt = None, vault: VaultOpt = None, as_json: JsonOpt = False
) -> None:
    """Add vmem's MCP server to a client's config. Idempotent; everything else in the file is kept.

    The entry is named vmem and runs this vmem with absolute paths; the previous file is kept as
    <file>.vmem-backup. Restart the client afterwards.

    Examples:

      vmem mcp install claude-desktop --vault ~/memory

      vmem mcp install cursor --project            (.cursor/mcp.json here)

      vmem mcp install codex && vmem mcp uninstall codex
    """
    from ..api import locate_vault
    from ..integrations import mcp_clients

    target = _mcp_client(client)
    config = _run(lambda: target.config_file(project.resolve() if project else None))
    root = _run(lambda: locate_vault(vault))
    done = _run(lambda: mcp_clients.install(target, config, root))
    if as_json:
        _print_json(done.to_dict())
        return
    typer.echo(f"{'added vmem to' if done.changed else 'vmem is already in'} {done.config}")
    if done.kept:
        typer.echo(f"  kept what you added to vmem's entry: {', '.join(done.kept)}")
    if done.backup:
        typer.echo(f"  the previous file is in {done.backup}")
    typer.echo(f"  vault: {root}; restart {client} to load it (needs: pip install 'vault-memory[mcp]')")


@mcp_app.command("uninstall", cls=_ProjectCommand)
def mcp_uninstall(client: ClientArg, project: McpProjectOpt = None, as_json: JsonOpt = False) -> None:
    """Remove vmem's MCP server from a client's config (only an entry that runs `vmem mcp`).

    Example: vmem mcp uninstall cursor
    """
    from ..integrations import mcp_clients

    target = _mcp_client(client)
    config = _run(lambda: target.config_file(project.resolve() if project else None))
    done = _run(lambda: mcp_clients.uninstall(target, config))
    if as_json:
        _print_json(done.to_dict())
    elif done.changed:
        typer.echo(f"removed vmem from {done.config}")
    elif done.entry is not None:
        typer.echo(f"the 'vmem' entry in {done.config} does not run `vmem mcp`; left as it is")
    else:
        typer.echo(f"no vmem entry in {done.config}")


def main() -> None:
    app()
