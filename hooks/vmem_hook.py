#!/usr/bin/env python3
"""vmem's hook for agents (the code and its usage: vmem_hook_core.py beside this file).

    vmem_hook.py claude-code [--vault PATH] [--vmem EXE]    (Claude Code's hook JSON on stdin)
    vmem_hook.py shell [PROMPT] [--vault PATH] [--budget N]  (the prompt as argument or on stdin)

A launcher of a few lines on purpose: Python compiles the script it is given on every
start but caches the bytecode of what it imports, and the prompt hook runs on every prompt.
"""

import sys

try:
    from vmem_hook_core import run
except ImportError as e:  # fail open: a hook never breaks the session
    sys.stderr.write(f"vmem hook: {e}; `vmem hooks install` copies the hook's files beside this script\n")
    sys.exit(0)
sys.exit(run(sys.argv))
