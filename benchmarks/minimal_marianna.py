"""A minimal hand-written engine for default Marianna: the benchmark's baseline.

It plays exactly the default rules of ``spec/marianna.yaml`` and nothing else:
four players in two partnerships (seats 0 and 2 against 1 and 3, numbered in
playing order), free play in every trick, the trick won by the highest trump
(the trump in force when the trick ends) or else by the highest card of the
suit led, drawing winner-first while the stock lasts, mariannas worth 40, 60,
80 and 100 by order in the hand, declared at one's own turn before playing
while the stock lasts, at most one declaration per player per trick, trump set
by the latest marianna, the mariannino (four queens and a king: 250, the
king's suit becomes trump) and the mariannone (four kings and a queen: 500
and the match at once), and matches to 501 with a tie played on.

It shares the reference's conventions so that the same random choices give the
same game: cards are numbered suit-major (H D C S) with ranks high to low
(A 3 K Q J 7 6 5 4 2); :meth:`MinimalMarianna.deal` gives one five-card
packet to each seat from the seat after the dealer, the rest being the stock
with its top card first; :meth:`MinimalMarianna.legal_actions` lists
declarations (marianna, mariannino, mariannone; suits in order) and then card
plays in card order. An action is an ``int``: a card number for a play, or
``DECLARE + 4 * kind + suit`` for a declaration.

>>> game = MinimalMarianna(first_dealer=0)
>>> game.deal(list(range(NCARDS)))
>>> game.to_act, game.legal_actions()
(1, [40, 0, 1, 2, 3, 4])
>>> game.apply(40)
>>> game.trump, game.hand_points(1)
(0, 40)
"""

from __future__ import annotations

NSEATS = 4
NSUITS = 4
NRANKS = 10
NCARDS = NSUITS * NRANKS
RANKS = ("A", "3", "K", "Q", "J", "7", "6", "5", "4", "2")
SUITS = ("H", "D", "C", "S")
CARD_CODES = tuple(r + s for s in SUITS for r in RANKS)
POINTS = (11, 10, 4, 3, 2, 0, 0, 0, 0, 0) * NSUITS
KING, QUEEN = 2, 3  # rank indexes
SUIT_OF = tuple(c // NRANKS for c in range(NCARDS))

DECLARE = NCARDS  # first declaration action number
MARIANNA, MARIANNINO, MARIANNONE = 0, 1, 2
VALUES = (40, 60, 80, 100)
MARIANNINO_VALUE = 250
MARIANNONE_VALUE = 500
TARGET = 501
DRAW_TRICKS = (NCARDS - NSEATS * 5) // NSEATS  # tricks after which cards are drawn

PAIR = tuple((1 << (s * NRANKS + KING)) | (1 << (s * NRANKS + QUEEN)) for s in range(NSUITS))
KINGS = sum(1 << (s * NRANKS + KING) for s in range(NSUITS))
QUEENS = sum(1 << (s * NRANKS + QUEEN) for s in range(NSUITS))


class MinimalMarianna:
    """One match of default Marianna, dealt hand by hand from outside."""

    __slots__ = (
        "captured", "dealer", "decl_count", "decl_points", "declared", "hands", "leader",
        "match_scores", "stock", "to_act", "trick_cards", "trick_no", "trick_seats",
        "trick_winners", "trump", "used_mariannino", "used_mariannone", "used_suits",
        "winner",
    )

    def __init__(self, first_dealer: int) -> None:
        self.dealer = first_dealer
        self.match_scores = [0, 0]
        self.winner: int | None = None
        self.to_act: int | None = None
        self.trick_winners: list[int] = []

    @property
    def terminal(self) -> bool:
        """True once the match is over."""
        return self.winner is not None

    def hand_points(self, team: int) -> int:
        """Card points plus declarations of ``team`` in the current hand."""
        return self.captured[team] + self.decl_points[team]

    def deal(self, deck: list[int], first_player: int | None = None) -> None:
        """Deal the next hand from ``deck`` (top card first)."""
        start = (self.dealer + 1) % NSEATS
        hands = [0] * NSEATS
        for i in range(NSEATS):
            for c in deck[5 * i:5 * i + 5]:
                hands[(start + i) % NSEATS] |= 1 << c
        self.hands = hands
        self.stock = deck[:5 * NSEATS - 1:-1]  # pop() takes the top card
        self.trump = -1
        self.captured = [0, 0]
        self.decl_points = [0, 0]
        self.decl_count = 0
        self.used_suits = 0
        self.used_mariannino = False
        self.used_mariannone = False
        self.trick_winners = []
        self.trick_no = 0
        self._start_trick(start)

    def _start_trick(self, leader: int) -> None:
        self.leader = leader
        self.to_act = leader
        self.trick_no += 1
        self.trick_cards: list[int] = []
        self.trick_seats: list[int] = []
        self.declared = 0  # bit per seat that has declared in this trick

    def legal_actions(self) -> list[int]:
        """Declarations first, then the cards of the hand in card order."""
        seat = self.to_act
        assert seat is not None
        hand = self.hands[seat]
        out = []
        if self.trick_no <= DRAW_TRICKS and not self.declared >> seat & 1:
            for s in range(NSUITS):
                if hand & PAIR[s] == PAIR[s] and not self.used_suits >> s & 1:
                    out.append(DECLARE + s)
            if hand.bit_count() == 5:
                kings, queens = hand & KINGS, hand & QUEENS
                if not self.used_mariannino and queens.bit_count() == 4 and kings:
                    out.append(DECLARE + 4 * MARIANNINO + SUIT_OF[kings.bit_length() - 1])
                if not self.used_mariannone and kings.bit_count() == 4 and queens:
                    out.append(DECLARE + 4 * MARIANNONE + SUIT_OF[queens.bit_length() - 1])
        while hand:
            low = hand & -hand
            out.append(low.bit_length() - 1)
            hand ^= low
        return out

    def apply(self, action: int) -> None:
        """Apply an action of the seat to act; refuse it (``ValueError``) if it is not legal.

        Like the reference, the engine checks what it is given: a card must be
        in the hand, and a declaration must be held and allowed now.
        """
        seat = self.to_act
        if seat is None:
            raise ValueError("no hand in progress")
        if action >= DECLARE:
            kind, suit = (action - DECLARE) // 4, (action - DECLARE) % 4
            if not self._may_declare(seat, kind, suit):
                raise ValueError(f"declaration {action} is not allowed now")
            self._declare(seat, kind, suit)
            return
        if not 0 <= action < NCARDS or not self.hands[seat] >> action & 1:
            raise ValueError(f"card {action} is not in the hand")
        self.hands[seat] ^= 1 << action
        self.trick_cards.append(action)
        self.trick_seats.append(seat)
        if len(self.trick_cards) < NSEATS:
            self.to_act = (seat + 1) % NSEATS
        else:
            self._finish_trick()

    def _may_declare(self, seat: int, kind: int, suit: int) -> bool:
        hand = self.hands[seat]
        if self.trick_no > DRAW_TRICKS or self.declared >> seat & 1 or not 0 <= suit < NSUITS:
            return False
        if kind == MARIANNA:
            return hand & PAIR[suit] == PAIR[suit] and not self.used_suits >> suit & 1
        if hand.bit_count() != 5:
            return False
        kings, queens = hand & KINGS, hand & QUEENS
        if kind == MARIANNINO:
            return (not self.used_mariannino and queens.bit_count() == 4
                    and kings.bit_count() == 1 and SUIT_OF[kings.bit_length() - 1] == suit)
        return (kind == MARIANNONE and not self.used_mariannone and kings.bit_count() == 4
                and queens.bit_count() == 1 and SUIT_OF[queens.bit_length() - 1] == suit)

    def _declare(self, seat: int, kind: int, suit: int) -> None:
        self.declared |= 1 << seat
        team = seat % 2
        if kind == MARIANNA:
            self.decl_points[team] += VALUES[min(self.decl_count, 3)]
            self.decl_count += 1
            self.used_suits |= 1 << suit
            self.trump = suit
        elif kind == MARIANNINO:
            self.decl_points[team] += MARIANNINO_VALUE
            self.used_mariannino = True
            self.trump = suit
        else:
            self.decl_points[team] += MARIANNONE_VALUE
            self.used_mariannone = True
            self._end_hand(winner=team)

    def _finish_trick(self) -> None:
        cards, trump = self.trick_cards, self.trump
        best = cards[0]
        for c in cards[1:]:
            if SUIT_OF[c] == SUIT_OF[best]:
                if c < best:  # lower number = higher rank within a suit
                    best = c
            elif SUIT_OF[c] == trump:
                best = c
        winner = self.trick_seats[cards.index(best)]
        self.captured[winner % 2] += sum(POINTS[c] for c in cards)
        self.trick_winners.append(winner)
        if self.stock:
            for i in range(NSEATS):
                self.hands[(winner + i) % NSEATS] |= 1 << self.stock.pop()
        if self.trick_no * NSEATS >= NCARDS:
            self._end_hand()
        else:
            self._start_trick(winner)

    def _end_hand(self, winner: int | None = None) -> None:
        for t in range(2):
            self.match_scores[t] += self.hand_points(t)
        self.to_act = None
        if winner is not None:
            self.winner = winner
            return
        top = max(self.match_scores)
        if top >= TARGET and self.match_scores.count(top) == 1:
            self.winner = self.match_scores.index(top)
        else:
            self.dealer = (self.dealer + 1) % NSEATS

    # -- hand-written copies: the baseline of bench_search.py (a dealt match only)
    def clone(self) -> MinimalMarianna:
        """An independent copy: the lists copied, everything else shared."""
        new = MinimalMarianna.__new__(MinimalMarianna)
        new.captured = self.captured[:]
        new.dealer = self.dealer
        new.decl_count = self.decl_count
        new.decl_points = self.decl_points[:]
        new.declared = self.declared
        new.hands = self.hands[:]
        new.leader = self.leader
        new.match_scores = self.match_scores[:]
        new.stock = self.stock[:]
        new.to_act = self.to_act
        new.trick_cards = self.trick_cards[:]
        new.trick_no = self.trick_no
        new.trick_seats = self.trick_seats[:]
        new.trick_winners = self.trick_winners[:]
        new.trump = self.trump
        new.used_mariannino = self.used_mariannino
        new.used_mariannone = self.used_mariannone
        new.used_suits = self.used_suits
        new.winner = self.winner
        return new

    def snapshot(self) -> tuple[object, ...]:
        """What :meth:`restore` needs to take the state back to now."""
        return (self.captured[:], self.dealer, self.decl_count, self.decl_points[:],
                self.declared, self.hands[:], self.leader, self.match_scores[:],
                self.stock[:], self.to_act, self.trick_cards[:], self.trick_no,
                self.trick_seats[:], self.trick_winners[:], self.trump, self.used_mariannino,
                self.used_mariannone, self.used_suits, self.winner)

    def restore(self, snap: tuple[object, ...]) -> None:
        """Take the state back to a :meth:`snapshot` (which is used up)."""
        (self.captured, self.dealer, self.decl_count, self.decl_points, self.declared,
         self.hands, self.leader, self.match_scores, self.stock, self.to_act,
         self.trick_cards, self.trick_no, self.trick_seats, self.trick_winners, self.trump,
         self.used_mariannino, self.used_mariannone, self.used_suits,
         self.winner) = snap  # type: ignore[assignment]
