"""Writing down a match as it is played: the :class:`Recorder`.

The recorder is told of each deal and each action (``mariage play`` calls it)
and builds the :class:`~mariage.notation.model.Record`: the deal as hands,
stock and turned-up card; trick numbers; every action; after each trick the
winner, after a change of trump the new trump; after each hand how it ended,
the points, what it added to the match and the match score; the result.

>>> from mariage import load_rules
>>> from mariage.arena.bots import make_bot
>>> rules = load_rules("mariglia")
>>> rec = record_match(rules, seed=2, bots=[make_bot("greedy", i) for i in range(4)])
>>> rec.ruleset, rec.result is not None
('mariglia', True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from mariage.engine.actions import Action
from mariage.engine.actiontext import action_text
from mariage.engine.arguments import check_rules
from mariage.engine.deals import SeededDeals
from mariage.engine.rules import Rules
from mariage.engine.state import GameState, Phase, seat_number
from mariage.spec.options import option_specs

from ..errors import count_argument, expect_each, shown
from .annotations import takers_keys, takers_note
from .layout import deal_parts
from .model import FORMAT_VERSION, Act, Deal, Hand, Item, Note, Record, Result, Tag, TrickMark
from .replay import contract_note, measure, team_name

# Module-level aliases: enum member access is slow on the hot path.
_DEAL, _PLAY, _WINDOW, _ANSWER, _OVER = (Phase.DEAL, Phase.PLAY, Phase.WINDOW, Phase.ANSWER,
                                         Phase.OVER)

if TYPE_CHECKING:
    from mariage.arena.bots import Bot

__all__ = ["Recorder", "header_tags", "record_match"]


def header_tags(rules: Rules, first_dealer: int | None,
                players: Sequence[str] | None = None,
                extra: Sequence[tuple[str, str]] = ()) -> tuple[Tag, ...]:
    """The canonical header: format, ruleset, options that differ from the default, seats,
    first dealer, then ``extra`` tags."""
    check_rules(rules)
    n = rules.nseats
    if players is not None:
        if not isinstance(players, str | Iterable):  # a number: "has no len()"
            raise TypeError(f"players: the names of the seats are a list of str, "
                            f"not {type(players).__name__}")
        if isinstance(players, str) or len(players := list(players)) != n:
            raise ValueError(f"players: {n} names are needed, one per seat of "
                             f"{rules.ruleset}, not {players!r}")
        expect_each(players, str, "players")  # else an AttributeError once the match was played
    if isinstance(extra, str | bytes) or not isinstance(extra, Iterable):
        raise TypeError(f"extra: the tags to add are (name, value) pairs of str, "
                        f"not {type(extra).__name__}")
    extra = list(extra)
    for pair in extra:
        if (not isinstance(pair, tuple | list) or len(pair) != 2
                or not all(isinstance(part, str) for part in pair)):
            raise TypeError(f"extra: each tag to add is a (name, value) pair of str, "
                            f"not {shown(pair)}")
        if pair[0] in _WRITTEN:  # a second Ruleset, a one-valued Seat: a record refused
            raise ValueError(f"extra: the tag {pair[0]} is written from the rules, the "
                             f"players and the dealer, not added")
    if first_dealer is not None:
        first_dealer = seat_number(first_dealer, n, "first_dealer")
    tags = [Tag("Mariage", (FORMAT_VERSION,)), Tag("Ruleset", (rules.ruleset,))]
    specs = option_specs(rules.document) if hasattr(rules.document, "data") else {}
    defaults = dict(rules.defaults)
    for name, value in rules.options:
        if _text(value) != _text(defaults.get(name, specs.get(name, {}).get("default"))):
            tags.append(Tag("Option", (name, _text(value))))
    for s, seat in enumerate(rules.seat_names):
        if players is not None:
            tags.append(Tag("Seat", (seat, players[s])))
    if first_dealer is not None and rules.first_dealer != "none":
        tags.append(Tag("Dealer", (rules.seat_names[first_dealer],)))
    tags.extend(Tag(k, (v,)) for k, v in extra)
    return tuple(tags)


#: The tags :func:`header_tags` writes itself: never among the ``extra`` ones.
_WRITTEN = frozenset({"Mariage", "Ruleset", "Option", "Seat", "Dealer"})


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Recorder:
    """Builds the record of a match from its deals and actions: call
    :meth:`on_deal` after each deal and :meth:`on_action` after each action, then
    :meth:`record`. ``players`` names the player of each seat (its ``Seat`` tag).

    >>> from mariage import load_rules, GameState, SeededDeals, parse_action
    >>> from mariage.notation import write_record
    >>> rules = load_rules("schnapsen")
    >>> deals = SeededDeals(rules, 42)
    >>> state = GameState(rules, first_dealer=deals.first_dealer)
    >>> recorder = Recorder(rules, deals.first_dealer, ["Anna", "Bruno"])
    >>> state.deal(*deals.next_deal())
    >>> recorder.on_deal(state)
    >>> for text in ("marriage:D", "QD", "JS"):
    ...     seat, before = state.to_act, (state.trick_no, len(state.tricks), state.trump)
    ...     state.apply(parse_action(rules, text))
    ...     recorder.on_action(state, seat, state.actions[-1][1], *before)
    >>> print(write_record(recorder.record()))
    [Mariage "1"]
    [Ruleset "schnapsen"]
    [Seat "A" "Anna"]
    [Seat "B" "Bruno"]
    [Dealer "B"]
    <BLANKLINE>
    hand 1
    deal dealer: B
    A: QH AD KD QD JD
    B: TH QC JC TS JS
    stock: KH QS AS AC TD KC AH JH TC
    turnup: KS
    1. A:marriage:D A:QD B:JS (won B)
    <BLANKLINE>
    result *
    <BLANKLINE>
    """

    def __init__(self, rules: Rules, first_dealer: int | None,
                 players: Sequence[str] | None = None,
                 extra: Sequence[tuple[str, str]] = ()) -> None:
        self.rules = rules
        self.tags = header_tags(rules, first_dealer, players, extra)
        self.hands: list[Hand] = []
        self.items: list[Item] = []
        self.deal: Deal | None = None
        self.number = 0
        self.trick = 0

    def _close(self) -> None:
        if self.deal is not None:
            self.hands.append(Hand(self.number, self.deal, tuple(self.items)))
        self.deal = None
        self.items = []

    def on_deal(self, state: GameState) -> None:
        """Call after ``state.deal(...)``."""
        self._close()
        r = self.rules
        self.number = state.hand_no
        self.trick = 0
        hands = [[r.card_code[c] for c in r.cards_of(h)] for h in state.hands]
        draw = [r.card_code[c] for c in reversed(state.stock)]
        turnup = r.card_code[state.turn_up] if state.turn_up is not None else None
        if r.turn_up == "under_stock" and draw:
            draw = draw[:-1]
        first = state.leader if r.first_lead == "lot" else None
        self.deal = Deal(deal_parts(r, hands, draw, turnup, state.dealer, first))
        if state.phase == _OVER:
            self._hand_end(state)

    def on_action(self, state: GameState, seat: int, action: Action | None,
                  trick_before: int, tricks_before: int, trump_before: int) -> None:
        """Call after an action (``None``: a resignation); give the trick number, the count
        of finished tricks and the trump from before it."""
        r = self.rules
        if trick_before and trick_before != self.trick:
            self.items.append(TrickMark(trick_before))
            self.trick = trick_before
        text = "resign" if action is None else action_text(r, action)
        self.items.append(Act(r.seat_names[seat], text))
        if action is None:
            return
        if len(state.tricks) > tricks_before:
            self.items.append(Note("won", (r.seat_names[state.tricks[-1][2]],)))
        over = state.phase in (_DEAL, _OVER)
        if state.trump != trump_before and not over:
            self.items.append(Note("trump", (r.suits[state.trump] if state.trump >= 0
                                             else "-",)))
        if over and state.history and state.history[-1].number == self.number:
            self._hand_end(state)

    def _hand_end(self, state: GameState) -> None:
        r = self.rules
        h = state.history[-1]
        self.items.append(Note("ended", (h.ended,)))
        self.items.append(Note("points", tuple(map(str, h.points))))
        self.items.append(Note("scored", tuple(map(str, h.score))))
        if h.winner is not None:
            self.items.append(Note("segno", (team_name(r, h.winner),)))
        if r.takers_rule is not None and h.outcome:  # the takers against the defence
            self.items.extend(Note(key, takers_note(r, h, key)) for key in takers_keys(r))
        elif r.auction_rule is not None and h.ended == "played_out":  # bidding games
            self.items.append(Note("contract", contract_note(r, h, "contract")))
            self.items.append(Note("schwarz", contract_note(r, h, "schwarz")))
        self.items.append(Note("match", tuple(map(str, measure(state)))))

    def record(self, state: GameState | None = None) -> Record:
        """The record so far; the result if the match is over, else ``result *``
        (also without ``state``: a match broken off, as by ``play --human`` at the end
        of its input)."""
        self._close()
        res = None if state is None else state.result
        result = Result(None) if res is None else Result(team_name(self.rules, res.winner),
                                                         res.reason)
        return Record(self.tags, (), tuple(self.hands), result)


def record_match(rules: Rules, seed: int, bots: Sequence[Bot],
                 players: Sequence[str] | None = None, max_actions: int = 1_000_000
                 ) -> Record:
    """Play a seeded match with ``bots`` (one per seat) and return its record.

    ``players`` names the players (the ``Seat`` tags; by default the bots' names).
    The same seed and bots give the same record:

    >>> from mariage import load_rules
    >>> from mariage.arena.bots import make_bot
    >>> rules = load_rules("schnapsen")
    >>> record = record_match(rules, seed=42, bots=[make_bot("greedy", 0),
    ...                                             make_bot("random", 1)])
    >>> record.players, len(record.hands), record.result.winner, record.result.reason
    ({'A': 'greedy', 'B': 'random'}, 4, 'A', 'target')
    >>> record == record_match(rules, seed=42, bots=[make_bot("greedy", 0),
    ...                                              make_bot("random", 1)])
    True
    """
    check_rules(rules)
    max_actions = count_argument(max_actions, "record_match: max_actions", 1)
    if len(bots) != rules.nseats:
        raise ValueError(f"record_match: {rules.nseats} bots are needed, one per seat of "
                         f"{rules.ruleset}, not {len(bots)}")
    deals = SeededDeals(rules, seed)
    state = GameState(rules, first_dealer=deals.first_dealer)
    rec = Recorder(rules, deals.first_dealer,
                   players if players is not None else [b.name for b in bots])
    count = 0
    while not state.terminal:
        if state.phase == _DEAL:
            deck, first = deals.next_deal(state)
            state.deal(deck, first)
            rec.on_deal(state)
            continue
        seat = state.to_act
        assert seat is not None
        action = bots[seat].choose(state)
        before = (state.trick_no, len(state.tricks), state.trump)
        state.apply(action)
        rec.on_action(state, seat, action, *before)
        count += 1
        if count > max_actions:
            raise RuntimeError(f"record_match: the match did not end within max_actions="
                               f"{max_actions} actions (hand {state.hand_no}, trick "
                               f"{state.trick_no})")
    return rec.record(state)
