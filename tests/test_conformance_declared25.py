"""The configurations an engine declares are checked whole (twenty-fifth session).

``--declared`` derives each configuration at one value of an option given ``{"values":
[...]}`` or ``{"min": a, "max": b}``; the other values were never looked at, so a value
the option cannot take (``marriage_values`` ``30/30``) passed unnoticed, and an entry
that allows nothing (``{"min": 9, "max": 3}``) was derived at 9, which the engine had not
declared: every test was then skipped as *configuration not played* and the run failed
with "no test ran". docs/conformance.rst: a value this package does not know is a usage
error naming the configuration.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from mariage.cli import main
from mariage.conformance.configuration import declared_configurations


def hello(**options: Any) -> dict[str, Any]:
    return {"configurations": [{"ruleset": "schnapsen", "options": options}]}


@pytest.mark.parametrize(("options", "says"), [
    ({"marriage_values": {"values": ["20/20", "30/30"]}}, "marriage_values=30/30"),
    ({"close_allowed": {"values": [False, "never"]}}, "close_allowed=never"),
    ({"match_target": {"min": 9, "max": 3}}, "'match_target' allows no value (9..3)"),
    ({"marriage_lead": {"values": []}}, "'marriage_lead' lists no value"),
])
def test_a_declared_entry_the_package_cannot_play_is_refused(options: dict[str, Any],
                                                              says: str) -> None:
    with pytest.raises(ValueError, match="configuration 1 of the engine's hello") as info:
        declared_configurations(hello(**options))
    assert says in str(info.value)


def test_entries_within_the_options_still_derive_at_one_value() -> None:
    [config] = declared_configurations(hello(
        marriage_lead={"values": ["queen", "king"]}, match_target={"min": 3, "max": 9},
        close_allowed={"values": [False, True]}))
    # the default where it is allowed, else the first value
    assert config.options == {"marriage_lead": "queen"}


def test_the_command_line_says_so_in_one_line(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    engine = tmp_path / "engine.py"
    answer = {"type": "hello", "protocol": 2,
              "rulesets": {"schnapsen": {"options": {}}},
              **hello(marriage_values={"values": ["20/20", "30/30"]})}
    engine.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        f"    print(json.dumps({answer!r}) if 'hello' in line else "
        "json.dumps({'type': 'error', 'code': 'unknown_type', 'message': '-'}), flush=True)\n")
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(engine))}"
    assert main(["conformance", "--engine", command, "--declared", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["mariage: error: configuration 1 of the engine's hello: -o "
                   "marriage_values=30/30: the value must be one of 20/40, 20/20"]
