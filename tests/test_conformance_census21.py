"""The match's end under a target out of reach of play (twenty-first session): Thousand
to 1,200, where the barrel holds a total at 880 and only a made contract of 320 (three
marriages held and declared) takes it to the target, and Thousand for four with a low
hand dealt again below 60 card points. The search's matches of hands built to climb to
the end (:mod:`mariage.conformance.climb`) reach it; before them the census left the
match's end, the rule on a level match and the win check unchecked there (and the
refusal of an action after the end with two players and in the Polish rules)."""

from __future__ import annotations

import pytest
from mariage import GameState, load_rules
from mariage.conformance.builthands import built_rules
from mariage.conformance.climb import _packs, climb_hand, climber
from mariage.conformance.configuration import make_configuration
from mariage.conformance.exacttop import exact_top_hand, exact_top_rules
from mariage.conformance.exercise import (
    CLIMB_STEPS,
    _walk,
    exercise_tests,
    match_end_rules,
)
from mariage.conformance.ruleprobe import ending_rules
from mariage.engine.actiontext import parse_action
from mariage.engine.prng import SplitMix64
from mariage.engine.state import Phase

HIGH = [
    ("thousand", ["target=1200"]),
    ("thousand-2", ["target=1200"]),
    ("thousand-4", ["target=1200"]),
    ("thousand-pl", ["target=1200"]),
    ("thousand-4", ["redeal_low_hand=60"]),
]


def _climb(ruleset: str, options: dict[str, object], seed: int
           ) -> tuple[GameState, list[list[str]], list[int]]:
    rules = load_rules(ruleset, options)
    state = GameState(rules, first_dealer=0)
    rng = SplitMix64(seed)
    hands: list[list[str]] = []
    before: list[int] = []
    while state.phase != Phase.OVER and len(hands) < 12:
        before = list(state.match_scores)
        built = climb_hand(state, rng, match_end_rules(rules))
        assert built is not None
        deal, actions = built
        state.deal(list(deal["deck"]), deal["first_player"])
        for text in actions:
            state.apply(parse_action(rules, text))
        hands.append(actions)
    return state, hands, before


@pytest.mark.parametrize("ruleset", ["thousand", "thousand-2", "thousand-4", "thousand-pl"])
@pytest.mark.parametrize("seed", [1, 2])
def test_built_hands_climb_to_1200_past_the_barrel(ruleset: str, seed: int) -> None:
    """Fails if the climber is not dealt its marriages, does not declare them, or bids
    below what it makes: the barrel (880, or Poland's 800) is never left for 1,200."""
    state, hands, before = _climb(ruleset, {"target": 1200}, seed)
    assert state.phase == Phase.OVER and state.terminal
    assert max(state.match_scores) >= 1200 and len(hands) <= 8
    last = hands[-1]
    assert sum(a.startswith("marriage:") for a in last) >= 3  # three marriages declared
    winner = state.match_scores.index(max(state.match_scores))
    bid = max(int(a.split(":")[1]) for a in last if a.startswith("bid:"))
    assert before[winner] + bid >= 1200  # the contract took it there (320 from 880)
    rules = state.rules
    if rules.barrel_clamp:  # never past the barrel (880) but by winning
        assert before[winner] <= rules.barrel_at
    if ruleset in ("thousand", "thousand-4"):  # 340 to 360 a hand: held at 880 first
        assert before[winner] == rules.barrel_at and bid >= 1200 - rules.barrel_at


def test_the_climber_is_dealt_cards_and_leads_the_totals() -> None:
    rules = load_rules("thousand-4", {"target": 1200})
    state = GameState(rules, first_dealer=0)  # the dealer sits the hand out
    assert climber(state) == 1
    state.match_scores[:] = [0, 0, 300, 500]
    assert climber(state) == 3
    packs = [(" ".join(rules.card_code[c] for c in rules.cards_of(m)), v)
             for m, v in _packs(rules)]
    assert packs == [("KH QH", 100), ("KD QD", 80), ("KC QC", 60), ("KS QS", 40)]
    assert _packs(load_rules("belote")) == []  # no declaration of cards held: nothing built


@pytest.mark.parametrize("ruleset,options", HIGH)
def test_a_match_of_climbing_hands_checks_the_match_end(ruleset: str,
                                                        options: list[str]) -> None:
    """Fails without the climbing walk: its match never ends within the bound."""
    config = make_configuration(ruleset, options)
    ends = match_end_rules(config.rules)
    found: dict[str, dict[str, object]] = {}
    _walk(config, 1, set(ends), found, max_steps=CLIMB_STEPS, probe=False, climb=True)
    r = config.rules
    assert set(found) >= {r.match_rule, r.tie_rule, r.win_rule_id, r.core_over}
    test = found[r.win_rule_id]
    steps = test["steps"]
    assert isinstance(steps, list)
    end = steps[-1]["state"]
    assert end["phase"] == "over"
    assert max(end["match_scores"]) >= config.rules.match_target


@pytest.mark.slow
def test_the_search_checks_thousand_to_1200() -> None:
    """The whole search (about 20 s): the census row of ``thousand target=1200`` was
    44 of 47, these three unchecked."""
    config = make_configuration("thousand", ["target=1200"])
    wanted = ["thousand.match.end", "thousand.match.tie", "thousand.running.win"]
    found, why = exercise_tests(config, wanted)
    assert why == {} and sorted(found) == wanted


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_built_hand_ends_at_exactly_sixty_under_a_target_of_one(seed: int) -> None:
    """Fails if the holder's declarations do not sum to 60 or a trick takes a point: the
    hand then ends at the first point scored, never at 60."""
    rules = load_rules("mariazza", {"target": 1})
    state = GameState(rules, first_dealer=0)
    built = exact_top_hand(state, SplitMix64(seed))
    assert built is not None
    deal, actions = built
    state.deal(list(deal["deck"]), deal["first_player"])
    for text in actions:
        state.apply(parse_action(rules, text))
    last = state.history[-1]
    assert max(last.points) == 60 and last.winner is None  # nobody takes the segno
    assert state.match_scores == [0, 0] and state.phase == Phase.DEAL
    assert sum(a.startswith("mariazza:") for a in actions) == 2
    assert ending_rules(state, True) >= {"mariazza.score.sixty"}


def test_the_sixty_is_built_for_only_where_held_declarations_make_it() -> None:
    assert exact_top_rules(load_rules("mariazza", {"target": 1})) == {"mariazza.score.sixty"}
    assert "mariazza.score.sixty" in built_rules(load_rules("mariazza"))
    assert exact_top_rules(load_rules("marianna")) == set()  # no void top score
    assert exact_top_rules(load_rules("thousand")) == set()


def test_the_search_checks_the_sixty_under_a_target_of_one() -> None:
    """Fails without the built hand (the census row was 27 of 28, this rule unchecked)."""
    config = make_configuration("mariazza", ["target=1"])
    found, why = exercise_tests(config, ["mariazza.score.sixty"])
    assert why == {}
    last = found["mariazza.score.sixty"]["steps"][-1]
    assert last["rules"] == ["mariazza.score.sixty"]
