"""The user's own words, measured on words no rule was written from.

The sets in ``benchmarks/data/language_eval/`` were written by a helper who had not seen
vmem's rules (English, Spanish, Portuguese; each case marked ``tune`` or ``held``): rules
and thresholds are tuned on ``tune`` only, and ``held`` is reported. This script measures
what the offline reading does with them:

- ``language``: every text of every set, read by ``lang.detect`` (right, unsure, wrong);
- ``explicit``: a prompt that asks to remember something about the user is kept whole
  (every value it names is in the facts written); requests are read as the prompt hook and
  ``ingest`` read them, with the request judge (``lang.judge``; ``--rules-only``: without);
- ``coding``: an instruction about the task at hand is written as a fact (should not be);
- ``declined``: of the explicit requests not kept, how many are named with a reason;
- ``secrets``: a text holding a secret is refused (``vault.secrets``), and a look-alike
  ("my password manager is 1Password") is not (three sets: ``secrets``, ``secrets_fresh``,
  ``secrets_typed``);
- ``beside``: a courtesy's word that is a request's value is kept ("my signature says
  Cheers"), one said beside a fact is not written into it, and the harmless facts said in
  one request with a secret are written without it (``courtesies``, ``secrets_beside``);
- ``remembering``: a story of remembering or forgetting is not written (``statements_right``)
  and a request beside such words keeps its fact (``requests_right``);
- ``joined_verbs``: a fact said in the first person written in the third, the verbs of
  its joined clauses too ("…y corro los jueves" → "…y el usuario corre los jueves");
  ``first_verbs``: the same on verbs of every kind and their tenses, beside nouns that
  open a sentence as a verb would ("Seguro do carro…": kept as said);
- ``colon_keys``: "words: value" read as a key only when the words are one of the user's, not a
  label or a request to remember ("Carro: Fiat Argo" is, "Lembrete: …", "Remember: …" are not);
- ``possessive``: a noun the user says is theirs written as theirs with its whole phrase
  ("mi seguro médico es…" → "el seguro médico del usuario es…", not "el seguro del usuario
  médico"), and one said alone with what is said of it after ("mi hermano vive…");
- ``conjunct_*``: a request whose fact goes on after "and": the user's second clause kept
  ("I'm a welder and make furniture"), an order said there not written ("…y revisalo");
- ``mind_when_*``: a fact, then a request to keep it in mind for an occasion ("Factor that
  in next time you suggest recipes"): the fact kept, the occasion's words not written;
- ``profile_read``: a question about the user as a whole read as one ("what have you got
  on me?"), and ``profile_other_read``: a look-alike read as one (an attribute, another
  person, a memory operation: "delete what you know about me");
- ``kind_read``: a question read as of the kind it is (``recall.kinds``: food, medicine,
  work, residence, or none);
- ``reasons_*``: a fact, a request that points back at it, then why it is asked ("Note
  it, because you'll plan the menu", ``request_reasons``): the fact kept, the reason not
  written (``reason_written``); and requests whose "that", "que" or colon opens a fact that
  holds such a word ("remember that since March I…"): kept (``control_kept``);
- ``openings_*``: a request whose fact opens with a phrase of time, place, case or cause
  ("remember that since my surgery in January I can't lift…", ``opening_phrases``): kept;
  and controls whose "that" points back before a reason: kept, the reason not written;
- ``list_*``: a list typed first, then a line that asks to keep it ("…\nsave all of this
  about me", ``list_then_request``): every value kept; a list then an order or a question
  about it: nothing written;
- ``work_*``: what the user did to the work or how their machine is right now, in the
  first person ("fyi I already ran the migrations, so just seed the db", ``work_now``):
  nothing written; a lasting fact told with the same words ("remember I just moved to
  Porto"): kept;
- ``now_*``: a request of a fact said with a word of now or today (``now_lasting``): one that
  begins something lasting ("desde hoy soy vegetariana, recuérdalo") kept; a state of the
  moment ("keep in mind i'm half asleep now") not written;
- ``vocative_*``: a request said with a word of address ("…. anota aí, mano", ``vocatives``):
  the fact before it kept, the word not written; such a word that is the value ("my
  brother's nickname is Bro"): kept;
- ``we_*``: a request of a fact told with a verb of "we" and no subject ("lembra que
  moramos em Campinas", ``we_facts``): kept; such a verb of the talk or the task: left out.

With ``--recall``, through real vaults, the bundled model and ``recall``'s block (one vault
per set, language and split, facts written a week apart):

- ``changes``: a fact, then one that replaces it: the new value shown, and the old one
  left out or marked ("older — may be outdated", "newer related memory"); never unmarked;
  ``wrong_marks``: facts marked by a newer fact that is not their own change;
  ``changes_told``: the same with the newer told as an event, half of them in no word of
  change ("Dr. Lee retired and her practice handed me over to Dr. Okafor");
- ``both_true``: two related facts both true: the answer shown, neither marked (and
  ``both_true_told``: the newer told as an event of another thing, "My husband switched
  dentists");
- ``said_again``: a fact, then one said later of the same thing (a helper's hard pairs):
  a new value (``change``), or something else of it in words of change (``both``: "the car
  is in the shop this week"); asked with the older's own words, the older is marked or
  left out (``marked``) for a change, and never for a pair both true;
- ``relevance``: a fact and a question that shares no word with it: the fact shown;
- ``relevance_cross``: the same with the question in another language than the fact (per
  direction, fact > question), and questions none of those facts answers (``lines``);
- ``unanswerable``: a question nothing in a vault of 40 facts answers: nothing shown (and
  ``lines``: how many unrelated facts were shown in all);
- ``kinds``: a question of a kind (food, medicine, the user's work or home) and the fact
  that answers it with no shared word, among others: the answer shown; and of questions of
  no kind, how many pulled a fact as of a kind (``none_pulled``).

    python benchmarks/language_eval.py [--split held|tune|all] [--recall] [--json] [--show]
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import functools
import json
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import vault_memory as vmem  # noqa: E402
from vault_memory.conversation.request_judge import request_judge  # noqa: E402
from vault_memory.conversation.signals import Judge, read_requests  # noqa: E402
from vault_memory.lang import detect  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "language_eval"
LANGS = ("en", "es", "pt")


def cases(name: str, split: str) -> list[dict]:
    """A set's cases of ``split``; a set written after the rules were (``*_fresh``, a third
    helper's, never tuned on) has no split and is measured whole."""
    data = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    return [c for c in data["cases"] if split == "all" or c.get("split", split) == split]


def texts(split: str) -> list[tuple[str, str]]:
    """(text, language) of every text of every set."""
    out = []
    fields = {
        "changes": ("old", "new", "question"),
        "both_true": ("a", "b", "question"),
        "relevance": ("fact", "question"),
        "explicit": ("prompt",),
        "coding": ("prompt",),
        "unanswerable": ("question",),
    }
    for name, keys in fields.items():
        for case in cases(name, split):
            out += [(case[k], case["lang"]) for k in keys]
    return out


#: the request sets, ``explicit{suffix}.json`` with ``coding{suffix}.json``, in the order
#: they were written (the thirteenth is instructions alone, ``coding_hard13``)
REQUEST_SETS = ("", "_fresh", *(f"_fresh{n}" for n in (*range(2, 31), 32, 33, 34) if n != 13))
#: the request sets whose misses nobody has read: measured, never printed by ``--show`` (the
#: thirty-third and thirty-fourth: helpers' broad sets, each measured first on the code before the stop that added it)
#: (a set read to mend the rules is no longer a measure of words nobody tuned on)
UNSEEN = ("_fresh9", "_fresh11", "_fresh33", "_fresh34")
#: sets split in halves, the twelfth and every one after it: ``--show`` prints the misses of
#: the tune half only, the held half is measured and never read
HALVED = REQUEST_SETS[REQUEST_SETS.index("_fresh12") :]


def rate(hits: int, n: int) -> dict:
    return {"n": n, "hits": hits, "rate": round(hits / n, 3) if n else None}


def by_language(table: Mapping[str, Sequence[int]]) -> dict:
    """Each language's ``rate`` of a table {language: [hits, n]}, and all of them together."""
    out = {lang: rate(*table[lang]) for lang in LANGS if table[lang][1]}
    out["all"] = rate(sum(v[0] for v in table.values()), sum(v[1] for v in table.values()))
    return out


def measure(split: str, show: bool = False, rules_only: bool = False) -> dict:
    """The offline reading's rates on ``split``; ``rules_only``: requests read without the
    request judge (``lang.judge``), as before it."""
    judge = None if rules_only else request_judge()
    out: dict = {"split": split}
    counts: dict = collections.defaultdict(collections.Counter)
    for text, lang in texts(split):
        found = detect(text)
        counts[lang]["n"] += 1
        counts[lang]["right" if found == lang else "unsure" if found is None else "wrong"] += 1
    out["language"] = {lang: dict(c) for lang, c in sorted(counts.items())}

    for suffix in REQUEST_SETS:
        if (DATA / f"explicit{suffix}.json").exists():
            readable = suffix not in UNSEEN and (suffix not in HALVED or split == "tune")
            out.update(_requests(suffix, split, show and readable, judge))
    out.update(_coding_only("coding_hard13", split, show, judge))
    out.update(_remembering(show, judge))
    out.update(_joined_verbs(split, show))
    out.update(_colon_keys(split, show))
    out.update(_possessive(split, show))
    out.update(_secrets(split, show, judge=judge))
    out.update(_secrets(split, show, "secrets_fresh", judge=judge))
    out.update(_secrets(split, show, "secrets_typed", judge=judge))
    out.update(_secrets(split, show, "secrets_after", judge=judge))  # all held: measured, never read
    out.update(_secrets(split, show, "secrets_words", judge=judge))
    out.update(_secrets(split, show, "secrets_words2", judge=judge))
    out.update(_secrets(split, show, "secrets_numbers", judge=judge))
    out.update(_beside(split, show, judge))
    out.update(_follow_on(split, show, judge))
    out.update(_conjuncts(split, show, judge))
    out.update(_mind_when(split, show, judge))
    out.update(_pointing(split, show, judge))
    out.update(_list_then_request(split, show, judge))
    out.update(_work_now(split, show, judge))
    out.update(_now_lasting(split, show, judge))
    out.update(_vocatives(split, show, judge))
    out.update(_given_texts(split, show, judge))
    out.update(_pronoun_infinitives(split, show))
    out.update(_tails(split, show, judge))
    out.update(_reasons(split, show, judge))
    out.update(_openings(split, show, judge))
    out.update(_we(split, show, judge))
    out.update(_forgetting(split, show, judge))
    out.update(_kinds(split, show))
    out.update(_profile(split, show))
    return out


def _reasons(split: str, show: bool, judge: Judge | None) -> dict:
    """A request that points back, then why it is asked: the fact before it kept whole and
    the reason never written; a reason's word inside the fact a "that" opens, kept."""

    def rows(case: dict, kept: bool, wrote: bool) -> dict[str, bool]:
        if case["label"] == "control":
            return {"reasons_control_kept": kept}
        return {"reasons_kept": kept, "reasons_reason_written": wrote}

    return _kept_and_written("request_reasons", "prompt", rows, split, show, judge, not_keep="not_fact")


def _openings(split: str, show: bool, judge: Judge | None) -> dict:
    """A request whose fact opens with a phrase of time, place, case or cause ("remember that
    since my surgery in January I can't lift…"; ``opening_phrases``, a helper who saw no rule):
    the fact kept whole (``openings_kept``); and controls whose "that" points back before a
    reason ("I'm allergic to shellfish. Remember that since you'll plan the menu"): the fact
    kept (``openings_control_kept``), the reason not written (``openings_reason_written``)."""

    def rows(case: dict, kept: bool, wrote: bool) -> dict[str, bool]:
        if case["label"] == "opening":
            return {"openings_kept": kept}
        return {"openings_control_kept": kept, "openings_reason_written": wrote}

    return _kept_and_written("opening_phrases", "prompt", rows, split, show, judge, not_keep="not_fact")


def _we(split: str, show: bool, judge: Judge | None) -> dict:
    """A request of a fact told with a verb of "we" and no subject ("recuerda que cenamos
    siempre a las 9", "lembra que moramos em Campinas"; ``we_facts``, a helper who saw no
    rule, written after it): kept (``we_kept``); and such a verb of the talk or of the task
    at hand ("recuerda lo que hablamos", "…que en este repo usamos tabs, arregla el
    linter"): nothing of it written (``we_task_left_out``)."""

    def rows(case: dict, kept: bool, wrote: bool) -> dict[str, bool]:
        return {"we_kept": kept} if case["label"] == "fact" else {"we_task_left_out": not wrote}

    return _kept_and_written("we_facts", "prompt", rows, split, show, judge, not_keep="not_written")


def _forgetting(split: str, show: bool, judge: Judge | None) -> dict:
    """A request led by the user's own forgetting ("I never remember this, so keep it: …",
    "siempre se me olvida, así que guárdalo tú: …"; ``forget_leads``, a helper who saw no
    rule): the fact kept (``forget_lead_kept``); and a story of forgetting that asks nothing
    kept, or asks a reminder or a task ("I keep forgetting to take my vitamins, can you set a
    reminder?"): nothing written (``forget_story_written``)."""

    def rows(case: dict, kept: bool, wrote: bool) -> dict[str, bool]:
        return {"forget_lead_kept": kept} if case["kind"] == "keep" else {"forget_story_written": wrote}

    return _kept_and_written("forget_leads", "text", rows, split, show, judge)


def _mind_when(split: str, show: bool, judge: Judge | None) -> dict:
    """A fact, then a request to keep it in mind for an occasion ("I'm vegan. Factor that in
    next time you suggest recipes"; ``mind_when``, a helper who saw no rule): the fact kept
    (``mind_when_kept``), the words of the request or the occasion not written as a fact
    (``mind_when_junk``)."""

    def rows(case: dict, kept: bool, wrote: bool) -> dict[str, bool]:
        return {"mind_when_kept": kept, "mind_when_junk": wrote}

    return _kept_and_written("mind_when", "said", rows, split, show, judge)


def _tails(split: str, show: bool, judge: Judge | None) -> dict:
    """A fact, then a request to keep it led by a wish, a need or a question ("…, I'd like you
    to remember that", "…, ¿te lo puedes apuntar?"; ``tails``, a helper who saw no rule): the
    fact kept (``tail_kept``), a word of the request written with it (``tail_junk``)."""

    def rows(case: dict, kept: bool, wrote: bool) -> dict[str, bool]:
        return {"tail_kept": kept, "tail_junk": wrote}

    return _kept_and_written("tails", "said", rows, split, show, judge)


def _pointing(split: str, show: bool, judge: Judge | None) -> dict:
    """Words that mostly point ("this", "isso", "the new", "la otra") inside a fact the user
    asks to keep, where they point at no thing of the task ("por isso", "this fall", "the new
    address is…"; ``pointing``, a helper who saw no rule): the fact kept (``pointing_kept``);
    and in a note about the task, where they do, nothing written (``pointing_task_written``)."""

    def rows(case: dict, kept: bool, wrote: bool) -> dict[str, bool]:
        if case["kind"] == "keep":
            return {"pointing_kept": kept}
        return {"pointing_task_written": wrote}

    return _kept_and_written("pointing", "prompt", rows, split, show, judge)


def _list_then_request(split: str, show: bool, judge: Judge | None) -> dict:
    """A list typed first, then a line that asks to keep it ("- distro: Arch\n- WM: i3\nese es
    mi setup de siempre, guárdalo"; ``list_then_request``, a helper who saw no rule): every
    value kept (``list_request_kept``); a list then an order or a question about it ("…\nfix
    these before merging"), nothing written (``list_order_written``)."""

    def rows(case: dict, kept: bool, wrote: bool) -> dict[str, bool]:
        if case["kind"] == "asks":
            return {"list_request_kept": kept}
        return {"list_order_written": wrote}

    return _kept_and_written("list_then_request", "prompt", rows, split, show, judge)


def _work_now(split: str, show: bool, judge: Judge | None) -> dict:
    """What the user did to the work or how their machine is right now, told in the first
    person ("fyi I already ran the migrations, so just seed the db"; ``work_now``, a helper
    who saw no rule): nothing written (``work_now_written``); a lasting fact of theirs told
    with the same words ("remember I just moved to Porto", "lembra que agora o time usa
    GitHub Actions"): kept (``work_lasting_kept``)."""

    def rows(case: dict, kept: bool, wrote: bool) -> dict[str, bool]:
        if case["kind"] == "lasting":
            return {"work_lasting_kept": kept}
        return {"work_now_written": wrote}

    return _kept_and_written("work_now", "prompt", rows, split, show, judge)


def _now_lasting(split: str, show: bool, judge: Judge | None) -> dict:
    """A request of a fact said with a word of now or today (``now_lasting``, a helper who
    saw no rule): one that begins something lasting ("desde hoy soy vegetariana, recuérdalo",
    "remember I'm vegan now") kept (``now_lasting_kept``); a state of the moment ("keep in
    mind i'm half asleep now", "tô no aeroporto agora, lembra disso") not written
    (``now_passing_written``)."""

    def rows(case: dict, kept: bool, wrote: bool) -> dict[str, bool]:
        if case["label"] == "keep":
            return {"now_lasting_kept": kept}
        return {"now_passing_written": wrote}

    return _kept_and_written("now_lasting", "prompt", rows, split, show, judge)


def _vocatives(split: str, show: bool, judge: Judge | None) -> dict:
    """A request said with a word of address or a slang filler ("…. anota aí, mano",
    "…, déjalo registrado po"; ``vocatives``, a helper who saw no rule): the fact said
    before it kept (``vocative_fact_kept``), the word never written as a word of it
    (``vocative_written``); such a word that is the fact's value ("my brother's nickname is
    Bro"): kept (``vocative_value_kept``)."""

    def rows(case: dict, kept: bool, wrote: bool) -> dict[str, bool]:
        if case["kind"] == "fact":
            return {"vocative_fact_kept": kept, "vocative_written": wrote}
        return {"vocative_value_kept": kept}

    return _kept_and_written("vocatives", "prompt", rows, split, show, judge, whole_words=True)


def _given_texts(split: str, show: bool, judge: Judge | None) -> dict:
    """A text the user gives the agent to work on, or someone else's words, that holds a
    request to remember ("Summarize this email:\nHi Bob, remember that I moved…";
    ``given_texts``, a helper who saw no rule): nothing written (``given_written``); the
    user's own request beside such a text or after a lead of their own ("For future
    reference: …"): every ``keep`` value written (``given_own_kept``)."""
    if not (DATA / "given_texts.json").exists():
        return {}
    table: dict = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
    for case in cases("given_texts", split):
        signals, _ = read_requests(case["prompt"], judge=judge)
        written = " ".join(s.text for s in signals)
        if case["label"] == "material":
            row, hit = "given_written", bool(signals)
        else:
            row, hit = "given_own_kept", all(k.casefold() in written.casefold() for k in case["keep"])
        table[row][case["lang"]][0] += hit
        table[row][case["lang"]][1] += 1
        if show and split == "tune" and hit == (row == "given_written"):
            print(f"GIVEN [{case['id']}] {case['prompt']!r} -> {written!r}")
    return {row: by_language(counts) for row, counts in table.items()}


def _pronoun_infinitives(split: str, show: bool) -> dict:
    """A fact said in the first person with "me" on an infinitive or a gerund after the
    user's own verb ("acabo de mudarme a Quito", "quero me aposentar cedo";
    ``pronoun_infinitives``, a helper who saw no rule), written in the third person with
    "se" (``pronoun_se``: its ``expect`` written, its ``not_expect`` not); after another's
    verb, "me" that one's object, kept (``pronoun_object_kept``)."""
    from vault_memory.lang.grammar import in_third_person

    if not (DATA / "pronoun_infinitives.json").exists():
        return {}
    table: dict = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
    for case in cases("pronoun_infinitives", split):
        written = in_third_person(case["said"], case["lang"]).casefold()
        hit = case["expect"].casefold() in written and case["not_expect"].casefold() not in written
        row = "pronoun_se" if case["label"] == "reflexive" else "pronoun_object_kept"
        table[row][case["lang"]][0] += hit
        table[row][case["lang"]][1] += 1
        if show and split == "tune" and not hit:
            print(f"PRONOUN [{case['id']}] {case['said']!r} -> {written!r}")
    return {row: by_language(counts) for row, counts in table.items()}


def _conjuncts(split: str, show: bool, judge: Judge | None) -> dict:
    """A request whose fact goes on after "and" (``conjuncts``, a helper who saw no rule):
    the user's second clause kept with it (``conjunct_kept``: every ``keep`` value written),
    an order for the task said there not written (``conjunct_order_written``: a word of
    it written), the fact before it kept all the same (``conjunct_order_fact_kept``)."""

    def rows(case: dict, kept: bool, wrote: bool) -> dict[str, bool]:
        if case["label"] == "fact":
            return {"conjunct_kept": kept}
        return {"conjunct_order_fact_kept": kept, "conjunct_order_written": wrote}

    return _kept_and_written("conjuncts", "prompt", rows, split, show, judge)


def _kept_and_written(
    name: str,
    text: str,
    rows: Callable[[dict, bool, bool], dict[str, bool]],
    split: str,
    show: bool,
    judge: Judge | None,
    not_keep: str = "not_keep",
    whole_words: bool = False,
) -> dict:
    """Per row and language of a set whose cases name what must be written (``keep``, every
    value) and what must not (``not_keep``, any value; a set may name that field otherwise):
    the rows ``rows`` makes of a case from those two readings of what its message
    (``case[text]``) writes; ``whole_words``: a value to keep out is found as a word only
    ("po" is not in "pool")."""
    if not (DATA / f"{name}.json").exists():
        return {}
    table: dict = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
    for case in cases(name, split):
        signals, _ = read_requests(case[text], judge=judge)
        written = " ".join(s.text for s in signals).casefold()
        kept = all(k.casefold() in written for k in case.get("keep", ()))
        # a case with nothing to keep is an instruction: whatever is written of it is wrong
        if "keep" not in case:
            wrote = bool(signals)
        elif whole_words:
            wrote = any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", written, re.I) for w in case.get(not_keep, ()))
        else:
            wrote = any(w.casefold() in written for w in case.get(not_keep, ()))
        for row, hit in rows(case, kept, wrote).items():
            table[row][case["lang"]][0] += hit
            table[row][case["lang"]][1] += 1
        if show and split == "tune" and (wrote or not kept):
            print(f"{name.upper()} [{case['id']}] {case[text]!r} -> {written!r}")
    return {row: by_language(counts) for row, counts in table.items()}


def _follow_on(split: str, show: bool, judge: Judge | None) -> dict:
    """The sentence said right after a kept request: a detail of its fact kept with it
    (``follow_on_kept``: every ``keep`` value written), anything else (a task, a question, a
    remark of the chat) not written (``follow_on_written``: half or more of its own words in
    what is written), on ``follow_on`` and ``follow_on2`` (two helpers who saw no rule)."""
    import re

    def words(text: str) -> set[str]:
        return set(re.findall(r"\w{3,}", text.casefold()))

    table: dict = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
    for name in ("follow_on", "follow_on2"):
        if not (DATA / f"{name}.json").exists():
            continue
        for case in cases(name, split):
            signals, _ = read_requests(f"{case['request']} {case['next']}", judge=judge)
            written = " ".join(s.text for s in signals)
            if case["label"] == "goes_on":
                right = all(k.casefold() in written.casefold() for k in case["keep"])
                row, hit = "follow_on_kept", right
            else:
                own = words(case["next"]) - words(case["request"])
                hit = bool(own) and len(own & words(written)) >= len(own) / 2
                row, right = "follow_on_written", not hit
            table[row][case["lang"]][0] += hit
            table[row][case["lang"]][1] += 1
            if show and not right and split == "tune":
                print(f"FOLLOW ON [{case['id']}] {case['request']!r} {case['next']!r} -> {written!r}")
    out = {}
    for row, counts in table.items():
        out[row] = by_language(counts)
    return out


#: the words of a request's "keep" values that the third person rewrites ("my", "soy")
_FIRST_PERSON = set(
    "my i'm i is she's he's i've mi mis soy meu minha eu sou a o que me name de la el tengo tenho prefiro faço".split()
)


def _remembering(show: bool, judge: Judge | None) -> dict:
    """Someone telling what they remember or forgot is not written ("Recuerdo que mi abuela
    cocinaba…"), and a request beside such words still keeps its fact (its content words,
    as the third person rewrites the first), on ``remembering.json`` (no split)."""
    import re

    from whoosh.lang import stemmer_for_language

    table: dict = collections.defaultdict(collections.Counter)
    for case in json.loads((DATA / "remembering.json").read_text(encoding="utf-8"))["cases"]:
        signals, _ = read_requests(case["text"], judge=judge)
        written = " ".join(s.text for s in signals).casefold()
        if case["label"] == "statement":
            right = not signals
        else:
            stem = stemmer_for_language(case["lang"])  # "trabajo" is written "trabaja": one stem
            said = {stem(w) for w in re.findall(r"[\w']+", written)}
            words = [w for k in case["keep"] for w in re.findall(r"[\w']+", k.casefold())]
            kept = [w in written or stem(w) in said for w in words if w not in _FIRST_PERSON and len(w) > 2]
            right = bool(signals) and all(kept)
        counts = table[case["lang"]]
        counts[f"{case['label']}s"] += 1
        counts[f"{case['label']}s_right"] += right
        if show and not right:
            print(f"REMEMBERING [{case['id']}] {case['text']!r} -> {[s.text for s in signals]}")
    return {"remembering": {lang: dict(c) for lang, c in sorted(table.items())}}


def _joined_verbs(split: str, show: bool) -> dict:
    """A fact the user says in the first person, written in the third: every verb of the
    user's, the first clause's and those of the clauses joined to it ("juego al pádel y corro
    los jueves" → "…juega… y… corre…"), in its third person, and the words that only look
    like one ("pan y queso", "el trabajo") as said (``joined_verbs.json``, a helper's who saw
    no rule; ``lang.in_third_person``); and the same of facts whose verbs are of every kind,
    present and past, beside nouns that open a sentence as a verb would (``first_verbs.json``,
    another helper's, written before the lexicon was used)."""
    from vault_memory.lang import in_third_person

    def count(text: str, word: str) -> int:
        return len(re.findall(r"(?<!\w)" + re.escape(word.casefold()) + r"(?!\w)", text.casefold()))

    out = {}
    for name in ("joined_verbs", "first_verbs"):
        table: dict = collections.defaultdict(lambda: [0, 0])
        for case in cases(name, split):
            right, written = _in_their_third(case, count, in_third_person)
            table[case["lang"]][0] += right
            table[case["lang"]][1] += 1
            if show and not right:
                print(
                    f"JOINED [{case['id']}] {case['said']!r} -> {written!r} (verbs {case['verbs']}, keep {case['keep']})"
                )
        out[name] = by_language(table)
    return out


def _in_their_third(
    case: dict, count: Callable[[str, str], int], in_third_person: Callable[[str, str | None], str]
) -> tuple[bool, str]:
    """Whether every verb of ``case`` is written in its third person, none left in the first,
    and every look-alike as said; and what was written."""
    written = in_third_person(case["said"], case["lang"])
    kept = collections.Counter(w.casefold() for w in case["keep"])
    right = all(count(written, third) >= 1 for _, third in case["verbs"])
    right = right and all(
        count(written, first) <= kept[first.casefold()]
        for first, third in case["verbs"]
        if first.casefold() != third.casefold()
    )
    right = right and all(count(written, word) >= n for word, n in kept.items())
    return right, written


def _colon_keys(split: str, show: bool) -> dict:
    """A one-line note "words: value" read as a key and its value only when the words are a
    key of the user's ("Carro: Fiat Argo 2021"), not a label, a request to remember or a
    lead-in ("Lembrete: …", "Recuerda: …", "TL;DR: …"), which would make one more single-valued
    key of the user ("Remember") and its value replace the last (``colon_labels.json``, a
    helper's who saw no rule; ``vault.keyvalue.split_key_value``)."""
    from vault_memory.vault.keyvalue import split_key_value

    table: dict = collections.defaultdict(lambda: [0, 0])
    for case in cases("colon_labels", split):
        key, _ = split_key_value(case["text"])
        right = key == case["key"]
        table[case["lang"]][0] += right
        table[case["lang"]][1] += 1
        if show and not right:
            print(f"COLON [{case['id']}] {case['text']!r} -> key {key!r} (expected {case['key']!r})")
    return {"colon_keys": by_language(table)}


def _possessive(split: str, show: bool) -> dict:
    """The user's noun and its whole phrase as theirs, "del usuario" / "do usuário" after its
    adjectives and a complement that names it, before what is said of it (``possessive.json``,
    a helper's who saw no rule: each case's ``expect`` must be in what is written, compared
    without case; ``lang.in_third_person``). A fact of "nuestro"/"nosso" is not counted: it is
    of the user and others, kept as said in every language ("Our CI runs on Jenkins")."""
    from vault_memory.lang import in_third_person

    table: dict = collections.defaultdict(lambda: [0, 0])
    for case in cases("possessive", split):
        if re.search(r"\b(?:nuestr|noss)[oa]s?\b", case["text"], re.IGNORECASE):
            continue  # "nuestro", "nosso": the user's and others', kept as said, as English keeps "our"
        written = in_third_person(case["text"], case["lang"])
        right = case["expect"].casefold() in written.casefold()
        table[case["lang"]][0] += right
        table[case["lang"]][1] += 1
        if show and not right:
            print(f"POSSESSIVE [{case['id']}] {case['text']!r} -> {written!r} (expect {case['expect']!r})")
    out = by_language(table)
    return {"possessive": out}


def _kind_read(question: str) -> str:
    """The kind the rules read a question as ("none": of no kind)."""
    from vault_memory.recall.kinds import about_food, about_medicine, asked_subject

    if about_food(question):
        return "food"
    if about_medicine(question):
        return "medicine"
    return asked_subject(question) or "none"


def _kinds(split: str, show: bool) -> dict:
    """Questions read as of the kind they are (food, medicine, work, residence), and those
    of no kind read as none, per language (``kinds.json``: a helper's, who had not seen
    the rules)."""
    table: dict = collections.defaultdict(lambda: [0, 0])
    for case in cases("kinds", split):
        read = _kind_read(case["question"])
        table[case["lang"]][0] += read == case["kind"]
        table[case["lang"]][1] += 1
        if show and read != case["kind"]:
            print(f"KIND [{case['id']}] {case['question']!r}: read {read}, is {case['kind']}")
    out = by_language(table)
    return {"kind_read": out}


def _profile(split: str, show: bool) -> dict:
    """Questions about the user as a whole read as such ("what have you got on me?", "¿qué
    tenés guardado de mí?"), and look-alikes not (an attribute, another person, the
    assistant, a topic, a memory operation: "delete what you know about me"), per language
    (``profile_questions.json``: a helper's, who had not seen the rules, written before the
    reading by shape; ``lang.about_the_user``)."""
    from vault_memory.lang import about_the_user

    read: dict = collections.defaultdict(lambda: [0, 0])
    wrong: dict = collections.defaultdict(lambda: [0, 0])
    for case in cases("profile_questions", split):
        found = about_the_user(case["text"])
        table = read if case["label"] == "profile" else wrong
        table[case["lang"]][0] += found
        table[case["lang"]][1] += 1
        if show and found != (case["label"] == "profile"):
            print(f"PROFILE [{case['id']}] {case['text']!r}: read {found}, is {case['label']}")
    return {"profile_read": by_language(read), "profile_other_read": by_language(wrong)}


def _secrets(split: str, show: bool, name: str = "secrets", judge: Judge | None = None) -> dict:
    """Secrets refused and look-alikes refused (false alarms), per language, of the set
    ``name`` (``secrets``; ``secrets_fresh`` and ``secrets_typed``, written later by other
    helpers: ``secrets_typed`` of secrets as people type them, slang and asides included;
    ``secrets_after``, all held, written after the rule that reads a secret named in any
    words near its value; ``secrets_words``, of passwords of letters alone and what a
    password is said to be, written before the rule that reads them; ``secrets_words2``, of
    such secrets as people type them, spelled out, as labels, as a form's answers, beside
    look-alikes that reuse their words, written before the readings of ``spelling_hints``,
    label pairs and quoted questions; ``secrets_numbers``, of codes said in number words
    beside look-alikes with numbers, locks and gates). A secret is refused when the rules find it, or (with
    ``judge``) the judge of a secret said in words reads one (``lang.judge.SECRET_AT``), as
    the prompt hook and ``ingest`` refuse a fact."""
    from vault_memory.lang.judge import SECRET_AT
    from vault_memory.vault.secrets import find_secret

    refused, alarm = f"{name}_refused", f"{name}_false_alarm"
    table: dict = {refused: collections.defaultdict(lambda: [0, 0]), alarm: collections.defaultdict(lambda: [0, 0])}
    for case in cases(name, split):
        found = find_secret(case["text"])
        if found is None and judge is not None and judge.secret([case["text"]])[0] >= SECRET_AT:
            found = "a secret in words (the judge)"
        row = refused if case["label"] == "secret" else alarm
        table[row][case["lang"]][0] += found is not None
        table[row][case["lang"]][1] += 1
        if show and (found is None) == (case["label"] == "secret"):
            print(f"SECRET {'MISSED' if found is None else 'FALSE ALARM'} [{case['id']}] {case['text']!r} {found}")
    out = {}
    for row, counts in table.items():
        out[row] = by_language(counts)
    return out


def _beside(split: str, show: bool, judge: Judge | None) -> dict:
    """What a request keeps beside what it must not: a courtesy's word that is its value
    kept (``courtesy_value_kept``), a courtesy said beside a fact left out of it
    (``courtesy_left_out``), the harmless facts said with a secret written with the secret
    in none of them (``beside_secret_kept``; ``secret_written``: facts the write would take
    that hold the secret). What is written is what the write takes: a fact with a secret the
    write sees is refused."""
    from vault_memory.vault.secrets import find_secret

    def has(text: str, word: str) -> bool:
        return re.search(r"(?<!\w)" + re.escape(word.casefold()) + r"(?!\w)", text.casefold()) is not None

    table: dict = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
    for name in ("courtesies", "secrets_beside"):
        for case in cases(name, split):
            signals, _ = read_requests(case["prompt"], judge=judge)
            written = " || ".join(s.text for s in signals if find_secret(s.text) is None)
            right = all(has(written, k) for k in case["must_keep"])
            right = right and not any(has(written, d) for d in case.get("must_drop", []))
            leaked = bool(case.get("secret")) and case["secret"].casefold() in written.casefold()
            row = {"value": "courtesy_value_kept", "courtesy": "courtesy_left_out"}.get(case.get("kind", ""))
            table[row or "beside_secret_kept"][case["lang"]][0] += right and not leaked
            table[row or "beside_secret_kept"][case["lang"]][1] += 1
            if row is None:
                table["secret_written"][case["lang"]][0] += leaked
                table["secret_written"][case["lang"]][1] += 1
            if show and (leaked or not right):
                print(f"BESIDE [{case['id']}] {case['prompt']!r} -> {written!r}")
    out = {}
    for name, counts in table.items():
        out[name] = by_language(counts)
    return out


#: words that say "not": a value said with one is kept only where one is written
_NOT = frozenset("not no dont doesnt didnt isnt arent wasnt wont cant never nao nunca jamas jamais nem ni".split())


def _person_free(text: str, lang: str) -> list[str]:
    """The stems of ``text``'s words that no change of person rewrites: the function words of
    its language and the first person's words left out, a word of "not" kept as one mark."""
    stem, left_out = _stemmer_and_words_left_out(lang)
    out = []
    for word in re.findall(r"\w+", vmem.lang.fold_accents(text.casefold()).replace("'", "").replace("’", "")):
        if word in _NOT:
            out.append("¬")
        elif word not in left_out:
            out.append(stem(word))
    return out


@functools.cache
def _stemmer_and_words_left_out(lang: str) -> tuple[Callable[[str], str], frozenset[str]]:
    """``lang``'s stemmer, and the words ``_person_free`` leaves out: its function words
    (folded), the first person's, and the user named in the third."""
    from whoosh.lang import stemmer_for_language

    function_words = {vmem.lang.fold_accents(w) for w in vmem.lang.pack(lang).function_words}
    return stemmer_for_language(lang), frozenset(
        function_words | _FIRST_PERSON | {"user", "users", "usuario", "usuaria"}
    )


def _same_stem(said: str, written: str) -> bool:
    """One word in two persons: the same stem, one stem the other's with its ending ("salg",
    "sal": "salgo", "sale"), or one word less the vowel of its person that a stemmer left on
    it ("entro", "entra")."""
    return (
        said == written
        or (min(len(said), len(written)) >= 3 and (said.startswith(written) or written.startswith(said)))
        or (min(len(said), len(written)) >= 4 and said[:-1] == written[:-1] and said[-1] + written[-1] in _PERSONS)
    )


#: the last vowels of a verb's first person and its third, once a stemmer left them on
_PERSONS = frozenset({"oa", "oe", "ao", "eo"})


def kept_in(value: str, written: str, lang: str) -> bool:
    """Whether a request's ``keep`` value is in what was written of it: as it was said, or in
    the third person the fact is written in ("dont eat eggs" in "The user does not eat eggs",
    "no tomo alcohol" in "El usuario no toma alcohol"): its words in their order, a few words
    apart at most, "not" where it was said. A helper wrote the values from the prompts, some
    in the first person, and the rewrite that keeps them whole must not count as losing them."""
    if value.casefold() in written.casefold():
        return True
    said, words = _person_free(value, lang), _person_free(written, lang)
    if not [w for w in said if w != "¬"]:
        return False
    for start, word in enumerate(words):
        if not _same_stem(said[0], word):
            continue
        found, at = 1, start + 1
        while found < len(said) and at < len(words) and at - start <= 2 * len(said) + 2:
            found += _same_stem(said[found], words[at])
            at += 1
        if found == len(said):
            return True
    return False


def _requests(suffix: str, split: str, show: bool, judge: Judge | None) -> dict:
    """Explicit requests kept whole, those not kept named with a reason, and coding
    instructions written as facts, on ``explicit{suffix}`` and ``coding{suffix}``. A request
    is kept whole when every ``keep`` value is written, in the person the fact is written in
    (``kept_in``); ``explicit_kept_verbatim`` counts the values found as they were said."""
    out: dict = {}
    kept: dict = collections.defaultdict(lambda: [0, 0])
    verbatim: dict = collections.defaultdict(lambda: [0, 0])
    declined: dict = collections.defaultdict(lambda: [0, 0])
    for case in cases(f"explicit{suffix}", split):
        signals, refused = read_requests(case["prompt"], judge=judge)
        written = " ".join(s.text for s in signals)
        whole = all(kept_in(k, written, case["lang"]) for k in case["keep"])
        verbatim[case["lang"]][0] += all(k.casefold() in written.casefold() for k in case["keep"])
        verbatim[case["lang"]][1] += 1
        kept[case["lang"]][0] += whole
        kept[case["lang"]][1] += 1
        if not whole:
            declined[case["lang"]][0] += bool(refused)
            declined[case["lang"]][1] += 1
            if show:
                print(f"NOT KEPT [{case['id']}] {case['prompt']!r} -> {[s.text for s in signals]} {refused}")
    coding: dict = collections.defaultdict(lambda: [0, 0])
    for case in cases(f"coding{suffix}", split):
        signals, _ = read_requests(case["prompt"], judge=judge)
        coding[case["lang"]][0] += bool(signals)
        coding[case["lang"]][1] += 1
        if show and signals:
            print(f"WRITTEN [{case['id']}] {case['prompt']!r} -> {[s.text for s in signals]}")
    for name, table in (
        ("explicit_kept", kept),
        ("explicit_kept_verbatim", verbatim),
        ("explicit_declined_out_loud", declined),
        ("coding_written", coding),
    ):
        out[name + suffix] = by_language(table)
    return out


def _coding_only(name: str, split: str, show: bool, judge: Judge | None) -> dict:
    """Instructions for the task at hand written as facts, on a set of instructions alone
    (``coding_hard13``: written hard, "my branch", a reviewer's name, a fact of the code)."""
    if not (DATA / f"{name}.json").exists():
        return {}
    written: dict = collections.defaultdict(lambda: [0, 0])
    for case in cases(name, split):
        signals, _ = read_requests(case["prompt"], judge=judge)
        written[case["lang"]][0] += bool(signals)
        written[case["lang"]][1] += 1
        if show and signals and case.get("split") == "tune":
            print(f"WRITTEN [{case['id']}] {case['prompt']!r} -> {[s.text for s in signals]}")
    out = by_language(written)
    return {f"{name}_written": out}


#: the sets of two facts both true: the second about another thing, and the second about
#: another thing in words of change ("I started taking vitamin D" after a penicillin allergy)
BOTH_TRUE_SETS = ("both_true", "both_true_changing", "both_true_told")
#: the sets of a fact and the one that replaces it: in words of change, and told as an event
#: ("Dr. Lee retired and her practice handed me over to Dr. Okafor")
CHANGE_SETS = ("changes", "changes_told")
#: the words a block marks a fact with when a newer one may replace it
MARKS = (
    "may be outdated",
    "desactualizado",
    "desatualizado",
    "newer related",
    "relacionado más nuevo",
    "relacionada mais nova",
)


def _line_with(block: str, value: str) -> str | None:
    value = value.casefold()
    return next((line for line in block.splitlines() if line.startswith("- ") and value in line.casefold()), None)


def _wrong_marks(hits, pairs: set[tuple[str, str]]) -> int:
    """How many facts of a block are marked as changed by a fact that did not change them
    (the changes vault holds many pairs: a mark that joins two of them is wrong)."""
    text = {h.memory.id: h.memory.text.strip() for h in hits}
    return sum(1 for h in hits if h.outdated_by and (h.memory.text.strip(), text.get(h.outdated_by, "")) not in pairs)


def _vault(root: Path, facts: list[tuple[str, dt.datetime]]):
    """A vault holding the facts as files, the way a user's own notes hold them: a fact that
    names a secret ("the wifi's code is …") is written too, since recall reads what the files
    say whoever wrote them (the refusal of secrets is measured by the ``secrets_*`` rows)."""
    from vault_memory.vault.template import create_vault

    vault = create_vault(root, with_examples=False)
    mem = vmem.open(vault, use_daemon=False)
    for text, when in facts:
        mem.remember(text, now=when, force_new=True, allow_secret=True)
    return mem


def measure_recall(split: str, show: bool = False) -> dict:
    import tempfile

    now = dt.datetime.now().astimezone()
    before, after = now - dt.timedelta(days=10), now - dt.timedelta(days=3)
    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        changes: dict = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
        both: dict = collections.defaultdict(collections.Counter)
        found: dict = collections.defaultdict(collections.Counter)
        quiet: dict = collections.defaultdict(collections.Counter)
        kinds: dict = collections.defaultdict(collections.Counter)
        said_again: dict = collections.defaultdict(collections.Counter)
        for lang in LANGS:
            for name in CHANGE_SETS:
                if not (DATA / f"{name}.json").exists():
                    continue
                rows = [c for c in cases(name, split) if c["lang"] == lang]
                facts = [(c["old"], before) for c in rows] + [(c["new"], after) for c in rows]
                pairs = {(c["old"], c["new"]) for c in rows}
                with _vault(root / f"{name}-{lang}", facts) as mem:
                    for c in rows:
                        result = mem.recall(c["question"])
                        block = result.block
                        changes[name][lang]["wrong_marks"] += _wrong_marks(result.hits, pairs)
                        new, old = _line_with(block, c["new_value"]), _line_with(block, c["old_value"])
                        counts = changes[name][lang]
                        counts["n"] += 1
                        counts["new_shown"] += new is not None
                        counts["old_left_out"] += new is not None and old is None
                        unmarked = old is not None and old != new and not any(m in old for m in MARKS)
                        counts["old_unmarked"] += unmarked
                        if show and (unmarked or new is None):
                            print(f"CHANGE [{c['id']}] {c['question']!r}\n{block}\n")
            for name in BOTH_TRUE_SETS:
                if not (DATA / f"{name}.json").exists():
                    continue
                rows = [c for c in cases(name, split) if c["lang"] == lang]
                facts = [(c["a"], before) for c in rows] + [(c["b"], after) for c in rows]
                with _vault(root / f"{name}-{lang}", facts) as mem:
                    for c in rows:
                        block = mem.recall(c["question"]).block
                        lines = [_line_with(block, c["a"][:40]), _line_with(block, c["b"][:40])]
                        marked = any(line and any(m in line for m in MARKS) for line in lines)
                        shown = _line_with(block, c["answer"]) is not None
                        both[name][f"{lang} n"] += 1
                        both[name][f"{lang} answer_shown"] += shown
                        both[name][f"{lang} marked"] += marked
                        if show and (marked or not shown):
                            print(f"BOTH [{c['id']}] {c['question']!r}\n{block}\n")
            rows = [c for c in cases("said_again", split) if c["lang"] == lang]
            facts = [(c["older"], before) for c in rows] + [(c["newer"], after) for c in rows]
            with _vault(root / f"said-again-{lang}", facts) as mem:
                for c in rows:
                    line = _line_with(mem.recall(c["older"]).block, c["older"][:35])
                    marked = line is None or any(m in line for m in MARKS)
                    said_again[lang][f"{c['label']} n"] += 1
                    said_again[lang][f"{c['label']} marked"] += marked
                    if show and marked != (c["label"] == "change"):
                        print(
                            f"SAID AGAIN [{c['id']}] {c['older']!r} -> {c['newer']!r}: {'marked' if marked else 'unmarked'}"
                        )
            rows = [c for c in cases("relevance", split) if c["lang"] == lang]
            with _vault(root / f"relevance-{lang}", [(c["fact"], before) for c in rows]) as mem:
                for c in rows:
                    block = mem.recall(c["question"]).block
                    shown = _line_with(block, c["fact"][:40]) is not None
                    found[lang]["n"] += 1
                    found[lang]["shown"] += shown
                    if show and not shown:
                        print(f"NOT FOUND [{c['id']}] {c['fact']!r} for {c['question']!r}")
            rows = [c for c in cases("kinds", split) if c["lang"] == lang]
            facts = [(f, before) for c in rows for f in [*([c["answer"]] if c["answer"] else []), *c["distractors"]]]
            with _vault(root / f"kinds-{lang}", list(dict.fromkeys(facts))) as mem:
                for c in rows:
                    hits = [h for h in mem.recall(c["question"]).hits if not h.pinned_only]
                    if c["answer"]:
                        shown = any(h.memory.text.strip() == c["answer"] for h in hits)
                        kinds[lang]["answers"] += 1
                        kinds[lang]["answer_shown"] += shown
                        if show and not shown:
                            print(f"KIND NOT SHOWN [{c['id']}] {c['answer']!r} for {c['question']!r}")
                    else:
                        pulled = [h.memory.text for h in hits if "answers_kind" in h.explain]
                        kinds[lang]["none"] += 1
                        kinds[lang]["none_pulled"] += bool(pulled)
                        if show and pulled:
                            print(f"KIND PULLED [{c['id']}] {c['question']!r}: {pulled}")
        cross: dict = collections.defaultdict(collections.Counter)
        data = json.loads((DATA / "relevance_cross.json").read_text(encoding="utf-8"))
        with _vault(root / "relevance-cross", [(c["fact"], before) for c in data["cases"]]) as mem:
            for c in data["cases"]:
                if split != "all" and c["split"] != split:
                    continue
                shown = _line_with(mem.recall(c["question"]).block, c["fact"][:40]) is not None
                cross[f"{c['fact_lang']}>{c['q_lang']}"]["n"] += 1
                cross[f"{c['fact_lang']}>{c['q_lang']}"]["shown"] += shown
                if show and not shown:
                    print(f"NOT FOUND ACROSS [{c['id']}] {c['fact']!r} for {c['question']!r}")
            for c in data["unanswerable"]:
                if split != "all" and c["split"] != split:
                    continue
                hits = [h for h in mem.recall(c["question"]).hits if not h.pinned_only]
                cross["unanswerable"]["n"] += 1
                cross["unanswerable"]["quiet"] += not hits
                cross["unanswerable"]["lines"] += len(hits)
        data = json.loads((DATA / "unanswerable.json").read_text(encoding="utf-8"))
        with _vault(root / "unanswerable", [(f["text"], before) for f in data["vault"]]) as mem:
            for c in data["cases"]:
                if split != "all" and c["split"] != split:
                    continue
                shown = [h for h in mem.recall(c["question"]).hits if not h.pinned_only]
                quiet[c["lang"]]["n"] += 1
                quiet[c["lang"]]["quiet"] += not shown
                quiet[c["lang"]]["lines"] += len(shown)  # what the agent reads past
                if show and shown:
                    print(f"NOT QUIET [{c['id']}] {c['question']!r}: {[h.memory.text for h in shown]}")
    out.update({name: {lang: dict(c) for lang, c in by_lang.items()} for name, by_lang in changes.items()})
    out.update({name: {"all": dict(c)} for name, c in both.items()})
    out["said_again"] = {lang: dict(c) for lang, c in said_again.items()}
    out["relevance"] = {lang: dict(c) for lang, c in found.items()}
    out["unanswerable"] = {lang: dict(c) for lang, c in quiet.items()}
    out["relevance_cross"] = {name: dict(c) for name, c in sorted(cross.items())}
    out["kinds"] = {lang: dict(c) for lang, c in kinds.items()}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", default="held", choices=("held", "tune", "all"))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--show", action="store_true", help="print each case the reading gets wrong")
    parser.add_argument("--recall", action="store_true", help="also measure recall on real vaults (a minute or two)")
    parser.add_argument("--rules-only", action="store_true", help="read requests without the request judge")
    args = parser.parse_args()
    result = measure(args.split, args.show, args.rules_only)
    if args.recall:
        result["recall"] = measure_recall(args.split, args.show)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"split: {args.split}")
    for lang, c in result["language"].items():
        print(
            f"language {lang}: {c.get('right', 0)}/{c['n']} right, {c.get('unsure', 0)} unsure, {c.get('wrong', 0)} wrong"
        )
    for name in [
        k
        for k in result
        if k.startswith(
            (
                "explicit_",
                "coding_",
                "secrets_",
                "kind_",
                "courtesy_",
                "beside_",
                "secret_written",
                "joined_",
                "possessive",
                "follow_on",
                "conjunct_",
                "mind_when_",
                "reasons_",
                "list_",
                "work_",
                "vocative_",
            )
        )
    ]:
        print(name + ": " + ", ".join(f"{k} {v['hits']}/{v['n']}" for k, v in result[name].items()))
    print(
        "remembering: "
        + "; ".join(
            f"{lang} statements not written {c['statements_right']}/{c['statements']}, "
            f"requests kept {c['requests_right']}/{c['requests']}"
            for lang, c in result["remembering"].items()
        )
    )
    for name, table in result.get("recall", {}).items():
        print(
            name
            + ": "
            + "; ".join(f"{lang} " + ", ".join(f"{k} {v}" for k, v in c.items()) for lang, c in table.items())
        )


if __name__ == "__main__":
    main()
