"""What the agent is told the vault did with its prompt's request to remember.

"remember that my podiatrist is Dr. Sousa" is written by the daemon before it recalls, and
the fact is then left out of the block (it is in the prompt already): the agent was told
nothing, and said "noted" whatever happened — written, known already, or not kept at all
("remember to run the linter" is a to-do of the task, a secret is never written). The
notice names each outcome beside the block, in a fence of its own, so the agent says what
is true and knows what its own ``remember`` tool would still have to keep.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..recall.render import defang
from ..writing.rules import RememberOutcome

#: the notice's fence, as the hook checks it (``hooks/vmem_hook_core.py``)
OPEN, CLOSE = "<vmem-saved>", "</vmem-saved>"
#: the most lines a notice holds: a message of many requests is named, not repeated whole
MOST_LINES = 16
#: the longest a line quotes of a fact or a note
LINE_CHARS = 300

_HEAD = "What vmem did with the request to remember in this prompt (the user's memory vault):"
_SAID = {
    "created": "remembered",
    "superseded": "remembered, replacing what the vault said before",
    "reconfirmed": "already remembered",
}


def said_notice(outcomes: Sequence[RememberOutcome], notes: Sequence[str]) -> str:
    """The notice for one prompt: each memory written or found known, with what it replaced
    and what it may contradict that the rules could not settle (``vmem conflicts``); then
    each note of what was not kept and why (``signals.not_kept_notes``, the write's
    refusals). "" when the prompt asked nothing."""
    lines: list[str] = []
    for o in outcomes:
        if o.status not in _SAID:
            continue
        lines.append(f"- {_SAID[o.status]}: {_one_line(o.memory.text)}")
        if o.status == "superseded":
            lines += [f"  it replaces: {_one_line(m.text)}" for m in o.previous[:2]]
        lines += [f"  the vault also says, not settled which is current: {_one_line(m.text)}" for m in o.conflicts[:2]]
    lines += [f"- {_one_line(note)}" for note in notes]
    if not lines:
        return ""
    if len(lines) > MOST_LINES:
        lines = [*lines[: MOST_LINES - 1], f"- and {len(lines) - MOST_LINES + 1} more"]
    return "\n".join([OPEN, _HEAD, *lines, CLOSE])


def _one_line(text: str) -> str:
    """``text`` on one line, without control characters or a fence's tag (``defang``: a
    tag inside a quoted fact would end the notice or open a block where it stands), cut
    short."""
    flat = " ".join("".join(c if c.isprintable() else " " for c in defang(text)).split())
    return flat if len(flat) <= LINE_CHARS else flat[: LINE_CHARS - 1] + "…"
