"""A record as a list of steps: what the table looked like after each action.

:func:`timeline` replays a record (leniently, so that every problem the
validator finds is kept) and takes a snapshot after the deal of each hand and
after every action: the cards each seat holds, the cards on the table, trump,
the turned-up card, the stock, the declarations made so far in the hand, the
points, held points, the match score, the record's annotations and comments,
and the problems found at that step. The HTML viewer, the SVG pictures and
``mariage replay --format json`` are all drawn from it.

>>> from mariage.notation.reader import parse_record
>>> rec = parse_record('''[Mariage "1"]
... [Ruleset "mariazza"]
...
... hand 1
... deal first: A
... A: 4D KC JC 2C 4S
... B: 2H AD 2D 3C 6S
... stock: 5S 3H QC JS 5C AC 4H QD 7H KH 5D AH 4C JD QS 6D 2S AS 7C 3S KD 7S 3D 5H 7D QH KS 6H 6C
... turnup: JH
... 1. A:KC B:2H (won B)
... 2. B:AD A:3H (won A)
... result *
... ''')
>>> tl = timeline(rec)
>>> [s.kind for s in tl.steps]
['start', 'deal', 'play', 'play', 'play', 'play']
>>> step = tl.steps[3]
>>> step.table, step.winner, step.notes
([('A', 'KC'), ('B', '2H')], 'B', ['(won B)'])
>>> tl.steps[-1].hands["A"]
['4D', 'QC', 'JC', '2C', '4S']
"""

from __future__ import annotations

from typing import Any

from mariage.engine.declared import declared_kind
from mariage.engine.outcomes import loser_note
from mariage.engine.rules import Rules
from mariage.engine.state import GameState, Phase

from ..lazyrecord import field, record
from ..notation.errors import RecordError
from ..notation.model import UNKNOWN, Act, Comment, Hand, Note, Record, expect_record
from ..notation.replay import check_record, measure, team_name

__all__ = ["Declared", "HandEnd", "Step", "Timeline", "expect_timeline", "timeline"]


@record
class Declared:
    """A declaration, a granted ask or a called pair, in the order made.

    Who, what (the declaration's or the ask's name, ``pair`` for a called pair),
    the suit and its value; ``kind`` says which (``declaration``, ``ask`` or
    ``call``) and ``rule`` is the ID of the rule that made it.
    """

    seat: str
    name: str
    suit: str
    value: int
    kind: str = "declaration"
    rule: str = ""


@record
class HandEnd:
    """How a hand ended: the reason, points, what it added to the match, the segno."""

    ended: str
    points: list[int]
    scored: list[int]
    segno: str | None


@record
class Step:
    """The table after one step of the record.

    ``kind`` is ``start`` (before any deal), ``deal``, ``play`` (a card),
    ``declare`` (a declaration, ask or answer), ``other`` (an exchange, a pass,
    a call-out, a resignation). ``table`` holds the cards of the trick in
    play, or the whole trick just completed (then ``winner`` is set).
    """

    kind: str
    hand: int = 0
    trick: int = 0
    line: int = 0
    seat: str | None = None
    action: str | None = None
    hands: dict[str, list[str]] = field(default_factory=dict)
    table: list[tuple[str, str]] = field(default_factory=list)
    winner: str | None = None
    trump: str | None = None
    turn_up: str | None = None
    stock: int = 0
    dealer: str | None = None
    to_act: str | None = None
    declarations: list[Declared] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    held: dict[str, int] = field(default_factory=dict)
    match: list[int] = field(default_factory=list)
    tricks_won: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    hand_end: HandEnd | None = None
    errors: list[RecordError] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """The step as a JSON-ready dict."""
        d: dict[str, Any] = _plain(self)
        d["table"] = [list(p) for p in self.table]
        return d


_ATOMS = (str, int, float, bool, type(None))


def _plain(value: Any) -> Any:
    """:func:`dataclasses.asdict` of ``value``, faster: strings, numbers and None (most of a
    step) are returned as they are, not copied (drawing every step of a long match spent
    most of its time in ``asdict``)."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is list:
        return [_plain(v) for v in value]
    if kind is dict:
        return {_plain(k): _plain(v) for k, v in value.items()}
    from dataclasses import fields, is_dataclass  # (only for JSON: not at every replay)

    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if kind is tuple:
        return tuple(_plain(v) for v in value)
    import copy

    return copy.deepcopy(value)


@record
class Timeline:
    """Every step of one record, with what stays the same throughout."""

    record: Record
    ruleset: str | None
    title: str
    seats: list[str]
    players: dict[str, str]
    teams: list[str]
    team_seats: list[list[str]]
    direction: str
    options: dict[str, str]
    steps: list[Step]
    errors: list[RecordError]
    result: str
    measure: str = "points"
    observer: str | None = None
    #: what ends the match: a score (points or hands won) or, for ``hands_played``, hands
    target: int = 0
    #: the problem at which the replay stopped before the record's end (None: it did not)
    stopped: RecordError | None = None
    #: the problems written after the place the replay stopped at: on no step
    after_stop: list[RecordError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the record is valid."""
        return not self.errors

    def as_dict(self) -> dict[str, Any]:
        """The whole timeline as a JSON-ready dict (without the parsed record)."""
        return {
            "file": self.record.file, "record": self.record.number, "ruleset": self.ruleset,
            "title": self.title, "seats": self.seats, "players": self.players,
            "teams": self.teams, "team_seats": self.team_seats, "direction": self.direction,
            "options": self.options, "measure": self.measure, "target": self.target,
            "result": self.result,
            "observer": self.observer,
            "ok": self.ok, "errors": [e.as_dict() for e in self.errors],
            "steps": [s.as_dict() for s in self.steps],
        } | ({"stopped": self.stopped.as_dict()} if self.stopped is not None else {}) \
            | ({"after_stop": [e.as_dict() for e in self.after_stop]} if self.after_stop
               else {})


def _cards(rules: Rules, mask: int) -> list[str]:
    """The cards of ``mask``, grouped by suit (trump order of the pack), strongest first."""
    cards = rules.cards_of(mask)
    cards.sort(key=lambda c: (rules.suit_of[c], -rules.strength[c]))
    return [rules.card_code[c] for c in cards]


class _Snap:
    """The listener: a snapshot after each deal and each action."""

    def __init__(self, first: Step) -> None:
        self.steps = [first]
        #: where each step is written in the record (line, column), step by step
        self.places = [(first.line, 0)]
        self.after: dict[int, list[Note | Comment]] = {}
        self.opening: list[Note | Comment] = []
        self.hand_no = 0
        self.known: set[str] | None = None  # None: the record shows every card

    def _knowable(self, hand: Hand) -> None:
        """For a partial record (``??`` in its deal), the cards its writer knew.

        The validator completes such a deal with cards that fit; those guesses are
        drawn face down. Known are the cards the deal names, and each card named by an
        action from that action on (see :meth:`on_act`).
        """
        named = [c for part in hand.deal.parts for c in part.cards]
        self.known = {c for c in named if c != UNKNOWN} if UNKNOWN in named else None

    def _follow(self, hand: Hand) -> None:
        self.after = {}
        current: list[Note | Comment] = []
        self.opening = current
        for item in hand.items:
            if isinstance(item, Act):
                current = []
                self.after[id(item)] = current
            elif isinstance(item, (Note, Comment)):
                current.append(item)

    def snap(self, st: GameState, kind: str, line: int) -> Step:
        r = st.rules
        names = r.seat_names
        step = Step(kind, hand=st.hand_no, trick=st.trick_no, line=line)
        step.hands = {names[s]: _cards(r, st.hands[s]) for s in range(r.nseats)}
        known = self.known
        if known is not None:
            for seat, cards in step.hands.items():
                seen = [c for c in cards if c in known]
                step.hands[seat] = seen + [UNKNOWN] * (len(cards) - len(seen))
        step.table = [(names[s], r.card_code[c])
                      for s, c in zip(st.trick_seats, st.trick_cards, strict=True)]
        step.trump = r.suits[st.trump] if st.trump >= 0 else None
        step.turn_up = r.card_code[st.turn_up] if st.turn_up is not None else None
        if step.turn_up is not None and self.known is not None and step.turn_up not in self.known:
            step.turn_up = UNKNOWN
        step.stock = len(st.stock)  # the turned-up card, drawn last, included
        step.dealer = names[st.dealer] if st.dealer is not None else None
        step.to_act = names[st.to_act] if st.to_act is not None else None
        for who, index, suit, value in st.declared:
            what = declared_kind(r, index)
            step.declarations.append(Declared(names[who], what.name, r.suits[suit], value,
                                              what.source, what.rule))
        step.points = [st.hand_points(t) for t in range(len(r.teams))]
        step.held = {names[s]: v for s, v in enumerate(st.held) if v}
        step.match = list(measure(st))
        step.tricks_won = {r.team_names[t]: n for t, n in enumerate(st.tricks_won)}
        return step

    def on_deal(self, state: GameState, hand: Hand) -> None:
        self._follow(hand)
        self._knowable(hand)
        step = self.snap(state, "deal", hand.line)
        self.places.append((hand.line, hand.column))
        _ended(state, step)  # a hand may end at its deal (a turned-up card's bonus)
        for item in self.opening:
            (step.notes if isinstance(item, Note) else step.comments).append(
                str(item) if isinstance(item, Note) else item.text)
        self.steps.append(step)

    def on_act(self, state: GameState, act: Act, trick_done: bool, hand_over: bool) -> None:
        r = state.rules
        text = act.text
        if text in r.card_index:
            kind = "play"
        elif text.split(":")[0] in ("exchange", "pass", "callout", "resign"):
            kind = "other"
        else:
            kind = "declare"
        if self.known is not None:
            self.known.update(w for w in text.split(":") if w in r.card_index)
        step = self.snap(state, kind, act.line)
        self.places.append((act.line, act.column))
        step.seat, step.action = act.seat, text
        if trick_done and state.tricks:
            leader, cards, winner = state.tricks[-1]
            seats = [leader]  # in playing order, passing over a seat sitting out
            while len(seats) < len(cards):
                seats.append(state.next_seat(seats[-1]))
            step.table = [(r.seat_names[s], r.card_code[c])
                          for s, c in zip(seats, cards, strict=True)]
            step.winner = r.seat_names[winner]
            step.trick = len(state.tricks)
        if hand_over:
            _ended(state, step)
        for item in self.after.get(id(act), ()):
            if isinstance(item, Note):
                step.notes.append(str(item))
            else:
                step.comments.append(item.text)
        self.steps.append(step)


def _ended(state: GameState, step: Step) -> None:
    """How the hand ended, on ``step``, where the state's last hand scored is this one."""
    if state.history and state.history[-1].number == state.hand_no:
        r = state.rules
        h = state.history[-1]
        step.points = list(h.points)
        step.hand_end = HandEnd(h.ended, list(h.points), list(h.score),
                                team_name(r, h.winner) if r.score_kind == "segno" else None)


def _where(err: RecordError) -> tuple[int, int]:
    """``err``'s line and column, for ordering (an unknown column: the line's end)."""
    return (err.line or 0, err.column or 1 << 62)


def _after(stopped: RecordError | None, err: RecordError) -> bool:
    """True if ``err`` is written after the place the replay ``stopped`` at: the replay
    never reached it, so no step is its (a problem of unknown line is not after)."""
    return stopped is not None and bool(err.line) and bool(stopped.line) \
        and _where(err) > _where(stopped)


def _at(steps: list[Step], places: list[tuple[int, int]], err: RecordError) -> Step:
    """The step ``err`` belongs to: the last one written at or before its line and column
    (a problem of unknown column: the last step of its line; of unknown line: the last)."""
    if not err.line:
        return steps[-1]
    where = _where(err)
    target = steps[0]
    for step, place in zip(steps, places, strict=True):
        if place > where:
            break
        target = step
    return target


def timeline(record: Record) -> Timeline:
    """Replay ``record`` leniently and take a snapshot at every step.

    Problems the validator finds are attached to the step at which they occur:
    the last step at or before the problem's line (an action that was refused
    shows at the step before it, where it was attempted).
    """
    expect_record(record, "timeline")
    first = Step("start", line=record.line)
    first.comments = [c.text for c in record.comments]
    snap = _Snap(first)
    checked = check_record(record, listener=snap)
    rules = checked.rules
    steps = snap.steps
    after_stop: list[RecordError] = []
    for err in checked.errors:
        if _after(checked.stopped, err):
            after_stop.append(err)
        else:
            _at(steps, snap.places, err).errors.append(err)
    seats = list(rules.seat_names) if rules else []
    players = record.players
    st = checked.state
    if st is not None and st.result is not None and rules is not None:
        res = st.result
        result = (f"{team_name(rules, res.winner)} wins ({res.reason}){loser_note(st)}: "
                  + ", ".join(f"{rules.team_names[t]} {p}" for t, p in enumerate(res.scores)))
    elif st is not None and st.phase == Phase.OVER:
        result = "over"
    else:
        result = "unfinished"
    return Timeline(
        record=record, ruleset=record.ruleset,
        title=rules.name if rules else (record.ruleset or "?"),
        seats=seats, players={s: players[s] for s in seats if s in players},
        teams=list(rules.team_names) if rules else [],
        team_seats=[[rules.seat_names[s] for s in team] for team in rules.teams] if rules
        else [],
        direction=rules.direction if rules else "anticlockwise",
        options=record.options, steps=steps, errors=list(checked.errors), result=result,
        measure=rules.match_measure if rules else "points",
        observer=record.tag("Observer"), target=rules.match_target if rules else 0,
        stopped=checked.stopped, after_stop=after_stop)


def expect_timeline(tl: object, call: str) -> Timeline:
    """``tl`` if it is a :class:`Timeline`, else a ``TypeError`` naming ``call``.

    >>> expect_timeline("match.mrg", "render_svg")
    Traceback (most recent call last):
    ...
    TypeError: render_svg: a Timeline is needed (timeline(record) makes one), not str
    """
    if not isinstance(tl, Timeline):
        raise TypeError(f"{call}: a Timeline is needed (timeline(record) makes one), "
                        f"not {type(tl).__name__}")
    return tl
