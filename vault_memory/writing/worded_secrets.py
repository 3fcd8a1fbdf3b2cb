"""A secret said in words, refused by every write of a fact as the prompt hook refuses it.

``vault.secrets`` reads a secret by rules: a key's or a card's shape, a password's value
after the words that name it. Said as people say them ("the answer to my security question
is pelusa", "a do roteador mudei pra bacalhau") the rules miss about half. The prompt hook
and ``ingest`` read each fact they keep with the secret judge as well
(``lang.judge.holds_a_secret``), but a fact written through ``vmem remember``, the MCP
``remember`` tool or a correction was read by the rules alone: the agent's own tool wrote
what the hook had refused. Every write of a fact now asks the same judge, on the
multilingual half of the vector the write embeds anyway in a bilingual vault (by the
daemon when one serves the vault: a client loads no model for it), or on the process's
own multilingual model where the vault embeds with another. Only facts: the judge was
fitted and measured on them, not on a conversation's summaries or episodes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from ..index.embedder import USE_MULTILINGUAL, UseEmbedder, embedder_from_config
from ..lang import judge as meaning

assert meaning.MODEL == UseEmbedder.model_id, "the judge reads the vectors it was fitted on"

#: how a caller gives the multilingual model's unit vectors of texts (a vault's own half,
#: embedded where its model is loaded: a daemon's)
Vectors = Callable[[list[str]], Sequence[Sequence[float]]]

#: what a fact the judge refuses is said to hold (``errors.SecretRefused``'s ``kind``)
SAID_IN_WORDS = "a secret said in words (a password, a code, the answer to a security question)"


#: the texts read last, with what the judge said: a fact the prompt hook checks before its
#: batch is checked again by the write (``writing.rules``), and is embedded once
_READ: dict[str, bool] = {}
_READ_MOST = 256
_READING = threading.Lock()


def said_in_words(
    texts: Sequence[str], cache_dir: str | Path | None = None, vectors_of: Vectors | None = None
) -> list[bool]:
    """Whether the judge reads each of ``texts`` as giving a secret's value in words (at
    ``lang.judge.SECRET_AT``), on the vectors ``vectors_of`` gives (else this process's
    multilingual model, its loaded copy kept in ``cache_dir``)."""
    with _READING:
        read = {text: _READ[text] for text in texts if text in _READ}
    missing = [text for text in dict.fromkeys(texts) if text not in read]
    if missing:
        vectors: Sequence[Sequence[float]] = (
            list(embedder_from_config(USE_MULTILINGUAL, cache_dir).embed(missing))
            if vectors_of is None
            else vectors_of(missing)
        )
        read.update(
            (t, meaning.holds_a_secret(v, t) >= meaning.SECRET_AT) for v, t in zip(vectors, missing, strict=True)
        )
        with _READING:  # what is read is answered from ``read``: the cache may drop it at once
            _READ.update((text, read[text]) for text in missing)
            while len(_READ) > _READ_MOST:
                _READ.pop(next(iter(_READ)))
    return [read[text] for text in texts]
