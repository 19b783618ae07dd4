"""Deliberately faulty engines: each breaks one rule the way a real engine author might.

They prove the suite's strength: ``mariage conformance`` must fail every one
of them, on a test that names the broken rule (the kill table in
``docs/conformance.rst``). Each is the reference engine with one hook changed:
the compiled rules patched (:meth:`~mariage.conformance.engine.ReferenceEngine.make_rules`)
or one method of the game state overridden
(:meth:`~mariage.conformance.engine.ReferenceEngine.make_state`); the reference
interpreter itself is never edited.

Run one as a protocol engine with ``python -m mariage.conformance.faulty NAME``;
with no name, the list is printed.

>>> fault = FAULTS["declare-after-stock"]
>>> fault.rule
'marianna.decl.window'
>>> engine = FaultyEngine(fault)
>>> engine.make_rules("marianna", {}).decl_window
'hand'
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..actions import Action, Answer, CallOut
from ..rules import Declaration, Obligation, Rules, When
from ..state import GameState, Phase
from .engine import ReferenceEngine, serve

__all__ = ["FAULTS", "Fault", "FaultyEngine", "main"]

RulesPatch = Callable[[Rules], Rules]


@dataclass(frozen=True)
class Fault:
    """One faulty engine: the rule it breaks, how, and where that shows."""

    name: str
    rule: str
    rulesets: tuple[str, ...]
    description: str
    patch: RulesPatch | None = None
    state_class: type[GameState] | None = None


FAULTS: dict[str, Fault] = {}


def _fault(name: str, rule: str, rulesets: str, description: str,
           patch: RulesPatch | None = None, state_class: type[GameState] | None = None) -> None:
    FAULTS[name] = Fault(name, rule, tuple(rulesets.split()), description, patch, state_class)


class FaultyEngine(ReferenceEngine):
    """The reference engine with one :class:`Fault` built in."""

    def __init__(self, fault: Fault) -> None:
        super().__init__()
        self.fault = fault
        self.name = f"faulty:{fault.name}"

    def make_rules(self, ruleset: str, options: dict[str, Any]) -> Rules:
        rules = super().make_rules(ruleset, options)
        return self.fault.patch(rules) if self.fault.patch else rules

    def make_state(self, rules: Rules, dealer: int | None) -> GameState:
        cls = self.fault.state_class or GameState
        return cls(rules, first_dealer=dealer)


# ----------------------------------------------------------------- rules patches
def _decls(rules: Rules, rule_field: str, rule_id: str, **changes: Any) -> Rules:
    """Change the declarations whose ``rule_field`` is ``rule_id``."""
    decls = tuple(replace(d, **changes) if getattr(d, rule_field) == rule_id else d
                  for d in rules.declarations)
    return replace(rules, declarations=decls)


def _obligations(rules: Rules, rule_field: str, rule_id: str, phases: str = "stock no_stock",
                 **changes: Any) -> Rules:
    """Change the play duties whose ``rule_field`` is ``rule_id``."""
    def fix(ob: Obligation | None) -> Obligation | None:
        if ob is None or getattr(ob, rule_field) != rule_id:
            return ob
        return replace(ob, **changes)
    out = rules
    if "no_stock" in phases.split():
        out = replace(out, obligation_no_stock=fix(out.obligation_no_stock))
    if "stock" in phases.split():
        out = replace(out, obligation_stock=fix(out.obligation_stock))
    return out


def _when(rules: Rules, rule_id: str, **changes: Any) -> Rules:
    """Change top-level fields of ``rules`` if it has rule ``rule_id``."""
    return replace(rules, **changes) if rule_id in rules.rule_ids else rules


def _points(rules: Rules) -> Rules:
    if "marianna.pack" not in rules.rule_ids:
        return rules
    ace = rules.ranks.index("A")
    pts = tuple(10 if rules.rank_of[c] == ace else p for c, p in enumerate(rules.points))
    return replace(rules, points=pts)


def _asks(rules: Rules, rule_field: str, rule_id: str, **changes: Any) -> Rules:
    asks = tuple(replace(a, **changes) if getattr(a, rule_field) == rule_id else a
                 for a in rules.asks)
    return replace(rules, asks=asks)


def _exchange_two(rules: Rules) -> Rules:
    if rules.exchange_rule != "mariazza.exchange":
        return rules
    return replace(rules, exchange_rank=rules.ranks.index("2"))


# --------------------------------------------------------------- state overrides
class _TrumpAtStart(GameState):
    """The trick goes by the trump in force when the trick was led."""

    def _start_trick(self, leader: int) -> None:
        super()._start_trick(leader)
        self.trump0 = self.trump

    def current_winner(self) -> int:
        saved = self.trump
        self.trump = getattr(self, "trump0", saved)
        try:
            return super().current_winner()
        finally:
            self.trump = saved


class _LeaderDrawsFirst(GameState):
    """After a trick, drawing starts with the trick's leader instead of its winner."""

    def _finish_trick(self) -> None:
        n = self.rules.nseats
        if self.stock and len(self.stock) >= n:
            w = self.trick_seats[self.current_winner()]
            lead = self.leader
            top = self.stock[-n:][::-1]  # top[j] goes to seat (w + j) % n
            new = [top[(w + j - lead) % n] for j in range(n)]
            self.stock[-n:] = new[::-1]
        super()._finish_trick()


class _DealerLeads(GameState):
    """The dealer leads to the first trick instead of the player after him."""

    def deal(self, deck: Any, first_player: int | None = None) -> None:
        super().deal(deck, first_player)
        if self.dealer is not None and self.phase in (Phase.PLAY, Phase.WINDOW):
            self.leader = self.dealer
            self.to_act = self.dealer


class _DeclareAgain(GameState):
    """A declared suit is not remembered: the same marriage can be declared again."""

    def _declare(self, seat: int, d: Declaration, suit: int, make_trump: bool) -> None:
        super()._declare(seat, d, suit, make_trump)
        if d.same_suit:
            self.used_suit[d.index][seat] &= ~(1 << suit)


class _KingAlone(GameState):
    """A king alone (without its queen) is accepted as a marriage."""

    def _melds(self, d: Declaration, seat: int, hand: int) -> list[int]:
        out = super()._melds(d, seat, hand)
        if not d.same_suit:
            return out
        king = self.rules.ranks.index("K")
        used = 0
        for u in self.used_suit[d.index]:
            used |= u
        for s in range(len(self.rules.suits)):
            k = self.rules.card_index_of(s, king)
            if hand >> k & 1 and s not in out and not used >> s & 1:
                out.append(s)
        return sorted(out)

    def _pattern_held(self, d: Declaration, hand: int, suit: int) -> bool:
        return True


class _FailedAskKeepsRight(GameState):
    """A partner's 'no' gives the asker his declaration right back."""

    def _apply_answer(self, seat: int, action: Answer) -> None:
        pending = self.pending_ask
        super()._apply_answer(seat, action)
        if pending is not None and not action.yes:
            self.decl_this_trick[pending[1]] -= 1


class _SplitScoresAnyway(GameState):
    """A split marriage scores even when the other side wins its trick."""

    def _finish_trick(self) -> None:
        if self.split is not None:
            ask, _team, suit = self.split
            w = self.trick_seats[self.current_winner()]
            self.split = (ask, self.rules.team_of[w], suit)
        super()._finish_trick()


class _YesWithoutCard(GameState):
    """A partner may say yes to a cover ask without holding the other card."""

    def _answers(self, seat: int) -> list[Action]:
        out = super()._answers(seat)
        if Answer(True) not in out and self.pending_ask is not None \
                and self.rules.asks[self.pending_ask[0]].kind == "half":
            out.insert(0, Answer(True))
        return out

    def _apply_answer(self, seat: int, action: Answer) -> None:
        if action.yes and action not in super()._answers(seat):
            self.pending_ask = None
            self.phase = Phase.PLAY
            self.to_act = self.leader
            return
        super()._apply_answer(seat, action)


class _ClaimWithoutHand(GameState):
    """A call-out counts only the running total, not this hand's points."""

    def _call_out(self, seat: int) -> None:
        saved = self.captured[:], self.decl_points[:]
        self.captured = [0] * len(self.captured)
        self.decl_points = [0] * len(self.decl_points)
        team = self.rules.team_of[seat]
        right = self.match_scores[team] >= self.rules.match_target
        self.captured, self.decl_points = saved
        if right:
            super()._call_out(seat)
        else:
            self._end_hand("call_out_failed", zero_team=team)


class _TurnUpDrawnFirst(GameState):
    """The turned-up card is put on top of the stock instead of under it."""

    def deal(self, deck: Any, first_player: int | None = None) -> None:
        super().deal(deck, first_player)
        if self.rules.turn_up == "under_stock" and self.stock:
            self.stock.append(self.stock.pop(0))


class _DealerBackwards(GameState):
    """The deal passes to the previous seat instead of the next."""

    def _rotate_dealer(self) -> None:
        if self.dealer is not None and self.next_dealer is None:
            self.dealer = (self.dealer - 1) % self.rules.nseats
            return
        super()._rotate_dealer()


class _SeatIgnored(GameState):
    """Whoever the action is sent for, it is taken as the seat to act's."""

    def apply(self, action: Action, seat: int | None = None) -> None:
        super().apply(action, None if not isinstance(action, CallOut) else seat)


class _AnyCardPlays(GameState):
    """A card that is not in the hand is taken as if it were."""

    def _apply_play(self, seat: int, action: Any) -> None:
        if 0 <= action.card < self.rules.ncards:
            holder = [s for s in range(self.rules.nseats) if self.hands[s] >> action.card & 1]
            if seat not in holder:
                self.hands[seat] |= 1 << action.card
                for s in holder:
                    self.hands[s] &= ~(1 << action.card)
                self.forced[seat] = -1
                self.trick_seats.append(seat)
                self.trick_cards.append(action.card)
                self.hands[seat] ^= 1 << action.card
                if len(self.trick_cards) < self.rules.nseats:
                    self.to_act = (seat + 1) % self.rules.nseats
                else:
                    self._finish_trick()
                return
        super()._apply_play(seat, action)


class _PlaysAfterEnd(GameState):
    """Actions after the end of the match are silently accepted."""

    def apply(self, action: Action, seat: int | None = None) -> None:
        if self.phase == Phase.OVER:
            return
        super().apply(action, seat)


def _mariannino_ordered(r: Rules) -> Rules:
    return _decls(r, "rule", "marianna.decl.mariannino", ordered=True)


# ------------------------------------------------------------------ the faults
_fault("trump-at-start", "marianna.trick.winner", "marianna",
       "the trick is judged by the trump in force when it was led, so a marianna declared "
       "during the trick does not count for it", state_class=_TrumpAtStart)
_fault("marianna-values-shifted", "marianna.decl.value", "marianna",
       "marianna values one step off: the first scores 60, the second 80...",
       lambda r: _decls(r, "value_rule", "marianna.decl.value", schedule=(60, 80, 100, 100)))
_fault("leader-draws-first", "marianna.draw", "marianna",
       "after a trick the leader draws first instead of the winner",
       state_class=_LeaderDrawsFirst)
_fault("declare-after-stock", "marianna.decl.window", "marianna",
       "declarations still allowed once the stock is exhausted",
       lambda r: _when(r, "marianna.decl.window", decl_window="hand"))
_fault("dealer-leads", "marianna.lead.first", "marianna",
       "the dealer leads to the first trick instead of the player on his right",
       state_class=_DealerLeads)
_fault("marianna-again", "marianna.decl.once", "marianna",
       "the same suit's marianna may be declared twice in a hand", state_class=_DeclareAgain)
_fault("two-declarations-per-trick", "marianna.decl.per-trick", "marianna",
       "a player may declare twice in one trick",
       lambda r: _when(r, "marianna.decl.per-trick", decl_per_trick=2))
_fault("king-alone", "marianna.decl.marianna", "marianna",
       "a king without its queen is accepted as a marianna", state_class=_KingAlone)
_fault("mariannino-in-order", "marianna.decl.mariannino", "marianna",
       "a mariannino counts as a marianna in the order of values", _mariannino_ordered)
_fault("mariannone-no-win", "marianna.decl.mariannone.value", "marianna",
       "a mariannone scores 500 but does not win the match",
       lambda r: _decls(r, "value_rule", "marianna.decl.mariannone.value", wins_match=False))
_fault("target-exceeded", "marianna.match.end", "marianna",
       "the match ends only when a team goes past the target, not when it reaches it",
       lambda r: _when(r, "marianna.match.end", match_target=r.match_target + 1))
_fault("deal-one-by-one", "marianna.deal", "marianna",
       "cards are dealt one at a time instead of in packets of five",
       lambda r: _when(r, "marianna.deal", packet=1))
_fault("ace-counts-ten", "marianna.pack", "marianna", "aces count 10 instead of 11", _points)
_fault("dealer-backwards", "marianna.deal.rotation", "marianna",
       "the deal passes to the previous seat instead of the next", state_class=_DealerBackwards)
_fault("cinquecento-trump-changes", "cinquecento.decl.trump", "cinquecento",
       "in Cinquecento every marianna changes trump, as in Marianna",
       lambda r: _decls(r, "trump_rule", "cinquecento.decl.trump", trump_effect="set"))
_fault("cinquecento-marianna-values", "cinquecento.decl.value", "cinquecento",
       "Cinquecento mariannas valued 40-60-80-100 as in Marianna",
       lambda r: _decls(r, "value_rule", "cinquecento.decl.value", schedule=(40, 60, 80, 100)))
_fault("cover-with-trump", "siciliana.ask.cover", "marianna-siciliana",
       "the cover ask is allowed after trump is set",
       lambda r: _asks(r, "rule", "siciliana.ask.cover", needs_no_trump=False))
_fault("cover-scores-when-lost", "siciliana.ask.cover-play", "marianna-siciliana",
       "a split marriage scores whoever wins its trick", state_class=_SplitScoresAnyway)
_fault("cover-yes-without-card", "siciliana.ask.answer", "marianna-siciliana",
       "the partner may answer yes to a cover ask without the other card",
       state_class=_YesWithoutCard)
_fault("mariglia-no-overtrump", "mariglia.play.overtrump", "mariglia",
       "no duty to trump (or overtrump) when void and an opponent is winning",
       lambda r: _obligations(r, "void_rule", "mariglia.play.overtrump", void_duty="none"))
_fault("mariglia-trump-partner", "mariglia.play.overtrump", "mariglia",
       "a void player must trump even when his partner is winning",
       lambda r: _obligations(r, "void_rule", "mariglia.play.overtrump", void_when=When.ALWAYS))
_fault("mariglia-head-always", "mariglia.play.head", "mariglia",
       "a follower must beat the trick even when his partner is winning it",
       lambda r: _obligations(r, "head_rule", "mariglia.play.head", head=When.ALWAYS))
_fault("mariglia-no-follow", "mariglia.play.follow", "mariglia",
       "no duty to follow suit",
       lambda r: _obligations(r, "follow_rule", "mariglia.play.follow", follow=False))
_fault("mariglia-no-turn-up-bonus", "mariglia.score.turn-up", "mariglia",
       "the turned-up card's points are not scored for the dealer's team",
       lambda r: _when(r, "mariglia.score.turn-up", turn_up_bonus=False))
_fault("mariglia-no-trick-points", "mariglia.score.hand", "mariglia",
       "tricks are not worth a point each in the hand total",
       lambda r: _when(r, "mariglia.score.hand", trick_point=0))
_fault("last-five-no-follow", "mariaggia.play.last-five.follow", "mariaggia",
       "no duty to follow suit in the last five tricks",
       lambda r: _obligations(r, "follow_rule", "mariaggia.play.last-five.follow", "no_stock",
                              follow=False))
_fault("last-five-no-beat", "mariaggia.play.last-five.beat", "mariaggia",
       "no duty to beat the card led in the last five tricks",
       lambda r: _obligations(r, "head_rule", "mariaggia.play.last-five.beat", "no_stock",
                              head=When.NEVER))
_fault("last-five-no-trump", "mariaggia.play.last-five.trump", "mariaggia",
       "no duty to trump when void in the last five tricks",
       lambda r: _obligations(r, "void_rule", "mariaggia.play.last-five.trump", "no_stock",
                              void_duty="none"))
_fault("duties-from-start", "mariaggia.play.free", "mariaggia",
       "the last-five duties applied from the first trick",
       lambda r: _when(r, "mariaggia.play.free", obligation_stock=r.obligation_no_stock))
_fault("claim-without-hand", "mariaggia.call-out", "mariaggia",
       "a call-out counts only the running total, not the points of the hand in progress",
       state_class=_ClaimWithoutHand)
_fault("wrong-claim-loses-match", "mariaggia.call-out.penalty", "mariaggia",
       "a wrong call-out loses the match instead of the hand",
       lambda r: _when(r, "mariaggia.call-out.penalty", call_out_penalty="lose_match"))
_fault("accusa-by-follower", "mariaggia.decl.who", "mariaggia",
       "the second player may declare an accusa",
       lambda r: _when(r, "mariaggia.decl.who", decl_who="on_turn"))
_fault("turn-up-drawn-first", "mariaggia.draw", "mariaggia",
       "the turned-up card is drawn first instead of last", state_class=_TurnUpDrawnFirst)
_fault("mariazza-held-at-once", "mariazza.decl.held", "mariazza",
       "a second player's mariazza is credited at once instead of when he next leads",
       lambda r: _decls(r, "rule", "mariazza.decl.mariazza", credit="immediate"))
_fault("sixty-segno", "mariazza.score.sixty", "mariazza",
       "a top score of exactly 60 still takes the segno",
       lambda r: _when(r, "mariazza.score.sixty", segno_void_top=None))
_fault("mariazza-exchange-two", "mariazza.exchange", "mariazza",
       "the two of trump is exchanged for the face-up card instead of the seven",
       _exchange_two)
_fault("mariazza-no-hand-target", "mariazza.hand.target", "mariazza",
       "the hand is played out instead of ending the moment a player reaches 41",
       lambda r: _when(r, "mariazza.hand.target", hand_target=None))
_fault("mariazza-trump-20", "mariazza.decl.value", "mariazza",
       "a mariazza in trump scores 20 like the others",
       lambda r: _decls(r, "value_rule", "mariazza.decl.value", if_trump_suit=None))
_fault("partner-may-lie", "marjapussi.ask.answer", "marjapussi",
       "a partner asked for a marriage may say no while holding one",
       lambda r: _asks(r, "answer_rule", "marjapussi.ask.answer", answer="may_refuse"))
_fault("failed-ask-keeps-right", "marjapussi.decl.per-trick", "marjapussi",
       "after a partner's 'no' the trick winner may still declare or ask",
       state_class=_FailedAskKeepsRight)
_fault("leader-declares-first-trick", "marjapussi.decl.who", "marjapussi",
       "the first leader of a hand may declare before any trick is won",
       lambda r: _asks(_when(r, "marjapussi.decl.who", decl_who="leader"), "rule",
                       "marjapussi.ask.any", who="leader"))
_fault("marjapussi-no-trump-duty", "marjapussi.play.trump", "marjapussi",
       "a player void in the suit led need not trump",
       lambda r: _obligations(r, "void_rule", "marjapussi.play.trump", void_duty="none"))
_fault("no-last-trick-point", "marjapussi.score.last-trick", "marjapussi",
       "no game point for the last trick",
       lambda r: _when(r, "marjapussi.score.last-trick", table_last_trick=0))
_fault("threshold-of-other-system", "marjapussi.score.threshold", "marjapussi",
       "the threshold point at 61 card points (the original system's) under simplified points",
       lambda r: _when(r, "marjapussi.score.threshold", table_threshold=61)
       if r.table_threshold == 75 else r)
_fault("majority-merged", "marjapussi.score.majority", "marjapussi",
       "the majority point is not scored separately from the threshold point",
       lambda r: _when(r, "marjapussi.score.majority", table_majority_mode="merged"))
_fault("trump-marriage-one-point", "marjapussi.decl.value", "marjapussi",
       "the marriage that makes trump is worth 1 game point like the others",
       lambda r: _decls(r, "value_rule", "marjapussi.decl.value", if_makes_trump=None))
_fault("wrong-seat-accepted", "core.turn", "marianna",
       "an action sent for a seat that is not to act is taken for the seat to act",
       state_class=_SeatIgnored)
_fault("card-not-in-hand", "core.hand", "marianna",
       "a card that is not in the player's hand is accepted", state_class=_AnyCardPlays)
_fault("play-after-end", "core.over", "marianna",
       "actions after the end of the match are accepted and ignored",
       state_class=_PlaysAfterEnd)


def main(argv: list[str] | None = None) -> int:
    """``python -m mariage.conformance.faulty NAME``: serve that faulty engine."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] not in FAULTS:
        for f in FAULTS.values():
            print(f"{f.name:30} {f.rule:34} {f.description}")
        return 0 if not args else 2
    return serve(FaultyEngine(FAULTS[args[0]]), sys.stdin, sys.stdout)


if __name__ == "__main__":
    raise SystemExit(main())
