"""A dict whose items are made the first time anything could see them.

The environments answer each step with dicts an agent may never read in full: the
observation's vector (:class:`~mariage.ai.lazyobs.LazyObservation`) and the Gymnasium
info's mask and texts (:class:`~mariage.ai.stepinfo.StepInfo`). :class:`LazyDict` is
what both share: every method that reads or changes the dict calls the subclass's
``_read()`` first (which adds the missing items, then forgets what they were made
from), so that the dict behaves as one made whole at once. A subclass adds its own
``_read`` and ``__missing__`` (the lookup of an item not yet made); an item already
stored is read by the dict's own lookup, with no method of the class called.

Made as a dict (``Kind(items)``), a subclass is an ordinary dict of those items, read
already (what a copy and an unpickled one are).

>>> class Squares(LazyDict):
...     __slots__ = ("_upto",)
...     def _read(self):
...         upto = getattr(self, "_upto", None)
...         if upto is not None:
...             self._upto = None
...             dict.update(self, {str(k): k * k for k in range(upto)})
>>> lazy = Squares()
>>> lazy._upto = 3
>>> dict.__len__(lazy), len(lazy), lazy["2"], lazy.copy() == {"0": 0, "1": 1, "2": 4}
(0, 3, 4, True)
>>> plain = LazyDict(a=1)  # (nothing to make: an ordinary dict)
>>> plain | {"b": 2}, len(plain), plain.copy().__class__.__name__
({'a': 1, 'b': 2}, 1, 'LazyDict')
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeVar

__all__ = ["LazyDict"]

_Self = TypeVar("_Self", bound="LazyDict")


class LazyDict(dict[str, Any]):
    """A dict that calls ``_read()`` before any read or change of its items."""

    __slots__ = ()

    def _read(self) -> None:
        """Add the items not made yet, then forget what they were made from (nothing
        once done). A subclass gives its own; here there is nothing to make, so a
        ``LazyDict`` itself is an ordinary dict."""

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
        self._read()
        return dict.get(self, key, default)

    def items(self) -> Any:
        self._read()
        return dict.items(self)

    def values(self) -> Any:
        self._read()
        return dict.values(self)

    def __iter__(self) -> Iterator[str]:
        # defined, so that dict(d), {**d} and update(d) read through __getitem__
        self._read()
        return dict.__iter__(self)

    def __eq__(self, other: object) -> bool:
        self._read()
        if isinstance(other, LazyDict):
            other._read()
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # (as a dict's)

    def __repr__(self) -> str:
        self._read()
        return dict.__repr__(self)

    def copy(self: _Self) -> _Self:
        self._read()
        return self.__class__(dict(dict.items(self)))

    def __copy__(self: _Self) -> _Self:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        self._read()
        return (self.__class__, (dict(dict.items(self)),))

    def __or__(self, other: Any) -> Any:
        self._read()
        return dict(self.items()) | other

    def __ror__(self, other: Any) -> Any:
        self._read()
        return other | dict(self.items())

    def __ior__(self: _Self, other: Any) -> _Self:  # type: ignore[override]
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
