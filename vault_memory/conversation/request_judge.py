"""The request judge (``lang.judge``) with the model it reads: the multilingual model this
process shares (a bilingual vault's own half), loaded the first time a message needs it.
Most messages ask nothing to keep and never load it: a message no rule read a request in
is read only when a short clause of it may ask and the rest tells of the user."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path

from ..index.embedder import USE_MULTILINGUAL, UseEmbedder, embedder_from_config
from ..lang import judge as meaning
from .signals import Judge

assert meaning.MODEL == UseEmbedder.model_id, "the judge reads the vectors it was fitted on"


class _Judge:
    """``signals.Judge`` on the multilingual model: what a message is about, and whether a
    clause of it asks to keep the rest."""

    def __init__(self, cache_dir: str | Path | None):
        self.cache_dir = cache_dir
        #: a message read twice (the prompt hook reads it, then writes what it asked) is embedded once
        self._world = functools.lru_cache(maxsize=4)(self._world_of)

    def __call__(self, message: str) -> float:
        return self._world(message)

    def _world_of(self, message: str) -> float:
        return meaning.of_their_world(self._vectors((message,))[0])

    def asks(self, clauses: Sequence[str]) -> list[float]:
        return self._each(clauses, meaning.asks_to_keep)

    def goes_on(self, sentence: str) -> float:
        return meaning.goes_on(self._vectors((sentence,))[0])

    def secret(self, texts: Sequence[str]) -> list[float]:
        return self._each(texts, meaning.holds_a_secret)

    def passing(self, facts: Sequence[str]) -> list[float]:
        return self._each(facts, meaning.passes)

    def _each(self, texts: Sequence[str], read: Callable[[Sequence[float], str], float]) -> list[float]:
        """``read`` of each text, by its vector and its words, the texts embedded together."""
        vectors = self._vectors(tuple(texts)) if texts else []
        return [read(v, t) for v, t in zip(vectors, texts, strict=True)]

    def _vectors(self, texts: Sequence[str]):
        return embedder_from_config(USE_MULTILINGUAL, self.cache_dir).embed(list(texts))


def prepare(cache_dir: str | Path | None = None) -> bool:
    """Load the judge's model once when its loaded copy is not there yet (the first daemon
    on a machine, or after an upgrade of its package): the first prompt that asks to keep
    something then loads it in about 0.25 s instead of 1.4 s, which on a loaded machine
    had outlasted the prompt hook's wait (the fact was written; the agent was never told).
    Whether it loaded the model."""
    model = embedder_from_config(USE_MULTILINGUAL, cache_dir)
    if not isinstance(model, UseEmbedder) or model.has_copy():
        return False
    model.embed(["."])
    return True


def request_judge(cache_dir: str | Path | None = None) -> Judge:
    """How ``signals.read_requests`` asks what a message is about (``cache_dir``: where the
    model's loaded copy is kept, ``[embedding] cache_dir``). A message read twice (the prompt
    hook reads it, then writes what it asked) is embedded once."""
    return _Judge(cache_dir)
