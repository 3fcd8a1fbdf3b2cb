"""Secrets of words said as people type them: spelled out, as a label and its value, as a
form's quoted question and its answer, set after the password is named, or a key of what a
password opens. Each was stored whole; the look-alikes beside them are not secrets."""

from __future__ import annotations

import pytest

from vault_memory.vault.secrets import find_secret, find_secrets

SECRETS = [
    # how its letters are typed says a value is typed
    ("the printer's wifi is kettledrum, all lowercase", "kettledrum"),
    ("mi wifi del estudio? pues es cerezonegro, todo junto", "cerezonegro"),
    ("senha do roteador da loja é pitangamadura (sem espaço)", "pitangamadura"),
    ("Marzipan with a capital M opens the vpn at work", "Marzipan"),
    # a label opening its clause and the value ending it
    ("router in the garage: name Shed5, key ravenwing", "ravenwing"),
    ("vpn da firma, senha abacateazul", "abacateazul"),
    # a form's question quoted, the answer told right after it
    ("for 'favourite childhood book' i answered Matilda, dont tell anyone", "Matilda"),
    ("resposta pra 'apelido de infância': tatuzinho", "tatuzinho"),
    # a value said to be given as the answer
    ("i used Bramblewood as the answer on the bank site", "Bramblewood"),
    ("puse Rocinante como respuesta en la web del seguro", "Rocinante"),
    # a key of a thing a password opens, and a password named before it was set
    ("a chave da rede do escritório é jabuticabeira", "jabuticabeira"),
    ("la contraseña de la consola la cambié a dragonrojo", "dragonrojo"),
    ("el pass del spotify de mi tía es reguetonera", "reguetonera"),
    ("La contraseña del portátil de la oficina de mi jefe es pinguinoazul", "pinguinoazul"),
    # found by an attacker: a label's value with digits, "troquei", a question opened with "¿"
    ("hotspot of the van: name Roamer, key bluefjord88", "bluefjord88"),
    ("a senha do notebook da escola eu troquei pra cajuzinho", "cajuzinho"),
    ("en la app del banco, para '¿cómo se llamaba tu primer perro?' puse Canelo", "Canelo"),
    # a word a lock or an alarm opens with, a code's word said as "the word …"
    ("the lockbox by the shed opens with the word Marigold", "Marigold"),
    ("o alarme da loja desliga com 'jacarandá', não esquece", "jacarandá"),
    ("the tablet passcode is the word lemonade, the kids chose it", "lemonade"),
    ("la palabra para abrir el candado de la bici es girasol", "girasol"),
]

LOOK_ALIKES = [
    "my wifi network is called Kettledrum, all one word",
    "I changed my password to stop the spam",
    "she wants to pass that same support to others",
    "No passwords in this set; the messages are typed casually (lowercase, no accents)",
    "the router is in the garage, next to the freezer",
    "la contraseña de la consola la cambié ayer",
    "the password hint is 'favourite fruit', which one did I pick?",
    "a chave do carro ficou na casa da minha mãe",
    # found by an attacker: a quiz's or a game's quoted question, another thing's password
    "pub quiz tonight: for 'longest river in Africa' i answered Amazon, oops",
    "jugando al trivial: para 'autor del Quijote' contesté Lope jaja",
    "we used mango as the answer to the crossword clue",
    "the password manager we use is Dashlane, all one word",
    "the back gate opens with a shove, it sticks",
    "the word of the week in class is photosynthesis",
]


@pytest.mark.parametrize(("text", "value"), SECRETS)
def test_a_secret_of_words_said_as_typed_is_found_and_its_value_left_out(text, value):
    found = find_secrets(text)
    assert found, text
    assert any(value in text[s.start : s.end] or text[s.start : s.end] in value for s in found), text


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_its_look_alikes_are_no_secret(text):
    assert find_secret(text) is None
