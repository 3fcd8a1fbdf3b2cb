"""A list the user types first and then, on the line after it, asks to keep ("- distro:
Arch\n- shell: zsh\nsave all of this about me") is kept item by item, as a list a request
announces before it is; a list followed by an order or a question about it keeps nothing.
Nothing of such a message had been kept, and no one was told. Found with a helper's
`list_then_request` set, tested here on other words."""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import read_requests


@pytest.mark.parametrize(
    ("said", "values"),
    [
        (
            "- bike: Brompton M6L\n- lock: Kryptonite\n- frame size: medium\nplease remember these",
            ["Brompton", "Kryptonite"],
        ),
        ("- piano: Yamaha U1\n- teacher: Mrs. Adler\nsave all of that about me", ["Yamaha", "Adler"]),
        ("* perro: Toby, beagle\n* veterinaria: Dra. Salas\nacuérdate de esto, porfa", ["Toby", "Salas"]),
        ("- bici: Orbea Orca\n- talla: 54\nanótalo todo, ¿vale?", ["Orbea", "54"]),
        ("- consola: Switch OLED\n- jogo favorito: Zelda\nlembra disso tudo", ["Switch", "Zelda"]),
        ("1. academia: Smart Fit\n2. personal: Rodrigo\nguarda isso tudo, tá?", ["Smart Fit", "Rodrigo"]),
    ],
)
def test_a_list_then_a_request_keeps_every_item(said, values, judge):
    kept, _ = read_requests(said, judge=judge)
    text = " ".join(k.text for k in kept)
    assert all(v in text for v in values), (said, text)


@pytest.mark.parametrize(
    "said",
    [
        "- oat milk\n- rye bread\n- lemons\nwhat else do I need for pancakes?",
        "- test_login fails\n- test_logout is slow\nfix these before the release",
        "- manzanas\n- peras\nordénalas por precio",
        "- reunião às 10h\n- almoço com o time\nresume isso numa frase",
    ],
)
def test_a_list_then_an_order_or_a_question_keeps_nothing(said, judge):
    kept, _ = read_requests(said, judge=judge)
    assert kept == [], (said, kept)
