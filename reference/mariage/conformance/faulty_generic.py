"""Faulty engines for any ruleset: one rule broken each, whatever the ruleset calls it.

The faults of :mod:`~mariage.conformance.faulty_core` and its siblings each
name the rule of one ruleset. The faults here are made for the rules at hand
(:func:`generic_faults`): the same mistake (no duty to follow suit, the
dealer dealing again, the deck dealt from the bottom...) broken in whichever
rule ID the compiled rules give that duty, so that every ruleset and every
configuration has a faulty engine for each such rule. They are the reference
engine with one hook changed, like the others.

>>> from mariage import load_rules
>>> names = [f.name for f in generic_faults(load_rules("schnapsen"))]
>>> "no-follow@schnapsen.play.follow" in names, "same-dealer@schnapsen.deal.rotation" in names
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from mariage.engine.actions import Action
from mariage.engine.mechanisms import Dealing, MatchEnd, Scoring, TrickPlay
from mariage.engine.rules import Obligation, Rules, When
from mariage.engine.state import GameState, Phase

from .faultkit import Fault, RulesPatch, _decls, _m, _no_cutoff, _obligations_patch
from .faulty_core import _DeclareAgain, _KingAlone

__all__ = ["generic_faults"]


class _DeckFromBottom(Dealing):
    """The deck is dealt from the bottom (the last card first)."""

    def deal(self, st: GameState, deck: Sequence[int] | Sequence[str],
             first_player: int | None = None) -> None:
        cards: list[Any] = list(deck)
        super().deal(st, cards[::-1], first_player)


class _SameDealer(Dealing):
    """The dealer of a hand deals the next one too."""

    def rotate_dealer(self, st: GameState) -> None:
        dealer = st.dealer
        super().rotate_dealer(st)
        if dealer is not None:
            st.dealer = dealer


class _DealerLeadsAny(Dealing):
    """The dealer leads to the first trick of a hand."""

    def deal(self, st: GameState, deck: Any, first_player: int | None = None) -> None:
        super().deal(st, deck, first_player)
        if st.dealer is not None and st.phase == Phase.PLAY and not st.trick_cards:
            st.leader = st.dealer
            st.to_act = st.dealer


class _LeaderKeepsTrick(TrickPlay):
    """Each trick goes to its leader, whatever is played to it."""

    def winner_index(self, st: GameState) -> int:
        return 0


class _WinnerDrawsSecond(TrickPlay):
    """After a trick, drawing starts with the seat after the trick's winner."""

    def draw(self, st: GameState, winner: int) -> None:
        super().draw(st, (winner + 1) % st.rules.nseats)


class _FirstSideScoresOneMore(Scoring):
    """The first side is credited one point more than it made in each hand."""

    def hand_score(self, st: GameState, how: str) -> tuple[list[int], int | None]:
        added, winner = super().hand_score(st, how)
        added = list(added)
        added[0] += 1
        return added, winner


class _MatchNeverEnds(MatchEnd):
    """The match goes on whatever the scores (it ends only by resignation)."""

    def check(self, st: GameState, after_hand: bool, reason: str) -> None:
        return None


class _LastTwoPlacesSwapped(MatchEnd):
    """Where the others play on for the places, the last two places are given the
    other way round (the loser is placed before the one who beat him)."""

    def check_places(self, st: GameState, after_hand: bool, reason: str) -> None:
        super().check_places(st, after_hand, reason)
        placed = st.placed
        if st.phase == Phase.OVER and len(placed) >= 3:
            st.placed = (*placed[:-2], placed[-1], placed[-2])


class _ResignerWins(MatchEnd):
    """A resignation gives the match to the side that resigns."""

    def resign(self, st: GameState, seat: int) -> None:
        if st.phase != Phase.OVER and 0 <= seat < st.rules.nseats:
            self.finish(st, st.rules.team_of[seat], "resign")
            return
        super().resign(st, seat)


class _ActsBetweenHands(GameState):
    """An action between two hands (before the next deal) is taken and ignored."""

    def apply(self, action: Action, seat: int | None = None) -> None:
        if self.phase == Phase.DEAL:
            return
        super().apply(action, seat)


def _plus_ten(rule: str) -> RulesPatch:
    """A patch: the declarations valued by ``rule`` score 10 more."""
    def patch(x: Rules) -> Rules:
        return _decls(x, "value_rule", rule, schedule=tuple(v + 10 for v in _sched(x, rule)),
                      fixed=_fixed(x, rule) + 10)
    return patch


def _obligation_rules(rules: Rules) -> list[Obligation]:
    return [ob for ob in (rules.obligation_stock, rules.obligation_no_stock) if ob is not None]


def _duty_faults(rules: Rules) -> list[Fault]:
    out: dict[str, Fault] = {}
    for ob in _obligation_rules(rules):
        if ob.follow and ob.follow_rule:
            r = ob.follow_rule
            out.setdefault(f"no-follow@{r}", Fault(
                f"no-follow@{r}", r, (rules.ruleset,), "no duty to follow suit",
                _obligations_patch("follow_rule", r, follow=False)))
        if ob.head is not When.NEVER and ob.head_rule:
            r = ob.head_rule
            out.setdefault(f"no-head@{r}", Fault(
                f"no-head@{r}", r, (rules.ruleset,), "no duty to beat the best card",
                _obligations_patch("head_rule", r, head=When.NEVER)))
        if ob.void_duty != "none" and ob.void_rule:
            r = ob.void_rule
            out.setdefault(f"no-trump-duty@{r}", Fault(
                f"no-trump-duty@{r}", r, (rules.ruleset,), "no duty to trump when void",
                _obligations_patch("void_rule", r, void_duty="none")))
        if not ob.follow and ob.free_rule:
            r = ob.free_rule
            out.setdefault(f"follow-when-free@{r}", Fault(
                f"follow-when-free@{r}", r, (rules.ruleset,),
                "a duty to follow suit where play is free",
                _obligations_patch("free_rule", r, follow=True, follow_rule=r)))
    return list(out.values())


def _flip(value: str, one: str, other: str) -> str:
    return other if value == one else one


def _decl_kind_faults(rules: Rules) -> list[Fault]:
    """Per declaration: declared again, a king alone, its trump effect, its lead duty and
    its credit changed."""
    one = (rules.ruleset,)
    out: dict[str, Fault] = {}

    def add(rule: str | None, name: str, description: str, **how: Any) -> None:
        if rule and rule in rules.rule_ids and f"{name}@{rule}" not in out:
            out[f"{name}@{rule}"] = Fault(f"{name}@{rule}", rule, one, description, **how)

    king = rules.ranks.index("K") if "K" in rules.ranks else -1
    for d in rules.declarations:
        if d.same_suit:
            add(d.once_rule, "declared-again", f"the same {d.name} may be declared again",
                mechanisms=_m(declarations=_DeclareAgain()))
            if king in d.pattern_ranks:
                add(d.rule, "king-alone", f"a king alone is accepted as a {d.name}",
                    mechanisms=_m(declarations=_KingAlone()))
        add(d.trump_rule, "trump-effect", f"a {d.name} changes trump otherwise",
            patch=lambda x, r=d.trump_rule: _decls(
                x, "trump_rule", r, trump_effect="none" if _effect(x, r) != "none"
                else "set"))
        if d.lead_masks:
            add(d.lead_rule, "lead-free", f"after a {d.name} any card may be led",
                patch=lambda x, r=d.lead_rule: _decls(x, "lead_rule", r, lead_masks=()))
        if d.credit_rule:
            add(d.credit_rule, "credit-changed", f"a {d.name} is credited at another time",
                patch=lambda x, r=d.credit_rule: _decls(
                    x, "credit_rule", r, credit=_flip(_credit(x, r), "immediate",
                                                      "with_trick")))
    if rules.decl_who_rule:
        add(rules.decl_who_rule, "other-declarer", "another player may declare",
            patch=lambda x: replace(x, decl_who=_flip(x.decl_who, "on_turn", "leader")))
    if rules.decl_window_rule:
        add(rules.decl_window_rule, "no-window", "declarations allowed after the window",
            patch=lambda x: _no_cutoff(x, x.decl_window_rule or ""))
    if rules.exchange_rule and rules.exchange_rank is not None:
        add(rules.exchange_rule, "other-rank-exchanged",
            "another rank of trump is exchanged for the turned-up card",
            patch=lambda x: replace(x, exchange_rank=(x.exchange_rank or 0) + 1
                                    if (x.exchange_rank or 0) + 1 < len(x.ranks) else 0))
    return list(out.values())


def _effect(rules: Rules, rule: str) -> str:
    return next(d.trump_effect for d in rules.declarations if d.trump_rule == rule)


def _credit(rules: Rules, rule: str) -> str:
    return next(str(d.credit) for d in rules.declarations if d.credit_rule == rule)


def _decl_faults(rules: Rules) -> list[Fault]:
    out: list[Fault] = _decl_kind_faults(rules)
    for d in rules.declarations:
        if d.value_rule and (d.schedule or d.fixed):
            r = d.value_rule
            out.append(Fault(
                f"value-plus-ten@{r}", r, (rules.ruleset,),
                f"a {d.name} scores 10 more than it should",
                _plus_ten(r)))
    if rules.decl_per_trick_rule:
        r = rules.decl_per_trick_rule
        out.append(Fault(f"two-per-trick@{r}", r, (rules.ruleset,),
                         "two declarations in one trick",
                         lambda x: replace(x, decl_per_trick=x.decl_per_trick + 1)))
    return out


def _sched(rules: Rules, rule: str) -> tuple[int, ...]:
    return next(d.schedule for d in rules.declarations if d.value_rule == rule)


def _fixed(rules: Rules, rule: str) -> int:
    return next(d.fixed for d in rules.declarations if d.value_rule == rule)


def _pack_fault(rules: Rules) -> list[Fault]:
    if not rules.pack_rule or not any(rules.points):
        return []
    top = max(rules.points)

    def patch(x: Rules) -> Rules:
        return replace(x, points=tuple(p - 1 if p == top else p for p in x.points))
    return [Fault(f"top-card-one-less@{rules.pack_rule}", rules.pack_rule, (rules.ruleset,),
                  "the cards of the highest value count one point less", patch)]


def generic_faults(rules: Rules) -> list[Fault]:
    """The generic faulty engines for ``rules``: each names the rule ID these rules give
    to what it breaks (faults for rules these rules lack are left out)."""
    one = (rules.ruleset,)
    out: list[Fault] = []

    def add(rule: str | None, name: str, description: str, **how: Any) -> None:
        if rule:
            out.append(Fault(f"{name}@{rule}", rule, one, description, **how))

    add(rules.deal_rule, "deck-from-bottom", "the deck is dealt from the bottom",
        mechanisms=_m(dealing=_DeckFromBottom()))
    add(rules.rotation_rule, "same-dealer", "the dealer of a hand deals the next one too",
        mechanisms=_m(dealing=_SameDealer()))
    add(rules.first_lead_rule, "dealer-leads", "the dealer leads to the first trick",
        mechanisms=_m(dealing=_DealerLeadsAny()))
    add(rules.trick_rule, "leader-keeps-trick", "each trick goes to its leader",
        mechanisms=_m(tricks=_LeaderKeepsTrick()))
    add(rules.draw_rule, "winner-draws-second",
        "after a trick the seat after the winner draws first",
        mechanisms=_m(tricks=_WinnerDrawsSecond()))
    add(rules.score_rule, "first-side-plus-one", "the first side scores one more per hand",
        mechanisms=_m(scoring=_FirstSideScoresOneMore()))
    add(rules.match_rule, "match-never-ends", "the match never ends on the scores",
        mechanisms=_m(match_end=_MatchNeverEnds()))
    add(rules.places_rule, "last-two-places-swapped",
        "the last two places are given the other way round",
        mechanisms=_m(match_end=_LastTwoPlacesSwapped()))
    add("core.resign" if "core.resign" in rules.rule_ids else None, "resigner-wins",
        "a resignation gives the match to the side that resigns",
        mechanisms=_m(match_end=_ResignerWins()))
    add(rules.core_phase, "acts-between-hands",
        "an action between two hands is taken and ignored", state_class=_ActsBetweenHands)
    out.extend(_duty_faults(rules))
    out.extend(_decl_faults(rules))
    out.extend(_pack_fault(rules))
    return out
