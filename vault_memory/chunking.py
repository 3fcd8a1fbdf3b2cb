"""Split long memories into pieces the embedding model reads whole (256 word pieces)."""

from __future__ import annotations

#: leave room for [CLS] and [SEP]
CHUNK_TOKENS = 254
OVERLAP_TOKENS = 32


def embedding_text(key: str | None, text: str) -> str:
    """What the vector leg embeds for a memory: its key gives short values their meaning."""
    return f"{key.replace('_', ' ')}: {text}" if key else text


def chunk_text(text: str, tokenizer, max_tokens: int = CHUNK_TOKENS, overlap: int = OVERLAP_TOKENS) -> list[str]:
    """Chunks of at most ``max_tokens`` word pieces, cut at token boundaries, overlapping a
    little so a sentence split in two is still whole in one of them."""
    if tokenizer is None:
        words = text.split()
        size = max_tokens * 3 // 4
        if len(words) <= size:
            return [text]
        step = size - overlap * 3 // 4
        return [" ".join(words[i : i + size]) for i in range(0, len(words), step) if words[i : i + size]]
    encoding = tokenizer.encode(text, add_special_tokens=False)
    offsets = encoding.offsets
    if len(offsets) <= max_tokens:
        return [text]
    chunks = []
    start = 0
    while start < len(offsets):
        end = min(start + max_tokens, len(offsets))
        chunks.append(text[offsets[start][0] : offsets[end - 1][1]])
        if end == len(offsets):
            break
        start = end - overlap
    return chunks
