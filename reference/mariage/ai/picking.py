"""The picks after a set's first, from the listing kept since that first pick.

Where sets of several cards are passed one card per decision (German Marjapussi,
Thousand for two: :attr:`ActionSpace.pick_size <mariage.ai.encoding.ActionSpace.pick_size>`),
the match does not change between the picks of a set, and the environments keep the
engine's listing of its first pick (:meth:`~mariage.ai.encoding.ActionSpace.set_listing`).
After the first pick, a pick's legal actions are only the cards that can still complete
a legal set with those picked (the actions offered before the sets, such as a
concession, only at the first): :func:`cards_left` finds them from the kept listing
(a ``CardSets`` listing of every set from the hand by the hand's bits, no set made),
and :func:`later_pick_ids` and :func:`later_pick_mask` turn them into the ids and the
mask that :meth:`~mariage.ai.encoding.ActionSpace.legal_ids` and
:meth:`~mariage.ai.encoding.ActionSpace.mask` give there, without their checks of the
phase.

>>> from mariage import load_rules, new_match
>>> from mariage.ai.encoding import ActionSpace
>>> from mariage.engine.phase import Phase
>>> state = new_match(load_rules("thousand-2"), 2)
>>> space = ActionSpace(state.rules)
>>> while state.phase != Phase.PASSING or state.pass_step < 0:
...     state.apply(state.legal_actions()[-1])
>>> listing = space.set_listing(state)
>>> first = space.legal_ids(state, None, 0, listing)[-1]  # a card: the first pick
>>> picked = 1 << (first - space.pick_base)
>>> later_pick_ids(space, state, picked, listing) == space.legal_ids(state, None, picked, listing)
True
>>> bool((later_pick_mask(space, state, picked, listing)
...       == space.mask(state, None, picked, listing)).all())
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from mariage.engine.actions import Action, Give
from mariage.engine.mechanisms.passing import CardSets
from mariage.engine.state import GameState

from .encoding import ActionSpace

__all__ = ["cards_left", "later_pick_ids", "later_pick_mask"]

_over, _INT8 = np.ndarray, np.dtype(np.int8)  # (as ActionSpace.mask makes its arrays)


def cards_left(state: GameState, listing: Sequence[Action], picked: int) -> int:
    """The cards of the seat to act that, with the cards ``picked`` so far, can still
    complete a set of ``listing`` (the engine's listing of the set's first pick); none
    of those picked.

    >>> from mariage.engine.mechanisms.passing import CardSets
    >>> from mariage import load_rules, new_match
    >>> state = new_match(load_rules("thousand-2"), 2)
    >>> cards_left(state, [Give(0b0110), Give(0b1100), Give(0b1001)], 0b0100)
    10
    """
    if type(listing) is CardSets:  # every set of its size from the hand
        return state.hands[state.to_act] & ~picked  # type: ignore[index]
    allowed = 0
    for a in listing:
        if type(a) is Give and a.cards & picked == picked:
            allowed |= a.cards
    return allowed & ~picked


def later_pick_ids(space: ActionSpace, state: GameState, picked: int,
                   listing: Sequence[Action]) -> list[int]:
    """The legal ids of the seat to act after the first pick of a set (``picked`` not
    0): those of the cards left (:func:`cards_left`), in id order."""
    pick_ids = space._pick_ids
    assert pick_ids is not None
    return pick_ids(cards_left(state, listing, picked))


def later_pick_mask(space: ActionSpace, state: GameState, picked: int,
                    listing: Sequence[Action]) -> npt.NDArray[np.int8]:
    """The mask of :func:`later_pick_ids`."""
    pick_mask = space._pick_mask
    assert pick_mask is not None
    return _over(space.size, _INT8, pick_mask(cards_left(state, listing, picked)))
