"""A question about the user as a whole is read by its shape, not by a list of whole
questions: the user as what it asks about ("on me", "sobre mí", "a meu respeito"), a word of
knowing or keeping, a question or a request to be told. The whole-question patterns took
the profile path for 26 of 64 such questions a helper wrote ("what do you remember about me
in general?", "antes de seguir, ¿me dices qué sabes de mí?"), and for "delete what you know
about me". Tested here on other words."""

from __future__ import annotations

import pytest

import vault_memory as vmem
from vault_memory.lang import about_the_user
from vault_memory.vault.template import create_vault


@pytest.mark.parametrize(
    "question",
    [
        "hey, could you recap what you've saved on me so far?",
        "quick sanity check before we start: what info have you kept about me",
        "oye, ¿qué sabés sobre mí hasta hoy?",
        "me cuentas lo que tienes guardado de mí, porfa",
        "o que você aprendeu a meu respeito até hoje?",
        "só pra conferir, o que tens registado sobre mim",
        "do you recognize me?",
        "¿te acordás de mí?",
        "tu me conheces?",
        "what have I shared with you about myself?",
    ],
)
def test_a_question_about_the_user_as_a_whole(question):
    assert about_the_user(question)


@pytest.mark.parametrize(
    "question",
    [
        "wipe everything you know about me",
        "enough about me, how was your weekend?",
        "can you save that about me? I'm left-handed",
        "¿cuántas cosas tienes guardadas de mí?",
        "apaga o que sabes sobre mim",
        "what do you know about my landlord?",
        "¿qué sabes de mi trabajo?",
        "the 'remember me' checkbox loses its state after logout, why?",
        "what does my boss know about me?",
        "o que a minha mãe sabe sobre mim?",
    ],
)
def test_a_look_alike_is_not(question):
    assert not about_the_user(question)


def test_the_profile_answers_it_whatever_the_facts_say(tmp_path):
    vault = create_vault(tmp_path / "vault", with_examples=False)
    facts = ["The user is lactose intolerant", "The user's brother is called Tomás", "The user's standup is at 9:30"]
    with vmem.open(vault, use_daemon=False) as mem:
        for fact in facts:
            mem.remember(fact)
        mem.remember("The staging cluster runs Kubernetes 1.29")
        block = mem.recall("hey, could you recap what you've saved on me so far?").block
    assert all(fact in block for fact in facts), block
