"""Lifecycle rules: which memories may reach the prompt, and how much they weigh.

Pure functions of (memory, now, rules); no I/O. ``docs/lifecycle.md`` explains each rule
and where its numbers come from. The states, in the order they are checked:

    archived      the file lives under archive/ (moved there by `vmem gc`)
    superseded    another present memory `supersedes` it
    expired       past its `expires`, or past its type's time-to-live
    stale         unconfirmed for too long: never injected automatically
    low_priority  injected only when highly relevant to the query
    aging         still injected, weighs a little less
    active
"""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Iterable

from ..vault.memory import Memory, as_datetime

STATES = ("active", "aging", "low_priority", "stale", "expired", "superseded", "archived")
ARCHIVE_DIR = "archive"

DEFAULT_PROFILE_KEYS = (
    "nombre", "name", "apellido", "surname", "ubicacion", "location", "ciudad", "city", "trabajo", "job", "work",
    "familia", "family", "pareja", "partner", "idioma", "language", "pronombres", "pronouns", "cumpleanos", "birthday",
    "alergias", "allergies", "health", "salud",
)
DEFAULT_SINGLE_VALUED = ("nombre", "name", "ubicacion", "location", "ciudad", "city", "trabajo", "job", "pareja", "partner",
                         "cumpleanos", "birthday", "pronombres", "pronouns")


@dataclass(frozen=True)
class Rules:
    """The lifecycle settings (``[lifecycle]`` in vmem.toml)."""

    #: default time-to-live by type when `expires` is absent; 0 means never
    ttl_days: dict[str, int] = field(default_factory=lambda: {"episode": 30, "summary": 90, "fact": 0, "note": 0})
    #: days since last confirmation at which a medium-confidence memory becomes aging / low priority / stale
    aging_days: int = 60
    low_priority_days: int = 90
    stale_days: int = 120
    #: those thresholds are multiplied by this factor per confidence (and source)
    decay_factor: dict[str, float] = field(default_factory=lambda: {"low": 0.25, "medium": 1.0, "high": 1.5, "explicit_high": 2.0})
    #: keys that describe who the user is: they neither expire by type nor decay
    profile_keys: tuple[str, ...] = DEFAULT_PROFILE_KEYS
    #: keys that hold one value: a new value supersedes the old one on `remember`
    single_valued_keys: tuple[str, ...] = DEFAULT_SINGLE_VALUED
    #: types that never decay (hand-written notes are documents, not claims)
    no_decay_types: tuple[str, ...] = ("note",)
    #: persona memories kept active per persona; the rest are archived by importance, then age
    persona_cap: int = 20
    #: a low-priority memory is recalled only if its relevance is at least this share of the best candidate's
    low_priority_min_relevance: float = 0.8
    #: cosine similarity at or above which `remember` may treat a new text as the same memory
    #: (with no new content word: see is_restatement; benchmarks/dedup_threshold.py)
    dedup_similarity: float = 0.85
    #: weight of each state in recall
    state_weight: dict[str, float] = field(default_factory=lambda: {"active": 1.0, "aging": 0.9, "low_priority": 0.75})

    @classmethod
    def from_config(cls, section: dict[str, Any] | None) -> "Rules":
        if not section:
            return cls()
        base = cls()
        values: dict[str, Any] = {}
        for name in cls.__dataclass_fields__:
            if name in section:
                default = getattr(base, name)
                value = section[name]
                if isinstance(default, dict):
                    value = {**default, **value}
                elif isinstance(default, tuple):
                    value = tuple(normalize_key(v) for v in value)
                values[name] = value
        return cls(**values)


def rules_for(config) -> Rules:
    """The lifecycle rules a vault's ``vmem.toml`` sets (``[lifecycle]``), over the defaults."""
    return Rules.from_config(config.data.get("lifecycle"))


# ---------------------------------------------------------------- small helpers


@lru_cache(maxsize=4096)  # called for every recall candidate; a vault has few distinct keys
def normalize_key(key: str | None) -> str:
    """``Ubicación`` → ``ubicacion``; ``proyecto actual`` → ``proyecto_actual``."""
    if not key:
        return ""
    folded = unicodedata.normalize("NFKD", key).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "_", folded.lower()).strip("_")


def normalize_text(text: str) -> str:
    """For exact-duplicate checks: case, accents, punctuation and spacing do not count."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    return " ".join(re.findall(r"[a-z0-9]+", folded))


def is_archived(memory: Memory) -> bool:
    return memory.path is not None and memory.path.parts[:1] == (ARCHIVE_DIR,)


def is_profile(memory: Memory, rules: Rules) -> bool:
    return normalize_key(memory.key) in rules.profile_keys


def reference_time(memory: Memory) -> dt.datetime | None:
    """The last time the memory was known true: confirmed, else updated, else created."""
    for value in (memory.last_confirmed, memory.updated, memory.created):
        if value is not None:
            return as_datetime(value)
    return None


def age_days(memory: Memory, now: dt.datetime) -> float | None:
    when = reference_time(memory)
    return None if when is None else (now - when).total_seconds() / 86400


# ---------------------------------------------------------------- expiry


def expires_at(memory: Memory, rules: Rules = Rules()) -> dt.datetime | None:
    """When the memory stops being valid. An explicit `expires` always wins (a date lasts
    the whole day); otherwise the type's TTL from `created`, except for pinned memories and
    profile facts, which never expire by default."""
    if memory.expires is not None:
        if isinstance(memory.expires, dt.datetime):
            return as_datetime(memory.expires)
        end = dt.datetime.combine(memory.expires + dt.timedelta(days=1), dt.time())
        return end.astimezone()
    ttl = rules.ttl_days.get(memory.type, 0)
    if not ttl or memory.pinned or is_profile(memory, rules) or memory.created is None:
        return None
    return as_datetime(memory.created) + dt.timedelta(days=ttl)


def is_expired(memory: Memory, now: dt.datetime, rules: Rules = Rules()) -> bool:
    at = expires_at(memory, rules)
    return at is not None and now >= at


# ---------------------------------------------------------------- decay


def decay_thresholds(memory: Memory, rules: Rules = Rules()) -> tuple[float, float, float] | None:
    """(aging, low priority, stale) in days for this memory, or None if it never decays."""
    if memory.pinned or is_profile(memory, rules) or memory.type in rules.no_decay_types:
        return None
    level = memory.confidence
    if level == "high" and memory.source == "explicit":
        level = "explicit_high"
    factor = rules.decay_factor.get(level, 1.0)
    if factor <= 0:
        return None
    return rules.aging_days * factor, rules.low_priority_days * factor, rules.stale_days * factor


def decay_state(memory: Memory, now: dt.datetime, rules: Rules = Rules()) -> str:
    """``active``, ``aging``, ``low_priority`` or ``stale``, by days since last confirmation."""
    return timeline(memory, rules).decay_state(now)


@dataclass(frozen=True)
class Timeline:
    """What a memory's state at any moment depends on, worked out once from the memory and
    the rules. Recall checks dozens of candidates per query; with a timeline kept per
    memory (see ``store.Snapshot.timeline``) each check is a few comparisons."""

    archived: bool
    stem: str | None  # the file name without .md: a wikilink `supersedes` may name it
    created: dt.datetime | None
    expires_at: dt.datetime | None
    reference: dt.datetime | None  # last known true (see reference_time)
    limits: tuple[float, float, float] | None  # decay thresholds in days, None: never decays

    def age_days(self, now: dt.datetime) -> float | None:
        return None if self.reference is None else (now - self.reference).total_seconds() / 86400

    def is_expired(self, now: dt.datetime) -> bool:
        return self.expires_at is not None and now >= self.expires_at

    def decay_state(self, now: dt.datetime) -> str:
        age = self.age_days(now)
        if self.limits is None or age is None:
            return "active"
        aging, low, stale = self.limits
        if age >= stale:
            return "stale"
        if age >= low:
            return "low_priority"
        if age >= aging:
            return "aging"
        return "active"


def timeline(memory: Memory, rules: Rules = Rules()) -> Timeline:
    return Timeline(
        archived=is_archived(memory),
        stem=memory.path.stem if memory.path is not None else None,
        created=as_datetime(memory.created) if memory.created is not None else None,
        expires_at=expires_at(memory, rules),
        reference=reference_time(memory),
        limits=decay_thresholds(memory, rules),
    )


def memory_state(memory: Memory, now: dt.datetime, superseded: set[str], rules: Rules = Rules(),
                 tl: Timeline | None = None) -> str:
    """The one state that describes the memory now (see the module docstring)."""
    tl = tl or timeline(memory, rules)
    if tl.archived:
        return "archived"
    if memory.id in superseded or (tl.stem is not None and tl.stem in superseded):
        return "superseded"
    if tl.is_expired(now):
        return "expired"
    return tl.decay_state(now)


# ---------------------------------------------------------------- supersession


def superseded_ids(memories: Iterable[Memory]) -> set[str]:
    """Ids (and file stems, for wikilinks) that some other present memory replaces."""
    out: set[str] = set()
    for m in memories:
        for ref in m.supersedes:
            if ref != m.id:
                out.add(ref)
    return out


def supersession_chain(memory_id: str, memories: list[Memory]) -> list[Memory]:
    """The chain through ``memory_id``, oldest first: what it replaced, and what replaced it."""
    by_ref: dict[str, Memory] = {}
    for m in memories:
        by_ref[m.id] = m
        if m.path is not None:
            by_ref.setdefault(m.path.stem, m)
    successors: dict[str, list[Memory]] = {}
    for m in memories:
        for ref in m.supersedes:
            target = by_ref.get(ref)
            if target is not None and target.id != m.id:
                successors.setdefault(target.id, []).append(m)
    start = by_ref.get(memory_id)
    if start is None:
        return []
    chain, seen = [start], {start.id}
    current = start
    while current.supersedes:  # walk back to the oldest
        previous = next((by_ref[r] for r in current.supersedes if r in by_ref and by_ref[r].id not in seen), None)
        if previous is None:
            break
        chain.insert(0, previous)
        seen.add(previous.id)
        current = previous
    current = start
    while successors.get(current.id):  # and forward to the head
        nxt = next((m for m in sorted(successors[current.id], key=lambda m: m.created or dt.datetime.min.replace(tzinfo=dt.timezone.utc)) if m.id not in seen), None)
        if nxt is None:
            break
        chain.append(nxt)
        seen.add(nxt.id)
        current = nxt
    return chain


def supersession_problems(memories: list[Memory]) -> list[tuple[Memory, str, str]]:
    """(memory, kind, message) for ``supersedes`` that point nowhere or form a cycle."""
    by_id = {m.id: m for m in memories}
    by_stem = {m.path.stem: m for m in memories if m.path is not None}
    problems: list[tuple[Memory, str, str]] = []
    for m in memories:
        for ref in m.supersedes:
            if ref == m.id:
                problems.append((m, "supersedes_cycle", "supersedes itself"))
            elif ref not in by_id and ref not in by_stem:
                problems.append((m, "dangling_supersedes", f"supersedes {ref!r}, which is not in the vault"))
    state: dict[str, int] = {}
    reported: set[frozenset[str]] = set()

    def visit(mid: str, path: list[str]) -> None:
        state[mid] = 1
        path.append(mid)
        for ref in by_id[mid].supersedes:
            target = by_id.get(ref) or by_stem.get(ref)
            if target is None or target.id == mid:
                continue
            if state.get(target.id) == 1:
                cycle = path[path.index(target.id):]
                key = frozenset(cycle)
                if key not in reported:
                    reported.add(key)
                    chain = " → ".join([*cycle, target.id])
                    problems.append((by_id[cycle[0]], "supersedes_cycle", f"supersedes cycle: {chain}"))
            elif state.get(target.id) is None:
                visit(target.id, path)
        path.pop()
        state[mid] = 2

    for mid in sorted(by_id):
        if mid not in state:
            visit(mid, [])
    return problems


# ---------------------------------------------------------------- restatements


def is_restatement(new_terms: frozenset[str], old_terms: frozenset[str], similarity: float, rules: Rules = Rules()) -> bool:
    """A new text restates an existing memory when their meanings are close (cosine at or
    above ``dedup_similarity``) *and* it adds no content word of its own. Similarity alone
    cannot tell "backend engineer" from "frontend engineer" (0.98 with the bundled model);
    the word check catches what changed, so a new fact is never swallowed."""
    return similarity >= rules.dedup_similarity and bool(new_terms) and new_terms <= old_terms


# ---------------------------------------------------------------- importance and personas

_IMPORTANCE_CUES: tuple[tuple[float, tuple[str, ...]], ...] = (
    (0.8, ("name", "nombre", "llamo", "family", "familia", "wife", "husband", "esposa", "esposo", "hijo", "hija",
           "son", "daughter", "mother", "father", "madre", "padre", "hermano", "hermana", "brother", "sister",
           "pet", "mascota", "dog", "perro", "cat", "gato", "lives in", "vive en", "vivo en", "birthday", "cumpleanos",
           "allergic", "alergico", "alergica", "works at", "trabaja en", "trabajo en")),
    (0.7, ("struggled", "struggles", "difficulty", "hard time", "mistake", "error", "strength", "good at", "strong",
           "le cuesta", "dificultad", "dificil", "le va bien", "aprendio", "learned", "confuses", "confunde")),
    (0.6, ("likes", "loves", "enjoys", "interested", "favorite", "favourite", "prefers", "hates", "dislikes",
           "le gusta", "le encanta", "prefiere", "odia", "favorito", "favorita", "disfruta")),
)


def score_importance(text: str, key: str | None = None) -> float:
    """Importance 0–1 from content cues (English and Spanish): personal details 0.8,
    learning observations 0.7, preferences 0.6, anything else 0.4."""
    haystack = " " + normalize_text(f"{key or ''} {text}") + " "
    if normalize_key(key) in DEFAULT_PROFILE_KEYS:
        return 0.8
    for score, cues in _IMPORTANCE_CUES:
        if any(f" {normalize_text(cue)} " in haystack for cue in cues):
            return score
    return 0.4


def persona_overflow(memories: Iterable[Memory], cap: int, now: dt.datetime, superseded: set[str],
                     rules: Rules = Rules()) -> list[Memory]:
    """Persona memories beyond each persona's cap: lowest importance first, then oldest.
    Only memories that could still be recalled count towards the cap."""
    by_persona: dict[str, list[Memory]] = {}
    for m in memories:
        if m.persona and memory_state(m, now, superseded, rules) not in ("archived", "superseded", "expired", "stale"):
            by_persona.setdefault(m.persona, []).append(m)
    overflow: list[Memory] = []
    for items in by_persona.values():
        if len(items) <= cap:
            continue
        epoch = dt.datetime.min.replace(tzinfo=dt.timezone.utc)
        keep_order = sorted(
            items,
            key=lambda m: (m.pinned, m.importance if m.importance is not None else score_importance(m.text, m.key),
                           reference_time(m) or epoch),
            reverse=True,
        )
        overflow += keep_order[cap:]
    return overflow


# ---------------------------------------------------------------- recall eligibility and weight

CONFIDENCE_WEIGHT = {"high": 1.0, "medium": 0.92, "low": 0.75}
#: recency: a memory loses at most this fraction of its score as it ages
RECENCY_MAX_PENALTY = 0.15
#: age (days) at which half of that penalty applies
RECENCY_HALF_DAYS = 180.0


def eligible(memory: Memory, now: dt.datetime, *, superseded: set[str], persona: str | None,
             types: set[str] | None = None, include_expired: bool = False, include_archived: bool = False,
             include_stale: bool = False, rules: Rules = Rules(), tl: Timeline | None = None) -> str | None:
    """Why ``memory`` must stay out of the block, or None if it may be recalled."""
    if memory.persona and memory.persona != persona:
        return "other persona"
    if types and memory.type not in types:
        return "type"
    tl = tl or timeline(memory, rules)
    if tl.created is not None and tl.created > now + dt.timedelta(minutes=1):
        return "created after --as-of"
    state = memory_state(memory, now, superseded, rules, tl)
    if state == "superseded":
        return "superseded"
    if state == "archived" and not include_archived:
        return "archived"
    # memory_state stops at the first state that applies: an archived memory may also be
    # expired, an expired one also stale
    if (state == "expired" or (state == "archived" and tl.is_expired(now))) and not include_expired:
        return "expired"
    stale = state == "stale" or (state in ("archived", "expired") and tl.decay_state(now) == "stale")
    if stale and not include_stale:
        return "stale"
    return None


def recency_weight(memory: Memory, now: dt.datetime, tl: Timeline | None = None) -> float:
    """1.0 for a memory confirmed now, sliding smoothly towards 1 - RECENCY_MAX_PENALTY."""
    age = tl.age_days(now) if tl is not None else age_days(memory, now)
    if age is None or memory.pinned:
        return 1.0
    age = max(0.0, age)
    return 1.0 - RECENCY_MAX_PENALTY * age / (age + RECENCY_HALF_DAYS)


#: the largest weight lifecycle_weight can give (importance 1 and pinned): lets recall stop early, exactly
MAX_LIFECYCLE_WEIGHT = 1.1 * 1.1


def lifecycle_weight(memory: Memory, now: dt.datetime, rules: Rules = Rules(),
                     tl: Timeline | None = None) -> tuple[float, dict[str, Any]]:
    """Multiplier on a memory's relevance, and its parts (shown by ``--explain``)."""
    tl = tl or timeline(memory, rules)
    state = tl.decay_state(now)
    importance = memory.importance if memory.importance is not None else 0.5
    parts: dict[str, Any] = {
        "confidence": CONFIDENCE_WEIGHT.get(memory.confidence, 0.9),
        "recency": recency_weight(memory, now, tl),
        "importance": 0.9 + 0.2 * importance,
        "decay": rules.state_weight.get(state, 1.0),
        "pinned": 1.1 if memory.pinned else 1.0,
    }
    weight = 1.0
    for value in parts.values():
        weight *= value
    parts["state"] = state
    return weight, parts
