"""The masks of an action space made at once: from the bits of cards, and of a listing
that the engine hands out again, kept by its objects (with its ids).

An auction lists the same few objects again and again: the bids of one shared ladder,
sliced between the lowest bid and the highest the seat may make
(:mod:`mariage.engine.mechanisms.auction`). Looking each one up by its object costs
about 60 ns (its ``id()``, a new int, and a dict lookup), 3 to 5 µs for a listing of 50
to 60 bids: five to eight times what the listing itself costs. :class:`KeptListings`
keeps, per listing seen, its objects, their ids in the listing's order, the ids sorted,
its mask (read only: a copy of it is a new mask) and the mask's bytes from its lowest id
on (written over a mask of other ids below it at once); a listing of the same objects
again gets them from one list comparison (in C, and the same object is equal at once)
instead of a lookup per action. Outside the play phase every listing's mask comes so
(:meth:`KeptListings.mask`): a forced pass, an answer, a raise or a talon's packets are
the engine's same objects again, and a mask copied costs less than one made.

>>> from mariage.engine.actions import Bid, Pass
>>> ladder = [Pass(), *(Bid(v) for v in range(100, 160, 5))]
>>> kept = KeptListings(20)
>>> looked_up = []
>>> def ids_of(listing):
...     looked_up.append(len(listing))
...     return [19 - k for k in range(len(listing))]
>>> objects, ids, ordered, mask, tail = kept.get(ladder[:], ids_of)
>>> ids[:3], ordered[:3], int(mask[19]), int(mask[0]), mask.flags.writeable
([19, 18, 17], [7, 8, 9], 1, 0, False)
>>> tail == mask[ordered[0]:].tobytes() == bytes([1] * 13)
True
>>> kept.get(ladder[:], ids_of)[2] == ordered, looked_up  # the second: no lookup
(True, [13])
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from collections.abc import Set as AbstractSet
from functools import cache, lru_cache

import numpy as np
import numpy.typing as npt

from mariage import codegen
from mariage.engine.actions import Action
from mariage.engine.phase import Phase
from mariage.engine.state import GameState

from .legalinfo import mask_of

__all__ = ["KeptListings", "Listed", "PhaseWindows", "WindowMasks", "mask_maker",
           "window_bytes"]

#: a phase whose legal actions are a window of a ladder (an auction's: a pass and its bids,
#: :func:`~mariage.engine.dispatch.phase_windows_of`): the window's function, the bytes of
#: the masks of the windows seen (by window: :func:`window_bytes`), the ids of the
#: ladder's actions in its order and the size of the numbering
WindowMasks = tuple[Callable[[GameState, int], "tuple[int, int, int] | None"],
                    dict[tuple[int, int, int], bytes], list[int], int]

#: a window of a phase's ladder: ``(head, start, stop)`` (see :func:`window_bytes`)
Window = tuple[int, int, int]
#: how many windows a store keeps (cleared when full: at most a few hundred windows in a
#: ruleset's auction)
_WINDOWS_KEPT = 4096

#: a listing kept: its objects, their ids in its order, the ids sorted, its mask (read
#: only: copy it to hand it out), and its mask's bytes from the lowest id on
Listed = tuple[list[Action], list[int], list[int], npt.NDArray[np.int8], bytes]


class KeptListings:
    """The :data:`Listed` of the long listings seen last, for an action numbering of
    ``size`` ids (at most ``bound`` of them kept; cleared when full): one store per
    numbering, shared by its action spaces (:class:`~mariage.ai.numbering.Numbering`).

    A listing is found by the kind of its first action (a pass, or the lowest bid where
    the seat must open), its last object and its length, and is the one kept only if it
    equals the kept actions, one by one (the same object is equal at once; an equal one
    made anew, such as a concession listed first, by its fields): a different listing
    with the same key is looked up again and kept instead, so the ids are always those
    of the actions listed. The kept objects stay alive, so no other object can take
    their ``id()`` while they are kept.
    """

    __slots__ = ("_bound", "_kept", "_size")

    def __init__(self, size: int, bound: int = 256) -> None:
        self._size = size
        self._bound = bound
        self._kept: dict[tuple[type | int, type | int, int], Listed] = {}

    def get(self, listing: list[Action], ids_of: Callable[[list[Action]], list[int]]
            ) -> Listed:
        """The :data:`Listed` of ``listing`` (not empty), kept or made by ``ids_of``
        (the ids of a listing, in its order). The lists it holds are the kept ones:
        copy them before changing them."""
        key = (type(listing[0]), id(listing[-1]), len(listing))
        found = self._kept.get(key)
        if found is not None and found[0] == listing:
            return found
        return self._keep(key, listing, ids_of(listing))

    def by_objects(self, listing: list[Action], ids_of: Callable[[list[Action]], list[int]]
                   ) -> Listed:
        """:meth:`get` for a listing (not empty) whose objects the engine hands out
        again, all of them (a lead's questions; an exchange, a close and a claim): found
        by its first object, not its kind, so that listings with the same last object and
        length and a first of the same kind but another (an exchange of another card)
        are kept side by side, in the same store."""
        key = (id(listing[0]), id(listing[-1]), len(listing))
        found = self._kept.get(key)
        if found is not None and found[0] == listing:
            return found
        return self._keep(key, listing, ids_of(listing))

    def mask(self, listing: list[Action], ids_of: Callable[[list[Action]], list[int]],
             plain: Collection[type], fresh: AbstractSet[type]) -> npt.NDArray[np.int8]:
        """The mask of ``listing`` (not empty; a new, writeable array), as :meth:`get`
        keeps it; a last action of a kind in ``plain`` (without fields: all of its kind
        are equal) is found by its kind, not its object; a listing holding a kind in
        ``fresh`` (the engine makes it anew each time: its objects are never listed
        again) is looked up (``ids_of``) and not kept."""
        last = listing[-1]
        kind = last.__class__
        if kind in fresh:  # (an answer made anew, most often alone: never kept)
            return mask_of(ids_of(listing), self._size)
        key = (type(listing[0]), kind if kind in plain else id(last), len(listing))
        found = self._kept.get(key)
        if found is not None and found[0] == listing:
            return found[3].copy()
        ids = ids_of(listing)
        if fresh and not fresh.isdisjoint(map(type, listing)):  # (in C)
            return mask_of(ids, self._size)
        return self._keep(key, listing, ids)[3].copy()

    def _keep(self, key: tuple[type | int, type | int, int], listing: list[Action],
              ids: list[int]) -> Listed:
        """Keep ``listing`` with its ``ids`` (and its mask) under ``key``."""
        mask = mask_of(ids, self._size)
        mask.flags.writeable = False  # (kept: each caller gets a copy)
        ordered = sorted(ids)
        made = (listing[:], ids, ordered, mask, mask[ordered[0]:].tobytes())
        kept = self._kept
        if len(kept) >= self._bound:
            kept.clear()
        kept[key] = made
        return made


#: how many cards a mask's bytes are looked up by at once (:func:`mask_maker`): a table of
#: 4,096 entries of 12 bytes, about 200 kB, shared by every numbering
_GROUP = 12


@cache
def _group_bytes(width: int) -> tuple[bytes, ...]:
    """For each bit mask of ``width`` cards, its bytes: one per card, 1 where its bit is
    set (the first card's first)."""
    return tuple(bytes(b >> i & 1 for i in range(width)) for b in range(1 << width))


@lru_cache(maxsize=64)
def mask_maker(base: int, ncards: int, size: int) -> Callable[[int], bytearray]:
    """The function making, for the bits of the cards that may be played, the bytes of
    a mask of ``size`` ids where card ``c``'s id is ``base + c``: a byte per card from a
    table per group of twelve cards, joined (no item set per card), written once per
    numbering.

    >>> mask_maker(1, 10, 12)(0b10_0000_0101)
    bytearray(b'\\x00\\x01\\x00\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x01\\x00')
    """
    # (an empty bytearray's join makes the bytearray at once: one copy less than
    # bytearray(b"".join(...)))
    ns: dict[str, object] = {"_head": bytes(base), "_tail": bytes(size - base - ncards),
                             "_joined": bytearray().join}
    parts = ["_head"] if base else []
    # each group of twelve cards by a shift and an ``&`` (where the cards are more than
    # 30, the bits are an int of two digits, and each of these makes a new int: three
    # groups of twelve for 36 cards cost about 600 machine instructions less than five
    # groups of eight taken from the bytes of the int, ``to_bytes`` and their unpacking)
    for g, start in enumerate(range(0, ncards, _GROUP)):
        width = min(_GROUP, ncards - start)
        ns[f"_g{g}"] = _group_bytes(width)
        bits = f"m >> {start}" if start else "m"
        if start + width < ncards:
            bits += f" & {(1 << width) - 1}"
        parts.append(f"_g{g}[{bits}]")
    if size > base + ncards:
        parts.append("_tail")
    codegen.run(f"def mask_bytes(m):\n    return _joined(({', '.join(parts)},))\n",
                f"<mask of {ncards} cards from {base} in {size}>", ns)
    fn: Callable[[int], bytearray] = ns["mask_bytes"]  # type: ignore[assignment]
    return fn


def window_bytes(found: WindowMasks, window: tuple[int, int, int]) -> bytes:
    """The bytes of the mask of ``window`` (``(head, start, stop)``: the ladder's actions
    before ``head`` and from ``start`` to ``stop``) of the phase ``found``, kept in its
    store (cleared when full) for the same window again: a mask is then its bytes copied
    at once, no action listed or looked up.

    >>> kept = {}
    >>> window_bytes((None, kept, [3, 4, 5, 6], 8), (1, 2, 4))
    b'\\x00\\x00\\x00\\x01\\x00\\x01\\x01\\x00'
    >>> kept[1, 2, 4] == window_bytes((None, kept, [3, 4, 5, 6], 8), (1, 2, 4))
    True
    """
    _, kept, ids, size = found
    head, start, stop = window
    listed = bytearray(size)
    for i in ids[:head]:
        listed[i] = 1
    for i in ids[start:stop]:
        listed[i] = 1
    made = bytes(listed)
    if len(kept) >= _WINDOWS_KEPT:
        kept.clear()
    kept[window] = made
    return made



class PhaseWindows:
    """The legal ids of the phases whose legal actions are a window of a ladder (an
    auction's pass and bids, the answers to a question) for an action space, under the
    mechanisms of the state last asked: one per
    :class:`~mariage.ai.encoding.ActionSpace` (``space.windows``), which its masks and
    id lists ask first outside the play phase, whichever environment (PettingZoo,
    Gymnasium, OpenSpiel) holds the space. ``made`` gives the :data:`WindowMasks` of
    each such phase of a state's mechanisms (:meth:`ActionSpace.phase_windows
    <mariage.ai.encoding.ActionSpace.phase_windows>`); per window are kept the bytes of
    its mask (:func:`window_bytes`) and its ids in order, so that the same window again
    lists and looks up nothing.

    >>> from mariage import load_rules, new_match
    >>> from mariage.ai.encoding import ActionSpace
    >>> state = new_match(load_rules("thousand"), 2)  # (the auction first)
    >>> space = ActionSpace(state.rules)
    >>> legal = space.windows.legal_bytes(state, state.to_act)
    >>> legal == space.listed_mask(state, state.legal_actions()).tobytes()
    True
    >>> space.windows.legal_ids(state, state.to_act) == sorted(
    ...     space.id(a) for a in state.legal_actions())
    True
    """

    __slots__ = ("_ids", "_made", "mech", "phases")

    def __init__(self, made: Callable[[GameState], dict[Phase, WindowMasks]]) -> None:
        self._made = made
        #: the mechanisms the windows are for (None: none asked yet)
        self.mech: object = None
        #: per phase with a window under those mechanisms, its :data:`WindowMasks`
        self.phases: dict[Phase, WindowMasks] = {}
        #: per such phase, the ids in order of each window seen
        self._ids: dict[Phase, dict[Window, list[int]]] = {}

    def _renew(self, state: GameState) -> None:
        """Take the windows of the state's mechanisms (new ones, or the first asked)."""
        self.phases = self._made(state)
        self._ids = {phase: {} for phase in self.phases}
        self.mech = state.mech

    def _found(self, state: GameState) -> WindowMasks | None:
        """The :data:`WindowMasks` of the state's phase, or None where it has none."""
        if state.mech is not self.mech:
            self._renew(state)
        return self.phases.get(state.phase)

    def legal_bytes(self, state: GameState, seat: int) -> bytes | None:
        """The bytes of the mask of the legal ids of ``seat``, the seat to act, where the
        state's phase lists a window of its ladder now (read only: copy them into a
        mask), else None."""
        found = self._found(state)
        if found is not None:
            window = found[0](state, seat)
            if window is not None:
                kept = found[1].get(window)
                return kept if kept is not None else window_bytes(found, window)
        return None

    def legal_ids(self, state: GameState, seat: int) -> list[int] | None:
        """The legal ids of ``seat``, the seat to act, in order (a new list), where the
        state's phase lists a window of its ladder now, else None."""
        found = self._found(state)
        if found is not None:
            window = found[0](state, seat)
            if window is not None:
                kept = self._ids[state.phase]
                ids = kept.get(window)
                if ids is None:
                    ladder = found[2]
                    head, start, stop = window
                    ids = sorted([*ladder[:head], *ladder[start:stop]])
                    if len(kept) >= _WINDOWS_KEPT:
                        kept.clear()
                    kept[window] = ids
                return ids[:]
        return None
