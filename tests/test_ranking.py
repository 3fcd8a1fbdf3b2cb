"""Pure ranking, chunking and rendering rules."""

from pathlib import Path

import pytest

from vault_memory.index.chunking import CHUNK_TOKENS, chunk_text
from vault_memory.recall.engine import Hit
from vault_memory.recall.ranking import RankingParams, fuse, rrf_scores, spread_to_neighbours
from vault_memory.recall.render import block_text, estimate_tokens, one_line, select
from vault_memory.vault.memory import Memory


def test_rrf_is_the_textbook_formula():
    p = RankingParams(fusion="rrf", rrf_k=60, keyword_weight=1, vector_weight=1)
    fused = rrf_scores([("a", 9.0), ("b", 3.0)], [("b", 0.9), ("c", 0.5)], p)
    assert fused == {"a": 1 / 61, "b": 1 / 62 + 1 / 61, "c": 1 / 62}


def test_score_fusion_rewards_a_confident_leg():
    # keyword is sure of "a" (big gap); vector barely prefers "b"
    fused = fuse([("a", 10.0), ("b", 1.0), ("c", 0.9)], [("b", 0.50), ("a", 0.49), ("c", 0.10)], RankingParams())
    assert max(fused, key=fused.get) == "a"
    assert fuse([("x", 3.0)], [], RankingParams()) == {"x": 0.5}  # a lone candidate is its leg's best


def test_neighbours_inherit_half_the_best_neighbour_score():
    out = spread_to_neighbours({"q": 1.0, "a": 0.1}, {"a": ["q", "z"], "q": ["a"], "z": ["a"]}, 0.5)
    assert out == {"q": 1.05, "a": 0.6, "z": 0.05}


def test_chunks_respect_the_model_window(embedder):
    tok = embedder.tokenizer()
    assert chunk_text("short memory", tok) == ["short memory"]
    long_paragraph = " ".join(f"sentence number {i} about gardening." for i in range(200))
    text = long_paragraph + "\n\nThe user's bicycle was stolen in March."
    chunks = chunk_text(text, tok)
    assert len(chunks) > 2 and chunks[-1] == "The user's bicycle was stolen in March."
    assert all(len(tok.encode(c, add_special_tokens=False).ids) <= CHUNK_TOKENS for c in chunks)
    small = "\n\n".join(f"Paragraph {i}: " + "word " * 60 for i in range(6))
    packed = chunk_text(small, tok)
    assert 1 < len(packed) < 6


def test_token_estimate_is_conservative_and_handles_non_ascii():
    assert estimate_tokens("") == 0
    assert estimate_tokens("hello world, this is a test") >= 6
    assert estimate_tokens("日本語のテキスト") == 8


def test_block_groups_by_type_and_clamps_long_memories():
    def hit(i, type_, text, **kw):
        return Hit(Memory(id=f"m{i}", text=text, type=type_, path=Path(f"x/m{i}.md"), **kw), 1.0 / (i + 1))

    hits = [
        hit(0, "episode", "Went to Lisbon"),
        hit(1, "fact", "Lucas", key="nombre"),
        hit(2, "summary", "- topic: trip\n- outcome: booked"),
        hit(3, "fact", "word " * 500),
    ]
    block = block_text(select(hits, 120))
    lines = block.splitlines()
    assert lines.index("## Facts") < lines.index("## Summaries") < lines.index("## Episodes")
    assert "- topic: trip; outcome: booked (medium)" in block
    assert any(line.endswith("… (medium)") for line in lines)
    assert estimate_tokens(block) <= 120
    assert one_line("- a\n-  b\n\n1. c") == "a; b; c"


def test_token_vectors_are_the_pieces_of_the_pass_that_embed_pools(embedder):
    """Late interaction compares a question's token vectors with a memory's: one unit row
    per word piece ([CLS]/[SEP] left out), from the forward pass whose mean is the pooled
    vector, and the best-matching pieces find the memory that answers."""
    import numpy as np

    texts = ["User is allergic to peanuts.", "Backend engineer at Acme, on the payments team.", ""]
    vectors = embedder.token_vectors(texts)
    pieces = embedder.tokenizer().encode(texts[0]).tokens
    assert [v.shape[1] for v in vectors] == [384] * 3
    assert vectors[0].shape[0] == len(pieces) - 2  # without [CLS] and [SEP]
    assert all(np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-4) for v in vectors)
    [question] = embedder.token_vectors(["which food must the user avoid? peanuts"])
    maxsim = [float((question @ v.T).max(axis=1).mean()) for v in vectors[:2]]
    assert maxsim[0] > maxsim[1]
    pooled, again = embedder.embed_with_tokens(texts)  # one pass gives both: what a sync stores
    assert np.allclose(pooled, embedder.embed(texts), atol=1e-5)
    assert all(np.allclose(a, b, atol=1e-5) for a, b in zip(again, vectors))


def test_late_interaction_rescores_the_best_candidates_on_the_fused_scale():
    from vault_memory.recall.ranking import late_interaction

    fused = {"a": 1.0, "b": 0.8, "c": 0.1}
    mixed = late_interaction(fused, {"a": 0.2, "b": 0.6}, RankingParams(late_weight=0.5))
    assert mixed == {"a": 0.5, "b": 0.9, "c": 0.1}  # b's pieces match better; c was not re-scored
    assert late_interaction(fused, {"a": 0.2, "b": 0.6}, RankingParams(late_weight=0)) == fused
    assert late_interaction(fused, {}, RankingParams()) == fused


def test_late_interaction_lifts_the_turns_next_to_a_rescored_one():
    """The mix dilutes the first neighbour spread, so the turn after a memory whose pieces
    match well gets its share of the new score (LoCoMo: single-hop R@10 .833 → .870 on 0-2)."""
    from vault_memory.recall.ranking import late_interaction

    fused = {"a": 1.0, "b": 0.8, "c": 0.1}
    p = RankingParams(late_weight=0.5, late_neighbour_weight=0.2)
    mixed = late_interaction(fused, {"a": 0.2, "b": 0.6}, p, {"c": ["b"], "b": ["c"]})
    assert mixed["c"] == pytest.approx(0.1 + 0.2 * 0.9)
    assert mixed["b"] == pytest.approx(0.9 + 0.2 * 0.1) and mixed["a"] == 0.5
    assert (
        late_interaction(fused, {"a": 0.2, "b": 0.6}, RankingParams(late_neighbour_weight=0), {"c": ["b"]})["c"] == 0.1
    )


def test_a_conversation_lifts_its_memories_by_its_share_of_the_best_conversation():
    from vault_memory.recall.ranking import lift_sessions

    fused = {"a1": 1.0, "a2": 0.2, "b1": 0.5, "lone": 0.4}
    session_of = {"a1": "A", "a2": "A", "b1": "B", "lone": None}
    out = lift_sessions(fused, session_of, {"A": 4.0, "B": 1.0}, 0.4)
    assert out == pytest.approx({"a1": 1.4, "a2": 0.6, "b1": 0.6, "lone": 0.4})
    assert lift_sessions(fused, session_of, {}, 0.4) == fused


def test_a_time_named_relative_to_today_is_left_out_of_the_words_and_weighs_by_how_precise_it_is():
    """ "What did we decide about the database yesterday?" is ranked by its subject; a
    day, weekend, week or month is where the user looks (its memories go above the rest),
    "recently" or "last year" a hint (× 2: first among those about as relevant)."""
    import datetime as dt

    from vault_memory.lang import read_question
    from vault_memory.recall.dates import is_precise, without_time
    from vault_memory.recall.ranking import scale_dated
    from vault_memory.recall.told import asked_time as asked_in

    def asked_time(question, today):
        return asked_in(read_question(question).times, today)

    today = dt.date(2026, 11, 27)
    question = "what did we decide about the database yesterday?"
    told = asked_time(question, today)
    assert told is not None and without_time(question, told) == "what did we decide about the database  ?"
    tonight = "can I drive you home after the party tonight?"  # "no manejo de noche": the night is its subject
    assert without_time(tonight, asked_time(tonight, today)) == tonight
    precise = {
        q: is_precise(t)
        for q in ("yesterday?", "last week?", "this month?", "recently?", "last year?")
        if (t := asked_time(q, today))
    }
    assert precise == {
        "yesterday?": True,
        "last week?": True,
        "this month?": True,
        "recently?": False,
        "last year?": False,
    }
    fused = {"old": 1.0, "said_then": 0.6, "weak_then": 0.2}
    assert scale_dated(fused, {"said_then", "weak_then"}, 1.0) == {"old": 1.0, "said_then": 1.2, "weak_then": 0.4}
    assert scale_dated(fused, {"said_then"}, 0) == fused
