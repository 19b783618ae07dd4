"""Per-rule tests of the core rules shared by every ruleset (core.*)."""

from __future__ import annotations

import pytest
from mariage import (
    Answer,
    GameState,
    IllegalActionError,
    Pass,
    Phase,
    Play,
    canonical_deck,
    list_rulesets,
    load_rules,
    parse_action,
)
from rulekit import covers, legal_texts, refused

RULESETS = list_rulesets()


def _fresh(name: str) -> GameState:
    """A match of ``name`` with the canonical deck dealt (first player 0 where by lot)."""
    rules = load_rules(name)
    state = GameState(rules, first_dealer=None if rules.first_dealer == "none" else 0)
    state.deal(canonical_deck(rules), 0 if rules.first_lead == "lot" else None)
    while state.phase == Phase.AUCTION:  # bidding games: nobody bids, the play begins
        legal = state.legal_actions()
        state.apply(Pass() if Pass() in legal else legal[0])  # a forced opener bids least
    if state.rules.talon_rule is not None:  # a talon taken: cards given, nothing raised
        while state.phase != Phase.PLAY and not state.terminal:
            legal = state.legal_actions()
            state.apply(next(a for a in legal if type(a).__name__ not in ("Concede", "Redeal")))
    if state.phase == Phase.TAKING:  # a turned card taken in rounds: the first speaker takes
        state.apply(parse_action(rules, "take"))
    if state.phase == Phase.BIDDING:  # an auction of a suit: the lowest bid, then passes
        state.apply(state.legal_actions()[1])
        while state.phase == Phase.BIDDING:
            state.apply(Pass())
    return state


def _a_card_of(state: GameState, seat: int) -> str:
    return state.rules.card_code[state.rules.cards_of(state.hands[seat])[0]]


def test_every_ruleset_is_bundled() -> None:
    assert set(RULESETS) >= {"marianna", "marianna-siciliana", "cinquecento", "mariglia",
                             "mariaggia", "marjapussi", "mariazza"}


@covers("core.turn")
@pytest.mark.parametrize("name", RULESETS)
def test_only_the_seat_to_act_plays(name: str) -> None:
    state = _fresh(name)
    assert state.to_act is not None
    other = (state.to_act + 1) % state.rules.nseats
    assert [t for t in legal_texts(state, other) if t != "callout"] == []
    refused(state, _a_card_of(state, other), "core.turn", seat=other)


@covers("core.hand")
@pytest.mark.parametrize("name", RULESETS)
def test_only_a_card_in_hand(name: str) -> None:
    state = _fresh(name)
    assert state.to_act is not None
    other = (state.to_act + 1) % state.rules.nseats
    refused(state, _a_card_of(state, other), "core.hand")
    with pytest.raises(IllegalActionError) as info:
        state.apply(Play(state.rules.ncards))  # no such card
    assert info.value.rule_id == "core.hand"


@covers("core.phase")
@pytest.mark.parametrize("name", RULESETS)
def test_each_action_has_its_moment(name: str) -> None:
    rules = load_rules(name)
    state = GameState(rules, first_dealer=None if rules.first_dealer == "none" else 0)
    with pytest.raises(IllegalActionError) as info:  # nothing before the deal
        state.apply(Play(0))
    assert info.value.rule_id == "core.phase"
    state = _fresh(name)
    for action in (Answer(False), Pass()):
        if state.phase.name == "WINDOW" and isinstance(action, Pass):
            continue
        with pytest.raises(IllegalActionError) as info:
            state.apply(action)
        assert info.value.rule_id == "core.phase", action
    with pytest.raises(IllegalActionError) as info:  # no new deal while a hand is on
        state.deal(canonical_deck(rules), 0 if rules.first_lead == "lot" else None)
    assert info.value.rule_id == "core.phase"


@covers("core.deal")
@pytest.mark.parametrize("name", RULESETS)
def test_a_deal_orders_every_card_once(name: str) -> None:
    rules = load_rules(name)
    first = 0 if rules.first_lead == "lot" else None
    bad_decks = [
        canonical_deck(rules)[:-1],  # a card short
        [*canonical_deck(rules)[:-1], 0],  # a card twice
        ["XX", *(rules.card_code[c] for c in canonical_deck(rules)[1:])],  # not a card
    ]
    for deck in bad_decks:
        state = GameState(rules, first_dealer=None if rules.first_dealer == "none" else 0)
        with pytest.raises(IllegalActionError) as info:
            state.deal(deck, first)
        assert info.value.rule_id == "core.deal"
        assert state.hand_no == 0
    state = GameState(rules, first_dealer=None if rules.first_dealer == "none" else 0)
    wrong_first = None if first is not None else 0  # missing where needed, extra elsewhere
    with pytest.raises(IllegalActionError) as info:
        state.deal(canonical_deck(rules), wrong_first)
    assert info.value.rule_id == "core.deal"
    state.deal([rules.card_code[c] for c in canonical_deck(rules)], first)  # codes work too
    assert state.hand_no == 1


def test_a_deck_of_numbers_is_checked_as_numbers() -> None:
    rules = load_rules("marianna")
    deck = canonical_deck(rules)
    one = deck.index(1)
    for bad in (float(deck[0]), -1, rules.ncards, None):
        state = GameState(rules, first_dealer=0)
        with pytest.raises(IllegalActionError) as info:
            state.deal([bad, *deck[1:]])
        assert info.value.rule_id == "core.deal"
    # numbers of another class of int and codes mixed with numbers deal as before
    as_bool = [True if i == one else c for i, c in enumerate(deck)]
    mixed = [rules.card_code[c] if i % 2 else c for i, c in enumerate(deck)]
    for other in (as_bool, mixed, tuple(deck)):
        state, plain = GameState(rules, first_dealer=0), GameState(rules, first_dealer=0)
        state.deal(other)
        plain.deal(deck)
        assert state.hands == plain.hands and state.stock == plain.stock


@covers("core.resign", "core.over")
@pytest.mark.parametrize("name", RULESETS)
def test_resign_at_any_moment_ends_the_match(name: str) -> None:
    state = _fresh(name)
    assert state.to_act is not None
    loser = (state.to_act + 1) % state.rules.nseats  # out of turn
    assert "resign" not in legal_texts(state, loser) + legal_texts(state)
    state.resign(loser)
    r = state.rules
    assert state.terminal and state.result is not None and state.result.reason == "resign"
    if len(r.teams) == 2:
        assert state.result.winner is not None and state.result.winner != r.team_of[loser]
    else:  # more than two sides: the match ends without a winner
        assert state.result.winner is None
    assert state.legal_actions() == []
    holder = next(s for s in range(r.nseats) if state.hands[s])  # not one sitting out
    with pytest.raises(IllegalActionError) as info:
        state.apply(Play(r.cards_of(state.hands[holder])[0]), holder)
    assert info.value.rule_id == "core.over"
    with pytest.raises(IllegalActionError) as info:
        state.resign(0)
    assert info.value.rule_id == "core.over"


@covers("core.over")
@pytest.mark.parametrize("name", RULESETS)
def test_no_deal_after_the_match_is_over(name: str) -> None:
    state = _fresh(name)
    state.resign(0)
    rules = state.rules
    with pytest.raises(IllegalActionError) as info:
        state.deal(canonical_deck(rules), 0 if rules.first_lead == "lot" else None)
    assert info.value.rule_id == "core.over"


@covers("core.resign")
def test_resign_by_a_seat_that_does_not_exist() -> None:
    state = _fresh("marianna")
    with pytest.raises(IllegalActionError) as info:
        state.resign(4)
    assert info.value.rule_id == "core.resign" and not state.terminal
