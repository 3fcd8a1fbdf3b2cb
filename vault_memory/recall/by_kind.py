"""The facts that answer a question by its kind, whatever their words (``kinds``): the
user's diet and allergies for a question about food, their work or home for one about it."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

import numpy as np

from ..index.embedder import Part
from ..index.snapshot import Snapshot
from ..lang import Question
from ..vault.memory import Memory
from .candidates import Candidates
from .kinds import UNFOUND_FACTS, Kind, about_whom_asked, kinds_of, whom_asked
from .languages import judges_of
from .ranking import RankingParams, lift_above_the_rest


def by_kind(
    snap: Snapshot,
    question: Question,
    found: Candidates,
    models: Sequence[Part],
    asked_in: str | None,
    params: RankingParams,
    languages: Callable[[Snapshot, Sequence[str]], dict[str, str | None]],
) -> set[str]:
    """The facts that answer a question by its kind, in any words (``recall.kinds``): the
    user's diet and allergies for every question about food, their allergies for one
    about medicines, their work or home for one about it. Each kind's facts are lifted
    above the rest, in their own order (``found.kinds`` says which kind); the paths
    lifted are relevant to the question (``_relevance``). A fact no leg brought keeps
    ``weakest`` × its likeness to the question, below every candidate's own score: its
    place among its kind is its likeness, not its id."""
    if not params.kinds:
        return set()
    whom = whom_asked(question)
    for kind in kinds_of(question):
        facts = {
            path
            for path, memory in _facts_of(snap, kind, whom, found.fused, params.depth).items()
            if memory.type == "fact" and about_whom_asked(memory, whom)
        }
        unfound = [path for path in facts if path not in found.fused]
        likeness = _likeness(snap, found.question_vector, unfound, models, asked_in, params, languages)
        found.fused |= {path: params.weakest * max(cosine, 0.0) for path, cosine in likeness.items()}
        lift_above_the_rest(found.fused, facts)  # a fact of the user's, not every turn that names one
        found.kinds |= {path: kind.name for path in facts if path not in found.kinds}
    return set(found.kinds)


def _likeness(
    snap: Snapshot,
    vector: np.ndarray | None,
    paths: list[str],
    models: Sequence[Part],
    asked_in: str | None,
    params: RankingParams,
    languages: Callable[[Snapshot, Sequence[str]], dict[str, str | None]],
) -> dict[str, float]:
    """The cosine of each of ``paths`` to the question's ``vector``, as the model that
    judges its pair of languages gives it (``recall.languages``); a path no model judges
    has none."""
    if vector is None or not paths or not models:
        return {}
    if params.language_aware:
        judges = judges_of(languages(snap, paths), models, asked_in)
    else:  # no rule to tell which model judges a pair: the first judges all
        judges = dict.fromkeys(paths, models[0])
    by_model: dict[Part, list[str]] = {}
    for path, judge in judges.items():
        by_model.setdefault(judge, []).append(path)
    out: dict[str, float] = {}
    for judge, group in by_model.items():
        out |= snap.similarities(vector, group, judge)
    return out


def _facts_of(
    snap: Snapshot, kind: Kind, whom: frozenset[str], candidates: Collection[str], depth: int
) -> dict[str, Memory]:
    """The memories the index holds of ``kind`` for a question about ``whom`` (the
    user's people it names, ``kinds.whom_asked``): under its tags (those among the
    ``candidates``, and at most ``UNFOUND_FACTS`` others: 3,000 facts about friends
    read whole made a recall six times slower), and found by its keyword questions."""
    tagged = snap.paths_tagged(kind.tags_for(whom))
    unfound = sorted(path for path in tagged if path not in candidates)[:UNFOUND_FACTS]
    found = snap.memories([path for path in tagged if path in candidates] + unfound)
    for search in kind.searches:
        memories = snap.memories([path for path, _ in snap.keyword.search(search.query, depth)])
        found |= {path: m for path, m in memories.items() if search.keeps is None or search.keeps(m)}
    return found
