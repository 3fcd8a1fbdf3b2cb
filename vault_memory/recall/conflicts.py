"""Conflicts in a recall: when a recalled fact may contradict another current fact about
the same subject, the agent reads both, the newer first, and the older marked as maybe
outdated; a recalled older fact brings its newer one along, so the block never shows the
older alone as if it were current (``lifecycle.conflicts`` decides which pairs)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from ..index.snapshot import Snapshot
from ..lifecycle import RIVALS, Conflict, fact_subject, open_conflicts, said_order
from ..vault.memory import Memory
from ..vault.slots import subject_tag
from .query import Hit


def with_conflicts(
    hits: list[Hit],
    snap: Snapshot,
    is_current: Callable[[Memory], bool],
    as_known: Callable[[Memory], Memory] = lambda memory: memory,
) -> list[Hit]:
    """``hits`` with each open conflict among them marked: the newer memory placed just
    before the older (added when it was not recalled), the older's ``outdated_by`` set.
    One catalog query for the subjects of the recalled facts (and one for each subject with
    more than ``RIVALS`` facts, its newest); nothing else is read. ``as_known`` gives a
    rival as last confirmed (``said_order``: a fact said again is the newer)."""
    subjects = sorted({subject_tag(subject) for h in hits if (subject := fact_subject(h.memory)) is not None})
    recalled_paths = {h.memory.path.as_posix() for h in hits if h.memory.path is not None}
    # the newest of each subject (most subjects are a recalled fact's alone), newest first
    others = sorted(snap.newest_tagged(subjects, RIVALS) - recalled_paths)
    read = snap.memories(others) if others else {}
    same_subject = sorted((m for m in map(as_known, read.values()) if is_current(m)), key=said_order, reverse=True)
    recalled = {h.memory.id for h in hits}
    conflicts = [
        c for c in open_conflicts([*(h.memory for h in hits), *same_subject]) if {c.newer.id, c.older.id} & recalled
    ]
    conflicts += _forks(hits, snap, is_current, as_known)
    if not conflicts:
        return hits
    return _placed(hits, conflicts)


def _forks(
    hits: list[Hit], snap: Snapshot, is_current: Callable[[Memory], bool], as_known: Callable[[Memory], Memory]
) -> list[Conflict]:
    """Two current memories that each replace one memory: two clones each corrected it, and
    the merge kept both. Neither replaces the other, so vmem cannot tell which is current:
    the newer is shown first and the older marked, as for any conflict (``doctor`` names
    the fork). One catalog query for what the recalled memories replace."""
    targets = sorted({t for h in hits for t in h.memory.supersedes})
    replacing = {t: paths for t, paths in snap.replacing(targets).items() if len(paths) > 1}
    if not replacing:
        return []
    read = snap.memories(sorted({p for paths in replacing.values() for p in paths}))
    out: list[Conflict] = []
    for target, paths in sorted(replacing.items()):
        current = [m for p in paths if (m := read.get(p)) is not None and is_current(as_known(m))]
        rivals = sorted(current, key=lambda m: said_order(as_known(m)), reverse=True)
        out += [
            Conflict(rivals[0], older, f"what replaced {target}") for older in rivals[1:] if _apart(rivals[0], older)
        ]
    return out


def _apart(newer: Memory, older: Memory) -> bool:
    """Neither of two memories replacing one says it replaces the other: a fork."""
    return older.id not in newer.supersedes and newer.id not in older.supersedes


def _placed(hits: list[Hit], conflicts: list[Conflict]) -> list[Hit]:
    """Each subject's facts in conflict as one group, newest first, where its best hit was;
    each marked with the newest fact that may outdate it and the older ones it may replace."""
    groups: dict[str, dict[str, Memory]] = {}
    for c in conflicts:
        groups.setdefault(c.subject, {}).update({c.newer.id: c.newer, c.older.id: c.older})
    order = {c.newer.id: c.newer for c in conflicts} | {c.older.id: c.older for c in conflicts}
    # newest first, and a fact outdated by another after it (a text's copies make it as new as its newest)
    newest_first = sorted(order, key=lambda i: said_order(order[i]), reverse=True)
    outdated = Counter(c.older.id for c in conflicts)
    rank = {m_id: i for i, m_id in enumerate(sorted(newest_first, key=lambda i: outdated[i]))}
    newest_newer: dict[str, str] = {}
    older_of: dict[str, list[str]] = {}
    for c in sorted(conflicts, key=lambda c: rank[c.newer.id]):
        newest_newer.setdefault(c.older.id, c.newer.id)
        older_of.setdefault(c.newer.id, []).append(c.older.id)
    group_of = {m_id: subject for subject, members in groups.items() for m_id in members}
    by_id = {h.memory.id: h for h in hits}
    out: list[Hit] = []
    placed: set[str] = set()
    for hit in hits:
        subject = group_of.get(hit.memory.id)
        if subject is None:
            out.append(hit)
            continue
        for member in sorted(groups[subject].values(), key=lambda m: rank[m.id]):
            if member.id in placed:
                continue
            companion = by_id.get(member.id) or Hit(member, hit.score, explain={"conflict": hit.memory.id})
            companion.outdated_by = newest_newer.get(member.id)
            companion.conflicts_with = older_of.get(member.id, [])
            out.append(companion)
            placed.add(member.id)
    return out
