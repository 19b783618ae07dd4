"""The fault search's short cuts (twenty-third and thirty-first sessions) give what the full
comparison gives: the hands compared as bit masks before any card is named, the raw fields
of the view compared before any view is made, and the same actions of equal rules taken
as the same texts."""

from __future__ import annotations

from typing import Any

import pytest
from mariage import GameState, load_rules
from mariage.conformance import faultsearch
from mariage.conformance.faultsearch import _diff, _Found, _legal_step, _norm, _Texts
from mariage.conformance.protocol import state_json, view_key
from mariage.engine.prng import SplitMix64
from mariage.engine.state import Phase

RULESETS = ["marianna", "schnapsen", "thousand", "belote", "marjapussi-de"]


def _full_diff(ref: GameState, bad: GameState) -> dict[str, Any]:
    """The comparison without short cuts: both states named whole."""
    want = state_json(ref)
    norm, have = _norm(want), _norm(state_json(bad))
    if norm == have:
        return {}
    return {k: v for k, v in want.items() if norm[k] != have.get(k)}


def _states(ruleset: str, seed: int, steps: int = 120) -> list[GameState]:
    """Copies of one seeded match, one after each step."""
    rules = load_rules(ruleset)
    state = GameState(rules, first_dealer=0)
    rng = SplitMix64(seed)
    out = []
    for _ in range(steps):
        if state.phase == Phase.OVER:
            break
        if state.phase == Phase.DEAL:
            cards = list(range(rules.ncards))
            rng.shuffle(cards)
            state.deal([rules.card_code[c] for c in cards])
        else:
            acts = state.legal_actions()
            state.apply(acts[rng.below(len(acts))])
        out.append(state.clone())
    return out


def _moved_card(state: GameState) -> GameState:
    """``state`` with the lowest card of the first hand holding one moved to the next."""
    other = state.clone()
    for seat, hand in enumerate(other.hands):
        if hand:
            low = hand & -hand
            other.hands[seat] ^= low
            other.hands[(seat + 1) % len(other.hands)] |= low
            break
    return other


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_short_cut_finds_what_the_whole_comparison_finds(ruleset: str) -> None:
    moved = changed = 0
    for ref in _states(ruleset, 7):
        key = view_key(ref, ref.clone())
        assert key is not None
        assert _diff(ref, ref.clone()) == {} == _full_diff(ref, ref.clone())
        assert _diff(ref, ref.clone(), key) == {}
        other = _moved_card(ref)
        got = _diff(ref, other)
        assert got == _full_diff(ref, other) == _diff(ref, other, key)
        moved += "hands" in got
        scored = ref.clone()
        scored.match_scores[0] += 10
        assert _diff(ref, scored) == _full_diff(ref, scored) == _diff(ref, scored, key) != {}
        changed += 1
    assert moved >= 20 and changed >= 20  # hands in play differ; between hands none shown


def test_no_view_key_where_equal_fields_could_show_otherwise() -> None:
    class _OwnPoints(GameState):
        def hand_points(self, team: int) -> int:
            return 0

    rules = load_rules("marianna")
    plain = GameState(rules)
    assert view_key(plain, GameState(rules)) is not None
    assert view_key(plain, _OwnPoints(rules)) is None  # the view calls its own method
    assert view_key(plain, GameState(load_rules("marianna-siciliana"))) is None  # names


@pytest.mark.parametrize("ruleset", RULESETS)
def test_equal_rules_still_find_a_missing_or_an_extra_action(ruleset: str) -> None:
    rules = load_rules(ruleset)
    texts = (_Texts(rules), _Texts(rules))
    found = 0
    for ref in _states(ruleset, 11):
        if ref.to_act is None or ref.phase != Phase.PLAY:
            continue
        _legal_step(ref, ref.clone(), rules, texts, True)  # the same: nothing found
        other = _moved_card(ref) if ref.hands[ref.to_act] else ref.clone()
        if other.legal_actions() == ref.legal_actions():
            continue
        with pytest.raises(_Found):
            _legal_step(ref, other, rules, texts, True)
        found += 1
    assert found >= 5


def test_a_walk_takes_the_short_cut_only_for_rules_equal_in_every_field() -> None:
    from mariage.conformance.configuration import make_configuration
    from mariage.conformance.faulty import FAULTS, FaultyEngine

    config = make_configuration("mariglia", [])
    same = [f for f in FAULTS.values() if f.rule in config.rules.rule_ids]
    walks = []
    for fault in same[:6]:
        engine = FaultyEngine(fault)
        frules = engine.make_rules(config.ruleset, config.options)
        walk = faultsearch._Walk(config, engine, frules, 1)
        walks.append(walk.same)
        assert walk.same == faultsearch.same_rules(frules, config.rules)
    assert len(walks) == 6


def test_the_record_of_a_walk_that_finds_a_difference_is_its_match() -> None:
    """The record is made after the search (the walk's deals and actions played again),
    not as every walk goes: read back, it holds each deal and action of the walk."""
    from mariage.conformance.configuration import make_configuration
    from mariage.conformance.faulty import FaultyEngine
    from mariage.notation import Act, check_record, parse_record

    config = make_configuration("schnapsen", [])
    fault = next(f for f in faultsearch.faults_for(config.rules)
                 if f.name == "no-head@schnapsen.play.head")
    engine = FaultyEngine(fault)
    walk = faultsearch._Walk(config, engine, engine.make_rules(config.ruleset, config.options),
                             5)  # the seed where the search finds it
    with pytest.raises(_Found):
        walk.run()
    deals = sum(isinstance(given, tuple) for given in walk.played)
    record = parse_record(walk.record())
    assert check_record(record).errors == []
    assert len(record.hands) == deals >= 3
    acts = sum(isinstance(item, Act) for hand in record.hands for item in hand.items)
    assert acts == len(walk.played) - deals >= 30


def _first_sets(ruleset: str) -> GameState:
    """A seeded match of ``ruleset`` at its first step whose actions are sets of cards."""
    from mariage.engine.mechanisms.passing import CardSets

    for state in _states(ruleset, 3, 400):
        if isinstance(state.legal_actions(), CardSets):
            return state
    raise AssertionError(f"no sets of cards to pass in {ruleset}")


@pytest.mark.parametrize("ruleset", ["marjapussi-de", "thousand"])
def test_other_rules_with_the_same_actions_are_named_before_they_pass(ruleset: str) -> None:
    """Other rules whose legal actions are the same (sets of cards to pass included) pass
    unnamed only where they name each alike: cards named otherwise are found."""
    import dataclasses

    from mariage.engine.actiontext import action_text

    ref = _first_sets(ruleset)
    rules = ref.rules
    found = 0
    for renamed in (rules.card_code, tuple(c.lower() for c in rules.card_code)):
        other_rules = dataclasses.replace(rules, card_code=renamed)
        texts = (_Texts(rules), _Texts(other_rules))
        for state in (ref, *_states(ruleset, 5)):
            if state.to_act is None or state.phase in (Phase.DEAL, Phase.OVER):
                continue
            theirs = state.clone()
            theirs.rules = other_rules
            legal = state.legal_actions()
            if any(action_text(rules, a) != action_text(other_rules, a) for a in legal):
                with pytest.raises(_Found):
                    _legal_step(state, theirs, rules, texts, False, None, {})
                found += 1
            else:
                _legal_step(state, theirs, rules, texts, False, None, {})
    assert found >= 20
