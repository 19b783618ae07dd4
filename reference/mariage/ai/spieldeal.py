"""The stock of an OpenSpiel game's tree dealt card by card as it is drawn.

With chance nodes (``chance="explicit"``), a ruleset whose hand may stop at any moment
with cards left in its stock (a call-out: Mariaggia), and whose stock is drawn from
after every trick (nothing after a trick ends the hand or waits before the draw: see
:func:`stock_positions`), places at the deal only the cards that the deal shows
someone: the hands and the turned-up card, each a chance node over the cards not yet
placed, in deck order. The stock's places are filled with the cards left, in card
order, and none of them is a chance outcome yet: nobody has seen it. Before a trick's
last card (the state is a chance node before the seat to play it acts), one chance node
a card places the cards that the draw after the trick takes, in drawing order (the
trick's winner's first): uniform over the cards not yet placed, as the deal's (the same
lists and the same path: :func:`hold_draws`, then :func:`place` puts them in the
stock's next places); then the trick's last card is played and the engine draws them as
dealt, nothing taken back. Nobody sees a card in the stock, so the players' views are
the same before and after these nodes. Every complete deal is as likely as before (each
card placed is uniform over the cards left, whatever place it fills), and a card never
drawn (left when the hand stops) is never a chance outcome.

Elsewhere every card of such a stock is drawn in every hand (or a hook after the trick
may stop the draw: a hand target, claims, a close before the draw, a question), and the
deal keeps a chance node for every card of the deck, as rulesets without such a stock
(every card in a hand or turned up, a talon, a second deal after the auction).

The state's fields for it: ``undrawn``, the cards not yet placed once the hand is dealt
(in card order); ``undrawn_at``, the stock's place of the lowest of them (the turned-up
card below); ``drawn_at``, the places of the hand's draws among its nodes after the deal
(:mod:`mariage.ai.spielresample` reads them); ``_undealt``, the number of the stock's
places (0 without such a stock, or with sampled chance), while a draw's cards are placed
the number of cards left once they are.

>>> from mariage import load_rules
>>> len(stock_positions(load_rules("mariaggia"))), stock_positions(load_rules("marianna"))
(29, ())
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, cast

from mariage.engine.deals import deal_owners
from mariage.engine.phase import Phase
from mariage.engine.rules import Rules
from mariage.engine.state import GameState

from .encoding import Snapshot
from .spielcopy import SharedTuple, StepList

if TYPE_CHECKING:
    from .openspiel_game import _State

__all__ = ["deal", "deal_positions", "hold_draws", "lay", "place", "stock_positions"]

#: OpenSpiel's chance player (as spiellag's)
_CHANCE = -1
_PLAY = Phase.PLAY


def stock_positions(rules: Rules) -> tuple[int, ...]:
    """The places in the deck (top first) of the stock's cards that are drawn after every
    trick, where a hand may stop with cards left in the stock at any moment (a call-out),
    the turned-up card left out; ``()`` where the stock is no such stock (none; a talon,
    taken whole; the rest of the pack dealt after the auction; a draw that something
    after the trick may stop), its places depend on the dealer, or every card of it is
    drawn in every hand (no call-out: dealt at once, it costs less)."""
    if not rules.stock_size or rules.talon_rule is not None or rules.turn_up == "to_taker" \
            or rules.call_out_rule is None or GameState(rules).hooks.after_trick:
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
    if gs.phase == _PLAY:  # the cards of a draw (hold_draws), not a deal
        place(state, gs)
        return
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
    rest = state.rest
    ncards = len(state.deck) + len(rest)
    if stock_at[0] == ncards - len(stock_at):  # the stock at the deck's bottom (most often)
        deck = state.deck + rest
    else:
        deck = [0] * ncards
        for at, card in zip(deal_positions(ncards, stock_at), state.deck, strict=True):
            deck[at] = card
        for at, card in zip(stock_at, rest, strict=True):
            deck[at] = card
    gs.deal(deck, state.first)
    state.undrawn, state.rest, state.drawn_at = rest, [], []
    state.undrawn_at = len(gs.stock) - len(rest)  # (the turned-up card below them)


def hold_draws(state: _State, gs: GameState) -> None:
    """Before a trick's last card (the stock open, some of its cards not placed): where
    the draw after the trick takes cards not yet placed, make the state a chance node for
    each, in drawing order (as :func:`lay`, by ``state.deck`` and ``rest``; :func:`place`
    puts them in the stock once all are chosen)."""
    undrawn = state.undrawn
    left = len(undrawn)  # (the stock's cards above these were placed before: drawn first)
    need = min(state.rules.hand_seats - (len(gs.stock) - state.undrawn_at - left), left)
    if need > 0:
        state.rest, state.undrawn = undrawn, []
        state._undealt = left - need  # (the cards left once these are placed)
        state._kind, state._player = "draw", _CHANCE


def place(state: _State, gs: GameState) -> None:
    """The cards of the next draw are chosen (``state.deck``, in drawing order): put
    them in the stock's next places, the cards not placed below them (as :func:`lay`
    leaves them), and give the decision back to its seat."""
    chosen, rest = state.deck, state.rest
    base = state.undrawn_at
    top = base + len(rest)
    stock = gs.stock  # (the next card drawn is the last)
    stock[top:top + len(chosen)] = chosen[::-1]
    stock[base:top] = rest[::-1]
    drawn_at = state.drawn_at
    at = len(state.steps_all) + len(drawn_at)
    drawn_at.extend(range(at, at + len(chosen)))
    state.undrawn, state.rest, state.deck, state._deck_lag = rest, [], [], 0
    state._undealt = len(state.game.stock_at)
    state._kind, state._player = None, gs.to_act  # type: ignore[assignment]
