"""Announcements held in hand: runs and sets, made in the first trick, compared between sides.

Each player may announce, at his turn in the first trick and before his card,
the combinations he holds: a run of cards next to each other in one suit (in
the run order of the rules, not the trick order) or a set of four cards of one
rank. A card counts in one combination only, unless the rules say otherwise.
After the hand the sides are compared: only the side holding the single best
announcement scores, and then all of its announcements; a set beats any run,
sets rank by the rules' order, runs by length, then by top card, then a run in
trumps beats a plain one. Two equal best announcements of different sides
cancel (nobody scores), or the one announced first wins, as the rules say.

>>> from mariage import load_rules
>>> r = load_rules("belote")
>>> hand = sum(1 << r.card(c) for c in "AH KH QH JH TD 9S 8S 7S".split())
>>> [(r.card_code[top], length) for top, length in Announcements().runs(r, hand)]
[('AH', 4), ('TD', 1), ('9S', 3)]
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, ClassVar

from ..actions import Action, Announce
from ..phase import PLAY
from .base import Mechanism, refuse

if TYPE_CHECKING:
    from ..rules import Combo, Rules
    from ..state import GameState

__all__ = ["Announcements"]

#: an announcement, made once per kind and key card (immutable: every listing shares it)
_announce = cache(Announce)

#: one announcement: (seat, combo, key card, its cards)
Made = tuple[int, int, int, int]

_Memo = tuple[dict[int, list[tuple[int, int]]],
              dict[tuple[int, int], list[tuple["Combo", int, int]]],
              dict[int, list[tuple["Combo", int, int]]]]
#: id(rules) -> (rules, (the runs of each suit's cards, the announcements of each run, the
#: announcements of the runs of each suit's cards)): they depend on the rules alone, so
#: they are worked out once per rules and value
_MEMOS: dict[int, tuple[Rules, _Memo]] = {}


def _memo(r: Rules) -> _Memo:
    hit = _MEMOS.get(id(r))
    if hit is None or hit[0] is not r:
        if len(_MEMOS) >= 64:  # bounded, whatever the caller makes
            _MEMOS.clear()
        hit = _MEMOS[id(r)] = (r, ({}, {}, {}))
    return hit[1]


class Announcements(Mechanism):
    """Announcing combinations in the first trick; comparing the sides after it."""

    __slots__ = ()
    name: ClassVar[str] = "announcements"
    sections: ClassVar[tuple[str, ...]] = ("announcements",)
    applies: ClassVar[tuple[tuple[type, str], ...]] = ((Announce, "apply_announce"),)
    steps: ClassVar[tuple[str, ...]] = ("points", "best_side")
    trail_hooks: ClassVar[dict[str, tuple[str, ...]]] = {"show": ("known",)}

    def hooks(self, rules: Rules) -> tuple[tuple[str, str], ...]:
        """When the second trick begins, announced cards are shown where the rules say."""
        return (("next_lead", "show"),) if rules.combos and rules.announce_show != "none" \
            else ()

    def show(self, st: GameState, leader: int) -> None:
        """The first trick is over: the announcers whose announcements count (or all, as
        the rules say) show the cards of their combinations still in hand to everyone."""
        if st.trick_no != 2 or not st.announced:
            return
        r = st.rules
        best = self.best_side(st)
        for seat, _, _, mask in st.announced:
            if r.announce_show == "all" or r.team_of[seat] == best:
                st.known[seat] |= mask & st.hands[seat]

    def offers(self, rules: Rules) -> bool:
        """Announcements are offered in the first trick where the rules have them."""
        return bool(rules.combos)

    def all_actions(self, rules: Rules) -> list[Action]:
        """Every announcement of every kind (runs by top card, sets by rank)."""
        out: list[Action] = []
        for combo in rules.combos:
            if combo.same_rank:
                out += [Announce(combo.index, rules.card_index_of(0, ri))
                        for ri in range(len(rules.ranks)) if combo.rank_values[ri]]
            else:
                out += [Announce(combo.index, c) for c in range(rules.ncards)]
        return out

    # ------------------------------------------------------------ queries
    def runs(self, r: Rules, cards: int) -> list[tuple[int, int]]:
        """The runs in ``cards`` that no longer run contains: (top card, length), per suit."""
        memo = _memo(r)[0]
        out: list[tuple[int, int]] = []
        for s, suit_mask in enumerate(r.suit_mask):
            part = cards & suit_mask
            if part:
                hit = memo.get(part)
                if hit is None:  # worked out once per rules and cards of a suit
                    hit = memo[part] = self.suit_runs(r, s, part)
                out += hit
        return out

    def suit_runs(self, r: Rules, s: int, cards: int) -> list[tuple[int, int]]:
        """The runs in ``cards`` of suit ``s`` that no longer run contains."""
        out = []
        nr = len(r.ranks)
        top, length = -1, 0
        for ri in (*r.run_order, -1):
            c = s * nr + ri if ri >= 0 else -1
            if c >= 0 and cards >> c & 1:
                if length == 0:
                    top = c
                length += 1
                continue
            if length:
                out.append((top, length))
            length = 0
        return out

    def run_kinds(self, r: Rules, top: int, length: int) -> list[tuple[Combo, int, int]]:
        """The announcements a run of ``length`` from ``top`` makes: (kind, key, cards)."""
        memo = _memo(r)[1]
        hit = memo.get((top, length))
        if hit is None:  # worked out once per rules and run
            hit = memo[top, length] = self.split_run(r, top, length)
        return list(hit)

    def split_run(self, r: Rules, top: int, length: int) -> list[tuple[Combo, int, int]]:
        """The announcements a run makes, worked out (see :meth:`run_kinds`)."""
        kinds = sorted((c for c in r.combos if not c.same_rank), key=lambda c: c.length)
        if not kinds or length < kinds[0].length:
            return []
        nr = len(r.ranks)
        order = r.run_order
        suit, pos = top // nr, order.index(top % nr)
        out = []
        while length >= kinds[0].length:
            kind = max((k for k in kinds if k.length <= length), key=lambda k: k.length)
            take = length if r.long_runs == "single" else kind.length
            mask = sum(1 << (suit * nr + order[pos + i]) for i in range(take))
            out.append((kind, suit * nr + order[pos], mask))
            if r.long_runs == "single":
                break
            pos += take
            length -= take
        return out

    def available(self, st: GameState, seat: int) -> list[tuple[Combo, int, int]]:
        """What ``seat`` may announce now: (kind, key card, cards), each not yet announced."""
        r = st.rules
        used = 0
        done = set()
        for s, kind, key, mask in st.announced:
            if s == seat:
                used |= mask
                done.add((kind, key))
        free = st.hands[seat] if r.announce_shared_cards else st.hands[seat] & ~used
        out: list[tuple[Combo, int, int]] = []
        for combo in r.combos:
            if combo.same_rank:
                values, order = self.set_table(st, combo)
                for ri in order:
                    m = r.rank_mask[ri]
                    if values[ri] and free & m == m:
                        out.append((combo, r.card_index_of(0, ri), m))
        suit_kinds = _memo(r)[2]
        for s, suit_mask in enumerate(r.suit_mask):  # the runs, suit by suit (runs())
            part = free & suit_mask
            if part:
                kinds = suit_kinds.get(part)
                if kinds is None:  # worked out once per rules and cards of a suit
                    kinds = suit_kinds[part] = [
                        k for top, length in self.suit_runs(r, s, part)
                        for k in self.run_kinds(r, top, length)]
                out += kinds
        return [(c, k, m) for c, k, m in out if (c.index, k) not in done] if done else out

    def may_announce(self, st: GameState, seat: int) -> bool:
        """True in the first trick, at ``seat``'s turn, before his card."""
        return (st.phase == PLAY and st.trick_no == 1 and st.to_act == seat
                and seat not in st.trick_seats)

    def offer(self, st: GameState, seat: int, out: list[Action]) -> None:
        """The announcements ``seat`` may make now."""
        if self.may_announce(st, seat):
            out += [_announce(c.index, k) for c, k, _ in self.available(st, seat)]

    gate_depends: ClassVar[tuple[str, ...]] = ("may_announce",)

    def offer_gate(self, rules: Rules) -> str | None:
        """The first trick, before ``seat``'s card (what :meth:`may_announce` asks)."""
        return "st.trick_no == 1 and seat not in st.trick_seats"

    def set_table(self, st: GameState, combo: Combo) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """A set's points by rank and its ranks best first, in the contract in force (a
        contract without trumps has its own, where the pack gives them)."""
        r = st.rules
        if st.strain >= 0 and r.nt_set_values and \
                r.strain_kinds[st.strain - len(r.suits)] == "no_trump":
            return r.nt_set_values, r.nt_set_order
        return combo.rank_values, combo.rank_order

    def value(self, st: GameState, made: Made) -> int:
        """The points of one announcement."""
        r = st.rules
        combo = r.combos[made[1]]
        if combo.same_rank:
            return self.set_table(st, combo)[0][r.rank_of[made[2]]]
        return combo.value

    def rank_key(self, st: GameState, made: Made) -> tuple[int, ...]:
        """How an announcement compares: a set over a run; sets by rank order; runs by
        length, then top card, then trump over plain."""
        r = st.rules
        combo = r.combos[made[1]]
        if combo.same_rank:
            return (1, -self.set_table(st, combo)[1].index(r.rank_of[made[2]]), 0, 0)
        top = -r.run_order.index(r.rank_of[made[2]])
        return (0, combo.length, top, int(r.suit_of[made[2]] == st.trump))

    def best_side(self, st: GameState) -> int:
        """The side whose announcements count (-1: none, or a tie that cancels)."""
        r = st.rules
        if not st.announced:
            return -1
        keyed = [(self.rank_key(st, m), i, r.team_of[m[0]]) for i, m in enumerate(st.announced)]
        top = max(k for k, _, _ in keyed)
        sides = {t for k, _, t in keyed if k == top}
        if len(sides) == 1:
            return sides.pop()
        if r.announce_tie == "first_in_rotation":
            return min((i, t) for k, i, t in keyed if k == top)[1]
        return -1

    def points(self, st: GameState) -> list[int]:
        """Per side: the points of its announcements that count (only the best side's)."""
        r = st.rules
        out = [0] * len(r.teams)
        best = self.best_side(st)
        if best >= 0:
            out[best] = sum(self.value(st, m) for m in st.announced if r.team_of[m[0]] == best)
        return out

    # -------------------------------------------------------------- apply
    def apply_announce(self, st: GameState, seat: int, action: Announce) -> None:
        """``seat`` announces a combination he holds."""
        r = st.rules
        if not r.combos:
            refuse(st, r.core_phase, seat, action, "this ruleset has no announcements")
        if not self.may_announce(st, seat):
            refuse(st, r.announce_rule, seat, action, "announcements are made in the first "
                   "trick, at the player's turn, before his card")
        for combo, key, mask in self.available(st, seat):
            if combo.index == action.combo and key == action.card:
                st.actions.append((seat, action))
                st.announced.append((seat, combo.index, key, mask))
                return
        refuse(st, r.combos[action.combo].rule if 0 <= action.combo < len(r.combos)
               else r.announce_rule, seat, action,
               "the player does not hold that combination (or has announced its cards)")
