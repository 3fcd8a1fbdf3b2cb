"""``vmem docs``: the documentation a pip user has. The wheel carries ``docs/*.md`` as
``vault_memory/_docs``; a source checkout reads the top-level ``docs/`` folder."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent


def _folder() -> Path:
    packaged = _PACKAGE / "_docs"
    return packaged if packaged.is_dir() else _PACKAGE.parent / "docs"


def _paths() -> dict[str, Path]:
    """topic → file: docs/*.md, and ``hooks`` for the integrations' README (shipped with the
    hook script it describes)."""
    from ..integrations.hookfiles import script_source

    paths = {p.stem: p for p in _folder().glob("*.md")}
    paths["hooks"] = script_source().with_name("README.md")
    return paths


def topics() -> list[str]:
    return sorted(_paths())


def read_topic(name: str) -> str | None:
    path = _paths().get(name.strip().lower().removesuffix(".md"))
    return path.read_text(encoding="utf-8") if path is not None and path.is_file() else None
