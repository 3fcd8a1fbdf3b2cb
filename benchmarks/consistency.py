"""One current truth per subject: when a fact changes, does recall show only the new value,
and when two facts can both be true, does it keep both?

Each case is two statements, the older first (a day apart), in a fresh empty vault, written
the way a user gives them: typed (``remember``) or said in a conversation (``ingest``, the
offline rules, no LLM). Then one question is asked, and the recalled block is read:

- a *change* (moved, new job, new partner, new phone, new diet, new favourite, a number
  that changed, a withdrawal: "no longer…") passes when the block shows the new statement
  and not the old one;
- a *control* (two pets, siblings in two cities, two languages, two allergies, past jobs,
  events on different days…) passes when both stay current and no conflict is raised
  between them (whether the question then recalls both is retrieval's part, reported).

Per kind and language, from one run (the bundled model; a few minutes on 2 cores):

    python benchmarks/consistency.py [--json] [--cases FILE.json] [--only KIND] [--llm URL]

``--llm URL`` (an OpenAI-compatible endpoint) lets the model judge the pairs the rules
leave as possible conflicts, as ``vmem remember`` does with ``[llm]`` configured.

``--cases`` reads a held-out set of the same shape: a JSON list of objects with ``kind``,
``lang``, ``via`` ("remember" or "ingest"), ``old``, ``new``, ``query`` and ``control``
(true for a pair that can both be true), and maybe ``split`` ("tune" or "held": ``--split``
takes one half). ``data/consistency_pt.json`` is such a set in Portuguese, written by a
helper who had not seen the rules.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import vault_memory as vmem  # noqa: E402
from vault_memory.conversation import LLMSettings, ingest  # noqa: E402
from vault_memory.conversation.llm import pair_judge  # noqa: E402


@dataclass(frozen=True)
class Case:
    kind: str
    lang: str
    via: str  # remember | ingest
    old: str
    new: str
    query: str
    control: bool = False


def _c(kind: str, lang: str, via: str, old: str, new: str, query: str) -> Case:
    return Case(kind, lang, via, old, new, query)


def _k(kind: str, lang: str, via: str, old: str, new: str, query: str) -> Case:
    return Case(kind, lang, via, old, new, query, control=True)


R, SAID = "remember", "ingest"

CHANGES = [
    # moves
    _c("move", "en", R, "The user lives in Leeds", "The user moved to Bristol last month", "where does the user live?"),
    _c("move", "en", R, "I live in Madrid", "I now live in Berlin", "which city do I live in?"),
    _c("move", "en", SAID, "I live in Leeds", "Remember that I moved to Bristol", "where do I live?"),
    _c("move", "es", R, "El usuario vive en Madrid", "El usuario se mudó a Sevilla", "¿dónde vive el usuario?"),
    _c("move", "es", R, "Vivo en Rosario", "Ahora vivo en Córdoba", "¿en qué ciudad vivo?"),
    _c("move", "es", SAID, "Vivo en Lima", "Recordá que me mudé a Quito", "¿dónde vivo?"),
    _c("move", "en", R, "city: Porto", "The user relocated to Lisbon", "which city does the user live in?"),
    _c(
        "move",
        "en",
        SAID,
        "Remember that I live in Toronto",
        "Remember that I moved from Toronto to Vancouver",
        "where do I live?",
    ),
    # work
    _c("work", "en", R, "The user works at Siemens", "The user works at Bosch now", "where does the user work?"),
    _c("work", "en", R, "trabajo: Acme", "The user works at Globex", "where does the user work?"),
    _c("work", "en", SAID, "I work at Siemens", "I work for Bosch", "where do I work?"),
    _c(
        "work",
        "es",
        R,
        "El usuario trabaja en Telefónica",
        "El usuario ahora trabaja en Mercado Libre",
        "¿dónde trabaja el usuario?",
    ),
    _c("work", "es", SAID, "Trabajo en Globant", "Trabajo en Despegar", "¿dónde trabajo?"),
    _c("work", "en", R, "The user works as a nurse", "The user works as a paramedic", "what is the user's job?"),
    _c(
        "work",
        "es",
        R,
        "El usuario trabaja como profesor",
        "El usuario trabaja como traductor",
        "¿de qué trabaja el usuario?",
    ),
    _c("work", "en", R, "employer: Siemens", "The user joined Bosch", "who does the user work for?"),
    # partners and family roles
    _c("partner", "en", R, "partner: Robin", "The user's partner is Kim", "who is the user's partner?"),
    _c(
        "partner",
        "en",
        R,
        "The user's girlfriend is called Ana",
        "The user's girlfriend is called Laura",
        "what is the user's girlfriend called?",
    ),
    _c("partner", "en", R, "The user is married to Sam", "The user is dating Alex", "who is the user's partner?"),
    _c(
        "partner",
        "es",
        R,
        "La pareja del usuario es Martín",
        "La pareja del usuario es Julián",
        "¿quién es la pareja del usuario?",
    ),
    _c(
        "partner",
        "es",
        SAID,
        "Recordá que mi novia se llama Sofía",
        "Recordá que mi novia se llama Valentina",
        "¿cómo se llama mi novia?",
    ),
    _c(
        "partner",
        "en",
        R,
        "The user's mother lives in Porto",
        "The user's mother lives in Faro",
        "where does the user's mother live?",
    ),
    _c(
        "partner",
        "en",
        SAID,
        "Remember that my husband is called Tom",
        "Remember that my husband is called Ben",
        "what is my husband's name?",
    ),
    _c(
        "partner",
        "es",
        R,
        "La madre del usuario vive en Córdoba",
        "La madre del usuario se mudó a Mendoza",
        "¿dónde vive la madre del usuario?",
    ),
    # tools and devices
    _c(
        "device",
        "en",
        R,
        "The user's phone is a Pixel 8",
        "The user's phone is an iPhone 15",
        "what phone does the user have?",
    ),
    _c(
        "device",
        "en",
        R,
        "The user uses Vim",
        "The user switched from Vim to Neovim",
        "which editor does the user use?",
    ),
    _c(
        "device",
        "en",
        R,
        "The user's laptop is a ThinkPad X1",
        "The user's laptop is a MacBook Air",
        "what laptop does the user have?",
    ),
    _c(
        "device",
        "es",
        R,
        "El teléfono del usuario es un Samsung Galaxy",
        "El teléfono del usuario es un Xiaomi",
        "¿qué teléfono tiene el usuario?",
    ),
    _c(
        "device",
        "es",
        R,
        "El usuario usa Windows",
        "El usuario se pasó de Windows a Linux",
        "¿qué sistema operativo usa el usuario?",
    ),
    _c(
        "device",
        "en",
        SAID,
        "Remember that my car is a Honda Civic",
        "Remember that my car is a Tesla Model 3",
        "what car do I drive?",
    ),
    _c(
        "device",
        "en",
        R,
        "The user's editor is VS Code",
        "The user switched from VS Code to Zed",
        "which editor does the user use?",
    ),
    _c("device", "es", SAID, "Recordá que mi auto es un Fiat", "Recordá que mi auto es un Peugeot", "¿qué auto tengo?"),
    # diet
    _c("diet", "en", R, "The user is vegetarian", "The user is vegan now", "what does the user eat?"),
    _c("diet", "en", R, "The user is vegan", "The user eats meat again", "does the user eat meat?"),
    _c("diet", "es", R, "El usuario es vegetariano", "El usuario volvió a comer carne", "¿el usuario come carne?"),
    _c("diet", "es", R, "La usuaria es vegana", "La usuaria ahora es pescetariana", "¿qué dieta sigue la usuaria?"),
    _c(
        "diet",
        "en",
        SAID,
        "Remember that I'm vegetarian",
        "Remember that I'm not vegetarian anymore",
        "am I vegetarian?",
    ),
    _c("diet", "es", SAID, "Recordá que soy vegetariana", "Recordá que ya no soy vegetariana", "¿soy vegetariana?"),
    _c("diet", "en", R, "The user is pescatarian", "The user became a strict vegetarian", "what is the user's diet?"),
    # favourites
    _c(
        "favourite",
        "en",
        R,
        "The user's favourite weekend trip is to Porto",
        "The user's favourite weekend trip is to Lisbon",
        "what is the user's favourite weekend trip?",
    ),
    _c(
        "favourite",
        "en",
        R,
        "The user's favorite color is blue",
        "The user's favourite colour is green",
        "what is the user's favourite colour?",
    ),
    _c(
        "favourite",
        "es",
        R,
        "El color favorito del usuario es el azul",
        "El color favorito del usuario es el verde",
        "¿cuál es el color favorito del usuario?",
    ),
    _c(
        "favourite",
        "es",
        R,
        "Mi comida favorita es la pizza",
        "Mi comida favorita es el sushi",
        "¿cuál es mi comida favorita?",
    ),
    _c(
        "favourite",
        "en",
        SAID,
        "Remember that my favourite band is Radiohead",
        "Remember that my favourite band is Wilco",
        "what is my favourite band?",
    ),
    _c(
        "favourite",
        "en",
        R,
        "favourite_book: Dune",
        "The user's favourite book is Hyperion",
        "what is the user's favourite book?",
    ),
    _c(
        "favourite",
        "es",
        SAID,
        "Recordá que mi película favorita es Alien",
        "Recordá que mi película favorita es Gattaca",
        "¿cuál es mi película favorita?",
    ),
    _c(
        "favourite",
        "en",
        R,
        "The user's favourite coffee shop is Blue Bottle",
        "The user's favourite coffee shop is Monmouth",
        "which coffee shop does the user like best?",
    ),
    # numbers that change
    _c("number", "en", R, "The user is 34 years old", "The user turned 35", "how old is the user?"),
    _c("number", "es", R, "El usuario tiene 34 años", "El usuario tiene 35 años", "¿cuántos años tiene el usuario?"),
    _c("number", "en", R, "The user has two cats", "The user has three cats", "how many cats does the user have?"),
    _c(
        "number",
        "es",
        R,
        "El usuario tiene dos hijos",
        "El usuario tiene tres hijos",
        "¿cuántos hijos tiene el usuario?",
    ),
    _c(
        "number",
        "en",
        R,
        "The user's rent is 900 euros a month",
        "The user's rent is 950 euros a month",
        "how much rent does the user pay?",
    ),
    _c(
        "number",
        "en",
        R,
        "The user's gym membership costs 40 dollars",
        "The user's gym membership costs 45 dollars",
        "how much is the user's gym membership?",
    ),
    _c(
        "number",
        "es",
        R,
        "El alquiler del usuario es 800 euros",
        "El alquiler del usuario es 850 euros",
        "¿cuánto paga de alquiler el usuario?",
    ),
    _c(
        "number",
        "en",
        SAID,
        "Remember that I run 5 km every morning",
        "Remember that I run 10 km every morning",
        "how far do I run?",
    ),
    # withdrawals by negation
    _c("negation", "en", R, "The user likes jazz", "The user does not like jazz anymore", "does the user like jazz?"),
    _c("negation", "en", R, "The user smokes", "The user stopped smoking", "does the user smoke?"),
    _c(
        "negation",
        "es",
        R,
        "Al usuario le gusta el reggaetón",
        "Al usuario ya no le gusta el reggaetón",
        "¿al usuario le gusta el reggaetón?",
    ),
    _c("negation", "es", R, "El usuario fuma", "El usuario dejó de fumar", "¿el usuario fuma?"),
    _c(
        "negation",
        "es",
        SAID,
        "Recordá que trabajo los sábados",
        "Recordá que ya no trabajo los sábados",
        "¿trabajo los sábados?",
    ),
    _c(
        "negation",
        "en",
        SAID,
        "Remember that I drink coffee every morning",
        "Remember that I no longer drink coffee",
        "do I drink coffee?",
    ),
    _c(
        "negation",
        "en",
        R,
        "The user plays tennis on Sundays",
        "The user doesn't play tennis anymore",
        "does the user play tennis?",
    ),
    _c(
        "negation",
        "es",
        R,
        "El usuario juega al fútbol los domingos",
        "El usuario ya no juega al fútbol",
        "¿el usuario juega al fútbol?",
    ),
    _c(
        "negation",
        "en",
        SAID,
        "Remember that I'm a member of the chess club",
        "Remember that I'm no longer a member of the chess club",
        "am I in the chess club?",
    ),
    # a denial dropped: "can't" and "cannot" keep their modal ("can drive", denied)
    _c(
        "negation",
        "en",
        R,
        "The user can't drive at night",
        "The user can drive at night",
        "can the user drive at night?",
    ),
    _c("negation", "en", SAID, "Remember that I cannot swim", "Remember that I can swim", "can I swim?"),
    _c(
        "negation",
        "es",
        R,
        "El usuario no puede manejar de noche",
        "El usuario puede manejar de noche",
        "¿el usuario puede manejar de noche?",
    ),
]

CONTROLS = [
    # pets
    _k("pets", "en", R, "The user has a dog named Max", "The user has a cat named Luna", "what pets does the user have?"),
    _k("pets", "es", R, "El usuario tiene un perro que se llama Toby", "El usuario tiene una gata que se llama Mora",
       "¿qué mascotas tiene el usuario?"),
    _k("pets", "en", R, "The user's dog is called Rex", "The user's cat is called Tom", "what are the user's pets called?"),
    _k("pets", "en", SAID, "Remember that my dog is called Rex", "Remember that my parrot is called Kiwi",
       "what are my pets called?"),
    # siblings in two cities
    _k("siblings", "en", R, "The user's sister lives in Lima", "The user's brother lives in Quito",
       "where do the user's siblings live?"),
    _k("siblings", "es", R, "La hermana del usuario vive en Lima", "El hermano del usuario vive en Quito",
       "¿dónde viven los hermanos del usuario?"),
    _k("siblings", "en", R, "The user's sister Ana lives in Madrid", "The user's sister Marta lives in Paris",
       "where do the user's sisters live?"),
    _k("siblings", "en", R, "The user lives in Leeds", "The user's sister lives in Bristol",
       "where do the user and the user's sister live?"),
    # languages
    _k("languages", "en", R, "The user speaks Spanish", "The user speaks French", "which languages does the user speak?"),
    _k("languages", "es", R, "El usuario habla inglés", "El usuario habla portugués", "¿qué idiomas habla el usuario?"),
    _k("languages", "en", SAID, "Remember that I speak German", "Remember that I'm learning Japanese",
       "which languages do I speak or learn?"),
    # allergies
    _k("allergies", "en", R, "The user is allergic to peanuts", "The user is allergic to shellfish",
       "what is the user allergic to?"),
    _k("allergies", "es", R, "El usuario es alérgico al maní", "El usuario es alérgico a la penicilina",
       "¿a qué es alérgico el usuario?"),
    _k("allergies", "en", SAID, "I'm allergic to cats", "I'm allergic to pollen", "what am I allergic to?"),
    # projects
    _k("projects", "en", R, "The user is working on a compiler project", "The user is working on a garden app",
       "what is the user working on?"),
    _k("projects", "es", R, "El usuario está trabajando en un proyecto de jardinería",
       "El usuario está trabajando en una app de finanzas", "¿en qué está trabajando el usuario?"),
    _k("projects", "en", R, "The user maintains the vmem project", "The user maintains the Whoosh fork",
       "which projects does the user maintain?"),
    # children
    _k("children", "en", R, "The user's son is called Leo", "The user's daughter is called Ana",
       "what are the user's children called?"),
    _k("children", "es", R, "El hijo del usuario se llama Tomás", "La hija del usuario se llama Lucía",
       "¿cómo se llaman los hijos del usuario?"),
    _k("children", "en", SAID, "Remember that my son plays football", "Remember that my daughter plays piano",
       "what do my kids play?"),
    # past jobs with their years
    _k("past jobs", "en", R, "The user worked at Google from 2015 to 2018", "The user works at Meta",
       "where has the user worked?"),
    _k("past jobs", "es", R, "El usuario trabajó en Accenture entre 2010 y 2014", "El usuario trabaja en Globant",
       "¿dónde trabajó el usuario?"),
    _k("past jobs", "en", R, "The user worked as a waiter in 2012", "The user works as a data engineer",
       "what jobs has the user had?"),
    # events on different days
    _k("events", "en", R, "The user went to the dentist on Monday", "The user went to a concert on Friday",
       "what did the user do this week?"),
    _k("events", "es", R, "El usuario fue al médico el lunes", "El usuario fue a un concierto el viernes",
       "¿qué hizo el usuario esta semana?"),
    _k("events", "en", R, "The user has a dentist appointment on March 3", "The user has a dentist appointment on April 9",
       "when are the user's dentist appointments?"),
    _k("events", "en", SAID, "Remember that I have a flight to Rome on Friday", "Remember that I have a flight to Oslo on Sunday",
       "which flights do I have?"),
    # two facts of one kind that are both true
    _k("compatible", "en", R, "The user works at Siemens", "The user works as an engineer", "what is the user's job?"),
    _k("compatible", "es", R, "El usuario trabaja en Bosch", "El usuario trabaja como ingeniero",
       "¿de qué trabaja el usuario?"),
    _k("compatible", "en", R, "The user likes jazz", "The user likes techno", "what music does the user like?"),
    _k("compatible", "es", R, "Al usuario le gusta el jazz", "Al usuario le gusta el tango",
       "¿qué música le gusta al usuario?"),
    _k("compatible", "en", R, "The user has two cats", "The user has one dog", "what animals does the user have?"),
    _k("compatible", "en", R, "The user's favourite colour is green", "The user's favourite food is sushi",
       "what are the user's favourites?"),
    _k("compatible", "es", R, "El usuario vive en Madrid", "Los padres del usuario viven en Sevilla",
       "¿dónde vive la familia del usuario?"),
]  # fmt: skip

CASES = CHANGES + CONTROLS


def _say(mem: vmem.VaultMemory, case: Case, text: str, when: dt.datetime) -> None:
    if case.via == "remember":
        mem.remember(text, now=when)
    else:
        turns = f"User: {text}\nAssistant: Noted.\n"
        ingest(mem, turns, format="text", session=f"s-{when.timestamp():.0f}", llm=None, now=when)


def run_case(case: Case, folder: Path, llm: str | None = None) -> dict:
    """Write the two statements a day apart, ask the question, read the block."""
    vmem.init(folder, examples=False).close()
    t0 = dt.datetime(2026, 1, 10, 12, 0, tzinfo=dt.UTC)
    with vmem.open(folder, use_daemon=False) as mem:  # the model is loaded once per process
        if llm:
            mem.judge = pair_judge(LLMSettings(url=llm, model="default", retries=0), mem.vault.warnings)
        _say(mem, case, case.old, t0)
        old_ids = {m.id for m in mem.list()}
        _say(mem, case, case.new, t0 + dt.timedelta(days=1))
        listing = mem.list()
        new_ids = {m.id for m in listing} - old_ids
        result = mem.recall(case.query, as_of=t0 + dt.timedelta(days=2))
        shown = {h.memory.id: h for h in result.selection.hits}
        conflicts = len(mem.conflicts())
    old_current = [i for i in old_ids if listing.states.get(i) != "superseded"]
    old_shown = [i for i in old_ids if i in shown]
    new_shown = [i for i in new_ids if i in shown]
    marked = [i for i in shown if shown[i].outdated_by]
    if not new_ids:
        outcome = "new not written (reconfirmed or declined)"
    elif case.control:
        if old_current and not conflicts:
            outcome = "both kept" if old_shown and new_shown else "both kept, not both recalled"
        else:
            outcome = "old superseded" if not old_current else "marked as a conflict"
    elif new_shown and not old_shown:
        outcome = "only new"
    elif old_shown and marked:
        outcome = "both, older marked"
    elif old_shown:
        outcome = "both shown"
    else:
        outcome = "old superseded, new not recalled" if not old_current else "new not recalled"
    # a change: the block shows the new value alone; a control: neither replaced nor marked
    passed = outcome == "only new" if not case.control else outcome.startswith("both kept")
    return asdict(case) | {"passed": passed, "outcome": outcome, "old_current": bool(old_current)}


def summarize(rows: list[dict]) -> dict:
    def rate(part: list[dict]) -> dict:
        return {"n": len(part), "passed": sum(r["passed"] for r in part), "rate": round(_mean(part), 3)}

    def _mean(part: list[dict]) -> float:
        return sum(r["passed"] for r in part) / len(part) if part else 0.0

    out: dict = {}
    for control, name in ((False, "changes"), (True, "controls")):
        part = [r for r in rows if r["control"] == control]
        out[name] = rate(part) | {
            "by_kind": {k: rate([r for r in part if r["kind"] == k]) for k in dict.fromkeys(r["kind"] for r in part)},
            "by_lang": {
                lang: rate([r for r in part if r["lang"] == lang]) for lang in dict.fromkeys(r["lang"] for r in part)
            },
            "by_via": {via: rate([r for r in part if r["via"] == via]) for via in (R, SAID)},
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--cases", type=Path, help="a JSON list of cases (a held-out set) instead of the built-in ones")
    parser.add_argument("--only", help="only the cases of this kind")
    parser.add_argument("--split", choices=("tune", "held"), help="of a set whose cases are split, only this half")
    parser.add_argument("--llm", help="an OpenAI-compatible endpoint that judges the possible conflicts")
    args = parser.parse_args()
    given = json.loads(args.cases.read_text()) if args.cases else None
    if given is not None and args.split:
        given = [c for c in given if c.get("split", args.split) == args.split]
    fields = set(Case.__dataclass_fields__)
    cases = [Case(**{k: v for k, v in c.items() if k in fields}) for c in given] if given is not None else CASES
    if args.only:
        cases = [c for c in cases if c.kind == args.only]
    started = time.perf_counter()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n, case in enumerate(cases):
            rows.append(run_case(case, Path(tmp) / f"v{n}", args.llm))
    summary = summarize(rows)
    if args.json:
        print(json.dumps({"summary": summary, "cases": rows}, indent=2, ensure_ascii=False))
        return
    for name in ("changes", "controls"):
        s = summary[name]
        want = "only the new value shown" if name == "changes" else "both kept, neither marked"
        print(f"{name}: {s['passed']}/{s['n']} = {s['rate']:.1%} ({want})")
        for kind, k in s["by_kind"].items():
            print(f"  {kind:12} {k['passed']:>3}/{k['n']:<3} {k['rate']:.0%}")
        langs = ", ".join(f"{lang} {v['passed']}/{v['n']}" for lang, v in s["by_lang"].items())
        vias = ", ".join(f"{via} {v['passed']}/{v['n']}" for via, v in s["by_via"].items())
        print(f"  by language: {langs}; by way: {vias}")
    failed = [r for r in rows if not r["passed"]]
    if failed:
        print("\nnot passed:")
        for r in failed:
            print(f"  [{r['kind']}/{r['lang']}/{r['via']}] {r['old']!r} → {r['new']!r}: {r['outcome']}")
    print(f"\n{len(rows)} cases in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
