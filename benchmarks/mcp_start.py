"""How soon `vmem mcp` answers a client's handshake (`initialize`, then `tools/list`) and
how soon it ends on SIGINT, against a bare Python start: the SDK's server started directly
(`python -m vault_memory mcp`, what `vmem mcp` was) and the console script's relay (what
it is now), with and without the vault's daemon. Interleaved runs, medians, one run.

    python benchmarks/mcp_start.py [--runs 11] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vault_memory.vault.template import create_vault  # noqa: E402

VMEM = str(Path(sys.executable).with_name("vmem"))
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}},
}
LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # as on a user's machine


def handshake(command: list[str]) -> tuple[float, float, int]:
    """(ms to both answers, ms from SIGINT to the end (capped at 2 s), tools listed)."""
    started = time.perf_counter()
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write((json.dumps(INITIALIZE) + "\n").encode())
    proc.stdin.flush()
    proc.stdout.readline()
    proc.stdin.write((json.dumps(INITIALIZED) + "\n" + json.dumps(LIST) + "\n").encode())
    proc.stdin.flush()
    tools = len(json.loads(proc.stdout.readline())["result"]["tools"])
    took = (time.perf_counter() - started) * 1000
    stopping = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(2)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    return took, (time.perf_counter() - stopping) * 1000, tools


def floor() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        vault = str(create_vault(Path(tmp) / "vault"))
        commands = {
            "sdk_server": [sys.executable, "-m", "vault_memory", "mcp", "--vault", vault],
            "relay": [VMEM, "mcp", "--vault", vault],
        }
        handshake(commands["relay"])  # the relay keeps the SDK's answers the first time
        for daemon in (False, True):
            if daemon:
                subprocess.run([VMEM, "daemon", "start", "--vault", vault], check=True, capture_output=True)
            samples: dict[str, list] = {"floor": [], **{name: [] for name in commands}}
            try:
                for _ in range(args.runs):
                    samples["floor"].append(floor())
                    for name, command in commands.items():
                        samples[name].append(handshake(command))
            finally:
                if daemon:
                    subprocess.run([VMEM, "daemon", "stop", "--vault", vault], capture_output=True)
            base = statistics.median(samples["floor"])
            row = {"floor_ms": round(base, 1)}
            for name in commands:
                ms = statistics.median(s[0] for s in samples[name])
                row[name] = {
                    "handshake_ms": round(ms, 1),
                    "over_floor": round(ms / base, 2),
                    "sigint_to_exit_ms": round(statistics.median(s[1] for s in samples[name]), 1),
                    "tools": samples[name][0][2],
                }
            out["with_daemon" if daemon else "without_daemon"] = row
    if args.json:
        print(json.dumps(out, indent=2))
        return
    for case, row in out.items():
        print(f"{case}: bare python {row['floor_ms']} ms")
        for name in commands:
            r = row[name]
            print(
                f"  {name:11} handshake {r['handshake_ms']:>7} ms ({r['over_floor']:>5}x)  "
                f"SIGINT to exit {r['sigint_to_exit_ms']:>7} ms  tools {r['tools']}"
            )


if __name__ == "__main__":
    main()
