"""Lifecycle rules, table-driven with a frozen now: each threshold on the day before and after."""

import datetime as dt
from pathlib import Path

import pytest

from vault_memory.lifecycle import (
    RecallFilter,
    Rules,
    decay_state,
    exclusion_reason,
    expires_at,
    is_expired,
    is_restatement,
    lifecycle_weight,
    memory_state,
    persona_overflow,
    score_importance,
)
from vault_memory.vault.memory import Memory
from vault_memory.vault.supersession import supersession_chain
from vault_memory.writing.rules import saying

UTC = dt.UTC
T0 = dt.datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def mem(type_="fact", days_old=0.0, **kw) -> Memory:
    kw.setdefault("confidence", "medium")
    kw.setdefault("source", "inferred")
    return Memory(
        id=kw.pop("id", "m1"),
        text=kw.pop("text", "something"),
        type=type_,
        created=T0,
        path=kw.pop("path", Path("facts/m1.md")),
        **kw,
    )


def at(days: float) -> dt.datetime:
    return T0 + dt.timedelta(days=days)


# ------------------------------------------------------------------ expiry by type


@pytest.mark.parametrize("type_,ttl", [("episode", 30), ("summary", 90)])
@pytest.mark.parametrize("offset,expired", [(-1, False), (-0.001, False), (0, True), (1, True)])
def test_type_ttl(type_, ttl, offset, expired):
    assert is_expired(mem(type_), at(ttl + offset)) is expired


@pytest.mark.parametrize(
    "memory",
    [
        mem("fact"),
        mem("note"),
        mem("episode", pinned=True),
        mem("summary", key="nombre"),
        mem("episode", key="Ubicación"),
    ],
    ids=["fact", "note", "pinned-episode", "profile-summary", "profile-key-accented"],
)
def test_never_expire_by_default(memory):
    assert expires_at(memory) is None and not is_expired(memory, at(10_000))


@pytest.mark.parametrize(
    "now,expired",
    [
        (dt.datetime(2026, 3, 1, 23, 59).astimezone(), False),  # the whole day of `expires` is still valid
        (dt.datetime(2026, 3, 2, 0, 1).astimezone(), True),
        (dt.datetime(2026, 2, 28, 12, 0).astimezone(), False),
    ],
)
def test_explicit_expires_date_lasts_the_whole_day(now, expired):
    assert is_expired(mem("fact", expires=dt.date(2026, 3, 1)), now) is expired


def test_explicit_expires_beats_pinned_and_ttl():
    m = mem("episode", pinned=True, expires=dt.datetime(2026, 1, 5, tzinfo=UTC))
    assert not is_expired(m, at(3)) and is_expired(m, at(4))
    assert not is_expired(mem("episode", expires=dt.date(2026, 6, 1)), at(100))  # later than the 30-day TTL


def test_ttl_is_configurable():
    rules = Rules.from_config({"ttl_days": {"episode": 7, "fact": 365}})
    assert is_expired(mem("episode"), at(7), rules) and not is_expired(mem("episode"), at(6), rules)
    assert is_expired(mem("fact"), at(365), rules) and rules.ttl_days["summary"] == 90


# ------------------------------------------------------------------ gradual decay

DECAY_TABLE = [
    # confidence, source, (aging, low priority, stale) in days
    ("medium", "inferred", (60, 90, 120)),
    ("high", "inferred", (90, 135, 180)),
    ("high", "explicit", (120, 180, 240)),
    ("low", "explicit", (15, 22.5, 30)),
]


@pytest.mark.parametrize("confidence,source,limits", DECAY_TABLE)
def test_decay_is_gradual_with_no_cliff(confidence, source, limits):
    aging, low, stale = limits
    m = mem(confidence=confidence, source=source)
    expected = [
        (aging - 1, "active"),
        (aging + 1, "aging"),
        (low - 1, "aging"),
        (low + 1, "low_priority"),
        (stale - 1, "low_priority"),
        (stale + 1, "stale"),
    ]
    assert [(d, decay_state(m, at(d))) for d, _ in expected] == expected


@pytest.mark.parametrize(
    "memory",
    [
        mem(pinned=True),
        mem(key="nombre"),
        mem("note"),
        mem(key="trabajo", confidence="low"),
    ],
    ids=["pinned", "profile", "note", "profile-low-confidence"],
)
def test_never_decay(memory):
    assert decay_state(memory, at(5000)) == "active"


def test_a_fact_about_the_user_s_family_never_decays_as_the_family_key_does():
    """ "The user's sister is called Ana" (key sister, as the explicit signals write it)
    went stale after 240 days like a preference, though a relative's name is as lasting as
    a fact under the profile key "familia": an export of two years ago lost every name of
    the user's family the day it was ingested. A key naming a relative (in English or
    Spanish, "wife" as partner) is family; a friend, a colleague or a pet is not, and a
    vault that takes "familia" and "family" out of its profile keys takes these out too."""
    for key in ("sister", "Hermano", "wife", "hijos", "abuela", "my_son"):
        assert decay_state(mem(key=key, confidence="high", source="explicit"), at(5000)) == "active", key
    for key in ("friend", "colleague", "dog", "preference", "amiga"):
        assert decay_state(mem(key=key, confidence="high", source="explicit"), at(5000)) == "stale", key
    keys = tuple(k for k in Rules().profile_keys if k not in ("familia", "family"))
    no_family = Rules.from_config({"profile_keys": list(keys)})
    assert decay_state(mem(key="sister"), at(5000), no_family) == "stale"


@pytest.mark.parametrize(
    ("text", "lasting"),
    [
        ("I am allergic to shellfish", True),
        ("Soy alérgica al maní", True),
        ("I live in Leeds", True),
        ("Me mudé a Sevilla", True),
        ("My name is Lucas", True),
        ("Mi cumpleaños es el 3 de mayo", True),
        ("My sister is called Ana", True),
        ("I work as a nurse at St Mary's", True),
        ("I prefer tea over coffee", False),
        ("I'm no longer allergic to peanuts", False),
        ("My friend Marta lives in Porto", False),
        ("I have a dog called Toby", False),
        # an allergy said with its noun, not its adjective, is one too
        ("I have a bad latex allergy", True),
        ("Tengo alergia a las picaduras de abeja", True),
        ("The user has allergies to several antibiotics", True),
    ],
)
def test_a_fact_written_without_a_key_is_kept_by_what_it_says(text, lasting):
    """ "I am allergic to shellfish", remembered with no key (`vmem remember`, a hand-written
    file), went stale after 240 days: the profile was its key's alone, and the allergy left
    every block without a word. A keyless fact that says who the user is (name, home, work,
    birthday, allergies, family) lasts as one under that key; a preference still decays,
    and an episode still expires."""
    fact = mem(text=text, confidence="high", source="explicit")
    assert (decay_state(fact, at(5000)) == "active") is lasting
    assert is_expired(mem("episode", text=text), at(31))


def test_reconfirmation_resets_the_clock():
    m = mem(last_confirmed=at(100))
    assert decay_state(m, at(150)) == "active" and decay_state(m, at(161)) == "aging"
    assert decay_state(mem(updated=at(100)), at(150)) == "active"


def test_what_never_decays_is_not_weighed_by_its_age():
    """A note, a profile fact and a pinned memory never decay, so two years say nothing
    against them: they weigh as on the day they were written (a conversation's old turn lost
    up to 15% to a newer one of the same relevance). A fact that decays still slides."""
    two_years = at(730)
    for old in (mem("note"), mem(key="alergias", text="alérgico al maní"), mem(pinned=True)):
        assert lifecycle_weight(old, two_years)[1]["recency"] == 1.0, old
    assert lifecycle_weight(mem("note"), two_years)[0] == lifecycle_weight(mem("note"), at(0))[0]
    assert 0.85 < lifecycle_weight(mem(), at(30))[1]["recency"] < 1.0


def test_state_weights_and_eligibility():
    rules = Rules()
    weights = {s: lifecycle_weight(mem(), at(d))[0] for s, d in (("active", 1), ("aging", 61), ("low_priority", 91))}
    assert weights["active"] > weights["aging"] > weights["low_priority"]
    assert lifecycle_weight(mem(), at(91))[1]["state"] == "low_priority"
    assert exclusion_reason(mem(), at(121), set(), rules=rules) == "stale"
    assert exclusion_reason(mem(), at(121), set(), RecallFilter(include_stale=True), rules) is None
    assert exclusion_reason(mem("episode"), at(31), set(), rules=rules) == "expired"
    assert exclusion_reason(mem("episode"), at(31), set(), RecallFilter(include_expired=True), rules) is None


# ------------------------------------------------------------------ states and supersession


def test_state_precedence():
    old = mem("episode", id="old", path=Path("archive/episodes/old.md"))
    assert memory_state(old, at(500), {"old"}) == "archived"
    assert memory_state(mem("episode", id="x"), at(500), {"x"}) == "superseded"
    assert (
        memory_state(mem("episode", id="x", path=Path("episodes/stem.md")), at(1), {"stem"}) == "superseded"
    )  # wikilink by file name
    assert memory_state(mem("episode"), at(500), set()) == "expired"
    assert memory_state(mem("fact"), at(500), set()) == "stale"
    assert memory_state(mem("fact"), at(1), set()) == "active"


def test_persona_visibility():
    def reason(memory, persona):
        return exclusion_reason(memory, at(1), set(), RecallFilter(persona=persona))

    assert reason(mem(persona="coach"), None) == "other persona"
    assert reason(mem(persona="coach"), "tutor") == "other persona"
    assert reason(mem(persona="coach"), "coach") is None
    assert reason(mem(), "coach") is None  # shared by all


def test_supersession_chain_from_any_member():
    a = Memory(id="a", text="Madrid", created=T0, path=Path("facts/a.md"))
    b = Memory(id="b", text="Lisbon", created=at(1), supersedes=["a"], path=Path("facts/b.md"))
    c = Memory(id="c", text="Porto", created=at(2), supersedes=["b"], path=Path("facts/c.md"))
    other = Memory(id="z", text="unrelated", created=T0, path=Path("facts/z.md"))
    for start in ("a", "b", "c"):
        assert [m.id for m in supersession_chain(start, [c, other, a, b])] == ["a", "b", "c"]


# ------------------------------------------------------------------ importance, persona cap, restatements


@pytest.mark.parametrize(
    "text,key,score",
    [
        ("Su perro se llama Max", None, 0.8),
        ("Lives in Porto with his sister", None, 0.8),
        ("Lucas", "nombre", 0.8),
        ("Struggled with the subjunctive today", None, 0.7),
        ("Le cuesta el subjuntivo", None, 0.7),
        ("Loves jazz and prefers mornings", None, 0.6),
        ("Le encanta el jazz", None, 0.6),
        ("We talked about the weather", None, 0.4),
    ],
)
def test_importance_cues(text, key, score):
    assert score_importance(text, key) == score


def test_persona_cap_prunes_by_importance_then_age():
    memories = [
        Memory(
            id=f"p{i}",
            text=f"note {i}",
            persona="coach",
            importance=0.4 if i < 10 else 0.8,
            created=at(i),
            path=Path(f"facts/p{i}.md"),
        )
        for i in range(25)
    ]
    memories.append(Memory(id="shared", text="x", created=T0, path=Path("facts/shared.md")))
    pruned = persona_overflow(memories, 20, at(30), set())
    assert sorted(m.id for m in pruned) == ["p0", "p1", "p2", "p3", "p4"]  # least important, then oldest


@pytest.mark.parametrize(
    "new,old,similarity,same",
    [
        ("The user is allergic to peanuts", "User is allergic to peanuts.", 0.99, True),
        ("Works at Acme as a backend engineer", "Works as a backend engineer at Acme.", 0.95, True),
        ("Works as a frontend engineer at Acme.", "Works as a backend engineer at Acme.", 0.976, False),
        ("No le gusta el té verde", "Le gusta el té verde", 0.949, False),
        ("Runs 5 km every Sunday", "Runs 10 km every Sunday", 0.924, False),
        ("User is allergic to peanuts", "User is allergic to peanuts", 0.84, False),  # below the threshold
        # about someone else: "son" is no content word (a Spanish stop word), and 0.88 alike
        ("I am allergic to peanuts", "My son is allergic to peanuts", 0.877, False),
        ("The user's son is allergic to peanuts", "My son is allergic to peanuts", 0.95, True),
        ("I am allergic to peanuts", "The user is allergic to peanuts", 0.9, True),
        ("I'm allergic to peanuts", "I am allergic to peanuts", 0.951, True),  # "I'm" is no content word
        # a negation said in full or contracted says "not" (the bundled model: 0.981 and 0.983)
        ("We do not deploy on Fridays", "We don't deploy on Fridays", 0.981, True),
        ("I cannot drive at night", "I can’t drive at night", 0.983, True),
        ("We don't deploy on Fridays", "We deploy on Fridays", 0.9, False),  # the negation is what changed
        # nor is dropping it ("I can drive at night" was taken for the old fact, and reconfirmed it)
        ("I can drive at night", "I can't drive at night", 0.88, False),
        ("Manejo de noche", "No manejo de noche", 0.9, False),
        ("We deploy on Fridays", "We never deploy on Fridays", 0.9, False),
        ("Mi hermana es vegetariana", "Soy vegetariana", 0.9, False),
        ("I take my coffee with my son", "I take my coffee", 0.9, False),  # the second "my" is read too
    ],
)
def test_restatement_needs_similarity_no_new_words_and_the_same_people(new, old, similarity, same):
    assert is_restatement(saying(None, new), saying(None, old), similarity) is same


def test_a_hand_written_date_at_the_end_of_time_does_not_take_recall_down(empty_vault_dir):
    """An episode created in 9999 (its 30-day life ends past the last time Python holds)
    and a fact that expires on 9999-12-31 raised OverflowError in every recall that reached
    them, so no memory of the vault was recalled. They never expire; the others answer."""
    from conftest import write

    import vault_memory as vmem

    write(
        empty_vault_dir / "episodes" / "far.md",
        "---\nid: far\ntype: episode\ncreated: 9999-12-31T23:59:59-05:00\n---\nA trip to the end of time\n",
    )
    write(
        empty_vault_dir / "facts" / "last.md",
        "---\nid: last\ncreated: 2026-11-20T10:00:00+00:00\nexpires: 9999-12-31\n---\nThe trip to Lisbon is in December\n",
    )
    write(
        empty_vault_dir / "facts" / "near.md",
        "---\nid: near\ncreated: 2026-11-20T10:00:00+00:00\n---\nA trip to Porto\n",
    )
    mem = vmem.open(empty_vault_dir, use_daemon=False)
    at = dt.datetime(2026, 11, 27, tzinfo=dt.UTC)
    ids = [h.memory.id for h in mem.recall("trip", as_of=at, include_pinned=False).hits]
    assert set(ids) == {"last", "near"}  # "far" is created after the time asked, as before
    assert (
        expires_at(Memory(id="x", text="x", type="episode", created=dt.datetime(9999, 12, 31, tzinfo=dt.UTC))) is None
    )


@pytest.mark.parametrize(("text", "key"), [("Braga", "cidade"), ("Matilde", "Nome"), ("ibuprofeno", "alergia")])
def test_a_profile_key_in_any_language_matters_as_a_profile_key(text, key):
    """A key a pack names a profile key by ("cidade" is city, "nome" name) is a profile
    fact for the decay, and for importance too: importance read the list's names alone,
    so a Portuguese profile key weighed as a passing remark."""
    fact = mem(key=key, text=text, confidence="high", source="explicit")
    assert decay_state(fact, at(5000)) == "active"
    assert score_importance(text, key) == 0.8
