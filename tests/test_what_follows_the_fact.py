"""A sentence said right after a kept request that goes on about its fact is kept with it,
as the judge of what follows reads it (``lang.judge.goes_on``): a cause, a fragment, a
detail that points back, what follows from the fact ("Doctor's orders since the heart
scare", "Nada de queijo nem leite nas receitas"); and a question, a thanks, a task or a mood
said after it is not. The judge was refitted on a second helper's pairs of such details;
these are other words than theirs and the sets'.
"""

from __future__ import annotations

import pytest

DETAILS = [
    ("Remember that my son Theo has a peanut allergy.", "He carries an EpiPen to school.", "EpiPen"),
    ("Keep in mind that I'm on a low-sodium diet.", "Doctor's orders since the heart scare.", "heart scare"),
    ("Note that I moved to Rotterdam.", "Since August, near the Markthal.", "Markthal"),
    ("Remember I play the cello.", "Mostly Bach, in a community orchestra.", "Bach"),
    ("Remember that my partner is Sam.", "They work as a paramedic.", "paramedic"),
    ("Recuerda que tengo diabetes tipo 2.", "Me la diagnosticaron hace tres años.", "tres años"),
    ("Ten en cuenta que no como cerdo.", "Ni jamón ni embutidos.", "embutidos"),
    ("Recuerda que vivo en Quito.", "En el norte, cerca del parque La Carolina.", "La Carolina"),
    ("Acordate que tengo un gato, el Michi.", "Es naranja y tiene 4 años.", "naranja"),
    ("Lembra que tenho um cachorro, o Thor.", "Ele é um labrador de 6 anos.", "labrador"),
    ("Anota que sou intolerante à lactose.", "Nada de queijo nem leite nas receitas.", "queijo"),
    ("Não esquece que a minha mãe se chama Rosa.", "Faz anos a 3 de junho.", "3 de junho"),
    ("Lembra que corro maratonas.", "A próxima é a de Lisboa, em outubro.", "Lisboa"),
]

OTHERS = [
    ("Remember that my son Theo has a peanut allergy.", "Anyway, what's a good birthday cake recipe?", "cake"),
    ("Keep in mind that I'm on a low-sodium diet.", "Thanks, you're the best!", "best"),
    ("Note that I moved to Rotterdam.", "Now fix the failing test in the parser.", "parser"),
    ("Recuerda que tengo diabetes tipo 2.", "¿Qué puedo desayunar hoy?", "desayunar"),
    ("Anota que mi jefa es Lucía Ferrer.", "Escríbele un correo pidiendo el viernes libre.", "correo"),
    ("Recuerda que vivo en Quito.", "Uf, qué día más largo.", "largo"),
    ("Lembra que tenho um cachorro, o Thor.", "Valeu pela ajuda de ontem!", "ajuda"),
    ("Lembra que corro maratonas.", "Agora me ajuda a escrever o README do projeto.", "README"),
    ("Não esquece que a minha mãe se chama Rosa.", "Que calor está hoje, credo.", "calor"),
]


@pytest.mark.parametrize(("request_said", "detail", "kept"), DETAILS)
def test_a_detail_after_the_request_is_kept_with_its_fact(request_said, detail, kept, written_with_the_judge):
    assert kept in written_with_the_judge(f"{request_said} {detail}")


@pytest.mark.parametrize(("request_said", "other", "word"), OTHERS)
def test_what_is_no_detail_of_it_is_not_written(request_said, other, word, written_with_the_judge):
    written = written_with_the_judge(f"{request_said} {other}")
    assert written and word not in written


@pytest.mark.parametrize(
    ("said", "kept", "not_written"),
    [
        (
            "Remember that I started at Kestrel Labs. Joined in September as a data engineer. "
            "My manager is Priya Raman. Now can you review this query?",
            ["Kestrel Labs", "September", "Priya Raman"],
            "query",
        ),
        (
            "Recuerda que me operaron de la rodilla. Fue en enero, en el Hospital Alemán. "
            "El cirujano fue el Dr. Paz. Bueno, ¿me armás una rutina de gimnasio?",
            ["rodilla", "enero", "Paz"],
            "rutina",
        ),
    ],
)
def test_two_details_in_a_row_are_kept_and_what_follows_them_is_not(said, kept, not_written, written_with_the_judge):
    written = written_with_the_judge(said)
    assert all(k in written for k in kept), written
    assert not_written not in written
