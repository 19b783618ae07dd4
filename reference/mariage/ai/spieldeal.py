"""The stock of an OpenSpiel game's tree dealt card by card as it is drawn.

With chance nodes (``chance="explicit"``), a ruleset whose stock is drawn from after
the tricks (Mariazza, Mariaggia, Sixty-six, Schnapsen, Marianna, Cinquecento...: see
:func:`stock_positions`) places at the deal only the cards that the deal shows someone:
the hands and the turned-up card, each a chance node over the cards not yet placed, in
deck order. The stock's places are filled with the cards left, in card order, and none
of them is a chance outcome yet: nobody has seen it. When an action makes seats draw
(a trick's last card, a draw after a pause), the action is applied, each card it drew
is taken back out of its hand, and one chance node a card, in drawing order (from the
seat that draws first, the trick's winner), places the card drawn: uniform over the
cards not yet placed (those still in the stock, or taken back), the card chosen going
to the hand and the one taken back to the chosen card's place. So every complete deal
is as likely as before (each card placed is uniform over the cards left, whatever
place it fills), and a card that is never drawn (the stock closed, or left when the
hand ends) is never a chance outcome. The decision is recorded once its cards are
placed (what each player came to see by it, as :func:`~mariage.ai.openspiel_picks.record`).

The state's fields for it: ``undrawn``, the cards not yet placed once the hand is dealt
(in card order) and ``undrawn_bits`` the same as bits; ``drawing``, while the draws of a
decision are placed, its seat, its id, the hands and the cards known before it and the
(seat, card taken back) still to place; ``drawn_at``, the places of the hand's draws
among its nodes after the deal (:mod:`mariage.ai.spielresample` reads them); ``_undealt``,
the number of the stock's places (0 without such a stock, or with sampled chance).

Rulesets without such a stock (every card in a hand or turned up, a talon, a second
deal after the auction) keep a chance node for every card of the deck at the deal.

>>> from mariage import load_rules
>>> len(stock_positions(load_rules("mariazza"))), stock_positions(load_rules("belote"))
(29, ())
"""

from __future__ import annotations

from bisect import bisect_left
from functools import cache
from typing import TYPE_CHECKING, cast

from mariage.engine.deals import deal_owners
from mariage.engine.rules import Rules
from mariage.engine.state import GameState

from .encoding import Snapshot
from .openspiel_picks import record
from .spielcopy import SharedTuple, StepList

if TYPE_CHECKING:
    from .openspiel_game import _State

__all__ = ["deal", "deal_positions", "draw", "hold_draws", "lay", "stock_positions"]

#: OpenSpiel's chance player (as spiellag's)
_CHANCE = -1


def stock_positions(rules: Rules) -> tuple[int, ...]:
    """The places in the deck (top first) of the stock's cards that are drawn after the
    tricks, the turned-up card left out; ``()`` where the stock is no such stock (none;
    a talon, taken whole; the rest of the pack dealt after the auction) or its places
    depend on the dealer."""
    if not rules.stock_size or rules.talon_rule is not None or rules.turn_up == "to_taker":
        return ()
    dealers = [None] if rules.first_dealer == "none" else range(rules.nseats)
    places = {tuple(k for k, owner in enumerate(deal_owners(rules, dealer)) if owner == -1)
              for dealer in dealers}
    return places.pop() if len(places) == 1 else ()


@cache
def deal_positions(ncards: int, stock_at: tuple[int, ...]) -> tuple[int, ...]:
    """The places in a deck of ``ncards`` outside the stock's ``stock_at``: placed at the
    deal, in this order."""
    return tuple(k for k in range(ncards) if k not in stock_at)


def deal(state: _State, own: bool = False) -> None:
    """The deck is complete (but for a stock dealt as drawn): deal it (the hand before
    goes to the information state lines). ``own``: a deck the seeded generator shuffled
    for these rules, an order of the pack by construction (not checked again)."""
    gs = state.gs
    assert gs is not None
    if gs.hand_no and state.dealt_view is not None:  # (steps_all is replaced below)
        state.hands_before = SharedTuple((*state.hands_before, (
            gs.hand_no, state.dealt_hands, state.turn_up, state.steps_all,
            state.hidden_steps, state.dealt_view)))  # a hand over is never changed
    if own:
        gs.mech.dealing.deal_own(gs, state.deck, state.first)
    elif state._undealt:  # the stock's cards placed when drawn
        lay(state, gs)
    else:
        gs.deal(state.deck, state.first)
    state.deck, state.first, state._deck_lag = [], None, 0
    state.steps_all = StepList()
    state.hidden_steps = {}
    state.dealt_hands, state.turn_up = tuple(gs.hands), gs.turn_up
    # never changed: shared by pyspiel's clones
    state.dealt_view = cast(Snapshot, SharedTuple(state.game.encoder.snapshot(gs)))
    state._settle()


def lay(state: _State, gs: GameState) -> None:
    """Deal the hand: the cards placed (``state.deck``, the deck's places outside the
    stock in order) and the stock's places filled with the cards left (``state.rest``,
    in card order), which become :attr:`undrawn`."""
    stock_at = state.game.stock_at
    ncards = state.rules.ncards
    deck = [0] * ncards
    for at, card in zip(deal_positions(ncards, stock_at), state.deck, strict=True):
        deck[at] = card
    rest = state.rest
    for at, card in zip(stock_at, rest, strict=True):
        deck[at] = card
    gs.deal(deck, state.first)
    state.undrawn, state.rest, state.drawn_at = rest, [], []
    bits = 0
    for card in rest:
        bits |= 1 << card
    state.undrawn_bits = bits


def hold_draws(state: _State, gs: GameState, seat: int, action: int, own: list[int],
               known: list[int]) -> bool:
    """After the decision ``action`` of ``seat`` (``own``, ``known``: the hands and the
    cards known before it): where it drew cards not yet placed, take them back out of
    the hands and make the state a chance node for the first (True); else False."""
    bits = state.undrawn_bits
    hands = gs.hands
    n = len(hands)
    first = gs.leader if gs.leader is not None else 0  # (the trick's winner draws first)
    drawn: list[tuple[int, int]] = []  # (the last to place first: placed by pop())
    for k in range(n - 1, -1, -1):
        s = first + k if first + k < n else first + k - n
        got = hands[s] & bits
        while got:
            card = got.bit_length() - 1
            drawn.append((s, card))
            got ^= 1 << card
    if not drawn:
        return False
    for s, card in drawn:
        hands[s] ^= 1 << card
    state.drawing = (seat, action, own, known, drawn)
    # the cards not yet placed are the chance outcomes (rest) while the draws are placed
    state.rest, state.undrawn = state.undrawn, []
    state._kind, state._player = "draw", _CHANCE
    return True


def draw(state: _State, card: int, at: int = -1,
         lag: list[tuple[int, int] | list[int]] | None = None) -> None:
    """The chance outcome ``card`` (``at``: its place in ``state.rest``, where found) for
    the next card drawn (:func:`hold_draws`), kept in ``lag`` for pyspiel's history where
    given (Python's ``apply_action``); once all are placed, the decision that drew them is
    recorded."""
    if lag is not None:
        lag.append((_CHANCE, card))  # (at once: draw's checks were made by the caller)
    rest = state.rest
    if at < 0:
        at = bisect_left(rest, card)
        if at == len(rest) or rest[at] != card:
            raise ValueError(f"chance outcome {card} is no card left to draw")
    del rest[at]
    drawing = state.drawing
    gs = state.gs
    assert drawing is not None and gs is not None
    drawn = drawing[4]
    s, held = drawn.pop()
    if card != held:  # the card drawn takes the place of the one taken back
        stock = gs.stock
        try:
            stock[stock.index(card)] = held
        except ValueError:  # another card taken back, to be placed later
            k = next(k for k, (_, c) in enumerate(drawn) if c == card)
            drawn[k] = (drawn[k][0], held)
    gs.hands[s] |= 1 << card
    state.undrawn_bits ^= 1 << card
    drawn_at = state.drawn_at
    drawn_at.append(len(state.steps_all) + 1 + len(drawn_at))
    if not drawn:
        state.drawing, state._kind = None, None
        state.undrawn, state.rest = rest, []
        record(state, gs, *drawing[:4])
