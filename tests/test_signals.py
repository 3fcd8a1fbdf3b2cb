"""The explicit-signal table: what a user says to be remembered, in English and Spanish
(rioplatense voseo included), and what only looks like it. The table's precision and
recall are measured over all rows; a handful of rows pin the exact third-person text."""

from __future__ import annotations

import pytest

from vault_memory.conversation.signals import explicit_signals, refusal

# (utterance, the key of the fact it must yield, or None: not a signal)
TABLE: list[tuple[str, str | None]] = [
    # English: requests
    ("Remember that my sister is called Ana", "sister"),
    ("Please remember that my dog's name is Toby", "dog"),
    ("Don't forget that I'm allergic to shellfish", "allergies"),
    ("Keep in mind that I work as a nurse", "job"),
    ("keep in mind I prefer tabs over spaces", "preference"),
    ("Note that my partner is vegetarian", "partner"),
    ("Remember: my flight lands at 7am on Friday", "flight"),
    ("btw, remember that I live in Porto", "city"),
    ("Bear in mind that my son has a peanut allergy", "son"),
    ("Never forget that my mother's birthday is May 3rd", "mother"),
    ("Remember this: I take my coffee black", "coffee"),
    ("Make a note that the staging server is db-2", "note"),
    # English: directives
    ("From now on, answer in English", "instruction"),
    ("from now on I will write the tests first", "instruction"),
    ("Going forward, keep answers under 100 words", "instruction"),
    ("Always use type hints in Python examples", "instruction"),
    ("Never use semicolons in my JavaScript", "instruction"),
    # English: statements
    ("My name is Lucas", "name"),
    ("Hi! My name is Lucas and I live in Madrid.", "name"),
    ("I live in Buenos Aires", "city"),
    ("I work as a data engineer", "job"),
    ("I work at Globex", "employer"),
    ("I'm allergic to penicillin", "allergies"),
    ("I am allergic to cats", "allergies"),
    ("I prefer short answers with examples", "preference"),
    ("I'd rather get the code first", "preference"),
    ("I decided to use Postgres for the project", "decision"),
    ("I've decided to move to Lisbon next year", "decision"),
    ("Call me Luke", "name"),
    # English: not signals
    ("Can you remember my name?", None),
    ("Do you remember what I told you yesterday", None),
    ("Remember when we went to Rome?", None),
    ("remember when we fixed that bug together", None),
    ("Don't remember that, it was a joke", None),
    ("Please don't save this", None),
    ("I don't remember where I put my keys", None),
    ("I can't remember the password", None),
    ("I'm tired today", None),
    ("Right now I'm really busy", None),
    ("What's the weather like in Madrid?", None),
    ("Always the same story with this build", None),
    ("Never mind", None),
    ("Forget that I said I live in Rome", None),
    ("Can you always answer in Spanish?", None),
    ("Is my name Lucas?", None),
    ("The tests pass now", None),
    ("Let's deploy on Monday", None),
    ("remember when I told you about my sister", None),
    # Spanish: requests (voseo and tú)
    ("Acordate que mi hermana se llama Ana", "hermana"),
    ("acordate de que vivo en Córdoba", "ciudad"),
    ("Recordá que soy alérgica a las nueces", "alergias"),
    ("Recuerda que trabajo como enfermera", "trabajo"),
    ("No te olvides de que mi cumpleaños es el 3 de mayo", "cumpleaños"),
    ("No olvides que prefiero respuestas cortas", "preferencia"),
    ("Anotá que el lunes tengo turno con el dentista", "nota"),
    ("anota: mi jefe se llama Martín", "jefe"),
    ("Tené en cuenta que mi hijo tiene 5 años", "hijo"),
    ("Ten en cuenta que uso Linux", "nota"),
    ("Che, acordate que mi perro se llama Toto", "perro"),
    ("Tomá nota: mi auto es un Fiat", "auto"),
    # Spanish: directives
    ("A partir de ahora respondeme en español", "instruccion"),
    ("a partir de ahora, hablame de vos", "instruccion"),
    ("De ahora en más usá tabs", "instruccion"),
    ("Desde ahora escribí los commits en inglés", "instruccion"),
    ("Siempre respondé con ejemplos de código", "instruccion"),
    ("Nunca uses punto y coma", "instruccion"),
    # Spanish: statements
    ("Me llamo Lucas", "nombre"),
    ("Mi nombre es Lucía", "nombre"),
    ("Vivo en Montevideo", "ciudad"),
    ("Trabajo como diseñadora", "trabajo"),
    ("Trabajo en Mercado Libre", "empleador"),
    ("Soy alérgico al maní", "alergias"),
    ("Prefiero respuestas directas", "preferencia"),
    ("Decidí usar Kimi para el proyecto", "decision"),
    ("Hola, me llamo Ana y vivo en Rosario", "nombre"),
    # Spanish: not signals
    ("¿Te acordás de mi hermana?", None),
    ("¿Te acuerdas de lo que te dije?", None),
    ("te acordás cuando fuimos a la playa", None),
    ("Acordate cuando arreglamos ese bug", None),
    ("No anotes eso", None),
    ("no recuerdes lo que te dije", None),
    ("No me acuerdo dónde dejé las llaves", None),
    ("No recuerdo la contraseña", None),
    ("Hoy estoy cansado", None),
    ("Estoy cansada hoy", None),
    ("Ahora mismo estoy ocupado", None),
    ("Siempre me pasa lo mismo", None),
    ("Nunca es tarde", None),
    ("Olvidate de lo que te dije", None),
    ("¿Podés siempre responder en español?", None),
    ("El build está roto otra vez", None),
    ("Mañana vamos al cine", None),
    ("¿Recordás mi nombre?", None),
]


def _keys(utterance: str) -> list[str]:
    return [s.key for s in explicit_signals(utterance)]


def test_the_table_is_large_and_balanced():
    positives = [u for u, k in TABLE if k]
    assert len(TABLE) >= 80
    assert 0.4 <= len(positives) / len(TABLE) <= 0.7


def test_precision_and_recall_over_the_table():
    """Counted per utterance: a true positive yields the expected key; a false positive
    yields any fact from a non-signal (or a wrong key); a false negative yields none."""
    tp = fp = fn = 0
    wrong = []
    for utterance, key in TABLE:
        got = _keys(utterance)
        if key is None:
            if got:
                fp += 1
                wrong.append((utterance, got))
        elif key in got:
            tp += 1
        elif got:
            fp += 1
            wrong.append((utterance, got))
        else:
            fn += 1
            wrong.append((utterance, got))
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    print(f"signal table: {len(TABLE)} utterances, precision {precision:.3f}, recall {recall:.3f}")
    assert precision >= 0.97 and recall >= 0.95, wrong


@pytest.mark.parametrize(
    ("utterance", "text"),
    [
        ("Remember that my sister is called Ana", "The user's sister is called Ana"),
        ("A partir de ahora respondeme en español", "A partir de ahora, el usuario pide responderle en español"),
        ("Don't forget that I'm allergic to shellfish", "The user is allergic to shellfish"),
        ("Recordá que soy alérgica a las nueces", "La usuaria es alérgica a las nueces"),
        ("Acordate que mi hermana se llama Ana", "La hermana del usuario se llama Ana"),
        ("Anotá que el lunes tengo turno con el dentista", "El lunes el usuario tiene turno con el dentista"),
        ("Always use type hints", "The user wants the assistant to always use type hints"),
        ("Siempre usá tabs", "El usuario pide siempre usar tabs"),
        ("Keep in mind I go to the gym on Mondays", "The user goes to the gym on Mondays"),
        # once the user is the subject, "my" is "their" (it was "the user takes the user's coffee")
        ("Remember that I take my coffee with oat milk", "The user takes their coffee with oat milk"),
        ("Remember that my sister says my brother is tall", "The user's sister says the user's brother is tall"),
    ],
)
def test_signals_are_written_in_the_third_person(utterance, text):
    assert [s.text for s in explicit_signals(utterance)] == [text]


def test_one_turn_can_state_several_facts_and_each_has_a_domain():
    signals = explicit_signals("Hi! My name is Lucas and I live in Madrid. Remember that I'm allergic to nuts.")
    assert [(s.key, s.domain) for s in signals] == [
        ("name", "personal"),
        ("city", "personal"),
        ("allergies", "health"),
    ]


@pytest.mark.parametrize(
    ("sentence", "rule"),
    [
        ("Can you remember my name?", "question"),
        ("¿Te acordás de mi hermana?", "question"),
        ("Remember when we went to Rome", "reminiscing"),
        ("No anotes eso", "negation"),
        ("I don't remember that", "not-remembering"),
    ],
)
def test_refusals_name_their_rule(sentence, rule):
    assert refusal(sentence) == rule


# Written after the rules were tuned on TABLE and never tuned on: the honest measure.
HELD_OUT: list[tuple[str, str | None]] = [
    ("Just so you know, my name is Priya", "name"),
    ("remember that my wife is named Carla", "wife"),
    ("Please keep in mind that I'm vegan", "note"),
    ("Don't forget my brother's name is Tom", "brother"),
    ("I live in Seattle now", "city"),
    ("I work as a high school teacher", "job"),
    ("I'm allergic to bee stings", "allergies"),
    ("From now on, reply in bullet points", "instruction"),
    ("Always show the shell command before running it", "instruction"),
    ("I prefer dark mode in every screenshot", "preference"),
    ("I decided to drop the Kubernetes migration", "decision"),
    ("Could you remember to check the logs?", None),
    ("Do you still remember my address", None),
    ("Remember the time we broke production?", None),
    ("I honestly don't remember his name", None),
    ("Today I'm exhausted", None),
    ("Never again will I use that library", None),
    ("acordate que mi novia se llama Sofía", "novia"),
    ("Recordá que vivo en La Plata", "ciudad"),
    ("no te olvides que trabajo de noche", "nota"),
    ("Tené en cuenta que soy alérgico a la lactosa", "alergias"),
    ("A partir de ahora contestame más corto", "instruccion"),
    ("Siempre explicame los comandos antes de correrlos", "instruccion"),
    ("Me llamo Joaquín", "nombre"),
    ("Prefiero que me hables de vos", "preferencia"),
    ("¿Te acordás de lo que hablamos ayer?", None),
    ("No anotes nada de esto", None),
    ("Hoy ando medio resfriado", None),
    ("No me acuerdo del nombre del bar", None),
    ("Siempre llueve cuando salgo", None),
]


def test_precision_and_recall_held_out():
    tp = fp = fn = 0
    for utterance, key in HELD_OUT:
        got = _keys(utterance)
        if key is None:
            fp += bool(got)
        elif key in got:
            tp += 1
        elif got:
            fp += 1
        else:
            fn += 1
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    print(f"held-out signals: {len(HELD_OUT)} utterances, precision {precision:.3f}, recall {recall:.3f}")
    assert precision >= 0.85 and recall >= 0.8


@pytest.mark.parametrize(
    "said, written",
    [
        ("I always run the dev server on port 4001", "The user always runs the dev server on port 4001"),
        ("I usually drink tea", "The user usually drinks tea"),
        ("I never eat meat", "The user never eats meat"),
        ("I really like jazz", "The user really likes jazz"),
        ("I often go to Porto", "The user often goes to Porto"),
        ("I sometimes fly to Oslo", "The user sometimes flies to Oslo"),
        ("I also do yoga", "The user also does yoga"),
        ("I really don't like olives", "The user really does not like olives"),
        ("I watch films on Fridays", "The user watches films on Fridays"),
        ("I have a cat", "The user has a cat"),
        # irregular verbs, negated modals and the past keep their form
        ("I go running at dawn", "The user goes running at dawn"),
        ("I do the accounts on Sundays", "The user does the accounts on Sundays"),
        ("I won't fly with Ryanair", "The user won't fly with Ryanair"),
        ("I can't eat gluten", "The user can't eat gluten"),
        ("I haven't got a car", "The user hasn't got a car"),
        ("I just moved to Berlin", "The user just moved to Berlin"),
        ("I ran the Paris marathon", "The user ran the Paris marathon"),
        ("I need a standing desk", "The user needs a standing desk"),
        ("I study law at night", "The user studies law at night"),
        ("I fix old bikes", "The user fixes old bikes"),
        ("I was born in Lima", "The user was born in Lima"),
        ("I'm vegan", "The user is vegan"),
    ],
)
def test_a_frequency_adverb_never_takes_the_verbs_ending(said, written):
    """The offline rules wrote "The user alwayses run…" (also "usuallies", "nevers", "reallies"),
    "wons't" and "moveds"."""
    [signal] = explicit_signals(f"Remember that {said}")
    assert signal.text == written


@pytest.mark.parametrize(
    "said, written",
    [
        ("Recordá que soy vegetariana", "La usuaria es vegetariana"),
        ("Recuerda que estoy embarazada", "La usuaria está embarazada"),
        ("Recordá que soy programadora", "La usuaria es programadora"),
        ("Acordate que soy dentista", "El usuario es dentista"),  # the same word for both
        ("Recordá que estoy casado", "El usuario está casado"),
        ("Recordá que mi hermana es médica", "La hermana del usuario es médica"),
        # found by benchmarks/own_words.py: a verb not in the table, "no", nouns and adjectives
        ("Recordá que toco la guitarra", "El usuario toca la guitarra"),
        ("Recordá que no tomo alcohol", "El usuario no toma alcohol"),
        ("Recordá que mi madre vive en Córdoba", "La madre del usuario vive en Córdoba"),
        ("Recordá que mi color favorito es el verde", "El color favorito del usuario es el verde"),
        ("Recordá que mi hijo mayor se llama Tomás", "El hijo mayor del usuario se llama Tomás"),
        ("Recordá que mi mejor amiga se llama Sol", "La mejor amiga del usuario se llama Sol"),
        ("Recordá que no me gusta el picante", "Al usuario no le gusta el picante"),
    ],
)
def test_spanish_facts_read_right(said, written):
    """It wrote "El usuario es vegetariana", "El madre del usuario", "El color del usuario
    favorito", "Toco la guitarra" (unchanged) and "No le gusta el picante" (no subject)."""
    [signal] = explicit_signals(said)
    assert signal.text == written


@pytest.mark.parametrize(
    "prompt",
    [
        "note the failing test in tests/test_api.py and fix it",
        "save this file as config.yaml",
        "please remember my favourite tea, then check it",
        "remember to close the file handle",
        "anotá el test que falla en tests/test_api.py y arreglalo",
        "guardá el archivo como config.yaml",
        "por favor acordate de mi té favorito y después revisalo",
        "acordate de cerrar el archivo",
        "I prefer the second approach",
        "prefiero la segunda opción",
    ],
)
def test_an_instruction_about_the_task_is_not_a_fact(prompt):
    """Found in a real Claude Code session: ordinary prompts became explicit facts ("The
    failing test in tests/test_api.py and fix it", "File as config.yaml", "favourite: The
    user's favourite tea, then check it")."""
    assert explicit_signals(prompt) == []


@pytest.mark.parametrize(
    "prompt,fact",
    [
        ("please remember my favourite tea is sencha, then check it", "The user's favourite tea is sencha"),
        ("recordá que el puerto es mío y reinicialo", None),
        ("remember that I prefer pytest over unittest, and run the tests", "The user prefers pytest over unittest"),
        ("recordá que uso tabs y arreglalo", "El usuario usa tabs"),
        ("remember to always answer in Spanish", "The user wants the assistant to always answer in Spanish"),
    ],
)
def test_a_fact_is_kept_whole_and_the_task_that_follows_it_is_not(prompt, fact):
    got = [s.text for s in explicit_signals(prompt)]
    assert got == ([fact] if fact else [])


def test_precision_and_recall_on_the_agent_prompts_set():
    """benchmarks/data/agent_prompts.json: coding and everyday prompts, English and Spanish,
    most of them instructions that only look like requests to remember."""
    import json
    from pathlib import Path

    rows = json.loads((Path(__file__).parent.parent / "benchmarks/data/agent_prompts.json").read_text())
    kept = [bool(explicit_signals(r["text"])) for r in rows]
    tp = sum(k and r["remember"] for k, r in zip(kept, rows))
    fp = sum(k and not r["remember"] for k, r in zip(kept, rows))
    positives = sum(r["remember"] for r in rows)
    assert len(rows) - positives >= 200
    assert tp / (tp + fp) >= 0.97 and tp / positives >= 0.9


def test_a_prompt_is_read_for_a_bounded_time_and_what_is_left_is_named():
    """Issue 59: beyond the patterns, no single prompt may hold the daemon: a reading that
    runs out of its time stops at a sentence and names what it did not read, and what it
    read before is kept."""
    from vault_memory.conversation.signals import read_requests

    prompt = "Remember that my locker is number 12. " + "Keep in mind that the sky is grey. " * 50
    kept, unread = read_requests(prompt, seconds=0.0)
    assert kept == [] and len(unread) == 1 and unread[0].reason.startswith("not read")
    assert unread[0].sentence.startswith("Remember that my locker")
    kept, unread = read_requests(prompt, seconds=30.0)
    assert kept and kept[0].text == "The user's locker is number 12" and not unread
