"""Requests said in idioms the packs did not hold whole: "keep this: …" and "keep it: …"
with what they keep after the colon; "keep both handy"; and a correction's "update what
you had on my address" / "actualiza lo que tenías de mi dirección" / "atualiza o que
sabias do meu médico", which asked only of "me" and in the present ("Tinhas sobre o
trabalho do usuário" had been written)."""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import read_requests


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("keep this: my bike is a Trek FX 2", ["Trek FX 2"]),
        ("keep it: my dog's vet is at Harbor Animal Clinic", ["Harbor Animal Clinic"]),
        (
            "My email aliases are jo.park@hey.com and jpark@fastmail.com, keep both handy",
            ["jo.park@hey.com", "jpark@fastmail.com"],
        ),
        ("I moved to Leeds last month, 14 Park Row. Update what you had on my address.", ["Leeds", "14 Park Row"]),
        (
            "Me mudé a Rosario, a la calle Mitre 1450. Actualiza lo que tenías de mi dirección.",
            ["Rosario", "Mitre 1450"],
        ),
        ("O meu médico agora é o Dr. Vasco Pires. Atualiza o que sabias do meu médico.", ["Dr. Vasco Pires"]),
        (
            "Mudei de emprego, agora trabalho na Embraer em São José dos Campos. Atualiza o que tinhas sobre o meu trabalho.",
            ["Embraer em São José dos Campos"],
        ),
    ],
)
def test_a_request_in_an_idiom_keeps_its_fact(judge, said, kept):
    written = " ".join(s.text for s in read_requests(said, judge=judge)[0])
    for value in kept:
        assert value in written, written
    assert "tinhas" not in written.casefold() and "tenías" not in written.casefold(), written


@pytest.mark.parametrize(
    "said",
    [
        "keep it simple: one function, no classes",
        "The team renamed the service to billing-api. Update what you have on the service name.",
    ],
)
def test_no_request_is_read_where_none_is_asked(judge, said):
    assert read_requests(said, judge=judge)[0] == []
