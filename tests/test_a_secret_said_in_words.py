"""A secret whose value is words, in words no rule reads ("my security answer for the
insurance site is Galway"), is not kept through the prompt hook's and ``ingest``'s reading:
the judge of a secret said in words (``lang.judge.holds_a_secret``) names it as not kept.
The rules had let such facts through, and the write, which reads by the same rules, wrote
them to a file git keeps. Measured on the held halves of two helpers' sets of secrets said
in words (``benchmarks/secret_judge.py``); tested here on other words. A fact of the user's
that names no secret is kept as before."""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import read_requests
from vault_memory.vault.secrets import find_secret


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("remember my security answer for the insurance site is Galway", "Galway"),
        ("recuerda que mi respuesta secreta del seguro es Ushuaia", "Ushuaia"),
        ("guarda que mi respuesta de la mascota en paypal es Pelusa", "Pelusa"),
    ],
)
def test_a_secret_in_words_no_rule_reads_is_named_and_not_kept(said, value, judge):
    assert find_secret(said) is None  # what the rules, and so the write, let through
    kept, declined = read_requests(said, judge=judge)
    assert not any(value in k.text for k in kept), kept
    assert any("secret" in n.reason for n in declined), declined


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("remember that my sister's birthday is on March 3", "March 3"),
        ("lembra que meu pai mora em Coimbra", "Coimbra"),
        ("recuerda que trabajo en Telefónica desde 2019", "Telefónica"),
        ("remember that my router is a Netgear Nighthawk", "Nighthawk"),
    ],
)
def test_a_fact_that_names_no_secret_is_kept(said, value, judge):
    kept, declined = read_requests(said, judge=judge)
    assert any(value in k.text for k in kept), (kept, declined)


def test_without_the_judge_the_rules_alone_read_as_before():
    """The judge reads only where it is given: ``read_requests`` alone keeps what its rules keep."""
    kept, _ = read_requests("remember my security answer for the insurance site is Galway")
    assert any("Galway" in k.text for k in kept)
