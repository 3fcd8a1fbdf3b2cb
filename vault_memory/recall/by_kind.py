"""The facts that answer a question by its kind, whatever their words (``kinds``): the
user's diet and allergies for a question about food, their work or home for one about it.
Found under the slot rules' tags and by the kind's keyword questions, and read from the
facts' meaning by the judge of kinds (``lang.judge.fact_kinds``) among what the legs reached."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Collection, Sequence

import numpy as np

from ..index.catalog import Meta
from ..index.embedder import Part, model_parts
from ..index.snapshot import Snapshot
from ..lang import Question
from ..lang.judge import KIND_AT, kind_weights
from ..lang.judge import MODEL as JUDGE_MODEL
from ..vault.memory import Memory
from .candidates import Candidates
from .kinds import UNFOUND_FACTS, Kind, about_whom_asked, kinds_of, names_people, whom_asked
from .languages import judges_of
from .ranking import RankingParams, lift_above_the_rest

#: the most memories the judge of kinds reads for one question: the candidates best first,
#: then what the vector leg reached below its floor (50 missed one Spanish answer of the
#: tune half). At 10,000 memories reading 100 costs 0.8 ms, their multilingual columns read
#: at once from the side rows (``Snapshot.part_vectors_of``)
JUDGED_MOST = 100
#: the judge of kinds' threshold as a log-odds (``lang.judge.KIND_AT``)
_LOGIT_AT = math.log(KIND_AT / (1 - KIND_AT))


@functools.cache
def fact_kind_names() -> frozenset[str]:
    """The kinds the judge of kinds reads (``lang.judge.kind_weights``)."""
    return frozenset(kind_weights())


@functools.cache
def fact_kind_weights(kind: str) -> tuple[np.ndarray, float]:
    """``kind``'s fitted weights as an array, and its bias."""
    weights, bias = kind_weights()[kind]
    return np.asarray(weights, dtype=np.float64), bias


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
        judged = {  # read by meaning alone: one that names the user's people is theirs ("My brother lives in …")
            path: memory for path, memory in _read_as_of(snap, kind, found).items() if whom or not names_people(memory)
        }
        of_kind = _facts_of(snap, kind, whom, found.fused, params.depth) | judged
        facts = {path for path, memory in of_kind.items() if memory.type == "fact" and about_whom_asked(memory, whom)}
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


def _read_as_of(snap: Snapshot, kind: Kind, found: Candidates) -> dict[str, Memory]:
    """The memories the legs reached (the vector leg's below its floor too) whose
    stored multilingual vector the judge of kinds reads as of ``kind``, whatever their words
    ("Home is a flat in Leith", "Programo no time de cartões da Nubank"): no rule tags them.
    Nothing where the vault keeps no such vector (a vault of the English model alone)."""
    part = next((p for p in model_parts(str(snap.meta.get(Meta.MODEL_ID, ""))) if p.model_id == JUDGE_MODEL), None)
    if part is None or kind.name not in fact_kind_names():
        return {}
    best = sorted(found.fused, key=found.fused.__getitem__, reverse=True)
    pool = list(dict.fromkeys([*best, *found.reached]))[:JUDGED_MOST]
    stored = snap.part_vectors_of([path for path in pool if path not in found.kinds], part)
    if not stored:
        return {}
    paths = list(stored)
    vectors = np.stack([stored[path] for path in paths]).astype(np.float64)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-12
    weights, bias = fact_kind_weights(kind.name)
    read = vectors @ weights + bias >= _LOGIT_AT
    return snap.memories([path for path, yes in zip(paths, read, strict=True) if yes])


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
