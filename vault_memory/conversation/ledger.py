"""``.vmem/ingested/``: the ledger of turns already turned into memories, a row of
``ledger.sqlite`` per conversation. It only saves work: without it, a re-ingest reconfirms
what the vault holds instead of writing it twice.

The conversations of an export are recorded in one transaction: a file each cost 1,500
file creations for 1,500 conversations (0.1–0.5 s of a 3,000-turn ingest, the part of it
that varied most from run to run) and left as many files in the state folder. A ledger
file of an earlier version (``<session>.json``) is read until its conversation is
recorded again, and then removed.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .. import safejson
from ..config import StateLayout
from ..index.catalog import BUSY_SECONDS, sqlite_failure
from ..vault.fsutil import private_dir
from .queue import file_stem

#: the database of every conversation's ledger, in ``StateLayout.ingested``
LEDGER_FILE = "ledger.sqlite"


class Ledger:
    """The turns of one conversation already read for explicit signals, and by the LLM."""

    def __init__(self, store: Ledgers, session: str, data: dict[str, Any] | None = None):
        self.store = store
        self.session = session
        self.explicit: set[str] = set()
        self.llm: set[str] = set()
        self.summary: str | None = None  # the id of the session's newest summary
        #: facts and episodes the LLM has written for this conversation so far
        self.inferred = 0
        try:
            if data:
                self.explicit, self.llm = set(data.get("explicit", [])), set(data.get("llm", []))
                self.summary, self.inferred = data.get("summary"), int(data.get("inferred") or 0)
        except (TypeError, ValueError):  # a broken one: start over, as with none
            self.explicit, self.llm, self.summary, self.inferred = set(), set(), None, 0
        #: the file an earlier version kept it in, removed once it is recorded here
        self.old_file: Path | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"explicit": sorted(self.explicit), "llm": sorted(self.llm)}
        if self.summary:
            data["summary"] = self.summary
        if self.inferred:
            data["inferred"] = self.inferred
        return data

    def save(self, *, durable: bool = True) -> None:
        """``durable=False`` for a ledger with no model's reading in it (no summary to
        supersede, no cap to keep): losing it to a power cut costs a second reading, which
        the write rules turn into reconfirmations."""
        self.store.save([self], durable=durable)


class Ledgers:
    """The ledgers of one vault's conversations: read one at a time, recorded one or many
    in a transaction. A damaged database is set aside and started again, and ``notes``
    says so: what it held is only saved work. Use it for one operation (``with``): a
    ledger folder deleted meanwhile is a fresh start for the next."""

    def __init__(self, vault_root: Path):
        self.folder = StateLayout.of(vault_root).ingested
        self.path = self.folder / LEDGER_FILE
        #: what a reader should be told (a damaged database set aside)
        self.notes: list[str] = []
        self._db: sqlite3.Connection | None = None

    def get(self, session: str) -> Ledger:
        row = self._query(session)
        if row is not None:
            return Ledger(self, session, _data(row))
        old = self.folder / f"{file_stem(session)}.json"
        try:
            ledger = Ledger(self, session, _data(old.read_text(encoding="utf-8")))
        except (FileNotFoundError, NotADirectoryError):
            return Ledger(self, session)
        except (OSError, ValueError):  # unreadable or not UTF-8: start over, as with a broken one
            ledger = Ledger(self, session)
        ledger.old_file = old
        return ledger

    def save(self, ledgers: Iterable[Ledger], *, durable: bool = True) -> None:
        """Record ``ledgers`` in one transaction (``durable``: on disk when it returns)."""
        ledgers = list(ledgers)
        if not ledgers:
            return
        rows = [(ledger.session, json.dumps(ledger.to_dict(), ensure_ascii=False)) for ledger in ledgers]
        try:
            self._write(rows, durable)
        except sqlite3.DatabaseError as e:
            self._set_aside_or_raise(e)
            self._write(rows, durable)
        for ledger in ledgers:
            if ledger.old_file is not None:
                ledger.old_file.unlink(missing_ok=True)
                ledger.old_file = None

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> Ledgers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ database

    def _query(self, session: str) -> str | None:
        if self._db is None and not self.path.exists():
            return None  # nothing recorded yet: a reading creates no file
        try:
            found = self._connection().execute("SELECT data FROM ledgers WHERE session = ?", (session,)).fetchone()
        except sqlite3.DatabaseError as e:
            self._set_aside_or_raise(e)
            return None
        return found[0] if found else None

    def _write(self, rows: list[tuple[str, str]], durable: bool) -> None:
        """One transaction. Not durable is still synced at SQLite's critical moments
        (``NORMAL``): with ``OFF`` a power cut could leave the whole database damaged, not
        only its last batch unrecorded (a batch's few syncs cost nothing measurable)."""
        private_dir(self.folder)  # made (or tightened) by a writer only: a reader changes nothing
        db = self._connection()
        try:
            db.execute(f"PRAGMA synchronous = {'FULL' if durable else 'NORMAL'}")
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:  # held by another program, or a full disk: said, not a traceback
            raise sqlite_failure(self.path, e) or e from None
        try:
            db.executemany("INSERT OR REPLACE INTO ledgers (session, data) VALUES (?, ?)", rows)
            db.execute("COMMIT")
        except BaseException as e:
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # no transaction left to undo: the first error is the one to say
            if isinstance(e, sqlite3.OperationalError):
                raise sqlite_failure(self.path, e) or e from None
            raise

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            try:
                self._db = _open(self.path)
            except sqlite3.DatabaseError as e:
                self._set_aside_or_raise(e)
                self._db = _open(self.path)
        return self._db

    def _set_aside_or_raise(self, why: sqlite3.DatabaseError) -> None:
        """Move a damaged database out of the way (kept beside, for whoever wants to look);
        a busy or unwritable one is no damage: that error stands."""
        if isinstance(why, sqlite3.OperationalError) and (
            "locked" in str(why) or "readonly" in str(why) or not os.access(self.folder, os.W_OK)
        ):
            raise sqlite_failure(self.path, why) or why
        self.close()
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{LEDGER_FILE}.damaged-{stamp}")
        for suffix in ("", "-journal"):
            try:
                os.replace(f"{self.path}{suffix}", f"{aside}{suffix}")
            except FileNotFoundError:
                pass
        self.notes.append(
            f"the ledger of turns already read was damaged ({why}); set aside as {aside.name}: a conversation "
            "read before is read again, and the write rules turn what it says into reconfirmations"
        )


def _open(path: Path) -> sqlite3.Connection:
    """A connection to the ledger database (a rollback journal: a reading writes nothing)."""
    db = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)
    try:
        db.execute("CREATE TABLE IF NOT EXISTS ledgers (session TEXT PRIMARY KEY, data TEXT NOT NULL)")
    except BaseException:
        db.close()
        raise
    return db


def _data(text: str) -> dict[str, Any]:
    """A ledger's fields from its JSON; a broken one is an empty ledger (start over: the
    write rules keep a second reading from duplicating anything)."""
    try:
        data = safejson.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}
