"""Configurations (#22.1): option values on the command line, the ``configurations`` of
``hello``, and tests outside what an engine plays skipped with the reason, never failed."""

from __future__ import annotations

from typing import Any

import pytest
from mariage.conformance.client import EngineClient, HandshakeError, ThreadTransport
from mariage.conformance.configuration import (
    check_configurations,
    make_configuration,
    unsupported,
)
from mariage.conformance.engine import ReferenceEngine
from mariage.conformance.house import HouseEngine
from mariage.conformance.runner import run_suite
from mariage.conformance.suite import load_suite

SCHNAPSEN_HOUSE = ["close_allowed=false", "claim_mode=auto", "marriage_lead=king",
                   "marriage_counting=next_trick_after_declaring"]


def test_option_values_are_read_with_their_type() -> None:
    c = make_configuration("marjapussi-de", ["partnership_draw=fixed",
                                             "pair_credit_once_per_hand=false",
                                             "bid_max=none", "hand_limit=30"])
    assert c.options == {"partnership_draw": "fixed", "pair_credit_once_per_hand": False,
                         "bid_max": "none", "hand_limit": 30}
    assert make_configuration("marjapussi", ["pack_size=32"]).options == {"pack_size": 32}
    assert make_configuration("schnapsen", ["close_allowed=true"]).options == {}


@pytest.mark.parametrize(("ruleset", "texts", "words"), [
    ("schnapsen", ["close_allowed=maybe"], "true or false"),
    ("schnapsen", ["nosuch=1"], "no option 'nosuch'"),
    ("schnapsen", ["match_target=x"], "whole number"),
    ("schnapsen", ["match_target=0"], "1..10000"),
    ("schnapsen", ["claim_mode"], "NAME=VALUE"),
    ("marjapussi", ["pack_size=30"], "36, 32, 28"),
    ("nosuch", [], "unknown ruleset"),
    ("schnapsen", ["claim_mode=auto", "claim_mode=explicit"], "twice"),
])
def test_bad_option_values_are_usage_errors(ruleset: str, texts: list[str], words: str
                                            ) -> None:
    with pytest.raises(ValueError, match=words):
        make_configuration(ruleset, texts)


def test_a_house_description_is_a_configuration(tmp_path: Any) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("extends: mariglia\nruleset: mariglia-house\nname: House\n")
    c = make_configuration(None, ["turn_up_bonus=false"], str(path))
    assert (c.name, c.options, c.bases) == ("mariglia-house", {"turn_up_bonus": False},
                                            ("mariglia-house", "mariglia"))
    with pytest.raises(ValueError, match="names 'marianna'"):
        make_configuration("marianna", [], str(path))
    with pytest.raises(ValueError, match="no such description"):
        make_configuration(None, [], str(tmp_path / "none.yaml"))


def test_configurations_of_hello_decide_which_values_are_played() -> None:
    hello = {"configurations": [
        {"ruleset": "schnapsen", "options": {"close_allowed": False,
                                             "marriage_lead": {"values": ["king", "queen"]},
                                             "match_target": {"min": 5, "max": 9}}}]}
    ok = {"close_allowed": False, "marriage_lead": "queen", "match_target": 5}
    assert unsupported(hello, "schnapsen", ok) == ""
    assert "close_allowed=false only, the test has true" in unsupported(
        hello, "schnapsen", {"marriage_lead": "king", "match_target": 5})
    assert "king or queen" in unsupported(hello, "schnapsen", {**ok, "marriage_lead": "either"})
    assert "5..9" in unsupported(hello, "schnapsen", {**ok, "match_target": 11})
    assert "at its default only" in unsupported(hello, "schnapsen", {**ok, "claim_mode": "auto"})
    # an option not named: the ruleset decides
    assert unsupported(hello, "mariglia", {"turn_up_bonus": False}) == ""
    assert check_configurations([{"ruleset": "x", "options": {"o": {"nothing": 1}}}])
    assert check_configurations({"ruleset": "x"})


def _client(engine: ReferenceEngine) -> EngineClient:
    return EngineClient(lambda: ThreadTransport(engine), timeout=10)


def test_house_engine_runs_only_its_configuration_and_skips_the_rest() -> None:
    config = make_configuration("mariglia", ["turn_up_bonus=false"])
    client = _client(HouseEngine(config))
    try:
        result = run_suite(client, load_suite(rulesets=["mariglia"]))
    finally:
        client.close()
    ran = [o for o in result.outcomes if o.status != "skip"]
    assert ran and all(o.status == "pass" for o in ran), [o.message for o in ran
                                                            if o.status != "pass"]
    assert all(o.id.endswith(("turn_up_bonus-false", "no-turn-up-bonus")) for o in ran)
    skips = result.skips()
    assert set(skips) == {"configuration"}
    assert any("turn_up_bonus=false only" in o.message for o in skips["configuration"])
    assert result.ok


def test_a_default_the_engine_does_not_list_is_skipped_not_failed() -> None:
    class NoClose(ReferenceEngine):
        def hello(self) -> dict[str, Any]:
            out = super().hello()
            out["rulesets"] = {"schnapsen": {"options": {"close_allowed": {
                "type": "bool", "default": False, "values": [False]}}}}
            return out

    client = _client(NoClose())
    try:
        result = run_suite(client, load_suite(rulesets=["schnapsen"], kinds=["scenario"]))
    finally:
        client.close()
    assert {o.status for o in result.outcomes} == {"skip"}
    assert {o.skip_reason for o in result.outcomes} == {"value"}
    assert "default true of option 'close_allowed'" in result.outcomes[0].message


@pytest.mark.parametrize("configurations", [
    [{"options": {}}],
    [{"ruleset": "schnapsen", "options": {"match_target": {"min": "5"}}}],
    [{"ruleset": "schnapsen", "options": {"match_target": {"min": 1, "max": 2.5}}}],
    [{"ruleset": "schnapsen", "options": {"match_target": {"max": True}}}],
])
def test_malformed_configurations_fail_the_handshake(configurations: list[Any]) -> None:
    class Bad(ReferenceEngine):
        def hello(self) -> dict[str, Any]:
            return {**super().hello(), "configurations": configurations}

    client = _client(Bad())
    try:
        with pytest.raises(HandshakeError, match="configurations are malformed"):
            client.hello()
    finally:
        client.close()
