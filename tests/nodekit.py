"""Running ``mariage conformance`` against the example engines written in plain Node.js
(``conformance/examples/*_engine.js``): skipped only where ``node`` is not on PATH."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from mariage.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "conformance" / "examples"


def node() -> str:
    """The ``node`` command, or skip the test: the JavaScript example engine cannot run.
    Where ``MARIAGE_REQUIRE_NODE=1`` (CI sets it, and installs Node.js as it installs a
    browser) a missing ``node`` fails the test instead: there it is never skipped."""
    found = shutil.which("node")
    if found is None:
        reason = "Node.js (node) is not on PATH: the JavaScript example engine cannot run"
        if os.environ.get("MARIAGE_REQUIRE_NODE") == "1":
            pytest.fail(f"{reason}; MARIAGE_REQUIRE_NODE=1 needs it", pytrace=False)
        pytest.skip(reason)
    return found


def run_engine(engine_js: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str,
               fault: str | None = None) -> tuple[int, str, dict[str, Any]]:
    """``mariage conformance`` against a JS engine: exit code, output, JSON report."""
    engine = f"{node()} {engine_js}" + (f" --fault {fault}" if fault else "")
    report = tmp_path / "report.json"
    capsys.readouterr()
    code = main(["conformance", "--engine", engine, "--no-progress", "--json", str(report),
                 *args])
    out = capsys.readouterr().out
    return code, out, json.loads(report.read_text()) if report.exists() else {}


def needs_nothing_but_node(engine_js: Path) -> bool:
    """True if the engine requires no module (not even node's own) and says how to run it."""
    source = engine_js.read_text()
    return (not re.search(r"\brequire\(", source)
            and "mariage conformance --engine" in source.split("'use strict'")[0])
