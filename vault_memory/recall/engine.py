"""Recall: from a question to the memories that matter, ranked.

``Engine`` is given the vault's ``index.store.Index`` (embedder, indexer, snapshots) and
is the one place a ``RecallResult`` is made: ``recall(query, snapshot)`` runs both legs on one consistent
snapshot, fuses them (``ranking``), drops what the lifecycle rules exclude
(``lifecycle``) and weighs the rest. How fresh the snapshot is was decided before, by the
backend (``backend.local``: a ``stat`` walk and a sync when something changed; the
daemon: its pending file events). The daemon keeps one ``Engine`` warm; a process
without a daemon builds one.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import difflib
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace

import numpy as np

from ..errors import EmbedderError
from ..index.catalog import Meta
from ..index.embedder import Part, UseEmbedder, embed_question, parts_of, token_model
from ..index.generations import check_compatible
from ..index.plan import SyncReport
from ..index.snapshot import Snapshot
from ..index.store import Index
from ..lang import ENGLISH, Question, detect, read_question
from ..lang import languages as installed_languages
from ..lifecycle import (
    Timeline,
    exclusion_reason,
    rules_for,
    timeline,
)
from ..vault.memory import Memory
from .candidates import Candidates
from .dates import NamedTime, TimesAsked, holds, is_precise, of_the_time, times_asked, without_time
from .languages import abstentions, judged, judges_of, languages_judged, model_judges
from .of_a_time import left_out_of_a_time, of_a_time
from .ranking import (
    RankingParams,
    fuse,
    lift_dated,
    lift_sessions,
    scale_dated,
    spread_to_neighbours,
)
from .relevance import relevance_judge
from .results import Hit, RecallQuery, RecallResult
from .select import Weighing, complete, select
from .stages import STAGES, Ranking
from .told import Told

#: vector-only candidates below this cosine similarity are noise, not memories to recall.
#: Measured (docs/benchmarks.md): on the bilingual set it keeps every answer and 9.7%
#: (MiniLM) / 6.1% (use-multilingual) of unrelated pairs; the floors that best separate the
#: two there (.38 / .27) change nothing on LoCoMo's tune split at .27 and lose at .38
MIN_SIMILARITY = 0.2
#: per model, a floor below ``MIN_SIMILARITY`` down to which its nearest candidates (this
#: many) are kept all the same. The multilingual model's cosines of answers and of unrelated
#: facts overlap from .04 to .39 (the relevance set's Spanish and Portuguese pairs, tune
#: half): at .2 it left out half of their answers (9 of 19 each shown). Its nearest one down
#: to .12 finds 14 and 12 of 19 for 18 more lines on 24 questions nothing answers (the
#: nearest two, 15 and 14 for 35; every candidate down to .12, 16 and 16 for 125)
NEAREST_BELOW_FLOOR: dict[str, tuple[float, int]] = {UseEmbedder.model_id: (0.12, 1)}


#: the longest question recall reads (the prompt hook sends 2,000 characters)
MAX_QUERY_CHARS = 8_000


def below_floor(hits: list[tuple[str, float]], kw_score: dict[str, float], model_id: str) -> list[tuple[str, float]]:
    """A model's nearest vector hits under ``MIN_SIMILARITY`` that are kept all the same,
    down to its own floor (``NEAREST_BELOW_FLOOR``), best first; none for most models."""
    floor, most = NEAREST_BELOW_FLOOR.get(model_id, (MIN_SIMILARITY, 0))
    near = sorted(((p, s) for p, s in hits if floor <= s < MIN_SIMILARITY and p not in kw_score), key=lambda h: -h[1])
    return near[:most]


class Engine:
    def __init__(self, index: Index, params: RankingParams | None = None):
        self.index = index
        self.vault = index.vault
        self.params = params or RankingParams()
        #: the vault's choice; it takes effect where the index keeps token vectors
        self.late_interaction = bool(self.vault.config["recall"]["late_interaction"]) and self.params.late_weight > 0
        self.lifecycle_rules = rules_for(self.vault.config)
        #: each memory's lifecycle timeline, by path; valid while the snapshot hands out the
        #: same Memory object (a snapshot carries unchanged memories over: ``next_snapshot``)
        self._timelines: dict[str, tuple[Memory, Timeline]] = {}
        #: each memory's language (``vault.language``), by path, kept like the timelines
        self._languages: dict[str, tuple[Memory, str | None]] = {}

    def next_snapshot(
        self, previous: Snapshot | None = None, commit: tuple[int, frozenset[str]] | None = None
    ) -> Snapshot:
        """A new snapshot for a long-lived reader (the daemon), keeping what ``previous``
        read where ``commit`` did not change it (``Snapshot.carry_over``); timelines of
        memories carried over are kept, the rest dropped."""
        snap = self.index.snapshot()
        snap.carry_over(previous, commit)
        kept = snap.reads()[0]
        self._timelines = {p: t for p, t in self._timelines.items() if kept.get(p) is t[0]}
        self._languages = {p: t for p, t in self._languages.items() if kept.get(p) is t[0]}
        return snap

    def timeline(self, path: str, memory: Memory) -> Timeline:
        """The lifecycle timeline of an indexed memory, worked out once per memory (and
        again when a confirmation journal confirms it since)."""
        known = self._timelines.get(path)
        if known is not None and (known[0] is memory or known[0] == memory):
            return known[1]
        tl = timeline(memory, self.lifecycle_rules)
        self._timelines[path] = (memory, tl)
        return tl

    def languages(self, snap: Snapshot, paths: Sequence[str]) -> dict[str, str | None]:
        """The language of each indexed memory among ``paths``, worked out once per memory."""
        out: dict[str, str | None] = {}
        for path, memory in snap.memories(list(paths)).items():
            known = self._languages.get(path)
            if known is None or known[0] is not memory:
                known = (memory, detect(memory.text))
                self._languages[path] = known
            out[path] = known[1]
        return out

    def recall(
        self,
        query: RecallQuery,
        snapshot: Snapshot,
        *,
        sync: SyncReport | None = None,
        warnings: Sequence[str] = (),
        started: float | None = None,
    ) -> RecallResult:
        """The one place a ``RecallResult`` is made: ``query`` ranked on ``snapshot``. The
        caller (a backend) decided how fresh the snapshot is: ``sync`` is what that took,
        ``warnings`` what it could not do, ``started`` (``time.perf_counter()``) when it began."""
        started = time.perf_counter() if started is None else started
        timings: dict[str, float] = {}
        unranked: list[str] = []
        notes: list[str] = []
        if len(query.text) > MAX_QUERY_CHARS:  # a pasted file as the question: 5.6 MB took 28 s
            query = replace(query, text=query.text[:MAX_QUERY_CHARS])
            unranked.append(f"the question was cut to its first {MAX_QUERY_CHARS:,} characters")
        hits = self.rank(snapshot, query, timings, unranked, notes)
        skipped = [f"skipped {p}" for p in sync.problems] if sync is not None else []
        if query.persona and query.persona not in snapshot.personas():
            known = snapshot.personas()
            close = difflib.get_close_matches(query.persona, sorted(known), n=1)
            # not refused: an agent's new persona has no memory yet; a typo is said
            skipped.append(
                f"no memory belongs to persona {query.persona!r}"
                + (f" (did you mean {close[0]!r}?)" if close else "")
                + "; only the memories every persona shares are recalled"
            )
        edited = snapshot.catalog.edited_forgotten()
        if edited:  # a merge brought an edit into the trash: the person's newest words are not recalled
            which = ", ".join(sorted(edited.values())[:3]) + (", …" if len(edited) > 3 else "")
            skipped.append(
                f"{len(edited)} forgotten memor{'ies were' if len(edited) != 1 else 'y was'} edited since ({which}): "
                "`vmem doctor` says how to bring it back"
            )
        unreadable = snapshot.catalog.unreadable()
        if unreadable:  # after the sync that found them, nothing else would ever say so
            files = f"{unreadable} memory file{'s' if unreadable != 1 else ''}"
            skipped.append(
                f"{files} could not be read and {'are' if unreadable != 1 else 'is'} left out: `vmem doctor` lists them"
            )
        return RecallResult(
            query,
            hits,
            (time.perf_counter() - started) * 1000,
            sync,
            [*skipped, *warnings, *unranked],
            timings=timings,
            notes=notes,
        )

    # ------------------------------------------------------------------ the legs

    def legs(
        self,
        snap: Snapshot,
        text: str,
        legs: tuple[str, ...],
        timings: dict[str, float] | None = None,
        warnings: list[str] | None = None,
        pieces: list[np.ndarray] | None = None,
        models: Sequence[Part] | None = None,
        asked_in: str | None = None,
        question: list[np.ndarray] | None = None,
    ) -> tuple[list[tuple[str, float]], list[list[tuple[str, float]]]]:
        """(keyword results, vector results of each of ``models``) as [(path, score)], best
        first, one entry per file; ``models`` are the parts of the vector asked (default: all
        of them, ``embedder.parts_of``), each scored by its own model's cosine, among the
        memories it judges for a question in ``asked_in`` (``_within``). When the model
        cannot run, the vector results are empty and ``warnings`` says so. Given ``pieces``,
        the question's token vectors are put in it, from the pass that embeds it; given
        ``question``, its vector.

        Sequential on purpose: the keyword leg takes well under a millisecond, and handing
        the embedding to a thread cost more in wake-ups and GIL hand-offs than it saved."""
        depth = self.params.depth
        models = parts_of(self.index.embedder) if models is None else models
        clock = time.perf_counter
        t0 = clock()
        keyword = snap.keyword.search(text, depth) if "keyword" in legs else []
        t1 = t2 = clock()
        vector: list[list[tuple[str, float]]] = [[] for _ in models]
        if "vector" in legs and snap.vectors is not None and snap.live_chunks and models:
            check_compatible(snap.meta, self.index.embedder.model_id)  # never compare vectors of two models
            try:
                query_vector, tokens = embed_question(self.index.embedder, text, models, pieces is not None)
                if pieces is not None:
                    pieces += tokens
                if question is not None:
                    question.append(query_vector)
            except EmbedderError as e:  # keep answering from the keyword leg, and say so
                if warnings is not None:
                    warnings.append(f"keyword-only recall: {e}")
            else:
                t2 = clock()
                within = self._within(snap, asked_in, models)
                vector = [snap.vector_hits(query_vector, depth, part, only) for part, only in zip(models, within)]
        if timings is not None:
            timings.update(keyword_ms=(t1 - t0) * 1000, embed_ms=(t2 - t1) * 1000, vector_ms=(clock() - t2) * 1000)
        return keyword, vector

    def rank(
        self,
        snap: Snapshot,
        query: RecallQuery,
        timings: dict[str, float] | None = None,
        warnings: list[str] | None = None,
        notes: list[str] | None = None,
    ) -> list[Hit]:
        """The hits for ``query`` on one snapshot. ``timings``, when given, receives where the
        time went (keyword_ms, embed_ms, vector_ms, candidates_ms, late_ms, turns_ms, links_ms,
        kinds_ms, select_ms, complete_ms; rank_ms: all of it); ``warnings`` what
        the ranking had to do without (the model); ``notes`` what the answer says of itself
        (a question about a time: what of it was left out)."""
        started = time.perf_counter()
        hits = self._rank(snap, query, timings, warnings, notes)
        if timings is not None:
            timings["rank_ms"] = (time.perf_counter() - started) * 1000
        return hits

    def _rank(
        self,
        snap: Snapshot,
        query: RecallQuery,
        timings: dict[str, float] | None,
        warnings: list[str] | None,
        notes: list[str] | None,
    ) -> list[Hit]:
        """The stages of a ranking, in order: the legs, the candidates they agree on
        (``_candidates``), the stages that weigh them (``recall.stages``: late interaction,
        turns, a time told, links, kinds), then the lifecycle weights and the selection
        (``select``) and what joins the hits after it (``complete``). A question about a time alone skips the legs (``_a_time``); one
        with a subject and a time is ranked by its subject, and the memories of that time
        lifted (``_time_asked``, ``_lift_of_the_time``)."""
        now = query.as_of or dt.datetime.now().astimezone()
        if now.tzinfo is None:
            now = now.astimezone()
        check_compatible(snap.meta, self.index.embedder.model_id)  # refuse a stale index, even keyword-only
        # the question's times are read from it as asked; the rest from its subject (the
        # same reading when it names no time relative to today)
        times = times_asked(read_question(query.text).times, now.date())
        if times.about is not None:  # "what did I do yesterday?": no words to rank by, the time is the subject
            return self._a_time(snap, query, times.about, now, notes)
        query, when = self._time_asked(query, times)
        question = read_question(query.text)  # the stages below take this reading, not the text
        asked_in = question.language if self.params.language_aware else None
        models = self._models(snap, asked_in)
        clock = _Clock(timings)
        ranking = self._found(snap, query, question, asked_in, models, when, clock, warnings)
        for stage in STAGES:
            if stage.on(self.params):
                with clock(f"{stage.name}_ms"):
                    stage.run(ranking)
        found, answering = ranking.found, ranking.answering
        superseded = snap.superseded_targets()
        relevant = relevance_judge(question, found, answering, parts_of(self.index.embedder))
        confirmed = self.vault.confirmations.latest()  # known true since the file says (the journals)
        weighing = self._weighing()
        with clock("select_ms"):
            hits, seen = select(snap, query, found, now, superseded, relevant, confirmed, weighing)
        with clock("complete_ms"):
            return complete(snap, query, hits, seen, now, superseded, confirmed, weighing)

    def _found(
        self,
        snap: Snapshot,
        query: RecallQuery,
        question: Question,
        asked_in: str | None,
        models: tuple[Part, ...],
        when: NamedTime | Told | None,
        clock: _Clock,
        warnings: list[str] | None,
    ) -> Ranking:
        """The candidates the legs agree on (``_candidates``), as the stages will take them
        (``recall.stages``), with the question's word pieces when late interaction can run."""
        legs = query.legs if models else tuple(leg for leg in query.legs if leg != "vector")
        pieces_of = token_model(self.index.embedder)[0]
        late = self._late_possible(snap, legs) and any(m.model_id == pieces_of for m in models)
        pieces: list[np.ndarray] | None = [] if late else None
        asked: list[np.ndarray] = []
        keyword, vector = self.legs(snap, query.text, legs, clock.timings, warnings, pieces, models, asked_in, asked)
        with clock("candidates_ms"):
            sessions = snap.session_scores(query.text) if "keyword" in legs and self.params.session_weight > 0 else {}
            found = self._candidates(snap, keyword, vector, asked_in, models, legs, when, sessions)
        found.question_vector = asked[0] if asked else None
        return Ranking(
            snap, query, question, self.params, models, asked_in, when, found,
            pieces[0] if pieces else None, pieces_of, self.languages, warnings,
        )  # fmt: skip

    def _time_asked(self, query: RecallQuery, times: TimesAsked) -> tuple[RecallQuery, NamedTime | Told | None]:
        """The time a question with a subject names (of its ``times``): a month, year or
        day by its name ("in October 2023"), or days relative to today ("yesterday",
        "recently"; unless ``told_weight`` turns that reading off), then the query ranked by
        its subject alone (``without_time``)."""
        if times.named is not None or self.params.told_weight <= 0:
            return query, times.named
        told = times.told
        return (query, None) if told is None else (replace(query, text=without_time(query.text, told)), told)

    def _a_time(
        self, snap: Snapshot, query: RecallQuery, about: Told, now: dt.datetime, notes: list[str] | None
    ) -> list[Hit]:
        """The hits for a question about a time: its memories (``_of_a_time``), weighed by
        the lifecycle like any others; what the lifecycle leaves out of them is said in
        ``notes``, since the question asked for that time and no other."""
        found = of_a_time(snap, about, self.params.depth)
        superseded = snap.superseded_targets()
        confirmed = self.vault.confirmations.latest()
        weighing = self._weighing()
        hits, seen = select(snap, query, found, now, superseded, lambda *_: True, confirmed, weighing)
        if notes is not None:
            unseen = [
                self.vault.confirmations.apply(m, confirmed) if confirmed else m
                for m in snap.memories(list(found.fused)).values()
                if m.id not in seen
            ]
            reasons = Counter(exclusion_reason(m, now, superseded, query.filter, self.lifecycle_rules) for m in unseen)
            notes += left_out_of_a_time(about, reasons, found=len(found.fused))
        return complete(snap, query, hits, seen, now, superseded, confirmed, weighing)

    def _models(self, snap: Snapshot, asked_in: str | None) -> tuple[Part, ...]:
        """The parts of the vault's vector to ask for a question in ``asked_in``: those whose
        model reads it, and of a joined vector only those that judge some memory the vault
        holds (an English question on a vault without Spanish: MiniLM alone)."""
        models = parts_of(self.index.embedder)
        if not self.params.language_aware:  # no rule to tell which model judges a pair: the first judges all
            return models[:1]
        models = tuple(part for part in models if model_judges(part.languages, asked_in))
        if len(models) > 1:
            held = {None, ENGLISH} | (set(installed_languages()) if snap.holds_foreign() else set())
            judged_by = languages_judged([m.languages for m in models], asked_in)
            models = tuple(m for m, languages in zip(models, judged_by) if languages & held)
        return models

    def _within(self, snap: Snapshot, asked_in: str | None, models: Sequence[Part]) -> list[frozenset[int] | None]:
        """For each of ``models``, the vector labels it alone may judge for a question in
        ``asked_in``, or None for any: an English question's multilingual half judges the
        Spanish memories only, and searched over all of them, the vault's English memories
        (closer to an English question) could fill its top ``depth`` before a Spanish answer."""
        if len(models) < 2 or not self.params.language_aware:
            return [None] * len(models)
        judged_by = languages_judged([m.languages for m in models], asked_in)
        return [snap.foreign_labels() if not languages & {None, ENGLISH} else None for languages in judged_by]

    def _late_possible(self, snap: Snapshot, legs: tuple[str, ...]) -> bool:
        """Late interaction runs when the vault asks for it, the vector leg runs, the
        generation keeps token vectors and the model gives them."""
        return (
            self.late_interaction
            and "vector" in legs
            and bool(snap.meta.get(Meta.TOKENS_DIM))
            and callable(getattr(self.index.embedder, "embed_with_tokens", None))
        )

    def _candidates(
        self,
        snap: Snapshot,
        keyword: list[tuple[str, float]],
        by_model: list[list[tuple[str, float]]],
        asked_in: str | None,
        models: Sequence[Part],
        legs: tuple[str, ...],
        when: NamedTime | Told | None = None,
        sessions: dict[str, float] | None = None,
    ) -> Candidates:
        """The legs' results as one fused list: vector noise dropped, the language rule
        applied (each pair scored by the first of ``models`` that knows both its languages),
        the score spread to conversation neighbours, the memories of the time the question
        names (``when``: a month, year or day, or days relative to today) lifted, and each
        memory lifted by how well its conversation as a whole answers (``sessions``:
        {conversation: score})."""
        kw_score = dict(keyword)
        reached = list(dict.fromkeys(path for hits in by_model for path, _ in hits))
        near = [below_floor(hits, kw_score, part.model_id) for hits, part in zip(by_model, models, strict=True)]
        by_model = [[(p, s) for p, s in hits if s >= MIN_SIMILARITY or p in kw_score] for hits in by_model]
        abstains, judges = self._language_rule(snap, keyword, by_model, asked_in, models, legs)
        if abstains is not None:
            vector = judged(by_model, models, judges)
        else:  # no language rule: the vector's one model judged every pair
            vector = by_model[0] if by_model else []
        fused = fuse(keyword, vector, self.params, abstains)
        neighbours = snap.neighbours(list(fused)) if fused and self.params.neighbour_weight > 0 else {}
        fused = spread_to_neighbours(fused, neighbours, self.params.neighbour_weight)
        dated: dict[str, str] = {}
        fused = self._lift(snap, fused, when, sessions or {}, dated)
        vec_score = dict(vector)
        if any(near):
            self._add_below_floor(snap, fused, vec_score, judges, near, models, asked_in, abstains is not None)
        return Candidates(
            keyword, vector, kw_score, vec_score, abstains, fused, neighbours, judges, dated=dated, reached=reached
        )

    def _add_below_floor(
        self,
        snap: Snapshot,
        fused: dict[str, float],
        vec_score: dict[str, float],
        judges: dict[str, Part],
        near: list[list[tuple[str, float]]],
        models: Sequence[Part],
        asked_in: str | None,
        by_language: bool,
    ) -> None:
        """Each model's nearest below the noise floor (``below_floor``), put after every
        other candidate in its cosine's order (the others' scores and order as they were: a
        lower candidate in the fusion would rescale them), when that model judges the pair."""
        paths = [p for hits in near for p, _ in hits if p not in fused]
        part_of = judges_of(self.languages(snap, paths), models, asked_in) if by_language else {}
        low = min(fused.values(), default=1.0)
        for i, (hits, part) in enumerate(zip(near, models, strict=True)):
            for path, cosine in hits:
                judged_by = part_of.get(path) if by_language else (part if i == 0 else None)
                if path in fused or judged_by is not part:
                    continue
                low /= 2
                fused[path], vec_score[path], judges[path] = low, cosine, part

    def _lift(
        self,
        snap: Snapshot,
        fused: dict[str, float],
        when: NamedTime | Told | None,
        sessions: dict[str, float],
        dated: dict[str, str],
    ) -> dict[str, float]:
        """What lifts a candidate beyond its own words: a date within the time the question
        names (``when``: a month, year or day), or being of the days it names relative to
        today (each such memory put in ``dated`` with why, for ``--explain`` and the lift
        above the rest after late interaction), and its conversation's score as one text
        (``sessions``)."""
        if not fused or (when is None and not sessions):
            return fused
        memories = snap.memories(list(fused))
        if when is not None:
            fused = self._lift_of_the_time(memories, fused, when, dated)
        if sessions:
            session_of = {p: m.conversation for p, m in memories.items() if m is not None}
            fused = lift_sessions(fused, session_of, sessions, self.params.session_weight)
        return fused

    def _lift_of_the_time(
        self, memories: dict[str, Memory], fused: dict[str, float], when: NamedTime | Told, dated: dict[str, str]
    ) -> dict[str, float]:
        """The candidates of the time the question names lifted: dated within a month, year
        or day named (``date_weight``), or of days named relative to today, put in ``dated``
        with why; a loose time's ("recently") have their score × (1 + ``told_weight``), a
        precise one's go above the rest after late interaction (``_rank``)."""
        if isinstance(when, NamedTime):
            held = {p for p, m in memories.items() if m is not None and holds(when, m.written_at)}
            return lift_dated(fused, held, self.params.date_weight)
        for path, memory in memories.items():
            if memory is not None and (said := of_the_time(when, memory.written_at, memory.text)):
                dated[path] = said
        return fused if is_precise(when) else scale_dated(fused, dated, self.params.told_weight)

    def _language_rule(
        self,
        snap: Snapshot,
        keyword: list[tuple[str, float]],
        by_model: list[list[tuple[str, float]]],
        asked_in: str | None,
        models: Sequence[Part],
        legs: tuple[str, ...],
    ) -> tuple[dict[str, set[str]] | None, dict[str, Part]]:
        """(what each leg abstains on, the model that judges each candidate) from the
        languages of the question and of every candidate (``recall.languages``); (None, {})
        where nothing tells languages apart."""
        if not self.params.language_aware or (asked_in is None and all(m.languages is None for m in models)):
            return None, {}
        found = dict.fromkeys([p for p, _ in keyword] + [p for hits in by_model for p, _ in hits])
        written_in = self.languages(snap, list(found))
        known = [m.languages for m in models]
        return abstentions(asked_in, written_in, dict(keyword), known, legs), judges_of(written_in, models, asked_in)

    def _weighing(self) -> Weighing:
        return Weighing(
            self.lifecycle_rules,
            self.timeline,
            self.vault.confirmations,
            self.params.depth,
            parts_of(self.index.embedder),
            self.params.newer_related,
        )


class _Clock:
    """Each stage's time, in ms, into ``timings`` when the caller asked for them (``rank``):
    what a stage costs is read where it runs, per recall (``recall --json``)."""

    def __init__(self, timings: dict[str, float] | None):
        self.timings = timings

    @contextlib.contextmanager
    def __call__(self, stage: str) -> Iterator[None]:
        if self.timings is None:
            yield
            return
        started = time.perf_counter()
        try:
            yield
        finally:
            self.timings[stage] = self.timings.get(stage, 0.0) + (time.perf_counter() - started) * 1000
