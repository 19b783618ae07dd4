"""The census's gaps in Thousand closed in the twenty-second session.

* ``thousand-pl bid_min=400``: the bid cap never acts (forehand holds 400, the ceiling,
  before anyone speaks), so it is argued unreachable
  (:func:`mariage.conformance.unreachable.cap_unreachable`);
* ``thousand-pl four_nines_redeal=original_hand``: a throw-in claimed out of turn now
  names the rules of the hand's end it makes (the hand thrown in and dealt again,
  :func:`mariage.conformance.exercised.aside_rules`), so the search takes the claim for
  them too;
* ``thousand-2 bid_min=205`` and ``bid_min=400``: the matches of hands built to climb
  (:mod:`mariage.conformance.climb`) aim below the target for the barrel, bidding to
  stay under it or defending, where every made contract from 800 ends the match;
* ``belote-coinche bid_min=160``: at the brink, hands chosen for rounding to tell
  (:mod:`mariage.conformance.roundtell`: the side furthest behind makes a contract and
  the other takes one small trick, writing 10 from 5 to 9 points).
"""

from __future__ import annotations

import pytest
from mariage import GameState, load_rules, new_match
from mariage.conformance import brink, climb
from mariage.conformance.brink import brink_rules
from mariage.conformance.configuration import make_configuration
from mariage.conformance.coverage import unreachable_under
from mariage.conformance.exercise import CLIMB_STEPS, LONG_MATCH_STEPS, _walk, exercise_tests
from mariage.conformance.exercised import aside_rules
from mariage.conformance.roundtell import round_tell_hand, round_tell_rules
from mariage.conformance.ruleprobe import refusal_rule, rounding_tells
from mariage.conformance.unreachable import cap_unreachable
from mariage.engine.actions import Bid, Raise, Redeal
from mariage.engine.actiontext import parse_action
from mariage.engine.prng import SplitMix64
from mariage.engine.state import Phase

CAP = "thousand.auction.cap"
REDEAL = "thousand.running.redeal"
BARREL = "thousand.running.barrel"


# ------------------------------------------------------------------ the bid cap
def test_the_cap_is_unreachable_where_the_held_lowest_bid_is_the_ceiling() -> None:
    """Fails if the argument is dropped (the census row was 46 of 47, the cap unchecked)
    or made where the cap can act (Russian forehand must bid 400 only with a marriage:
    a bid of 400 without one is refused by the cap)."""
    held = load_rules("thousand-pl", {"bid_min": 400})
    assert cap_unreachable(held) and CAP in unreachable_under(held)
    for ruleset, options in (("thousand-pl", {}), ("thousand-pl", {"bid_min": 390}),
                             ("thousand", {"bid_min": 400}), ("thousand-2", {"bid_min": 400})):
        rules = load_rules(ruleset, options)
        assert not cap_unreachable(rules) and CAP not in unreachable_under(rules)


def _bids_and_raises(state: GameState) -> list[Bid | Raise]:
    r = state.rules
    return [*(Bid(v) for v in range(r.bid_min, 1001, r.bid_step)),
            *(Raise(v) for v in range(r.bid_min + r.bid_step, 1001, r.bid_step))]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_bid_or_raise_is_refused_by_the_cap_when_the_lowest_bid_is_held_at_400(
        seed: int) -> None:
    """The argument checked on the reference: through a seeded match's auctions and
    contracts, every bid and raise is refused by another rule than the cap."""
    rules = load_rules("thousand-pl", {"bid_min": 400})
    state = new_match(rules, seed)
    rng = SplitMix64(seed)
    looked = 0
    for _ in range(400):
        if state.phase == Phase.OVER:
            break
        if state.phase in (Phase.AUCTION, Phase.CONTRACT) and state.to_act is not None:
            for action in _bids_and_raises(state):
                if action not in state.legal_actions():
                    assert refusal_rule(state, action) != CAP
                    looked += 1
        if state.phase == Phase.DEAL:
            deck = [rules.card_code[c] for c in range(rules.ncards)]
            rng.shuffle(deck)
            state.deal(deck, None)
            continue
        acts = state.legal_actions()
        state.apply(acts[rng.below(len(acts))])
    assert looked > 0


# ------------------------------------------------------------------ the redeal
def test_a_claim_out_of_turn_names_the_hand_thrown_in() -> None:
    """Fails without the hand's end in ``aside_rules``: the claim named only its own
    rule (four nines), never the redeal's."""
    rules = load_rules("thousand-pl", {"four_nines_redeal": "original_hand"})
    seen = False
    for seed in range(1, 400):
        state = GameState(rules, first_dealer=0)
        rng = SplitMix64(seed)
        deck = [rules.card_code[c] for c in range(rules.ncards)]
        rng.shuffle(deck)
        state.deal(deck, None)
        for _ in range(40):
            if state.phase != Phase.AUCTION and state.phase != Phase.PASSING and \
                    state.phase != Phase.CONTRACT:
                break
            for seat in range(rules.nseats):
                if seat != state.to_act and Redeal() in state.legal_actions(seat):
                    named = aside_rules(state, Redeal(), seat)
                    assert {REDEAL, "thousand.throw-in.four-nines"} <= named
                    seen = True
            acts = state.legal_actions()
            state.apply(acts[rng.below(len(acts))])
        if seen:
            break
    assert seen


def test_the_search_checks_the_redeal_where_four_nines_are_the_dealt_hand() -> None:
    """Fails without the hand's end in ``aside_rules``: with the claim's own rule checked
    elsewhere, no step exercised the redeal within the bound (the census row was 46 of
    47)."""
    config = make_configuration("thousand-pl", ["four_nines_redeal=original_hand"])
    found, why = exercise_tests(config, [REDEAL])
    assert why == {}
    last = found[REDEAL]["steps"][-1]
    assert last["act"] == "redeal" and "seat" in last  # claimed out of turn
    assert last["state"]["last_hand"]["ended"] == "redeal"


# ------------------------------------------------------------------ the barrel
@pytest.mark.parametrize("bid_min", [205, 400])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_climbing_match_lands_on_the_barrel(bid_min: int, seed: int) -> None:
    """Fails without the barrel's trials: the climber made 400 a hand, 0, 400, 800,
    then any made contract of 205 or more ended the match at 1,005 or more."""
    config = make_configuration("thousand-2", [f"bid_min={bid_min}"])
    found: dict[str, dict[str, object]] = {}
    _walk(config, seed, {BARREL}, found, max_steps=CLIMB_STEPS, probe=False, climb=True)
    steps = found[BARREL]["steps"]
    assert isinstance(steps, list)
    end = steps[-1]["state"]
    assert end["phase"] == "deal" and config.rules.barrel_at in end["match_scores"]


def test_without_the_barrels_trials_the_climb_passes_it(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """The mechanism switched off (no barrel wanted): the same walk ends the match with
    the barrel never stood on, as in the twenty-first session."""
    monkeypatch.setattr(climb, "barrel_wanted", lambda rules, wanted: set())
    config = make_configuration("thousand-2", ["bid_min=205"])
    found: dict[str, dict[str, object]] = {}
    _walk(config, 1, {BARREL, config.rules.match_rule or ""}, found,
          max_steps=CLIMB_STEPS, probe=False, climb=True)
    assert BARREL not in found and config.rules.match_rule in found


def test_the_climber_defends_from_800_where_every_contract_ends_the_match() -> None:
    """From 800 with bids of 400 only, the kept hand has another seat bid and the
    climber's side defend to the barrel (its card points, 80 to 199)."""
    rules = load_rules("thousand-2", {"bid_min": 400})
    state = GameState(rules, first_dealer=0)
    state.match_scores[:] = [800, 0]
    built = climb.climb_hand(state, SplitMix64(3), {BARREL})
    assert built is not None
    deal, actions = built
    state.deal(list(deal["deck"]), deal["first_player"])
    seat = 0
    for text in actions:
        state.apply(parse_action(rules, text))
    assert state.declarer != seat and state.match_scores[seat] == rules.barrel_at


def test_the_barrel_is_wanted_only_where_a_total_may_stand_on_it() -> None:
    assert climb.barrel_wanted(load_rules("thousand-2"), {BARREL}) == {BARREL}
    assert climb.barrel_wanted(load_rules("thousand-2"), {"thousand.match.end"}) == set()
    assert climb.barrel_wanted(load_rules("thousand", {"target": 850}), {BARREL}) == set()


# ------------------------------------------------------------------ Coinche's rounding
ROUNDED = "belote-coinche.match.rounded-totals"


@pytest.mark.parametrize("seed", [1, 5, 6, 7])
def test_a_chosen_hand_makes_rounding_tell_at_the_target(seed: int) -> None:
    """From 1,990 against 1,600 under bids of 160: the side behind makes its contract,
    the side at 1,990 takes one small trick and writes 2,000 while its exact total stays
    below it. Fails if the defenders take no trick, or a trick worth 10 or more."""
    rules = load_rules("belote-coinche", {"bid_min": 160})
    state = GameState(rules, first_dealer=0)
    state.match_scores[:] = [1990, 1600]
    built = round_tell_hand(state, SplitMix64(seed), {ROUNDED})
    assert built is not None
    deal, actions = built
    state.deal(list(deal["deck"]), deal["first_player"])
    for text in actions:
        state.apply(parse_action(rules, text))
    last = state.history[-1]
    assert last.made and last.declarer % 2 == 1
    assert 5 <= last.points[0] <= 9 and last.score[0] == 10
    exact = [s + e for s, e in zip(state.match_scores, state.round_residue, strict=True)]
    assert state.match_scores[0] == 2000 > exact[0] and rounding_tells(state)


def test_the_rounding_tell_is_chosen_only_where_scores_are_rounded() -> None:
    assert round_tell_rules(load_rules("belote-coinche")) == {ROUNDED}
    assert round_tell_rules(load_rules("belote-coinche", {"rounding": "none"})) == set()
    assert round_tell_rules(load_rules("belote")) == set()
    rules = load_rules("belote-coinche", {"bid_min": 160})
    assert round_tell_hand(GameState(rules, first_dealer=0), SplitMix64(1), set()) is None


def test_the_brink_finds_rounding_under_bids_of_160() -> None:
    """Fails without the chosen hands: the census row was 45 of 46, this rule unchecked
    after every steered match (seed 1 stays at 1,840 and 1,980, every candidate ending
    the match). Seed 2 comes to 1,980 and 1,640, and the chosen hand tells there."""
    config = make_configuration("belote-coinche", ["bid_min=160"])
    found: dict[str, dict[str, object]] = {}
    _walk(config, 2, {ROUNDED}, found, max_steps=LONG_MATCH_STEPS, probe=False,
          steer=frozenset(brink_rules(config.rules)))
    steps = found[ROUNDED]["steps"]
    assert isinstance(steps, list)
    end = steps[-1]["state"]
    assert 2000 in end["match_scores"] and max(end["match_scores"]) < 2100


def test_without_the_chosen_hands_the_brink_misses_it(monkeypatch: pytest.MonkeyPatch
                                                      ) -> None:
    """The mechanism switched off: the same steered match ends without rounding telling."""
    monkeypatch.setattr(brink, "round_tell_hand", lambda state, rng, wanted: None)
    config = make_configuration("belote-coinche", ["bid_min=160"])
    found: dict[str, dict[str, object]] = {}
    _walk(config, 2, {ROUNDED}, found, max_steps=LONG_MATCH_STEPS, probe=False,
          steer=frozenset(brink_rules(config.rules)))
    assert ROUNDED not in found
