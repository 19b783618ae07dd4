"""A person at the terminal as a player of ``mariage play RULESET --human SEAT``.

:class:`Human` is a bot whose choices are typed: at each of its seat's turns
it shows what that seat sees (its hand, the trick on the table, trump, the
stock, the score) and the legal actions, numbered. An answer is a number from
the list or an action's text (``7D``, ``marianna:H``, ``pass``); anything
else is asked again. The end of the input (Ctrl-D) raises :class:`InputEnded`,
which ends the match cleanly.

>>> import io
>>> from mariage import load_rules, new_match
>>> state = new_match(load_rules("mariazza"), seed=3)
>>> out = io.StringIO()
>>> me = Human(state.to_act, io.StringIO("zz\\n99\\n1\\n"), out)
>>> action = me.choose(state)
>>> action in state.legal_actions()
True
>>> text = out.getvalue()
>>> "your hand:" in text and "1) " in text and text.count("not one of the choices") == 2
True
>>> Human(state.to_act, io.StringIO(""), out).choose(state)
Traceback (most recent call last):
...
mariage.commands.human.InputEnded: the input ended
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import TextIO

from mariage.engine.actions import Action
from mariage.engine.actiontext import action_text, parse_action
from mariage.engine.state import GameState
from mariage.errors import whole_number

__all__ = ["MAX_ANSWER", "MAX_REFUSED", "MAX_SKIPPED", "Human", "InputEnded", "InputUnusable"]


class InputEnded(Exception):
    """The person's input ended (end of file) before the match did."""


class InputUnusable(InputEnded):
    """The input is no person's typing: a line longer than :data:`MAX_SKIPPED` characters
    (``--human N < /dev/zero`` read one line for ever, holding it all in memory), or
    :data:`MAX_REFUSED` answers in a row at one turn none of which is a choice
    (``yes x | mariage play ... --human N`` asked again for ever)."""


#: The longest answer read as one (longer lines are refused in bounded reads)...
MAX_ANSWER = 4096
#: ...and the longest line skipped so: beyond it the input ends the match.
MAX_SKIPPED = 1 << 20
#: The most answers refused in a row at one turn before the input ends the match.
MAX_REFUSED = 1000


class Human:
    """The player of ``seat``: a person reading ``out`` and typing into ``read``."""

    name = "human"

    def __init__(self, seat: int, read: TextIO, out: TextIO) -> None:
        self.seat = seat
        self.read = read
        self.out = out

    def _show(self, st: GameState, legal: Sequence[Action]) -> None:
        r = st.rules
        w = self.out.write
        names = r.seat_names
        trump = r.suits[st.trump] if st.trump >= 0 else "none yet"
        w(f"\n-- your turn, {names[self.seat]}: hand {st.hand_no}, trick {st.trick_no}; "
          f"trump {trump}")
        if st.stock:
            w(f"; stock {len(st.stock)}")
        w("\n")
        w(f"   your hand: {r.format_cards(st.hands[self.seat])}\n")
        if st.trick_cards:
            table = " ".join(f"{names[s]}:{r.card_code[c]}"
                             for s, c in zip(st.trick_seats, st.trick_cards, strict=True))
            w(f"   on the table: {table}\n")
        points = ", ".join(f"{r.team_names[t]} {st.hand_points(t)}" for t in range(len(r.teams)))
        w(f"   this hand: {points}\n")
        choices = "  ".join(f"{i})\u00a0{action_text(r, a)}" for i, a in enumerate(legal, 1))
        for line in textwrap.wrap(choices, 96, initial_indent="   ", subsequent_indent="   "):
            w(line.replace("\u00a0", " ") + "\n")

    def choose(self, state: GameState) -> Action:
        """The action the person picks among ``state``'s legal actions."""
        legal = state.legal_actions()
        self._show(state, legal)
        r = state.rules
        numbers = "1" if len(legal) == 1 else f"1-{len(legal)}"  # (not "1-1")
        for _ in range(MAX_REFUSED):
            self.out.write(f"choose {numbers} or type an action: ")
            self.out.flush()
            if getattr(self.out, "gone", False):  # nobody reads what we show: stop
                raise InputEnded("the output's reader went away")
            line = self.read.readline(MAX_ANSWER + 1)
            if not line:
                self.out.write("\n")
                raise InputEnded("the input ended")
            if len(line) > MAX_ANSWER and not line.endswith("\n"):
                self._skip_line(len(line))
                self.out.write(f"   a line of more than {MAX_ANSWER} characters is not one of "
                               "the choices\n")
                continue
            answer = line.strip()
            number = whole_number(answer) if answer.isdigit() else None
            if number is not None and 1 <= number <= len(legal):
                return legal[number - 1]
            try:
                action = parse_action(r, answer)
            except ValueError:
                action = None
            if action is not None and action in legal:
                return action
            shown = answer if len(answer) <= 40 else answer[:40] + "..."
            self.out.write(f"   {shown!r} is not one of the choices\n")
        raise InputUnusable(f"{MAX_REFUSED} answers in a row were not among the choices: "
                            "no answer typed at the terminal")

    def _skip_line(self, read: int) -> None:
        """Read on to the end of a line too long to be an answer, in bounded pieces."""
        while read <= MAX_SKIPPED:
            piece = self.read.readline(MAX_ANSWER)
            if not piece or piece.endswith("\n"):
                return
            read += len(piece)
        raise InputUnusable(f"the input holds a line of more than {MAX_SKIPPED} characters: "
                            "no answer typed at the terminal")
