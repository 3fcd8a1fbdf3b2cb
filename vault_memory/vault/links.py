"""Obsidian's links in a note (pure rules): ``[[People/Marta|Marta]]``, ``[[Trip#Day 2]]``,
``![[attachments/map.png]]``.

A block shows a link as the text a person reads in Obsidian (``as_text``), never its
brackets; ``targets`` names the notes a note links to, and ``link_tags`` indexes a file by
the name a link reaches it by and the names it links to, so recall follows links both ways.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

#: a wikilink or an embed: ``!``?, ``[[``, the target (no brackets, bars or newlines), an
#: optional ``|alias``, ``]]``
WIKILINK = re.compile(r"(!?)\[\[([^\[\]|\n]{1,300})(?:\|([^\[\]\n]{0,300}))?\]\]")


def as_text(text: str) -> str:
    """``text`` with each link as Obsidian shows it: its alias, else its note's name and
    heading ("Trip > Day 2"); an embed as its file's name."""
    if "[[" not in text:
        return text
    return WIKILINK.sub(_shown, text)


def targets(text: str) -> list[str]:
    """The notes ``text`` links to (no embeds), as written, without heading or block:
    ``People/Marta``, ``Trip``; each once, in order."""
    out: list[str] = []
    for m in WIKILINK.finditer(text) if "[[" in text else ():
        target = m.group(2).split("#", 1)[0].strip()
        if not m.group(1) and target and target not in out:
            out.append(target)
    return out


#: the catalog's tags of links: a file is reached by ``NOTE_TAG`` + its name, and links to
#: ``LINK_TAG`` + each name it links to
NOTE_TAG = "note:"
LINK_TAG = "link:"


def note_key(name: str) -> str:
    """The name a link reaches a note by, as Obsidian resolves ``[[Marta]]`` to
    ``People/Marta.md`` wherever it is: the last part, no ``.md``, case and spaces folded."""
    last = name.replace("\\", "/").rsplit("/", 1)[-1]
    last = last[:-3] if last.lower().endswith(".md") else last
    return " ".join(last.split()).casefold()


#: how many of a note's aliases are read, and how long each may be
MAX_ALIASES, MAX_ALIAS_CHARS = 20, 200


def aliases_of(frontmatter: Mapping[str, Any]) -> list[str]:
    """The other names a note goes by, as Obsidian reads them from its frontmatter
    (``aliases: [Nacho]``, ``alias: Nacho``): ``[[Nacho]]`` reaches it, and a question that
    says "Nacho" finds it. Strings only, a bounded few; anything else is ignored."""
    found: list[str] = []
    for name in ("aliases", "alias"):
        value = frontmatter.get(name)
        values = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        found += [
            v.strip() for v in values[:MAX_ALIASES] if isinstance(v, str) and 0 < len(v.strip()) <= MAX_ALIAS_CHARS
        ]
    return list(dict.fromkeys(found))[:MAX_ALIASES]


def link_tags(path: str | None, text: str, aliases: Sequence[str] = ()) -> list[str]:
    """The tags that index a file by its links (``NOTE_TAG``: its name and its aliases;
    ``LINK_TAG``: the names it links to)."""
    names = [note_key(path)] if path else []
    names += [note_key(a) for a in aliases]
    tags = [NOTE_TAG + name for name in dict.fromkeys(names) if name]
    return tags + [LINK_TAG + key for key in dict.fromkeys(note_key(t) for t in targets(text)) if key]


def _shown(m: re.Match[str]) -> str:
    embed, target, alias = m.group(1), m.group(2).strip(), m.group(3)
    if alias is not None and alias.strip() and not embed:
        return alias.strip()
    note, _, heading = target.partition("#")
    name = note.rsplit("/", 1)[-1]
    if not embed and name.endswith(".md"):
        name = name[:-3]
    heading = heading.lstrip("^").strip()
    if not name:
        return heading
    return f"{name} > {heading}" if heading and not embed else name
