import datetime as dt
import time
from pathlib import Path

import pytest
import yaml
from conftest import write

import vault_memory as vmem
from vault_memory.errors import EncodingError, FrontmatterError, MemoryFileError, WriteRefused
from vault_memory.vault.fileformat import parse_memory, serialize_memory, set_frontmatter_keys
from vault_memory.vault.ids import derived_id
from vault_memory.vault.keyvalue import split_key_value
from vault_memory.vault.memory import Memory
from vault_memory.vault.values import normalize_confidence

TZ = dt.timezone(dt.timedelta(hours=2))
P = Path("facts/x.md")


def full_memory() -> Memory:
    return Memory(
        id="2026-11-22-nombre-lucas-abc123",
        text="Lucas\n\n---\n\nA body with a horizontal rule.",
        type="fact",
        key="nombre",
        domain="personal",
        confidence="high",
        source="explicit",
        created=dt.datetime(2026, 11, 22, 10, 0, tzinfo=TZ),
        updated=dt.datetime(2026, 11, 23, 10, 0, tzinfo=TZ),
        last_confirmed=dt.datetime(2026, 11, 24, 10, 0, tzinfo=TZ),
        expires=dt.date(2027, 1, 1),
        supersedes=["2026-01-01-old-111111", "2026-01-02-older-222222"],
        persona="coach",
        scope="global",
        importance=0.8,
        pinned=True,
        tags=["profile", "name"],
        extra={"zeta": 1, "alpha": ["x", "y"]},
    )


def test_round_trip_keeps_every_field():
    m = full_memory()
    text = serialize_memory(m)
    back = parse_memory(text.encode(), P)
    for field in (
        "id",
        "text",
        "type",
        "key",
        "domain",
        "confidence",
        "source",
        "created",
        "updated",
        "last_confirmed",
        "expires",
        "supersedes",
        "persona",
        "scope",
        "importance",
        "pinned",
        "tags",
        "extra",
    ):
        assert getattr(back, field) == getattr(m, field), field
    assert list(back.extra) == ["zeta", "alpha"]


def test_serialising_twice_gives_the_same_bytes_in_fixed_key_order():
    m = full_memory()
    a, b = serialize_memory(m), serialize_memory(parse_memory(serialize_memory(m).encode(), P))
    assert a == b
    keys = [line.split(":")[0] for line in a.split("---")[1].splitlines() if line and not line.startswith(("-", " "))]
    assert keys[:5] == ["id", "type", "key", "domain", "confidence"]
    assert keys[-2:] == ["zeta", "alpha"]


def test_obsidian_friendly_values():
    text = serialize_memory(full_memory())
    assert "created: 2026-11-22T10:00:00+02:00\n" in text  # a plain timestamp, not a quoted string
    assert "expires: 2027-01-01\n" in text
    assert "tags:\n- profile\n- name\n" in text  # a list, no '#'


def test_hand_written_file_without_id_gets_a_path_derived_id():
    m = parse_memory(b"Just a note about Lisbon.\n", Path("notes/lisbon.md"))
    assert m.type == "note" and m.id_derived
    assert m.id == derived_id(Path("notes/lisbon.md"))
    assert parse_memory(b"Other.\n", Path("other/lisbon.md")).id != m.id


def test_broken_yaml_names_the_line():
    raw = b"---\nid: ok-1\nkey: [unclosed\nconfidence: high\n---\nbody\n"
    with pytest.raises(FrontmatterError) as e:
        parse_memory(raw, P)
    assert e.value.line in (3, 4, 5)
    assert "facts/x.md:" in str(e.value)


def test_wrong_type_names_the_key_line():
    raw = b"---\nid: ok-1\nconfidence: sure\n---\nbody\n"
    with pytest.raises(FrontmatterError) as e:
        parse_memory(raw, P)
    assert e.value.line == 3 and "confidence" in str(e.value)


@pytest.mark.parametrize(
    "raw,error",
    [
        (b"", MemoryFileError),
        (b"   \n\n", MemoryFileError),
        (b"\x89PNG\r\n\x1a\n\x00\x00", EncodingError),
        ("caf\u00e9".encode("latin-1"), EncodingError),
        (b"---\nid: x-1\nbody without end\n", FrontmatterError),
        (b"---\n- a\n- b\n---\nbody\n", FrontmatterError),
        (b"---\nid: ../etc/passwd\n---\nbody\n", FrontmatterError),
    ],
)
def test_bad_files_raise_clear_errors(raw, error):
    with pytest.raises(error) as e:
        parse_memory(raw, P)
    assert str(e.value).startswith("facts/x.md")


def test_body_with_dashes_lines_is_body():
    raw = b"---\nid: a-1\n---\n\nfirst\n\n---\n\nsecond\n---\n"
    m = parse_memory(raw, P)
    assert m.text == "first\n\n---\n\nsecond\n---"


def test_confidence_floats_map_to_levels():
    assert [normalize_confidence(x) for x in (0.95, 0.8, 0.5, 0.2, "0.9", "High")] == [
        "high",
        "high",
        "medium",
        "low",
        "high",
        "high",
    ]
    with pytest.raises(ValueError):
        normalize_confidence(1.5)


def test_supersedes_accepts_wikilinks():
    raw = b"---\nid: b-1\nsupersedes:\n- '[[a-1]]'\n- '[[facts/c-1.md|old]]'\n- d-1\n---\nx\n"
    assert parse_memory(raw, P).supersedes == ["a-1", "c-1", "d-1"]


def test_key_value_split():
    assert split_key_value("nombre: Lucas") == ("nombre", "Lucas")
    assert split_key_value("proyecto actual: vmem, a memory tool") == ("proyecto actual", "vmem, a memory tool")
    assert split_key_value("see https://example.com") == (None, "see https://example.com")
    assert split_key_value("Meeting at 10:30 tomorrow") == (None, "Meeting at 10:30 tomorrow")


def test_set_frontmatter_keys_touches_only_that_line():
    original = (
        "---\r\n# a comment the user wrote\r\nzeta: keep me\r\nid: a-1\r\nlast_confirmed: 2026-01-01T00:00:00+00:00\r\n"
        "nested:\r\n  deep: [1, 2]\r\ntags:\r\n- x\r\n---\r\n\r\nBody  with  odd   spacing\r\n\r\n"
    )
    when = dt.datetime(2026, 11, 22, 12, 0, tzinfo=dt.UTC)
    updated = set_frontmatter_keys(original, {"last_confirmed": when}, P)
    assert updated == original.replace("2026-01-01T00:00:00+00:00", "2026-11-22T12:00:00+00:00")
    added = set_frontmatter_keys(original, {"updated": when}, P)
    assert added == original.replace("- x\r\n---", "- x\r\nupdated: 2026-11-22T12:00:00+00:00\r\n---")


def test_set_frontmatter_keys_refuses_without_frontmatter():
    with pytest.raises(WriteRefused):
        set_frontmatter_keys("just text\n", {"last_confirmed": "x"}, P)


def test_an_alias_bomb_or_deep_nesting_is_one_broken_file(mech_vault):
    levels = ["a: &a [x, x, x, x, x, x, x, x, x]"] + [
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]" for i in range(8)
    ]
    write(mech_vault / "facts" / "bomb.md", "---\n" + "\n".join(levels) + "\n---\nbody\n")
    write(mech_vault / "facts" / "deep.md", "---\nx: " + "[" * 3000 + "]" * 3000 + "\n---\nbody\n")
    write(mech_vault / "facts" / "fine.md", "---\nid: fine\n---\nThe user collects fountain pens\n")
    started = time.monotonic()
    report, _ = vmem.open(mech_vault).sync()
    assert time.monotonic() - started < 30
    assert sorted(p.path for p in report.problems) == ["facts/bomb.md", "facts/deep.md"]
    hits = vmem.open(mech_vault).recall("fountain pens", include_pinned=False).hits
    assert [h.memory.id for h in hits] == ["fine"]


def test_libyaml_and_the_bounded_loader_read_plain_frontmatter_alike(tmp_path):
    """Plain frontmatter is read by libyaml (7x faster at sync); whatever the two loaders
    might read differently (tabs, tags, block scalars, byte-order marks, anchors) is read
    by the bounded one, so a file means the same either way and a hostile one is still
    bounded."""
    from vault_memory.vault import fileformat

    template = Path(__file__).resolve().parent.parent / "vault-template"
    plain = [
        "id: a\ntype: fact\ncreated: 2026-01-01T10:00:00+01:00\ntags:\n- x\n- y\nconfidence: high",
        "key: city\nsupersedes: [a, b]\nextra: {k: 1, j: [2, 3]}\nexpires: 2026-02-01\nturn: 3",
        "text: 'it''s'\nnote: \"caf\\u00e9\"\nn: 1_000\nflag: yes\nnothing: ~\nhex: 0x1F",
    ]
    for path in template.rglob("*.md"):
        fm, _, _ = fileformat.split_frontmatter(path.read_text(encoding="utf-8"), path)
        if fm:
            plain.append(fm)
    for fm in plain:
        assert fileformat._plain(fm), fm
        assert fileformat._load(fm) == yaml.load(fm, Loader=fileformat._BoundedLoader), fm  # noqa: S506
    not_plain = ["a: &x [1]\nb: *x", "a:\tb", "a: !!binary aGk=", "a: |\n  x", "\ufeffa: b", "a: x\u2028b"]
    assert not any(fileformat._plain(fm) for fm in not_plain)
    bomb = "n0: &n0 [x,x]\n" + "".join(f"n{i}: &n{i} [*n{i - 1},*n{i - 1}]\n" for i in range(1, 20))
    with pytest.raises(FrontmatterError, match="aliases"):
        parse_memory(f"---\n{bomb}---\nbody\n".encode(), Path("bomb.md"))
    cut = "x: " + "[" * 30 + "]" * 30
    with pytest.raises(FrontmatterError, match="nested"):
        parse_memory(f"---\n{cut}\n---\nbody\n".encode(), Path("deep.md"))


def test_a_created_date_at_the_calendars_edge_is_read_in_any_time_zone(tmp_path, monkeypatch):
    """Attack on this stop's surfaces: ``created: 0001-01-01`` with TZ=UTC was refused as
    "year 0 is out of range" (turned into a local time, it fell before year 1)."""
    import time

    import vault_memory as vmem

    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    try:
        mem = vmem.init(tmp_path / "v", examples=False)
        (mem.root / "facts" / "first.md").write_text("---\nid: first-boat\ncreated: 0001-01-01\n---\nThe first boat\n")
        assert not [p for p in mem.doctor().problems if p.path == "facts/first.md"]
        assert mem.show("first-boat").created.year == 1
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
