"""How a game state shows itself: a one-line ``repr`` and an HTML table for notebooks.

Both name everything as the rules do (seats, suits, cards, actions): no
internal numbers.

>>> from mariage import load_rules, GameState, canonical_deck
>>> state = GameState(load_rules("marianna"), first_dealer=0)
>>> state
<GameState marianna: waiting for hand 1; dealer N; match NS 0, WE 0>
>>> state.deal(canonical_deck(state.rules))
>>> state
<GameState marianna: hand 1, trick 1, play; W to act; trump -; stock 20; match NS 0, WE 0>
>>> "<table" in state._repr_html_()
True
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from .actiontext import action_text, contract_name
from .arguments import check_state
from .phase import Phase

if TYPE_CHECKING:
    from .state import GameState

__all__ = ["state_html", "state_repr"]

_PHASE = {Phase.DEAL: "deal", Phase.PLAY: "play", Phase.WINDOW: "declaration window",
          Phase.ANSWER: "answer", Phase.OVER: "over"}
_SUIT_COLOUR = {"H": "#c0392b", "D": "#c0392b"}


def _phase_name(phase: int) -> str:
    """A phase as people say it (any phase a mechanism adds has its enum name)."""
    p = Phase(phase)
    return _PHASE.get(p) or p.name.lower().replace("_", " ")


def _scores(state: GameState) -> str:
    r = state.rules
    word = "hands" if r.match_measure == "hands_won" else "match"
    return f"{word} " + ", ".join(f"{r.team_names[t]} {v}"
                                  for t, v in enumerate(state.standing()))


def state_repr(state: GameState) -> str:
    """The one-line summary of ``state``."""
    r = check_state(state, "state_repr").rules
    head = f"<{type(state).__name__} {r.ruleset}: "
    if state.phase == Phase.OVER:
        res = state.result
        assert res is not None
        who = "nobody" if res.winner is None else r.team_names[res.winner]
        return head + f"over after hand {state.hand_no}, {who} won ({res.reason}); " \
            f"{_scores(state)}>"
    if state.phase == Phase.DEAL:
        dealer = "" if state.dealer is None else f"; dealer {r.seat_names[state.dealer]}"
        return head + f"waiting for hand {state.hand_no + 1}{dealer}; {_scores(state)}>"
    to_act = "" if state.to_act is None else f"; {r.seat_names[state.to_act]} to act"
    trump = _trump(state)
    table = " ".join(f"{r.seat_names[s]}:{r.card_code[c]}"
                     for s, c in zip(state.trick_seats, state.trick_cards, strict=True))
    table = f"; table {table}" if table else ""
    return (head + f"hand {state.hand_no}, trick {state.trick_no}, {_phase_name(state.phase)}"
            f"{to_act}; trump {trump}{table}; stock {len(state.stock)}; {_scores(state)}>")


def _trump(state: GameState) -> str:
    """The trump suit's letter, a contract's name (SA, TA), or ``-``."""
    r = state.rules
    if state.strain >= 0:
        return contract_name(r, state.strain)
    return r.suits[state.trump] if state.trump >= 0 else "-"


def _card_html(code: str) -> str:
    colour = _SUIT_COLOUR.get(code[-1])
    text = escape(code)
    return f'<span style="color:{colour}">{text}</span>' if colour else text


def state_html(state: GameState) -> str:
    """An HTML table of ``state``: every hand, the table, the scores and the legal actions."""
    r = check_state(state, "state_html").rules
    rows = []
    in_hand = state.phase not in (Phase.DEAL, Phase.OVER)
    for s in range(r.nseats):
        mark = " &#9664;" if in_hand and state.to_act == s else ""
        cards = " ".join(_card_html(r.card_code[c]) for c in r.cards_of(state.hands[s]))
        rows.append(f"<tr><th>{escape(r.seat_names[s])}"
                    f" <small>({escape(r.team_names[r.team_of[s]])})</small>{mark}</th>"
                    f"<td>{cards}</td></tr>")
    extra = []
    if in_hand:
        trump = escape(_trump(state))
        table = " ".join(f"{escape(r.seat_names[s])}:{_card_html(r.card_code[c])}"
                         for s, c in zip(state.trick_seats, state.trick_cards, strict=True))
        extra.append(f"<tr><th>trump</th><td>{trump}</td></tr>")
        if state.turn_up is not None:
            extra.append(f"<tr><th>turned up</th><td>{_card_html(r.card_code[state.turn_up])}"
                         "</td></tr>")
        extra.append(f"<tr><th>table</th><td>{table or '-'}</td></tr>")
        extra.append(f"<tr><th>stock</th><td>{len(state.stock)} cards</td></tr>")
        points = ", ".join(f"{escape(r.team_names[t])} {state.hand_points(t)}"
                           for t in range(len(r.teams)))
        extra.append(f"<tr><th>this hand</th><td>{points}</td></tr>")
        legal = " ".join(escape(action_text(r, a)) for a in state.legal_actions())
        extra.append(f"<tr><th>legal</th><td><code>{legal}</code></td></tr>")
    extra.append(f"<tr><th>score</th><td>{escape(_scores(state))}</td></tr>")
    title = escape(state_repr(state).strip("<>"))
    return (f'<table class="mariage-state"><caption>{title}</caption>'
            + "".join(rows) + "".join(extra) + "</table>")
