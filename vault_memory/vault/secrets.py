"""Secrets never become memories, and never leave the vault (pure rules).

A vault is plain Markdown, opened by other programs, often a git repository pushed
somewhere: an access key, a token, a private key, a password, a door code, a card number,
an IBAN or a national id written there has leaked. ``find_secrets`` names each one a text
holds, with where its value is:

- a key's own shape (``ghp_…``, ``hf_…``, ``AKIA…``, a private key's header, a setting such
  as ``AWS_SECRET_ACCESS_KEY=…``), the shapes a secret scanner's rule set knows;
- a value told after a secret word of any installed language pack ("my password is:
  hunter2!", "the password for my gmail account is now …", "código do portão: 1234"), when
  it holds a digit or a sign inside it (so "la clave es la paciencia" is no secret);
- a value of words, read by how it is told (``vault.worded_secrets``): a password of
  letters alone ("the wifi password is sunflower", "marmelada é a senha do wifi"; not "my
  password is weak"), a passphrase or a seed phrase, a security question's answer, a login
  said with its password;
- a number whose check digits say what it is: a payment card (Luhn), an IBAN (mod 97), a
  Brazilian CPF, a Spanish DNI or NIE, a US social security number (``python-stdnum``), or
  any number told after an identifier's word ("passport", "DNI", "CPF").

Every write refuses a text with one (``memory.check_new``); a hand-written file that holds
one is shown with its value left out (``masked``, through ``Memory.shared_text``); a file
name never carries a secret's value or the words after a secret word (``before_secret``).
What a person marks ``<private>…</private>`` is cut out before anything reads it
(``without_private``): it is not written, not sent to an LLM, not shown.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache

from ..lang.numbers import digits_said
from ..lang.registry import all_packs
from ..lang.text import as_seen, longest_first
from .worded_secrets import TYPED, WHOLE, find_worded, open_things, spaced

#: what a person marks as not for memory (``< private >`` and ``</ private>`` too); an
#: unclosed tag runs to the end
_PRIVATE_OPEN = re.compile(r"<\s*private\b[^<>]{0,200}>", re.I)
_PRIVATE_CLOSE = re.compile(r"<\s*/\s*private\s*>", re.I)
#: what a left-out value is shown as
LEFT_OUT = "[secret left out]"

#: (what it is, its shape), the specific before the general; a group ``value`` is what is
#: left out when the file is shown (else the whole match)
_SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a private key", re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")),
    ("an AWS access key", re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b")),
    (
        "an AWS secret key",
        re.compile(
            r"\b(?i:aws)\b.{0,30}?\b(?i:secret)\b.{0,30}?(?<![A-Za-z0-9/+])(?P<value>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])"
        ),
    ),
    ("a GitHub token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})")),
    ("a GitLab token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}")),
    ("a Hugging Face token", re.compile(r"\bhf_[A-Za-z0-9]{30,}")),
    ("an npm token", re.compile(r"\bnpm_[A-Za-z0-9]{36,}")),
    ("a PyPI token", re.compile(r"\bpypi-AgE[A-Za-z0-9_-]{40,}")),
    ("an Anthropic API key", re.compile(r"\bsk-ant-[A-Za-z0-9_-]{20,}")),
    # a key's random part holds digits, early: "sk-learn-compatible-pipeline-steps" is no
    # key (the look ahead is bounded: unbounded, "sk-proj-" 10,000 times took 11 s)
    ("an OpenAI API key", re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?(?=[A-Za-z_-]{0,64}\d)[A-Za-z0-9_-]{20,}")),
    ("a Stripe key", re.compile(r"\b[rs]k_live_[0-9A-Za-z]{16,}")),
    ("a Slack token", re.compile(r"\bxox[abeoprs]-[0-9A-Za-z-]{10,}|\bxapp-\d-[0-9A-Za-z-]{10,}")),
    ("a Google API key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}")),
    ("a SendGrid key", re.compile(r"\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,50}")),
    ("a Twilio key", re.compile(r"\b(?:SK|AC)[0-9a-f]{32}\b")),
    ("a Telegram bot token", re.compile(r"\b\d{8,10}:AA[A-Za-z0-9_-]{30,40}")),
    ("a Discord token", re.compile(r"\b[MNO][A-Za-z\d_-]{23,27}\.[\w-]{6}\.[\w-]{27,40}")),
    # scheme://user:password@host: a database or broker URL with its password in it
    (
        "a connection string with a password",
        re.compile(r"\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@]+:(?P<value>(?![<{\[$])[^\s@/]{3,})@[^\s/]+"),
    ),
    ("a Slack webhook", re.compile(r"\bhooks\.slack\.com/(?:services|workflows)/(?P<value>[A-Za-z0-9/_-]{20,})")),
    ("a Discord webhook", re.compile(r"\bdiscord(?:app)?\.com/api/webhooks/\d+/(?P<value>[A-Za-z0-9_-]{30,})")),
    # a login written as its address and its password: "mark.t@outlook.com / Summer2024!",
    # "ana@x.pt:Verao#24"; the password holds a letter, and a digit or a sign
    (
        "a login and its password",
        re.compile(
            r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+\s*(?:/|:|\|)\s*"
            r"(?P<value>(?=[^\s@/|]*[^\W\d_])(?=[^\s@/|]*[\d!#$%&*+=?^~])[^\s@/|<>{}]{6,64})(?![^\s.,;!?)])"
        ),
    ),
    # a secret carried in a link's query: "…/d/abc?auth_token=s3cr3tvalue123"
    (
        "a token in a link",
        re.compile(
            r"[?&#](?i:access_token|auth_token|id_token|token|api_?key|apikey|key|secret|client_secret|password|passwd|pwd|"
            r"sig|signature|x-amz-signature)=(?P<value>[^&\s#\"'<>]{6,})"
        ),
    ),
    # its signature may be cut off or empty ("alg": "none"): the two encoded JSON parts are no other thing's shape
    ("a JSON web token", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]{8,})?")),
    # a setting named for a secret, as an environment or a credentials file writes it:
    # AWS_SECRET_ACCESS_KEY=…, export GH_TOKEN="…", aws_secret_access_key = … (~/.aws/credentials)
    (
        "a secret setting",
        re.compile(
            r"\b(?i:[a-z][a-z0-9]*(?:_[a-z0-9]+)*_?(?:secret|token|password|passwd|pwd|api_?key|private_key|access_key)"
            r"(?:_[a-z0-9]+)*)\s*[=:]\s*[\"']?(?P<value>[^\s\"']{6,})"
        ),
    ),
)

#: a payment card number: 13 to 19 digits from 2-6 (the networks' first digits), in groups
#: or not, standing alone (not inside a URL, a file name or an id, nor after a "#": an order's
#: number; a full stop after it ends its sentence); it must pass the Luhn check
_CARD = re.compile(r"(?<![\w./:=#-])[2-6](?:[ -]?\d){12,18}(?![\w/-]|[.,]\d)")
#: numbers whose check digits say what they are, each with its check (``python-stdnum``)
_CHECKED: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("an IBAN", re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b"), "iban"),
    ("a national id (CPF)", re.compile(r"(?<![\d.])\d{3}\.\d{3}\.\d{3}-\d{2}(?![\d.])"), "br.cpf"),
    ("a national id (DNI)", re.compile(r"(?<![\w-])\d{8}-?[A-Za-z](?![\w-])"), "es.dni"),
    ("a national id (NIE)", re.compile(r"(?<![\w-])[XYZxyz]-?\d{7}-?[A-Za-z](?![\w-])"), "es.nie"),
    ("a social security number", re.compile(r"(?<![\d-])\d{3}-\d{2}-\d{4}(?![\d-])"), "us.ssn"),
    ("a national id (CURP)", re.compile(r"\b[A-Z]{4}\d{6}[HMX][A-Z]{5}[A-Z0-9]\d\b"), "mx.curp"),
)
#: what a secret word's value holds: a digit, or a sign inside it ("perro.123", "Tr0ub4dor&3";
#: not "secret." at a sentence's end)
_VALUE = (
    r"[\"'`“‘«*]{0,2}(?P<value>\d{1,4}(?: \d{1,4}){1,5}(?![ \w])"  # said in groups: "1 2 3 4", "12 34 56"
    r"|(?=[^\s\"'`”’»]*(?:\d|[!@#$%^&*_+=~|<>?.,;:/\\-](?=[^\s\"'`”’».,;:!?])))[^\s\"'`”’»]{3,})"
)


@dataclass(frozen=True)
class Secret:
    """A secret a text holds: what it is, and where its value is (``text[start:end]``)."""

    kind: str
    start: int
    end: int


def has_private(text: str) -> bool:
    """Whether ``text`` holds a ``<private>`` span (``without_private`` cuts something)."""
    return "<" in text and _PRIVATE_OPEN.search(text) is not None


def without_private(text: str) -> str:
    """``text`` with every ``<private>…</private>`` span cut out (and the spaces it leaves
    closed up); the same text when it holds none."""
    if not has_private(text):
        return text
    kept: list[str] = []
    depth, at = 0, 0
    for tag in re.finditer(f"{_PRIVATE_OPEN.pattern}|{_PRIVATE_CLOSE.pattern}", text, re.I):
        opens = tag.group().lstrip("< \t").lower().startswith("p")
        if depth == 0 and opens:
            kept.append(text[at : tag.start()])
        if opens:
            depth += 1
        elif depth:  # a close with no open is text, left as written
            depth -= 1
            if depth == 0:
                at = tag.end()
    if depth == 0:
        kept.append(text[at:])  # an open left unclosed runs to the end
    return re.sub(r"[ \t]{2,}", " ", " ".join(kept)).strip()


def find_secrets(text: str) -> list[Secret]:
    """Every secret ``text`` holds, in the order of the rules (shapes, then told values, then
    checked numbers), each once."""
    found: list[Secret] = []
    taken: list[tuple[int, int]] = []  # the spans found, in order: an overlap is found by bisection
    for kind, start, end in _spans(text):
        at = bisect.bisect_left(taken, (start, end))
        before = taken[at - 1] if at else None
        after = taken[at] if at < len(taken) else None
        if (before is None or before[1] <= start) and (after is None or end <= after[0]):
            taken.insert(at, (start, end))
            found.append(Secret(kind, start, end))
    return found


def names_a_secret(text: str) -> bool:
    """Whether ``text`` speaks of a password, a code or an identity number by its word
    ("use the password Hunter22 for staging"), whether or not its value reads as one: what
    a log quotes no word of."""
    return _secret_word(text) is not None


def find_secret(text: str) -> str | None:
    """What kind of secret ``text`` holds first ("an AWS access key", "a password", …), or None."""
    return next((kind for kind, _, _ in _spans(text)), None)


def _spans(text: str) -> Iterator[tuple[str, int, int]]:
    """(kind, start, end) of each value the rules find, in their order, overlaps and all. A
    text that holds characters no one sees (``lang.text.UNSEEN``: a zero-width space, a soft
    hyphen, a mark of direction) is read as it is seen, without them ("pass\\u00adword" is
    "password", "sun\\u200bflower" is "sunflower"), and each span is the text's as written,
    the unseen characters inside it too. Read with each one as a space instead, a word such a
    character cut in two ("manage\\u200dr") refused what it names (measured: docs/benchmarks.md)."""
    seen, at = as_seen(text)
    if not at:
        yield from _spans_as_written(text)
        return
    yield from ((kind, at[start], at[end - 1] + 1) for kind, start, end in _spans_as_written(seen) if end > start)


def _spans_as_written(text: str) -> Iterator[tuple[str, int, int]]:
    """The spans of ``_spans``, in ``text`` as it is seen. Digits said as words are read as
    the digits they say ("the shed padlock opens with seven three seven three": a code, as
    "…with 7373" is; ``lang.numbers``), and a span over them is the words' whole."""
    read, starts, ends = digits_said(text)
    if starts:
        yield from ((kind, starts[a], ends[b - 1]) for kind, a, b in _spans_as_read(read) if b > a)
        return
    yield from _spans_as_read(text)


def _spans_as_read(text: str) -> Iterator[tuple[str, int, int]]:
    yield from ((kind, *_value_span(match)) for kind, match in _matches(text))
    yield from _table_cells(text)


def _value_span(match: re.Match[str]) -> tuple[int, int]:
    return match.span("value") if "value" in match.re.groupindex else match.span()


#: a Markdown table's row, and the row under its header (``|---|:--:|``)
_ROW = re.compile(r"^[ \t]*\|(.*)\|[ \t]*$")
_RULE = re.compile(r"^[ \t]*\|(?:[ \t]*:?-{2,}:?[ \t]*\|)+[ \t]*$")


def _table_cells(text: str) -> Iterator[tuple[str, int, int]]:
    """The cells of a Markdown table whose column a secret word heads ("| site | password |"):
    a person's table of logins holds a secret in every row."""
    if "|" not in text or "-|" not in text.replace(" ", ""):
        return
    lines = text.splitlines(keepends=True)
    starts = list(itertools.accumulate((len(line) for line in lines), initial=0))
    secret_columns: set[int] = set()
    for n, line in enumerate(lines):
        row = _ROW.match(line.rstrip("\r\n"))
        if row is None:
            secret_columns = set()
            continue
        if _RULE.match(line.rstrip("\r\n")):
            if n:
                secret_columns = _secret_columns(lines[n - 1])
            continue
        yield from _secret_cells(row, starts[n], secret_columns)


def _secret_columns(header_line: str) -> set[int]:
    """The columns a table's header (the line above its ``|---|`` rule) heads with a
    secret word: every cell under them holds a secret."""
    header = _ROW.match(header_line.rstrip("\r\n"))
    cells = header.group(1).split("|") if header else []
    alone = _told()[2]
    return {i for i, cell in enumerate(cells) if alone.search(cell.strip().lower())}


def _secret_cells(row: re.Match[str], line_start: int, secret_columns: set[int]) -> Iterator[tuple[str, int, int]]:
    """The cells of one table row (``_ROW``'s match of the line at ``line_start``) in a
    secret column that hold a value (not empty, no dashes alone, three characters or more)."""
    at = line_start + row.start(1)
    for i, cell in enumerate(row.group(1).split("|")):
        value = cell.strip()
        if i in secret_columns and value and value.strip("-*_ ") and len(value) >= 3:
            begin = at + cell.index(value)
            yield "a password or a code", begin, begin + len(value)
        at += len(cell) + 1


@lru_cache(maxsize=4096)  # a recall shows the same memories again and again (60 µs a text)
def masked(text: str) -> str:
    """``text`` with the value of each secret it holds shown as ``LEFT_OUT``: a person's own
    note ("My wifi password is …") is recalled without what would leak."""
    found = sorted((secret.start, secret.end) for secret in find_secrets(text))
    parts, at = [], 0
    for start, end in sorted([*found, *_said_again(text, found)]):
        parts += [text[at:start], LEFT_OUT]
        at = end
    return "".join(parts) + text[at:] if parts else text


#: the marks around a word as typed (``TYPED``) that are not part of it
_AROUND = ".,;:!?\"'`()[]<>«»“”‘’*"


def _said_again(text: str, found: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Where a secret's value of one word (four characters or more) is said again, as a
    whole word, outside what was found ("sunflower is my favourite flower, and the wifi
    password is sunflower"): read once, word by word, so many secrets stay linear."""
    values = {text[s:e].casefold() for s, e in found if e - s >= 4 and not any(ch.isspace() for ch in text[s:e])}
    if not values:
        return []
    starts = [s for s, _ in found]
    again = []
    for m in TYPED.finditer(text):
        word = m.group()
        start = m.start() + len(word) - len(word.lstrip(_AROUND))
        end = m.end() - (len(word) - len(word.rstrip(_AROUND)))
        if end <= start or text[start:end].casefold() not in values:
            continue
        at = bisect.bisect_right(starts, start)
        if (at and found[at - 1][1] > start) or (at < len(found) and found[at][0] < end):
            continue  # (part of) what was found
        again.append((start, end))
    return again


def before_secret(text: str) -> str:
    """``text`` up to the end of its first secret word ("my wifi password is sunflower" →
    "my wifi password"), or up to a secret's value said before it ("9920 is the pin …",
    "Kestrel is my laptop password" → ""): what a file name or an id may say of it."""
    word = _secret_word(text)
    cut = min((secret.start for secret in find_secrets(text)), default=len(text))
    return text[: min(cut, word[1])] if word else text[:cut]


def _secret_word(text: str) -> tuple[int, int] | None:
    """Where the first secret or identity word of ``text`` is, read ignoring case and as it
    is seen (``pass\\u00adword``: ``_spans``)."""
    seen, at = as_seen(text)
    read, caseless = _caseless(seen)
    found = caseless(_told()[2]).search(read)
    if found is None:
        return None
    return (at[found.start()], at[found.end() - 1] + 1) if at else found.span()


def _caseless(text: str) -> tuple[str, Callable[[re.Pattern[str]], re.Pattern[str]]]:
    """How the words' patterns read ``text`` ignoring case: lower-cased (5x faster than
    ``re.I``), or as written with ``re.I`` where lowering changes its length ("İ" lowers to
    two characters), so a match's span is always the text's."""
    lower = text.lower()
    if len(lower) == len(text):
        return lower, lambda pattern: pattern
    return text, lambda pattern: re.compile(pattern.pattern, re.I)


def _matches(text: str) -> Iterator[tuple[str, re.Match[str]]]:
    for kind, pattern in _SHAPES:
        yield from ((kind, m) for m in pattern.finditer(text))
    yield from _told_matches(text)
    yield from _checked_matches(text)
    yield from (("a password or a code", m) for m in _named_values(text))


#: how far a value may stand from the word that names a secret, in characters of its
#: sentence: after it ("la contra del insta es ig_pau.2003") and before it, across a link
#: ("8821 es el pin", "sunrise99 is the wifi pw")
_NAMED_AFTER, _NAMED_BEFORE = 60, 24
#: a run that may be a secret's value: digits said in groups ("204 881", "8 2 4 1 9 0",
#: "1-9-8-4"), or a word of no spaces (its signs at either end are not part of it)
_VALUE_RUN = re.compile(
    r"(?<![\w@/.#*-])(?P<value>[#*]?\d{1,4}(?:[ -]\d{1,4}){1,5}[#*]?)(?![\w@/-]|[.,]\d)"
    r"|(?<![^\s\"'`“‘«(\[:])(?<![\w>]:)(?P<word>[^\s\"'`“”‘’«»()\[\]<>,;]*[^\s\"'`“”‘’«»()\[\]<>,;.:!?])"
)
#: where a sentence ends between a secret's name and a value (a full stop before a space)
_SENTENCE_END = re.compile(r"[.!?;](?:\s|$)|\n")
#: the marks a name is asked with, right after it ("the code? 4471", "o pin?? 3030")
_ASKED = re.compile(r"(?<![ \t])[ \t]*+[?!]+")  # read from a run's start only: linear


def _past_its_question(read: str, at: int) -> int:
    """Where what follows a secret's name begins, past the marks it is asked with: "what's my
    pin? 4471" tells the pin in the answer after its own question."""
    m = _ASKED.match(read, at)
    return m.end() if m else at


#: a year, a time or a date said with its signs, or a version ("17.2", "3.11.7"), a span of
#: years ("2024-2025"): no secret's value
_WHEN = re.compile(
    r"\d{1,2}(?:\.\d{1,2}){1,2}|(?:19|20)\d\d(?:[-/](?:19|20)?\d\d)?|\d{1,2}[:h]\d{2}h?s?|\d{1,2}/(?:\d{1,2}(?:/\d{2,4})?|\d{4})|\d{4}-\d{1,2}-\d{1,2}"
)


def _named_values(text: str) -> Iterator[re.Match[str]]:
    """The values shaped like a secret (``_shaped``) within a few words of a word that names
    one (a pack's ``secret_names``), in the same sentence, after it or across a link before
    it: what is told is told whatever joins them ("the pw for the shared drive is now
    teamrocket7", "o código dela é 80808"). A code no word of an open code qualifies ("zip
    code 10001", "código postal 28013"); near a card's name, only a card's number."""
    read, caseless = _caseless(text)
    said = _names()
    if not any(ch.isdigit() for ch in read) and not _SIGNED.search(read):
        return
    kinds = (
        {m.span() for m in caseless(said.cards).finditer(read)},
        {m.span() for m in caseless(said.tokens).finditer(read)},
    )
    open_ones = {
        m.span() for m in caseless(said.codes).finditer(read) if caseless(said.open_codes).search(_around(read, m))
    }
    spans = [
        m.span()
        for m in caseless(said.names).finditer(read)
        if m.span() not in open_ones and not caseless(said.open_things).search(_around(read, m))
    ]
    if not spans:
        return
    starts = [start for start, _ in spans]
    told: set[tuple[int, int]] = set()  # the names whose value after them was found: one each
    for m in _VALUE_RUN.finditer(text):
        value = m.group("value") or m.group("word")
        start, end = m.span("value") if m.group("value") else m.span("word")
        if not _shaped(value) or _counts(read, end, said.counted) or _inside(start, end, spans):
            continue
        if any(ch.isalpha() for ch in value) and read[max(0, start - 12) : start].split()[-1:] in (
            [w] for w in said.places
        ):
            continue  # where the secret is kept, not what it is: "stored in 1Password" ("quedó en 3344" is one)
        at = bisect.bisect_right(starts, start)
        # the names said before the value, nearest first (a card's name names no PIN: "pin for
        # the atm card … 5566"), then the one after it, only across a link ("8821 es el pin")
        named = [
            name
            for name in reversed(spans[max(0, at - 3) : at])
            if name not in told
            and start - name[1] <= _NAMED_AFTER
            and not _SENTENCE_END.search(read, _past_its_question(read, name[1]), start)
            and _fits(name, value, *kinds)
        ]
        after = spans[at] if at < len(spans) else None
        if not named and after and after[0] - end <= _NAMED_BEFORE and caseless(said.links).match(read, end, after[0]):
            named = [after] if _fits(after, value, *kinds) else []
        if named:
            told.add(named[0])
            yield WHOLE.match(text, start, end)  # type: ignore[misc]  # a match of the value alone


#: the value of a match (``_value_span``), whatever run found it


def _fits(name: tuple[int, int], value: str, cards: set[tuple[int, int]], tokens: set[tuple[int, int]]) -> bool:
    """Whether the name at ``name`` names such a value: a card's, only a card's number (twelve
    digits or more); a token's or a key's, only a long run (twelve characters or more)."""
    if name in cards and sum(ch.isdigit() for ch in value) < 12:
        return False
    return name not in tokens or len(value) >= 12


#: a sign inside a word: a value with no digit may still be a password ("tequila&limon"; not
#: "validar_cpf", a name in code)
_SIGNED = re.compile(r"\w[&!#$%*+=?^~|]+\w")
#: a label of four characters or less, letters and digits: a queue's ticket, a room, a seat
_LABEL = re.compile(r"[A-Z]{1,2}\d{1,3}|\d{1,3}[A-Z]")
#: a number with a fraction or a magnitude ("40.4168", "100k", "397g"): a measure, no code
_AMOUNT = re.compile(
    r"(?<![\d.,])(?:-?\d{1,3}(?:[.,]\d{1,2}|[.,]\d{4,}+)|\d++(?:[.,]\d++)?(?:k|m|g|kg|mg|ml|gb|mb|kb|tb))", re.I
)
#: a setting's name ("STRIPE_TEST_KEY"): what holds a secret, not one
_SETTING_NAME = re.compile(r"(?<![A-Z0-9_])[A-Z][A-Z0-9]*+(?:_[A-Z0-9]++)+")


def _shaped(value: str) -> bool:
    """Whether a run is shaped like a secret's value: three digits or more, letters with a
    digit, or letters with a sign inside (not an address, a path, an amount, a year, a time
    or a date)."""
    if "@" in value or "://" in value or value[:1] in "/~" or _PRICE.fullmatch(value) or value.endswith("%"):
        return False
    if _WHEN.fullmatch(value) or _SETTING_NAME.fullmatch(value) or _AMOUNT.fullmatch(value):  # "2022#" is keyed
        return False
    digits = sum(ch.isdigit() for ch in value)
    letters = sum(ch.isalpha() for ch in value)
    if _LABEL.fullmatch(value):  # a queue's ticket, a room, a seat: "A152", "305B"
        return False
    if digits >= 3:
        return True
    if digits and letters >= 2 and len(value) >= 5:
        return True
    return letters >= 3 and len(value) >= 6 and _SIGNED.search(value) is not None


def _counts(read: str, end: int, counted: frozenset[str]) -> bool:
    """Whether the word after a number says what it counts ("12 characters", "3600 segundos")."""
    after = read[end : end + 24].split(None, 1)
    return bool(after) and after[0].strip(".,;:!?") in counted


def _inside(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    """Whether a value is (part of) a word that names a secret ("2fa", "otp")."""
    at = bisect.bisect_right(spans, (start, float("inf")))
    return bool(at) and spans[at - 1][1] > start or any(s < end and start < e for s, e in spans[at : at + 1])


def _around(read: str, name: re.Match[str]) -> str:
    """The three words before a secret's name and the three after it: where a word that makes
    its code an open one stands ("zip code", "código postal", "código do banco")."""
    before = read[max(0, name.start() - 40) : name.start()].split()[-3:]
    after = read[name.end() : name.end() + 40].split()[:3]
    return " ".join([*before, "·", *after])


@dataclass(frozen=True)
class _Names:
    """The words that name a secret, of every installed pack, each read lower-cased
    (``Pack.secret_names`` and the fields beside it)."""

    #: every name: a card's, a token's, the rest
    names: re.Pattern[str]
    #: a card's names (only a card's number is theirs) and a token's (only a long run)
    cards: re.Pattern[str]
    tokens: re.Pattern[str]
    #: the names of what is as often open ("code", "token") and the words that open them
    codes: re.Pattern[str]
    open_codes: re.Pattern[str]
    #: the words that make any name another thing's ("password manager")
    open_things: re.Pattern[str]
    #: what links a value to the name after it ("8821 es el pin")
    links: re.Pattern[str]
    #: what a number near a name may count ("12 characters"), and where a secret is kept
    counted: frozenset[str]
    places: frozenset[str]


@cache
def _names() -> _Names:
    """The words that name a secret, and those that read around them, of every installed pack."""
    packs = all_packs()

    def words(field: Callable[..., tuple[str, ...]]) -> re.Pattern[str]:
        found = longest_first({w for p in packs for w in field(p)})
        return re.compile(r"(?<![\w-])(?:" + "|".join(found) + r")(?![\w-])") if found else re.compile(r"(?!)")

    cards, tokens = words(lambda p: p.card_names), words(lambda p: p.token_names)
    said = longest_first({w for p in packs for w in p.secret_links})
    return _Names(
        names=re.compile(f"{cards.pattern}|{tokens.pattern}|{words(lambda p: p.secret_names).pattern}"),
        cards=cards,
        tokens=tokens,
        codes=words(lambda p: p.code_names),
        open_codes=words(lambda p: p.open_codes),
        open_things=open_things(),
        # between a value and the name after it, a link and a few words: "8821 es el pin", "x is the wifi pw"
        links=re.compile(r"(?<!\s)\s++(?:" + spaced("|".join(said)) + r")\b[^\d.!?;\n]{0,16}\Z"),
        counted=frozenset(w for p in packs for w in (*p.counted, *p.units)),
        places=frozenset(w for p in packs for w in p.secret_places),
    )


def _told_matches(text: str) -> Iterator[tuple[str, re.Match[str]]]:
    """The secrets told after their word (a password, an identity number) or by what they
    open (a door code): read ignoring case, and only where such a word or a digit is."""
    told, identified, alone, keyed, answered = _told()
    read, caseless = _caseless(text)
    if caseless(alone).search(read):  # no secret word, nothing told after one
        yield from (
            ("a password or a code", m)
            for m in caseless(told).finditer(read)
            if _told_value(m) and not _a_label(text, m)
        )
        yield from (("an identity number", m) for m in caseless(identified).finditer(read) if _identifies(m["value"]))
        yield from (("a security answer or a seed phrase", m) for m in caseless(answered).finditer(read))
    yield from find_worded(read, caseless)  # secrets whose value is words (``vault.worded_secrets``)
    if any(ch.isdigit() for ch in read):
        yield from (("a door or alarm code", m) for pattern in keyed for m in caseless(pattern).finditer(read))


def _checked_matches(text: str) -> Iterator[tuple[str, re.Match[str]]]:
    """The numbers whose shape alone says too little (a payment card, an IBAN, a national
    id), kept when they pass their check (Luhn's, ``stdnum``'s): most such shapes are none."""
    for m in _CARD.finditer(text):
        if _luhn(re.sub(r"\D", "", m.group())):
            yield "a payment card number", m
    for kind, pattern, check in _CHECKED:
        for m in pattern.finditer(text):
            if _checker(check)(m.group()):
                yield kind, m


def _a_label(text: str, match: re.Match[str]) -> bool:
    """Whether a value told after a secret's word is, as typed, a label ("a senha no
    atendimento é A152": a queue's ticket; "Tk9" is no label)."""
    start, end = match.span("value")
    return _LABEL.fullmatch(text[start:end].rstrip(".,;:!?")) is not None


def _identifies(value: str) -> bool:
    """A number told after an identifier's word is one when it has five digits or more and
    is no date ("my passport expires 2031-04-01" names when, not which)."""
    if sum(ch.isdigit() for ch in value) < 5:
        return False
    return not re.fullmatch(r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}", value.strip())


def _told_value(match: re.Match[str]) -> bool:
    """A value right after a secret word, with no "is" or colon between, is one when it is
    mostly digits, a code, and no year or time ("door code 2580#" is; "PIN changed in 2019",
    "token zq199x" and "a spiderman pin on your purse. Is Spider-Man…" are not), or when a
    password's word is told it and it ends the clause ("wifi password hunter22, …")."""
    if match.group("own") is not None:  # "my password's X": X ends what is said ("…'s 12+ characters" does not)
        return re.match(r"\s*(?:$|[.,;:!?)\]])", match.string[match.end() :]) is not None
    value = match.group("value")
    if _PRICE.fullmatch(value.rstrip(".,;:!?")):  # "my bus pass: £45 a month": what it costs
        return False
    if any(match.group(told) is not None for told in ("link", "said")):
        return True
    digits = sum(ch.isdigit() for ch in value)
    ends = value[-1:] in ".,;:!?" or re.match(r"\s*(?:$|[.,;:!?)\]])", match.string[match.end() :]) is not None
    code = 2 * digits > len(value) and not re.fullmatch(r"(?:19|20)\d\d[.,;:!?]?|\d{1,2}[:.]\d\d[.,;:!?]?", value)
    if ends and _password_word().match(match.group()):  # "the wifi password hunter22, keep that", "mi clave 6621"
        return code or any(ch.isalpha() for ch in value)
    return code


#: an amount of money, which no secret is (the whole value: anchored, so a long number is read once)
_PRICE = re.compile(r"\A(?:[£$€¥]\s?\d[\d,.]*+|(?<![\d,.])\d[\d,.]*+\s?[£$€¥]|R\$\s?\d[\d,.]*+)\Z")


@cache
def _password_word() -> re.Pattern[str]:
    """What opens a secret told by a password's word of any pack (read lower-cased)."""
    words = longest_first({w for p in all_packs() for w in p.password_words})
    return re.compile(r"(?:" + spaced("|".join(words)) + r")\b") if words else re.compile(r"(?!)")


@lru_cache(maxsize=1)
def _told() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], tuple[re.Pattern[str], ...], re.Pattern[str]]:
    """The patterns of a secret told after its word, of every installed pack: (a password
    or a code, an identity number, a secret word alone, a code told by what it opens, a
    secret whose value is words)."""
    packs = all_packs()

    def either(words: Callable[..., tuple[str, ...]]) -> str:
        return "|".join(longest_first({w for p in packs for w in words(p)}))

    words = spaced(either(lambda p: p.secret_words))
    links = spaced(either(lambda p: p.secret_links))
    whose = spaced(either(lambda p: p.secret_whose))
    told = re.compile(
        rf"\b(?:{words})\b"
        # whose it is, within the sentence: "for my gmail account", "del banco"
        rf"(?:\s+(?:{whose})(?:\s+[^\s:=→]*[^\s:=→.!?;,]){{1,4}}?)?"
        r"[*_`]{0,3}"  # **Password:** as Markdown dresses it
        rf"(?:\s*(?P<link>[:=→]|->|=>|[—–-](?=\s))[*_`]{{0,3}}\s*|\s+(?P<said>{links})(?=[\s:\"'`“‘«])\s*:?\s*"
        r"|(?P<own>['’]s)\s+|\s+)" + _VALUE  # "my password's hunter2"
    )
    ids = spaced(either(lambda p: p.id_words))
    id_labels, id_links = either(lambda p: p.id_labels), either(lambda p: p.id_links)
    identified = re.compile(
        rf"\b(?:{ids})\b\.?(?:\s*(?:#|no\.?|n[º°]\.?|{id_labels}))?\s*(?:[:=]|\b(?:{id_links})\b)?\s*"
        # a number, maybe after a few letters (X1234567, AB123456), its groups set apart by
        # dots, dashes, slashes or spaces between digits ("30.123.456"; not "expires 2031")
        r"(?P<value>[A-Za-z]{0,3}\d(?:\d|[.\- /](?=\d)){4,24}[A-Za-z]?)(?![\w/-])"
    )
    said_in_words = spaced(either(lambda p: p.answered_secrets))
    alone = re.compile(rf"\b(?:{words}|{ids}|{said_in_words})\b")
    answered = re.compile(  # "security q's for the bank: first pet = Biscuit", "frase semilla (…):\n tribe amateur …"
        rf"\b(?:{said_in_words})\b[^\n:=→]{{0,60}}?\s*(?:[:=→]|->)\s*(?P<value>[^\s.;][^\n.;]{{1,400}})"
    )
    things, devices, opens, with_, keys, then, to, labels, locks = (
        spaced(either(lambda p, f=f: getattr(p, f)))
        for f in (
            "code_things",
            "code_devices",
            "code_opens",
            "code_with",
            "code_keyed",
            "code_then",
            "code_to",
            "code_labels",
            "code_locks",
        )
    )
    gap = r"(?:[,;:]?\s+[^\s\d]+)"  # a word, maybe after a comma: no number between
    # a code: digits, maybe said in ones or twos ("6 2 0 4", "4-4-0-9", "12-38-04"), a # or a *
    # before or after it, in quotes ("«3115»"); it ends its clause
    code = (
        r"[«\"“'‘]?(?P<value>[#*]?\d(?:[ -]?[\d#*]){2,11})[»\"”'’]?(?![\w:.,]\d)(?!\w)"
        rf"(?=\s*(?:$|[.,;:!?()\]]|(?:{then})\b))"
    )
    keyed = re.compile(
        # what opens with it, then what it does and with what, or how it is keyed, then a
        # code that ends its clause: "the garage opens with 4471", "pra abrir a garagem
        # digita 7007 e aperta", "you disarm the alarm with 5566", "Door: 4471"
        rf"\b(?:(?:{things}|{devices})\b{gap}{{0,5}}?[,;]?\s+(?:{opens}){gap}{{0,2}}?\s+(?:{with_})\b"
        rf"|(?:{things})\b(?:{gap}{{0,6}}?[,;:]?\s+(?:{keys})\b"
        rf"|{gap}{{0,5}}?(?:[,;]?\s+(?:{labels}))?\s*(?:[:=→]|->|=>)|{gap}{{0,5}}?[,;]?\s+(?:{labels}))"
        rf"|(?:{opens})\b{gap}{{0,4}}?\s+(?:{things})\s+(?:{with_}|{keys})\b)"
        rf"[,:]?\s*{code}"
    )
    locked = re.compile(  # a thing only a code opens, said to be a number: "o cadeado do armário é 3019"
        rf"\b(?:{locks})\b{gap}{{0,4}}?\s+(?:{links})\s+{code}"
    )
    before = re.compile(  # the code, then what it opens: "type 4471 to open the door", "marca 2580 para abrir el portal"
        rf"\b(?:{keys})\s+(?P<value>[#*]?\d[\d#*-]{{2,11}})(?=\s+(?:{to})\s+(?:{opens})\b{gap}{{0,2}}?\s+(?:{things})\b)"
    )
    return told, identified, alone, (keyed, before, locked), answered


@cache
def _checker(name: str) -> Callable[[str], bool]:
    """``stdnum``'s ``is_valid`` of one kind of number, imported when a number of its shape
    is first seen (the library's import is 50 ms, paid by no text without one)."""
    import importlib

    return importlib.import_module(f"stdnum.{name}").is_valid


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = int(ch)
        if i % 2:
            n = n * 2 - 9 if n > 4 else n * 2
        total += n
    return total % 10 == 0
