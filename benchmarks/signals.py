"""Explicit signals with precision: of the prompts an agent's user types (coding and
everyday, English and Spanish), which ask for something lasting to be remembered?

A request to remember is about the user, their world or how they want to be treated,
lasting beyond the task at hand; an instruction about the current task ("note the failing
test in tests/test_api.py and fix it", "save this file as config.yaml", "remember to close
the handle", "anotá el error y arreglalo") is not. The labelled set is
``benchmarks/data/agent_prompts.json`` (``text``, ``lang``, ``kind``, ``remember``); a
prompt counts as remembered when ``explicit_signals`` yields any fact from it.

    python benchmarks/signals.py [--json] [--data FILE.json]

``--data`` reads a held-out set of the same shape.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vault_memory.conversation.signals import explicit_signals  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "agent_prompts.json"


def measure(rows: list[dict]) -> dict:
    tp = fp = fn = tn = 0
    wrong: list[dict] = []
    for row in rows:
        got = [s.text for s in explicit_signals(row["text"])]
        if row["remember"] and got:
            tp += 1
        elif row["remember"]:
            fn += 1
            wrong.append(row | {"got": got})
        elif got:
            fp += 1
            wrong.append(row | {"got": got})
        else:
            tn += 1
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    return {
        "n": len(rows),
        "positives": tp + fn,
        "negatives": fp + tn,
        "precision": round(precision, 3),
        "recall": round(recall, 3),
        "false_positives": fp,
        "false_negatives": fn,
        "wrong": wrong,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    rows = json.loads(args.data.read_text(encoding="utf-8"))
    result = {"all": measure(rows)}
    for lang in ("en", "es"):
        result[lang] = measure([r for r in rows if r["lang"] == lang])
    for kind in sorted({r["kind"] for r in rows}):
        result[kind] = measure([r for r in rows if r["kind"] == kind])
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return
    for name, r in result.items():
        print(
            f"{name:9} n={r['n']:<4} positives {r['positives']:<3} negatives {r['negatives']:<4} "
            f"precision {r['precision']:.3f}  recall {r['recall']:.3f}"
        )
    for row in result["all"]["wrong"]:
        label = "missed" if row["remember"] else "kept wrongly"
        print(f"  {label}: {row['text']!r} -> {row['got']}")


if __name__ == "__main__":
    main()
