"""A number is not a word that points back, and a branch of a family is no git branch.

"remember that one branch of my family tree is the O'Donovans…" had been read as "remember
that one" (pointing back at what was said before it), so nothing was kept; with the judge,
"branch" as a word of the task lost the clause after it ("…, and I'm researching them on
Ancestry"). "that one" still points back where nothing counted follows it."""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import read_requests


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("remember that one side of my family is from Madeira", "Madeira"),
        ("remember that one of my cousins is a pilot in Lisbon", "pilot in Lisbon"),
        ("please remember that one wall of my flat is load-bearing", "load-bearing"),
    ],
)
def test_a_number_after_that_opens_the_users_clause(said, kept, written_by_the_rules):
    assert kept in written_by_the_rules(said)


@pytest.mark.parametrize("said", ["remember that one for later", "remember that one, ok?", "remember that one please"])
def test_that_one_alone_points_back(said):
    found, declined = read_requests(said)
    assert found == [] and declined


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "remember that a branch of my mother's family emigrated to Brazil, and I'm tracing them on FamilySearch",
            "FamilySearch",
        ),
        (
            "acuérdate de que una rama de mi familia vino de Galicia, y estoy buscando sus partidas en FamilySearch",
            "FamilySearch",
        ),
    ],
)
def test_a_branch_of_a_family_is_no_branch_of_code(said, kept, written_with_the_judge):
    assert kept in written_with_the_judge(said)


@pytest.mark.parametrize(
    "said",
    [
        "recuerda que la rama de develop está rota, haz rebase",
        "remember that the release branch is frozen, don't push there",
    ],
)
def test_a_branch_of_code_is_still_the_tasks(said):
    assert read_requests(said)[0] == []
