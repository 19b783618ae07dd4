"""An agent's observation dict whose vector is made the first time it is read.

A PettingZoo agent gets ``{"observation": vector, "action_mask": mask}`` on every
``last()``; an agent that looks only at the mask (a random or scripted player) never
reads the vector, which costs about as much as the engine's own move. A
:class:`LazyObservation` is that dict, with the vector made on the first read that
could see it (the item ``observation``, ``items``, ``values``, iteration, comparison,
copy, pickle, ``repr``, a change; the item ``action_mask`` alone does not): whoever
reads it gets exactly the array that :meth:`Encoder.vector
<mariage.ai.encoding.Encoder.vector>` makes.

The vector is the seat's view of the state *when it was observed*: until the
environment changes the state, it is made from the live state; the observations of one
state share a source that counts those still unread, and before the state changes,
where some are, the environment puts one
:meth:`~mariage.ai.encoding.Encoder.snapshot` of the state in the source
(:func:`hold_unread`; :meth:`LazyObservation.hold` for one observation), and the vector
is made from that.

Until it is read, the dict's own storage holds ``None`` for the vector: code that reads
that storage from C without calling any of the dict's methods would see it (Python's
``dict()``, ``{**obs}``, ``update``, ``copy``, ``pickle`` and ``==`` all call them).

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

from collections.abc import Iterator
from typing import Any

from mariage.engine.state import GameState

from .encoding import Encoder, Snapshot

__all__ = ["LazyObservation", "hold_unread"]


def _restored(items: dict[str, Any]) -> LazyObservation:
    """A read observation holding ``items`` (what a copied or pickled one becomes)."""
    return LazyObservation(items)


class LazyObservation(dict[str, Any]):
    """``{"observation": ..., "action_mask": mask}``, the vector made on first read.

    Made by :meth:`of`; made as a dict (``LazyObservation(items)``) it is an ordinary
    dict of those items, read already.
    """

    # while unread: [encoder, source, the seat, the cards it picked], where source is a
    # list [the state or its snapshot, how many observations of it are unread], shared by
    # the observations an environment made of one state (one snapshot for all, taken
    # only while some are unread); None (or unset) once read. A slot, not an instance
    # dict: one of these is made on every step.
    __slots__ = ("_args",)
    _args: list[Any] | None

    @classmethod
    def of(cls, encoder: Encoder, state: GameState, seat: int, picked: int,
           action_mask: Any, source: list[Any] | None = None) -> LazyObservation:
        """The observation of ``seat`` in ``state`` (with the cards ``picked`` of a set
        being passed), its vector made by ``encoder`` when first read. ``source``: a
        list ``[state, 0]`` shared with other observations of the state (see
        :func:`hold_unread`)."""
        obs = cls(observation=None, action_mask=action_mask)
        if source is None:
            source = [state, 0]
        source[1] += 1
        obs._args = [encoder, source, seat, picked]
        return obs

    @property
    def unread(self) -> bool:
        """Whether the vector is still to be made."""
        return getattr(self, "_args", None) is not None

    def hold(self, snapshot: Snapshot) -> None:
        """Make the vector from ``snapshot`` (of the state as observed), not the state,
        which is about to change; nothing to do once the vector is made."""
        args = getattr(self, "_args", None)
        if args is not None:
            args[1][1] -= 1
            args[1] = [snapshot, 1]

    def _read(self) -> None:
        try:
            args = self._args
        except AttributeError:  # made as a dict of its items
            return
        if args is None:
            return
        encoder, held, seat, picked = args
        source = held[0]
        if isinstance(source, GameState):
            vector = encoder.vector(source, seat, picked)
        else:
            vector = encoder.vector_of(source, seat)
        dict.__setitem__(self, "observation", vector)
        held[1] -= 1
        self._args = None

    # -- every read and change of the dict makes the vector first
    def __getitem__(self, key: str) -> Any:
        if key == "observation":  # the mask alone is read without making the vector
            self._read()
        return dict.__getitem__(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        if key == "observation":
            self._read()
        return dict.get(self, key, default)

    def items(self) -> Any:
        self._read()
        return dict.items(self)

    def values(self) -> Any:
        self._read()
        return dict.values(self)

    def __iter__(self) -> Iterator[str]:
        # defined, so that dict(obs), {**obs} and update(obs) read through __getitem__
        self._read()
        return dict.__iter__(self)

    def __eq__(self, other: object) -> bool:
        self._read()
        if isinstance(other, LazyObservation):
            other._read()
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # as a dict's

    def __repr__(self) -> str:
        self._read()
        return dict.__repr__(self)

    def copy(self) -> LazyObservation:
        self._read()
        return _restored(dict(dict.items(self)))

    def __copy__(self) -> LazyObservation:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        self._read()
        return (_restored, (dict(dict.items(self)),))

    def __or__(self, other: Any) -> Any:
        self._read()
        return dict(self.items()) | other

    def __ror__(self, other: Any) -> Any:
        self._read()
        return other | dict(self.items())

    def __ior__(self, other: Any) -> LazyObservation:  # type: ignore[override]
        self._read()
        dict.update(self, other)
        return self

    def __setitem__(self, key: str, value: Any) -> None:
        self._read()
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: str) -> None:
        self._read()
        dict.__delitem__(self, key)

    def update(self, *args: Any, **kwargs: Any) -> None:
        self._read()
        dict.update(self, *args, **kwargs)

    def setdefault(self, key: str, default: Any = None) -> Any:
        self._read()
        return dict.setdefault(self, key, default)

    def pop(self, key: str, *default: Any) -> Any:
        self._read()
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[str, Any]:
        self._read()
        return dict.popitem(self)

    def clear(self) -> None:
        self._read()
        dict.clear(self)


def hold_unread(source: list[Any], encoder: Encoder, state: GameState,
                picked: int) -> list[Any]:
    """Before ``state`` changes: where observations made with ``source`` (``[state,
    unread count]``, :meth:`LazyObservation.of`) are still unread, they get one
    :meth:`~mariage.ai.encoding.Encoder.snapshot` of it (with the cards ``picked``) and
    a new source is returned for the observations to come; else ``source`` itself."""
    if not source[1]:
        return source
    source[0] = encoder.snapshot(state, picked)
    return [state, 0]
