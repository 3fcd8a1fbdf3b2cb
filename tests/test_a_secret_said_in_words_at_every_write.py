"""A secret said in words is refused by every write of a fact, not only by the prompt hook.

The hook and ``ingest`` read each fact they keep with the secret judge, but ``vmem
remember``, the MCP ``remember`` tool and a correction read a fact by the rules alone: the
agent's own tool wrote what the hook had refused ("the garage keypad code is seven seven one
nine"). Found by an attacker's pass on the request reader. A fact that only talks of a
secret, or looks like one, is written as before; the user can still insist
(``--allow-secret``)."""

from __future__ import annotations

import asyncio
import subprocess

import pytest
from conftest import VMEM
from test_integrations import clean_env

import vault_memory as vmem
from vault_memory.errors import SecretRefused
from vault_memory.vault.template import create_vault

SAID = [
    # a door code said in number words is the rules' now (``lang.numbers``): the judge's is a
    # password said as a word
    "la contra que le puse a la tablet de mi hija es unicornio",
    "la del wifi de casa ahora es tortugaverde",
    "my first pet was called Biscuit and that's what I put as the security answer",
]
LOOK_ALIKES = [
    "My first pet was a hamster called Biscuit",
    "Our campaign keyword for the spring launch is bluebird",
    "The door code changes every month, the landlord texts it",
]


@pytest.fixture
def vault(tmp_path):
    return create_vault(tmp_path / "vault", with_examples=False)


@pytest.mark.parametrize("said", SAID)
def test_the_library_refuses_a_secret_said_in_words(vault, said):
    with vmem.open(vault, use_daemon=False) as mem:
        with pytest.raises(SecretRefused, match="said in words"):
            mem.remember(said)
        assert mem.list().memories == []


@pytest.mark.parametrize("said", LOOK_ALIKES)
def test_a_fact_that_only_looks_like_one_is_written(vault, said):
    with vmem.open(vault, use_daemon=False) as mem:
        mem.remember(said)
        assert [m.text for m in mem.list().memories] == [said]


def test_the_user_can_insist(vault):
    with vmem.open(vault, use_daemon=False) as mem:
        mem.remember(SAID[0], allow_secret=True)
        assert len(mem.list().memories) == 1


def test_a_correction_that_gives_one_is_refused(vault):
    with vmem.open(vault, use_daemon=False) as mem:
        old = mem.remember("The garage door has a keypad").memory
        with pytest.raises(SecretRefused):
            mem.correct(old.id, SAID[0])
        assert [m.text for m in mem.list().memories] == ["The garage door has a keypad"]


def test_vmem_remember_refuses_it_with_a_clear_error(vault, tmp_path):
    env = clean_env(tmp_path)
    run = subprocess.run(
        [VMEM, "remember", SAID[1], "--vault", str(vault)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert run.returncode == 2, run.stderr
    assert "secret" in run.stderr and "tortugaverde" not in run.stderr + run.stdout
    with vmem.open(vault, use_daemon=False) as mem:
        assert mem.list().memories == []


def test_vmem_correct_lets_the_user_insist_as_remember_does(vault, tmp_path):
    env = clean_env(tmp_path)
    with vmem.open(vault, use_daemon=False) as mem:
        old = mem.remember("The bike shed has a combination lock").memory

    def correct(*more: str) -> subprocess.CompletedProcess[str]:
        said = "The bike shed lock opens with three one one three"
        args = [VMEM, "correct", old.id, said, "--vault", str(vault), *more]
        return subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)

    assert correct().returncode == 2
    run = correct("--allow-secret")
    assert run.returncode == 0, run.stderr
    with vmem.open(vault, use_daemon=False) as mem:
        assert any("three one one three" in m.text for m in mem.list().memories)


@pytest.mark.slow
def test_the_mcp_remember_tool_refuses_it(vault, tmp_path):
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    async def talk():
        params = StdioServerParameters(command=VMEM, args=["mcp", "--vault", str(vault)], env=clean_env(tmp_path))
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            refused = await session.call_tool("remember", {"text": SAID[2]})
            kept = await session.call_tool("remember", {"text": LOOK_ALIKES[0]})
            listed = await session.call_tool("list", {})
            return refused, kept, listed

    refused, kept, listed = asyncio.run(talk())
    assert refused.is_error and "secret" in refused.content[0].text
    assert not kept.is_error
    shown = listed.content[0].text
    assert "Biscuit" in shown and "security answer" not in shown
