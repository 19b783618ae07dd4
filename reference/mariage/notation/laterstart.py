"""Where a record of a match's later hands starts: ``[StartHand]``, ``[StartScore]`` and
``[StartState]``.

A record may start at hand ``N`` of a match. The score before that hand is not
all the match carries from one hand to the next: the running totals keep who is
on the barrel and for how many hands, the bolts counted towards the next
penalty and the falls off the barrel; a talon game counts each player's
concessions; a tied contract holds its points for the next deal; a drawn hand
passes a bonus on. One ``[StartState "FIELD" "V" ...]`` tag per field that is
not at its value of a new match carries it (the table :data:`FIELDS`).

:func:`apply_start` checks these tags and sets them on a new state;
:func:`state_tags` writes them (:func:`mariage.notation.views.later_record` cuts a
record at a hand with them).

>>> from mariage import load_rules, GameState
>>> st = GameState(load_rules("thousand"))
>>> st.barrel[1], st.bolts[2] = 1, 2
>>> [(t.name, t.values) for t in state_tags(st)]
[('StartState', ('barrel', '-1', '1', '-1')), ('StartState', ('bolts', '0', '0', '2'))]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from mariage.engine.state import GameState

from ..lazyrecord import frozen_record
from .annotations import NUMBER
from .model import Tag
from .reader import MAX_DIGITS

if TYPE_CHECKING:
    from mariage.engine.rules import Rules

__all__ = ["FIELDS", "Carried", "Field", "apply_start", "carried", "restore", "state_tags"]

#: Carried state by field name (:func:`carried`, :func:`restore`).
Carried = tuple[tuple[str, tuple[int, ...]], ...]


class Report(Protocol):
    """Reports a problem of the header: code, message, line, column, offending token, and
    the rule it breaks where one does."""

    def __call__(self, code: str, message: str, line: int, column: int, token: str | None,
                 /, rule_id: str | None = None) -> None: ...



@frozen_record
class Field:
    """One piece of match state a later-hand record carries.

    ``per_team``: one value per team (else one value); values from ``least`` to
    ``most(rules)`` (``None``: no bound); ``kept(rules)``: the rules keep it at all.
    """

    name: str
    attr: str
    per_team: bool
    least: int
    kept: Callable[[Rules], bool]
    most: Callable[[Rules], int | None] = lambda r: None
    meaning: str = ""


#: The fields of ``[StartState]``, in the order a writer writes them.
FIELDS: tuple[Field, ...] = (
    Field("barrel", "barrel", True, -1, lambda r: r.barrel_rule is not None,
          lambda r: r.barrel_attempts - 1 if r.barrel_attempts else None,
          "hands each team has spent on the barrel (-1: not on it)"),
    Field("bolts", "bolts", True, 0, lambda r: r.bolt_condition != "off",
          lambda r: r.bolt_limit - 1, "bolts counted towards the next penalty"),
    Field("falls", "falls", True, 0, lambda r: r.barrel_rule is not None,
          meaning="falls off the barrel so far"),
    Field("conceded", "concessions", True, 0, lambda r: r.concede_rule is not None,
          lambda r: r.concede_limit or None, "hands conceded so far"),
    Field("held", "pot", False, 0,
          lambda r: r.takers_rule is not None and r.takers_tie == "litige",
          meaning="points of a tied contract held for the next deal"),
    Field("nowin", "no_win", True, 0, lambda r: r.pair_alone_cannot_win, lambda r: 1,
          "1 for a team that cannot win the match on the next deal"),
    Field("unrounded", "round_residue", True, -(10 ** MAX_DIGITS),
          lambda r: r.round_game_rule is not None and r.round_mode != "none",
          meaning="per team, its total before rounding less its written score"),
    Field("carried", "carry_bonus", False, 0, lambda r: r.draw_bonus != 0,
          meaning="the bonus drawn hands pass to the next hand's winner"),
    Field("golden", "golden_done", False, 0, lambda r: r.golden_rule is not None,
          lambda r: r.hand_seats, "golden hands scored so far"),
    Field("goldmade", "golden_made", False, 0, lambda r: r.golden_rule is not None,
          lambda r: 1, "1 once a golden hand's contract was made"),
)
_BY_NAME = {f.name: f for f in FIELDS}


def _get(st: GameState, f: Field) -> list[int]:
    value = getattr(st, f.attr)
    if f.attr == "no_win":  # a bit mask of the teams
        return [value >> t & 1 for t in range(len(st.rules.teams))]
    return list(value) if f.per_team else [value]


def _set(st: GameState, f: Field, values: list[int]) -> None:
    if f.attr == "no_win":
        setattr(st, f.attr, sum(v << t for t, v in enumerate(values)))
    else:
        setattr(st, f.attr, list(values) if f.per_team else values[0])


def carried(st: GameState) -> Carried:
    """The fields of ``st`` that differ from a new match's, by name (see :func:`restore`).

    >>> from mariage import load_rules, GameState
    >>> st = GameState(load_rules("thousand"))
    >>> st.falls[0] = 2
    >>> carried(st)
    (('falls', (2, 0, 0)),)
    """
    fresh = GameState(st.rules)
    return tuple((f.name, tuple(_get(st, f))) for f in FIELDS
                 if f.kept(st.rules) and _get(st, f) != _get(fresh, f))


def restore(st: GameState, fields: Carried) -> None:
    """Set on ``st`` what :func:`carried` took."""
    for name, values in fields:
        _set(st, _BY_NAME[name], list(values))


def state_tags(st: GameState) -> tuple[Tag, ...]:
    """The ``[StartState]`` tags of a record whose first hand starts from ``st``."""
    return tuple(Tag("StartState", (name, *map(str, values))) for name, values in carried(st))


def _field(rules: Rules, tag: Tag, seen: set[str], report: Report) -> list[int] | None:
    """The values of one ``[StartState]`` tag, checked against ``rules``; None if wrong."""
    name = tag.values[0] if tag.values else ""
    f = _BY_NAME.get(name)
    where = (tag.line, tag.column)
    kept = [g.name for g in FIELDS if g.kept(rules)]
    if f is None or not f.kept(rules):
        why = "" if f is None else _kept_with(rules, f)
        if why:  # a field of the ruleset that these options do without
            report("N126", f"{rules.ruleset} keeps no {name!r} between hands under these "
                   f"options{why} (it keeps: {', '.join(kept) or 'none'})", *where, name)
            return None
        report("N126", f"[StartState] names a field {rules.ruleset} keeps between hands "
               f"({', '.join(kept) or 'none'}), then its values", *where, name[:40] or None)
        return None
    if name in seen:
        report("N126", f"[StartState {name!r}] is given twice", *where, name)
        return None
    seen.add(name)
    texts = tag.values[1:]
    count = len(rules.teams) if f.per_team else 1
    if len(texts) != count or not all(NUMBER.fullmatch(v) for v in texts):
        what = f"{count} whole numbers, one per team" if f.per_team else "one whole number"
        report("N126", f"[StartState {name!r}] takes {what}: {f.meaning}", *where, name)
        return None
    if any(len(v.removeprefix("-")) > MAX_DIGITS for v in texts):  # digits, not the sign
        report("N112", f"a number of [StartState {name!r}] is longer than {MAX_DIGITS} "
               "digits", *where, name)
        return None
    values = [int(v) for v in texts]
    most = f.most(rules)
    bad = next((v for v in values if v < f.least or (most is not None and v > most)), None)
    if bad is not None:
        span = f"from {f.least}" + (f" to {most}" if most is not None else " up")
        report("N126", f"[StartState {name!r}]: {bad} is impossible under the rules "
               f"(values {span}: {f.meaning})", *where, str(bad))
        return None
    return values


def _kept_with(rules: Rules, f: Field) -> str:
    """``"; it does with option NAME = DEFAULT (here V)"`` for the first option set away
    from its default whose default would keep ``f``, else nothing.

    >>> from mariage import load_rules
    >>> _kept_with(load_rules("thousand", {"barrel": False}), _BY_NAME["barrel"])
    '; it does with option barrel = true (here false)'
    """
    from mariage.engine.optionnote import show_value
    from mariage.spec.rulesload import load_rules

    now, defaults = dict(rules.options), dict(rules.defaults)
    for name, value in rules.options:
        if value != defaults.get(name) and f.kept(load_rules(rules.ruleset,
                                                             {**now, name: defaults[name]})):
            return (f"; it does with option {name} = {show_value(defaults[name])} (here "
                    f"{show_value(value)})")
    return ""


def _first_hand(start: Tag, report: Report) -> int | None:
    """The number of ``[StartHand "N"]`` (1 without it); None if malformed."""
    if not start.values:
        return 1
    text = start.values[0]
    if len(start.values) != 1 or not NUMBER.fullmatch(text) or int(text[:10]) < 1:
        report("N120", "[StartHand \"N\"] takes the number of the first hand recorded "
               "(1, 2, 3...)", start.line, start.column, None)
        return None
    if len(text) > MAX_DIGITS:
        report("N112", f"[StartHand] is longer than {MAX_DIGITS} digits", start.line,
               start.column, None)
        return None
    return int(text)


def _score(rules: Rules, st: GameState, score: Tag, report: Report) -> bool:
    """Set the match score of ``[StartScore ...]`` on ``st``; False if it is wrong."""
    vals, where = score.values, (score.line, score.column)
    nteams = len(rules.teams)
    if len(vals) != nteams or not all(NUMBER.fullmatch(v) for v in vals):
        report("N120", f"[StartScore] takes {nteams} whole numbers, the match score "
               "before the first hand recorded", *where, None)
        return False
    if any(len(v.removeprefix("-")) > MAX_DIGITS for v in vals):  # digits, not the sign
        report("N112", f"a number of [StartScore] is longer than {MAX_DIGITS} digits",
               *where, None)
        return False
    points = [int(v) for v in vals]
    if rules.match_measure == "hands_won":  # the measure of the match: hands won
        st.segni = points
    else:
        st.match_scores = points
    reached = tuple(t for t, p in enumerate(points) if p >= rules.match_target)
    if rules.places_rule is not None and len(reached) == 1:  # the winner left the play:
        st.placed = reached  # no tag needed (a match cannot go on with two at the target)
    return True


def apply_start(rules: Rules, st: GameState, tags: tuple[Tag, ...], default: Tag,
                report: Report) -> int | None:
    """Check ``[StartHand]``, ``[StartScore]`` and ``[StartState]`` among ``tags`` and set
    them on ``st`` (a new match); the number of the first hand, or None after a problem
    (reported with its place; ``default`` places a missing tag).

    >>> from mariage import load_rules, GameState
    >>> rules = load_rules("thousand")
    >>> st, said = GameState(rules), []
    >>> tags = (Tag("StartHand", ("4",)), Tag("StartState", ("bolts", "0", "3", "0"), 5, 1))
    >>> apply_start(rules, st, tags, Tag("", ()), lambda *a: said.append(a[:4]))
    >>> said
    [('N126', "[StartState 'bolts']: 3 is impossible under the rules (values from 0 to 2: \
bolts counted towards the next penalty)", 5, 1)]
    """
    start = next((t for t in tags if t.name == "StartHand"), default)
    first = _first_hand(start, report)
    if first is None:
        return None
    for t in tags:
        if t.name in ("StartScore", "StartState") and first == 1:
            report("N120", f"[{t.name}] needs [StartHand] (the hand it precedes)", t.line,
                   t.column, None)
            return None
    score = next((t for t in tags if t.name == "StartScore"), None)
    if score is not None and score.values and not _score(rules, st, score, report):
        return None
    seen: set[str] = set()
    for t in tags:
        if t.name == "StartState":
            values = _field(rules, t, seen, report)
            if values is None:
                return None
            _set(st, _BY_NAME[t.values[0]], values)
    st.hand_no = first - 1
    # the match-end rule says whether the match carried in is already over (a score at
    # the target a tie or a team that may not win yet leaves open, a limit of hands...)
    over = st.mech.match_end.over_before(st)
    if over is not None:
        why, by_score = over
        at = score if score is not None and by_score else start
        report("N162", why, at.line, at.column, None)
        return None
    wrong = st.mech.running.carried_in(st)  # (a barrel the score and state disagree on)
    if wrong is not None:
        at = next((t for t in tags if t.name == "StartState" and t.values[:1] == ("barrel",)),
                  score or start)
        report("N126", wrong[0], at.line, at.column, None, rule_id=wrong[1])
        return None
    return first
