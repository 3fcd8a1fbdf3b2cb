"""What to tell a user whose vault's model does not read some of its memories' language
(which language a text is in: ``lang.detect``)."""

from __future__ import annotations


def unread_note(count: int) -> str:
    """What to tell a user whose vault's model does not read ``count`` memories written in
    Spanish (its English-only model, ``vmem init --lang en`` or a vault made before)."""
    which = "this memory is" if count == 1 else f"{count} memories are"
    them = "it" if count == 1 else "them"
    return (
        f"{which} in Spanish, which the vault's model does not read: a question finds {them} by "
        'words alone. For English and Spanish, set [embedding] model = "bilingual" in vmem.toml and run `vmem reindex`'
    )
