"""The open pairs of a vault settled by the configured LLM, on the user's word
(``vmem conflicts --ask-llm``).

The write path asks the ``[llm]`` endpoint about a new fact and its nearest neighbours as it
writes; the pairs already in the vault (written before an endpoint was set, by hand, or
marked by recall's related stage: "newer related memory above") stayed open until the user
settled each. Here every open pair is asked about, one request per newer fact with all the
older ones it may contradict, and its answers are believed as the write path believes them
(``lifecycle.judged_settlements``). Each write is of one pair, on the files as they are
when it is made: a pair whose facts changed while the model was asked, that was settled
meanwhile, whose older fact this run already replaced, that holds a fact dated ahead of
today's clock, or whose older fact is pinned, is left for the user to settle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import ConfigError, LLMError, VaultError
from ..lifecycle import Conflict, judged_settlements, settled
from ..vault.doctor import dated_ahead
from .llm import ChatClient, LLMSettings, judge_pairs

#: what each believed answer does to its pair
_DONE = {"replaces": "superseded", "both": "both true", "same": "both true"}
#: why a verdict is not believed (``lifecycle.judged_settlements``)
_NOT_BELIEVED = (
    "not believed: one verdict for every pair, one person's news of another's, or an inferred fact of a stated one"
)


@dataclass
class Settlement:
    """What the LLM said of one open pair, what of it was believed, and what was done."""

    conflict: Conflict
    #: what the model answered ("replaces", "both", "same", "unsure", anything), or None
    #: when it was not asked (its endpoint had failed, or the pair was left before asking)
    said: str | None
    #: what is believed of it (``lifecycle.JUDGED``)
    answer: str
    #: "superseded" (the older joined the newer's ``supersedes``), "both true" (its
    #: ``compatible_with``), "left" (open, and recall marks it as before)
    done: str
    #: why a pair was left, when it was not for the model's "unsure"
    why: str = ""

    def to_dict(self) -> dict[str, Any]:
        return self.conflict.to_dict() | {"said": self.said, "answer": self.answer, "done": self.done, "why": self.why}


def settle_conflicts(mem: Any, llm: ChatClient | None = None, *, dry_run: bool = False) -> list[Settlement]:
    """Ask the ``[llm]`` endpoint (``llm``: another one) about every open conflict of
    ``mem`` (a ``VaultMemory``) and settle what it answers: "replaces" adds the older to
    the newer's ``supersedes`` (``VaultMemory.replaces``), "both" and "same" record the pair
    as both true (``both_true``), anything else leaves it open. An endpoint that fails is
    not asked again (each failure would wait its whole timeout): ``mem.warnings`` says so.
    ``dry_run``: asks, writes nothing."""
    llm = llm or _endpoint(mem)
    by_newer: dict[str, list[Conflict]] = {}
    for conflict in mem.conflicts():
        by_newer.setdefault(conflict.newer.id, []).append(conflict)
    out: list[Settlement] = []
    failed = False
    replaced: set[str] = set()  # the older facts this run replaced: a second replacement would fork
    for pairs in by_newer.values():
        ahead = _dated_ahead([pairs[0].newer, *(c.older for c in pairs)])
        if ahead or failed:
            why = f"{ahead} is dated in the future; say which is right with --replaces" if ahead else "not asked"
            out += [Settlement(c, None, "unsure", "left", why) for c in pairs]
            continue
        newer, olders = pairs[0].newer, [c.older for c in pairs]
        try:
            said = judge_pairs(llm, newer.shared_text, [m.shared_text for m in olders])
        except LLMError as e:
            mem.warnings.append(f"the LLM could not be asked ({e}); the pairs from here on are left open")
            failed = True
            out += [Settlement(c, None, "unsure", "left", "the LLM could not be asked") for c in pairs]
            continue
        believed = judged_settlements(newer, olders, said)
        for conflict, answer, told in zip(pairs, believed, said, strict=True):
            if answer == "unsure":
                why = "" if told == "unsure" else _NOT_BELIEVED
                out.append(Settlement(conflict, told, answer, "left", why))
                continue
            why = _why_left(mem, conflict, answer, replaced)
            if why:
                out.append(Settlement(conflict, told, answer, "left", why))
                continue
            if not dry_run:
                try:
                    _settle(mem, conflict, answer)
                except VaultError as e:  # a file gone, broken or unwritable: this pair, not the run
                    mem.warnings.append(f"{conflict.newer.id} / {conflict.older.id} not settled: {e}")
                    out.append(Settlement(conflict, told, answer, "left", f"not written: {e}"))
                    continue
            if answer == "replaces":
                replaced.add(conflict.older.id)
            out.append(Settlement(conflict, told, answer, _DONE[answer]))
    return out


def _endpoint(mem: Any) -> ChatClient:
    """The configured endpoint, or a ``ConfigError`` that says how to set one, and why the
    vault's own is not used when it is not (a vault the user neither created nor trusted)."""
    from ..config import llm_url_refused

    settings = LLMSettings.from_config(mem.config)
    if settings is not None:
        return settings
    refused = llm_url_refused(mem.config)
    raise ConfigError(
        refused
        or "no LLM endpoint to ask: set [llm] url in vmem.toml (or VMEM_LLM_URL); without one, settle each pair "
        "as `vmem conflicts` lists"
    )


def _dated_ahead(memories: list[Any]) -> str:
    """The id of a memory dated after today's clock (``vmem doctor``'s ``future_created``),
    or "": which of a pair was said later is then not known."""
    return next((str(m.id) for m in memories if dated_ahead(m)), "")


def _why_left(mem: Any, conflict: Conflict, answer: str, replaced: set[str]) -> str:
    """Why a pair the model settled is left open, or "": its facts as they are now (read
    again: a file may have changed while the model was asked) must say what was asked, be
    unsettled, and not be replaced already; a pinned older fact is the user's to replace."""
    try:
        newer, older = mem.show(conflict.newer.id), mem.show(conflict.older.id)
    except VaultError as e:
        return f"not written: {e}"
    if any((now.text, now.created) != (asked.text, asked.created) for now, asked in _pair(newer, older, conflict)):
        return "a fact changed while the LLM was asked"
    if older.id in settled(newer) or newer.id in settled(older) or older.id in newer.supersedes:
        return "settled meanwhile"
    if conflict.older.id in replaced:
        return "its older fact was replaced by another in this run"
    if answer == "replaces" and older.pinned:
        return "the older fact is pinned: replace it yourself with --replaces"
    return ""


def _pair(newer: Any, older: Any, conflict: Conflict) -> tuple[tuple[Any, Any], ...]:
    """Each fact of a pair as it is now beside it as it was asked about."""
    return ((newer, conflict.newer), (older, conflict.older))


def _settle(mem: Any, conflict: Conflict, answer: str) -> None:
    if answer == "replaces":
        mem.replaces(conflict.newer.id, conflict.older.id)
    else:
        mem.both_true(conflict.newer.id, conflict.older.id)


__all__ = ["Settlement", "settle_conflicts"]
