"""Property-based tests of parsing, writing and the restatement check (hypothesis): random
YAML and Unicode in every script, BOMs, CRLF, control characters, huge keys and ``---``
inside bodies. Nothing crashes, nothing is modified, vmem's own writes round-trip exactly,
and two texts with different letters are never the same memory."""

from __future__ import annotations

import datetime as dt
import unicodedata
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from vault_memory.errors import MemoryFileError
from vault_memory.lang import fold_accents
from vault_memory.vault.fileformat import parse_memory, serialize_memory, set_frontmatter_keys
from vault_memory.vault.keyvalue import split_key_value
from vault_memory.vault.memory import Memory
from vault_memory.vault.sameness import normalize_text
from vault_memory.vault.values import check_writable

SETTINGS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: text from every script, emoji, controls and separators included (no surrogates)
ANY_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=200)
LINES = st.lists(
    st.one_of(
        ANY_TEXT,
        st.sampled_from(
            ["---", "...", "- item", "  indented: x", "key: [unclosed", "&a [1, 2]", "*a", "? complex", "\ufeff"]
        ),
    ),
    max_size=12,
)


@st.composite
def files(draw) -> bytes:
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    bom = draw(st.sampled_from(["", "\ufeff"]))
    head = draw(LINES)
    body = draw(LINES)
    text = bom + newline.join(["---", *head, draw(st.sampled_from(["---", "...", ""])), *body])
    raw = text.encode("utf-8", "surrogatepass")
    if draw(st.booleans()):
        raw += draw(st.binary(max_size=20))
    return raw


@SETTINGS
@given(files())
def test_parsing_anything_either_works_or_names_the_file(raw):
    try:
        memory = parse_memory(raw, Path("facts/x.md"))
    except MemoryFileError as e:
        assert str(e).startswith("facts/x.md")
        return
    assert memory.path == Path("facts/x.md") and isinstance(memory.text, str)


@SETTINGS
@given(files())
def test_a_failed_single_key_edit_never_changes_the_text(raw):
    text = raw.decode("utf-8", "replace")
    try:
        out = set_frontmatter_keys(text, {"last_confirmed": "2026-11-23T10:00:00+00:00"}, Path("x.md"))
    except (MemoryFileError, Exception) as e:  # refused: the caller writes nothing
        assert type(e).__name__ in ("WriteRefused", "FrontmatterError", "EncodingError", "MemoryFileError"), e
        return
    before, after = text.splitlines(), out.splitlines()
    assert len([line for line in after if line not in before]) <= 3  # the one key (perhaps its block)


KEYS = st.one_of(st.none(), st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=300))
WORDS = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=300).filter(lambda t: t.strip())


@SETTINGS
@given(text=WORDS, key=KEYS, tags=st.lists(st.text(min_size=1, max_size=30), max_size=4))
@example(text="0", key=None, tags=["0\x850"])  # NEL in a tag: YAML read it back as a space
def test_what_vmem_writes_it_reads_back_exactly(text, key, tags):
    """Anything vmem agrees to write (``check_writable``) it reads back as written."""
    memory = Memory(
        id="2026-11-23-x-abc123",
        text=text.strip(),
        key=key,
        tags=[t.strip().lstrip("#").strip() for t in tags if t.strip().lstrip("#").strip()],
        created=dt.datetime(2026, 11, 23, 10, 0, tzinfo=dt.UTC),
        supersedes=["2026-01-01-old-000000"],
    )
    try:
        check_writable(memory)
    except ValueError:
        return
    raw = serialize_memory(memory).encode("utf-8")
    back = parse_memory(raw, Path("facts/x.md"))
    expected = memory.text.strip()
    assert back.text == expected and back.key == (str(key) if key is not None else None)
    assert back.tags == memory.tags and back.supersedes == memory.supersedes and back.created == memory.created
    assert serialize_memory(back).encode("utf-8") == raw  # twice the same bytes


@SETTINGS
@given(
    values=st.dictionaries(
        st.sampled_from(["key", "tags", "persona", "domain", "note", "x-custom"]),
        st.one_of(KEYS, st.lists(st.text(max_size=60), max_size=4), st.integers(), st.floats(allow_nan=False)),
        max_size=5,
    )
)
@example(values={"key": "mi perro 🐕"})  # libyaml escapes it: written by PyYAML
@example(values={"tags": ["a\u2028b", " lead", "trail ", "#x", "yes", "1e3", "~", "- y"]})
def test_a_memorys_frontmatter_is_the_same_bytes_whichever_emitter_writes_it(values):
    """libyaml writes a memory's frontmatter where it emits what PyYAML would: the same
    bytes whichever is installed (an emoji stays an emoji, not ``\U0001f415``)."""
    import yaml

    from vault_memory.vault import fileformat

    values = {"id": "2026-11-23-x-abc123", "created": dt.datetime(2026, 11, 23, 10, 0, tzinfo=dt.UTC), **values}
    options = {"sort_keys": False, "allow_unicode": True, "default_flow_style": False, "width": 10**6}
    by_python = yaml.dump(values, Dumper=fileformat._VaultDumper, **options)
    assert fileformat.dump_yaml(values) == by_python
    assert "\\U0001F415" not in fileformat.dump_yaml({"key": "mi perro 🐕"})


def letters(text: str) -> list[str]:
    folded = fold_accents(unicodedata.normalize("NFKC", text)).casefold()
    return sorted(ch for ch in folded if ch.isalnum() or ch in "+#$€£¥₹%&@")


@SETTINGS
@given(ANY_TEXT, ANY_TEXT)
def test_two_texts_with_different_letters_are_never_the_same_memory(a, b):
    if normalize_text(a) and normalize_text(a) == normalize_text(b):
        assert letters(a) == letters(b)


@SETTINGS
@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_an_ascii_text_normalises_as_the_full_rule_does(text):
    """ASCII skips NFKC and accent folding (recall's copies check asks for every hit): the
    digests the catalog keeps must not change by it."""
    import re

    from vault_memory.vault.sameness import SIGNIFICANT_SYMBOLS

    folded = fold_accents(unicodedata.normalize("NFKC", text)).casefold()
    assert normalize_text(text) == " ".join(re.findall(rf"[^\W_]+|[{re.escape(SIGNIFICANT_SYMBOLS)}]", folded))


@SETTINGS
@given(ANY_TEXT)
def test_a_text_with_no_letters_matches_nothing(text):
    if not letters(text):
        assert normalize_text(text) == ""


@SETTINGS
@given(ANY_TEXT)
def test_splitting_a_key_never_loses_text(text):
    key, value = split_key_value(text)
    if key is None:
        assert value == text.strip()
    else:
        assert key in text and value in text and len(value.split()) <= 12


# ---------------------------------------------------------------------------- the fence

#: every way found to write each piece of "</memory": the letter, its capital, its full-width
#: form, and the look-alikes of other scripts
_OPEN = ["<", "&lt;", "&lt", "&LT;", "&#60;", "&#060", "&#x3c;", "&#X3C", "＜", "﹤", "〈", "⟨"]
_SLASH = ["", "/", "／", " /"]
_LETTERS = {
    "m": ["m", "M", "ｍ", "м", "ᴍ"],
    "e": ["e", "E", "ｅ", "е", "ε", "ᴇ"],
    "o": ["o", "O", "ｏ", "о", "ο", "ᴏ"],
    "r": ["r", "R", "ｒ", "г", "ʀ"],
    "y": ["y", "Y", "ｙ", "у", "ү", "ʏ"],
}
#: characters a model does not see: zero-width space, non-joiner and joiner, word joiner,
#: soft hyphen, BOM, the invisible separators and the bidi marks
_INVISIBLE = ["", "\u200b", "\u200c", "\u200d", "\u2060", "\u00ad", "\ufeff", "\u2063", "\u200e", "\u202e"]


@st.composite
def fence_lookalikes(draw) -> str:
    pieces = [draw(st.sampled_from(_OPEN)), draw(st.sampled_from(_SLASH))]
    pieces += [draw(st.sampled_from(_LETTERS[c])) for c in "memory"]
    return "".join(piece + draw(st.sampled_from(_INVISIBLE)) for piece in pieces)


@SETTINGS
@given(before=ANY_TEXT, tag=fence_lookalikes(), after=ANY_TEXT)
def test_no_lookalike_of_the_fence_survives_defang(before, tag, after):
    """Whatever letters, escapes and invisible characters spell `</memory` or `<memory`,
    defanged text holds nothing that reads as the fence, and keeps everything else."""
    from vault_memory.recall.render import _FENCE, _skeleton, defang

    text = before + tag + " source=x>" + after
    out = defang(text)
    assert _FENCE.search(_skeleton(out)[0]) is None
    assert "‹" in out and out.count("‹") >= 1
    assert defang(out) == out  # defanging is done once and for all


@SETTINGS
@given(text=ANY_TEXT)
def test_defang_changes_nothing_that_is_not_a_fence(text):
    from vault_memory.recall.render import _FENCE, _skeleton, defang

    if _FENCE.search(_skeleton(text)[0]) is None:
        assert defang(text) == text


_segment = st.sampled_from(["a", "b", "ab", "notes", "x.md", "README.md", "a.md", "*.md", "a*", "?b", "[ab]*"])


@given(
    st.lists(
        st.tuples(st.booleans(), st.booleans(), st.lists(_segment, min_size=1, max_size=3)).map(
            lambda t: ("/" if t[0] else "") + "/".join(t[2]) + ("/" if t[1] else "")
        ),
        max_size=5,
    ),
    st.lists(st.sampled_from(["a", "b", "ab", "notes", "x.md", "README.md", "a.md", "ab.md"]), min_size=1, max_size=4),
    st.booleans(),
)
def test_ignore_rules_give_one_answer_whether_combined_or_checked_one_by_one(patterns, parts, is_dir):
    """The walk asks once per file, so rules without '!' are folded into one regex per kind
    of path; that must say what checking the patterns one by one, last match winning, says."""
    from vault_memory.vault.scanner import IgnoreRules

    combined = IgnoreRules(patterns)
    one_by_one = IgnoreRules(patterns)
    one_by_one._combined = None
    path = "/".join(parts)
    assert combined.ignored(path, is_dir) == one_by_one.ignored(path, is_dir)


def test_the_no_change_stamps_are_the_walks_entries(tmp_path):
    """`stamps` (the freshness check's walk) and `walk` (every command's) see the same files
    with the same stamps: one scan behind both."""
    from vault_memory.vault.scanner import IgnoreRules, scan, walk

    for rel in ("facts/a.md", "facts/b.md", "notes/c.md", "notes/README.md", "x/.hidden.md", "y.md~", "z.txt"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
    (tmp_path / "facts" / "out.md").symlink_to("/etc/hostname")
    rules = IgnoreRules(["README.md", "notes/c.md"])
    entries = walk(tmp_path, rules)
    stamps = scan(tmp_path, rules).stamps
    assert sorted((e.relpath, *e.stamp) for e in entries) == sorted(stamps) and len(stamps) == len(set(stamps))
    assert [e.relpath for e in entries] == ["facts/a.md", "facts/b.md", "facts/out.md"]


@given(
    st.lists(
        st.tuples(st.booleans(), st.booleans(), st.lists(_segment, min_size=1, max_size=3)).map(
            lambda t: ("/" if t[0] else "") + "/".join(t[2]) + ("/" if t[1] else "")
        ),
        max_size=5,
    ),
    st.lists(st.sampled_from(["a", "b", "ab", "notes"]), max_size=3),
    st.sampled_from(["x.md", "README.md", "a.md", "ab.md", "b.md"]),
)
def test_the_walks_file_matchers_agree_with_the_rules_for_every_memory_file(patterns, folders, name):
    """The walk leaves out patterns that cannot match a .md file and looks literal names up
    in a set; for any .md file it visits, that must say what the rules say."""
    from vault_memory.vault.scanner import IgnoreRules, _file_ignorer

    rules = IgnoreRules(patterns)
    names, test = _file_ignorer(rules)  # what the walk asks of each file
    path = "/".join([*folders, name])
    walk_says = name in names or (test is not None and test(name, path))
    assert walk_says == rules.ignored(path, False)
