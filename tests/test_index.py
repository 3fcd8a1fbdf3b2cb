"""The derived index pieces on their own: hnswlib slots, format versions."""

import numpy as np
import pytest

from vault_memory import IndexStale
from vault_memory.config import StateLayout
from vault_memory.index.catalog import Catalog
from vault_memory.index.generations import IndexLayout
from vault_memory.index.vector_index import VectorIndex


def unit(rows: int, dim: int = 8, seed: int = 0) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=(rows, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_deleted_slots_are_reused_and_the_index_grows(tmp_path):
    vi = VectorIndex.create(tmp_path / "v.hnsw", 8, capacity=16)
    vi.add(list(range(16)), unit(16))
    vi.delete(list(range(8)))
    vi.add(list(range(100, 108)), unit(8, seed=1))
    assert vi.index.get_max_elements() == 16 and vi.index.get_current_count() == 16  # slots reused, no growth
    vi.add(list(range(200, 210)), unit(10, seed=2))
    assert vi.index.get_max_elements() >= 26  # grown before it filled
    vi.save()
    again = VectorIndex.load(tmp_path / "v.hnsw", 8)
    found = {label for label, _ in again.search(unit(1, seed=2)[0], 5, live=26)}
    assert found and not found & set(range(8))  # deleted labels never come back
    assert not list(tmp_path.glob(".*.tmp"))  # atomic save leaves no temp file


def test_an_index_of_another_format_is_rebuilt_by_the_next_sync(cli, vault_dir):
    """An index is derived: one written in another format is rebuilt, never half-read."""
    assert cli("sync").exit_code == 0
    layout = IndexLayout(StateLayout.of(vault_dir))
    old = layout.current()
    catalog = Catalog(old.catalog_path)
    catalog.set_meta(format_version=0)
    catalog.close()
    out = cli("recall", "peanuts")
    assert out.exit_code == 0 and "allergic to peanuts" in out.stdout
    assert layout.current() != old
    report = cli.json("sync")
    assert report["unchanged"] == 6 and not report["rebuilt"]


def test_index_stale_is_a_vault_error():
    from vault_memory import VaultError

    assert issubclass(IndexStale, VaultError)
    with pytest.raises(VaultError):
        raise IndexStale("x")
