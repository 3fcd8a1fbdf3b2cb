"""`vmem ingest` of a ChatGPT export (``conversations.json``), first and again: the
second run finds every conversation already read. Explicit signals only (no LLM), a new
vault each run, medians of ``--runs``.

    python benchmarks/export_ingest.py [--conversations 1500] [--runs 3] [--json]

Each conversation is one user turn and one answer; one in five user turns states a fact.
The library's ``ingest_all`` is timed on the file (what `vmem ingest FILE` runs).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import vault_memory as vmem  # noqa: E402
from vault_memory.conversation import ingest_all  # noqa: E402
from vault_memory.vault.template import create_vault  # noqa: E402

SAID = [
    "Remember that my sister number {i}{run} is called Ana.",
    "How do I sort a list in Python?",
    "What is a good name for a cat?",
    "Can you summarise this article for me?",
    "Which train goes to Porto in the morning?",
]


def message(node: str, role: str, text: str, at: float) -> dict:
    return {
        "id": node,
        "author": {"role": role, "name": None, "metadata": {}},
        "create_time": at,
        "content": {"content_type": "text", "parts": [text]},
        "status": "finished_successfully",
        "metadata": {},
        "recipient": "all",
    }


def export(n: int, run: str = "") -> list[dict]:
    """``n`` conversations as ChatGPT exports them; ``run`` makes the facts' texts differ
    from another run's (a process keeps what it embedded lately for the next sync)."""
    out = []
    for i in range(n):
        at = 1_760_000_000.0 + 60 * i
        mapping = {
            "r": {"id": "r", "message": None, "parent": None, "children": ["q"]},
            "q": {
                "id": "q",
                "message": message("q", "user", SAID[i % 5].format(i=i, run=run), at),
                "parent": "r",
                "children": ["a"],
            },  # fmt: skip
            "a": {"id": "a", "message": message("a", "assistant", "Noted.", at + 5), "parent": "q", "children": []},
        }
        cid = f"00000000-0000-4000-8000-{i:012d}"
        out.append({"title": f"chat {i}", "create_time": at, "mapping": mapping, "current_node": "a",
                    "conversation_id": cid, "id": cid})  # fmt: skip
    return out


def run_once(path: Path, lang: str = "en+es") -> tuple[float, float, int]:
    """(seconds first, seconds again, turns) in a new vault (``lang``: as `vmem init --lang`)."""
    with tempfile.TemporaryDirectory() as tmp:
        vault = create_vault(Path(tmp) / "vault", with_examples=False, lang=lang)
        with vmem.open(vault, use_daemon=False) as mem:
            started = time.perf_counter()
            first = ingest_all(mem, path, llm=None)
            middle = time.perf_counter()
            again = ingest_all(mem, path, llm=None)
            ended = time.perf_counter()
        assert all(r.new_turns == 0 and not r.written for r in again)
        return middle - started, ended - middle, sum(r.turns for r in first)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conversations", type=int, default=1500)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--lang", default="en+es", help="the vault's model, as `vmem init --lang` (default: a new vault's)"
    )
    args = parser.parse_args()
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(args.runs):
            path = Path(tmp) / f"conversations-{run}.json"
            path.write_text(json.dumps(export(args.conversations, f"/{run}")))
            runs.append(run_once(path, args.lang))
    first = statistics.median(r[0] for r in runs)
    again = statistics.median(r[1] for r in runs)
    turns = runs[0][2]
    result = {
        "conversations": args.conversations,
        "turns": turns,
        "first_seconds": round(first, 3),
        "again_seconds": round(again, 3),
        "again_vs_first": round(again / first, 3),
        "first_turns_per_second": round(turns / first),
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"ingest of a ChatGPT export: {args.conversations} conversations, {turns} turns, median of {args.runs}")
    print(f"  first   {first:7.2f} s  ({result['first_turns_per_second']} turns/s)")
    print(f"  again   {again:7.2f} s  (×{result['again_vs_first']:.3f} of the first)")


if __name__ == "__main__":
    main()
