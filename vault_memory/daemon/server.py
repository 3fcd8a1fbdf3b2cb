"""The sync daemon: watches a vault, keeps its indexes in step, and answers recalls warm.

One daemon per vault, enforced by an flock on ``.vmem/daemon.lock`` (the kernel drops it
when the process dies, so a stale pid file never blocks a new start). While it runs it is
the only writer of the indexes.

Watching: every watchdog event under the vault that could concern a memory (see
``scanner.is_candidate``) notes the file it names; a folder event or an edited ignore
file asks for the whole vault (``change_of``). After a quiet spell (``debounce``) or at
most ``max_delay`` after the first event, one sync runs over the noted files (``stat``
each; only files whose content hash changed are parsed and re-embedded, in one batch),
or over the whole vault with a ``stat`` walk. So an editor's atomic save (a temp file renamed over the
target), vim's backup-and-rename dance, a folder rename or a ``git checkout`` of a
thousand files all come down to one sync of what actually changed. A reconcile also runs
at start (changes made while it was down) and every ``reconcile_every`` seconds (events
that network filesystems or sync tools never deliver).

Serving: a Unix socket ``.vmem/daemon.sock`` (mode 0600), or with ``VMEM_IPC=portable`` a
loopback port published in ``.vmem/daemon.addr`` with a key (``socket_server``: bounded
clients, keyed proofs both ways) speaks the protocol of ``protocol`` (newline-delimited JSON), each request
answered by ``Requests.handle`` (``requests``). A recall first flushes pending changes, after a
fence (``settle``) that makes sure the watcher has seen every event before the request,
so a file saved a moment ago is already searchable. After each sync the new snapshot
keeps what the one before read on demand (``Snapshot.carry_over``: parsed memories,
labels, neighbours; keyword postings stay in the shared ``SegmentCache``) wherever the
sync's commit did not touch it, and a new generation's token files, when small, are read
through once in the background so the page cache holds them: a recall costs little more
than embedding the question, and a daemon's start reads no more than it needs.

An application, like the CLI: the daemon hosts a ``VaultMemory`` over a ``LocalBackend``
given its own freshness policy (``EventFreshness``: pending file events, flushed), and calls the library
in-process: the socket's verbs, and the pending transcripts it retries in a worker thread
when an LLM is configured. It never runs a ``vmem`` subprocess. It says it is *ready*
(``status``) only once the model is warm and the indexes are read and up to date; until
then ``status`` gives its progress, and ``vmem daemon start`` waits for it.

Crash safety comes from the sync's publish order (see ``sync``): killed at any moment,
the next start's reconcile finds the files the catalog has not recorded and redoes them.
"""

from __future__ import annotations

import ctypes
import gc
import itertools
import logging
import logging.handlers
import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from ..api import VaultMemory
from ..backend import LocalBackend
from ..backend.control import read_pid
from ..config import CONFIG_NAME, Config, StateLayout, llm_url
from ..conversation import retry_pending
from ..conversation.request_judge import prepare as prepare_judge
from ..daemonlink import ipc
from ..errors import AlreadyRunning, ConfigError, IndexDamaged
from ..index.embedder import release_loaded, warm
from ..index.locks import release, try_lock
from ..index.plan import SyncReport
from ..index.snapshot import Snapshot
from ..index.store import Index
from ..lang import prepare_lexicons
from ..recall.delta import Sessions
from ..recall.engine import Engine
from ..vault.fsutil import private_dir
from ..vault.scanner import IgnoreRules, is_candidate, is_utf8
from ..vault.vault import Vault
from .requests import Requests
from .socket_server import Listening, serve
from .socket_server import stop as stop_serving

log = logging.getLogger("vmem.daemon")
#: how long after its start the daemon loads the verbs' lexicons (``lang.lexicon``): their
#: second of pure Python holds the interpreter from the first prompts' answers (a hook waits
#: 2 s at most); a prompt that needs one sooner loads it itself
LEXICONS_AFTER_SECONDS = 30.0

#: a failed sync is retried after this long, doubling up to the maximum
RETRY_FIRST_SECONDS = 0.5
RETRY_MAX_SECONDS = 30.0
#: how long a fence waits for the watcher (events arrive in well under a millisecond; a
#: watcher that lost them is caught up by the reconcile)
FENCE_SECONDS = 1.0
#: the longest a recall waits for a sync already running to publish what it took (a sync
#: of a few files takes milliseconds; a failing one is retried by the worker)
FLUSH_WAIT_SECONDS = 30.0
#: a pending change that may concern any file (``Daemon.change_of``)
WHOLE_VAULT = "<the whole vault>"
#: token files up to this size are read into the page cache when a generation goes live
#: (about 25,000 memories of product codes); larger ones as queries ask
WARM_TOKEN_BYTES = 64 << 20


class _Watcher(FileSystemEventHandler):
    def __init__(self, daemon: Daemon):
        self.daemon = daemon

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return
        if event.is_directory and event.event_type == "modified":
            return  # a folder's mtime changes with every file event inside it
        for raw in (event.src_path, getattr(event, "dest_path", "")):  # a move names both
            if raw:
                self.daemon.note(os.fsdecode(raw), event.is_directory)


class EventFreshness:
    """The daemon's freshness policy for the ``LocalBackend`` it hosts (``backend.local.
    Freshness``): the file events it has noted are flushed, nothing else is walked, and a
    recall ranks on the snapshot it publishes; a damaged generation met while reading is
    rebuilt by the next sync."""

    def __init__(self, daemon: Daemon):
        self.daemon = daemon

    def ensure(self) -> SyncReport | None:
        return self.daemon.flush_pending()  # read your writes: a file saved a moment ago is searchable

    @contextmanager
    def reading(self) -> Iterator[Snapshot]:
        with self.daemon.read_lock:
            snapshot = self.daemon.snapshot
            yield snapshot
        if snapshot.damage is not None:  # answered without what is damaged; the next sync rebuilds it
            self.daemon.repair(snapshot.damage)

    def notes(self) -> list[str]:
        return [self.daemon.config_warning] if self.daemon.config_warning else []

    def sync(self, progress: Any, full: bool) -> SyncReport:
        return self.daemon.flush(full=full)


class Daemon:
    def __init__(
        self,
        vault: Vault,
        *,
        debounce: float = 0.1,
        max_delay: float = 1.0,
        reconcile_every: float = 60.0,
        engine: Engine | None = None,
    ):
        self.vault = vault
        self.engine = engine or Engine(Index(vault))
        #: the indexes this daemon alone writes (it syncs them, and warms their embedder)
        self.index = self.engine.index
        #: the vault as the library's façade, on this daemon's warm backend
        hosted = LocalBackend(vault.root, vault.config, engine=self.engine, freshness=lambda _: EventFreshness(self))
        self.mem = VaultMemory(vault.root, backend=hosted)
        self.state = StateLayout.of(vault.root)
        #: what a query that leaves them out gets: the vault's [recall] settings
        self.recall_defaults = {"k": vault.config["recall"]["k"], "budget": vault.config["recall"]["budget"]}
        self.debounce = debounce
        self.max_delay = max_delay
        self.reconcile_every = reconcile_every
        #: seconds with nothing to do after which the model is released (``[daemon]``); 0: never
        self.release_model_after = float(vault.config["daemon"]["release_model_after"])
        #: when a request or a sync that changed something last needed the daemon
        self.last_activity = time.monotonic()
        self.cond = threading.Condition()
        #: file events noted since the last sync, the memory files they named, and whether
        #: one of them asks for the whole vault
        self.pending = 0
        self.pending_paths: set[str] = set()
        self.pending_whole = False
        #: file events noted so far, and how many of them the published snapshot holds: a
        #: recall waits for the snapshot that holds every event before it, even one a sync
        #: already running took (it found nothing pending, and answered from the old one)
        self.noted = 0
        self.synced = 0
        self._fences: dict[str, threading.Event] = {}
        self._fence_numbers = itertools.count()
        self.first_event: float | None = None
        self.last_event = 0.0
        self.sync_lock = threading.Lock()
        self.read_lock = threading.Lock()
        #: what each agent session was already shown (``recall.delta``): the hooks send the rest
        self.sessions = Sessions()
        self.sessions_lock = threading.Lock()
        self.snapshot: Snapshot = None  # type: ignore[assignment]  # set before ``ready``
        self.ready = threading.Event()
        self.stopping = threading.Event()
        self.started = time.time()
        #: said with every answer while vmem.toml is not what the daemon runs with
        self.config_warning: str | None = None
        self.last_sync: dict[str, Any] | None = None
        self.last_error: str | None = None
        self._lock_fd: int | None = None
        self._lock_inode = 0
        #: syncs that failed in a row (retried with backoff; pending changes are kept)
        self.failures = 0
        self._server: Listening | None = None
        #: what each request means (``requests``)
        self.requests = Requests(self)
        try:  # how clients reach it: they follow what it publishes
            self.transport = ipc()
        except ValueError as e:
            raise ConfigError(str(e)) from None
        self._observer: Any = None
        self._root = str(vault.root)
        self._retrier: threading.Thread | None = None
        #: what a starting daemon is doing: (stage, done, total), None once ready
        self.progress: tuple[str, int, int] | None = ("starting", 0, 0)

    # ------------------------------------------------------------------ events

    def change_of(self, abspath: str, is_directory: bool) -> str | None:
        """What an event at ``abspath`` asks the next sync to look at: a memory file's vault
        path; ``WHOLE_VAULT`` when any file may be concerned (a folder made, moved or
        deleted; an ignore file edited); None when it is no memory's business."""
        if not abspath.startswith(self._root):
            return None
        rel = abspath[len(self._root) :].lstrip(os.sep).replace(os.sep, "/")
        if not rel:
            return None
        if rel in (".gitignore", ".vmemignore"):
            self.vault.ignore_rules = IgnoreRules.for_vault(self.vault.root, self.vault.config["vault"]["ignore"])
            log.info("%s changed: ignore rules reloaded", rel)
            return WHOLE_VAULT  # newly ignored files leave the index, newly visible ones join it
        if rel == CONFIG_NAME:
            self.config_warning = self._config_change()
            log.warning("%s", self.config_warning or "vmem.toml is as the daemon read it")
            return None
        if is_directory:
            hidden = any(p.startswith(".") or p in ("node_modules", "__pycache__") for p in rel.split("/"))
            return None if hidden else WHOLE_VAULT
        if not is_utf8(rel):
            return WHOLE_VAULT  # the walk names it (escaped) and reports it
        return rel if is_candidate(rel, self.vault.ignore_rules) else None

    def _config_change(self) -> str | None:
        """What every answer says after vmem.toml changed under the daemon: that it cannot
        be read (the daemon keeps serving with what it read at start; a command without it
        would stop on the error), or that a restart applies it; None when it is the same."""
        restart = f"`vmem daemon stop --vault {self._root} && vmem daemon start --vault {self._root}`"
        try:
            fresh = Config.load(self.vault.root)
        except ConfigError as e:
            return (
                f"vmem.toml cannot be used ({e}); the daemon keeps the settings it started with: fix it, then {restart}"
            )
        if fresh.data == self.vault.config.data:
            return None
        return f"vmem.toml changed since the daemon started; {restart} applies it"

    def note(self, abspath: str, is_directory: bool) -> None:
        """A file event: pass a fence, or note what the next sync must look at."""
        fence = self._fences.get(abspath)
        if fence is not None:
            fence.set()
            return
        change = self.change_of(abspath, is_directory)
        if change is None:
            return
        with self.cond:
            now = time.monotonic()
            if self.pending == 0:
                self.first_event = now
            self.pending += 1
            self.noted += 1
            if change == WHOLE_VAULT:
                self.pending_whole = True
            else:
                self.pending_paths.add(change)
            self.last_event = now
            self.cond.notify_all()

    def repair(self, why: str) -> None:
        """A reader found the published generation damaged: the next sync is a whole one,
        which rebuilds it (``Indexer.sync``); recalls meanwhile answer without the damaged part."""
        with self.cond:
            if self.pending_whole:
                return
            log.warning("the index is damaged (%s); rebuilding it from the files", why)
            now = time.monotonic()
            if self.pending == 0:
                self.first_event = now
            self.pending += 1
            self.pending_whole = True
            self.last_event = now
            self.cond.notify_all()

    def settle(self, timeout: float = FENCE_SECONDS) -> None:
        """Wait until the watcher has noted every file event that happened before this call
        (a memory a client wrote a moment ago): a marker file made now reaches the watcher
        through the same queue, after them. Read-your-writes without walking the vault."""
        if self._observer is None:
            return
        marker = str(self.state.root / f"fence-{os.getpid()}-{next(self._fence_numbers)}")
        passed = self._fences[marker] = threading.Event()
        try:
            with open(marker, "x"):
                pass
            os.unlink(marker)
            passed.wait(timeout)
        except OSError:
            pass  # no marker, no wait: the periodic reconcile stays the backstop
        finally:
            self._fences.pop(marker, None)

    # ------------------------------------------------------------------ syncing

    def flush_pending(self) -> SyncReport | None:
        """Sync the files that events named since the last sync, once every event of what
        happened before this call has arrived; None when nothing changed. Returns only once
        the published snapshot holds every one of those events: a sync already running
        took some of them, and its snapshot is waited for."""
        self.settle()
        with self.cond:
            wanted, pending, failures = self.noted, self.pending, self.failures
        report = self.flush(walk=False) if pending else None
        with self.cond:  # a failed sync answers from the snapshot there is (the worker retries)
            self.cond.wait_for(
                lambda: self.synced >= wanted or self.failures != failures or self.stopping.is_set(),
                timeout=FLUSH_WAIT_SECONDS,
            )
        return report

    def _note_progress(self, stage: str, done: int, total: int) -> None:
        if not self.ready.is_set():
            self.progress = (stage, done, total)

    def flush(self, full: bool = False, walk: bool = True) -> SyncReport:
        """Sync now and swap in a fresh snapshot: the whole vault (``walk``: at start, on
        the periodic reconcile, when asked), only the files events named since the last
        sync (a folder event or an ignore file asks for the whole vault), or a rebuild
        (``full``)."""
        with self.sync_lock:
            with self.cond:
                taken, first, paths, whole = self.pending, self.first_event, self.pending_paths, self.pending_whole
                self.pending, self.first_event, self.pending_paths, self.pending_whole = 0, None, set(), False
                upto = self.noted
            try:
                report = self._sync_now(full, walk or whole, paths)
            except Exception as e:  # a bad moment must never stop the daemon, nor lose a change
                with self.cond:  # what was pending still is: the worker retries, backing off
                    self.pending += max(taken, 1)
                    self.pending_paths |= paths
                    self.pending_whole = self.pending_whole or whole or walk or full
                    self.first_event = self.first_event or first or time.monotonic()
                    self.failures += 1
                    self.cond.notify_all()
                self.last_error = f"{type(e).__name__}: {e}"
                log.error("sync failed (attempt %d; retrying): %s", self.failures, self.last_error)
                raise
            self._log_sync(report)
            if report.changed:
                self.last_activity = time.monotonic()
            self._publish(report, upto)
            return report

    def _sync_now(self, full: bool, whole: bool, paths: set[str]) -> SyncReport:
        indexer = self.index.indexer
        if full:
            return indexer.reindex(self._note_progress)
        if whole:
            return indexer.sync(self._note_progress)
        return indexer.sync(self._note_progress, paths=paths)

    @staticmethod
    def _log_sync(report: SyncReport) -> None:
        if report.changed or report.problems:
            log.info(
                "synced: %s added, %s updated, %s deleted, %s renamed, %s skipped in %.2fs",
                report.added,
                report.updated,
                report.deleted,
                report.renamed,
                len(report.problems),
                report.seconds,
            )
        for p in report.problems:
            log.warning("skipped %s", p)
        if report.repaired:
            log.warning("the index was rebuilt from the files: %s", report.repaired)

    def _publish(self, report: SyncReport, upto: int) -> None:
        """Make what ``report`` synced what recalls read, in one step: a status that shows
        the new count also shows this sync as the last one, and its log lines are written;
        then every event noted up to ``upto`` counts as in the published snapshot."""
        summary = report.to_dict() | {"at": time.time()}
        old = None
        new = None
        if report.changed or report.rebuilt or self.snapshot is None:
            new = self.engine.next_snapshot(previous=self.snapshot, commit=report.commit)
        with self.read_lock:  # recalls keep using the old snapshot until here
            if new is not None:
                old, self.snapshot = self.snapshot, new
            self.failures = 0
            self.last_sync = summary
            self.last_error = None
        with self.cond:  # the events it took are in the published snapshot
            self.synced = max(self.synced, upto)
            self.cond.notify_all()
        if new is not None and (old is None or old.generation.folder != new.generation.folder):
            self._warm_token_files(new)
        if old is not None:
            old.close()

    def _warm_token_files(self, snapshot: Snapshot) -> None:
        """Read a new generation's token files into the page cache, in the background,
        when they are small (``WARM_TOKEN_BYTES``): late interaction reads rows from random
        places. Larger ones are read as queries ask: with product codes a memory's rows are
        a page or two, and at 100k memories (232 MB) a first query costs about 7 ms more
        cold than warm, later ones the same, where reading them through cost a daemon's
        start 232 MB."""
        try:
            files = snapshot.token_files()
        except IndexDamaged:  # said by the recalls that need them
            return
        size = files.size() if files is not None else 0
        if files is None or size > WARM_TOKEN_BYTES:
            if size:
                log.info("token vectors read as queries ask: %.0f MB", size / 1e6)
            return

        def warm() -> None:
            started = time.perf_counter()
            done = files.warm()
            log.info(
                "token vectors read into the page cache: %.0f MB in %.1f s", done / 1e6, time.perf_counter() - started
            )

        threading.Thread(target=warm, name="vmem-warm-tokens", daemon=True).start()

    def _prepare_judge(self) -> None:
        """In the background, once ready: the request judge's model, when its loaded copy is
        not there yet (``request_judge.prepare``); a prompt that needs it meanwhile waits
        for this load instead of starting another."""
        cache_dir = self.mem.config["embedding"]["cache_dir"] or None

        def prepare() -> None:
            started = time.perf_counter()
            try:
                if prepare_judge(cache_dir):
                    log.info("the request judge's model prepared in %.1f s", time.perf_counter() - started)
            except Exception as e:  # noqa: BLE001 - a warm-up: the first prompt that needs it loads it
                log.warning("could not prepare the request judge's model: %s", e)
            if self.stopping.wait(LEXICONS_AFTER_SECONDS):
                return
            started = time.perf_counter()
            try:
                loaded = prepare_lexicons()
                log.info("the verb lexicons (%s) loaded in %.1f s", ", ".join(loaded), time.perf_counter() - started)
            except Exception as e:  # noqa: BLE001 - as above
                log.warning("could not load the verb lexicons: %s", e)

        threading.Thread(target=prepare, name="vmem-prepare-judge", daemon=True).start()

    def _worker(self) -> None:
        next_reconcile = time.monotonic() + self.reconcile_every
        while not self.stopping.is_set():
            with self.cond:
                if self.pending == 0:
                    self.cond.wait(timeout=max(0.05, min(1.0, next_reconcile - time.monotonic())))
                if self.pending:
                    while not self.stopping.is_set():
                        now = time.monotonic()
                        quiet, age = now - self.last_event, now - (self.first_event or now)
                        if quiet >= self.debounce or age >= self.max_delay:
                            break
                        self.cond.wait(timeout=min(self.debounce - quiet, self.max_delay - age))
            if not self.identity_intact():
                log.error("%s was removed or replaced under the running daemon; stopping", self.state.root)
                self.stop()
                break
            self._release_model_when_idle()
            due = time.monotonic() >= next_reconcile
            if self.pending or due:
                try:
                    self.flush(walk=due)
                except Exception:
                    self.stopping.wait(min(RETRY_MAX_SECONDS, RETRY_FIRST_SECONDS * 2 ** (self.failures - 1)))
                if due:
                    next_reconcile = time.monotonic() + self.reconcile_every
                    self.vault.sweep_temps()  # what killed writes left, wherever they were
                    self.retry_pending()

    def _release_model_when_idle(self) -> None:
        """With no request and no sync that changed anything for ``release_model_after``
        seconds, drop the model and give its memory back: an idle daemon on a small vault
        holds about 130 MB instead of 280 MB, and the next recall loads the model again
        (about 0.3 s). A sync that changed files counts as activity: a file saved meanwhile
        would load the model for its embedding, only for it to be dropped at the next tick."""
        idle = time.monotonic() - self.last_activity
        if not self.release_model_after or idle < self.release_model_after:
            return
        if any([self.index.embedder.release(), release_loaded()]):  # the judge's model too
            gc.collect()
            give_back_memory()
            log.info("model released after %.0f s with nothing to do", idle)

    def retry_pending(self) -> threading.Thread | None:
        """Work through the transcripts that wait for an LLM (each entry keeps its own
        backoff), in a worker thread, one run at a time: a slow endpoint must not hold up
        the daemon's own work. The memories are written through the hosted façade."""
        if self._retrier is not None and self._retrier.is_alive():
            return None
        queue = self.state.pending
        if not llm_url(self.vault.config) or not queue.is_dir() or not any(queue.glob("*.json")):
            return None
        log.info("retrying the pending transcripts in %s", queue)
        self._retrier = threading.Thread(target=self._retry_pending, name="vmem-pending", daemon=True)
        self._retrier.start()
        return self._retrier

    def _retry_pending(self) -> None:
        try:
            reports, problems = retry_pending(self.mem, due_only=True)
        except Exception:  # the worker must never take the daemon down
            log.exception("retrying the pending transcripts failed")
            return
        for problem in problems:
            log.warning("pending: %s", problem)
        for report in reports:
            log.info("pending %s: %s", report.session, "still pending" if report.pending else "done")

    def identity_intact(self) -> bool:
        """Is the lock this daemon holds still the vault's lock? Deleting .vmem/ (documented
        as derived) under a running daemon would otherwise let a second one start beside it."""
        try:
            return os.stat(self.state.daemon_lock).st_ino == self._lock_inode and self.state.daemon_published()
        except OSError:
            return False

    # ------------------------------------------------------------------ serving

    def _serve(self) -> None:
        for stale in (self.state.daemon_socket, self.state.daemon_address):  # this daemon holds the lock
            stale.unlink(missing_ok=True)
        self._server = serve(self.state.daemon_socket, self.requests.handle, self.transport, self.state.daemon_address)

    # ------------------------------------------------------------------ life

    def run(self) -> None:
        """Run until SIGTERM/SIGINT (or ``stop``); returns after a clean shutdown."""
        private_dir(self.state.root)
        self._lock_fd = try_lock(self.state.daemon_lock)
        if self._lock_fd is None:
            raise AlreadyRunning(f"a daemon is already running for {self.vault.root} (pid {read_pid(self.state)})")
        self._lock_inode = os.fstat(self._lock_fd).st_ino
        try:
            tmp = self.state.daemon_pid.with_suffix(".tmp")
            tmp.write_text(f"{os.getpid()}\n")
            os.replace(tmp, self.state.daemon_pid)
            if threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGTERM, lambda *_: self.stop())
                signal.signal(signal.SIGINT, lambda *_: self.stop())
            self._serve()
            self._observer = Observer()
            self._observer.schedule(_Watcher(self), self._root, recursive=True)
            self._observer.start()
            log.info("daemon %s started for %s", os.getpid(), self._root)
            self.progress = ("loading the model", 0, 1)
            warm(self.index.embedder)  # the model's first run is slow: not on a user's recall
            while not self.stopping.is_set():
                try:
                    self.flush()  # reconcile what changed while no daemon was watching
                    break
                except Exception:
                    self.stopping.wait(2.0)
            self.progress = None
            self.ready.set()
            self._prepare_judge()
            self.retry_pending()  # transcripts left waiting while no daemon ran
            self._worker()
        finally:
            self._shutdown()

    def stop(self) -> None:
        self.stopping.set()
        with self.cond:
            self.cond.notify_all()

    def _shutdown(self) -> None:
        with self.sync_lock:  # lets a batch in progress finish
            if self._observer is not None:
                self._observer.stop()
            if self._server is not None:
                stop_serving(self._server)
            for path in (self.state.daemon_socket, self.state.daemon_address, self.state.daemon_pid):
                try:
                    path.unlink()
                except FileNotFoundError:
                    pass
            if self.snapshot is not None:
                self.snapshot.close()
            if self._lock_fd is not None:
                release(self._lock_fd)
                self._lock_fd = None
        log.info("daemon %s stopped", os.getpid())


def give_back_memory() -> None:
    """Return freed heap to the system (glibc keeps it for later mallocs otherwise)."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: the memory stays the process's until reused
        pass


def setup_logging(state: StateLayout, foreground: bool) -> None:
    handler = logging.handlers.RotatingFileHandler(
        state.daemon_log, maxBytes=1_000_000, backupCount=3, encoding="utf-8"
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    log.addHandler(handler)
    if foreground:
        stream = logging.StreamHandler()
        stream.setFormatter(logging.Formatter("vmem daemon: %(message)s"))
        log.addHandler(stream)
    log.setLevel(logging.INFO)


def run(root: Path, *, debounce: float = 0.1, reconcile_every: float = 60.0, foreground: bool = True) -> None:
    """Be the vault's daemon in this process until SIGTERM/SIGINT (``vmem daemon run``)."""
    vault = Vault(root)
    private_dir(vault.state.root)
    setup_logging(vault.state, foreground=foreground)
    Daemon(vault, debounce=debounce, reconcile_every=reconcile_every).run()
