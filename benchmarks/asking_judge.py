"""The judge of asking: does a short clause, alone, ask the agent to keep what the rest of
a message says ("can this stick across our chats?", "para que lo tengas", "só pra constar
daqui em diante")?

A message where no rule reads a request may still ask, in words no pack holds: the sets
written by helpers who never saw the rules hold such requests, and they were dropped without
a word. ``request_shapes.may_ask`` cuts a message into a short lead or tail and the rest;
this fits a logistic regression on the multilingual model's vector of the clause and its
words and pairs of words (``lang.judge.clause_grams``):

- asking: the clauses helpers wrote as training data (``data/language_eval/asking_train*.json``,
  written without seeing any rule or set), and the leads and tails of the requests and
  instructions of the sets read before (no held half, no unseen set, not the seventeenth),
  when they hold none of the values the request keeps and no digit;
- not asking: the helper's look-alikes (to-dos, orders of the task, stories of remembering,
  questions, chat, plain facts) and the leads and tails of LoCoMo's conversations 0-2, at a
  third of the weight (chat, 1,178 clauses).

It then reads every message of the sets through ``read_requests`` with the fitted judge
and prints, per group, how many messages no rule read a request in are kept or named:
requests of the tune halves and LoCoMo's conversations 0-2 (what the thresholds
``lang.judge.ASKS_NAME`` and ``ASKS_KEEP`` were chosen on), then the held halves, the
unseen sets and LoCoMo's conversations 3-4 (only measured).

    python benchmarks/asking_judge.py [--write]
"""

from __future__ import annotations

import argparse
import collections
import functools
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from request_judge import write_fitted  # noqa: E402  (beside this script)

from vault_memory.conversation.request_judge import request_judge  # noqa: E402
from vault_memory.conversation.request_shapes import may_ask  # noqa: E402
from vault_memory.conversation.signals import read_requests  # noqa: E402
from vault_memory.index.embedder import UseEmbedder  # noqa: E402
from vault_memory.lang import judge  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "language_eval"
LOCOMO = ROOT.parent / "shared" / "bench" / "locomo-dev.json"
#: the sets nobody read since they were written, and the one whose tune half chose the thresholds
UNSEEN = ("_fresh9", "_fresh11")
CHOSEN_ON = "_fresh17"
#: sets split in halves, and the first and fifth generations' held halves
HALVED = ("", "_fresh5", "_fresh12", "_fresh14", "_fresh15", "_fresh16", "_fresh17")
GENERATIONS = ("", *(f"_fresh{n}" if n > 1 else "_fresh" for n in range(1, 18) if n != 13))
L2 = 1e-3
#: the clauses helpers wrote as training data, asking and not
WRITTEN = ("asking_train.json", "asking_train2.json", "asking_train3.json", "asking_train4.json")
#: LoCoMo's clauses weigh this much each: many, and chat rather than requests
CHAT_WEIGHT = 0.3


def cases() -> list[dict]:
    """Every request and instruction of the sets, with where it may be read."""
    out = []
    for generation in GENERATIONS:
        for name, kind in (("explicit", "request"), ("coding", "instruction")):
            path = DATA / f"{name}{generation}.json"
            if not path.exists():
                continue
            for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
                held = case.get("split") == "held" and generation in HALVED
                group = (
                    "unseen" if generation in UNSEEN else "held" if held else "tune"
                )  # a tune half, or a set read before
                out.append({**case, "kind": kind, "generation": generation or "first", "group": group})
    return out


def locomo_turns() -> list[tuple[int, str]]:
    """(conversation, text) of every turn of LoCoMo's dev half."""
    out = []
    for n, conversation in enumerate(json.loads(LOCOMO.read_text(encoding="utf-8"))):
        for key, turns in conversation["conversation"].items():
            if key.startswith("session_") and isinstance(turns, list):
                out += [(n, turn["text"]) for turn in turns]
    return out


def leads_and_tails(text: str) -> list[str]:
    """The first lead and the last tail ``may_ask`` finds in ``text``."""
    parts = may_ask(text.strip())
    leads = [part.clause for part in parts if text.strip().startswith(part.clause)]
    tails = [part.clause for part in parts if not text.strip().startswith(part.clause)]
    return leads[:1] + tails[-1:]


#: steps of gradient descent, and the words' own weight decay
STEPS = 2000
L2_GRAMS = 1e-3
#: a word's weight below this is not written
GRAM_LEAST = 1e-4


def fit(
    x: np.ndarray, texts: list[str], y: np.ndarray, weight: np.ndarray, l2_grams: float = L2_GRAMS
) -> tuple[np.ndarray, float, dict[str, float]]:
    """A weighted logistic regression on the vector of each clause and its words
    (``judge.clause_grams``), by full-batch gradient descent: the same numbers on every run."""
    grams = [sorted(judge.clause_grams(t)) for t in texts]
    vocabulary = sorted({g for gs in grams for g in gs})
    index = {g: i for i, g in enumerate(vocabulary)}
    rows = np.array([i for i, gs in enumerate(grams) for _ in gs], dtype=int)
    cols = np.array([index[g] for gs in grams for g in gs], dtype=int)
    w, g, b = np.zeros(x.shape[1]), np.zeros(len(vocabulary)), 0.0
    weight = weight / weight.mean()
    n = len(y)
    for _ in range(STEPS):
        z = x @ w + b + np.bincount(rows, weights=g[cols], minlength=n)
        r = (1 / (1 + np.exp(-z)) - y) * weight
        w -= 0.5 * (x.T @ r / n + L2 * w)
        g -= 2.0 * (np.bincount(cols, weights=r[rows], minlength=len(vocabulary)) / n + l2_grams * g)
        b -= 0.5 * float(r.mean())
    fitted = 1 / (1 + np.exp(-(x @ w + b + np.bincount(rows, weights=g[cols], minlength=n))))
    print(f"fits {((fitted > 0.5) == y).mean():.1%} of what it was trained on; {len(vocabulary)} words and pairs")
    return w, b, {v: round(float(k), 5) for v, k in zip(vocabulary, g, strict=True) if abs(k) >= GRAM_LEAST}


def training(rows: list[dict], chat: list[tuple[int, str]]) -> tuple[list[str], list[int], list[float]]:
    asking, other = [], []
    for name in WRITTEN:
        written = json.loads((DATA / name).read_text(encoding="utf-8"))
        asking += [c for clauses in written["asking"].values() for c in clauses]
        other += [c for clauses in written["other"].values() for c in clauses]
    mined = []
    for case in rows:
        if case["group"] != "tune" or case["generation"] == CHOSEN_ON:
            continue
        values = [v.casefold() for v in case.get("keep", [])]
        mined += [
            c
            for c in leads_and_tails(case["prompt"])
            if not any(v in c.casefold() for v in values) and not any(ch.isdigit() for ch in c)
        ]
    mined = list(dict.fromkeys(mined))
    talk = list(dict.fromkeys(c for n, text in chat if n < 3 for c in leads_and_tails(text)))
    print(
        f"asking: {len(asking)} written, {len(mined)} leads and tails of requests; not: {len(other)} written, {len(talk)} of LoCoMo 0-2"
    )
    texts = asking + mined + other + talk
    labels = [1] * (len(asking) + len(mined)) + [0] * (len(other) + len(talk))
    weights = [1.0] * (len(asking) + len(mined) + len(other)) + [CHAT_WEIGHT] * len(talk)
    return texts, labels, weights


#: the thresholds tried (``lang.judge.ASKS_NAME``, ``ASKS_KEEP``), on the tune groups only
NAMES = (0.5, 0.6, 0.7, 0.8)
KEEPS = (0.6, 0.7, 0.8)
#: ``lang.judge.ASKS_KEEP_IN_SENTENCE``: a clause said in the rest's sentence (above 1: never)
IN_SENTENCE = (0.7, 0.8, 0.9, 1.01)
#: ``lang.judge.ASKS_KEEP_TAIL``: a tail said after the rest (above 1: never), chosen after the others
TAILS = (0.7, 0.8, 0.9, 1.01)
#: the most LoCoMo 0-2 turns (chat) that may be named: one in 200
CHAT_NAMED = 1 / 200


def unread(rows: list[dict], chat: list[tuple[int, str]], tune: bool) -> list[tuple[str, str]]:
    """(group, message) of the messages no rule reads a request in: the tune groups, or all."""
    messages = [
        (f"{c['group']} {c['kind']}s" + (" (17th)" if c["generation"] == CHOSEN_ON else ""), c["prompt"]) for c in rows
    ]
    messages += [("tune LoCoMo 0-2" if n < 3 else "held LoCoMo 3-4", text) for n, text in chat]
    return [(g, text) for g, text in messages if (g.startswith("tune") or not tune) and read_requests(text) == ([], [])]


def measure(messages: list[tuple[str, str]]) -> dict:
    """What ``read_requests`` with the judge does with ``messages``, by group."""
    judged = request_judge()
    counts: dict = collections.defaultdict(collections.Counter)
    for group, text in messages:
        found, declined = read_requests(text, judge=judged)
        counts[group]["no rule read"] += 1
        counts[group]["kept"] += bool(found)
        counts[group]["named"] += bool(declined) and not found
    return counts


def _scored(counts: dict) -> tuple[int, int, bool]:
    """(score, turns of chat named, fair) of what the judge did: requests kept (twice) or
    named; fair when nothing of an instruction or of chat is kept and at most ``CHAT_NAMED``
    of LoCoMo 0-2's turns are named."""
    requests = [c for g, c in counts.items() if "requests" in g]
    others = [c for g, c in counts.items() if "requests" not in g]
    chat = counts["tune LoCoMo 0-2"]
    score = sum(2 * c["kept"] + c["named"] for c in requests)
    fair = not any(c["kept"] for c in others) and chat["named"] <= CHAT_NAMED * chat["no rule read"]
    return score, chat["named"], fair


def choose(messages: list[tuple[str, str]]) -> None:
    """``ASKS_NAME``, ``ASKS_KEEP`` and ``ASKS_KEEP_IN_SENTENCE`` by the tune groups: the most
    requests kept or named (a keep counts twice), with nothing kept of an instruction or of
    chat and at most ``CHAT_NAMED`` of LoCoMo 0-2's turns named (of two that score alike, the
    one naming fewer turns of chat, then the stricter)."""
    best = None
    for name in NAMES:
        for keep in (k for k in KEEPS if k >= name):
            for in_sentence in (k for k in IN_SENTENCE if k >= keep):
                judge.ASKS_NAME, judge.ASKS_KEEP, judge.ASKS_KEEP_IN_SENTENCE = name, keep, in_sentence
                counts = measure(messages)
                requests = [c for g, c in counts.items() if "requests" in g]
                chat = counts["tune LoCoMo 0-2"]
                score, _, fair = _scored(counts)
                print(
                    f"  name at {name}, keep at {keep}, in a sentence at {in_sentence}: requests kept "
                    f"{sum(c['kept'] for c in requests)}, named {sum(c['named'] for c in requests)}; "
                    f"chat named {chat['named']}/{chat['no rule read']}" + ("" if fair else " (not allowed)")
                )
                rank = (score, -chat["named"], name + keep + in_sentence)
                if fair and (best is None or rank > best[0]):
                    best = (rank, name, keep, in_sentence)
    assert best is not None
    judge.ASKS_NAME, judge.ASKS_KEEP, judge.ASKS_KEEP_IN_SENTENCE = best[1:]
    judge.ASKS_KEEP_TAIL = _choose_tail(messages)
    print(
        f"chosen: name at {judge.ASKS_NAME}, keep at {judge.ASKS_KEEP}, in a sentence at "
        f"{judge.ASKS_KEEP_IN_SENTENCE}, a tail at {judge.ASKS_KEEP_TAIL} (lang/judge.py holds them)"
    )


def _choose_tail(messages: list[tuple[str, str]]) -> float:
    """``ASKS_KEEP_TAIL``, the others as chosen: the most requests kept or named, by the
    same rule as ``choose``."""
    best = None
    for tail in TAILS:
        judge.ASKS_KEEP_TAIL = tail
        score, chat, fair = _scored(measure(messages))
        print(f"  a tail at {tail}: score {score}; chat named {chat}" + ("" if fair else " (not allowed)"))
        if fair and (best is None or (score, -chat, tail) > best[0]):
            best = ((score, -chat, tail), tail)
    assert best is not None
    return best[1]


def show(counts: dict) -> None:
    for group in sorted(counts):
        c = counts[group]
        print(f"  {group:28s} no rule read {c['no rule read']:5d}: kept {c['kept']:3d}, named {c['named']:3d}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the fitted judge into the package")
    args = parser.parse_args()
    rows, chat = cases(), locomo_turns()
    texts, labels, weights = training(rows, chat)
    x = UseEmbedder().embed(texts).astype(np.float64)
    w, b, grams = fit(x, texts, np.array(labels, dtype=float), np.array(weights))
    if args.write:
        write_fitted(judge.ASKING_WEIGHTS, w, b, L2, len(texts))
        fitted = json.loads(judge.ASKING_WEIGHTS.read_text(encoding="utf-8"))
        judge.ASKING_WEIGHTS.write_text(
            json.dumps({**fitted, "grams": grams}, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        judge._fitted_grams.cache_clear()
    else:  # measured as fitted, the package's file untouched
        judge._fitted = functools.cache(
            lambda path, f=judge._fitted: (tuple(w), b) if path == judge.ASKING_WEIGHTS else f(path)
        )
        judge._fitted_grams = lambda path, f=judge._fitted_grams: grams if path == judge.ASKING_WEIGHTS else f(path)
    judge._fitted.cache_clear()
    print("thresholds, on the tune groups:")
    choose(unread(rows, chat, tune=True))
    print(
        f"with the judge at asks {judge.ASKS_NAME} (named) / {judge.ASKS_KEEP} (kept) / "
        f"{judge.ASKS_KEEP_IN_SENTENCE} (kept, in a sentence) / {judge.ASKS_KEEP_TAIL} (kept, a tail), every group:"
    )
    show(measure(unread(rows, chat, tune=False)))


if __name__ == "__main__":
    main()
