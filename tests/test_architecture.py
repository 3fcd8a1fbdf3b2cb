"""The shape of the package that the import contracts cannot see."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from vault_memory.backend.protocol import Op

PACKAGE = Path(__file__).resolve().parent.parent / "vault_memory"


def modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path.relative_to(PACKAGE).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


def test_only_the_protocol_module_names_the_operations():
    """Every request names its operation through ``Op``; no module spells one out."""
    names = {op.value for op in Op}
    offenders = []
    for name, tree in modules():
        if name == "backend/protocol.py":
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "request" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and first.value in names:
                    offenders.append(f"{name}:{node.lineno}")
            if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "op":
                for right in node.comparators:
                    if isinstance(right, ast.Constant) and right.value in names:
                        offenders.append(f"{name}:{node.lineno}")
    assert offenders == []


def test_only_the_catalog_and_the_ingest_ledger_touch_their_connections():
    """SQL lives in two modules, each with a database of its own: the index's catalog and
    the ledger of conversations read (``conversation/ledger.py``)."""
    offenders = [
        f"{name}:{node.lineno}"
        for name, tree in modules()
        if name not in ("index/catalog.py", "conversation/ledger.py")
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr in ("_db", "db", "execute", "executemany")
    ]
    assert offenders == []


def test_words_of_a_language_live_in_its_pack():
    """A rule's words are a pack's data, so a new language is a pack and its examples: no
    module outside ``lang/`` holds a word a non-English pack lists (two or more in its string
    constants; docstrings and comments aside)."""
    from vault_memory.lang import all_packs

    english = next(p for p in all_packs() if p.code == "en").function_words
    words = {w for p in all_packs() if p.code != "en" for w in p.function_words if len(w) >= 3} - english
    holding = set()
    for name, tree in modules():
        if name.startswith("lang/"):
            continue
        docs = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        said = {
            w.lower()
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
            for w in re.findall(r"[^\W\d_]+", node.value)
        }
        if len(said & words) >= 2:
            holding.add(name)
    assert sorted(holding) == []


def test_a_recall_reads_its_question_once(tmp_path, monkeypatch):
    """Issue 60: each reading of the question (its language, its folded words, its people,
    its kinds, its times) is made once a recall: the times from the question as asked, the
    rest from its subject, once a time relative to today is taken out. The recall's stages
    each tokenised it again, and accent folding alone ran three times."""
    import collections
    import functools

    import vault_memory as vmem
    import vault_memory.lang.question as question
    import vault_memory.lang.times as times
    from vault_memory.vault.template import create_vault

    asked = "what should I avoid eating yesterday?"
    read: collections.Counter = collections.Counter()

    def counted(module, name):
        reading = getattr(module, name)

        @functools.wraps(reading)
        def counting(text, *args, **kwargs):
            if isinstance(text, str) and text.startswith("what should I avoid eating"):
                read[(name, text)] += 1
            return reading(text, *args, **kwargs)

        monkeypatch.setattr(module, name, counting)

    readings = ("detect", "people", "about_the_user", "asks_about_food", "asks_about_medicine", "subject_asked")
    for name in (*readings, "fold_accents"):
        counted(question, name)
    for name in ("relative_times", "named_time", "time_words"):
        counted(times, name)
    question.read_question.cache_clear()
    with vmem.open(create_vault(tmp_path / "vault"), use_daemon=False) as mem:
        assert "peanut" in mem.recall(asked).block
    subject = "what should I avoid eating  ?"
    assert dict(read) == {
        **{(name, subject): 1 for name in (*readings, "fold_accents")},
        **{(name, asked): 1 for name in ("relative_times", "named_time", "time_words")},
    }
