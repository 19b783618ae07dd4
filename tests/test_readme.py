"""The README's promises: a two-command Quickstart that CI runs, and working examples."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.S)


def test_quickstart_is_two_commands_and_ci_runs_the_second() -> None:
    section = README.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    commands = [line for block in re.findall(r"```sh\n(.*?)```", section, flags=re.S)
                for line in block.splitlines() if line.strip()]
    assert commands == ["pip install . && mariage play marianna --seed 1",
                        "pip install '.[test]' && pytest"]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1] in ci.splitlines()


def test_the_library_example_runs() -> None:
    (code,) = _blocks("python")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("MatchResult(winner=")


def test_the_record_shown_is_what_play_writes(tmp_path: Path) -> None:
    (shown,) = _blocks("text")
    out = tmp_path / "match.txt"
    from mariage.cli import main

    assert main(["play", "marianna", "--seed", "3", "--out", str(out), "-q"]) == 0
    written = out.read_text(encoding="utf-8").splitlines()
    head = shown.split("...")[0].strip().splitlines()
    assert written[:len(head)] == head
    assert shown.strip().splitlines()[-1] in written


def test_the_suite_is_parallel_marks_slow_runs_and_ci_runs_them_with_a_browser() -> None:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    ini = project["tool"]["pytest"]["ini_options"]
    # the default run leaves the slow tests out; CI runs them after it
    assert "-n auto" in ini["addopts"] and "-m 'not slow'" in ini["addopts"]
    assert any(m.startswith("slow:") for m in ini["markers"])
    assert any(d.startswith("pytest-xdist") for d in
               project["project"]["optional-dependencies"]["test"])
    assert "`pytest -m slow`" in README
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    at = ci.index("pip install '.[test]' && pytest")
    assert "export MARIAGE_REQUIRE_BROWSER=1" in ci[:at]
    assert "export MARIAGE_REQUIRE_NODE=1" in ci[:at]
    steps = [line for line in ci[at + 1:] if not line.startswith("stamp ")]  # (timings)
    assert steps[0] == "pytest -m slow"


def test_the_choose_exchange_shown_is_the_protocols() -> None:
    """The README's ``choose`` request has the fields ``mariage match`` sends, and its
    answer those the reference engine gives (it once showed ``cmd``, ``time_ms`` and
    ``ok``, which no part of the protocol has)."""
    import json

    from mariage import load_rules, new_match
    from mariage.arena.players import EnginePlayer
    from mariage.arena.refengine import ChoosingEngine

    section = README.split("## Matches between engines", 1)[1].split("\n## ", 1)[0]
    shown = [json.loads(s.replace(":N", ":500").replace(":S", ":1")
                        .replace('"<action text>",...', '"AH"'))
             for s in re.findall(r"`(\{[^`]*\})`", section)]
    request, answer = shown
    sent: list[dict[str, object]] = []

    def send(msg: dict[str, object], **_: object) -> dict[str, object]:
        sent.append(msg)
        return {"type": "choose", "seat": 1, "action": "AH"}

    player = EnginePlayer.__new__(EnginePlayer)  # the referee's side, no process
    player.grace = 0.5
    player._send = send  # type: ignore[method-assign]
    rules = load_rules("schnapsen")
    state = new_match(rules, 1)
    player.choose(state, state.to_act, 500)
    assert set(request) == set(sent[0]) and request["type"] == sent[0]["type"]
    engine = ChoosingEngine("greedy", seed=1)
    deck = [f"{r}{s}" for s in "HDCS" for r in "ATKQJ"]
    assert engine.handle({"type": "start", "ruleset": "schnapsen", "dealer": 0,
                          "deck": deck}) == {"type": "ok"}
    reply = engine.handle(request)
    assert set(reply) == set(answer) and reply["type"] == answer["type"]
