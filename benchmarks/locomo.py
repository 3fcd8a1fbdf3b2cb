"""LoCoMo retrieval benchmark through vmem's own vault, index and recall code.

The task is defined in ../shared/bench/README.md: each conversation is its own vault, each
dialog turn one memory (text "[<session date>] <speaker>: <turn>", date in frontmatter),
categories 1-4 scored, evidence normalised, lifecycle evaluated as of the last session.

    python benchmarks/locomo.py [--data PATH] [--json] [--keep DIR]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vault_memory.index.embedder import embedder_from_config  # noqa: E402
from vault_memory.index.store import Index  # noqa: E402
from vault_memory.recall.engine import Engine, RecallQuery  # noqa: E402
from vault_memory.recall.ranking import RankingParams  # noqa: E402
from vault_memory.vault.memory import Memory  # noqa: E402
from vault_memory.vault.template import MODEL_FOR_LANGUAGE, create_vault  # noqa: E402
from vault_memory.vault.vault import Vault  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "bench" / "locomo-dev.json"
EVIDENCE_RE = re.compile(r"D:?(\d+):(\d+)")
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
#: tune on the first three conversations, confirm on the last two (never tune on the held-out half)
SPLITS = {"tune 0-2": {0, 1, 2}, "confirm 3-4": {3, 4}}


def session_time(text: str) -> dt.datetime:
    return dt.datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=dt.UTC)


def sessions(conv: dict) -> list[tuple[int, dt.datetime, list[dict]]]:
    out = []
    for key, turns in conv.items():
        m = re.fullmatch(r"session_(\d+)", key)
        if m and isinstance(turns, list):
            n = int(m.group(1))
            out.append((n, session_time(conv[f"session_{n}_date_time"]), turns))
    return sorted(out)


def turn_text(date_label: str, turn: dict) -> str:
    text = f"[{date_label}] {turn['speaker']}: {turn['text']}"
    if turn.get("blip_caption"):
        text += f" [shares a photo: {turn['blip_caption']}]"
    return text


def turn_memories(sample: dict) -> list[Memory]:
    """One memory a turn of the conversation, dated by its session (``extra["dia_id"]``: the
    turn's id the questions' evidence names)."""
    conv = sample["conversation"]
    out = []
    for n, when, turns in sessions(conv):
        label = conv[f"session_{n}_date_time"]
        for i, turn in enumerate(turns):
            out.append(
                Memory(
                    id=f"{sample['sample_id']}-{turn['dia_id'].replace(':', '-')}".lower(),
                    text=turn_text(label, turn),
                    type="note",
                    source="imported",
                    confidence="high",
                    created=when,
                    conversation=f"{sample['sample_id']}/session_{n}",
                    turn=i,
                    extra={"dia_id": turn["dia_id"]},
                )
            )
    return out


def build_vault(
    sample: dict, folder: Path, reuse: bool = False, lang: str = "en+es"
) -> tuple[Vault, set[str], dt.datetime]:
    """One memory file per turn, written by vmem's own Vault (``reuse``: the vault is there
    already, from an earlier run with --keep; only its turn ids and last date are worked out).
    ``lang``: as ``vmem init --lang`` (the model the vault is made with)."""
    if not reuse:
        create_vault(folder, with_examples=False, lang=lang)
    vault = Vault(folder)
    memories = turn_memories(sample)
    if not reuse:
        for memory in memories:
            vault.write_new(memory, relpath=Path("conversations") / f"{memory.id}.md")
    last = None
    for _, when, _ in sessions(sample["conversation"]):
        last = when
    return vault, {m.extra["dia_id"] for m in memories}, last


def questions(sample: dict, dia_ids: set[str]) -> list[dict]:
    out = []
    for qa in sample["qa"]:
        if qa.get("category") not in CATEGORIES:
            continue
        evidence: list[str] = []
        for item in qa.get("evidence", []):
            for a, b in EVIDENCE_RE.findall(str(item)):
                eid = f"D{int(a)}:{int(b)}"
                if eid in dia_ids and eid not in evidence:
                    evidence.append(eid)
        if evidence:
            out.append({"question": qa["question"], "evidence": evidence, "category": qa["category"]})
    return out


def session_hit(found: list[str | None], evidence: set[str], n: int) -> float:
    """1 when a session holding evidence is among the first ``n`` distinct sessions of the
    top 10 (a turn ``D3:5`` is of session ``D3``): how retrieval-only systems report LoCoMo."""
    sessions = list(dict.fromkeys(d.split(":")[0] for d in found[:10] if d))[:n]
    return 1.0 if {e.split(":")[0] for e in evidence} & set(sessions) else 0.0


def score(rows: list[dict]) -> dict:
    def mean(values):
        return round(sum(values) / len(values), 4) if values else 0.0

    result = {
        "n_questions": len(rows),
        "recall@5": mean([r["r5"] for r in rows]),
        "recall@10": mean([r["r10"] for r in rows]),
        "hit@5": mean([r["hit5"] for r in rows]),
        "session_hit@5": mean([r["session_hit5"] for r in rows]),
        "per_category": {},
    }
    for cat, name in CATEGORIES.items():
        sub = [r for r in rows if r["category"] == cat]
        result["per_category"][name] = {
            "n": len(sub),
            "recall@5": mean([r["r5"] for r in sub]),
            "recall@10": mean([r["r10"] for r in sub]),
        }
    return result


def evaluate(
    engine: Engine, qs: list[dict], as_of: dt.datetime, legs: tuple[str, ...]
) -> tuple[list[dict], list[float]]:
    rows, times = [], []
    snap = engine.index.snapshot()
    try:
        for q in qs:
            started = time.perf_counter()
            hits = engine.rank(snap, RecallQuery(q["question"], k=10, as_of=as_of, legs=legs, include_pinned=False))
            times.append((time.perf_counter() - started) * 1000)
            found = [h.memory.extra.get("dia_id") for h in hits]
            ev = set(q["evidence"])
            rows.append(
                {
                    "question": q["question"],
                    "top10": found,
                    "category": q["category"],
                    "r5": len(ev & set(found[:5])) / len(ev),
                    "r10": len(ev & set(found[:10])) / len(ev),
                    "hit5": 1.0 if ev & set(found[:5]) else 0.0,
                    "session_hit5": session_hit(found, ev, 5),
                }
            )
    finally:
        snap.close()
    return rows, times


def run(
    data: Path,
    params: RankingParams | None = None,
    keep: Path | None = None,
    rankings: Path | None = None,
    reuse: bool = False,
    lang: str = "en+es",
) -> dict:
    samples = json.loads(data.read_text())
    embedder = embedder_from_config(MODEL_FOR_LANGUAGE[lang])
    all_rows: dict[str, list[dict]] = {"hybrid": [], "keyword": [], "vector": []}
    latencies: list[float] = []
    build_seconds = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        base = keep or Path(tmp)
        for number, sample in enumerate(samples):
            folder = base / sample["sample_id"]
            reusing = reuse and (folder / ".vmem" / "index" / "CURRENT").is_file()
            vault, dia_ids, last = build_vault(sample, folder, reusing, lang)
            engine = Engine(Index(vault, embedder), params=params)
            started = time.perf_counter()
            if not reusing:
                engine.index.indexer.reindex()
            build_seconds += time.perf_counter() - started
            qs = questions(sample, dia_ids)
            for name, legs in (("hybrid", ("keyword", "vector")), ("keyword", ("keyword",)), ("vector", ("vector",))):
                rows, times = evaluate(engine, qs, last, legs)
                all_rows[name] += [r | {"conversation": number} for r in rows]
                if name == "hybrid":
                    latencies += times
    if rankings is not None:  # the top 10 per question, to compare two versions ranking for ranking
        rankings.write_text(
            json.dumps({name: [[r["question"], r["top10"]] for r in rows] for name, rows in all_rows.items()}, indent=0)
        )
    result = score(all_rows["hybrid"])
    result["keyword_only"] = score(all_rows["keyword"])
    result["vector_only"] = score(all_rows["vector"])
    # tune on conversations 0-2, accept a change only if it also holds on 3-4
    for name, rows in all_rows.items():
        for split, wanted in SPLITS.items():
            sub = score([r for r in rows if r["conversation"] in wanted])
            result.setdefault("splits", {}).setdefault(name, {})[split] = {
                k: sub[k] for k in ("n_questions", "recall@5", "recall@10", "session_hit@5")
            } | {"per_category": sub["per_category"]}
    latencies.sort()
    result["rank_ms_p50"] = round(latencies[len(latencies) // 2], 2)
    result["index_seconds"] = round(build_seconds, 1)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--keep", type=Path, help="build the vaults here and keep them")
    parser.add_argument(
        "--reuse", action="store_true", help="with --keep: rank on the vaults an earlier run kept (same vectors)"
    )
    parser.add_argument("--rankings", type=Path, help="write every question's top 10 here (JSON), to diff two versions")
    parser.add_argument("--no-late", action="store_true", help="rank without late interaction (the stage before it)")
    parser.add_argument(
        "--lang",
        default="en+es",
        choices=sorted(MODEL_FOR_LANGUAGE),
        help="the vaults' model, as `vmem init --lang` (default: a new vault's, English and Spanish)",
    )
    parser.add_argument(
        "--param", action="append", default=[], metavar="NAME=VALUE", help="a RankingParams field to try (repeat)"
    )
    args = parser.parse_args()
    defaults = RankingParams()
    tried = {
        name: value if isinstance(getattr(defaults, name), str) else type(getattr(defaults, name) or 0.0)(float(value))
        for name, value in (p.split("=", 1) for p in args.param)
    }
    params = (
        RankingParams(**{**({"late_weight": 0} if args.no_late else {}), **tried}) if args.no_late or tried else None
    )
    result = run(args.data, params=params, keep=args.keep, rankings=args.rankings, reuse=args.reuse, lang=args.lang)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"LoCoMo retrieval, {result['n_questions']} questions (categories 1-4)")
    for name, r in (
        ("hybrid", result),
        ("keyword only", result["keyword_only"]),
        ("vector only", result["vector_only"]),
    ):
        print(f"  {name:<13} R@5 {r['recall@5']:.3f}  R@10 {r['recall@10']:.3f}  Hit@5 {r['hit@5']:.3f}")
    print("  per category (hybrid):")
    for name, r in result["per_category"].items():
        print(f"    {name:<12} n={r['n']:<4} R@5 {r['recall@5']:.3f}  R@10 {r['recall@10']:.3f}")
    print("  splits (R@5 / R@10):")
    for name, splits in result["splits"].items():
        parts = [f"{split} {s['recall@5']:.3f}/{s['recall@10']:.3f}" for split, s in splits.items()]
        print(f"    {name:<8} " + "   ".join(parts))
        if name == "hybrid":
            for split, s in splits.items():
                cats = ", ".join(f"{c} {v['recall@5']:.3f}/{v['recall@10']:.3f}" for c, v in s["per_category"].items())
                print(f"      {split}: {cats}")
    print(f"  ranking p50 {result['rank_ms_p50']} ms/question, indexing {result['index_seconds']} s")


if __name__ == "__main__":
    main()
