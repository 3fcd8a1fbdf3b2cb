"""Which memories each leg cannot judge, from the languages of the question and the memory
(pure rules; the languages come from ``vault.language``).

- The keyword leg matches words. Across languages a match still counts (a name, a place:
  "Rosario" is "Rosario" in both), but its silence says nothing: an English question
  shares no words with "Mi hermana se llama Ana" whether or not it answers it.
- The vector leg judges the pairs its model was trained on. The bundled MiniLM is English
  only: between two unrelated Spanish texts its cosine is .47 at the median, and 98% of
  them clear the .2 floor (``benchmarks/bilingual.py``), so on such pairs it abstains.

A memory or question of unknown language is judged by every leg, as before this rule.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import numpy as np

from ..index.embedder import Part, part_cosine
from ..lang import languages as installed_languages


def model_judges(model_languages: Collection[str] | None, *languages: str | None) -> bool:
    """Whether a model trained on ``model_languages`` (None: any) can compare texts in
    these languages (None: unknown, taken as yes)."""
    if model_languages is None:
        return True
    return all(lang is None or lang in model_languages for lang in languages)


def judging_model(models: Sequence[Collection[str] | None], question: str | None, memory: str | None) -> int | None:
    """Of models trained on these languages (a vector that joins several: ``embedder.Part``),
    the first that can compare ``question`` and ``memory``, or None."""
    return next((i for i, languages in enumerate(models) if model_judges(languages, question, memory)), None)


def languages_judged(models: Sequence[Collection[str] | None], question: str | None) -> list[frozenset[str | None]]:
    """For each model (``judging_model``'s order), the languages of the memories it judges
    for a question in ``question``: of those ``vault.language`` tells apart, and None."""
    out: list[set[str | None]] = [set() for _ in models]
    for language in (None, *installed_languages()):
        judge = judging_model(models, question, language)
        if judge is not None:
            out[judge].add(language)
    return [frozenset(languages) for languages in out]


def judge_of(parts: Sequence[Part], a_lang: str | None, b_lang: str | None) -> Part:
    """The part of a vector (``embedder.parts_of``) whose model compares two texts in these
    languages: the first that knows both (none knows them: the first)."""
    return parts[judging_model([part.languages for part in parts], a_lang, b_lang) or 0]


def reads(parts: Sequence[Part], language: str) -> bool:
    """Whether some model of the vector reads ``language`` (an English-only vault's does not
    read Spanish: such a memory is found by its words alone)."""
    return any(model_judges(part.languages, language) for part in parts)


def pair_cosine(a: np.ndarray, b: np.ndarray, parts: Sequence[Part], a_lang: str | None, b_lang: str | None) -> float:
    """The cosine of two texts' vectors as the model that compares their languages gives it
    (``judge_of``)."""
    return part_cosine(a, b, judge_of(parts, a_lang, b_lang))


def judged(
    by_model: Sequence[Sequence[tuple[str, float]]], models: Sequence[Part], judges: Mapping[str, Part]
) -> list[tuple[str, float]]:
    """One vector result list from each model's (``by_model``, in ``models``' order): each
    memory with the score of the model that ``judges`` it, best first; a memory no model
    judges is left out."""
    out = [(path, score) for part, hits in zip(models, by_model) for path, score in hits if judges.get(path) is part]
    if len(by_model) > 1:  # the models' cosines, one list
        out.sort(key=lambda kv: -kv[1])
    return out


def abstentions(
    question: str | None,
    memories: Mapping[str, str | None],
    keyword_matches: Collection[str],
    models: Sequence[Collection[str] | None],
    legs: Collection[str] = ("keyword", "vector"),
) -> dict[str, set[str]]:
    """Per leg, the candidate paths (``memories``: path → language) whose evidence is left
    out of the fusion: the keyword leg's silence across languages (only beside a vector
    leg that can speak for those memories: ``legs`` are the legs that ran), and any vector
    score on a pair of languages none of the vector's ``models`` knows."""
    both = "keyword" in legs and "vector" in legs
    keyword = {
        path
        for path, lang in memories.items()
        if both and question is not None and lang is not None and lang != question and path not in keyword_matches
    }
    vector = {path for path, lang in memories.items() if judging_model(models, question, lang) is None}
    return {"keyword": keyword, "vector": vector}


def judges_of(written_in: dict[str, str | None], models: Sequence[Part], asked_in: str | None) -> dict[str, Part]:
    """{path: the model of ``models`` that judges the pair of the question's language and
    the memory's (``written_in``)}; a path no model judges is left out."""
    known = [m.languages for m in models]
    return {p: models[i] for p, lang in written_in.items() if (i := judging_model(known, asked_in, lang)) is not None}
