"""Secrets never become memories (pure rules).

A vault is plain Markdown, opened by other programs, often a git repository pushed
somewhere: an access key, a token, a private key, a password or a card number written
there has leaked. ``find_secret`` names the first one a text holds (patterns with few
false alarms: a key's own shape, or a password word followed by a value with a digit or a
sign), and every write refuses it (``memory.check_new``). What a person marks
``<private>…</private>`` is cut out before anything reads it (``without_private``): it is
not written, not sent to an LLM, not shown.
"""

from __future__ import annotations

import re

#: what a person marks as not for memory; an unclosed tag runs to the end
_PRIVATE = re.compile(r"<private>.*?(?:</private>|\Z)", re.S | re.I)

#: (what it is, its shape), the specific before the general
_SECRETS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a private key", re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")),
    ("an AWS access key", re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b")),
    (
        "an AWS secret key",
        re.compile(r"(?i)\baws\b.{0,30}?\bsecret\b.{0,30}?(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])"),
    ),
    ("a GitHub token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})")),
    ("a GitLab token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}")),
    ("an Anthropic API key", re.compile(r"\bsk-ant-[A-Za-z0-9_-]{20,}")),
    # a key's random part holds digits: "sk-learn-compatible-pipeline-steps" is no key
    ("an OpenAI API key", re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?(?=[A-Za-z_-]*\d)[A-Za-z0-9_-]{20,}")),
    ("a Stripe key", re.compile(r"\b[rs]k_live_[0-9A-Za-z]{16,}")),
    ("a Slack token", re.compile(r"\bxox[abeoprs]-[0-9A-Za-z-]{10,}")),
    ("a Google API key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}")),
    # scheme://user:password@host: a database or broker URL with its password in it
    ("a connection string with a password", re.compile(r"\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@]+:[^\s@/]{3,}@[^\s/]+")),
    ("a JSON web token", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    (
        "a password",
        re.compile(
            r"(?i)\b(?:password|passwd|passcode|passphrase|pass\s+phrase|contraseña|contrasena|clave|pin)\b"
            # whose: "password for the bank", "contraseña del banco"
            r"(?:\s+(?:for|of|to|on|at|del|de|para|en)\s+(?:(?:the|my|el|la|mi)\s+)?\S+)?"
            r"(?:\s+(?:is|was|es|era)\b\s*|\s*[:=]\s*)[\"'`]?(?=\S*[\d!@#$%^&*_+=~|<>?])[^\s\"'`]{4,}"
        ),
    ),
)
#: a payment card number: 13 to 19 digits from 2-6 (the networks' first digits), in groups
#: or not, that pass the Luhn check, standing alone (not inside a URL, a file name or an id)
_CARD = re.compile(r"(?<![\w./:=-])[2-6](?:[ -]?\d){12,18}(?![\w./-])")


def has_private(text: str) -> bool:
    """Whether ``text`` holds a ``<private>`` span (``without_private`` cuts something)."""
    return "<private" in text.lower() and _PRIVATE.search(text) is not None


def without_private(text: str) -> str:
    """``text`` with every ``<private>…</private>`` span cut out (and the spaces it leaves
    closed up); the same text when it holds none."""
    if "<private" not in text.lower():
        return text
    cut = _PRIVATE.sub(" ", text)
    return re.sub(r"[ \t]{2,}", " ", cut).strip()


def find_secret(text: str) -> str | None:
    """What kind of secret ``text`` holds ("an AWS access key", "a password", …), or None."""
    for kind, pattern in _SECRETS:
        if pattern.search(text):
            return kind
    for match in _CARD.finditer(text):
        if _luhn(re.sub(r"\D", "", match.group())):
            return "a payment card number"
    return None


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = int(ch)
        if i % 2:
            n = n * 2 - 9 if n > 4 else n * 2
        total += n
    return total % 10 == 0
