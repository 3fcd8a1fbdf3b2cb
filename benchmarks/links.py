"""Following Obsidian's links: a question answered two notes away, with and without.

LoCoMo's vaults have no links, so its multi-hop category cannot show what following them
is worth. Here a vault shaped like a person's: a note per person, each linking ``[[…]]`` the
note of their pet and of their workplace; the pet's and the workplace's notes say the breed
and the city but never the person's name. Each question names the person and asks what only
the linked note says ("what breed is Aino's dog?"), so its answer is two notes away: one
recall finds it only by following the link. Distractor notes (pets and places no one links)
make the vault realistic. Reported: the answer note in the top 3 / top 10, with links
followed (``link_weight``) and not (0), on the bundled bilingual model; one run.

    python benchmarks/links.py [--people 40] [--json]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
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


def measure(vault: Path, questions: list[tuple[str, str]], link_weight: float) -> dict:
    top3 = top10 = 0
    with vmem.open(vault, use_daemon=False) as mem:
        engine = mem.backend.engine
        engine.params = dataclasses.replace(engine.params, link_weight=link_weight)
        for question, answer in questions:
            paths = [h.memory.path.as_posix() for h in mem.recall(question, k=10).hits if h.memory.path]
            top3 += answer in paths[:3]
            top10 += answer in paths
    n = len(questions)
    return {"link_weight": link_weight, "questions": n, "top3": round(top3 / n, 3), "top10": round(top10 / n, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--people", type=int, default=40)
    parser.add_argument("--weights", default="0,0.25,0.5,1")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        vault, questions = build(Path(tmp), args.people)
        rows = [measure(vault, questions, float(w)) for w in args.weights.split(",")]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for row in rows:
        print(f"link_weight {row['link_weight']}: answer in top 3 {row['top3']:.0%}, top 10 {row['top10']:.0%} "
              f"({row['questions']} questions)")  # fmt: skip


if __name__ == "__main__":
    main()
