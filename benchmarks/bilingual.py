"""Bilingual recall: Spanish and English memories, each asked about once in each language
(benchmarks/data/bilingual.json: 70 memories, ten written as conversation ingestion writes
them, 140 questions and 36 indirect ones, written for vmem), scored like LoCoMo (R@1, R@3:
the answering memory first / in the top 3), for a new vault's bilingual model, the bundled
English model, the multilingual model, and the keyword leg alone. Every question has a twin in the other language, so "same language"
and "cross language" are the same information needs asked two ways.

    python benchmarks/bilingual.py [--json]
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vault_memory.index.embedder import embedder_from_config  # noqa: E402
from vault_memory.index.store import Index  # noqa: E402
from vault_memory.recall.engine import Engine  # noqa: E402
from vault_memory.recall.results import RecallQuery  # noqa: E402
from vault_memory.vault.memory import Memory  # noqa: E402
from vault_memory.vault.template import create_vault  # noqa: E402
from vault_memory.vault.vault import Vault  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "bilingual.json"
AS_OF = dt.datetime(2026, 11, 23, 12, 0, tzinfo=dt.UTC)


def queries(data: dict, field: str = "questions") -> list[tuple[str, str, bool]]:
    """(question, answering memory, same language?) for both versions of every question of
    ``field`` ("questions", or "indirect": no telling word shared with the answer); a
    memory's language is the start of its id ("es-…", "en-…")."""
    return [(q[lang], q["answer"], q["answer"][:2] == lang) for q in data[field] for lang in ("en", "es")]


def build(folder: Path, memories: dict[str, str], model: str) -> Engine:
    create_vault(folder, with_examples=False)
    toml = folder / "vmem.toml"
    toml.write_text(re.sub(r'(?m)^model = "[^"]*"', f'model = "{model}"', toml.read_text(), count=1))
    vault = Vault(folder)
    for mid, text in memories.items():
        vault.write_new(Memory(id=mid, text=text, type="fact", confidence="high", created=AS_OF))
    engine = Engine(Index(vault, embedder_from_config(model)))
    engine.index.indexer.reindex()
    return engine


def score(engine: Engine, asked: list[tuple[str, str, bool]], legs: tuple[str, ...]) -> dict:
    rows = []
    snap = engine.index.snapshot()
    try:
        for text, answer, same in asked:
            hits = engine.rank(snap, RecallQuery(text, k=3, as_of=AS_OF, legs=legs, include_pinned=False))
            ids = [h.memory.id for h in hits]
            rows.append({"same": same, "r1": float(ids[:1] == [answer]), "r3": float(answer in ids[:3])})
    finally:
        snap.close()

    def mean(sub, key):
        return round(sum(r[key] for r in sub) / len(sub), 3) if sub else None

    same = [r for r in rows if r["same"]]
    cross = [r for r in rows if not r["same"]]
    return {
        "R@1": mean(rows, "r1"),
        "R@3": mean(rows, "r3"),
        "same-language R@1": mean(same, "r1"),
        "same-language R@3": mean(same, "r3"),
        "cross-language R@1": mean(cross, "r1"),
        "cross-language R@3": mean(cross, "r3"),
        "n_same": len(same),
        "n_cross": len(cross),
    }


def run() -> dict:
    data = json.loads(DATA.read_text())
    asked, indirect = queries(data), queries(data, "indirect")
    result = {}
    with tempfile.TemporaryDirectory() as tmp:
        for model in ("bilingual", "bundled", "use-multilingual"):
            engine = build(Path(tmp) / model, data["memories"], model)
            result[f"{model} (hybrid)"] = score(engine, asked, ("keyword", "vector"))
            result[f"{model} (hybrid, indirect)"] = score(engine, indirect, ("keyword", "vector"))
            result[f"{model} (vector only)"] = score(engine, asked, ("vector",))
            if model == "bundled":
                result["keyword only"] = score(engine, asked, ("keyword",))
            if model != "bilingual":  # which of its models judges a pair is the language rule
                engine.params = dataclasses.replace(engine.params, language_aware=False)
                result[f"{model} (hybrid, no language rule)"] = score(engine, asked, ("keyword", "vector"))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run()
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for name, r in result.items():
        print(
            f"{name:<42} R@1 {r['R@1']:.3f} R@3 {r['R@3']:.3f} | same-language ({r['n_same']}) "
            f"{r['same-language R@1']:.3f}/{r['same-language R@3']:.3f} | cross-language ({r['n_cross']}) "
            f"{r['cross-language R@1']:.3f}/{r['cross-language R@3']:.3f}"
        )


if __name__ == "__main__":
    main()
