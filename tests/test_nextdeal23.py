"""More of the next deal left to the code that writes it (issue #28, twenty-third session).

Two changes to what the generated next deal resets: the auction's numbers (the high bid
and its bidder, the contract, the declarer, the step of a sequence of turns), the trump
calls' ``called`` and the cards laid ``aside`` are declared in
:data:`mariage.engine.unwritten.WRITERS`, so that rules without their part leave them out;
and the slots that the written opening stores in any case (the trick's number, who acts,
the declarations' window) are not reset first, the other branch of the opening (a state
whose mechanisms are not those the code was written for) giving them their start before
it asks the mechanisms. ``tests/test_nextdeal22.py`` plays every ruleset against the
full reset and scans the source for the writes of the declared slots; these tests add
what is particular to this session.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import mariage.engine.mechanisms.dealing as dealing
import pytest
from mariage import GameState, codegen, list_rulesets, load_rules
from mariage.arena.search import determinize
from mariage.conformance.engine import _sample_view
from mariage.engine.freshhand import hand_values
from mariage.engine.mechanisms.dealing import _fresh_deals, _written
from mariage.engine.unwritten import unwritten_slots
from mariage.errors import IllegalActionError
from mariage.notation.turnedup import _turned_up_as
from test_nextdeal22 import _data, _full_deal, _pick

RULESETS = list_rulesets()
#: the slots declared this session
NEW = frozenset({"high_bid", "high_bidder", "contract", "declarer", "pass_step", "called",
                 "aside"})


def _state(name: str) -> GameState:
    return GameState(load_rules(name), first_dealer=0)


def test_the_new_slots_left_out_where_the_rules_lack_their_part() -> None:
    # no auction, no talon, no close, no trump calls: every one left out
    assert unwritten_slots(_state("marianna")) >= NEW
    assert unwritten_slots(_state("mariglia")) >= NEW
    # the auction's numbers and its talon (laid aside: a packet not chosen)
    assert not (NEW - {"called"}) & unwritten_slots(_state("thousand"))
    # the suit auction's
    coinche = unwritten_slots(_state("belote-coinche"))
    assert not {"high_bid", "high_bidder", "contract", "declarer", "pass_step"} & coinche
    # a close lays the stock aside; trump calls write what was called; the taker of the
    # turned card declares
    assert "aside" not in unwritten_slots(_state("schnapsen"))
    assert "called" not in unwritten_slots(_state("marjapussi-de"))
    assert "declarer" not in unwritten_slots(_state("belote"))


def test_a_slot_poked_and_declared_unwritten_stays_as_poked() -> None:
    """What the declaration means: the next deal no longer stores these slots."""
    rules = load_rules("marianna")
    state = GameState(rules, first_dealer=0)
    state.deal(list(range(rules.ncards)))
    state.high_bid, state.aside = 70, [3]
    while state.to_act is not None:
        state.apply(state.legal_actions()[0])
    state.deal(list(range(rules.ncards)))
    assert state.high_bid == 70 and state.aside == [3]


@pytest.mark.parametrize("name", RULESETS)
def test_mechanisms_replaced_after_the_deal_was_written_get_the_full_start(name: str) -> None:
    """The opening's other branch: a state whose mechanisms are not those its deal was
    written for asks its own, after giving the slots the written opening stores their
    start (the trick's number that the trick's start counts on...)."""
    rules = load_rules(name)
    rng = random.Random(7)
    state = GameState(rules, first_dealer=1)
    hands = 0
    while not state.terminal and hands < 4:
        deck = list(range(rules.ncards))
        rng.shuffle(deck)
        first = rng.randrange(rules.nseats) if rules.first_lead == "lot" else None
        if state.hand_no:
            state.mech = replace(state.mech)  # the same classes: the same code, not `_mech`
            ref = state.clone()
            _full_deal(ref, deck, first)
            state.deal(deck, first)
            assert _data(state) == _data(ref), f"{name}: the deal differs from a full reset"
        else:
            state.deal(deck, first)
        hands += 1
        while state.to_act is not None:
            state.apply(_pick(state, rng))
    assert hands >= 2


def test_the_opening_slots_are_left_out_of_the_reset(monkeypatch: pytest.MonkeyPatch) -> None:
    """The generated deal of Marianna stores the trick's number once, in the opening."""
    take = _take_source("marianna-2", monkeypatch)
    reset = next(line for line in take.splitlines() if line.endswith(") = _proto"))
    starts = hand_values(GameState, load_rules("marianna-2"))
    assert starts is not None
    for slot in ("trick_no", "to_act", "_free_play", "_decl_open"):
        assert f"st.{slot}," not in reset
        assert take.count(f"st.{slot} = {starts[slot]!r}") == 1  # the other branch's


def test_written_counts_a_store_in_any_case_before_any_read() -> None:
    lines = ["    st.leader = 1",
             "    if dealer is not None:",  # no else: not in any case
             "        st.trump = 2",
             "    st.phase = st.to_act",  # to_act read before the branches store it
             "    if st.mech is _mech:",
             "        st.to_act = st.leader", "        st.trick_no = 1", "        st.out = 0",
             "    else:",
             "        st.trick_no = 0", "        st.out = -1", "        st.mech.open(st)",
             "    st.trump = 3"]  # read (the first branch) before
    assert _written(lines) == ("leader", "phase", "trick_no", "out")
    assert _written(["    x = st.known", "    st.known = []"]) == ()


@pytest.mark.parametrize("name", RULESETS)
def test_the_search_tools_keep_the_length_of_aside(name: str) -> None:
    """Why their writes of ``aside`` are allowed outside the declared modules: each
    replaces the list's items, so an empty list (a ruleset that lays nothing aside)
    stays empty."""
    rules = load_rules(name)
    rng = random.Random(3)
    state = GameState(rules, first_dealer=0)
    deck = list(range(rules.ncards))
    rng.shuffle(deck)
    state.deal(deck, rng.randrange(rules.nseats) if rules.first_lead == "lot" else None)
    seen = 0
    while state.to_act is not None:
        seat = state.to_act
        copies = [determinize(state, seat, rng), _sample_view(state, seat, rng)]
        hidden = rules.cards_of(state.hands[(seat + 1) % rules.nseats])
        if state.turn_up is not None and hidden:
            copies.append(_turned_up_as(state, state.turn_up, hidden[0]))
        for copy in copies:
            assert len(copy.aside) == len(state.aside)
        seen += len(copies)
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    assert seen


def _take_source(name: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The generated check and deal of a caller's deck (``take_0``) under ``name``."""
    sources: list[str] = []
    run = codegen.run

    def keep(source: str, label: str, ns: dict[str, Any]) -> None:
        sources.append(source)
        run(source, label, ns)

    monkeypatch.setattr(codegen, "run", keep)
    monkeypatch.setattr(dealing, "_FRESH", {})  # (written anew)
    assert _fresh_deals(GameState(load_rules(name), first_dealer=0)) is not None
    monkeypatch.undo()
    return sources[-1].split("def take_0(")[1].split("\ndef ")[0]


@pytest.mark.parametrize("name", ["marianna", "mariglia", "schnapsen", "belote", "thousand"])
def test_a_spoiled_deck_is_dealt_or_refused_as_the_generic_deal_does(name: str) -> None:
    """Each position of a deck spoiled in turn (a card twice, a negative number that
    indexes a card's bit, a number above the pack, a float, a bool): the generated check
    deals or refuses as the mechanism's own check does."""
    rules = load_rules(name)
    n = rules.ncards
    deck = list(range(n))
    random.Random(5).shuffle(deck)

    def outcome(state: GameState, cards: list[Any]) -> Any:
        try:
            state.deal(cards)
        except IllegalActionError as exc:
            return exc.rule_id, state.hand_no
        return _data(state)

    refused = 0
    for at in range(n):
        for bad in (deck[(at + 1) % n], deck[at] - 2 * n, n, float(deck[at]), deck[at] == 1):
            spoiled = [*deck[:at], bad, *deck[at + 1:]]
            fast, generic = (GameState(rules, first_dealer=0) for _ in range(2))
            generic._deals = ()  # the mechanism's deal (Dealing.deal), not the generated one
            got = outcome(fast, spoiled)
            assert got == outcome(generic, spoiled), (name, at, bad)
            refused += type(got) is tuple
    assert refused >= 4 * n
