"""The rules the census found unchecked under single house rules outside the Belote and
Thousand families, now exercised by the search or argued unreachable (issue #22,
sixteenth session): the cut-off of Marianna's whole-hand declarations under
``trick_six`` (a mariannino refused by the declarations' window), the score of the seat
sitting the hand out in three-handed Sixty-six, and the once-a-suit limit of a marriage
declared by leading its king or its queen (unreachable)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from mariage import load_rules, new_match
from mariage.conformance.configuration import make_configuration
from mariage.conformance.coverage import unreachable_under
from mariage.conformance.exercise import exercise_tests
from mariage.conformance.protocol import state_json
from mariage.conformance.ruleprobe import refusals
from mariage.conformance.stepnames import (
    asked_this_trick,
    cut_off_refusals,
    hand_end_rules,
    spent_declaration_refusals,
)
from mariage.engine.actions import Answer, AskPartner, Declare
from mariage.engine.actiontext import parse_action
from mariage.engine.prng import SplitMix64
from mariage.engine.rules import Rules
from mariage.engine.state import GameState, Phase
from mariage.errors import IllegalActionError
from test_conformance_brink import _replay

CUT_OFF = "marianna.decl.combination-window"
SITTER = "sixty-six-3.score.dealer"
ONCE = "schnapsen.decl.once"


def _first_hands(rules: Rules, seeds: int, eager: type | tuple[type, ...]
                 ) -> Iterator[GameState]:
    """Each state of the first hand of seeded matches, before its step: the first
    action of an ``eager`` kind is taken where one is legal, else a seeded one."""
    for seed in range(1, seeds + 1):
        state, rng = new_match(rules, seed=seed), SplitMix64(seed)
        for _ in range(400):
            if state.phase in (Phase.DEAL, Phase.OVER):
                break
            yield state
            acts = state.legal_actions()
            keen = [a for a in acts if isinstance(a, eager) and getattr(a, "yes", True)]
            state.apply(keen[0] if keen else acts[rng.below(len(acts))])


def _every_declaration(rules: Rules) -> list[Declare]:
    return [Declare(d, suit) for d in range(len(rules.declarations))
            for suit in range(len(rules.suits))]


@pytest.mark.parametrize("ruleset", ["marianna", "marianna-2", "marianna-siciliana"])
def test_the_cut_off_is_unreachable_under_trick_six(ruleset: str) -> None:
    rules = load_rules(ruleset, {"trick_six": True})
    assert CUT_OFF in unreachable_under(rules)
    assert CUT_OFF not in unreachable_under(load_rules(ruleset))  # a full hand after it
    whole = min(d.size for d in rules.declarations if d.whole_hand)
    closed = 0
    for state in _first_hands(rules, 8, Declare):  # once the window is closed ...
        if state.trick_no > state.draw_tricks + 1 and state.to_act is not None:
            closed += 1
            assert state.hands[state.to_act].bit_count() < whole  # ... too few cards
            assert cut_off_refusals(state) == {}
    assert closed > 0


def test_the_cut_off_is_named_only_on_a_whole_hand_declaration_the_seat_holds() -> None:
    rules = load_rules("marianna")
    decls, closed = new_match(rules, seed=1).mech.declarations, 0
    for state in _first_hands(rules, 8, Declare):
        named = cut_off_refusals(state)
        if state.trick_no > state.draw_tricks and state.to_act is not None:
            closed += 1
        for tried, window in named.values():
            d = rules.declarations[tried.decl]
            assert d.whole_hand and window == d.window_rule
            assert tried.suit in decls.melds(state, d, state.to_act, state.hands[state.to_act])
    assert closed > 0


def test_no_cut_off_of_its_own_where_the_combinations_have_their_own_window() -> None:
    assert load_rules("marianna", {"combination_window": "any_trick"}) \
        .decl_combo_window_rule is None
    assert load_rules("marianna", {"trick_six": True}).decl_combo_window_rule == CUT_OFF
    assert load_rules("schnapsen").decl_combo_window_rule is None


@pytest.mark.parametrize("option", ["close_allowed=false", "turnup_after=first_round",
                                    "claim_mode=auto"])
def test_the_score_of_the_seat_sitting_out_is_found(option: str) -> None:
    config = make_configuration("sixty-six-3", [option])
    found, why = exercise_tests(config, [SITTER])
    assert why == {}
    test = found[SITTER]
    expected = test["steps"][-1]["state"]
    assert expected["last_hand"] is not None and expected["phase"] in ("deal", "over")
    got = state_json(_replay(config.rules, test))
    assert {k: got[k] for k in expected} == expected
    if expected["last_hand"]["winner"] is not None:  # an engine where he scores nothing
        lax = state_json(_replay(replace(config.rules, sitter_score="none"), test))
        assert lax["match_scores"] != expected["match_scores"]


@pytest.mark.parametrize("ruleset", ["schnapsen", "sixty-six", "sixty-six-3"])
@pytest.mark.parametrize("lead", ["king", "queen"])
def test_once_a_suit_is_unreachable_where_the_king_or_the_queen_is_led(ruleset: str,
                                                                       lead: str) -> None:
    rules = load_rules(ruleset, {"marriage_lead": lead})
    assert ONCE in unreachable_under(rules)
    # every marriage tried at every step of seeded matches: never refused by the limit,
    # though marriages are declared
    every, declared = _every_declaration(rules), 0
    for state in _first_hands(rules, 6, Declare):
        assert ONCE not in refusals(state, every)
        declared += any(isinstance(a, Declare) for a in state.legal_actions())
    assert declared > 0


def test_once_a_suit_stays_reachable_where_a_card_of_another_suit_may_be_led() -> None:
    rules = load_rules("schnapsen", {"marriage_lead": "queen"})
    d = rules.declarations[0]
    other = replace(d, lead_masks=tuple(m | rules.suit_mask[0] for m in d.lead_masks))
    assert ONCE not in unreachable_under(replace(rules, declarations=(other,)))


def _lax_replay(rules: Rules, test: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """Replay ``test`` under ``rules`` to its last step: the rule that refuses that step
    (``None`` if taken) and the state after it."""
    state = _replay(rules, {**test, "steps": test["steps"][:-1]})
    try:
        state.apply(parse_action(rules, test["steps"][-1]["act"]))
    except IllegalActionError as exc:
        return exc.rule_id, state_json(state)
    return None, state_json(state)


@pytest.mark.parametrize("ruleset", ["marianna-siciliana", "cinquecento-siciliana"])
def test_a_declaration_after_an_ask_is_found_and_tells_an_engine_leaving_it_open(
        ruleset: str) -> None:
    rule = "siciliana.ask.declaration"
    config = make_configuration(ruleset, ["declare_who=leader"])
    found, why = exercise_tests(config, [rule])
    assert why == {}
    per_trick = config.rules.decl_per_trick_rule
    test = found[rule]
    assert test["rules"] == [rule, per_trick]
    assert test["steps"][-1]["error"]["rule"] == per_trick
    assert any(step.get("act", "").startswith("ask:") for step in test["steps"])
    assert _lax_replay(config.rules, test)[0] == per_trick
    open_rules = replace(config.rules, asks=tuple(
        replace(a, uses_declaration=False) for a in config.rules.asks))
    assert _lax_replay(open_rules, test)[0] != per_trick  # taken, or refused otherwise


@pytest.mark.parametrize("ruleset", ["marianna-siciliana", "cinquecento-siciliana"])
def test_a_split_marriage_counted_in_the_order_is_found(ruleset: str) -> None:
    rule = "siciliana.split.order"
    config = make_configuration(ruleset, [])
    found, why = exercise_tests(config, [rule])
    assert why == {}
    test = found[rule]
    assert test["steps"][-1]["act"].startswith("marianna:")
    expected = test["steps"][-1]["state"]
    _, got = _lax_replay(config.rules, test)
    assert {k: got[k] for k in expected} == expected
    outside = replace(config.rules, asks=tuple(
        replace(a, ordered=not a.ordered) for a in config.rules.asks))
    _, lax = _lax_replay(outside, test)
    assert {k: lax[k] for k in expected} != expected


def test_a_spoiled_split_marriage_is_found() -> None:
    rule = "siciliana.split.spoiled"
    config = make_configuration("marianna-siciliana", [])
    found, why = exercise_tests(config, [rule])
    assert why == {}
    test = found[rule]
    expected = test["steps"][-1]["state"]
    _, got = _lax_replay(config.rules, test)
    assert {k: got[k] for k in expected} == expected
    never = replace(config.rules, asks=tuple(
        replace(a, spoiled_by="never") for a in config.rules.asks))
    _, lax = _lax_replay(never, test)
    assert len(lax["declared"]) > len(expected["declared"])  # the split scored after all


@pytest.mark.parametrize("option", ["declare_who=leader", "declare_when=trick_start"])
def test_no_declaration_spoils_a_split_where_only_the_asker_or_a_window_declares(
        option: str) -> None:
    config = make_configuration("marianna-siciliana", [option])
    rules = config.rules
    unreachable = unreachable_under(rules)
    assert "siciliana.split.spoiled" in unreachable
    assert ("siciliana.ask.declaration" in unreachable) == (option != "declare_who=leader")
    assert not {"siciliana.split.spoiled", "siciliana.ask.declaration"} & set(
        unreachable_under(load_rules("marianna-siciliana")))
    every, splits = _every_declaration(rules), 0
    for state in _first_hands(rules, 40, (AskPartner, Answer)):
        if state.split is not None and state.to_act is not None:  # in a split's trick
            splits += 1
            assert state.split[1] == rules.team_of[state.to_act] or not any(
                isinstance(a, Declare) for a in state.legal_actions())
        if option == "declare_when=trick_start" and asked_this_trick(state) is not None:
            assert rules.decl_per_trick_rule not in refusals(state, every)
    assert splits > 0


@pytest.mark.parametrize("option", ["pack_size=32", "pack_size=28", "answers=may_refuse"])
def test_an_ask_settled_at_once_is_found(option: str) -> None:
    config = make_configuration("marjapussi", [option])
    wanted = ["marjapussi.ask.any.settle", "marjapussi.ask.half.settle"]
    found, why = exercise_tests(config, wanted)
    assert why == {}
    for rule in wanted:
        test = found[rule]
        assert test["steps"][-1]["act"].startswith("yes")
        expected = test["steps"][-1]["state"]
        assert expected["declared"]  # the marriage declared for the side at once
        _, got = _lax_replay(config.rules, test)
        assert {k: got[k] for k in expected} == expected
        before = state_json(_replay(config.rules, {**test, "steps": test["steps"][:-1]}))
        assert len(before["declared"]) < len(expected["declared"])  # declared by the yes
    half = found["marjapussi.ask.half.settle"]  # an engine settling it with the trick
    later = replace(config.rules, asks=tuple(
        replace(a, settle="on_trick_win") for a in config.rules.asks))
    expected = half["steps"][-1]["state"]
    _, lax = _lax_replay(later, half)
    assert {k: lax[k] for k in expected} != expected


@pytest.mark.parametrize("option", ["sole_bidder_may_raise_before_exchange=true",
                                    "deal_packet_size=3", "all_pass=redeal"])
def test_the_contract_and_the_calls_are_found_in_german_marjapussi(option: str) -> None:
    config = make_configuration("marjapussi-de", [option])
    rules = config.rules
    wanted = [rules.contract_result_rule, rules.calls_rule, rules.call_trump_rule]
    found, why = exercise_tests(config, [w for w in wanted if w])
    assert why == {}
    result = found[rules.contract_result_rule]
    assert result["steps"][-1]["state"]["last_hand"]["ended"] == "played_out"
    who = found[rules.calls_rule]["steps"][-1]
    assert who["act"].startswith("call") and who["error"]["rule"] == rules.calls_rule
    trump = found[rules.call_trump_rule]
    expected = trump["steps"][-1]["state"]
    assert expected["trump"] is not None  # the call made its suit trump
    _, got = _lax_replay(rules, trump)
    assert {k: got[k] for k in expected} == expected


def test_a_call_of_a_suit_called_already_is_refused_by_its_own_rule() -> None:
    config = make_configuration("marjapussi-de", [])
    rule = config.rules.call_once_rule
    found, why = exercise_tests(config, [rule])
    assert why == {}
    last = found[rule]["steps"][-1]
    assert last["error"]["rule"] == rule
    suit = last["act"].split(":")[-1]
    before = [s.get("act", "") for s in found[rule]["steps"][:-1]]
    assert f"call:{suit}" in before or f"yes:{suit}" in before  # that suit called before


def test_the_last_trick_and_a_drawn_hand_carried_are_found_in_another_deal() -> None:
    config = make_configuration("sixty-six-4", ["deal_packets=2-2-2-2"])
    rules = config.rules
    found, why = exercise_tests(config, [rules.draw_bonus_rule, rules.last_trick_rule])
    assert why == {}
    for rule, lax_rules in ((rules.last_trick_rule, replace(rules, last_trick_points=0)),
                            (rules.draw_bonus_rule, replace(rules, draw_bonus=0))):
        test = found[rule]
        expected = test["steps"][-1]["state"]
        assert expected["last_hand"]["ended"] == "played_out"
        _, got = _lax_replay(rules, test)
        assert {k: got[k] for k in expected} == expected
        _, lax = _lax_replay(lax_rules, test)  # an engine without the rule ends elsewhere
        assert {k: lax[k] for k in expected} != expected
    drawn = found[rules.draw_bonus_rule]
    before = _replay(rules, {**drawn, "steps": drawn["steps"][:-1]})
    assert before.history[-1].winner is None  # the hand before it was drawn


@pytest.mark.parametrize("ruleset,option,rules", [
    ("mariazza", "target=1", ["mariazza.decl.per-trick", "mariazza.decl.once"]),
    ("marjapussi-de", "hands=1", ["marjapussi-de.play.first-trick-ace"]),
])
def test_more_seeded_matches_reach_the_rules_of_short_matches(ruleset: str, option: str,
                                                              rules: list[str]) -> None:
    config = make_configuration(ruleset, [option])
    found, why = exercise_tests(config, rules)
    assert why == {}
    for rule in rules:
        test = found[rule]
        assert "the deal of seed 1" in test["description"]  # seeds from 100: the more
        state = _replay(config.rules, {**test, "steps": test["steps"][:-1]})
        with pytest.raises(IllegalActionError) as err:
            state.apply(parse_action(config.rules, test["steps"][-1]["act"]))
        assert err.value.rule_id == test["steps"][-1]["error"]["rule"]


def test_no_more_matches_where_only_the_match_end_is_left() -> None:
    from mariage.conformance.exercise import _more_matches
    config = make_configuration("mariazza", ["hands=5000"])
    assert _more_matches(config, {"mariazza.match.tie"}, {}) == (0, 0)


def test_the_deals_of_stored_tests_are_walked_for_a_rule_left_after_others_were_found() -> None:
    config = make_configuration("sixty-six-3", ["claim_mode=auto"])
    rules = ["sixty-six-3.score.played-out", "sixty-six-3.score.dealer"]
    found, why = exercise_tests(config, rules)
    assert why == {}
    assert "the deal of the stored test" in found[rules[0]]["description"]
    assert found[rules[0]]["steps"][-1]["state"]["last_hand"]["ended"] == "played_out"


@pytest.mark.parametrize("ruleset", ["marianna-siciliana", "cinquecento-siciliana"])
def test_a_declaration_after_an_ask_is_named_only_where_the_asker_holds_it(
        ruleset: str) -> None:
    rules = load_rules(ruleset, {"declare_who": "leader"})
    asked = 0
    for state in _first_hands(rules, 40, (AskPartner, Answer, Declare)):
        if asked_this_trick(state) is None:
            continue
        asked += 1
        for tried, _ in spent_declaration_refusals(state).values():
            fresh = state.clone()  # the same step had the ask not used his declaration
            fresh.decl_this_trick[fresh.to_act] = 0
            assert tried in fresh.legal_actions()
    assert asked > 0  # (the search finds one he holds: the test above)


def _hand_ends(rules: Rules, seeds: int) -> Iterator[GameState]:
    """The state just after each hand of seeded matches ends (before the next deal)."""
    over = (Phase.DEAL, Phase.OVER)
    for seed in range(1, seeds + 1):
        state, rng = new_match(rules, seed=seed), SplitMix64(seed)
        for _ in range(3000):
            if state.phase == Phase.OVER:
                break
            acts = state.legal_actions()
            before = state.phase
            state.apply(acts[rng.below(len(acts))])
            if before not in over and state.phase in over:
                yield state


@pytest.mark.parametrize("ruleset,options", [("marjapussi-de", []),
                                             ("sixty-six-4", ["deal_packets=2-2-2-2"]),
                                             ("belote", [])])
def test_the_hand_end_names_schwarz_and_the_last_trick_only_where_they_count(
        ruleset: str, options: list[str]) -> None:
    rules = make_configuration(ruleset, options).rules
    ends = 0
    for state in _hand_ends(rules, 12):
        ends += 1
        named = hand_end_rules(state, True)
        played_out = state.hand_over_reason == "played_out"
        if rules.schwarz_rule:
            assert (rules.schwarz_rule in named) == (
                played_out and 0 in state.tricks_won[:len(rules.teams)])
        if rules.last_trick_rule and rules.last_trick_points:
            assert (rules.last_trick_rule in named) == (played_out and not (
                rules.takers_rule and rules.hand_size + state.draw_tricks
                in state.tricks_won[:len(rules.teams)]))
    assert ends > 0


def test_a_capot_is_not_named_as_the_last_trick_s_points() -> None:
    rules = load_rules("belote")
    for state in _hand_ends(rules, 12):
        if state.hand_over_reason != "played_out":
            continue
        assert rules.last_trick_rule in hand_end_rules(state, True)
        state.tricks_won = [0] * len(state.tricks_won)  # one team took every trick
        state.tricks_won[0] = rules.hand_size + state.draw_tricks
        assert rules.last_trick_rule not in hand_end_rules(state, True)
        return
    pytest.fail("no Belote hand played out")


def test_the_schwarz_and_last_trick_tests_end_where_those_rules_count() -> None:
    config = make_configuration("marjapussi-de", [])
    rule = config.rules.schwarz_rule
    found, why = exercise_tests(config, [rule])
    assert why == {}
    ended = _replay(config.rules, found[rule]).history[-1]
    assert ended.ended == "played_out" and 0 in ended.tricks  # a side took no trick
    config = make_configuration("sixty-six-4", ["deal_packets=2-2-2-2"])
    rule = config.rules.last_trick_rule
    found, why = exercise_tests(config, [rule])
    assert why == {}
    assert _replay(config.rules, found[rule]).history[-1].ended == "played_out"


@pytest.mark.parametrize("ruleset", ["marjapussi-de", "sixty-six-4"])
def test_a_hand_not_played_out_names_neither_the_last_trick_nor_schwarz(
        ruleset: str) -> None:
    rules = load_rules(ruleset)
    state = next(_hand_ends(rules, 1))
    assert rules.last_trick_rule in hand_end_rules(state, True)
    state.hand_over_reason = "redeal"  # the same end, had the hand been thrown in
    assert not {rules.last_trick_rule, rules.schwarz_rule} & hand_end_rules(state, True)


@pytest.mark.parametrize("ruleset", ["marianna-siciliana", "cinquecento-siciliana"])
def test_a_split_stays_spoilable_where_the_asker_may_still_declare(ruleset: str) -> None:
    options = {"declare_who": "leader", "split_spoiled_by": "any",
               "split_ask": "may_declare"}
    rules = load_rules(ruleset, options)
    assert "siciliana.split.spoiled" not in unreachable_under(rules)
    assert "siciliana.split.spoiled" in unreachable_under(  # asking uses it up
        load_rules(ruleset, {**options, "split_ask": "uses_turn"}))
    splits = 0  # the asker, answered, may still declare (a marianna held) in its trick
    for state in _first_hands(rules, 40, (AskPartner, Answer)):
        if state.split is not None and state.to_act == state.leader \
                and not state.trick_cards:  # answered, before his lead
            splits += 1
            assert state.mech.declarations.offered(state, state.leader)
    assert splits > 0


def test_the_walks_of_stored_deals_stay_within_the_bound_of_further_steps(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from mariage.conformance import exercise
    config = make_configuration("sixty-six-3", ["claim_mode=auto"])
    monkeypatch.setattr(exercise, "MORE_STEPS", 1)  # spent by the first walk
    matches, steps = exercise._more_matches(config, {"sixty-six-3.no-such-rule"}, {},
                                            sorted(config.rules.rule_ids))
    assert matches == 1 and steps >= 1
