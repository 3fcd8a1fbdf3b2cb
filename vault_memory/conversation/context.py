"""``vmem context``: one prompt-ready block for an agent that manages its own window,
the same size however long the conversation runs (seed 004, sections 1.2 and 2).

The block holds, within ``budget`` tokens:

1. the memory block for the latest user turn (``recall``), without the memories this
   conversation's recent turns stated (they are in the window already);
2. the older turns, folded: segments of 3 turns, a topic shift ("changing the subject",
   "otra cosa", or a user turn unlike the one before) closing a segment early; the 4
   latest shown, each as its key-value summary when an LLM is configured (written once
   and cached under ``.vmem/context/``, never re-summarised), else as the explicit facts
   its user turns stated (never invented text);
3. the most recent turns verbatim: 6 by default, 8 while the conversation stays on one
   subject, 4 when it hops (similarity of the last turns, measured with the embedder).

Segments are cut forward from the first turn and cached, so each call reads only the
turns that arrived since the last one, and a segment's summary never changes.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import safejson
from ..config import StateLayout
from ..errors import LLMError, VaultError
from ..lang import all_packs
from ..recall.render import defang, estimate_tokens, one_line
from ..vault.fsutil import atomic_write, private_dir
from .llm import FROM_CONFIG, ChatClient, parse_reply, resolve_chat, summary_text, validate
from .queue import file_stem
from .signals import explicit_signals
from .transcript import Transcript, Turn, parse, source_text

if TYPE_CHECKING:
    from ..api import VaultMemory

SEGMENT_TURNS = 3
MAX_SEGMENTS = 4
WINDOW_MIN, WINDOW_MAX = 4, 8
#: consecutive turns this similar (both of the last two pairs) widen the window to 8 …
CONTINUITY_HIGH = 0.7
#: … and this dissimilar narrow it to 4 (seed 004, 1.2)
CONTINUITY_LOW = 0.3
#: a user turn this unlike the previous user turn starts a new subject (seed 004 says 0.4
#: for its model; all-MiniLM puts unrelated questions at 0.0–0.2 and follow-ups above 0.35)
SHIFT_SIMILARITY = 0.25
#: characters of a turn that are embedded (the start says what it is about)
EMBED_CHARS = 600
TOPIC_SHIFT = re.compile(rf"\b(?:{'|'.join(p for pack in all_packs() for p in pack.topic_shifts)})\b", re.IGNORECASE)

SEGMENT_PROMPT = """Summarise this part of a conversation as one JSON object and nothing else:
{"topic": "...", "discussed": ["..."], "outcome": "...", "decisions": ["..."], "open_questions": ["..."]}
Key-value, not narrative: short phrases, at most 40 words in all. Only what the turns say."""


@dataclass
class Segment:
    start: int  # first turn number
    end: int  # last turn number
    digest: str  # of its turns: a cache entry is used only for the same turns
    shift: bool = False  # it began with a topic shift
    summary: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class ContextBlock:
    text: str
    budget: int
    session: str
    turns: int
    window: list[int] = field(default_factory=list)
    segments: list[dict[str, Any]] = field(default_factory=list)
    memories: int = 0
    #: how many turns the "Earlier" section stands for (as summaries or stated facts)
    folded: int = 0
    #: the turns neither shown nor folded (older than the segments kept, or cut to fit the
    #: budget): said in the block, so no turn goes missing unannounced
    left_out: list[int] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: the agent's own summary of what came before its last compaction was shown
    compaction: bool = False

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.text)

    def to_dict(self) -> dict[str, Any]:
        return {
            "session": self.session,
            "turns": self.turns,
            "budget": self.budget,
            "tokens": self.tokens,
            "window": self.window,
            "segments": self.segments,
            "memories": self.memories,
            "folded": self.folded,
            "left_out": self.left_out,
            "compaction": self.compaction,
            "warnings": self.warnings,
            "text": self.text,
        }


def context(
    mem: VaultMemory,
    source: str | Path | Transcript,
    *,
    format: str = "auto",
    session: str | None = None,
    budget: int | None = None,
    window: int | None = None,
    persona: str | None = None,
    llm: ChatClient | None | str = FROM_CONFIG,
) -> ContextBlock:
    """The prompt-ready block for the conversation in ``source`` (see the module docstring)."""
    if isinstance(source, Transcript):
        transcript = source
    else:
        transcript = parse(source_text(source), format, session)
    budget = budget or mem.config["context"]["budget"]
    turns = transcript.turns
    warnings: list[str] = []
    embed = _Embeddings(mem, warnings)

    size = _window_size(turns, window or mem.config["context"]["window"], embed, fixed=window is not None)
    recent = turns[-size:] if turns else []
    older = turns[: len(turns) - len(recent)]
    cache = _Cache(mem.root, transcript.session)
    stable = turns[: max(0, len(turns) - WINDOW_MAX)]  # never in any window again: safe to cut and cache
    segments = _segments(stable, cache, embed)
    chat = resolve_chat(mem.config, llm)
    if chat is not None:
        _summarise(segments[-MAX_SEGMENTS:], turns, chat, warnings)
    cache.save(segments)
    loose = older[len(stable) :] if len(older) > len(stable) else []  # between the segments and the window

    # the budget, shared: memories first (they are why vmem is here), then the window, then the past
    memory_budget = min(mem.config["recall"]["budget"], budget // 4)
    past_budget = max(60, budget * 6 // 100)
    memory_block, recalled = _memory_section(mem, transcript, recent, memory_budget, persona, warnings)
    groups = [(seg.start, seg.end, seg.summary) for seg in segments[-MAX_SEGMENTS:]]
    if loose:
        groups.append((loose[0].number, loose[-1].number, None))
    past_text, folded_from = _past_text(groups, turns, older, past_budget)
    compaction = _compaction_section(transcript.compactions, max(80, budget // 10))
    text, shown_turns, folded, left_out = _assemble(
        (memory_block, compaction, past_text), turns, older, recent, folded_from, budget
    )
    return ContextBlock(
        text=text,
        budget=budget,
        session=transcript.session,
        turns=len(turns),
        window=shown_turns,
        segments=[s.to_dict() for s in segments[-MAX_SEGMENTS:]],
        memories=recalled,
        folded=len(folded),
        left_out=left_out,
        warnings=warnings,
        compaction=bool(compaction),
    )


def _assemble(
    fixed: tuple[str, str, str],
    turns: list[Turn],
    older: list[Turn],
    recent: list[Turn],
    folded_from: int | None,
    budget: int,
) -> tuple[str, list[int], list[int], list[int]]:
    """The block: the memories, the compaction, the past and as many recent turns as fit
    ``budget`` (fewer until the whole fits: the estimate of a join can round up); with the
    turns shown, folded and left out."""
    memory_block, compaction, past_text = fixed
    fixed_cost = estimate_tokens(memory_block) + estimate_tokens(compaction) + estimate_tokens(past_text) + 40
    window_text, shown_turns = _fit_window(recent, budget - fixed_cost)
    while True:
        folded = [t.number for t in older if folded_from is not None and t.number >= folded_from]
        left_out = [t.number for t in turns if t.number not in folded and t.number not in shown_turns]
        parts = (memory_block, compaction, _past_section(past_text, folded, left_out, older), window_text)
        text = "\n\n".join(part for part in parts if part)
        if estimate_tokens(text) <= budget or not shown_turns:
            return text, shown_turns, folded, left_out
        window_text, shown_turns = _fit_window(recent[-len(shown_turns) + 1 :], budget - fixed_cost - 20)


def _memory_section(
    mem: VaultMemory, transcript: Transcript, recent: list[Turn], budget: int, persona: str | None, warnings: list[str]
) -> tuple[str, int]:
    """The memory block for the latest user turn, without the memories the window's turns
    stated (they are in the window already), and how many it shows."""
    query = next((t.content for t in reversed(transcript.turns) if t.role == "user"), "")
    if not query.strip():
        return "", 0
    try:
        result = mem.recall(query[:1000], budget=budget, persona=persona)
    except VaultError as e:
        warnings.append(f"no memories: {e}")
        return "", 0
    shown = {t.number for t in recent}  # what the window states needs no memory line
    kept = result.keeping(lambda h: not (h.memory.conversation == transcript.session and h.memory.turn in shown))
    return kept.block, len(kept.selection)


def _past_text(
    groups: list[tuple[int, int, dict[str, Any] | None]], turns: list[Turn], older: list[Turn], budget: int
) -> tuple[str, int | None]:
    """The folded groups' lines that fit ``budget`` (newest kept), and the first turn they
    stand for (older turns are left out); None when there is none."""
    past_lines = _past_lines(groups, turns)
    folded_from = groups[0][0] if groups else None  # older than the latest segments: left out
    if not older:
        return "", folded_from
    past_text, kept = _fit_lines(past_lines, budget)
    if kept < len(past_lines):  # the budget took the oldest lines: their turns are left out
        folded_from = past_lines[len(past_lines) - kept][0] if kept else None
    return past_text, folded_from


def _compaction_section(summaries: list[str], budget: int) -> str:
    """The latest compaction summary, as what it is: the agent's model wrote it, so it
    informs the block but is never read as the user's words (nor yields a fact)."""
    if not summaries:
        return ""
    heading = "## Before the last compaction (the agent's own summary, not the user's words)"
    room = budget - estimate_tokens(heading) - 2
    whole = text = defang(summaries[-1].strip())
    while text and estimate_tokens(text) > room:  # cut at a line, else a word, else a character
        mark = len(text) * 3 // 4
        cut = text.rfind("\n", 0, mark)
        cut = cut if cut > 0 else text.rfind(" ", 0, mark)
        text = text[:cut] if cut > 0 else text[:mark]
    if text and text != whole:
        text = text.rstrip() + " […]"
    return f"{heading}\n{text}" if text else ""


# ---------------------------------------------------------------------------- window


class _Embeddings:
    """Turn vectors, asked for once each (the daemon's warm model when it runs)."""

    def __init__(self, mem: VaultMemory, warnings: list[str]):
        self.mem, self.warnings, self.failed = mem, warnings, False
        self.vectors: dict[str, list[float]] = {}

    def similarity(self, pairs: list[tuple[Turn, Turn]]) -> list[float | None]:
        wanted = {t.digest: t for pair in pairs for t in pair if t.digest not in self.vectors}
        if wanted and not self.failed:
            try:
                vectors = self.mem.embed([t.content[:EMBED_CHARS] for t in wanted.values()])
                self.vectors.update(zip(wanted, vectors, strict=True))
            except VaultError as e:
                self.failed = True
                self.warnings.append(f"similarity not measured ({e}); fixed window, phrase-only topic shifts")
        import numpy as np  # only where similarity is measured: `vmem context` without it stays light

        from ..index.embedder import model_parts
        from ..lang import detect
        from ..recall.languages import pair_cosine

        parts = model_parts(self.mem.config["embedding"]["model"])
        out: list[float | None] = []
        for a, b in pairs:
            va, vb = self.vectors.get(a.digest), self.vectors.get(b.digest)
            out.append(
                pair_cosine(np.asarray(va), np.asarray(vb), parts, detect(a.content), detect(b.content))
                if va and vb
                else None
            )
        return out


def _window_size(turns: list[Turn], default: int, embed: _Embeddings, fixed: bool) -> int:
    if fixed or len(turns) <= WINDOW_MIN:
        return min(default, len(turns))
    last = turns[-3:]
    sims = [s for s in embed.similarity(list(zip(last, last[1:], strict=False))) if s is not None]
    size = default
    if len(sims) == 2 and all(s > CONTINUITY_HIGH for s in sims):
        size = WINDOW_MAX
    elif len(sims) == 2 and all(s < CONTINUITY_LOW for s in sims):
        size = WINDOW_MIN
    return min(max(WINDOW_MIN, min(size, WINDOW_MAX)), len(turns))


def _fit_window(recent: list[Turn], room: int) -> tuple[str, list[int]]:
    """The newest turns that fit ``room`` tokens, oldest first; the newest is always
    there, shortened if it must be."""
    heading = "## Recent turns"
    room -= estimate_tokens(heading) + 1
    lines: list[str] = []
    numbers: list[int] = []
    asked = any(t.role == "user" for t in recent)
    user_shown = False  # the user's latest words are in the window, shortened if they must be
    for i, turn in enumerate(reversed(recent)):
        line = f"{'User' if turn.role == 'user' else 'Assistant'}: {defang(turn.content.strip())}"
        cost = estimate_tokens(line) + 1
        if not i and turn.role != "user" and asked and cost > room * 2 // 3:
            # a long last reply leaves room for what the user asked before it
            line = _clamp(line, room * 2 // 3)
            cost = estimate_tokens(line) + 1
        if cost > room:
            if lines and (turn.role != "user" or user_shown):
                break
            line = _clamp(line, room - 1)
            if not line:
                break
            cost = estimate_tokens(line) + 1
        lines.append(line)
        numbers.append(turn.number)
        user_shown = user_shown or turn.role == "user"
        room -= cost
    if not lines:
        return "", []
    return "\n".join([heading, *reversed(lines)]), sorted(numbers)


def _clamp(text: str, tokens: int) -> str:
    """The start of ``text`` within ``tokens``, marked as cut."""
    if tokens < 8:
        return ""
    out = text
    while estimate_tokens(out + " […]") > tokens and out:
        out = out[: max(1, int(len(out) * 0.8))]
    return (out + " […]") if out != text else out


# ---------------------------------------------------------------------------- past


def _segments(stable: list[Turn], cache: _Cache, embed: _Embeddings) -> list[Segment]:
    """Cut ``stable`` into segments forward from the first turn, reusing the cached cut."""
    segments = cache.load(stable)
    done = segments[-1].end if segments else 0
    rest = [t for t in stable if t.number > done]
    similarity = _user_similarity(stable, rest, done, embed)
    current: list[Turn] = []
    shift_at_start = False
    for turn in rest:
        similar = similarity.get(turn.number)
        shift = turn.role == "user" and (
            bool(TOPIC_SHIFT.search(turn.content)) or (similar is not None and similar < SHIFT_SIMILARITY)
        )
        if current and shift:
            segments.append(_segment(current, shift_at_start))
            current = []
        if not current:
            shift_at_start = shift
        current.append(turn)
        if len(current) == SEGMENT_TURNS:
            segments.append(_segment(current, shift_at_start))
            current = []
    if current:  # a segment still filling: shown, not cached
        segments.append(_segment(current, shift_at_start, closed=False))
    return segments


def _user_similarity(stable: list[Turn], rest: list[Turn], done: int, embed: _Embeddings) -> dict[int, float | None]:
    """For each user turn of ``rest``, how like the user turn before it it is (None for
    the first, which has none), measured once for all."""
    previous_user = next((t for t in reversed(stable) if t.number <= done and t.role == "user"), None)
    user_rest = [t for t in rest if t.role == "user"]
    pairs = list(zip([previous_user, *user_rest[:-1]], user_rest, strict=True)) if user_rest else []
    sims = iter(embed.similarity([(a, b) for a, b in pairs if a is not None]) if pairs else [])
    return {b.number: next(sims) if a is not None else None for a, b in pairs}


def _segment(turns: list[Turn], shift: bool, closed: bool = True) -> Segment:
    digest = hashlib.sha256("".join(t.digest for t in turns).encode()).hexdigest()[:16]
    return Segment(turns[0].number, turns[-1].number, digest if closed else "", shift)


def _summarise(segments: list[Segment], turns: list[Turn], chat: ChatClient, warnings: list[str]) -> None:
    """A summary for each closed segment that has none yet; one that fails is tried again
    next time (its facts stand in meanwhile)."""
    for segment in segments:
        if segment.summary is not None or not segment.digest:
            continue
        part = [t for t in turns if segment.start <= t.number <= segment.end]
        shown = "\n".join(f"{'User' if t.role == 'user' else 'Assistant'}: {t.content[:1500]}" for t in part)
        try:
            reply = chat.reply([{"role": "system", "content": SEGMENT_PROMPT}, {"role": "user", "content": shown}])
            data = parse_reply(reply)
            summary = validate({"summary": data.get("summary", data) if isinstance(data, dict) else data}, set())
        except LLMError as e:
            warnings.append(f"turns {segment.start}–{segment.end} not summarised: {e}")
            return  # the endpoint is down: do not wait for it once per segment
        segment.summary = summary.summary or {}


def _past_lines(groups: list[tuple[int, int, dict[str, Any] | None]], turns: list[Turn]) -> list[tuple[int, str]]:
    """(first turn, line) per folded group that has something to say, oldest first: its
    summary, else the facts its user turns stated (also those the memory block holds: the
    line says where in the conversation they were said)."""
    by_number = {t.number: t for t in turns}
    lines = []
    for start, end, summary in groups:
        if summary:
            lines.append((start, f"- {_span(start, end)}: {defang(one_line(summary_text(summary)))}"))
            continue
        facts = []
        for number in range(start, end + 1):
            turn = by_number.get(number)
            if turn is not None and turn.role == "user":
                facts += [s.text for s in explicit_signals(turn.content)]
        if facts:
            lines.append((start, f"- {_span(start, end)}: {defang('; '.join(dict.fromkeys(facts)))}"))
            continue
        # no summary, no fact: what the user asked, in their words (an agent's session of
        # tool calls otherwise folded into "nothing was said")
        asked = [
            _clip(one_line(t.content), USER_WORDS_CHARS)
            for n in range(start, end + 1)
            if (t := by_number.get(n)) is not None and t.role == "user" and t.content.strip()
        ]
        if asked:
            lines.append((start, f"- {_span(start, end)}: the user said {defang('; '.join(repr(a) for a in asked))}"))
    return lines


#: characters of one user turn quoted for a folded group with no summary or fact
USER_WORDS_CHARS = 120


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _span(start: int, end: int) -> str:
    return f"turn {start}" if start == end else f"turns {start}–{end}"


def _spans(numbers: list[int]) -> str:
    """``[1, 2, 3, 7]`` → ``turns 1–3, turn 7``."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(_span(a, b) for a, b in runs)


def _past_section(lines_text: str, folded: list[int], left_out: list[int], older: list[Turn]) -> str:
    """The "Earlier" section: what its lines stand for, and which turns were left out (the
    older ones past the latest segments or the budget, and recent ones the window had no
    room for)."""
    if not folded and not left_out:
        return ""
    first_recent = older[-1].number + 1 if older else 1
    notes = []
    if folded:
        notes.append(f"{_spans(folded)} folded")
    old = [n for n in left_out if n < first_recent]
    cut = [n for n in left_out if n >= first_recent]
    if old:
        notes.append(f"{_spans(old)} left out")
    if cut:
        notes.append(f"{_spans(cut)} left out to fit the budget")
    heading = f"## Earlier in this conversation ({'; '.join(notes)})"
    if folded and not lines_text:
        heading += "\nNothing the user said was kept from the folded turns."
    return "\n".join(part for part in (heading, lines_text) if part)


def _fit_lines(lines: list[tuple[int, str]], budget: int) -> tuple[str, int]:
    """The newest lines that fit ``budget`` tokens (oldest dropped first) and how many."""
    kept: list[str] = []
    room = budget - 24  # the heading
    for _, line in reversed(lines):
        cost = estimate_tokens(line) + 1
        if cost > room:
            line = _clamp(line, room - 1)
            if not line:
                break
            cost = estimate_tokens(line) + 1
        kept.append(line)
        room -= cost
    return "\n".join(reversed(kept)), len(kept)


class _Cache:
    """``.vmem/context/<session>.json``: the cut of a conversation's older turns and the
    summaries written for it. Derived (deleting it costs only the LLM calls to redo)."""

    KEEP = 2 * MAX_SEGMENTS

    def __init__(self, vault_root: Path, session: str):
        self.path = StateLayout.of(vault_root).context / f"{file_stem(session)}.json"
        self.text = ""  # as read: a cut that did not change is not written again

    def load(self, stable: list[Turn]) -> list[Segment]:
        """The cached cut, as far as it still fits ``stable``; [] for a cache that is
        missing or damaged in any way (it is derived: it is cut again)."""
        try:
            self.text = self.path.read_text(encoding="utf-8")
            return self._valid(safejson.loads(self.text), stable)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return []

    def _valid(self, data: Any, stable: list[Turn]) -> list[Segment]:
        segments = [Segment(**s) for s in data["segments"]]
        by_number = {t.number: t for t in stable}
        valid: list[Segment] = []
        for s in segments:  # a cut made for other turns (an edited transcript) is not reused
            part = [by_number.get(n) for n in range(s.start, s.end + 1)]
            if not s.digest or None in part:
                break
            if _segment([t for t in part if t is not None], s.shift).digest != s.digest:
                break
            valid.append(s)
        return valid

    def save(self, segments: list[Segment]) -> None:
        closed = [s for s in segments if s.digest][-self.KEEP :]
        text = json.dumps({"segments": [s.to_dict() for s in closed]}, ensure_ascii=False)
        if text == self.text:
            return
        try:
            private_dir(self.path.parent)
            atomic_write(self.path, text)
        except OSError:
            pass  # a cache that cannot be written is a cache that is not there
