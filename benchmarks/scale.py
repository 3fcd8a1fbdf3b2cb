"""Scale benchmark: a synthetic vault of N memories through vmem's own code.

Reports build time and memories/s, index size on disk, peak memory of the build, the
cost of the no-change freshness check, and recall latency: cold (a new `vmem recall`
process, as a shell script calls it) and warm (in-process), p50/p95, with the ratio of
warm recall to the bare embedding of the query (the floor).

    python benchmarks/scale.py --memories 10000 [--json] [--keep DIR] [--reuse]
    python benchmarks/scale.py --memories 10000,100000 --json   (both in one run: build rates compare)

Floors measured beside each figure in the same run: a bare ``os.scandir`` + ``stat`` walk
(the no-change check, in-process recall), ``python -c "import json, socket"`` (a
daemon-answered `vmem recall` process, the prompt hook), the bundled model's own
embedding rate on the vault's texts (the build).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
HOOK = ROOT / "hooks" / "vmem_hook.py"
#: commands start as on a user's machine, where Python caches the bytecode it compiles (pip
#: compiles a wheel's modules at install); an environment that turns it off would make every
#: start compile vmem's fast path and the hook's code again
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

from vault_memory.config import StateLayout  # noqa: E402
from vault_memory.vault.memory import Memory  # noqa: E402
from vault_memory.vault.template import create_vault  # noqa: E402
from vault_memory.vault.vault import Vault  # noqa: E402

PEOPLE = ["Ana", "Lucas", "Marta", "Diego", "Sofía", "Tom", "Priya", "Kenji", "Lena", "Omar", "Chloe", "Iván"]
PLACES = ["Lisbon", "Madrid", "Berlin", "Sevilla", "Tokyo", "Oaxaca", "Porto", "Valencia", "Oslo", "Lyon"]
TOPICS = [
    "the payments service",
    "the garden",
    "a PostgreSQL migration",
    "the marathon training",
    "the kitchen renovation",
    "a Go refactor",
    "the tax return",
    "piano lessons",
    "the team offsite",
    "a flaky CI pipeline",
    "the cat's vet visit",
    "the mortgage",
    "a Rust side project",
    "the wedding plans",
    "a sourdough starter",
    "the book club",
]
VERBS = [
    "discussed",
    "fixed",
    "planned",
    "postponed",
    "finished",
    "started",
    "reviewed",
    "argued about",
    "booked",
    "cancelled",
]
KEYS = ["trabajo", "preferencias", "proyecto_actual", "salud", "familia", "viajes", None, None, None]
TYPES = ["fact", "fact", "episode", "episode", "summary"]
QUERIES = [
    "what did we decide about the payments service?",
    "when is the trip to Lisbon?",
    "who is Marta?",
    "what is the user's current project?",
    "any health issues?",
    "what happened with the CI pipeline?",
    "piano lessons schedule",
    "mortgage",
    "what does the user prefer for breakfast?",
    "kitchen renovation budget",
]


def synthetic_memory(i: int, rng: random.Random, start: dt.datetime) -> Memory:
    person, place, topic = rng.choice(PEOPLE), rng.choice(PLACES), rng.choice(TOPICS)
    sentences = [f"{person} and the user {rng.choice(VERBS)} {topic} in {place}."]
    for _ in range(rng.randint(0, 4)):
        sentences.append(
            f"They {rng.choice(VERBS)} {rng.choice(TOPICS)} with {rng.choice(PEOPLE)} (note {i}-{rng.randint(0, 9999)})."
        )
    type_ = rng.choice(TYPES)
    created = start + dt.timedelta(minutes=17 * i)
    return Memory(
        id=f"{created.date()}-synthetic-{i:06d}",
        text=" ".join(sentences),
        type=type_,
        key=rng.choice(KEYS),
        confidence=rng.choice(["high", "medium", "low"]),
        source="imported",
        created=created,
    )


def build_vault(folder: Path, n: int, lang: str = "en+es") -> Vault:
    create_vault(folder, with_examples=True, lang=lang)
    vault = Vault(folder)
    rng = random.Random(42)
    start = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
    for i in range(n):
        vault.write_new(synthetic_memory(i, rng, start))
    return vault


#: `vmem reindex` as the CLI runs it, then the process's peak RSS (KiB) on the last line of stderr
BUILD = """import resource, runpy, sys
sys.argv = ["vmem", "reindex"]
try:
    runpy.run_module("vault_memory", run_name="__main__")
except SystemExit as e:
    assert not e.code, e.code
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
"""


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * len(values)))], 2)


def run(n: int, keep: Path | None, rankings: Path | None = None, reuse: bool = False, lang: str = "en+es") -> dict:
    result: dict = {"memories": n, "lang": lang}
    with tempfile.TemporaryDirectory() as tmp:
        folder = (keep or Path(tmp)) / "scale-vault"
        reusing = reuse and (folder / ".vmem" / "index" / "CURRENT").is_file()
        env = dict(os.environ, VMEM_VAULT=str(folder))
        if reusing:
            result["reused"] = True  # measured on a vault an earlier run built: no build figures
        else:
            started = time.perf_counter()
            build_vault(folder, n, lang)
            result["write_files_s"] = round(time.perf_counter() - started, 1)
            # full build in a child process that reports its own peak memory (of this build
            # alone, whatever other children this run has had)
            started = time.perf_counter()
            done = subprocess.run([sys.executable, "-c", BUILD], env=env, check=True, capture_output=True, text=True)
            result["build_peak_rss_mb"] = round(int(done.stderr.split()[-1]) / 1024, 1)
            build = time.perf_counter() - started
            result["build_s"] = round(build, 1)
            result["memories_per_s"] = round((n + 6) / build, 1)
        index_dir = folder / ".vmem" / "index"
        result["index_mb"] = round(sum(f.stat().st_size for f in index_dir.rglob("*") if f.is_file()) / 1e6, 1)
        result["index_kb_per_memory"] = index_parts(index_dir, n + 6)

        from vault_memory.backend import LocalBackend
        from vault_memory.config import Config
        from vault_memory.index.store import Index
        from vault_memory.recall.engine import Engine, RecallQuery

        engine = Engine(Index(Vault(folder)))
        backend = LocalBackend(engine.vault.root, Config.load(engine.vault.root), engine=engine)
        engine.index.indexer.sync()  # records the stamps if the index was built by an older vmem
        checks, walks = [], []
        for _ in range(20):  # interleaved with the floor: a bare os.scandir + stat walk
            walks.append(bare_walk(folder))
            t = time.perf_counter()
            assert engine.index.indexer.is_fresh()
            checks.append((time.perf_counter() - t) * 1000)
        result["bare_walk_ms_p50"] = pct(walks, 0.5)
        result["no_change_check_ms_p50"] = pct(checks, 0.5)
        result["no_change_over_walk"] = round(statistics.median(c / w for c, w in zip(checks, walks)), 2)
        syncs, walks = [], []
        for _ in range(10):  # `vmem sync` with nothing changed, in process, interleaved with the floor
            walks.append(bare_walk(folder))
            t = time.perf_counter()
            assert not backend.sync().changed
            syncs.append((time.perf_counter() - t) * 1000)
        result["sync_nothing_changed_ms_p50"] = pct(syncs, 0.5)
        result["sync_nothing_changed_over_walk"] = round(statistics.median(c / w for c, w in zip(syncs, walks)), 2)

        # warm, in-process: the floor is one query embedding
        engine.index.embedder.embed(["warm up"])
        embeds, warm = [], []
        for _round in range(5):
            for q in QUERIES:
                t = time.perf_counter()
                engine.index.embedder.embed([q])
                embeds.append((time.perf_counter() - t) * 1000)
                t = time.perf_counter()
                backend.recall(RecallQuery(q))
                warm.append((time.perf_counter() - t) * 1000)
        if rankings is not None:  # the top 10 per query, to compare two versions ranking for ranking
            as_of = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
            rankings.write_text(
                json.dumps(
                    {q: [h.memory.id for h in backend.recall(RecallQuery(q, as_of=as_of)).hits] for q in QUERIES},
                    indent=1,
                )
            )
        result["embed_query_ms_p50"] = pct(embeds, 0.5)
        result["warm_recall_ms_p50"] = pct(warm, 0.5)
        result["warm_recall_ms_p95"] = pct(warm, 0.95)
        result["warm_over_embed_ratio"] = round(statistics.median(warm) / statistics.median(embeds), 1)
        result["warm_recall_target_ms"] = round(2 * statistics.median(walks) + 50, 1)  # 2x the walk + 50 ms
        result |= bare_embedding_rate(engine, folder)

        result |= keyword_leg(folder)

        vmem = str(Path(sys.executable).with_name("vmem"))
        cold, tokens = [], []
        for q in QUERIES:
            t = time.perf_counter()
            out = subprocess.run([vmem, "recall", q, "--json"], env=env, check=True, capture_output=True, text=True)
            cold.append((time.perf_counter() - t) * 1000)
            tokens.append(json.loads(out.stdout)["block_tokens"])
        result["cold_recall_ms_p50"] = pct(cold, 0.5)
        result["cold_recall_ms_p95"] = pct(cold, 0.95)
        result["block_tokens_max"] = max(tokens)  # the budget (400) holds however large the vault

        # with the daemon: a new `vmem recall` process each time, answered over the socket
        subprocess.run([vmem, "daemon", "start", "--timeout", "1800"], env=env, check=True, capture_output=True)
        try:
            result |= daemon_start_read(folder)
            via, server, floor, hook = [], [], [], []
            for q in QUERIES * 3:  # interleaved: the floor, the prompt hook, `vmem recall`
                t = time.perf_counter()
                subprocess.run([sys.executable, "-c", "import json, socket"], env=env, check=True)
                floor.append((time.perf_counter() - t) * 1000)
                prompt = json.dumps({"hook_event_name": "UserPromptSubmit", "prompt": q, "cwd": str(folder)})
                t = time.perf_counter()
                done = subprocess.run(
                    [sys.executable, str(HOOK), "claude-code", "--vault", str(folder)],
                    input=prompt, env=env, capture_output=True, text=True, check=True,
                )  # fmt: skip
                hook.append((time.perf_counter() - t) * 1000)
                assert "additionalContext" in done.stdout, done.stdout
                t = time.perf_counter()
                out = subprocess.run([vmem, "recall", q, "--json"], env=env, check=True, capture_output=True, text=True)
                via.append((time.perf_counter() - t) * 1000)
                answer = json.loads(out.stdout)
                assert answer["answered_by"] == "daemon"
                server.append(answer["server_ms"])
            result["bare_python_ms_p50"] = pct(floor, 0.5)
            result["prompt_hook_ms_p50"] = pct(hook, 0.5)
            result["prompt_hook_over_python"] = round(statistics.median(h / f for h, f in zip(hook, floor)), 2)
            result["daemon_recall_over_python"] = round(statistics.median(v / f for v, f in zip(via, floor)), 2)
            result["daemon_recall_ms_p50"] = pct(via, 0.5)
            result["daemon_recall_ms_p95"] = pct(via, 0.95)
            result["daemon_server_ms_p50"] = pct(server, 0.5)
            result["daemon_server_ms_p95"] = pct(server, 0.95)
            result |= daemon_writes(folder)
        finally:
            subprocess.run([vmem, "daemon", "stop"], env=env, capture_output=True)
        result |= remember_cost(folder)  # last: it adds a few memories to the vault
    return result


def bare_walk(folder: Path) -> float:
    """Milliseconds for the floor of any no-change check: ``os.scandir`` every folder and
    ``stat`` every Markdown file, nothing else."""
    t = time.perf_counter()
    stack = [str(folder)]
    while stack:
        with os.scandir(stack.pop()) as it:
            for entry in it:
                if entry.is_dir(follow_symlinks=False):
                    if not entry.name.startswith("."):
                        stack.append(entry.path)
                elif entry.name.endswith(".md"):
                    entry.stat()
    return (time.perf_counter() - t) * 1000


def bare_embedding_rate(engine, folder: Path, sample: int = 2000) -> dict:
    """The bundled model alone on the vault's own texts (chunked as the build chunks them,
    in length-sorted batches of 32 as the build embeds): the ceiling of any build rate."""
    from vault_memory.index.chunking import chunk_text, embedding_text

    memories = engine.vault.scan().memories[:sample]
    tokenizer = getattr(engine.index.embedder, "tokenizer", lambda: None)()
    texts = sorted(
        (c for m in memories for c in chunk_text(embedding_text(m.key, m.text), tokenizer)), key=len
    )  # fmt: skip
    t = time.perf_counter()
    for start in range(0, len(texts), 32):
        engine.index.embedder.embed(texts[start : start + 32])
    seconds = time.perf_counter() - t
    return {"bare_embedding_memories_per_s": round(len(memories) / seconds, 1)}


def index_parts(index_dir: Path, memories: int) -> dict[str, float]:
    """The index's bytes per memory, by part, over every file under ``index_dir``: token
    vectors (tokens.*), vectors (vectors.*), keyword (the Whoosh folder), catalog, other."""
    parts = dict.fromkeys(("tokens", "vectors", "keyword", "catalog", "other"), 0)
    for f in (f for f in index_dir.rglob("*") if f.is_file()):
        part = next(
            (name for name in ("tokens", "vectors", "catalog") if f.name.startswith(name)),
            "keyword" if "keyword" in f.parts else "other",
        )
        parts[part] += f.stat().st_size
    per = {name: round(size / memories / 1000, 2) for name, size in parts.items()}
    return {"total": round(sum(parts.values()) / memories / 1000, 2), **per}


def daemon_start_read(folder: Path, wait_s: float = 600.0) -> dict:
    """What a daemon read to start on this vault (``rchar`` of /proc/PID/io: every byte its
    reads returned, page cache or disk) and its RSS, once it is ready and has read its
    token vectors through, or said it reads them as queries ask (the log says which)."""
    log = folder / ".vmem" / "daemon.log"
    pid = int((folder / ".vmem" / "daemon.pid").read_text().strip())
    deadline = time.monotonic() + wait_s
    while "token vectors read" not in log.read_text().split("started for")[-1] and time.monotonic() < deadline:
        time.sleep(0.5)
    io = dict(line.split(": ") for line in Path(f"/proc/{pid}/io").read_text().splitlines())
    status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines())
    return {
        "daemon_start_read_mb": round(int(io["rchar"]) / 1e6, 1),
        "daemon_rss_mb": round(int(status["VmRSS"].split()[0]) / 1024, 1),
        "daemon_peak_rss_mb": round(int(status["VmHWM"].split()[0]) / 1024, 1),
    }


def daemon_writes(folder: Path, rounds: int = 5) -> dict:
    """With the daemon running: a file written by another program, then a recall that must
    find it (the daemon's sync of the file its event named), and a ``remember`` answered
    through the daemon. The vault gets these few memories."""
    import vault_memory as vmem

    edits, remembers = [], []
    run = uuid.uuid4().hex[:6]  # new text each run: on a kept vault the same text is only a touch
    with vmem.open(folder) as mem:
        assert mem.backend.where == "daemon"
        for i in range(rounds):
            path = folder / "facts" / f"edited-{run}-{i}.md"
            t = time.perf_counter()
            path.write_text(f"---\nid: edited-{run}-{i}\n---\nThe user repaints canoe {run} number {i} teal\n")
            hits = mem.recall(f"canoe {run} number {i} teal", include_pinned=False).hits
            edits.append((time.perf_counter() - t) * 1000)
            assert hits and hits[0].memory.id == f"edited-{run}-{i}", [h.memory.id for h in hits]
            t = time.perf_counter()
            mem.remember(f"The user rows on lake number {i} at dawn")
            remembers.append((time.perf_counter() - t) * 1000)
    return {
        "daemon_edit_to_recall_ms_p50": pct(edits, 0.5),
        "daemon_remember_ms_p50": pct(remembers, 0.5),
    }


def remember_cost(folder: Path, rounds: int = 5) -> dict:
    """In-process ``remember``, warm: a new fact, the same fact said again (reconfirmed),
    and a new value of a single-valued key. The vault gets these few memories."""
    import vault_memory as vmem

    times: list[float] = []
    with vmem.open(folder, use_daemon=False) as mem:
        mem.recall("warm up")
        for i in range(rounds):
            for text, key in ((f"The user keeps bonsai number {i} on the balcony", None), (f"City {i}", "ciudad")):
                t = time.perf_counter()
                mem.remember(text, key=key)
                times.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            assert mem.remember(f"The user keeps bonsai number {i} on the balcony").status == "reconfirmed"
            times.append((time.perf_counter() - t) * 1000)
    return {"remember_ms_p50": pct(times, 0.5), "remember_ms_p95": pct(times, 0.95)}


def keyword_leg(folder: Path) -> dict:
    """The keyword leg alone: Whoosh's own matchers against vmem's numpy scoring of the same
    postings, from a fresh reader (as a one-shot `vmem recall` meets it) and warm."""
    from whoosh import scoring

    from vault_memory.index.generations import IndexLayout
    from vault_memory.index.keyword_index import query_for
    from vault_memory.index.keyword_search import KeywordSearcher, SegmentCache

    keyword = IndexLayout(StateLayout.of(folder)).current().keyword
    whoosh_ms, cold_ms, warm_ms, same = [], [], [], 0
    warm = KeywordSearcher(keyword, SegmentCache())
    with keyword.open().searcher(weighting=scoring.BM25F(B=0.75, K1=1.2)) as searcher:
        for q in QUERIES * 3:
            t = time.perf_counter()
            theirs = [(h["path"], h.score) for h in searcher.search(query_for(q), limit=100)]
            whoosh_ms.append((time.perf_counter() - t) * 1000)
            fresh = KeywordSearcher(keyword, SegmentCache())
            t = time.perf_counter()
            fresh.search(q, 100)
            cold_ms.append((time.perf_counter() - t) * 1000)
            fresh.close()
            t = time.perf_counter()
            mine = warm.search(q, 100)
            warm_ms.append((time.perf_counter() - t) * 1000)
            same += [p for p, _ in mine] == [p for p, _ in theirs]
    warm.close()
    return {
        "keyword_whoosh_ms_p50": pct(whoosh_ms, 0.5),
        "keyword_numpy_fresh_reader_ms_p50": pct(cold_ms, 0.5),
        "keyword_numpy_warm_ms_p50": pct(warm_ms, 0.5),
        "keyword_same_top100": f"{same}/{len(QUERIES) * 3}",
    }


def report(result: dict, as_json: bool) -> None:
    """Print a benchmark's result as JSON or as aligned name/value lines."""
    if as_json:
        print(json.dumps(result, indent=2))
        return
    width = max(len(k) for k in result) + 2
    for k, v in result.items():
        print(f"{k:<{width}} {v}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memories", default="10000", help="a size, or sizes to build in one run: 10000,100000")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--keep", type=Path, help="build the vault here and keep it")
    parser.add_argument("--reuse", action="store_true", help="with --keep: measure the vault an earlier run kept")
    parser.add_argument("--rankings", type=Path, help="write each query's top 10 here (JSON), to diff two versions")
    parser.add_argument(
        "--lang", default="en+es", help="the vault's model, as `vmem init --lang` (default: a new vault's)"
    )
    args = parser.parse_args()
    sizes = [int(n) for n in str(args.memories).split(",")]
    if len(sizes) == 1:
        report(run(sizes[0], args.keep, args.rankings, args.reuse, args.lang), args.json)
        return
    results = []  # several sizes in one run, on one machine: their build rates compare
    for n in sizes:
        keep = args.keep / str(n) if args.keep else None
        if keep:
            keep.mkdir(parents=True, exist_ok=True)
        results.append(run(n, keep, None, args.reuse, args.lang))
    summary = {"sizes": results}
    if all("memories_per_s" in r for r in results):
        rates = results[-1]["memories_per_s"] / results[0]["memories_per_s"]
        summary["build_rate_largest_over_smallest"] = round(rates, 2)
    print(json.dumps(summary, indent=2)) if args.json else [report(r, False) or print() for r in results]


if __name__ == "__main__":
    main()
