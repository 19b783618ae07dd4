"""Annotations of a record, checked against the replayed state.

``(won SEAT)``, ``(trump S)``, ``(points …)``, ``(match …)``, ``(scored …)``,
``(ended HOW)``, ``(segno TEAM)`` and, in bidding games, ``(contract …)`` and
``(schwarz …)``: what each should say in a state, and what is wrong with one
that says otherwise (:func:`note_problem`).

>>> from mariage import load_rules, GameState
>>> from mariage.notation.model import Note
>>> st = GameState(load_rules("marianna"), first_dealer=0)
>>> note_problem(st, Note("trump", ("H",)), False)
('N151', 'trump is -')
>>> measure(st), team_name(st.rules, None)
((0, 0), '-')
"""

from __future__ import annotations

import re

from mariage.engine.actiontext import bid_value_text, contract_name
from mariage.engine.phase import DEAL, OVER
from mariage.engine.rules import Rules
from mariage.engine.state import GameState, HandRecord

from .firstfault import steps_left
from .model import Note
from .reader import MAX_DIGITS

__all__ = ["NUMBER", "TAKERS_NOTES", "contract_note", "measure", "note_problem", "note_rule",
           "takers_keys", "takers_note", "team_name"]

#: a whole number as annotations and score tags write it (contract scores may be negative)
NUMBER = re.compile(r"-?[0-9]+")
_DEAL, _OVER = DEAL, OVER


def measure(state: GameState) -> tuple[int, ...]:
    """The match score in the ruleset's measure (points, or hands won)."""
    r = state.rules
    return tuple(state.segni if r.match_measure == "hands_won" else state.match_scores)


def contract_note(rules: Rules, h: HandRecord, key: str) -> tuple[str, ...]:
    """The values of a hand's ``(contract ...)`` or ``(schwarz ...)`` annotation.

    ``(contract VALUE SEAT made|failed|conceded)``, or ``(contract none)`` for a hand
    nobody bid; ``(schwarz TEAM...)`` names the teams that won no trick (``-``: none).
    """
    if key == "schwarz":
        return tuple(rules.team_names[t] for t in h.schwarz) or ("-",)
    if h.ended == "conceded":
        return (str(h.contract), rules.seat_names[h.declarer], "conceded")
    if h.made is None:
        return ("none",)
    return (str(h.contract), rules.seat_names[h.declarer], "made" if h.made else "failed")


#: the annotations of a deal whose takers play against the defence (scoring.takers)
TAKERS_NOTES = ("bid", "taken", "announcements", "held")


def takers_keys(rules: Rules) -> tuple[str, ...]:
    """The annotations written after a played deal of ``rules`` (``bid`` where bid)."""
    return TAKERS_NOTES if rules.sa_rule is not None else TAKERS_NOTES[1:]


def takers_note(rules: Rules, h: HandRecord, key: str) -> tuple[str, ...]:
    """The values of a deal's ``(taken SEAT made|failed|tied)``, ``(announcements TEAM)``
    (the side whose announcements counted, ``-`` for none) or ``(held N)`` (the points
    held over for the next played deal after it) annotation; ``(bid VALUE SUIT WORD)``:
    the contract bid, ``capot`` / ``generale`` for those, and its doubling word (``-``:
    none)."""
    if key == "bid":
        value = bid_value_text(rules, h.contract)
        word = rules.sa_double_words[h.kontras - 1] if h.kontras else "-"
        return (value, contract_name(rules, h.trump) if h.trump >= 0 else "-", word)
    if key == "taken":
        return (rules.seat_names[h.declarer], h.outcome)
    if key == "announcements":
        return (team_name(rules, h.announce_side if h.announce_side >= 0 else None),)
    return (str(h.held),)


def team_name(rules: Rules, team: int | None) -> str:
    """A team's name, or ``-`` for nobody."""
    return "-" if team is None else rules.team_names[team]


#: the rule whose outcome each annotation's problem contradicts, by the rules' field
_NOTE_RULES = {"N150": "trick_rule", "N152": "score_rule", "N153": "score_rule",
               "N154": "score_rule", "N156": "score_rule"}


def note_rule(rules: Rules, code: str) -> str | None:
    """The rule ID behind an annotation's problem ``code`` (the rule that decides what
    the annotation states: who wins a trick, how a hand scores), or ``None``.

    >>> from mariage import load_rules
    >>> note_rule(load_rules("marianna"), "N150")
    'marianna.trick.winner'
    >>> note_rule(load_rules("marianna"), "N155") is None
    True
    """
    field = _NOTE_RULES.get(code)
    return (getattr(rules, field) or None) if field else None


def note_problem(st: GameState, note: Note, trick_done: bool) -> tuple[str, str] | None:
    """What is wrong with annotation ``note`` in state ``st`` (code, message), or ``None``.

    ``trick_done``: the action just before the note ended a trick.
    """
    rules = st.rules
    key, vals = note.key, note.values
    over = st.phase in (_DEAL, _OVER)
    hand_rec = st.history[-1] if st.history and st.history[-1].number == st.hand_no \
        and over else None
    nteams = len(rules.teams)

    def ints(expect: tuple[int, ...], code: str, what: str) -> tuple[str, str] | None:
        if len(vals) != nteams or not all(NUMBER.fullmatch(v) for v in vals):
            return "N155", f"({key} ...) takes {nteams} whole numbers, one per team"
        if any(len(v.removeprefix("-")) > MAX_DIGITS for v in vals):
            return "N112", f"a number in ({key} ...) is longer than {MAX_DIGITS} digits"
        if tuple(int(v) for v in vals) != expect:
            return code, f"the {what} is {' '.join(map(str, expect))}"
        return None

    if key == "won":
        if not trick_done or not st.tricks:
            return "N155", "(won SEAT) must follow the last card of a trick"
        if len(vals) != 1 or vals[0] != rules.seat_names[st.tricks[-1][2]]:
            return "N150", f"seat {rules.seat_names[st.tricks[-1][2]]} won the trick"
        return None
    if key == "trump":
        want = rules.suits[st.trump] if st.trump >= 0 else "-"
        return None if len(vals) == 1 and vals[0] == want else (
            "N151", f"trump is {want}{steps_left(st, st.to_act)}")
    if key == "points":
        return ints(hand_rec.points if hand_rec else
                    tuple(st.hand_points(t) for t in range(nteams)), "N152", "hand score")
    if key == "match":
        return ints(measure(st), "N153", "match score")
    if key in ("scored", "ended", "segno"):
        if hand_rec is None:  # saying what the seat to act may do, if it is no card
            return "N155", (f"({key} ...) belongs after the end of the hand"
                            f"{steps_left(st, st.to_act)}")
        if key == "scored":
            return ints(hand_rec.score, "N154", "hand's addition to the match score")
        if key == "ended":
            return None if vals == (hand_rec.ended,) else (
                "N154", f"the hand ended by {hand_rec.ended}")
        want_team = team_name(rules, hand_rec.winner)
        return None if vals == (want_team,) else ("N154", f"the hand was taken by {want_team}")
    if key in TAKERS_NOTES:  # the takers against the defence
        if hand_rec is None or not hand_rec.outcome or key not in takers_keys(rules):
            return "N155", f"({key} ...) belongs after the end of a played deal"
        told = takers_note(rules, hand_rec, key)
        return None if vals == told else ("N156", f"the {key} of the deal is {' '.join(told)}")
    if key in ("contract", "schwarz"):  # bidding games
        if hand_rec is None:
            return "N155", (f"({key} ...) belongs after the end of the hand"
                            f"{steps_left(st, st.to_act)}")
        note_want = contract_note(rules, hand_rec, key)
        unscored = " (these rules score no schwarz: always -)" \
            if key == "schwarz" and rules.schwarz_rule is None else ""
        return None if vals == note_want else (
            "N156", f"the {key} of the hand is {' '.join(note_want) or '-'}{unscored}")
    return "N155", (f"unknown annotation {key!r} (known: won, trump, points, match, "
                    "scored, ended, segno, contract, schwarz, taken, announcements, held)")
