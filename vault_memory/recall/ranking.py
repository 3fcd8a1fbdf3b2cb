"""Fusing the keyword and vector legs into one ranking (pure functions).

The default is normalised-score fusion: each leg's scores are min-max scaled over its own
candidates and the two are averaged, so a leg that is sure of one memory (a large score
gap) counts for more than rank alone would say. Then every memory inherits half the fused
score of its best conversation neighbour. On the LoCoMo dev half this beats reciprocal-rank
fusion by about 9 points of R@5 (README, "Retrieval quality"). With stored word pieces the
best candidates are then re-scored by MaxSim (``late_interaction``; docs/benchmarks.md).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")
#: per leg, the memories it cannot judge
Abstentions = Mapping[str, Collection[str]]


@dataclass(frozen=True)
class RankingParams:
    fusion: str = "score"  # "score" (min-max normalised weighted sum) | "rrf"
    rrf_k: float = 60.0
    keyword_weight: float = 0.5
    vector_weight: float = 0.5
    #: how many candidates each leg contributes
    depth: int = 100
    #: share of the best neighbouring turn's fused score a memory inherits (0 disables)
    neighbour_weight: float = 0.5
    #: each leg's scores are scaled from this floor (None: from its weakest candidate) to its
    #: best: with a floor, a candidate keeps a relevance above zero unless it has no evidence
    keyword_floor: float | None = None
    vector_floor: float | None = None
    #: what a leg's weakest candidate keeps: it matched, so its relevance is not zero (min-max
    #: would give it exactly 0, and a hit with zero relevance is never shown). LoCoMo dev,
    #: tuned on conversations 0-2 and confirmed on 3-4: R@5/R@10 .644/.766 and .620/.714 with
    #: 0.01, .644/.765 and .620/.714 without (docs/benchmarks.md)
    weakest: float = 0.01
    #: leave out the evidence a leg cannot give across languages (``recall.languages``):
    #: bilingual set, use-multilingual, cross-language R@1 .414 → .900 (docs/benchmarks.md)
    language_aware: bool = True
    #: late interaction: the fused top ``late_depth`` re-scored by MaxSim over stored token
    #: vectors, mixed in with this weight (0 disables). LoCoMo dev, chosen on conversations
    #: 0-2 and confirmed on 3-4: R@5/R@10 .644/.766 → .666/.777 and .620/.714 → .646/.716.
    #: .45 since token vectors are stored as product codes (``token_store``): of .4/.45/.5/.6
    #: on 0-2, the one nearest the int8 rows' figures (.677/.788 → .678/.784; at .5
    #: .685/.778), confirmed on 3-4 (.669/.736 → .673/.733; at .5 .675/.728)
    late_weight: float = 0.45
    late_depth: int = 50
    #: after the re-scoring, each memory gains this share of its best neighbour's new score:
    #: the mix dilutes the first spread, and turns next to a re-scored one lose their lift.
    #: Chosen on 0-2 (0.1-0.5 tried), confirmed on 3-4: R@5/R@10 .666/.777 → .672/.783 and
    #: .646/.716 → .658/.731; single-hop .708/.833 → .748/.870 and .744/.810 → .758/.829
    late_neighbour_weight: float = 0.2
    #: a memory dated within the month or year the question names (``recall.dates``) gains
    #: this share of the best fused score. LoCoMo dev, chosen on 0-2 (.1/.3/.5/1 tried),
    #: confirmed on 3-4: R@5/R@10 .672/.782 -> .677/.788 and .658/.731 -> .669/.736, no
    #: category lower on either split (docs/benchmarks.md)
    date_weight: float = 0.5
    #: a question with a subject and a time relative to today ("what did we decide about
    #: the database yesterday?") is ranked by its subject, the time's words left out (an old
    #: note that says "yesterday" says it of another day); then the memories of those days
    #: (written then, or telling of them) go above the rest when the time is a day, weekend,
    #: week or month (where the user looks), and have their score × (1 + this) when it is
    #: loose ("recently", "last year", "4 years ago"). 0 turns all three off. LoCoMo dev,
    #: whose relative times are a turn's, not the asking day's, so it guards against harm
    #: (docs/benchmarks.md): loose × 2 holds on 0-2 (× 1.25 / 1.5 lose a top-5 answer, × 3 /
    #: 4 a top-10 one); with the precise ones above the rest, 3-4 gains (.7181 / .7779 →
    #: .7194 / .7792) and one answer of 0-2 goes from 4th to 9th ("what event did John
    #: volunteer at last weekend?", its answer in session 10 of 32, asked as of the 32nd)
    told_weight: float = 1.0
    #: a memory of a conversation gains this share of the best fused score, scaled by its
    #: conversation's BM25 over the question against the best conversation's (the whole
    #: conversation scored as one text: evidence the memory's own words lack). LoCoMo dev,
    #: chosen on 0-2 (.1/.2/.3/.35/.4/.5 tried), confirmed on 3-4 (docs/benchmarks.md)
    session_weight: float = 0.35
    #: a turn told by a speaker the question names (``recall.turns``) gains this share of
    #: the best score, after late interaction (before it, the re-scoring's mix halves it).
    #: LoCoMo dev, chosen on 0-2 (.1/.15/.2/.25/.3 tried), confirmed on 3-4: R@5/R@10
    #: .709/.813 -> .748/.824 and .681/.763 -> .695/.772; two R@10 categories lower by one
    #: and two questions, whose evidence is the other speaker's turn (docs/benchmarks.md)
    speaker_weight: float = 0.25
    #: a turn that only asks (``recall.turns.only_asks``) keeps (1 - this) of its score:
    #: its answer is another turn. LoCoMo dev, chosen on 0-2 (.05/.1/.15/.2/.3 tried),
    #: confirmed on 3-4: R@5/R@10 .748/.824 -> .758/.828 and .695/.772 -> .697/.774, no
    #: category lower (docs/benchmarks.md)
    asking_weight: float = 0.1
    #: what a note linked to or from one of the ``link_from`` best candidates gains, as a
    #: share of that candidate's score, beside its own (``recall.linked``; 0: links not
    #: followed). LoCoMo's vaults hold no links (its figures are as before); chosen on the
    #: linked set of ``benchmarks/links.py`` and the tune half of its ``--set obsidian``
    #: (docs/benchmarks.md)
    link_weight: float = 0.5
    link_from: int = 10
    #: a question of a kind (food, medicines, the user's work or home) lifts the facts that
    #: answer it whatever their words (``recall.by_kind``; False: off, for the ablation)
    kinds: bool = True
    #: a recalled fact brings along the newer fact close to it that tells of a change, and
    #: is marked or left out (``recall.related``; False: off, for the ablation)
    newer_related: bool = True


def late_interaction(
    fused: dict[str, float],
    maxsims: dict[str, float],
    p: RankingParams,
    neighbours: dict[str, list[str]] | None = None,
) -> dict[str, float]:
    """The fused scores with the top ``late_depth`` re-scored: each one's share of the best
    fused score, mixed with its MaxSim scaled over those candidates, at ``late_weight``,
    on the scale of the fused scores (what the lifecycle weights and thresholds expect),
    then spread again to ``neighbours`` at ``late_neighbour_weight``. Candidates without
    token vectors keep their fused score."""
    if not maxsims or p.late_weight <= 0:
        return fused
    best = max(fused.values(), default=0.0) or 1.0
    lo, hi = min(maxsims.values()), max(maxsims.values())
    spread = (hi - lo) or 1.0
    out = dict(fused)
    for path, similarity in maxsims.items():
        out[path] = best * ((1 - p.late_weight) * fused[path] / best + p.late_weight * (similarity - lo) / spread)
    return spread_to_neighbours(out, neighbours or {}, p.late_neighbour_weight)


def ranks(results: list[tuple[str, float]]) -> dict[str, int]:
    """1-based rank of each path in a leg's result list (first occurrence wins)."""
    out: dict[str, int] = {}
    for path, _ in results:
        if path not in out:
            out[path] = len(out) + 1
    return out


def rrf_scores(keyword: list[tuple[str, float]], vector: list[tuple[str, float]], p: RankingParams) -> dict[str, float]:
    fused: dict[str, float] = {}
    for weight, leg in ((p.keyword_weight, keyword), (p.vector_weight, vector)):
        for path, rank in ranks(leg).items():
            fused[path] = fused.get(path, 0.0) + weight / (p.rrf_k + rank)
    return fused


def _minmax(leg: list[tuple[str, float]], floor: float | None = None, weakest: float = 0.0) -> dict[str, float]:
    if not leg:
        return {}
    values = [s for _, s in leg]
    hi = max(values)
    lo = min(values) if floor is None else min(floor, hi)
    if hi == lo:  # one candidate, or all tied: each is as good as the best
        return {path: 1.0 for path, _ in leg}
    out: dict[str, float] = {}
    for path, s in leg:
        out.setdefault(path, weakest + (1.0 - weakest) * max(0.0, (s - lo) / (hi - lo)))
    return out


def score_fusion(
    keyword: list[tuple[str, float]],
    vector: list[tuple[str, float]],
    p: RankingParams,
    abstains: Abstentions | None = None,
) -> dict[str, float]:
    legs = (
        (p.keyword_weight, _minmax(keyword, p.keyword_floor, p.weakest), (abstains or {}).get("keyword", ())),
        (p.vector_weight, _minmax(vector, p.vector_floor, p.weakest), (abstains or {}).get("vector", ())),
    )
    fused: dict[str, float] = {}
    for weight, scaled, _ in legs:
        for path, s in scaled.items():
            fused[path] = fused.get(path, 0.0) + weight * s
    return _without_abstentions(fused, legs) if abstains else fused


def _without_abstentions(
    fused: dict[str, float], legs: Sequence[tuple[float, dict[str, float], Collection[str]]]
) -> dict[str, float]:
    """Re-weigh the memories some leg abstains on: their score is the weighted mean of the
    legs that can judge them, on the same scale as everyone else's; a memory no leg can
    judge is dropped."""
    total = sum(weight for weight, _, _ in legs)
    out: dict[str, float] = {}
    for path, score in fused.items():
        judging = [(weight, scaled) for weight, scaled, silent in legs if path not in silent]
        if len(judging) == len(legs):
            out[path] = score
        elif judging:
            counted = sum(weight for weight, _ in judging)
            out[path] = total * sum(weight * scaled.get(path, 0.0) for weight, scaled in judging) / counted
    return out


def fuse(
    keyword: list[tuple[str, float]],
    vector: list[tuple[str, float]],
    p: RankingParams,
    abstains: Abstentions | None = None,
) -> dict[str, float]:
    """One relevance per memory. ``abstains`` names, per leg ("keyword", "vector"), the
    memories that leg cannot judge (``recall.languages``): its score or its silence about
    them is left out rather than counted as evidence (score fusion only)."""
    if p.fusion == "score":
        return score_fusion(keyword, vector, p, abstains)
    return rrf_scores(keyword, vector, p)


def best_first(
    order: Sequence[tuple[str, float]],
    k: int,
    max_weight: float,
    weigh: Callable[[Sequence[tuple[str, float]]], list[tuple[float, T]]],
    batch: int = 10,
    same: Callable[[T], object] | None = None,
) -> list[tuple[float, T]]:
    """Weigh candidates ``(path, relevance)``, most relevant first, in batches, and stop
    once even ``max_weight`` could not lift the next relevance above the k-th weighed score.
    ``weigh`` returns ``(score, item)`` for the candidates it keeps; items ``same`` maps to
    one value count once (copies of one text are one hit). Exact (the top k equal those of
    weighing everything) as long as no weight exceeds ``max_weight``."""
    weighed: list[tuple[float, T]] = []
    for start in range(0, len(order), batch):
        part = order[start : start + batch]
        if len(weighed) >= k:
            best: dict[object, float] = {}
            for i, (score, item) in enumerate(weighed):
                one = i if same is None else same(item)
                best[one] = max(score, best.get(one, score))
            if len(best) >= k and part[0][1] * max_weight < sorted(best.values(), reverse=True)[k - 1]:
                break
        weighed += weigh(part)
    return weighed


def lift_above_the_rest(fused: dict[str, float], paths: Collection[str]) -> None:
    """Each of ``paths``, a candidate or not, gains the best score of ``fused``: above every
    other candidate, in their own order (the facts a kind of question is answered by)."""
    best = max(fused.values(), default=1.0)
    for path in paths:
        fused[path] = best + fused.get(path, 0.0)


def lift_dated(fused: dict[str, float], dated: Collection[str], weight: float) -> dict[str, float]:
    """Each memory of ``dated`` gains ``weight`` × the best fused score."""
    if weight <= 0 or not dated:
        return fused
    best = max(fused.values(), default=0.0)
    return {path: score + weight * best if path in dated else score for path, score in fused.items()}


def scale_dated(fused: dict[str, float], dated: Collection[str], weight: float) -> dict[str, float]:
    """Each memory of ``dated`` has its score × (1 + ``weight``): of the days asked, it
    comes first among those about as relevant, never above a far better answer."""
    if weight <= 0 or not dated:
        return fused
    return {path: score * (1 + weight) if path in dated else score for path, score in fused.items()}


def lift_sessions(
    fused: dict[str, float], session_of: Mapping[str, str | None], scores: Mapping[str, float], weight: float
) -> dict[str, float]:
    """Each memory of a conversation gains ``weight`` × the best fused score × its
    conversation's score as a share of the best conversation's: a question's words spread
    over several turns find the conversation that holds them all. Memories outside any
    conversation keep their score."""
    top = max(scores.values(), default=0.0)
    if weight <= 0 or top <= 0 or not fused:
        return fused
    best = max(fused.values())
    out = dict(fused)
    for path, score in fused.items():
        session = session_of.get(path)
        if session and scores.get(session, 0.0) > 0:
            out[path] = score + weight * best * scores[session] / top
    return out


#: the share of the speaker lift the turns of a named speaker other than the question's
#: teller gain (``recall.turns``). LoCoMo dev, chosen on 0-2 (0/.25/.5/.75/1 tried; .25
#: to .75 alike there), confirmed on 3-4: R@5/R@10 .769/.827 -> .772/.832 and .713/.774
#: -> .718/.778, no category lower (docs/benchmarks.md)
OTHER_NAMED_SHARE = 0.5


def lift_speakers(
    fused: dict[str, float], told_by_named: Mapping[str, str], weight: float, teller: str | None = None
) -> dict[str, float]:
    """Each turn told by a speaker the question names ({path: speaker}) gains ``weight`` ×
    the best score; one told by a named speaker other than the question's ``teller``,
    ``OTHER_NAMED_SHARE`` of that."""
    if weight <= 0 or not told_by_named or not fused:
        return fused
    best = max(fused.values())
    lift = {
        path: weight * best * (1.0 if teller is None or who == teller else OTHER_NAMED_SHARE)
        for path, who in told_by_named.items()
    }
    return {path: score + lift.get(path, 0.0) for path, score in fused.items()}


def lower_asking(fused: dict[str, float], asking: Collection[str], weight: float) -> dict[str, float]:
    """Each turn of ``asking`` keeps (1 - ``weight``) of its score."""
    if weight <= 0 or not asking:
        return fused
    return {path: score * (1 - weight) if path in asking else score for path, score in fused.items()}


def spread_to_neighbours(fused: dict[str, float], neighbours: dict[str, list[str]], weight: float) -> dict[str, float]:
    """Each memory gains ``weight`` × the best fused score of its conversation neighbours:
    an answer often sits in the turn right after the one that matches the question."""
    if weight <= 0 or not neighbours:
        return dict(fused)
    out = dict(fused)
    for path, around in neighbours.items():
        best = max((fused.get(n, 0.0) for n in around), default=0.0)
        if best > 0:
            out[path] = out.get(path, 0.0) + weight * best
    return out
