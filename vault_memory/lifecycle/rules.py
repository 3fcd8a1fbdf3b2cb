"""The lifecycle settings (``[lifecycle]`` in vmem.toml) and the small facts about a memory
that every rule uses: its normalised key, whether it is archived or a profile fact, and
when it was last known true. Pure functions; no I/O."""

from __future__ import annotations

import datetime as dt
import functools
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from ..config import SETTINGS, Config
from ..lang import fold_accents, key_concept, key_names, value_wrapping
from ..vault.memory import Memory
from ..vault.sameness import normalize_key
from ..vault.slots import family_role, subject_key
from ..vault.values import as_datetime

ARCHIVE_DIR = "archive"
_DEFAULTS = {key: s.default for key, s in SETTINGS["lifecycle"].items()}


def _default(name: str):
    value = _DEFAULTS[name]
    if isinstance(value, dict):
        return field(default_factory=lambda: dict(value))
    if isinstance(value, list):
        return field(default=tuple(value))
    return field(default=value)


@dataclass(frozen=True)
class Rules:
    """The lifecycle settings; every default comes from ``config.SETTINGS["lifecycle"]``,
    where each is documented."""

    ttl_days: dict[str, int] = _default("ttl_days")
    aging_days: float = _default("aging_days")
    low_priority_days: float = _default("low_priority_days")
    stale_days: float = _default("stale_days")
    decay_factor: dict[str, float] = _default("decay_factor")
    profile_keys: tuple[str, ...] = _default("profile_keys")
    single_valued_keys: tuple[str, ...] = _default("single_valued_keys")
    no_decay_types: tuple[str, ...] = _default("no_decay_types")
    persona_cap: int = _default("persona_cap")
    low_priority_min_relevance: float = _default("low_priority_min_relevance")
    dedup_similarity: float = _default("dedup_similarity")
    state_weight: dict[str, float] = _default("state_weight")

    @classmethod
    def from_config(cls, section: dict[str, Any] | None) -> Rules:
        """From a ``[lifecycle]`` section (checked by ``Config``); a table such as ``ttl_days``
        changes only the names it gives."""
        values: dict[str, Any] = {}
        for name, value in (section or {}).items():
            if name in cls.__dataclass_fields__:
                if isinstance(value, dict):
                    value = {**_DEFAULTS[name], **value}
                elif name.endswith("_keys"):
                    value = tuple(normalize_key(v) for v in value)
                elif isinstance(value, list):
                    value = tuple(value)
                values[name] = value
        return cls(**values)


def rules_for(config: Config) -> Rules:
    """The lifecycle rules a vault's ``vmem.toml`` sets (``[lifecycle]``), over the defaults."""
    return Rules.from_config(config.data.get("lifecycle"))


def canonical_key(key: str | None) -> str:
    """One name per profile key, whatever the language it is named in: ``name``, ``Nombre``
    and ``nome`` are all ``name`` (the concept their packs name, ``lang.key_concept``); a
    key no pack names is itself, normalised."""
    normalized = normalize_key(key)
    return key_concept(normalized) or normalized


def key_forms(key: str | None) -> frozenset[str]:
    """Every normalised key that names the same profile key as ``key`` (itself and its
    names in every pack): what the catalog is asked for when a single-valued key may be
    replaced."""
    canonical = canonical_key(key)
    if not canonical:
        return frozenset()
    return frozenset({canonical, normalize_key(key), *key_names(canonical)})


def stated_value(text: str, key: str | None) -> frozenset[str]:
    """The words of a profile fact that are its value: ``"The user's name is Lucas"``,
    ``"El usuario se llama Lucas"`` and ``"Lucas"`` under ``name``/``nombre`` are all
    ``{"lucas"}``. Empty when nothing but wrapping is left."""
    names = key_forms(key)
    folded = fold_accents(unicodedata.normalize("NFKC", text)).casefold()
    words = re.findall(r"\w+(?:'\w+)?", folded)
    wrapping = value_wrapping()
    return frozenset(w for w in words if w not in wrapping and w not in names)


def same_value(text: str, other: str, key: str | None) -> bool:
    """Two statements of one single-valued key that give the same value in other words."""
    mine = stated_value(text, key)
    return bool(mine) and mine == stated_value(other, key)


def is_archived(memory: Memory) -> bool:
    return memory.path is not None and memory.path.parts[:1] == (ARCHIVE_DIR,)


def is_profile(memory: Memory, rules: Rules) -> bool:
    """A profile fact: its key is a profile key, or names one of the user's family
    ("sister: Ana", "hermano", "wife") while the family is ("familia" or "family"). A fact
    written without a key is kept under the key its words say (``slots.subject_key``: "I
    live in Leeds" is a location, "I am allergic to shellfish" allergies)."""
    key = normalize_key(memory.key) or (normalize_key(subject_key(memory.text)) if memory.type == "fact" else "")
    if is_profile_key(key, rules):
        return True
    return bool(key) and "family" in _canonical_keys(rules.profile_keys) and family_role(key) is not None


def is_profile_key(key: str | None, rules: Rules) -> bool:
    """Whether ``key`` is one of the vault's profile keys, in any language a pack names it in
    (``nombre`` and ``nome`` are ``name``): the one check of it."""
    normalized = normalize_key(key)
    return bool(normalized) and (
        normalized in rules.profile_keys or canonical_key(normalized) in _canonical_keys(rules.profile_keys)
    )


@functools.lru_cache(maxsize=8)
def _canonical_keys(keys: tuple[str, ...]) -> frozenset[str]:
    """``canonical_key`` of each key a vault's rules list (a list of "nombre" alone names
    the key "name" is too); the family's is "family" (a key naming a relative counts)."""
    return frozenset(canonical_key(k) for k in keys)


def reference_time(memory: Memory) -> dt.datetime | None:
    """The last time the memory was known true: confirmed, else updated, else created, else
    when its person wrote the file (``vault.dating``)."""
    for value in (memory.last_confirmed, memory.updated, memory.created, memory.dated):
        if value is not None:
            return as_datetime(value)
    return None


def age_days(memory: Memory, now: dt.datetime) -> float | None:
    when = reference_time(memory)
    return None if when is None else (now - when).total_seconds() / 86400
