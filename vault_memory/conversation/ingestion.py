"""``vmem ingest``: a conversation becomes memories, and nothing is lost on the way.

1. The transcript is read (``transcript``) and queued under ``.vmem/pending/`` before
   anything else happens (``queue``).
2. Each user turn not read before is checked for explicit signals (``signals``): "remember
   that…" becomes a fact, ``source: explicit``, ``confidence: high``.
3. When an LLM is configured (``llm``), the turns it has not read yet go to it for stable
   facts, notable episodes and the session's key-value summary.
4. All of it is written in one batch through the façade (``VaultMemory.remember_many``),
   so the write rules apply: a restated fact reconfirms, a new value of a single-valued
   key supersedes the old one, the session's newer summary supersedes its older one.
5. The transcript leaves the queue only when every memory it yields is written. An LLM
   that fails leaves it pending (the explicit facts are written anyway);
   ``retry_pending`` tries again, and so does the daemon, with backoff.

Ingesting the same transcript again, or a longer copy of it, writes nothing twice: the
ledger skips turns already read, and the write rules catch what it misses.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ..config import llm_url_refused
from ..errors import InvalidInput, LLMError, SecretRefused
from ..lifecycle import memory_state, rules_for
from ..vault.secrets import masked, names_a_secret
from .ledger import Ledger, Ledgers
from .llm import FROM_CONFIG, ChatClient, Extraction, extract, pair_judge, resolve_chat, summary_text
from .queue import PendingEntry, PendingQueue
from .request_judge import request_judge
from .signals import Judge, fact_persona, not_kept_notes, read_requests
from .transcript import LineProblem, Transcript, Turn, parse, parse_all, source_text, user_words

if TYPE_CHECKING:
    from ..api import VaultMemory
    from ..writing.rules import Remembering, RememberOutcome

#: what became of one memory of a transcript (``would write``: a dry run)
WrittenStatus = Literal["created", "reconfirmed", "superseded", "declined", "would write"]
#: conversations of an export written in one batch (one sync for all their facts), and
#: between two steps of its progress
BATCH_CONVERSATIONS = 500

#: what the LLM step did: none configured, done, nothing new to read, failed, or skipped
LLMStep = Literal["off", "done", "nothing new", "failed", "skipped (dry run)"]


@dataclass
class Written:
    status: WrittenStatus
    id: str | None
    type: str
    text: str
    key: str | None
    source: str
    turn: int | None

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class IngestReport:
    session: str
    format: str
    turns: int
    #: turns this run read (not in the ledger before)
    new_turns: int
    #: the title an export gave the conversation
    title: str | None = None
    signals: int = 0
    llm: LLMStep = "off"
    llm_error: str | None = None
    pending: bool = False
    dry_run: bool = False
    written: list[Written] = field(default_factory=list)
    problems: list[LineProblem] = field(default_factory=list)
    #: what the caller should know but is not a failure (an LLM answer cut to its cap)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "session": self.session,
            "title": self.title,
            "format": self.format,
            "turns": self.turns,
            "new_turns": self.new_turns,
            "signals": self.signals,
            "llm": self.llm,
            "llm_error": self.llm_error,
            "pending": self.pending,
            "dry_run": self.dry_run,
            "written": [w.to_dict() for w in self.written],
            "problems": [{"line": p.line, "message": p.message} for p in self.problems],
            "notes": self.notes,
        }


def ingest(
    mem: VaultMemory,
    source: str | Path | Transcript,
    *,
    format: str = "auto",
    session: str | None = None,
    persona: str | None = None,
    dry_run: bool = False,
    llm: ChatClient | None | str = FROM_CONFIG,
    now: dt.datetime | None = None,
) -> IngestReport:
    """Turn a conversation into memories (see the module docstring). ``source``: the
    transcript's text, a path to it, or a parsed ``Transcript``. ``llm``: the vault's
    endpoint by default, a ``ChatClient`` of the caller's, or None for explicit signals only. Never raises for an LLM that
    fails: the report says ``pending``."""
    transcript = _transcript(source, format, session)
    now = now or dt.datetime.now().astimezone()
    chat = resolve_chat(mem.config, llm)
    with Ledgers(mem.root) as ledgers:
        report = _ingest(mem, transcript, persona, dry_run, chat, now, ledgers)
    report.notes += ledgers.notes
    return report


def _ingest(
    mem: VaultMemory,
    transcript: Transcript,
    persona: str | None,
    dry_run: bool,
    chat: ChatClient | None,
    now: dt.datetime,
    ledgers: Ledgers,
) -> IngestReport:
    """``ingest`` of a parsed transcript, its ledger read from ``ledgers``."""
    if not transcript.turns:  # an empty conversation of an export: nothing to queue
        return _report(transcript, ledgers.get(transcript.session), dry_run=dry_run)
    if dry_run:
        ledger = ledgers.get(transcript.session)
        report = _report(transcript, ledger, dry_run=True)
        report.llm = "skipped (dry run)" if chat else "off"
        for item in _explicit_items(
            transcript.turns, ledger, transcript.session, persona, report.notes, _judge_of(mem)
        ):
            report.signals += 1
            refused = _refused(
                item, "would not write", _models_at(mem)
            )  # what the run would refuse, the dry run says it would
            if refused is not None:
                report.notes.append(refused)
            else:
                report.written.append(_written("would write", None, item))
        return report
    ledger = ledgers.get(transcript.session)
    queue = PendingQueue(mem.root)
    if _read_before(transcript.turns, ledger, chat, queue):  # nothing to queue, write or record again
        report = _report(transcript, ledger)
        report.llm = "nothing new" if chat is not None else "off"
        _note_refused_llm(mem, chat, report)
        return report
    entry = queue.put(transcript.session, transcript.turns, persona, now)
    report = process(mem, entry, chat, queue, now, ledgers)
    report.format, report.problems, report.title = transcript.format, transcript.problems, transcript.title
    return report


def ingest_all(
    mem: VaultMemory,
    source: str | Path | list[Transcript],
    *,
    format: str = "auto",
    session: str | None = None,
    persona: str | None = None,
    dry_run: bool = False,
    llm: ChatClient | None | str = FROM_CONFIG,
    now: dt.datetime | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> list[IngestReport]:
    """``ingest`` for every conversation of a file, in file order: an export (ChatGPT,
    Claude.ai, OpenAI JSONL) holds many, each its own session; the other formats one.
    ``progress``: ("ingest", conversations done, conversations) as it goes."""
    transcripts = source if isinstance(source, list) else parse_all(source_text(source), format, session)
    chat = resolve_chat(mem.config, llm)  # once for all of them
    if chat is None and not dry_run and len(transcripts) > 1:
        return _ingest_signals_only(mem, transcripts, persona, now or dt.datetime.now().astimezone(), progress)
    reports = []
    for done, transcript in enumerate(transcripts, start=1):
        reports.append(ingest(mem, transcript, persona=persona, dry_run=dry_run, llm=chat, now=now))
        if progress is not None:
            progress("ingest", done, len(transcripts))
    return reports


def retry_pending(
    mem: VaultMemory,
    *,
    due_only: bool = False,
    llm: ChatClient | None | str = FROM_CONFIG,
    now: dt.datetime | None = None,
) -> tuple[list[IngestReport], list[str]]:
    """Work through the pending queue, oldest first: (a report per transcript, the queue
    files that could not be read). ``due_only`` honours each entry's backoff (the daemon);
    a person asking gets every entry tried now."""
    now = now or dt.datetime.now().astimezone()
    queue = PendingQueue(mem.root)
    entries, problems = queue.entries()
    chat = resolve_chat(mem.config, llm)
    reports = []
    with Ledgers(mem.root) as ledgers:
        for entry in entries:
            if due_only and not entry.due(now):
                continue
            try:
                reports.append(process(mem, entry, chat, queue, now, ledgers))
            except InvalidInput as e:  # this entry can never be written as it is: out of the way
                where = queue.quarantine(entry.path) if entry.path else "left where it is"
                problems.append(f"{entry.path}: cannot be ingested ({e}); {where}")
    return reports, problems + ledgers.notes


def remember_said(
    mem: VaultMemory,
    text: str,
    *,
    session: str | None = None,
    persona: str | None = None,
    now: dt.datetime | None = None,
    seconds: float | None = None,
) -> list[RememberOutcome]:
    """What the user asked, in one message, to be remembered (the explicit signals that
    ``ingest`` reads), written at once through the write rules: the prompt hook's
    "remember that…". The message is recorded in ``session``'s ledger, so the ``ingest`` of
    the session's transcript later reads it as already done. [] when it asks nothing.
    ``seconds`` bounds each reading of the message (``signals.read_requests``)."""
    text = user_words(text)  # the IDE's selection and the harness's reminders are not the user's
    judge = _judge_of(mem)
    signals, declined = read_requests(text, seconds, judge)
    if not signals:  # the common case costs one pass of the patterns
        mem.vault.warnings += not_kept_notes(declined)
        return []
    session = session or "prompt"
    with Ledgers(mem.root) as ledgers:
        outcomes = _remember_said(mem, text, session, persona, now, ledgers.get(session), judge, seconds)
    mem.vault.warnings += ledgers.notes
    return outcomes


def _remember_said(
    mem: VaultMemory,
    text: str,
    session: str,
    persona: str | None,
    now: dt.datetime | None,
    ledger: Ledger,
    judge: Judge,
    seconds: float | None = None,
) -> list[RememberOutcome]:
    turn = Turn("user", text, 1)
    if turn.digest in ledger.explicit:  # the same words again in one conversation: read once
        mem.vault.warnings.append(
            "not written again: this conversation said the same words before, and they were read then"
        )
        return []
    from ..writing.rules import refuse_secrets_in_words, validate

    items = []
    for item in _explicit_items([turn], ledger, session, persona, mem.vault.warnings, judge, seconds):
        item.fields.pop("turn", None)  # its place in the transcript is not known yet
        try:
            validate(item)  # a secret among them is left out, and the rest is written
            refuse_secrets_in_words([item], _models_at(mem))
        except InvalidInput as e:
            mem.vault.warnings.append(f"not remembered from a prompt ({e})")
            continue
        items.append(item)
    outcomes = mem.remember_many(items, now=now or dt.datetime.now().astimezone()) if items else []
    ledger.explicit.add(turn.digest)
    ledger.save()
    return outcomes


def pending(mem: VaultMemory) -> list[PendingEntry]:
    return PendingQueue(mem.root).entries()[0]


def process(
    mem: VaultMemory,
    entry: PendingEntry,
    chat: ChatClient | None,
    queue: PendingQueue,
    now: dt.datetime,
    ledgers: Ledgers,
) -> IngestReport:
    """Turn one queued transcript into memories; dequeue it when all of them are written."""
    ledger = ledgers.get(entry.session)
    transcript = Transcript(entry.turns, "queued", entry.session)
    report = _report(transcript, ledger)
    explicit = _explicit_items(entry.turns, ledger, entry.session, entry.persona, report.notes, _judge_of(mem))
    report.signals = len(explicit)
    # what the user said is on disk before any LLM call can stall or fail
    _write(mem, explicit, report, ledger, now)
    ledger.explicit |= {t.digest for t in entry.turns}
    ledger.save()
    unread = [t for t in entry.turns if t.digest not in ledger.llm]
    _note_refused_llm(mem, chat, report)
    if chat is not None:
        if not unread:
            report.llm = "nothing new"
        else:
            try:
                extraction = extract(chat, entry.turns, new_from=unread[0].number)
            except LLMError as e:
                report.llm, report.llm_error = "failed", str(e)
            else:
                report.llm = "done"
                judge, mem.judge = (
                    mem.judge,
                    pair_judge(chat, report.notes),
                )  # the model settles its own facts' conflicts
                try:
                    _write(mem, _llm_items(extraction, entry, ledger, chat, report), report, ledger, now)
                finally:
                    mem.judge = judge
    # the memories are on disk: only now is the transcript's reading recorded
    if report.llm in ("done", "nothing new"):
        ledger.llm |= {t.digest for t in entry.turns}
    ledger.save()
    if report.llm == "failed":
        queue.failed(entry, report.llm_error or "the LLM failed", now)
        report.pending = True
    else:
        queue.done(entry)
    return report


def _read_before(turns: list[Turn], ledger: Ledger, chat: ChatClient | None, queue: PendingQueue) -> bool:
    """Whether every turn was read before, for its explicit signals and (with a model) by
    the model, and nothing of the conversation waits in the queue (a reading killed before
    it dequeued): an export ingested again costs a read of each conversation's ledger, not
    a queue entry and its fsyncs."""
    digests = {turn.digest for turn in turns}
    read = digests <= ledger.explicit and (chat is None or digests <= ledger.llm)
    return read and not queue.holds(ledger.session)


def _note_refused_llm(mem: VaultMemory, chat: ChatClient | None, report: IngestReport) -> None:
    """Say why a vault's ``[llm]`` endpoint was not asked (one the user did not choose)."""
    refused = llm_url_refused(mem.config) if chat is None else None
    if refused:
        report.notes.append(refused)


def _ingest_signals_only(
    mem: VaultMemory,
    transcripts: list[Transcript],
    persona: str | None,
    now: dt.datetime,
    progress: Callable[[str, int, int], None] | None,
) -> list[IngestReport]:
    """The conversations of an export without a model, ``BATCH_CONVERSATIONS`` at a time:
    the batch's new conversations queued in one file (one durable write), all their
    explicit signals written at once (one lock, one sync, one snapshot: a conversation at a
    time synced the index before each one's facts, 75 ms each), then each one's reading
    recorded and the batch dequeued. A kill at any point leaves what was not recorded
    queued, and the write rules keep a second reading from writing anything twice."""
    queue = PendingQueue(mem.root)
    problems = queue.recover()  # a batch a kill left: its conversations wait one by one again
    reports: list[IngestReport] = []
    with Ledgers(mem.root) as ledgers:
        for start in range(0, len(transcripts), BATCH_CONVERSATIONS):
            chosen: list[tuple[Transcript, Ledger, IngestReport]] = []
            for transcript in transcripts[start : start + BATCH_CONVERSATIONS]:
                ledger = ledgers.get(transcript.session)
                report = _report(transcript, ledger)
                _note_refused_llm(mem, None, report)
                report.notes += problems + ledgers.notes
                problems, ledgers.notes = [], []
                reports.append(report)
                if transcript.turns and not _read_before(transcript.turns, ledger, None, queue):
                    chosen.append((transcript, ledger, report))
            _ingest_batch(mem, queue, chosen, persona, now, ledgers)
            if progress is not None:
                progress("ingest", len(reports), len(transcripts))
    if ledgers.notes and reports:
        reports[-1].notes += ledgers.notes
    return reports


def _ingest_batch(
    mem: VaultMemory,
    queue: PendingQueue,
    chosen: list[tuple[Transcript, Ledger, IngestReport]],
    persona: str | None,
    now: dt.datetime,
    ledgers: Ledgers,
) -> None:
    """One batch of ``_ingest_signals_only``. A conversation already waiting on its own
    (a reading a kill or a model left) is merged into its entry as ``ingest`` merges it; the
    others are queued together."""
    held = [queue.holds(t.session) for t, _, _ in chosen]  # one stat each
    waiting = [each for each, waits in zip(chosen, held, strict=True) if waits]
    fresh = [each for each, waits in zip(chosen, held, strict=True) if not waits]
    entries = [queue.put(t.session, t.turns, persona, now) for t, _, _ in waiting]
    batch, batched = queue.put_batch([(t.session, t.turns) for t, _, _ in fresh], persona, now) if fresh else (None, [])
    queued = list(zip([*entries, *batched], [*waiting, *fresh], strict=True))
    groups = []
    for entry, (_, ledger, report) in queued:
        items = _explicit_items(entry.turns, ledger, entry.session, entry.persona, report.notes, _judge_of(mem))
        report.signals = len(items)
        groups.append((items, report, ledger))
    _write_groups(mem, groups, now)
    for entry, (_, ledger, _) in queued:  # the memories are on disk: only now is the reading recorded
        ledger.explicit |= {t.digest for t in entry.turns}
    # in one transaction; the batch's file is the durable record until it goes
    ledgers.save([ledger for _, (_, ledger, _) in queued], durable=False)
    for entry in entries:
        queue.done(entry)
    if batch is not None:
        queue.done_batch(batch)


def _write(mem: VaultMemory, items: list[Remembering], report: IngestReport, ledger: Ledger, now: dt.datetime) -> None:
    """Write ``items`` through the write rules and say so in ``report``; one that no rule
    can write (a control character from a model's reply) is reported and the rest written."""
    _write_groups(mem, [(items, report, ledger)], now)


def _write_groups(
    mem: VaultMemory, groups: list[tuple[list[Remembering], IngestReport, Ledger]], now: dt.datetime
) -> None:
    """``_write`` for the items of several conversations at once, in one ``remember_many``;
    each conversation's report says what became of its own."""
    writable: list[tuple[Remembering, IngestReport, Ledger]] = []
    for items, report, ledger in groups:
        for item in items:
            refused = _refused(item, cache_dir=_models_at(mem))
            if refused is not None:
                report.notes.append(refused)
            else:
                writable.append((item, report, ledger))
    outcomes = mem.remember_many([item for item, _, _ in writable], now=now) if writable else []
    for (item, report, ledger), outcome in zip(writable, outcomes, strict=True):
        report.written.append(_written(outcome.status, outcome.memory.id, item))
        if outcome.status == "declined":  # what was not written, and why
            report.notes += outcome.warnings
        if item.type == "summary" and outcome.status not in ("reconfirmed", "declined"):
            ledger.summary = outcome.memory.id
    _note_past(mem, [(item, report, outcome) for (item, report, _), outcome in zip(writable, outcomes)], now)


def _note_past(
    mem: VaultMemory, written: list[tuple[Remembering, IngestReport, RememberOutcome]], now: dt.datetime
) -> None:
    """Each report told how many of its new memories, dated when they were said, are
    already stale or expired today (an old export's): recall leaves them out."""
    rules = rules_for(mem.config)
    past: dict[int, tuple[IngestReport, dict[str, int]]] = {}  # by report (not hashable): it, its counts by state
    for item, report, outcome in written:
        if outcome.status in ("created", "superseded") and item.said_at is not None:
            state = memory_state(outcome.memory, now, set(), rules)
            if state in ("stale", "expired"):
                counts = past.setdefault(id(report), (report, {}))[1]
                counts[state] = counts.get(state, 0) + 1
    for report, counts in past.values():
        report.notes.append(_past_note(counts))


def _past_note(counts: dict[str, int]) -> str:
    """What to tell of memories dated when they were said, long enough ago that recall
    leaves them out today (an old export)."""
    said = ", ".join(f"{n} {state}" for state, n in sorted(counts.items()))
    return (
        f"dated when they were said, {said} today: recall leaves them out (--include-stale, --include-expired "
        "show them); `vmem confirm ID` says one is still true"
    )


def _llm_items(
    extraction: Extraction, entry: PendingEntry, ledger: Ledger, chat: ChatClient, report: IngestReport
) -> list[Remembering]:
    """The model's facts, episodes and session summary as memories to write (``inferred``);
    the summary supersedes the session's previous one. Facts and episodes are capped per
    answer (``[llm] max_facts``) and per conversation (``max_session_facts``): a reply of
    10,000 facts wrote 3,005 files before it was stopped."""
    from ..writing.rules import Remembering

    last = entry.turns[-1].number if entry.turns else None
    said_at = {t.number: t.said_at for t in entry.turns}

    def fields(turn: int | None, **more: Any) -> dict[str, Any]:
        return {"source": "inferred", "conversation": entry.session, "turn": turn or last, **more}

    def said(turn: int | None) -> dt.datetime | None:  # when the turn was said (the last turn's, for none)
        return said_at.get(turn or last or 0)

    said_by_user = {t.number for t in entry.turns if t.role == "user"}
    facts = [fact for fact in extraction.facts if fact.turn in said_by_user]
    if len(facts) < len(extraction.facts):  # a model's fact must come from what the user said
        refused = len(extraction.facts) - len(facts)
        report.notes.append(
            f"{refused} of the LLM's facts not written: they name no turn of the user's (an assistant's or a "
            "tool's words are never the user's facts)"
        )
    items = [
        Remembering(
            fact.text,
            key=fact.key,
            persona=fact_persona(fact.text, entry.persona),  # the user's own facts are for every persona
            fields=fields(fact.turn, domain=fact.domain, confidence=fact.confidence),
            said_at=said(fact.turn),
        )
        for fact in facts
    ]
    items += [
        Remembering(
            text,
            type="episode",
            persona=entry.persona,
            fields=fields(turn, confidence="medium"),
            said_at=said(turn),
        )
        for text, turn in extraction.episodes
    ]
    room = max(0, min(chat.max_facts, chat.max_session_facts - ledger.inferred))
    if len(items) > room:
        report.notes.append(
            f"the LLM answered {len(items)} facts and episodes; {room} kept "
            f"([llm] max_facts {chat.max_facts}, max_session_facts {chat.max_session_facts})"
        )
        items = items[:room]
    ledger.inferred += len(items)
    if extraction.summary:
        items.append(
            Remembering(
                summary_text(extraction.summary),
                type="summary",
                persona=entry.persona,
                supersedes=[ledger.summary] if ledger.summary else [],
                fields=fields(None, confidence="medium", tags=["session-summary"]),
                said_at=said(None),
            )
        )
    return items


def _judge_of(mem: VaultMemory) -> Judge:
    """The request judge, with the model's copy where the vault's config keeps models."""
    return request_judge(_models_at(mem))


def _models_at(mem: VaultMemory) -> str | None:
    """Where the vault's config keeps the models' loaded copies (None: the default)."""
    return mem.config["embedding"]["cache_dir"] or None


def _explicit_items(
    turns: list[Turn],
    ledger: Ledger,
    session: str,
    persona: str | None,
    notes: list[str],
    judge: Judge,
    seconds: float | None = None,
) -> list[Remembering]:
    """What the user's turns ask to keep; each request not kept is named in ``notes``, with why."""
    from ..writing.rules import Remembering

    items = []
    for turn in turns:
        if turn.role != "user" or turn.digest in ledger.explicit:  # only the user's words, once
            continue
        signals, declined = read_requests(turn.content, seconds, judge)
        notes += not_kept_notes(declined)
        for signal in signals:
            items.append(
                Remembering(
                    signal.text,
                    key=signal.key,
                    type="fact",
                    persona=fact_persona(signal.text, persona, signal.rule),
                    fields={
                        "domain": signal.domain,
                        "confidence": "high",
                        "source": "explicit",
                        "conversation": session,
                        "turn": turn.number,
                    },
                    said_at=turn.said_at,
                )
            )
    return items


def _refused(item: Remembering, said: str = "not written", cache_dir: str | None = None) -> str | None:
    """Why no rule can write ``item`` (``writing.rules.validate``, and the secret judge's
    reading of a fact, ``refuse_secrets_in_words``), as the ingest report and the hook log
    say it: its turn and the reason, and for a secret its kind alone, never its text (a log
    is a file too), opening with ``said``; None when it can be written. ``cache_dir``: where
    the judge's model keeps its loaded copy (``[embedding] cache_dir``)."""
    from ..writing.rules import refuse_secrets_in_words, validate

    try:
        validate(item)
        refuse_secrets_in_words([item], cache_dir)
    except SecretRefused as e:
        return f"{said}{_of_turn(item)}: it holds what looks like {e.kind}; secrets are never stored"
    except InvalidInput as e:
        if names_a_secret(item.text):  # its value may read as no secret: none of it is quoted
            return f"{said}{_of_turn(item)} ({e})"
        return f"{said}{_of_turn(item)} ({e}): {masked(item.text)[:60]!r}"  # masked whole, then cut
    return None


def _of_turn(item: Remembering) -> str:
    turn = item.fields.get("turn")
    return f" (turn {turn})" if isinstance(turn, int) else ""


def _written(status: WrittenStatus, memory_id: str | None, item: Remembering) -> Written:
    return Written(
        status,
        memory_id,
        item.type,
        item.text,
        item.key,
        str(item.fields.get("source")),
        item.fields.get("turn"),
    )


def _report(transcript: Transcript, ledger: Ledger, dry_run: bool = False) -> IngestReport:
    seen = ledger.explicit | ledger.llm
    new = sum(1 for t in transcript.turns if t.digest not in seen)
    return IngestReport(
        transcript.session,
        transcript.format,
        len(transcript.turns),
        new,
        transcript.title,
        problems=transcript.problems,
        dry_run=dry_run,
    )


def _transcript(source: str | Path | Transcript, fmt: str, session: str | None) -> Transcript:
    return source if isinstance(source, Transcript) else parse(source_text(source), fmt, session)
