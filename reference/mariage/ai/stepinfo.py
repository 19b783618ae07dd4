"""The info dict of a Gymnasium step, its items made when first read.

:class:`~mariage.ai.gym_env.MariageGymEnv` answers every step with an info of four
items: ``action_mask`` (a copy of the observation's mask, an array of its own),
``legal`` (the text of each legal action id, in id order), ``hand`` and ``standing``.
An agent that acts on the observation's mask (a random or scripted player, most
learners) reads none of them, and the first two cost more than the rest of the step's
answer. A :class:`StepInfo` holds, until it is read, what its items are made from: the
legal ids of its step as bytes (one per id of the action space, 1 where legal: an
immutable copy of the mask the observation was given, so that a change an agent makes
to that array changes nothing here), the texts of every id, the hand and the standing.
The items are made on the first read that could see any of them: an item looked up,
``len``, ``in``, iteration, ``keys``, ``items``, ``values``, ``get``, comparison, copy,
pickle, ``repr``, a change. Read at any time, even after later steps, the info holds
what it would have held made at once, in the same order.

Until it is read, the dict's own storage is empty (the items are added by
``__missing__`` on the first lookup): code that reads that storage from C without
calling any of the dict's methods would see no item (Python's ``dict()``, ``{**info}``,
``update``, ``copy``, ``pickle``, ``json`` and ``==`` all call them, as Gymnasium's
vector environments and wrappers do).

>>> info = StepInfo.of(b"\\x00\\x01\\x01", ("AH", "KH", "pass"), 1, (0, 0))
>>> dict.__len__(info), info["hand"], dict.__len__(info)
(0, 1, 4)
>>> info["legal"], info["action_mask"].tolist()
(['KH', 'pass'], [0, 1, 1])
>>> list(info.items())[2:], len(info)
([('hand', 1), ('standing', (0, 0))], 4)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .lazydict import LazyDict

__all__ = ["StepInfo"]

# the mask's array over its bytes (as mariage.ai.legalinfo makes a mask)
_over, _INT8 = np.ndarray, np.dtype(np.int8)


class StepInfo(LazyDict):
    """``{"action_mask": ..., "legal": ..., "hand": ..., "standing": ...}``, the first
    two made on first read.

    Made by :meth:`of`; made as a dict (``StepInfo(items)``) it is an ordinary dict of
    those items, read already.
    """

    # while unread: the legal ids as bytes (None, or unset, once read), the texts of
    # every id, the hand and the standing. Slots, not an instance dict: one of these is
    # made on every step.
    __slots__ = ("_hand", "_legal", "_standing", "_texts")
    _legal: bytes | None
    _texts: tuple[str, ...]
    _hand: int
    _standing: tuple[int, ...]

    @classmethod
    def of(cls, legal: bytes, texts: tuple[str, ...], hand: int,
           standing: tuple[int, ...]) -> StepInfo:
        """The info of a step whose legal ids are the 1 bytes of ``legal`` (immutable:
        the caller's own, never changed), named by ``texts`` (one per id), in ``hand``
        with ``standing``."""
        info = cls()  # (the items added when read)
        info._legal = legal
        info._texts = texts
        info._hand = hand
        info._standing = standing
        return info

    @property
    def unread(self) -> bool:
        """Whether the items are still to be made."""
        return getattr(self, "_legal", None) is not None

    def _read(self) -> None:
        legal = getattr(self, "_legal", None)
        if legal is None:  # read already, or made as a dict of its items
            return
        self._legal = None
        texts = self._texts
        mask = _over(len(legal), _INT8, bytearray(legal))  # (an array of its own)
        # (the items in their order, before any the caller adds)
        dict.__setitem__(self, "action_mask", mask)
        dict.__setitem__(self, "legal", [texts[i] for i in mask.nonzero()[0].tolist()])
        dict.__setitem__(self, "hand", self._hand)
        dict.__setitem__(self, "standing", self._standing)

    # -- every read and change of the dict makes the items first (a lookup finds none
    # before: __missing__)
    def __missing__(self, key: str) -> Any:
        if getattr(self, "_legal", None) is not None:
            self._read()
            return dict.__getitem__(self, key)
        raise KeyError(key)
