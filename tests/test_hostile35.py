"""The thirty-fifth session's hostile sweep: the documented functions below the game state
(``state_html(None)`` was ``AttributeError: 'NoneType' object has no attribute 'rules'``:
the display module cannot import :class:`GameState`, which imports it), the arena's, an
engine's move that holds control characters, and a command-line option given twice.

Each test names what happened before its fix.
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hostilekit import run_cli
from mariage import load_rules, new_match
from mariage.arena.agent_engine import load_factory
from mariage.arena.cardplay import SeatView, choose_play, shown_voids
from mariage.arena.hiding import action_cards
from mariage.arena.match import Match
from mariage.arena.players import BotPlayer, Forfeit
from mariage.arena.search import determinize, outcome, sensible_actions
from mariage.conformance import reports
from mariage.conformance.client import EngineClient
from mariage.conformance.coverage import most_exact_line, unreachable_under
from mariage.conformance.engine import ReferenceEngine, serve
from mariage.conformance.protocol import bidding_json, declared_json, takers_json, view_key
from mariage.conformance.runner import run_test
from mariage.conformance.suite import parse_test
from mariage.engine.actiontext import bid_value_text, contract_name
from mariage.engine.deals import deal_owners, fixed_first_dealer, gathered_deck
from mariage.engine.display import state_html, state_repr
from mariage.engine.mechanisms import mechanism_of
from mariage.engine.observation import in_hands_seen, observe
from mariage.errors import printable
from mariage.notation import write_record
from mariage.notation.replay import is_resign
from mariage.notation.search import turnup_place
from mariage.resources import spec_dir
from mariage.rulebook.render import comparison, facts, render_text, rulebook, sections
from mariage.spec.compile import check_document, option_specs
from mariage.spec.options import options_of_rules, resolve
from mariage.spec.specload import read_yaml

RULES = load_rules("schnapsen")
STATE = new_match(RULES, 1)


@pytest.mark.parametrize(("call", "name"), [
    (state_html, "state_html"), (state_repr, "state_repr"), (gathered_deck, "gathered_deck"),
    (lambda s: determinize(s, 0, random.Random(1)), "determinize"),
    (sensible_actions, "sensible_actions"), (lambda s: outcome(s, 0), "outcome"),
    (shown_voids, "shown_voids"), (lambda s: SeatView(s, 0), "SeatView"),
    (lambda s: choose_play(s, []), "choose_play"), (lambda s: action_cards(s, "QS"),
                                                   "action_cards"),
    (declared_json, "declared_json"), (lambda s: takers_json(s, True), "takers_json"),
    (lambda s: bidding_json(s, True), "bidding_json"), (lambda s: view_key(s, s), "view_key")])
@pytest.mark.parametrize("state", [None, RULES])
def test_a_state_that_is_no_state_is_a_type_error_naming_the_call(call: Any, name: str,
                                                                  state: object) -> None:
    """Each was ``AttributeError: 'NoneType' object has no attribute 'rules'`` (or
    ``'clone'``, ``'legal_actions'``, ``'result'``, ``'to_act'``)."""
    with pytest.raises(TypeError, match=f"^{name}: the state is a GameState, not "
                                        f"{type(state).__name__}$"):
        call(state)


@pytest.mark.parametrize("seat", [2, -1, 10 ** 20, "A"])
def test_a_seat_out_of_range_for_the_arena_is_a_seat_error(seat: object) -> None:
    """``SeatView(state, -1)`` read the last seat's hand as its own; ``2`` was
    ``IndexError: tuple index out of range`` (``10**20``: "cannot fit 'int' into an
    index-sized integer"), as was ``sensible_actions(state, 2)``."""
    with pytest.raises(ValueError, match=r"^SeatView: seat must be a seat number from 0 to 1"):
        SeatView(STATE, seat)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^sensible_actions: seat must be a seat number"):
        sensible_actions(STATE, seat)  # type: ignore[arg-type]
    assert SeatView(STATE, 1).hand == STATE.hands[1] and sensible_actions(STATE, 0)


@pytest.mark.parametrize("call", [
    reports.skip_summary, reports.summary_text, reports.refusal_line, reports.json_report,
    reports.junit_xml, reports.dump_json, reports.trace_text])
def test_a_report_of_no_run_is_a_type_error(call: Any) -> None:
    """Each was ``AttributeError: 'list' object has no attribute 'outcomes'`` (or
    ``'skips'``, ``'refusal_levels'``, ``'engine'``)."""
    with pytest.raises(TypeError, match=r": run must be a RunResult \(run_suite makes one\), "
                                        r"not list$"):
        call([])


def test_an_agent_that_raises_as_it_is_loaded_is_named_in_one_line(tmp_path: Path) -> None:
    """An agent file raising as it was imported ended ``python -m
    mariage.arena.agent_engine --agent bad.py:f`` in a traceback (exit 1)."""
    bad = tmp_path / "bad.py"
    bad.write_text("import sys\nraise RuntimeError('boom')\n", encoding="utf-8")
    with pytest.raises(ValueError, match=rf"^--agent '.*bad.py:f': loading .*bad.py raised "
                                         rf"RuntimeError: boom \({re.escape(str(bad))}:2\)$"):
        load_factory(f"{bad}:f")


@pytest.mark.parametrize(("spec", "error"), [
    (".:x", ValueError), ("..mod:f", ValueError), (None, TypeError), (5, TypeError)])
def test_an_agent_named_by_no_module_is_refused(spec: object, error: type) -> None:
    """``.:x`` was ``TypeError: the 'package' argument is required to perform a relative
    import for '.'`` (a traceback); ``None`` was ``AttributeError: ... 'rpartition'``."""
    with pytest.raises(error, match=r"expected FILE\.py:NAME or module:NAME|spec must be a str"):
        load_factory(spec)  # type: ignore[arg-type]


@pytest.mark.parametrize(("command", "error", "says"), [
    ("", ValueError, "the command is empty"), ("   ", ValueError, "the command is empty"),
    (None, TypeError, "command must be a str, not NoneType"),
    ([], TypeError, "command must be a str, not list")])
def test_an_engine_command_of_no_word_is_refused_at_once(command: object, error: type,
                                                         says: str) -> None:
    """``for_command("")`` (or ``None``) made a client whose first request failed with
    "cannot start '': the supervisor ended before it started the engine"; ``[]`` with
    ``AttributeError: 'list' object has no attribute 'read'`` (from ``shlex``)."""
    with pytest.raises(error, match=f"^for_command: {re.escape(says)}$"):
        EngineClient.for_command(command)  # type: ignore[arg-type]


@pytest.mark.parametrize("message", [None, "hello", []])
def test_a_request_that_is_no_dict_is_a_type_error(message: object) -> None:
    """Was ``TypeError: argument of type 'NoneType' is not iterable`` (or ``'str' object is
    not a mapping``), naming nothing; refused before any engine is started."""
    client = EngineClient.for_command("no-such-engine-35")
    with pytest.raises(TypeError, match=r"^request: the message is a dict, not "):
        client.request(message)  # type: ignore[arg-type]
    assert client._transport is None  # nothing was started


@pytest.mark.parametrize("which", ["engine", "inp", "out"])
def test_serve_without_its_streams_is_a_type_error(which: str) -> None:
    """``serve(engine, None, out)`` was ``AttributeError: 'NoneType' object has no attribute
    'readline'`` (``'write'``, ``'handle'``)."""
    given: dict[str, Any] = {"engine": ReferenceEngine(), "inp": io.StringIO(""),
                             "out": io.StringIO(), which: None}
    with pytest.raises(TypeError, match=f"^serve: {which} has no method .*: NoneType$"):
        serve(**given)


def test_read_yaml_takes_a_file_name_as_text_and_refuses_none() -> None:
    """``read_yaml("spec/schnapsen.yaml")`` was ``AttributeError: 'str' object has no
    attribute 'stat'``; ``read_yaml(None)`` the same of ``'NoneType'``."""
    data, marks = read_yaml(str(spec_dir() / "schnapsen.yaml"))
    assert data["ruleset"] == "schnapsen" and str(marks[("ruleset",)]).endswith(":4:10")
    with pytest.raises(TypeError, match=r"^read_yaml: path must be a Path, not NoneType$"):
        read_yaml(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", [None, 5])
def test_is_resign_of_no_text_is_a_type_error(text: object) -> None:
    """Was ``AttributeError: 'NoneType' object has no attribute 'startswith'``."""
    assert is_resign("resign:time") and not is_resign("resign:")
    with pytest.raises(TypeError, match=r"^is_resign: text must be a str, not "):
        is_resign(text)  # type: ignore[arg-type]


def test_in_hands_seen_of_no_observation_is_a_type_error() -> None:
    """``in_hands_seen(state)`` was ``AttributeError: 'GameState' object has no attribute
    'shown'`` (a state is not what its seat sees)."""
    assert in_hands_seen(observe(STATE, 0)) & STATE.hands[0] == STATE.hands[0]
    with pytest.raises(TypeError, match=r"^in_hands_seen: obs is an Observation, not "
                                        r"GameState$"):
        in_hands_seen(STATE)  # type: ignore[arg-type]


def test_run_test_of_no_client_or_no_test_is_a_type_error() -> None:
    """``run_test(client, None)`` was ``AttributeError: 'NoneType' object has no attribute
    'id'``; ``run_test(None, test)`` ``... no attribute 'info'``."""
    path = Path(__file__).parents[1] / "conformance/tests/sixty-six-4/golden/" \
        "draw_bonus_next_hand-false.test"
    test = parse_test(path.read_text(encoding="utf-8"), str(path))
    client = EngineClient.for_command("no-such-engine-35")
    with pytest.raises(TypeError, match=r"^run_test: test is a Test, not NoneType$"):
        run_test(client, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^run_test: client is a EngineClient, not str$"):
        run_test("python3 engine.py", test)  # type: ignore[arg-type]
    assert client._transport is None  # nothing was started


def test_the_display_still_shows_a_state() -> None:
    assert repr(STATE).startswith("<GameState schnapsen: hand 1, trick 1, play; A to act")
    assert "<table" in state_html(STATE) and "<table" in STATE._repr_html_()


@pytest.mark.parametrize(("call", "name"), [
    (lambda r: deal_owners(r, 0), "deal_owners"), (fixed_first_dealer, "fixed_first_dealer"),
    (lambda r: contract_name(r, 0), "contract_name"),
    (lambda r: bid_value_text(r, 80), "bid_value_text"),
    (lambda r: mechanism_of(r, "core.turn"), "mechanism_of"), (lambda r: Match(r, {}), "Match"),
    (rulebook, "rulebook"), (render_text, "rulebook"), (sections, "sections"), (facts, "facts"),
    (lambda r: comparison([r]), "facts"), (unreachable_under, "unreachable_under"),
    (most_exact_line, "most_exact_line"), (lambda r: turnup_place(r, 0), "turnup_place")])
def test_rules_that_are_no_rules_are_a_type_error_naming_the_call(call: Any,
                                                                  name: str) -> None:
    """Each was an ``AttributeError`` (``'str' object has no attribute 'deal_packets'``,
    ``'first_dealer'``, ``'suits'``, ``'sa_capot_value'``, ``'infos'``, ``'nseats'``,
    ``'ruleset'``, ``'document'``)."""
    with pytest.raises(TypeError, match=f"^{name}: rules must be a Rules .*, not str$"):
        call("schnapsen")


@pytest.mark.parametrize(("call", "name"), [
    (check_document, "check_document"), (option_specs, "option_specs"), (resolve, "resolve"),
    (lambda d: options_of_rules(d, ["deal"]), "options_of_rules")])
@pytest.mark.parametrize("doc", [None, "schnapsen"])
def test_a_description_that_is_no_document_is_a_type_error(call: Any, name: str,
                                                           doc: object) -> None:
    """Each was ``AttributeError: 'NoneType' object has no attribute 'paths'`` (or
    ``'data'``)."""
    with pytest.raises(TypeError, match=rf"^{name}: doc must be a Document \(load_document"
                                        rf"\(name\) makes one\), not {type(doc).__name__}$"):
        call(doc)


@pytest.mark.parametrize("suit", [4, -1, 10 ** 30, "H", None])
def test_a_contract_number_out_of_range_is_a_value_error(suit: object) -> None:
    """``4`` was ``IndexError: tuple index out of range``, ``10**30`` ``IndexError: cannot
    fit 'int' into an index-sized integer``, and ``-1`` read as the last suit, ``S``."""
    assert [contract_name(RULES, s) for s in range(4)] == ["H", "D", "C", "S"]
    with pytest.raises(ValueError, match=r"contract_name: no suit or contract .* in "
                                         r"schnapsen \(0 to 3\)"):
        contract_name(RULES, suit)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [None, b"x", 5])
def test_printable_of_no_text_is_a_type_error(value: object) -> None:
    """``printable(None)`` and ``Forfeit("crash", None)`` were ``AttributeError: 'NoneType'
    object has no attribute 'isascii'``."""
    with pytest.raises(TypeError, match="printable: text must be a str"):
        printable(value)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="printable: text must be a str"):
        Forfeit("crash", value)  # type: ignore[arg-type]


class _Garbler(BotPlayer):
    """A player whose move holds a NUL, an escape that clears the screen and a
    right-to-left override."""

    def choose(self, state: Any, seat: int, time_ms: int) -> str:
        return "\x00QS\x1b[2J\u202e"


def test_a_move_that_is_no_action_is_quoted_without_its_control_characters() -> None:
    """An engine's move that is no action was quoted as it came, in the line ``match``
    prints and in the record's ``Termination`` tag and comment: a NUL, an escape sequence
    and a right-to-left override reached the terminal and the record file."""
    match = Match(RULES, {0: lambda: _Garbler("greedy", 0)})
    game = match.play_game(1, 1, (0, 1))
    assert game.forfeit is not None
    seat, kind, reason = game.forfeit
    assert (seat, kind) == (0, "illegal")
    assert reason == "'\\x00QS\\x1b[2J\\u202e' is not an action of schnapsen"
    text = write_record(game.record)
    assert "forfeits (illegal): '\\x00QS\\x1b[2J\\u202e'" in text
    assert not any(c in text for c in "\x00\x1b\u202e")


def _record(tmp_path: Path) -> str:
    path = tmp_path / "g.mrg"
    path.write_text('[Mariage "1"]\n[Ruleset "schnapsen"]\n[Dealer "B"]\n\nresult *\n',
                    encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(("argv", "says"), [
    (["validate", "{f}", "--max-problems", "5", "--max-problems", "6"],
     "--max-problems is given twice (5, then 6): give it once"),
    (["render", "{f}", "--html", "a.html", "--html", "b.html"],
     "--html is given twice ('a.html', then 'b.html')"),
    (["play", "schnapsen", "-q", "--seed", "1", "--seed", "2"],
     "--seed is given twice (1, then 2)")])
def test_an_option_given_twice_with_two_values_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        argv: list[str], says: str) -> None:
    """argparse kept the last value without a word: ``--seed 1 --seed 2`` played seed 2,
    ``--html a.html --html b.html`` (of a group of options) wrote ``b.html`` only."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli([a.format(f=_record(tmp_path)) for a in argv], capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"mariage: error: {says}") and err.count("\n") == 1
    assert not list(tmp_path.glob("*.html"))


def test_an_option_given_twice_with_one_value_is_taken(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["validate", _record(tmp_path), "--max-problems", "5",
                              "--max-problems", "5"], capsys)
    assert code == 0 and "ok: 1 records, 1 valid" in out + err, (out, err)
