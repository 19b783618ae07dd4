"""The play resumed after the winner's pause, by straight-line code generated per ruleset.

In the talon games the winner of a trick may stop before the draw (to claim, or
to close the stock) and after the last trick (to claim). When he goes on (a
``Draw`` or a ``Decline``), :meth:`Claims.go_on` draws a card for each seat in
the hand, the winner first, then ends the hand or opens the next trick. Read
plainly that is a loop over the seats and two calls, once for every trick of
the stock phase. :func:`resume` writes the same steps once per ruleset: the
draw unrolled for the seats in the hand (as the card play writes it,
:func:`~mariage.engine.fastpath.play_apply`), the hand's end through the
dispatch table's (``Dispatch.end_hand``) and the trick's opening written in
place (as :func:`~mariage.engine.fastpath.start_trick` writes it).

Where the trick play mechanism draws or opens a trick its own way (a subclass
that overrides :meth:`TrickPlay.draw` or :meth:`TrickPlay.start_trick`), or the
rules have no talon, there is no generated code and :meth:`Claims.go_on` does it.

>>> from mariage import load_rules, new_match
>>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS
>>> rules = load_rules("sixty-six")
>>> state = new_match(rules, 1)
>>> go_on = resume(DEFAULT_MECHANISMS, rules, state._appliers.end_hand)
>>> before = len(state.stock)
>>> go_on(state, 0)
>>> len(state.stock), state.to_act, state.trick_no
(10, 0, 2)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import codegen
from .fastpath import _draw_lines, _start_lines

if TYPE_CHECKING:
    from .handend import HandEnd
    from .mechanisms import Mechanisms
    from .rules import Rules
    from .state import GameState

__all__ = ["GoOn", "resume"]

#: the play resumed after the winner's pause: (state, the trick's winner)
GoOn = Callable[["GameState", int], None]


def resume(mech: Mechanisms, rules: Rules, end_hand: HandEnd) -> GoOn | None:
    """What :meth:`Claims.go_on` does under ``mech`` and ``rules``, as one function of
    the state and the trick's winner, ending a hand through ``end_hand``; ``None`` where
    there is no generated code (see the module's text)."""
    from .mechanisms.trickplay import TrickPlay
    from .phase import PLAY, WINDOW

    tricks = type(mech.tricks)
    if not rules.talon_game or tricks.draw is not TrickPlay.draw or \
            tricks.start_trick is not TrickPlay.start_trick:
        return None
    n, k = rules.nseats, rules.hand_seats
    ns: dict[str, Any] = {"_PLAY": PLAY, "_WINDOW": WINDOW, "_end_hand": end_hand,
                          "_next": tuple(s + 1 if s + 1 < n else 0 for s in range(n))}
    lines = ["def go_on(st, winner):", "    st.phase = _PLAY", "    if st.stock:",
             *_draw_lines(k, k < n), "    if st.trick_no >= st._tricks_per_hand:",
             "        _end_hand(st, 'played_out')", "        return",
             *_start_lines(mech, rules, ns)]
    codegen.run("\n".join(lines) + "\n", f"<play resumed in {rules.ruleset}>", ns)
    fn: GoOn = ns["go_on"]
    return fn
