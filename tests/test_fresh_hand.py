"""The cheap end of a hand (issue #16): a new hand's data, the deal plan, hand records.

Each fast path is held against the plain code it stands for: the generated
resetter against ``GameState._new_hand``, the generated deal against the
rounds of packets dealt one by one, the record maker against the dataclass.
"""

from __future__ import annotations

import pickle
import random
from dataclasses import FrozenInstanceError, fields
from typing import Any

import pytest
from mariage import GameState, IllegalActionError, canonical_deck, list_rulesets, load_rules
from mariage.engine.copies import copied_slots
from mariage.engine.freshhand import hand_resetter
from mariage.engine.mechanisms.dealing import _plan_of
from mariage.engine.outcomes import HandRecord, hand_record

RULESETS = list_rulesets()


def _state(name: str) -> GameState:
    rules = load_rules(name)
    return GameState(rules, first_dealer=None if rules.first_dealer == "none" else 0)


def _hand_fields(state: GameState) -> dict[str, Any]:
    """Every slot ``GameState._new_hand`` sets, with its value."""
    scratch = object.__new__(GameState)
    scratch.rules = state.rules
    GameState._new_hand(scratch)
    return {name: getattr(state, name) for name in copied_slots(GameState)
            if name != "rules" and hasattr(scratch, name)}


@pytest.mark.parametrize("name", RULESETS)
def test_a_new_hand_holds_what_the_reference_sets(name: str) -> None:
    played, reference = _state(name), _state(name)
    rules = played.rules
    played.deal(canonical_deck(rules), 0 if rules.first_lead == "lot" else None)
    while played.to_act is not None:  # a whole hand: every per-hand field moves
        played.apply(played.legal_actions()[-1])
    played.reset_hand()
    GameState._new_hand(reference)
    assert _hand_fields(played) == _hand_fields(reference)
    assert len(_hand_fields(played)) > 50


@pytest.mark.parametrize("name", ["marianna", "schnapsen", "marjapussi-de"])
def test_no_list_is_shared_between_hands_or_states(name: str) -> None:
    a, b = _state(name), _state(name)
    before = {k: v for k, v in _hand_fields(a).items() if type(v) is list}
    a.reset_hand()
    after = _hand_fields(a)
    others = _hand_fields(b)
    for key, old in before.items():
        new = after[key]
        assert new == old and new is not old, key
        assert new is not others[key], key
        for i, item in enumerate(new):
            if type(item) is list:
                assert item is not old[i] and item is not others[key][i], key
    a.hands[0] = 7
    if a.used_suit:
        a.used_suit[0][0] = 1
        assert b.used_suit[0][0] == 0
    assert b.hands[0] == 0
    b.reset_hand()
    assert a.hands[0] == 7  # another state's new hand leaves this one alone


def test_a_state_class_with_its_own_new_hand_values_keeps_them() -> None:
    class Marked(GameState):
        __slots__ = ()

        def reset_bidding(self) -> None:
            super().reset_bidding()
            self.high_bid = 5  # not the reference's value: the resetter must not skip this

    rules = load_rules("marianna")
    assert hand_resetter(Marked, rules) is Marked._new_hand
    assert hand_resetter(GameState, rules) is not GameState._new_hand
    state = Marked(rules, first_dealer=0)
    state.high_bid = 0
    state.deal(canonical_deck(rules))
    assert state.high_bid == 5


def _dealt_one_by_one(state: GameState, cards: list[int]) -> tuple[list[int], list[int]]:
    """The hands and the stock as the rounds of packets deal them, card by card."""
    r = state.rules
    n = r.nseats
    hands = [0] * n
    start = 0 if state.dealer is None else (state.dealer + 1) % n
    pos, turn = 0, -1
    for k, size in enumerate(r.deal_packets or (r.packet,) * (r.hand_size // r.packet)):
        for i in range(r.hand_seats):  # a dealer sitting out (the last) gets nothing
            for _ in range(size):
                hands[(start + i) % n] |= 1 << cards[pos]
                pos += 1
        if k + 1 == r.turn_up_round:
            turn = pos
            pos += 1
    rest = cards[pos:]
    if r.turn_up == "under_stock":
        rest = rest[1:] + rest[:1] if turn < 0 else [*rest, cards[turn]]
    elif r.turn_up == "to_taker":  # the turn-up waits for its taker, off the stock
        rest = rest[1:]
    return hands, rest[::-1]


@pytest.mark.parametrize("name", RULESETS)
def test_the_deal_plan_deals_as_the_rounds_of_packets(name: str) -> None:
    rng = random.Random(name)
    rules = load_rules(name)
    for dealer in range(rules.nseats):
        state = GameState(rules, first_dealer=dealer)  # no dealer where the rules have none
        deck = canonical_deck(rules)
        rng.shuffle(deck)
        hands, stock = _dealt_one_by_one(state, deck)
        state.deal(deck, 0 if rules.first_lead == "lot" else None)
        assert state.hands == hands and state.stock == stock, dealer
    assert len(_plan_of(rules).hands) == rules.nseats


class _Number:
    """An integer-like number that is no int (as other libraries' are): it indexes, adds
    to an int and compares equal."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __hash__(self) -> int:
        return hash(self.value)

    def __eq__(self, other: object) -> bool:
        return other == self.value

    def __add__(self, other: object) -> Any:
        return _Number(self.value + other)  # type: ignore[operator]

    __radd__ = __add__


def test_a_deck_is_refused_for_the_same_reason_whatever_its_items() -> None:
    from decimal import Decimal
    from fractions import Fraction

    rules = load_rules("marianna")
    deck = canonical_deck(rules)
    reasons = set()
    for kind in (Fraction, Decimal, _Number, float):
        state = GameState(rules, first_dealer=0)
        with pytest.raises(IllegalActionError) as info:
            state.deal([kind(deck[0]), *deck[1:]])
        assert info.value.rule_id == "core.deal" and state.hand_no == 0
        reasons.add(str(info.value))
    for bad in ([*deck, 0], deck[1:], [*deck[1:], deck[1]], [-1, *deck[1:]], []):
        state = GameState(rules, first_dealer=0)
        with pytest.raises(IllegalActionError) as info:
            state.deal(bad)
        reasons.add(str(info.value))
    assert len(reasons) == 1 and "cards of the pack, each once" in reasons.pop()


def test_a_hand_record_is_the_dataclass_record() -> None:
    args = [(1, 0, (60, 60), (60, 60), (5, 5), "played_out"),
            (3, None, (1, 2, 3), (0, 0, 9), (1, 1, 1), "target", 2, 40, 1, True, (0,), 2)]
    for a in args:
        made, plain = hand_record(*a), HandRecord(*a)
        assert type(made) is HandRecord
        assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
        assert [getattr(made, f.name) for f in fields(HandRecord)] == \
            [getattr(plain, f.name) for f in fields(HandRecord)]
        assert pickle.loads(pickle.dumps(made)) == plain
        with pytest.raises(FrozenInstanceError):
            made.number = 2  # type: ignore[misc]
    assert hand_record(1, 0, (), (), (), "x", kontras=3).kontras == 3


@pytest.mark.parametrize("name", RULESETS)
def test_the_seeded_stream_is_dealt_unchecked_as_a_checked_deck_is(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The decks ``new_match`` shuffles itself are laid without checking them again (but
    a pack gathered from the last hand's cards), and leave every slot as the same decks
    dealt through the public, checking ``deal``."""
    from mariage import new_match
    from mariage.engine.deals import SeededDeals
    from mariage.engine.mechanisms import Dealing
    from mariage.engine.phase import DEAL
    from test_search_support import fingerprint

    checked: list[bool] = []  # per deck checked: was it the state that deals its own?
    check = Dealing.check_deck

    def counted(self: Dealing, st: GameState, deck: Any, first: int | None) -> list[int]:
        checked.append(st is own)
        return check(self, st, deck, first)

    monkeypatch.setattr(Dealing, "check_deck", counted)
    rules = load_rules(name)
    own = new_match(rules, 11)
    deals = SeededDeals(rules, 11)
    given = GameState(rules, first_dealer=deals.first_dealer)
    given.deal(*deals.next_deal(given))
    rng = random.Random(name)
    while given.hand_no < 5 and not own.terminal:
        actions = own.legal_actions()
        action = actions[rng.randrange(len(actions))]
        own.apply(action)
        given.apply(action)
        if given.phase == DEAL:
            given.deal(*deals.next_deal(given))
        mine = {k: v for k, v in fingerprint(own).items() if k != "deal_source"}
        assert mine == {k: v for k, v in fingerprint(given).items() if k != "deal_source"}
    assert given.hand_no >= 2 and checked.count(False) == given.hand_no
    assert checked.count(True) == (own.hand_no if rules.deal_gather_rule is not None else 0)


def test_a_seeded_stream_of_other_rules_is_checked() -> None:
    """A deal source that shuffles another ruleset's pack is no deck of this one's."""
    from mariage.engine.deals import SeededDeals

    state = GameState(load_rules("schnapsen"), first_dealer=0)
    state.deal_source = SeededDeals(load_rules("marianna"), 3)
    state.deal(canonical_deck(state.rules))
    with pytest.raises(IllegalActionError) as info:
        while True:
            state.apply(state.legal_actions()[-1])
    assert info.value.rule_id == "core.deal"


@pytest.mark.parametrize("name", RULESETS)
def test_a_fresh_deal_is_a_new_hand_and_the_deal_plan(name: str) -> None:
    """The deal's one generated step (``_fresh_deals``) leaves every slot as
    ``reset_hand``, the hand counted, the plan's ``lay`` and the opening do, after a
    played hand."""
    from mariage.engine.mechanisms.dealing import _fresh_deals
    from test_search_support import fingerprint

    rng = random.Random(f"fresh {name}")
    rules = load_rules(name)
    first = 0 if rules.first_lead == "lot" else None
    for dealer in range(rules.nseats):
        played = GameState(rules, first_dealer=dealer)
        played.deal(canonical_deck(rules), first)
        while played.to_act is not None:  # a whole hand: every per-hand field moves
            played.apply(played.legal_actions()[0])
        one, two = played.clone(), played.clone()
        deck = canonical_deck(rules)
        rng.shuffle(deck)
        start = 0 if one.dealer is None else (one.dealer + 1) % rules.nseats
        fresh = _fresh_deals(one)
        assert fresh is not None
        fresh.laid[start](one, deck, one.dealer, first)
        two.reset_hand()
        two.hand_no += 1
        _plan_of(rules).lay[start](two, deck, two.dealer)
        two.mech.dealing._open(two, first, start)
        assert fingerprint(one) == fingerprint(two)


def test_a_state_class_that_resets_a_hand_its_own_way_is_asked() -> None:
    from mariage.engine.mechanisms.dealing import _fresh_deals

    class Counted(GameState):
        __slots__ = ("resets",)

        def reset_hand(self) -> None:
            self.resets = getattr(self, "resets", 0) + 1
            super().reset_hand()

    rules = load_rules("marianna")
    state = Counted(rules, first_dealer=0)
    assert _fresh_deals(state) is None and _fresh_deals(_state("marianna")) is not None
    state.deal(canonical_deck(rules))
    assert state.resets == 2 and state.hand_no == 1  # at the start, and for the deal


def _bad_decks(rules: Any, rng: random.Random) -> list[list[Any]]:
    """Decks that are not the pack's numbers each once, or hold what is no int."""
    n = rules.ncards
    deck = canonical_deck(rules)
    rng.shuffle(deck)
    i, j = rng.sample(range(n), 2)
    out: list[list[Any]] = [deck[:-1], [*deck, deck[0]], [*deck[:i], deck[j], *deck[i + 1:]]]
    for wrong in (-1, n, -n, -n - 1, -2 * n, 2 * n, deck[i] - 2 * n, float(deck[i]),
                  _Number(deck[i]), str(deck[i]), None):
        out.append([*deck[:i], wrong, *deck[i + 1:]])
    out.append([deck[i] - 2 * n if k == i else (deck[k] + 2 * n if k == j else deck[k])
                for k in range(n)])  # a sum of the pack's, its bits the pack's
    return out


@pytest.mark.parametrize("name", RULESETS)
def test_a_callers_deck_is_dealt_exactly_when_the_check_takes_it(name: str) -> None:
    """The deal's own check of a caller's list (made with the hands) takes exactly the
    decks :meth:`Dealing.check_deck` takes, leaves the state untouched otherwise, and
    the plain check then refuses them with its error."""
    from mariage.engine.mechanisms.dealing import _fresh_deals
    from test_search_support import fingerprint

    rng = random.Random(f"decks {name}")
    rules = load_rules(name)
    first = 0 if rules.first_lead == "lot" else None
    state = _state(name)
    fresh = _fresh_deals(state)
    assert fresh is not None
    start = 0 if state.dealer is None else (state.dealer + 1) % rules.nseats
    good = canonical_deck(rules)
    rng.shuffle(good)
    for deck, who in [(good, first), (good, 2 if first is None else None),
                      (good, rules.nseats), *((d, first) for d in _bad_decks(rules, rng))]:
        before = fingerprint(state)
        try:
            state.mech.dealing.check_deck(state, deck, who)
        except IllegalActionError:
            taken = False
        else:
            taken = True
        trial = state.clone()
        assert fresh.taken[start](trial, deck, trial.dealer, who) == taken, (deck, who)
        if not taken:
            assert fingerprint(trial) == before
            with pytest.raises(IllegalActionError):
                state.deal(deck, who)
            assert fingerprint(state) == before
    played = state.clone()
    played.deal(good, first)
    assert not fresh.taken[start](played, good, played.dealer, first)  # not its moment
