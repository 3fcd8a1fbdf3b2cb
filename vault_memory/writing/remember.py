"""Writing a memory the way a careful person would: don't repeat what is already known,
replace what changed, keep each persona's memories within its cap.

``remember`` decides between writing a new file, reconfirming an existing memory
(``last_confirmed`` set to now: the same fact said again keeps it fresh), and superseding
the old value of a single-valued key. It reads the indexes (kept fresh by the engine) to
find candidates; it writes only through ``Vault``, and asks the vault's
daemon (through ``Backend``) when one runs.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from ..daemon.backend import Backend
from ..errors import WriteRefused
from ..index.chunking import embedding_text
from ..index.keyword_index import content_terms
from ..index.locks import file_lock
from ..index.snapshot import Snapshot
from ..lifecycle import (
    RecallFilter,
    canonical_key,
    exclusion_reason,
    is_restatement,
    normalize_text,
    persona_overflow,
    reference_time,
    score_importance,
)
from ..vault.memory import Memory, jsonable, new_id, split_key_value
from ..vault.vault import Vault, now_local


@dataclass
class RememberOutcome:
    status: str  # "created" | "reconfirmed" | "superseded"
    memory: Memory
    previous: list[Memory] = field(default_factory=list)
    similarity: float | None = None
    archived: list[Memory] = field(default_factory=list)
    #: the key was read from the text ("city: Madrid"), not given with --key
    key_inferred: bool = False
    #: what the caller must be told (stderr, --json): e.g. a supersession on an inferred key
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return jsonable(
            {
                "status": self.status,
                "id": self.memory.id,
                "path": self.memory.path.as_posix() if self.memory.path else None,
                "previous": [m.id for m in self.previous],
                "similarity": round(self.similarity, 4) if self.similarity is not None else None,
                "archived": [m.id for m in self.archived],
                "key": self.memory.key,
                "key_inferred": self.key_inferred,
                "warnings": self.warnings,
            }
        )


def _same_scope(a: Memory, persona: str | None, type_: str) -> bool:
    return (a.persona or None) == (persona or None) and a.type == type_


@dataclass
class Remembering:
    """One memory to write, as ``remember`` takes it (``remember_many`` takes a list)."""

    text: str
    key: str | None = None
    type: str = "fact"
    persona: str | None = None
    importance: float | None = None
    force_new: bool = False
    #: ids this memory replaces outright (a session's newer summary), besides any rule's
    supersedes: list[str] = field(default_factory=list)
    #: the rest of ``Vault.add``'s fields: domain, confidence, source, expires, tags,
    #: pinned, conversation, turn
    fields: dict[str, Any] = field(default_factory=dict)


def remember(
    backend: Backend,
    text: str,
    *,
    key: str | None = None,
    type: str = "fact",
    persona: str | None = None,
    importance: float | None = None,
    force_new: bool = False,
    now: dt.datetime | None = None,
    **fields: Any,
) -> RememberOutcome:
    """Write ``text`` as a memory, reconfirm the memory that already says it, or supersede
    the old value of a single-valued key (see the module docstring)."""
    item = Remembering(text, key, type, persona, importance, force_new, fields=fields)
    return remember_many(backend, [item], now=now)[0]


def remember_many(
    backend: Backend, items: list[Remembering], *, now: dt.datetime | None = None
) -> list[RememberOutcome]:
    """``remember`` for many memories at once (a conversation's facts): one lock, one index
    check and one snapshot for all of them, and each sees the ones written before it, so a
    fact said twice in a batch is written once and a key's later value supersedes its
    earlier one. Outcomes are in the order of ``items``."""
    now = now or now_local()
    if not items:
        return []
    # one remember at a time per vault: two processes saying the same thing at once must
    # find each other's memory, not both write one
    with file_lock(backend.state_dir / "index" / "remember.lock", timeout=LOCK_SECONDS, what="another remember"):
        if all(item.force_new for item in items):
            return [_write_one(backend, None, [], item, now) for item in items]
        backend.ensure_fresh()
        with backend.snapshot() as snap:
            superseded = snap.catalog.superseded_targets()
            known = [Memory.from_record(record) for record in snap.catalog.all_records().values()]
            return [_write_one(backend, snap, known, item, now, superseded) for item in items]


def _write_one(
    backend: Backend,
    snap: Snapshot | None,
    known: list[Memory],
    item: Remembering,
    now: dt.datetime,
    superseded: set[str] | None = None,
) -> RememberOutcome:
    """Decide and write one memory; ``known`` (every memory the index held, then each one
    this batch wrote) grows as it goes, and ``superseded`` with it."""
    vault, rules = backend.vault, backend.engine.lifecycle_rules
    superseded = set() if superseded is None else superseded
    key, text, type, persona, fields = item.key, item.text, item.type, item.persona, dict(item.fields)
    key_inferred = False
    single = {canonical_key(k) for k in rules.single_valued_keys}
    if key is None:
        key, value = split_key_value(text)
        if key is not None and canonical_key(key) in single and len(value.split()) > SINGLE_VALUE_WORDS:
            key, value = None, text.strip()  # a sentence: it must not replace the key's value
        text, key_inferred = value, key is not None
    text = text.strip()
    if not text:
        raise ValueError("a memory needs some text")
    importance = item.importance if item.importance is not None else score_importance(text, key, rules)

    def written(outcome: RememberOutcome) -> RememberOutcome:
        if outcome.status != "reconfirmed":
            known.append(outcome.memory)
            superseded.update(outcome.memory.supersedes)
        return outcome

    replaced: list[Memory] = []  # the old values of a single-valued key, superseded by this one
    if not item.force_new and snap is not None:
        current_filter = RecallFilter(persona=persona, include_stale=True)
        current = [
            m
            for m in known
            if _same_scope(m, persona, type) and not exclusion_reason(m, now, superseded, current_filter, rules)
        ]
        wanted = normalize_text(f"{key or ''} {text}")  # "" (emoji only) is never the same as anything
        same = [m for m in current if wanted and normalize_text(f"{m.key or ''} {m.text}") == wanted]
        if same:
            return _reconfirm(vault, same[0], now, None)
        nkey = canonical_key(key)
        if nkey and nkey in single:
            replaced = [m for m in current if canonical_key(m.key) == nkey]
            if replaced:  # a new value of a pinned fact (the user's name) stays pinned
                fields["pinned"] = bool(fields.get("pinned")) or any(m.pinned for m in replaced)
        if not replaced:
            new_terms = content_terms(f"{key or ''} {text}")
            for candidate, similarity in _nearest(backend, snap, embedding_text(key, text), current):
                if is_restatement(
                    new_terms, content_terms(f"{candidate.key or ''} {candidate.text}"), similarity, rules
                ):
                    return _reconfirm(vault, candidate, now, similarity)

    supersedes = [*item.supersedes, *(m.id for m in replaced if m.id not in item.supersedes)]
    try:
        new = vault.add(
            text,
            type=type,
            key=key,
            persona=persona,
            importance=importance,
            supersedes=supersedes,
            split_key=False,
            now=now,
            **fields,
        )
    except WriteRefused:
        # another `remember` of the same text wrote the same file a moment ago: that is the
        # memory, reconfirmed (the same text at the same second gives the same id)
        if item.force_new or replaced:
            raise
        twin = vault.find_file_of(new_id(text, key, now))
        if twin is None:
            raise
        return RememberOutcome("reconfirmed", twin, [twin])
    previous = replaced or [m for m in known if m.id in item.supersedes]
    outcome = RememberOutcome(
        "superseded" if previous else "created",
        new,
        previous,
        archived=_enforce_cap(backend, new, now),
        key_inferred=key_inferred,
    )
    if replaced and key_inferred:
        outcome.warnings.append(
            f"the key {key!r} was read from the text, and as a single-valued key it replaces "
            f"{', '.join(m.id for m in replaced)}; if that was not meant, `vmem forget {new.id}` makes "
            "the old value current again (--key says a key outright)"
        )
    return written(outcome)


def _nearest(
    backend: Backend, snap: Snapshot, text: str, current: list[Memory], n: int = 5
) -> list[tuple[Memory, float]]:
    """The ``n`` most similar current memories by embedding, most similar first."""
    if not current or snap.vectors is None or not snap.live_chunks:
        return []  # nothing to compare with: do not load the model for nothing
    by_path = {m.path.as_posix(): m for m in current if m.path is not None}
    hits = backend.nearest(text, 4 * n, snap)
    return [(by_path[path], similarity) for path, similarity in hits if path in by_path][:n]


#: how long a remember waits for another one to finish
LOCK_SECONDS = 120.0

#: a value read from free text ("city: Madrid") may replace a single-valued key's old value
#: only if it is this short: "City: Porto is where my sister lives" is a sentence
SINGLE_VALUE_WORDS = 5

#: a memory confirmed this recently is not rewritten when it is said again (its file stays
#: as it is: no churn in the user's editor or in git)
RECONFIRM_AFTER = dt.timedelta(days=1)


def _reconfirm(vault: Vault, memory: Memory, now: dt.datetime, similarity: float | None) -> RememberOutcome:
    last = reference_time(memory)
    if last is not None and dt.timedelta(0) <= now - last < RECONFIRM_AFTER:
        return RememberOutcome("reconfirmed", memory, [memory], similarity)
    updated = vault.update_frontmatter(memory.id, {"last_confirmed": now}, f"vmem: reconfirm {memory.id}")
    return RememberOutcome("reconfirmed", updated, [memory], similarity)


def _enforce_cap(backend: Backend, new: Memory, now: dt.datetime) -> list[Memory]:
    """Archive the persona's lowest-importance, oldest memories beyond the cap."""
    if not new.persona:
        return []
    backend.ensure_fresh()
    with backend.snapshot() as snap:
        mine = [Memory.from_record(r) for r in snap.catalog.persona_records(new.persona)]
        superseded = snap.catalog.superseded_targets()
    rules = backend.engine.lifecycle_rules
    if len(mine) <= rules.persona_cap:
        return []
    archived = []
    for memory in persona_overflow(mine, rules.persona_cap, now, superseded, rules):
        if memory.id != new.id:
            backend.vault.archive(memory)
            archived.append(memory)
    return archived
