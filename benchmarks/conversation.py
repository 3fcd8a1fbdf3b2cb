"""Conversation benchmark: `vmem ingest` throughput (explicit signals only, no LLM) and
`vmem context` latency on a 1,000-turn conversation, cold (segments cut and embedded for
the first time) and warm (the cut cached, one new turn), in-process and as a new `vmem
context` process each time (how an agent calls it).

    python benchmarks/conversation.py [--turns 1000] [--repeats 7] [--json]

Uses the real bundled model; needs no network.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import vault_memory as vmem  # noqa: E402
from vault_memory.conversation import context, ingest, parse  # noqa: E402

VMEM = str(Path(sys.executable).with_name("vmem"))
TOPICS = ["my tomato garden", "the Rust borrow checker", "a trip to Lisbon", "my sister's wedding", "the Q3 budget"]
SIGNALS = [
    "Remember that my sister is called Ana.",
    "I live in Porto.",
    "A partir de ahora respondeme en español.",
    "Acordate que soy alérgico al maní.",
    "Keep in mind I prefer short answers.",
]


def conversation(n: int, offset: int = 0) -> list[dict]:
    turns = []
    for i in range(offset, offset + n):
        topic = TOPICS[(i // 40) % len(TOPICS)]
        if i % 2 == 0:
            extra = f" {SIGNALS[(i // 50) % len(SIGNALS)]}" if i % 50 == 0 else ""
            turns.append({"role": "user", "content": f"About {topic}: what should I try at step {i}?{extra}"})
        else:
            turns.append(
                {"role": "assistant", "content": f"At step {i} of {topic}, compare with the last result, then adjust."}
            )
    return turns


def as_jsonl(turns: list[dict]) -> str:
    return "\n".join(json.dumps(t, ensure_ascii=False) for t in turns)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out: dict = {"turns": args.turns}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "vault"
        vmem.init(root)
        with vmem.open(root, use_daemon=False) as mem:
            mem.sync()  # the model loaded and the template indexed: not what is measured
            # ingest: 20 conversations of turns/20 turns each, then the same again (all skipped)
            per = max(2, args.turns // 20)
            chats = [as_jsonl(conversation(per, offset=k * 100_000)) for k in range(20)]
            started = time.perf_counter()
            reports = [ingest(mem, c, llm=None) for c in chats]
            took = time.perf_counter() - started
            written = sum(len(r.written) for r in reports)
            started = time.perf_counter()
            for c in chats:
                ingest(mem, c, llm=None)
            again = time.perf_counter() - started
            parse_started = time.perf_counter()
            for c in chats:
                parse(c)
            parse_took = time.perf_counter() - parse_started
            out["ingest"] = {
                "conversations": len(chats),
                "turns": per * len(chats),
                "memories_written": written,
                "turns_per_s": round(per * len(chats) / took, 1),
                "reingest_turns_per_s": round(per * len(chats) / again, 1),
                "parse_turns_per_s": round(per * len(chats) / parse_took, 1),
            }
            # context at N turns
            turns = conversation(args.turns)
            cold_started = time.perf_counter()
            block = context(mem, as_jsonl(turns), llm=None)
            cold = (time.perf_counter() - cold_started) * 1000
            warm = []
            for k in range(args.repeats):
                grown = turns + conversation(2 * (k + 1), offset=args.turns)
                started = time.perf_counter()
                block = context(mem, as_jsonl(grown), llm=None)
                warm.append((time.perf_counter() - started) * 1000)
            out["context_in_process"] = {
                "cold_ms": round(cold, 1),
                "warm_median_ms": round(statistics.median(warm), 1),
                "tokens": block.tokens,
                "budget": block.budget,
            }
        path = Path(tmp) / "chat.jsonl"
        procs = []
        for k in range(args.repeats):
            path.write_text(as_jsonl(turns + conversation(2 * (k + 10), offset=args.turns)), encoding="utf-8")
            started = time.perf_counter()
            done = subprocess.run([VMEM, "context", str(path), "--vault", str(root)], capture_output=True, text=True)
            procs.append((time.perf_counter() - started) * 1000)
            assert done.returncode == 0, done.stderr
        out["context_process"] = {"median_ms": round(statistics.median(procs), 1), "runs": len(procs)}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    i, c, p = out["ingest"], out["context_in_process"], out["context_process"]
    print(
        f"ingest: {i['turns']} turns in {i['conversations']} conversations, {i['memories_written']} memories, "
        f"{i['turns_per_s']} turns/s (again, all skipped: {i['reingest_turns_per_s']} turns/s; "
        f"parsing alone {i['parse_turns_per_s']} turns/s)"
    )
    print(
        f"context at {args.turns} turns: cold {c['cold_ms']} ms, warm median {c['warm_median_ms']} ms in-process, "
        f"{p['median_ms']} ms as a `vmem context` process; block {c['tokens']}/{c['budget']} tokens"
    )


if __name__ == "__main__":
    main()
