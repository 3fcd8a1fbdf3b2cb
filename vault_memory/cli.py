"""The ``vmem`` command: a thin typer layer over the library.

Each command parses options, calls ``Vault`` (or the recall engine) and formats the result.
Exit codes: 0 success, 1 a problem was found or the command could not proceed, 2 usage error.
Heavy modules (fastembed, whoosh, hnswlib) are imported only by the commands that need them.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn, Optional

import typer

from .errors import VaultError
from .memory import MEMORY_TYPES

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
    from .vault import Vault, locate_vault

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
    from .template import create_vault

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
    vault: VaultOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Write a new memory and print its id.

    Examples:

      vmem remember "nombre: Lucas"

      vmem remember "Deploys happen on Tuesdays" --domain work --tag deploy

      vmem remember "Staying at Hotel Lisboa" --type episode --expires 2026-12-16
    """
    if type not in MEMORY_TYPES:
        _fail(f"--type must be one of {', '.join(MEMORY_TYPES)}, not {type!r}", 2)
    v = _vault(vault)
    memory = _run(lambda: v.add(text, type=type, key=key, domain=domain, confidence=confidence,
                                expires=expires, persona=persona, tags=tag or [], pinned=pin))
    _flush_warnings(v)
    if as_json:
        _print_json({"id": memory.id, "path": memory.path.as_posix(), "status": "created"})
    else:
        typer.echo(memory.id)


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
    v = _vault(vault)
    result = v.scan()
    _warn_problems(result.problems)
    memories = [m for m in result.memories if (type is None or m.type == type) and (key is None or m.key == key)]
    if as_json:
        _print_json([m.to_dict() for m in memories])
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
    from .doctor import diagnose

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
        from .fsutil import atomic_write

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


def main() -> None:
    app()
