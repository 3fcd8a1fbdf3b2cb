"""The ``vmem`` command: a thin typer layer over the library.

Each command parses options, calls ``Vault`` (or the recall engine) and formats the result.
Exit codes: 0 success, 1 a problem was found or the command could not proceed, 2 usage error.
Heavy modules (fastembed, whoosh, hnswlib) are imported only by the commands that need them.
"""

from __future__ import annotations

import json
import sys
import time
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, NoReturn, Optional

import typer

from ..errors import VaultError
from ..vault.memory import MEMORY_TYPES

app = typer.Typer(
    name="vmem",
    help="Filesystem-first memory for AI agents: Markdown memories in a vault, recalled as a prompt-ready block.",
    epilog="Examples:\n\n  vmem init ~/memory\n\n  vmem remember \"nombre: Lucas\"\n\n  vmem recall \"what is the user's name?\"\n\nDocs: docs/format.md in the vmem repository.",
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

VaultOpt = Annotated[
    Optional[Path],
    typer.Option("--vault", "-V", help="Vault folder (else $VMEM_VAULT, else the nearest parent with vmem.toml, else the per-user default).", show_default=False),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]


def _fail(message: str, code: int = 1) -> NoReturn:
    typer.echo(f"vmem: {message}", err=True)
    raise typer.Exit(code)


def _vault(path: Optional[Path]):
    from ..vault.vault import Vault, locate_vault

    try:
        return Vault(locate_vault(path))
    except VaultError as e:
        _fail(str(e))


def _print_json(data: Any) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


def _warn_problems(problems) -> None:
    for p in problems:
        typer.echo(f"warning: skipped {p}", err=True)


def _flush_warnings(vault) -> None:
    for w in vault.warnings:
        typer.echo(f"warning: {w}", err=True)


def _run(fn):
    """Turn library errors into a one-line message and exit code 1, never a traceback."""
    try:
        return fn()
    except VaultError as e:
        _fail(str(e))
    except ValueError as e:
        _fail(str(e), 2)


# ---------------------------------------------------------------------- init


@app.command()
def init(
    path: Annotated[Path, typer.Argument(help="Folder for the new vault (created if missing).")],
    empty: Annotated[bool, typer.Option("--empty", help="Leave out the example memories.")] = False,
) -> None:
    """Create a vault from the template: folders, vmem.toml, .gitignore, a README and examples.

    Example: vmem init ~/memory && export VMEM_VAULT=~/memory
    """
    from ..vault.template import create_vault

    try:
        created = create_vault(path, with_examples=not empty)
    except VaultError as e:
        _fail(str(e))
    typer.echo(f"Created vault at {created}")
    typer.echo(f"Use it with: export VMEM_VAULT={created}")


# ---------------------------------------------------------------------- remember / list / show


@app.command()
def remember(
    text: Annotated[str, typer.Argument(help='The memory. "key: value" is split into key and value.')],
    key: Annotated[Optional[str], typer.Option("--key", "-k", help="Category, e.g. nombre, trabajo.")] = None,
    type: Annotated[str, typer.Option("--type", "-t", help="fact, episode or summary.")] = "fact",
    domain: Annotated[Optional[str], typer.Option("--domain", "-d", help="work, preferences, personal, …")] = None,
    confidence: Annotated[str, typer.Option("--confidence", "-c", help="high, medium, low or 0-1.")] = "high",
    expires: Annotated[Optional[str], typer.Option("--expires", help="Date or datetime (ISO 8601) after which it is forgotten.")] = None,
    persona: Annotated[Optional[str], typer.Option("--persona", help="Only recalled for this persona.")] = None,
    tag: Annotated[Optional[list[str]], typer.Option("--tag", help="A tag; repeat for more.")] = None,
    pin: Annotated[bool, typer.Option("--pin", help="Always include it in recall.")] = False,
    importance: Annotated[Optional[float], typer.Option("--importance", min=0, max=1, help="0-1; scored from the text when left out.")] = None,
    new: Annotated[bool, typer.Option("--new", help="Write a new memory even if the vault already holds this one.")] = False,
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

      vmem remember "Staying at Hotel Lisboa" --type episode --expires 2026-12-16
    """
    from ..recall.engine import Engine
    from ..writing.remember import remember as do_remember

    if type not in MEMORY_TYPES:
        _fail(f"--type must be one of {', '.join(MEMORY_TYPES)}, not {type!r}", 2)
    v = _vault(vault)
    outcome = _run(lambda: do_remember(Engine(v), text, key=key, type=type, persona=persona, importance=importance,
                                       force_new=new, domain=domain, confidence=confidence, expires=expires,
                                       tags=tag or [], pinned=pin))
    _flush_warnings(v)
    if as_json:
        _print_json(outcome.to_dict())
        return
    typer.echo(outcome.memory.id)
    if outcome.status == "reconfirmed":
        how = f" (similarity {outcome.similarity:.2f})" if outcome.similarity is not None else ""
        typer.echo(f"Already known{how}: reconfirmed {outcome.memory.id} instead of writing a duplicate (--new to force one).", err=True)
    elif outcome.status == "superseded":
        typer.echo(f"Supersedes {', '.join(m.id for m in outcome.previous)} (single-valued key {outcome.memory.key!r}).", err=True)
    for m in outcome.archived:
        typer.echo(f"Archived {m.id}: persona {m.persona!r} is over its cap.", err=True)


@app.command()
def confirm(
    id: Annotated[str, typer.Argument(help="Memory id.")],
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Reconfirm a memory by hand: its last_confirmed becomes now, so it stops decaying.

    Only that frontmatter line changes; every other byte of the file stays as it was.
    """
    from ..vault.vault import now_local

    v = _vault(vault)
    memory = _run(lambda: v.update_frontmatter(id, {"last_confirmed": now_local()}, f"vmem: confirm {id}"))
    _flush_warnings(v)
    if as_json:
        _print_json({"id": memory.id, "path": memory.path.as_posix(), "last_confirmed": memory.last_confirmed.isoformat()})
    else:
        typer.echo(f"Confirmed {memory.id} at {memory.last_confirmed.isoformat()}")


@app.command()
def history(
    id: Annotated[str, typer.Argument(help="Any memory of the chain.")],
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Print a memory's supersession chain, oldest first; the last one is what recall uses."""
    from ..lifecycle.rules import supersession_chain

    v = _vault(vault)
    memories = v.scan().memories
    target = _run(lambda: v.get(id))
    chain = supersession_chain(target.id, memories)
    if as_json:
        _print_json([m.to_dict() for m in chain])
        return
    for n, m in enumerate(chain):
        mark = "→" if m.id == target.id else " "
        head = "  (current)" if n == len(chain) - 1 else ""
        created = m.created.date().isoformat() if m.created else "?"
        typer.echo(f"{mark} {created}  {m.id}  {_clip(m.title, 70)}{head}")


@app.command("list")
def list_(
    type: Annotated[Optional[str], typer.Option("--type", "-t", help="Only this type (fact, episode, summary, note).")] = None,
    key: Annotated[Optional[str], typer.Option("--key", "-k", help="Only this key.")] = None,
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List memories (broken files are reported on stderr and skipped).

    Example: vmem list --type fact --json | jq '.[].text'
    """
    from ..lifecycle.rules import memory_state, rules_for, superseded_ids
    from ..vault.vault import now_local

    v = _vault(vault)
    result = v.scan()
    _warn_problems(result.problems)
    memories = [m for m in result.memories if (type is None or m.type == type) and (key is None or m.key == key)]
    if as_json:
        rules, now, superseded = rules_for(v.config), now_local(), superseded_ids(result.memories)
        _print_json([m.to_dict() | {"state": memory_state(m, now, superseded, rules)} for m in memories])
        return
    for m in memories:
        created = m.created.date().isoformat() if m.created else "          "
        typer.echo(f"{m.id}  {m.type:<7} {created}  {_clip(m.title, 80)}")


def _clip(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


@app.command()
def show(
    id: Annotated[str, typer.Argument(help="Memory id (or a unique prefix of at least 4 characters).")],
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Show one memory as it is on disk now.

    Example: vmem show 2026-09-14-nombre-lucas-a1f3c9
    """
    v = _vault(vault)
    memory = _run(lambda: v.get(id))
    if as_json:
        _print_json(memory.to_dict())
        return
    typer.echo(f"id:         {memory.id}{'  (derived from the path)' if memory.id_derived else ''}")
    typer.echo(f"path:       {memory.path.as_posix()}")
    for name in ("type", "key", "domain", "confidence", "source", "created", "updated", "last_confirmed",
                 "expires", "persona", "scope", "importance"):
        value = getattr(memory, name)
        if value not in (None, ""):
            typer.echo(f"{name + ':':<12}{value.isoformat() if hasattr(value, 'isoformat') else value}")
    if memory.supersedes:
        typer.echo(f"supersedes: {', '.join(memory.supersedes)}")
    if memory.pinned:
        typer.echo("pinned:     true")
    if memory.tags:
        typer.echo(f"tags:       {', '.join(memory.tags)}")
    typer.echo("")
    typer.echo(memory.text)


# ---------------------------------------------------------------------- forget / restore / correct


@app.command()
def forget(
    id: Annotated[str, typer.Argument(help="Memory id.")],
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Forget a memory: its file moves to .vmem/trash/ (nothing is destroyed; see `vmem restore`)."""
    v = _vault(vault)
    entry = _run(lambda: v.forget(id))
    _flush_warnings(v)
    if as_json:
        _print_json(entry.__dict__)
    else:
        typer.echo(f"Forgot {entry.id} ({entry.original} → .vmem/trash/{entry.trashed}); undo with: vmem restore {entry.id}")


@app.command()
def restore(
    id: Annotated[str, typer.Argument(help="Id of a forgotten memory.")],
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Bring a forgotten memory back to where it was."""
    v = _vault(vault)
    memory = _run(lambda: v.restore(id))
    _flush_warnings(v)
    if as_json:
        _print_json({"id": memory.id, "path": memory.path.as_posix(), "status": "restored"})
    else:
        typer.echo(f"Restored {memory.id} to {memory.path.as_posix()}")


@app.command()
def correct(
    id: Annotated[str, typer.Argument(help="Id of the memory that is wrong.")],
    text: Annotated[str, typer.Argument(help="The right text.")],
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Write a corrected memory that supersedes ID; the old file stays untouched (history is kept).

    Example: vmem correct 2026-09-14-trabajo-backend-engineer-at-acme-7c21e0 "Staff engineer at Acme"
    """
    v = _vault(vault)
    memory = _run(lambda: v.correct(id, text))
    _flush_warnings(v)
    if as_json:
        _print_json({"id": memory.id, "path": memory.path.as_posix(), "supersedes": memory.supersedes})
    else:
        typer.echo(memory.id)


# ---------------------------------------------------------------------- doctor / export / import


@app.command()
def doctor(vault: VaultOpt = None, as_json: JsonOpt = False) -> None:
    """Check every file; report broken frontmatter (file:line), wrong types, duplicate ids,
    dangling or cyclic `supersedes`, non-UTF-8 and oversized files. Never changes a file.

    Exit status: 0 when all is well, 1 when a problem was found.
    """
    from ..vault.doctor import diagnose

    v = _vault(vault)
    checked, problems = diagnose(v)
    if as_json:
        _print_json({"vault": str(v.root), "checked": checked, "ok": not problems, "problems": [p.to_dict() for p in problems]})
    else:
        for p in problems:
            typer.echo(f"{p}  [{p.kind}]")
        typer.echo(f"{checked} files checked, {len(problems)} problem{'s' if len(problems) != 1 else ''} found"
                   + ("" if problems else ": all good"))
    raise typer.Exit(1 if problems else 0)


@app.command("export")
def export_(
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write to this file instead of stdout.")] = None,
    vault: VaultOpt = None,
) -> None:
    """Export every memory as JSON Lines (one object per memory). `vmem import` reads it back.

    Example: vmem export -o backup.jsonl
    """
    v = _vault(vault)
    result = v.scan()
    _warn_problems(result.problems)
    lines = [json.dumps(m.to_dict(), ensure_ascii=False, sort_keys=True) for m in result.memories]
    text = "".join(line + "\n" for line in lines)
    if output:
        from ..vault.fsutil import atomic_write

        atomic_write(output, text)
        typer.echo(f"Exported {len(lines)} memories to {output}", err=True)
    else:
        sys.stdout.write(text)


@app.command("import")
def import_(
    file: Annotated[Path, typer.Argument(help="JSON Lines file from `vmem export` ('-' for stdin).")],
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Import memories from JSON Lines. Existing ids are left alone (reported as unchanged or conflict)."""
    v = _vault(vault)
    try:
        source = sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        _fail(f"cannot read {file}: {e}")
    counts = {"added": 0, "unchanged": 0, "conflict": 0, "error": 0}
    details = []
    for n, line in enumerate(source.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            if not isinstance(record, dict):
                raise ValueError("not a JSON object")
            status, memory = v.import_record(record)
            details.append({"line": n, "status": status, "id": memory.id if memory else None})
        except (ValueError, VaultError) as e:
            status = "error"
            details.append({"line": n, "status": status, "error": str(e)})
            typer.echo(f"{file}:{n}: {e}", err=True)
        counts[status] += 1
    _flush_warnings(v)
    if as_json:
        _print_json({"counts": counts, "records": details})
    else:
        typer.echo(", ".join(f"{n} {k}" for k, n in counts.items()))
    raise typer.Exit(1 if counts["error"] or counts["conflict"] else 0)


# ---------------------------------------------------------------------- recall / reindex / sync


class Format(str, Enum):
    block = "block"
    json = "json"
    md = "md"


def _parse_as_of(value: Optional[str]):
    import datetime as dt

    from ..vault.memory import as_datetime

    if not value:
        return None
    try:
        if len(value.strip()) == 10:
            day = dt.date.fromisoformat(value.strip())
            return dt.datetime.combine(day, dt.time(23, 59, 59)).astimezone()
        return as_datetime(value)
    except ValueError:
        _fail(f"--as-of must be an ISO 8601 date or datetime (e.g. 2026-11-22), not {value!r}", 2)


@app.command()
def recall(
    query: Annotated[str, typer.Argument(help="What to remember, in natural language.")],
    k: Annotated[Optional[int], typer.Option("--k", "-n", min=1, help="How many memories to consider (default from vmem.toml).")] = None,
    budget: Annotated[Optional[int], typer.Option("--budget", "-b", min=1, help="Token budget of the block (default from vmem.toml).")] = None,
    type: Annotated[Optional[list[str]], typer.Option("--type", "-t", help="Only these types; repeat for more.")] = None,
    persona: Annotated[Optional[str], typer.Option("--persona", help="Include this persona's memories.")] = None,
    as_of: Annotated[Optional[str], typer.Option("--as-of", help="Evaluate expiry and decay at this date/datetime instead of now.")] = None,
    include_expired: Annotated[bool, typer.Option("--include-expired", help="Also recall expired memories.")] = False,
    include_archived: Annotated[bool, typer.Option("--include-archived", help="Also recall memories moved to archive/.")] = False,
    include_stale: Annotated[bool, typer.Option("--include-stale", help="Also recall memories unconfirmed for too long.")] = False,
    format: Annotated[Format, typer.Option("--format", "-f", help="block (prompt-ready), json, or md.")] = Format.block,
    as_json: JsonOpt = False,
    explain: Annotated[bool, typer.Option("--explain", help="Show each leg's rank and score, and the lifecycle weights.")] = False,
    no_daemon: Annotated[bool, typer.Option("--no-daemon", help="Recall in this process even if a daemon serves the vault.")] = False,
    vault: VaultOpt = None,
) -> None:
    """Print the memories that matter for QUERY, as a prompt-ready block within a token budget.

    Prints nothing (and exits 0) when nothing relevant is found.

    Examples:

      vmem recall "what should I avoid eating?"

      vmem recall "where does the user work" --json --explain

      context=$(vmem recall "$USER_MESSAGE" --budget 300)
    """
    from ..recall.render import render_block, render_json, render_markdown
    from ..recall.results import RecallQuery

    from ..config import STATE_DIR, Config, locate_vault

    # only locate the vault and read vmem.toml: a recall the daemon answers opens no memory file
    root = _run(lambda: locate_vault(vault))
    config = _run(lambda: Config.load(root))
    fmt = Format.json if as_json else format
    q = RecallQuery(query, k=k or config["recall"]["k"], types=set(type) if type else None, persona=persona,
                    as_of=_parse_as_of(as_of), include_expired=include_expired, include_archived=include_archived,
                    include_stale=include_stale)
    tokens = budget or config["recall"]["budget"]
    result = None if no_daemon else _recall_via_daemon(root / STATE_DIR, q)
    if result is None:
        from ..recall.engine import Engine
        from ..vault.vault import Vault

        result = _run(lambda: Engine(Vault(root, config)).recall(q))
    for w in result.warnings:
        typer.echo(f"warning: {w}", err=True)
    if fmt is Format.json:
        typer.echo(render_json(result, explain, tokens))
        return
    text = render_block(result.hits, tokens) if fmt is Format.block else render_markdown(result.hits, tokens)
    if text:
        typer.echo(text)
    if explain:
        for hit in result.hits:
            typer.echo(f"{hit.memory.id}  score={hit.score:.5f}  {json.dumps(hit.explain)}", err=True)


def _recall_via_daemon(state_dir: Path, q):
    """The daemon's answer (warm model, no start-up cost), or None when none is running."""
    from ..daemon.client import DaemonClient
    from ..recall.results import query_to_dict, result_from_wire

    started = time.perf_counter()
    answer = DaemonClient(state_dir, timeout=120).request("recall", query=query_to_dict(q))
    if answer is None:
        return None
    if not answer.get("ok"):
        _fail(answer.get("error", "the daemon could not answer"))
    result = result_from_wire(answer["result"])
    result.answered_by, result.server_ms = "daemon", result.took_ms
    result.took_ms = (time.perf_counter() - started) * 1000
    return result


def _progress_printer():
    """A progress bar on stderr when it is a terminal; silence otherwise."""
    if not sys.stderr.isatty():
        return None, None
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                        transient=True, console=__import__("rich.console").console.Console(stderr=True))
    tasks: dict[str, int] = {}

    def update(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = progress.add_task({"embed": "Embedding", "commit": "Saving"}.get(stage, stage), total=total)
        progress.update(tasks[stage], completed=done, total=total)

    return progress, update


def _index_command(vault: Optional[Path], as_json: bool, full: bool) -> None:
    from ..daemon.client import DaemonClient

    v = _vault(vault)
    answer = DaemonClient(v.state_dir).request("reindex" if full else "sync")
    if answer is not None:  # the daemon is the only writer while it runs
        if not answer.get("ok"):
            _fail(answer.get("error", "the daemon could not sync"))
        report = answer["report"]
        if as_json:
            _print_json(report)
        else:
            typer.echo(f"{'Rebuilt' if full else 'Synced'} by the daemon in {report['seconds']:.1f}s: {report['added']} added, "
                       f"{report['updated']} updated, {report['deleted']} deleted, {report['renamed']} renamed")
        return
    from ..recall.engine import Engine

    engine = _run(lambda: Engine(v))
    progress, update = _progress_printer()
    if progress:
        with progress:
            report = _run(lambda: engine.indexer.reindex(update) if full else engine.indexer.sync(update))
    else:
        report = _run(lambda: engine.indexer.reindex() if full else engine.indexer.sync())
    if as_json:
        _print_json(report.to_dict())
    else:
        for p in report.problems:
            typer.echo(f"warning: skipped {p}", err=True)
        verb = "Rebuilt" if report.rebuilt else "Synced"
        typer.echo(f"{verb} in {report.seconds:.1f}s: {report.added} added, {report.updated} updated, "
                   f"{report.deleted} deleted, {report.renamed} renamed, {report.unchanged} unchanged, "
                   f"{len(report.problems)} skipped")


@app.command()
def reindex(vault: VaultOpt = None, as_json: JsonOpt = False) -> None:
    """Rebuild the keyword and vector indexes from the files (recalls keep working meanwhile).

    Needed after changing [embedding] model in vmem.toml.
    """
    _index_command(vault, as_json, full=True)


@app.command()
def sync(vault: VaultOpt = None, as_json: JsonOpt = False) -> None:
    """Bring the indexes up to date with the files (recall does this by itself when needed)."""
    _index_command(vault, as_json, full=False)


# ---------------------------------------------------------------------- gc / stats


@app.command()
def gc(
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Only print what would move.")] = False,
    as_of: Annotated[Optional[str], typer.Option("--as-of", help="Judge expiry at this date instead of now.")] = None,
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Move expired memories, and persona memories over their cap, to archive/ (nothing is deleted).

    Archived files stay in the vault and in git, `vmem list` still shows them, and
    `vmem recall --include-archived` still finds them.
    """
    from ..lifecycle.rules import memory_state, persona_overflow, rules_for, superseded_ids
    from ..vault.vault import now_local

    v = _vault(vault)
    result = v.scan()
    _warn_problems(result.problems)
    rules = rules_for(v.config)
    now = _parse_as_of(as_of) or now_local()
    superseded = superseded_ids(result.memories)
    moves = [(m, "expired") for m in result.memories if memory_state(m, now, superseded, rules) == "expired"]
    moving = {m.id for m, _ in moves}
    moves += [(m, "over persona cap") for m in persona_overflow(result.memories, rules.persona_cap, now, superseded, rules)
              if m.id not in moving]
    done = []
    for memory, reason in moves:
        target = f"archive/{memory.path.as_posix()}"
        if not dry_run:
            target = _run(lambda: v.archive(memory)).as_posix()
        done.append({"id": memory.id, "from": memory.path.as_posix(), "to": target, "reason": reason})
    _flush_warnings(v)
    if as_json:
        _print_json({"dry_run": dry_run, "moved": done})
        return
    for d in done:
        typer.echo(f"{'would move' if dry_run else 'moved'} {d['from']} → {d['to']}  ({d['reason']})")
    typer.echo(f"{len(done)} memor{'y' if len(done) == 1 else 'ies'} {'would be ' if dry_run else ''}archived")


@app.command()
def stats(
    query: Annotated[str, typer.Option("--query", help="The query whose block size is measured.")] = "what do you know about the user?",
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Counts by type, by lifecycle state and by persona, and the size of a typical recall block."""
    from ..lifecycle.rules import STATES, memory_state, rules_for, superseded_ids
    from ..recall.engine import Engine, RecallQuery
    from ..recall.render import estimate_tokens, render_block
    from ..vault.vault import now_local

    v = _vault(vault)
    result = v.scan()
    rules = rules_for(v.config)
    now = now_local()
    superseded = superseded_ids(result.memories)
    by_type: dict[str, int] = {}
    by_state = {s: 0 for s in STATES}
    by_persona: dict[str, int] = {}
    for m in result.memories:
        by_type[m.type] = by_type.get(m.type, 0) + 1
        by_state[memory_state(m, now, superseded, rules)] += 1
        if m.persona:
            by_persona[m.persona] = by_persona.get(m.persona, 0) + 1
    budget = v.config["recall"]["budget"]
    recalled = _run(lambda: Engine(v).recall(RecallQuery(query, k=v.config["recall"]["k"])))
    block = render_block(recalled.hits, budget)
    data = {"memories": len(result.memories), "broken_files": len(result.problems), "by_type": by_type, "by_state": by_state,
            "by_persona": by_persona, "typical_block": {"query": query, "tokens": estimate_tokens(block),
                                                        "memories": max(0, sum(1 for line in block.splitlines() if line.startswith("- "))),
                                                        "budget": budget}}
    if as_json:
        _print_json(data)
        return
    typer.echo(f"{data['memories']} memories, {data['broken_files']} broken files")
    typer.echo("by type:    " + ", ".join(f"{k} {n}" for k, n in sorted(by_type.items())))
    typer.echo("by state:   " + ", ".join(f"{k} {n}" for k, n in by_state.items()))
    if by_persona:
        typer.echo("by persona: " + ", ".join(f"{k} {n}" for k, n in sorted(by_persona.items())))
    tb = data["typical_block"]
    typer.echo(f"a typical recall block: {tb['memories']} memories, {tb['tokens']} of {tb['budget']} tokens")


# ---------------------------------------------------------------------- daemon

daemon_app = typer.Typer(
    help="Keep the indexes in step with the vault as files change, and answer recalls warm.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(daemon_app, name="daemon")


@daemon_app.command("run")
def daemon_run(
    vault: VaultOpt = None,
    debounce: Annotated[float, typer.Option(help="Seconds of quiet before a batch of changes is indexed.")] = 0.1,
    reconcile_every: Annotated[float, typer.Option(help="Seconds between full reconciles (missed events).")] = 60.0,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Log to .vmem/daemon.log only.")] = False,
) -> None:
    """Run the daemon in the foreground (for systemd, launchd or a supervisor). Stops on SIGTERM.

    Example: vmem daemon run --vault ~/memory
    """
    from ..daemon.server import Daemon, DaemonPaths, setup_logging

    v = _vault(vault)
    v.state_dir.mkdir(parents=True, exist_ok=True)
    setup_logging(DaemonPaths(v.state_dir), foreground=not quiet)
    _run(lambda: Daemon(v, debounce=debounce, reconcile_every=reconcile_every).run())


@daemon_app.command("start")
def daemon_start(
    vault: VaultOpt = None,
    timeout: Annotated[float, typer.Option(help="Seconds to wait for it to answer.")] = 60.0,
) -> None:
    """Start the daemon in the background and wait until it answers.

    Example: vmem daemon start && vmem daemon status
    """
    import subprocess

    from ..daemon.client import DaemonClient
    from ..daemon.server import DaemonPaths, is_running, read_pid, wait_until

    v = _vault(vault)
    paths = DaemonPaths(v.state_dir)
    if is_running(paths):
        typer.echo(f"vmem daemon already running for {v.root} (pid {read_pid(paths)})")
        return
    v.state_dir.mkdir(parents=True, exist_ok=True)
    with open(paths.log, "ab") as log:
        proc = subprocess.Popen([sys.executable, "-m", "vault_memory", "daemon", "run", "--quiet", "--vault", str(v.root)],
                                stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True)
    client = DaemonClient(v.state_dir, timeout=5)
    if not wait_until(lambda: proc.poll() is not None or client.available(), timeout):
        _fail(f"the daemon did not answer within {timeout:.0f}s; see {paths.log}")
    if proc.poll() is not None:
        _fail(f"the daemon exited at start (code {proc.returncode}); see {paths.log}")
    typer.echo(f"vmem daemon started for {v.root} (pid {proc.pid}); log: {paths.log}")


@daemon_app.command("stop")
def daemon_stop(
    vault: VaultOpt = None,
    timeout: Annotated[float, typer.Option(help="Seconds to wait for it to finish its batch.")] = 60.0,
) -> None:
    """Stop the daemon cleanly (SIGTERM: it finishes the batch in progress first)."""
    import os
    import signal

    from ..daemon.server import DaemonPaths, is_running, read_pid, wait_until

    v = _vault(vault)
    paths = DaemonPaths(v.state_dir)
    pid = read_pid(paths)
    if not is_running(paths) or pid is None:
        typer.echo(f"no vmem daemon is running for {v.root}")
        return
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    if not wait_until(lambda: not is_running(paths), timeout):
        _fail(f"the daemon (pid {pid}) did not stop within {timeout:.0f}s")
    typer.echo(f"vmem daemon stopped (pid {pid})")


@daemon_app.command("status")
def daemon_status(vault: VaultOpt = None, as_json: JsonOpt = False) -> None:
    """Is the daemon running, and how far behind the files is it? Exit 1 when not running."""
    from ..daemon.client import DaemonClient
    from ..daemon.server import DaemonPaths, is_running

    v = _vault(vault)
    answer = DaemonClient(v.state_dir, timeout=10).request("status")
    if answer is None or not answer.get("ok"):
        running = is_running(DaemonPaths(v.state_dir))
        data = {"running": running, "vault": str(v.root), "answering": False}
        if as_json:
            _print_json(data)
        else:
            typer.echo(f"vmem daemon {'running but not answering' if running else 'not running'} for {v.root}")
        raise typer.Exit(1)
    st = answer["status"]
    if as_json:
        _print_json(st)
        return
    typer.echo(f"running (pid {st['pid']}) for {st['vault']}, up {st['uptime_s']:.0f}s{'' if st['ready'] else ', still starting'}")
    typer.echo(f"memories indexed: {st['memories_indexed']}, queue: {st['queue_length']}, lag: {st['lag_s']}s")
    if st.get("last_sync"):
        ls = st["last_sync"]
        typer.echo(f"last sync: {time.strftime('%H:%M:%S', time.localtime(ls['at']))}, {ls['seconds']}s")
    for p in st.get("problems", []):
        typer.echo(f"skipped: {p['path']}{':' + str(p['line']) if p.get('line') else ''}: {p['message']}")
    if st.get("last_error"):
        typer.echo(f"last error: {st['last_error']}")


def main() -> None:
    app()
