"""The card play of the ``greedy`` player: what it leads, follows and throws away.

It reads only what its seat knows: its own hand, the cards played in this hand
(which tell which cards are still *out*, in other hands or in the stock), the
suits a seat has shown it lacks by not following, and the rules (strengths,
points, trump, the play duties in force). So it chooses alike on the true state
and on any determinization of its seat's view.

- Leading: a card no card still out can beat (a *master*: the highest left in its
  suit, and safe from a ruff), plain suits first and the richest first; otherwise
  the cheapest card of a plain suit.
- Following, when its side's card will hold the trick (the partner wins and
  nobody left to play can beat him, or it plays last): it adds points (a
  *smear*) with a plain card.
- Following, when it can take the trick: with a card nobody left can beat if it
  has one; otherwise with its cheapest winning card, unless that costs a trump
  for a trick with no points.
- Otherwise it throws its cheapest card, keeping trumps and the cards of a
  declaration it holds whole.

>>> from mariage import load_rules, new_match
>>> from mariage.engine.actions import Play
>>> state = new_match(load_rules("mariglia"), seed=3)
>>> plays = [a for a in state.legal_actions() if isinstance(a, Play)]
>>> choose_play(state, plays) in plays
True
"""

from __future__ import annotations

from mariage.engine.actions import Play
from mariage.engine.state import GameState, expect_state, obligation_of, seat_number

__all__ = ["SeatView", "choose_play", "shown_voids"]


def shown_voids(state: GameState, after: int = 0) -> list[int]:
    """Per seat, the bit mask of the suits it showed it lacks by not following (and the
    trump where the duty was to trump), in the tricks of the hand numbered above
    ``after`` and the trick in play: a seat that drew cards since may hold them again,
    so ``after=state.draw_tricks`` keeps what holds to the end of the hand.

    >>> from mariage import load_rules, new_match
    >>> shown_voids(new_match(load_rules("mariglia"), seed=3))
    [0, 0, 0, 0]
    """
    voids = [0] * expect_state(state, "shown_voids").rules.nseats
    for number, (leader, cards, _) in enumerate(state.tricks, start=1):
        if number > after:
            _note_trick(state, voids, leader, cards, number)
    if state.trick_seats and state.trick_no > after:
        _note_trick(state, voids, state.trick_seats[0], tuple(state.trick_cards),
                    state.trick_no)
    return voids


def _note_trick(st: GameState, voids: list[int], leader: int, cards: tuple[int, ...],
                number: int) -> None:
    r = st.rules
    ob = st._ob_stock if number <= st.draw_tricks else st._ob_no_stock
    if not cards or ob is None or not ob.follow:
        return
    led = r.suit_of[cards[0]]
    # a trump fixed by the deal, that a seat lacking the suit led must play
    must_trump = (ob.void_duty in ("trump", "overtrump") and r.turn_up != "none"
                  and st.trump >= 0)
    seat = leader
    for c in cards[1:]:
        seat = st.next_seat(seat)
        suit = r.suit_of[c]
        if suit != led:
            voids[seat] |= 1 << led
            if must_trump and suit != st.trump:  # he had no trump either
                voids[seat] |= 1 << st.trump


class SeatView:
    """What the seat to act knows of the cards: its hand, the cards out, the voids shown."""

    def __init__(self, state: GameState, seat: int) -> None:
        r = expect_state(state, "SeatView").rules
        self.state = state
        self.seat = seat = seat_number(seat, r.nseats, "SeatView: seat")
        self.team = r.team_of[seat]
        self.hand = state.hands[seat]
        self.trump = state.trump
        played = 0
        self.voids = shown_voids(state)  # per seat: bit mask of the suits it showed it lacks
        for _, cards, _ in state.tricks:
            for c in cards:
                played |= 1 << c
        for c in state.trick_cards:
            played |= 1 << c
        self.out = r.full_mask & ~played & ~self.hand
        self.behind = r.hand_seats - len(state.trick_cards) - 1  # seats to play after this
        ob = obligation_of(state)
        self.follow = ob is not None and ob.follow
        # the cards of declarations the seat holds whole, or may yet complete by drawing
        self.kept = 0
        drawing = bool(state.stock) and state.in_stock_phase
        for d in r.declarations:
            for m in d.suit_masks:
                if self.hand & m == m or (drawing and self.hand & m
                                          and m & ~self.hand & ~self.out == 0):
                    self.kept |= m & self.hand

    def is_trump(self, card: int) -> bool:
        """True if ``card`` is of the trump suit (none before trump is set)."""
        return self.state.rules.suit_of[card] == self.trump

    def trumps_out(self) -> int:
        """The trumps still out (0 with no trump)."""
        return self.out & self.state.rules.suit_mask[self.trump] if self.trump >= 0 else 0

    def master(self, card: int, later: list[int], behind: int | None = None) -> bool:
        """True if none of the opponents in ``later`` is likely to beat ``card`` winning
        the trick: no higher card of its suit is out, and it is a trump, or no trump is
        out, or they must follow suit, showed no void in it, and enough cards of the suit
        are out for each of the ``behind`` seats still to play (default: in the current
        trick) to hold one."""
        r = self.state.rules
        if self.out & self.state._higher[card]:
            return False
        suit = r.suit_of[card]
        if suit == self.trump or not self.trumps_out():
            return True
        if not self.follow:  # with no duty to follow, anyone may trump it
            return False
        if (self.out & r.suit_mask[suit]).bit_count() < (
                self.behind if behind is None else behind):
            return False
        return not any(self.voids[s] >> suit & 1 and not self.voids[s] >> self.trump & 1
                       for s in later)

    def later_opponents(self) -> list[int]:
        """The seats of the other side still to play to the current trick after this one."""
        st = self.state
        r = st.rules
        left = r.hand_seats - len(st.trick_cards) - 1
        seats, s = [], self.seat
        for _ in range(left):
            s = st.next_seat(s)
            if r.team_of[s] != self.team:
                seats.append(s)
        return seats

    def cheap(self, card: int) -> tuple[int, bool, bool, int]:
        """Sort key of the card to throw away: fewest points, not a trump, not kept, weakest."""
        return (self.state._points[card], self.is_trump(card), bool(self.kept >> card & 1),
                self.state._strength[card])

    def rich(self, card: int) -> tuple[bool, bool, bool, int, int]:
        """Sort key of the card to add to a trick that is the side's: a plain card, not
        one kept for a declaration, not one that would win a trick of its own, most
        points, weakest."""
        r = self.state.rules
        lead = self.master(card, self.opponents(), r.hand_seats - 1)
        return (not self.is_trump(card), not self.kept >> card & 1, not lead,
                self.state._points[card], -self.state._strength[card])

    def opponents(self) -> list[int]:
        """The seats of the other sides."""
        r = self.state.rules
        return [s for s in range(r.nseats) if r.team_of[s] != self.team]

    def lead_key(self, card: int) -> tuple[bool, bool, bool, tuple[int, bool, bool, int]]:
        """Sort key of the card to lead with no master: a plain suit, not one an opponent
        lacks (he would trump it), one the partner lacks (he may), then the cheapest."""
        r = self.state.rules
        suit = r.suit_of[card]
        opp_void = any(self.voids[s] >> suit & 1 for s in self.opponents())
        partners = [s for s in r.teams[self.team] if s != self.seat]
        partner_void = any(self.voids[s] >> suit & 1 for s in partners)
        return (self.is_trump(card), opp_void, not partner_void, self.cheap(card))


def _winner_with(state: GameState, cards: list[int], seats: list[int]) -> int:
    """Index of the card that would win the trick in play were ``cards`` on the table,
    played by ``seats``: the state's own rule asked of it with those (and put back after),
    not of a copy of the whole state."""
    kept = state.trick_cards, state.trick_seats
    state.trick_cards, state.trick_seats = cards, seats
    try:
        return state.current_winner()
    finally:
        state.trick_cards, state.trick_seats = kept


def choose_play(state: GameState, plays: list[Play]) -> Play:
    """The greedy card among ``plays`` (the legal plays of the seat to act)."""
    seat = expect_state(state, "choose_play").to_act
    assert seat is not None
    view = SeatView(state, seat)
    r = state.rules
    if not state.trick_cards:
        masters = [a for a in plays if view.master(a.card, view.later_opponents())]
        if masters:
            return max(masters, key=lambda a: view.rich(a.card))
        return min(plays, key=lambda a: view.lead_key(a.card))
    later = view.later_opponents()
    now = state.current_winner()
    winner = state.trick_seats[now]
    if r.team_of[winner] == view.team and not later:
        return max(plays, key=lambda a: view.rich(a.card))
    winning: list[Play] = []
    secure: list[Play] = []
    cards, seats = state.trick_cards, [*state.trick_seats, seat]
    for a in plays:
        trial = [*cards, a.card]
        index = _winner_with(state, trial, seats)
        if r.team_of[seats[index]] == view.team:
            winning.append(a)
            if view.master(trial[index], later):
                secure.append(a)
    if r.team_of[winner] == view.team and view.master(state.trick_cards[now], later):
        return max(plays, key=lambda a: view.rich(a.card))
    if secure:
        return min(secure, key=lambda a: (view.is_trump(a.card), -state._points[a.card],
                                           state._strength[a.card]))
    if winning and r.team_of[winner] != view.team:
        best = min(winning, key=lambda a: (view.is_trump(a.card), state._strength[a.card]))
        trick_points = sum(state._points[c] for c in state.trick_cards)
        if trick_points or not view.is_trump(best.card):
            return best
    return min(plays, key=lambda a: view.cheap(a.card))
