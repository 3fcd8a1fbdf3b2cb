"""What progressive recall costs an agent, in tokens, against the whole block, and what it
finds: on a vault of the first LoCoMo dev conversations (1,000 memories or more), for each
question (categories 1-4)

- the block `recall` (and the prompt hook) gives, at the vault's budget;
- MCP `search`'s index (its default budget), then `get` of the top 3 entries it lists;

and at a session's start, the hook's context as a block and as an index. "Found": an
evidence turn of the question is in what the agent read (the block's memories; the index's
entries; the three it got).

    python benchmarks/progressive.py [--data PATH] [--memories 1000] [--questions 200] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from locomo import DEFAULT_DATA, questions, turn_memories  # noqa: E402

import vault_memory as vmem  # noqa: E402
from vault_memory.integrations.mcp_server import SEARCH_BUDGET  # noqa: E402
from vault_memory.recall.render import estimate_tokens, index_entries  # noqa: E402
from vault_memory.vault.template import create_vault  # noqa: E402

GET_TOP = 3


def build(samples: list[dict], folder: Path, at_least: int) -> tuple[list[dict], int]:
    """One vault of whole conversations, until it holds ``at_least`` turns: (their
    questions, each with its evidence as memory ids; the memories written)."""
    create_vault(folder, with_examples=False)
    vault = vmem.open(folder, use_daemon=False).vault
    asked, written = [], 0
    for sample in samples:
        memories = turn_memories(sample)
        for memory in memories:
            vault.write_new(memory, relpath=Path("conversations") / f"{memory.id}.md")
        written += len(memories)
        for q in questions(sample, {m.extra["dia_id"] for m in memories}):
            ids = {f"{sample['sample_id']}-{e.replace(':', '-')}".lower() for e in q["evidence"]}
            asked.append({"question": q["question"], "evidence": ids})
        if written >= at_least:
            break
    return asked, written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--memories", type=int, default=1000)
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    samples = json.loads(args.data.read_text())
    with tempfile.TemporaryDirectory() as tmp:
        asked, written = build(samples, Path(tmp) / "vault", args.memories)
        step = max(1, len(asked) // args.questions)
        asked = asked[::step][: args.questions]
        with vmem.open(Path(tmp) / "vault", use_daemon=False) as mem:
            budget = mem.config["recall"]["budget"]
            rows = []
            for q in asked:
                result = mem.recall(q["question"], budget=budget)
                everything = mem.recall(q["question"], budget=1_000_000)
                entries, index_tokens = index_entries(everything.hits, SEARCH_BUDGET)
                chosen = [e["id"] for e in entries[:GET_TOP]]
                got_tokens = sum(e["tokens"] for e in entries[:GET_TOP])
                rows.append(
                    {
                        "block": estimate_tokens(result.block),
                        "index": index_tokens,
                        "index_and_get": index_tokens + got_tokens,
                        "found_block": bool(q["evidence"] & {h.memory.id for h in result.selection.hits}),
                        "found_index": bool(q["evidence"] & {e["id"] for e in entries}),
                        "found_get": bool(q["evidence"] & set(chosen)),
                    }
                )
            start = mem.recall("project memory", budget=budget)
            session_start = {
                "block_tokens": estimate_tokens(start.block),
                "block_memories": len(start.selection),
                "index_tokens": estimate_tokens(start.index),
                "index_memories": start.index.count("\n- "),
            }
    med = {k: statistics.median(r[k] for r in rows) for k in ("block", "index", "index_and_get")}
    found = {k: round(sum(r[k] for r in rows) / len(rows), 3) for k in ("found_block", "found_index", "found_get")}
    result = {"memories": written, "questions": len(rows), "budget": budget, "median_tokens": med, "found": found,
              "session_start": session_start}  # fmt: skip
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"progressive recall: {written} memories, {len(rows)} questions, block budget {budget}")
    print(f"  per question, median tokens: block {med['block']:.0f}, search index {med['index']:.0f}, "
          f"index + get top {GET_TOP} {med['index_and_get']:.0f}")  # fmt: skip
    print(f"  an evidence turn in what was read: block {found['found_block']:.3f}, index {found['found_index']:.3f}, "
          f"the {GET_TOP} got {found['found_get']:.3f}")  # fmt: skip
    s = session_start
    print(f"  session start: block {s['block_tokens']} tokens for {s['block_memories']} memories; "
          f"index {s['index_tokens']} tokens for {s['index_memories']} memories")  # fmt: skip


if __name__ == "__main__":
    main()
