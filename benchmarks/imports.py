"""`vmem import`'s cost per record as the file grows: the same JSON Lines an export
writes, imported into a new vault, at each size in one run (medians of ``--runs``).

    python benchmarks/imports.py [--sizes 100 1000 10000] [--runs 3] [--json]

The library's ``import_`` is timed (what `vmem import` runs after reading the file); no
index is built (an import writes files; the next recall or sync indexes them).
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
from vault_memory.vault.template import create_vault  # noqa: E402


def records(n: int) -> list[str]:
    """``n`` export lines of notes and facts, each with its own id."""
    return [
        json.dumps(
            {
                "id": f"imported-{i:06d}",
                "type": "fact" if i % 3 == 0 else "note",
                "text": f"Imported memory {i}: the user's project {i % 97} meets on day {i % 28}",
                "created": "2026-01-01T00:00:00+00:00",
            }
        )
        for i in range(n)
    ]


def timed_import(n: int) -> float:
    """Seconds to import ``n`` records into a new vault."""
    lines = records(n)
    with tempfile.TemporaryDirectory() as tmp:
        vault = create_vault(Path(tmp) / "vault", with_examples=False)
        with vmem.open(vault) as mem:
            started = time.perf_counter()
            report = mem.import_(lines)
            seconds = time.perf_counter() - started
        assert report.counts["added"] == n, report.counts
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for n in args.sizes:
        seconds = statistics.median(timed_import(n) for _ in range(args.runs))
        rows.append({"records": n, "seconds": round(seconds, 3), "ms_per_record": round(1000 * seconds / n, 3)})
    first = rows[0]["ms_per_record"]
    for row in rows:
        row["vs_smallest"] = round(row["ms_per_record"] / first, 2)
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"vmem import, median of {args.runs} runs")
    for row in rows:
        print(
            f"  {row['records']:>6} records  {row['seconds']:>8.2f} s  {row['ms_per_record']:>7.2f} ms/record"
            f"  ×{row['vs_smallest']:.2f} of the smallest"
        )


if __name__ == "__main__":
    main()
