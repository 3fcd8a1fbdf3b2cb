"""Links as relations: the notes the best candidates link to, and those linking to them
(Obsidian's ``[[links]]``), brought into reach of a recall."""

from __future__ import annotations

from collections.abc import Sequence

from ..index.embedder import Part, part_cosine
from ..index.snapshot import Snapshot
from .candidates import Candidates
from .ranking import RankingParams


def follow_links(snap: Snapshot, found: Candidates, models: Sequence[Part], params: RankingParams) -> None:
    """The notes the best candidates link to, and those linking to them (Obsidian's
    ``[[links]]``), brought into reach: each keeps what it scored of its own and gains
    ``link_weight`` × its linker's score (so of the notes one hub links, the one that also
    answers comes first), and is judged for relevance like any candidate (its cosine to the question computed
    where the vector leg did not reach it): "what breed is Marta's dog?" finds the note on
    Marta, which links ``[[Rex]]``, the note that says "beagle"."""
    if params.link_weight <= 0 or not found.fused:
        return
    top = sorted(found.fused, key=lambda p: (-found.fused[p], p))[: params.link_from]
    linked = snap.linked(top)
    gains: dict[str, tuple[float, str]] = {}
    for path in top:
        for other in linked.get(path, []):
            gain = params.link_weight * found.fused[path] + found.fused.get(other, 0.0)
            if gain > gains.get(other, (0.0, ""))[0]:
                gains[other] = (gain, path)
    if not gains:
        return
    unjudged = [p for p in gains if p not in found.vec_score]
    if unjudged and found.question_vector is not None and models:
        for path, vector in snap.vectors_of(unjudged).items():
            found.vec_score[path] = part_cosine(found.question_vector, vector, models[0])
            found.judges.setdefault(path, models[0])
    for path, (gain, by) in gains.items():
        found.fused[path] = gain
        found.links[path] = by
