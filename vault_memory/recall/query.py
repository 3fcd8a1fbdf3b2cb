"""What a recall asks (``RecallQuery``) and what each answer is (``Hit``): plain data, no
heavy imports, below both the engine that fills them and the renderer that prints them."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from ..config import ALL_TYPES, SETTINGS
from ..errors import InvalidInput
from ..lang import not_utf8
from ..lifecycle import RecallFilter
from ..vault.memory import Memory
from ..vault.values import jsonable

DEFAULT_BUDGET: int = SETTINGS["recall"]["budget"].default
DEFAULT_K: int = SETTINGS["recall"]["k"].default
#: the most memories one recall may rank (a bound for callers from outside: MCP, the socket)
MAX_K = 1000
#: the two legs a recall can run
LEGS = ("keyword", "vector")


def check_type(name: object) -> None:
    """A memory type that exists, or ``InvalidInput`` with the nearest one: `--type facts`
    printed nothing and exited 0, which reads as "nothing relevant"."""
    if name in ALL_TYPES:
        return
    import difflib

    near = difflib.get_close_matches(str(name), ALL_TYPES, n=1)
    hint = f"; did you mean {near[0]!r}?" if near else ""
    raise InvalidInput(f"no memory type {name!r} (the types are {', '.join(ALL_TYPES)}){hint}")


@dataclass(frozen=True)
class RecallQuery:
    text: str
    k: int = DEFAULT_K
    types: frozenset[str] | None = None
    persona: str | None = None
    as_of: dt.datetime | None = None
    include_expired: bool = False
    include_archived: bool = False
    include_stale: bool = False
    legs: tuple[str, ...] = LEGS
    include_pinned: bool = True
    #: tokens the rendered block may take (``[recall] budget`` unless the caller said otherwise)
    budget: int = DEFAULT_BUDGET

    def __post_init__(self) -> None:
        """What no recall can take, refused here, whoever asks (CLI, MCP, the socket)."""
        if not isinstance(self.text, str):
            raise InvalidInput(f"a recall query is text, not {type(self.text).__name__}")
        where = not_utf8(self.text)  # bytes a shell passed on that are not UTF-8 ("caf\xe9")
        if where is not None:
            raise InvalidInput(f"the query is not UTF-8 text ({where}); pass it as UTF-8")
        if not isinstance(self.k, int) or isinstance(self.k, bool) or not 1 <= self.k <= MAX_K:
            raise InvalidInput(f"k must be a whole number from 1 to {MAX_K}, not {self.k!r}")
        if not isinstance(self.budget, int) or isinstance(self.budget, bool) or self.budget < 1:
            raise InvalidInput(f"budget must be a whole number of tokens above 0, not {self.budget!r}")
        if self.as_of is not None and not 1 < self.as_of.year < 9000:  # every rule adds days or years to it
            raise InvalidInput(f"as_of {self.as_of.isoformat()} is too far from today to judge memories by")
        if self.types is not None and not isinstance(self.types, frozenset):
            object.__setattr__(self, "types", frozenset(self.types))
        for name in self.types or ():
            check_type(name)

    @property
    def filter(self) -> RecallFilter:
        return RecallFilter(
            self.persona,
            self.types or None,
            self.include_expired,
            self.include_archived,
            self.include_stale,
            as_of=self.as_of is not None,
        )


@dataclass
class Hit:
    memory: Memory
    score: float
    #: included because it is pinned, not because it matched the query
    pinned_only: bool = False
    explain: dict[str, Any] = field(default_factory=dict)
    #: the newer memory about the same subject that this one may contradict: the block
    #: marks this one "older — may be outdated" (``lifecycle.conflicts``)
    outdated_by: str | None = None
    #: the older memories about the same subject that this one may contradict
    conflicts_with: list[str] = field(default_factory=list)

    def to_dict(self, explain: bool = False) -> dict[str, Any]:
        m = self.memory
        data: dict[str, Any] = {
            "id": m.id,
            "type": m.type,
            "key": m.key,
            "text": m.shared_text,
            "path": m.path.as_posix() if m.path else None,
            "score": round(self.score, 6),
            "created": m.created,
            "confidence": m.confidence,
            "pinned": m.pinned,
            "domain": m.domain,
            "persona": m.persona,
            "tags": m.tags,
            "expires": m.expires,
        }
        if self.outdated_by or self.conflicts_with:
            data["conflict"] = {"outdated_by": self.outdated_by, "conflicts_with": self.conflicts_with}
            if self.outdated_by and self.explain.get("newer_related") == self.outdated_by:
                data["conflict"]["related_only"] = True  # by meaning and a word of change: maybe not replaced
        if explain:
            data["explain"] = self.explain
        return jsonable(data)
