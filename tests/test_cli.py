import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import VMEM, Cli, tree_digest, write

import vault_memory as vmem
from vault_memory.vault.template import create_vault


def test_init_creates_a_vault(tmp_path):
    cli = Cli(None)
    result = cli("init", str(tmp_path / "v"), vault=False)
    assert result.exit_code == 0, result.output
    v = tmp_path / "v"
    assert (v / "vmem.toml").is_file() and ".vmem/" in (v / ".gitignore").read_text().splitlines()
    assert (v / "README.md").is_file() and list((v / "facts").glob("*.md"))
    again = cli("init", str(v), vault=False)
    assert again.exit_code == 1 and "already a vault" in again.output


def test_init_says_that_its_examples_will_reach_an_agents_prompts(tmp_path):
    """The pinned example name reached every prompt of a user who installed the hooks,
    and nothing said so."""
    cli = Cli(None)
    result = cli("init", str(tmp_path / "v"), vault=False)
    assert "6 example memories" in result.stderr and "nombre: Lucas" in result.stderr and "--empty" in result.stderr
    assert "example" not in cli("init", str(tmp_path / "e"), "--empty", vault=False).stderr


def test_docs_has_a_hooks_topic():
    result = Cli(None)("docs", "hooks", vault=False)
    assert result.exit_code == 0 and "vmem mcp install" in result.stdout and "Claude Code plugin" in result.stdout


def test_remember_list_show(cli, vault_dir):
    created = cli.json("remember", "mascota: Luna", "--tag", "#pets", "--domain", "personal")
    assert set(created) >= {"id", "path"} and (vault_dir / created["path"]).is_file()
    assert created["status"] == "created"
    listed = cli.json("list", "--key", "mascota")
    mine = [m for m in listed if m["id"] == created["id"]][0]
    assert {"id", "type", "key", "text", "path", "confidence", "created"} <= set(mine)
    assert (mine["key"], mine["text"], mine["tags"], mine["state"]) == ("mascota", "Luna", ["pets"], "active")
    assert all(m["type"] == "fact" for m in cli.json("list", "--type", "fact"))
    # hand edit of the body is what show prints
    path = vault_dir / created["path"]
    path.write_text(path.read_text().replace("\nLuna", "\nLuna, a grey cat"))
    shown = cli("show", created["id"])
    assert shown.exit_code == 0 and "Luna, a grey cat" in shown.stdout
    assert cli.json("show", created["id"])["text"] == "Luna, a grey cat"
    plain = cli("remember", "Deploys happen on Tuesdays", "--type", "episode", "--expires", "2097-01-01")
    assert plain.exit_code == 0 and plain.stdout.strip().startswith("20")


def test_remember_says_what_it_did_instead_of_a_new_file(cli):
    """Reconfirming and superseding print the id they wrote and, on stderr, what happened and
    what to do next (the outcomes told apart by their type)."""
    first = cli("remember", "nombre: Lucas").stdout.strip()
    again = cli("remember", "nombre: Lucas")
    assert again.stdout.strip() == first and "Already known" in again.stderr and "--new" in again.stderr
    changed = cli("remember", "nombre: Pedro")
    assert changed.stdout.strip() != first
    assert f"Supersedes {first}" in changed.stderr and "vmem history" in changed.stderr


def test_a_negation_said_in_full_restates_its_contraction(cli):
    """Before, "We do not deploy on Fridays" after "We don't deploy on Fridays" was written
    as a second file and both were recalled: "don't" was a word of its own, so the new text
    seemed to add "not". A negation, contracted or not, now says "not"; one without it is
    still new."""
    first = cli("remember", "We don't deploy on Fridays").stdout.strip()
    again = cli("remember", "We do not deploy on Fridays")
    assert again.stdout.strip() == first and "Already known" in again.stderr
    assert cli("remember", "We deploy on Fridays").stdout.strip() != first


def test_remembering_bytes_that_are_not_utf8_is_refused_with_a_reason(tmp_path):
    """`vmem remember -` of a Latin-1 file ("café" as one byte) ended in a traceback from
    the tokenizer, or in "'utf-8' codec can't encode… surrogates not allowed": stdin's
    undecodable bytes arrive as lone surrogates, which no Markdown file can hold."""
    from vault_memory.vault.template import create_vault

    vault = create_vault(tmp_path / "vault")
    before = tree_digest(vault)
    env = {k: v for k, v in os.environ.items() if not k.startswith("VMEM_")}
    for said in (b"I am allergic to \xff peanuts", b"caf\xe9 con leche"):
        done = subprocess.run(
            [VMEM, "remember", "-", "--vault", str(vault)], input=said, capture_output=True, env=env, timeout=120
        )
        assert done.returncode == 2 and b"not UTF-8" in done.stderr and b"Traceback" not in done.stderr, done.stderr
    assert tree_digest(vault) == before


def test_remember_rejects_bad_options(cli):
    assert cli("remember", "x", "--type", "opinion").exit_code == 2
    bad = cli("remember", "x", "--confidence", "maybe")
    assert bad.exit_code == 2 and "confidence" in bad.output
    assert cli("remember", "x", "--expires", "next tuesday").exit_code == 2


def test_forget_restore_correct(cli, vault_dir):
    mid = cli.json("remember", "trabajo: Acme")["id"]
    path = vault_dir / cli.json("show", mid)["path"]
    before = path.read_bytes()
    out = cli("forget", mid)
    assert out.exit_code == 0 and "vmem restore" in out.stdout and not path.exists()
    assert cli("show", mid).exit_code == 1
    assert cli("restore", mid).exit_code == 0 and path.read_bytes() == before
    new = cli("correct", mid, "Globex")
    assert new.exit_code == 0
    new_id = new.stdout.strip()
    assert cli.json("show", new_id)["supersedes"] == [mid]
    assert cli.json("show", new_id)["text"] == "Globex"
    assert path.read_bytes() == before


@pytest.mark.parametrize("cmd", [["show"], ["forget"], ["correct"]])
def test_path_like_ids_are_refused(cli, cmd, vault_dir):
    before = tree_digest(vault_dir)
    args = [*cmd, "../../etc/passwd"] + (["x"] if cmd == ["correct"] else [])
    result = cli(*args)
    assert result.exit_code == 1 and "not a valid memory id" in result.output
    assert tree_digest(vault_dir) == before


def test_doctor_finds_problems_and_changes_nothing(cli, vault_dir):
    ok = cli("doctor")
    assert ok.exit_code == 0, ok.output
    write(vault_dir / "facts" / "broken.md", "---\nid: b-1\nconfidence: high\ntags: [a, b\n---\nbody\n")
    write(vault_dir / "facts" / "cycle-a.md", "---\nid: cyc-a\nsupersedes: cyc-b\n---\na\n")
    write(vault_dir / "facts" / "cycle-b.md", "---\nid: cyc-b\nsupersedes: '[[cyc-a]]'\n---\nb\n")
    write(vault_dir / "facts" / "dangling.md", "---\nid: dang-1\nsupersedes: nowhere-1\n---\nd\n")
    write(vault_dir / "facts" / "types.md", "---\nid: t-1\ncreated: yesterday\n---\nd\n")
    before = tree_digest(vault_dir)
    result = cli("doctor")
    assert result.exit_code == 1
    assert "facts/broken.md:4" in result.stdout or "facts/broken.md:5" in result.stdout
    report = cli("doctor", "--json")
    assert report.exit_code == 1
    kinds = {(p["path"], p["kind"]) for p in json.loads(report.stdout)["problems"]}
    assert kinds == {
        ("facts/broken.md", "frontmatter"),
        ("facts/cycle-a.md", "supersedes_cycle"),
        ("facts/dangling.md", "dangling_supersedes"),
        ("facts/types.md", "frontmatter"),
    }
    assert tree_digest(vault_dir) == before


def test_doctor_names_every_wrong_field_and_a_type_it_does_not_know(cli, vault_dir):
    """It named one problem per file per run (fix, rerun, find the next), and `type: fakt`
    passed silently while the file became a note."""
    write(
        vault_dir / "facts" / "typo.md",
        "---\nid: typo-1\ntype: fakt\nconfidence: hihg\nexpires: soon\npinned: maybe\n---\nThe user likes tea\n",
    )
    write(vault_dir / "facts" / "note.md", "---\nid: typo-2\ntype: Fakt\n---\nThe user likes coffee\n")
    report = cli("doctor", "--json")
    assert report.exit_code == 1
    found = {(p["path"], p["line"], p["kind"]) for p in json.loads(report.stdout)["problems"]}
    assert found == {
        ("facts/typo.md", 3, "unknown_type"),
        ("facts/typo.md", 4, "frontmatter"),
        ("facts/typo.md", 5, "frontmatter"),
        ("facts/typo.md", 6, "frontmatter"),
        ("facts/note.md", 3, "unknown_type"),
    }
    assert "'fakt' is not one of fact, summary, episode, note" in cli("doctor").stdout


def test_list_lines_up_its_columns(cli, vault_dir):
    """Ids of different lengths pushed every later column out of line."""
    write(vault_dir / "facts" / "short.md", "---\nid: ab12\ntype: summary\n---\nA short id\n")
    lines = cli("list").stdout.splitlines()
    assert len(lines) > 2
    for column in ("fact", "20"):  # the type column and the date column start where the others' do
        starts = {line.index(f" {column}") for line in lines if f" {column}" in line}
        assert len(starts) == 1, lines


def test_list_skips_broken_files_with_a_warning(cli, vault_dir):
    write(vault_dir / "facts" / "broken.md", "---\nid: [\n---\nx\n")
    result = cli("list", "--json")
    assert result.exit_code == 0
    assert "facts/broken.md:3: broken YAML" in result.stderr
    assert len(json.loads(result.stdout)) == 6


def test_export_import_round_trip(cli, vault_dir, tmp_path):
    cli("remember", "ubicacion: Madrid", "--persona", "coach", "--pin")
    write(vault_dir / "notes" / "hand.md", "A hand-written note with no frontmatter.\n")
    exported = cli("export")
    assert exported.exit_code == 0
    lines = exported.stdout.splitlines()
    assert len(lines) == 8 and all(json.loads(line)["id"] for line in lines)
    dump = write(tmp_path / "dump.jsonl", exported.stdout)

    other = Cli(tmp_path / "other")
    assert other("init", str(tmp_path / "other"), "--empty", vault=False).exit_code == 0
    imported = other("import", str(dump))
    assert imported.exit_code == 0, imported.output
    assert "8 added" in imported.stdout

    def without_paths(text: str) -> list[dict]:  # import names the files itself, by id
        return [{k: v for k, v in json.loads(line).items() if k != "path"} for line in text.splitlines()]

    assert without_paths(other("export").stdout) == without_paths(exported.stdout)
    assert json.loads(other("show", "hand-fb92", "--json").stdout)["path"] == "notes/hand-fb92.md"
    again = other("import", str(dump), "--json")
    assert json.loads(again.stdout)["counts"]["unchanged"] == 8


def test_import_reports_bad_lines(cli, tmp_path):
    dump = write(
        tmp_path / "bad.jsonl",
        '{"id": "ok-import-1", "type": "fact", "text": "fine"}\nnot json\n{"id": "../x", "text": "t"}\n',
    )
    result = cli("import", str(dump))
    assert result.exit_code == 1
    assert "bad.jsonl:2" in result.stderr and "bad.jsonl:3" in result.stderr
    assert cli.json("show", "ok-import-1")["text"] == "fine"


def test_import_refuses_a_text_that_is_not_text_and_a_type_that_does_not_exist(cli, tmp_path):
    """`text: 5` and `type: bogus` were imported silently (a note "5", a note of figs)."""
    dump = write(
        tmp_path / "odd.jsonl",
        '{"text": 5}\n{"text": "The user likes figs", "type": "bogus"}\n{"text": "The user likes plums", "type": "Fact"}\n',
    )
    result = cli("import", str(dump))
    assert result.exit_code == 1
    assert "odd.jsonl:1" in result.stderr and "'text' must be the memory's text" in result.stderr
    assert "odd.jsonl:2" in result.stderr and "'bogus' is not one of" in result.stderr
    assert [m["text"] for m in cli.json("list", "--type", "fact") if "plums" in m["text"] or "figs" in m["text"]] == [
        "The user likes plums"
    ]


def test_no_vault_found_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.delenv("VMEM_VAULT", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "nothing"))
    monkeypatch.chdir(tmp_path)
    result = Cli(None)("list", vault=False)
    assert result.exit_code == 1 and "no vault found" in result.output


def test_autocommit_commits_each_write(tmp_path, monkeypatch):
    v = tmp_path / "gv"
    Cli(None)("init", str(v), "--empty", vault=False)
    toml = v / "vmem.toml"
    toml.write_text(toml.read_text().replace("autocommit = false", "autocommit = true"))
    git = ["git", "-C", str(v), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run(["git", "init", "-q", str(v)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "init"], check=True)
    env_cli = Cli(v)
    for name, value in dict(
        GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t"
    ).items():
        monkeypatch.setenv(name, value)
    mid = env_cli.json("remember", "nombre: Lucas")["id"]
    env_cli("forget", mid)
    log = subprocess.run([*git, "log", "--format=%s"], capture_output=True, text=True, check=True).stdout.splitlines()
    assert log[:2] == [f"vmem: forget {mid}", f"vmem: remember {mid}"]
    assert subprocess.run([*git, "status", "--porcelain"], capture_output=True, text=True).stdout == ""


def test_console_script_and_module_entry_points(vault_dir):
    for argv in ([VMEM], [sys.executable, "-m", "vault_memory"]):
        out = subprocess.run([*argv, "list", "--json", "--vault", str(vault_dir)], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        assert len(json.loads(out.stdout)) == 6
    helped = subprocess.run([VMEM, "--help"], capture_output=True, text=True)
    assert "remember" in helped.stdout and "Examples" in helped.stdout


def test_small_defects(mech_vault, tmp_path):
    cli = Cli(mech_vault)
    assert cli("remember", "x", "--type", "bogus").exit_code == 2
    assert cli("recall", "x", "--as-of", "9999-12-31").exit_code in (0, 2)
    assert cli("export", "-o", str(tmp_path / "missing" / "out.jsonl")).exit_code == 1
    assert not (tmp_path / "missing").exists()
    exists = write(tmp_path / "file", "x")
    out = cli("init", str(exists), vault=False)
    assert out.exit_code == 1 and "Traceback" not in out.output
    mem = vmem.open(mech_vault)
    old = mem.remember("trabajo: backend").memory
    fixed = mem.correct(old.id, "frontend").memory
    assert f'supersedes: "[[{old.id}]]"' in (mech_vault / fixed.file).read_text().replace("'", '"')
    assert (mech_vault / ".vmem").stat().st_mode & 0o077 == 0
    listed = cli("list").stdout
    assert "superseded" in listed and "active" in listed


def test_what_a_new_user_typed_gets_a_clear_answer(tmp_path):
    """`--type facts` printed nothing and exited 0 (read as "nothing relevant"), `-n ²` gave a
    traceback in the fast path, `vmem ingest --help` was garbled, and a 2 MB memory was
    "created" as a file every sync skips."""
    from vault_memory.vault.template import create_vault

    vault = str(create_vault(tmp_path / "vault"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("VMEM_")}

    def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
        return subprocess.run([VMEM, *args], input=stdin, capture_output=True, text=True, env=env, timeout=120)

    typo = run("recall", "what do I eat?", "--type", "facts", "--vault", vault)
    assert typo.returncode == 2 and "did you mean 'fact'" in typo.stderr
    listed = run("list", "--type", "epsiode", "--vault", vault)
    assert listed.returncode == 2 and "did you mean 'episode'" in listed.stderr
    for args in (["-n", "²"], ["--budget", "²5"], ["-n", "①"]):
        odd = run("recall", "peanuts", *args, "--vault", vault)
        assert odd.returncode == 2 and "Traceback" not in odd.stderr, args
    helped = run("ingest", "--help").stdout
    assert "configured     (" not in helped and "echo 'User: remember that my sister is called Ana'" in helped
    big = run("remember", "-", "--vault", vault, stdin="word " * 300_000)
    assert big.returncode == 2 and "max_file_bytes" in big.stderr
    assert not [p for p in Path(vault, "facts").glob("*.md") if p.stat().st_size > 1_000_000]


def test_an_id_is_found_by_any_unique_part(cli, vault_dir):
    """Ids were accepted only by prefix: `vmem show ca4261`, the hash part people copy, was
    "no memory with id"."""
    shown = cli("show", "0d9e52", "--json")
    assert shown.exit_code == 0 and json.loads(shown.stdout)["id"] == "2026-10-20-prefers-short-answers-0d9e52"
    assert cli("show", "2026-09-14", "--json").exit_code == 1  # two memories: say so, never guess
    assert cli("confirm", "0d9e52").exit_code == 0


def test_init_here_makes_an_obsidian_vault_a_vault_without_touching_a_note(tmp_path):
    """`vmem init` refused a folder that held anything, so an existing Obsidian vault could
    not become a vmem vault. `vmem init --here` adds vmem.toml and .vmem/ (git leaves the
    latter out without an edit to the user's .gitignore), changes no note, says what it
    found and how it will read it, and the vault is the user's: agents may use it."""
    from vault_memory.config import locate_vault

    notes = tmp_path / "Obsidian"
    write(notes / ".obsidian" / "templates.json", '{"folder": "Templates"}')
    write(notes / "Templates" / "daily.md", "---\ndate: {{date}}\n---\n# {{title}}\n")
    write(notes / "Daily" / "2026-11-23.md", "---\ntags: [daily]\n---\n# Monday\nWent climbing with Ana.\n")
    write(notes / "diet.md", "---\ntype: fact\n---\nThe user is vegetarian\n")
    write(notes / "broken.md", "---\ntags: [unclosed\n---\nx\n")
    write(notes / ".gitignore", "*.tmp\n")
    subprocess.run(["git", "init", "-q", str(notes)], check=True)
    before = tree_digest(notes)

    refused = subprocess.run([VMEM, "init", str(notes)], capture_output=True, text=True)
    assert refused.returncode == 1 and "vmem init --here" in refused.stderr
    done = subprocess.run([VMEM, "init", "--here"], capture_output=True, text=True, cwd=notes)
    assert done.returncode == 0, done.stderr
    assert "4 Markdown files found; read as memories: 1 fact, 1 note" in done.stdout
    assert "1 left out by the ignore rules" in done.stdout and "1 cannot be read" in done.stderr
    after = tree_digest(notes)
    assert after.pop("vmem.toml") and after == before  # every note, and the .gitignore, as they were
    recalled = subprocess.run([VMEM, "recall", "what did I do on Monday?"], capture_output=True, text=True, cwd=notes)
    assert "climbing" in recalled.stdout
    status = subprocess.run(["git", "status", "--porcelain"], capture_output=True, text=True, cwd=notes).stdout
    assert ".vmem" not in status and "vmem.toml" in status
    assert locate_vault(cwd=notes / "Daily", chosen_only=True) == notes.resolve()
    again = subprocess.run([VMEM, "init", "--here"], capture_output=True, text=True, cwd=notes)
    assert again.returncode == 1 and "already a vault" in again.stderr


def test_doctor_says_when_a_frontmatter_key_is_set_twice(cli, vault_dir):
    """YAML keeps the last of two equal keys silently: a hand edit that added `confidence:`
    under the old one changed the memory without a word. doctor names both lines."""
    write(
        vault_dir / "facts" / "dup.md", "---\ntype: fact\nconfidence: low\nconfidence: high\n---\nThe user likes figs\n"
    )
    result = cli("doctor")
    assert result.exit_code == 1
    assert "facts/dup.md:4: 'confidence' is set 2 times (lines 3, 4); the last one is used" in result.stdout


def test_a_persona_no_memory_belongs_to_is_said_with_the_nearest_one(cli):
    """`--persona wrok` recalled the shared memories and said nothing, which reads as "the
    work persona knows nothing". A persona without memories is not refused (an agent's new
    persona has none yet); a near miss is named."""
    assert cli("remember", "The user wants formal answers at work", "--persona", "work").exit_code == 0
    typo = cli("recall", "how should answers sound?", "--persona", "wrok", "--no-daemon")
    assert typo.exit_code == 0 and "no memory belongs to persona 'wrok' (did you mean 'work'?)" in typo.stderr
    right = cli("recall", "how should answers sound?", "--persona", "work", "--no-daemon")
    assert "formal" in right.stdout and "no memory belongs" not in right.stderr


def test_the_cli_offers_every_transcript_format_the_readers_know():
    """The typer command's choices are spelled in the CLI (importing the readers would cost
    every command their start-up): they must stay the readers' table and the exports."""
    from vault_memory.cli.app import TranscriptFormat
    from vault_memory.conversation.transcript import FORMATS

    assert tuple(TranscriptFormat) == FORMATS


def on_a_terminal(command: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    """Run ``command`` with its stderr on a pseudo-terminal (stdout piped): (exit status,
    stdout, what the terminal got)."""
    import pty
    import tempfile

    master, slave = pty.openpty()
    with tempfile.TemporaryFile() as stdout:  # not a pipe: a long stdout must not block the child
        done = subprocess.Popen(command, stdout=stdout, stderr=slave, env=env)
        os.close(slave)
        seen = b""
        while True:
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:  # the other end closed
                break
            if not chunk:
                break
            seen += chunk
        os.close(master)
        status = done.wait(timeout=120)
        stdout.seek(0)
        return status, stdout.read().decode(), seen.decode("utf-8", "replace")


@pytest.mark.slow
def test_import_shows_progress_on_a_terminal_and_nothing_when_piped(tmp_path):
    """A long import was silent: a bar on a terminal (stderr), a summary line at the end;
    nothing of the bar when stderr is piped or with --json."""
    vault = vmem.init(tmp_path / "v", examples=False).root
    dump = tmp_path / "dump.jsonl"
    dump.write_text("\n".join(json.dumps({"id": f"r{i}", "text": f"Imported fact {i}"}) for i in range(400)))
    env = {k: v for k, v in os.environ.items() if not k.startswith("VMEM_")} | {"TERM": "xterm", "COLUMNS": "100"}
    status, out, terminal = on_a_terminal([VMEM, "import", str(dump), "--vault", str(vault)], env)
    assert status == 0 and "Importing" in terminal and out.strip() == "400 added, 0 unchanged, 0 conflict, 0 error"
    piped = subprocess.run([VMEM, "import", str(dump), "--vault", str(vault)], capture_output=True, text=True, env=env)
    assert piped.returncode == 0 and piped.stderr == "" and piped.stdout.startswith("0 added, 400 unchanged")
    status, out, terminal = on_a_terminal([VMEM, "import", str(dump), "--vault", str(vault), "--json"], env)
    assert status == 0 and "Importing" not in terminal and json.loads(out)["counts"]["unchanged"] == 400


@pytest.mark.slow
def test_a_first_recall_and_an_export_ingest_show_progress_on_a_terminal(tmp_path):
    """The first recall of 1,600 files nothing had indexed took 17-20 s with no output, and
    an export of many conversations was ingested in silence: both draw a bar on a terminal
    once they take a while, and nothing of it when stderr is piped."""
    import shutil

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from export_ingest import export

    env = {k: v for k, v in os.environ.items() if not k.startswith("VMEM_")} | {"TERM": "xterm", "COLUMNS": "100"}
    vault = vmem.init(tmp_path / "v", examples=False).root
    for i in range(800):
        write(vault / "notes" / f"n{i}.md", f"Meeting note {i} about the roadmap and topic {i % 37}\n")
    recall = [VMEM, "recall", "roadmap topic 5", "--vault", str(vault)]
    piped = subprocess.run(recall, capture_output=True, text=True, env=env)
    assert piped.returncode == 0 and "topic 5" in piped.stdout and piped.stderr == ""
    shutil.rmtree(vault / ".vmem" / "index")  # nothing indexed again
    status, out, terminal = on_a_terminal(recall, env)
    assert status == 0 and "topic 5" in out and "Indexing" in terminal

    dump = tmp_path / "conversations.json"
    dump.write_text(json.dumps(export(1000)))  # two batches of 500, a fifth of them stating a fact
    other = vmem.init(tmp_path / "other", examples=False).root
    status, out, terminal = on_a_terminal([VMEM, "ingest", str(dump), "--vault", str(other)], env)
    assert status == 0 and "Ingesting" in terminal, terminal[-500:]
    small = tmp_path / "small.json"
    small.write_text(json.dumps(export(50)))
    piped = subprocess.run([VMEM, "ingest", str(small), "--vault", str(vault)], capture_output=True, text=True, env=env)
    assert piped.returncode == 0 and "Ingesting" not in piped.stderr


def test_sync_counts_a_broken_file_as_unreadable_not_unchanged(tmp_path):
    """Issue 61: a sync after the one that found a broken file counted it unchanged, as if
    it were a memory."""
    vault = create_vault(tmp_path / "v", with_examples=False)
    (vault / "facts" / "oops.md").write_text("---\nimportance: [0.5\n---\nThe user's bike is red\n")
    (vault / "facts" / "fine.md").write_text("The user's scooter is grey\n")
    cli = Cli(vault)
    first = cli.json("sync")
    again = cli.json("sync")
    assert first["unreadable"] == 1 and again["unreadable"] == 1 and again["unchanged"] == 1, again
    said = cli("sync")
    assert "1 unchanged, 1 unreadable" in said.stdout


def test_the_shell_completes_memory_ids_and_docs_topics(tmp_path):
    """Issue 61: completion offered no memory ids and no `docs` topics, and `vmem --help`
    named the topics by a list kept by hand that had lost two."""
    import os
    import subprocess

    from vault_memory.cli.docs import topics

    vault = create_vault(tmp_path / "v", with_examples=False)
    written = Cli(vault).json("remember", "The user's chess club meets on Tuesdays")["id"]

    def complete(words: str, cword: int) -> list[str]:
        env = {**os.environ, "_VMEM_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(cword)}
        done = subprocess.run([VMEM], env=env, capture_output=True, text=True, timeout=60)
        return done.stdout.split()

    assert complete(f"vmem show --vault {vault} {written[:8]}", 4) == [written]
    assert complete(f"vmem forget --vault {vault} zzzz", 4) == []
    assert complete("vmem docs ho", 2) == ["hooks"]
    shown = subprocess.run([VMEM, "--help"], capture_output=True, text=True).stdout
    assert all(topic in shown for topic in topics()) and "benchmarks" in shown and "hooks" in shown
