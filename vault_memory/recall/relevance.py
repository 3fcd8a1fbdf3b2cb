"""Relevance that means something (pure rules over a hit's evidence).

The ranking scales each leg's scores within the question's own candidates, so the best of
several irrelevant memories scores like a perfect match: "what is my brother's name?" on a
vault with no brother brought the dog, the dentist and the favourite colour. A *fact* is
shown only with evidence of its own: a cosine to the question its model can vouch for, or
a shared word backed by some likeness. Facts are short statements: one that answers a
question is close to it (the answers of a 22-question set of personal facts: cosine .37
to .65, or a shared word; the best unrelated fact: .20 to .35). Episodes, summaries and
notes (conversation turns, long text) keep the ranking's own judgement: their cosines are
lower by nature, and LoCoMo's turns are found at .2.

A question about the user as a whole ("what do you know about me?", "¿qué sabés de mí?")
has no words to match: it is answered with the profile (pinned facts, profile keys, and
what the user is: name, city, work, partner…). The questions answered by the facts of a
kind, whatever their words (food, medicines, the user's work or home), are ``kinds``'.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from ..index.embedder import BUNDLED_MODEL_ID, Part
from ..lang import Question, may_be_about, people, served_by
from ..lifecycle import key_forms
from ..vault.memory import Memory
from .candidates import Candidates


@dataclass(frozen=True)
class FactFloor:
    """What a fact needs to be shown, on one model's scale."""

    #: with no shared word: this cosine
    min_cosine: float
    #: with a shared word: this much likeness
    min_cosine_with_word: float
    #: or word pieces that match the question this well, whatever the cosine
    min_maxsim: float


#: the floors measured per model; a model not listed is not judged (its cosines have not
#: been measured against facts: the ranking alone decides, as before)
FLOORS = {
    # bundled MiniLM: on the helper-written relevance set (tune half: a fact and a question
    # that share no word), .30 keeps 95% of the answers and lets 7.5% of unrelated pairs
    # through; the .36 measured before on a 22-question set kept 58% of them (a missed
    # answer costs more than a line the agent reads past). With a shared word: "which bank
    # do I use?" shares "use" with "The user uses Neovim" at .04, "where do I work these
    # days?" shares "work" with its answer at .11
    BUNDLED_MODEL_ID: FactFloor(min_cosine=0.30, min_cosine_with_word=0.1, min_maxsim=0.45),
}


def fact_floor(model_id: str) -> FactFloor | None:
    return FLOORS.get(model_id)


def names_key(words: frozenset[str], memory: Memory) -> bool:
    """The question (its ``Question.words``) names the fact's key, under any of its names
    ("what is the user's name?" and ``nombre: Lucas``)."""
    if not memory.key:
        return False
    return any(set(form.split("_")) <= words for form in key_forms(memory.key))


def has_evidence(
    memory: Memory,
    floor: FactFloor | None,
    cosine: float | None,
    maxsim: float | None,
    shares_word: bool,
) -> bool:
    """Whether a recalled memory has relevance of its own, not only its rank among the
    question's candidates. Only facts are judged, on a model whose ``floor`` was measured;
    ``cosine`` and ``maxsim`` are None where the model cannot judge the pair (another
    language) or did not run. ``shares_word``: a keyword match, or the question names the
    fact's key."""
    if memory.type != "fact" or floor is None:
        return True
    if cosine is None and maxsim is None:
        return shares_word  # the keyword leg alone can speak for it
    if (cosine or 0.0) >= floor.min_cosine or (maxsim or 0.0) >= floor.min_maxsim:
        return True
    return shares_word and (cosine is None or cosine >= floor.min_cosine_with_word)


def relevance_judge(
    question: Question, found: Candidates, answering: Collection[str], parts: Sequence[Part]
) -> Callable[[str, Memory], bool]:
    """Whether a candidate has evidence of its own (``has_evidence``), or answers the kind
    of question asked (``answering``: the user's work for "what do I do for a living?",
    their diet for a question about food); a fact about another of the user's people than
    the one asked about answers nothing, however close in meaning. ``parts``: the models of
    the vault's vectors, each with its floor."""
    profile = question.about_the_user
    floors = {part.model_id: fact_floor(part.model_id) for part in parts}
    floor = floors[parts[0].model_id]  # where no model judged the pair
    asked = question.words
    # "what is my brother's name?": a fact about the dog shares "name", not the brother; "who
    # is my dermatologist?": "My dentist is Dr. Nolan" is close, and of someone else
    whom = question.people | question.served_by

    def relevant(path: str, memory: Memory) -> bool:
        of_whom = (people(memory.text) | served_by(memory.text)) if whom and memory.type == "fact" else frozenset()
        if of_whom and not may_be_about(whom, of_whom):
            return profile  # a fact about someone else answers nothing asked of this one, however close
        shares_word = path in found.kw_score or names_key(asked, memory)
        judge = found.judges.get(path)
        return (
            profile
            or path in answering
            or has_evidence(
                memory,
                floors[judge.model_id] if judge is not None else floor,
                found.vec_score.get(path),
                found.maxsims.get(path),
                shares_word,
            )
        )

    return relevant
