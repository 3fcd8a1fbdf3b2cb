"""Each pack reads the same orders of the task after a note ("…, rewrite the handler",
"…, reescribe las consultas", "…, renomeie nas configurações"): the Spanish and Portuguese
packs held fewer than the English one ("update", "rename", "rewrite" were English only), and
none the form said to "usted" or "você", so such a note was written as a fact when no judge
read it."""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import read_requests


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("lembre que a nossa fila de pedidos mudou de nome, renomeie nas configurações", None),
        ("ten en cuenta que el equipo de datos cambió el esquema de ventas, reescribe las consultas del informe", None),
        ("lembra que o time de infra trocou o proxy, atualiza as variáveis do compose", None),
        ("remember that the vendor changed the webhook payload, rewrite the handler", None),
        # a fact of the user's, with what to do about it, stays theirs
        ("recuerda que mi hija es celíaca, reemplaza la harina en las recetas", "celíaca"),
        ("lembra que sou vegana, substitui o queijo nas receitas", "vegana"),
    ],
)
def test_a_note_with_an_order_of_the_task_is_not_a_fact(said, kept):
    written = " ".join(s.text for s in read_requests(said)[0])  # the rules alone, no judge
    assert (kept in written) if kept else written == "", written


@pytest.mark.parametrize(
    "said",
    [
        "lembra que meu componente Sidebar recebe a prop aberto, não open, corrige lá",
        "lembra que o banco de dados de homologação reinicia toda madrugada",
        "Nota: Marta dijo que el despliegue es el lunes, así que deja todo listo",
    ],
)
def test_each_pack_names_the_things_of_the_task(said):
    """The task's words in Spanish and Portuguese: "componente", "banco de dados",
    "despliegue" were the English pack's only ("component", "database", "deploy")."""
    assert read_requests(said)[0] == []  # the rules alone


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("recuerda que mi hermana trabaja en una base de datos de ADN forense", "ADN forense"),
        ("lembra que cometi um erro no meu CPF no cadastro do banco, o certo é terminar em 42", "42"),
        ("recuerda que me llegan paquetes de Amazon los martes", "Amazon"),
    ],
)
def test_a_fact_with_a_word_of_the_task_stays_the_users(said, kept):
    from vault_memory.conversation.request_judge import request_judge

    assert kept in " ".join(s.text for s in read_requests(said, judge=request_judge())[0])
