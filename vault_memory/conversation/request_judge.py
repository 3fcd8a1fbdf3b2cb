"""The request judge (``lang.judge``) with the model it reads: the multilingual model this
process shares (a bilingual vault's own half), loaded the first time a message needs it.
Most messages ask nothing to keep and never load it."""

from __future__ import annotations

import functools
from pathlib import Path

from ..index.embedder import USE_MULTILINGUAL, UseEmbedder, embedder_from_config
from ..lang import judge as meaning
from .signals import Judge

assert meaning.MODEL == UseEmbedder.model_id, "the judge reads the vectors it was fitted on"


def request_judge(cache_dir: str | Path | None = None) -> Judge:
    """How ``signals.read_requests`` asks what a message is about (``cache_dir``: where the
    model's loaded copy is kept, ``[embedding] cache_dir``). A message read twice (the prompt
    hook reads it, then writes what it asked) is embedded once."""

    @functools.lru_cache(maxsize=4)
    def judged(message: str) -> float:
        vector = embedder_from_config(USE_MULTILINGUAL, cache_dir).embed([message])[0]
        return meaning.of_their_world(vector)

    return judged
