"""Tokens an agent session is sent by the hooks, before and after "nothing twice": a
scripted Claude Code session (SessionStart, 20 prompts about the user's life and work,
several on the same topics, a compaction half way) run through the real hook script
against the vault's daemon, once as one session (each memory sent once, again after the
compaction) and once with every call a session of its own (as before: every block whole).

    python benchmarks/session.py [--json]

Uses the template vault plus a dozen facts, and the bundled model (in the daemon).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import vault_memory as vmem  # noqa: E402
from vault_memory.recall.render import estimate_tokens  # noqa: E402
from vault_memory.vault.template import create_vault  # noqa: E402

VMEM = str(Path(sys.executable).with_name("vmem"))
HOOK = ROOT / "hooks" / "vmem_hook.py"

FACTS = [
    "The user's sister is called Ana",
    "The user's dog is called Rex",
    "The user lives in Leeds",
    "The user prefers pytest over unittest",
    "The user always indents with tabs",
    "The user's partner is Kim",
    "The user is learning Japanese",
    "The user drinks sencha every morning",
    "The user's dentist is Dr. Ruiz",
    "The user plays the cello",
    "The user deploys on Thursdays",
    "The user's favourite colour is green",
]
PROMPTS = [
    "what should I avoid eating?",
    "plan a dinner for Friday, keep my allergies in mind",
    "what's my sister called again?",
    "write a birthday message for my sister",
    "set up pytest for the project",
    "which test runner do I like?",
    "format this file the way I like",
    "what is my dog's name?",
    "suggest a walk route for me and my dog",
    "where do I live?",
    ("compact", None),
    "what should I avoid eating at the restaurant?",
    "book a table near where I live",
    "what tea do I drink?",
    "remind me what instrument I play",
    "how is my Japanese going?",
    "what day do I deploy?",
    "who is my partner?",
    "pick a gift for my partner in my favourite colour",
    "who is my dentist?",
    "what do you know about me?",
]


def hook(vault: Path, cwd: str, session: str, name: str, **fields) -> str:
    event = {"session_id": session, "transcript_path": "", "cwd": cwd, "hook_event_name": name, **fields}
    done = subprocess.run(
        [sys.executable, str(HOOK), "claude-code", "--vault", str(vault), "--vmem", VMEM],
        input=json.dumps(event),
        capture_output=True,
        text=True,
        timeout=60,
    )
    if not done.stdout.strip():
        return ""
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


def session_tokens(vault: Path, cwd: str, one_session: bool) -> dict:
    session = f"bench-{uuid.uuid4()}"
    sent: list[int] = []

    def call(name: str, **fields) -> None:
        sid = session if one_session else f"bench-{uuid.uuid4()}"
        sent.append(estimate_tokens(hook(vault, cwd, sid, name, **fields)))

    call("SessionStart", source="startup")
    for prompt in PROMPTS:
        if isinstance(prompt, tuple):
            call("SessionStart", source="compact")
        else:
            call("UserPromptSubmit", prompt=prompt)
    return {"calls": len(sent), "tokens": sum(sent), "per_call": sent}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        vault = create_vault(Path(tmp) / "vault")
        with vmem.open(vault, use_daemon=False) as mem:
            for fact in FACTS:
                mem.remember(fact)
        subprocess.run([VMEM, "daemon", "start", "--vault", str(vault)], check=True, capture_output=True)
        try:
            before = session_tokens(vault, tmp, one_session=False)
            after = session_tokens(vault, tmp, one_session=True)
        finally:
            subprocess.run([VMEM, "daemon", "stop", "--vault", str(vault)], capture_output=True)
    out = {"before": before, "after": after, "ratio": round(after["tokens"] / max(1, before["tokens"]), 3)}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(
        f"a scripted session: SessionStart, {len(PROMPTS) - 1} prompts, one compaction ({before['calls']} hook calls)"
    )
    print(f"  every block whole (before):    {before['tokens']:>5} tokens")
    print(f"  nothing twice (after):         {after['tokens']:>5} tokens  ({out['ratio']:.2f} of before)")
    print(f"  per call before: {before['per_call']}")
    print(f"  per call after:  {after['per_call']}")


if __name__ == "__main__":
    main()
