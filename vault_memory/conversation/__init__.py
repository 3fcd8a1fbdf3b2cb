"""Conversations: turning them into memories (``vmem ingest``) and into a prompt of fixed
size (``vmem context``). Adapters over the façade: every memory is written through
``VaultMemory.remember_many``, so the write rules apply to all of them.

- ``transcript``  the formats a conversation arrives in → turns
- ``exports``     ChatGPT, Claude.ai and OpenAI JSONL exports: many conversations a file
- ``signals``     explicit "remember that…" signals, English and Spanish (tables)
- ``llm``         the optional OpenAI-compatible endpoint: facts, episodes, summaries
- ``queue``       the pending queue and the ledger under ``.vmem/``
- ``ingestion``   ``ingest``, ``retry_pending``
- ``context``     ``context``
"""

from .context import ContextBlock, context
from .ingestion import IngestReport, ingest, ingest_all, pending, remember_said, retry_pending
from .llm import ChatClient, LLMSettings, use_llm_judge
from .signals import Signal, explicit_signals
from .transcript import FORMATS, Transcript, Turn, parse, parse_all

__all__ = [
    "FORMATS",
    "ContextBlock",
    "IngestReport",
    "ChatClient",
    "LLMSettings",
    "Signal",
    "Transcript",
    "Turn",
    "context",
    "explicit_signals",
    "ingest",
    "ingest_all",
    "parse",
    "parse_all",
    "pending",
    "remember_said",
    "retry_pending",
    "use_llm_judge",
]
