"""The ids of the engine's actions without their hash: the part of
:class:`~mariage.ai.encoding.ActionSpace` that finds the id of each action a listing
holds (besides the cards of the play, listed from the engine's bits).

A frozen record's hash is Python code, so an action is looked up otherwise where it
can be: one without fields by its class (all of them are equal); another by the object,
since the engine lists most as the same few objects again and again (constants, or kept
per state). An entry keeps its object alive, so no other object can have its ``id()``
while it is there; the objects kept are bounded (cleared when full). A kind of action
the engine makes anew each time (an equal one is kept as another object) is looked up by
its fields' values (a tuple's hash is C code). A long listing the engine hands out again
(an auction's bids) is kept whole, with its ids (:class:`~mariage.ai.listed.KeptListings`).

>>> from mariage import load_rules, new_match
>>> from mariage.ai.encoding import ActionSpace
>>> state = new_match(load_rules("thousand"), 1)  # (an auction first)
>>> space = ActionSpace(state.rules)
>>> listing = state.legal_actions()
>>> space._other_ids(listing) == [space.ids[a] for a in listing]
True
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mariage.engine.actions import Action, Play
from mariage.engine.mechanisms.passing import CardSets

from .layout import AIAction
from .listed import KeptListings, Listed

__all__ = ["ObjectIds"]


class ObjectIds:
    """The lookup of action ids without their hash (see the module), for a space with
    these attributes: its ids by action (read only, and the numbering's dict of them),
    its size, the id of playing each card, and of giving each set of cards by its bits
    (none where passing is factored)."""

    ids: Mapping[AIAction, int]
    _ids: dict[AIAction, int]
    size: int
    _play_ids: list[int]
    _give_ids: dict[int, int]

    def _start_ids(self, by_class: dict[type, int]) -> None:
        """Start with the ids of the kinds without fields, ``by_class``, and nothing
        else kept."""
        self._by_class: dict[type, int] = by_class.copy()
        self._made_anew: set[type] = set()
        #: per kind made anew: its fields' getter and the ids by the fields' values (a
        #: tuple's hash is C code, a frozen record's Python)
        self._by_fields: dict[type, tuple[Callable[[Any], Any], dict[Any, int]]] = {}

    def _keep_none(self, bound: int, listed: KeptListings) -> None:
        """Keep no object, and at most ``bound`` of them at a time (the objects kept by
        ``id()`` are valid in this process only, so never pickled: an unpickled space
        starts with none kept); the long listings in ``listed``, the store of the
        numbering (shared by its spaces)."""
        self._kept_bound = bound
        self._by_object: dict[int, int] = {}
        self._kept_alive: list[Action] = []
        self._kept_ids: set[int] = set()
        #: the long listings seen, by their objects (kept alive there), by every space
        #: of the numbering
        self._listed = listed

    def _action_id(self, action: Action) -> int:
        """The id of ``action`` (not a card play): by its class where it has no fields, by
        the engine's object where the engine hands the same one out again, else by its
        hash (see the module)."""
        found = self._by_class.get(type(action))
        if found is None:
            found = self._by_object.get(id(action))
            if found is None:
                found = self._other_id(action)
        return found

    def _other_id(self, action: Action) -> int:
        """The id of ``action`` (not a card play) by its hash, kept by the object (see
        the module)."""
        kind = type(action)
        by_fields = self._by_fields.get(kind)
        if by_fields is not None:  # made anew: by its fields' values
            fields, ids = by_fields
            key = fields(action)
            found = ids.get(key)
            if found is None:
                found = ids[key] = self._ids[action]
            return found
        action_id = self._ids[action]
        if kind in self._made_anew:
            return action_id
        if action_id in self._kept_ids:  # an equal one kept: made anew each time
            self._made_anew.add(kind)
            names = [f.name for f in dataclasses.fields(kind)] \
                if dataclasses.is_dataclass(kind) else []
            if names:  # (equal records are those of equal fields)
                self._by_fields[kind] = (operator.attrgetter(*names), {})
            return action_id
        kept = self._by_object
        if len(kept) >= self._kept_bound:
            kept.clear()
            self._kept_alive.clear()
            self._kept_ids.clear()
        kept[id(action)] = action_id
        self._kept_alive.append(action)
        self._kept_ids.add(action_id)
        return action_id

    def _other_ids(self, others: Sequence[Action]) -> list[int]:
        """The ids of the actions the engine lists (besides the cards, in the play
        phase): a card play by the table, another by its class or object, or hash (see
        the module). A long listing the engine hands out again (:meth:`_kept_listing`):
        its kept ids. A passing step's sets (``CardSets``): by their cards, no action
        made."""
        if type(others) is list:
            listed = self._kept_listing(others)
            if listed is not None:
                return listed[1][:]
        elif type(others) is CardSets and self._give_ids:
            ids = self._other_ids(others.head) if others.head else []
            ids += map(self._give_ids.__getitem__, others.masks())
            return ids
        return self._each_id(others)

    def _each_id(self, others: Sequence[Action]) -> list[int]:
        """The ids of ``others`` one by one: a card play by the table, another by its
        class or object, or hash (see the module)."""
        plays = self._play_ids
        out = []  # (a loop: a comprehension's own frame costs more on a short listing)
        for a in others:
            out.append(plays[a.card] if type(a) is Play else self._action_id(a))
        return out

    def _kept_listing(self, others: list[Action]) -> Listed | None:
        """The ids and mask of a list of more than 2 actions whose last one the space
        keeps by its object (an auction's bids, the same objects of the ladder each
        time; the questions of a lead), kept by its objects
        (:class:`~mariage.ai.listed.KeptListings`); None for another listing."""
        if len(others) > 2 and id(others[-1]) in self._by_object:
            return self._listed.get(others, self._ids_at_once)
        return None

    def _ids_at_once(self, others: list[Action]) -> list[int]:
        """The ids of ``others``, looked up at once by the objects kept (``map`` in C),
        then those not found (a pass) one by one; a listing of one or two, one by one."""
        if len(others) < 3:
            return self._each_id(others)
        found: list[int | None] = [*map(self._by_object.get, map(id, others))]
        k = -1
        for _ in range(found.count(None)):  # (no exception raised: 1 µs each)
            k = found.index(None, k + 1)
            a = others[k]
            found[k] = self._play_ids[a.card] if type(a) is Play else self._action_id(a)
        return found  # type: ignore[return-value]
