"""Reading and writing one memory file: bytes ⇄ ``Memory``.

Parsing is strict about what it reports and lenient about what it accepts: every problem
becomes a ``MemoryFileError`` that names the file and the line, and nothing here ever
changes a file. Serialising is deterministic (fixed key order, no line wrapping) so writing
the same memory twice gives the same bytes. ``set_frontmatter_keys`` edits single keys in
place and leaves every other byte of the file as it was.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import frontmatter
import yaml

from ..config import ALL_TYPES
from ..errors import EncodingError, FrontmatterError, MemoryFileError, MergeConflict, WriteRefused
from .ids import derived_id, is_valid_id
from .markers import merge_conflict
from .memory import DERIVED_KEYS, KNOWN_KEYS, Memory
from .values import (
    as_date_or_datetime,
    as_datetime,
    as_str_list,
    normalize_confidence,
    normalize_tag,
    normalize_type,
    reference_target,
)

T = TypeVar("T")

_DELIM = re.compile(r"^-{3}[ \t]*\r?$")
_CLOSE = re.compile(r"^(?:-{3}|\.{3})[ \t]*\r?$")
#: a top-level key: group 1 up to its colon, its trailing spaces kept (a lazy group before
#: ``\s*:`` backtracked quadratically on a line of spaces)
_TOP_KEY = re.compile(r"^([^\s#\-][^:]*):(?:\s|$)")
_YAML = frontmatter.YAMLHandler()


class _VaultDumper(yaml.SafeDumper):
    """Datetimes as plain ISO 8601 (``2026-11-22T09:30:00+01:00``) so Obsidian shows them
    as dates; strings that merely look like dates stay quoted."""


def _represent_datetime(dumper: yaml.representer.SafeRepresenter, value: dt.datetime) -> yaml.Node:
    return dumper.represent_scalar("tag:yaml.org,2002:timestamp", value.isoformat())


_VaultDumper.add_representer(dt.datetime, _represent_datetime)

#: libyaml's emitter with the same representers (about 4x faster: a third of writing a
#: memory's file), for values it writes byte for byte as PyYAML does (``_emits_alike``)
_FastDumper: type = _VaultDumper
if getattr(yaml, "__with_libyaml__", False):

    class _CDumper(yaml.CSafeDumper):
        """libyaml's emitter; ``_VaultDumper``'s datetimes."""

    _CDumper.add_representer(dt.datetime, _represent_datetime)
    _FastDumper = _CDumper

#: text libyaml writes as PyYAML does: printable, on one line, in the Basic Multilingual
#: Plane (libyaml escapes an emoji as ``\U0001F600``, and quotes line breaks otherwise)
_ALIKE_TEXT = re.compile(r"[\x20-\x7e\u00a0-\ud7ff\ue000-\ufffd]*\Z")


def _emits_alike(value: Any) -> bool:
    if isinstance(value, str):
        return _ALIKE_TEXT.match(value) is not None
    if isinstance(value, dict):
        return all(_emits_alike(k) and _emits_alike(v) for k, v in value.items())
    if isinstance(value, list | tuple | set):
        return all(_emits_alike(v) for v in value)
    return True


def _dumper_for(values: dict[str, Any]) -> type:
    return _FastDumper if _emits_alike(values) else _VaultDumper


def decode(raw: bytes, path: Path) -> str:
    """UTF-8 text, or an ``EncodingError`` naming the line of the first bad byte."""
    if b"\x00" in raw:
        raise EncodingError(path, "binary file (contains NUL bytes), not a Markdown memory")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise EncodingError(path, f"not UTF-8 text (byte {e.start})", line=line) from None
    return text[1:] if text.startswith("\ufeff") else text


def split_frontmatter(text: str, path: Path) -> tuple[str | None, str, int]:
    """(frontmatter text or None, body, line number where the body starts)."""
    lines = text.splitlines(keepends=True)
    if not lines or not _DELIM.match(lines[0].rstrip("\n")):
        return None, text, 1
    for i in range(1, len(lines)):
        if _CLOSE.match(lines[i].rstrip("\n")):
            return "".join(lines[1:i]), "".join(lines[i + 1 :]), i + 2
    raise FrontmatterError(path, "frontmatter opened with '---' is never closed by a '---' line", line=1)


def head_length(text: str) -> int:
    """How many characters of ``text`` (as decoded, a BOM kept) are its frontmatter, the
    closing line included: 0 for none. The same reading as ``split_frontmatter``, so a tool
    that edits only what follows cannot reach the frontmatter in any encoding (a BOM, CRLF)."""
    start = 1 if text.startswith("\ufeff") else 0
    lines = text[start:].splitlines(keepends=True)
    if not lines or not _DELIM.match(lines[0].rstrip("\n")):
        return 0
    end = start + len(lines[0])
    for line in lines[1:]:
        end += len(line)
        if _CLOSE.match(line.rstrip("\n")):
            return end
    raise FrontmatterError(Path("?"), "frontmatter opened with '---' is never closed by a '---' line", line=1)


def repeated_keys(fm: str) -> list[tuple[str, list[int]]]:
    """Top-level keys the frontmatter sets more than once, with their lines (YAML keeps the
    last silently: a hand edit that added ``confidence:`` under the old one)."""
    seen: dict[str, list[int]] = {}
    for n, line in enumerate(fm.splitlines(), start=2):
        m = _TOP_KEY.match(line)
        if m:
            seen.setdefault(m.group(1).rstrip().strip("'\""), []).append(n)
    return [(key, lines) for key, lines in seen.items() if len(lines) > 1]


def _key_line(fm: str, key: str) -> int:
    """1-based line in the file of a top-level key (the opening ``---`` is line 1)."""
    for n, line in enumerate(fm.splitlines(), start=2):
        m = _TOP_KEY.match(line)
        if m and m.group(1).rstrip().strip("'\"") == key:
            return n
    return 2


#: what one file's frontmatter may cost at most: beyond these it is reported like any broken
#: file, so a hostile file (an alias bomb, ``[[[[…]]]]``) cannot stall or crash a whole vault
MAX_ALIASES = 32
MAX_DEPTH = 24
MAX_VALUES = 10_000


class _Bounded(yaml.YAMLError):
    def __init__(self, problem: str, mark: Any):
        super().__init__(problem)
        self.problem, self.problem_mark = problem, mark


class _BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader with a limit on aliases and on nesting depth."""

    def __init__(self, stream: str):
        super().__init__(stream)
        self._aliases = 0
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                raise _Bounded(f"more than {MAX_ALIASES} aliases (*name); not read", self.peek_event().start_mark)
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise _Bounded(f"nested more than {MAX_DEPTH} levels deep; not read", self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _checked_timestamp(loader: _BoundedLoader, node: Any) -> Any:
    """A YAML date or time that exists: ``2026-02-30``, hour 25, year 0000 or an offset of a
    day or more is this file's problem, named with its line, not an error that stops every
    command (PyYAML raises ``ValueError`` for them, which nothing caught)."""
    try:
        return yaml.SafeLoader.construct_yaml_timestamp(loader, node)
    except (ValueError, TypeError, OverflowError) as e:
        raise _Bounded(f"{node.value!r} is not a date or time that exists ({e})", node.start_mark) from None


_BoundedLoader.add_constructor("tag:yaml.org,2002:timestamp", _checked_timestamp)


#: libyaml's loader (about 7x faster), for frontmatter ``_plain`` enough to need no bounds
_FastLoader: type | None = None
if getattr(yaml, "__with_libyaml__", False):

    class _CLoader(yaml.CSafeLoader):
        """libyaml's parser with the same checked timestamps; the bounds are ``_plain``'s."""

    _CLoader.add_constructor("tag:yaml.org,2002:timestamp", _checked_timestamp)
    _FastLoader = _CLoader


#: characters after which libyaml and PyYAML may read a frontmatter differently (tabs,
#: tags, block scalars, byte-order marks, Unicode line breaks) or must be bounded
#: (anchors and aliases)
_NOT_PLAIN = re.compile("[&*!|>\t\x85\u2028\u2029\ufeff]")


def _plain(fm: str) -> bool:
    """Frontmatter both loaders read alike (found by comparing them on 60,000 random ones),
    with no anchor or alias (no alias bomb) and too shallow to nest past ``MAX_DEPTH``: an
    indentation level or a bracket each, a sequence under a key its own."""
    if _NOT_PLAIN.search(fm):
        return False
    indent = max((len(line) - len(line.lstrip(" ")) for line in fm.splitlines()), default=0)
    return 2 * (indent + 1) + fm.count("[") + fm.count("{") < MAX_DEPTH


def _load(fm: str) -> Any:
    """The frontmatter's values: by libyaml when ``_plain``, else (and for every problem, so
    it is named as before) by the bounded pure-Python loader."""
    if _FastLoader is not None and _plain(fm):
        try:
            return yaml.load(fm, Loader=_FastLoader)  # noqa: S506 (a SafeLoader)
        except yaml.YAMLError:
            pass
    return yaml.load(fm, Loader=_BoundedLoader)  # noqa: S506 (a SafeLoader)


def _expanded_size(value: Any, limit: int) -> int:
    """How many values ``value`` holds once aliases are written out (stops past ``limit``)."""
    count, stack = 0, [value]
    while stack and count <= limit:
        item = stack.pop()
        count += 1
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return count


def load_yaml(fm: str, path: Path) -> dict[str, Any]:
    try:
        data = _load(fm)
    except RecursionError:
        raise FrontmatterError(path, "broken YAML frontmatter: nested too deeply; not read", line=2) from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
        line = mark.line + 2 if mark is not None else 2
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        context, context_mark = getattr(e, "context", None), getattr(e, "context_mark", None)
        if context and context_mark is not None and context_mark.line + 2 != line:
            problem += f" ({context} started on line {context_mark.line + 2})"
        if "{{" in fm:  # an Obsidian template ({{date}}, {{title}}): a template, not a memory
            problem += (
                "; it holds {{…}} placeholders, so it looks like a template: keep templates in the folder "
                "Obsidian's Templates setting names (vmem skips it), or list their folder in .vmemignore"
            )
        raise FrontmatterError(path, f"broken YAML frontmatter: {problem}", line=line) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise FrontmatterError(path, "frontmatter must be 'key: value' lines", line=2)
    if _expanded_size(data, MAX_VALUES) > MAX_VALUES:
        raise FrontmatterError(path, f"frontmatter expands to more than {MAX_VALUES:,} values; not read", line=2)
    return {str(k): v for k, v in data.items()}


#: an ``id:`` line of a frontmatter, read without parsing it
_ID_LINE = re.compile(rb"^id:[ \t]*[\"']?([^\s\"'#]{1,200})", re.M)


def claimed_id(raw: bytes) -> str | None:
    """The id a file's frontmatter names, read without parsing the rest: a file too broken
    to parse (or skipped) still claims its id, and no new memory may take it."""
    head = raw[:4096]
    if not head.lstrip(b"\xef\xbb\xbf").startswith(b"---"):
        return None
    found = _ID_LINE.search(head)
    return found.group(1).decode("utf-8", "replace") if found else None


def parse_memory(raw: bytes, relpath: Path) -> Memory:
    """Parse a file's bytes. ``relpath`` is relative to the vault and used in messages."""
    text = decode(raw, relpath)
    if not text.strip():
        raise MemoryFileError(relpath, "empty file")
    conflict = merge_conflict(text)
    if conflict is not None:  # two versions at once: never read as one memory, never shown raw
        line, ours, theirs = conflict
        raise MergeConflict(
            relpath,
            f"git merge conflict between {ours} and {theirs}: keep one side, delete the <<<<<<< ======= >>>>>>> "
            "lines, then `git add` it",
            line=line,
        )
    fm, body, _ = split_frontmatter(text, relpath)
    data = load_yaml(fm, relpath) if fm is not None else {}
    return memory_from_frontmatter(data, body, relpath, fm or "")


class _Fields:
    """A frontmatter's values read with their checks; every wrong one is kept in
    ``wrong`` with its line, so one ``FrontmatterError`` names them all."""

    def __init__(self, data: dict[str, Any], fm: str):
        self.data, self.fm = data, fm
        self.wrong: list[tuple[int | None, str]] = []

    def fail(self, key: str, message: str) -> None:
        self.wrong.append((_key_line(self.fm, key), f"'{key}': {message}"))

    def scalar(self, key: str) -> str | None:
        v = self.data.get(key)
        if v is None:
            return None
        if isinstance(v, (dict, list)):
            self.fail(key, "must be a single value, not a list or mapping")
            return None
        return str(v)

    def when(self, key: str, conv: Callable[[Any], Any] = as_datetime) -> Any:
        v = self.data.get(key)
        if v is None or v == "":
            return None
        try:
            return conv(v)
        except ValueError as e:
            self.fail(key, str(e))
            return None

    def checked(self, key: str, convert: Callable[[], T], default: T) -> T:
        try:
            return convert()
        except ValueError as e:
            self.fail(key, str(e))
            return default

    def identity(self, relpath: Path) -> tuple[str, bool]:
        """(id, derived from the file name): a valid ``id`` value, else the file's own."""
        raw_id = self.data.get("id")
        if raw_id is not None and raw_id != "":
            if is_valid_id(str(raw_id).strip()):
                return str(raw_id).strip(), False
            self.fail("id", f"{raw_id!r} is not a valid id (letters, digits, '.', '_', '-'; no '/' or '..')")
        return derived_id(relpath), True

    def importance(self) -> float | None:
        value = self.data.get("importance")
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            self.fail("importance", f"must be a number from 0 to 1, not {value!r}")
            return None  # the file is refused: the value is never used
        return float(value)

    def turn(self) -> Any:
        value = self.data.get("turn")
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            self.fail("turn", f"must be a whole number, not {value!r}")
        return value

    def pinned(self) -> Any:
        """A boolean; "true" or "false" written as text (quoted, or by an editor's text
        property) is read as what it says: the whole memory was refused for it."""
        value = self.data.get("pinned", False)
        if value is None:
            return False
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        if not isinstance(value, bool):
            self.fail("pinned", f"must be true or false, not {value!r}")
        return value


def memory_from_frontmatter(data: dict[str, Any], body: str, relpath: Path, fm: str = "") -> Memory:
    """The memory these fields describe; a ``FrontmatterError`` naming every wrong field
    (the first as its message, the others in ``more``)."""
    f = _Fields(data, fm)
    mem_id, id_derived = f.identity(relpath)
    confidence = "medium"
    if data.get("confidence") is not None:
        confidence = f.checked("confidence", lambda: normalize_confidence(data["confidence"]), "medium")
    no_strings: list[str] = []
    supersedes = f.checked(
        "supersedes",
        lambda: [reference_target(r) for r in as_str_list(data.get("supersedes"), "supersedes")],
        no_strings,
    )
    raw_tags = data.get("tags")
    if isinstance(raw_tags, str):
        raw_tags = [t for t in re.split(r"[,\s]+", raw_tags) if t]
    tags = f.checked(
        "tags", lambda: [normalize_tag(t) for t in as_str_list(raw_tags, "tags") if normalize_tag(t)], no_strings
    )
    importance, turn, pinned = f.importance(), f.turn(), f.pinned()
    scalar, when, wrong = f.scalar, f.when, f.wrong
    values = {
        "key": scalar("key"),
        "domain": scalar("domain"),
        "source": scalar("source"),
        "created": when("created"),
        "updated": when("updated"),
        "last_confirmed": when("last_confirmed"),
        "expires": when("expires", as_date_or_datetime),
        "persona": scalar("persona"),
        "scope": scalar("scope"),
        "conversation": scalar("conversation"),
    }
    if wrong:
        (line, message), *more = sorted(wrong, key=lambda w: w[0] or 0)
        raise FrontmatterError(relpath, message, line=line, more=more)
    return Memory(
        id=mem_id,
        text=body.strip(),
        type=normalize_type(data.get("type")) if data else "note",
        confidence=confidence,
        supersedes=supersedes,
        importance=importance,
        pinned=pinned,
        tags=tags,
        turn=turn,
        extra={k: v for k, v in data.items() if k not in KNOWN_KEYS},
        path=relpath,
        id_derived=id_derived,
        **values,
    )


def type_warning(data: dict[str, Any], fm: str = "") -> tuple[int | None, str] | None:
    """A ``type`` vmem does not know ('fakt'): the file still loads, as a note, which is
    rarely what its author meant. (line, message), or None."""
    value = data.get("type")
    if value is None or (isinstance(value, str) and value.strip().lower() in ALL_TYPES):
        return None
    return _key_line(fm, "type"), (
        f"'type': {value!r} is not one of {', '.join(ALL_TYPES)}; the file is read as a note"
    )


def dump_yaml(values: dict[str, Any]) -> str:
    return yaml.dump(
        values, Dumper=_dumper_for(values), sort_keys=False, allow_unicode=True, default_flow_style=False, width=10**6
    )


def serialize_memory(memory: Memory) -> str:
    """The file text vmem writes for a memory: deterministic, one trailing newline."""
    values = memory.frontmatter()
    post = frontmatter.Post(memory.text.strip(), **values)
    return (
        frontmatter.dumps(
            post,
            handler=_YAML,
            Dumper=_dumper_for(values),
            sort_keys=False,
            allow_unicode=True,
            default_flow_style=False,
            width=10**6,
        )
        + "\n"
    )


def set_frontmatter_keys(text: str, updates: dict[str, Any], path: Path) -> str:
    """Set top-level keys by editing only their lines; every other byte stays as it was.

    A key that exists has exactly the lines its YAML node spans replaced (comments, blank
    lines and odd indentation around it stay); a new key is appended at the end of the
    block. A leading byte-order mark and CRLF line ends are kept. The result is parsed again
    and compared, and the edit is refused if anything but the requested keys changed.
    """
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    text = text[len(bom) :]
    fm, _body, _ = split_frontmatter(text, path)
    if fm is None:
        raise WriteRefused(f"{path}: has no frontmatter block to update; add one by hand first")
    before = load_yaml(fm, path)
    lines = text.splitlines(keepends=True)
    newline = "\r\n" if lines[0].endswith("\r\n") else "\n"
    for key, value in updates.items():
        fm = "".join(lines[1 : _closing_line(lines)])
        rendered = dump_yaml({key: value}).rstrip("\n").replace("\n", newline) + newline
        span = _key_span(fm, key)
        if span is None:
            lines.insert(_closing_line(lines), rendered)
        else:
            lines[1 + span[0] : 1 + span[1]] = [rendered]
    result = "".join(lines)
    after = load_yaml(split_frontmatter(result, path)[0] or "", path)
    expected = dict(before)
    expected.update(updates)
    if _comparable(after) != _comparable(expected):
        raise WriteRefused(
            f"{path}: could not update {', '.join(updates)} without touching other keys; file left as is"
        )
    return bom + result


def _closing_line(lines: list[str]) -> int:
    """Index of the line that closes the frontmatter (the first line is the opening one)."""
    for i in range(1, len(lines)):
        if _CLOSE.match(lines[i].rstrip("\n")):
            return i
    raise WriteRefused("the frontmatter block is not closed")


def _key_span(fm: str, key: str) -> tuple[int, int] | None:
    """[first, last + 1) lines of ``fm`` that a top-level key and its value occupy."""
    node = yaml.compose(fm, Loader=_BoundedLoader)  # noqa: S506 (a SafeLoader)
    if not isinstance(node, yaml.MappingNode):
        return None
    for key_node, value_node in node.value:
        if isinstance(key_node, yaml.ScalarNode) and str(key_node.value) == key:
            end = value_node.end_mark
            last = end.line if end.column > 0 else end.line - 1  # a block value ends at the next line's start
            return key_node.start_mark.line, max(last, key_node.start_mark.line) + 1
    return None


def _comparable(data: dict[str, Any]) -> dict[str, Any]:
    return {k: (v.isoformat() if isinstance(v, (dt.date, dt.datetime)) else v) for k, v in data.items()}


def parse_record(record: dict[str, Any]) -> Memory:
    """A memory from a record someone handed in (an export line), checked like a file's
    frontmatter. Records vmem wrote itself (catalog rows, the daemon's answers) are read
    with the trusting ``Memory.from_record``."""
    text = record.get("text")
    if not isinstance(text, str) or not text.strip():
        raise FrontmatterError(Path("import.md"), f"'text' must be the memory's text, not {text!r}")
    kind = record.get("type")
    if kind is not None and not (isinstance(kind, str) and kind.strip().lower() in ALL_TYPES):
        # a file may misname its type (it is read as a note, and doctor says so); an import may not
        raise FrontmatterError(Path("import.md"), f"'type': {kind!r} is not one of {', '.join(ALL_TYPES)}")
    derived = {"text", "path", "id_derived", *DERIVED_KEYS}  # a record's, not a frontmatter's
    data = {k: v for k, v in record.items() if k not in derived and v not in (None, [], False)}
    rel = Path(record["path"]) if record.get("path") else Path("import.md")
    memory = memory_from_frontmatter(data, str(record.get("text") or ""), rel)
    if record.get("id_derived") or memory.id_derived:
        memory.id = str(record.get("id") or memory.id)
        memory.id_derived = bool(record.get("id_derived", True))
    if not record.get("path"):
        memory.path = None
    return memory
