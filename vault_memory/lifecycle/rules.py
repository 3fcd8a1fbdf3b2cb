"""The lifecycle settings (``[lifecycle]`` in vmem.toml) and the small facts about a memory
that every rule uses: its normalised key, whether it is archived or a profile fact, and
when it was last known true. Pure functions; no I/O."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from ..config import SETTINGS, Config
from ..lang import fold_accents
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


#: names that mean the same profile key; the first of each group is the canonical one
KEY_ALIASES: tuple[tuple[str, ...], ...] = (
    ("nombre", "name"),
    ("apellido", "surname", "last_name"),
    ("ubicacion", "location"),
    ("ciudad", "city"),
    ("trabajo", "job", "work", "ocupacion", "occupation"),
    ("pareja", "partner"),
    ("cumpleanos", "birthday"),
    ("pronombres", "pronouns"),
    ("idioma", "language"),
    ("alergias", "allergies", "alergia", "allergy"),
    ("familia", "family"),
    ("salud", "health"),
)
_CANONICAL = {alias: group[0] for group in KEY_ALIASES for alias in group}


def canonical_key(key: str | None) -> str:
    """One name per profile key: ``name`` and ``Nombre`` are both ``nombre``."""
    normalized = normalize_key(key)
    return _CANONICAL.get(normalized, normalized)


def key_forms(key: str | None) -> frozenset[str]:
    """Every normalised key that names the same profile key as ``key`` (itself and its
    aliases): what the catalog is asked for when a single-valued key may be replaced."""
    canonical = canonical_key(key)
    if not canonical:
        return frozenset()
    return frozenset({canonical, *(alias for alias, group in _CANONICAL.items() if group == canonical)})


#: the words a profile fact wraps its value in, in the forms vmem and people write it
#: ("The user's name is Lucas", "El usuario se llama Lucas", "nombre: Lucas"): not the value
_VALUE_WRAPPING = frozenset(
    "the user user's users s is are am was my i i'm called named name lives live in at from works work as for "
    "el la los las usuario usuaria usuarios se llama llamo me mi es soy vive vivo en de del trabaja trabajo como "
    "para".split()
)


def stated_value(text: str, key: str | None) -> frozenset[str]:
    """The words of a profile fact that are its value: ``"The user's name is Lucas"``,
    ``"El usuario se llama Lucas"`` and ``"Lucas"`` under ``name``/``nombre`` are all
    ``{"lucas"}``. Empty when nothing but wrapping is left."""
    aliases = {a for group in KEY_ALIASES if canonical_key(key) in group for a in group}
    folded = fold_accents(unicodedata.normalize("NFKC", text)).casefold()
    words = re.findall(r"\w+(?:'\w+)?", folded)
    return frozenset(w for w in words if w not in _VALUE_WRAPPING and w not in aliases and w != canonical_key(key))


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
    if key in rules.profile_keys or canonical_key(key) in rules.profile_keys:
        return True
    return bool(key) and not _FAMILY_KEYS.isdisjoint(rules.profile_keys) and family_role(key) is not None


#: the profile keys that hold the user's family: a key naming a relative counts as one
_FAMILY_KEYS = frozenset({"familia", "family"})


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
