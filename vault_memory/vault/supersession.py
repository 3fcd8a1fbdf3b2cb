"""Supersession: which memory replaces which (``supersedes``), as a graph over the vault's
memories. Pure functions of the memories; the lifecycle rules and ``doctor`` build on it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterable

from .memory import DIGEST_REF, Memory


def superseded_ids(memories: Iterable[Memory]) -> set[str]:
    """Ids (and file stems, for wikilinks, and ``digest:`` refs) that some other present
    memory replaces."""
    out: set[str] = set()
    for m in memories:
        for ref in m.supersession_refs:
            if ref != m.id:
                out.add(ref)
    return with_digest_marker(out)


def with_digest_marker(refs: set[str]) -> set[str]:
    """``refs`` with ``DIGEST_REF`` itself among them when any is a digest: ``is_superseded``
    then reads a memory's content only when some replacement names one by content."""
    if any(ref.startswith(DIGEST_REF) for ref in refs):
        refs.add(DIGEST_REF)
    return refs


def is_superseded(memory: Memory, superseded: set[str] | frozenset[str]) -> bool:
    """Whether a memory is among ``superseded`` refs: by id, file stem or content digest."""
    if memory.id in superseded or (memory.path is not None and memory.path.stem in superseded):
        return True
    return DIGEST_REF in superseded and memory.content_ref in superseded


def references_to(memories: Iterable[Memory]) -> tuple[list[str], list[str]]:
    """How a new memory names the ones it replaces: (``supersedes``, ``supersedes_digest``).
    A memory with an id is named by it; a hand-written file without one by its file stem
    (a wikilink Obsidian resolves and keeps up to date) and the digest of what it says, as
    its derived id changes with its name."""
    refs: list[str] = []
    digests: list[str] = []
    for m in memories:
        if m.id_derived and m.path is not None:
            refs.append(m.path.stem)
            if m.content_ref:
                digests.append(m.content_ref.removeprefix(DIGEST_REF))
        else:
            refs.append(m.id)
    return list(dict.fromkeys(refs)), list(dict.fromkeys(digests))


def supersession_chain(memory_id: str, memories: list[Memory]) -> list[Memory]:
    """The chain through ``memory_id``, oldest first: what it replaced, and what replaced it."""
    by_ref = _by_ref(memories)
    start = by_ref.get(memory_id)
    if start is None:
        return []
    chain, seen = [start], {start.id}
    current = start
    while current.supersedes:  # walk back to the oldest
        refs = current.supersession_refs
        previous = next((by_ref[r] for r in refs if r in by_ref and by_ref[r].id not in seen), None)
        if previous is None:
            break
        chain.insert(0, previous)
        seen.add(previous.id)
        current = previous
    successors = _successors(memories, by_ref)
    current = start
    while True:  # and forward to the head: the earliest replacement not yet in the chain
        nxt = next((m for m in successors.get(current.id, []) if m.id not in seen), None)
        if nxt is None:
            return chain
        chain.append(nxt)
        seen.add(nxt.id)
        current = nxt


def _by_ref(memories: list[Memory]) -> dict[str, Memory]:
    """Each memory by every name a ``supersedes`` may use: its id, file stem, content digest."""
    by_ref: dict[str, Memory] = {}
    for m in memories:
        by_ref[m.id] = m
        if m.path is not None:
            by_ref.setdefault(m.path.stem, m)
        if m.content_ref:
            by_ref.setdefault(m.content_ref, m)
    return by_ref


def _successors(memories: list[Memory], by_ref: dict[str, Memory]) -> dict[str, list[Memory]]:
    """For each memory id, the memories that replace it, earliest first."""
    successors: dict[str, list[Memory]] = {}
    for m in memories:
        for ref in m.supersession_refs:
            target = by_ref.get(ref)
            if target is not None and target.id != m.id:
                successors.setdefault(target.id, []).append(m)
    earliest = dt.datetime.min.replace(tzinfo=dt.UTC)
    return {k: sorted(v, key=lambda m: m.written_at or earliest) for k, v in successors.items()}


def supersession_problems(memories: list[Memory], forgotten: Collection[str] = ()) -> list[tuple[Memory, str, str]]:
    """(memory, kind, message) for ``supersedes`` that fork (two memories replacing the
    same one), point nowhere, or form a cycle. A memory that replaces one the user forgot
    (``forgotten``: the ids in the trash) points somewhere: its chain was cut on purpose, and
    `vmem restore` mends it."""
    by_id = {m.id: m for m in memories}
    by_stem = {m.path.stem: m for m in memories if m.path is not None}
    dangling = _dangling(memories, by_id, by_stem, frozenset(forgotten))
    return [*_forks(memories, by_id, by_stem), *dangling, *_cycles(by_id, by_stem)]


Problems = list[tuple[Memory, str, str]]


def _forks(memories: list[Memory], by_id: dict[str, Memory], by_stem: dict[str, Memory]) -> Problems:
    successors: dict[str, set[str]] = {}
    for m in memories:
        for ref in m.supersedes:
            target = by_id.get(ref) or by_stem.get(ref)
            if target is not None and target.id != m.id:
                successors.setdefault(target.id, set()).add(m.id)
    return [
        (
            by_id[target_id],
            "supersedes_fork",
            f"superseded by {len(ids)} memories ({', '.join(sorted(ids))}): recall shows each "
            "as current; `vmem forget` the wrong one",
        )
        for target_id, ids in sorted(successors.items())
        if len(ids) > 1
    ]


def _dangling(
    memories: list[Memory], by_id: dict[str, Memory], by_stem: dict[str, Memory], forgotten: frozenset[str]
) -> Problems:
    """A memory that replaces itself, or names one the vault does not hold (nor the trash)."""
    by_content = {m.content_ref: m for m in memories if m.content_ref}
    problems: Problems = []
    for m in memories:
        # a file with no id that was renamed is still found by what it says
        found_by_content = any(by_content.get(r, m).id != m.id for r in m.supersession_refs)
        for ref in m.supersedes:
            if ref == m.id:
                problems.append((m, "supersedes_cycle", "supersedes itself"))
            elif ref not in by_id and ref not in by_stem and ref not in forgotten and not found_by_content:
                problems.append((m, "dangling_supersedes", f"supersedes {ref!r}, which is not in the vault"))
    return problems


def _cycles(by_id: dict[str, Memory], by_stem: dict[str, Memory]) -> Problems:
    """Each cycle of two or more memories replacing one another, said once."""
    problems: Problems = []
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
                cycle = path[path.index(target.id) :]
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
