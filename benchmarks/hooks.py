"""Prompt-hook cost: the whole `UserPromptSubmit` hook process (Python start, the hook
script, one round trip to the vault's daemon, the JSON answer) against the floor of a bare
`python -c "import json, socket"`, and a daemon-answered `vmem recall` process for
reference. Interleaved runs, medians and ratios from one run.

The hook runs as vmem installs it: ``python -S`` (``integrations.hookfiles.PYTHON_FLAGS``:
no site module, whose reading of every installed package's ``.pth`` files is half of a
bare start in a full environment). Its ratio is given against both floors: a bare start as
users start Python (``floor``), and one without the site module (``floor_without_site``).

    python benchmarks/hooks.py [--runs 31] [--json] [--vault PATH] [--varied]

A prompt without a signal (only a recall) and one with "remember that…" (the daemon writes
the memory, then recalls). By default every run asks the same question, as the figures in
docs/benchmarks.md were measured; ``--varied`` asks a different one each run (``QUESTIONS``),
as an agent's prompts do: nothing a question leaves behind (its keyword analysis is cached
per text) helps the next.

Uses the template vault and the real bundled model (in the daemon).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vault_memory.integrations.hookfiles import PYTHON_FLAGS  # noqa: E402
from vault_memory.vault.template import create_vault  # noqa: E402

VMEM = str(Path(sys.executable).with_name("vmem"))
HOOK = ROOT / "hooks" / "vmem_hook.py"
#: commands start as on a user's machine, where Python caches the bytecode it compiles (pip
#: compiles a wheel's modules at install); an environment that turns it off would make every
#: start compile vmem's fast path and the hook's code again
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def timed(command: list[str], stdin: str = "") -> float:
    started = time.perf_counter()
    done = subprocess.run(command, input=stdin, capture_output=True, text=True)
    took = (time.perf_counter() - started) * 1000
    if done.returncode != 0:
        raise SystemExit(f"{command[:3]} failed: {done.stderr}")
    return took


#: what ``--varied`` asks, one a run: questions an agent's user asks, of many kinds and words
QUESTIONS = (
    "what should I avoid eating?",
    "where does my sister live?",
    "what is my manager's name?",
    "which editor do I use?",
    "when is my dentist appointment?",
    "what car do I drive?",
    "how do I get to work?",
    "what language do we write the backend in?",
    "who is my landlord?",
    "what time is standup?",
    "which bank do I use?",
    "what is the wifi at home called?",
    "what's my dog's name?",
    "where did I go on holiday last year?",
    "what medication do I take?",
    "which database runs the payments service?",
    "when is my mother's birthday?",
    "what do I do on weekends?",
    "what is my partner's job?",
    "which CI system do we use?",
    "what gym do I go to?",
    "how many kids do I have?",
    "what music do I like?",
    "where do I work from?",
    "what is my phone?",
    "which team am I on?",
    "what did I do yesterday?",
    "where is the staging server?",
    "what is my favourite restaurant?",
    "which languages do I speak?",
    "what are my hobbies?",
)


def hook_event(cwd: str, prompt: str) -> str:
    # no session id: every run gets the whole block, as a first prompt does
    return json.dumps({"transcript_path": "", "cwd": cwd, "hook_event_name": "UserPromptSubmit", "prompt": prompt})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=31)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--vault",
        type=Path,
        help="an existing vault (e.g. 10,000 memories kept by scale.py --keep); the runs with a "
        "signal write their memories into it",
    )
    parser.add_argument("--varied", action="store_true", help="ask a different question each run (QUESTIONS)")
    args = parser.parse_args()

    def question(n: int, offset: int = 0) -> str:
        """The question of run ``n``; ``offset``: another command of the same run asks
        another (the hook's question, asked first, would have its analysis cached)."""
        return QUESTIONS[(n + offset) % len(QUESTIONS)] if args.varied else QUESTIONS[0]

    with tempfile.TemporaryDirectory() as tmp:
        vault = args.vault or create_vault(Path(tmp) / "vault")
        subprocess.run([VMEM, "daemon", "start", "--vault", str(vault)], check=True, capture_output=True)
        hook = [sys.executable, *PYTHON_FLAGS, str(HOOK), "claude-code", "--vault", str(vault)]
        try:
            commands = {
                "floor": lambda n: ([sys.executable, "-c", "import json, socket"], ""),
                "floor_without_site": lambda n: ([sys.executable, "-S", "-c", "import json, socket"], ""),
                "prompt_hook": lambda n: (hook, hook_event(tmp, question(n))),
                # "remember that…": written by the daemon before it recalls (a new memory each run:
                # a message already read is skipped, as in a session)
                "prompt_hook_with_signal": lambda n: (
                    hook,
                    hook_event(tmp, f"Remember that my reading group {n} meets at the {uuid.uuid4().hex[:8]} cafe"),
                ),
                "vmem_recall": lambda n: (
                    [VMEM, "recall", question(n, len(QUESTIONS) // 2), "--vault", str(vault)],
                    "",
                ),
            }
            for name, make in commands.items():  # warm the OS caches
                timed(*make(-1 - len(name)))
            samples: dict[str, list[float]] = {name: [] for name in commands}
            for n in range(args.runs):
                for name, make in commands.items():
                    samples[name].append(timed(*make(n)))
        finally:
            subprocess.run([VMEM, "daemon", "stop", "--vault", str(vault)], capture_output=True)
    medians = {name: round(statistics.median(v), 1) for name, v in samples.items()}
    out = {
        "runs": args.runs,
        "median_ms": medians,
        "prompt_hook_over_floor": round(medians["prompt_hook"] / medians["floor"], 2),
        "prompt_hook_over_floor_without_site": round(medians["prompt_hook"] / medians["floor_without_site"], 2),
        "prompt_hook_with_signal_over_floor": round(medians["prompt_hook_with_signal"] / medians["floor"], 2),
        "vmem_recall_over_floor": round(medians["vmem_recall"] / medians["floor"], 2),
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(
        f"bare python {medians['floor']} ms (without its site module {medians['floor_without_site']} ms); "
        f"prompt hook {medians['prompt_hook']} ms ({out['prompt_hook_over_floor']}x; "
        f"{out['prompt_hook_over_floor_without_site']}x the start without site); with a signal to write {medians['prompt_hook_with_signal']} ms "
        f"({out['prompt_hook_with_signal_over_floor']}x); daemon-answered `vmem recall` {medians['vmem_recall']} ms "
        f"({out['vmem_recall_over_floor']}x); medians of {args.runs} interleaved runs"
        + (f", a different question each run (of {len(QUESTIONS)})" if args.varied else ", one question")
    )


if __name__ == "__main__":
    main()
