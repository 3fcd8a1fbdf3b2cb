"""A judge of answering, measured and not kept: does a stored fact answer the question
asked, or only sit near it?

A question nothing in the vault answers still finds facts close to it in meaning: "where
does my sister live?" finds "My sister's name is Clara", "what's my cat called?" the dog.
No floor on the cosine tells them apart (``docs/benchmarks.md``, "Unanswerable questions and
the bundled models' cosines"): what differs is *which* attribute, or whose, a fact gives.
This fits, per model of the bundled vector, a logistic regression on the pair's vectors and
measures it:

- answers: the facts helpers wrote as answering their questions
  (``data/language_eval/answers_train.jsonl``: three helpers, one per language, who saw no
  rule and no set; a sixth of the facts in another language than the question);
- not answers: the near facts they wrote beside them (the same subject's other attribute,
  the same attribute of another, another thing of the topic, a shared word only), and three
  facts of other questions each (at a third of the weight).

Each model judges the pairs it judges in recall (``recall.languages.judge_of``): MiniLM two
English texts, the multilingual model any other pair. Printed per judge (``VARIANTS``): the
AUC on questions left out in turn, and on a half of the language sets how many of the
questions nothing answers would be quiet at the threshold that keeps 95% of the answers.

    python benchmarks/answer_judge.py [--split tune|held]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from request_judge import fit_weighted  # noqa: E402  (beside this script)

from vault_memory.index.embedder import BilingualEmbedder, Part  # noqa: E402
from vault_memory.lang import detect  # noqa: E402
from vault_memory.recall.languages import judge_of  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "language_eval"
#: a second set, a later stop's: three more helpers (170 questions each, one per language,
#: every fact in the question's language), who saw neither rule nor set nor the first set
TRAIN = (DATA / "answers_train.jsonl", DATA / "answers_train2.jsonl")
#: the penalty on the standardised weights (of .01, .1, 1: the best AUC on questions left out)
L2 = 0.1
#: a fact of another question: easy, many, a third of the weight
OTHER_WEIGHT = 1 / 3
OTHERS_EACH = 3


def groups(paths: tuple[Path, ...] = TRAIN) -> list[dict]:
    return [json.loads(line) for p in paths for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]


def pairs(rows: list[dict], seed: int = 0) -> list[tuple[int, str, str, int, float]]:
    """(group, question, fact, answers?, weight) of every pair the rows give."""
    rng = random.Random(seed)
    facts = [(n, f["text"]) for n, row in enumerate(rows) for f in row["answers"] + row["near"]]
    out = []
    for n, row in enumerate(rows):
        out += [(n, row["q"], f["text"], 1, 1.0) for f in row["answers"]]
        out += [(n, row["q"], f["text"], 0, 1.0) for f in row["near"]]
        others = [text for m, text in facts if m != n]
        out += [(n, row["q"], text, 0, OTHER_WEIGHT) for text in rng.sample(others, OTHERS_EACH)]
    return out


class Vectors:
    """Each text's unit vector per model part, embedded once."""

    def __init__(self) -> None:
        self.embedder = BilingualEmbedder()
        self.parts = self.embedder.parts
        self._of: dict[str, np.ndarray] = {}

    def add(self, texts: list[str]) -> None:
        new = [t for t in dict.fromkeys(texts) if t not in self._of]
        for start in range(0, len(new), 256):
            chunk = new[start : start + 256]
            self._of.update(zip(chunk, self.embedder.embed(chunk), strict=True))

    def part(self, text: str, part: Part) -> np.ndarray:
        return self._of[text][part.start : part.stop] / part.weight


def features(q: np.ndarray, f: np.ndarray, basis: np.ndarray | None) -> np.ndarray:
    """What a judge reads of pairs (rows of ``q`` and ``f``): their cosine, and with a
    ``basis`` (the first principal directions of the texts, centred) the products of the
    question's and the fact's coordinates in it, every one with every one (a bilinear form
    of low rank: "where" in the question against a place in the fact)."""
    cosine = (q * f).sum(axis=1, keepdims=True)
    if basis is None:
        return cosine
    a, b = q @ basis.T, f @ basis.T
    return np.hstack([(a[:, :, None] * b[:, None, :]).reshape(len(q), -1), cosine])


def fit(x: np.ndarray, y: np.ndarray, weight: np.ndarray) -> tuple[np.ndarray, float]:
    """``fit_weighted`` on standardised features (the products' scales differ by far)."""
    scale = x.std(axis=0) + 1e-9
    w, b = fit_weighted(x / scale, y, weight, L2, 1500)
    return w / scale, b


def auc(scores: np.ndarray, y: np.ndarray) -> float:
    pos, neg = scores[y == 1], scores[y == 0]
    return float((pos[:, None] > neg[None, :]).mean() + 0.5 * (pos[:, None] == neg[None, :]).mean())


#: the judges measured: the cosine alone, and the bilinear form of rank 8, 16, 32. A weighted
#: cosine (the products of the vectors' own entries, every one a feature) overfit: AUC .46
#: (MiniLM) and .69 (the multilingual model) on questions left out
VARIANTS = {"cosine": None, "bilinear 8": 8, "bilinear 16": 16, "bilinear 32": 32}


def judged_by(vectors: Vectors, part: Part, pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The pairs ``part``'s model judges in recall."""
    return [(q, f) for q, f in pairs if judge_of(vectors.parts, detect(q), detect(f)) is part]


def scored(
    vectors: Vectors, part: Part, basis, judge: tuple[np.ndarray, float], pairs: list[tuple[str, str]]
) -> np.ndarray:
    w, b = judge
    q = np.stack([vectors.part(a, part) for a, _ in pairs])
    f = np.stack([vectors.part(c, part) for _, c in pairs])
    return features(q, f, basis) @ w + b


def measure(vectors: Vectors, rows: list[tuple[int, str, str, int, float]], split: str) -> None:
    """Per model and judge: the AUC on questions left out in turn (all pairs; the near facts
    only), and on the language sets' half how many questions nothing answers would be quiet
    at the threshold that keeps 95% of the answers (recall's own floor left aside)."""
    answers, quiet = tune_sets(split)
    vectors.add([t for q, f in answers for t in (q, f)] + [t for q, fs in quiet for t in (q, *fs)])
    for part in vectors.parts:
        mine = [r for r in rows if judge_of(vectors.parts, detect(r[1]), detect(r[2])) is part]
        q = np.stack([vectors.part(r[1], part) for r in mine])
        f = np.stack([vectors.part(r[2], part) for r in mine])
        y = np.array([r[3] for r in mine], dtype=float)
        weight = np.array([r[4] for r in mine])
        group = np.array([r[0] for r in mine])
        near = weight == 1.0
        both = np.vstack([q, f])
        directions = np.linalg.svd(both - both.mean(axis=0), full_matrices=False)[2]
        kept = judged_by(vectors, part, answers)
        asked = [(a, [c for _, c in judged_by(vectors, part, [(a, c) for c in facts])]) for a, facts in quiet]
        asked = [(a, facts) for a, facts in asked if facts]
        print(
            f"{part.model_id}: {len(y)} pairs, {int(y.sum())} answers; the sets' {split} half: "
            f"{len(kept)} answers, {len(asked)} questions nothing answers"
        )
        for name, rank in VARIANTS.items():
            basis = None if rank is None else directions[:rank]
            x = features(q, f, basis)
            scores = np.zeros(len(y))
            for fold in range(FOLDS):
                out = group % FOLDS == fold
                w, b = fit(x[~out], y[~out], weight[~out])
                scores[out] = x[out] @ w + b
            judge = fit(x, y, weight)
            floor = np.quantile(scored(vectors, part, basis, judge, kept), 0.05)
            silent = sum(
                scored(vectors, part, basis, judge, [(a, c) for c in facts]).max() < floor for a, facts in asked
            )
            print(
                f"  {name:12s} AUC {auc(scores, y):.3f}, near facts only {auc(scores[near], y[near]):.3f}; quiet {silent}/{len(asked)}"
            )


FOLDS = 5


def tune_sets(split: str = "tune") -> tuple[list[tuple[str, str]], list[tuple[str, list[str]]]]:
    """The language sets' (question, answer) pairs, and (question, facts none of which
    answers it), of one half."""
    load = lambda name: json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))  # noqa: E731
    half = lambda rows: [c for c in rows if c.get("split") == split]  # noqa: E731
    answers = [(c["question"], c["fact"]) for c in half(load("relevance")["cases"])]
    cross = load("relevance_cross")
    answers += [(c["question"], c["fact"]) for c in half(cross["cases"])]
    answers += [(c["question"], c["new"]) for c in half(load("changes")["cases"])]
    for name in ("both_true", "both_true_changing"):
        for c in half(load(name)["cases"]):
            answers += [(c["question"], f) for f in (c["a"], c["b"]) if c["answer"].casefold() in f.casefold()]
    vault = [f["text"] for f in load("unanswerable")["vault"]]
    quiet = [(c["question"], vault) for c in half(load("unanswerable")["cases"])]
    quiet += [(c["question"], [x["fact"] for x in cross["cases"]]) for c in half(cross["unanswerable"])]
    return answers, quiet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="tune", choices=("tune", "held"))
    args = parser.parse_args()
    rows = pairs(groups())
    vectors = Vectors()
    vectors.add([t for r in rows for t in (r[1], r[2])])
    measure(vectors, rows, args.split)


if __name__ == "__main__":
    main()
