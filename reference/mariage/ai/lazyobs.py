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

The vector is the seat's view of the state *when it was observed*: until the
environment changes the state, it is made from the live state; the observations of one
state share a source that counts those still unread, and before the state changes,
where some are, the environment puts one
:meth:`~mariage.ai.encoding.Encoder.snapshot` of the state in the source
(:func:`hold_unread`; :meth:`LazyObservation.hold` for one observation), and the vector
is made from that; where the change is a card played within its trick, the source holds
instead what takes that card back from the state after it (cheaper than a snapshot).

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

from collections.abc import Iterator
from typing import Any

from mariage.engine.state import GameState

from .encoding import Encoder, Snapshot
from .layout import bidding_of

__all__ = ["CARD_BACK", "LazyObservation", "hold_unread"]

#: the first item of what a source holds in place of a snapshot, where the state changed
#: by a card within its trick (see :func:`hold_unread`; the PettingZoo environment's step
#: holds such a card itself, as hold_unread does)
CARD_BACK = _CARD_BACK = object()


def _restored(items: dict[str, Any]) -> LazyObservation:
    """A read observation holding ``items`` (what a copied or pickled one becomes)."""
    return LazyObservation(items)


class LazyObservation(dict[str, Any]):
    """``{"observation": ..., "action_mask": mask}``, the vector made on first read.

    Made by :meth:`of`; made as a dict (``LazyObservation(items)``) it is an ordinary
    dict of those items, read already.
    """

    # while unread: the source, a list [the state or what holds it, how many
    # observations of it are unread, the encoder], shared by the observations an
    # environment made of one state (one snapshot for all, taken only while some are
    # unread; see hold_unread), the seat and the cards it picked; the source is None (or
    # unset) once read. Slots, not an instance dict: one of these is made on every step.
    __slots__ = ("_picked", "_seat", "_source")
    _source: list[Any] | None
    _seat: int
    _picked: int

    @classmethod
    def of(cls, encoder: Encoder, state: GameState, seat: int, picked: int,
           action_mask: Any, source: list[Any] | None = None) -> LazyObservation:
        """The observation of ``seat`` in ``state`` (with the cards ``picked`` of a set
        being passed), its vector made by ``encoder`` when first read. ``source``: a
        list ``[state, 0, encoder]`` shared with other observations of the state (see
        :func:`hold_unread`)."""
        obs = cls({"action_mask": action_mask})  # (the vector added when read)
        if source is None:
            source = [state, 0, encoder]
        source[1] += 1
        obs._source = source
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
            source[1] -= 1
            self._source = [snapshot, 1, source[2]]

    def _read(self) -> None:
        source = getattr(self, "_source", None)
        if source is None:  # read already, or made as a dict of its items
            return
        held, encoder = source[0], source[2]
        if isinstance(held, GameState):
            vector = encoder.vector(held, self._seat, self._picked)
        else:
            if type(held) is list:  # held by hold_unread: made a snapshot once
                held = source[0] = _unpacked(held, encoder)
            elif held[0] is _CARD_BACK:
                held = _resolved(source)
            # (its own cards picked: the picks before a set's last change no state, so
            # the observations of one state may have been made with different picks)
            vector = encoder.vector_of(held, self._seat, self._picked)
        # (the items in their order: the vector first)
        mask = dict.pop(self, "action_mask")
        dict.__setitem__(self, "observation", vector)
        dict.__setitem__(self, "action_mask", mask)
        source[1] -= 1
        self._source = None

    # -- every read and change of the dict makes the vector first; the item
    # action_mask alone is read by the dict's own lookup (no method of this class called)
    def __missing__(self, key: str) -> Any:
        if key == "observation" and getattr(self, "_source", None) is not None:
            self._read()
            return dict.__getitem__(self, key)
        raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        self._read()
        return dict.__contains__(self, key)

    def __len__(self) -> int:
        self._read()
        return dict.__len__(self)

    def keys(self) -> Any:
        self._read()
        return dict.keys(self)

    def __reversed__(self) -> Iterator[str]:
        self._read()
        return dict.__reversed__(self)

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
                picked: int, card_within_trick: bool = False,
                standing: tuple[int, ...] | None = None) -> list[Any]:
    """Before ``state`` changes: where observations made with ``source`` (``[state,
    unread count, encoder]``, :meth:`LazyObservation.of`) are still unread, they get one
    :meth:`~mariage.ai.encoding.Encoder.snapshot` of it (with the cards ``picked``; held
    as one list, made the snapshot when read) and a new source is returned for the
    observations to come; else ``source`` itself.

    ``card_within_trick``: the change is the seat to act playing a card that does not
    end its trick, by the engine's reference card play (``trail_plays`` of its dispatch
    table: the play journaled for undo as the seat alone, or the seat with what was
    known of its hand). Such a card changes, of what a vector reads, only the seat's
    hand, what is known of it, the trick and the seat to act; the unread then get, in
    place of the snapshot, what takes the card back from the state after it (the seat
    and what was known of its hand), and the new source is kept for them (counted as
    one unread observation), so that the next change holds it in turn: the vector is
    made, when read, from the first snapshot (or the live state) down that line, with
    the cards taken back (at most one trick's cards: the trick's last card is a
    snapshot).

    ``standing``: the state's :meth:`~mariage.engine.state.GameState.standing` where the
    caller knows it (it changes only at a hand's end), else it is asked for."""
    if not source[1]:
        return source
    if card_within_trick:
        seat = state.to_act
        assert seat is not None
        after = [state, 1, encoder]
        source[0] = (_CARD_BACK, after, seat, state.known[seat])
        return after
    # (what Encoder.snapshot holds, in one list: see _unpacked)
    trick, tricks = state.trick_cards, state.tricks
    source[0] = [*state.hands, *state.known, *state.captured, *state.decl_points, *trick,
                 *tricks, *state.declared, len(trick), len(tricks), state.turn_up,
                 state.trump, state.phase, state.to_act, state.leader, len(state.stock),
                 state.standing() if standing is None else standing,
                 bidding_of(state) if encoder.bidding else None,
                 # (what was said: read when the vector is made, from the actions and
                 # the other pairs said so far; the environment only adds to the hand's
                 # lists, and a new hand has new ones where they are not empty)
                 (state.actions, len(state.actions), state.pair_by, state.pairs_said,
                  len(state.pairs_said)) if encoder.said else None, picked]
    return [state, 0, encoder]


def _unpacked(held: list[Any], encoder: Encoder) -> Snapshot:
    """The :meth:`~mariage.ai.encoding.Encoder.snapshot` that ``held`` holds in one list
    (:func:`hold_unread`: one list made and freed where a snapshot is eight; the hands
    and known cards per seat, the card points and declared points per team, the
    trick's cards, the finished tricks and the declarations, then the trick's and the
    tricks' lengths and the snapshot's single values)."""
    rules = encoder.rules
    n, t = rules.nseats, len(rules.teams)
    (ntrick, ntricks, turn_up, trump, phase, to_act, leader, stock, standing, bidding,
     said_from, picked) = held[-12:]
    said = 0
    if said_from is not None:
        actions, count, pair_by, pairs, npairs = said_from
        assert encoder.said is not None
        said = encoder.said(actions[:count], pair_by, trump, pairs[:npairs])
    at = 2 * n + 2 * t
    tricks_at = at + ntrick
    declared_at = tricks_at + ntricks
    return (held[:n], held[n:2 * n], held[at:tricks_at], held[tricks_at:declared_at],
            turn_up, trump, phase, to_act, leader, stock, held[2 * n:2 * n + t],
            held[2 * n + t:at], standing, held[declared_at:-12], bidding, said, picked)


def _resolved(source: list[Any]) -> Snapshot:
    """The snapshot of the state that ``source`` (held by :func:`hold_unread` with a card
    within its trick) was made of: the first snapshot down the line of sources, or one of
    the live state, with the cards of the line taken back, latest first; each source of
    the line keeps its own (a later read is one lookup)."""
    line = []  # the sources down the line that hold a card taken back
    at = source
    held = at[0]
    while type(held) is tuple and held[0] is _CARD_BACK:
        line.append(at)
        at = held[1]
        held = at[0]
    # (after a card within its trick, no cards are being picked)
    snap: Snapshot = (source[2].snapshot(held) if isinstance(held, GameState)
                      else _unpacked(held, source[2]) if type(held) is list else held)
    for at in reversed(line):
        _, _, seat, known_before = at[0]
        (hands, known, trick, tricks, turn_up, trump, phase, _, leader, stock, captured,
         decl_points, standing, declared, bidding, said, picked) = snap
        hands = hands[:]
        hands[seat] |= 1 << trick[-1]
        known = known[:]
        known[seat] = known_before
        snap = (hands, known, trick[:-1], tricks, turn_up, trump, phase, seat, leader,
                stock, captured, decl_points, standing, declared, bidding, said, picked)
        at[0] = snap
    return snap
