"""``vmem docs``: the documentation a pip user has. The wheel carries ``docs/*.md`` as
``vault_memory/_docs``; a source checkout reads the top-level ``docs/`` folder."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent


def _folder() -> Path:
    packaged = _PACKAGE / "_docs"
    return packaged if packaged.is_dir() else _PACKAGE.parent / "docs"


def topics() -> list[str]:
    return sorted(p.stem for p in _folder().glob("*.md"))


def read_topic(name: str) -> str | None:
    path = _folder() / f"{name.strip().lower().removesuffix('.md')}.md"
    if name not in topics() and path.stem not in topics():
        return None
    return path.read_text(encoding="utf-8")
