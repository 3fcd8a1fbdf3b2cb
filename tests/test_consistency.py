"""One current truth per subject: free-text facts that change supersede the old value on
every write path, what can both be true stays, what vmem cannot settle is shown as a
possible conflict (issue: one current truth)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from conftest import NOW, Cli, tree_digest, write

import vault_memory as vmem
from vault_memory.backend.protocol import result_from_wire, result_to_wire
from vault_memory.conversation import ingest
from vault_memory.conversation.signals import explicit_signals
from vault_memory.lifecycle import RIVALS
from vault_memory.vault.slots import judge, slot_of

DAY = dt.timedelta(days=1)

CHANGES = [
    ("The user lives in Leeds", "The user moved to Bristol last month"),
    ("partner: Robin", "The user's partner is Kim"),
    ("The user likes jazz", "The user does not like jazz anymore"),
    ("El usuario vive en Madrid", "El usuario se mudó a Sevilla"),
    ("El usuario fuma", "El usuario dejó de fumar"),
    ("trabajo: Acme", "The user works at Globex"),
    ("The user works at Siemens", "El usuario trabaja en Bosch"),
    ("The user is vegetarian", "The user eats meat again"),
    ("The user is 34 years old", "The user turned 35"),
    ("The user has two cats", "The user has three cats"),
    ("The user uses Vim", "The user switched from Vim to Neovim"),
    ("The user's phone is a Pixel 8", "My phone is an iPhone 15"),
    ("The user drinks coffee every morning", "The user no longer drinks coffee"),
    ("Al usuario le gusta el jazz", "Al usuario ya no le gusta el jazz"),
    ("The user's boss is Priya", "The user's boss is Mark"),
]

BOTH_TRUE = [
    ("The user has a dog named Max", "The user has a cat named Luna"),
    ("The user's sister lives in Lima", "The user's brother lives in Quito"),
    ("The user speaks Spanish", "The user speaks French"),
    ("The user is allergic to peanuts", "The user is allergic to shellfish"),
    ("The user is working on a compiler project", "The user is working on a garden app"),
    ("The user worked at Google from 2015 to 2018", "The user works at Meta"),
    ("El usuario trabajó en Accenture entre 2010 y 2014", "El usuario trabaja en Globant"),
    ("The user went to the dentist on Monday", "The user went to a concert on Friday"),
    ("The user works at Siemens", "The user works as an engineer"),
    ("The user lives in Leeds", "The user's sister lives in Bristol"),
    ("The user's son is called Leo", "The user's daughter is called Ana"),
    ("City: Porto is where my sister lives", "city: Madrid"),
]


@pytest.mark.parametrize("old,new", CHANGES)
def test_a_changed_fact_supersedes_the_old_one_whatever_its_words(mech_vault, old, new):
    mem = vmem.open(mech_vault)
    before = mem.remember(old, now=NOW)
    old_file = (mech_vault / before.memory.file).read_bytes()
    after = mem.remember(new, now=NOW + DAY)
    assert after.status == "superseded", after.to_dict()
    assert [m.id for m in after.previous] == [before.memory.id]
    assert after.replaced_by  # the subject (or the key) that made it a replacement
    assert (mech_vault / before.memory.file).read_bytes() == old_file  # the old file is untouched
    assert mem.list().states[before.memory.id] == "superseded"
    assert [m.id for m in mem.history(after.memory.id)] == [before.memory.id, after.memory.id]


@pytest.mark.parametrize("first,second", BOTH_TRUE)
def test_facts_that_can_both_be_true_are_both_kept(mech_vault, first, second):
    mem = vmem.open(mech_vault)
    a = mem.remember(first, now=NOW)
    b = mem.remember(second, now=NOW + DAY)
    assert b.status == "created" and not b.previous, b.to_dict()
    states = mem.list().states
    assert states[a.memory.id] != "superseded" and states[b.memory.id] != "superseded"
    assert not b.conflicts and mem.conflicts() == []


def test_a_fact_that_says_more_than_its_subject_is_kept_and_marked_not_replaced(mech_vault):
    """A new city must not take the job with it: the old fact stays, as a possible conflict."""
    mem = vmem.open(mech_vault)
    both = mem.remember("The user lives in Leeds and works at Siemens", now=NOW).memory
    moved = mem.remember("The user moved to Bristol", now=NOW + DAY)
    assert moved.status == "created" and [m.id for m in moved.conflicts] == [both.id]
    assert mem.list().states[both.id] != "superseded"
    assert [(c.newer.id, c.older.id) for c in mem.conflicts()] == [(moved.memory.id, both.id)]


def test_ten_favourite_trips_leave_one_current(mech_vault):
    mem = vmem.open(mech_vault)
    places = ["Porto", "Lisbon", "Seville", "Bordeaux", "Bruges", "Ghent", "Lyon", "Turin", "Bologna", "Split"]
    for n, place in enumerate(places):
        mem.remember(f"The user's favourite weekend trip is to {place}", now=NOW + n * DAY)
    listing = mem.list()
    current = [m.text for m in listing if listing.states[m.id] != "superseded"]
    assert current == ["The user's favourite weekend trip is to Split"]


def test_a_fact_said_in_a_conversation_supersedes_a_typed_one_and_key_drift_is_one_subject(mech_vault):
    """Ingest writes "employer"/"empleador" for "I work at…", "trabajo" for "I work as…";
    all of them, and a typed `trabajo: Acme`, are one subject: the newest is current."""
    mem = vmem.open(mech_vault)
    mem.remember("trabajo: Acme", now=NOW)
    ingest(mem, "User: I work at Siemens\nAssistant: Noted.\n", format="text", session="s1", llm=None, now=NOW + DAY)
    ingest(mem, "User: Trabajo en Bosch\nAssistant: Ok.\n", format="text", session="s2", llm=None, now=NOW + 2 * DAY)
    listing = mem.list()
    current = [m for m in listing if listing.states[m.id] != "superseded"]
    assert [m.text for m in current] == ["El usuario trabaja en Bosch"]
    assert len(listing) == 3  # nothing deleted: history keeps the old ones


def test_two_values_in_one_conversation_leave_the_later_one(mech_vault):
    mem = vmem.open(mech_vault)
    said = "User: I live in Leeds\nAssistant: Nice.\nUser: Remember that I moved to Bristol\nAssistant: Noted.\n"
    ingest(mem, said, format="text", session="s1", llm=None, now=NOW)
    listing = mem.list()
    assert [m.text for m in listing if listing.states[m.id] != "superseded"] == ["The user moved to Bristol"]


def test_an_inferred_fact_never_supersedes_what_the_user_said(mech_vault):
    mem = vmem.open(mech_vault)
    stated = mem.remember("The user lives in Leeds", now=NOW)
    from vault_memory.writing.rules import Remembering

    [outcome] = mem.remember_many(
        [Remembering("The user moved to Bristol", fields={"source": "inferred", "confidence": "medium"})],
        now=NOW + DAY,
    )
    assert outcome.status == "declined" and outcome.memory.id == stated.memory.id
    assert mem.list().states[stated.memory.id] != "superseded"


def test_an_unsure_change_is_a_visible_conflict_newer_first_older_marked(empty_vault_dir):
    """Two sisters' names may be two sisters: both stay; the block shows the newer first
    and marks the older, --json and the daemon's wire carry the pair, `vmem conflicts`
    lists it with the commands that settle it and exits 1."""
    mem = vmem.open(empty_vault_dir, use_daemon=False)
    ana = mem.remember("The user's sister is called Ana", now=NOW).memory
    marta = mem.remember("The user's sister is called Marta", now=NOW + DAY)
    assert marta.status == "created" and [m.id for m in marta.conflicts] == [ana.id]
    assert "vmem conflicts" in marta.warnings[0]
    result = mem.recall("what is the user's sister called?", as_of=NOW + 2 * DAY)
    lines = [line for line in result.block.splitlines() if "sister" in line]
    assert lines == [
        "- The user's sister is called Marta (2026-11-24, high)",
        "- The user's sister is called Ana (2026-11-23, high, older — may be outdated)",
    ]
    by_id = {r["id"]: r for r in result.to_dict()["results"]}
    assert by_id[ana.id]["conflict"] == {"outdated_by": marta.memory.id, "conflicts_with": []}
    assert by_id[marta.memory.id]["conflict"] == {"outdated_by": None, "conflicts_with": [ana.id]}
    wired = result_from_wire(result_to_wire(result), result.query, 1.0)  # what a daemon's client renders
    assert wired.block == result.block
    cli = Cli(empty_vault_dir)
    listed = cli("conflicts")
    assert listed.exit_code == 1 and f"vmem forget {ana.id}" in listed.stdout
    assert f"vmem conflicts --both-true {marta.memory.id} {ana.id}" in listed.stdout
    assert json.loads(cli("conflicts", "--json").stdout)[0]["older"] == ana.id


def test_a_fact_that_drops_a_negation_is_new_and_contradicts_the_old_one(empty_vault_dir):
    """Before, "I can drive at night" after "I can't drive at night" was taken for the old fact
    (no word of its own, 0.88 alike): "Already known", and the old fact was reconfirmed.
    Now it replaces it, as "I like coffee" replaces "I don't like coffee". "We deploy on
    Fridays" after "We don't deploy on Fridays" is about no slot vmem reads: both stay, and
    recall and `vmem conflicts` say they contradict each other, in English and Spanish."""
    mem = vmem.open(empty_vault_dir, use_daemon=False)
    cannot = mem.remember("I can't drive at night", now=NOW).memory
    can = mem.remember("I can drive at night", now=NOW + DAY)
    assert can.status == "superseded" and [m.id for m in can.previous] == [cannot.id]
    never = mem.remember("We don't deploy on Fridays", now=NOW).memory
    deploy = mem.remember("We deploy on Fridays", now=NOW + DAY)
    assert deploy.status == "created"
    no = mem.remember("No manejo de noche", now=NOW).memory
    si = mem.remember("Manejo de noche", now=NOW + DAY).memory
    block = mem.recall("do we deploy on Fridays?", as_of=NOW + 2 * DAY, include_pinned=False).block
    lines = [line for line in block.splitlines() if "deploy" in line]
    assert lines == [
        "- We deploy on Fridays (2026-11-24, high)",
        "- We don't deploy on Fridays (2026-11-23, high, older — may be outdated)",
    ]
    pairs = {(c.newer.id, c.older.id) for c in mem.conflicts()}
    assert pairs == {(deploy.memory.id, never.id), (si.id, no.id)}
    # said again: the older fact is now the newer of the two (it was marked outdated by "We deploy")
    assert mem.remember("We do not deploy on Fridays", now=NOW + 2 * DAY).status == "reconfirmed"
    result = mem.recall("do we deploy on Fridays?", as_of=NOW + 3 * DAY, include_pinned=False)
    assert result_from_wire(result_to_wire(result), result.query, 1.0).block == result.block  # as a daemon's client
    assert [line for line in result.block.splitlines() if "deploy" in line] == [
        "- We don't deploy on Fridays (2026-11-23, high, confirmed 2026-11-25)",  # said again, so the newer
        "- We deploy on Fridays (2026-11-24, high, older — may be outdated)",
    ]
    assert (never.id, deploy.memory.id) in {(c.newer.id, c.older.id) for c in mem.conflicts()}
    mem.close()


def test_a_subject_said_hundreds_of_times_is_one_conflict_shown_once(empty_vault_dir):
    """An import run again and again: 2,000 files saying "We deploy on Fridays" or "We
    don't deploy on Fridays" were a million conflicts (`vmem conflicts` took 19 s, each
    recall 5 s more) and the block showed copies of one line, brought back as rivals.
    Copies of one text are one rival, and a subject's newest ``RIVALS`` texts are weighed."""
    for i in range(300):
        text = "We deploy on Fridays" if i % 2 else "We don't deploy on Fridays"
        when = (NOW - (300 - i) * dt.timedelta(minutes=1)).isoformat()
        write(
            empty_vault_dir / "facts" / f"f{i:03d}.md", f"---\nid: f{i:03d}\ntype: fact\ncreated: {when}\n---\n{text}\n"
        )
    for i in range(100):  # a hundred other cities: more texts of one subject than are weighed
        write(
            empty_vault_dir / "facts" / f"c{i:03d}.md",
            f"---\nid: c{i:03d}\ntype: fact\n---\nThe user lives in Town{i}\n",
        )
    mem = vmem.open(empty_vault_dir, use_daemon=False)
    conflicts = mem.conflicts()
    deploys = [c for c in conflicts if c.subject.startswith("said: ")]
    assert [(c.newer.id, c.older.id) for c in deploys] == [("f299", "f298")]
    assert len([c for c in conflicts if c.subject == "residence"]) <= RIVALS * (RIVALS - 1) // 2
    block = mem.recall("do we deploy on Fridays?", as_of=NOW, include_pinned=False).block
    assert [line for line in block.splitlines() if "deploy" in line] == [
        "- We deploy on Fridays (2026-11-23, medium)",  # said last by f299, whichever copy is shown
        "- We don't deploy on Fridays (2026-11-23, medium, older — may be outdated)",
    ]
    mem.close()


def test_a_recalled_older_fact_brings_its_newer_rival_along(empty_vault_dir):
    mem = vmem.open(empty_vault_dir, use_daemon=False)
    mem.remember("The user's dog is called Rex", now=NOW)
    mem.remember("The user's dog is called Bolt", now=NOW + DAY)
    block = mem.recall("Rex", as_of=NOW + 2 * DAY).block
    assert block.index("Bolt") < block.index("Rex") and "older — may be outdated" in block


def test_both_true_settles_a_conflict_in_the_newer_file_only(empty_vault_dir):
    mem = vmem.open(empty_vault_dir, use_daemon=False)
    ana = mem.remember("The user's sister is called Ana", now=NOW).memory
    marta = mem.remember("The user's sister is called Marta", now=NOW + DAY).memory
    ana_bytes = (empty_vault_dir / ana.file).read_bytes()
    cli = Cli(empty_vault_dir)
    settled = cli("conflicts", "--both-true", marta.id, ana.id)
    assert settled.exit_code == 0, settled.output
    assert (empty_vault_dir / ana.file).read_bytes() == ana_bytes
    assert f"compatible_with:\n- {ana.id}\n" in (empty_vault_dir / marta.file).read_text()
    assert cli("conflicts").exit_code == 0 and mem.conflicts() == []
    assert "may be outdated" not in mem.recall("what is the user's sister called?", as_of=NOW + 2 * DAY).block
    assert cli("conflicts", "--both-true", marta.id).exit_code == 2  # a pair takes two ids


def test_a_question_that_matches_the_old_value_finds_its_replacement(empty_vault_dir):
    """ "¿dónde vive el usuario?" shares "vive" with the superseded fact only: the
    replacement answers it and is recalled in its place."""
    mem = vmem.open(empty_vault_dir, use_daemon=False)
    old = mem.remember("El usuario vive en Madrid", now=NOW).memory
    new = mem.remember("El usuario se mudó a Sevilla", now=NOW + DAY).memory
    hits = mem.recall("¿dónde vive el usuario?", as_of=NOW + 2 * DAY).hits
    assert [h.memory.id for h in hits] == [new.id]
    assert hits[0].explain["carried_from"] == old.id


def test_a_catalog_of_the_older_schema_gets_slot_tags_when_migrated(mech_vault):
    """A vault indexed before slots existed: the first write migrates the catalog, fills
    every fact's tags, and the new fact finds the old one."""
    import sqlite3

    from vault_memory.config import StateLayout
    from vault_memory.index.generations import IndexLayout

    mem = vmem.open(mech_vault, use_daemon=False)
    old = mem.remember("The user lives in Leeds", now=NOW).memory
    catalog = IndexLayout(StateLayout.of(mech_vault)).current().catalog_path
    with sqlite3.connect(catalog) as db:
        db.executescript("DROP TABLE slots; PRAGMA user_version = 4;")
    new = vmem.open(mech_vault, use_daemon=False).remember("The user moved to Bristol", now=NOW + DAY)
    assert new.status == "superseded" and [m.id for m in new.previous] == [old.id]


def test_a_catalog_of_the_older_schema_gets_stances_when_migrated(mech_vault):
    """A vault indexed before facts no slot reads were tagged by what they say: the next
    write migrates the catalog, and the new fact's contradiction is listed."""
    import sqlite3

    from vault_memory.config import StateLayout
    from vault_memory.index.catalog import schema_with
    from vault_memory.index.generations import IndexLayout

    mem = vmem.open(mech_vault, use_daemon=False)
    old = mem.remember("The staging cluster is not public", now=NOW).memory
    catalog = IndexLayout(StateLayout.of(mech_vault)).current().catalog_path
    with sqlite3.connect(catalog) as db:
        db.executescript(
            f"DELETE FROM slots WHERE tag LIKE 's:said:%'; PRAGMA user_version = {schema_with('stances') - 1};"
        )
    mem = vmem.open(mech_vault, use_daemon=False)
    new = mem.remember("The staging cluster is public", now=NOW + DAY).memory
    assert [(c.newer.id, c.older.id) for c in mem.conflicts()] == [(new.id, old.id)]
    mem.close()


@pytest.mark.parametrize(
    "said,written",
    [
        ("Recordá que ya no soy vegetariana", "La usuaria ya no es vegetariana"),
        ("Recordá que me mudé a Quito", "El usuario se mudó a Quito"),
        ("Recuerda que ya no trabajo los sábados", "El usuario ya no trabaja los sábados"),
        ("Recordá que dejé de fumar", "El usuario dejó de fumar"),
        ("Remember that I no longer drink coffee", "The user no longer drinks coffee"),
    ],
)
def test_facts_are_written_in_the_third_person_in_correct_word_order(said, written):
    [signal] = explicit_signals(said)
    assert signal.text == written


@pytest.mark.parametrize(
    "new,old,verdict",
    [
        ("The user moved to Bristol", "The user lives in Leeds", "supersede"),
        ("The user no longer lives in Leeds", "The user lives in Bristol", "compatible"),
        ("The user's sister is called Marta", "The user's sister is called Ana", "conflict"),
        ("The user speaks French", "The user speaks Spanish", "compatible"),
        ("The user doesn't speak French anymore", "The user speaks French", "supersede"),
        ("The user likes jazz again", "The user does not like jazz", "supersede"),
        ("I live in Leeds", "The user lives in Leeds", "same"),
        ("The user runs 10 km every morning", "The user runs 5 km every morning", "supersede"),
    ],
)
def test_what_a_newer_fact_does_to_an_older_one(new, old, verdict):
    a, b = slot_of(new), slot_of(old)
    assert a is not None and b is not None
    assert judge(a, b) == verdict


# ---------------------------------------------------------------------- relevance that means something

PERSONAL = [
    "The user's dog is called Rex",
    "The user's dentist is Dr. Ruiz",
    "The user's favourite colour is green",
    "The user is allergic to peanuts",
    "The user lives in Leeds",
]


def _personal_vault(folder) -> vmem.VaultMemory:
    mem = vmem.open(folder, use_daemon=False)
    for n, fact in enumerate(PERSONAL):
        mem.remember(fact, now=NOW + n * dt.timedelta(minutes=1))
    return mem


def test_a_question_nothing_answers_shows_nothing(empty_vault_dir):
    """The best of several unrelated facts is not shown because it ranks first."""
    mem = _personal_vault(empty_vault_dir)
    for question in ("what is my brother's name?", "which bank do I use?", "how tall am I?"):
        assert mem.recall(question).block == "", question


def test_the_answer_is_found_however_the_question_is_padded(empty_vault_dir):
    mem = _personal_vault(empty_vault_dir)
    for question in (
        "what should I avoid eating?",
        "what should I avoid eating at the party?",
        "any food I can't have at the restaurant tonight?",
    ):
        assert "allergic to peanuts" in mem.recall(question).block, question
    assert "Rex" in mem.recall("hey, quick one before the vet: what's my dog called again?").block


@pytest.mark.parametrize("question", ["what do you know about me?", "¿qué sabés de mí?", "tell me about myself"])
def test_a_question_about_the_user_returns_the_profile(empty_vault_dir, question):
    mem = vmem.open(empty_vault_dir, use_daemon=False)
    for fact in ("The user lives in Leeds", "nombre: Lucas", "The user works at Siemens"):
        mem.remember(fact)
    block = mem.recall(question).block
    assert all(word in block for word in ("Leeds", "Lucas", "Siemens")), block


def test_stats_shows_a_typical_block_on_a_small_vault(empty_vault_dir):
    mem = vmem.open(empty_vault_dir, use_daemon=False)
    for fact in ("The user lives in Leeds", "The user works at Siemens", "The user's partner is Kim"):
        mem.remember(fact)
    assert mem.stats()["typical_block"]["memories"] == 3


# ---------------------------------------------------------------------- personas (seed 002)


def test_what_the_user_says_of_themself_to_a_persona_is_theirs_for_every_persona(mech_vault):
    mem = vmem.open(mech_vault)
    said = (
        "User: Remember that I have a dog named Max\nAssistant: Lovely!\n"
        "User: Remember that you promised to call me on Sunday\nAssistant: I will.\n"
        "User: From now on call me cariño\nAssistant: Ok.\n"
    )
    ingest(mem, said, format="text", session="s1", persona="marta", llm=None, now=NOW)
    personas = {m.text: m.persona for m in mem.list()}
    assert personas == {
        "The user has a dog named Max": None,
        "You promised to call the user on Sunday": "marta",
        "From now on, the user wants the assistant to call the user cariño": "marta",
    }


# ---------------------------------------------------------------------- renames and copies


def test_a_corrected_file_with_no_id_stays_replaced_after_a_rename(mech_vault):
    """Its derived id changes with its name: the correction names it by file stem and by
    what it says, so the old value does not come back, and doctor and history agree."""
    (mech_vault / "facts" / "my-gym.md").write_text("---\ntype: fact\n---\nThe user's gym is FitOne\n")
    mem = vmem.open(mech_vault, use_daemon=False)
    old = mem.list().memories[0]
    assert old.id_derived
    new = mem.correct(old.id, "The user's gym is PureGym", now=NOW).memory
    assert new.supersedes == ["my-gym"] and new.extra["supersedes_digest"]
    (mech_vault / "facts" / "my-gym.md").rename(mech_vault / "facts" / "gym-note.md")
    mem = vmem.open(mech_vault, use_daemon=False)
    listing = mem.list()
    renamed = next(m for m in listing if m.path.name == "gym-note.md")
    assert listing.states[renamed.id] == "superseded"
    assert [h.memory.id for h in mem.recall("which gym does the user go to?").hits] == [new.id]
    assert mem.doctor().ok
    assert [m.id for m in mem.history(new.id)] == [renamed.id, new.id]


def test_an_id_two_files_claim_is_refused_by_every_command_that_changes_one(mech_vault):
    """Obsidian's "Duplicate file" copies the id too: forget, correct and confirm would act
    on the copy recall does not use; they refuse and name both paths. Recall shows one,
    doctor and the pre-commit check report it."""
    text = "---\nid: bike-1\ntype: fact\n---\nThe user's bike is a Brompton\n"
    (mech_vault / "facts" / "bike.md").write_text(text)
    (mech_vault / "facts" / "bike 1.md").write_text(text)
    before = tree_digest(mech_vault)
    cli = Cli(mech_vault)
    for args in (["forget", "bike-1"], ["correct", "bike-1", "The user's bike is a Moulton"], ["confirm", "bike-1"]):
        refused = cli(*args)
        assert refused.exit_code != 0 and "facts/bike 1.md, facts/bike.md" in refused.stderr, args
    assert tree_digest(mech_vault) == before
    mem = vmem.open(mech_vault, use_daemon=False)
    assert [h.memory.id for h in mem.recall("bike").hits] == ["bike-1"]
    assert any(p.kind == "duplicate_id" for p in mem.doctor().problems)
    blobs = {"facts/bike.md": text.encode(), "facts/bike 1.md": text.encode()}
    assert any("duplicate id" in p.message for p in mem.check_files(blobs)[1])
    copy_staged = mem.check_files({"facts/bike 2.md": text.encode()})[1]  # the original is on disk, not staged
    assert [p.kind for p in copy_staged] == ["duplicate_id"] and "facts/bike" in copy_staged[0].message


# ---------------------------------------------------------------------------- the LLM judge


@pytest.fixture
def chat_server():
    from chat_server import ChatServer

    server = ChatServer()
    yield server
    server.close()


def _with_llm(monkeypatch, url: str) -> None:
    monkeypatch.setenv("VMEM_LLM_URL", url)
    monkeypatch.setenv("VMEM_LLM_TIMEOUT", "5")


@pytest.mark.parametrize(
    "answer,status,compatible",
    [("replaces", "superseded", []), ("both", "created", ["ana"]), ("unsure", "created", [])],
)
def test_a_configured_llm_settles_what_the_rules_cannot(
    mech_vault, chat_server, monkeypatch, answer, status, compatible
):
    """Two sisters' names: the rules keep both and mark them; the [llm] endpoint, asked over
    HTTP with both texts, settles it: a replacement, both true (recorded, never marked), or
    still unsure (marked, as without it)."""
    _with_llm(monkeypatch, chat_server.url)
    cli = Cli(mech_vault)
    ana = cli.json("remember", "The user's sister is called Ana")["id"]
    chat_server.reply = json.dumps({"1": answer})
    out = cli.json("remember", "The user's sister is called Marta")
    assert out["status"] == status and chat_server.requests
    asked = chat_server.requests[-1]["body"]["messages"][-1]["content"]
    assert "Marta" in asked and '1. "The user\'s sister is called Ana"' in asked
    mem = vmem.open(mech_vault, use_daemon=False)
    marta = mem.show(out["id"])
    assert marta.extra.get("compatible_with", []) == [ana for _ in compatible]
    assert bool(mem.conflicts()) == (answer == "unsure")


def test_an_llm_that_fails_leaves_the_pair_marked_and_says_so(mech_vault, chat_server, monkeypatch):
    _with_llm(monkeypatch, chat_server.url)
    chat_server.status = 500
    cli = Cli(mech_vault)
    cli.json("remember", "The user's sister is called Ana")
    out = cli("remember", "The user's sister is called Marta")
    assert out.exit_code == 0 and "could not judge" in out.stderr
    assert len(vmem.open(mech_vault, use_daemon=False).conflicts()) == 1


def test_doctor_and_stats_list_the_open_conflicts(mech_vault):
    mem = vmem.open(mech_vault, use_daemon=False)
    ana = mem.remember("The user's sister is called Ana", now=NOW).memory
    marta = mem.remember("The user's sister is called Marta", now=NOW + DAY).memory
    checkup = mem.doctor()
    assert checkup.ok and [(c.newer.id, c.older.id) for c in checkup.conflicts] == [(marta.id, ana.id)]
    assert mem.stats()["conflicts"] == 1
    out = Cli(mech_vault)("doctor")
    assert out.exit_code == 0 and "may contradict" in out.stdout and "vmem conflicts" in out.stdout


def test_an_article_is_no_count_so_a_spanish_denial_finds_what_it_denies(mech_vault):
    """ "una" is an article, not "1": "La cabaña tiene una estufa a leña" and a later "La
    cabaña ya no tiene la estufa a leña" say one thing, the second denying it, so they are
    listed as contradicting each other (the count the article made kept them apart)."""
    mem = vmem.open(mech_vault, use_daemon=False)
    old = mem.remember("La cabaña tiene una estufa a leña", now=NOW).memory
    new = mem.remember("La cabaña ya no tiene la estufa a leña", now=NOW + DAY).memory
    assert [(c.newer.id, c.older.id) for c in mem.conflicts()] == [(new.id, old.id)]
    mem.close()


def test_a_pair_recall_marks_by_meaning_is_listed_and_settled_by_conflicts(empty_vault_dir):
    """A newer fact close in meaning that tells of a change marks the older "newer related
    memory above"; `vmem conflicts` listed no such pair, and `--both-true` on it left the
    mark in every recall: the user could neither see nor settle it."""
    mem = vmem.open(empty_vault_dir, use_daemon=False)
    older = mem.remember("My accountant is Lorna Price.", now=NOW).memory
    newer = mem.remember("Lorna Price hired a new assistant for her office.", now=NOW + DAY).memory
    question = "who is my accountant?"
    assert "newer related memory above" in mem.recall(question, as_of=NOW + 2 * DAY).block
    cli = Cli(empty_vault_dir)
    listed = cli("conflicts")
    assert listed.exit_code == 1 and newer.id in listed.output and older.id in listed.output, listed.output
    assert "newer related memory" in listed.output
    as_json = json.loads(cli("conflicts", "--json").output)
    assert [(c["newer"], c["older"], c["related"]) for c in as_json] == [(newer.id, older.id, True)]
    assert cli("conflicts", "--both-true", newer.id, older.id).exit_code == 0
    assert cli("conflicts").exit_code == 0 and mem.conflicts() == []
    block = mem.recall(question, as_of=NOW + 2 * DAY).block
    assert "Lorna Price" in block and "newer related" not in block, block


def test_conflicts_says_when_a_file_it_could_not_read_may_hide_a_pair(empty_vault_dir):
    """A newer fact whose file no longer parses leaves its pair out of `vmem conflicts`, which
    said "No open conflicts." and nothing else, where recall warns of the unread file."""
    mem = vmem.open(empty_vault_dir, use_daemon=False)
    mem.remember("The user's sister is called Ines", now=NOW)
    newer = mem.remember("The user's sister is called Greta", now=NOW + DAY).memory
    path = empty_vault_dir / newer.file
    path.write_text(path.read_text().replace("confidence:", "confidence: [", 1))
    listed = Cli(empty_vault_dir)("conflicts")
    assert "could not be read" in listed.output and "vmem doctor" in listed.output, listed.output


@pytest.mark.parametrize("written", ["7", "[[2026-01-01-a-b-c]]", "{one: 2026-01-01-a-b-c}", "null", "''"])
def test_doctor_names_a_settled_pair_it_cannot_read(empty_vault_dir, written):
    """A hand-edited `compatible_with` that is no id (a number, a nested list, a mapping,
    nothing) silently un-settled the pair while `vmem doctor` said all was good."""
    mem = vmem.open(empty_vault_dir, use_daemon=False)
    older = mem.remember("The user's sister is called Ines", now=NOW).memory
    newer = mem.remember("The user's sister is called Greta", now=NOW + DAY).memory
    cli = Cli(empty_vault_dir)
    assert cli("conflicts", "--both-true", newer.id, older.id).exit_code == 0
    assert cli("doctor").exit_code == 0
    path = empty_vault_dir / newer.file
    text = path.read_text()
    start = text.index("compatible_with:")
    end = text.index("\n", text.index(older.id, start))
    path.write_text(text[:start] + f"compatible_with: {written}" + text[end:])
    checked = cli("doctor")
    assert checked.exit_code == 1 and "compatible_with" in checked.output, checked.output


def test_both_true_named_the_other_way_round_is_recorded_in_the_newer_file(empty_vault_dir):
    """`--both-true OLDER NEWER` wrote the pair into the older file, where the help says the
    newer holds it (a hand-edit of the older later would carry it)."""
    mem = vmem.open(empty_vault_dir, use_daemon=False)
    older = mem.remember("The user's sister is called Ines", now=NOW).memory
    newer = mem.remember("The user's sister is called Greta", now=NOW + DAY).memory
    before = (empty_vault_dir / older.file).read_bytes()
    assert Cli(empty_vault_dir)("conflicts", "--both-true", older.id, newer.id).exit_code == 0
    assert (empty_vault_dir / older.file).read_bytes() == before
    assert f"compatible_with:\n- {older.id}\n" in (empty_vault_dir / newer.file).read_text()
    assert mem.conflicts() == []
