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

from collections.abc import Collection, Mapping


def model_judges(model_languages: Collection[str] | None, *languages: str | None) -> bool:
    """Whether a model trained on ``model_languages`` (None: any) can compare texts in
    these languages (None: unknown, taken as yes)."""
    if model_languages is None:
        return True
    return all(lang is None or lang in model_languages for lang in languages)


def abstentions(
    question: str | None,
    memories: Mapping[str, str | None],
    keyword_matches: Collection[str],
    model_languages: Collection[str] | None,
    legs: Collection[str] = ("keyword", "vector"),
) -> dict[str, set[str]]:
    """Per leg, the candidate paths (``memories``: path → language) whose evidence is left
    out of the fusion: the keyword leg's silence across languages (only beside a vector
    leg that can speak for those memories: ``legs`` are the legs that ran), and any vector
    score on a pair of languages the model does not know."""
    both = "keyword" in legs and "vector" in legs
    keyword = {
        path
        for path, lang in memories.items()
        if both and question is not None and lang is not None and lang != question and path not in keyword_matches
    }
    vector = {path for path, lang in memories.items() if not model_judges(model_languages, question, lang)}
    return {"keyword": keyword, "vector": vector}
