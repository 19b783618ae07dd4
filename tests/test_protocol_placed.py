"""The protocol's ``placed`` field (forty-third session): where the others play on for the
places (Sixty-six for three's ``three_hand_play_for_loser``, rule
``sixty-six-3.match.places``), an engine's state says who is placed, so that the suite
checks the loser and the order of the places, not only the winner and the scores.

Before, a ``state`` had no such field: an engine that placed the last two the other way
round (the loser second) passed every test, since the result names only the winner."""

from __future__ import annotations

from pathlib import Path

from mariage import load_rules, new_match
from mariage.conformance.client import EngineClient, ThreadTransport
from mariage.conformance.engine import ReferenceEngine
from mariage.conformance.faulty import FaultyEngine
from mariage.conformance.faulty_generic import generic_faults
from mariage.conformance.hidden import PUBLIC_FIELDS
from mariage.conformance.protocol import state_json, view_key
from mariage.conformance.runner import run_test
from mariage.conformance.suite import parse_test

ROOT = Path(__file__).resolve().parents[1]
PLACES = "sixty-six-3.match.places"
ON = {"three_hand_play_for_loser": True}


def _played_out(seed: int) -> list[dict[str, object]]:
    state = new_match(load_rules("sixty-six-3", ON), seed)
    views = [state_json(state)]
    while not state.terminal:
        state.apply(state.legal_actions()[0])
        views.append(state_json(state))
    return views


def test_the_state_says_the_places_only_where_the_others_play_on() -> None:
    views = _played_out(3)
    assert views[0]["placed"] == []
    assert views[-1]["placed"] == [2, 0, 1]
    # the first placed is there before the match ends, and stays first
    firsts = [v["placed"] for v in views if v["placed"] and not v["terminal"]]
    assert firsts and all(p == [2] for p in firsts)
    for ruleset, options in (("sixty-six-3", {}), ("schnapsen", {}), ("marianna", {})):
        assert "placed" not in state_json(new_match(load_rules(ruleset, options), 1))


def test_a_hidden_guess_must_agree_with_the_places() -> None:
    assert "placed" in PUBLIC_FIELDS


def test_states_that_differ_only_in_their_places_have_different_keys() -> None:
    a = new_match(load_rules("sixty-six-3", ON), 3)
    b = new_match(load_rules("sixty-six-3", ON), 3)
    key = view_key(a, b)
    assert key is not None and key(a) == key(b)
    b.placed = (2,)
    assert key(a) != key(b)
    assert view_key(a, new_match(load_rules("sixty-six-3"), 3)) is None


def _run(engine: FaultyEngine | None, name: str) -> tuple[str, str, list[str]]:
    path = ROOT / "conformance" / "tests" / "sixty-six-3" / "match" / f"{name}.test"
    test = parse_test(path.read_text(encoding="utf-8"), str(path))
    client = EngineClient(lambda: ThreadTransport(engine or ReferenceEngine()), timeout=30)
    try:
        out = run_test(client, test)
    finally:
        client.close()
    return out.status, out.message, list(out.blamed)


def test_an_engine_placing_the_loser_second_is_caught_by_the_rule_it_breaks() -> None:
    faults = [f for f in generic_faults(load_rules("sixty-six-3", ON)) if f.rule == PLACES]
    assert [f.name for f in faults] == [f"last-two-places-swapped@{PLACES}"]
    status, message, blamed = _run(FaultyEngine(faults[0]), "play-for-loser")
    assert status == "fail", message
    assert "placed" in message and PLACES in blamed
    assert _run(None, "play-for-loser")[0] == "pass"


def test_the_fault_is_offered_only_where_the_rules_play_on_for_places() -> None:
    for ruleset, options in (("sixty-six-3", {}), ("schnapsen", {}), ("marianna", {})):
        names = [f.name for f in generic_faults(load_rules(ruleset, options))]
        assert not any(n.startswith("last-two-places-swapped") for n in names)
