"""The thirty-sixth session's hostile sweep: fuzzed records, descriptions, engine requests
and calls of the API.

Each test names what happened before its fix.
"""

from __future__ import annotations

from typing import Any

import pytest
from hostilekit import deadline
from mariage import GameState, load_rules
from mariage.arena.hiding import SeatView
from mariage.arena.match import render_table
from mariage.conformance import reports
from mariage.conformance.client import EngineClient, stderr_note
from mariage.conformance.coverage import coverage, run_coverage
from mariage.conformance.engine import ReferenceEngine
from mariage.conformance.protocol import seat_state_json
from mariage.conformance.results import Outcome
from mariage.conformance.runner import perft_divide, perft_divide_blame, perft_walk
from mariage.engine.actiontext import action_text
from mariage.engine.deals import canonical_deck, cut_deck
from mariage.engine.prng import SplitMix64
from mariage.notation.batch import check_raw
from mariage.notation.errors import tag_trouble
from mariage.spec.options import (
    default_in_force,
    default_text,
    depends_on,
    invalid_case,
    invalid_text,
)

RULES = load_rules("mariglia")


def test_an_action_out_of_turn_told_to_a_hidden_hand_is_refused_at_once() -> None:
    """A seat told that seat 3 is to act, then sent a card of seat 1 (a runner out of step,
    or a hostile one), searched every deal for a minute before it refused (17 s in
    Mariglia, 69 s in Belote): no deal keeps the ``to_act`` it was told and lets seat 1
    play."""
    rules = RULES
    referee = GameState(rules, first_dealer=0)
    deck = canonical_deck(rules)
    referee.deal(deck)
    view = SeatView(0)
    engine = ReferenceEngine()
    assert engine.handle({"type": "start", "ruleset": "mariglia", "dealer": 0, "seat": 0,
                          "deck": view.deal(referee, deck)}) == {"type": "ok"}
    for _ in range(2):
        seat, action = referee.to_act, referee.legal_actions()[0]
        referee.apply(action)
        assert engine.handle({"type": "apply", "action": action_text(rules, action),
                              "seat": seat, "state": seat_state_json(referee, 0)}
                             ) == {"type": "ok"}
    assert referee.to_act == 3
    card = rules.card_code[rules.cards_of(referee.hands[1])[0]]
    with deadline(5):
        reply = engine.handle({"type": "apply", "action": card, "seat": 1})
    assert reply["rule"] == "core.turn" and "it is seat 3's turn" in reply["message"]
    # the seat told to act still plays
    action = referee.legal_actions()[0]
    assert engine.handle({"type": "apply", "action": action_text(rules, action), "seat": 3}
                         ) == {"type": "ok"}


@pytest.mark.parametrize("call", [reports.tally, reports.by_rule, reports.uncharged,
                                  lambda o: run_coverage(o, "marianna", [])])
@pytest.mark.parametrize(("outcomes", "says"), [
    ("t", "not str"), (None, "not NoneType"), ([None], "not a NoneType among them"),
    ([{"ruleset": "x"}], "not a dict among them")])
def test_outcomes_that_are_no_outcomes_are_a_type_error(call: Any, outcomes: object,
                                                        says: str) -> None:
    """Each was ``AttributeError: 'str' object has no attribute 'ruleset'`` (``'ok'``,
    ``'kind'``), or "'NoneType' object is not iterable"."""
    name = getattr(call, "__name__", "<lambda>").replace("<lambda>", "run_coverage")
    with pytest.raises(TypeError, match=f"^{name}: outcomes must be Outcome values, {says}$"):
        call(outcomes)
    done = Outcome("t", "marianna", "scenario", ("core.hand",), "error", engine_failure="crash")
    assert reports.tally(iter([done])) == {"marianna": {**dict.fromkeys(
        ("pass", "fail", "skip", "xfail", "xpass"), 0), "error": 1}}


@pytest.mark.parametrize(("args", "error", "says"), [
    (({}, 1), TypeError, "line must be a str, not dict"),
    (("[x", 0), ValueError, "column must be a whole number, at least 1, not 0"),
    (("[x", None), TypeError, "column must be a whole number")])
def test_tag_trouble_names_a_wrong_argument(args: tuple[Any, ...], error: type,
                                            says: str) -> None:
    """``tag_trouble({}, 1)`` was ``KeyError: -1``; a column of None "unsupported operand"."""
    with pytest.raises(error, match=f"^tag_trouble: {says}"):
        tag_trouble(*args)
    assert tag_trouble("[Seed 1]", 1).startswith("; column 7:")


@pytest.mark.parametrize(("call", "args", "error", "says"), [
    (depends_on, (b"x",), TypeError, "the declaration is a mapping, not bytes"),
    (depends_on, ({"default_when": 5},), ValueError, "default_when is a list of cases"),
    (default_text, ({"type": "int"},), ValueError, "the declaration has no default"),
    (default_text, ({"default": 1, "default_when": [{"when": {}}]},), ValueError,
     "default_when is a list of cases"),
    (default_in_force, ({"default": 1}, 5), TypeError, "values must be a mapping, not int"),
    (default_in_force, ({"default": 1, "default_when": [{"when": 3, "value": 2}]}, {}),
     ValueError, "default_when is a list of cases")])
def test_the_defaults_of_a_wrong_declaration_are_named(call: Any, args: tuple[Any, ...],
                                                       error: type, says: str) -> None:
    """Were ``AttributeError: 'bytes' object has no attribute 'get'``, ``KeyError:
    'default'``, ``KeyError: 'value'``, ``'int' object is not iterable``..."""
    with pytest.raises(error, match=f"^{call.__name__}: {says}"):
        call(*args)
    spec = {"default": 60, "default_when": [{"when": {"players": 4}, "value": 40}]}
    assert default_in_force(spec, {"players": 4}) == 40 and depends_on(spec) == ["players"]


@pytest.mark.parametrize(("rules", "rows", "says"), [
    (None, [], "rules must be a Rules"),
    (RULES, "ab", r"rows \(Match.table makes them\) must be Row values, not str"),
    (RULES, [None], r"rows \(Match.table makes them\) must be Row values, not a NoneType")])
def test_render_table_names_a_wrong_argument(rules: object, rows: object, says: str) -> None:
    """``render_table(rules, "ab")`` was ``AttributeError: 'str' object has no attribute
    'wins'``; rules of None "'NoneType' object has no attribute 'team_names'"."""
    with pytest.raises(TypeError, match=f"^render_table: {says}"):
        render_table(rules, rows)  # type: ignore[arg-type]
    assert render_table(RULES, []).startswith("side")


@pytest.mark.parametrize("tests", ["t", [None], 5])
def test_coverage_of_no_tests_is_a_type_error(tests: object) -> None:
    """``coverage("t")`` was ``AttributeError: 'str' object has no attribute 'kind'``,
    after compiling every bundled ruleset."""
    with pytest.raises(TypeError, match=r"^coverage: tests must be Test values, not "):
        coverage(tests)  # type: ignore[arg-type]


@pytest.mark.parametrize("call", [perft_walk, perft_divide, perft_divide_blame])
def test_a_perft_walk_of_no_client_or_no_test_is_a_type_error(call: Any) -> None:
    """``perft_walk(client, None)`` was ``AttributeError: 'NoneType' object has no
    attribute 'depth'`` (``perft_divide``: ``'ruleset'``); a client of a command string
    ``... no attribute 'request'``."""
    client = EngineClient.for_command("no-such-engine-36")
    with pytest.raises(TypeError, match=f"^{call.__name__}: test is a Test, not NoneType$"):
        call(client, None)
    with pytest.raises(TypeError, match=f"^{call.__name__}: client is a EngineClient, not str"):
        call("python3 engine.py", None)
    assert client._transport is None  # nothing was started


@pytest.mark.parametrize("raw", [None, '[Mariage "1"]', []])
def test_check_raw_of_no_raw_record_is_a_type_error(raw: object) -> None:
    """Was ``AttributeError: 'str' object has no attribute 'problems'``."""
    with pytest.raises(TypeError, match=r"^check_raw: raw is a RawRecord \(split_records "):
        check_raw(raw, strict=False)  # type: ignore[arg-type]


@pytest.mark.parametrize(("call", "args", "error", "says"), [
    (invalid_case, ("x", {}), TypeError, "specs must be a mapping, not str"),
    (invalid_case, ({}, None), TypeError, "values must be a mapping, not NoneType"),
    (invalid_case, ({"a": 5}, {}), TypeError, "option 'a': its declaration is a mapping"),
    (invalid_case, ({"a": {"invalid_when": [{"value": 1}]}}, {"a": 1}), ValueError,
     "an invalid_when case is a mapping with a 'value', a 'when' mapping and a 'because'"),
    (invalid_text, ("a", "y"), ValueError, "an invalid_when case is a mapping")])
def test_invalid_cases_of_a_wrong_declaration_are_named(call: Any, args: tuple[Any, ...],
                                                        error: type, says: str) -> None:
    """Were ``AttributeError: 'str' object has no attribute 'items'`` (``'int' ... 'get'``),
    ``KeyError: 'when'``, ``TypeError: string indices must be integers``."""
    with pytest.raises(error, match=f"^{call.__name__}: {says}"):
        call(*args)
    case = {"value": "dealer", "when": {"sitter": "dealer"}, "because": "he sits out"}
    assert invalid_case({"opening": {"invalid_when": [case]}},
                        {"opening": "dealer", "sitter": "dealer"}) == ("opening", case)


@pytest.mark.parametrize("tail", ["KeyError: 'x'", None])
def test_stderr_note_of_no_bytes_is_a_type_error(tail: object) -> None:
    """Was ``AttributeError: 'str' object has no attribute 'decode'``."""
    with pytest.raises(TypeError, match=r"^stderr_note: tail is the bytes an engine wrote, "):
        stderr_note(tail)  # type: ignore[arg-type]
    assert stderr_note(bytearray(b"boom\n")) == "; its standard error ends: boom"


@pytest.mark.parametrize(("deck", "rng", "least", "error", "says"), [
    ((0, 1, 2, 3), SplitMix64(1), 1, TypeError, "deck must be a list"),
    ([0, 1, 2, 3], 7, 1, TypeError, "rng must be a SplitMix64, not int"),
    ([0, 1, 2, 3], SplitMix64(1), 3, ValueError, "least must be a whole number from 0 to 2"),
    ([0, 1, 2, 3], SplitMix64(1), -1, ValueError, "least must be a whole number from 0 to 2"),
    ([0, 1, 2, 3], SplitMix64(1), 1.0, TypeError, "least must be a whole number")])
def test_cut_deck_of_wrong_arguments_names_the_call(deck: Any, rng: Any, least: Any,
                                                    error: type, says: str) -> None:
    """Were ``ValueError: below() needs a positive bound`` (a cut wider than the deck),
    ``TypeError: 'tuple' object does not support item assignment``, ``AttributeError``
    on the generator; a negative least cut a packet smaller than asked."""
    with pytest.raises(error, match=f"^cut_deck: {says}"):
        cut_deck(deck, rng, least)
    cards = [0, 1, 2, 3]
    cut_deck(cards, SplitMix64(1), 2)
    assert cards == [2, 3, 0, 1]
