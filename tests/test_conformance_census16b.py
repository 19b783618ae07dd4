"""The rules the census found unchecked in the Thousand and Belote families under single
house rules (issue #22, sixteenth session), now exercised by the search or argued
unreachable: Belote's pair alone where only a side without a trick writes it; the
auction's turns where the stored scenario's deal does not hold (two players), the
match's end where the long match's lowest bids never end it (the lowest contract short
of the target, nobody obliged to open), and the hand thrown in where no claim throws one
in and the auction always has a bid.

Each of the six Thousand configurations whose census row the session left short (its
unchecked rules named in ``CHANGELOG.md``) is kept by a targeted check of those rules:
the auction's turns (``players=2``, ``thousand-2 opening_bid=dealer_auto_100``), the
match's end (``thousand-4 raise_allowed=false``, ``thousand-4 opening_bid=none``,
``thousand-pl redeal_low_hand=30``), the hand thrown in argued unreachable
(``four_nines_redeal=off``). Their whole census rows (527 s of the slow run's CPU) are
gone; the whole census of the Thousand family runs in
``tests/test_conformance_rulecover.py`` (``thousand`` at its defaults) and in
``tests/test_engine_node26_thousand.py`` (the suites derived for ``thousand`` and
``thousand-4``, at 100%)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from mariage import load_rules
from mariage.conformance.configuration import make_configuration
from mariage.conformance.coverage import UNREACHABLE, unreachable_under
from mariage.conformance.exercise import exercise_tests, match_end_rules
from mariage.conformance.pairalone import pair_alone_hand
from mariage.engine.actions import Pass, Redeal
from mariage.engine.actiontext import parse_action
from mariage.engine.prng import SplitMix64
from mariage.engine.state import GameState, Phase
from mariage.errors import IllegalActionError

REDEAL = "thousand.running.redeal"
ALONE = "belote.match.belote-alone"
ACE_ONCE = "thousand.ace-marriage.once"


@pytest.mark.parametrize("ruleset,options", [
    ("belote", ["belote_on_failure=goes_to_winner"]),
    ("belote-contree", ["belote_order=king_first"]),
    ("belote-contree", ["capot_scoring=pagat"]),
    ("belote-contree", ["generale=5000"]),
    ("belote", ["dedans_points=1000"])])  # found by the brink: its hands kept as before
def test_the_pair_alone_is_found_where_only_a_side_without_a_trick_writes_it(
        ruleset: str, options: list[str]) -> None:
    config = make_configuration(ruleset, options)
    found, why = exercise_tests(config, [ALONE])
    assert why == {}
    expected = found[ALONE]["steps"][-1]["state"]
    assert expected["phase"] == "deal" and expected["result"] is None
    assert max(expected["match_scores"]) >= config.rules.match_target


def test_the_hand_chosen_for_the_pair_alone_leaves_that_side_without_a_trick() -> None:
    rules = load_rules("belote", {"belote_on_failure": "goes_to_winner"})
    state = GameState(rules, first_dealer=0)
    state.match_scores = [rules.match_target - 5, 100]
    rng = SplitMix64(4)
    hand = pair_alone_hand(state, rng, {ALONE})
    assert hand is not None
    deal, actions = hand
    state.deal(list(deal["deck"]), deal["first_player"])
    for text in actions:
        state.apply(parse_action(rules, text))
    assert state.phase == Phase.DEAL and state.tricks_won[0] == 0
    assert state.no_win == 1 and state.match_scores[0] >= rules.match_target


@pytest.mark.parametrize("ruleset,options", [
    ("thousand", ["players=2"]), ("thousand-2", ["opening_bid=dealer_auto_100"])])
def test_the_auctions_turns_are_exercised_with_two_players(
        ruleset: str, options: list[str]) -> None:
    config = make_configuration(ruleset, options)
    found, why = exercise_tests(config, ["thousand.auction"])
    assert why == {}
    test = found["thousand.auction"]
    last = test["steps"][-1]
    # a bid or pass after which the auction goes on: the state after it names who speaks
    assert last["state"]["phase"] == "auction" and last["state"]["to_act"] is not None
    assert last["act"] in last["legal"]


@pytest.mark.parametrize("ruleset,options", [
    ("thousand-4", ["raise_allowed=false"]), ("thousand-4", ["opening_bid=none"]),
    pytest.param("thousand-pl", ["redeal_low_hand=30"], marks=pytest.mark.slow)])
def test_the_match_end_is_reached_where_the_lowest_bids_never_end_it(
        ruleset: str, options: list[str]) -> None:
    config = make_configuration(ruleset, options)
    ends = match_end_rules(config.rules)
    found, why = exercise_tests(config, sorted(ends))
    assert why == {}, why
    end = found["thousand.match.end"]["steps"][-1]["state"]
    assert end["phase"] == "over"
    assert max(end["match_scores"]) >= config.rules.match_target


def test_a_lowest_contract_never_reaches_the_target_from_the_barrel() -> None:
    """Why the long match of lowest bids never ends where the contract is not raised: a
    seat on the barrel (880) that makes the lowest contract (100) stays below 1000."""
    rules = load_rules("thousand-4", {"raise_allowed": False})
    assert rules.barrel_at + rules.bid_min < rules.match_target


@pytest.mark.parametrize("ruleset", ["thousand", "thousand-2"])
def test_no_hand_is_thrown_in_without_four_nines(ruleset: str) -> None:
    rules = load_rules(ruleset, {"four_nines_redeal": "off"})
    assert REDEAL in unreachable_under(rules)
    assert REDEAL not in unreachable_under(load_rules(ruleset))  # four nines throw in
    # why: nobody may pass the first bid, and no claim to throw a hand in is open
    rng = SplitMix64(7)
    for _ in range(40):
        state = GameState(rules, first_dealer=0)
        cards = list(range(rules.ncards))
        rng.shuffle(cards)
        state.deal([rules.card_code[c] for c in cards])
        with pytest.raises(IllegalActionError):
            state.clone().apply(Pass())
        while state.phase not in (Phase.DEAL, Phase.OVER):
            with pytest.raises(IllegalActionError):
                state.clone().apply(Redeal())
            acts = state.legal_actions()
            state.apply(acts[rng.below(len(acts))])
        assert state.hand_over_reason != "redeal"


def test_a_hand_nobody_bids_is_thrown_in_where_nobody_must_open() -> None:
    rules = load_rules("thousand-4", {"four_nines_redeal": "off", "opening_bid": "none"})
    assert REDEAL not in unreachable_under(rules)
    state = GameState(rules, first_dealer=0)
    state.deal(list(rules.card_code))
    while state.phase == Phase.AUCTION:
        state.apply(Pass())
    assert state.hand_over_reason == "redeal"



def test_the_unreachable_rules_are_worked_out_on_first_use() -> None:
    """Importing the coverage module (which ``derive`` imports, so every ``conformance``
    command) compiles no rules: ``UNREACHABLE`` looks them up on first use (it compiled
    the 22 bundled rulesets at import, 1.8 CPU-s cold)."""
    code = ("import mariage.conformance.derive, mariage.spec.rulesload as r; "
            "n = len(r._RULES_CACHE); from mariage.conformance.coverage import UNREACHABLE; "
            "print(n, len(r._RULES_CACHE), 'mariglia mariglia.match.tie' in UNREACHABLE, "
            "len(r._RULES_CACHE) > n)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(Path(__file__).resolve().parent.parent / "reference"),
         os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=120, check=True).stdout.split()
    assert out == ["0", "0", "True", "True"], out
    assert UNREACHABLE[f"thousand-2 {ACE_ONCE}"] == UNREACHABLE[f"thousand {ACE_ONCE}"]
    assert all(rule != ACE_ONCE for rule in (k.split()[1] for k in UNREACHABLE
                                             if not k.startswith("thousand")))
