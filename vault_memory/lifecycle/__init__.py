"""Lifecycle rules: which memories may reach the prompt, and how much they weigh.

Pure functions of (memory, now, rules); no I/O. ``docs/lifecycle.md`` explains each rule
and where its numbers come from.

- ``rules``       the ``[lifecycle]`` settings and small facts about a memory
- ``states``      expiry, decay and the one state a memory is in now
- ``weights``     why a memory stays out of the block, and how much it weighs in it
- ``dedup``       whether a new text restates an existing memory
- ``conflicts``   current facts about one subject that may contradict each other
- ``importance``  importance from content cues; persona caps
"""

from .archiving import archive_plan, state_counts
from .conflicts import (
    COMPATIBLE_KEY,
    JUDGED,
    RIVALS,
    Conflict,
    fact_slot,
    fact_subject,
    judged_settlements,
    open_conflicts,
    said_order,
    settled,
)
from .dedup import Said, is_restatement, may_restate
from .importance import persona_overflow, score_importance
from .rules import (
    ARCHIVE_DIR,
    Rules,
    age_days,
    canonical_key,
    is_archived,
    is_profile,
    key_forms,
    reference_time,
    rules_for,
    same_value,
)
from .states import STATES, Timeline, decay_state, decay_thresholds, expires_at, is_expired, memory_state, timeline
from .weights import (
    CONFIDENCE_WEIGHT,
    RecallFilter,
    exclusion_reason,
    lifecycle_weight,
    max_lifecycle_weight,
    recency_weight,
)

__all__ = [
    "COMPATIBLE_KEY",
    "RIVALS",
    "Conflict",
    "JUDGED",
    "judged_settlements",
    "said_order",
    "fact_slot",
    "fact_subject",
    "open_conflicts",
    "settled",
    "ARCHIVE_DIR",
    "canonical_key",
    "same_value",
    "CONFIDENCE_WEIGHT",
    "archive_plan",
    "state_counts",
    "max_lifecycle_weight",
    "STATES",
    "RecallFilter",
    "Rules",
    "Said",
    "Timeline",
    "age_days",
    "decay_state",
    "decay_thresholds",
    "exclusion_reason",
    "expires_at",
    "is_archived",
    "is_expired",
    "is_profile",
    "is_restatement",
    "may_restate",
    "key_forms",
    "lifecycle_weight",
    "memory_state",
    "persona_overflow",
    "recency_weight",
    "reference_time",
    "rules_for",
    "score_importance",
    "timeline",
]
