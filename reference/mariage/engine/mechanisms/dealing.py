"""Dealing: the deck is dealt in packets, the turn-up shown, the first leader set.

Runs the rules of the deal, the dealer's rotation, the first lead (including
the holder of a named card leading the first hand) and the turn-up bonus.

>>> from mariage import load_rules, GameState
>>> from mariage.engine.deals import canonical_deck
>>> state = GameState(load_rules("marianna"), first_dealer=0)
>>> state.deal(canonical_deck(state.rules))
>>> state.leader, bin(state.hands[1]).count("1")
(1, 5)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from mariage.errors import IllegalActionError

from ... import codegen
from ...lazyrecord import frozen_record
from ..phase import DEAL, OVER, PLAY
from .base import Mechanism

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState
    from . import Mechanisms

__all__ = ["Dealing"]

#: the value of an ``int`` (of a subclass too) as a plain ``int``; ``TypeError`` for
#: anything else, without asking the object (as ``operator.index`` would)
_int_value = int.__trunc__
#: ncards -> the card numbers of the pack in order (a deck sorted must equal it)
_PACKS: dict[int, list[int]] = {}
#: ncards -> the card numbers of the pack (a deck of plain numbers must hold each once)
_PACK_SETS: dict[int, frozenset[int]] = {}


def _pack(ncards: int) -> list[int]:
    pack = _PACKS.get(ncards)
    if pack is None:
        pack = _PACKS[ncards] = list(range(ncards))
    return pack


def _pack_set(ncards: int) -> frozenset[int]:
    pack = _PACK_SETS.get(ncards)
    if pack is None:
        pack = _PACK_SETS[ncards] = frozenset(range(ncards))
    return pack


@frozen_record
class _DealPlan:
    """Where the cards of a deck go under one ruleset, worked out once (not per deal).

    ``hands[start]`` makes the hand masks, by seat, from a deck whose first packet
    goes to seat ``start`` (the seat after the dealer); ``turn`` is the position
    of the card turned up between two rounds (-1: none), ``dealt`` the number of
    cards the rounds take (with that card); the rest is the stock.
    ``lay[start]`` does the whole of it on a state: the hands, the card turned up
    (and the trump it makes) and the stock, as :meth:`Dealing.lay` describes.
    """

    hands: tuple[Callable[[list[int]], list[int]], ...]
    turn: int
    dealt: int
    lay: tuple[Callable[[GameState, list[int], int | None], None], ...]
    source: tuple[tuple[str, ...], ...]  # the body of each lay[start]
    held: tuple[tuple[tuple[int, ...], ...], ...]  # per start, each seat's positions in the deck
    rest: tuple[int, ...]  # the positions in the deck of the turn-up and the stock


def _deal_plan(r: Rules, dealt: Sequence[int] | None = None) -> _DealPlan:
    """The plan of a deal under ``r``: rounds of packets from the seat after the dealer,
    the turn-up after round ``turn_up_round`` (if not 0), the rest left as the stock.
    A seat that sits the hand out (``deal.sits_out``, ``sits_out_after`` seats after
    the dealer) is passed over and given nothing; ``dealt`` gives the seats dealt
    instead, counted from the first (0; the dealer is the last, ``nseats - 1``), where
    a placed player sits out (``match.places``).

    The hands are made by generated straight-line code, one sum of card bits per
    seat (the cards are distinct, so the sum of their bits is their union): for
    four seats of five cards, about three times faster than slicing the packets
    and summing their bits through ``map``.
    """
    n = r.nseats
    seats: list[list[int]] = [[] for _ in range(n)]  # positions in the deck, per packet order
    sizes = r.deal_packets or (r.packet,) * (r.hand_size // r.packet)
    pos, turn = 0, -1
    if dealt is None:  # as seats counted from ``start``: the dealer is n - 1
        dealt = r.seats_dealt(n - 1)
    for k, size in enumerate(sizes):
        for s in dealt:
            seats[s] += range(pos, pos + size)
            pos += size
        if k + 1 == r.turn_up_round:
            turn = pos
            pos += 1
    lines = []
    bodies = []
    held = []
    for start in range(n):
        held.append(tuple(tuple(seats[(s - start) % n]) for s in range(n)))
        sums = [" + ".join(f"_b[c[{p}]]" for p in at) or "0" for at in held[-1]]
        bodies.append((f"    st.hands = [{', '.join(sums)}]", *_turn_up_lines(r, turn, pos)))
        lines += [f"def hands_{start}(c):", f"    return [{', '.join(sums)}]",
                  f"def lay_{start}(st, c, dealer):", *bodies[-1]]
    namespace = _plan_names(r)
    codegen.run("\n".join(lines) + "\n", f"<deal of {r.name}>", namespace)
    dealt_at = {p for seat in seats for p in seat}
    return _DealPlan(tuple(namespace[f"hands_{start}"] for start in range(n)), turn, pos,
                     tuple(namespace[f"lay_{start}"] for start in range(n)), tuple(bodies),
                     tuple(held), tuple(p for p in range(r.ncards) if p not in dealt_at))


def _plan_names(r: Rules) -> dict[str, Any]:
    """The names the deal plan's code reads: the bit of each card (then as many entries
    above the pack's mask, see :func:`_check_lines`), the suit of each card."""
    n = r.ncards
    return {"_b": [1 << c for c in range(n)] + [1 << n] * n, "_suit_of": r.suit_of}


def _bits_sum(positions: Sequence[int]) -> str:
    """Source of the sum of the bits of the deck's cards at ``positions`` (unpacked as
    ``c0``, ``c1``...)."""
    return " + ".join(f"_b[c{p}]" for p in positions) or "0"


def _check_lines(r: Rules, plan: _DealPlan, start: int) -> list[str]:
    """Source that checks a caller's deck ``c`` while making its hands (``h0``, ``h1``...)
    and returns False, the state untouched, unless it is a list of plain numbers, each
    card of the pack once, dealt at its moment with ``first`` as the rules want it;
    :meth:`Dealing.check_deck` then says what is wrong.

    The deck is unpacked into one local per card (``c0``, ``c1``...; a list of any
    other length is refused there), and the bits of the cards (``_b``: ``1 << card``,
    then as many entries ``1 << ncards``) summed over the hands, the card turned up and
    the stock. Every item is then an index of ``_b`` (a ``float``, a ``Fraction``, a
    code... is refused by the indexing), each item's entry a power of two; ``ncards``
    powers of two sum to the full pack's mask only if they are its ``ncards`` bits, each
    once (a sum of ``k`` powers of two has at most ``k`` ones, exactly ``k`` only if
    they differ). So each item names a distinct card, as ``i`` or ``i - 2 * ncards`` (a
    negative index; from ``ncards`` on, an entry above the mask): the sum of the items,
    an ``int`` (not a number of another library, which an index also takes), equal to
    the pack's sum, says none is negative.

    Unpacked, each card is read once, by name, where ``c[12]`` read it by a
    subscript: fewer steps of the interpreter per card (the hands' and the stock's
    bits are the larger part of the check).
    """
    n = r.ncards
    hands = [f"h{s}" for s in range(r.nseats)]
    rest = _bits_sum(plan.rest) if plan.rest else ""  # (none: the pack dealt whole)
    parts = [*hands, "rest"] if rest else hands
    first = f"if first.__class__ is not int or not 0 <= first < {r.nseats}:" \
        if r.first_lead == "lot" else "if first is not None:"
    return ["    if st.phase != _DEAL:", "        return False", "    try:",
            f"        {', '.join(f'c{p}' for p in range(n))}, = c",
            *(f"        {h} = {_bits_sum(at)}" for h, at in zip(hands, plan.held[start],
                                                                 strict=True)),
            *([f"        rest = {rest}"] if rest else []), "        t = _sum(c)",
            "    except Exception:  # not plain numbers, too many or few... (check_deck says why)",
            "        return False",
            f"    if {' + '.join(parts)} != {(1 << n) - 1} or "
            f"t.__class__ is not _int or t != {n * (n - 1) // 2}:", "        return False",
            f"    {first}", "        return False"]


def _reversed_from(pos: int, n: int | None = None, first: str = "") -> str:
    """Source of the list of the cards of the deck ``c`` from position ``pos`` on, last
    first, after ``first`` (the source of an item, or nothing); with ``n``, the deck's
    length, read from the locals it is unpacked into (``c0``, ``c1``...: no slice)."""
    if n is not None:
        return "[" + ", ".join([*([first] if first else []),
                                *(f"c{p}" for p in range(n - 1, pos - 1, -1))]) + "]"
    cards = f"c[:{pos - 1}:-1]" if pos > 0 else "c[::-1]"
    return f"[{first}, *{cards}]" if first else cards


def _turn_up_lines(r: Rules, turn: int, pos: int, named: bool = False) -> list[str]:
    """Source of the card turned up (``deal.turn_up``) and the stock, after the hands:
    the dealer's last card shown (``dealer_last``), a card turned under the stock
    and drawn last (``under_stock``: between two rounds, or the first after them),
    a card shown for a taker (``to_taker``), or none. ``pop()`` takes the top card.
    With ``named``, the deck's cards are read from the locals it is unpacked into."""
    n = r.ncards if named else None

    def card(p: int) -> str:
        return f"c{p}" if named else f"c[{p}]"

    if r.turn_up == "dealer_last":
        return ["    if dealer is not None:",
                f"        t = st.turn_up = {card(pos - 1)}",
                "        st.known[dealer] |= 1 << t", "        st.trump = _suit_of[t]",
                f"    st.stock = {_reversed_from(pos, n)}"]
    if r.turn_up == "under_stock":
        at, rest = (turn, pos) if turn >= 0 else (pos, pos + 1)
        return [f"    t = st.turn_up = {card(at)}", "    st.trump = _suit_of[t]",
                f"    st.stock = {_reversed_from(rest, n, 't')}"]
    if r.turn_up == "to_taker":
        return [f"    st.turn_up = {card(pos)}", f"    st.stock = {_reversed_from(pos + 1, n)}"]
    return [f"    st.stock = {_reversed_from(pos, n)}"]


#: id of the rules -> (the rules, their deal plan)
_PLANS: dict[int, tuple[Rules, _DealPlan]] = {}


#: a fresh deal, from a deck checked: ``(state, cards, dealer, first)``
FreshDeal = Callable[["GameState", list[int], "int | None", "int | None"], None]
#: a fresh deal of a caller's deck, checked: ``(state, deck, dealer, first) -> dealt``
CheckedDeal = Callable[["GameState", list[int], "int | None", "int | None"], bool]


@frozen_record
class _FreshDeals:
    """Per first seat, a fresh deal of a deck checked (``laid``) and of a caller's deck,
    checked as its hands are made (``taken``): see :func:`_fresh_deals`."""

    laid: tuple[FreshDeal, ...]
    taken: tuple[CheckedDeal, ...]
    #: the same by the dealer of the hand (:func:`_by_dealer`), as a state keeps them
    laid_by_dealer: tuple[FreshDeal, ...]
    taken_by_dealer: tuple[CheckedDeal, ...]


#: (the resetter of a class of state under some rules (GameState._fresh), the id of the
#: state's mechanisms) -> (the rules, the mechanisms, their fresh deals, or None where
#: none are written): each set of mechanisms has its opening written as it does it
_T = TypeVar("_T")
_FRESH: dict[tuple[Callable[..., None], int], tuple[Rules, Mechanisms, _FreshDeals | None]] = {}


def _by_dealer(deals: Sequence[_T], nseats: int) -> tuple[_T, ...]:
    """Deals by first player (``deals[0]`` the seat 0 first) as by dealer: item ``d`` for
    dealer ``d`` (its next seat first), the last for no dealer (seat 0 first)."""
    return (*(deals[(d + 1) % nseats] for d in range(nseats)), deals[0])


def _fresh_deals(st: GameState) -> _FreshDeals | None:
    """Per first seat, a function that does what :meth:`Dealing.lay` does, in one: a new
    hand's data as ``st.reset_hand()`` gives it (but the hands and the stock, which it
    deals), the hand counted, the hands, the card turned up and the stock as the plan's
    ``lay[start]`` lays them, then the first leader and the opening (``laid``);
    and one that first checks a caller's deck and the moment as
    :meth:`Dealing.check_deck` would, with the hands (:func:`_check_lines`), and answers
    False, the state untouched, where that check would refuse them (``taken``).
    Written once per class of state and rules; ``None`` where the class resets a hand
    its own way (:func:`~mariage.engine.freshhand.reset_lines`).

    >>> from mariage import load_rules, GameState
    >>> from mariage.engine.deals import canonical_deck
    >>> a, b = (GameState(load_rules("schnapsen"), first_dealer=0) for _ in range(2))
    >>> _fresh_deals(a).laid[1](a, canonical_deck(a.rules), 0, None)
    >>> b.reset_hand(); b.hand_no += 1; _plan_of(b.rules).lay[1](b, canonical_deck(b.rules), 0)
    >>> a.hands == b.hands, a.stock == b.stock, a.trump == b.trump, a.hand_no, a.to_act
    (True, True, True, 1, 1)
    """
    r = st.rules
    mech = st.mech
    key = (st._fresh, id(mech))
    hit = _FRESH.get(key)
    if hit is not None and hit[0] is r and hit[1] is mech:
        return hit[2]  # (each new state of the rules: looked up before anything is imported)
    from ..copies import APPEND_ONLY, HELD_AFTER_HAND
    from ..freshhand import hand_values, own_reset, reset_lines
    from ..unwritten import unwritten_slots

    if len(_FRESH) >= 64:  # bounded, whatever the caller makes
        _FRESH.clear()
    cls = type(st)
    namespace = _plan_names(r)
    # lists a journal entry may hold: those cut back by their lengths, and those a trick's
    # entry keeps themselves that the hand end does not replace (undo gives them back)
    always_new = APPEND_ONLY | HELD_AFTER_HAND
    plan = _plan_of(r)
    values = hand_values(cls, r) or {}
    openings = [_opening_lines(mech, r, start, namespace, values)
                for start in range(len(plan.source))]
    # the slots the lay and the opening write in any case (the leader...) are not reset first
    # (those every start writes: one reset serves the deals of every start)
    written = [set(_written([*body, *opening]))
               for body, opening in zip(plan.source, openings, strict=True)]
    # and those no code writes under these rules keep their start from the state's making
    dealt = ("hands", "stock", *sorted(set.intersection(*written)), *sorted(unwritten_slots(st)))
    reset = reset_lines(cls, r, "st", dealt, namespace, keep_start=True,
                        always_new=always_new) if not own_reset(cls) else None
    deals = None
    if reset is not None and r.places_rule is None:  # (placed players: Dealing.lay deals)
        lines = []
        hands = ", ".join(f"h{s}" for s in range(r.nseats))
        # (the checked deal reads the cards turned up and the stock from the locals the
        # check unpacked the deck into, where the plan's lay reads them from the deck)
        laid = _turn_up_lines(r, plan.turn, plan.dealt, named=True)
        for start, body in enumerate(plan.source):
            opening = openings[start]
            lines += [f"def deal_{start}(st, c, dealer, first):", *reset,
                      "    st.hand_no += 1", *body, *opening,
                      f"def take_{start}(st, c, dealer, first):",
                      *_check_lines(r, plan, start), *reset, "    st.hand_no += 1",
                      f"    st.hands = [{hands}]", *laid, *opening, "    return True"]
        namespace.update(_DEAL=DEAL, _PLAY=PLAY, _sum=sum, _int=int, _sitter=r.sitter,
                         _points=r.points, _team_of=r.team_of, _mech=mech)
        codegen.run("\n".join(lines) + "\n", f"<fresh deal of {r.name}>", namespace)
        starts = range(len(plan.source))
        laid_deals = tuple(namespace[f"deal_{start}"] for start in starts)
        taken_deals = tuple(namespace[f"take_{start}"] for start in starts)
        deals = _FreshDeals(laid_deals, taken_deals, _by_dealer(laid_deals, r.nseats),
                            _by_dealer(taken_deals, r.nseats))
    _FRESH[key] = (r, mech, deals)
    return deals


#: a statement at the level ``indent`` of generated code that stores a slot of the state
#: ``st``, perhaps with local names (``t = st.turn_up = c[6]``); a slot ``st`` names
_STORE = "{indent}(?:[a-z_]\\w* = )*st\\.(\\w+) = "
_NAMED = re.compile(r"\bst\.(\w+)")


def _written(lines: Sequence[str], indent: str = "    ") -> tuple[str, ...]:
    """The slots of ``st`` that the generated ``lines`` (a function's body, at ``indent``)
    store in any case, before any line reads them: by a statement of the body, or by
    both branches of an ``if`` and its ``else``.

    >>> _written(["    t = st.turn_up = c[6]", "    if dealer is not None:",
    ...           "        st.trump = 1", "    st.leader = 0", "    st.known[0] |= 1",
    ...           "    if st.mech is _mech:", "        st.to_act = st.leader",
    ...           "        st.phase = 1", "    else:", "        st.to_act = None",
    ...           "        st.mech.open(st)", "    st.trump = 2"])
    ('turn_up', 'leader', 'to_act')
    """
    store = re.compile(_STORE.format(indent=indent))
    inner = indent + "    "
    found: list[str] = []
    read: set[str] = set()  # (a slot read before its store is not left to the store)
    at = 0
    while at < len(lines):
        line = lines[at]
        block = [at + 1, at + 1]  # the lines of an ``if``'s branch, then of its ``else``
        while block[1] < len(lines) and lines[block[1]].startswith(inner):
            block[1] += 1
        if line.startswith(indent + "if ") and lines[block[1]:block[1] + 1] == [indent + "else:"]:
            end = block[1] + 1
            while end < len(lines) and lines[end].startswith(inner):
                end += 1
            both = set(_written(lines[block[1] + 1:end], inner))
            stored = [s for s in _written(lines[at + 1:block[1]], inner) if s in both]
            branch = lines[at:end]
            at = end
        elif (m := store.match(line)) is not None:
            stored, branch = [m.group(1)], [line[m.end():]]
            at += 1
        else:
            stored, branch = [], [line]
            at += 1
        found += [s for s in stored if s not in read and s not in found]
        read.update(s for text in branch for s in _NAMED.findall(text))
    return tuple(found)


def _written_open(mech: Mechanisms, r: Rules, ns: dict[str, Any]) -> list[str] | None:
    """Source lines of the opening (the first trick, or the taking of the turned card, the
    auction or the auction of a trump suit before it) as the mechanisms ``mech`` do it
    under ``r``, the names they read put in ``ns``; ``None`` where they are not written
    (a mechanism that opens its own way, an auction whose golden hand may change it)."""
    if r.auction_rule is not None:
        return mech.auction.open_lines(r, ns)
    if r.take_rule is not None:
        return mech.taking.open_lines(ns)
    if r.sa_rule is not None:
        return mech.suit_auction.open_lines(ns)
    return mech.tricks.first_trick_lines(mech, r, ns)


def _opening_lines(mech: Mechanisms, r: Rules, start: int, ns: dict[str, Any],
                   starts: dict[str, Any] | None = None) -> list[str]:
    """Source of what :meth:`Dealing.lay` does once the hands are dealt
    (:meth:`Dealing._open`), for the rules and first seat ``start``: the opening
    written out (:func:`_written_open`) for a state of the mechanisms ``mech`` (bound as
    ``_mech``), asked of the state's own otherwise; the names read put in ``ns``.
    Where ``starts`` gives the values of a new hand, the slots of a plain value that the
    written opening stores (the trick's number, who acts...) are given their start before
    the state's own is asked, so that both store them (and the reset may leave them)."""
    lines = []
    if r.sits_out != "none":
        lines += ["    out = _sitter(dealer)", "    st.out = out if out is not None else -1"]
    lines.append("    st.leader = first" if r.first_lead == "lot" else f"    st.leader = {start}")
    if r.holder_card is not None:  # the holder of a named card leads the first hand
        lines += ["    if st.hand_no == 1:", "        hands = st.hands",
                  f"        for s in range({r.nseats}):",
                  f"            if hands[s] >> {r.holder_card} & 1:",
                  "                st.leader = s", "                st.next_dealer = s"]
    asked = ["    st.phase = _PLAY"]
    if r.auction_rule is not None:  # bidding games: the auction comes first
        asked.append("    st.mech.auction.open(st)")
    elif r.take_rule is not None:  # the turned card is taken (or not) first
        asked.append("    st.mech.taking.open(st)")
    elif r.sa_rule is not None:  # an auction of a value and a trump suit first
        asked.append("    st.mech.suit_auction.open(st)")
    else:  # TrickPlay.start_trick, by generated code (engine.fastpath.start_trick)
        asked.append("    st._appliers.start_trick(st, st.leader)")
    written = _written_open(mech, r, ns)
    if written is None:
        lines += asked
    else:  # (the mechanisms of most states: no call, no second write of the trick's lists)
        own = [f"        st.{slot} = {starts[slot]!r}" for slot in _written(written)
               if starts and slot in starts and type(starts[slot]) in (int, bool, type(None))]
        lines += ["    if st.mech is _mech:", *("    " + line for line in written),
                  "    else:", *own, *("    " + line for line in asked)]
    if r.turn_up_bonus:
        lines += ["    if st.turn_up is not None and dealer is not None:",
                  "        bonus = _points[st.turn_up]", "        if bonus:",
                  "            st.match_scores[_team_of[dealer]] += bonus",
                  "            st.mech.match_end.check(st, after_hand=False, "
                  "reason='turn_up_bonus')"]
    return lines


#: (id of the rules, the seats dealt from the first) -> (the rules, their deal plan)
_PLACED_PLANS: dict[tuple[int, tuple[int, ...]], tuple[Rules, _DealPlan]] = {}


def _placed_plan(r: Rules, dealer: int, placed: tuple[int, ...]) -> tuple[int, _DealPlan]:
    """The first seat dealt and the plan of a deal by ``dealer`` where the ``placed``
    sides have left the play (``match.places``, a seat a side): the seats left from the
    dealer's next on, the dealer last, the placed passed over and given nothing.

    >>> from mariage import load_rules
    >>> rules = load_rules("sixty-six-3", {"three_hand_play_for_loser": True})
    >>> start, plan = _placed_plan(rules, 0, (1,))
    >>> start, [len(seat) for seat in plan.held[start]]
    (2, [6, 0, 6])
    """
    n = r.nseats
    seats = r.seats_dealt(dealer, placed)
    start = seats[0]
    dealt = tuple((s - start) % n for s in seats)
    hit = _PLACED_PLANS.get((id(r), dealt))
    if hit is None or hit[0] is not r:
        if len(_PLACED_PLANS) >= 64:  # bounded, whatever the caller makes
            _PLACED_PLANS.clear()
        hit = _PLACED_PLANS[(id(r), dealt)] = (r, _deal_plan(r, dealt))
    return start, hit[1]


def _plan_of(r: Rules) -> _DealPlan:
    """The deal plan of ``r``, made once per rules (they are frozen)."""
    hit = _PLANS.get(id(r))
    if hit is not None and hit[0] is r:
        return hit[1]
    if len(_PLANS) >= 64:  # bounded, whatever the caller makes
        _PLANS.clear()
    plan = _deal_plan(r)
    _PLANS[id(r)] = (r, plan)
    return plan


class Dealing(Mechanism):
    """Deals a hand from a deck order and passes the deal on after it."""

    __slots__ = ()
    name: ClassVar[str] = "dealing"
    steps: ClassVar[tuple[str, ...]] = ("rotate_dealer",)
    sections: ClassVar[tuple[str, ...]] = ("deal", "lead.first", "lead.holder",
                                           "scoring.turn_up_bonus", "core.deal")

    def hand_end_slots(self, rules: Rules) -> tuple[str, ...]:
        """The slots :meth:`rotate_dealer` writes (see :meth:`Scoring.hand_end_slots`)."""
        return ("dealer", "next_dealer")

    def check_deck(self, st: GameState, deck: Sequence[int] | Sequence[str],
                   first_player: int | None) -> list[int]:
        """The deck as card numbers, or :class:`IllegalActionError` if it cannot be dealt."""
        r = st.rules
        if st.phase == OVER:
            raise IllegalActionError(r.core_over, seat=None, action="deal",
                                     reason="the match is over", hand=st.hand_no)
        if st.phase != DEAL:
            raise IllegalActionError(r.core_phase, seat=None, action="deal",
                                     reason="a hand is in progress or the match is over",
                                     hand=st.hand_no)
        n = r.ncards
        # numbers, checked next; a list is only read (the stock is a slice of it), not kept
        cards: list[int] = deck if type(deck) is list else list(deck)  # type: ignore[arg-type]
        try:  # numbers (int.__trunc__ refuses anything else): each of the pack once?
            dealt = set(map(_int_value, cards)) == (_PACK_SETS.get(n) or _pack_set(n)) \
                and len(cards) == n
        except TypeError:  # codes (perhaps mixed with numbers), or other objects
            cards = [c if isinstance(c, int) else r.card_index.get(c, -1)
                     if c.__hash__ is not None else -1 for c in cards]
            dealt = len(cards) == n and sorted(cards) == _pack(n)
        if not dealt:
            raise IllegalActionError("core.deal", seat=None, action="deal",
                                     reason=f"a deal must order the {r.ncards} cards of the pack, "
                                     "each once", hand=st.hand_no + 1)
        if r.first_lead == "lot":
            if first_player.__class__ is not int \
                    or not 0 <= first_player < r.nseats:
                raise IllegalActionError("core.deal", seat=None, action="deal",
                                         reason="this ruleset needs the first player of the "
                                         f"hand, a seat from 0 to {r.nseats - 1}",
                                         hand=st.hand_no + 1)
        elif first_player is not None:
            raise IllegalActionError("core.deal", seat=None, action="deal",
                                     reason="the first player follows from the dealer here",
                                     hand=st.hand_no + 1)
        return cards

    def deal(self, st: GameState, deck: Sequence[int] | Sequence[str],
             first_player: int | None = None) -> None:
        """Deal the next hand of ``st`` from ``deck`` (top card first).

        A list of plain card numbers is checked as its hands are made (by the deal's
        generated code, :func:`_check_lines`); any other deck, or one that this
        check would not deal, goes through :meth:`check_deck`, which says why. A
        subclass with its own check or lay is asked, as for any deck.
        """
        cls = type(self)
        if type(deck) is list and cls.check_deck is _CHECK_DECK and cls.lay is _LAY:
            r = st.rules
            mech = st.mech
            hit = _FRESH.get((st._fresh, id(mech)))
            fresh = hit[2] if hit is not None and hit[0] is r and hit[1] is mech \
                else _fresh_deals(st)
            dealer = st.dealer
            start = 0 if dealer is None else (dealer + 1) % r.nseats
            if fresh is not None and fresh.taken[start](st, deck, dealer, first_player):
                return
        self.lay(st, self.check_deck(st, deck, first_player), first_player)

    def dealer_takes(self, st: GameState) -> tuple[CheckedDeal, ...]:
        """The fresh deals of a caller's deck, checked (``_FreshDeals.taken``), by the
        dealer of the hand: item ``d`` for dealer ``d``, the last for no dealer; ``()``
        where this class deals, checks or lays its own way, or no code is written for
        ``st``. :meth:`GameState.deal <mariage.engine.state.GameState.deal>` keeps them
        and calls the dealer's first, without asking the mechanism (its answer False:
        the deck or the moment refused, and :meth:`deal` says why).

        >>> from mariage import load_rules, GameState
        >>> from mariage.engine.deals import canonical_deck
        >>> state = GameState(load_rules("marianna"), first_dealer=3)
        >>> takes = state.mech.dealing.dealer_takes(state)
        >>> len(takes), takes[3] is _fresh_deals(state).taken[0], takes[-1] is takes[3]
        (5, True, True)
        >>> takes[3](state, canonical_deck(state.rules), 3, None), state.leader
        (True, 0)
        """
        if self._own_way():
            return ()
        fresh = _fresh_deals(st)
        return () if fresh is None else fresh.taken_by_dealer

    def dealer_lays(self, st: GameState) -> tuple[FreshDeal, ...]:
        """The fresh deals of a deck that needs no check (``_FreshDeals.laid``), by the
        dealer of the hand: item ``d`` for dealer ``d``, the last for no dealer; ``()``
        where this class deals, checks or lays its own way, or no code is written for
        ``st``. What :meth:`deal_own` does in the deal phase, without asking the
        mechanism each hand: the state keeps them and deals the seeded generator's
        decks by them (:meth:`GameState._deal_next
        <mariage.engine.state.GameState._deal_next>`).

        >>> from mariage import load_rules, GameState
        >>> from mariage.engine.deals import SeededDeals
        >>> rules = load_rules("thousand")
        >>> deck, first = SeededDeals(rules, 5).next_deal()
        >>> laid, own = GameState(rules, first_dealer=2), GameState(rules, first_dealer=2)
        >>> lays = laid.mech.dealing.dealer_lays(laid)
        >>> len(lays), lays[2] is _fresh_deals(laid).laid[0]
        (4, True)
        >>> lays[2](laid, deck, 2, first); own.mech.dealing.deal_own(own, deck, first)
        >>> laid.hands == own.hands, laid.stock == own.stock, laid.to_act, laid.phase.name
        (True, True, 0, 'AUCTION')
        """
        if self._own_way() or type(self).deal_own is not Dealing.deal_own:
            return ()
        fresh = _fresh_deals(st)
        return () if fresh is None else fresh.laid_by_dealer

    def _own_way(self) -> bool:
        """Whether this class deals, checks or lays a deck its own way (no fresh deal
        stands for it)."""
        cls = type(self)
        return cls.deal is not Dealing.deal or cls.check_deck is not _CHECK_DECK or \
            cls.lay is not _LAY

    def deal_own(self, st: GameState, deck: list[int], first_player: int | None) -> None:
        """Deal a deck that the interpreter's own seeded generator made for these rules
        (:class:`~mariage.engine.deals.SeededDeals`, the caller says so): an order of
        the pack by construction, so its cards are not checked again (a deck from
        anywhere else goes through :meth:`deal`). A subclass that deals or checks
        decks its own way is asked to, as for any deck.

        >>> from mariage import load_rules, GameState
        >>> from mariage.engine.deals import SeededDeals
        >>> rules = load_rules("thousand")
        >>> deck, first = SeededDeals(rules, 5).next_deal()
        >>> own, checked = GameState(rules), GameState(rules)
        >>> own.mech.dealing.deal_own(own, deck, first)
        >>> checked.deal(deck, first)
        >>> own.hands == checked.hands, own.stock == checked.stock, own.phase.name
        (True, True, 'AUCTION')
        """
        cls = type(self)
        if st.phase != DEAL or cls.deal is not Dealing.deal or \
                cls.check_deck is not Dealing.check_deck:
            self.deal(st, deck, first_player)
            return
        self.lay(st, deck, first_player)

    def lay(self, st: GameState, cards: list[int], first_player: int | None) -> None:
        """Deal the checked deck ``cards`` (card numbers, top first): a new hand's data,
        the packets in rounds from the seat after the dealer, the card turned up and
        the stock (by code generated per ruleset and first seat, :func:`_deal_plan`),
        the first leader, then the first trick or what comes before it (an auction...).
        """
        r = st.rules
        n = r.nseats
        dealer = st.dealer
        start = 0 if dealer is None else (dealer + 1) % n
        mech = st.mech
        hit = _FRESH.get((st._fresh, id(mech)))
        fresh = hit[2] if hit is not None and hit[0] is r and hit[1] is mech \
            else _fresh_deals(st)
        if fresh is not None:  # all of it in one (see _fresh_deals)
            fresh.laid[start](st, cards, dealer, first_player)
            return
        st.reset_hand()
        st.hand_no += 1
        plan = _plan_of(r)
        if st.placed and dealer is not None:  # the placed sit out (match.places)
            start, plan = _placed_plan(r, dealer, st.placed)
        # rounds of packets from the seat after the dealer (see _deal_plan)
        plan.lay[start](st, cards, dealer)
        self._open(st, first_player, start)

    def _open(self, st: GameState, first_player: int | None, start: int) -> None:
        """What :meth:`lay` does once the hands are dealt: the seat sitting out, the first
        leader, then the first trick or what comes before it, the turn-up bonus."""
        r = st.rules
        n = r.nseats
        dealer = st.dealer
        if r.sits_out != "none":
            out = r.sitter(dealer, st.placed)  # (a placed player, where there is one)
            st.out = out if out is not None else -1
        hands = st.hands
        if r.first_lead == "lot":
            assert first_player is not None
            st.leader = first_player
        else:
            st.leader = start
        if st.hand_no == 1 and r.holder_card is not None:
            for s in range(n):
                if hands[s] >> r.holder_card & 1:
                    st.leader = s
                    st.next_dealer = s
        st.phase = PLAY
        if r.auction_rule is not None:  # bidding games: the auction comes first
            st.mech.auction.open(st)
        elif r.take_rule is not None:  # the turned card is taken (or not) first
            st.mech.taking.open(st)
        elif r.sa_rule is not None:  # an auction of a value and a trump suit first
            st.mech.suit_auction.open(st)
        else:  # TrickPlay.start_trick, by generated code (engine.fastpath.start_trick)
            st._appliers.start_trick(st, st.leader)
        if r.turn_up_bonus and st.turn_up is not None and dealer is not None:
            bonus = r.points[st.turn_up]
            if bonus:
                st.match_scores[r.team_of[dealer]] += bonus
                st.mech.match_end.check(st, after_hand=False, reason="turn_up_bonus")

    def rotate_dealer(self, st: GameState) -> None:
        """Pass the deal on for the next hand."""
        r = st.rules
        if st.dealer is None:
            return
        if st.next_dealer is not None:
            st.dealer = st.next_dealer
            st.next_dealer = None
        elif r.rotation == "next_seat":
            st.dealer = (st.dealer + 1) % r.nseats
        if r.places_rule is not None:  # passing over the placed (match.places)
            while r.team_of[st.dealer] in st.placed:
                st.dealer = (st.dealer + 1) % r.nseats


#: the reference check and lay (a caller's deck is checked with its hands where both run)
_CHECK_DECK = Dealing.check_deck
_LAY = Dealing.lay
