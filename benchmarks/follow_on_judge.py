"""A judge learned on the multilingual model's vectors: does the sentence said right after a
kept request go on about its fact, or is it something else?

"Remember that I'm on blood thinners. My cardiologist, Dr. Ferreira-Lamb, prescribed
warfarin." keeps the second sentence with the first; "… Now write the tests for the dosage
parser", "… Gracias, sos un genio", "… Estou bem ansioso com o prazo" do not. No word says
which: the rules join a sentence that opens with a pronoun, and an attacker found that
joining one that opens with the user's own ("My bad, I meant Rust") wrote remarks. Here a
logistic regression on the USE vector of the sentence alone learns it from the pairs two
helpers wrote to train on (``data/language_eval/follow_on_train*.jsonl``), and is measured
on the two sets other helpers wrote (``follow_on``, ``follow_on2``), never trained on:

- the regularisation by log loss over five folds of the training pairs;
- the threshold of ``lang.judge.GOES_ON`` by what the reading then keeps and writes on the two sets' tune halves (details kept less twice the
  other sentences written: a remark joined to a fact is read as the user's in every session;
  of a tie, the stricter);
- printed last, the held halves.

``--write`` writes the fitted judge into ``vault_memory/lang/follow_on_judge.json``.

    python benchmarks/follow_on_judge.py [--write]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from request_judge import best_l2, fit, fitted_in_place  # noqa: E402  (beside this script)

from vault_memory.conversation.request_judge import request_judge  # noqa: E402
from vault_memory.conversation.signals import read_requests  # noqa: E402
from vault_memory.index.embedder import UseEmbedder  # noqa: E402
from vault_memory.lang import judge  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "language_eval"
#: the pairs helpers wrote to train on: the first, and a second asked for harder details
#: (a pronoun back, a fragment, what follows from the fact) and harder others
TRAIN = (DATA / "follow_on_train.jsonl", DATA / "follow_on_train2.jsonl")
SETS = ("follow_on", "follow_on2")
L2 = (1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2)
FOLDS = 5
#: the thresholds tried (``lang.judge.GOES_ON``)
THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
#: what a sentence that is no detail, written into the user's fact, costs in details not kept
WRITTEN_COST = 2


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w{3,}", text.casefold()))


def measured(cases: list[dict]) -> tuple[int, int, int, int]:
    """(details kept, details, other sentences written, others) as ``language_eval`` counts them."""
    reader = request_judge()
    kept = written = n_kept = n_written = 0
    for case in cases:
        facts, _ = read_requests(f"{case['request']} {case['next']}", judge=reader)
        said = " ".join(f.text for f in facts)
        if case["label"] == "goes_on":
            n_kept += 1
            kept += all(k.casefold() in said.casefold() for k in case["keep"])
        else:
            n_written += 1
            own = _words(case["next"]) - _words(case["request"])
            written += bool(own) and len(own & _words(said)) >= len(own) / 2
    return kept, n_kept, written, n_written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the fitted judge into the package")
    args = parser.parse_args()
    rows = [
        json.loads(line) for path in TRAIN for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    model = UseEmbedder()
    x = model.embed([r["next"] for r in rows]).astype(np.float64)
    y = np.array([r["label"] == "goes_on" for r in rows], dtype=float)
    print(f"trained on {len(y)} sentences ({int(y.sum())} details, {int(len(y) - y.sum())} others)")
    l2 = best_l2(x, y, np.arange(len(y)) % FOLDS, L2, f"{FOLDS} folds")
    w, b = fit(x, y, l2)
    fitted = {"model": UseEmbedder.model_id, "l2": l2, "trained_on": len(y), "bias": round(b, 6)}
    fitted["weights"] = [round(float(v), 6) for v in w]
    with fitted_in_place(judge.FOLLOW_ON_WEIGHTS, json.dumps(fitted) + "\n", args.write, judge._fitted.cache_clear):
        sets = {
            split: [
                c
                for name in SETS
                for c in json.loads((DATA / f"{name}.json").read_text())["cases"]
                if c["split"] == split
            ]
            for split in ("tune", "held")
        }
        print(f"chosen l2 {l2:g}. On the tune halves of {', '.join(SETS)} (details kept, others written):")
        chosen = None
        for threshold in THRESHOLDS:
            judge.GOES_ON = threshold
            kept, n_kept, written, n_written = measured(sets["tune"])
            score = kept - WRITTEN_COST * written
            print(f"  judge ≥ {threshold:g}: {kept}/{n_kept} kept, {written}/{n_written} written")
            if chosen is None or score >= chosen[0]:  # a tie: the stricter
                chosen = (score, threshold)
        assert chosen is not None
        judge.GOES_ON = chosen[1]
        kept, n_kept, written, n_written = measured(sets["held"])
        print(f"chosen: {chosen[1]:g}. Held halves: {kept}/{n_kept} details kept, {written}/{n_written} others written")


if __name__ == "__main__":
    main()
