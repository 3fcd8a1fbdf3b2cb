"""What the user did not ask to keep is not kept.

- A fact said with words that ask not to keep it, in each language as in English: "no hace
  falta que lo apuntes", "não precisas de registar isso", "não anotes isto" had been kept
  (the Spanish one with its "no hace falta" as part of the fact). A fact that holds a "no"
  of its own is kept.
- A request inside a quotation is someone else's: in single quotes as in double ones, and
  when it is said after the quoted fact ("a girl says 'my horse is called Thunder, remember
  it…'") or in words only the judge of asking reads ("…: 'tenho três gatos, pra quando eu te
  pedir ajuda com ração'"). The user's own request about a quoted name keeps it.
- A question whether the assistant remembers asks nothing to keep, in words no pack reads
  either."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Mi sobrina se llama Vera, no es necesario que lo apuntes, era un comentario.", None),
        ("Mi jefe se llama Andrés, no hace falta que lo anotes.", None),
        ("A minha irmã mudou-se para Faro, não precisas de registar isso.", None),
        ("Não anotes isto, é só por hoje: estou a trabalhar de casa.", None),
        ("My boss is called Derek, you don't have to save this, I'm just venting.", None),
        ("Remember that I don't eat pork", "pork"),
        ("recuerda que no como cerdo", "cerdo"),
        ("lembra que eu não como carne de porco", "porco"),
        ("Write a poem where a sailor says 'my ship is called Dawn, remember it when I'm gone'.", None),
        ("Escribe un diálogo donde una abuela dice ‘mi gato se llama Nube, apúntalo’.", None),
        ("Escreve um conto em que o pai diz «a minha casa é em Sintra, lembra-te disso».", None),
        ("A minha vizinha disse: 'tenho três gatos, pra quando eu te pedir ajuda com ração'. Que exagero.", None),
        ("Mi prima Inés me escribió: 'me mudé a Oviedo, que lo sepas para cuando vengas'. Qué maja.", None),
        ('remember that my playlist is called "Songs to remember"', "Songs to remember"),
        ("remember that my band is called 'Late for Dinner'", "Late for Dinner"),
        ("I'm Dana's sister and I live in Leeds, remember that", "Leeds"),
    ],
)
def test_what_was_not_asked_is_not_kept(written_with_the_judge, said, kept):
    written = written_with_the_judge(said)
    assert (kept in written) if kept else written == "", written


@pytest.mark.parametrize(
    "said",
    [
        "¿te acordás de que te conté lo de mi viaje a Cusco?",
        "¿te acuerdas de que te hablé de mi perra nueva?",
        "você lembra que te falei do meu cachorro novo?",
        "lembras-te de que te contei da minha viagem a Évora?",
    ],
)
def test_asking_whether_it_was_kept_asks_nothing_to_keep(said):
    """A question whether the assistant remembers is no request in words vmem does not read:
    nothing is written nor named ("¿te acordás de que te conté…?" had been named as one and,
    with a surer judge, written as "Te conté lo del laburo nuevo del usuario")."""
    from vault_memory.conversation.request_judge import request_judge
    from vault_memory.conversation.signals import read_requests

    assert read_requests(said, judge=request_judge()) == ([], [])
