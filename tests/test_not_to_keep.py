"""A fact said with words that ask not to keep it is not kept, in each language as in
English: "no hace falta que lo apuntes", "não precisas de registar isso", "não anotes isto"
had been kept (the Spanish one with its "no hace falta" as part of the fact). A fact that
holds a "no" of its own is kept."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Mi sobrina se llama Vera, no es necesario que lo apuntes, era un comentario.", None),
        ("Mi jefe se llama Andrés, no hace falta que lo anotes.", None),
        ("A minha irmã mudou-se para Faro, não precisas de registar isso.", None),
        ("Não anotes isto, é só por hoje: estou a trabalhar de casa.", None),
        ("My boss is called Derek, you don't have to save this, I'm just venting.", None),
        ("Remember that I don't eat pork", "pork"),
        ("recuerda que no como cerdo", "cerdo"),
        ("lembra que eu não como carne de porco", "porco"),
    ],
)
def test_asked_not_to_keep_it_keeps_nothing(written_with_the_judge, said, kept):
    written = written_with_the_judge(said)
    assert (kept in written) if kept else written == "", written
