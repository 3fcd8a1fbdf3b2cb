"""Train the token codebook shipped beside the bundled model (``vault_memory/model/``):
the centroids product quantization stores each late-interaction piece with
(``vault_memory/index/token_store.py``, ``ProductCodes``), and how close it keeps them.

    python benchmarks/codebook.py [--out vault_memory/model/token-codes-v1.npy] [--groups 48]

The training text is ours or public, never the benchmark's: this repository's README,
docs and vault template, the design notes in ``../shared/seeds`` (mostly Spanish) when
they are beside it, and Python's own ``pydoc`` topics (PSF licence). It is cut into
sentences of 20-400 characters, shuffled with a fixed seed, and the first 4,000 are
embedded by the bundled model; 100,000 of their token vectors train 256 centroids for
each group of 384 / ``groups`` dimensions (k-means, 20 rounds, fixed seed), and the rest
measure what a piece keeps: the cosine of each to its decoded self.

    python benchmarks/codebook.py --calibrate ../shared/bench/locomo-dev.json

fits the affine map that puts a MaxSim over decoded pieces back on the scale of the
MaxSim over the pieces (``token_store.CODEBOOKS``), which the relevance floor reads:
tuned on LoCoMo dev conversations 0-2 and confirmed on 3-4, as ranking is.

Chosen on LoCoMo dev (docs/benchmarks.md, "Footprint"): 48 groups kept both splits within
.005 of int8 rows (R@5 and R@10); 32 lost .011 on one.
"""

from __future__ import annotations

import argparse
import glob
import json
import random
import re
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vault_memory.index.embedder import FastEmbedEmbedder  # noqa: E402
from vault_memory.index.token_store import ProductCodes, maxsim  # noqa: E402


def training_text() -> list[str]:
    texts = []
    names = [
        ROOT / "README.md",
        *map(Path, sorted(glob.glob(str(ROOT / "docs" / "*.md")))),
        *map(Path, sorted(glob.glob(str(ROOT / "vault-template" / "**" / "*.md"), recursive=True))),
        *map(Path, sorted(glob.glob(str(ROOT.parent / "shared" / "seeds" / "**" / "*"), recursive=True))),
    ]
    for name in names:
        try:
            texts.append(name.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue
    import pydoc_data.topics

    texts += [pydoc_data.topics.topics[key] for key in sorted(pydoc_data.topics.topics)]
    sentences = []
    for text in texts:
        for piece in re.split(r"(?<=[.!?])\s+|\n\s*\n", text):
            piece = " ".join(piece.split())
            if 20 <= len(piece) <= 400 and sum(c.isalpha() for c in piece) > len(piece) * 0.6:
                sentences.append(piece)
    random.Random(1).shuffle(sentences)
    return sentences[:4000]


def kmeans(points: np.ndarray, k: int, rounds: int, rng: np.random.Generator) -> np.ndarray:
    centroids = points[rng.choice(len(points), k, replace=False)].copy()
    for _ in range(rounds):
        distance = (centroids**2).sum(1)[None] - 2 * points @ centroids.T
        nearest = distance.argmin(1)
        sums = np.zeros_like(centroids)
        np.add.at(sums, nearest, points)
        counts = np.bincount(nearest, minlength=k)
        empty = counts == 0
        centroids[~empty] = sums[~empty] / counts[~empty, None]
        if empty.any():
            centroids[empty] = points[rng.choice(len(points), int(empty.sum()), replace=False)]
    return centroids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ROOT / "vault_memory" / "model" / "token-codes-v1.npy")
    parser.add_argument("--groups", type=int, default=48)
    parser.add_argument("--calibrate", type=Path, metavar="LOCOMO_JSON", help="fit the calibration instead of training")
    args = parser.parse_args()
    if args.calibrate:
        calibrate(args.calibrate)
        return
    sentences = training_text()
    started = time.perf_counter()
    _, pieces = FastEmbedEmbedder().embed_with_tokens(sentences)
    vectors = np.concatenate(pieces).astype(np.float32)
    order = np.random.default_rng(1).permutation(len(vectors))
    train, held = vectors[order[:100_000]], vectors[order[100_000:]]
    print(
        f"{len(sentences)} sentences, {len(vectors):,} token vectors, embedded in {time.perf_counter() - started:.0f} s"
    )
    width = vectors.shape[1] // args.groups
    rng = np.random.default_rng(0)
    centroids = np.stack(
        [kmeans(train[:, g * width : (g + 1) * width], 256, 20, rng) for g in range(args.groups)]
    ).astype(np.float16)
    np.save(args.out, centroids)
    codec = ProductCodes(args.out.stem, centroids)
    decoded = codec.decode(codec.encode(held), len(held))
    cosine = (decoded * held).sum(1) / np.linalg.norm(held, axis=1)
    print(f"{args.out}: {args.groups} groups x 256 centroids, {args.out.stat().st_size:,} bytes")
    print(
        f"held-out pieces ({len(held):,}): cosine to the decoded piece, mean {cosine.mean():.4f}, p5 {np.percentile(cosine, 5):.4f}"
    )


def calibrate(data: Path) -> None:
    """Fit the shipped codec's MaxSim calibration on LoCoMo dev conversations 0-2 (each
    question against every 5th turn of its conversation: the expected true MaxSim given
    the decoded one, where the decoded one is above .25, as the floor sees it), and
    confirm on 3-4: how often a memory falls on the same side of the relevance floor's
    MaxSim (``relevance.FLOORS``) as with the pieces themselves."""
    from vault_memory.index.embedder import BUNDLED_MODEL_ID
    from vault_memory.index.token_store import CODEBOOKS, codec_for
    from vault_memory.recall.relevance import fact_floor

    floor = fact_floor(BUNDLED_MODEL_ID).min_maxsim  # type: ignore[union-attr]
    shipped = codec_for(BUNDLED_MODEL_ID, 384)
    codec = ProductCodes(shipped.name, shipped.centroids)  # uncalibrated
    embedder = FastEmbedEmbedder()
    samples = json.loads(data.read_text())

    def pairs(conversations: range) -> tuple[np.ndarray, np.ndarray]:
        true, coded = [], []
        for index in conversations:
            talk = samples[index]["conversation"]
            turns = [
                t["text"]
                for k in sorted(talk)
                if k.startswith("session_") and isinstance(talk[k], list)
                for t in talk[k]
            ]
            _, docs = embedder.embed_with_tokens(turns[::5])
            _, questions = embedder.embed_with_tokens([q["question"] for q in samples[index]["qa"]])
            decoded = [codec.decode(codec.encode(doc), len(doc)) for doc in docs]
            for question in questions:
                for doc, dec in zip(docs, decoded, strict=True):
                    true.append(maxsim(question, doc))
                    coded.append(maxsim(question, dec))
        return np.array(true), np.array(coded)

    true, coded = pairs(range(0, 3))
    near = coded > 0.25
    slope, intercept = (float(x) for x in np.polyfit(coded[near], true[near], 1))
    print(
        f"fitted on 0-2 ({len(true):,} pairs): {slope:.3f} x {intercept:+.3f}; shipped: {CODEBOOKS[BUNDLED_MODEL_ID]}"
    )
    for name, split in (("tune 0-2", range(0, 3)), ("confirm 3-4", range(3, 5))):
        true, coded = pairs(split)
        above = true > floor
        raw, fitted = coded > floor, coded * slope + intercept > floor
        print(
            f"{name}: {above.sum():,} of {len(true):,} pairs above the floor ({floor}); same side of it:"
            f" uncalibrated {(raw == above).mean():.4f}, calibrated {(fitted == above).mean():.4f}"
        )


if __name__ == "__main__":
    main()
