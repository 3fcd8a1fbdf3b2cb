"""One request, two facts: a request's "that" that goes on to a second clause after "and"
("…, and also that I don't eat eggs", "… y también que no como huevo") keeps both, each in
the third person; the second had been refused as an order said after the fact, or written
in the first person. And a request that points back, then a question in the same sentence
("Please keep that in mind, and could you suggest…?"), keeps what was said before it: the
question's mark had refused the request whole. Found on a tune half; tested on other words.
"""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Could you remember that I'm left-handed, and also that I wear glasses?", ["left-handed", "wears glasses"]),
        ("remember that I work nights and that I sleep until noon", ["works nights", "sleeps until noon"]),
        ("Recuerda que soy de Rosario, y también que hablo italiano.", ["es de Rosario", "habla italiano"]),
        ("Lembra que sou canhoto e também que uso óculos.", ["canhoto", "usa óculos"]),
    ],
)
def test_both_clauses_of_one_request_are_kept(said, kept, written_with_the_judge):
    written = written_with_the_judge(said)
    assert all(k in written for k in kept), written


@pytest.mark.parametrize(
    ("said", "kept", "not_written"),
    [
        (
            "My daughter is allergic to kiwi. Please keep that in mind, and could you plan a lunchbox menu?",
            "kiwi",
            "lunchbox",
        ),
        ("Mi pareja es celíaca. Tenlo presente, y ¿me das ideas para una cena?", "celíaca", "cena"),
        ("Não bebo leite. Guarda isso, e você pode me sugerir um café da manhã?", "não bebe leite", "café da manhã"),
    ],
)
def test_a_request_that_points_back_then_a_question_keeps_the_fact(said, kept, not_written, written_with_the_judge):
    written = written_with_the_judge(said)
    assert kept in written and not_written not in written


@pytest.mark.parametrize(
    ("said", "kept", "not_written"),
    [
        ("remember that my daughter is Ines, and that you need to bump the version before merging", "Ines", "bump"),
        ("Recuerda que mi suegra vive en Cádiz y que debes borrar la rama vieja", "Cádiz", "rama"),
        ("Lembra que meu pai se chama Jorge e que isso me deixou triste ontem", "Jorge", "triste"),
        ("Can you remember that I'm from Gdansk and that the staging build keeps failing?", "Gdansk", "staging"),
    ],
)
def test_a_second_clause_of_the_task_or_pointing_back_is_not_written(said, kept, not_written, written_with_the_judge):
    written = written_with_the_judge(said)
    assert kept in written and not_written not in written, written


def test_a_second_clause_of_the_same_things_world_goes_on(written_with_the_judge):
    written = written_with_the_judge(
        "anota que el servidor de backups es nas-02.casa.lan y que entramos por el puerto 5001"
    )
    assert "nas-02.casa.lan" in written and "5001" in written
