"""What the referee tells one seat's engine: the deal with hidden cards, then the reveals.

The referee keeps the full state. Each engine that accepts hidden cards
(protocol version 2, feature ``hidden_cards``) gets, per seat:

* at the deal, the deck with ``??`` for every card its seat cannot see
  (:meth:`SeatView.deal`): what :func:`~mariage.engine.observation.observe` shows
  that seat (its own hand, the hands the rules lay open, a turned-up card);
* with each action, the action as that seat sees it
  (:func:`~mariage.engine.observation.public_action`: cards passed between the
  other side's partners are ``give:?``) and a ``reveal`` of what the seat has
  come to see that the text does not say (:meth:`SeatView.after`): the deck
  places of the cards it drew, and the cards of other hands that were shown.

The rule of what a seat sees is the game model's (``GameState.known`` and
:func:`~mariage.engine.observation.observe`), so it holds for every ruleset.

>>> from mariage import load_rules, GameState, canonical_deck
>>> rules = load_rules("schnapsen")
>>> st = GameState(rules, first_dealer=0)
>>> deck = canonical_deck(rules)
>>> st.deal(deck)
>>> view = SeatView(1)
>>> masked = view.deal(st, deck)
>>> sum(c != "??" for c in masked)   # its five cards and the turned-up card
6
"""

from __future__ import annotations

from typing import Any

from mariage.engine.actions import Action, Give
from mariage.engine.actiontext import action_text
from mariage.engine.observation import give_receivers, in_hands_seen, observe, public_action
from mariage.engine.state import GameState, expect_state

from ..conformance.protocol import UNKNOWN_CARD
from ..errors import expect_str

__all__ = ["SeatView", "visible_cards"]


def visible_cards(state: GameState, seat: int) -> int:
    """The cards ``seat`` sees in ``state`` now (bit mask): its hand, the shown cards of
    other hands, the turned-up card, the cards on the table and in finished tricks."""
    obs = observe(state, seat)
    mask = in_hands_seen(obs)
    for _, c in obs.trick:
        mask |= 1 << c
    for _, cards, _ in obs.tricks:
        for c in cards:
            mask |= 1 << c
    return mask


def action_cards(state: GameState, text: str) -> int:
    """The cards named in an action text (bit mask): ``KH``, ``exchange:7H``, ``give:A+B``."""
    index = expect_state(state, "action_cards").rules.card_index
    mask = 0
    for part in expect_str(text, "action_cards: text").replace("+", ":").split(":"):
        if part in index:
            mask |= 1 << index[part]
    return mask


class SeatView:
    """What one seat has been told of the hand in progress."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.place: dict[int, int] = {}  # card -> its place in the deck of the hand
        self.told = 0  # cards the seat has been told of (bit mask)
        self.stock = 0  # the cards in the stock before the last action (bit mask)

    def deal(self, state: GameState, deck: list[int]) -> list[str]:
        """The deck of the hand just dealt in ``state``, with ``??`` for hidden cards."""
        code = state.rules.card_code
        self.place = {c: i for i, c in enumerate(deck)}
        self.told = visible_cards(state, self.seat)
        self._note_stock(state)
        return [code[c] if self.told >> c & 1 else UNKNOWN_CARD for c in deck]

    def _note_stock(self, state: GameState) -> None:
        self.stock = 0
        for c in state.stock:
            self.stock |= 1 << c

    def action(self, state: GameState, seat: int, action: Action) -> str:
        """The text of ``seat``'s action as this seat sees it (cards noted as told)."""
        receiver = give_receivers(state)[-1] if type(action) is Give else -1
        text = action_text(state.rules,
                           public_action(state.rules, self.seat, seat, action, receiver))
        self.told |= action_cards(state, text)
        return text

    def after(self, state: GameState) -> dict[str, Any]:
        """The ``reveal`` of what the seat sees in ``state`` and was not told yet.

        ``{"deck": {place: code}}`` for cards seen as they come off the stock
        (the order of the draws is public, so the seat knows their places): its
        own draws, and others' where hands are open; ``{"hands": {seat:
        [codes]}}`` for other cards of other hands shown (a declaration, an
        answer: the seat cannot tell where they were dealt); empty when there is
        nothing new.
        """
        r = state.rules
        new = visible_cards(state, self.seat) & ~self.told
        drawn = new & self.stock
        self._note_stock(state)
        if not new:
            return {}
        self.told |= new
        obs = observe(state, self.seat)
        out: dict[str, Any] = {}
        if drawn:
            out["deck"] = {str(self.place[c]): r.card_code[c] for c in r.cards_of(drawn)}
        hands = {str(s): [r.card_code[c] for c in r.cards_of(new & ~drawn & m)]
                 for s, m in enumerate(obs.shown) if s != self.seat and new & ~drawn & m}
        if hands:
            out["hands"] = hands
        return out
