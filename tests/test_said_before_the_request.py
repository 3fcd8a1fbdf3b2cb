"""What a request that points back keeps of the sentences before it: each in the third
person ("Tomo metformina" had stayed in the first, "My wife is Ana" had become "their wife
is Ana" when a sentence came before it), a fact no rule kept alone said just before one it
did ("I moved to Porto last year. I work at Farfetch now. Remember all this." had kept the
second only), and not a thanks or a passing state said before them. Tested on other words
than the reports' and the sets'.
"""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "I have a twin brother, Leo. My sister is a vet in Galway. Remember that.",
            ["Leo", "The user's sister is a vet in Galway"],
        ),
        (
            "Sou celíaca. Uso o app Desrosiers pra receitas. Guarda isso.",
            ["A usuária é celíaca", "A usuária usa o app"],
        ),
        ("Moro em Faro. Trabalho num hotel na marina. Anota aí.", ["mora em Faro", "O usuário trabalha num hotel"]),
        (
            "I switched banks in June. I bank with Monzo now. Please remember all of this.",
            ["switched banks in June", "banks with Monzo"],
        ),
        ("Me casé en 2019. Vivo en Mendoza con mi esposa. Guárdalo.", ["se casó en 2019", "vive en Mendoza"]),
    ],
)
def test_each_sentence_pointed_back_at_is_kept_in_the_third_person(said, kept, written_with_the_judge):
    written = written_with_the_judge(said)
    assert all(k in written for k in kept), written


@pytest.mark.parametrize(
    ("said", "kept", "not_written"),
    [
        ("Thanks a lot for yesterday! My cat is called Pixel. Remember that.", "Pixel", "Thanks"),
        ("Muchas gracias por la ayuda. Mi perra se llama Nube. Recuérdalo.", "Nube", "gracias"),
    ],
)
def test_a_thanks_before_the_fact_is_not_kept_with_it(said, kept, not_written, written_with_the_judge):
    written = written_with_the_judge(said)
    assert kept in written and not_written not in written


@pytest.mark.parametrize(
    ("said", "kept", "not_written"),
    [
        (
            "I'm a welder. Ugh, I'm so wiped out today. My union local is 598. Please remember all this.",
            ["welder", "598"],
            "wiped",
        ),
        (
            "I ride a Vespa. Rename the helper in utils.py to load_config. My garage is in Lyon. Remember all this.",
            ["Vespa", "Lyon"],
            "utils",
        ),
        (
            "Soy maestra. ¡Gracias por todo lo de ayer! Doy clases en Salta. Recuerda todo eso.",
            ["maestra", "Salta"],
            "Gracias",
        ),
    ],
)
def test_a_mood_a_thanks_or_a_task_among_the_facts_is_left_out(said, kept, not_written, written_with_the_judge):
    written = written_with_the_judge(said)
    assert all(k in written for k in kept) and not_written not in written, written


@pytest.mark.parametrize(
    "said",
    ["Thanks so much! I'm wiped out today. Remember all this.", "¡Mil gracias! Hoy estoy muerta de sueño. Recuérdalo."],
)
def test_nothing_but_a_thanks_and_a_mood_keeps_nothing(said, written_with_the_judge):
    assert written_with_the_judge(said) == ""
