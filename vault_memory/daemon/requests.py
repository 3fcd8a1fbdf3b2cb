"""What each request to the daemon means (``protocol``): checked (a known op, this vault, the
daemon ready), then answered by its own handler: a recall (after writing what the prompt
asked to remember), the nearest memories, vectors, a sync, the status."""

from __future__ import annotations

import dataclasses
import logging
import os
import time
from typing import TYPE_CHECKING, Any

from ..backend.protocol import MAX_EMBED_TEXTS, WRONG_VAULT, Op, query_from_wire, result_from_wire, result_to_wire
from ..conversation import remember_said
from ..conversation.notice import said_notice
from ..errors import VaultError
from ..index.plan import SyncReport
from ..recall.results import FORMATS
from ..writing.rules import Created, RememberOutcome, Superseded

if TYPE_CHECKING:
    from .server import Daemon

log = logging.getLogger("vmem.daemon")

#: how long a request waits for a daemon that is still starting
READY_TIMEOUT_SECONDS = 60.0
#: the longest session id a client may name (Claude Code's are UUIDs)
MAX_SESSION_ID = 200
#: the longest prompt read for "remember that…" (the hook sends the first 2,000 characters)
MAX_SAID_CHARS = 10_000
#: how long one prompt's words may be read for what it asks to keep, each reading (one of
#: MAX_SAID_CHARS took at most 0.03 s in 20 hostile mixes): no request holds the daemon's
#: text work longer, whatever a rule costs; what is left unread is named in the hook log.
#: Each request has its own thread (``socket_server``): the others are answered meanwhile
SAID_READ_SECONDS = 1.0


class Requests:
    """The answers of one daemon, read from and written through its state."""

    def __init__(self, daemon: Daemon):
        self.daemon = daemon

    def status(self) -> dict[str, Any]:
        with self.daemon.cond:
            pending, first = self.daemon.pending, self.daemon.first_event
        indexed: int | None = None
        problems: list[dict[str, Any]] = []
        with self.daemon.read_lock:
            last_sync, last_error = self.daemon.last_sync, self.daemon.last_error
            if self.daemon.snapshot is not None:
                indexed = self.daemon.snapshot.catalog.count()
                problems = [
                    {"path": f.path, "line": f.error_line, "message": f.error}
                    for f in self.daemon.snapshot.catalog.errors()
                ]
        return {
            "running": True,
            "ready": self.daemon.ready.is_set(),
            "pid": os.getpid(),
            "vault": str(self.daemon.vault.root),
            "transport": self.daemon.transport,
            "uptime_s": round(time.time() - self.daemon.started, 1),
            "memories_indexed": indexed,
            "queue_length": pending,
            "lag_s": round(time.monotonic() - first, 3) if pending and first else 0.0,
            "last_sync": last_sync,
            "last_error": last_error,
            "config_warning": self.daemon.config_warning,
            "problems": problems,
            "model": self.daemon.index.embedder.model_id,
            "progress": None if self.daemon.ready.is_set() else list(self.daemon.progress or ("starting", 0, 0)),
        }

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """One request's answer: checked (a known op, this vault, the daemon ready), then
        handed to the op's own handler."""
        try:
            op = Op(str(request.get("op")))
        except ValueError:
            return {"ok": False, "error": f"unknown op {request.get('op')!r}", "kind": "DaemonError"}
        if op not in (Op.PING, Op.STATUS):
            self.daemon.last_activity = time.monotonic()
        claimed = request.get("vault")
        if isinstance(claimed, str) and os.path.realpath(claimed) != os.path.realpath(str(self.daemon.vault.root)):
            # a socket linked (or copied) from another vault's .vmem/: never answer for the wrong vault
            return {
                "ok": False,
                "error": f"this daemon serves {str(self.daemon.vault.root)}, not {claimed}",
                "kind": WRONG_VAULT,
            }
        if op is Op.PING:
            return {"ok": True, "pid": os.getpid(), "ready": self.daemon.ready.is_set()}
        if op is Op.STATUS:
            return {"ok": True, "status": self.status()}
        if not self.daemon.ready.wait(READY_TIMEOUT_SECONDS):
            why = self.daemon.last_error or "still reading the vault"
            return {"ok": False, "error": f"the daemon is not ready yet ({why})", "kind": "DaemonError"}
        handlers = {Op.RECALL: self._recall, Op.NEAREST: self._nearest, Op.EMBED: self._embed}
        return handlers.get(op, self._sync)(op, request)

    def _recall(self, op: Op, request: dict[str, Any]) -> dict[str, Any]:
        """A recall, after writing what the prompt asked to remember (``said``); only what a
        session was not shown yet (``session``); in the shape the caller asks (``render``)."""
        said_notes: list[str] = []
        outcomes = self.remember_said(request, said_notes)
        written = [o.memory for o in outcomes if isinstance(o, (Created, Superseded))]
        # what became of the prompt's request, for the agent (the hook puts it beside the block)
        saved = {"saved": notice} if (notice := said_notice(outcomes, said_notes)) else {}
        wire = dict(request["query"])
        if "block_budget" in request:  # the hook as installed before the budget joined the query
            wire["budget"] = request["block_budget"]
        result = self.daemon.mem.backend.recall(query_from_wire(wire, **self.daemon.recall_defaults))
        if said_notes:  # what the prompt asked to keep and was not kept: the hook logs it
            result = dataclasses.replace(result, warnings=[*result.warnings, *said_notes])
        session = request.get("session")
        if isinstance(session, str) and 0 < len(session) <= MAX_SESSION_ID:
            with self.daemon.sessions_lock:
                if request.get("reset"):  # a compaction or a /clear: the agent lost what it was shown
                    self.daemon.sessions.forget(session)
                self.daemon.sessions.already_has(session, written)  # it is in the prompt the agent reads
                result = self.daemon.sessions.deliver(session, result, index=request.get("format") == "index")
        if request.get("render") == "block" or "block_budget" in request:
            # a hook installed before it asked for the rendered answer below (``protocol``)
            return {"ok": True, "block": result.block, "hits": len(result.hits), "warnings": result.warnings, **saved}
        if request.get("render") == "cli":  # `vmem recall`'s fast path prints exactly this, the hook injects it
            fmt = request.get("format") if request.get("format") in FORMATS else "block"
            seen = result_from_wire(result_to_wire(result), result.query, result.took_ms)  # as a client sees it
            out, errors = seen.output(str(fmt), bool(request.get("explain")))
            return {"ok": True, "stdout": out, "stderr": errors, **saved}
        return {"ok": True, "result": result_to_wire(result), **saved}

    def _nearest(self, op: Op, request: dict[str, Any]) -> dict[str, Any]:
        """The most similar memories, with the warm model: what a writer of an earlier vmem
        asks (one still running after an upgrade); a writer now embeds a batch (``EMBED``)."""
        self.daemon.flush_pending()
        vector = self.daemon.index.embedder.embed([request["text"]])[0]
        with self.daemon.read_lock:
            nearest = self.daemon.snapshot.vector_hits(vector, int(request.get("limit", 20)))
        return {"ok": True, "hits": nearest}

    def _embed(self, op: Op, request: dict[str, Any]) -> dict[str, Any]:
        """For `vmem context`: how close turns are, with the warm model; for a writer's
        restatement check (``keep``: the daemon's next sync takes their token vectors)."""
        texts = request.get("texts")
        if not (isinstance(texts, list) and len(texts) <= MAX_EMBED_TEXTS and all(isinstance(t, str) for t in texts)):
            return {"ok": False, "error": f"embed takes a list of at most {MAX_EMBED_TEXTS} texts"}
        vectors = self.daemon.mem.backend.embed(texts, keep=request.get("keep") is True)
        return {"ok": True, "vectors": [[round(x, 5) for x in v] for v in vectors]}

    def _sync(self, op: Op, request: dict[str, Any]) -> dict[str, Any]:
        """A sync or rebuild someone asked for; ``scope: pending``, a writer's freshness: only
        what file events named since the last one."""
        if op is Op.SYNC and request.get("scope") == "pending":
            return {"ok": True, "report": (self.daemon.flush_pending() or SyncReport()).to_dict()}
        return {"ok": True, "report": self.daemon.mem.backend.sync(full=op is Op.REINDEX).to_dict()}

    def remember_said(self, request: dict[str, Any], notes: list[str] | None = None) -> list[RememberOutcome]:
        """The prompt hook's "remember that…": the explicit signals of what the user just said
        (``said``), written through the write rules before the recall that follows, so that
        recall and every later one see them. A write that fails is logged; the recall goes on
        (SessionEnd's ingest reads the same message again). What the message asked to keep
        and was not kept, with why, goes to ``notes`` (the recall's warnings: the hook logs
        them). Every outcome is returned: written, or found known already."""
        said = request.get("said")
        if not isinstance(said, str) or not said.strip() or len(said) > MAX_SAID_CHARS:
            return []
        session = request.get("session") if isinstance(request.get("session"), str) else None
        before = len(self.daemon.mem.vault.warnings)
        try:
            outcomes = remember_said(self.daemon.mem, said, session=session, seconds=SAID_READ_SECONDS)
        except (VaultError, OSError) as e:
            log.warning("could not write what the prompt asked to remember: %s", e)
            return []
        finally:
            said_notes = self.daemon.mem.vault.warnings[before:]
            del self.daemon.mem.vault.warnings[before:]  # of this message: not kept for every later answer
        for note in said_notes:
            log.info("%s", note)
        if notes is not None:
            notes += said_notes
        for outcome in outcomes:
            log.info("remembered from a prompt: %s %s", outcome.status, outcome.memory.id)
        return outcomes
