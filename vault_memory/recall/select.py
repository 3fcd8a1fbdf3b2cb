"""The last stages of a ranking: each candidate weighed by its lifecycle and the ``k`` best
taken (``select``: copies of the same words shown once), then what joins them
(``complete``): the profile, the pinned memories, each hit's possible conflict and the
newer facts related to it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..index.embedder import Part
from ..index.snapshot import Snapshot
from ..lang import read_question
from ..lifecycle import Rules, Timeline, exclusion_reason, lifecycle_weight, max_lifecycle_weight
from ..vault.memory import Memory
from ..vault.sameness import same_words
from ..vault.supersession import is_superseded
from .candidates import Candidates
from .conflicts import with_conflicts
from .profile import profile_hits
from .ranking import best_first, ranks
from .related import with_newer_related
from .results import Hit, RecallQuery


@dataclass(frozen=True)
class Weighing:
    """What the selection weighs with: the vault's lifecycle rules, each memory's timeline
    (worked out once per memory by the engine), the confirmations journal, how deep a
    superseded match passes its relevance on, and the vector's parts."""

    rules: Rules
    timeline: Callable[[str, Memory], Timeline]
    confirmations: Any
    depth: int
    parts: Sequence[Part]
    #: whether a recalled fact brings its newer related fact along (``RankingParams.newer_related``)
    newer_related: bool = True


def select(
    snap: Snapshot,
    query: RecallQuery,
    found: Candidates,
    now: dt.datetime,
    superseded: set[str],
    relevant: Callable[[str, Memory], bool],
    confirmed: dict[str, dt.datetime],
    w: Weighing,
) -> tuple[list[Hit], set[str]]:
    """The ``k`` best hits once each candidate is weighed by its lifecycle: in fused
    order, stopping once even the largest weight could not lift the next candidate above
    the k-th hit (exact, and most queries stop early). Also the ids taken."""
    fused = found.fused
    carried = carry_to_successors(snap, fused, superseded, w.depth, relevant) if superseded else {}
    best = max(fused.values(), default=0.0)
    order = sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))
    kw_rank, vec_rank = ranks(found.keyword), ranks(found.vector)

    def weigh(part: Sequence[tuple[str, float]]) -> list[tuple[float, Hit]]:
        out: list[tuple[float, Hit]] = []
        memories = snap.memories([p for p, _ in part])
        for path, base in part:
            memory = memories.get(path)
            if memory is not None and confirmed:
                memory = w.confirmations.apply(memory, confirmed)
            if memory is None or base <= 0:
                continue  # no relevance at all (the weakest candidate of both legs): not a hit
            tl = w.timeline(path, memory)
            if exclusion_reason(memory, now, superseded, query.filter, w.rules, tl):
                continue
            if not (path in carried or relevant(path, memory)):
                continue  # a fact ranked first among unrelated ones is still unrelated
            weight, parts = lifecycle_weight(memory, now, w.rules, tl)
            if parts["state"] == "low_priority" and base < w.rules.low_priority_min_relevance * best:
                continue  # low priority: recalled only when highly relevant
            explain = {
                "keyword_rank": kw_rank.get(path),
                "keyword_score": _round(found.kw_score.get(path)),
                "vector_rank": vec_rank.get(path),
                "vector_score": _round(found.vec_score.get(path)),
                "maxsim": _round(found.maxsims.get(path)),
                **({"carried_from": carried[path]} if path in carried else {}),
                "fused": _round(base),
                **found.turns.get(path, {}),
                **({"answers_kind": found.kinds[path]} if path in found.kinds else {}),
                **({"linked_from": found.links[path]} if path in found.links else {}),
                **({"of_the_time_asked": found.dated[path]} if path in found.dated else {}),
                "weight": _round(weight),
                **{k: (_round(v) if isinstance(v, float) else v) for k, v in parts.items()},
            }
            hit = Hit(memory, base * weight, explain=explain)
            out.append((hit.score, hit))
        return out

    max_weight = max_lifecycle_weight(w.rules)

    def says(hit: Hit) -> str:
        """Its words as a person reads them (``same_words``, cached: the early stop asks at
        every batch; case, accents, punctuation, spacing and contractions aside): two
        files of the same words are one hit."""
        return same_words(hit.memory.key, hit.memory.text) or hit.memory.id

    weighed = best_first(order, query.k, max_weight, weigh, batch=max(query.k, 10), same=says)
    scored = sorted((hit for _, hit in weighed), key=lambda h: (-h.score, h.memory.id))
    hits: list[Hit] = []
    seen: set[str] = set()
    shown: dict[str, Hit] = {}  # what each hit says: copies of it are not shown again
    for hit in scored:
        if hit.memory.id in seen:
            continue
        copied = shown.get(says(hit))
        if copied is not None:  # the best-weighed copy speaks for the others
            seen.add(hit.memory.id)
            copied.explain.setdefault("same_words_as", []).append(hit.memory.id)
            continue
        if len(hits) < query.k:
            seen.add(hit.memory.id)
            shown[says(hit)] = hit
            hits.append(hit)
    return hits, seen


def complete(
    snap: Snapshot,
    query: RecallQuery,
    hits: list[Hit],
    seen: set[str],
    now: dt.datetime,
    superseded: set[str],
    confirmed: dict[str, dt.datetime],
    w: Weighing,
) -> list[Hit]:
    """What joins the selected hits: the profile for a question about the user, the
    pinned memories, and each hit's possible conflict."""
    allowed = query.filter
    if read_question(query.text).about_the_user:  # "what do you know about me?": who the user is first
        profile = profile_hits(snap, w.rules, now, superseded, allowed, set(), query.k)
        first = {h.memory.id for h in profile}  # a ranked fact of the profile takes its place in it
        hits = profile + [h for h in hits if h.memory.id not in first]
        seen |= first
    if query.include_pinned:
        for _path, memory in sorted(snap.memories(snap.pinned_paths()).items()):
            memory = w.confirmations.apply(memory, confirmed) if confirmed else memory
            if memory.id in seen:
                continue
            if exclusion_reason(memory, now, superseded, allowed, w.rules):
                continue
            seen.add(memory.id)
            hits.append(Hit(memory, 0.0, pinned_only=True, explain={"pinned": True}))

    def is_current(memory: Memory) -> bool:
        return not exclusion_reason(memory, now, superseded, allowed, w.rules)

    hits = with_conflicts(hits, snap, is_current, lambda m: w.confirmations.apply(m, confirmed) if confirmed else m)
    return with_newer_related(hits, snap, w.parts, is_current) if w.newer_related else hits


#: how many replacements a superseded match's relevance follows to reach the current memory
MAX_CHAIN_HOPS = 8


def carry_to_successors(
    snap: Snapshot,
    fused: dict[str, float],
    superseded: set[str],
    depth: int,
    relevant: Callable[[str, Memory], bool] = lambda path, memory: True,
) -> dict[str, str]:
    """A question that matches an old value asks about what replaced it: "where does the
    user live?" matches "lives in Leeds" word for word, and "moved to Bristol" answers it.
    Each superseded memory among the best ``depth`` candidates passes its relevance on to
    the current head of its chain (``fused`` is changed in place) when it is ``relevant``
    itself; returns {head path: the id it was carried from}, for ``--explain``."""
    top = sorted(fused, key=lambda path: (-fused[path], path))[:depth]
    memories = snap.memories(top)
    old = [m for path, m in memories.items() if is_superseded(m, superseded) and relevant(path, m)]
    carried: dict[str, str] = {}
    for start in old:
        score = fused[start.path.as_posix()] if start.path is not None else 0.0
        for m in _replacements(snap, start):
            path = m.path.as_posix() if m.path is not None else None
            if path is not None and score > fused.get(path, 0.0):
                fused[path] = score
                carried[path] = start.id
    return carried


def _replacements(snap: Snapshot, start: Memory) -> list[Memory]:
    """What replaced ``start``, then what replaced those, up to ``MAX_CHAIN_HOPS`` steps,
    nearest first."""
    out: list[Memory] = []
    frontier, seen = [start], {start.id}
    for _ in range(MAX_CHAIN_HOPS):
        following = snap.successors(frontier)
        frontier = [m for ms in following.values() for m in ms if m.id not in seen]
        if not frontier:
            break
        seen.update(m.id for m in frontier)
        out += frontier
    return out


def _round(value: float | None) -> float | None:
    return None if value is None else round(float(value), 6)
