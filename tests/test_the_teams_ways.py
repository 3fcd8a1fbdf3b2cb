"""A team's ways, a verb of keeping that looks like a past tense, and a to-do before a
colon, read alike in each pack; each found on the twenty-sixth generation's tune half and
tested here on other words.

- A fact that opens with the user's team, company or office ("na minha equipe o code
  review…", "remember that on my team PR titles…", "at work…", "na empresa…") was refused
  for its words of code, or its "that" read as pointing back: it is of their world, and the
  judge of meaning spares it as it spares a fact of the user's.
- "grava", "graba" (keep, record) were read as a past tense ("gravava", "grababa": a
  statement's ending after part of the stem), so "cara, grava que…" kept nothing.
- "remember to revert it later: I set X=0 in .env" wrote what the to-do is about as the
  user's fact; "recuerda: comprar leche…" wrote the to-do itself, which "recuerda comprar
  leche" did not.
"""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("recuerda que en mi oficina el code review se hace en parejas los viernes", "en parejas"),
        ("lembra que no meu setor o deploy só sai com ticket aberto no Jira", "ticket aberto"),
        ("remember that in my squad every release branch needs two approvals", "two approvals"),
        ("remember that at our company the staging deploys run on Tuesdays", "Tuesdays"),
    ],
)
def test_a_fact_of_the_users_team_is_of_their_world(said, kept, written_by_the_rules):
    written = written_by_the_rules(said)
    assert kept in written, written


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("remember that at work the release train leaves every other Wednesday", "release train"),
        ("ten en cuenta que en la oficina los despliegues a producción se aprueban los martes", "martes"),
        ("lembra que na firma toda mudança no banco passa por revisão do DBA", "revisão do DBA"),
    ],
)
def test_where_the_user_works_said_with_an_article_is_theirs(said, kept, written_by_the_rules):
    """ "at work", "en la oficina", "na firma": the user's workplace, with no possessive."""
    assert kept in written_by_the_rules(said)


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Fica sabendo que na empresa toda migração de banco precisa de dois revisores", "dois revisores"),
        ("no te olvides que en el laburo los hotfix se mergean solo con aprobación del líder técnico", "líder"),
        ("lembra que no trabalho as branches seguem o padrão feat/JIRA-000-descricao", "feat/JIRA-000"),
    ],
)
def test_the_judge_of_meaning_leaves_the_users_workplace_theirs(said, kept, written_with_the_judge):
    """The judge reads these as the work at hand, as it reads a fact of the user's; a fact of
    their team's is spared its refusal as one of theirs is, written as code or not (a
    team's branch names are); "our API returns 204…" is not: "we" and "our" say the work at
    hand as often."""
    assert kept in written_with_the_judge(said)


def test_a_team_phrase_says_nothing_by_itself(written_by_the_rules):
    """What a request points back at stays a pointing: no clause follows the team."""
    assert written_by_the_rules("keep that in mind for my team") == ""


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("olha só, grava que a minha filha faz anos em maio", "faz anos em maio"),
        ("oye, graba que mi sobrino se llama Bruno", "Bruno"),
        ("grava q o meu carro é um Gol 2012", "Gol 2012"),
    ],
)
def test_a_verb_of_keeping_is_no_past_tense(said, kept, written_by_the_rules):
    assert kept in written_by_the_rules(said)


@pytest.mark.parametrize("said", ["eu gravava que ele ia me ligar", "anotaron que la reunión se movió"])
def test_a_past_tense_of_keeping_still_asks_nothing(said, written_by_the_rules):
    assert written_by_the_rules(said) == ""


@pytest.mark.parametrize(
    "said",
    [
        "acuérdate de quitarlo luego: dejé DEBUG=True en settings.py",
        "lembra de reverter depois: eu desliguei o cache no config.yaml",
        "remember to undo it before the merge: I pinned the SDK to 2.3.1 in package.json",
        "dont forget to undo this before the release: I commented out the rate limiter in api/limits.py",
        "no te olvides de quitar esto después: puse un sleep(5) en el worker",
        "não esquece de tirar isso antes do deploy: deixei o log em modo debug no settings.py",
    ],
)
def test_a_to_do_before_a_colon_keeps_nothing(said, written_by_the_rules, written_with_the_judge):
    assert written_by_the_rules(said) == "" and written_with_the_judge(said) == ""


@pytest.mark.parametrize(
    "said",
    ["apunta: pedir cita con el dentista y renovar el pasaporte", "anota aí: pagar o IPVA e levar o carro na revisão"],
)
def test_a_to_do_after_a_colon_keeps_nothing(said, written_by_the_rules):
    """Said by its infinitive after the colon, as "recuerda pedir cita…" is with none."""
    assert written_by_the_rules(said) == ""


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("guarda esto: vivir cerca del mar es mi sueño", "cerca del mar"),
        ("recuerda: mi hermana vive en Lima", "Lima"),
    ],
)
def test_what_follows_a_colon_and_says_something_is_kept(said, kept, written_by_the_rules):
    assert kept in written_by_the_rules(said)


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("remember to save this: my godson is called Teo", "Teo"),
        ("note to self: my locker at the gym is number 41", "41"),
        ("no te olvides de esto: mi hermano vive en Quito", "Quito"),
    ],
)
def test_a_request_that_keeps_before_its_colon_is_no_to_do(said, kept, written_by_the_rules):
    assert kept in written_by_the_rules(said)
