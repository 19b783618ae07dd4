"""Records a user may hold of a whole match: one seat's view, the match's later hands.

:func:`later_record` keeps the hands from one on, headed by the score and the
state the match carries into it (:mod:`mariage.notation.laterstart`).

Per-seat views (:func:`view`): the record one seat could have written.

Cards that seat could not see are replaced by ``??``: the other hands as
dealt (except what the rules lay open, see :func:`mariage.engine.observation.observe`,
and a turned-up card the dealer keeps), and the stock cards that others drew
and that it never saw in their hands. Every action is public, so actions,
annotations and results stay. A view validates when some full deal is
consistent with it (see :mod:`mariage.notation.search`).

>>> from mariage import load_rules
>>> from mariage.arena.bots import make_bot
>>> from mariage.notation.recorder import record_match
>>> from mariage.notation.replay import check_record
>>> rules = load_rules("marianna")
>>> full = record_match(rules, 5, [make_bot("greedy", i) for i in range(4)])
>>> mine = view(full, "S")
>>> mine.hands[0].deal.part("N").cards
('??', '??', '??', '??', '??')
>>> check_record(mine).errors
[]
"""

from __future__ import annotations

from dataclasses import replace

from mariage.engine.observation import observe
from mariage.engine.rules import Rules
from mariage.engine.state import GameState

from ..errors import did_you_mean
from .errors import NotationError
from .laterstart import state_tags
from .layout import deal_parts
from .model import UNKNOWN, Act, Deal, Hand, Item, Record, Tag, expect_record
from .replay import check_record

__all__ = ["later_record", "view"]


class _Watch:
    """Collects, per hand, which dealt cards the seat sees."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.deals: list[tuple[list[int], list[int], list[int], int | None]] = []
        self.seen = 0
        self.prev: list[int] = []

    def on_deal(self, state: GameState, hand: Hand) -> None:
        obs = observe(state, self.seat)
        self.seen = 0
        for m in obs.shown:
            self.seen |= m
        stock = list(reversed(state.stock))
        # what the seat saw at the deal, kept even if the hand ends before any action
        self.deals.append((list(state.hands), stock, [self.seen], state.turn_up))
        self.prev = list(state.hands)

    def on_act(self, state: GameState, act: Act, trick_done: bool, hand_over: bool) -> None:
        obs = observe(state, self.seat)
        for t, h in enumerate(state.hands):
            new = h & ~self.prev[t]
            self.seen |= new & obs.shown[t]
        self.prev = list(state.hands)
        self.deals[-1][2][0] = self.seen


def _hide_passing(rules: Rules, hand: Hand, seat: str) -> tuple[Item, ...]:
    """The hand's items, with cards passed between two other players hidden (``give:?``).

    Cards are passed between partners: a seat sees the cards its own side passes. Cards
    given to an opponent (a talon's exchange) are seen by the receiver too, and by every
    seat where the rules show them.
    """
    me = rules.seat_names.index(seat)
    out: list[Item] = []
    gives = 0
    for item in hand.items:
        if isinstance(item, Act) and item.text.startswith("give:") \
                and item.seat in rules.seat_names:
            giver = rules.seat_names.index(item.seat)
            step = rules.passing_steps[gives % len(rules.passing_steps)]
            gives += 1
            if rules.team_of[giver] != rules.team_of[me] and not rules.give_face_up \
                    and _receiver(rules, hand, giver, step[1]) != me:
                item = Act(item.seat, "give:?", item.line, item.column)
        out.append(item)
    return tuple(out)


def _receiver(rules: Rules, hand: Hand, giver: int, role: int) -> int:
    """The seat that receives a give of role ``role`` (2, 3: the opponents after the
    giver in playing order, past a seat sitting out); -1 for the other roles."""
    if role not in (2, 3):
        return -1
    dealer = hand.deal.part("dealer")
    sitter = rules.sitter(rules.seat_names.index(dealer.cards[0])) if dealer \
        and dealer.cards and dealer.cards[0] in rules.seat_names else None
    out = -1 if sitter is None else sitter
    s = giver
    for _ in range(role - 1):
        s = (s + 1) % rules.nseats
        if s == out:
            s = (s + 1) % rules.nseats
    return s


def view(record: Record, seat: str) -> Record:
    """The view of ``seat`` of a valid full ``record``; raise :class:`NotationError` if invalid.

    What the seat did not see is written ``??``: other hands' cards never shown,
    the stock's cards not drawn by it; an ``Observer`` tag names the seat.

    >>> from mariage.notation import parse_record, write_record
    >>> text = ('[Mariage "1"]\\n[Ruleset "schnapsen"]\\n[Dealer "B"]\\n\\nhand 1\\n'
    ...         'deal dealer: B\\nA: QH AD KD QD JD\\nB: TH QC JC TS JS\\n'
    ...         'stock: KH QS AS AC TD KC AH JH TC\\nturnup: KS\\n'
    ...         '1. A:marriage:D A:QD B:JS (won B)\\n\\nresult *\\n')
    >>> print(write_record(view(parse_record(text), "B")))
    [Mariage "1"]
    [Ruleset "schnapsen"]
    [Dealer "B"]
    [Observer "B"]
    <BLANKLINE>
    hand 1
    deal dealer: B
    A: ?? ?? ?? ?? ??
    B: TH QC JC TS JS
    stock: KH ?? ?? ?? ?? ?? ?? ?? ??
    turnup: KS
    1. A:marriage:D A:QD B:JS (won B)
    <BLANKLINE>
    result *
    <BLANKLINE>
    """
    expect_record(record, "view")
    if not isinstance(seat, str):  # (a seat number, as the engine counts seats)
        raise TypeError(f"view: a seat is its name in the record (N, W, A...), "
                        f"not {type(seat).__name__}")
    checked = check_record(record, strict=True)
    rules = checked.rules
    if checked.errors:
        raise NotationError(checked.errors[0])
    assert rules is not None
    if seat not in rules.seat_names:
        raise ValueError(f"no seat {seat!r} in {rules.ruleset} (seats: "
                         f"{', '.join(rules.seat_names)})" + did_you_mean(seat, rules.seat_names))
    observer = record.tag("Observer")
    if observer != seat and any(UNKNOWN in part.cards for hand in record.hands
                                for part in hand.deal.parts):
        whose = f" (seat {observer}'s view)" if observer else ""
        raise ValueError(f"view: the record{whose} hides cards: seat {seat}'s view would "
                         "show a guess of them; view a full record")
    watch = _Watch(rules.seat_names.index(seat))
    check_record(record, strict=True, listener=watch)
    hands = []
    code = rules.card_code
    for hand, (dealt, stock, seen_box, turnup) in zip(record.hands, watch.deals, strict=False):
        seen = seen_box[0]
        first_seen = seen
        written = []
        for h in dealt:
            known = [code[c] for c in rules.cards_of(h & first_seen)]
            written.append(known + [UNKNOWN] * (h.bit_count() - len(known)))
        if rules.turn_up == "under_stock" and stock:
            stock = stock[:-1]
        draw = [code[c] if seen >> c & 1 else UNKNOWN for c in stock]
        old = hand.deal
        dealer = old.part("dealer")
        first = old.part("first")
        parts = deal_parts(
            rules, written, draw, code[turnup] if turnup is not None else None,
            rules.seat_names.index(dealer.cards[0]) if dealer and dealer.cards else None,
            rules.seat_names.index(first.cards[0]) if first and first.cards else None)
        hands.append(replace(hand, deal=Deal(parts), items=_hide_passing(rules, hand, seat)))
    tags = (*[t for t in record.tags if t.name != "Observer"], Tag("Observer", (seat,)))
    return replace(record, tags=tags, hands=tuple(hands))


class _Before:
    """Keeps the dealer, the carried state at the deal of hand ``first`` and the score
    before that deal (a deal may score: Mariglia's turned-up card), ``None`` where
    hand ``first`` is the record's first."""

    def __init__(self, first: int) -> None:
        self.first = first
        self.found: tuple[int | None, list[int] | None, tuple[Tag, ...]] | None = None
        self.ended: list[int] | None = None  # the score as the last hand ended

    @staticmethod
    def _score(state: GameState) -> list[int]:
        hands_won = state.rules.match_measure == "hands_won"
        return list(state.segni if hands_won else state.match_scores)

    def on_deal(self, state: GameState, hand: Hand) -> None:
        if state.hand_no == self.first and self.found is None:
            self.found = (state.dealer, self.ended, state_tags(state))

    def on_act(self, state: GameState, act: Act, trick_done: bool, hand_over: bool) -> None:
        if hand_over:
            self.ended = self._score(state)


def later_record(record: Record, first: int) -> Record:
    """The hands of a valid ``record`` from hand ``first`` on, headed by ``[StartHand]``,
    ``[StartScore]`` and the ``[StartState]`` tags the match carries into that hand, and
    ``[Dealer]`` naming its dealer; raise :class:`NotationError` if ``record`` is
    invalid, ValueError if it has no hand ``first``.

    >>> from mariage import load_rules
    >>> from mariage.arena.bots import make_bot
    >>> from mariage.notation.recorder import record_match
    >>> rec = record_match(load_rules("thousand"), 1, [make_bot("random", s) for s in range(3)])
    >>> late = later_record(rec, 5)
    >>> [t.values for t in late.tags if t.name.startswith("Start")]
    [('5',), ('75', '205', '-60'), ('conceded', '1', '0', '0')]
    >>> late.hands[0].number, check_record(late).errors
    (5, [])
    """
    before = _Before(first)
    checked = check_record(record, strict=True, listener=before)
    if checked.errors:
        raise NotationError(checked.errors[0])
    rules = checked.rules
    if before.found is None or rules is None:
        raise ValueError(f"the record has no hand {first}")
    dealer, score, carried = before.found
    if score is None:  # the record's own first hand: its own start
        given = next((t.values for t in record.tags if t.name == "StartScore"), None)
        score = [int(v) for v in given] if given else [0] * len(rules.teams)
    tags = [t for t in record.tags if t.name not in ("StartHand", "StartScore", "StartState")]
    if dealer is not None:
        tags = [Tag("Dealer", (rules.seat_names[dealer],)) if t.name == "Dealer" else t
                for t in tags]
    tags += [Tag("StartHand", (str(first),)), Tag("StartScore", tuple(map(str, score))),
             *carried]
    return replace(record, tags=tuple(tags),
                   hands=tuple(h for h in record.hands if h.number >= first))
