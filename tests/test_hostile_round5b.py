"""The second pass of issue 59's attack, on the surfaces this round added: each test on
other words than the attack's report, each failing on the code before its fix."""

from __future__ import annotations

import json
import os
import subprocess
import time

import pytest
from conftest import VMEM

import vault_memory as vmem
from vault_memory.errors import InvalidInput
from vault_memory.vault.template import create_vault


def _vmem(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([VMEM, *args], capture_output=True, text=True, timeout=120, env=env)


def test_a_note_dated_in_year_one_or_touched_into_the_far_future_breaks_nothing(tmp_path):
    vault = create_vault(tmp_path / "v", with_examples=False)
    (vault / "notes").mkdir(exist_ok=True)
    (vault / "notes" / "old.md").write_text("---\ndate: 0001-01-01\n---\nThe shed key is under the pot\n")
    (vault / "notes" / "0001-01-01 Ancient.md").write_text("The canoe paddles hang in the garage\n")
    future = vault / "notes" / "future.md"
    future.write_text("The spare bulbs are in the hallway drawer\n")
    os.utime(future, ns=(2**62, 2**62))  # the year 2116 and beyond: past what a catalog row held
    ahead = vault / "notes" / "ahead.md"
    ahead.write_text("The tent pegs are in the blue box\n")
    os.utime(ahead, ns=(2**63 - 1, 2**63 - 1))
    for verb in (["list"], ["doctor"], ["sync"], ["recall", "where is the shed key?"]):
        done = _vmem(*verb, "--vault", str(vault))
        assert "Traceback" not in done.stderr and "out of range" not in done.stderr, (verb, done.stderr)
    assert "shed key" in _vmem("recall", "where is the shed key?", "--vault", str(vault)).stdout


def test_no_file_name_carries_a_secret_whatever_its_case(tmp_path):
    mem = vmem.init(tmp_path / "v", examples=False)
    for said, value in (("My Locker PIN is 7314", "7314"), ("Our WiFi Password is lemonade", "lemonade")):
        written = mem.remember(said, allow_secret=True).memory
        assert value not in written.id and value not in str(written.path), written.path


def test_conflict_markers_cannot_be_written_and_quoted_ones_are_text(tmp_path):
    mem = vmem.init(tmp_path / "v", examples=False)
    with pytest.raises(InvalidInput, match="conflict markers"):
        mem.remember("Rebase notes:\n<<<<<<< ours\nkeep\n=======\ndrop\n>>>>>>> theirs")
    fenced = "How I resolve a rebase:\n```\n<<<<<<< ours\nkeep\n=======\ndrop\n>>>>>>> theirs\n```\n"
    (mem.root / "notes").mkdir(exist_ok=True)
    (mem.root / "notes" / "rebase.md").write_text(fenced)
    (mem.root / "notes" / "cr.md").write_text("<<<<<<< HEAD\rThe van is white\r=======\rThe van is grey\r>>>>>>> b2\r")
    block = mem.recall("how do I resolve a rebase? what colour is the van?").block
    assert "resolve a rebase" in block and "<<<<<<<" not in block.replace("‹", "<").split("rebase:")[0]
    assert "The van is" not in block
    assert [p.path for p in mem.doctor().problems if p.kind == "merge_conflict"] == ["notes/cr.md"]


def test_private_spans_nested_or_with_attributes_are_cut_whole():
    from vault_memory.vault.secrets import without_private

    assert without_private("gate <private>code <private>77</private> then 12</private> done") == "gate done"
    assert without_private('desk <private note="work">drawer 4</private> left') == "desk left"


def test_masking_many_secrets_stays_linear():
    """Masking grows with the text, not with its square: 16 times the secrets take about 16
    times as long (a quadratic masking took 256 times as long). Measured as a ratio of two
    runs in one process, so a loaded machine slows both alike (a bound in seconds failed on
    a loaded CI run: 2.6 s for what takes 0.8 s on a quiet one)."""
    from vault_memory.vault.secrets import LEFT_OUT, masked

    line = "vpn{} password: Tk{}!x "
    small = "".join(line.format(n, n) for n in range(500))
    large = "".join(line.format(n, n) for n in range(8000))

    def took(text: str) -> float:  # the best of three, past masked's cache
        runs = []
        for _ in range(3):
            started = time.perf_counter()
            masked.__wrapped__(text)
            runs.append(time.perf_counter() - started)
        return min(runs)

    assert masked(large).count(LEFT_OUT) == 8000 and masked(small).count(LEFT_OUT) == 500
    ratio = took(large) / took(small)
    assert ratio < 64, ratio  # linear: about 16; quadratic: about 256


@pytest.fixture
def hostile_llm():
    from chat_server import ChatServer

    server = ChatServer()
    yield server
    server.close()


@pytest.mark.parametrize("reply", [json.dumps(["replaces", "replaces"]), "x {" + '{"1":' * 20000 + "}"])
def test_a_hostile_judges_reply_leaves_the_fact_written(empty_vault_dir, hostile_llm, monkeypatch, reply):
    monkeypatch.setenv("VMEM_LLM_URL", hostile_llm.url)
    monkeypatch.setenv("VMEM_LLM_TIMEOUT", "5")
    from vault_memory.conversation import use_llm_judge

    with vmem.open(empty_vault_dir, use_daemon=False) as mem:
        assert use_llm_judge(mem)
        mem.remember("My niece Lotte plays the cello")
        hostile_llm.reply = reply
        outcome = mem.remember("My niece Lotte switched to the viola")
        assert outcome.status in ("created", "superseded") and outcome.memory.text.endswith("viola")


def test_a_timeout_that_is_no_number_is_said(empty_vault_dir):
    env = {**os.environ, "VMEM_LLM_URL": "http://127.0.0.1:9/v1", "VMEM_LLM_TIMEOUT": "soon"}
    done = _vmem("remember", "The user's kayak is yellow", "--vault", str(empty_vault_dir), env=env)
    assert "Traceback" not in done.stderr and "VMEM_LLM_TIMEOUT" in done.stderr


def test_a_secret_dressed_in_markdown_or_given_as_a_key_is_left_out_of_recall(tmp_path):
    mem = vmem.init(tmp_path / "v", examples=False)
    (mem.root / "notes").mkdir(exist_ok=True)
    (mem.root / "notes" / "flat.md").write_text(
        "# The flat\n- **Router password:** Koala-93\n- Garage code — 5512\n- I set the NAS password to Wombat2025\n"
    )
    (mem.root / "facts" / "alarm.md").write_text("---\ntype: fact\nkey: alarm code\n---\n8264\n")
    block = mem.recall("what are the router password, the garage code, the NAS and the alarm code?").block
    for value in ("Koala-93", "5512", "Wombat2025", "8264"):
        assert value not in block, (value, block)
    assert block.count("[secret left out]") >= 4


def test_an_expiry_date_after_an_identity_word_is_no_secret(tmp_path):
    mem = vmem.init(tmp_path / "v", examples=False)
    for said in (
        "My passport expires 2032-07-19",
        "Mi DNI caduca el 14/02/2030",
        "o meu passaporte vence em 2031-11-02",
    ):
        assert mem.remember(said).memory.text


def test_what_the_agent_wrote_is_marked_as_the_agents(tmp_path):
    anthropic = pytest.importorskip("anthropic")  # noqa: F841
    from anthropic.types.beta import BetaMemoryTool20250818CreateCommand

    from vault_memory.integrations.memory_tool import VaultMemoryTool

    mem = vmem.init(tmp_path / "v", examples=False)
    tool = VaultMemoryTool(mem)
    tool.create(
        BetaMemoryTool20250818CreateCommand(command="create", path="/memories/diet.md", file_text="Avoids gluten")
    )
    mem.remember("I avoid dairy")
    lines = [
        line for line in mem.recall("what food do I avoid?").block.splitlines() if "Avoid" in line or "avoid" in line
    ]
    assert any("gluten" in line and "written by the agent" in line for line in lines), lines
    assert any("dairy" in line and "written by the agent" not in line for line in lines), lines


def test_a_table_of_logins_is_recalled_without_its_secrets(tmp_path):
    """Attack on issue 59's fix: a person's Markdown table under a "password" (or "PIN",
    "contraseña") column was recalled whole; a table of cities is left as it is."""
    mem = vmem.init(tmp_path / "v", examples=False)
    (mem.root / "notes").mkdir(exist_ok=True)
    (mem.root / "notes" / "accounts.md").write_text(
        "Accounts I use\n\n| service | login | contraseña |\n|:--|:--|:--|\n| correo | mar.t | Lince-204 |\n"
        "| banco | mt77 | Roble9988 |\n"
    )
    (mem.root / "notes" / "trips.md").write_text("Trips\n\n| city | year |\n|---|---|\n| Oaxaca | 2019 |\n")
    block = mem.recall("which accounts do I use and which cities did I visit?").block
    assert "Lince-204" not in block and "Roble9988" not in block and "correo" in block
    assert "Oaxaca" in block and "2019" in block
    with pytest.raises(vmem.SecretRefused):
        mem.remember("| app | PIN |\n|---|---|\n| phone | 4471 |")


def test_a_secret_setting_written_in_lower_case_is_a_secret(tmp_path):
    """Found beside the attack on `--ask-llm`: `AWS_SECRET_ACCESS_KEY=…` was refused, but the
    same setting as a credentials file writes it (lower case, spaces around "=") was stored,
    and recall showed its value."""
    mem = vmem.init(tmp_path / "v", examples=False)
    for said in (
        "remember my staging creds: azure_client_secret = Qm8pZ2x7Lw0vNt4R",
        "the reporting db_password: Tr0ub4dor-3x",
        "Slack_Bot_Token=zq9Rm2Lp7Xv",
    ):
        with pytest.raises(InvalidInput):
            mem.remember(said)
    (mem.root / "notes").mkdir(exist_ok=True)
    (mem.root / "notes" / "aws.md").write_text("[default]\naws_secret_access_key = kP3vN9qR2sT8wX1yZ4bC\n")
    block = mem.recall("what is in my aws credentials?").block
    assert "kP3vN9qR2sT8wX1yZ4bC" not in block
    for plain in ("The tokens: are handed out at the door", "My password manager is 1Password"):
        mem.remember(plain)  # a word of secrets with nothing kept after it is no secret


def test_an_indexed_file_swapped_for_a_link_out_of_the_vault_breaks_nothing(tmp_path):
    """Found by the second attack on settling pairs: a fact already indexed, replaced by a
    symlink that leads outside the vault (or nowhere), left the index with rows to take
    away and none to add; writing its side vectors failed ("cannot reshape array of size
    0"), and every sync, recall, conflicts and doctor exited 2 until `vmem reindex`."""
    mem = vmem.init(tmp_path / "v", examples=False)
    for name, text in (("kiln", "My pottery kiln is a Skutt KM-818"), ("wheel", "My pottery wheel is a Shimpo VL")):
        (mem.root / "facts" / f"{name}.md").write_text(f"---\nid: {name}\ntype: fact\n---\n{text}\n")
    mem.sync()
    outside = tmp_path / "elsewhere.md"
    outside.write_text((mem.root / "facts" / "wheel.md").read_text())
    (mem.root / "facts" / "wheel.md").unlink()
    (mem.root / "facts" / "wheel.md").symlink_to(outside)
    for verb in (["sync"], ["conflicts"], ["doctor"], ["recall", "what kiln do I have?", "--no-daemon"]):
        done = _vmem(*verb, "--vault", str(mem.root))
        assert done.returncode in (0, 1) and "reshape" not in done.stderr, (verb, done.stderr)
    assert "Skutt" in _vmem("recall", "what kiln do I have?", "--vault", str(mem.root)).stdout


def test_a_memory_writes_no_escape_sequence_to_a_persons_terminal(tmp_path):
    """Found by the second attack on settling pairs: `vmem recall` and `vmem show` printed a
    memory's OSC sequences raw (one that writes the clipboard, one that retitles the
    window); `list` and `conflicts` did not. A terminal now sees them as "?"; a program
    reading the block (a pipe, an agent's hook) gets the text as it is."""
    import pty

    mem = vmem.init(tmp_path / "v", examples=False)
    osc = "\x1b]52;c;ZWNobyBwd25lZA==\x07"
    (mem.root / "facts" / "rake.md").write_text(
        f"---\nid: rake\ntype: fact\n---\nMy garden rake {osc}hangs in the shed\n"
    )
    for verb in (["recall", "where does my garden rake hang?"], ["show", "rake"]):
        leader, follower = pty.openpty()
        done = subprocess.run(
            [VMEM, *verb, "--vault", str(mem.root)], stdout=follower, stderr=subprocess.PIPE, timeout=120
        )
        os.close(follower)
        seen = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        os.close(leader)
        assert done.returncode == 0 and b"garden rake" in seen and b"\x1b]52" not in seen, (verb, seen)
    piped = _vmem("recall", "where does my garden rake hang?", "--vault", str(mem.root))
    assert "\x1b]52" in piped.stdout  # a program's copy is the file's text


def test_a_pin_written_as_text_pins(tmp_path):
    """Found by the second attack on settling pairs: `pinned: 'true'` (quoted, as an
    editor's text property writes it) made the whole memory unreadable, so the one memory
    the user wanted in every prompt was in none. "true" and "false" as text are read as
    what they say; any other value is still named and the file skipped."""
    mem = vmem.init(tmp_path / "v", examples=False)
    (mem.root / "facts" / "a.md").write_text("---\ntype: fact\npinned: 'True'\n---\nI am colour-blind (red-green)\n")
    (mem.root / "facts" / "b.md").write_text('---\ntype: fact\npinned: "false"\n---\nMy locker code changed in May\n')
    (mem.root / "facts" / "c.md").write_text("---\ntype: fact\npinned: sometimes\n---\nMy umbrella is green\n")
    block = mem.recall("what bus goes to the airport?").block
    assert "colour-blind" in block and "locker" not in block, block
    listed = {m.text for m in mem.list().memories}
    assert "My locker code changed in May" in listed and "My umbrella is green" not in listed
    doctor = _vmem("doctor", "--vault", str(mem.root))
    assert "c.md" in doctor.stdout and "a.md" not in doctor.stdout and "b.md" not in doctor.stdout, doctor.stdout
