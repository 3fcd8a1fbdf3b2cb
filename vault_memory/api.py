"""The façade: one object that carries every verb vmem has.

The CLI, and the MCP server, hooks and ingestion after it, call this and nothing else, so
each verb's rules (dedup on remember, ``[recall]`` defaults, the daemon-first policy, the
budget) live in one place and no adapter can skip them::

    import vault_memory as vmem

    with vmem.open("~/memory") as mem:
        mem.remember("nombre: Lucas")
        print(mem.recall("what is the user's name?").block)

Opening is cheap (it finds the vault and reads ``vmem.toml``); the vault's files, the
indexes and the model are loaded on first use, and not at all for a recall that the
vault's daemon answers.
"""

from __future__ import annotations

import builtins
import datetime as dt
import functools
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from .backend import Backend, DaemonGone, choose
from .config import Config, StateLayout, locate_vault
from .errors import IndexLocked, InvalidInput, StorageError, VaultError

T = TypeVar("T")
#: how many known facts nearest to a remembered one are named (``VaultMemory.nearest_known``)
NEAREST_KNOWN = 3

if TYPE_CHECKING:
    from .backend import Where
    from .index.embedder import Embedder
    from .index.plan import Progress, SyncReport
    from .lifecycle import Conflict
    from .recall.results import RecallResult
    from .vault.memory import Memory
    from .vault.transfer import ImportReport
    from .vault.trash import TrashEntry
    from .vault.vault import Problem, Vault
    from .writing.rules import Archived, Correction, PairJudge, Remembering, RememberOutcome


def open(path: str | Path | None = None, *, embedder: Embedder | None = None, use_daemon: bool = True) -> VaultMemory:
    """The vault at ``path``; without one, ``$VMEM_VAULT``, else the nearest folder above the
    current one holding ``vmem.toml``, else the per-user default. ``embedder`` replaces the
    configured model (tests, or a model already loaded); ``use_daemon=False`` does all
    work in this process even when a daemon serves the vault."""
    return VaultMemory(locate_vault(path), embedder=embedder, use_daemon=use_daemon)


@dataclass
class Listing:
    """``list``: the memories, each one's lifecycle state now, and the files that could not
    be read (reported, never fixed)."""

    memories: list[Memory]
    states: dict[str, str]
    problems: list[Problem] = field(default_factory=list)

    def __iter__(self):
        return iter(self.memories)

    def __len__(self) -> int:
        return len(self.memories)


@dataclass
class History:
    """``history``: the chain through a memory, oldest first, and its forks (each a message)."""

    target: Memory
    chain: builtins.list[Memory]
    forks: builtins.list[str] = field(default_factory=list)
    #: the chain loops back on itself: none of it replaces the rest, recall shows each
    cycle: bool = False

    def __iter__(self):
        return iter(self.chain)


@dataclass
class Checkup:
    """``doctor``: how many files were checked and what is wrong with them."""

    vault: Path
    checked: int
    problems: list[Problem]
    #: facts that may contradict each other (``vmem conflicts``): not a broken file, but
    #: something only the user can settle
    conflicts: list[Conflict] = field(default_factory=list)
    #: advice that is no broken file (a vault other users can read)
    notes: list[str] = field(default_factory=list)
    #: what this install runs on, where it can differ between machines (the vector index)
    runs_on: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {
            "vault": str(self.vault),
            "checked": self.checked,
            "ok": self.ok,
            "problems": [p.to_dict() for p in self.problems],
            "conflicts": [c.to_dict() for c in self.conflicts],
            "notes": self.notes,
            "runs_on": self.runs_on,
        }


def _runs_on(vector_index: str) -> dict[str, str]:
    """What `vmem doctor` says this install runs on: where it can differ between machines."""
    from .daemonlink import POSIX, ipc

    try:
        kind = ipc()
    except ValueError as e:
        return {"vector index": vector_index, "daemon and locks": str(e)}
    how = (
        "posix (a Unix socket, fcntl locks)"
        if kind == POSIX
        else "portable (a loopback port with a key only you can read, portalocker locks)"
    )
    return {"vector index": vector_index, "daemon and locks": how}


def _disk(verb: Callable[..., T]) -> Callable[..., T]:
    """The disk saying no (full, read-only, permission denied) reaches callers as a
    ``StorageError`` naming the file, inside the one error tree, never as a raw OSError."""

    @functools.wraps(verb)
    def guarded(*args: Any, **kwargs: Any) -> T:
        try:
            return verb(*args, **kwargs)
        except OSError as e:
            where = f"{e.filename}: " if e.filename else ""
            raise StorageError(f"{where}{e.strerror or e}; nothing was half-written") from None

    return guarded


class VaultMemory:
    """A vault and every verb on it. Use as a context manager, or call ``close()``.

    The work runs on one backend (``vault_memory.backend``), chosen when the vault is
    opened: its daemon when one serves it, else this process. ``backend`` hands one in
    (the daemon hosts its vault this way)."""

    def __init__(
        self,
        root: Path,
        *,
        embedder: Embedder | None = None,
        use_daemon: bool = True,
        backend: Backend | None = None,
        progress: Callable[[str, int, int], None] | None = None,
    ):
        self.root = Path(root)
        #: settles the possible conflicts the write rules cannot (``writing.rules.PairJudge``);
        #: the adapters set the ``[llm]`` endpoint's (``conversation.llm.pair_judge``)
        self.judge: PairJudge | None = None
        self.config = backend.config if backend is not None else Config.load(self.root)
        self.state = StateLayout.of(self.root)
        #: hears the sync a verb needs before it can answer, when it is long (a first recall
        #: of many files nothing indexed yet): (stage, done, total)
        self._progress = progress
        self._backend = backend or choose(
            self.root, self.config, embedder=embedder, use_daemon=use_daemon, progress=progress
        )
        #: a façade that chose this process may move to a daemon that starts later (an MCP
        #: server opened before the SessionStart hook started it): two writers of the
        #: indexes would keep each other's syncs waiting, and a recall read a stale one
        self._may_join_daemon = backend is None and use_daemon
        self._embedder = embedder

    def _on_backend(self, work: Callable[[Backend], T]) -> T:
        """``work`` on the backend; when the daemon stops answering, on this process from
        then on (the one place the daemon-first policy falls back); when a daemon started
        since this façade chose this process, on the daemon (the one place it joins one)."""
        if self._may_join_daemon and self._backend.where == "in-process" and self.state.daemon_published():
            self._backend = choose(self.root, self.config, embedder=self._embedder, progress=self._progress)
        try:
            return work(self._backend)
        except DaemonGone as gone:
            self._backend = gone.fallback
            self._may_join_daemon = False  # it went away: this process from now on
            return work(self._backend)

    @property
    def backend(self) -> Backend:
        """Where the work runs now: ``.where`` says "daemon" or "in-process"."""
        return self._backend

    def __repr__(self) -> str:
        return f"vault_memory.open({str(self.root)!r})"

    def __enter__(self) -> VaultMemory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release what was loaded."""
        self._backend.close()

    @property
    def vault(self) -> Vault:
        """The vault's files (``vault_memory.vault.Vault``): lower level, no write rules."""
        return self._backend.vault

    @property
    def warnings(self) -> list[str]:
        """What the last writes could not do but did not fail for (e.g. a git autocommit)."""
        vault = self._backend.loaded_vault
        return vault.warnings if vault is not None else []

    def _now(self) -> dt.datetime:
        from .vault.vault import now_local

        return now_local()

    def _rules(self):
        return self._backend.rules

    # ------------------------------------------------------------------ writing

    @_disk
    def remember(
        self,
        text: str,
        *,
        key: str | None = None,
        type: str = "fact",
        domain: str | None = None,
        confidence: str | float = "high",
        expires: str | dt.date | None = None,
        persona: str | None = None,
        tags: Iterable[str] = (),
        pinned: bool = False,
        importance: float | None = None,
        force_new: bool = False,
        allow_secret: bool = False,
        now: dt.datetime | None = None,
    ) -> RememberOutcome:
        """Write a memory the careful way: reconfirm what the vault already holds, supersede
        the old value of a single-valued key, keep each persona within its cap. ``"key:
        value"`` text is split when no ``key`` is given. ``force_new`` always writes a file.
        What looks like a secret is refused (``SecretRefused``) unless ``allow_secret``, an
        ``expires`` already past too (``parse_expiry``).
        Returns ``Created``, ``Reconfirmed`` or ``Superseded`` (``vault_memory.writing.rules``)."""
        from .writing.rules import Remembering

        notes: list[str] = []
        if expires is not None:
            expires, notes = parse_expiry(expires, now or self._now())
        fields = {"domain": domain, "confidence": confidence, "expires": expires, "tags": list(tags), "pinned": pinned}
        item = Remembering(text, key, type, persona, importance, force_new, fields=fields, allow_secret=allow_secret)
        outcome = self.remember_many([item], now=now)[0]
        outcome.warnings.extend(notes)
        return outcome

    @_disk
    def remember_many(self, items: Iterable[Remembering], *, now: dt.datetime | None = None) -> list[RememberOutcome]:
        """``remember`` for a batch (``vault_memory.Remembering`` items): the same rules, one
        index check for all, each item seeing those before it. Ingestion writes a
        conversation's memories this way."""
        from .writing.rules import remember_many

        batch = builtins.list(items)
        return self._on_backend(lambda backend: remember_many(backend, batch, now=now, judge=self.judge))

    @_disk
    def correct(
        self,
        ref: str,
        text: str,
        *,
        now: dt.datetime | None = None,
        prefix: bool = False,
        allow_secret: bool = False,
    ) -> Correction:
        """A new memory that supersedes ``ref`` (or the head of its chain, if ``ref`` was
        superseded already: ``.redirected``); the old file stays byte for byte. ``prefix``
        accepts a unique id prefix, as a person types it; ``allow_secret`` writes what looks
        like a secret, as the user insists (``remember``'s)."""
        from .writing.rules import correct

        return self._on_backend(
            lambda backend: correct(backend, ref, text, now=now, prefix=prefix, allow_secret=allow_secret)
        )

    @_disk
    def confirm(self, ref: str, *, prefix: bool = False) -> Memory:
        """Reconfirm by hand: ``last_confirmed`` becomes now, one frontmatter line changes."""
        from .writing.rules import confirm

        return self._on_backend(lambda backend: confirm(backend, ref, prefix=prefix))

    @_disk
    def forget(self, ref: str, *, prefix: bool = False) -> TrashEntry:
        """Move the memory's file to the vault's trash folder; ``restore`` brings it back.
        Forgetting a correction makes the value it replaced current again: said in
        ``warnings``, with how to forget that one too."""
        from .writing.rules import find

        memory = self._on_backend(lambda backend: find(backend, ref, prefix=prefix))
        vault = self.vault
        entry = vault.forget(memory)
        if memory.supersedes:
            with self._on_backend(lambda backend: backend.fresh_snapshot()) as snap:  # without the forgotten one
                replaced = snap.memories_with_ids(memory.supersedes).values()
                still_replaced = snap.superseded_targets()
            for old in replaced:
                if old.id not in still_replaced:
                    vault.warnings.append(
                        f"{old.id} is current again now that {memory.id}, which replaced it, is forgotten "
                        f"({old.text[:60]!r}); `vmem forget {old.id}` if that is no longer true either"
                    )
        return entry

    @_disk
    def restore(self, ref: str, *, prefix: bool = False) -> Memory:
        return self.vault.restore(ref, prefix=prefix)

    @_disk
    def import_(
        self, lines: Iterable[str], source: str = "import", progress: Callable[[str, int, int], None] | None = None
    ) -> ImportReport:
        """Import JSON Lines as ``export`` writes them; existing ids are left alone.
        ``progress``: ("import", lines done, lines) as it goes."""
        from .vault.transfer import import_lines

        return import_lines(self.vault, lines, source, progress)

    @_disk
    def gc(
        self,
        *,
        dry_run: bool = False,
        as_of: dt.datetime | None = None,
        progress: Callable[[str, int, int], None] | None = None,
        later: bool = False,
    ) -> list[Archived]:
        """Move expired memories, and persona memories over their cap, to ``archive/``
        (``progress``: the reading of every file, ("read", done, files)). ``as_of`` a later
        day than today previews (``dry_run``), or acts only when asked to (``later``): it
        archives memories that are live today."""
        from .writing.rules import collect

        now = self._now()
        if as_of is not None and as_of > now + dt.timedelta(minutes=1) and not (dry_run or later):
            raise InvalidInput(
                f"--as-of {as_of.date().isoformat()} is after today: it would archive memories that are live now. "
                "Add --dry-run to see what would move then, or --later to archive them anyway"
            )
        return collect(self._backend, now=as_of or now, dry_run=dry_run, progress=progress)

    # ------------------------------------------------------------------ reading

    @_disk
    def recall(
        self,
        query: str,
        *,
        k: int | None = None,
        budget: int | None = None,
        types: Iterable[str] | None = None,
        persona: str | None = None,
        as_of: dt.datetime | None = None,
        include_expired: bool = False,
        include_archived: bool = False,
        include_stale: bool = False,
        include_pinned: bool = True,
        legs: tuple[str, ...] = ("keyword", "vector"),
    ) -> RecallResult:
        """The memories that matter for ``query``; ``.block`` is the prompt-ready text within
        ``budget`` tokens. ``k`` and ``budget`` default to ``[recall]`` in vmem.toml. Asks
        the vault's daemon when one runs."""
        from .recall.results import RecallQuery

        q = RecallQuery(
            query,
            k=self.config["recall"]["k"] if k is None else k,
            budget=self.config["recall"]["budget"] if budget is None else budget,
            types=frozenset(types) if types else None,
            persona=persona,
            as_of=as_of,
            include_expired=include_expired,
            include_archived=include_archived,
            include_stale=include_stale,
            legs=legs,
            include_pinned=include_pinned,
        )
        return self._on_backend(lambda backend: backend.recall(q))

    def nearest_known(self, written: str, text: str, k: int = NEAREST_KNOWN) -> builtins.list[dict[str, Any]]:
        """The facts already known nearest to one just remembered (``written``: its id;
        ``text``: what was remembered), each ``{id, text, date, changed_by_new}``, those
        recall reads as changed by it first: what a calling agent may know it replaced where
        the offline reading could not tell (``recall.related``). [] when recall cannot run."""
        try:
            hits = self.recall(text, k=k + 1, types=["fact"], include_pinned=False).hits
            # a fact recall already reads as changed by the new one is left out of its block: named here first
            changed = [i for h in hits if h.memory.id == written for i in h.explain.get("changes", [])]
            memories = [self.show(i) for i in changed] + [h.memory for h in hits if h.memory.id != written]
        except VaultError:
            return []
        out: dict[str, dict[str, Any]] = {}
        for m in memories:
            date = m.written_at.date().isoformat() if m.written_at else None
            out.setdefault(m.id, {"id": m.id, "text": m.shared_text, "date": date, "changed_by_new": m.id in changed})
        return builtins.list(out.values())[:k]

    @_disk
    def show(self, ref: str, *, prefix: bool = False) -> Memory:
        """One memory as it is on disk now (``prefix``: a unique prefix of 4+ characters will do)."""
        from .writing.rules import find

        return self._on_backend(lambda backend: find(backend, ref, prefix=prefix, copies=True))

    @_disk
    def ids_starting(self, prefix: str, limit: int = 50) -> builtins.list[str]:
        """The ids that begin with ``prefix`` (a shell's completion of ``vmem show 2026-11``)."""

        def found(backend: Backend) -> builtins.list[str]:
            with backend.fresh_snapshot() as snap:
                return sorted(m.id for m in snap.memories_with_id_prefix(prefix, limit).values())

        return self._on_backend(found)

    @_disk
    def taken(self, ids: Iterable[str]) -> set[str]:
        """Which of ``ids`` a file anywhere in the vault claims (a broken one by its ``id:``
        line) (the index brought up to date
        first; a skipped copy too) or a forgotten memory in the trash held: an id is unique
        across the vault and never reused."""
        from .errors import VaultError
        from .vault.fileformat import claimed_id
        from .vault.fsutil import read_regular

        wanted = set(ids)

        def claimed(backend: Backend) -> set[str]:
            with backend.fresh_snapshot() as snap:
                found = {i for i in wanted if snap.paths_claiming(i)}
                broken = [row.path for row in snap.catalog.errors()]  # files that claim an id they cannot be read by
            for path in broken:
                try:  # never blocks: a FIFO named like a memory is no file to read
                    written = claimed_id(read_regular(self.root / path, 4096))
                except (OSError, VaultError):
                    continue
                if written in wanted:
                    found.add(written)
            return found

        return self._on_backend(claimed) | (wanted & {entry.id for entry in self.vault.trash()})

    @_disk
    def list(self, *, type: str | None = None, key: str | None = None) -> Listing:
        """Every memory, or those of one type and of one key (under any of its aliases)."""
        from .lifecycle import canonical_key, memory_state
        from .recall.query import check_type

        if type is not None:
            check_type(type)
        from .vault.supersession import superseded_ids

        result = self.vault.scan()
        rules, now, superseded = self._rules(), self._now(), superseded_ids(result.memories)
        memories = [
            m
            for m in result.memories
            if (type is None or m.type == type) and (key is None or canonical_key(m.key) == canonical_key(key))
        ]
        states = {m.id: memory_state(m, now, superseded, rules) for m in memories}
        return Listing(memories, states, result.problems)

    @_disk
    def history(self, ref: str, *, prefix: bool = False) -> History:
        """The supersession chain through ``ref``, oldest first (the last is what recall
        uses), and any fork in it: a memory that two others replace."""
        from .vault.supersession import supersession_chain, supersession_problems
        from .writing.rules import find

        target = self._on_backend(lambda backend: find(backend, ref, prefix=prefix))
        with self._on_backend(lambda backend: backend.fresh_snapshot()) as snap:
            memories = snap.supersession_linked(target)  # the chain's memories, asked of the catalog
        chain = supersession_chain(target.id, memories)
        members = {m.id for m in chain}
        problems = [
            (kind, msg)
            for m, kind, msg in supersession_problems(memories)
            if m.id in members and kind in ("supersedes_fork", "supersedes_cycle")
        ]
        forks = [f"fork: {msg}" if kind == "supersedes_fork" else msg for kind, msg in problems]
        cycle = any(kind == "supersedes_cycle" for kind, _ in problems)
        if cycle:
            forks.append("recall shows each of them as current; `vmem correct` or `vmem forget` settles it")
        return History(target, chain, forks, cycle)

    @_disk
    def conflicts(self) -> builtins.list[Conflict]:
        """Every open conflict: two current facts about one subject that may contradict each
        other and that no ``supersedes`` or "both true" settles, newer first in each pair;
        then the pairs recall marks by meaning and the newer's words of change ("newer
        related memory above", ``recall.related``), which "both true" settles as well."""
        from .index.embedder import model_parts
        from .lifecycle import Conflict, RecallFilter, exclusion_reason, open_conflicts, said_order
        from .recall.related import related_changes

        now, rules = self._now(), self._rules()
        confirmed = self.vault.confirmations.latest()  # a fact said again is the newer (``said_order``)

        def is_current(m: Memory) -> bool:
            return not exclusion_reason(m, now, superseded, RecallFilter(persona=m.persona, include_stale=True), rules)

        with self._on_backend(lambda backend: backend.fresh_snapshot()) as snap:
            facts = builtins.list(snap.facts_sharing_subjects().values())
            superseded = snap.superseded_targets()
            related = related_changes(snap, model_parts(str(self.config["embedding"]["model"])), is_current)
            unreadable = snap.catalog.unreadable()
        if unreadable:  # a pair one of them is in is not seen: say so, as recall does
            self.vault.warnings.append(
                f"{unreadable} memory file{'s' if unreadable != 1 else ''} could not be read, so no conflict of "
                f"{'theirs' if unreadable != 1 else 'its'} is listed: `vmem doctor` lists them"
            )
        current = [m for m in (self.vault.confirmations.apply(f, confirmed) for f in facts) if is_current(m)]
        found = open_conflicts(sorted(current, key=said_order, reverse=True))  # the newest of each text speaks
        pairs = {(c.newer.id, c.older.id) for c in found}
        return found + [
            Conflict(newer, older, "related in meaning", related=True)
            for newer, older, _ in sorted(related, key=lambda r: said_order(r[0]), reverse=True)
            if (newer.id, older.id) not in pairs
        ]

    @_disk
    def both_true(self, newer: str, older: str, *, prefix: bool = False) -> Memory:
        """Settle a conflict as "both true": ``older``'s id joins ``compatible_with`` in
        ``newer``'s frontmatter (that one line changes), so it is never marked again. Named
        the other way round, the pair is still recorded in the newer file."""
        from .lifecycle import COMPATIBLE_KEY, said_order, settled
        from .vault.memory import names_memories
        from .writing.rules import find

        new = self._on_backend(lambda backend: find(backend, newer, prefix=prefix))
        old = self._on_backend(lambda backend: find(backend, older, prefix=prefix))
        if new.id == old.id:
            raise InvalidInput("a memory cannot conflict with itself: name the two memories of the pair")
        if said_order(new) < said_order(old):
            new, old = old, new
        if old.id in settled(new) or new.id in settled(old):
            return new
        if old.id in new.supersedes or new.id in old.supersedes:
            raise InvalidInput(f"one of {new.id} and {old.id} replaces the other (supersedes): `vmem history {new.id}`")
        written = new.extra.get(COMPATIBLE_KEY)
        if written is not None and not names_memories(written):  # rewritten, what is no id would be lost or made text
            raise InvalidInput(
                f"'{COMPATIBLE_KEY}' in {new.file} holds what is no memory id ({written!r}); fix it by hand "
                "(`vmem doctor` names it), then settle the pair"
            )
        known = sorted(settled(new) | {old.id})
        return self.vault.update_frontmatter(new, {COMPATIBLE_KEY: known}, f"vmem: {new.id} and {old.id} both true")

    @_disk
    def replaces(self, newer: str, older: str, *, prefix: bool = False) -> Memory:
        """Settle a conflict as "``newer`` replaces ``older``": ``older``'s id joins the
        ``supersedes`` of ``newer`` (that one key changes), so recall shows ``newer`` alone
        and ``history`` the chain. As named, whichever was said first: the user knows which
        is right where the dates do not (a clock ahead on one machine)."""
        from .lifecycle import settled
        from .vault.values import supersedes_value
        from .writing.rules import find

        new = self._on_backend(lambda backend: find(backend, newer, prefix=prefix))
        old = self._on_backend(lambda backend: find(backend, older, prefix=prefix))
        if new.id == old.id:
            raise InvalidInput("a memory cannot replace itself: name the two memories of the pair")
        if old.id in new.supersedes:
            return new
        if old.id in settled(new) or new.id in settled(old):
            raise InvalidInput(f"{new.id} and {old.id} are recorded as both true (compatible_with): change that first")
        if self._replaces_through(old, new.id):  # a loop: each would be current again
            raise InvalidInput(f"{old.id} already replaces {new.id}, through `vmem history {old.id}`")
        with self._on_backend(lambda backend: backend.fresh_snapshot()) as snap:
            replaced = old.id in snap.superseded_targets()
        if replaced:  # a second replacement of one memory is a fork `vmem doctor` reports
            raise InvalidInput(f"{old.id} is already replaced by another memory: `vmem history {old.id}` shows which")
        refs = supersedes_value([*new.supersedes, old.id])
        return self.vault.update_frontmatter(new, {"supersedes": refs}, f"vmem: {new.id} replaces {old.id}")

    def _replaces_through(self, start: Memory, target: str, most: int = 200) -> bool:
        """Whether ``start`` replaces ``target``, itself or through the memories it replaces."""
        from .errors import CallError
        from .writing.rules import find

        seen: set[str] = set()
        todo = list(start.supersedes)
        while todo and len(seen) < most:
            ref = todo.pop()
            if ref == target:
                return True
            if ref in seen:
                continue
            seen.add(ref)

            def read(backend: Backend, ref: str = ref) -> Memory:
                return find(backend, ref, copies=True)

            try:
                todo += self._on_backend(read).supersedes
            except CallError:
                continue  # forgotten, or a reference that names no memory: the chain ends there
        return False

    @_disk
    def export(self) -> tuple[builtins.list[str], builtins.list[Problem]]:
        """(one JSON line per memory, the files that could not be read)."""
        from .vault.transfer import export_lines

        return export_lines(self.vault)

    @_disk
    def doctor(self) -> Checkup:
        """Everything wrong in the vault's files (file and line) and in its indexes; changes
        nothing."""
        from .index.ann import described
        from .index.checkup import index_advice, index_problems
        from .index.embedder import model_parts
        from .index.generations import IndexLayout
        from .lang import SPANISH
        from .recall.languages import reads
        from .vault.doctor import diagnose, readable_by_others
        from .vault.vault import Problem

        reads_spanish = reads(model_parts(self.config["embedding"]["model"]), SPANISH)
        checked, problems, secrets = diagnose(self.vault, reads_spanish)
        damaged = [Problem(where, message, "index") for where, message in index_problems(IndexLayout(self.state))]
        self.vault.confirmations.latest()  # the journals of confirmations, read as recall reads them
        problems += damaged + [
            Problem(f, why, "confirmations", line) for f, line, why in self.vault.confirmations.problems
        ]
        # the open conflicts are read from the index: a damaged one is left for `vmem sync` to rebuild,
        # one that cannot be brought up to date (held by another program, a full disk) is reported
        conflicts: builtins.list[Conflict] = []
        if not damaged:
            try:
                conflicts = self.conflicts()
            except (IndexLocked, StorageError) as e:
                problems.append(Problem(".vmem/index", f"the index could not be brought up to date: {e}", "index"))
        advice = readable_by_others(self.root) + secrets + index_advice(IndexLayout(self.state))
        return Checkup(self.root, checked, problems, conflicts, advice, _runs_on(described()))

    @_disk
    def check_files(self, blobs: dict[str, bytes]) -> tuple[int, builtins.list[Problem]]:
        """``doctor`` for contents not on disk as given (a commit's staged files): (memory
        files checked, problems with file and line). Paths relative to the vault."""
        from .vault.doctor import check_blobs, staged_ids
        from .vault.vault import Problem

        checked, problems = check_blobs(self.vault, blobs)
        ids = staged_ids(blobs, self.vault)
        if ids:  # an id a staged file sets that a file not staged already claims (the index knows)
            with self._on_backend(lambda backend: backend.fresh_snapshot()) as snap:
                for memory_id, paths in ids.items():
                    others = [p for p in snap.paths_claiming(memory_id) if p not in blobs]
                    if others:
                        problems.append(
                            Problem(paths[0], f"duplicate id {memory_id!r}, also used by {others[0]}", "duplicate_id")
                        )
        return checked, problems

    @_disk
    def stats(self, query: str = "what do you know about the user?") -> dict[str, Any]:
        """Counts by type, lifecycle state and persona, and the size of a typical block."""
        from .lifecycle import state_counts
        from .recall.render import estimate_tokens

        result = self.vault.scan()
        by_type: dict[str, int] = {}
        by_persona: dict[str, int] = {}
        for m in result.memories:
            by_type[m.type] = by_type.get(m.type, 0) + 1
            if m.persona:
                by_persona[m.persona] = by_persona.get(m.persona, 0) + 1
        recalled = self.recall(query)
        block = recalled.block
        return {
            "memories": len(result.memories),
            "pending_transcripts": self.state.waiting_transcripts(),
            "quarantined_transcripts": len(builtins.list(self.state.quarantine.glob("*.json"))),
            "broken_files": len(result.problems),
            "by_type": by_type,
            "by_state": state_counts(result.memories, self._now(), self._rules()),
            "by_persona": by_persona,
            "conflicts": len(self.conflicts()),
            "typical_block": {
                "query": query,
                "tokens": estimate_tokens(block),
                "memories": len(recalled.selection),
                "budget": recalled.budget,
            },
        }

    def embed(self, texts: builtins.list[str]) -> builtins.list[builtins.list[float]]:
        """Unit vectors of ``texts`` in the vault's embedding space (cosine = dot product):
        the daemon's warm model when it runs, else the model loaded here."""
        batch = builtins.list(texts)
        return self._on_backend(lambda backend: backend.embed(batch))

    # ------------------------------------------------------------------ indexes and daemon

    @_disk
    def sync(self, progress: Progress | None = None) -> tuple[SyncReport, Where]:
        """Bring the indexes up to date: (report, "daemon" or "in-process")."""
        return self._on_backend(lambda backend: (backend.sync(progress), backend.where))

    @_disk
    def reindex(self, progress: Progress | None = None) -> tuple[SyncReport, Where]:
        """Rebuild every index from the files (recalls keep working meanwhile)."""
        return self._on_backend(lambda backend: (backend.sync(progress, full=True), backend.where))

    @_disk
    def daemon(
        self,
        action: Literal["start", "stop", "status"],
        timeout: float = 60.0,
        progress: Callable[[str, int, int], None] | None = None,
    ) -> dict[str, Any]:
        """Start (returning once it is ready to answer warm), stop or ask after the vault's
        daemon; a dict saying what happened."""
        from .backend import control

        if action == "start":
            started = control.start(self.root, self.state, timeout, progress)
            return {"pid": started.pid, "already_running": started.already_running, "log": str(started.log)}
        if action == "stop":
            return {"stopped": control.stop(self.state, timeout)}
        return control.status(self.root, self.state)


def init(path: str | Path, *, examples: bool = True, lang: str = "en+es") -> VaultMemory:
    """Create a vault from the template at ``path`` (a new or empty folder) and open it.
    By default English and Spanish memories and questions find each other (the bilingual
    model); ``lang="en"`` makes an English-only vault, ``"es"`` (or "multi") one on the
    multilingual model alone."""
    from .vault.template import create_vault

    return VaultMemory(create_vault(Path(path), with_examples=examples, lang=lang))


def adopt(path: str | Path, *, lang: str = "en+es") -> VaultMemory:
    """Make an existing folder of notes (an Obsidian vault) a vault, without touching a file
    of it (``vmem init --here``): ``vmem.toml`` and ``.vmem/`` are added, nothing else."""
    from .vault.template import adopt_folder

    return VaultMemory(adopt_folder(Path(path), lang=lang))


@dataclass(frozen=True)
class Census:
    """What a vault's folder holds, as vmem will read it: Markdown files found, those read
    as memories (by type), those its ignore rules leave out, those it cannot read."""

    found: int
    by_type: dict[str, int]
    ignored: int
    unreadable: int

    def to_dict(self) -> dict[str, Any]:
        return {"found": self.found, "by_type": self.by_type, "ignored": self.ignored, "unreadable": self.unreadable}


def census(mem: VaultMemory) -> Census:
    """Count the vault's Markdown files by how vmem reads them (nothing is indexed)."""
    from .vault.scanner import MEMORY_SUFFIXES, skipped_dir

    found = 0
    for _, dirs, files in os.walk(mem.root):
        dirs[:] = [d for d in dirs if not skipped_dir(d)]  # the folders the vault's walk never enters
        found += sum(1 for name in files if name.endswith(MEMORY_SUFFIXES))
    result = mem.vault.scan()
    by_type: dict[str, int] = {}
    for memory in result.memories:
        by_type[memory.type] = by_type.get(memory.type, 0) + 1
    read = len(result.memories) + len(result.problems)
    return Census(found, by_type, max(0, found - read), len(result.problems))


def parse_moment(text: str) -> dt.datetime:
    """An ``--as-of`` value: a date means the end of that day; a datetime without a zone is
    local time. Raises ``ValueError`` naming what it got."""
    from .vault.values import as_datetime

    value = text.strip()
    try:
        if len(value) == 10:
            moment = dt.datetime.combine(dt.date.fromisoformat(value), dt.time(23, 59, 59))
        else:
            moment = dt.datetime.fromisoformat(value[:-1] + "+00:00" if value.endswith("Z") else value)
    except ValueError:
        raise InvalidInput(f"expected an ISO 8601 date or datetime (e.g. 2026-11-22), not {text!r}") from None
    # judged before the local zone is added: 0001-01-01 in a zone east of UTC is no datetime
    # Python can hold, and it was called "not ISO 8601"; every rule adds days or years to it
    if not 1 < moment.year < 9000:
        raise InvalidInput(f"{text!r} is too far from today to judge memories by")
    return as_datetime(moment)


def parse_expiry(value: str | dt.date, now: dt.datetime) -> tuple[dt.date | dt.datetime, list[str]]:
    """A new memory's ``expires`` as ``remember`` stores it (a date stays a date: it lasts
    that whole day), and what the user must hear about it: a local time the clocks skip
    (the hour summer time leaves out) is stored shifted, and the warning names the shift.
    One already past is refused (``InvalidInput``): the memory would be written expired,
    never recalled, and nothing would have said so; so is one outside the years 2-8999
    (no local time Python can hold in every zone: a memory without one never expires)."""
    from .vault.values import as_date_or_datetime, as_written

    typed = value.strip() if isinstance(value, str) else value
    written = as_written(typed)
    if not 1 < written.year < 9000:
        raise InvalidInput(f"expires {typed} is too far from today (without one, a memory never expires)")
    expires = as_date_or_datetime(written)
    # a date lasts to the end of that day, local time (``lifecycle.expires_at``)
    end = expires if isinstance(expires, dt.datetime) else dt.datetime.combine(expires, dt.time.max).astimezone()
    if end <= now:
        raise InvalidInput(
            f"expires {typed} is past already (it is {now:%Y-%m-%d %H:%M} now): the memory would be written "
            "expired and never recalled; give a later date, or none"
        )
    notes = []
    if isinstance(expires, dt.datetime) and isinstance(written, dt.datetime) and written.tzinfo is None:
        shift = expires.replace(tzinfo=None) - written
        if shift:
            minutes = round(abs(shift.total_seconds()) / 60)
            notes.append(
                f"expires {typed}: this computer's clock skips that time (the clocks change then); stored as "
                f"{expires.isoformat()}, {minutes} minutes {'later' if shift > dt.timedelta(0) else 'earlier'}"
            )
    return expires, notes


def write_file(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (``export -o``); the folder must exist. A new
    file is its owner's alone, as every memory file is (an export holds all of them); a
    file replaced keeps the mode its owner gave it."""
    from .errors import WriteRefused
    from .vault.fsutil import MEMORY_FILE_MODE, atomic_write

    target = Path(path).expanduser()
    if not target.parent.is_dir():
        raise WriteRefused(f"{target.parent} is not a folder; nothing was written")
    atomic_write(target, text, new_mode=MEMORY_FILE_MODE)
