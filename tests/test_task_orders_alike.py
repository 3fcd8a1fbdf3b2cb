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
