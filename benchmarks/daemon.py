"""Daemon benchmark: edit-to-searchable latency, warm recall through the daemon versus a
fresh in-process recall, and catching up with a burst of changed files.

    python benchmarks/daemon.py [--memories 10000] [--edits 50] [--burst 1000] [--json] [--keep DIR]

Both recall paths are measured as a shell script calls them: a new `vmem recall`
process each time (`--no-daemon` for the in-process path).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from scale import QUERIES, build_vault, pct, report  # noqa: E402

from vault_memory.backend.client import DaemonClient  # noqa: E402
from vault_memory.backend.protocol import Op, query_to_wire  # noqa: E402
from vault_memory.config import StateLayout  # noqa: E402
from vault_memory.index.embedder import FastEmbedEmbedder  # noqa: E402
from vault_memory.recall.results import RecallQuery  # noqa: E402

#: more questions, so that server time is measured on 30 calls, each seen for the first time
NOVEL_QUERIES = [
    "did Marta mention the budget?",
    "what happened in Lisbon last spring?",
    "who helped with the garden?",
    "what time is the dentist appointment?",
    "where did we go for the anniversary dinner?",
    "any news about the new apartment?",
    "what does the user think of the payments team?",
    "how is the marathon training going?",
    "what was said about the kitchen tiles?",
    "which books did the user recommend?",
    "what is planned for the weekend?",
    "did anyone mention the car repair?",
    "what about the school meeting?",
    "how much did the flights cost?",
    "what did Jonas say about the project deadline?",
    "is the piano teacher still available?",
    "what did the doctor recommend?",
    "any plans with the neighbours?",
    "who is organising the party?",
    "what is the status of the mortgage application?",
]


def wait(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.005)
    return False


def run(n: int, edits: int, burst: int, keep: Path | None) -> dict:
    result: dict = {"memories": n}
    with tempfile.TemporaryDirectory() as tmp:
        folder = (keep or Path(tmp)) / "daemon-vault"
        build_vault(folder, n)
        env = dict(os.environ, VMEM_VAULT=str(folder))
        subprocess.run([sys.executable, "-m", "vault_memory", "reindex"], env=env, check=True, capture_output=True)
        subprocess.run(["vmem", "daemon", "start", "--timeout", "600"], env=env, check=True, capture_output=True)
        client = DaemonClient(StateLayout.of(folder).daemon_socket)
        try:
            assert wait(lambda: (client.request(Op.STATUS) or {}).get("status", {}).get("ready"), 600)

            def found(token: str) -> bool:
                answer = client.request(
                    Op.RECALL, query=query_to_wire(RecallQuery(token, k=3, legs=("keyword",), include_pinned=False))
                )
                return any(token in h["memory"]["text"] for h in answer["result"]["hits"])

            # 1. edit to searchable: the recall polls, as an agent would
            for style in ("in_place", "atomic_rename"):
                latencies = []
                for i in range(edits):
                    token = f"edit{style.replace('_', '')}{i}tok"
                    path = folder / "facts" / f"bench-edit-{i % 5}.md"
                    text = f"---\nid: bench-edit-{i % 5}\ntype: fact\n---\nThe marker for this edit is {token}\n"
                    started = time.perf_counter()
                    if style == "in_place":
                        with open(path, "w", encoding="utf-8") as f:
                            f.write(text)
                    else:
                        tmp_path = path.with_name(f".{path.name}.tmp")
                        tmp_path.write_text(text)
                        os.replace(tmp_path, path)
                    assert wait(lambda token=token: found(token), 30), f"{token} never became searchable"
                    latencies.append((time.perf_counter() - started) * 1000)
                result[f"edit_to_searchable_{style}_ms_p50"] = pct(latencies, 0.5)
                result[f"edit_to_searchable_{style}_ms_p95"] = pct(latencies, 0.95)

            # 2. recall as a shell script calls it: daemon versus a fresh in-process recall.
            # Server time is the daemon's own time for that same call: a question it has not
            # seen before, just after another process (the in-process recall) ran.
            via_daemon, in_process, server, server_embed = [], [], [], []
            for q in QUERIES + NOVEL_QUERIES:
                t = time.perf_counter()
                out = subprocess.run(
                    ["vmem", "recall", q, "--json"], env=env, check=True, capture_output=True, text=True
                )
                via_daemon.append((time.perf_counter() - t) * 1000)
                answer = json.loads(out.stdout)
                assert answer["answered_by"] == "daemon"
                server.append(answer["server_ms"])
                server_embed.append(answer["timings"]["embed_ms"])  # the same question's embedding, in the same call
                t = time.perf_counter()
                subprocess.run(["vmem", "recall", q, "--no-daemon"], env=env, check=True, capture_output=True)
                in_process.append((time.perf_counter() - t) * 1000)
            embedder = FastEmbedEmbedder()
            embedder.embed(["warm up"])
            embeds = []
            for q in (QUERIES + NOVEL_QUERIES) * 3:
                t = time.perf_counter()
                embedder.embed([q])
                embeds.append((time.perf_counter() - t) * 1000)
            result["recall_via_daemon_ms_p50"] = pct(via_daemon, 0.5)
            result["recall_in_process_ms_p50"] = pct(in_process, 0.5)
            result["daemon_speedup"] = round(statistics.median(in_process) / statistics.median(via_daemon), 1)
            result["daemon_server_ms_p50"] = pct(server, 0.5)
            result["daemon_server_ms_p95"] = pct(server, 0.95)
            result["embed_query_ms_p50"] = pct(embeds, 0.5)
            result["server_over_embed_ratio"] = round(statistics.median(server) / statistics.median(embeds), 2)
            # the floor as the daemon met it: the embedding inside each measured call
            result["daemon_embed_in_call_ms_p50"] = pct(server_embed, 0.5)
            result["server_over_in_call_embed_ratio"] = round(
                statistics.median(server) / statistics.median(server_embed), 2
            )
            result["server_minus_embed_ms_p50"] = round(
                statistics.median(s - e for s, e in zip(server, server_embed)), 2
            )

            # 3. a burst of changed files (a git checkout): time until the daemon has caught up
            started = time.perf_counter()
            for i in range(burst):
                (folder / "episodes" / f"burst-{i:04d}.md").write_text(
                    f"---\nid: burst-{i}\ntype: episode\n---\nBurst file {i} written by a checkout, marker burst{i}tok\n"
                )
            expected = n + 6 + 5 + burst
            assert wait(
                lambda: (
                    (client.request(Op.STATUS) or {})["status"]["memories_indexed"] == expected
                    and client.request(Op.STATUS)["status"]["queue_length"] == 0
                ),
                600,
            )
            result["burst_files"] = burst
            result["burst_caught_up_s"] = round(time.perf_counter() - started, 1)
        finally:
            subprocess.run(["vmem", "daemon", "stop"], env=env, capture_output=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memories", type=int, default=10000)
    parser.add_argument("--edits", type=int, default=50)
    parser.add_argument("--burst", type=int, default=1000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--keep", type=Path)
    args = parser.parse_args()
    report(run(args.memories, args.edits, args.burst, args.keep), args.json)


if __name__ == "__main__":
    main()
