"""What the legs found for one question, as each stage of recall after them refines it."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..index.embedder import Part


@dataclass
class Candidates:
    """What the legs found for one question, as the stages after them refine it."""

    keyword: list[tuple[str, float]]
    vector: list[tuple[str, float]]
    kw_score: dict[str, float]
    vec_score: dict[str, float]
    #: per leg, the memories it abstains on (``languages.abstentions``); None: no language rule
    abstains: dict[str, set[str]] | None
    #: each candidate's fused score, best first once sorted
    fused: dict[str, float]
    neighbours: dict[str, list[str]]
    #: the model that judged each candidate's pair of languages (``embedder.Part``); empty:
    #: no language rule, the vector's one model judged every pair
    judges: dict[str, Part] = field(default_factory=dict)
    #: late interaction's MaxSim per re-scored candidate
    maxsims: dict[str, float] = field(default_factory=dict)
    #: what a conversation's turn is, where it weighed in (``stages.turns``): its speaker,
    #: named by the question, or that it only asks
    turns: dict[str, dict[str, object]] = field(default_factory=dict)
    #: the facts that answer the question by its kind (``recall.kinds``): {path: the kind}
    kinds: dict[str, str] = field(default_factory=dict)
    #: every memory a vector search reached, below the noise floor too, best of each model
    #: first: what the judge of kinds reads (``by_kind``)
    reached: list[str] = field(default_factory=list)
    #: the question's vector, when the vector leg ran
    question_vector: np.ndarray | None = None
    #: for a question about a time (``dates.about_a_time``), or with a subject and a time
    #: relative to today, why each memory is of it: "written 2026-11-26", "tells tomorrow =
    #: 2026-11-28"
    dated: dict[str, str] = field(default_factory=dict)
    #: the candidates a link brought (``_follow_links``): {path: the path that links it}
    links: dict[str, str] = field(default_factory=dict)
