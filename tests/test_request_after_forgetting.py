"""A request said after the user's own story of forgetting keeps what it asks: "I can never
keep this straight — log it: …", "nunca me acuerdo, así que apúntalo: …", "esqueço-me
sempre, por isso anota: …". The story had refused the whole sentence (English "never
remember" was read as "don't save"), and a request after "so", "así que", "então" or a
dash was not found. A story of someone else's forgetting is still theirs to keep; a story
that asks a reminder or a question keeps nothing."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I never remember which one it is, so save this: my blood type is O negative", "O negative"),
        ("I can never keep this straight — log it: our landlord is Mrs. Adebayo in flat 2", "Mrs. Adebayo"),
        ("nunca me acuerdo, así que apúntalo: el pediatra de Lucas es el Dr. Ibarra", "Dr. Ibarra"),
        ("Esqueço-me sempre disto, por isso anota: o meu seguro do carro é da Fidelidade", "Fidelidade"),
        ("A minha mãe esquece-se sempre dos comprimidos, lembra-te disso", "comprimidos"),
        # a reason of the user's, "so" / "así que" / "por isso", then a request whose colon opens the fact
        (
            "A minha cabeça anda nas nuvens, por isso guarda: o meu NIF termina em 417",
            "O NIF do usuário termina em 417",
        ),
        ("Tengo la cabeza en otra parte, así que apunta: el veterinario de Toby es el Dr. Ferrán", "Dr. Ferrán"),
    ],
)
def test_a_request_after_a_story_of_forgetting_keeps_its_fact(written_with_the_judge, said, kept):
    assert kept in written_with_the_judge(said)


@pytest.mark.parametrize(
    ("said", "not_written"),
    [
        ("sempre esqueço de regar as plantas, me lembra amanhã às 8h", "plantas"),
        ("I never remember how to exit vim, how do I do it again?", "vim"),
        # a reminder, its reason, then a list said after a colon: a to-do's, not a fact
        (
            "Recuérdame llamar al fontanero, que siempre se me olvida, así que apúntalo en la agenda: fontanero el jueves",
            "fontanero",
        ),
        ("Lembra-me de comprar pilhas, que eu esqueço sempre, por isso anota na lista: pilhas e fita-cola", "pilhas"),
    ],
)
def test_a_story_of_forgetting_that_asks_a_reminder_is_no_fact(written_with_the_judge, said, not_written):
    assert not_written not in written_with_the_judge(said).casefold()
