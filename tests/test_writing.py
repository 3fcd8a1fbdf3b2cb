"""The write rules (``writing.rules``): reconfirm, supersede, infer keys, correct, collect,
and several writers at once."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from conftest import NOW, Cli, write

import vault_memory as vmem
from vault_memory.errors import AmbiguousId, NotFound
from vault_memory.vault.keyvalue import split_key_value
from vault_memory.vault.vault import Vault


@pytest.mark.parametrize(
    "first,second",
    [
        ("Моя сестра живёт в Москве", "Я аллергик на орехи"),
        ("我的妹妹住在北京", "我对花生过敏"),
        ("Η αδελφή μου ζει στην Αθήνα", "Είμαι αλλεργικός στα φιστίκια"),
        ("Favourite language is C++", "Favourite language is C#"),
        ("Budget for the trip is €500", "Budget for the trip is $500"),
        ("🎉🎂", "🚀"),
    ],
)
def test_texts_with_different_letters_or_symbols_are_two_memories(mech_vault, first, second):
    mem = vmem.open(mech_vault)
    a, b = mem.remember(first), mem.remember(second)
    assert (a.status, b.status) == ("created", "created") and a.memory.id != b.memory.id
    assert len(mem.list()) == 2


def test_a_non_latin_file_name_still_says_something(mech_vault):
    memory = vmem.open(mech_vault).remember("Моя сестра живёт в Москве").memory
    assert "москве" in memory.id and memory.file.name.startswith(memory.id)


def test_remember_dash_reads_stdin_and_empty_text_is_refused(mech_vault):
    cli = Cli(mech_vault)
    out = cli("remember", "-", "--json", input="Prefers tea in the afternoon\n")
    assert out.exit_code == 0 and json.loads(out.stdout)["status"] == "created"
    assert cli("show", json.loads(out.stdout)["id"], "--json").exit_code == 0
    for text in ("", "   "):
        refused = cli("remember", text)
        assert refused.exit_code == 2 and "needs some text" in refused.stderr
    assert cli("remember", "-", input="").exit_code == 2
    assert len(vmem.open(mech_vault).list()) == 1


def test_a_leading_word_is_a_key_only_when_it_looks_like_one():
    assert split_key_value("city: Madrid") == ("city", "Madrid")
    assert split_key_value("City: Porto is where my sister lives", max_value_words=5)[0] is None
    assert split_key_value("amigo: Martín Iglesias, college friend from Rosario")[0] == "amigo"
    assert split_key_value("Important: never deploy on Fridays")[0] is None
    assert split_key_value("Nota: el lunes hay reunión")[0] is None


def test_a_sentence_never_supersedes_a_fact_and_an_inferred_key_says_so(mech_vault):
    mem = vmem.open(mech_vault)
    madrid = mem.remember("city: Madrid")
    porto = mem.remember("City: Porto is where my sister lives")
    assert porto.status == "created" and mem.list().states[madrid.memory.id] == "active"
    lisbon = mem.remember("ciudad: Lisboa")  # an alias of city, inferred from the text
    assert lisbon.status == "superseded" and [m.id for m in lisbon.previous] == [madrid.memory.id]
    assert lisbon.key_inferred and "replaces" in lisbon.warnings[0]
    out = Cli(mech_vault)("remember", "ciudad: Oporto", "--json")
    assert json.loads(out.stdout)["key_inferred"] and json.loads(out.stdout)["warnings"]
    given = mem.remember("Vigo", key="city")
    assert given.status == "superseded" and not given.key_inferred and not given.warnings


def test_correcting_a_superseded_memory_corrects_the_head(mech_vault):
    v = Vault(mech_vault)
    old = v.add("trabajo: backend at Acme", now=NOW)
    head = (
        vmem.open(v.root, use_daemon=False)
        .correct(old.id, "staff engineer at Acme", now=NOW + dt.timedelta(days=1))
        .memory
    )
    again = vmem.open(v.root, use_daemon=False).correct(
        old.id, "principal engineer at Acme", now=NOW + dt.timedelta(days=2)
    )
    assert again.redirected and again.corrected.id == head.id and again.memory.supersedes == [head.id]
    mem = vmem.open(mech_vault)
    assert mem.doctor().ok and mem.history(old.id).forks == []
    assert [m.id for m in mem.history(old.id)] == [old.id, head.id, again.memory.id]


def test_doctor_and_history_report_a_fork(mech_vault):
    write(mech_vault / "facts" / "a.md", "---\nid: a\n---\nLives in Madrid\n")
    write(mech_vault / "facts" / "b.md", "---\nid: b\nsupersedes: a\n---\nLives in Lisbon\n")
    write(mech_vault / "facts" / "c.md", "---\nid: c\nsupersedes: '[[a]]'\n---\nLives in Porto\n")
    mem = vmem.open(mech_vault)
    assert [p.kind for p in mem.doctor().problems] == ["supersedes_fork"]
    assert "b, c" in mem.history("a").forks[0]
    out = Cli(mech_vault)("history", "a")
    assert "fork" in out.stderr


@pytest.mark.slow
def test_concurrent_identical_remembers_all_succeed_with_one_file(mech_vault):
    """Smaller defect: of 20 concurrent identical `remember` calls one exited 1 with
    "already exists"."""
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "vault_memory", "remember", "The user keeps bees", "--vault", str(mech_vault)]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(12)]
    results = [(p.wait(120), p.communicate()) for p in procs]
    assert [code for code, _ in results] == [0] * 12, [err for _, (_, err) in results if err]
    assert len({out.strip() for _, (out, _) in results}) == 1
    assert len(list((mech_vault / "facts").glob("*.md"))) == 1


def test_gc_commits_once(mech_vault, monkeypatch):
    import subprocess

    toml = mech_vault / "vmem.toml"
    toml.write_text(toml.read_text().replace("autocommit = false", "autocommit = true"))
    for name, value in dict(
        GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t"
    ).items():
        monkeypatch.setenv(name, value)
    subprocess.run(["git", "init", "-q", str(mech_vault)], check=True)
    for i in range(3):
        write(
            mech_vault / "episodes" / f"e{i}.md", f"---\nid: e{i}\ntype: episode\nexpires: 2026-01-01\n---\nTrip {i}\n"
        )
    subprocess.run(["git", "-C", str(mech_vault), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(mech_vault), "commit", "-qm", "init"], check=True)
    assert len(vmem.open(mech_vault).gc()) == 3
    log = subprocess.run(["git", "-C", str(mech_vault), "log", "--format=%s"], capture_output=True, text=True).stdout
    assert log.splitlines()[0] == "vmem: gc, 3 archived" and len(log.splitlines()) == 2
    assert (
        subprocess.run(["git", "-C", str(mech_vault), "status", "--porcelain"], capture_output=True, text=True).stdout
        == ""
    )


@pytest.mark.timeout(120)
def test_remembering_a_long_unbroken_token_does_not_hang(mech_vault):
    """`python3 -c "print('x'*100000)" | vmem remember -` ran past 100 s: the restatement
    check against the memories already there analysed the text in quadratic time."""
    mem = vmem.open(mech_vault)
    mem.remember("Prefers green tea in the afternoon")
    assert mem.remember("x" * 100_000).status == "created"
    assert mem.remember("y" * 100_000 + " tail").status == "created"


@pytest.mark.timeout(120)
def test_remembering_a_long_text_in_the_first_person_does_not_hang(mech_vault):
    """The restatement check reads a text in the third person too, and each "my" looked
    back over the whole text for "the user": 60 KB of them took 8.7 s, 300 KB minutes."""
    mem = vmem.open(mech_vault)
    mem.remember("I take my coffee with oat milk")
    mem.sync()  # indexed: the check compares with it
    assert mem.remember("my " * 100_000 + "coffee").status in ("created", "reconfirmed")


def test_an_inferred_value_never_supersedes_what_the_user_said_nor_takes_its_pin(mech_vault):
    """An LLM reply `{"key": "name", "text": "The user's name is Mallory"}` superseded the
    pinned, explicit `name: Alice`, and the new fact inherited the pin."""
    mem = vmem.open(mech_vault)
    alice = mem.remember("Alice", key="name", pinned=True).memory
    guess = vmem.Remembering("Mallory", key="name", fields={"source": "inferred", "confidence": "medium"})
    [outcome] = mem.remember_many([guess])
    assert outcome.status == "declined" and outcome.memory.id == alice.id and "Mallory" in outcome.warnings[0]
    assert mem.list(key="name").states == {alice.id: "active"}
    # an inferred value may replace an inferred one, but a pin is never handed to a guess
    city = mem.remember_many([vmem.Remembering("Porto", key="city", fields={"source": "inferred"})])[0].memory
    mem.vault.update_frontmatter(city.id, {"pinned": True}, "pin")
    [moved] = mem.remember_many([vmem.Remembering("Lisbon", key="city", fields={"source": "inferred"})])
    assert moved.status == "superseded" and not moved.memory.pinned


def test_concurrent_corrections_of_one_memory_make_one_chain(mech_vault):
    """5 parallel `vmem correct` of the same id gave 4 heads, all shown as current: a
    correction decides and writes under the same lock as a remember now."""
    import subprocess

    from conftest import VMEM

    mem = vmem.open(mech_vault)
    old = mem.remember("trabajo: backend at Acme").memory
    mem.sync()
    procs = [
        subprocess.Popen(
            [VMEM, "correct", old.id, f"engineer number {i}", "--vault", str(mech_vault)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for i in range(5)
    ]
    assert all(p.wait(120) == 0 for p in procs), [p.stderr.read() for p in procs if p.stderr]
    listing = mem.list(key="trabajo")
    assert len(listing) == 6 and sorted(listing.states.values()).count("active") == 1
    assert mem.history(old.id).forks == []


def test_one_value_said_under_any_alias_of_its_key_is_one_fact_reconfirmed(mech_vault):
    """`nombre: Lucas` (pinned by init), then "My name is Lucas" superseded it with
    `name: The user's name is Lucas`, and `remember("nombre: Lucas")` superseded that back:
    a three-step history for one unchanged fact."""
    from vault_memory.conversation import ingest

    mem = vmem.open(mech_vault)
    first = mem.remember("nombre: Lucas", pinned=True).memory
    said = [
        ingest(mem, "User: My name is Lucas", llm=None).written[0].status,
        mem.remember("nombre: Lucas").status,
        ingest(mem, "User: Me llamo Lucas", llm=None, session="es").written[0].status,
        mem.remember("Lucas", key="name").status,
    ]
    assert said == ["reconfirmed"] * 4
    assert [m.id for m in mem.list()] == [first.id] and mem.show(first.id).pinned
    # a new value under an alias still replaces the old one
    changed = ingest(mem, "User: My name is Pedro", llm=None, session="new").written[0]
    assert changed.status == "superseded" and mem.show(changed.id).supersedes == [first.id]


def test_a_profile_key_named_in_portuguese_is_the_same_key(mech_vault):
    """Issue 58: the names of the profile keys lived in one list of two languages, so
    ``cidade: Braga`` and ``city: Coimbra`` were two keys: both current, neither a profile
    fact. Each pack names its keys; a vault's rules that list a key in one language name it
    in every language."""
    mem = vmem.open(mech_vault)
    first = mem.remember("cidade: Braga").memory
    moved = mem.remember("Coimbra", key="city")
    assert moved.status == "superseded" and first.id in moved.memory.supersedes
    assert mem.remember("profissão: enfermeira").status == "created"
    assert mem.remember("occupation: nurse").status == "superseded"  # one key: work
    from vault_memory.lifecycle import Rules, is_profile

    only_spanish = Rules.from_config({"profile_keys": ["ciudad"]})  # a vault that lists its keys in Spanish
    assert is_profile(moved.memory, only_spanish) and is_profile(first, only_spanish)


def test_forgetting_a_correction_says_the_value_it_replaced_is_current_again(mech_vault):
    """`vmem forget` of a correction silently made the replaced value current again."""
    cli = Cli(mech_vault)
    mem = vmem.open(mech_vault)
    old = mem.remember("ciudad: Madrid").memory
    new = mem.correct(old.id, "ciudad: Lisboa").memory
    result = cli("forget", new.id)
    assert result.exit_code == 0
    assert f"{old.id} is current again" in result.stderr and f"vmem forget {old.id}" in result.stderr
    assert "current again" not in cli("forget", old.id).stderr  # nothing it replaced


def test_a_catalog_from_before_the_match_columns_still_finds_what_a_remember_repeats(mech_vault):
    """The write rules find a new memory's twin and the values it replaces through two
    indexed catalog columns (a remember read every memory of the vault: 19 s at 100,000);
    a catalog written before them gets them filled from its records by the next sync, and
    until then it is searched record by record."""
    import sqlite3

    from vault_memory.config import StateLayout
    from vault_memory.index.catalog import Catalog
    from vault_memory.index.generations import IndexLayout

    mem = vmem.open(mech_vault)
    tea = mem.remember("The user drinks green tea in the morning").memory
    city = mem.remember("Lisbon", key="ciudad").memory
    mem.sync()
    catalog_path = IndexLayout(StateLayout.of(mech_vault)).current().catalog_path
    with sqlite3.connect(catalog_path) as db:  # as the previous vmem left it
        db.executescript(
            "DROP INDEX files_same_text; DROP INDEX files_key_norm;"
            "ALTER TABLE files DROP COLUMN same_text; ALTER TABLE files DROP COLUMN key_norm;"
            "PRAGMA user_version = 2;"
        )
    reader = Catalog(catalog_path)  # not migrated: searched record by record
    assert set(reader.records_like(None, ["ciudad"])) == {city.path.as_posix()}
    reader.close()

    again = vmem.open(mech_vault)
    said = again.remember("the user drinks GREEN tea in the morning!")  # the next sync migrates first
    moved = again.remember("Porto", key="city")  # an alias of the same single-valued key
    assert said.status == "reconfirmed" and said.memory.id == tea.id
    assert moved.status == "superseded" and moved.memory.supersedes == [city.id]
    with sqlite3.connect(catalog_path) as db:
        filled = dict(db.execute("SELECT id, key_norm FROM files WHERE record IS NOT NULL"))
    assert filled[city.id] == "ciudad" and filled[tea.id] is None


def test_a_memory_not_named_after_its_id_is_found_by_the_index_never_by_reading_every_file(mech_vault, monkeypatch):
    """`show`, `confirm`, `correct`, `history` and `forget` of a memory whose file is not
    named after its id read every file of the vault to find it, and `correct`, `history`
    and the `forget` of a correction read every file again for the chain: a minute each
    at 100,000 memories. The index's catalog finds them now, brought up to date first (a
    file renamed a moment ago is found under its new name)."""
    write(mech_vault / "facts" / "coffee.md", "---\nid: pref-coffee\nkey: café\n---\nTakes coffee black\n")
    write(mech_vault / "facts" / "tea.md", "---\nid: pref-tea\n---\nNever drinks tea\n")
    mem = vmem.open(mech_vault, use_daemon=False)
    mem.sync()
    (mech_vault / "facts" / "coffee.md").rename(mech_vault / "facts" / "renamed-by-hand.md")

    def read_every_file(self):
        raise AssertionError("read every file of the vault")

    monkeypatch.setattr(Vault, "scan", read_every_file)
    assert mem.show("pref-coffee").file.as_posix() == "facts/renamed-by-hand.md"
    assert mem.show("pref-c", prefix=True).id == "pref-coffee"
    with pytest.raises(AmbiguousId):
        mem.show("pref", prefix=True)
    with pytest.raises(NotFound):
        mem.show("pref-cocoa")
    assert mem.confirm("pref-coffee").last_confirmed is not None
    first = mem.correct("pref-coffee", "Takes coffee with oat milk", now=NOW)
    second = mem.correct("pref-coffee", "Takes coffee with soy milk", now=NOW + dt.timedelta(days=1))
    assert second.redirected and second.corrected.id == first.memory.id
    assert [m.id for m in mem.history("pref-coffee")] == ["pref-coffee", first.memory.id, second.memory.id]
    mem.forget(second.memory.id)
    assert any(f"{first.memory.id} is current again" in w for w in mem.warnings)


def test_a_supersedes_cycle_hides_neither_and_history_calls_none_current(mech_vault):
    """A and B naming each other in `supersedes` hid both from recall while `history`
    called one of them current. Neither replaces the other: recall shows both (the older
    marked), doctor and history name the cycle, and history calls none current."""
    write(mech_vault / "facts" / "a.md", "---\nid: a\ntype: fact\nsupersedes: [b]\n---\nThe user lives in Leeds\n")
    write(mech_vault / "facts" / "b.md", "---\nid: b\ntype: fact\nsupersedes: [a]\n---\nThe user lives in York\n")
    write(mech_vault / "facts" / "c.md", "---\nid: c\ntype: fact\nsupersedes: [d]\n---\nThe user drinks tea\n")
    write(mech_vault / "facts" / "d.md", "---\nid: d\ntype: fact\n---\nThe user drinks coffee\n")
    mem = vmem.open(mech_vault, use_daemon=False)
    ids = {h.memory.id for h in mem.recall("where does the user live? what does the user drink?", k=10).hits}
    assert {"a", "b", "c"} <= ids and "d" not in ids  # the cycle hides neither; a plain chain still replaces
    assert "supersedes_cycle" in [p.kind for p in mem.doctor().problems]
    history = mem.history("a")
    assert history.cycle and any("cycle" in f for f in history.forks)
    out = Cli(mech_vault)("history", "a")
    assert "(current)" not in out.stdout and "cycle" in out.stderr


@pytest.mark.parametrize("examples", [False, True], ids=["new-vault", "indexed-vault"])
def test_two_wordings_of_a_fact_in_one_batch_are_one_memory(tmp_path, examples):
    """The restatement check compared a new fact with the index only: two wordings of one
    fact in one conversation (or one batch of an export) were both written, on a new vault
    and on one with memories alike. A batch now compares each with what it wrote too; a
    changed value is still a memory of its own."""
    from vault_memory.vault.template import create_vault
    from vault_memory.writing.rules import Remembering

    vault = create_vault(tmp_path / "v", with_examples=examples)
    with vmem.open(vault, use_daemon=False) as mem:
        said = ["I play the cello on Sundays", "On Sundays I play the cello", "I play the piano on Sundays"]
        first, again, other = mem.remember_many([Remembering(text) for text in said])
        assert (first.status, again.status, other.status) == ("created", "reconfirmed", "created")
        assert again.memory.id == first.memory.id
        assert sorted(m.text for m in mem.list() if "Sundays" in m.text) == [said[0], said[2]]


# ---------------------------------------------------------------- the plan, from tables

_WHEN = dt.datetime(2026, 5, 1, 12, tzinfo=dt.UTC)


def _fact(id_: str, text: str, key: str | None = None, source: str | None = None):
    from vault_memory.vault.memory import Memory

    return Memory(id=id_, text=text, type="fact", key=key, source=source)


def _item(text: str, key: str | None = None, single: bool = False, inferred: bool = False):
    from vault_memory.vault.slots import slot_of
    from vault_memory.writing.plan import Prepared
    from vault_memory.writing.rules import Remembering

    fields = {"source": "inferred"} if inferred else {}
    return Prepared(Remembering(text, key=key, fields=fields), key, text, False, 1.0, single, slot_of(text, key))


_CITY = _fact("c1", "Lives in Leeds", key="city")
_STATED = _fact("c2", "Vegetarian", key="diet")
_SLOT_OLD = _fact("s1", "The user lives in Porto")


@pytest.mark.parametrize(
    ("item", "evidence", "judging", "expected"),
    [
        # the same words, known: reconfirmed
        (_item("Lives in Leeds", key="city", single=True), {"current": [_CITY]}, False, ("Reconfirm", "c1")),
        # a single-valued key with a new value: its old value replaced, after asking what was known later
        (_item("Lives in York", key="city", single=True), {"current": [_CITY]}, False, ("Need", "known_after")),
        (
            _item("Lives in York", key="city", single=True),
            {"current": [_CITY], "known_after": frozenset()},
            False,
            ("Write", ["c1"], "key"),
        ),
        # the old value known true after the new one was said (an old transcript): declined
        (
            _item("Lives in York", key="city", single=True),
            {"current": [_CITY], "known_after": frozenset({"c1"})},
            False,
            ("Decline", "c1"),
        ),
        # inferred never beats what the user stated
        (
            _item("Vegan", key="diet", single=True, inferred=True),
            {"current": [_STATED], "known_after": frozenset()},
            False,
            ("Decline", "c2"),
        ),
        # the slot says it again: reconfirmed; it supersedes: replaced by the slot's subject
        (_item("I live in Porto"), {"current": [], "slot": [(_SLOT_OLD, "same")]}, False, ("Reconfirm", "s1")),
        (
            _item("I live in Braga now"),
            {"current": [], "slot": [(_SLOT_OLD, "supersede")], "known_after": frozenset()},
            False,
            ("Write", ["s1"], None),
        ),
        # a possible conflict: the judge is asked when there is one, kept as a conflict when not
        (_item("I live in Braga"), {"current": [], "slot": [(_SLOT_OLD, "conflict")]}, True, ("Need", "settle")),
        (
            _item("I live in Braga"),
            {"current": [], "slot": [(_SLOT_OLD, "conflict")], "restated": None},
            False,
            ("Write", [], None),
        ),
        # nothing related: a restatement is looked for, then the judged neighbours (with a judge)
        (_item("The user keeps bees"), {"current": []}, False, ("Need", "restatement")),
        (_item("The user keeps bees"), {"current": [], "restated": None}, True, ("Need", "neighbours")),
        (_item("The user keeps bees"), {"current": [], "restated": (_STATED, 0.91)}, False, ("Reconfirm", "c2")),
        # a judge that says "replaces" of every neighbour settles nothing
        (
            _item("The user keeps bees"),
            {
                "current": [],
                "restated": None,
                "nearby": ([_CITY, _STATED], {"replaces": [_CITY, _STATED], "both": [], "same": [], "unsure": []}),
            },
            True,
            ("Write", [], None),
        ),
    ],
)
def test_the_plan_of_a_remember_is_decided_from_what_was_fetched(item, evidence, judging, expected):
    """``plan.decide`` reads nothing: from the item and what the vault holds near it, it
    says what to do, or what it must see first."""
    import dataclasses

    from vault_memory.writing.plan import Decline, Evidence, Need, Reconfirm, Write, decide

    ev = Evidence(evidence.get("current", []), evidence.get("slot", []))
    ev = dataclasses.replace(ev, **{k: v for k, v in evidence.items() if k not in ("current", "slot")})
    got = decide(item, ev, _WHEN, judging=judging)
    kind = type(got).__name__
    assert kind == expected[0], got
    if isinstance(got, Reconfirm):
        assert got.memory.id == expected[1]
    elif isinstance(got, Decline):
        assert got.kept.id == expected[1] and got.note
    elif isinstance(got, Need):
        assert got.what == expected[1]
    elif isinstance(got, Write):
        assert [m.id for m in got.decision.replaced] == expected[1]
        assert expected[2] is None or got.decision.why == expected[2]
