"""The numpy keyword scorer gives Whoosh's own BM25F results, on real Whoosh indexes with
several segments, deletions, merges and tied scores."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from whoosh import scoring

from vault_memory.index.keyword_index import KeywordIndex, document, query_for
from vault_memory.index.keyword_search import KeywordSearcher, SegmentCache
from vault_memory.vault.memory import Memory

WORDS = (
    "coffee café trip Lisbon Marta payments service decided migrate database piano lessons mortgage bank "
    "kitchen renovation budget allergic peanuts running marathon sister birthday dentist appointment "
    "no gusta viaje madrid hermana cumpleaños trabajo proyecto reunión presupuesto never without"
).split()
QUERIES = [
    "what did we decide about the payments service?",
    "trip to Lisbon",
    "who is Marta",
    "piano",
    "peanuts allergic",
    "mortgage bank budget",
    "cumpleaños de mi hermana",
    "no le gusta el café",
    "kitchen renovation never",
    "zzz unknown",
    "the user",
    "coffee coffee coffee",
    "dentist appointment birthday sister",
    "reunión del proyecto",
    "trip to Lisbon with Marta",
]


def memory(i: int, rng: random.Random, text: str | None = None) -> Memory:
    words = text or " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 25)))
    return Memory(
        id=f"m{i:04d}",
        text=words,
        type="fact",
        key=rng.choice(["", "trabajo", "ubicacion", "favorite_food"]) or None,
        tags=rng.sample(["work", "food", "family", "health"], rng.randint(0, 2)),
        path=Path(f"facts/m{i:04d}.md"),
    )


def whoosh_results(folder: Path, text: str, limit: int) -> list[tuple[str, float]]:
    ix = KeywordIndex(folder).open()
    with ix.searcher(weighting=scoring.BM25F(B=0.75, K1=1.2)) as searcher:
        query = query_for(text)
        return [(hit["path"], hit.score) for hit in searcher.search(query, limit=limit)] if query else []


def assert_same(mine: list[tuple[str, float]], theirs: list[tuple[str, float]]) -> None:
    assert len(mine) == len(theirs)
    for (path, score), (w_path, w_score) in zip(mine, theirs):
        assert score == pytest.approx(w_score, rel=1e-12)
        if path != w_path:  # only a tie (equal up to the last bit) may come in another order
            assert dict(mine).get(w_path) == pytest.approx(w_score, rel=1e-12)


def commit(index: KeywordIndex, add: list[Memory] = (), delete: list[str] = ()) -> None:
    writer = index.open().writer()
    for path in delete:
        writer.delete_by_term("path", path)
    for m in add:
        writer.delete_by_term("path", m.path.as_posix())
        writer.add_document(**document(m))
    writer.commit()


@pytest.fixture
def index(tmp_path: Path) -> KeywordIndex:
    ix = KeywordIndex(tmp_path / "keyword")
    ix.create()
    return ix


def test_scores_and_order_equal_whoosh_across_segments_and_deletions(index):
    rng = random.Random(7)
    commit(index, [memory(i, rng) for i in range(120)])
    commit(index, [memory(i, rng) for i in range(120, 160)] + [memory(3, rng)])  # an edit: delete + add
    twins = [
        Memory(id=f"m{i}", text="trip to Lisbon with Marta", type="fact", path=Path(f"facts/m{i}.md"))
        for i in (200, 201, 202)
    ]  # equal scores: ordered by document number
    commit(index, twins, delete=["facts/m0010.md", "facts/m0011.md"])
    searcher = KeywordSearcher(index)
    assert len(searcher.segments) == 3 and any(r.has_deletions() for r, _, _ in searcher.segments)
    for text in QUERIES:
        for limit in (1, 5, 100):
            assert_same(searcher.search(text, limit), whoosh_results(index.folder, text, limit))
    found = [p for p, _ in searcher.search("trip to Lisbon with Marta", 3)]
    assert found == [m.path.as_posix() for m in twins]  # ties: the order Whoosh gives (document number)
    assert not {"facts/m0010.md", "facts/m0011.md"} & {p for p, _ in searcher.search("coffee trip piano", 500)}
    assert searcher.search("zzz", 10) == [] and searcher.search("the of and", 10) == []
    searcher.close()


def test_a_shared_cache_stays_right_across_commits_and_merges(index):
    """The daemon keeps one SegmentCache across snapshots: segments come, merge and go."""
    rng = random.Random(11)
    cache = SegmentCache()
    commit(index, [memory(i, rng) for i in range(50)])
    counts = []
    for round_ in range(8):  # enough small commits for Whoosh to merge segments
        searcher = KeywordSearcher(index, cache)
        for text in QUERIES[:6]:
            searcher.search(text, 20)  # fill the cache from this snapshot
        cache.keep_only(searcher.segment_keys)
        searcher.close()
        edits = [memory(rng.randrange(50 + 5 * round_), rng) for _ in range(3)] + [
            memory(50 + 5 * round_ + j, rng) for j in range(5)
        ]
        commit(index, edits, delete=[f"facts/m{rng.randrange(50):04d}.md"])
        searcher = KeywordSearcher(index, cache)
        counts.append(len(searcher.segments))
        for text in QUERIES:
            assert_same(searcher.search(text, 30), whoosh_results(index.folder, text, 30))
        searcher.close()
    assert any(b < a for a, b in zip(counts, counts[1:]))  # Whoosh merged segments on the way
    assert len(cache) <= max(counts) + 1  # retired segments were forgotten


def test_a_snapshot_after_a_commit_opens_only_the_new_segment(index):
    """Opening Whoosh's reader copied every segment's term file into memory: 130 ms at
    100,000 memories on every snapshot after a write. A snapshot reads the table of
    contents; a segment is opened once for its life, by what is first read of it, so
    after a commit only the new segment is opened; scores and deletions stay Whoosh's."""
    rng = random.Random(5)
    cache = SegmentCache()
    commit(index, [memory(i, rng) for i in range(40)])
    commit(index, [memory(40 + i, rng) for i in range(10)])
    first = KeywordSearcher(index, cache)
    first.search(QUERIES[0], 10)
    cache.keep_only(first.segment_keys)
    first.close()
    sources = {id(data): data.source for _, data, _ in first.segments}
    commit(index, [memory(50 + i, rng) for i in range(3)], delete=["facts/m0003.md"])
    after = KeywordSearcher(index, cache)
    assert not any(source._reader is not None for source, _, _ in after.segments)  # the snapshot's own: none
    opened = [data for _, data, _ in after.segments if data.source is not sources.get(id(data))]
    assert len(after.segments) >= 2 and len(opened) == 1  # the new segment only
    for text in QUERIES:
        assert_same(after.search(text, 30), whoosh_results(index.folder, text, 30))
    after.close()


def test_an_empty_index_finds_nothing(index):
    searcher = KeywordSearcher(index)
    assert searcher.search("anything at all", 10) == []
    assert searcher.doc_count() == 0


def test_the_fast_whoosh3_readers_are_used_and_agree_with_the_public_api(index):
    """Block-wise postings and the raw length column are what make a cold query cheap;
    they must be taken on Whoosh's own codec, and read what the public API reads."""
    from whoosh.matching.wrappers import FilterMatcher

    from vault_memory.index.keyword_search import block_postings, lengths_by_document, posting_by_posting, raw_lengths

    rng = random.Random(3)
    commit(index, [memory(i, rng) for i in range(600)])  # "coffee" alone spans two 128-posting blocks
    commit(index, [memory(i, rng) for i in range(5)], delete=["facts/m0100.md"])
    reader = index.open().reader()
    for segment, _ in reader.leaf_readers():
        n = segment.doc_count_all()
        for fieldname in ("body", "body_es", "key", "tags"):
            fast = raw_lengths(segment, fieldname, n)
            assert fast is not None and list(fast) == list(lengths_by_document(segment, fieldname, n))
        for btext in (b"coffe", b"lisbon", b"never"):
            if ("body", btext) not in segment:
                continue

            def raw(segment=segment, btext=btext):
                m = segment.postings("body", btext)
                m = m.child if isinstance(m, FilterMatcher) else m
                m.reset()
                return m

            fast = block_postings(raw())
            slow = posting_by_posting(raw())
            assert fast is not None and fast[0].tolist() == slow[0].tolist() and fast[1].tolist() == slow[1].tolist()
    assert len(posting_by_posting(reader.leaf_readers()[0][0].postings("body", b"coffe"))[0]) > 128


@pytest.mark.timeout(60)
def test_one_huge_token_is_analysed_in_time_linear_in_its_length():
    """1 MB of one unbroken token (a base64 blob, a one-line log): analysed in well under a
    second on an idle machine. Before, the symbolic-term pattern and the stemmers took time
    quadratic in the token's length (40 KB: 22 s; 1 MB: hours): the bound here is generous
    for a loaded machine and far below what quadratic would take."""
    from vault_memory.index.keyword_index import EN, ES, PLAIN, content_terms

    token = "x" * 1_000_000
    for text in (token, "a+." + token, "ab" * 500_000):
        assert content_terms(text)
        for analyzer in (EN, ES, PLAIN):
            assert all(len(t.text) <= 64 for t in analyzer(text))


def test_the_subject_every_ingested_fact_is_written_with_matches_nothing(index):
    """Every ingested fact begins "The user…" / "El usuario…": "what is the user's name?"
    listed peanuts, city, port and editor beside the name."""
    facts = [
        "The user's name is Lucas",
        "The user lives in Lisbon",
        "The user is allergic to peanuts",
        "The user always runs the dev server on port 4001",
        "El usuario vive en Valencia",
        "La usuaria es alérgica a las nueces",
    ]
    commit(index, [Memory(id=f"u{i}", text=t, type="fact", path=Path(f"facts/u{i}.md")) for i, t in enumerate(facts)])
    searcher = KeywordSearcher(index)
    assert [p for p, _ in searcher.search("what is the user's name?", 10)] == ["facts/u0.md"]
    assert [p for p, _ in searcher.search("¿dónde vive el usuario?", 10)] == ["facts/u4.md"]
    for subject in ("the user", "user", "users", "el usuario", "la usuaria", "usuarios"):
        assert searcher.search(subject, 10) == [], subject
    searcher.close()


def test_english_words_that_are_spanish_stop_words_are_searched_in_english_only(index):
    """ "son", "sea", "era", "hay" and "todo" were stop words of both fields, so "who is my
    son?" had no term at all and "hay fever" only "fever". The English field keeps them, but
    not in a text or a question written in Spanish, where they are "are", "be", "there is"."""
    facts = [
        "My son Leo is seven",
        "I get hay fever every spring",
        "My todo list lives in a notebook",
        "We rented a house by the sea",
        "Mis hijos son Leo y Ana y todo les gusta",
        "Hay una fiesta en la casa de mi hermana",
        "I get a fever after every vaccine",
    ]
    commit(index, [Memory(id=f"w{i}", text=t, type="fact", path=Path(f"facts/w{i}.md")) for i, t in enumerate(facts)])
    searcher = KeywordSearcher(index)
    assert [p for p, _ in searcher.search("who is my son?", 10)] == ["facts/w0.md"]
    assert [p for p, _ in searcher.search("hay fever", 10)][0] == "facts/w1.md"
    assert [p for p, _ in searcher.search("what is on my todo list?", 10)][0] == "facts/w2.md"
    assert [p for p, _ in searcher.search("the sea", 10)] == ["facts/w3.md"]
    # a Spanish question reads them as the verbs they are there
    assert [p for p, _ in searcher.search("¿quiénes son mis hijos?", 10)] == ["facts/w4.md"]
    assert searcher.search("¿hay algo?", 10) == []
    searcher.close()


def test_one_process_keeps_its_reader_until_a_commit_and_never_shares_it_between_two_snapshots(tmp_path):
    """An in-process recall reopened Whoosh's reader every time (175 ms at 100,000 memories);
    the reader is kept while the index is at the same generation, handed to one snapshot at
    a time, and a commit (an addition, a deletion alone) is seen by the next snapshot."""
    index = KeywordIndex(tmp_path / "kw")
    index.create()
    writer = index.open().writer()
    writer.add_document(**document(Memory(id="a", text="Likes apples", type="fact", path=Path("facts/a.md"))))
    writer.commit()
    cache = SegmentCache()

    first = KeywordSearcher(index, cache)
    other = KeywordSearcher(index, cache)  # open at the same time: its own reader
    assert other.reader is not first.reader
    kept = first.reader
    first.close()
    other.close()
    again = KeywordSearcher(index, cache)
    assert again.reader is kept and [p for p, _ in again.search("apples", 5)] == ["facts/a.md"]
    again.close()

    writer = index.open().writer()
    writer.add_document(**document(Memory(id="g", text="Likes grapes", type="fact", path=Path("facts/g.md"))))
    writer.commit()
    added = KeywordSearcher(index, cache)
    assert added.reader is not kept and [p for p, _ in added.search("grapes", 5)] == ["facts/g.md"]
    added.close()

    writer = index.open().writer()
    writer.delete_by_term("path", "facts/a.md")
    writer.commit()
    deleted = KeywordSearcher(index, cache)
    assert deleted.search("apples", 5) == []
    deleted.close()


def test_an_index_written_before_the_stem_filter_was_renamed_opens_as_it_is():
    """Whoosh keeps a keyword index's analysers pickled with it, by their class's name: an
    index written when the filter of forms the stemmer misses was called ``VoseoFilter``
    could not be read after the rename, and was rebuilt from the files (90 s at 10,000
    memories). That name still finds the filter, which reads as it did."""
    import io
    import pickle

    from whoosh.analysis import RegexTokenizer

    found = pickle.Unpickler(io.BytesIO(b"")).find_class("vault_memory.index.keyword_index", "VoseoFilter")
    assert [t.text for t in (RegexTokenizer() | found())("contame vivís")] == ["contar", "vivir"]


def test_a_portuguese_question_asks_without_its_function_words():
    """The index stems English and Spanish: a Portuguese question's "tem", "minha", "você"
    are no stop words of those fields, and a match on them was read as evidence that a fact
    answers ("quantos anos tem…" brought "O meu carro tem seguro…")."""
    from vault_memory.index.keyword_index import query_terms

    terms = {term for _field, term, _weight in query_terms("em que bairro mora a minha tia? você tem isso?")}
    assert not terms & {"tem", "minha", "voce", "você", "isso"}
    assert any(t.startswith("bairr") for t in terms) and "tia" in terms


def test_a_portuguese_fact_that_shares_only_a_function_word_is_not_recalled(tmp_path):
    import vault_memory as vmem
    from vault_memory.vault.template import create_vault

    vault = create_vault(tmp_path / "vault", with_examples=False)
    with vmem.open(vault, use_daemon=False) as mem:
        mem.remember("Meu sobrinho tem uma bicicleta vermelha.")
        mem.remember("A minha cunhada trabalha num hospital em Coimbra.")
        shown = [h.memory.text for h in mem.recall("qual é o nome do meu dentista? tem consulta marcada?").hits]
    assert not any("bicicleta" in t for t in shown), shown
