"""The auction: bids and passes for the right to play a contract.

Runs who speaks first and in what order (clockwise from the player after
the dealer, skipping players who passed), the bid range and step, the
finality of a pass, when the auction ends (at once when all others have
passed, or after one more turn for the holder of the standing bid), the last
player's turn after all others passed without a bid, and what happens when
nobody bids (the hand is played without a contract, or thrown in), and a blind
bid: forehand's first action, a fixed value bid before looking at his cards.

>>> from mariage import load_rules, GameState
>>> from mariage.engine.deals import canonical_deck
>>> state = GameState(load_rules("marjapussi-de"), first_dealer=3)
>>> state.deal(canonical_deck(state.rules))
>>> state.phase.name, state.to_act, [action_text(state.rules, a) for a in state.legal_actions()][:3]
('AUCTION', 0, ['pass', 'bid:120', 'bid:125'])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ..actions import Action, Bid, BlindBid, Pass
from ..actiontext import action_text
from ..phase import AUCTION, PLAY
from .base import Kept, Mechanism, PhaseWindow, kept_per_rules, refuse

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["Auction", "action_text"]

#: (first bid, step, highest bid) -> a pass, then every bid of that ladder (actions are
#: immutable, so every listing shares them)
_LADDERS: dict[tuple[int, int, int], tuple[Action, ...]] = {}

#: (id(rules), mechanism class) -> (rules, the cards of every pair of the bid cap, and the
#: cap of each set of those cards held: Auction.cap)
_CAPS: Kept = {}


def _ladder(key: tuple[int, int, int]) -> tuple[Action, ...]:
    """A pass, then every bid from the least up to the highest by the step (``key``)."""
    ladder = _LADDERS.get(key)
    if ladder is None:
        if len(_LADDERS) >= 64:  # bounded, whatever rules the caller makes
            _LADDERS.clear()
        ladder = _LADDERS[key] = (Pass(), *(Bid(v) for v in range(key[0], key[2] + 1, key[1])))
    return ladder


class Auction(Mechanism):
    """Bidding for the contract: bids, final passes, the declarer, nobody bidding."""

    __slots__ = ()
    name: ClassVar[str] = "auction"
    steps: ClassVar[tuple[str, ...]] = ("open", "open_lines", "ceiling", "cap")
    sections: ClassVar[tuple[str, ...]] = ("auction",)
    applies: ClassVar[tuple[tuple[type, str], ...]] = ((Bid, "apply_bid"),
                                                       (BlindBid, "apply_blind"))
    phases: ClassVar[tuple[int, ...]] = (AUCTION,)

    def applies_for(self, rules: Rules) -> tuple[tuple[type, str], ...]:
        """A pass is the auction's while the rules have one."""
        return ((Pass, "apply_pass"),) if rules.auction_rule is not None else ()

    def all_actions(self, rules: Rules) -> list[Action]:
        """A pass and every bid the rules allow."""
        if rules.auction_rule is None:
            return []
        bids = range(rules.bid_min, self.ceiling(rules) + 1, rules.bid_step)
        blind = [BlindBid(rules.blind_value)] if rules.blind_rule is not None else []
        return [Pass(), *(Bid(v) for v in bids), *blind]

    # ------------------------------------------------------------ queries
    def ceiling(self, rules: Rules) -> int:
        """The highest bid allowed: the rules' ceiling, or else the most a side can score."""
        if rules.bid_max:
            return rules.bid_max
        most = rules.pack_points + rules.last_trick_points + sum(rules.call_values)
        return max(rules.bid_min, most - most % rules.bid_step)

    def lowest(self, st: GameState) -> int:
        """The lowest bid allowed now."""
        r = st.rules
        return self.floor(st) if st.high_bid == 0 else st.high_bid + r.bid_step

    def golden_fixed(self, st: GameState) -> bool:
        """True in a golden hand without an auction: forehand's one action is the golden
        bid, which makes him the declarer at once."""
        r = st.rules
        return r.golden_rule is not None and r.golden_mode == "fixed" and \
            st.mech.running.golden(st)

    def floor(self, st: GameState) -> int:
        """The lowest bid of this hand: the rules' least bid, or a golden hand's."""
        r = st.rules
        if r.golden_rule is not None and st.mech.running.golden(st):
            return r.golden_bid
        return r.bid_min

    def highest(self, st: GameState, seat: int) -> int:
        """The highest bid ``seat`` may make now: the rules' ceiling, lowered by the bid
        cap (judged on his hand as it is), by single steps, or by a silenced total."""
        r = st.rules
        top = self.ceiling(r)
        if not r.bid_jumps:
            top = min(top, self.lowest(st))
        if r.bid_cap != "none":
            top = min(top, self.cap(st, st.hands[seat]))
        if self.silenced(st, seat):
            top = 0
        elif self.muted(st, seat):  # the compulsory opening binds him, at the lowest bid
            top = min(top, self.lowest(st))
        return top

    def cap(self, st: GameState, hand: int) -> int:
        """The highest bid or contract the pairs in ``hand`` allow under the bid cap.

        A pure function of the rules and of the cards of the pairs in the hand,
        asked at each listing of bids and again by the bid's check: it is worked
        out (:meth:`pairs_cap`) once per rules, class and such cards, and kept.
        """
        r = st.rules
        pairs, caps = kept_per_rules(_CAPS, (id(r), type(self)), r, r.bid_pair_masks)
        held = hand & pairs
        top = caps.get(held)
        if top is None:
            top = caps[held] = self.pairs_cap(r, held)
        return top

    def pairs_cap(self, r: Rules, hand: int) -> int:
        """:meth:`cap` worked out: the free cap, raised by the pairs held (their sum,
        or the ceiling for any pair)."""
        top = r.bid_cap_free
        if r.bid_cap == "pair_sum":
            for m, v in zip(r.bid_pair_masks, r.bid_pair_values, strict=True):
                if hand & m == m:
                    top += v
            return top
        for m in r.bid_pair_masks:
            if hand & m == m:
                return self.ceiling(r)
        return top

    def silenced(self, st: GameState, seat: int) -> bool:
        """True if ``seat``'s total is too low to bid (a compulsory opening still binds)."""
        r = st.rules
        if r.silence_below is None or self.must_open(st, seat):
            return False
        return st.match_scores[r.team_of[seat]] < r.silence_below

    def muted(self, st: GameState, seat: int) -> bool:
        """True if ``seat``'s total is below the rules' silence: he may not bid, except
        the compulsory opening, which he makes at the lowest bid only."""
        r = st.rules
        return r.silence_below is not None and \
            st.match_scores[r.team_of[seat]] < r.silence_below

    def must_open(self, st: GameState, seat: int) -> bool:
        """True if ``seat`` may not pass now: the compulsory opening at his first turn
        (unless his hand allows no bid at all, where the lowest bid is above the cap)."""
        r = st.rules
        if r.opening != "first_must_bid" or st.high_bid != 0 or seat != st.leader:
            return False
        return r.bid_cap == "none" or self.cap(st, st.hands[seat]) >= self.floor(st)

    def bid_ok(self, st: GameState, value: int, seat: int) -> bool:
        """True if ``value`` is a bid ``seat`` may make now."""
        r = st.rules
        return (value >= self.lowest(st) and value % r.bid_step == 0
                and value <= self.highest(st, seat))

    def blind_ok(self, st: GameState, seat: int) -> bool:
        """True if ``seat`` may bid blind now: forehand, as the auction's first action,
        with a total not below the rules' minimum, above any bid held before it."""
        r = st.rules
        return (r.blind_rule is not None and seat == st.leader == st.to_act
                and not st.actions and st.high_bid < r.blind_value
                and st.match_scores[r.team_of[seat]] >= r.blind_min_total
                and not self.golden_fixed(st))

    def legal_in_phase(self, st: GameState, seat: int) -> list[Action]:
        """Pass (unless he must open), then every allowed bid from the lowest up, then
        a blind bid where one is allowed."""
        if st.rules.golden_rule is not None and self.golden_fixed(st):
            return [Bid(st.rules.golden_bid)]
        if st.rules.blind_rule is not None and self.blind_ok(st, seat):
            return [*self.bids_in_phase(st, seat), BlindBid(st.rules.blind_value)]
        return self.bids_in_phase(st, seat)

    def bids_in_phase(self, st: GameState, seat: int) -> list[Action]:
        """Pass (unless he must open), then every allowed bid from the lowest up.

        The bids are taken from one shared ladder per rules (every bid from the
        least to the ceiling), sliced between the lowest bid and the highest this
        seat may make (a bid cap, single steps...); a bound off the ladder's steps
        makes its bids anew.
        """
        r = st.rules
        low = self.lowest(st)
        key = (r.bid_min, r.bid_step, self.ceiling(r))
        must_open = self.must_open(st, seat)
        high = self.highest(st, seat)
        ladder = _ladder(key)
        i, off = divmod(low - key[0], key[1])  # the ladder's bids are bid_min + i * step
        if off or i < 0 or high > key[2]:
            bids: Sequence[Action] = [Bid(v) for v in range(low, high + 1, r.bid_step)]
        elif high < low:
            bids = ()
        else:
            bids = ladder[1 + i:2 + (high - key[0]) // key[1]]
        return [*bids] if must_open else [ladder[0], *bids]

    listing_depends: ClassVar[tuple[str, ...]] = (
        "bids_in_phase", "lowest", "floor", "ceiling", "highest", "cap", "pairs_cap",
        "must_open", "silenced", "muted", "golden_fixed", "blind_ok")

    def phase_listing(self, rules: Rules) -> Callable[[GameState, int], list[Action]] | None:
        """The listing of :meth:`bids_in_phase` with the rules' ladder, step, ceiling,
        cap and opening bound once, where no golden hand, blind bid or silenced total
        can change it.

        >>> from mariage import load_rules, new_match
        >>> state = new_match(load_rules("thousand"), 2)
        >>> listing = Auction().phase_listing(state.rules)
        >>> listing(state, state.to_act) == Auction().legal_in_phase(state, state.to_act)
        True
        """
        found = self.phase_window(rules)
        if found is None:
            return None
        ladder, window = found
        bids_in_phase = self.bids_in_phase

        def listing(st: GameState, seat: int) -> list[Action]:
            bounds = window(st, seat)
            if bounds is None:  # a standing bid off the ladder's steps
                return bids_in_phase(st, seat)
            head, start, stop = bounds
            return [*ladder[:head], *ladder[start:stop]]
        return listing

    def phase_window(self, rules: Rules) -> PhaseWindow | None:
        """What :meth:`phase_listing` lists as a window of the ladder (a pass, then every
        bid from the least to the ceiling): ``(0 if the seat must open else 1, start,
        stop)``, the pass where offered and the bids ``ladder[start:stop]``; ``None``
        where a standing bid is off the ladder's steps (and where the rules have no
        :meth:`phase_listing`).

        >>> from mariage import load_rules, new_match
        >>> state = new_match(load_rules("thousand"), 2)
        >>> ladder, window = Auction().phase_window(state.rules)
        >>> head, start, stop = window(state, state.to_act)
        >>> [*ladder[:head], *ladder[start:stop]] == state.legal_actions()
        True
        """
        r = rules
        if r.auction_rule is None or r.golden_rule is not None or r.blind_rule is not None \
                or r.silence_below is not None:
            return None
        least, step, ceiling = r.bid_min, r.bid_step, self.ceiling(r)
        ladder = _ladder((least, step, ceiling))
        capped, jumps = r.bid_cap != "none", r.bid_jumps
        first_bids = r.opening == "first_must_bid"
        cap = self.cap
        pairs, caps = kept_per_rules(_CAPS, (id(r), type(self)), r, r.bid_pair_masks)

        # (the bounds of phase_listing's slice of the ladder: it lists from them)
        def window(st: GameState, seat: int) -> tuple[int, int, int] | None:
            high = st.high_bid
            low = least if high == 0 else high + step
            i, off = divmod(low - least, step)
            if off or i < 0:  # a standing bid off the ladder's steps: no window
                return None
            top = ceiling if jumps or ceiling < low else low
            must = first_bids and high == 0 and seat == st.leader
            if capped:
                most = caps.get(st.hands[seat] & pairs)
                if most is None:
                    most = cap(st, st.hands[seat])
                if most < top:
                    top = most
                must = must and most >= least
            return (0 if must else 1, 1 + i,
                    2 + (top - least) // step if top >= low else 1 + i)
        return ladder, window

    # -------------------------------------------------------------- apply
    def open(self, st: GameState) -> None:
        """Start the auction of a freshly dealt hand: forehand speaks first (or, where
        he holds the lowest bid before anyone acts, the player after him)."""
        r = st.rules
        st.phase = AUCTION
        st.to_act = st.leader
        if st.out >= 0:  # a seat sitting the hand out takes no part
            st.auction_passed[st.out] = True
        if r.golden_rule is not None and self.golden_fixed(st):
            return  # forehand's one action: the golden bid
        if r.opening == "first_holds_minimum":
            st.high_bid, st.high_bidder = self.floor(st), st.leader
            st.to_act = st.next_seat(st.leader)
        elif r.opening == "dealer_holds_minimum" and st.dealer is not None:
            # a dealer sitting out: the last active player before forehand holds it
            holder = st.dealer if st.dealer != st.out else (st.dealer - 1) % r.nseats
            st.high_bid, st.high_bidder = self.floor(st), holder

    def open_lines(self, rules: Rules, ns: dict[str, Any]) -> list[str] | None:
        """Source lines (in a function of ``st``, its leader and the seat out set) that do
        what :meth:`open` does under ``rules``, which the fresh deal writes in place of
        the call (the phase read as ``_AUCTION`` from ``ns``); ``None`` where this class
        opens or finds the lowest bid its own way, or a golden hand may change it.

        >>> from mariage import load_rules
        >>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS
        >>> DEFAULT_MECHANISMS.auction.open_lines(load_rules("thousand-pl"), {})[-2]
        '    st.high_bid, st.high_bidder = 100, st.leader'
        """
        cls = type(self)
        if rules.golden_rule is not None or cls.open is not Auction.open or \
                cls.floor is not Auction.floor:
            return None
        ns["_AUCTION"] = AUCTION
        lines = ["    st.phase = _AUCTION", "    st.to_act = st.leader", "    if st.out >= 0:",
                 "        st.auction_passed[st.out] = True"]
        least = rules.bid_min  # (floor: no golden hand)
        if rules.opening == "first_holds_minimum":
            lines += [f"    st.high_bid, st.high_bidder = {least}, st.leader",
                      "    st.to_act = st.next_seat(st.leader)"]
        elif rules.opening == "dealer_holds_minimum":
            lines += ["    if st.dealer is not None:",
                      "        holder = st.dealer if st.dealer != st.out else "
                      f"(st.dealer - 1) % {rules.nseats}",
                      f"        st.high_bid, st.high_bidder = {least}, holder"]
        return lines

    def apply_bid(self, st: GameState, seat: int, action: Bid) -> None:
        """``seat`` bids ``action.value``."""
        r = st.rules
        if st.phase != AUCTION:
            refuse(st, r.core_phase, seat, action, "bids are made only in the auction")
        if r.golden_rule is not None and self.golden_fixed(st):
            self.golden_bid(st, seat, action)
            return
        if not self.bid_ok(st, action.value, seat):
            self.refuse_bid(st, seat, action)
        st.actions.append((seat, action))
        st.high_bid = action.value
        st.high_bidder = seat
        st.blind = False
        if st.holder_turn:  # the holder's last word: he raised his own bid
            self.won(st, seat)
            return
        self.next_turn(st, seat)

    def golden_bid(self, st: GameState, seat: int, action: Bid | Pass) -> None:
        """Forehand's bid in a golden hand without an auction: the declarer at once."""
        r = st.rules
        if not isinstance(action, Bid) or action.value != r.golden_bid:
            assert r.golden_rule is not None
            refuse(st, r.golden_rule, seat, action,
                   f"in a golden hand forehand is the declarer at {r.golden_bid}, unbid")
        st.actions.append((seat, action))
        st.high_bid, st.high_bidder = action.value, seat
        self.won(st, seat)

    def apply_blind(self, st: GameState, seat: int, action: BlindBid) -> None:
        """``seat`` bids blind: the standing bid, unseen, at the rules' value."""
        r = st.rules
        if r.blind_rule is None:
            refuse(st, r.core_phase, seat, action, "this ruleset has no blind bid")
        if st.phase != AUCTION or not self.blind_ok(st, seat):
            why = (f"a total below {r.blind_min_total} may not bid blind"
                   if st.phase == AUCTION and seat == st.leader and not st.actions
                   and st.match_scores[r.team_of[seat]] < r.blind_min_total else
                   "only forehand bids blind, as the auction's first action")
            refuse(st, r.blind_rule, seat, action, why)
        if action.value != r.blind_value:
            refuse(st, r.blind_rule, seat, action, f"a blind bid is {r.blind_value}")
        st.actions.append((seat, action))
        st.high_bid, st.high_bidder, st.blind = action.value, seat, True
        self.next_turn(st, seat)

    def refuse_bid(self, st: GameState, seat: int, action: Bid) -> None:
        """Refuse a bid ``seat`` may not make, naming the rule it breaks."""
        r = st.rules
        low, value = self.lowest(st), action.value
        top = f" and at most {self.ceiling(r)}"
        if r.golden_rule is not None and value < low == r.golden_bid != r.bid_min and \
                st.mech.running.golden(st):
            refuse(st, r.golden_rule, seat, action, f"the lowest bid of a golden hand is {low}")
        if st.high_bid >= self.ceiling(r):
            why = f"the standing bid is the highest ({st.high_bid}): only a pass is left"
        elif value < low or value % r.bid_step or value > self.ceiling(r):
            why = f"a bid must be a multiple of {r.bid_step}, at least {low}{top}"
        elif self.silenced(st, seat):
            refuse(st, r.silence_rule, seat, action,
                   f"a player whose total is below {r.silence_below} may not bid")
        elif self.muted(st, seat) and value > low:
            refuse(st, r.silence_rule, seat, action,
                   f"a player whose total is below {r.silence_below} makes only the "
                   f"compulsory opening, at {low}")
        elif not r.bid_jumps and value > low:
            why = f"a bid must be exactly one step ({r.bid_step}) above the standing bid"
        else:
            limit = self.cap(st, st.hands[seat])
            refuse(st, r.bid_cap_rule, seat, action,
                   f"with the pairs in this hand a bid may be at most {limit}")
        refuse(st, r.bid_rule, seat, action, why)

    def apply_pass(self, st: GameState, seat: int, action: Pass) -> None:
        """``seat`` passes (final); outside the auction, the declarations' pass."""
        if st.phase != AUCTION:
            st.mech.declarations.apply_pass(st, seat, action)
            return
        if st.rules.golden_rule is not None and self.golden_fixed(st):
            self.golden_bid(st, seat, action)  # refused: forehand bids, unbid by others
            return
        if self.must_open(st, seat):
            refuse(st, st.rules.opening_rule, seat, action,
                   f"forehand must open the auction with a bid of at least {self.floor(st)}")
        st.actions.append((seat, action))
        if st.holder_turn:  # the holder stands on his bid
            self.won(st, seat)
            return
        st.auction_passed[seat] = True
        self.next_turn(st, seat)

    def next_turn(self, st: GameState, seat: int) -> None:
        """End the auction if it is over, else give the turn to the next active player."""
        r = st.rules
        n = r.nseats
        passed = st.auction_passed
        npassed = sum(passed)
        if npassed == n:
            self.nobody(st)
            return
        if st.high_bidder >= 0 and npassed == n - 1:
            if r.auction_end == "holder_may_raise" and seat != st.high_bidder:
                st.holder_turn = True
                st.to_act = st.high_bidder
                return
            self.won(st, st.high_bidder)
            return
        nxt = (seat + 1) % n
        while passed[nxt]:
            nxt = (nxt + 1) % n
        st.to_act = nxt

    def won(self, st: GameState, declarer: int) -> None:
        """The auction is won by ``declarer`` at the standing bid (he takes the talon)."""
        st.holder_turn = False
        st.declarer = declarer
        st.contract = st.high_bid
        if st.rules.talon_rule is not None:
            st.mech.talon.begin(st)  # the talon, then the passing
            return
        st.mech.passing.start(st)

    def nobody(self, st: GameState) -> None:
        """Every player passed: play without a contract, or throw the hand in and pass the
        deal on (a hand thrown in by a claim may be dealt again by the same dealer: the
        running totals' redeal rule; a hand nobody bid is not such a claim)."""
        r = st.rules
        if r.no_bid == "redeal":
            st._appliers.end_hand(st, "redeal")  # Scoring.end_hand (engine.handend)
            if r.redeal_same_dealer:  # the running totals kept the dealer: pass it on
                st.mech.dealing.rotate_dealer(st)
            return
        st.phase = PLAY
        st._appliers.start_trick(st, st.leader)
