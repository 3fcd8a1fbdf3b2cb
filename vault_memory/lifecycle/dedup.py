"""Whether a new text says anything an existing memory does not: the rules behind
reconfirming instead of writing a duplicate (pure functions)."""

from __future__ import annotations

from .rules import Rules


def is_restatement(
    new_terms: frozenset[str], old_terms: frozenset[str], similarity: float, rules: Rules = Rules()
) -> bool:
    """A new text restates an existing memory when their meanings are close (cosine at or
    above ``dedup_similarity``) *and* it adds no content word of its own. Similarity alone
    cannot tell "backend engineer" from "frontend engineer" (0.98 with the bundled model);
    the word check catches what changed, so a new fact is never swallowed."""
    return similarity >= rules.dedup_similarity and bool(new_terms) and new_terms <= old_terms
