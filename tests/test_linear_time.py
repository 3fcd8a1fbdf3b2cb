"""Every rule reads a text in time linear in its length.

A pattern that backtracks on a run of spaces froze the daemon on one pasted table (500
spaces: 5 s; 1,000: 35 s). Here every compiled pattern of vmem, wherever it lives, meets
the inputs that make a regular expression backtrack (runs of every kind of space, a word
said thousands of times, long numbers, mixed scripts, abbreviations in a row) through
``search``, ``match`` and ``fullmatch``; and the reading of a whole prompt meets random
mixes of them (hypothesis). A linear pattern reads 8,000 characters in well under a
millisecond; a quadratic one takes seconds, a cubic one minutes: the bound tells them
apart on a loaded machine too.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import re
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import vault_memory
import vault_memory as vmem
from vault_memory.conversation.signals import explicit_signals
from vault_memory.lang import all_packs
from vault_memory.vault.secrets import masked

N = 8000
#: seconds one pattern may take over one adversarial input (linear: < 0.01)
BOUND = 1.0
#: patterns that only ever read a bounded text, with the bound that keeps them fast
BOUNDED = {
    "vault_memory.index.keyword_index._SYMBOLIC": "reads one word of at most MAX_SYMBOLIC_WORD (64) characters",
}
#: functions that compile their patterns from the installed packs at first use: their patterns too
BUILT = (
    "vault_memory.vault.secrets._told",
    "vault_memory.vault.secrets._names",
    "vault_memory.vault.worded_secrets._worded",
    "vault_memory.vault.worded_secrets._set_words",
    "vault_memory.vault.worded_secrets._phrase",
    "vault_memory.vault.worded_secrets._answering",
    "vault_memory.vault.worded_secrets.open_things",
    "vault_memory.vault.worded_secrets._named",
    "vault_memory.vault.worded_secrets._spelling",
    "vault_memory.vault.worded_secrets._pairs",
    "vault_memory.vault.worded_secrets._keyed",
    "vault_memory.vault.worded_secrets._answer_as",
    "vault_memory.vault.worded_secrets._typed_things",
    "vault_memory.vault.worded_secrets._accounts",
    "vault_memory.vault.worded_secrets._topics",
    "vault_memory.vault.worded_secrets._opened_with",
    "vault_memory.vault.worded_secrets._naming",
    "vault_memory.lang.concepts.compiled",
    "vault_memory.lang.borrow.compiled",
    "vault_memory.lang.times._patterns",
    "vault_memory.lang.times._day",
    "vault_memory.lang.cues.compiled",
    "vault_memory.lang.keys._asking_to_keep",
    "vault_memory.lang.numbers._words",
)
SPACES = [" ", "\t", "\u00a0", "\u3000", "\u2009", " \t", "\n ", "\u200b"]


def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    found: dict[str, re.Pattern[str]] = {}
    seen: set[int] = set()  # a pattern one module imports from another is read once, by the first name met

    def collect(obj: object, name: str, depth: int = 0) -> None:
        if isinstance(obj, re.Pattern):
            if id(obj) not in seen:
                seen.add(id(obj))
                found.setdefault(name, obj)
        elif isinstance(obj, tuple | list) and depth < 3:
            for i, item in enumerate(obj):
                collect(item, f"{name}[{i}]", depth + 1)
        elif isinstance(obj, dict) and depth < 3:
            for key, item in obj.items():
                collect(item, f"{name}[{key!r}]", depth + 1)
        elif dataclasses.is_dataclass(obj) and not isinstance(obj, type) and depth < 3:
            for each in dataclasses.fields(obj):
                collect(getattr(obj, each.name), f"{name}.{each.name}", depth + 1)

    for info in pkgutil.walk_packages(vault_memory.__path__, "vault_memory."):
        if info.name.endswith("__main__") or ".model" in info.name:
            continue
        module = importlib.import_module(info.name)
        for attr, value in vars(module).items():
            collect(value, f"{info.name}.{attr}")
    for name in BUILT:
        module, attr = name.rsplit(".", 1)
        collect(getattr(importlib.import_module(module), attr)(), f"{name}()")
    return sorted((name, p) for name, p in found.items() if name not in BOUNDED)


def _inputs() -> dict[str, str]:
    words = sorted({w for p in all_packs() for w in p.function_words})
    openers = [
        "remember that ",
        "my name is ",
        "mi nombre es ",
        "lembra que ",
        "I am ",
        "- key: ",
        "[1 May] Ana: ",
        "the password for my ",
        "DNI ",
    ]
    out: dict[str, str] = {}
    for i, space in enumerate(SPACES):
        opener = openers[i % len(openers)]
        out[f"run of {space!r}"] = opener + space * (N // len(space)) + "x."
        out[f"run of {space!r}, open"] = opener + space * (N // len(space))
    out["one word again and again"] = "remember that " + "and my " * (N // 7) + "!"
    out["function words"] = " ".join(words[i % len(words)] for i in range(N // 4))
    out["a long number"] = "1" * N + "x"
    out["a long word"] = "a" * N + "n't"
    out["mixed scripts"] = "a б 中 ñ ã " * (N // 11)
    out["abbreviations"] = "Mr. Dr. St. " * (N // 12)
    out["commas and spaces"] = " ," * (N // 2) + "x"
    out["colons"] = "a:" * (N // 2)
    out["dots"] = "." * N
    out["brackets"] = "[" * N
    out["secret words"] = "password for my pin is: " * (N // 24) + "x1"
    out["a password's words again and again"] = "changed the password of the wifi to " * (N // 36) + "sunflower"
    out["an identifier's digits"] = "passport no. " + "1 " * (N // 2)
    for prefix in ("sk-proj-", "sk-", "ghp_", "xoxb-", "hf_", "eyJ", "AKIA", "SG.", "a://b:", "AWS secret "):
        out[f"{prefix!r} again and again"] = prefix * (10 * N // len(prefix))  # longer: a slow one shows
    out["a thing and its code again and again"] = "the door opens with " * (N // 20)
    out["digits said again and again"] = "the padlock opens with " + "seven, three - " * (N // 15)
    return out


INPUTS = _inputs()


@pytest.mark.parametrize(("name", "pattern"), _patterns(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_pattern_reads_a_hostile_text_in_linear_time(name, pattern):
    slow = []
    for label, text in INPUTS.items():
        if isinstance(pattern.pattern, bytes):
            text = text.encode()  # type: ignore[assignment]
        start = time.perf_counter()
        pattern.search(text)
        pattern.match(text)
        pattern.fullmatch(text)
        took = time.perf_counter() - start
        if took > BOUND:
            slow.append(f"{label}: {took:.2f} s")
    assert not slow, f"{name} backtracks: {slow}"


@pytest.fixture(scope="module", autouse=True)
def _lexicons_loaded():
    """The verbs' lexicons load once a process (a second), on the first word that needs one:
    a cost of the first reading, not of any pattern, so it is paid before the clock starts."""
    vmem.lang.prepare_lexicons()


FRAGMENTS = st.one_of(
    st.sampled_from(SPACES).flatmap(lambda s: st.integers(1, 1500).map(lambda n: s * n)),
    st.sampled_from(["remember that", "my", "is", "Mr.", "and", "y", "pero", "please", ",", ".", "no olvides que"]),
    st.integers(1, 600).map(lambda n: "9" * n),
    st.text(max_size=40),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(FRAGMENTS, min_size=1, max_size=12))
def test_reading_a_prompt_made_of_hostile_pieces_takes_linear_time(pieces):
    text = " ".join(pieces)
    start = time.perf_counter()
    explicit_signals(text)
    masked(text)
    assert time.perf_counter() - start < BOUND + len(text) / 100_000


def test_a_long_input_is_read_only_as_far_as_a_model_reads_it(empty_vault_dir, monkeypatch):
    """Issue 59: 20,000 underscores made a remember take 2.5-5 s (the multilingual model read
    every character as a token) and an 8,000-character query spent 4 s in late interaction
    (every one of its 2,000 word pieces against every candidate's). Each model reads a
    bounded number of tokens: what lies beyond changes nothing."""
    from vault_memory.index.embedder import UseEmbedder
    from vault_memory.index.snapshot import Snapshot
    from vault_memory.recall.stages import QUESTION_PIECES

    use = UseEmbedder()
    head = "~" * UseEmbedder.MAX_CHARS
    assert (use.embed([head]) == use.embed([head + "=" * 30_000])).all()

    asked: list[int] = []
    real = Snapshot.maxsims

    def counting(self, query, paths):
        asked.append(len(query))
        return real(self, query, paths)

    monkeypatch.setattr(Snapshot, "maxsims", counting)
    with vmem.open(empty_vault_dir, use_daemon=False) as mem:
        mem.remember("The user keeps a sourdough starter called Clint")
        mem.recall("what is the name of my sourdough starter and " * 300)
    assert asked and max(asked) <= QUESTION_PIECES


@pytest.mark.parametrize(
    ("said", "lang"),
    [
        ("eu " + "a" * 30_000 + "o de casa", "pt"),
        ("yo " + "e" * 30_000 + "o en casa", "es"),
        ("mas " + "u" * 30_000 + "i o carro", "pt"),
    ],
    ids=["pt-present", "es-present", "pt-past"],
)
def test_a_long_run_of_letters_where_a_verb_stands_is_read_in_linear_time(said, lang):
    """A word where the user's verb would stand is looked up in the verbs' lexicon with an
    accent tried on each vowel: 32,000 letters had taken 11 s. No verb's form is that long."""
    start = time.perf_counter()
    vmem.lang.in_third_person(said, lang)
    assert time.perf_counter() - start < BOUND


@pytest.mark.parametrize(
    ("said", "lang"),
    [
        (" e ".join(["nado"] * 6_000), "pt"),
        (" y ".join(["cocino"] * 6_000), "es"),
        (", ".join(["bebo chá"] * 4_000), "pt"),
    ],
    ids=["pt-joined", "es-joined", "pt-commas"],
)
def test_many_joined_clauses_of_the_user_are_read_in_linear_time(said, lang):
    """Each clause joined to the user's asked whether the words before it were a list's item,
    reading the whole text before it: a 32 KB diary of "…e corro…" took 7 s."""
    start = time.perf_counter()
    vmem.lang.in_third_person(said, lang)
    assert time.perf_counter() - start < BOUND


def test_a_prompt_s_reading_keeps_to_its_seconds_from_its_first_step():
    """The seconds a prompt is read for count from the reading's start: a pasted list of
    10,000 lines took 3.7 s against a budget of 1 s, the idioms and the sentence pass before
    the budget began taking 2.2 s of it. Compared with the same reading unbounded, on the
    same machine in the same minute, so a loaded machine slows both. (A message is read for
    its first and last 10,000 characters whatever its seconds: this list is within them.)"""
    from vault_memory.conversation.signals import read_requests

    said = "\n".join(f"- item {i}: value {i}" for i in range(800)) + "\nplease remember these"
    started = time.perf_counter()
    read_requests(said)
    unbounded = time.perf_counter() - started
    started = time.perf_counter()
    _, declined = read_requests(said, seconds=0.01)
    bounded = time.perf_counter() - started
    assert any(n.reason.startswith("not read") for n in declined)
    assert bounded < unbounded / 2, (bounded, unbounded)
