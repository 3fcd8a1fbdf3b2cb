"""What a recall returns: the engine builds a ``RecallResult`` once (plain data, nothing
patched afterwards); its block, Markdown and JSON are derived from the hits and the
query's budget by ``render``. No heavy imports, so the daemon's clients can use it
without loading numpy, Whoosh or the model."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

from .query import DEFAULT_BUDGET, DEFAULT_K, Hit, RecallQuery
from .render import MIN_BUDGET, Selection, block_text, estimate_tokens, markdown_text, select

if TYPE_CHECKING:
    from ..index.plan import SyncReport

__all__ = ["DEFAULT_BUDGET", "DEFAULT_K", "AnsweredBy", "Hit", "RecallQuery", "RecallResult"]

#: `vmem recall --format`: the block, its data, Markdown, or an index (one short line a
#: memory, those cut short named by id: what a session starts with)
FORMATS = ("block", "json", "md", "index")

#: who ranked: the vault's daemon (warm) or this process
AnsweredBy = Literal["daemon", "in-process"]


@dataclass(frozen=True)
class RecallResult:
    query: RecallQuery
    hits: list[Hit]
    #: the whole recall as the caller saw it (a daemon's answer includes the socket)
    took_ms: float
    sync: SyncReport | None = None
    warnings: list[str] = field(default_factory=list)
    answered_by: AnsweredBy = "in-process"
    #: the daemon's own time for the ranking, when a daemon answered
    server_ms: float | None = None
    #: where the ranking's time went, stage by stage: keyword_ms, embed_ms, vector_ms,
    #: candidates_ms, late_ms (late interaction's MaxSim), turns_ms, links_ms, kinds_ms,
    #: select_ms, complete_ms; rank_ms (the whole ranking)
    timings: dict[str, float] = field(default_factory=dict)
    #: what the answer says of itself that is no fault, unlike ``warnings``: a question
    #: about a time that no memory is of, or what the lifecycle left out of that time
    notes: list[str] = field(default_factory=list)

    @property
    def budget(self) -> int:
        return self.query.budget

    @cached_property
    def selection(self) -> Selection:
        """The hits that fit the budget, with their lines: what the block shows."""
        return select(self.hits, self.query.budget)

    @property
    def block(self) -> str:
        """The prompt-ready ``<memory>`` block; empty when nothing relevant fits."""
        return block_text(self.selection)

    @property
    def markdown(self) -> str:
        return markdown_text(self.selection)

    @cached_property
    def index(self) -> str:
        """The block as an index: more memories in the same budget, one short line each."""
        return block_text(select(self.hits, self.query.budget, index=True))

    def keeping(self, keep: Callable[[Hit], bool]) -> RecallResult:
        """This result with only the hits ``keep`` accepts: its block is rendered again from
        them (``vmem context`` leaves out what the conversation's window already states)."""
        return replace(self, hits=[hit for hit in self.hits if keep(hit)])

    @property
    def budget_note(self) -> str | None:
        """Said when memories were found but the budget left room for none of them (an
        empty block must not look like "nothing relevant")."""
        if self.hits and not self.selection:
            return (
                f"found {len(self.hits)} memories but a budget of {self.budget} tokens leaves no room for any; "
                f"the smallest useful budget is {MIN_BUDGET}"
            )
        return None

    def output(self, format: str = "block", explain: bool = False) -> tuple[str, list[str]]:
        """What `vmem recall` prints for this result, (stdout, stderr lines), for the CLI and
        for the daemon rendering it for the command's fast path: the same bytes either way.
        stdout ends with a newline unless it is empty (nothing relevant prints nothing)."""
        from ..terminal import printable

        errors = [f"warning: {w}" for w in self.warnings] + [f"note: {n}" for n in self.notes]
        if format == "json":
            out = json.dumps(self.to_dict(explain), ensure_ascii=False, indent=2) + "\n"
        else:
            if self.budget_note:
                errors.append(f"warning: {self.budget_note}")
            text = {"block": self.block, "index": self.index}.get(format) or self.markdown
            if explain:
                errors += [f"{hit.memory.id}  score={hit.score:.5f}  {json.dumps(hit.explain)}" for hit in self.hits]
            out = text + "\n" if text else ""
        return out, [printable(line) for line in errors]  # warnings name files: no escapes reach the terminal

    def to_dict(self, explain: bool = False) -> dict[str, Any]:
        block = self.block
        data: dict[str, Any] = {
            "query": self.query.text,
            "results": [h.to_dict(explain) for h in self.hits],
            "block": block,
            "block_tokens": estimate_tokens(block),
            "budget": self.budget,
            "took_ms": round(self.took_ms, 2),
            "answered_by": self.answered_by,
        }
        note = self.budget_note
        if self.server_ms is not None:
            data["server_ms"] = round(self.server_ms, 2)
        if self.timings:
            data["timings"] = {k: round(v, 2) for k, v in self.timings.items()}
        if self.warnings or note:
            data["warnings"] = [*self.warnings, *([note] if note else [])]
        if self.notes:
            data["notes"] = self.notes
        if explain and self.sync is not None:
            data["sync"] = self.sync.to_dict()
        return data
