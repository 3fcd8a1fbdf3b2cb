"""Whether a request to remember is about the user's world or about the task at hand, read
by its meaning: a logistic regression on the multilingual model's vector of the message.
And whether a clause asks to keep what the rest of a message says at all (``asks_to_keep``),
for a message where no rule read a request; whether a sentence said after a kept request
goes on about its fact (``goes_on``); and what a fact tells of the user — their home, work,
diet, allergies to medicines (``fact_kinds``) — by more regressions on the same vectors.

The request rules read words: files, code, "deploy", "esto" say the task. On requests and
instructions written by people who never saw them, those words refused requests about the
user's world ("remember our branch names are feature/JIRA-…") and wrote instructions
("tené en cuenta que esto corre en node 16"). The judge settles only those two doubts: a
request the rules refused for its task words is kept when the judge is sure it is of the
user's world (``KEEP``), and one they kept is refused when it is sure it is the task
(``REFUSE``). It reads nothing else: a message with no request, a refusal for any other
reason, a message longer than its model reads (``conversation.signals``). Each judge is
trained and measured by a script of ``benchmarks/`` (``request_judge.py``, ``asking_judge.py``,
``follow_on_judge.py``, ``kind_judge.py``: its thresholds chosen there on sets it was not
trained on); the weights are data, beside this module.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from pathlib import Path

from .text import fold_accents, words

#: the fitted judge: the model whose vectors it reads, its weights and bias
WEIGHTS = Path(__file__).with_name("request_judge.json")
#: the model it reads (``index.embedder.UseEmbedder``: sixteen languages in one space)
MODEL = "use-multilingual-v3"
#: at or above this, a request refused for its task words is kept; below ``REFUSE``, a
#: request the rules kept is refused. Chosen on what the reading does, each generation of
#: sets left out of the judge's training in turn (the held halves left out of all): over the
#: twenty-seven generations read (the tune halves of the twenty-fifth to twenty-ninth and of
#: the thirteenth's instructions added: the twenty-ninth, a home's keys, gates and buttons,
#: after a refit without it refused "remember that gate 1 of the garage opens with the blue
#: key"), the rules alone kept 1,368 of 1,519 requests whole and wrote 49 of 942
#: instructions; with the judge at these two, 1,424 and 8 (the best of a grid of 25 by
#: requests kept less twice the instructions written; at the .7 and .2 of the judge before,
#: 1,427 and 12). Over twenty-two generations it had been 1,168 of 1,294 and 33 of 780 alone,
#: 1,216 and 3 with that judge. A fact whose subject is the user is never refused ("I indent
#: with two spaces" reads as code)
KEEP = 0.8
REFUSE = 0.25
#: at or above this, a request no rule could read is kept as said, less its own words
#: (``conversation.signals._unread``): nothing of it was read, so the judge alone decides
KEEP_UNREAD = 0.9
#: a request whose fact names a thing with no word of whose it is and no word of the task
#: ("remember the spare key hangs by the fridge", "anota aí, o banco de testes fica em…") is
#: kept when the message is of the user's world at or above this: no rule tells a thing of
#: the user's home from one of the code's, and the judge leans the right way. Chosen on the
#: tune halves of every set and of the thirtieth (a helper's, no rule seen): .5, .6 and .7
#: keep alike on the sets, .5 four more of the thirtieth's 45 (34 against 30); .4 writes two
#: instructions of the task; nothing of LoCoMo 0-4's chat moved at any of them
KEEP_UNOWNED = 0.5

#: the fitted judge of asking: does a clause, alone, ask to keep what a message tells
#: ("para que lo tengas", "can this stick across our chats?", "só pra constar daqui em
#: diante", "quero que fique sabendo que")? Trained by ``benchmarks/asking_judge.py`` on
#: clauses three helpers wrote and the leads and tails of the requests the sets hold,
#: against look-alikes ("lo peor es que", "I heard that") and conversation; it weighs the
#: clause's words and pairs (``grams``) beside the model's vector
ASKING_WEIGHTS = Path(__file__).with_name("asking_judge.json")
#: a message no rule read a request in, whose clause asks at or above this (and the
#: message is of the user's world at ``KEEP``), is named as a request not kept: the agent
#: is told, and its own remember tool can keep it. At or above ``ASKS_KEEP`` (and of the
#: user's world at ``KEEP_UNREAD``), a lead that announces the rest has it read as a
#: request. Chosen by ``benchmarks/asking_judge.py`` on the tune groups: the most requests
#: kept or named, nothing kept of an instruction or of LoCoMo 0-2's chat, and at most one
#: of its turns in 200 named (5 of 1,421 are; at .5, 9)
ASKS_NAME = 0.6
ASKS_KEEP = 0.6
#: a lead said in one sentence with the rest, before a comma ("For all our future convos,
#: …", "só pra constar daqui em diante, …"), at or above this has the rest read as a request
#: too. Chosen by ``asking_judge.py`` as above (.7 and .8 alike: the stricter)
ASKS_KEEP_IN_SENTENCE = 0.8
#: a tail said after the rest, in its sentence or after it ("…, para cuando te hable de él",
#: "…. Would be good if you knew that the next time I ask about pet food", "…, não marca
#: nada pra mim nesse horário"), at or above this (and the message of the user's world at
#: ``KEEP_UNREAD``) has the rest read as a request too; below it, a tail only names one.
#: Chosen by ``asking_judge.py`` after the three above, as they were: on the tune groups, .8
#: keeps 8 requests more and nothing else; at .7 "…. Talk to you later!" kept a turn of
#: LoCoMo 0-2's chat. A story of remembering is no tail that asks whatever it scores ("…,
#: one I'll always remember": .80; the packs' refusals)
ASKS_KEEP_TAIL = 0.8
#: a tail that holds a verb of keeping of its message's language ("…. Deixa salvo", "….
#: Worth keeping on file"; not "Talk to you later!": ``Pack.cue_nouns``) at or above this
#: has the rest read as a request too. Chosen on the tune halves as ``ASKS_KEEP_TAIL``: .5 to
#: .65 keep 3 requests more (727 of 765) and nothing else, .7 one; LoCoMo 0-4's chat unmoved
ASKS_KEEP_WORDED_TAIL = 0.65
#: a last clause whose word of keeping points back at what came before it ("…, me gustaría
#: que lo recordaras"; ``conversation.request_shapes.asking_tail``) at or above this is read
#: as the plainest request that points back. Its shape already says most of it: chosen on
#: the tune half of the ``tails`` set (a helper's, no rule seen: 35 of 45 kept at .6, 39 at
#: .5, nothing else moved). LoCoMo's turns of that shape (10 of 2,760) score .44 at most;
#: the coding sets' three (.75 to .86) are read and refused by the rules as the task's
ASKS_BACK = 0.5


@functools.cache
def _fitted(path: Path = WEIGHTS) -> tuple[tuple[float, ...], float]:
    return _regression(_fitted_data(path))


def _fitted_data(path: Path) -> dict:
    """A fitted judge's file, once checked to be of the vectors it reads."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("model") != MODEL:
        raise ValueError(f"{path.name} was fitted on {data.get('model')!r}, not {MODEL!r}")
    return data


def _regression(fitted: dict) -> tuple[tuple[float, ...], float]:
    """(weights, bias) of one fitted regression."""
    return tuple(float(w) for w in fitted["weights"]), float(fitted["bias"])


def of_their_world(vector: Sequence[float]) -> float:
    """The probability that the message of ``vector`` (its unit ``MODEL`` vector) asks to
    keep something of the user's world rather than an instruction for the task at hand."""
    return _probability(vector, WEIGHTS)


#: the fitted judge of a sentence said right after a kept request: a detail of its fact
#: ("My psychiatrist, Dr. Okafor, may change the dose", "Lo tenemos en Bitbucket, no en
#: GitHub", "Às 9h15, com o Dr. Nogueira"), or something else (a task, a question, a thanks,
#: a remark of the chat, a mood). Trained by ``benchmarks/follow_on_judge.py`` on pairs two
#: helpers wrote to train on (the second: details that point back, fragments, what follows
#: from the fact; others of the same topic), on the vector of the sentence alone
FOLLOW_ON_WEIGHTS = Path(__file__).with_name("follow_on_judge.json")
#: at or above this a sentence that no word joins to the request before it is kept with its
#: fact. Chosen by ``benchmarks/follow_on_judge.py`` on the tune halves of ``follow_on`` and
#: ``follow_on2`` (two other helpers, who saw no rule; ``language_eval.py``, rows
#: ``follow_on_*``), by details kept less twice the other sentences written (.3 to .5 tie:
#: the stricter). A floor on the sentence's cosine with the fact, tried beside it, only
#: refused details (a time, a place lies near nothing: "Every second Sunday, 9 to 1").
#: Refitted on the second helper's pairs, the script chose .4 by one detail of the tune
#: halves; on the held halves .4 wrote three remarks more for one detail more, so it stays
#: .5 (a remark joined to a fact is read as the user's in every session)
GOES_ON = 0.5


def goes_on(sentence: Sequence[float]) -> float:
    """The probability that ``sentence`` (its unit ``MODEL`` vector), said right after a
    request to keep a fact, is a detail of that fact rather than something else."""
    return _probability(sentence, FOLLOW_ON_WEIGHTS)


#: the fitted judge of what a fact tells of the user: where they live ("residence"), their
#: work ("work"), what they may eat ("food"), which medicines they must not be given
#: ("medicine"); one regression per kind on the fact's vector, trained by
#: ``benchmarks/kind_judge.py`` on facts a helper wrote to train on
KINDS_WEIGHTS = Path(__file__).with_name("kind_judge.json")
#: at or above this a fact is read as of a kind (``fact_kinds``)
KIND_AT = 0.5


@functools.cache
def _fitted_kinds(path: Path = KINDS_WEIGHTS) -> dict[str, tuple[tuple[float, ...], float]]:
    return {kind: _regression(fitted) for kind, fitted in _fitted_data(path)["kinds"].items()}


def kind_weights() -> dict[str, tuple[tuple[float, ...], float]]:
    """Each kind's fitted (weights, bias), for a reader that scores many facts at once
    (``recall.by_kind``: as a matrix)."""
    return _fitted_kinds()


def fact_kinds(vector: Sequence[float]) -> dict[str, float]:
    """For each kind the judge knows, the probability that the fact of ``vector`` (its unit
    ``MODEL`` vector) tells it of the user ("Barista at Blue Bottle" → work)."""
    return {kind: _logistic(vector, weights, bias) for kind, (weights, bias) in kind_weights().items()}


#: the fitted judge of a secret said in words: does a text give the value of a password, a
#: code, a security question's answer, a seed phrase ("changed the netflix one to
#: crispyduckling", "mi primera mascota se llamaba pelusa y eso puse en la pregunta de
#: seguridad")? The rules of ``vault.secrets`` read a value's shape and the words that name
#: it; this reads what the whole says. Trained by ``benchmarks/secret_judge.py`` on texts
#: three helpers wrote to train on, and LoCoMo's chat; it weighs the words beside the vector
SECRET_WEIGHTS = Path(__file__).with_name("secret_judge.json")
#: at or above this a fact the rules let through is not kept: it may give a secret's value.
#: Chosen by ``secret_judge.py`` on the tune halves of the six secrets sets (each scored by
#: a judge that never read it) and the facts kept of the requests: the most secrets refused
#: less the look-alikes refused and the requests no longer kept whole. At .85 the rules'
#: 389 of 429 secrets become 392, with one look-alike more refused (of 429) and no request
#: lost of 1,339; at .8, 393, three more, and three requests lost
SECRET_AT = 0.85


def holds_a_secret(vector: Sequence[float], text: str) -> float:
    """The probability that ``text`` (``vector``: its unit ``MODEL`` vector) gives the value
    of a secret, said in words."""
    return _probability_with_words(vector, SECRET_WEIGHTS, text)


#: the fitted judge of passing: does a fact said with a word of now or today hold for the
#: moment only ("I'm half asleep now", "tô no aeroporto agora") or begin something that
#: lasts ("I'm vegan now", "desde hoy soy vegetariana")? Trained by
#: ``benchmarks/passing_judge.py`` on statements a helper wrote to train on, as said and in
#: the third person the facts are written in; it weighs their words beside the vector
PASSING_WEIGHTS = Path(__file__).with_name("passing_judge.json")
#: at or above this such a fact is of the moment and not kept; below it, one the rules
#: refused by a passing shape ("today … I'm") is kept. Chosen on the tune halves by
#: ``benchmarks/passing_judge.py`` (``now_lasting``, another helper's, who saw no rule) and
#: ``language_eval.py`` (every other set), by what is kept less what is written: at .4, 60 of
#: 69 lasting facts kept and 4 of 69 states of the moment written (the rules alone: 47 and
#: 31), the other sets' 2,231 requests kept as before (2,232) and their instructions written
#: as before (35); .5 kept one more and wrote three more. A first judge, trained without the
#: second helper's events of today, had refused "I started at Globex today" and "hoy dejé el
#: café, para siempre" (the other sets kept 2,228)
PASSING_AT = 0.4


def passes(vector: Sequence[float], fact: str) -> float:
    """The probability that ``fact`` (``vector``: its unit ``MODEL`` vector) holds for the
    moment only, not from now on."""
    return _probability_with_words(vector, PASSING_WEIGHTS, fact)


def asks_to_keep(vector: Sequence[float], clause: str = "") -> float:
    """The probability that ``clause`` (``vector``: its unit ``MODEL`` vector) asks the
    agent to keep what the rest of its message says. The judge reads the clause's words too
    (``clause_grams``): the model's vector alone fits 80% of what it was trained on, with
    its words 94%."""
    return _probability_with_words(vector, ASKING_WEIGHTS, clause)


def clause_grams(clause: str) -> set[str]:
    """The words of ``clause`` and each two in a row, accents folded, its start and end
    marked ("^ keep", "in mind", "mind $"): what the judge of asking weighs beside the vector."""
    said = words(fold_accents(clause))
    return {*said, *(f"{a} {b}" for a, b in zip(["^", *said], [*said, "$"], strict=True))}


@functools.cache
def _fitted_grams(path: Path) -> dict[str, float]:
    return {g: float(w) for g, w in json.loads(path.read_text(encoding="utf-8")).get("grams", {}).items()}


def _probability_with_words(vector: Sequence[float], path: Path, text: str) -> float:
    """A fitted judge's probability of ``text`` that weighs its words and pairs beside its vector."""
    grams = _fitted_grams(path)
    return _probability(vector, path, sum(grams.get(g, 0.0) for g in clause_grams(text)))


def _probability(vector: Sequence[float], path: Path, more: float = 0.0) -> float:
    weights, bias = _fitted(path)
    return _logistic(vector, weights, bias, more)


def _logistic(vector: Sequence[float], weights: Sequence[float], bias: float, more: float = 0.0) -> float:
    """A fitted regression's probability of ``vector`` (``more``: what it weighs beside it)."""
    if len(vector) != len(weights):
        raise ValueError(f"a {MODEL} vector has {len(weights)} numbers, not {len(vector)}")
    z = bias + more + sum(w * float(v) for w, v in zip(weights, vector, strict=True))
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, z))))
