"""Late interaction on LoCoMo, before it is built into recall: vmem's own ranking of each
question (the fused top N), each candidate re-scored by MaxSim over the bundled MiniLM's
token vectors (``FastEmbedEmbedder.token_vectors``: the pass whose mean is today's vector),
and the two scores mixed. Tuned on conversations 0-2, confirmed on 3-4, as ranking is.

    python benchmarks/late_interaction.py [--keep DIR [--reuse]] [--json]

MaxSim of a question q and a memory m: the mean over q's word pieces of each piece's best
cosine among m's pieces, with the memory's pieces as they would be stored (``STORAGE``). The mix: (1 - w) * fused / max(fused) + w * min-max(MaxSim),
over the top ``n`` of the fused order.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import locomo  # noqa: E402

from vault_memory.index.chunking import embedding_text  # noqa: E402
from vault_memory.index.embedder import FastEmbedEmbedder  # noqa: E402
from vault_memory.index.store import Index  # noqa: E402
from vault_memory.recall.engine import Engine, RecallQuery  # noqa: E402

DEPTHS = (10, 20, 30, 50)
WEIGHTS = (0.2, 0.3, 0.4, 0.5, 0.6, 0.8)


#: how stored token vectors may be kept, each measured by the MaxSim it gives: as computed
#: (float32, 384-d), int8 with a scale per vector (4x smaller), and projected on the 128
#: principal directions of the vault's own pieces, then int8 (12x smaller)
STORAGE = ("float32", "int8", "pca128-int8")


def quantized(vectors: np.ndarray) -> np.ndarray:
    """``vectors`` as int8 with one scale per row would give them back (what a reader of
    such a file computes with)."""
    scale = np.maximum(np.abs(vectors).max(axis=1, keepdims=True), 1e-12) / 127.0
    return np.round(vectors / scale).astype(np.int8).astype(np.float32) * scale


def unit_rows(vectors: np.ndarray) -> np.ndarray:
    return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)


def maxsim(asked: np.ndarray, pieces: np.ndarray) -> float:
    return float((asked @ pieces.T).max(axis=1).mean())


def candidates(data: Path, keep: Path | None, reuse: bool, depth: int) -> list[dict]:
    """Per question: its conversation, category, evidence and [(dia_id, fused, [MaxSim per
    ``STORAGE``])] of the fused top ``depth``, in vmem's order."""
    embedder = FastEmbedEmbedder()
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        for number, sample in enumerate(json.loads(data.read_text())):
            folder = (keep or Path(tmp)) / sample["sample_id"]
            reusing = reuse and (folder / ".vmem" / "index" / "CURRENT").is_file()
            vault, dia_ids, last = locomo.build_vault(sample, folder, reusing, "en")
            engine = Engine(Index(vault, embedder))
            if not reusing:
                engine.index.indexer.reindex()
            qs = locomo.questions(sample, dia_ids)
            pieces: dict[str, np.ndarray] = {}
            ranked = []
            with engine.index.snapshot() as snap:
                for q, asked in zip(qs, embedder.token_vectors([q["question"] for q in qs])):
                    query = RecallQuery(q["question"], k=depth, as_of=last, include_pinned=False)
                    hits = engine.rank(snap, query)
                    new = [h for h in hits if h.memory.id not in pieces]
                    for hit, vectors in zip(
                        new, embedder.token_vectors([embedding_text(h.memory.key, h.memory.text) for h in new])
                    ):
                        pieces[hit.memory.id] = vectors
                    ranked.append((q, asked, hits))
            # the 128 principal directions of this vault's pieces (a build would fit them on a sample)
            everything = np.concatenate(list(pieces.values()))
            basis = np.linalg.svd(everything - everything.mean(axis=0), full_matrices=False)[2][:128].T
            stored = {
                mid: (v, quantized(v), quantized(unit_rows(v @ basis)))
                for mid, v in pieces.items()
            }  # fmt: skip
            for q, asked, hits in ranked:
                asked_as = (asked, asked, unit_rows(asked @ basis))
                found = [
                    (
                        h.memory.extra.get("dia_id"),
                        h.score,
                        [maxsim(a, m) for a, m in zip(asked_as, stored[h.memory.id])],
                    )
                    for h in hits
                ]
                rows.append(
                    {"conversation": number, "category": q["category"], "evidence": q["evidence"], "found": found}
                )
    return rows


def reorder(found: list, depth: int, weight: float, storage: int = 0) -> list[str]:
    top = found[:depth]
    if not top:
        return []
    fused = np.array([f for _, f, _ in top])
    maxsim = np.array([m[storage] for _, _, m in top])
    spread = (maxsim.max() - maxsim.min()) or 1.0
    mixed = (1 - weight) * fused / (fused.max() or 1.0) + weight * (maxsim - maxsim.min()) / spread
    return [top[i][0] for i in np.argsort(-mixed, kind="stable")]


def scored(rows: list[dict], order) -> dict:
    out = []
    for r in rows:
        ranked, evidence = order(r["found"]), set(r["evidence"])
        out.append(
            {
                "category": r["category"],
                "r5": len(evidence & set(ranked[:5])) / len(evidence),
                "r10": len(evidence & set(ranked[:10])) / len(evidence),
                "hit5": float(bool(evidence & set(ranked[:5]))),
            }
        )
    return locomo.score(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=locomo.DEFAULT_DATA)
    parser.add_argument("--keep", type=Path, help="build the vaults here and keep them")
    parser.add_argument("--reuse", action="store_true", help="with --keep: the vaults an earlier run kept")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = candidates(args.data, args.keep, args.reuse, max(DEPTHS))
    tune, confirm = ([r for r in rows if r["conversation"] in split] for split in locomo.SPLITS.values())

    def both(order) -> dict:
        return {"tune 0-2": scored(tune, order), "confirm 3-4": scored(confirm, order)}

    result: dict = {"baseline": both(lambda found: [d for d, _, _ in found])}
    for storage, name in enumerate(STORAGE):
        sweep = {
            (n, w): scored(tune, lambda found, n=n, w=w, s=storage: reorder(found, n, w, s))
            for n in DEPTHS
            for w in WEIGHTS
        }
        n, w = max(sweep, key=lambda key: sweep[key]["recall@5"] + sweep[key]["recall@10"])  # chosen on 0-2 only
        result[f"late_interaction {name}"] = both(lambda f, n=n, w=w, s=storage: reorder(f, n, w, s))
        result[f"late_interaction {name}"]["chosen"] = {"depth": n, "weight": w}
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for name, splits in result.items():
        chosen = splits.pop("chosen", None)
        if chosen:
            print(
                f"{name}: MaxSim re-scoring of the fused top {chosen['depth']}, weight {chosen['weight']} (chosen on 0-2)"
            )
        for split, r in splits.items():
            cats = ", ".join(f"{c} {v['recall@5']:.3f}/{v['recall@10']:.3f}" for c, v in r["per_category"].items())
            print(
                f"  {name:<28} {split}: R@5 {r['recall@5']:.3f}  R@10 {r['recall@10']:.3f}  hit@5 {r.get('hit@5', 0):.3f}  ({cats})"
            )


if __name__ == "__main__":
    main()
