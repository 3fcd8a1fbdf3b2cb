"""``vmem init``: copy the vault template into a new folder."""

from __future__ import annotations

import shutil
from pathlib import Path

from .. import trust
from ..config import CONFIG_NAME, STATE_DIR
from ..errors import InvalidInput, WriteRefused
from .fsutil import VAULT_DIR_MODE, atomic_write, private_dir


def template_dir() -> Path:
    """The template ships inside the wheel; in a source checkout it is the top-level folder."""
    packaged = Path(__file__).resolve().parent.parent / "vault_template"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "vault-template"


#: what a new vault is written in when nobody says: English and Spanish, either one
BOTH_LANGUAGES = "en+es"
#: the embedding model a vault gets for the languages it will be written in (the first is
#: the template's own); "en" and "es" are for a vault of one language only
MODEL_FOR_LANGUAGE = {
    BOTH_LANGUAGES: "bilingual",
    "en": "bundled",
    "es": "use-multilingual",
    "multi": "use-multilingual",
}


def _config_for(template: str, lang: str) -> str:
    """The template's vmem.toml with the model for ``lang``."""
    return template.replace(
        f'model = "{MODEL_FOR_LANGUAGE[BOTH_LANGUAGES]}"', f'model = "{MODEL_FOR_LANGUAGE[lang]}"', 1
    )


def adopt_folder(path: Path, *, lang: str = BOTH_LANGUAGES) -> Path:
    """Make an existing folder (an Obsidian vault, a notes folder) a vault without touching
    a file of it: only ``vmem.toml`` is added, and vmem's state folder ``.vmem/`` (which
    holds a ``.gitignore`` of its own, so git leaves it out without an edit to the user's)."""
    if lang not in MODEL_FOR_LANGUAGE:
        raise InvalidInput(f"lang must be one of {', '.join(MODEL_FOR_LANGUAGE)}, not {lang!r}")
    path = path.expanduser()
    if not path.is_dir():
        raise WriteRefused(f"{path} is not a folder; `vmem init PATH` creates a new vault")
    if (path / CONFIG_NAME).exists():
        raise WriteRefused(f"{path} is already a vault")
    source = template_dir() / CONFIG_NAME
    if not source.is_file():
        raise WriteRefused(f"vault template not found at {source.parent}; reinstall vmem")
    atomic_write(path / CONFIG_NAME, _config_for(source.read_text(encoding="utf-8"), lang), overwrite=False)
    state = private_dir(path / STATE_DIR)
    if not (state / ".gitignore").exists():
        atomic_write(state / ".gitignore", "# vmem's derived state: rebuilt from the notes, never committed\n*\n")
    _record_created(path)
    return path.resolve()


def _check_new_vault_folder(path: Path) -> None:
    """A vault is made in a new or empty folder: a file, a vault or a folder of files is refused."""
    if path.exists() and not path.is_dir():
        raise WriteRefused(f"{path} is a file, not a folder; choose a new or empty folder")
    if path.exists() and any(path.iterdir()):
        if (path / CONFIG_NAME).exists():
            raise WriteRefused(f"{path} is already a vault")
        raise WriteRefused(
            f"{path} is not empty; choose an empty or new folder, or make it a vault as it is with "
            f"`vmem init --here {path}` (no file of it is changed)"
        )


def _copy_template(source: Path, path: Path, with_examples: bool) -> None:
    """The template's files into the new vault (its example memories only ``with_examples``);
    the memory folders exist either way."""
    for item in sorted(source.rglob("*")):
        rel = item.relative_to(source)
        if "__pycache__" in rel.parts:
            continue
        target = path / rel
        if item.is_dir():
            target.mkdir(parents=True, exist_ok=True)
        elif with_examples or rel.parts[0] not in ("facts", "episodes", "summaries"):
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(item, target)
    for folder in ("facts", "episodes", "summaries"):
        (path / folder).mkdir(exist_ok=True)


def _record_created(path: Path) -> None:
    """The user made this vault: hooks and MCP may use it, its ``[llm]`` url too. A record
    that cannot be written leaves a vault that agents use once named or trusted."""
    try:
        trust.record(path, trust.CREATED)
    except OSError:
        pass


def create_vault(path: Path, *, with_examples: bool = True, lang: str = BOTH_LANGUAGES) -> Path:
    """Create a vault at ``path``; refuses to touch a folder that already holds files.
    ``lang`` chooses the embedding model in its vmem.toml (``MODEL_FOR_LANGUAGE``)."""
    if lang not in MODEL_FOR_LANGUAGE:
        raise InvalidInput(f"lang must be one of {', '.join(MODEL_FOR_LANGUAGE)}, not {lang!r}")
    path = path.expanduser()
    _check_new_vault_folder(path)
    source = template_dir()
    if not source.is_dir():
        raise WriteRefused(f"vault template not found at {source}; reinstall vmem")
    made = not path.exists()
    path.mkdir(parents=True, exist_ok=True)
    if made or not any(path.iterdir()):  # a new vault is its owner's alone; a folder named keeps its mode
        path.chmod(VAULT_DIR_MODE)
    _copy_template(source, path, with_examples)
    if lang != BOTH_LANGUAGES:
        toml = path / CONFIG_NAME
        toml.write_text(_config_for(toml.read_text(encoding="utf-8"), lang), encoding="utf-8")
    _record_created(path)
    return path.resolve()
