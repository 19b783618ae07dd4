"""The legal actions as an environment hands them out: the mask of a list of action ids,
and the text of every id of a numbering.

A mask is an int8 array of the action space's size, 1 at each legal id. Made from a
list of ids (:func:`mask_of`), its bytes are set one by one in a ``bytearray`` (an item
of it is set several times faster than an array's) and the array is made over them at
once (``np.ndarray(size, int8, bytes)``: the writeable array ``np.frombuffer`` makes,
without the memoryview made first). :meth:`ActionSpace.mask
<mariage.ai.encoding.ActionSpace.mask>` makes so the masks of listings it has no
quicker way for, and the Gymnasium environment those of the play phase from the ids it
lists for its info anyway.

>>> mask_of([0, 3], 5).tolist()
[1, 0, 0, 1, 0]
>>> from mariage import load_rules
>>> from mariage.ai.encoding import ActionSpace
>>> space = ActionSpace(load_rules("schnapsen"))
>>> texts = texts_of(space)
>>> texts[0], texts_of(ActionSpace(space.rules)) is texts
('AH', True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from .encoding import ActionSpace

__all__ = ["mask_of", "texts_of"]

# the mask's array over its bytes (see the module)
_over, _INT8 = np.ndarray, np.dtype(np.int8)


def mask_of(ids: Iterable[int], size: int) -> npt.NDArray[np.int8]:
    """The mask of ``size`` ids with a 1 at each of ``ids`` (a new, writeable array)."""
    listed = bytearray(size)
    for i in ids:
        listed[i] = 1
    return _over(size, _INT8, listed)


#: per numbering (by the id of its tuple of actions, the tuple kept to check it): texts
_TEXTS: dict[int, tuple[tuple[Any, ...], tuple[str, ...]]] = {}


def texts_of(space: ActionSpace) -> tuple[str, ...]:
    """The canonical text of each action id of ``space``, in id order: made once per
    numbering (the spaces of one rules object share it; at most 64 kept), as an
    environment made anew would list them again (half the time of making one)."""
    actions = space.actions
    hit = _TEXTS.get(id(actions))
    if hit is None or hit[0] is not actions:
        if len(_TEXTS) >= 64:
            _TEXTS.clear()
        hit = _TEXTS[id(actions)] = (actions, tuple(space.text(i) for i in range(space.size)))
    return hit[1]
