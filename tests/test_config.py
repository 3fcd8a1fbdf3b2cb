"""vmem.toml is checked against one table of settings: nothing misspelt is ignored."""

from __future__ import annotations

import pytest
from conftest import Cli

from vault_memory import ConfigError
from vault_memory.config import SETTINGS, Config, template_text
from vault_memory.lifecycle import Rules, rules_for
from vault_memory.vault.template import template_dir


def configured(vault_dir, text: str) -> Config:
    (vault_dir / "vmem.toml").write_text(text)
    return Config.load(vault_dir)


@pytest.mark.parametrize(
    "toml,named",
    [
        ("[lifecycle]\nstale_day = 10\n", ["stale_day", "did you mean 'stale_days'"]),
        ('[lifecycle]\npersona_cap = "20"\n', ["[lifecycle] persona_cap", "whole number", "'20'"]),
        ("[lifecycle]\nttl_days = { episod = 3 }\n", ["ttl_days", "'episod'", "episode"]),
        ("[lifecycle]\ndedup_similarity = 1.5\n", ["dedup_similarity", "from 0 to 1"]),
        ("[recall]\nbudget = 0\n", ["[recall] budget", "at least 1"]),
        ("[recal]\nk = 3\n", ["[recal]", "did you mean 'recall'"]),
        ('[vault]\nignore = "README.md"\n', ["[vault] ignore", "list of strings"]),
        ("[git]\nautocommit = 1\n", ["[git] autocommit", "true or false"]),
        ("recall = 3\n", ["recall must be a [recall] section"]),
        ("[recall\n", ["vmem.toml"]),
    ],
)
def test_a_bad_setting_is_an_error_that_names_it(empty_vault_dir, toml, named):
    with pytest.raises(ConfigError) as caught:
        configured(empty_vault_dir, toml)
    for part in named:
        assert part in str(caught.value)


def test_the_cli_reports_it_without_a_traceback(empty_vault_dir):
    (empty_vault_dir / "vmem.toml").write_text('[lifecycle]\npersona_cap = "20"\n')
    out = Cli(empty_vault_dir)("list")
    assert out.exit_code == 1 and "persona_cap" in out.stderr and "Traceback" not in out.output


def test_tables_change_only_the_names_they_give(empty_vault_dir):
    config = configured(
        empty_vault_dir, "[lifecycle]\nttl_days = { episode = 7 }\nsingle_valued_keys = ['Ubicación']\n"
    )
    rules = rules_for(config)
    assert rules.ttl_days == {"episode": 7, "summary": 90, "fact": 0, "note": 0}
    assert rules.single_valued_keys == ("ubicacion",)


def test_defaults_have_one_source():
    rules = Rules()
    for key, setting in SETTINGS["lifecycle"].items():
        default = setting.default
        assert getattr(rules, key) == (tuple(default) if isinstance(default, list) else default), key
    assert rules_for(Config.load(template_dir())) == rules


def test_the_template_vmem_toml_is_generated_from_the_settings():
    assert (template_dir() / "vmem.toml").read_text() == template_text()
    for section, keys in SETTINGS.items():
        for key in keys:
            assert f"{key} = " in template_text(), (section, key)
