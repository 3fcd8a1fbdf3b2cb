"""Times told relative to a memory's date, stated in the block: LoCoMo's temporal questions.

115 of the dev half's 156 temporal questions are answered by a turn that tells its time
relative to its session ("I went to the support group yesterday", "last week", "two days
ago"), and the gold answer is that time resolved ("7 May 2023", "The week before 9 June
2023"). A block that shows only the memory's date leaves the arithmetic to the agent; the
block now names the time each phrase means (``recall/told.py``). This counts, for each
temporal question whose gold answer is a date, week, weekend, month or year:

- *stated*: a time on the evidence's block line (its date, and with told times each one)
  lies within the gold answer's span, so the agent can read the answer off the line;
- *misread*: a told time on an evidence line is a day or a week that the gold does not
  hold while the line's date does not state it either (the phrase may be about something
  else; these are the lines to read by hand).

Evidence lines alone (the ranking aside), and with ``--rankings FILE`` (``locomo.py
--rankings``) the top 5 of each question as ranked.

    python benchmarks/told_times.py [--data PATH] [--rankings FILE] [--json] [--show]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from locomo import DEFAULT_DATA, SPLITS, questions, turn_memories  # noqa: E402

from vault_memory.recall.render import memory_line  # noqa: E402
from vault_memory.recall.told import told_times  # noqa: E402

_MONTHS = "january february march april may june july august september october november december".split()
_MONTH = r"(?P<month>" + "|".join(_MONTHS) + r"|januarty|janury)"
_WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
Span = tuple[dt.date, dt.date]


def _month_number(name: str) -> int:
    name = name.lower()
    return 1 if name.startswith("janu") else _MONTHS.index(name) + 1


def _day(text: str) -> dt.date | None:
    """A day however the gold writes it: "7 May 2023", "19 January, 2023", "23January,
    2022", "February 24, 2023", "October 13th, 2023"."""
    text = text.replace("`", "")
    for pattern in (
        rf"(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s*{_MONTH},?\s*(?P<year>\d{{4}})",
        rf"{_MONTH}\s*(?P<day>\d{{1,2}})(?:st|nd|rd|th)?,?\s*(?P<year>\d{{4}})",
    ):
        m = re.search(pattern, text, re.IGNORECASE)
        if m:
            return dt.date(int(m["year"]), _month_number(m["month"]), int(m["day"]))
    return None


def _monday(day: dt.date) -> dt.date:
    return day - dt.timedelta(days=day.weekday())


def gold_span(answer: object) -> Span | None:
    """The days the gold answer names, first to last; None for an answer that is no time."""
    text = str(answer).strip().rstrip(".").lower()
    day = _day(text)
    if day is not None:
        if text.startswith("the week before"):
            return _monday(day) - dt.timedelta(days=7), day - dt.timedelta(days=1)
        if text.startswith("the week of"):
            return _monday(day), _monday(day) + dt.timedelta(days=6)
        if text.startswith("two weeks before"):
            return _monday(day) - dt.timedelta(days=14), _monday(day) - dt.timedelta(days=1)
        if text.startswith(("the weekend before", "two weekends before")):
            saturday = day - dt.timedelta(days=(day.weekday() - 5) % 7 or 7)
            if text.startswith("two"):
                saturday -= dt.timedelta(days=7)
            return saturday, saturday + dt.timedelta(days=1)
        if text.startswith("the weekend of") or text.startswith("the weekend after"):
            saturday = day + dt.timedelta(days=(5 - day.weekday()) % 7)
            return saturday, saturday + dt.timedelta(days=1)
        named = re.match(r"the (\w+) before", text)
        if named and named.group(1) in _WEEKDAYS:
            back = (day.weekday() - _WEEKDAYS.index(named.group(1))) % 7 or 7
            return day - dt.timedelta(days=back), day - dt.timedelta(days=back)
        if re.match(r"\w", text) and not text.startswith(("the ", "two ")):
            return day, day
        return None
    m = re.fullmatch(rf"(?:around |early |in )?{_MONTH}[,. ]*\s*(?P<year>\d{{4}})", text, re.IGNORECASE)
    if m:
        first = dt.date(int(m["year"]), _month_number(m["month"]), 1)
        following = dt.date(first.year + first.month // 12, first.month % 12 + 1, 1)
        return first, following - dt.timedelta(days=1)
    m = re.fullmatch(r"(?:in )?(\d{4})", text)
    if m:
        return dt.date(int(m[1]), 1, 1), dt.date(int(m[1]), 12, 31)
    return None


def within(span: Span, gold: Span) -> bool:
    return gold[0] <= span[0] and span[1] <= gold[1]


def line_spans(memory, told: bool) -> list[Span]:
    """The times a memory's block line states: its date, and with ``told`` each told time."""
    day = memory.created.date()
    spans = [(day, day)]
    if told:
        spans += [(t.first, t.last) for t in told_times(memory.text, memory.created)]
    return spans


def run(data: Path, rankings: Path | None, show: bool) -> dict:
    samples = json.loads(data.read_text())
    ranked = json.loads(rankings.read_text())["hybrid"] if rankings else None
    at = 0
    result: dict[str, dict] = {}
    for split in SPLITS:
        result[split] = {
            "temporal": 0,
            "gold is a time": 0,
            "stated, date only": 0,
            "stated, with told times": 0,
            "misread": 0,
        }
        if ranked is not None:
            result[split] |= {"top 5 stated, date only": 0, "top 5 stated, with told times": 0}
    for index, sample in enumerate(samples):
        memories = {m.extra["dia_id"]: m for m in turn_memories(sample)}
        split = next(name for name, members in SPLITS.items() if index in members)
        answers = {qa["question"]: qa.get("answer") for qa in sample["qa"] if qa.get("category") == 2}
        for q in questions(sample, set(memories)):
            top = ranked[at][1] if ranked is not None else []
            if ranked is not None:
                assert ranked[at][0] == q["question"], "the rankings are of another run's questions"
            at += 1
            if q["category"] != 2:
                continue
            row = result[split]
            row["temporal"] += 1
            gold = gold_span(answers.get(q["question"]))
            if gold is None:
                continue
            row["gold is a time"] += 1
            evidence = [memories[e] for e in q["evidence"]]
            before = any(within(s, gold) for m in evidence for s in line_spans(m, told=False))
            after = any(within(s, gold) for m in evidence for s in line_spans(m, told=True))
            row["stated, date only"] += before
            row["stated, with told times"] += after
            misread = not after and any(told_times(m.text, m.created) for m in evidence)
            row["misread"] += misread
            if show and (misread or after != before):
                print(f"{'MISREAD' if misread else 'STATED '} {q['question']} | gold {answers.get(q['question'])}")
                for m in evidence:
                    print("    ", memory_line(m)[:220])
            if ranked is not None:
                shown = [memories[d] for d in top[:5] if d in memories]
                row["top 5 stated, date only"] += any(within(s, gold) for m in shown for s in line_spans(m, told=False))
                row["top 5 stated, with told times"] += any(
                    within(s, gold) for m in shown for s in line_spans(m, told=True)
                )
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--rankings", type=Path, help="a locomo.py --rankings file: also score each top 5")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--show", action="store_true", help="print each question the told times change or misread")
    args = parser.parse_args()
    result = run(args.data, args.rankings, args.show)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for split, row in result.items():
        print(split, " | ".join(f"{name} {value}" for name, value in row.items()))


if __name__ == "__main__":
    main()
