"""Undo of the hand's last card by a trail: what the hand end writes, kept with the card.

Where no deal source deals the next hand and the mechanisms say what the end of a
hand writes (:func:`mariage.engine.handend.hand_end_writes`), the hand's last card
journals its trick's end, those slots and the length of the record of hands instead
of a snapshot of the state. These tests play hands without a deal source (the search
that stops at the hand's end) and check that every undo, and every undo_to of a mark,
gives back exactly the state before, against the state replayed from the start too:
hands played out, ended by a claim, by a target mid-hand, the match's end, and a deal
source that deals the next hand (a snapshot there).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, ClassVar

import pytest
from families import by_family
from hypothesis import given, settings
from hypothesis import strategies as st
from mariage import CallOut, Claim, GameState, Phase, Play, Rules, new_match
from mariage.engine.deals import SeededDeals
from mariage.engine.handend import hand_end_writes
from mariage.engine.journal import HAND_TRAIL, TRICK_TRAIL, ActionEntry
from mariage.engine.mechanisms import DEFAULT_MECHANISMS, Claims, Scoring
from mariage.engine.trailplan import TRICK_END_SLOTS
from propkit import CHOICES, SEEDS, options_for, pick_action, rules_for
from test_search_support import Event, fingerprint


def _entry_kind(state: GameState) -> str:
    """How the last action was journaled: 'hand', 'trick', 'card', 'action' or
    'snapshot'."""
    assert state._undo
    entry = state._undo[-1]
    if entry.__class__ is tuple:
        return "snapshot"
    if entry.__class__ is ActionEntry:
        return "action"
    if entry.__class__ is list and entry[0] is HAND_TRAIL:
        return "hand"
    if entry.__class__ is list and entry[0] is TRICK_TRAIL:
        return "trick"
    return "card"


def _hands_last_card(state: GameState, action: Any) -> bool:
    """True if ``action`` is the last card of the hand's last trick."""
    return (type(action) is Play and state.phase == Phase.PLAY
            and len(state.trick_cards) + 1 == state.rules.hand_seats
            and state.trick_no >= state._tricks_per_hand)


def _play(state: GameState, rng: random.Random, deals: SeededDeals, log: list[Event],
          hands: int, pick: Any = pick_action) -> dict[str, int]:
    """Play ``hands`` hands of ``state`` (undo on, no deal source: each hand dealt here),
    each action undone at once and compared with the state before it, then applied
    again; marks at random, each taken back by undo_to at the end and compared with the
    state at the mark and with the replay of the log up to it. Returns how the hand's
    last cards were journaled, and how many hands ended each way ("ended <how>")."""
    rules = state.rules
    written = set(TRICK_END_SLOTS) | set(hand_end_writes(state.mech, rules) or ())
    marks = [(state.mark(), fingerprint(state), len(log))]
    kinds: dict[str, int] = {"hand": 0, "trick": 0, "snapshot": 0, "card": 0}
    played = 0
    while not state.terminal and played < hands:
        if state.phase == Phase.DEAL:
            deck, first = deals.next_deal()
            state.deal(deck, first)
            log.append(("deal", deck, first))
            continue
        before = fingerprint(state)
        seat, action = pick(rng, state)
        last = _hands_last_card(state, action)
        state.apply(action, seat=seat)
        after = fingerprint(state)
        log.append(("act", seat, action))
        ended = type(action) is Play and state.phase in (Phase.DEAL, Phase.OVER)
        if type(action) is Play:  # the hand's entry where (and only where) it ended
            assert (_entry_kind(state) == "hand") <= ended
        if ended and not last:  # a hook of the trick's end ended the hand (a target)
            key = f"mid-hand {_entry_kind(state)}"
            kinds[key] = kinds.get(key, 0) + 1
        if type(action) is not Play:  # how the other actions were journaled
            key = f"{type(action).__name__} {_entry_kind(state)}"
            kinds[key] = kinds.get(key, 0) + 1
        if last:
            kind = _entry_kind(state)
            kinds[kind] += 1
            if kind == "hand":  # what changed is what the entry keeps
                changed = {k for k in before if before[k] != after[k]}
                assert changed <= written, changed - written
        state.undo()
        assert fingerprint(state) == before, action
        state.apply(action, seat=seat)
        assert fingerprint(state) == after
        played += state.phase in (Phase.DEAL, Phase.OVER)
        if rng.random() < 0.08:
            marks.append((state.mark(), fingerprint(state), len(log)))
    for record in state.history:
        kinds[f"ended {record.ended}"] = kinds.get(f"ended {record.ended}", 0) + 1
    _assert_replays(state, log, deals.first_dealer, marks)
    for mark, seen, _ in reversed(marks):
        state.undo_to(mark)
        assert fingerprint(state) == seen
    return kinds


def _replay(state: GameState, log: list[Event], first_dealer: int | None) -> GameState:
    """A fresh state of ``state``'s rules and mechanisms with the logged events applied."""
    return _feed(GameState(state.rules, first_dealer=first_dealer, mechanisms=state.mech),
                 log)


def _feed(state: GameState, log: list[Event]) -> GameState:
    """``state`` with the logged events applied."""
    for kind, a, b in log:
        if kind == "deal":
            state.deal(a, b)
        else:
            state.apply(b, seat=a)
    return state


def _assert_replays(state: GameState, log: list[Event], first_dealer: int | None,
                    marks: list[tuple[Any, dict[str, Any], int]]) -> None:
    """Each mark's state is the replay of the log up to it: one fresh state takes the
    events in order, compared at each mark as it passes (after the first k events it is
    the replay of those k; a replay from the start for each mark cost a third of the
    test's time)."""
    fresh = GameState(state.rules, first_dealer=first_dealer, mechanisms=state.mech)
    done = 0
    for _, seen, logged in marks:  # in the order they were made: the log grows
        _feed(fresh, log[done:logged])
        done = logged
        assert seen == fingerprint(fresh)


def _fresh(rules: Rules, seed: int, mechanisms: Any = DEFAULT_MECHANISMS
           ) -> tuple[GameState, SeededDeals]:
    deals = SeededDeals(rules, seed)
    state = GameState(rules, first_dealer=deals.first_dealer, mechanisms=mechanisms)
    state.enable_undo()
    return state, deals


@pytest.mark.parametrize("name", by_family())
@settings(max_examples=6, deadline=None)
@given(seed=SEEDS, choice=CHOICES, data=st.data())
def test_the_hands_last_card_undone_under_any_options(name: str, seed: int, choice: int,
                                                      data: st.DataObject) -> None:
    """Under any option values, without a deal source: each action of three hands (the
    hand's last card by a trail where the hand end says what it writes) undone gives
    the state before it; undo_to a mark the state at the mark, and the replay."""
    rules = rules_for(name, data.draw(options_for(name), label="options"))
    state, deals = _fresh(rules, seed)
    _play(state, random.Random(choice), deals, [], 3)


@pytest.mark.parametrize("name", by_family())
def test_the_hands_last_card_is_a_trail_without_a_deal_source(name: str) -> None:
    """Every bundled ruleset says what its hand end writes, so a hand played out to its
    last card journals that card as a trail (unless a hook of its trick's end may end
    the hand or has points to credit: a snapshot then); where the last trick's winner
    may claim after it (the Schnapsen family), the card pauses the hand: a trick's end.
    (Mariazza's hand target is raised so that some hands reach their last card.)"""
    rules = rules_for(name, {})
    if rules.hand_target is not None:
        rules = rules_for(name, {"target": 71})
    assert hand_end_writes(DEFAULT_MECHANISMS, rules) is not None
    kinds = {"hand": 0, "trick": 0, "snapshot": 0}
    for seed in range(8):
        state, deals = _fresh(rules, seed)
        found = _play(state, random.Random(seed), deals, [], 3, _no_claims)
        for key in kinds:
            kinds[key] += found[key]
    pauses = rules.claim_rule is not None and rules.gp_claim_after_last
    assert kinds["trick" if pauses else "hand"] >= 3, kinds


def _no_claims(rng: random.Random, state: GameState) -> tuple[int, Any]:
    """A random action, but a claim or a call-out (random ones mostly end the hand)."""
    seat = state.to_act
    assert seat is not None
    acts = [a for a in state.legal_actions() if type(a) not in (Claim, CallOut)]
    return seat, rng.choice(acts)


class _ScoresItsOwnWay(Scoring):
    """A subclass of the scoring that does not say what it writes at a hand's end."""


def test_a_hand_end_that_does_not_say_what_it_writes_is_a_snapshot() -> None:
    rules = rules_for("marianna", {})
    mech = replace(DEFAULT_MECHANISMS, scoring=_ScoresItsOwnWay())
    assert hand_end_writes(mech, rules) is None
    state, deals = _fresh(rules, 4, mech)
    kinds = _play(state, random.Random(4), deals, [], 2)
    assert kinds["hand"] == 0 and kinds["snapshot"] == 2, kinds


def _claims_first(rng: random.Random, state: GameState) -> tuple[int, Any]:
    """A claim where one is offered (a random one is mostly false: the hand ends)."""
    seat = state.to_act
    assert seat is not None
    if Claim() in state.legal_actions() and rng.random() < 0.1:
        return seat, Claim()
    return _no_claims(rng, state)


@pytest.mark.parametrize("name", ["schnapsen", "sixty-six"])
def test_hands_ended_by_a_claim_and_played_out(name: str) -> None:
    """Hands ended by a claim, true or false (the claim keeps what it declares it writes
    and what the hand end writes: an action's entry), and played out (the last card
    pauses the hand by a trail, the next action ends it by a snapshot) in one line:
    each undo exact, undo_to marks across both exact."""
    rules = rules_for(name, {})
    ended: dict[str, int] = {}
    for seed in range(12):
        state, deals = _fresh(rules, seed)
        for key, count in _play(state, random.Random(seed), deals, [], 4,
                                _claims_first).items():
            ended[key] = ended.get(key, 0) + count
    claims = ended.get("ended claim", 0) + ended.get("ended false_claim", 0)
    assert claims >= 3 and ended.get("ended played_out", 0) >= 3, ended
    assert ended.get("Claim action", 0) == claims and "Claim snapshot" not in ended, ended


def test_hands_ended_by_the_target_mid_hand() -> None:
    """Mariazza's hands end when a side reaches the target, mostly before the last
    trick, or at the last card: by a trail where the winner has no held points to
    credit (the hook that ends the hand keeps what the hand end writes), else by a
    snapshot."""
    rules = rules_for("mariazza", {"target": 71})
    ended = {"ended target": 0, "hand": 0, "mid-hand hand": 0}
    for seed in range(12):
        state, deals = _fresh(rules, seed)
        kinds = _play(state, random.Random(seed), deals, [], 3, _no_claims)
        for key in ended:
            ended[key] += kinds.get(key, 0)
    assert ended["ended target"] >= 5 and ended["hand"] >= 1, ended
    assert ended["mid-hand hand"] >= 5, ended


@pytest.mark.parametrize("name", ["marianna", "thousand", "sixty-six-4", "belote", "mariglia"])
def test_the_match_ends_at_the_hands_last_card(name: str) -> None:
    """Whole matches without a deal source: the hand that ends the match ends it at its
    last card (by a trail where its trick's end allows): the result, the phase and the
    record taken back by undo and undo_to."""
    rules = rules_for(name, {})
    over_by_trail = 0
    for seed in range(8):
        state, deals = _fresh(rules, seed)
        log: list[Event] = []
        _play(state, random.Random(seed), deals, log, 400)
        assert state.undo_depth == 0 and state.result is None
        for kind, a, b in log:  # forward again, to the match's end
            if kind == "act":
                state.apply(b, seat=a)
            else:
                state.deal(a, b)
        if state.terminal and _entry_kind(state) == "hand":
            over_by_trail += 1
            before_last = fingerprint(_replay(state, log[:-1], deals.first_dealer))
            state.undo()
            assert fingerprint(state) == before_last
            assert state.result is None and state.phase == Phase.PLAY
    assert over_by_trail >= 2, over_by_trail


@pytest.mark.parametrize("name", ["marianna", "thousand", "belote"])
def test_a_deal_source_makes_the_hands_last_card_a_snapshot(name: str) -> None:
    """With a deal source, the hand's last card deals the next hand in the same apply:
    it is journaled as a snapshot, and undo takes the deal back with it."""
    rules = rules_for(name, {})
    state = new_match(rules, 3)
    state.enable_undo()
    rng = random.Random(3)
    while state.hand_no == 1:
        seat, action = pick_action(rng, state)
        last = _hands_last_card(state, action)
        before = fingerprint(state)
        state.apply(action, seat=seat)
        if last:
            assert _entry_kind(state) == "snapshot" and state.hand_no == 2
            state.undo()
            assert fingerprint(state) == before
            state.apply(action, seat=seat)
    assert state.hand_no == 2


class _MayEndAtTheThirdTrick(Scoring):
    """A hook of the trick's end that may end the hand (by the hand end only) at every
    trick, and does so at the third trick where an odd seat wins it."""

    quiet_hooks: ClassVar[dict[str, str]] = {"may_end": "False"}
    ending_hooks: ClassVar[frozenset[str]] = frozenset({"may_end"})
    hand_end_slots = Scoring.hand_end_slots

    def hooks(self, rules: Rules) -> tuple[tuple[str, str], ...]:
        return (*super().hooks(rules), ("after_trick", "may_end"))

    def may_end(self, st: GameState, winner: int) -> bool:
        if st.trick_no == 3 and winner % 2:
            st._appliers.end_hand(st, "target")
            return True
        return False


def test_a_hook_that_may_end_the_hand_keeps_what_the_hand_end_writes() -> None:
    """Where a hook of the trick's end that ends the hand only by the hand end may end it
    (``ending_hooks``), the trick's end keeps what the hand end writes: the hand's entry
    where it ended the hand, a trick's end where it did not; each undo exact."""
    rules = rules_for("marianna", {})
    mech = replace(DEFAULT_MECHANISMS, scoring=_MayEndAtTheThirdTrick())
    assert hand_end_writes(mech, rules) is not None
    kinds: dict[str, int] = {}
    for seed in range(6):
        state, deals = _fresh(rules, seed, mech)
        for key, count in _play(state, random.Random(seed), deals, [], 3).items():
            kinds[key] = kinds.get(key, 0) + count
    assert kinds.get("mid-hand hand", 0) >= 3 and kinds.get("ended played_out", 0) >= 3, kinds


def _calls_out(rng: random.Random, state: GameState) -> tuple[int, Any]:
    """A call-out by a random seat, now and then (true or false), else a random action."""
    if rng.random() < 0.08:
        return rng.randrange(state.rules.nseats), CallOut()
    return _no_claims(rng, state)


def test_hands_ended_by_a_call_out() -> None:
    """Mariaggia's call-out, by any seat at any moment, ends the hand (and may end the
    match) by the hand end: an action's entry; each undo and undo_to exact."""
    rules = rules_for("mariaggia", {})
    kinds: dict[str, int] = {}
    for seed in range(10):
        state, deals = _fresh(rules, seed)
        for key, count in _play(state, random.Random(seed), deals, [], 4, _calls_out).items():
            kinds[key] = kinds.get(key, 0) + count
    outs = kinds.get("ended call_out", 0) + kinds.get("ended call_out_failed", 0)
    assert outs >= 5 and kinds.get("CallOut action", 0) >= outs, kinds
    assert "CallOut snapshot" not in kinds, kinds


class _ClaimsItsOwnWay(Claims):
    """A subclass of the claims that does not say what its claim writes."""


def test_an_action_that_does_not_say_what_it_writes_is_a_snapshot() -> None:
    rules = rules_for("schnapsen", {})
    mech = replace(DEFAULT_MECHANISMS, claims=_ClaimsItsOwnWay())
    kinds: dict[str, int] = {}
    for seed in range(6):
        state, deals = _fresh(rules, seed, mech)
        for key, count in _play(state, random.Random(seed), deals, [], 3,
                                _claims_first).items():
            kinds[key] = kinds.get(key, 0) + count
    assert kinds.get("Claim snapshot", 0) >= 3 and "Claim action" not in kinds, kinds


def test_an_ask_keeps_what_it_declares() -> None:
    """Marjapussi's ask of the partner and its answer (which may declare, or split the
    marriage) declare what they write: actions' entries; each undo and undo_to exact."""
    rules = rules_for("marjapussi", {})
    kinds: dict[str, int] = {}
    for seed in range(6):
        state, deals = _fresh(rules, seed)
        for key, count in _play(state, random.Random(seed), deals, [], 2).items():
            kinds[key] = kinds.get(key, 0) + count
    assert kinds.get("AskPartner action", 0) >= 3 and "AskPartner snapshot" not in kinds, kinds
    assert kinds.get("Answer action", 0) >= 3 and "Answer snapshot" not in kinds, kinds
