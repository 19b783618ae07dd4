"""A client of the engine protocol (docs/protocol.rst) for the independent checks: one
JSON line each way with ``mariage engine``, and a logging proxy engine to put between
``mariage match`` and the reference engine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

REFERENCE = Path(__file__).resolve().parent.parent / "reference"


class Engine:
    """``mariage engine`` over the protocol (docs/protocol.rst), one JSON line each way."""

    def __init__(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(REFERENCE), env.get("PYTHONPATH", "")])
        self.proc = subprocess.Popen([sys.executable, "-m", "mariage", "engine"], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        while True:
            answer: dict[str, Any] = json.loads(self.proc.stdout.readline())
            if answer.get("type") != "log":
                return answer

    def close(self) -> None:
        self.ask({"type": "quit"})
        self.proc.wait(timeout=10)


#: A protocol engine that forwards every line to ``mariage engine`` and logs each
#: request it receives to the file named by its argument (and each error answered,
#: as a line starting ``ERROR``).
PROXY = '''
import json, subprocess, sys
log = open(sys.argv[1], "a", encoding="utf-8")
child = subprocess.Popen([sys.executable, "-m", "mariage", "engine"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    log.write(line.rstrip("\\n") + "\\n")
    log.flush()
    child.stdin.write(line)
    child.stdin.flush()
    while True:
        out = child.stdout.readline()
        if not out:
            sys.exit(0)
        sys.stdout.write(out)
        sys.stdout.flush()
        kind = json.loads(out).get("type") if out.strip() else "log"
        if kind != "log":
            if kind == "error":
                log.write("ERROR " + out)
                log.flush()
            break
'''
