"""An agent's observation dict whose vector is made the first time it is read.

A PettingZoo agent gets ``{"observation": vector, "action_mask": mask}`` on every
``last()``; an agent that looks only at the mask (a random or scripted player) never
reads the vector, which costs about as much as the engine's own move. A
:class:`LazyObservation` is that dict, with the vector made on the first read that
could see it (the item ``observation``, ``items``, ``values``, ``keys``, ``len``,
``in``, iteration, comparison, copy, pickle, ``repr``, a change; the item
``action_mask`` alone does not, and is looked up by the dict itself): whoever
reads it gets exactly the array that :meth:`Encoder.vector
<mariage.ai.encoding.Encoder.vector>` makes.

The vector is the seat's view of the state *when it was observed*. An observation
holds its :class:`ObservedMatch` and the number of actions the match had taken then: until an
observation is read late, nothing is copied when the state changes. Read while the
match has taken no further action, the vector is made from the live state; read later,
from the state made again by replaying the match's actions from its deal
(:meth:`ObservedMatch.vector`: each state on the way is kept as an
:meth:`~mariage.ai.encoding.Encoder.snapshot`, so that a match is replayed at most
once, whatever the order of the late reads). An environment whose observations were
read late takes a snapshot before each step where one made of the state is unread
(:attr:`ObservedMatch.eager`), as cheap as one state replayed. :meth:`LazyObservation.hold`
gives one observation a snapshot of its own.

Until it is read, the dict's own storage holds the mask alone (the vector is made by
``__missing__`` when the item ``observation`` is looked up): code that reads that
storage from C without calling any of the dict's methods would see one item (Python's
``dict()``, ``{**obs}``, ``update``, ``copy``, ``pickle``, ``json`` and ``==`` all call
them).

>>> from mariage import load_rules, new_match
>>> from mariage.ai.encoding import Encoder
>>> state = new_match(load_rules("schnapsen"), 1)
>>> enc = Encoder(state.rules)
>>> obs = LazyObservation.of(enc, state, 0, 0, "mask")
>>> now = enc.vector(state, 0)
>>> obs.hold(enc.snapshot(state))
>>> state.apply(state.legal_actions()[0])
>>> bool((obs["observation"] == now).all()), obs["action_mask"], sorted(obs)
(True, 'mask', ['action_mask', 'observation'])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from mariage.engine.actions import Action
from mariage.engine.state import GameState, new_match

from .encoding import Encoder, Snapshot
from .lazydict import LazyDict

__all__ = ["LazyObservation", "ObservedMatch"]


class ObservedMatch:
    """What the observations of one match are made from: its live ``state``, the
    ``encoder``, and the actions applied to the state since it was dealt from ``seed``
    (:attr:`log`, which the environment appends to after each action it applies).

    An observation read late is made from the state replayed from the deal, once per
    match: a snapshot kept of each state on the way, for reads in any order. Once one
    was read late (the match is then :attr:`eager`), the environment takes a snapshot
    of the state before a step where an observation made of it is still unread
    (:attr:`unread`; :attr:`snapshots`), as cheap as one replayed state; ``eager`` is passed on
    to the environment's next match.

    >>> from mariage import load_rules, new_match
    >>> from mariage.ai.encoding import Encoder
    >>> state = new_match(load_rules("schnapsen"), 7)
    >>> match = ObservedMatch(state, Encoder(state.rules), 7)
    >>> before = match.vector(0, 1, 0)
    >>> action = state.legal_actions()[0]
    >>> state.apply(action)
    >>> match.log.append(action)
    >>> bool((match.vector(0, 1, 0) == before).all()), match.eager
    (True, True)
    """

    __slots__ = ("_replayed", "_snaps", "eager", "encoder", "log", "seed", "snapshots", "state",
                 "unread")

    def __init__(self, state: GameState, encoder: Encoder, seed: int | None = None,
                 eager: bool = False) -> None:
        self.state = state
        self.encoder = encoder
        self.seed = seed  # (None: the state is not replayed; nothing is logged)
        #: the actions applied to the state since it was dealt, in their order
        self.log: list[Action] = []
        #: whether an observation of the match (or of the environment's match before)
        #: was read late: then observations are counted in :attr:`unread`
        self.eager = eager
        #: while eager, how many observations made of the live state are unread (the
        #: environment counts those it makes; a read of the live state takes one off)
        self.unread = 0
        #: the snapshots the environment took before a step, by the number of actions
        #: before it
        self.snapshots: dict[int, Snapshot] = {}
        #: the state replayed from the deal, with the actions of the log before it: as
        #: many as the snapshots kept (None until a late read)
        self._replayed: GameState | None = None
        #: the snapshot of the state after each number of the log's actions, up to the
        #: replayed state's
        self._snaps: list[Snapshot] = []

    def hold(self, picked: int) -> None:
        """Before the live state changes, where observations of it are unread: its
        snapshot (with the cards ``picked`` of a set being passed), held for them."""
        self.snapshots[len(self.log)] = self.encoder.snapshot(self.state, picked)
        self.unread = 0

    def vector(self, at: int, seat: int, picked: int) -> npt.NDArray[np.float32]:
        """The vector of ``seat`` (with the cards ``picked`` of a set being passed) in the
        state after the log's first ``at`` actions."""
        if at == len(self.log):  # the live state
            if self.unread:
                self.unread -= 1
            return self.encoder.vector(self.state, seat, picked)
        held = self.snapshots.get(at)
        if held is not None:
            return self.encoder.vector_of(held, seat, picked)
        self.eager = True
        snaps = self._snaps
        if at < len(snaps):
            return self.encoder.vector_of(snaps[at], seat, picked)
        state = self._replayed
        if state is None:
            # (the deal is the seed's: the same state as the match's own at its start)
            assert self.seed is not None, "a match without a seed logs no action"
            state = self._replayed = new_match(self.state.rules, self.seed)
        snapshot, log = self.encoder.snapshot, self.log
        for action in log[len(snaps):at]:
            snaps.append(snapshot(state))
            state.apply(action)
        return self.encoder.vector(state, seat, picked)


def _restored(items: dict[str, Any]) -> LazyObservation:
    """A read observation holding ``items`` (what one pickled before
    :class:`~mariage.ai.lazydict.LazyDict` was shared becomes)."""
    return LazyObservation(items)


class LazyObservation(LazyDict):
    """``{"observation": ..., "action_mask": mask}``, the vector made on first read.

    Made by :meth:`of`; made as a dict (``LazyObservation(items)``) it is an ordinary
    dict of those items, read already.
    """

    # while unread: the source (the ObservedMatch, or the encoder and a snapshot), the number
    # of the match's actions taken when observed, the seat and the cards it picked; the
    # source is None (or unset) once read. Slots, not an instance dict: one of these is
    # made on every step.
    __slots__ = ("_at", "_picked", "_seat", "_source")
    _source: ObservedMatch | tuple[Encoder, Snapshot] | None
    _at: int
    _seat: int
    _picked: int

    @classmethod
    def of(cls, encoder: Encoder, state: GameState, seat: int, picked: int,
           action_mask: Any, match: ObservedMatch | None = None) -> LazyObservation:
        """The observation of ``seat`` in ``state`` (with the cards ``picked`` of a set
        being passed), its vector made by ``encoder`` when first read: from ``match``
        (whose live state ``state`` is) as it is now, or, without one, from ``state``
        as it is when read."""
        obs = cls(action_mask=action_mask)  # (the vector added when read)
        if match is None:
            match = ObservedMatch(state, encoder)
        elif match.eager:
            match.unread += 1
        obs._source = match
        obs._at = len(match.log)
        obs._seat = seat
        obs._picked = picked
        return obs

    @property
    def unread(self) -> bool:
        """Whether the vector is still to be made."""
        return getattr(self, "_source", None) is not None

    def hold(self, snapshot: Snapshot) -> None:
        """Make the vector from ``snapshot`` (of the state as observed), not the state,
        which is about to change; nothing to do once the vector is made."""
        source = getattr(self, "_source", None)
        if source is not None:
            self._source = (source[0] if type(source) is tuple else source.encoder,
                            snapshot)

    def _read(self) -> None:
        source = getattr(self, "_source", None)
        if source is None:  # read already, or made as a dict of its items
            return
        if type(source) is tuple:  # held
            vector = source[0].vector_of(source[1], self._seat, self._picked)
        else:
            vector = source.vector(self._at, self._seat, self._picked)
        # (the items in their order: the vector first)
        mask = dict.pop(self, "action_mask")
        dict.__setitem__(self, "observation", vector)
        dict.__setitem__(self, "action_mask", mask)
        self._source = None

    # -- every read and change of the dict makes the vector first; the item
    # action_mask alone is read by the dict's own lookup (no method of this class called)
    def __missing__(self, key: str) -> Any:
        if key == "observation" and getattr(self, "_source", None) is not None:
            self._read()
            return dict.__getitem__(self, key)
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        if key == "observation":
            self._read()
        return dict.get(self, key, default)
