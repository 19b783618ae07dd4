"""Helpers for the Schnapsen and Sixty-six rule tests: exact deals by the notes' deck order.

Seats A B = 0 1. Unless said otherwise B deals, so A (the non-dealer) leads
the first trick. :func:`deal` lays a deck out position by position as the
rules notes (section 7) fix it, so the tests also exercise that order.

>>> st = deal("schnapsen", "AH TH KH QH JH", turn="JS", talon="AS")
>>> st.to_act, st.rules.format_cards(st.hands[0]), st.rules.card_code[st.stock[-1]]
(0, 'AH TH KH QH JH', 'AS')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mariage import GameState, Phase, load_rules
from rulekit import lay_out

A, B = 0, 1


def deal(ruleset: str, a: str = "", b: str = "", turn: str | None = None, talon: str = "",
         dealer: int = B, options: Mapping[str, Any] | None = None,
         state: GameState | None = None) -> GameState:
    """Deal A exactly ``a`` and B ``b`` (filled with low cards), the turn-up, the talon order."""
    rules = load_rules(ruleset, dict(options or {}))
    hands = [a.split(), b.split()]
    stock = talon.split()
    asked = hands[0] + hands[1] + stock + ([turn] if turn else [])
    assert len(set(asked)) == len(asked), asked
    spare = sorted((c for c in rules.card_code if c not in asked),
                   key=lambda c: (-rules.rank_of[rules.card_index[c]],
                                  rules.suit_of[rules.card_index[c]]))
    for h in hands:
        while len(h) < rules.hand_size:
            h.append(spare.pop(0))
    if turn is None:
        turn = spare.pop(0)
    stock += spare
    if state is None:
        state = GameState(rules, first_dealer=dealer)
    else:
        dealer = state.dealer if state.dealer is not None else dealer
    state.deal(lay_out(rules, dealer, hands, stock, turn))
    return state


def force(state: GameState, seat: int, captured: int | None = None, tricks: int | None = None
          ) -> None:
    """Set ``seat``'s card points and tricks won (to reach a scoring situation quickly)."""
    team = state.rules.team_of[seat]
    if captured is not None:
        state.captured[team] = captured
    if tricks is not None:
        state.tricks_won[team] = tricks


def on_lead_after_winning(state: GameState, seat: int) -> None:
    """Make ``seat`` the player on lead who has just won a trick (no card on the table)."""
    assert state.phase == Phase.PLAY and not state.trick_cards
    state.leader = seat
    state.to_act = seat
    state.last_winner = seat
