"""From a written deal to the deck order the engine deals from.

A deal is written either as the whole pack in dealing order (``deck:``) or,
canonically, as each seat's hand, the stock in drawing order (top card
first) and the turned-up card. This module checks the parts against the
ruleset (cards, counts, labels) and lays them out as the deck that
:meth:`mariage.engine.state.GameState.deal` would deal into exactly those hands;
unknown cards (``??``) become ``-1``.

>>> from mariage import load_rules
>>> from mariage.notation.model import Deal, DealPart
>>> rules = load_rules("mariaggia")
>>> deal = Deal((DealPart("A", ("AH", "3H", "KH", "QH", "JH")),
...              DealPart("B", ("??",) * 5), DealPart("stock", ("??",) * 29),
...              DealPart("turnup", ("2S",))))
>>> lay = layout(rules, deal, dealer=1, report=print)
>>> [rules.card_code[c] for c in lay.deck[:5]], lay.deck[5], rules.card_code[lay.deck[10]]
(['AH', '3H', 'KH', 'QH', 'JH'], -1, '2S')
"""

from __future__ import annotations

from collections.abc import Callable

from mariage.engine.deals import deal_owners
from mariage.engine.rules import Rules

from ..errors import did_you_mean
from ..lazyrecord import frozen_record
from .model import UNKNOWN, Deal, DealPart

__all__ = ["Layout", "deal_parts", "layout"]

_KEYS = ("stock", "turnup", "deck", "first", "dealer")

#: report(code, message, part, index of the card in the part or -1)
Report = Callable[..., None]


@frozen_record
class Layout:
    """The deck (top first, ``-1`` unknown), the owner seat of each position (-1 stock)."""

    deck: list[int]
    owner: list[int]
    first: int | None


def _cards(rules: Rules, part: DealPart, seen: set[int], report: Report) -> list[int]:
    index = rules.card_index
    out: list[int] = []
    append = out.append
    for i, code in enumerate(part.cards):
        c = index.get(code)
        if c is not None and c not in seen:  # the common case: a known card, once
            seen.add(c)
            append(c)
            continue
        if code == UNKNOWN:
            append(-1)
        elif c is None:
            if code[:-1] in rules.ranks and code[-1:] in rules.suits:  # a rank and suit
                # of the pack, but a card taken out of it (marianna-3's two of spades)
                report("N130", f"unknown card {code!r}: it is taken out of the pack of "
                       f"{rules.ruleset} ({rules.ncards} cards)", part, i)
            else:
                report("N130", f"unknown card {code!r} (cards of {rules.ruleset}: "
                       f"{rules.card_code[0]}...{rules.card_code[-1]})", part, i)
            append(-1)
        else:
            report("N131", f"{code} is dealt twice", part, i)
            append(-1)
    return out


def layout(rules: Rules, deal: Deal, dealer: int | None, report: Report,
           check_dealer: bool = True, dealer_why: str = "",
           placed: tuple[int, ...] = ()) -> Layout | None:
    """Check ``deal`` and lay it out; ``None`` if it cannot be (problems go to ``report``).
    ``placed``: the sides placed before the hand, who sit it out (``match.places``).

    ``check_dealer`` false: the dealer is not known (a replay stopped earlier); the
    deal's own ``dealer:`` is then taken where it names a seat. ``dealer_why`` ends the
    message of a wrong ``dealer:`` (why the rules give that seat the deal).
    """
    seats = {name: i for i, name in enumerate(rules.seat_names)}
    labels: dict[str, DealPart] = {}
    ok = True
    stray = False  # an unknown label: a part it should have been is not missing too
    for part in deal.parts:
        if part.label not in seats and part.label not in _KEYS:
            report("N133", f"unknown deal label '{part.label}:' (seats: "
                   f"{', '.join(rules.seat_names)}; or {', '.join(_KEYS)})"
                   + did_you_mean(part.label, [*rules.seat_names, *_KEYS]), part, -1)
            ok, stray = False, True
        elif part.label in labels:
            report("N133", f"'{part.label}:' is given twice", part, -1)
            ok = False
        labels[part.label] = part
    first = _first(rules, labels, seats, report)
    if first is None and rules.first_lead == "lot":  # reported: no deal without it
        ok = False
    if "dealer" in labels and check_dealer:
        d = labels["dealer"]
        want = "-" if dealer is None else rules.seat_names[dealer]
        if len(d.cards) != 1 or d.cards[0] != want:
            report("N125", f"the dealer of this hand is {want}{dealer_why}" if dealer is not None
                   else f"{rules.ruleset} has no dealer: no 'dealer:' line", d, -1)
    elif "dealer" in labels and dealer is not None:  # the replay stopped: the record's own
        written = labels["dealer"].cards
        if len(written) == 1 and written[0] in seats:
            dealer = seats[written[0]]
    seen: set[int] = set()
    if "deck" in labels:
        others = [p.label for p in deal.parts if p.label not in ("deck", "first", "dealer")]
        if others:
            report("N133", "a deal is either 'deck:' or hands and stock, not both",
                   labels[others[0]], -1)
            return None
        dpart = labels["deck"]
        full = _cards(rules, dpart, seen, report)
        if len(full) != rules.ncards:
            report("N132", f"the deck has {len(full)} cards; the pack has {rules.ncards}",
                   dpart, -1)
            return None
        return Layout(full, _owners(rules, dealer, placed), first) if ok else None
    hands: list[list[int]] = []
    out = rules.sitter(dealer, placed)  # dealt nothing: an empty hand
    for s, name in enumerate(rules.seat_names):
        size = 0 if s == out else rules.hand_size
        hpart = labels.get(name)
        if hpart is None:
            if not stray:
                sits = f" (he sits the hand out: write '{name}:' with no cards)" \
                    if s == out else ""
                report("N133", f"the hand of seat {name} is missing{sits}", deal.parts[0]
                       if deal.parts else None, -1)
            ok = False
            hands.append([-1] * size)
            continue
        cards = _cards(rules, hpart, seen, report)
        if len(cards) != size:
            sits = " (he sits the hand out)" if s == out else ""
            report("N132", f"seat {name} has {len(cards)} cards; a hand has {size}{sits}",
                   hpart, -1)
            ok = False
        hands.append(cards)
        del s
    turnup = -1
    tpart = labels.get("turnup")
    if rules.turn_up == "none":
        if tpart is not None:
            report("N133", f"{rules.ruleset} turns up no card", tpart, -1)
            ok = False
    elif tpart is None:
        if not stray:
            report("N133", "the turned-up card ('turnup:') is missing", deal.parts[-1], -1)
        ok = False
    else:
        under = rules.turn_up in ("under_stock", "to_taker")
        tl = _cards(rules, tpart, seen if under else set(), report)
        if len(tl) != 1:
            report("N132", "'turnup:' takes one card", tpart, -1)
            ok = False
        else:
            turnup = tl[0]
    want_stock = rules.stock_size - (1 if rules.turn_up in ("under_stock", "to_taker") else 0)
    spart = labels.get("stock")
    if spart is not None and not rules.stock_size:  # (even an empty 'stock:')
        report("N133", f"{rules.ruleset} has no stock", spart, -1)
        return None
    stock = _cards(rules, spart, seen, report) if spart is not None else []
    if len(stock) != want_stock:
        if spart is not None or not stray:
            report("N132", f"the stock has {len(stock)} cards; it should have {want_stock}",
                   spart or deal.parts[-1], -1)
        ok = False
    if not ok:
        return None
    if rules.turn_up == "dealer_last" and dealer is not None and turnup >= 0:
        mine = hands[dealer]
        if turnup in mine:
            mine.remove(turnup)
        elif turnup in seen:  # in another hand or the stock: it would be dealt twice
            report("N131", f"{rules.card_code[turnup]} is dealt twice (the turned-up card "
                   "is the dealer's last card)", tpart, 0)
            return None
        elif -1 in mine:
            mine.remove(-1)
        else:
            report("N133", "the turned-up card must be in the dealer's hand", tpart, -1)
            return None
        mine.append(turnup)
    if rules.deal_packets:  # packets of several sizes, the turn-up after some round
        return _packet_layout(rules, hands, turnup, stock, dealer, first, placed)
    deck: list[int] = []
    dealt = rules.seats_dealt(dealer, placed)  # a seat sitting out: nothing
    for r in range(rules.hand_size // rules.packet):
        for s in dealt:
            deck.extend(hands[s][r * rules.packet:(r + 1) * rules.packet])
    if rules.turn_up == "under_stock":
        deck.append(turnup)
    deck.extend(stock)
    return Layout(deck, _owners(rules, dealer, placed), first)


def _packet_layout(rules: Rules, hands: list[list[int]], turnup: int, stock: list[int],
                   dealer: int | None, first: int | None,
                   placed: tuple[int, ...] = ()) -> Layout:
    owner = deal_owners(rules, dealer, placed)
    taken = [0] * rules.nseats
    deck: list[int] = []
    rest = iter(stock)
    for o in owner:
        if o >= 0:
            deck.append(hands[o][taken[o]])
            taken[o] += 1
        elif o == -2:
            deck.append(turnup)
        else:
            deck.append(next(rest, -1))
    return Layout(deck, [max(o, -1) for o in owner], first)


def _first(rules: Rules, labels: dict[str, DealPart], seats: dict[str, int],
           report: Report) -> int | None:
    part = labels.get("first")
    if rules.first_lead != "lot":
        if part is not None:
            report("N133", "the first player follows from the dealer in "
                   f"{rules.ruleset}: no 'first:'", part, -1)
        return None
    if part is None:
        report("N133", f"{rules.ruleset} needs the first player of each hand ('first:')",
               next(iter(labels.values()), None), -1)
        return None
    if len(part.cards) != 1 or part.cards[0] not in seats:
        report("N124", f"'first:' takes one seat ({', '.join(rules.seat_names)})", part, -1)
        return None
    return seats[part.cards[0]]


_OWNERS: dict[tuple[int, int | None, tuple[int, ...]], tuple[Rules, list[int]]] = {}


def _owners(rules: Rules, dealer: int | None, placed: tuple[int, ...] = ()) -> list[int]:
    """The seat each deck position is dealt to (-1: the stock); the same list is shared."""
    key = (id(rules), dealer, placed)
    hit = _OWNERS.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    if len(_OWNERS) > 256:
        _OWNERS.clear()
    owner = _owner_list(rules, dealer, placed)
    _OWNERS[key] = (rules, owner)
    return owner


def _owner_list(rules: Rules, dealer: int | None, placed: tuple[int, ...] = ()) -> list[int]:
    return [max(o, -1) for o in deal_owners(rules, dealer, placed)]


def deal_parts(rules: Rules, hands: list[list[str]], stock: list[str], turnup: str | None,
               dealer: int | None, first: int | None) -> tuple[DealPart, ...]:
    """The canonical parts of a deal: dealer/first, each seat's hand, stock, turnup."""
    parts = []
    if dealer is not None:
        parts.append(DealPart("dealer", (rules.seat_names[dealer],)))
    if first is not None:
        parts.append(DealPart("first", (rules.seat_names[first],)))
    for s, cards in enumerate(hands):
        parts.append(DealPart(rules.seat_names[s], tuple(cards)))
    if rules.stock_size:
        parts.append(DealPart("stock", tuple(stock)))
    if turnup is not None:
        parts.append(DealPart("turnup", (turnup,)))
    return tuple(parts)
