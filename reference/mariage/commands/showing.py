"""What ``play`` and ``replay`` print besides the tricks: the header and the draws.

:func:`header` names the game, the players by seat, the partnerships and
what ends the match; :func:`draws` names the cards taken from the stock by
an action (after a trick, each seat's draw in the order drawn), so that no
card appears in a trick that was never shown in a hand.

>>> from mariage import load_rules, new_match
>>> rules = load_rules("schnapsen")
>>> print(header(rules, {"A": "greedy", "B": "you"}))
Schnapsen (schnapsen): A greedy, B you; each player for himself; first to 7 game points
>>> state = new_match(rules, seed=2)
>>> before = list(state.stock)
>>> while len(state.stock) == len(before):
...     state.apply(state.legal_actions()[0])
>>> draws(state, before)  # doctest: +ELLIPSIS
'draws: ... (stock ...)'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mariage.engine.rules import Rules
from mariage.engine.state import GameState
from mariage.errors import printable

__all__ = ["draws", "header", "target_text"]


def target_text(rules: Rules) -> str:
    """What ends the match: a score, a number of hands won, or of hands played."""
    n = rules.match_target
    if rules.match_measure == "hands_played":
        return f"{n} hands"
    if rules.match_measure == "hands_won":
        return f"first to {n} hands won"
    unit = "game points" if rules.score_kind == "game_points" else "points"
    return f"first to {n} {unit}"


def header(rules: Rules, players: Mapping[str, str],
           options: Mapping[str, object] | None = None) -> str:
    """One line: the game, who sits where, the partnerships and the target."""
    seats = ", ".join(f"{s} {printable(players[s])}" if s in players else s
                      for s in rules.seat_names)
    if all(len(team) == 1 for team in rules.teams):
        sides = "each player for himself"
    else:
        sides = "partnerships " + " v ".join(
            f"{name} ({'+'.join(rules.seat_names[s] for s in team)})"
            for name, team in zip(rules.team_names, rules.teams, strict=True))
    text = f"{rules.name} ({rules.ruleset}): {seats}; {sides}; {target_text(rules)}"
    if options:
        text += "; options " + ", ".join(f"{k}={v}" for k, v in options.items())
    return text


def draws(st: GameState, stock_before: Sequence[int], inferred: int = 0,
          seen_by: int | None = None) -> str | None:
    """The cards drawn from the stock since it was ``stock_before``, seat by seat in the
    order drawn, and the cards left; ``None`` when nothing was drawn (closing the stock
    draws nothing). A card of the ``inferred`` mask (placed by the search for a deal
    of a partial record) is marked ``?``. With ``seen_by`` (a seat), the cards other
    seats drew are ``??``."""
    taken = list(reversed(stock_before[len(st.stock):])) if len(st.stock) < len(
        stock_before) else []
    if not taken:
        return None
    r = st.rules
    shown = []
    for card in taken:  # a card that went to no hand was set aside (the stock closed)
        holder = next((s for s in range(r.nseats) if st.hands[s] >> card & 1), None)
        if holder is not None:
            mark = "?" if inferred >> card & 1 else ""
            code = r.card_code[card] if seen_by in (None, holder) else "??"
            shown.append(f"{r.seat_names[holder]} {code}{mark}")
    return f"draws: {', '.join(shown)} (stock {len(st.stock)})" if shown else None
