"""How similar must two texts be for `vmem remember` to treat them as the same memory?

Cosine similarity of the bundled model on labelled pairs: restatements of one fact
(should reconfirm) and near misses that share most words but state a different fact
(must not be merged: merging would drop the new fact). Prints both distributions and,
per threshold, how many restatements are caught and how many near misses are wrongly
merged.

    python benchmarks/dedup_threshold.py [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vault_memory.index.embedder import FastEmbedEmbedder  # noqa: E402
from vault_memory.lang import detect, in_third_person  # noqa: E402
from vault_memory.lifecycle import Rules, is_restatement  # noqa: E402
from vault_memory.vault.keyvalue import split_key_value  # noqa: E402
from vault_memory.writing.rules import saying  # noqa: E402

SAME = [
    ("User is allergic to peanuts.", "The user is allergic to peanuts"),
    ("User is allergic to peanuts.", "user is allergic to peanuts!"),
    ("Prefers short answers with a code example.", "Prefers short answers that include a code example."),
    ("Works as a backend engineer at Acme.", "Works at Acme as a backend engineer."),
    ("Lives in Madrid.", "The user lives in Madrid."),
    ("Has a dog named Max.", "The user has a dog called Max."),
    ("Deploys happen on Tuesdays.", "Deployments happen on Tuesdays."),
    ("Drinks coffee without sugar.", "Drinks their coffee without sugar."),
    ("Is learning Spanish.", "The user is learning Spanish."),
    ("Uses vim as their main editor.", "Uses vim as the main editor."),
    ("Vive en Sevilla.", "El usuario vive en Sevilla."),
    ("Le gusta el té verde.", "Le gusta mucho el té verde."),
    ("Trabaja en el equipo de pagos.", "Trabaja en el equipo de pagos de la empresa."),
    ("Birthday is on March 3.", "The user's birthday is March 3."),
    ("Runs 10 km every Sunday.", "Runs 10 km each Sunday."),
    ("The staging database is PostgreSQL 16.", "Staging database: PostgreSQL 16."),
    ("I am allergic to peanuts.", "I'm allergic to peanuts."),
    ("My son is allergic to peanuts.", "The user's son is allergic to peanuts."),
    # one fact in two persons: 0.77 and 0.73 as written
    ("The user is allergic to peanuts.", "I am allergic to peanuts."),
    ("I live in Madrid.", "The user lives in Madrid."),
    ("El usuario vive en Rosario.", "Vivo en Rosario."),
    # a key that names its text: the prompt hook's "allergies" over the example vault's "health"
    ("health: User is allergic to peanuts.", "allergies: The user is allergic to peanuts"),
    # a negation contracted or said in full
    ("We don't deploy on Fridays.", "We do not deploy on Fridays."),
    ("I cannot drive at night.", "I can't drive at night."),
]
DIFFERENT = [
    ("User is allergic to peanuts.", "User is allergic to shellfish."),
    ("Lives in Madrid.", "Lives in Barcelona."),
    ("Deploys happen on Tuesdays.", "Deploys happen on Thursdays."),
    ("Has a dog named Max.", "Has a cat named Max."),
    ("Works as a backend engineer at Acme.", "Works as a frontend engineer at Acme."),
    ("Prefers short answers with a code example.", "Prefers long answers without code examples."),
    ("Drinks coffee without sugar.", "Drinks tea without sugar."),
    ("Is learning Spanish.", "Is learning Portuguese."),
    ("Uses vim as their main editor.", "Uses VS Code as their main editor."),
    ("Vive en Sevilla.", "Vive en Valencia."),
    ("Le gusta el té verde.", "No le gusta el té verde."),
    ("Birthday is on March 3.", "Birthday is on May 3."),
    ("Runs 10 km every Sunday.", "Runs 5 km every Sunday."),
    ("The staging database is PostgreSQL 16.", "The production database is PostgreSQL 16."),
    ("Sister lives in Valencia.", "Brother lives in Valencia."),
    ("Meeting with Ana on Monday.", "Meeting with Ana on Friday."),
    # about someone else: "son" is a Spanish stop word, so no content word tells them apart
    ("My son is allergic to peanuts.", "I am allergic to peanuts."),
    ("The user's sister is vegetarian.", "The user is vegetarian."),
    ("Mi hermana vive en Rosario.", "Vivo en Rosario."),
    ("The user lives in Lisbon.", "I live in Madrid."),
    ("Ana lives in Lima.", "sister: Ana lives in Lima"),  # the key says whose
    # a negation dropped: no word of its own, and the opposite
    ("I can't drive at night.", "I can drive at night."),
    ("We never deploy on Fridays.", "We deploy on Fridays."),
    ("No manejo de noche.", "Manejo de noche."),
]
THRESHOLDS = (0.75, 0.8, 0.85, 0.88, 0.9, 0.92, 0.94, 0.96)


def _split(said: str) -> tuple[str | None, str]:
    """(key, text) of "key: text", as `vmem remember` splits it."""
    return split_key_value(said)


def similarities(embedder, pairs):
    """Each pair's cosine as `remember` takes it: as written, or of both texts as facts about
    the user (``in_third_person``), whichever is higher."""
    a = embedder.embed([x for x, _ in pairs])
    b = embedder.embed([y for _, y in pairs])
    told_a = embedder.embed([in_third_person(x, detect(x)) for x, _ in pairs])
    told_b = embedder.embed([in_third_person(y, detect(y)) for _, y in pairs])
    return [max(float(x @ y), float(tx @ ty)) for x, y, tx, ty in zip(a, b, told_a, told_b)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    embedder = FastEmbedEmbedder()
    same, diff = similarities(embedder, SAME), similarities(embedder, DIFFERENT)

    def rule(pairs, similarities, t):  # the new text is the second of each pair
        said = [(saying(*_split(x)), saying(*_split(y))) for x, y in pairs]
        return sum(is_restatement(new, old, s, Rules(dedup_similarity=t)) for (old, new), s in zip(said, similarities))

    table = []
    for t in THRESHOLDS:
        table.append(
            {
                "threshold": t,
                "restatements_caught": sum(s >= t for s in same),
                "near_misses_merged": sum(s >= t for s in diff),
                "with_word_check_caught": rule(SAME, same, t),
                "with_word_check_merged": rule(DIFFERENT, diff, t),
            }
        )
    result = {
        "n_same": len(same),
        "n_different": len(diff),
        "same_min": round(min(same), 4),
        "same_median": round(sorted(same)[len(same) // 2], 4),
        "different_max": round(max(diff), 4),
        "different_median": round(sorted(diff)[len(diff) // 2], 4),
        "table": table,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"restatements: min {result['same_min']}, median {result['same_median']}")
    print(f"near misses:  max {result['different_max']}, median {result['different_median']}")
    for row in table:
        print(
            f"  >= {row['threshold']:.2f}: {row['restatements_caught']}/{len(same)} restatements caught, "
            f"{row['near_misses_merged']}/{len(diff)} near misses wrongly merged; with the word and people checks: "
            f"{row['with_word_check_caught']}/{len(same)} caught, {row['with_word_check_merged']}/{len(diff)} merged"
        )
    for (x, y), s in sorted(zip(DIFFERENT, diff), key=lambda p: -p[1])[:4]:
        print(f"  closest near miss {s:.3f}: {x!r} vs {y!r}")


if __name__ == "__main__":
    main()
