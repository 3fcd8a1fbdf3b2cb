"""What each stage of recall adds: every stage that has a weight turned off in turn (its
weight 0), measured on LoCoMo dev (both splits), the bilingual set, the consistency set and
the held half of the user's own words (``language_eval.py --recall``: changes left unmarked,
relevant facts shown, the answers of a kind shown),
beside the product. One command regenerates the table in docs/benchmarks.md.

    python benchmarks/ablation.py [--keep DIR] [--write] [--only NAME]

``--keep``: the LoCoMo vaults (built on the first run, reused after: same vectors).
``--write``: replace the table between the ablation markers of docs/benchmarks.md.

A stage is turned off by its weight in ``RankingParams`` for every engine the run makes
(LoCoMo's, the bilingual set's and those ``vmem.open`` makes for the consistency set).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bilingual  # noqa: E402
import consistency  # noqa: E402
import language_eval  # noqa: E402
import locomo  # noqa: E402

from vault_memory.recall import engine as engine_module  # noqa: E402
from vault_memory.recall.ranking import RankingParams  # noqa: E402

DOC = ROOT / "docs" / "benchmarks.md"
START, END = "<!-- ablation:start -->", "<!-- ablation:end -->"

#: (name, what it does, the weights that turn it off)
STAGES: list[tuple[str, str, dict]] = [
    ("neighbours", "a turn's neighbours in its conversation lift it", {"neighbour_weight": 0.0}),
    ("late interaction", "word pieces of the question matched one by one (MaxSim)", {"late_weight": 0.0}),
    ("late neighbours", "the neighbours' MaxSim lifts a turn", {"late_neighbour_weight": 0.0}),
    ("dates named", "a date the question names lifts the memories of that day", {"date_weight": 0.0}),
    ("told time", "a time relative to today (yesterday, last week) read and lifted", {"told_weight": 0.0}),
    ("sessions", "a conversation scored as one text lifts its turns", {"session_weight": 0.0}),
    ("speaker", "the speaker a question names lifted", {"speaker_weight": 0.0}),
    ("asking turns", "turns that only ask lowered", {"asking_weight": 0.0}),
    ("links", "a recalled note brings the notes it links to and from", {"link_weight": 0.0}),
    ("language rule", "each of a bilingual index's models judges the pairs of its language", {"language_aware": False}),
    ("kinds", "a question about food, medicines, work or home lifts the facts that answer it", {"kinds": False}),
    (
        "newer related",
        "a recalled fact brings the newer one that tells of a change, the older marked",
        {"newer_related": False},
    ),
]


@contextlib.contextmanager
def weights(overrides: dict) -> Iterator[None]:
    """Every engine made inside the block ranks with ``overrides``."""
    before = engine_module.RankingParams
    engine_module.RankingParams = functools.partial(RankingParams, **overrides)  # type: ignore[misc]
    try:
        yield
    finally:
        engine_module.RankingParams = before  # type: ignore[misc]


def measure(keep: Path, overrides: dict) -> dict:
    with weights(overrides):
        loco = locomo.run(locomo.DEFAULT_DATA, params=RankingParams(**overrides), keep=keep, reuse=_built(keep))
        data = json.loads(bilingual.DATA.read_text())
        with tempfile.TemporaryDirectory() as tmp:
            engine = bilingual.build(Path(tmp) / "bilingual", data["memories"], "bilingual")
            bi = bilingual.score(engine, bilingual.queries(data), ("keyword", "vector"))
            bi_indirect = bilingual.score(engine, bilingual.queries(data, "indirect"), ("keyword", "vector"))
        with tempfile.TemporaryDirectory() as tmp:
            rows = [consistency.run_case(case, Path(tmp) / f"v{n}") for n, case in enumerate(consistency.CASES)]
        summary = consistency.summarize(rows)
        own = language_eval.measure_recall("held")
    return {
        "locomo": {name: loco["splits"]["hybrid"][name] for name in locomo.SPLITS},
        "bilingual R@3": bi["R@3"],
        "bilingual indirect R@3": bi_indirect["R@3"],
        "consistency": {part: (summary[part]["passed"], summary[part]["n"]) for part in ("changes", "controls")},
        "own words": {
            "changes unmarked": sum(c["old_unmarked"] for c in own["changes"].values()),
            "relevance shown": sum(c["shown"] for c in own["relevance"].values()),
            "kind answers shown": sum(c["answer_shown"] for c in own["kinds"].values()),
        },
    }


def _built(keep: Path) -> bool:
    return keep.is_dir() and any(keep.iterdir())


def own(r: dict, product: dict) -> str:
    """The own-words cell: each count, and its change from the product."""
    cells = []
    for name, value in r["own words"].items():
        delta = value - product["own words"][name]
        cells.append(f"{value}" + (f" ({delta:+d})" if delta else ""))
    return " / ".join(cells)


def table(rows: list[tuple[str, str, dict]]) -> str:
    product = rows[0][2]

    def cell(value: float, base: float) -> str:
        delta = value - base
        return f"{value:.3f}" if abs(delta) < 0.0005 else f"{value:.3f} ({delta:+.3f})"

    lines = [
        "| stage off | what it does | LoCoMo tune 0–2 R@5 / R@10 | confirm 3–4 R@5 / R@10 | bilingual R@3, indirect R@3 "
        "| consistency: changes, controls passed | own words, held: changes unmarked (of 84), relevance shown (54), "
        "kind answers shown (45) |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, what, r in rows:
        tune, confirm = (r["locomo"][s] for s in locomo.SPLITS)
        ptune, pconfirm = (product["locomo"][s] for s in locomo.SPLITS)
        consistency = ", ".join(
            f"{passed}/{n}" + (f" ({passed - product['consistency'][part][0]:+d})" if r is not product else "")
            for part, (passed, n) in r["consistency"].items()
        )
        lines.append(
            f"| {name} | {what} | {cell(tune['recall@5'], ptune['recall@5'])} / {cell(tune['recall@10'], ptune['recall@10'])} "
            f"| {cell(confirm['recall@5'], pconfirm['recall@5'])} / {cell(confirm['recall@10'], pconfirm['recall@10'])} "
            f"| {cell(r['bilingual R@3'], product['bilingual R@3'])}, "
            f"{cell(r['bilingual indirect R@3'], product['bilingual indirect R@3'])} "
            f"| {consistency} | {own(r, product)} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, default=Path(tempfile.gettempdir()) / "vmem-ablation-locomo")
    parser.add_argument("--write", action="store_true", help="replace the table in docs/benchmarks.md")
    parser.add_argument("--only", help="only the product and this stage")
    args = parser.parse_args()
    started = time.perf_counter()
    rows = [("none (the product)", "every stage on", measure(args.keep, {}))]
    for name, what, overrides in STAGES:
        if args.only and name != args.only:
            continue
        rows.append((name, what, measure(args.keep, overrides)))
        print(f"{name}: {rows[-1][2]}", file=sys.stderr, flush=True)
    text = table(rows)
    print(text)
    print(f"({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    if args.write:
        doc = DOC.read_text()
        if START not in doc:
            raise SystemExit(f"{DOC} has no {START} … {END} section")
        head, rest = doc.split(START, 1)
        _, tail = rest.split(END, 1)
        DOC.write_text(f"{head}{START}\n{text}\n{END}{tail}")


if __name__ == "__main__":
    main()
