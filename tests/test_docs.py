"""Every command has help with an example and is documented in the README: a cheap guard
for the CLI."""

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from vault_memory.cli.app import app, daemon_app, hooks_app, mcp_app

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def commands():
    for group, prefix in ((app, "vmem"), (daemon_app, "vmem daemon"), (hooks_app, "vmem hooks"), (mcp_app, "vmem mcp")):
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
    assert name in ("init", "docs", "uninstall") or "--vault" in result.stdout  # uninstall needs no vault
    assert "{" not in result.stdout.splitlines()[0] and not re.search(r"<(str|int|path|float)", result.stdout), (
        "usage noise"
    )


ROOT = Path(__file__).resolve().parent.parent


def test_every_environment_variable_the_code_reads_is_documented():
    """Each name in ``config.ENVIRONMENT``, and no other, is read by the package or the hook,
    and the README's table lists each."""
    from vault_memory.config import ENVIRONMENT

    sources = [*(ROOT / "vault_memory").rglob("*.py"), *(ROOT / "hooks").glob("*.py")]
    pattern = re.compile(r"\b(VMEM_[A-Z_]+|XDG_[A-Z]+_HOME|HF_HUB_OFFLINE)\b")
    named = {m for path in sources for m in pattern.findall(path.read_text(encoding="utf-8"))}
    assert named == set(ENVIRONMENT)
    for name in ENVIRONMENT:
        assert f"| `{name}` |" in README, f"the README's environment table lacks {name}"


def test_the_hook_script_spells_the_state_paths_as_the_package_does(tmp_path):
    """The hook runs with the standard library only: it reaches the daemon through a copy of
    ``daemonlink`` that must be that module byte for byte, and names its log itself: the
    socket and the log must stay the paths ``StateLayout`` gives."""
    import importlib.util
    import sys

    from vault_memory import daemonlink
    from vault_memory.config import StateLayout

    copy = ROOT / "hooks" / "vmem_daemonlink.py"
    assert copy.read_bytes() == Path(daemonlink.__file__).read_bytes(), "cp vault_memory/daemonlink.py " + str(copy)
    sys.path.insert(0, str(ROOT / "hooks"))
    try:
        spec = importlib.util.spec_from_file_location("vmem_hook_core", ROOT / "hooks" / "vmem_hook_core.py")
        assert spec is not None and spec.loader is not None
        hook = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(hook)
    finally:
        sys.path.remove(str(ROOT / "hooks"))
    state = StateLayout.of(tmp_path)
    state.root.mkdir()
    assert hook._log_path(str(tmp_path)) == str(state.hooks_log)
    assert hook._log_path(str(tmp_path), state.hooks_output.name) == str(state.hooks_output)
    assert hook.link.socket_path(str(tmp_path)) == str(state.daemon_socket)


def test_the_public_surface_is_what_the_package_exports():
    """Every name in ``__all__`` resolves; the list changes only on purpose."""
    import vault_memory

    for name in vault_memory.__all__:
        assert getattr(vault_memory, name) is not None, name
    assert sorted(vault_memory.__all__) == sorted(
        "open init VaultMemory ingest ingest_all retry_pending context "
        "Archived Checkup ContextBlock Correction Created Declined Hit IngestReport ImportReport Listing Memory Problem "
        "RecallResult Reconfirmed RememberOutcome Remembering Superseded SyncReport TrashEntry "
        "CallError ContentError TemporaryError MachineError "
        "AlreadyRunning AmbiguousId ConfigError DaemonError EmbedderError EncodingError FileTooLarge FrontmatterError "
        "IndexDamaged IndexLocked IndexStale IndexUnavailable InvalidId InvalidInput LLMError MemoryFileError MergeConflict NotFound OutsideVault "
        "SecretRefused StorageError TranscriptError VaultError VaultNotFound WriteRefused".split()
    )
    # every error of the tree can be caught by its exported name (IndexDamaged was not)
    raised = {n for n, c in vars(vault_memory.errors).items() if isinstance(c, type) and issubclass(c, Exception)}
    assert raised <= set(vault_memory.__all__)


@pytest.mark.parametrize("readme", ["README.md", "hooks/README.md"])
@pytest.mark.slow
def test_the_python_example_runs_as_written(readme, tmp_path):
    """The 'From Python' example, run as a reader would after `vmem init ~/memory` (it used
    to read a session.jsonl it does not provide and end in a raw FileNotFoundError)."""
    import os
    import subprocess
    import sys

    from vault_memory.vault.template import create_vault

    text = (ROOT / readme).read_text()
    example = re.search(r"#+ From Python\n.*?```python\n(.*?)```", text, re.S).group(1)
    home = tmp_path / "home"
    create_vault(home / "memory")
    env = {k: v for k, v in os.environ.items() if not k.startswith("VMEM_")} | {"HOME": str(home)}
    done = subprocess.run(
        [sys.executable, "-c", example], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stderr
    assert '<memory source="vmem">' in done.stdout


def test_every_error_says_what_the_caller_can_do():
    """Issue 60: 22 errors under one root and four subclasses, so a caller could not catch
    "try again later" apart from "fix your input". Each error now belongs to a group by what
    the caller can do, and the tree in the module's docstring names every class."""
    import vault_memory.errors as errors

    groups = (errors.CallError, errors.ContentError, errors.TemporaryError, errors.MachineError)
    named = {n: c for n, c in vars(errors).items() if isinstance(c, type) and issubclass(c, errors.VaultError)}
    for name, cls in named.items():
        if cls in (errors.VaultError, errors.IndexUnavailable, *groups):
            continue
        assert any(issubclass(cls, g) for g in groups), name
        assert name in (errors.__doc__ or ""), name
    assert issubclass(errors.IndexLocked, errors.TemporaryError) and issubclass(errors.InvalidInput, ValueError)
