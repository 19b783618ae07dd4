"""Running ``mariage conformance`` against the example engines written in plain Node.js
(``conformance/examples/*_engine.js``): skipped only where ``node`` is not on PATH."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from enginediff import Reference
from mariage.cli import main
from mariage.conformance.client import EngineClient, ProcessTransport

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


def reference_and(engine_js: Path) -> tuple[Reference, EngineClient]:
    """The reference (in this process, :class:`enginediff.Reference`) and a JS engine (a
    subprocess), said hello to."""
    ref = Reference()
    js = EngineClient(lambda: ProcessTransport(f"{node()} {engine_js}"), timeout=20)
    js.hello()
    return ref, js


def rulesets_offered(engine_js: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The ``rulesets`` of the reference's hello and of a JS engine's."""
    ref, js = reference_and(engine_js)
    try:
        hello = {"type": "hello", "protocol": 2}
        return ref.request(dict(hello))["rulesets"], js.request(dict(hello))["rulesets"]
    finally:
        ref.close()
        js.close()


def same_answer(ref: Reference, js: EngineClient, request: dict[str, Any]) -> dict[str, Any]:
    """The answer of both engines to ``request``, asserted equal once the message is dropped
    and the hands and legal lists sorted."""
    answers = [ref.request(dict(request)), js.request(dict(request))]
    for r in answers:
        r.pop("message", None)
        if r.get("type") == "state":
            r["hands"] = [sorted(h) for h in r["hands"]]
        if r.get("type") == "legal":
            r["actions"] = sorted(r["actions"])
    assert answers[0] == answers[1], request
    return answers[0]


def assert_killed(code: int, out: str, report: dict[str, Any], rule: str) -> None:
    """A run against an engine with a planted fault failed, a failing test charged to
    ``rule``."""
    assert code == 1, out[-3000:]
    failed = [t for t in report["tests"] if t["status"] == "fail"]
    assert any(rule in t["charged"] for t in failed), [(t["id"], t["charged"]) for t in failed]
    assert report["rules"][rule]["fail"] > 0


def random_walk(ask: Callable[[dict[str, Any]], dict[str, Any]], rng: random.Random,
                deck: list[str], words: list[str], steps: int, noise: float = 0.2,
                prefer_said: float = 0.7, cards: list[str] | None = None) -> None:
    """Up to ``steps`` moves of a started match through ``ask``: the state, every seat's
    legal list, then a legal action of the seat to act (one with a ':' at the rate
    ``prefer_said`` where there is one), or at the rate ``noise`` a word of ``words`` or
    a card of ``cards`` (else of ``deck``) for a random seat; new deals shuffled from
    ``deck``."""
    for _ in range(steps):
        state = ask({"type": "state"})
        if state["terminal"]:
            return
        if state["phase"] == "deal":
            rng.shuffle(deck)
            ask({"type": "deal", "deck": deck})
            continue
        seats = range(len(state["hands"]))
        legal = [ask({"type": "legal", "seat": s})["actions"] for s in seats]
        if rng.random() < noise:
            ask({"type": "apply", "seat": rng.choice(seats),
                 "action": rng.choice([*words, rng.choice(cards or deck)])})
            continue
        acts = legal[state["to_act"]]
        said = [a for a in acts if ":" in a]
        use_said = said and prefer_said and rng.random() < prefer_said
        ask({"type": "apply", "seat": state["to_act"],
             "action": rng.choice(said if use_said else acts)})
