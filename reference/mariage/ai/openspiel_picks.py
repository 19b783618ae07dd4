"""The picks of a set passed one card per decision, for the OpenSpiel games'
states (:mod:`mariage.ai.openspiel_game`).

Where sets of several cards are passed (German Marjapussi, Thousand for two), a set is
picked one card per decision: the other players see that a card was picked, not which,
and nothing else changes before the set's last card, when the engine gets the set. The
state keeps the engine's listing of the set's first pick until the set is complete;
the picks after the first take their legal ids and their check from it
(:mod:`mariage.ai.picking`).

>>> import pyspiel
>>> import mariage.ai.openspiel_game
>>> game = pyspiel.load_game("mariage_thousand_2", {"chance": "sampled", "seed": 2})
>>> state = game.new_initial_state()
>>> while not state.picked:  # up to the first pick of a set
...     state.apply_action(state.legal_actions()[0])
>>> later = state.legal_actions()
>>> later == game.space.legal_ids(state.gs, None, state.picked, state._picks)
True
>>> state.apply_action(later[0])
>>> state.picked, state._picks  # the set went to the engine: a new step
(0, None)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from mariage.engine.actions import Action, Give
from mariage.engine.mechanisms.passing import CardSets
from mariage.engine.observation import public_action
from mariage.engine.phase import Phase
from mariage.engine.rules import Rules
from mariage.engine.state import GameState

from .encoding import ActionSpace, Pick
from .layout import AIAction
from .openspiel_observer import Step
from .picking import cards_left, later_pick_ids

__all__ = ["PickingState", "pass_cards", "pick", "pick_ids", "record"]

_DEAL, _OVER, _PASSING = Phase.DEAL, Phase.OVER, Phase.PASSING


#: by the number of players and the seat who picks: per player, whether it is not that
#: seat (who sees a pick only as made)
_ALL_BUT = tuple(tuple(tuple(p != seat for p in range(n)) for seat in range(n))
                 for n in range(9))


class PickingState(Protocol):
    """The fields of an OpenSpiel game's state that its picks read and set (the state
    calls :func:`pick_ids` and :func:`pick` with itself: functions, not a base class, so
    that the state's class keeps pyspiel's as its only base)."""

    gs: GameState | None
    rules: Rules
    picked: int
    _picks: Sequence[Action] | None
    _space: ActionSpace
    _player: int
    _pick_range: range
    _nothing: tuple[int, ...]
    hidden_steps: dict[int, tuple[bool, ...]]
    steps_all: list[Step]

    def _settle(self) -> None:
        ...


def pick_ids(state: PickingState, gs: GameState) -> list[int]:
    """The legal ids of the seat to act while it picks a set (the phase is passing and
    passing is factored): after the first pick, the cards left by the kept listing; else
    as :meth:`ActionSpace.legal_ids`, the listing kept from here."""
    picks = state._picks
    if picks is None:
        picks = state._picks = state._space.set_listing(gs)
    else:
        picked = state.picked
        if picked:  # (as later_pick_ids: a listing of every set from the hand at once)
            space = state._space
            if type(picks) is CardSets:
                return space._pick_ids(gs.hands[gs.to_act] & ~picked)  # type: ignore[index,misc]
            return later_pick_ids(space, gs, picked, picks)
    return state._space.legal_ids(gs, None, state.picked, picks)


def pick(state: PickingState, gs: GameState, action: int) -> bool:
    """Pick a card of a set being passed, if legal (nobody but the picker sees which):
    before the set's last card nothing changes but the cards picked, and the engine's
    listing is kept for the set's next picks (the match does not change until the set is
    complete; :func:`pick_ids` keeps it from the first); at its last the engine gets the
    set. False (nothing done) for a pick not legal now."""
    if gs.phase != _PASSING or gs.pass_step < 0:
        return False  # (refused by the state's _apply_action)
    card = action - state._pick_range.start
    picked = state.picked
    seat = state._player
    listing = state._picks
    if listing is None:  # (not asked for the legal actions first)
        listing = state._picks = gs.legal_actions()
    if type(listing) is CardSets:  # every set of its size from the hand (cards_left)
        if not (gs.hands[seat] & ~picked) >> card & 1:
            return False  # (refused by the state's _apply_action)
    elif not cards_left(gs, listing, picked) >> card & 1:
        return False
    picked |= 1 << card  # (as with_pick)
    nothing = state._nothing  # (a zero per player)
    hidden = _ALL_BUT[len(nothing)][seat]
    steps = state.steps_all
    # (the step's count of cards, as Passing.count reads it, without the call)
    if picked.bit_count() < gs.rules.passing_steps[gs.pass_step][2]:
        state.picked = picked
        state.hidden_steps[len(steps)] = hidden
        steps.append((seat, action, nothing, nothing))  # (no hand, no card shown changed)
        return True
    own, known = gs.hands[:], gs.known[:]
    gs.apply(Give(picked))  # (a legal set: each card was checked)
    state.picked, state._picks = 0, None
    state.hidden_steps[len(steps)] = hidden
    record(state, gs, seat, action, own, known)
    return True


def record(state: PickingState, gs: GameState, seat: int, action: int, own: list[int],
           known: list[int]) -> None:
    """Record the decision ``action`` of ``seat`` just applied (``own`` and ``known``:
    the hands and the cards known before it) and find who acts next."""
    phase = gs.phase
    nothing = state._nothing
    if phase != _DEAL and phase != _OVER:  # what each player came to see: when asked
        hands, now_known = gs.hands, gs.known  # (unchanged, as by a bid: nothing seen)
        state.steps_all.append((seat, action, nothing, nothing)
                               if hands == own and now_known == known
                               else (seat, action, None, (own, known, hands[:], now_known[:])))
        # another decision: as _settle() sets it (kind None and not done, as before)
        state._player = gs.to_act  # type: ignore[assignment]
        return
    state.steps_all.append((seat, action, nothing, nothing))  # (the hand's end: nothing
    state._settle()  # seen of hands no longer played)


def pass_cards(state: PickingState, gs: GameState, seat: int, action: int,
               act: AIAction) -> None:
    """Apply cards passed (unseen by some); refuse a pick (:func:`pick` takes the legal
    ones)."""
    r = state.rules
    space = state._space
    if isinstance(act, Pick):
        raise ValueError(f"{space.text(action)} is not legal for seat {seat} now")
    hidden: tuple[bool, ...] | None = None  # who sees this step only as made
    if type(act) is Give and r.auction_rule is not None:
        # cards passed within the other side are unseen (public_action hides no other)
        receiver = gs.mech.passing.seats(gs)[1]
        hidden = tuple(public_action(r, p, seat, act, receiver) != act
                       for p in range(r.nseats))
    state.picked = space.play(gs, action, state.picked)
    if hidden is not None and any(hidden):
        state.hidden_steps[len(state.steps_all)] = hidden
