"""The next deal and the match result by fewer steps (issue #28, fourteenth session).

* :meth:`GameState.deal` calls the generated deal of a caller's deck itself
  (:meth:`Dealing.dealer_takes`), without asking the mechanism: still checked, and a
  dealing mechanism that deals, checks or lays its own way is still asked;
* the next deal keeps a list that starts a hand empty and is empty still (the
  trick's lists, the declarations...) instead of making it anew; since the nineteenth
  session, any list of the hand that still equals its start (the seats' duties, the
  declarations used...), compared with it;
* the end of a match keeps its result as its parts, ``GameState.result`` makes the record.

Each is held against what must not change: no list shared with a clone or a
snapshot, undo across deals back to every earlier state.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from mariage import (
    GameState,
    IllegalActionError,
    SeededDeals,
    canonical_deck,
    list_rulesets,
    load_rules,
)
from mariage.engine.copies import APPEND_ONLY, HELD_AFTER_HAND, copied_slots
from mariage.engine.freshhand import TRICK_COUNTS
from mariage.engine.mechanisms import DEFAULT_MECHANISMS, Dealing
from mariage.engine.state import new_match
from mariage.engine.trailplan import HAND_END_SLOTS, TRICK_HELD, trick_entry
from test_search_support import fingerprint

RULESETS = list_rulesets()


def _first(rules: Any) -> int | None:
    return 0 if rules.first_lead == "lot" else None


def _deck(rules: Any, rng: random.Random) -> list[int]:
    deck = canonical_deck(rules)
    rng.shuffle(deck)
    return deck


def _play_hand(state: GameState, rng: random.Random) -> None:
    while state.to_act is not None:
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])


def _lists(state: GameState) -> dict[str, list[Any]]:
    return {name: getattr(state, name) for name in copied_slots(type(state))
            if type(getattr(state, name, None)) is list}


def _starting_empty(rules: Any) -> set[str]:
    """The hand's slots whose list is empty when a hand starts (``GameState._new_hand``)."""
    scratch = object.__new__(GameState)
    scratch.rules = rules
    GameState._new_hand(scratch)
    return {name for name in copied_slots(GameState) if getattr(scratch, name, None) == []}


def _starts(rules: Any) -> dict[str, Any]:
    """What each of the hand's slots holds when a hand starts (``GameState._new_hand``)."""
    scratch = object.__new__(GameState)
    scratch.rules = rules
    GameState._new_hand(scratch)
    return {name: getattr(scratch, name) for name in copied_slots(GameState)
            if hasattr(scratch, name)}


def _same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (``False`` is not ``0`` here)."""
    if type(a) is not type(b):
        return False
    if type(a) is list:
        return len(a) == len(b) and all(map(_same, a, b))
    return bool(a == b)


def _hand_slots(rules: Any) -> set[str]:
    scratch = object.__new__(GameState)
    scratch.rules = rules
    GameState._new_hand(scratch)
    return {name for name in copied_slots(GameState) if hasattr(scratch, name)}


def _all_lists(state: GameState) -> list[list[Any]]:
    """Every list a state holds, and the lists inside them."""
    out = []
    for value in _lists(state).values():
        out.append(value)
        out += [item for item in value if type(item) is list]
    return out


@pytest.mark.parametrize("name", RULESETS)
def test_the_next_deal_keeps_only_the_lists_that_hold_their_start(name: str) -> None:
    """After a hand, the deal keeps each hand list that still holds what a hand starts
    with (the state's own, no other state's: empty, or equal to its start), makes the
    others anew (and those only appended to, always), and a clone taken before it
    shares nothing with it and is left as it was by the next hand."""
    rng = random.Random(f"keep {name}")
    rules = load_rules(name)
    state = GameState(rules, first_dealer=None if rules.first_dealer == "none" else 0)
    kept_seen = kept_full = 0
    empty, hand = _starting_empty(rules) - APPEND_ONLY, _hand_slots(rules)
    starts = _starts(rules)
    state.deal(_deck(rules, rng), _first(rules))
    for _ in range(3):
        _play_hand(state, rng)
        if state.terminal:
            break
        before = _lists(state)
        held = {key: [list(x) if type(x) is list else x for x in value]
                for key, value in before.items()}  # what each list held at the hand's end
        copy = state.clone()
        seen = fingerprint(copy)
        state.deal(_deck(rules, rng), _first(rules))
        after = _lists(state)
        for key, old in before.items():
            new = after[key]
            if key in ("hands", "stock") or key not in hand:  # dealt, or the match's
                continue
            if new is old:  # kept (no new list): only where it held the start already
                assert _same(held[key], starts[key]) and key not in APPEND_ONLY, key
                assert key not in HELD_AFTER_HAND, key
                kept_seen += 1
                kept_full += key not in empty
            elif key not in APPEND_ONLY | TRICK_COUNTS | HELD_AFTER_HAND:
                assert not _same(held[key], starts[key]), key  # it was changed: anew
        theirs = {id(x) for x in _all_lists(copy)}
        assert not any(id(x) in theirs for x in _all_lists(state))
        _play_hand(state, rng)
        assert fingerprint(copy) == seen
        assert fingerprint(state) != seen
    assert kept_seen >= 2  # the declarations' lists at least
    assert kept_full >= 1  # a list that starts a hand not empty: the seats' duties at least


@pytest.mark.parametrize("name", RULESETS)
def test_undo_across_the_next_deals_gives_back_every_state(name: str) -> None:
    """With undo on, three hands and their deals (caller's decks) are taken back by
    ``undo_to`` to marks at each hand's end and within hands: each state as it was."""
    rng = random.Random(f"undo {name}")
    rules = load_rules(name)
    state = GameState(rules, first_dealer=None if rules.first_dealer == "none" else 0)
    state.enable_undo()
    marks: list[tuple[int, dict[str, Any]]] = []
    for _ in range(3):
        if state.terminal:
            break
        marks.append((state.mark(), fingerprint(state)))
        state.deal(_deck(rules, rng), _first(rules))
        while state.to_act is not None:
            if rng.random() < 0.1:
                marks.append((state.mark(), fingerprint(state)))
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
    for mark, seen in reversed(marks):
        state.undo_to(mark)
        assert fingerprint(state) == seen


class _Picky(Dealing):
    """A dealing mechanism that refuses any deck whose top card is card 0."""

    __slots__ = ()

    def check_deck(self, st: Any, deck: Any, first_player: int | None) -> list[int]:
        if deck and deck[0] == 0:
            raise IllegalActionError("core.deal", seat=None, action="deal",
                                     reason="picky", hand=st.hand_no + 1)
        return super().check_deck(st, deck, first_player)


def test_a_dealing_mechanism_of_its_own_is_asked() -> None:
    rules = load_rules("marianna")
    picky = replace(DEFAULT_MECHANISMS, dealing=_Picky())
    state = GameState(rules, first_dealer=0, mechanisms=picky)
    assert state._deals == () and state._lays == ()
    with pytest.raises(IllegalActionError, match="picky"):
        state.deal(canonical_deck(rules))
    plain = GameState(rules, first_dealer=0)
    assert len(plain._deals) == len(plain._lays) == rules.nseats + 1
    plain.deal(canonical_deck(rules))
    assert plain.hand_no == 1


@pytest.mark.parametrize("name", ["marianna", "belote-coinche", "sixty-six"])
def test_a_hostile_deck_is_still_refused_with_its_rule(name: str) -> None:
    rules = load_rules(name)
    state = GameState(rules, first_dealer=None if rules.first_dealer == "none" else 0)
    deck = canonical_deck(rules)
    before = fingerprint(state)
    for bad in ([*deck[:-1], deck[0]], deck[:-1], [*deck[:-1], float(deck[-1])],
                [*deck[:-1], str(deck[-1])], [*deck[:-1], True]):
        with pytest.raises(IllegalActionError) as info:
            state.deal(bad, _first(rules))
        assert info.value.rule_id == "core.deal"
        assert fingerprint(state) == before


@pytest.mark.parametrize("name", ["belote-coinche", "marianna", "mariazza", "schnapsen"])
def test_the_match_result_is_kept_as_its_parts_and_read_as_the_record(name: str) -> None:
    """The end of a match leaves the result's parts (a plain tuple) in the state, by the
    generated hand end and by the mechanism alike; ``result`` reads them as the
    ``MatchResult`` the match end made before (winner, reason, scores), a new equal
    record at each read; setting it keeps its parts."""
    from mariage import MatchResult, SeededDeals

    rng = random.Random(f"result {name}")
    rules = load_rules(name)
    ended = 0
    for seed in range(6):
        deals = SeededDeals(rules, seed)
        state = GameState(rules, first_dealer=deals.first_dealer)
        state.deal_source = deals
        state._deal_next()
        while not state.terminal:
            assert state.result is None and state._result is None
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
        parts = state._result
        assert type(parts) is tuple and len(parts) == 3
        made = state.result
        assert type(made) is MatchResult and made == MatchResult(*parts)
        assert made.scores == tuple(state.match_scores if rules.match_measure != "hands_won"
                                    else state.segni) or made.reason != "target"
        assert state.result == made and state.result is not made
        ended += 1
    copy = state.clone()
    copy.result = MatchResult(None, "tie", (1, 2))
    assert copy._result == (None, "tie", (1, 2)) and state.result == made
    copy.result = None
    assert copy._result is None
    assert ended == 6


@pytest.mark.parametrize("seeded", [False, True], ids=["caller", "seeded"])
@pytest.mark.parametrize("name", RULESETS)
def test_undo_to_every_action_across_deals_that_keep_lists(name: str, seeded: bool) -> None:
    """With undo on, a mark before every action of several hands, declarations and other
    actions besides cards played first where offered (they change the lists the next
    deal may keep in place): ``undo_to`` each mark, latest first, gives back its state;
    the next hands dealt from a caller's decks, or by the seeded generator within the
    action that ends a hand. A list that the journal entry of a hand's last trick holds
    itself (the trick's declarations) kept by the next deal would come back changed by
    the next hand (fails for a caller's decks in 2 rulesets: the declarations are rare)."""
    rng = random.Random(f"every {name}")
    rules = load_rules(name)
    if seeded:
        state = new_match(rules, 7)
    else:
        state = GameState(rules, first_dealer=None if rules.first_dealer == "none" else 0)
    state.enable_undo()
    marks: list[tuple[int, dict[str, Any]]] = []
    while state.hand_no < 5 and not state.terminal:
        if not seeded:
            state.deal(_deck(rules, rng), _first(rules))
        hand = state.hand_no
        while state.to_act is not None and state.hand_no == hand:
            marks.append((state.mark(), fingerprint(state)))
            actions = state.legal_actions()
            other = [a for a in actions if type(a).__name__ not in ("Play", "Claim")]
            pick = other if other and rng.random() < 0.7 else actions
            state.apply(pick[rng.randrange(len(pick))])
    for mark, seen in reversed(marks):
        state.undo_to(mark)
        assert fingerprint(state) == seen


def test_the_lists_a_trick_entry_holds_after_the_hand_end_are_made_anew() -> None:
    """The lists the journal entry of a trick's end keeps themselves (not copies), less
    those the hand end replaces, are the ones the next deal never keeps in place."""
    assert TRICK_HELD - set(HAND_END_SLOTS) == HELD_AFTER_HAND
    keep, _ = trick_entry(2, 2, ())
    for name in TRICK_HELD - {"trick_seats", "trick_cards"}:  # (kept as ``seats``, ``trick``)
        assert f"st.{name}," in keep[-1] and f"_keep(st.{name})" not in keep[-1], name


@pytest.mark.parametrize("name", RULESETS)
def test_the_seeded_generators_hands_are_dealt_by_the_kept_deals(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand of the seeded generator is dealt by the deal of its dealer that the state
    keeps (``Dealing.dealer_lays``, twentieth session), as ``Dealing.deal_own`` deals
    it: a state without them (``_lays`` emptied: ``deal_own`` each hand) given the same
    actions is the same state after every action, over whole matches and every dealer;
    a dealing mechanism that lays its own way keeps none."""
    rules = load_rules(name)
    rng = random.Random(f"lays {name}")
    dealers = set()
    asked_of: list[GameState] = []  # the states whose mechanism was asked to deal
    own = Dealing.deal_own

    def counted(self: Dealing, st: GameState, deck: list[int], first: int | None) -> None:
        asked_of.append(st)
        own(self, st, deck, first)
    for seed in range(3):
        kept, asked = (GameState(rules, first_dealer=SeededDeals(rules, seed).first_dealer)
                       for _ in range(2))
        assert len(kept._lays) == rules.nseats + 1
        asked._lays = ()
        monkeypatch.setattr(Dealing, "deal_own", counted)  # (after the states kept theirs)
        for state in (kept, asked):
            state.deal_source = SeededDeals(rules, seed)
            state._deal_next()
        for _ in range(600):
            assert fingerprint(kept) == {**fingerprint(asked), "_lays": kept._lays}
            if kept.terminal:
                break
            dealers.add(kept.dealer)
            actions = kept.legal_actions()
            action = actions[rng.randrange(len(actions))]
            kept.apply(action)
            asked.apply(action)
        monkeypatch.undo()
        assert sum(st is kept for st in asked_of) == 0
        assert sum(st is asked for st in asked_of) == asked.hand_no
        asked_of.clear()
    assert len(dealers) == (1 if rules.first_dealer == "none" else rules.nseats)


class _OwnLay(Dealing):
    """A dealing mechanism that lays the deck its own way (here: as the reference)."""

    __slots__ = ()

    def lay(self, st: Any, cards: list[int], first_player: int | None) -> None:
        super().lay(st, cards, first_player)


def test_a_dealing_mechanism_that_lays_its_own_way_keeps_no_deals() -> None:
    rules = load_rules("schnapsen")
    state = GameState(rules, first_dealer=0, mechanisms=replace(DEFAULT_MECHANISMS,
                                                                 dealing=_OwnLay()))
    assert state._lays == () and state._deals == ()
    state.deal_source = SeededDeals(rules, 3)
    state._deal_next()
    assert state.hand_no == 1 and state.to_act is not None
