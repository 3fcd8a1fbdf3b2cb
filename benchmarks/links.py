"""Following Obsidian's links: a question answered two notes away, with and without.

LoCoMo's vaults have no links, so its multi-hop category cannot show what following them
is worth. Here a vault shaped like a person's: a note per person, each linking ``[[…]]`` the
note of their pet and of their workplace; the pet's and the workplace's notes say the breed
and the city but never the person's name. Each question names the person and asks what only
the linked note says ("what breed is Aino's dog?"), so its answer is two notes away: one
recall finds it only by following the link. Distractor notes (pets and places no one links)
make the vault realistic. Reported: the answer note in the top 3 / top 10, with links
followed (``link_weight``) and not (0), on the bundled bilingual model; one run.

``--set obsidian`` measures the same on words this benchmark did not make: a person's
Obsidian vault of 74 notes (English, Spanish, Portuguese; daily notes, aliases, headings,
embeds, dangling links) and 60 multi-hop questions, written by a helper who had not seen
vmem's code (``data/links_obsidian/``): each names a note whose linked note (either way)
answers it without naming what the question names. Split tune / held, per language.

    python benchmarks/links.py [--people 40] [--set generated|obsidian] [--json]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import vault_memory as vmem  # noqa: E402
from vault_memory.vault.template import create_vault  # noqa: E402

NAMES = [
    "Aino", "Bruno", "Chiara", "Dmitri", "Esi", "Farid", "Greta", "Hiro", "Ines", "Joaquín", "Kalani", "Lior",
    "Maren", "Nuno", "Oksana", "Pablo", "Quinn", "Rania", "Soren", "Tove", "Uma", "Vikram", "Wen", "Ximena",
    "Yusuf", "Zofia", "Amara", "Benedikt", "Catalina", "Dario", "Elif", "Florin", "Giedre", "Hamid", "Ilse",
    "Jovan", "Kirra", "Luca", "Mireille", "Nikolai",
]  # fmt: skip
PETS = [
    ("Pixel", "border collie"), ("Mochi", "shiba inu"), ("Turbo", "whippet"), ("Olive", "basset hound"),
    ("Ziggy", "dalmatian"), ("Nala", "rhodesian ridgeback"), ("Otto", "dachshund"), ("Juno", "samoyed"),
    ("Bix", "beagle"), ("Kiwi", "pug"), ("Rolo", "cocker spaniel"), ("Tofu", "akita"), ("Pesto", "vizsla"),
    ("Brie", "corgi"), ("Dune", "saluki"), ("Fig", "schnauzer"),
]  # fmt: skip
PLACES = [
    ("Northwind Labs", "Tallinn"), ("Copperleaf", "Porto"), ("Halcyon Freight", "Rotterdam"),
    ("Bluefin Analytics", "Valencia"), ("Granite & Oak", "Edinburgh"), ("Sundial Health", "Ljubljana"),
    ("Parallax Studio", "Kraków"), ("Meridian Foods", "Bilbao"), ("Quillwork", "Ghent"), ("Ravel Robotics", "Turin"),
    ("Tidewater Bank", "Gdańsk"), ("Lumen Print", "Leipzig"),
]  # fmt: skip


def build(root: Path, people: int) -> tuple[Path, list[tuple[str, str]]]:
    """A vault of linked notes and the questions, each with the file that answers it."""
    vault = create_vault(root / "vault", with_examples=False)
    (vault / ".obsidian").mkdir()
    for folder in ("People", "Pets", "Work"):
        (vault / folder).mkdir()
    questions = []
    for n, name in enumerate(NAMES[:people]):
        pet, breed = PETS[n % len(PETS)]
        pet = f"{pet} {n}"
        work, city = PLACES[n % len(PLACES)]
        work = f"{work} {n}"
        (vault / "People" / f"{name}.md").write_text(
            f"{name} is a friend from the running club. Dog: [[{pet}]]. Works at [[{work}]].\n"
        )
        (vault / "Pets" / f"{pet}.md").write_text(f"{pet} is a {breed}, adopted as a puppy, loves the beach.\n")
        (vault / "Work" / f"{work}.md").write_text(f"{work} has its office in {city}, near the old harbour.\n")
        questions.append((f"what breed is {name}'s dog?", f"Pets/{pet}.md"))
        questions.append((f"which city does {name} work in?", f"Work/{work}.md"))
    for n in range(people):  # what no one links: a pet, a place
        pet, breed = PETS[(n + 5) % len(PETS)]
        (vault / "Pets" / f"Stray {n}.md").write_text(f"Stray {n} is a {breed} we saw at the shelter.\n")
        work, city = PLACES[(n + 3) % len(PLACES)]
        (vault / "Work" / f"Visited {n}.md").write_text(f"Visited {work} in {city} for a conference.\n")
    return vault, questions


OBSIDIAN = ROOT / "benchmarks" / "data" / "links_obsidian"


def build_obsidian(root: Path) -> tuple[Path, list[tuple[str, str, str]]]:
    """The helper's vault as a vmem vault, and its questions as (question, answer, group)."""
    vault = create_vault(root / "vault", with_examples=False)
    (vault / ".obsidian").mkdir()
    for item in (OBSIDIAN / "vault").iterdir():
        (shutil.copytree if item.is_dir() else shutil.copy2)(item, vault / item.name)
    cases = json.loads((OBSIDIAN / "questions.json").read_text(encoding="utf-8"))
    return vault, [(c["question"], c["answer_file"], f"{c['split']} {c['lang']}") for c in cases]


def measure(vault: Path, questions: list[tuple[str, ...]], link_weight: float) -> dict:
    found: dict[str, list[int]] = {}
    with vmem.open(vault, use_daemon=False) as mem:
        engine = mem.backend.engine
        engine.params = dataclasses.replace(engine.params, link_weight=link_weight)
        for question, answer, *group in questions:
            paths = [h.memory.path.as_posix() for h in mem.recall(question, k=10).hits if h.memory.path]
            for name in ["all", *group, *(g.split()[0] for g in group)]:
                counts = found.setdefault(name, [0, 0, 0])
                counts[0] += 1
                counts[1] += answer in paths[:3]
                counts[2] += answer in paths
    row: dict = {"link_weight": link_weight}
    for name, (n, top3, top10) in sorted(found.items()):
        row[name] = {"questions": n, "top3": round(top3 / n, 3), "top10": round(top10 / n, 3)}
    row.update(row["all"])
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--people", type=int, default=40)
    parser.add_argument("--weights", default="0,0.25,0.5,1")
    parser.add_argument("--set", default="generated", choices=("generated", "obsidian"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        vault, questions = build(Path(tmp), args.people) if args.set == "generated" else build_obsidian(Path(tmp))
        rows = [measure(vault, questions, float(w)) for w in args.weights.split(",")]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for row in rows:
        print(f"link_weight {row['link_weight']}: answer in top 3 {row['top3']:.0%}, top 10 {row['top10']:.0%} "
              f"({row['questions']} questions)")  # fmt: skip
        for name, c in row.items():
            if isinstance(c, dict) and name != "all":
                print(f"    {name:8} top 3 {c['top3']:.0%}, top 10 {c['top10']:.0%} ({c['questions']})")


if __name__ == "__main__":
    main()
