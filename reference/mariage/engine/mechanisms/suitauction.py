"""An auction of a value and a trump suit, with doubling (coinche) and redoubling.

From the player after the dealer, each player in turn passes (not final: he may
bid later), bids a value with a trump suit higher than the standing bid (suits
are not ranked, jumps are allowed), bids capot (all tricks) where the rules
have it, or doubles the standing bid of an opponent. A double freezes the
auction: only the doubled side speaks on, each of its players passing or
redoubling; a redouble, or both doubled players passing, ends it. Otherwise
the auction ends when three players in a row pass after a bid; if all four
pass before any bid the deal is void. The highest bid fixes trump and the
contract; the player after the dealer leads. Where a double is said as soon as
a bid is made (``suit_auction.doubling.window``), each bid that may be doubled
is followed by a window: the bidder's opponents, in playing order from the
bidder, each double or pass (a pass there is no auction pass), and only then
does the auction go on in turn; a double is said nowhere else.

>>> from mariage import load_rules, GameState
>>> from mariage.engine.deals import canonical_deck
>>> state = GameState(load_rules("belote-coinche"), first_dealer=3)
>>> state.deal(canonical_deck(state.rules))
>>> texts = [action_text(state.rules, a) for a in state.legal_actions()]
>>> texts[:3], texts[-1]
(['pass', 'bid:80:H', 'bid:80:D'], 'bid:capot:S')
"""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING, ClassVar

from ..actions import Action, Double, Pass, SuitBid
from ..actiontext import action_text
from ..phase import BIDDING, PLAY, Phase
from .base import LeaderOpening, Mechanism, refuse

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["SuitAuction", "action_text"]

#: the pass, the double and the redouble (immutable: every listing shares them)
_PASS, _DOUBLE, _REDOUBLE = Pass(), Double(1), Double(2)

#: (class of the mechanism, id of the rules) -> (the rules, the values that can be bid
#: (lowest first) and every bid of them in listing order, or None where the values are
#: not in order)
_LADDERS: dict[tuple[type, int], tuple[Rules, tuple[tuple[int, ...], tuple[SuitBid, ...]]
                                       | None]] = {}


class SuitAuction(LeaderOpening, Mechanism):
    """Bids of a value and a trump suit, capot, doubling and redoubling, a void deal."""

    __slots__ = ()
    name: ClassVar[str] = "auction of a value and a trump suit"
    opening_phase: ClassVar[Phase] = BIDDING  # (LeaderOpening: ``open`` enters it)
    sections: ClassVar[tuple[str, ...]] = ("suit_auction",)
    applies: ClassVar[tuple[tuple[type, str], ...]] = ((SuitBid, "apply_bid"),
                                                       (Double, "apply_double"))
    phases: ClassVar[tuple[int, ...]] = (BIDDING,)
    steps: ClassVar[tuple[str, ...]] = ("open", "open_lines")

    def applies_for(self, rules: Rules) -> tuple[tuple[type, str], ...]:
        """A pass is this mechanism's while the rules have such an auction."""
        return ((Pass, "apply_pass"),) if rules.sa_rule is not None else ()

    def values(self, rules: Rules) -> list[int]:
        """Every value that can be bid, lowest first (capot, then générale, last)."""
        out = list(range(rules.sa_min, rules.sa_max + 1, rules.sa_step))
        return out + [v for v in (rules.sa_capot_value, rules.sa_generale_value) if v]

    def all_actions(self, rules: Rules) -> list[Action]:
        """A pass, every bid in every suit, a double and a redouble."""
        if rules.sa_rule is None:
            return []
        suits = self.strains(rules)
        return [Pass(), *(SuitBid(v, s) for v in self.values(rules) for s in suits),
                Double(1), Double(2)]

    def ladder(self, rules: Rules) -> tuple[tuple[int, ...], tuple[SuitBid, ...]] | None:
        """Every value that can be bid, lowest first, and every bid, by value then strain
        (the order of the legal actions), made once per rules: the bids above a standing
        one are then a slice of it. ``None`` where the values are not in order.

        >>> from mariage import load_rules
        >>> rules = load_rules("belote")
        >>> values, bids = SuitAuction().ladder(rules)
        >>> values[:3], len(bids) == len(values) * len(SuitAuction().strains(rules))
        ((80, 90, 100), True)
        >>> SuitAuction().ladder(rules) is SuitAuction().ladder(rules)  # made once
        True
        """
        key = (type(self), id(rules))
        hit = _LADDERS.get(key)
        if hit is not None and hit[0] is rules:
            return hit[1]
        if len(_LADDERS) >= 64:  # bounded, whatever rules the caller makes
            _LADDERS.clear()
        values = tuple(self.values(rules))
        suits = self.strains(rules)
        ladder = (values, tuple(SuitBid(v, s) for v in values for s in suits)) \
            if list(values) == sorted(values) else None
        _LADDERS[key] = (rules, ladder)
        return ladder

    def strains(self, rules: Rules) -> range:
        """What a bid may name: each suit, then the contracts without one trump suit
        (sans-atout, tout-atout) where the rules allow them."""
        return range(len(rules.suits) + (len(rules.strain_names) if rules.sa_strains else 0))

    # ------------------------------------------------------------ queries
    def may_double(self, st: GameState, seat: int) -> bool:
        """True if ``seat`` may double the standing bid now (an opponent's, in turn, or in
        the window after the bid where the rules have one)."""
        r = st.rules
        if st.kontras or st.high_bidder < 0 or r.team_of[st.high_bidder] == r.team_of[seat]:
            return False
        if r.sa_double_window_rule is not None and st.double_window[:1] != (seat,):
            return False
        return self.doublable(st)

    def doublable(self, st: GameState) -> bool:
        """True if the standing bid may be doubled at all (a capot or générale may not,
        where the rules say so)."""
        r = st.rules
        return r.sa_capot_doublable or st.high_bid not in (r.sa_capot_value,
                                                           r.sa_generale_value)

    def legal_in_phase(self, st: GameState, seat: int) -> list[Action]:
        """Pass, the higher bids in each suit, and doubling where allowed."""
        r = st.rules
        out: list[Action] = [_PASS]
        if st.double_window:  # right after a bid: double it, or not
            return [_PASS, _DOUBLE]
        if st.kontras and r.sa_double_freezes:  # the doubled side may pass or redouble
            return [_PASS, _REDOUBLE]
        suits = self.strains(r)
        ladder = self.ladder(r)
        if ladder is not None:  # the bids of the values above the standing bid
            out += ladder[1][bisect_right(ladder[0], st.high_bid) * len(suits):]
        else:
            out += [SuitBid(v, s) for v in self.values(r) if v > st.high_bid for s in suits]
        if self.may_double(st, seat):
            out.append(_DOUBLE)
        if st.kontras == 1 and r.team_of[seat] == r.team_of[st.high_bidder]:
            out.append(_REDOUBLE)  # not frozen: the doubled side may still redouble
        return out

    # -------------------------------------------------------------- apply
    def open(self, st: GameState) -> None:
        """Start the auction of a freshly dealt hand: the seat after the dealer speaks."""
        st.phase = BIDDING
        st.to_act = st.leader

    def apply_bid(self, st: GameState, seat: int, action: SuitBid) -> None:
        """``seat`` bids a value with a trump suit."""
        r = st.rules
        if st.phase != BIDDING:
            refuse(st, r.sa_rule or r.core_phase, seat, action, "bids are made in the auction")
        if st.kontras and r.sa_double_freezes:
            refuse(st, r.sa_double_rule, seat, action, "after a double only the doubled side "
                   "speaks, to pass or redouble")
        if st.double_window:
            refuse(st, r.sa_double_window_rule, seat, action, "right after a bid its bidder's "
                   "opponents say whether they double it, before the auction goes on")
        ladder = self.ladder(r)  # (its values: made once per rules)
        values = ladder[0] if ladder is not None else self.values(r)
        if action.value not in values or action.value <= st.high_bid \
                or action.suit not in self.strains(r):
            rule = r.sa_capot_rule if st.high_bid == r.sa_capot_value else r.sa_generale_rule \
                if r.sa_generale_value and st.high_bid == r.sa_generale_value else r.sa_bid_rule
            refuse(st, rule, seat, action, f"a bid is a multiple of {r.sa_step} from "
                   f"{r.sa_min} to {r.sa_max}" + (" or capot" if r.sa_capot_value else "")
                   + (" or générale" if r.sa_generale_value else "")
                   + ", higher than the standing bid, with a suit"
                   + (" or " + " or ".join(r.strain_names) if r.sa_strains else ""))
        st.actions.append((seat, action))
        st.high_bid, st.high_bidder, st.bid_suit = action.value, seat, action.suit
        st.kontras = 0  # (an auction not frozen by a double) a higher bid cancels it
        st.pass_step = 0
        st.to_act = (seat + 1) % r.nseats
        if r.sa_double_window_rule is not None and self.doublable(st):
            # the opponents, in playing order from the bidder, may double it at once
            team = r.team_of[seat]
            st.double_window = tuple(s for k in range(1, r.nseats)
                                     if r.team_of[s := (seat + k) % r.nseats] != team)
            st.to_act = st.double_window[0]

    def apply_double(self, st: GameState, seat: int, action: Double) -> None:
        """``seat`` doubles an opponent's standing bid, or (the doubled side) redoubles."""
        r = st.rules
        if st.phase != BIDDING:
            refuse(st, r.sa_double_rule or r.core_phase, seat, action,
                   "doubling is part of the auction")
        if action.level == 1 and self.may_double(st, seat):
            st.actions.append((seat, action))
            st.kontras = 1
            st.pass_step = 0
            st.to_act = (seat + 1) % r.nseats  # a player of the doubled side
            if st.double_window:
                st.double_window = ()
                if not r.sa_double_freezes:  # the auction goes on in turn after the bid
                    st.to_act = (st.high_bidder + 1) % r.nseats
            return
        if action.level == 2 and st.kontras == 1 and (
                r.sa_double_freezes or r.team_of[seat] == r.team_of[st.high_bidder]):
            st.actions.append((seat, action))
            st.kontras = 2
            self.won(st)
            return
        if action.level == 1 and r.sa_double_window_rule is not None and not st.kontras:
            refuse(st, r.sa_double_window_rule, seat, action, "a double is said right after "
                   "the bid, by the bidder's opponents in playing order")
        refuse(st, r.sa_double_rule, seat, action, "a double is against an opponent's standing "
               "bid" + ("" if r.sa_capot_doublable else " (not capot or générale)")
               + "; a redouble answers a double")

    def apply_pass(self, st: GameState, seat: int, action: Pass) -> None:
        """``seat`` passes; the auction ends, is void, or goes on."""
        if st.phase != BIDDING:
            st.mech.declarations.apply_pass(st, seat, action)
            return
        r = st.rules
        st.actions.append((seat, action))
        if st.double_window:  # no double: the next opponent, or the auction in turn
            st.double_window = st.double_window[1:]
            st.to_act = st.double_window[0] if st.double_window else \
                (st.high_bidder + 1) % r.nseats
            return
        st.pass_step += 1
        if st.kontras and r.sa_double_freezes:  # both doubled players pass: it ends
            if st.pass_step >= 2:
                self.won(st)
            else:
                st.to_act = (seat + 2) % r.nseats  # the partner, of the doubled side too
            return
        if st.high_bidder < 0 and st.pass_step >= r.nseats:
            if r.sa_all_pass == "same_dealer":
                st.next_dealer = st.dealer
            st._appliers.end_hand(st, "void")  # Scoring.end_hand (engine.handend)
            return
        if st.high_bidder >= 0 and st.pass_step >= r.nseats - 1:
            self.won(st)
            return
        st.to_act = (seat + 1) % r.nseats

    def won(self, st: GameState) -> None:
        """The highest bid is the contract; its suit is trump; play begins."""
        st.declarer = st.high_bidder
        st.contract = st.high_bid
        st.mech.taking.fix_trump(st, st.bid_suit)
        st.mech.trump_pair.trump_known(st)
        st.phase = PLAY
        st._appliers.start_trick(st, st.leader)
