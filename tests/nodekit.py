"""The example engines in Node.js against the conformance runner, for the tests.

``run(engine, ...)`` runs ``mariage conformance --engine "node ENGINE ..."`` in process
and returns its exit code, its output and its JSON report; ``node()`` skips the test
where ``node`` is not on ``PATH`` (the only thing the examples need).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from mariage.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "conformance" / "examples"


def node() -> str:
    """The ``node`` program, or skip the test."""
    found = shutil.which("node")
    if found is None:
        pytest.skip("Node.js (node) is not on PATH: the JavaScript example engine cannot run")
    return found


def run(engine: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str,
        fault: str | None = None) -> tuple[int, str, dict[str, Any]]:
    """``mariage conformance`` against the JS engine: exit code, output, JSON report."""
    command = f"{node()} {engine}" + (f" --fault {fault}" if fault else "")
    report = tmp_path / "report.json"
    capsys.readouterr()
    code = main(["conformance", "--engine", command, "--no-progress", "--json", str(report),
                 *args])
    out = capsys.readouterr().out
    return code, out, json.loads(report.read_text()) if report.exists() else {}
