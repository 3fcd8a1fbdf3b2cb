"""Can the bundled embeddings tell a change from two facts both true? A judge learned on them.

Trained on ``data/language_eval/change_train.jsonl`` (720 pairs a helper wrote to train on:
a third of the changes say a word of change, a third none, a third tell an event; the pairs
both true are hard: the same subject's other attribute, another person, an addition, words
of change about another thing), evaluated by 5-fold cross-validation there and on the
``changes``/``both_true``/``both_true_changing`` sets' ``--split`` (written by others, never
trained on). A logistic regression on, per pair: the two models' cosines (MiniLM, USE),
whether the newer says a change or a contrast (``lang.cues``) and names the same people;
then the same with the vectors' element-wise products and differences (the "learned
judge" on the embeddings themselves). Printed beside it: the rule recall uses
(``recall.related``: a word of change, no contrast, the same people, cosine ≥ .45), and how
many changes lie within each cosine of their older fact (what a neighbour search reaches).

    python benchmarks/change_judge.py [--split tune|held]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vault_memory.index.embedder import embedder_from_config  # noqa: E402
from vault_memory.lang import people, says_change, says_contrast  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "language_eval"
#: the bilingual model's two parts: MiniLM judges English pairs, USE the others
PARTS = {"mini": (0, 384), "use": (384, 896)}


def eval_pairs(split: str) -> list[dict]:
    out = []
    for c in json.loads((DATA / "changes.json").read_text())["cases"]:
        if c["split"] == split:
            out.append({"lang": c["lang"], "older": c["old"], "newer": c["new"], "label": "change"})
    for name in ("both_true", "both_true_changing"):
        for c in json.loads((DATA / f"{name}.json").read_text())["cases"]:
            if c["split"] == split:
                out.append({"lang": c["lang"], "older": c["a"], "newer": c["b"], "label": "both_true"})
    return out


def _unit(x: np.ndarray) -> np.ndarray:
    return x / (np.linalg.norm(x) + 1e-9)


def features(pair: dict, vec: dict, with_vectors: bool) -> np.ndarray:
    a, b = vec[pair["older"]], vec[pair["newer"]]
    out: list[np.ndarray] = []
    for start, stop in PARTS.values():
        x, y = _unit(a[start:stop]), _unit(b[start:stop])
        out.append(np.array([x @ y]))
        if with_vectors:
            out += [x * y, np.abs(x - y)]
    cues = [says_change(pair["newer"]), says_contrast(pair["newer"]), people(pair["older"]) == people(pair["newer"])]
    return np.concatenate([*out, np.array(cues, dtype=float)])


def fit(x: np.ndarray, y: np.ndarray, l2: float) -> tuple:
    mu, sd = x.mean(0), x.std(0) + 1e-6
    z = (x - mu) / sd
    w, b = np.zeros(z.shape[1]), 0.0
    for _ in range(300):
        p = 1 / (1 + np.exp(-(z @ w + b)))
        w -= 0.5 * (z.T @ (p - y) / len(y) + l2 * w)
        b -= 0.5 * float((p - y).mean())
    return mu, sd, w, b


def prob(model: tuple, x: np.ndarray) -> np.ndarray:
    mu, sd, w, b = model
    return 1 / (1 + np.exp(-(((x - mu) / sd) @ w + b)))


def auc(p: np.ndarray, y: np.ndarray) -> float:
    pos, neg = p[y == 1], p[y == 0]
    return float((pos[:, None] > neg[None, :]).mean() + 0.5 * (pos[:, None] == neg[None, :]).mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", default="tune", choices=("tune", "held"))
    args = parser.parse_args()
    train = [json.loads(line) for line in (DATA / "change_train.jsonl").read_text().splitlines()]
    test = eval_pairs(args.split)
    texts = sorted({t for r in train + test for t in (r["older"], r["newer"])})
    vec = dict(zip(texts, embedder_from_config("bilingual").embed(texts), strict=True))

    def judged_cosine(r: dict) -> float:
        start, stop = PARTS["mini"] if r["lang"] == "en" else PARTS["use"]
        return float(_unit(vec[r["older"]][start:stop]) @ _unit(vec[r["newer"]][start:stop]))

    changes = np.array([judged_cosine(r) for r in train if r["label"] == "change"])
    print("changes of the training set within reach of a neighbour search, by cosine:")
    print("  " + ", ".join(f"≥ {t:.2f}: {np.mean(changes >= t):.0%}" for t in (0.1, 0.2, 0.3, 0.45)))
    y = np.array([r["label"] == "change" for r in train], dtype=float)
    yt = np.array([r["label"] == "change" for r in test], dtype=float)
    rule = np.array(
        [
            says_change(r["newer"])
            and not says_contrast(r["newer"])
            and people(r["older"]) == people(r["newer"])
            and judged_cosine(r) >= 0.45
            for r in test
        ]
    )
    print(f"the rule recall uses, {args.split}: changes caught {rule[yt == 1].mean():.2f}, both true flagged "
          f"{rule[yt == 0].mean():.3f}")  # fmt: skip
    for with_vectors in (False, True):
        x = np.array([features(r, vec, with_vectors) for r in train])
        xt = np.array([features(r, vec, with_vectors) for r in test])
        folds = np.array_split(np.random.default_rng(0).permutation(len(y)), 5)
        cv = np.zeros(len(y))
        for fold in folds:
            cv[fold] = prob(fit(np.delete(x, fold, 0), np.delete(y, fold), 0.01), x[fold])
        pt = prob(fit(x, y, 0.01), xt)
        name = "cosines + cues + vectors" if with_vectors else "cosines + cues"
        print(f"{name}: AUC cross-validated {auc(cv, y):.3f}, on {args.split} {auc(pt, yt):.3f}")
        for flagged in (0.0, 0.026, 0.05):  # the threshold that flags this share of the both-true pairs
            t = float(np.quantile(pt[yt == 0], 1 - flagged)) + 1e-9
            print(f"  both true flagged ≤ {flagged:.3f}: changes caught {np.mean(pt[yt == 1] >= t):.2f}")


if __name__ == "__main__":
    main()
