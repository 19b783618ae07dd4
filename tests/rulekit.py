"""Helpers for the per-rule tests: exact deals, action scripts, refusals, coverage marks.

A rule test builds one exact situation (who holds what, the stock order, the
turned-up card), plays a script of canonical action texts, and checks either
the effect of a legal action or that an illegal one is refused with exactly
the rule ID that forbids it. Each test is marked with :func:`covers`, which
records the rule IDs (and the ruleset options) it exercises, so that
``test_rule_coverage.py`` can prove every rule ID has a test.

>>> state = start("marianna", hands=["AH 3H KH QH JH"], dealer=3)
>>> state.to_act, state.rules.format_cards(state.hands[0])
(0, 'AH 3H KH QH JH')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest
from mariage import (
    GameState,
    IllegalActionError,
    Phase,
    Play,
    action_text,
    load_rules,
    parse_action,
)
from mariage.engine.deals import deal_owners
from mariage.engine.rules import Rules

__all__ = [
    "COVERAGE",
    "Mark",
    "covers",
    "deck_for",
    "finish_hand",
    "legal",
    "legal_texts",
    "play",
    "refused",
    "rules_of",
    "start",
]

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Mark:
    """One test's claim: the rule IDs it exercises, under which ruleset and options."""

    test: str
    rule_ids: tuple[str, ...]
    ruleset: str | None
    options: Mapping[str, Any] = field(default_factory=dict)


#: every :func:`covers` mark made so far (filled as test modules are imported)
COVERAGE: list[Mark] = []


def covers(*rule_ids: str, ruleset: str | None = None,
           options: Mapping[str, Any] | None = None) -> Callable[[F], F]:
    """Record that the decorated test exercises ``rule_ids`` (under ``ruleset``/``options``)."""

    def mark(fn: F) -> F:
        COVERAGE.append(Mark(f"{fn.__module__}.{fn.__name__}", tuple(rule_ids), ruleset,
                             dict(options or {})))
        return fn

    return mark


def rules_of(ruleset: str, **options: Any) -> Rules:
    """The compiled rules of ``ruleset`` with ``options``."""
    return load_rules(ruleset, options)


def _codes(cards: str | Sequence[str] | None) -> list[str]:
    if cards is None:
        return []
    if isinstance(cards, str):
        return cards.split()
    return list(cards)


def deck_for(rules: Rules, hands: Sequence[str | Sequence[str] | None], dealer: int | None,
             stock: str | Sequence[str] = (), turn_up: str | None = None) -> list[int]:
    """A deck order (top card first) that deals exactly the situation asked for.

    ``hands[s]`` is what seat ``s`` holds after the deal (missing or ``None``
    seats, and missing cards of a partial hand, are filled from the cards
    nobody asked for, in canonical order). ``stock`` lists the cards of the
    stock in the order they will be drawn (first drawn first; the rest is
    filled the same way). ``turn_up`` is the face-up card: where the dealer's
    last card is turned it must be one of the dealer's cards; where the card
    lies under the stock it is the last card drawn.

    The deal follows :meth:`GameState.deal` (:func:`mariage.engine.deals.deal_owners`):
    packets go round from the seat after the dealer (seat 0 where there is no
    dealer), round after round; a seat that sits the hand out gets nothing.
    """
    n = rules.nseats
    want = [_codes(hands[s]) if s < len(hands) else [] for s in range(n)]
    stock_codes = _codes(stock)
    dealer_turns = bool(turn_up) and rules.turn_up == "dealer_last"
    asked = [c for h in want for c in h] + stock_codes
    if turn_up and not dealer_turns:
        asked.append(turn_up)
    if len(set(asked)) != len(asked):
        raise ValueError(f"a card is asked for twice: {asked}")
    if dealer_turns:
        assert dealer is not None and turn_up in want[dealer], "turn-up must be the dealer's"
    # unasked cards, lowest ranks first, so that filled hands hold no pairs by accident
    spare = sorted((c for c in rules.card_code if c not in asked),
                   key=lambda c: (-rules.rank_of[rules.card_index[c]],
                                  rules.suit_of[rules.card_index[c]]))
    out = rules.sitter(dealer)  # dealt nothing
    for s in range(n):
        if s == out:
            if want[s]:
                raise ValueError(f"seat {s} sits out: he is dealt nothing")
            continue
        while len(want[s]) < rules.hand_size:
            want[s].append(spare.pop(0))
        if len(want[s]) != rules.hand_size:
            raise ValueError(f"seat {s} is given {len(want[s])} cards")
    if dealer_turns:
        assert dealer is not None and turn_up is not None
        want[dealer].remove(turn_up)
        want[dealer].append(turn_up)  # dealt last
    stock_codes += spare
    if rules.turn_up == "under_stock" and turn_up is None:
        turn_up = stock_codes.pop()
    return [rules.card_index[c] for c in lay_out(rules, dealer, want, stock_codes, turn_up)]


def lay_out(rules: Rules, dealer: int | None, hands: Sequence[Sequence[str]],
            stock: Sequence[str], turn_up: str | None) -> list[str]:
    """The deck (top first) that deals each seat its whole ``hands[s]`` in order, the
    stock in drawing order and the card under the stock, by :func:`deal_owners`."""
    deck: list[str] = []
    taken = [0] * rules.nseats
    rest = iter(stock)
    for owner in deal_owners(rules, dealer):
        if owner >= 0:
            deck.append(hands[owner][taken[owner]])
            taken[owner] += 1
        elif owner == -2:
            assert turn_up is not None
            deck.append(turn_up)
        else:
            deck.append(next(rest))
    return deck


def start(ruleset: str | Rules, hands: Sequence[str | Sequence[str] | None] = (),
          dealer: int | None = 0, stock: str | Sequence[str] = (), turn_up: str | None = None,
          first_player: int | None = None, options: Mapping[str, Any] | None = None,
          state: GameState | None = None) -> GameState:
    """A match (or ``state``, waiting for a deal) dealt exactly as asked.

    For a ruleset without a dealer pass ``dealer=None`` and ``first_player``.
    """
    rules = ruleset if isinstance(ruleset, Rules) else load_rules(ruleset, dict(options or {}))
    if state is None:
        state = GameState(rules, first_dealer=dealer)
    else:
        dealer = state.dealer
    if rules.first_dealer == "none":
        dealer = None
        if first_player is None:
            first_player = 0
    state.deal(deck_for(rules, hands, dealer, stock, turn_up), first_player)
    return state


def legal_texts(state: GameState, seat: int | None = None) -> list[str]:
    """The canonical texts of the legal actions of ``seat`` (default: the seat to act)."""
    return [action_text(state.rules, a) for a in state.legal_actions(seat)]


def play(state: GameState, script: str | Iterable[str]) -> GameState:
    """Apply canonical action texts in turn, each by the seat to act.

    A text written ``SEAT@ACTION`` (``1@callout``) is applied for that seat
    number. Each action must also be listed by ``legal_actions`` for its seat.
    """
    texts = script.split() if isinstance(script, str) else list(script)
    for text in texts:
        seat: int | None = None
        if "@" in text:
            head, text = text.split("@", 1)
            seat = int(head)
        legal(state, text, seat)
        state.apply(parse_action(state.rules, text), seat)
    return state


def legal(state: GameState, text: str, seat: int | None = None) -> None:
    """Assert that ``text`` is a legal action of ``seat`` now."""
    texts = legal_texts(state, seat)
    assert text in texts, f"{text!r} should be legal for seat {seat}; legal: {texts}"


def _snapshot(state: GameState) -> tuple[Any, ...]:
    return (state.phase, state.to_act, tuple(state.hands), tuple(state.trick_cards),
            state.trump, tuple(state.match_scores), state.hand_no, state.trick_no,
            tuple(state.decl_points), tuple(state.game_points), tuple(state.held),
            tuple(state.forced), state.pending_ask, len(state.declared), len(state.actions),
            tuple(state.stock), state.turn_up, state.result)


def refused(state: GameState, text: str, rule_id: str, seat: int | None = None) -> None:
    """Assert that ``text`` (by ``seat``, default the seat to act) is refused for ``rule_id``.

    The action must also be absent from the legal actions, and the state unchanged.
    """
    if state.phase not in (Phase.DEAL, Phase.OVER):
        assert text not in legal_texts(state, seat), f"{text!r} is listed as legal"
    before = _snapshot(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(parse_action(state.rules, text), seat)
    assert info.value.rule_id == rule_id, (
        f"{text!r} refused under {info.value.rule_id}, expected {rule_id}: {info.value}")
    assert _snapshot(state) == before, "a refused action changed the state"


def cards(state: GameState, seat: int) -> str:
    """The hand of ``seat`` as canonical codes."""
    return state.rules.format_cards(state.hands[seat])


def play_tricks(state: GameState, count: int, keep: str | Sequence[str] = ()) -> GameState:
    """Finish ``count`` tricks, each seat playing its first legal card not in ``keep``.

    Only card plays are made (no declarations, asks or passes); a hand that
    ends on the way stops the helper.
    """
    r = state.rules
    kept = {r.card_index[c] for c in _codes(keep)}
    hand, target = state.hand_no, len(state.tricks) + count
    while (state.phase == Phase.PLAY and state.hand_no == hand
           and len(state.tricks) < target):
        plays = [a for a in state.legal_actions() if isinstance(a, Play)]
        choice = next((a for a in plays if a.card not in kept), plays[0])
        state.apply(choice)
    return state


def play_out(state: GameState, keep: str | Sequence[str] = ()) -> GameState:
    """Play the current hand to its end with :func:`play_tricks` (passing any window)."""
    hand = state.hand_no
    while state.phase not in (Phase.DEAL, Phase.OVER) and state.hand_no == hand:
        if state.phase == Phase.WINDOW:
            state.apply(parse_action(state.rules, "pass"))
        elif state.phase == Phase.ANSWER:
            state.apply(state.legal_actions()[0])
        else:
            play_tricks(state, 1, keep)
    return state


def finish_hand(state: GameState, side0_points: int, side0_tricks: int,
                keep: str | Sequence[str] = ()) -> GameState:
    """Play to the last trick of the hand (``keep`` kept in hand), set the two sides' card
    points and tricks so that the hand ends with side 0 at ``side0_points`` of the pack's
    total and ``side0_tricks`` tricks (the last trick and its bonus included), then play
    the last trick. Fails if the last trick goes to a side that cannot have it."""
    r = state.rules
    total, ntricks = sum(state._points) + r.last_trick_points, r.ncards // r.hand_seats
    return finish_sides(state, [side0_points, total - side0_points],
                        [side0_tricks, ntricks - side0_tricks], keep)


def finish_sides(state: GameState, points: Sequence[int], tricks: Sequence[int],
                 keep: str | Sequence[str] = ()) -> GameState:
    """:func:`finish_hand` for any number of sides: the hand ends with each side at its
    ``points`` (the last trick's bonus included) and its ``tricks``."""
    r = state.rules
    play_tricks(state, r.ncards // r.hand_seats - 1 - len(state.tricks), keep=keep)
    probe = state.clone()
    play_tricks(probe, 1)
    _, cards, winner = probe.tricks[-1]
    last = sum(state._points[c] for c in cards) + r.last_trick_points
    team = r.team_of[winner]
    points, tricks = list(points), list(tricks)
    assert tricks[team] >= 1 and points[team] >= last, "the last trick goes the other way"
    points[team] -= last
    tricks[team] -= 1
    state.captured[:] = points
    state.tricks_won[:] = tricks
    play_tricks(state, 1)
    assert state.phase in (Phase.DEAL, Phase.OVER)
    return state


def suit(state: GameState, letter: str) -> int:
    """The suit index of a suit letter."""
    return state.rules.suits.index(letter)


def hand_gain(state: GameState) -> tuple[int, ...]:
    """What playing the current hand out (with :func:`play_out`) adds to each team's score."""
    probe = state.clone()
    before = list(probe.match_scores)
    play_out(probe)
    return tuple(a - b for a, b in zip(probe.match_scores, before, strict=True))


def check_match_target(make: Callable[[], GameState], target: int, tie: str = "play_on"
                       ) -> None:
    """Check the end of a match at ``target`` on the hand that ``make`` deals.

    The running scores are set just before the hand is played out, so that
    the hand's score (found by a dry run) takes the teams exactly to chosen
    totals: below the target (play on), level at the target (play on, or a
    drawn match where ``tie`` is ``draw``), one team alone over it, and every
    team over it with one ahead (the higher wins).
    """
    gain = hand_gain(make())
    nteams = len(gain)

    def finish(offsets: Sequence[int]) -> GameState:
        state = make()
        state.match_scores = [target - g + o for g, o in zip(gain, offsets, strict=True)]
        play_out(state)
        return state

    state = finish([-1] * nteams)
    assert state.phase == Phase.DEAL and state.result is None, "no team reached the target"
    state = finish([0] * nteams)
    assert state.match_scores == [target] * nteams
    if tie == "draw":
        assert state.terminal and state.result is not None and state.result.winner is None
    else:
        assert state.phase == Phase.DEAL and state.result is None, "a tie at the target plays on"
    for team in range(nteams):
        for others in (-1, 0):
            offsets = [others] * nteams
            offsets[team] = others + 1
            state = finish(offsets)
            assert state.terminal and state.result is not None
            assert state.result.winner == team, (offsets, state.result)


def endgame(ruleset: str | Rules, leader: str, follower: str, turn_up: str, dealer: int = 1,
            first_player: int | None = None, options: Mapping[str, Any] | None = None,
            ) -> GameState:
    """A two-player hand with a stock, played to the first trick after the stock.

    The player who leads that trick holds exactly ``leader`` and the other
    exactly ``follower`` (which must include ``turn_up``: the loser of the
    last drawing trick takes the face-up card). Until then each player plays
    his first legal card that is not one of those ten, and the ten are the
    last cards drawn. A dry run finds who wins each of the last five drawing
    tricks (the kept cards are never played, so the winners do not depend on
    where they lie); the stock is then ordered so that each draw lands right.
    """
    rules = ruleset if isinstance(ruleset, Rules) else load_rules(ruleset, dict(options or {}))
    lead_cards, follow_cards = _codes(leader), _codes(follower)
    assert turn_up in follow_cards and rules.nseats == 2
    kept = lead_cards + follow_cards
    tricks = rules.stock_size // 2
    spare = [c for c in rules.card_code if c not in kept]
    hands = [spare[:rules.hand_size], spare[rules.hand_size:2 * rules.hand_size]]
    early = spare[2 * rules.hand_size:]
    late = [c for c in kept if c != turn_up]

    def deal(order: list[str]) -> GameState:
        state = start(rules, hands, dealer=dealer, stock=early + order, turn_up=turn_up,
                      first_player=first_player)
        play_tricks(state, tricks, keep=kept)
        return state

    probe = deal(late)
    winners = [w for (_, _, w) in probe.tricks[tricks - 5:tricks]]
    last = winners[-1]
    mine = {last: list(lead_cards), 1 - last: [c for c in follow_cards if c != turn_up]}
    order: list[str] = []
    for w in winners:
        order.append(mine[w].pop())
        if mine[1 - w]:
            order.append(mine[1 - w].pop())
    state = deal(order)
    assert state.to_act == last and state.trick_no == tricks + 1 and not state.stock
    assert set(cards(state, last).split()) == set(lead_cards)
    assert set(cards(state, 1 - last).split()) == set(follow_cards)
    return state
