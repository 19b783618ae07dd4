"""Hooks: the moments of a hand at which one mechanism's rules wait on another's.

A mechanism that reaches a moment (trick play has just scored a trick) does not
call the mechanisms whose rules run then (a split marriage settled, held points
counted, a claim, the hand target): it runs the handlers of the hook, which the
mechanisms declare themselves (:meth:`~mariage.engine.mechanisms.base.Mechanism.hooks`)
for the rules that need them. The table of handlers is made once per set of
mechanisms and ruleset, so a hook the rules do not use costs one loop over an
empty tuple. Handlers run in the order of the fields of
:class:`~mariage.engine.mechanisms.Mechanisms`.

================  =============================  ========================================
hook              handler                        the moment
================  =============================  ========================================
``after_trick``   ``(state, winner) -> bool``    a full trick is scored, before the draw;
                                                 True: the handler ended the hand or
                                                 paused it (the rest does not run)
``next_lead``     ``(state, leader)``            the winner of the last trick leads the
                                                 next one
``after_points``  ``(state, seat)``              declaration points of ``seat`` counted
``hand_scored``   ``(state, added)``             the hand's score per side is known,
                                                 before it is added to the match
``match_over``    ``(state,)``                   the match ended after a hand
================  =============================  ========================================

Beside the hooks, a mechanism may take another's *steps*: the methods the other
declares in its ``steps`` (ending a hand, opening the next trick...), reached
through its role in the set (``st.mech.scoring.end_hand``), never other methods.

>>> from mariage import load_rules
>>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS
>>> hooks = hooks_of(DEFAULT_MECHANISMS.all(), load_rules("schnapsen"))
>>> [h.__qualname__ for h in hooks.after_trick]
['HeldCredit.after_trick', 'Claims.after_trick']
>>> hooks_of(DEFAULT_MECHANISMS.all(), load_rules("marianna")).after_trick
()
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from ...lazyrecord import field_names, frozen_record

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState
    from .base import Mechanism

__all__ = ["HOOK_NAMES", "Hooks", "hooks_of"]


@frozen_record
class Hooks:
    """The handlers of each hook under one ruleset, in the order of the mechanisms."""

    after_trick: tuple[Callable[[GameState, int], bool], ...] = ()
    next_lead: tuple[Callable[[GameState, int], None], ...] = ()
    after_points: tuple[Callable[[GameState, int], None], ...] = ()
    hand_scored: tuple[Callable[[GameState, list[int]], None], ...] = ()
    match_over: tuple[Callable[[GameState], None], ...] = ()


#: the names of the hooks, in the order of the table
HOOK_NAMES: tuple[str, ...] = field_names(Hooks)


def hooks_of(mechanisms: Iterable[Mechanism], rules: Rules) -> Hooks:
    """The table of the hooks that ``mechanisms`` (in order) declare under ``rules``.

    A hook name no table has is an error, said at once.
    """
    found: dict[str, list[Callable[..., object]]] = {name: [] for name in HOOK_NAMES}
    for m in mechanisms:
        for hook, method in m.hooks(rules):
            if hook not in found:
                raise ValueError(f"{type(m).__name__} answers a hook that does not exist: "
                                 f"{hook!r} (hooks: {', '.join(HOOK_NAMES)})")
            found[hook].append(getattr(m, method))
    return Hooks(**{name: tuple(handlers) for name, handlers in found.items()})  # type: ignore[arg-type]
