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
import functools
import importlib
import pkgutil
import re
import time
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import vault_memory
import vault_memory as vmem
from vault_memory.conversation.signals import explicit_signals
from vault_memory.lang import all_packs
from vault_memory.vault.secrets import masked

N = 8000
#: seconds a reading may take before its growth is asked
BOUND = 1.0
#: the same for one pattern over one adversarial input of N characters (linear: < 0.01 s; a
#: longer input in proportion): a square under a
#: second at N still grows to seconds on a message of 20,000 characters (a run of dots took
#: 0.1 s at N and 0.75 s at 20,000, and passed on an idle machine)
PATTERN_BOUND = 0.1
#: past ``PATTERN_BOUND``, a pattern is read again at four times its text: backtracking takes
#: it past this (a square: 1.6 s or more), a linear pattern stays well under it
SLOW_UP = 0.5
#: past this a reading is too slow whatever its growth
CEILING = 10.0
#: how much longer a reading of four times the text may take: linear 4, quadratic 16, cubic 64
GROWTH = 8.0
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
    "vault_memory.lang.grammar.es._time_opening",
    "vault_memory.lang.grammar.pt._time_first",
    "vault_memory.lang.typed._contractions",
    "vault_memory.lang.subjects._about_me",
    "vault_memory.lang.subjects._about_me_by_its_shape",
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


def _best_of(read: Callable[[], object], times: int = 3) -> float:
    """The fastest of a few readings: the one least slowed by whatever else the machine runs."""
    took = []
    for _ in range(times):
        start = time.perf_counter()
        read()
        took.append(time.perf_counter() - start)
    return min(took)


def _too_slow(read: Callable[[int], object], n: int, bound: float = BOUND, up: bool = False) -> str | None:
    """Why reading a text of size ``n`` is not linear, or None.

    Fast is linear enough. Past ``bound`` seconds the reading is timed again at a quarter of
    the size and at the size, best of three: a linear reading takes about four times as long
    on four times the text, a backtracking one sixteen times or more, on an idle or a loaded
    machine alike (two busy cores took a linear pattern past one second). ``up``: at the size
    and at four times it instead, and slow only past ``SLOW_UP`` there too: a reading of a few
    milliseconds is timed in a machine's noise (a linear pattern read 8,000 characters in 0.16 s
    and 2,000 in under 5 ms beside the suite's daemons), one of seconds is not."""
    start = time.perf_counter()
    read(n)
    took = time.perf_counter() - start
    if took <= bound:
        return None
    if took > CEILING:
        return f"{took:.2f} s"
    small, large = (n, 4 * n) if up else (n // 4, n)
    quarter, whole = _best_of(lambda: read(small)), _best_of(lambda: read(large))
    if whole > GROWTH * max(quarter, 1e-3) and (not up or whole > SLOW_UP):
        return f"{quarter:.2f} s at {small:,} characters, {whole:.2f} s at {large:,}"
    return None


def _inputs(n: int = N) -> dict[str, str]:
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
        out[f"run of {space!r}"] = opener + space * (n // len(space)) + "x."
        out[f"run of {space!r}, open"] = opener + space * (n // len(space))
    out["one word again and again"] = "remember that " + "and my " * (n // 7) + "!"
    out["function words"] = " ".join(words[i % len(words)] for i in range(n // 4))
    out["a long number"] = "1" * n + "x"
    out["a long word"] = "a" * n + "n't"
    out["mixed scripts"] = "a б 中 ñ ã " * (n // 11)
    out["abbreviations"] = "Mr. Dr. St. " * (n // 12)
    out["commas and spaces"] = " ," * (n // 2) + "x"
    out["colons"] = "a:" * (n // 2)
    out["dots"] = "." * n
    out["brackets"] = "[" * n
    out["secret words"] = "password for my pin is: " * (n // 24) + "x1"
    out["a password's words again and again"] = "changed the password of the wifi to " * (n // 36) + "sunflower"
    out["an identifier's digits"] = "passport no. " + "1 " * (n // 2)
    for prefix in ("sk-proj-", "sk-", "ghp_", "xoxb-", "hf_", "eyJ", "AKIA", "SG.", "a://b:", "AWS secret "):
        out[f"{prefix!r} again and again"] = prefix * (10 * n // len(prefix))  # longer: a slow one shows
    out["a thing and its code again and again"] = "the door opens with " * (n // 20)
    out["digits said again and again"] = "the padlock opens with " + "seven, three - " * (n // 15)
    out["adverbs again and again"] = "ya no " * (n // 6) + "siempre solo x"
    return out


LABELS = list(_inputs())
#: how many times N each input's length is (a secret's prefix again and again: ten)
SCALE = {label: len(text) / N for label, text in _inputs().items()}


@functools.cache
def _input(label: str, n: int) -> str:
    return _inputs(n)[label]


@pytest.mark.parametrize(("name", "pattern"), _patterns(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_pattern_reads_a_hostile_text_in_linear_time(name, pattern):
    def reading(label: str) -> Callable[[int], object]:
        def read(n: int) -> None:
            text: str | bytes = _input(label, n)
            if isinstance(pattern.pattern, bytes):
                text = text.encode()
            pattern.search(text)
            pattern.match(text)
            pattern.fullmatch(text)

        return read

    slow = [
        f"{label}: {why}"
        for label in LABELS
        if (why := _too_slow(reading(label), N, PATTERN_BOUND * SCALE[label], up=True))
    ]
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

    def read(times: int) -> None:  # the same pieces once, then four times: a linear reading takes four times as long
        said = " ".join([text] * times)
        explicit_signals(said)
        masked(said)

    assert not _too_slow(read, 4)


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
        (lambda n: "eu " + "a" * n + "o de casa", "pt"),
        (lambda n: "yo " + "e" * n + "o en casa", "es"),
        (lambda n: "mas " + "u" * n + "i o carro", "pt"),
    ],
    ids=["pt-present", "es-present", "pt-past"],
)
def test_a_long_run_of_letters_where_a_verb_stands_is_read_in_linear_time(said, lang):
    """A word where the user's verb would stand is looked up in the verbs' lexicon with an
    accent tried on each vowel: 32,000 letters had taken 11 s. No verb's form is that long."""
    assert not _too_slow(lambda n: vmem.lang.in_third_person(said(n), lang), 30_000)


@pytest.mark.parametrize(
    ("said", "lang"),
    [
        (lambda n: " e ".join(["nado"] * n), "pt"),
        (lambda n: " y ".join(["cocino"] * n), "es"),
        (lambda n: ", ".join(["bebo chá"] * (2 * n // 3)), "pt"),
    ],
    ids=["pt-joined", "es-joined", "pt-commas"],
)
def test_many_joined_clauses_of_the_user_are_read_in_linear_time(said, lang):
    """Each clause joined to the user's asked whether the words before it were a list's item,
    reading the whole text before it: a 32 KB diary of "…e corro…" took 7 s."""
    assert not _too_slow(lambda n: vmem.lang.in_third_person(said(n), lang), 6_000)


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


@pytest.mark.parametrize(("power", "linear"), [(1, True), (2, False), (3, False)], ids=["linear", "quadratic", "cubic"])
def test_the_check_tells_a_slow_linear_reading_from_a_backtracking_one(power, linear):
    """A machine busy with other work makes a linear reading slow but not steep: the check
    asks how the time grows, so it neither fails the one nor lets the others pass."""
    assert (_too_slow(lambda n: time.sleep(0.12 * (n / 1000) ** power), 1000, bound=0.1) is None) == linear


def test_the_check_finds_a_pattern_that_backtracks():
    """The shape that froze the daemon: two runs of spaces side by side, tried from every start."""
    spaces_then = re.compile(r"[ \t]*[ \t]*x")
    assert _too_slow(lambda n: spaces_then.search(" " * n), 800, bound=0.1)
