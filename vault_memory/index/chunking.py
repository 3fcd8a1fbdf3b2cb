"""Split long memories into pieces the embedding model reads whole (256 word pieces)."""

from __future__ import annotations

import re

#: leave room for [CLS] and [SEP]
CHUNK_TOKENS = 254
OVERLAP_TOKENS = 32
#: the most of one memory the model reads: its first ~3,000 words. A 980 KB file (under
#: the size limit) was ~4,000 chunks: 135 s and 1.9 GB to sync, 106 MB of token rows; the
#: keyword index still holds all of its words, so a word past this point is still found
EMBED_CHARS = 20_000
MAX_CHUNKS = 16


def embedding_text(key: str | None, text: str) -> str:
    """What the vector leg embeds for a memory: its key gives short values their meaning."""
    return f"{key.replace('_', ' ')}: {text}" if key else text


def _count(text: str, tokenizer) -> int:
    if tokenizer is None:
        return len(text.split()) * 4 // 3 + 1
    return len(tokenizer.encode(text, add_special_tokens=False).ids)


def split_tokens(text: str, tokenizer, max_tokens: int = CHUNK_TOKENS, overlap: int = OVERLAP_TOKENS) -> list[str]:
    """Cut one long paragraph at token boundaries into overlapping windows."""
    if tokenizer is None:
        words = text.split()
        size = max_tokens * 3 // 4
        step = max(1, size - overlap * 3 // 4)
        return [" ".join(words[i : i + size]) for i in range(0, len(words), step) if words[i : i + size]] or [text]
    offsets = tokenizer.encode(text, add_special_tokens=False).offsets
    if len(offsets) <= max_tokens:
        return [text]
    chunks, start = [], 0
    while start < len(offsets):
        end = min(start + max_tokens, len(offsets))
        chunks.append(text[offsets[start][0] : offsets[end - 1][1]])
        if end == len(offsets):
            break
        start = end - overlap
    return chunks


def chunk_text(text: str, tokenizer, max_tokens: int = CHUNK_TOKENS, overlap: int = OVERLAP_TOKENS) -> list[str]:
    """Chunks of at most ``max_tokens`` word pieces. Short texts stay whole; long ones are
    cut at paragraph breaks, small paragraphs packed together, and a paragraph that alone
    is too long is cut into overlapping windows (its own chunks, never packed with others,
    so a short paragraph after it keeps its own meaning). Only the first ``EMBED_CHARS``
    characters are read, in at most ``MAX_CHUNKS`` chunks."""
    if len(text) > EMBED_CHARS:
        cut = text.rfind(" ", EMBED_CHARS // 2, EMBED_CHARS)
        text = text[: cut if cut > 0 else EMBED_CHARS]
    return _chunks(text, tokenizer, max_tokens, overlap)[:MAX_CHUNKS]


def _chunks(text: str, tokenizer, max_tokens: int, overlap: int) -> list[str]:
    if _count(text, tokenizer) <= max_tokens:
        return [text]
    chunks: list[str] = []
    pending: list[str] = []
    pending_tokens = 0
    for paragraph in (p.strip() for p in re.split(r"\n\s*\n", text)):
        if not paragraph:
            continue
        n = _count(paragraph, tokenizer)
        if n > max_tokens:
            if pending:
                chunks.append("\n\n".join(pending))
                pending, pending_tokens = [], 0
            chunks.extend(split_tokens(paragraph, tokenizer, max_tokens, overlap))
            continue
        if pending and pending_tokens + n + 1 > max_tokens:
            chunks.append("\n\n".join(pending))
            pending, pending_tokens = [], 0
        pending.append(paragraph)
        pending_tokens += n + 1
    if pending:
        chunks.append("\n\n".join(pending))
    return chunks
