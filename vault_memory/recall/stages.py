"""The stages that weigh a question's candidates after the legs found them, in order.

Each stage reads what one ranking shares (``Ranking``: the snapshot, the query and its one
reading, the models, the candidates), changes the candidates' scores or says which answer
the question, and is timed under its own name (``<name>_ms`` in ``recall --json``'s
timings). A stage whose weight is 0 is off (``Stage.on``): ``benchmarks/ablation.py`` turns
each off in turn and prints what it adds (docs/benchmarks.md). The engine runs the legs,
then these, then the selection (``recall.select``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ..errors import IndexDamaged
from ..index.embedder import Part
from ..index.snapshot import Snapshot
from ..lang import Question
from .by_kind import by_kind
from .candidates import Candidates
from .dates import NamedTime, is_precise
from .linked import follow_links
from .ranking import RankingParams, late_interaction, lift_above_the_rest, lift_speakers, lower_asking
from .results import RecallQuery
from .told import Told
from .turns import read_turns

#: the question's word pieces MaxSim reads, at most: every LoCoMo question has fewer (its
#: longest 126); an 8,000-character query's 2,000 pieces took 4 s
QUESTION_PIECES = 128


@dataclass
class Ranking:
    """What the stages of one ranking share, and what they hand on to the selection."""

    snap: Snapshot
    query: RecallQuery
    question: Question
    params: RankingParams
    #: the vector's parts that judge this question (``embedder.parts_of``), and its language
    models: tuple[Part, ...]
    asked_in: str | None
    #: the time the question names, when it has a subject besides (``recall.dates``)
    when: NamedTime | Told | None
    found: Candidates
    #: the question's word pieces, when late interaction can run; the model that made them
    pieces: np.ndarray | None
    pieces_of: str | None
    #: each memory's language, worked out once per memory (``Engine.languages``)
    languages: Callable[[Snapshot, Sequence[str]], dict[str, str | None]]
    warnings: list[str] | None = None
    #: the facts that answer the question by its kind (the ``kinds`` stage)
    answering: set[str] = field(default_factory=set)


class Stage(NamedTuple):
    """One stage: its name (and timing), whether the weights turn it on, and what it does."""

    name: str
    on: Callable[[RankingParams], bool]
    run: Callable[[Ranking], None]


def late(r: Ranking) -> None:
    """Late interaction: the best candidates re-scored by MaxSim of the question's word
    pieces against each memory's (``found.maxsims``); damaged token rows: without, said."""
    found, params = r.found, r.params
    if r.pieces is None:
        return
    top = sorted(found.fused, key=lambda path: (-found.fused[path], path))[: params.late_depth]
    if found.abstains is not None:  # the language rule holds here too: no pieces across languages
        abstains = found.abstains["vector"]

        def comparable(path: str) -> bool:  # a neighbour no model was asked about: its pieces may be
            judge = found.judges.get(path)
            return path not in abstains and (judge is None or judge.model_id == r.pieces_of)

        top = [path for path in top if comparable(path)]
    try:
        found.maxsims = r.snap.maxsims(r.pieces[:QUESTION_PIECES], top)
    except IndexDamaged as e:  # damaged token files: rank without them, and say so
        found.maxsims = {}
        if r.warnings is not None:
            r.warnings.append(f"ranked without late interaction: {e}")
    found.fused = late_interaction(found.fused, found.maxsims, params, found.neighbours)


def turns(r: Ranking) -> None:
    """What a conversation's turn is weighs in (``recall.turns``): the turns of a speaker
    the question names lifted, a turn that only asks lowered (``found.turns`` says which)."""
    p, found, snap = r.params, r.found, r.snap
    if not found.fused or not snap.holds_conversations():
        return
    texts = {path: m.text for path, m in snap.memories(list(found.fused)).items() if m.conversation}
    read = read_turns(texts, r.question, speakers=p.speaker_weight > 0, asking=p.asking_weight > 0)
    lifted = lift_speakers(found.fused, read.told_by_named, p.speaker_weight, read.teller)
    found.fused = lower_asking(lifted, read.asking, p.asking_weight)
    found.turns = read.explain()


def told(r: Ranking) -> None:
    """The memories of a precise time the question tells ("yesterday") above the rest:
    where the user looks (their lift by a loose time was the candidates')."""
    if isinstance(r.when, Told) and is_precise(r.when):
        lift_above_the_rest(r.found.fused, r.found.dated)


def links(r: Ranking) -> None:
    """The notes the best candidates link to, and those linking to them (``recall.linked``)."""
    follow_links(r.snap, r.found, r.models, r.params)


def kinds(r: Ranking) -> None:
    """The facts that answer a question by its kind, in any words (``recall.by_kind``)."""
    r.answering = by_kind(r.snap, r.question, r.found, r.models, r.asked_in, r.params, r.languages)


#: the stages, in the order they run
STAGES: tuple[Stage, ...] = (
    Stage("late", lambda p: p.late_weight > 0, late),
    Stage("turns", lambda p: p.speaker_weight > 0 or p.asking_weight > 0, turns),
    Stage("told", lambda p: p.told_weight > 0, told),
    Stage("links", lambda p: p.link_weight > 0, links),
    Stage("kinds", lambda p: p.kinds, kinds),
)
