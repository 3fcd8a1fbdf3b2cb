"""``doctor`` for the derived state: can the live generation be read, and do its three
indexes agree? Read-only; what it finds, the next sync rebuilds."""

from __future__ import annotations

from ..errors import IndexUnavailable
from .catalog import Catalog
from .generations import IndexLayout
from .vector_index import load_vectors


def index_problems(layout: IndexLayout) -> list[tuple[str, str]]:
    """(where, what is wrong) for the live generation; empty when all is well (or when
    there is no index yet: the first recall builds it)."""
    generation = layout.current()
    if generation is None:
        return []
    where = generation.folder.relative_to(layout.dir.parent.parent).as_posix()
    fix = "`vmem sync` rebuilds it"
    try:
        catalog = Catalog(generation.catalog_path)
        try:
            integrity = catalog.integrity_problems()
            if integrity:
                return [(f"{where}/catalog.sqlite", f"damaged ({integrity[0]}); {fix}")]
            indexed, chunks = catalog.count(), catalog.chunk_counts()[0]
            dim = int(catalog.meta().get("dim") or 0)
        finally:
            catalog.close()
    except IndexUnavailable as e:
        return [(f"{where}/catalog.sqlite", f"cannot be read ({e}); {fix}")]
    problems: list[tuple[str, str]] = []
    try:
        documents = generation.keyword.open().doc_count()
    except Exception as e:  # Whoosh reports damage with many kinds of error
        problems.append((f"{where}/keyword", f"cannot be read ({type(e).__name__}); {fix}"))
    else:
        if documents != indexed:
            problems.append((f"{where}/keyword", f"holds {documents} memories, the catalog {indexed}; {fix}"))
    if chunks:
        if not generation.vectors_path.exists():
            problems.append((f"{where}/vectors.hnsw", f"is missing; {fix}"))
        else:
            try:
                vectors = load_vectors(generation.vectors_path, generation.vectors_delta_path, dim)
                stored = len(vectors.base.stored_labels() | set(vectors.delta.labels.tolist()))
            except IndexUnavailable as e:
                problems.append((f"{where}/vectors.hnsw", f"{e}"))
            else:
                if stored < chunks:
                    problems.append((f"{where}/vectors.hnsw", f"holds {stored} vectors, the catalog {chunks}; {fix}"))
    return problems
