"""The slots of a hand that a ruleset never writes, which the next deal leaves alone.

The next deal (:func:`~mariage.engine.mechanisms.dealing._fresh_deals`) gives every
slot of a :class:`~mariage.engine.state.GameState` its value at the start of a hand:
it stores the immutable ones and compares each list with its start. Some slots are
written by one mechanism only (the auction's passes, the trump calls' asking levels,
the pairs said...), and that mechanism runs only under rules that have its part of
the game: under other rules such a slot keeps, from the state's making on, the value
a hand starts with, and storing or comparing it at every deal is work for nothing.

:data:`WRITERS` says, per group of such slots, the modules of the package whose code
writes them and the rules under which that code can run; :func:`unwritten_slots`
gives the slots of the groups whose rules are not met. It is a declaration, kept
true by two tests (``tests/test_nextdeal22.py``): a scan of the package's source
for every write of these slots (assignments, item stores, list methods, and the text
of generated code), which must sit in the modules named here; and playouts of every
ruleset in which each slot left out holds its start at every hand's end, and a state
after the next deal equals one dealt the same deck fresh.

The declaration holds for the package's own mechanisms and state only: a state of
another class, or one run by a mechanism of another class (a deliberately faulty
engine, an experiment), may write anything, and keeps the full reset.

>>> from mariage import load_rules, GameState
>>> st = GameState(load_rules("marianna"), first_dealer=0)
>>> sorted(unwritten_slots(st))[:4]
['_tricks_per_hand', 'announced', 'aside', 'ask_level']
>>> "auction_passed" in unwritten_slots(GameState(load_rules("thousand"), first_dealer=0))
False
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..lazyrecord import field_names

if TYPE_CHECKING:
    from .rules import Rules
    from .state import GameState

__all__ = ["WRITERS", "unwritten_slots"]


def _declares(r: Rules) -> bool:
    """True where the rules have declarations of combinations (offered or not)."""
    return bool(r.declarations) or bool(r.declarations_off)


def _bids(r: Rules) -> bool:
    """True where the rules have an auction, or an auction of a value and a suit."""
    return r.auction_rule is not None or r.sa_rule is not None


def _talon(r: Rules) -> bool:
    """True where the auction's winner takes a talon (whole, or a packet of it)."""
    return r.talon_rule is not None or r.talon_packets_rule is not None


#: (the modules of ``mariage.engine`` whose code writes the slots, the rules under which
#: that code can run, the slots): each slot is written nowhere else
WRITERS: tuple[tuple[tuple[str, ...], Callable[[Rules], bool], tuple[str, ...]], ...] = (
    # the auction opens at the deal, and its passes and bids are offered, only with one
    (("mechanisms/auction.py",), lambda r: r.auction_rule is not None,
     ("auction_passed", "blind", "holder_turn")),
    # calls, questions and answers are offered only where the rules have trump calls
    (("mechanisms/questions.py",), lambda r: r.calls_rule is not None,
     ("ask_level", "call_credit", "called", "question")),
    # the high bid and its bidder, and the contract, are the auction's (or the suit
    # auction's): a raise of the contract (``contract.py``) comes only after an auction
    (("mechanisms/auction.py", "mechanisms/suitauction.py"), _bids, ("high_bid", "high_bidder")),
    (("mechanisms/auction.py", "mechanisms/suitauction.py", "mechanisms/contract.py"), _bids,
     ("contract",)),
    # the declarer is the auction's winner, or the taker of the turned card
    (("mechanisms/auction.py", "mechanisms/suitauction.py", "mechanisms/taking.py"),
     lambda r: _bids(r) or r.take_rule is not None, ("declarer",)),
    # the step of a sequence of turns: the suit auction's and the taking's turns, the
    # passing and the talon's packets (both only after an auction)
    (("mechanisms/passing.py", "mechanisms/suitauction.py", "mechanisms/taking.py",
      "mechanisms/talon.py"), lambda r: _bids(r) or r.take_rule is not None or _talon(r)
     or bool(r.passing_steps), ("pass_step",)),
    # cards laid aside unseen: the stock after a close, a packet of the talon not chosen,
    # cards passed to nobody (the search tools rewrite the items of a list they find, so
    # that an empty one stays empty)
    (("mechanisms/closing.py", "mechanisms/passing.py", "mechanisms/talon.py"),
     lambda r: r.close_rule is not None or _talon(r) or bool(r.passing_steps), ("aside",)),
    # the pair of trumps is said (or scored as played) only where the rules have it
    (("mechanisms/trumppair.py",), lambda r: r.pair_rule is not None,
     ("pair_by", "pairs_said")),
    # announcements are offered only where the rules name combinations
    (("mechanisms/announce.py",), lambda r: bool(r.combos), ("announced",)),
    # the auction of a value and a suit opens at the deal only with one
    (("mechanisms/suitauction.py",), lambda r: r.sa_rule is not None,
     ("bid_suit", "double_window")),
    # a strain (no trump, all trumps) is fixed by the taking of the turned card, or by
    # the suit auction, which asks the taking's ``fix_trump``
    (("mechanisms/taking.py",), lambda r: r.take_rule is not None or r.sa_rule is not None,
     ("strain",)),
    # the stock is closed (and the close takes effect, on a decline or an exchange after
    # it) only by a close, offered only where the rules have closing
    (("mechanisms/closing.py",), lambda r: r.close_rule is not None,
     ("_tricks_per_hand", "close_from_lead", "close_opp_points", "close_opp_tricks",
      "closed_by", "draw_tricks")),
    # a claim is made by a player where the rules have claims, or found automatically
    (("mechanisms/claims.py",), lambda r: r.claim_rule is not None or r.claim_auto,
     ("claim_by", "claim_ok")),
    # the talon is taken after an auction that has one (or chosen in packets)
    (("mechanisms/talon.py",), _talon, ("talon",)),
    # asks to the partner, and the split marriages they make, only where the rules have asks
    (("mechanisms/asks.py",), lambda r: bool(r.asks), ("ask_spent", "pending_ask", "split")),
    # the takers' score (and the sheet written for it) judges the deal
    (("mechanisms/takerscore.py", "sheets.py"), lambda r: r.takers_rule is not None,
     ("deal_outcome",)),
    # Kontra and Re, or the suit auction's double and redouble
    (("mechanisms/contract.py", "mechanisms/suitauction.py"),
     lambda r: r.kontra_rule is not None or r.sa_rule is not None, ("kontras",)),
    # a declaration scored in game points, not in card points
    (("mechanisms/declarations.py",),
     lambda r: any(d.units == "game_points" for d in (*r.declarations, *r.declarations_off)),
     ("game_points",)),
    # declaration points held until a lead or a trick: only a declaration whose credit
    # waits holds any (the held credit and the next lead then count and clear them)
    (("mechanisms/declarations.py", "mechanisms/heldcredit.py"),
     lambda r: any(d.credit != "immediate" for d in (*r.declarations, *r.declarations_off)),
     ("held",)),
    # what the declarations of combinations (and the asks and calls that score as they
    # do) use and score: only where the rules have any of them
    (("mechanisms/declarations.py",), _declares, ("used_hand",)),
    (("mechanisms/declarations.py", "mechanisms/asks.py"),
     lambda r: _declares(r) or bool(r.asks), ("used_suit",)),
    (("mechanisms/declarations.py", "mechanisms/asks.py", "mechanisms/questions.py"),
     lambda r: _declares(r) or bool(r.asks) or r.calls_rule is not None, ("declared",)),
    (("mechanisms/declarations.py", "mechanisms/heldcredit.py", "mechanisms/questions.py"),
     lambda r: _declares(r) or bool(r.asks) or r.calls_rule is not None, ("decl_points",)),
    # a card a seat must play: set by the answer to an ask only; the card play clears it
    # where it is set, and undo puts back what it was (so it changes nowhere else)
    (("mechanisms/asks.py", "mechanisms/trickplay.py", "fastpath.py", "journal.py"),
     lambda r: bool(r.asks), ("forced",)),
)

#: (id of the rules, class of state, ids of the mechanisms' classes) -> (the rules, slots)
_CACHE: dict[tuple[int, type, tuple[int, ...]], tuple[Rules, frozenset[str]]] = {}


#: the package of the mechanisms (``mariage.engine.mechanisms``, named from here: the
#: package imports the dealing, which asks this module)
_MECHANISMS = __name__.rpartition(".")[0] + ".mechanisms"


def _own_classes(st: GameState) -> bool:
    """True if ``st`` is of the class that says what a hand holds and its set of
    mechanisms and every mechanism in it are of the classes of the package's
    mechanisms (then nothing but :data:`WRITERS` writes)."""
    from .freshhand import _defining_base

    cls = type(st)
    mech = st.mech
    if _defining_base(cls) is not cls or type(mech).__module__ != _MECHANISMS:
        return False
    return all(type(getattr(mech, name)).__module__.startswith(_MECHANISMS + ".")
               for name in field_names(type(mech)))


def unwritten_slots(st: GameState) -> frozenset[str]:
    """The slots of :data:`WRITERS` that no code can write under ``st``'s rules, with its
    class and mechanisms (empty where either is not the package's own)."""
    r = st.rules
    key = (id(r), type(st), tuple(id(type(m)) for m in st.mech.all()))
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is r:
        return hit[1]
    if len(_CACHE) >= 64:  # bounded, whatever the caller makes
        _CACHE.clear()
    slots: frozenset[str] = frozenset()
    if _own_classes(st):
        slots = frozenset(s for _, runs, group in WRITERS if not runs(r) for s in group)
    _CACHE[key] = (r, slots)
    return slots
