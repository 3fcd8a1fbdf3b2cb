"""A judge learned on the multilingual model's vectors: does a fact said with a word of now
or today hold for the moment only, or begin something that lasts?

"Remember I'm half asleep now" and "anota que ahorita tengo mucha hambre" are of the moment;
"remember I'm vegan now", "desde hoy soy vegetariana" and "starting today I'm the tech lead"
are not. The same words of now say both; the rules read the moment from a few shapes ("today
… I'm") and refused "since today I'm vegetarian" while they wrote "I have a headache right
now". Here a logistic regression on the vector of the statement and its words
(``lang.judge.clause_grams``) learns it from statements a helper wrote to train on
(``data/language_eval/passing_train.jsonl``: 600 of each, English, Spanish, Portuguese, with
no request word) and events a second helper told with a word of the day, lasting or not
(``passing_train2.jsonl``: 450 of each), each as said and in the third person the facts are
written in. It is measured on the requests another helper wrote (``now_lasting``), never
trained on:

- how well it separates the statements it was not fitted on (five folds, by statement);
- the threshold of ``lang.judge.PASSING_AT`` by what the reading then keeps and writes on
  ``now_lasting``'s tune half (lasting facts kept whole less passing states written; of a tie,
  the stricter);
- printed last, the held half.

``--write`` writes the fitted judge into ``vault_memory/lang/passing_judge.json``.

    python benchmarks/passing_judge.py [--write]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import asking_judge  # noqa: E402  (beside this script)
from language_eval import kept_in  # noqa: E402
from request_judge import fitted_in_place  # noqa: E402

from vault_memory.conversation.request_judge import request_judge  # noqa: E402
from vault_memory.conversation.signals import read_requests  # noqa: E402
from vault_memory.index.embedder import UseEmbedder  # noqa: E402
from vault_memory.lang import in_third_person, judge  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "language_eval"
#: the statements helpers wrote to train on: the first, and a second of events told with a
#: word of the day, lasting ("I started at Globant today") or not ("I overslept today")
TRAIN = (DATA / "passing_train.jsonl", DATA / "passing_train2.jsonl")
MEASURED_ON = DATA / "now_lasting.json"
FOLDS = 5
#: the words' own weight decay. 1e-2 told the statements left out apart a little better than
#: 1e-3 (AUC .991 and .990, right at .5 95.5% and 94.4%), and did worse on another helper's
#: requests (the tune half at its best threshold: 52 kept less 4 written against 57 less 6)
L2_GRAMS = 1e-3
#: the thresholds tried (``lang.judge.PASSING_AT``)
THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8)


def training() -> tuple[list[str], np.ndarray, np.ndarray]:
    """Each statement as said and in the third person (when that reads differently), its
    label (1: of the moment) and its group (the statement's fold)."""
    rows = [
        json.loads(line)
        for path in TRAIN
        if path.exists()
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    texts, labels, groups = [], [], []
    for i, row in enumerate(rows):
        for text in dict.fromkeys((row["text"], in_third_person(row["text"], row["lang"]))):
            texts.append(text)
            labels.append(row["label"] == "passing")
            groups.append(i % FOLDS)
    return texts, np.array(labels, dtype=float), np.array(groups)


def _auc(p: np.ndarray, y: np.ndarray) -> float:
    pos, neg = p[y == 1], p[y == 0]
    return float((pos[:, None] > neg[None, :]).mean() + 0.5 * (pos[:, None] == neg[None, :]).mean())


def left_out(x: np.ndarray, texts: list[str], y: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Each text's probability from a judge fitted without its fold."""
    p = np.zeros(len(y))
    for group in np.unique(groups):
        out = groups == group
        w, b, grams = asking_judge.fit(
            x[~out],
            [t for t, o in zip(texts, out, strict=True) if not o],
            y[~out],
            np.ones(int((~out).sum())),
            L2_GRAMS,
        )
        z = (
            x[out] @ w
            + b
            + np.array(
                [sum(grams.get(g, 0.0) for g in judge.clause_grams(t)) for t, o in zip(texts, out, strict=True) if o]
            )
        )
        p[out] = 1 / (1 + np.exp(-z))
    return p


def measured(split: str) -> tuple[int, int, int, int]:
    """(lasting facts kept whole, lasting facts, passing states written, passing states) of
    ``now_lasting``'s ``split``, as ``language_eval`` counts a request kept."""
    reader = request_judge()
    kept = n_kept = written = n_written = 0
    for case in json.loads(MEASURED_ON.read_text(encoding="utf-8"))["cases"]:
        if case["split"] != split:
            continue
        facts, _ = read_requests(case["prompt"], judge=reader)
        said = " ".join(f.text for f in facts)
        if case["label"] == "keep":
            n_kept += 1
            kept += all(kept_in(k, said, case["lang"]) for k in case["keep"])
        else:
            n_written += 1
            written += bool(facts)
    return kept, n_kept, written, n_written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the fitted judge into the package")
    args = parser.parse_args()
    texts, y, groups = training()
    print(f"trained on {len(y)} texts ({int(y.sum())} of the moment, {int(len(y) - y.sum())} lasting)")
    x = UseEmbedder().embed(texts).astype(np.float64)
    p = left_out(x, texts, y, groups)
    print(f"statements left out: AUC {_auc(p, y):.3f}, right at .5 {((p >= 0.5) == y).mean():.1%}")
    w, b, grams = asking_judge.fit(x, texts, y, np.ones(len(y)), L2_GRAMS)
    fitted = {"model": UseEmbedder.model_id, "l2": asking_judge.L2, "trained_on": len(y), "bias": round(b, 6)}
    fitted["weights"] = [round(float(v), 6) for v in w]
    fitted["grams"] = grams
    text = json.dumps(fitted, ensure_ascii=False) + "\n"
    with fitted_in_place(judge.PASSING_WEIGHTS, text, args.write, _cleared):
        print("on now_lasting's tune half (lasting kept, passing written):")
        chosen = None
        for threshold in THRESHOLDS:
            judge.PASSING_AT = threshold
            kept, n_kept, written, n_written = measured("tune")
            print(f"  judge ≥ {threshold:g}: {kept}/{n_kept} kept, {written}/{n_written} written")
            if chosen is None or kept - written > chosen[0]:  # a tie: the stricter, tried first
                chosen = (kept - written, threshold)
        assert chosen is not None
        judge.PASSING_AT = chosen[1]
        kept, n_kept, written, n_written = measured("held")
        print(f"chosen: {chosen[1]:g}. Held half: {kept}/{n_kept} kept, {written}/{n_written} written")


def _cleared() -> None:
    judge._fitted.cache_clear()
    judge._fitted_grams.cache_clear()


if __name__ == "__main__":
    main()
