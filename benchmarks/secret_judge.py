"""The judge of a secret said in words: does a text give the value of a password, a code, a
security question's answer, a seed phrase, when that value is words and not a code's shape?

``vault.secrets`` reads secrets by rules: a key's or a card's shape, and a password's value
after the words that name it (``vault.worded_secrets``). Said as people say them ("changed
the netflix one to crispyduckling", "a do roteador mudei pra bacalhau", "mi primera mascota
se llamaba pelusa y eso puse en la pregunta de seguridad"), the rules written from one set
caught 75% of its tune half and 50% of its held half: they fit their examples. This fits a
logistic regression on the multilingual model's vector of the text and its words and pairs
of words (``lang.judge.clause_grams``, as the judge of asking does), learned from:

- secrets and look-alikes three helpers wrote to train on, one per language, without
  seeing any rule or set (``data/language_eval/secrets_train.jsonl``, 900): a password, a
  code, an answer, a seed phrase said in words, and what only sounds like one (a password
  talked about, a campaign's keyword, a queue's number, a first pet as a memory), a third of
  them plain facts of a user;
- the tune halves of the sets ``language_eval.py`` measures (``SETS``);
- at a third of the weight, LoCoMo's conversations 0-2 (chat) and the facts and requests
  other helpers wrote to train other judges in the three languages (``plain_facts``).

Each set's tune half is scored by a judge fitted without it (words it was not trained on);
on those scores the threshold (``lang.judge.SECRET_AT``) is chosen: the most secrets
refused, less the look-alikes refused and the requests of the sets no longer kept whole
(``FALSE_COST``). The held halves are scored by the judge of all the tune halves, the one
``--write`` writes. Printed last: both halves, the rules alone and with the judge.

    python benchmarks/secret_judge.py [--write]
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

import asking_judge  # noqa: E402  (beside this script)
from asking_judge import fit, locomo_turns  # noqa: E402
from request_judge import write_fitted  # noqa: E402

from vault_memory.conversation.request_judge import request_judge  # noqa: E402
from vault_memory.conversation.signals import read_requests  # noqa: E402
from vault_memory.index.embedder import UseEmbedder  # noqa: E402
from vault_memory.lang import judge  # noqa: E402
from vault_memory.vault.secrets import find_secret  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "language_eval"
TRAIN = DATA / "secrets_train.jsonl"
#: facts and requests of a user other helpers wrote to train other judges: not secrets
KIND_TRAIN = ("kind_train.jsonl", "kind_train2.jsonl")
FOLLOW_ON_TRAIN = ("follow_on_train.jsonl", "follow_on_train2.jsonl")
#: the sets of secrets and look-alikes ``language_eval.py`` measures (never trained on)
SETS = ("secrets", "secrets_fresh", "secrets_typed", "secrets_after", "secrets_words", "secrets_words2")
#: the sets of requests whose kept facts a false alarm would refuse; the ninth and the
#: eleventh are never read
REQUESTS = tuple(
    p.stem for p in sorted(DATA.glob("explicit*.json")) if p.stem not in ("explicit_fresh9", "explicit_fresh11")
)
#: LoCoMo's turns weigh this much each: many, and chat
CHAT_WEIGHT = 0.3
#: a word's weight below this is not written nor read: a hundredth moves no text's score
#: past a threshold's step, and the words below it are two thirds of the file
GRAM_LEAST = 0.01
#: the thresholds tried (2: never)
THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 2.0)
#: a look-alike refused or a request not kept costs this many secrets missed: each is said
#: out loud and can be said again, while a secret written stays in a file git keeps
FALSE_COST = 1.0


def training(cases: list[dict], left_out: str | None) -> tuple[list[str], list[int], list[float]]:
    """The helpers' texts, LoCoMo 0-2's turns and the tune halves of the sets, but for the
    set ``left_out`` (whose tune half it then scores: words it was not trained on)."""
    rows = [json.loads(line) for line in TRAIN.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows += [
        {"text": c["text"], "label": "secret" if c["secret"] else "none"}
        for c in cases
        if c["split"] == "tune" and c["set"] != left_out
    ]
    chat = list(dict.fromkeys([text for n, text in locomo_turns() if n < 3] + plain_facts()))
    texts = [r["text"] for r in rows] + chat
    labels = [int(r["label"] == "secret") for r in rows] + [0] * len(chat)
    weights = [1.0] * len(rows) + [CHAT_WEIGHT] * len(chat)
    return texts, labels, weights


def set_cases() -> list[dict]:
    out = []
    for name in SETS:
        for case in json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))["cases"]:
            out.append({**case, "set": name, "secret": case["label"] == "secret"})
    return out


def request_facts() -> list[dict]:
    """Each request of the sets, with the facts the reading keeps of it and whether it is kept whole."""
    from language_eval import kept_in  # noqa: PLC0415  (beside this script)

    reader = request_judge()

    class WithoutSecrets:
        """The request judge, less its reading of secrets: what the judge here would refuse is measured apart."""

        def __call__(self, message: str) -> float:
            return reader(message)

        def asks(self, clauses):
            return reader.asks(clauses)

        def goes_on(self, sentence: str) -> float:
            return reader.goes_on(sentence)

        def secret(self, texts):
            return [0.0 for _ in texts]

        def passing(self, facts):
            return reader.passing(facts)

    judged = WithoutSecrets()
    out = []
    for name in REQUESTS:
        for case in json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))["cases"]:
            found, _ = read_requests(case["prompt"], judge=judged)
            written = " ".join(f.text for f in found)
            whole = all(kept_in(k, written, case["lang"]) for k in case["keep"])
            out.append({"split": case.get("split", "tune"), "facts": [f.text for f in found], "whole": whole})
    return out


def measure(cases: list[dict], requests: list[dict], score: dict[str, float], at: float, split: str) -> dict:
    counts: dict = collections.defaultdict(collections.Counter)
    for case in cases:
        if case["split"] != split:
            continue
        by_rules = find_secret(case["text"]) is not None
        refused = by_rules or score[case["text"]] >= at
        row = counts[f"{case['set']} {'secrets' if case['secret'] else 'look-alikes'}"]
        row["n"] += 1
        row["rules"] += by_rules
        row["refused"] += refused
    for request in requests:
        if request["split"] != split:
            continue
        row = counts["requests kept whole"]
        row["n"] += 1
        row["rules"] += request["whole"]
        row["refused"] += request["whole"] and not any(score[f] >= at for f in request["facts"])
    return counts


def totals(counts: dict) -> tuple[int, int, int]:
    """(secrets refused, look-alikes refused, requests lost to the judge)."""
    caught = sum(c["refused"] for k, c in counts.items() if k.endswith(" secrets"))
    alarms = sum(c["refused"] for k, c in counts.items() if k.endswith(" look-alikes"))
    lost = counts["requests kept whole"]["rules"] - counts["requests kept whole"]["refused"]
    return caught, alarms, lost


def show(counts: dict) -> None:
    for key in sorted(counts):
        c = counts[key]
        print(f"    {key:34s} {c['n']:4d}: rules {c['rules']:4d}, with the judge {c['refused']:4d}")


@functools.cache
def plain_facts() -> list[str]:
    """Facts and requests of a user in the three languages other helpers wrote to train other
    judges (``kind_train*``, ``follow_on_train*``), none naming a secret the rules find: with
    LoCoMo's English chat alone, a word of Spanish or Portuguese read as a secret's."""
    out = []
    for name in KIND_TRAIN:
        out += [
            json.loads(line)["text"] for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()
        ]
    for name in FOLLOW_ON_TRAIN:
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                out += [row["request"], row["next"]]
    return [text for text in dict.fromkeys(out) if find_secret(text) is None]


def fitted(cases: list[dict], left_out: str | None, vectors: dict[str, np.ndarray]):
    texts, labels, weights = training(cases, left_out)
    x = np.stack([vectors[t] for t in texts])
    w, b, grams = fit(x, texts, np.array(labels, dtype=float), np.array(weights))
    return w, b, {g: k for g, k in grams.items() if abs(k) >= GRAM_LEAST}


def scored(w: np.ndarray, b: float, grams: dict[str, float], texts: list[str], vectors: dict[str, np.ndarray]):
    out = {}
    for text in texts:
        z = float(vectors[text] @ w) + b + sum(grams.get(g, 0.0) for g in judge.clause_grams(text))
        out[text] = 1 / (1 + np.exp(-max(-50.0, min(50.0, z))))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the fitted judge into the package")
    args = parser.parse_args()
    cases, requests = set_cases(), request_facts()
    rows = [json.loads(line) for line in TRAIN.read_text(encoding="utf-8").splitlines() if line.strip()]
    chat = [text for n, text in locomo_turns() if n < 3]
    every = list(
        dict.fromkeys(
            [r["text"] for r in rows]
            + chat
            + plain_facts()
            + [c["text"] for c in cases]
            + [f for r in requests for f in r["facts"]]
        )
    )
    vectors = dict(zip(every, UseEmbedder().embed(every).astype(np.float64), strict=True))
    # each set's tune half scored by a judge that never read that set; the held halves and
    # the requests by the judge of all the tune halves
    w, b, grams = fitted(cases, None, vectors)
    score = scored(
        w,
        b,
        grams,
        [c["text"] for c in cases if c["split"] == "held"] + [f for r in requests for f in r["facts"]],
        vectors,
    )
    for name in SETS:
        tune = [c["text"] for c in cases if c["set"] == name and c["split"] == "tune"]
        if tune:
            score.update(scored(*fitted(cases, name, vectors), tune, vectors))
    print("the threshold, on the tune halves (secrets refused, look-alikes refused, requests lost):")
    best = None
    for at in THRESHOLDS:
        caught, alarms, lost = totals(measure(cases, requests, score, at, "tune"))
        print(f"  at {at}: {caught}, {alarms}, {lost}")
        value = caught - FALSE_COST * (alarms + lost)
        if best is None or value > best[0]:
            best = (value, at)
    assert best is not None
    print(f"chosen: {best[1]} (lang/judge.py holds {judge.SECRET_AT})")
    for split in ("tune", "held"):
        print(f"  {split}, at {best[1]}:")
        show(measure(cases, requests, score, best[1], split))
    if args.write:
        write_fitted(judge.SECRET_WEIGHTS, w, b, asking_judge.L2, len(training(cases, None)[0]))
        written = json.loads(judge.SECRET_WEIGHTS.read_text(encoding="utf-8"))
        judge.SECRET_WEIGHTS.write_text(
            json.dumps({**written, "grams": grams}, ensure_ascii=False) + "\n", encoding="utf-8"
        )


if __name__ == "__main__":
    main()
