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

A ``Decline`` sent by the seat to act (the winner, after the hand's last trick,
going on without a claim: the usual end of a Schnapsen or Sixty-six hand) runs
:meth:`Claims.apply_decline`, which calls :meth:`Claims.go_on`, which calls the
written code: :func:`resume_decline` writes the three as one function, with the draw
left out (a decline goes on only once the stock is empty) and the moments when a
decline does something else (a close's reply) or is refused left to the mechanism.

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

__all__ = ["GoOn", "resume", "resume_decline"]

#: the play resumed after the winner's pause: (state, the trick's winner)
GoOn = Callable[["GameState", int], None]


def _written_here(mech: Mechanisms, rules: Rules) -> bool:
    """True where the draw and the trick's opening are the reference ones, in a talon
    game (the generated code stands for them)."""
    from .mechanisms.trickplay import TrickPlay

    tricks = type(mech.tricks)
    return bool(rules.talon_game) and tricks.draw is TrickPlay.draw and \
        tricks.start_trick is TrickPlay.start_trick


def _names(rules: Rules, end_hand: HandEnd) -> dict[str, Any]:
    from .phase import AFTER_TRICK, PLAY, WINDOW

    n = rules.nseats
    return {"_PLAY": PLAY, "_WINDOW": WINDOW, "_AFTER_TRICK": AFTER_TRICK,
            "_end_hand": end_hand, "_next": tuple(s + 1 if s + 1 < n else 0 for s in range(n))}


def resume(mech: Mechanisms, rules: Rules, end_hand: HandEnd) -> GoOn | None:
    """What :meth:`Claims.go_on` does under ``mech`` and ``rules``, as one function of
    the state and the trick's winner, ending a hand through ``end_hand``; ``None`` where
    there is no generated code (see the module's text)."""
    if not _written_here(mech, rules):
        return None
    n, k = rules.nseats, rules.hand_seats
    ns = _names(rules, end_hand)
    lines = ["def go_on(st, winner):", "    st.phase = _PLAY", "    if st.stock:",
             *_draw_lines(k, k < n), "    if st.trick_no >= st._tricks_per_hand:",
             "        _end_hand(st, 'played_out')", "        return",
             *_start_lines(mech, rules, ns)]
    codegen.run("\n".join(lines) + "\n", f"<play resumed in {rules.ruleset}>", ns)
    fn: GoOn = ns["go_on"]
    return fn


def resume_decline(mech: Mechanisms, rules: Rules, end_hand: HandEnd
                   ) -> Callable[[GameState, int, Any], None] | None:
    """What :meth:`Claims.apply_decline` does when the seat to act sends it, as one
    function of the state, that seat and the action: where the phase is the pause
    after a trick and the stock is empty, the decline entered and the play resumed
    (:meth:`Claims.go_on` without the draw: the hand's end through ``end_hand`` after
    its last trick, else the next trick); at any other moment the mechanism's own
    method (a close's reply, or refused, saying why). ``None`` where there is no
    generated code: the claims mechanism applies a decline or goes on its own way, or
    :func:`resume` writes nothing.

    >>> from mariage import load_rules, GameState
    >>> from mariage.engine.actions import Decline, Draw, Play
    >>> from mariage.engine.deals import canonical_deck
    >>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS
    >>> state = GameState(load_rules("schnapsen"), first_dealer=0)
    >>> state.deal(canonical_deck(state.rules))
    >>> decline = resume_decline(DEFAULT_MECHANISMS, state.rules, state._appliers.end_hand)
    >>> while state.stock or state.phase.name != "AFTER_TRICK":  # cards and draws
    ...     state.apply(next(a for a in state.legal_actions() if type(a) in (Play, Draw)))
    >>> seat = state.to_act
    >>> decline(state, seat, Decline())
    >>> state.actions[-1][0] == seat, state.phase.name, state.history[-1].number
    (True, 'DEAL', 1)
    """
    from .mechanisms.claims import Claims

    claims = type(mech.claims)
    if not _written_here(mech, rules) or claims.apply_decline is not Claims.apply_decline \
            or claims.go_on is not Claims.go_on:
        return None
    ns = _names(rules, end_hand)
    ns["_own"] = mech.claims.apply_decline
    lines = ["def decline(st, winner, action):",
             "    if st.phase != _AFTER_TRICK or st.stock:",
             "        _own(st, winner, action)", "        return",
             "    st.actions.append((winner, action))", "    st.phase = _PLAY",
             "    if st.trick_no >= st._tricks_per_hand:",
             "        _end_hand(st, 'played_out')", "        return",
             *_start_lines(mech, rules, ns)]
    codegen.run("\n".join(lines) + "\n", f"<decline in {rules.ruleset}>", ns)
    fn: Callable[[GameState, int, Any], None] = ns["decline"]
    return fn
