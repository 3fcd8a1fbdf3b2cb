"""Fusing the keyword and vector legs into one ranking (pure functions).

The default is normalised-score fusion: each leg's scores are min-max scaled over its own
candidates and the two are averaged, so a leg that is sure of one memory (a large score
gap) counts for more than rank alone would say. Then every memory inherits half the fused
score of its best conversation neighbour. On the LoCoMo dev half this beats reciprocal-rank
fusion by about 9 points of R@5 (README, "Retrieval quality").
"""

from __future__ import annotations

from dataclasses import dataclass


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


def _minmax(leg: list[tuple[str, float]]) -> dict[str, float]:
    if not leg:
        return {}
    values = [s for _, s in leg]
    lo, hi = min(values), max(values)
    if hi == lo:  # one candidate, or all tied: each is as good as the best
        return {path: 1.0 for path, _ in leg}
    out: dict[str, float] = {}
    for path, s in leg:
        out.setdefault(path, (s - lo) / (hi - lo))
    return out


def score_fusion(
    keyword: list[tuple[str, float]], vector: list[tuple[str, float]], p: RankingParams
) -> dict[str, float]:
    fused: dict[str, float] = {}
    for weight, leg in ((p.keyword_weight, keyword), (p.vector_weight, vector)):
        for path, s in _minmax(leg).items():
            fused[path] = fused.get(path, 0.0) + weight * s
    return fused


def fuse(keyword: list[tuple[str, float]], vector: list[tuple[str, float]], p: RankingParams) -> dict[str, float]:
    if p.fusion == "score":
        return score_fusion(keyword, vector, p)
    return rrf_scores(keyword, vector, p)


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
