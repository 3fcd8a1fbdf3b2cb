"""``doctor`` for the derived state: can the live generation be read, and do its three
indexes agree? Read-only; what it finds, the next sync rebuilds (``file_problems`` is the
part cheap enough for every sync to ask)."""

from __future__ import annotations

from pathlib import Path

from ..errors import IndexDamaged, IndexUnavailable
from .catalog import Catalog, Meta
from .embedder import pieces_model, vector_split
from .generations import Generation, IndexLayout
from .keyword_index import ANALYSIS
from .keyword_index import schema as keyword_schema
from .keyword_search import SESSION_FIELD
from .token_store import CODEBOOKS, Int8Rows, TokenFiles
from .vector_index import Vectors, split_of


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
            meta = catalog.meta()
            dim = int(meta.get(Meta.DIM) or 0)
        finally:
            catalog.close()
    except IndexUnavailable as e:
        return [(f"{where}/catalog.sqlite", f"cannot be read ({e}); {fix}")]
    problems = [(f"{where}/{name}", f"{what}; {fix}") for name, what in file_problems(generation, meta)]
    if problems:  # the deeper reads below would only say it again
        return problems
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
                vectors = Vectors.read(
                    generation.vectors_path,
                    generation.vectors_delta_path,
                    dim,
                    split=split_of(meta.get(Meta.VECTOR_SPLIT)),
                )
                stored = len(vectors.stored_labels())
            except IndexUnavailable as e:
                problems.append((f"{where}/vectors.hnsw", f"{e}"))
            else:
                if stored < chunks:
                    problems.append((f"{where}/vectors.hnsw", f"holds {stored} vectors, the catalog {chunks}; {fix}"))
    return problems


def file_problems(generation: Generation, meta: dict[str, str], *, verify: bool = True) -> list[tuple[str, str]]:
    """(file, what is wrong) of the files whose sizes (and the token rows' tail) the
    catalog ``meta`` recorded when it was committed: a few stats and one small read, so
    every freshness check asks it (``verify=False``: any difference is named) and a sync
    rebuilds a generation that fails (truncated, deleted, copied from another). A vector
    file of another size that still loads (``verify``) is what a sync killed between its
    publish and its commit leaves: not damage, the whole sync that follows sweeps it. An
    index from before these were recorded is not judged."""
    problems = []
    rows = int(meta.get(Meta.TOKEN_ROWS) or 0)
    try:
        files = TokenFiles.of(generation.folder, meta)
    except IndexDamaged as e:  # a codec this vmem does not know, or its codebook unreadable
        problems.append(("tokens", str(e)))
        files = None
    wrong = files.problem(rows, meta.get(Meta.TOKEN_TAIL)) if files is not None and rows else None
    if wrong:
        problems.append(wrong)
    for path, size, expected in vector_sizes_differ(generation, meta):
        what = "is missing" if not size else f"holds {size:,} bytes, the catalog recorded {expected:,}"
        if not verify or (not size and path == generation.vectors_path):
            problems.append((path.name, what))
            continue
        try:
            Vectors.read(
                generation.vectors_path,
                generation.vectors_delta_path,
                int(meta.get(Meta.DIM) or 0),
                split=split_of(meta.get(Meta.VECTOR_SPLIT)),
            )
        except IndexUnavailable as e:
            problems.append((path.name, f"{what} ({e})"))
        break  # loaded: both files are whole
    return problems


def index_advice(layout: IndexLayout) -> list[str]:
    """What a rebuild would improve in a sound index built by an earlier vmem: token
    vectors kept as int8 rows (a rebuild stores them in an eighth), a keyword index without
    the conversation column (conversations scored as one text in recall), with fields no
    search reads (a float's 16 prefix terms a memory: most of the index on a vault of notes)
    or analysed by an earlier analysis (a word it dropped is not found by its word)."""
    generation = layout.current()
    if generation is None:
        return []
    try:
        catalog = Catalog(generation.catalog_path)
        try:
            meta, conversations = catalog.meta(), catalog.holds_conversations()
        finally:
            catalog.close()
        files = TokenFiles.of(generation.folder, meta)
        columns = set(generation.keyword.open().schema.names())
    except Exception:  # damage (IndexUnavailable, IndexDamaged, Whoosh's many kinds): said by ``index_problems``
        return []
    advice = []
    if (
        files is not None
        and files.codec.name == Int8Rows.name
        and pieces_model(meta.get(Meta.MODEL_ID) or "") in CODEBOOKS
    ):
        advice.append(
            f"the index keeps its token vectors as int8 rows ({files.size() / 1e6:,.1f} MB): "
            "`vmem reindex` stores them in about an eighth"
        )
    if vector_split(meta.get(Meta.MODEL_ID) or "") is not None and not meta.get(Meta.VECTOR_SPLIT):
        advice.append(
            "the index keeps both halves of each vector in hnswlib "
            f"({_size(generation.vectors_path) / 1e6:,.1f} MB): `vmem reindex` keeps the multilingual half beside it, "
            "in about a quarter of the bytes, read only by a question that needs it"
        )
    if conversations and SESSION_FIELD not in columns:
        advice.append(
            "the keyword index predates scoring each conversation as one text: `vmem reindex` adds it, "
            "and a turn is then found by the words of the rest of its conversation too"
        )
    if meta.get(Meta.KEYWORD_ANALYSIS) != ANALYSIS:
        advice.append(
            "the keyword index was analysed by an earlier vmem: `vmem reindex` also finds English words "
            'the Spanish stop list held ("my son", "the sea", "the Victorian era") by their words'
        )
    unread = columns - set(keyword_schema().names())
    if unread:
        size = sum(_size(f) for f in generation.keyword.folder.iterdir())
        advice.append(
            f"the keyword index keeps fields no search reads ({', '.join(sorted(unread))}; {size / 1e6:,.1f} MB in all): "
            "`vmem reindex` leaves them out and the index is smaller"
        )
    return advice


def vector_files(generation: Generation) -> dict[Path, str]:
    """Each vector file of a generation and the catalog key its size is kept under."""
    return {
        generation.vectors_path: Meta.VECTORS_BYTES,
        generation.vectors_side_path: Meta.SIDE_BYTES,
        generation.vectors_delta_path: Meta.DELTA_BYTES,
    }


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def vector_sizes_differ(generation: Generation, meta: dict[str, str]) -> list[tuple[Path, int, int]]:
    """(file, size, recorded size) of each vector file whose size is not the one the
    catalog recorded at its last commit (missing counts as 0)."""
    sized = [(path, _size(path), int(meta[key])) for path, key in vector_files(generation).items() if key in meta]
    return [(path, size, expected) for path, size, expected in sized if size != expected]


def record_vector_sizes(catalog: Catalog, generation: Generation) -> None:
    """Record the vector files' sizes as they are (after a check that they load)."""
    catalog.set_meta(**{key: _size(path) for path, key in vector_files(generation).items()})
