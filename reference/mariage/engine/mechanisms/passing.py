"""Passing cards between partners: who gives how many cards to whom, in order.

After an auction the declarer and his partner pass cards face down in the
steps the rules list (in Marjapussi: four from the partner to the declarer,
then four back). Only the two of them see the cards.

>>> from mariage import load_rules, GameState
>>> from mariage.engine.deals import canonical_deck
>>> state = GameState(load_rules("marjapussi-de"), first_dealer=3)
>>> state.deal(canonical_deck(state.rules))
>>> for text in ("bid:120", "pass", "pass", "pass"):
...     state.apply(parse_action(state.rules, text))
>>> state.phase.name, state.declarer, state.to_act, len(state.legal_actions())
('PASSING', 0, 2, 126)

The sets a seat may pass are listed lazily (:class:`CardSets`): a sequence
that makes the set at an index when asked, so that choosing one of 715 sets
costs what choosing one card does.

>>> sets = state.legal_actions()
>>> sets, sets[-1] == list(sets)[-1], Give(sets[5].cards) in sets, Give(1) in sets
(CardSets(126 sets of 4 of 9 cards), True, True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar, overload

from ..actions import Action, Give
from ..actiontext import parse_action
from ..phase import PASSING
from ..subsets import subset_table
from .base import Mechanism, partner_of, refuse

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["CardSets", "Passing", "parse_action"]

#: (cards in hand, cards to give) -> every choice of positions, in lexicographic order
_CHOICES: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}


class CardSets(Sequence[Action]):
    """Every :class:`Give` of ``count`` of the cards ``bits`` (one bit each, in card
    order), in the order of :func:`itertools.combinations`, made on demand; after
    the actions ``head`` (a concession offered before them), if any.

    It compares equal to a list or tuple of the same actions, in the same order.

    >>> from mariage.engine.actions import Concede
    >>> sets = CardSets([1, 2, 4, 8], 2, (Concede(),))
    >>> len(sets), sets[0], sets[1], sets[-1].cards, list(sets)[1:3] == sets[1:3]
    (7, Concede(), Give(cards=3), 12, True)
    """

    __slots__ = ("_bits", "_choices", "_count", "_head")

    def __init__(self, bits: Sequence[int], count: int, head: tuple[Action, ...] = ()) -> None:
        self._bits = tuple(bits)
        self._count = count
        self._head = head
        key = (len(self._bits), count)
        choices = _CHOICES.get(key)
        if choices is None:
            choices = _CHOICES[key] = tuple(combinations(range(len(self._bits)), count))
        self._choices = choices

    @property
    def head(self) -> tuple[Action, ...]:
        """The actions listed before the sets (a concession), if any."""
        return self._head

    def sets(self) -> CardSets:
        """The sets alone, without the head (made on demand, as here).

        >>> from mariage.engine.actions import Concede
        >>> CardSets([1, 2, 4], 2, (Concede(),)).sets() == [Give(3), Give(5), Give(6)]
        True
        """
        return CardSets(self._bits, self._count) if self._head else self

    def __len__(self) -> int:
        return len(self._head) + len(self._choices)

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        head = self._head
        if isinstance(index, slice):
            if head:
                return [self[i] for i in range(*index.indices(len(self)))]
            return [self._give(c) for c in self._choices[index]]
        if head:  # positions count from the head's first action
            if index < 0:
                index += len(self)
            if not 0 <= index < len(self):
                raise IndexError("CardSets index out of range")
            if index < len(head):
                return head[index]
            index -= len(head)
        return self._give(self._choices[index])

    def _give(self, positions: tuple[int, ...]) -> Give:
        bits = self._bits
        mask = 0
        for p in positions:
            mask |= bits[p]
        return Give(mask)

    def __iter__(self) -> Iterator[Action]:
        yield from self._head
        yield from (Give(sum(c)) for c in combinations(self._bits, self._count))

    def masks(self) -> Iterator[int]:
        """The cards of each set, as the bit masks of its ``Give`` (after the head), in
        the same order, without making the actions.

        >>> list(CardSets([1, 2, 4], 2).masks())
        [3, 5, 6]
        """
        return map(sum, combinations(self._bits, self._count))

    def __contains__(self, action: object) -> bool:
        if type(action) is not Give:
            return action in self._head
        cards = action.cards
        hand = sum(self._bits)
        return cards >= 0 and not cards & ~hand and cards.bit_count() == self._count

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSets):
            return (self._head, self._bits, self._count) == \
                (other._head, other._bits, other._count)
        if isinstance(other, (list, tuple)):
            return len(other) == len(self) and all(map(_same, self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        head = "".join(f"{a!r}, " for a in self._head)
        return (f"CardSets({head}{len(self._choices)} sets of {self._count} of "
                f"{len(self._bits)} cards)")


@lru_cache(maxsize=8)
def _bit_tables(ncards: int) -> tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]:
    """Per group of eight cards of a pack of ``ncards``: its first card's number and, for
    each subset of the group (as its bits shifted down), the bit of each card in it."""
    return tuple((g, subset_table([1 << (g + i) for i in range(8)]))
                 for g in range(0, ncards, 8))


def _same(a: Any, b: Any) -> bool:
    return bool(a == b)


class Passing(Mechanism):
    """Cards passed face down between the declarer and his partner."""

    __slots__ = ()
    name: ClassVar[str] = "passing between partners"
    steps: ClassVar[tuple[str, ...]] = ("start", "role")
    sections: ClassVar[tuple[str, ...]] = ("passing",)
    applies: ClassVar[tuple[tuple[type, str], ...]] = ((Give, "apply_give"),)
    phases: ClassVar[tuple[int, ...]] = (PASSING,)

    def all_actions(self, rules: Rules) -> list[Action]:
        """Every set of cards of each step's size."""
        out: list[Action] = []
        for count in sorted({c for _, _, c in rules.passing_steps}):
            out.extend(Give(sum(1 << c for c in combo))
                       for combo in combinations(range(rules.ncards), count))
        return out

    def partner(self, st: GameState, seat: int) -> int:
        """The partner of ``seat``."""
        return partner_of(st.rules, seat)

    def seats(self, st: GameState) -> tuple[int, int, int]:
        """(giver, receiver, count) of the current step (receiver -1: laid away)."""
        giver, receiver, count = st.rules.passing_steps[st.pass_step]
        return self.role(st, giver), self.role(st, receiver), count

    def count(self, st: GameState) -> int:
        """How many cards the current step passes (as :meth:`seats`, without the seats)."""
        return st.rules.passing_steps[st.pass_step][2]

    def role(self, st: GameState, role: int) -> int:
        """The seat of a role of a step: 0 the declarer, 1 his partner, 2 the first
        opponent after him in playing order, 3 the next one; 4 (laid away) is -1."""
        if role == 0:
            return st.declarer
        if role == 1:
            return self.partner(st, st.declarer)
        if role == 4:
            return -1
        first = st.next_seat(st.declarer)
        return first if role == 2 else st.next_seat(first)

    def legal_in_phase(self, st: GameState, seat: int) -> Sequence[Action]:
        """Every set of cards of the step's size from ``seat``'s hand (made on demand),
        and a concession where the rules allow one now."""
        if st.pass_step < 0:  # the declarer first chooses a packet of the talon
            return st.mech.talon.packet_choices(st)
        count = self.count(st)
        bits = []  # each card of the hand as its bit, in card order
        hand = st.hands[seat]
        while hand:
            low = hand & -hand
            bits.append(low)
            hand ^= low
        if st.rules.concede_rule is None:
            return CardSets(bits, count)
        out: list[Action] = []
        st.mech.talon.offer_concede(st, seat, out)
        return CardSets(bits, count, tuple(out))

    listing_depends: ClassVar[tuple[str, ...]] = ("seats", "role", "partner")

    def phase_listing(self, rules: Rules) -> Callable[[GameState, int], Sequence[Action]]:
        """:meth:`legal_in_phase` with each step's count bound once and the hand's cards
        taken eight at a time from a table (one lookup per group, not a step per card).

        >>> from mariage import load_rules, new_match
        >>> state = new_match(load_rules("marjapussi-de"), 3)
        >>> for text in ("bid:120", "pass", "pass", "pass"):
        ...     state.apply(parse_action(state.rules, text))
        >>> Passing().phase_listing(state.rules)(state, 2)
        CardSets(126 sets of 4 of 9 cards)
        """
        counts = tuple(count for _, _, count in rules.passing_steps)
        groups = _bit_tables(rules.ncards)
        concede = rules.concede_rule is not None

        def listing(st: GameState, seat: int) -> Sequence[Action]:
            step = st.pass_step
            if step < 0:  # the declarer first chooses a packet of the talon
                return st.mech.talon.packet_choices(st)
            hand = st.hands[seat]
            bits: list[int] = []
            for g, table in groups:
                bits += table[hand >> g & 255]
            if not concede:
                return CardSets(bits, counts[step])
            out: list[Action] = []
            st.mech.talon.offer_concede(st, seat, out)
            return CardSets(bits, counts[step], tuple(out))
        return listing

    def start(self, st: GameState) -> None:
        """Begin the passing after the auction (or go straight on to the contract)."""
        if not st.rules.passing_steps:
            st.mech.contract.start(st)
            return
        st.pass_step = 0
        st.phase = PASSING
        st.to_act = self.seats(st)[0]

    def apply_give(self, st: GameState, seat: int, action: Give) -> None:
        """``seat`` passes the cards of ``action`` to the receiver of the step."""
        r = st.rules
        if st.phase != PASSING:
            refuse(st, r.core_phase, seat, action, "cards are passed only after the auction")
        if st.pass_step < 0:
            refuse(st, r.talon_packets_rule, seat, action, "first choose a packet of the "
                   "talon (talon:1 ...)")
        giver, receiver, count = self.seats(st)
        cards = action.cards
        if cards < 0 or cards & ~st.hands[seat] or cards.bit_count() != count:
            why = f"give exactly {count} card{'s' if count != 1 else ''} from your own hand"
            if cards >> r.ncards:  # bits of no card: format_cards raised a ValueError
                why += f": the mask has bits of no card of the {r.ncards}-card pack"
            elif cards > 0 and cards & ~st.hands[seat]:  # name the cards not held
                why += (f": {r.seat_names[seat]} does not hold "
                        f"{r.format_cards(cards & ~st.hands[seat])}")
            refuse(st, r.passing_rule, seat, action, why)
        st.actions.append((seat, action))
        st.hands[giver] ^= cards
        if receiver >= 0:
            st.hands[receiver] |= cards
            if r.give_face_up:  # shown to everybody
                st.known[receiver] |= cards
        else:
            st.aside.extend(r.cards_of(cards))
        # face down, nobody else can tell which cards left the giver's hand: those of it
        # shown before (a talon shown) are no longer known to be there
        st.known[giver] &= ~cards if r.give_face_up else 0
        st.pass_step += 1
        if st.pass_step < len(r.passing_steps):
            st.to_act = self.seats(st)[0]
            return
        st.mech.contract.start(st)
