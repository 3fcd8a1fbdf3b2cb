"""Every command has help with an example and is documented in the README: a cheap guard
for the CLI."""

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from vault_memory.cli.app import app, daemon_app

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def commands():
    for group, prefix in ((app, "vmem"), (daemon_app, "vmem daemon")):
        for cmd in group.registered_commands:
            name = cmd.name or cmd.callback.__name__.rstrip("_").replace("_", "-")
            yield prefix, name, cmd


@pytest.mark.parametrize("prefix,name,cmd", list(commands()), ids=lambda x: x if isinstance(x, str) else "")
def test_command_has_help_and_readme_entry(prefix, name, cmd):
    assert (cmd.callback.__doc__ or "").strip(), f"{prefix} {name} has no help text"
    assert f"`{prefix} {name}" in README, f"README does not document `{prefix} {name}`"
    argv = [*prefix.split()[1:], name, "--help"]
    result = CliRunner().invoke(app, argv)
    assert result.exit_code == 0
    assert "Example" in result.stdout, f"{prefix} {name} --help shows no example"
    assert name in ("init", "docs") or "--vault" in result.stdout
    assert "{" not in result.stdout.splitlines()[0] and not re.search(r"<(str|int|path|float)", result.stdout), (
        "usage noise"
    )
