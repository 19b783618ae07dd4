"""The deal generator: SplitMix64 plus an unbiased Fisher-Yates shuffle.

This module is normative: any engine, in any language, that follows
``docs/prng.rst`` reproduces the same decks from the same seed.

* State: one unsigned 64-bit integer, initialised to ``seed mod 2**64``.
* ``next_u64()``: ``state += 0x9E3779B97F4A7C15``; then
  ``z = state``; ``z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9``;
  ``z = (z ^ (z >> 27)) * 0x94D049BB133111EB``; return ``z ^ (z >> 31)``
  (all arithmetic modulo 2**64).
* ``below(n)``: draw ``x = next_u64()`` until ``x < 2**64 - (2**64 mod n)``,
  then return ``x mod n`` (rejection sampling, so no bias).
* ``shuffle(deck)``: for ``i`` from ``len(deck) - 1`` down to ``1``:
  ``j = below(i + 1)``; swap ``deck[i]`` and ``deck[j]``.

>>> rng = SplitMix64(0)
>>> hex(rng.next_u64())
'0xe220a8397b1dcdaf'
>>> SplitMix64(1).below(10)
5
"""

from __future__ import annotations

import operator
import struct
from typing import TypeVar

from ..errors import shown as _shown

__all__ = ["MASK64", "SplitMix64", "check_seed"]

MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB

T = TypeVar("T")
_mod = operator.mod

#: bounds below which ``below(n)``'s rejection limit is read from :data:`_LIMITS`
_TABLED = 129
#: ``n`` -> ``2**64 - (2**64 mod n)``, the limit under which a draw is accepted
_LIMITS = (0, *((1 << 64) - ((1 << 64) % n) for n in range(1, _TABLED)))
#: a draw below this is accepted by ``below(n)`` for every ``n`` below :data:`_TABLED`
_SURE = min(_LIMITS[2:])
#: bits given to each draw of a batch (:func:`_batch`): a product of two 64-bit numbers
_LANE = 128


#: ``m`` -> the layout of a batch of ``m`` draws (:func:`_batch_layout`), made when needed
_LAYOUTS: dict[int, tuple[int, int, int, int, int, struct.Struct, tuple[int, ...]]] = {}


def _batch_layout(m: int) -> tuple[int, int, int, int, int, struct.Struct, tuple[int, ...]]:
    """For a batch of ``m`` draws: ``m`` lanes of a 1 each, the lanes of the counter's
    steps (``k * GAMMA`` in lane ``k - 1``), the mask of each lane's low 64 bits, the
    lanes of ``2**64 - _SURE`` (added to a lane's draw, it carries into the lane's bit 64
    just where the draw is not below :data:`_SURE`), the mask of those bits 64, the
    layout that reads the draws back (little-endian, 8 bytes of each 16 skipped), and the
    bounds of a shuffle's draws, ``m + 1`` down to 2 (made once per ``m``).

    >>> ones, steps, mask, over, carries, layout, bounds = _batch_layout(2)
    >>> ones == 1 + (1 << 128), carries == ones << 64, layout.size, bounds
    (True, True, 32, (3, 2))
    """
    hit = _LAYOUTS.get(m)
    if hit is None:
        ones = sum(1 << (_LANE * i) for i in range(m))
        steps = sum(((i + 1) * _GAMMA) << (_LANE * i) for i in range(m))
        hit = _LAYOUTS[m] = (ones, steps, MASK64 * ones, ((1 << 64) - _SURE) * ones, ones << 64,
                             struct.Struct("<" + "Q8x" * m), tuple(range(m + 1, 1, -1)))
    return hit


def _batch(state: int, m: int) -> tuple[int, ...] | None:
    """The next ``m`` outputs of a generator in ``state`` (``m`` below :data:`_TABLED`),
    all at once, or ``None`` where one of them is not below :data:`_SURE` (one that a
    bounded draw might refuse: about one in ``2**57``). Output ``k`` is the mix of
    ``state + k * GAMMA`` (the state is a counter), so each is worked out in a lane of
    :data:`_LANE` bits of one integer, by the same operations as
    :meth:`SplitMix64.next_u64` on all of them together (each mask keeps a lane's 64
    bits; a shift's bits from the next lane land above them); the outputs are checked
    against :data:`_SURE` in the same way, all at once (a carry into a lane's bit 64).

    >>> rng = SplitMix64(7)
    >>> _batch(7, 3) == (rng.next_u64(), rng.next_u64(), rng.next_u64())
    True
    >>> _batch(0x932B113CFBD6B596, 2) is None  # (its second output: 2**64 - 1)
    True
    >>> _batch(0xFE2451BA7C43A755, 1) == (_SURE - 1,)  # (the highest sure draw)
    True
    """
    ones, steps, mask, over, carries, layout, _ = _LAYOUTS.get(m) or _batch_layout(m)
    z = (state * ones + steps) & mask
    z = (z ^ (z >> 30)) & mask
    z = z * _M1 & mask
    z = (z ^ (z >> 27)) & mask
    z = z * _M2 & mask
    z = (z ^ (z >> 31)) & mask
    if (z + over) & carries:
        return None
    return layout.unpack(z.to_bytes(16 * m, "little"))


def check_seed(seed: object, what: str = "seed") -> int:
    """``seed`` as a deal seed: a whole number from 0 to 2**64-1, the seeds a record
    holds (numpy integers too); else TypeError (not a whole number: a float, a
    string, None, a bool) or ValueError (out of range), naming ``what``.

    >>> check_seed(7)
    7
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    ValueError: seed must be a whole number from 0 to 2**64-1, not -1
    >>> check_seed(2.0, "deal seed")
    Traceback (most recent call last):
    ...
    TypeError: deal seed must be a whole number from 0 to 2**64-1, not 2.0 (float)
    >>> check_seed(10 ** 5000, "s")
    Traceback (most recent call last):
    ...
    ValueError: s must be a whole number from 0 to 2**64-1, not <a whole number of about 10**5000>
    """
    bound = f"{what} must be a whole number from 0 to 2**64-1, not"
    if seed.__class__ is int and 0 <= seed <= MASK64:
        return seed
    shown = _shown(seed, 40)  # (a number past Python's 4,300 digits named by its size)
    if isinstance(seed, bool):
        raise TypeError(f"{bound} {shown} (bool)")
    try:
        value = operator.index(seed)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{bound} {shown} ({type(seed).__name__})") from None
    if not 0 <= value <= MASK64:
        raise ValueError(f"{bound} {shown}")
    return value


class SplitMix64:
    """A SplitMix64 generator with the bounded draw and shuffle we specify.

    >>> deck = list(range(6))
    >>> SplitMix64(42).shuffle(deck)
    >>> deck
    [4, 3, 0, 2, 5, 1]
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        # operator.index: a numpy integer becomes a Python int (no fixed-width overflow)
        self.state = operator.index(seed) & MASK64

    def next_u64(self) -> int:
        """Advance the state and return the next 64-bit output."""
        self.state = (self.state + _GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * _M1) & MASK64
        z = ((z ^ (z >> 27)) * _M2) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return a uniform integer in ``[0, n)`` by rejection sampling."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates, from the last index down).

        The same steps as ``j = self.below(i + 1)`` per index. Up to 128 items, the
        draws are made all at once (:func:`_batch`) and, where none of them can be
        refused (all below :data:`_SURE`: the odds of one that might are about one in
        ``2**57`` per draw), the positions are taken from them in one pass: a deal
        of 40 cards in half the time of the loop below. Otherwise the loop: one
        draw at a time, the state kept in a local, the limits from a table.
        """
        n = len(items)
        if 1 < n < _TABLED:  # (every bound below _TABLED: _SURE holds for it)
            draws = _batch(self.state, n - 1)
            if draws is not None:
                bounds = _LAYOUTS[n - 1][6]
                for i, j in zip(range(n - 1, 0, -1), map(_mod, draws, bounds), strict=True):
                    items[i], items[j] = items[j], items[i]
                self.state = (self.state + (n - 1) * _GAMMA) & MASK64
                return
        self._shuffle_by_draws(items)

    def _shuffle_by_draws(self, items: list[T]) -> None:
        """:meth:`shuffle` by one draw at a time (a draw refused, or many items)."""
        state = self.state
        limits = _LIMITS
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = limits[n] if n < _TABLED else (1 << 64) - ((1 << 64) % n)
            while True:  # below(n): next_u64() until under the limit
                state = (state + _GAMMA) & MASK64
                z = ((state ^ (state >> 30)) * _M1) & MASK64
                z = ((z ^ (z >> 27)) * _M2) & MASK64
                x = z ^ (z >> 31)
                if x < limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
        self.state = state
