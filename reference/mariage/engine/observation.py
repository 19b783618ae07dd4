"""What one seat may know: the per-seat observation of a game state.

A seat sees its own hand; the cards of the trick and of all finished tricks;
the bids and the cards its own side passed between partners (not the other side's);
the trump suit; the turned-up card while it lies on the table; the stock's
size; every declaration, ask and answer; the scores; and, of other hands,
only the cards that were shown (declared, asked for, or taken from the
table) and not yet played, plus each hand's size. A hand that passes cards on
face down (Thousand's declarer, after the talon was shown) shows none of its
cards from then on: nobody else can tell which of them left it. Where the rules
lay hands open (``open_hands``), every hand is visible.

Two states that differ only in cards a seat cannot see give that seat equal
observations (this is property-tested).

>>> from mariage import load_rules, GameState, canonical_deck
>>> rules = load_rules("marianna")
>>> st = GameState(rules, first_dealer=0)
>>> st.deal(canonical_deck(rules))
>>> obs = observe(st, 2)
>>> rules.format_cards(obs.hand), obs.hand_sizes, obs.stock_size
('7H 6H 5H 4H 2H', (5, 5, 5, 5), 20)
"""

from __future__ import annotations

from ..lazyrecord import frozen_record
from .actions import Action, Give
from .rules import Rules
from .state import GameState, Phase, expect_state, seat_number

__all__ = ["Observation", "give_receivers", "in_hands_seen", "observe", "public_action",
           "reviewable"]


@frozen_record
class Observation:
    """The view of one seat (:func:`observe`). Hands are card bit masks; ``shown``
    holds, per seat, the cards of that hand the seat knows (all of its own).

    >>> from mariage import load_rules, new_match
    >>> rules = load_rules("schnapsen")
    >>> obs = observe(new_match(rules, seed=42), 0)
    >>> rules.format_cards(obs.hand), obs.shown[1], obs.hand_sizes, obs.stock_size
    ('QH AD KD QD JD', 0, (5, 5), 10)
    >>> rules.card_code[obs.turn_up], rules.suits[obs.trump], obs.legal[:2]
    ('KS', 'S', (Declare(decl=0, suit=1, trump=True), Close()))
    """

    seat: int
    hand_no: int
    dealer: int | None
    phase: Phase
    to_act: int | None
    hand: int
    shown: tuple[int, ...]  # per seat: cards of that hand the seat knows (all of its own)
    hand_sizes: tuple[int, ...]
    trump: int
    turn_up: int | None
    stock_size: int
    trick_no: int
    leader: int
    trick: tuple[tuple[int, int], ...]  # (seat, card) of the current trick
    tricks: tuple[tuple[int, tuple[int, ...], int], ...]
    actions: tuple[tuple[int, Action], ...]  # every public action of the hand
    declared: tuple[tuple[int, int, int, int], ...]
    hand_points: tuple[int, ...]
    held: tuple[int, ...]
    game_points: tuple[int, ...]
    match_scores: tuple[int, ...]
    segni: tuple[int, ...]
    legal: tuple[Action, ...]
    #: indices (in ``tricks``) of the finished tricks the seat may look through
    reviewable: tuple[int, ...] = ()


def public_action(rules: Rules, viewer: int, seat: int, action: Action,
                  receiver: int = -1) -> Action:
    """``action`` of ``seat`` as ``viewer`` sees it: cards passed by the other side hidden.

    Cards given to an opponent (a talon's exchange) are seen by their ``receiver`` too,
    and by everybody where the rules give them face up.

    >>> from mariage import load_rules
    >>> rules = load_rules("marjapussi-de")
    >>> public_action(rules, 1, 0, Give(0b1111)), public_action(rules, 2, 0, Give(0b1111))
    (Give(cards=-1), Give(cards=15))
    >>> public_action(rules, 1, 0, Give(0b1111), receiver=1)
    Give(cards=15)
    """
    if type(action) is Give and rules.team_of[seat] != rules.team_of[viewer] \
            and viewer != receiver and not rules.give_face_up:
        return Give(-1)
    return action


def give_receivers(state: GameState) -> list[int]:
    """The seat that received each give of the hand so far, in order (-1: laid away)."""
    r = expect_state(state, "give_receivers").rules
    steps = r.passing_steps
    if not steps:
        return []
    role = state.mech.passing.role
    gives = sum(1 for _, a in state.actions if type(a) is Give)
    return [role(state, steps[k % len(steps)][1]) for k in range(gives)]


def _public(state: GameState, seat: int) -> tuple[tuple[int, Action], ...]:
    """The actions of the hand as ``seat`` saw them: cards passed by the other side hidden."""
    r = state.rules
    if r.auction_rule is None:
        return tuple(state.actions)
    receivers = iter(give_receivers(state))
    return tuple((s, public_action(r, seat, s, a, next(receivers) if type(a) is Give else -1))
                 for s, a in state.actions)


def observe(state: GameState, seat: int, open_hands: bool | None = None) -> Observation:
    """The observation of ``seat`` (0-based, in playing order) of ``state``.

    ``open_hands``: show every hand (``None``: as the rules say). A declared
    marriage shows its cards to the opponent:

    >>> from mariage import load_rules, new_match, parse_action
    >>> rules = load_rules("schnapsen")
    >>> state = new_match(rules, seed=42)
    >>> observe(state, 1).shown[0]
    0
    >>> state.apply(parse_action(rules, "marriage:D"))
    >>> rules.format_cards(observe(state, 1).shown[0])
    'KD QD'
    >>> rules.format_cards(observe(state, 1, open_hands=True).shown[0])
    'QH AD KD QD JD'
    """
    r = expect_state(state, "observe").rules
    n = r.nseats
    seat = seat_number(seat, n, "observe: seat")
    if open_hands is None:
        open_hands = r.open_hands
    elif open_hands.__class__ is not bool:  # "false", a truthy text, showed every hand
        kind = type(open_hands)
        if kind.__module__ != "numpy" or kind.__name__ not in ("bool", "bool_"):
            raise TypeError(f"observe: open_hands is True, False or None (the rules' "
                            f"visibility), not {kind.__name__}")
        open_hands = bool(open_hands)
    shown = tuple(
        state.hands[s] if (s == seat or open_hands) else state.known[s] & state.hands[s]
        for s in range(n))
    turn_up = state.turn_up
    return Observation(
        seat=seat, hand_no=state.hand_no, dealer=state.dealer, phase=state.phase,
        to_act=state.to_act, hand=state.hands[seat], shown=shown,
        hand_sizes=tuple(h.bit_count() for h in state.hands), trump=state.trump,
        turn_up=turn_up, stock_size=len(state.stock), trick_no=state.trick_no,
        leader=state.leader,
        trick=tuple(zip(state.trick_seats, state.trick_cards, strict=True)),
        tricks=tuple(state.tricks), actions=_public(state, seat),
        declared=tuple(state.declared),
        hand_points=tuple(state.hand_points(t) for t in range(len(r.teams))),
        held=tuple(state.held), game_points=tuple(state.game_points),
        match_scores=tuple(state.match_scores), segni=tuple(state.segni),
        legal=tuple(state.legal_actions(seat)) if state.phase not in (Phase.DEAL, Phase.OVER)
        else (), reviewable=reviewable(state, seat))


def in_hands_seen(obs: Observation) -> int:
    """The cards of hands an observation shows (bit mask): the seat's own hand, the
    cards of other hands it sees (all of them where hands lie open), and the turned-up
    card. At the deal, the cards a hidden deck must show (``docs/protocol.rst``,
    Hidden cards).

    >>> from mariage import load_rules, GameState, canonical_deck
    >>> st = GameState(load_rules("schnapsen"), first_dealer=0)
    >>> st.deal(canonical_deck(st.rules))
    >>> st.rules.format_cards(in_hands_seen(observe(st, 1)))  # its five and the turn-up TD
    'AH TH KH TD KD QD'
    """
    if not isinstance(obs, Observation):  # observe(state, seat) makes one
        raise TypeError(f"in_hands_seen: obs is an Observation, not {type(obs).__name__}")
    mask = obs.hand
    for shown in obs.shown:
        mask |= shown
    if obs.turn_up is not None:
        mask |= 1 << obs.turn_up
    return mask


def reviewable(state: GameState, seat: int) -> tuple[int, ...]:
    """The finished tricks of the hand ``seat`` may look through (``rules.trick_review``).

    ``all``: every one; ``own``: those his side won, and the last trick until
    the next card is played; ``last``: only that last trick.
    """
    r = expect_state(state, "reviewable").rules
    seat = seat_number(seat, r.nseats, "reviewable: seat")
    n = len(state.tricks)
    if r.trick_review == "all":
        return tuple(range(n))
    team = r.team_of[seat]
    out = {i for i, (_, _, w) in enumerate(state.tricks)
           if r.trick_review == "own" and r.team_of[w] == team}
    if n and not state.trick_cards:
        out.add(n - 1)
    return tuple(sorted(out))
