"""Where vmem installs and runs: the vector index with or without a compiled graph library,
and either build's files read by the other."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import recall_ids, write

from vault_memory.config import StateLayout
from vault_memory.index import ann
from vault_memory.index.generations import IndexLayout
from vault_memory.index.vector_index import VectorIndex

#: small vector files written by each graph build vmem installs (8 dimensions, labels
#: 100..119 of the rows below, 105 marked deleted): the bytes a user's disk holds
FILES = Path(__file__).parent / "data" / "vectors"
WRITTEN_BY = ["hnswlib-0.8.bin", "chroma-hnswlib-0.7.6.bin"]
ROWS = np.array([[np.cos(i * 0.37 + j) for j in range(8)] for i in range(20)], np.float32)
LABELS = list(range(100, 120))


def unit(rows: np.ndarray) -> np.ndarray:
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def nearest(query: np.ndarray, k: int, without: set[int] = frozenset()) -> list[int]:
    """The true nearest labels of the fixture's rows, by cosine, computed here."""
    scores = unit(ROWS) @ (query / np.linalg.norm(query))
    order = [LABELS[i] for i in np.argsort(-scores) if LABELS[i] not in without]
    return order[:k]


@pytest.mark.parametrize("name", WRITTEN_BY)
def test_the_vectors_of_a_file_either_graph_build_wrote_are_read_without_it(name):
    labels, rows, deleted = ann.read_rows(FILES / name, 8)
    assert labels.tolist() == LABELS
    assert np.allclose(rows, unit(ROWS), atol=1e-6)
    assert [label for label, gone in zip(labels.tolist(), deleted.tolist()) if gone] == [105]
    with pytest.raises(ValueError):
        ann.read_rows(FILES / name, 16)  # another model's width is no misread, it is refused


@pytest.mark.parametrize("kind", ann.KINDS)
@pytest.mark.parametrize("name", WRITTEN_BY)
def test_each_index_answers_from_each_builds_file_as_the_vectors_say(kind, name, tmp_path, monkeypatch):
    if kind == ann.HNSWLIB and ann._hnswlib() is None:
        pytest.skip("no build of hnswlib installed")
    monkeypatch.setenv(ann.ENV, kind)
    path = tmp_path / "vectors.hnsw"
    path.write_bytes((FILES / name).read_bytes())
    index = VectorIndex.load(path, 8, live=19)
    for i in (0, 5, 13):
        query = ROWS[i] + 0.01
        found = [label for label, _ in index.search(query, 6, live=19)]
        assert found == nearest(query, 6, without={105})
    # and it goes on: a deleted slot is reused, the file saved is read back by the other kind
    index.add([200], ROWS[5:6])
    index.delete([100])
    index.save()
    other = ann.EXACT if kind == ann.HNSWLIB else ann.HNSWLIB
    if other == ann.HNSWLIB and ann._hnswlib() is None:
        return
    monkeypatch.setenv(ann.ENV, other)
    again = VectorIndex.load(path, 8, live=19)
    found = [label for label, _ in again.search(ROWS[5], 3, live=19)]
    assert found[0] == 200 and 100 not in found and 105 not in found


def test_the_exact_index_keeps_hnswlibs_counts_and_refusals():
    index = ann.Exact(4)
    index.init_index(max_elements=3)
    index.add_items(np.eye(4, dtype=np.float32)[:3] * 5, [7, 8, 9])
    assert np.allclose(np.linalg.norm(index.get_items([7]), axis=1), 1)  # kept of unit length, as cosine space does
    with pytest.raises(RuntimeError):
        index.add_items(np.eye(4, dtype=np.float32)[3:], [10])  # full: the caller grows it
    index.mark_deleted(8)
    with pytest.raises(RuntimeError):
        index.mark_deleted(8)
    with pytest.raises(RuntimeError):
        index.get_items([8])
    index.add_items(np.eye(4, dtype=np.float32)[3:], [10], replace_deleted=True)
    assert index.get_current_count() == 3 and sorted(index.get_ids_list()) == [7, 9, 10]
    labels, distances = index.knn_query(np.array([[0, 0, 0, 1]], np.float32), k=5, filter=lambda label: label != 9)
    assert labels[0].tolist()[0] == 10 and 9 not in labels[0].tolist() and len(labels[0]) == 2
    assert distances[0][0] == pytest.approx(0.0, abs=1e-6)


def test_a_vault_moved_between_the_two_indexes_answers_the_same_and_embeds_nothing_again(
    vault_dir, backend_for, monkeypatch
):
    """A machine without the graph library (or one that gains it) reads the vault's index
    as it is: the same memories recalled, the same generation, no text embedded again."""
    if ann._hnswlib() is None:
        pytest.skip("no build of hnswlib installed")
    write(vault_dir / "facts" / "bike.md", "---\nid: bike\ntype: fact\n---\nMy bicycle is a green Brompton.\n")
    questions = ["what do I ride to work?", "what am I allergic to?", "where did I go on holiday?"]
    monkeypatch.setenv(ann.ENV, ann.HNSWLIB)
    backend = backend_for(vault_dir)
    before = [recall_ids(backend, q) for q in questions]
    layout = IndexLayout(StateLayout.of(vault_dir))
    generation = layout.current()

    monkeypatch.setenv(ann.ENV, ann.EXACT)
    exact = backend_for(vault_dir)
    assert [recall_ids(exact, q) for q in questions] == before
    write(vault_dir / "facts" / "car.md", "---\nid: car\ntype: fact\n---\nI drive a red Fiat Panda.\n")
    exact.sync()  # its sync writes the vectors in its own file
    with_car = [recall_ids(exact, q) for q in ["what car do I have?", *questions]]
    assert with_car[0][0] == "car"

    monkeypatch.setenv(ann.ENV, ann.HNSWLIB)
    assert [recall_ids(backend_for(vault_dir), q) for q in ["what car do I have?", *questions]] == with_car
    assert layout.current() == generation


def test_doctor_names_the_vector_index_in_use_and_a_wrong_choice_is_refused(cli, monkeypatch):
    monkeypatch.setenv(ann.ENV, ann.EXACT)
    out = cli("doctor")
    assert "vector index: exact search with numpy (VMEM_VECTOR_INDEX=exact)" in out.stdout
    assert json.loads(cli("doctor", "--json").stdout)["runs_on"]["vector index"].startswith("exact")
    monkeypatch.setenv(ann.ENV, "annoy")
    out = cli("recall", "peanuts")
    assert out.exit_code != 0 and "VMEM_VECTOR_INDEX='annoy'" in out.output and "Traceback" not in out.output
