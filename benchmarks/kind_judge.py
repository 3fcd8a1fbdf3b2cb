"""A judge learned on the multilingual model's vectors: what does a fact tell of the user —
where they live, their work, what they may eat, which medicines they must not be given?

"What do I do for a living?" is answered by "Barista at Blue Bottle on Market St.", "¿dónde
vivo?" by "Mi casa está en Triana, Sevilla": recall lifts the facts of a question's kind
(``recall.kinds``), and found them only under the tags the fact rules give ("I live in …",
"trabajo en …") and the diet and allergy words. Here one logistic regression per kind on
the USE vector of the fact (which every fact of a bilingual vault stores) learns it from the
facts two helpers wrote to train on (``data/language_eval/kind_train*.jsonl``: the user's
home, work, diet, allergies to medicines, and the rest, many of them near: a brother's home, a
past job, a trip, a daily pill; a fact said as one of the measured sets says it left out), and
is measured on the ``kinds`` set's answers and distractors
(written by another helper; never trained on):

- the regularisation by log loss over five folds of the training facts;
- printed per kind and half: the answers read as of their kind and the distractors read so,
  at ``lang.judge.KIND_AT``.

``--write`` writes the fitted judge into ``vault_memory/lang/kind_judge.json``.

    python benchmarks/kind_judge.py [--write]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from request_judge import best_l2, fit, fitted_in_place  # noqa: E402  (beside this script)

from vault_memory.index.embedder import UseEmbedder  # noqa: E402
from vault_memory.lang import judge  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "language_eval"
#: the facts helpers wrote to train on, each set by another helper
TRAIN = (DATA / "kind_train.jsonl", DATA / "kind_train2.jsonl")
#: the sets the judge is measured on, or whose facts recall is measured with: a training
#: fact said the same as one of theirs is left out of the training
MEASURED = ("kinds", "relevance", "unanswerable", "changes", "both_true", "both_true_changing", "said_again")
#: the training set's labels as the kinds of ``recall.kinds`` name them
KINDS = {"residence": "residence", "work": "work", "diet": "food", "medicine": "medicine"}
L2 = (1e-4, 3e-4, 1e-3, 3e-3, 1e-2)
FOLDS = 5


def _measured_texts() -> set[str]:
    """Every fact the measured sets hold, as ``main`` compares them."""
    out: set[str] = set()
    for name in MEASURED:
        data = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
        for case in data["cases"]:
            for field in ("answer", "fact", "old", "new", "a", "b", "older", "newer"):
                if isinstance(case.get(field), str):
                    out.add(case[field].strip().casefold())
            out |= {text.strip().casefold() for text in case.get("distractors", [])}
        out |= {fact["text"].strip().casefold() for fact in data.get("vault", [])}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the fitted judge into the package")
    args = parser.parse_args()
    measured = _measured_texts()
    rows = [
        row
        for path in TRAIN
        if path.exists()
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip() and (row := json.loads(line))["text"].strip().casefold() not in measured
    ]
    model = UseEmbedder()
    x = model.embed([r["text"] for r in rows]).astype(np.float64)
    fitted: dict[str, dict] = {}
    for label, kind in KINDS.items():
        y = np.array([r["label"] == label for r in rows], dtype=float)
        print(f"{kind}: {int(y.sum())} of {len(y)} facts")
        l2 = best_l2(x, y, np.arange(len(y)) % FOLDS, L2, f"{FOLDS} folds")
        w, b = fit(x, y, l2)
        fitted[kind] = {"l2": l2, "bias": round(b, 6), "weights": [round(float(v), 6) for v in w]}
    text = json.dumps({"model": UseEmbedder.model_id, "trained_on": len(rows), "kinds": fitted}) + "\n"
    with fitted_in_place(judge.KINDS_WEIGHTS, text, args.write, judge._fitted_kinds.cache_clear):
        cases = json.loads((DATA / "kinds.json").read_text(encoding="utf-8"))["cases"]
        for split in ("tune", "held"):
            counts: dict[str, list[int]] = {}
            for case in cases:
                if case["split"] != split or case["kind"] not in KINDS.values():
                    continue
                texts = [case["answer"], *case["distractors"]]
                read = [judge.fact_kinds(v).get(case["kind"], 0.0) >= judge.KIND_AT for v in model.embed(texts)]
                c = counts.setdefault(case["kind"], [0, 0, 0, 0])
                c[0] += read[0]
                c[1] += 1
                c[2] += sum(read[1:])
                c[3] += len(read) - 1
            print(
                f"{split}: "
                + "; ".join(
                    f"{kind} answers read {a}/{n}, distractors read {d}/{m}" for kind, (a, n, d, m) in counts.items()
                )
            )


if __name__ == "__main__":
    main()
