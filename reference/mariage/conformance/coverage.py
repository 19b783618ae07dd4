"""Which tests check which rule: every rule ID of every ruleset needs a focused test.

Golden matches and perft counts name every rule they touch, so they do not
count here: a rule is covered by a scenario or option test of that ruleset
naming it.

>>> from mariage.conformance.suite import Test
>>> t = Test("marianna/x", "d", "scenario", "marianna", ("core.hand",))
>>> coverage([t])["marianna core.hand"]
['marianna/x']
>>> coverage([t])["marianna core.turn"]
[]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mariage.engine.arguments import check_rules
from mariage.spec.rulesload import load_rules
from mariage.spec.specload import list_rulesets

from ..errors import expect_each, expect_str
from .results import Outcome
from .suite import Test
from .unreachable import more_unreachable

if TYPE_CHECKING:
    from mariage.engine.rules import Rules

__all__ = ["FOCUSED", "UNREACHABLE", "RuleCoverage", "coverage", "coverage_text",
           "rule_coverage", "run_coverage", "unreachable_under"]

#: Rules no match can ever exercise, with the reason. They are reported, not tested.
#: Keyed by rule ID alone where the reason holds in every ruleset that has the rule.
_UNREACHABLE_RULES = {
    "thousand.ace-marriage.once": (
        "the ace marriage is declared by leading one of the four aces, so they are never all "
        "held again in that hand: its once-a-hand limit can never refuse a declaration"),
}


class _Unreachable(Mapping[str, str]):
    """:data:`UNREACHABLE`, worked out on first use: a rule keyed by its ID alone is
    looked up in every bundled ruleset's compiled rules (22 compiled at the import of
    this module, which ``derive`` imports: 1.8 CPU-s cold in each command)."""

    def __init__(self) -> None:
        self._made: dict[str, str] | None = None

    def _items(self) -> dict[str, str]:
        if self._made is None:
            self._made = {
                "mariglia mariglia.match.tie": (
                    "only one team scores in a hand (the excess over 35) and the turn-up "
                    "bonus ends the match at once when it reaches the target, so two teams "
                    "can never stand level at or over the target"),
                **{f"{ruleset} {rule}": why for ruleset in list_rulesets()
                   for rule, why in _UNREACHABLE_RULES.items()
                   if rule in load_rules(ruleset).rule_ids}}
        return self._made

    def __getitem__(self, key: str) -> str:
        return self._items()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items())

    def __len__(self) -> int:
        return len(self._items())

    def __repr__(self) -> str:
        return repr(self._items())


#: Rules no match can ever exercise, with the reason, by ``"RULESET RULE-ID"``.
UNREACHABLE: Mapping[str, str] = _Unreachable()


def unreachable_under(rules: Rules) -> dict[str, str]:
    """The rules no protocol test can check under these rules (a configuration), with the
    reason: those of :data:`UNREACHABLE`, and those the options make unreachable.

    * the rule on the **first dealer** where it is drawn by lot (``deal.first_dealer:
      lot``): the protocol's ``start`` names the dealer the draw gave, so what an engine
      does with the draw can never be seen;
    * the rule on a hand **played out with nobody at the target** (``scoring.unfinished``)
      where the sides cannot all stay below the target once every card is taken (the
      target times the sides, less one each, is below the pack's card points: Mariazza's
      41 of 120 with two players; 71 leaves it reachable);
    * a **throw-in** on a hand or talon worth fewer card points than a threshold set to 0
      (never: Thousand's defaults);
    * the card points **left over** to the last trick where no card goes out of play
      (Thousand with three players: no packet of the talon is left, none laid away).
    * the **once-a-suit** limit of a declaration made by leading one of its cards, where
      one declaration a lead is allowed (Schnapsen's and Thousand's marriages: a second
      try on the same lead is refused by that rule first, and later the cards are never
      all held again);
    * which totals decide the match, the **written or the exact** ones, where scores
      are written without rounding (Coinche's ``rounding=none``), or where the match
      ends at its first hand scored, whose two lines stand at least 10 apart
      (Coinche's ``target=1``);
    * the limit of **one declaration a trick** where declarations are made only in the
      window at a trick's start (Marianna's ``declare_when=trick_start``), and no ask
      uses a declaration up;
    * a side at the target with **only its pair of trumps** that has not won yet, where
      the target is so low that the other side, writing at least the failed contract's
      points or the pack's in such a hand, reaches it ahead (Belote's ``target=1``);
    * the talon's points to the seat **sitting out** where nobody sits out (Polish
      Thousand with three players);
    * what follows a **close** of the talon (its effect, the snapshot, the reply, the
      closer's rows of the score) where a close needs more cards than the talon ever
      holds (Schnapsen's ``close_min_talon=11`` in a talon of 10; the close itself is
      still checked: it is refused).

    >>> from mariage import load_rules
    >>> sorted(unreachable_under(load_rules("mariazza")))
    ['mariazza.match.tie', 'mariazza.score.unfinished']
    >>> sorted(unreachable_under(load_rules("mariazza", {"target": 71})))
    ['mariazza.match.tie']
    >>> sorted(unreachable_under(load_rules("belote")))
    ['belote.deal.first-dealer']
    >>> unreachable_under(load_rules("belote", {"first_dealer": "seat2"}))
    {}
    >>> sorted(unreachable_under(load_rules("thousand")))  # doctest: +NORMALIZE_WHITESPACE
    ['thousand.ace-marriage.once', 'thousand.marriage.once', 'thousand.score.leftover',
     'thousand.throw-in.low-hand', 'thousand.throw-in.weak-talon']
    >>> sorted(unreachable_under(load_rules("thousand-2", {"redeal_low_hand": 15})))
    ['thousand.ace-marriage.once', 'thousand.marriage.once', 'thousand.throw-in.weak-talon']
    >>> sorted(unreachable_under(load_rules("thousand", {"redeal_low_hand": 6})))
    ... # doctest: +NORMALIZE_WHITESPACE
    ['thousand.ace-marriage.once', 'thousand.marriage.once', 'thousand.score.leftover',
     'thousand.throw-in.low-hand', 'thousand.throw-in.weak-talon']
    >>> sorted(unreachable_under(load_rules("marianna", {"declare_when": "trick_start"})))
    ['marianna.decl.mariannone.once', 'marianna.decl.per-trick']
    >>> sorted(unreachable_under(load_rules("belote", {"target": 1})))
    ['belote.deal.first-dealer', 'belote.match.belote-alone']
    >>> sorted(unreachable_under(load_rules("belote-coinche", {"rounding": "none"})))
    ['belote-coinche.match.rounded-totals', 'belote.deal.first-dealer']
    >>> sorted(unreachable_under(load_rules("schnapsen", {"close_min_talon": 11})))
    ... # doctest: +NORMALIZE_WHITESPACE
    ['schnapsen.close.effect', 'schnapsen.close.snapshot', 'schnapsen.decl.once',
     'schnapsen.score.beaten-closer', 'schnapsen.score.closer', 'schnapsen.score.failed-close']
    >>> sorted(unreachable_under(load_rules("schnapsen", {"close_min_talon": 10})))
    ['schnapsen.decl.once']
    """
    check_rules(rules, "unreachable_under")
    name = rules.ruleset.rsplit("/", 1)[-1].removesuffix(".yaml")
    out = {r: UNREACHABLE[f"{name} {r}"] for r in rules.rule_ids
           if f"{name} {r}" in UNREACHABLE}
    if rules.first_dealer_rule and rules.first_dealer == "lot":
        out[rules.first_dealer_rule] = (
            "the first dealer is drawn by lot, and the protocol's start names the dealer "
            "the draw gave: what an engine does with the draw can never be seen")
    sides = len(rules.teams)
    if rules.segno_unfinished_rule and rules.hand_target is not None and \
            sides * (rules.hand_target - 1) < rules.pack_points:
        out[rules.segno_unfinished_rule] = (
            f"a hand ends as soon as a side reaches {rules.hand_target} and the pack holds "
            f"{rules.pack_points} card points: with {sides} sides one always reaches it "
            "before the cards are played out")
    for rule, below, what, size in (
            (rules.throw_low_rule, rules.throw_low_below, "hand", rules.hand_size),
            (rules.throw_talon_rule, rules.throw_talon_below, "talon", rules.stock_size)):
        least = sum(sorted(rules.points)[:size])  # the cheapest cards a deal could give
        if rule and below <= least:
            out[rule] = (f"its threshold is {below}: no {what} of {size} cards is worth fewer "
                         f"card points (the least is {least}), so the throw-in never arises "
                         "(one tried is refused by the rule on throwing in)")
    for d in rules.declarations:  # declared by leading one of its cards, once a suit
        if d.once_scope in ("suit", "suit_per_player") and d.same_suit and d.lead_masks \
                and d.lead_masks == d.suit_masks and rules.decl_per_trick == 1:
            out.setdefault(d.once_rule, (
                f"the {d.name} is declared by leading one of its cards, so they are never all "
                "held again in that hand, and a second try on the same lead is refused first "
                f"by the rule of one declaration a lead ({rules.decl_per_trick_rule}): its "
                "once-a-suit limit can never refuse a declaration"))
    if rules.round_game_rule and rules.round_mode == "none":
        out[rules.round_game_rule] = (
            "scores are written to the point, without rounding: the written totals are the "
            "totals before rounding, so which of them decides the match can never be seen")
    elif rules.round_game_rule and _one_hand_far_apart(rules):
        first = (f"the target ({rules.match_target}) is at most the lowest bid less 5: the "
                 "first hand scored ends the match (the winning side writes at least the bid, "
                 "a contract made its total and the bid too)") \
            if rules.match_target <= rules.sa_min - 5 else (
            "the match is one deal, and no line written to the point in it (at most "
            f"{most_exact_line(rules)}) comes within 5 of the target ({rules.match_target})")
        out[rules.round_game_rule] = (
            f"{first}, and in one hand the two sides' lines stand at least 10 apart, more "
            "than rounding to tens moves them: the written and the exact totals always judge "
            "the match alike")
    if rules.decl_per_trick_rule and rules.decl_who == "trick_start" and \
            not any(a.uses_declaration for a in rules.asks):
        out[rules.decl_per_trick_rule] = (
            "declarations are made only in the window at a trick's start, where each seat "
            "speaks once and a declaration ends its turn; in the play a declaration is "
            f"refused first by the rule on who declares ({rules.decl_who_rule}): a second "
            "declaration in one trick is never tried where this limit refuses it")
    least = _least_against_pair(rules)
    if rules.pair_alone_rule and rules.match_target + rules.pair_value <= least:
        out[rules.pair_alone_rule] = (
            f"a side writes only its pair of trumps ({rules.pair_value}) when it fails its "
            "contract or takes no trick, and the other side then writes at least "
            f"{least}, at or over the target of {rules.match_target} and ahead of it: the "
            "match ends with the other side's win, whether the pair alone may win or not")
    if rules.sitter_talon_rule and rules.sits_out == "none":
        out[rules.sitter_talon_rule] = (
            f"nobody sits a hand out with {rules.nseats} players: no seat out scores the "
            "talon")
    if rules.close_rule and rules.close_min_stock > rules.stock_size:
        why = (f"a close needs at least {rules.close_min_stock} cards in the talon, which "
               f"holds {rules.stock_size} at most: the talon is never closed")
        out.update((rule, why) for rule in (
            rules.close_effect_rule, rules.close_snapshot_rule, rules.close_reply_rule,
            rules.gp_closer_rule, rules.gp_beaten_rule, rules.gp_failed_rule) if rule)
    if rules.leftover_rule and rules.talon_out == 0 and rules.close_rule is None:
        out[rules.leftover_rule] = (
            "no card goes out of play here (no packet of the talon left, none laid away, "
            "no stock closed): there are no card points left over to give")
    for rule, why in more_unreachable(rules).items():  # the sixteenth session's arguments
        out.setdefault(rule, why)
    out.update(_never_thrown_in(rules))
    return out


def _never_thrown_in(rules: Rules) -> dict[str, str]:
    """The running totals' rule on a hand **thrown in** (not scored, dealt again) where no
    hand ever is: no claim to throw one in is open (four of a rank, a low hand, a weak
    talon, a talon of a rank: all off or at a threshold of 0), and a hand nobody bids is
    played or cannot be (someone must open, or holds the lowest bid).

    >>> from mariage import load_rules
    >>> _never_thrown_in(load_rules("thousand", {"four_nines_redeal": "off"}))
    ... # doctest: +ELLIPSIS
    {'thousand.running.redeal': 'no hand is ever thrown in: ...'}
    >>> _never_thrown_in(load_rules("thousand")), _never_thrown_in(load_rules(
    ...     "thousand-4", {"four_nines_redeal": "off", "opening_bid": "none"}))
    ({}, {})
    """
    claims = rules.throw_four or rules.throw_low_below > 0 or rules.throw_talon_below > 0 \
        or (rules.throw_talon_rank > 0 and rules.throw_talon_rank_rule)
    all_pass = rules.no_bid == "redeal" and rules.opening == "free"
    if not rules.redeal_rule or claims or all_pass:
        return {}
    return {rules.redeal_rule: (
        "no hand is ever thrown in: no claim to throw one in is open here (four of a rank, "
        "a low hand, a weak talon or a talon of a rank: all off or at a threshold of 0), "
        f"and the auction always has a bid (its opening is {rules.opening}): no hand is "
        "left unscored and dealt again")}


def _least_against_pair(rules: Rules) -> int:
    """The least a side writes in a hand where the other side writes only its pair of
    trumps (it failed its contract and keeps the pair, or took no trick): the points of
    a failed contract, or every card's points (the pack's at least), less what rounding
    may take off a written line.

    >>> from mariage import load_rules
    >>> _least_against_pair(load_rules("belote")), _least_against_pair(load_rules("belote-coinche"))
    (120, 115)
    """
    failed = rules.bid_failed_base if rules.sa_rule else rules.takers_failed_points
    return min(failed, rules.pack_points) - (5 if rules.round_mode != "none" else 0)


def _one_hand_far_apart(rules: Rules) -> bool:
    """Whether the match ends at the first hand scored and its two sides' lines stand at
    least 10 apart: a target at most the lowest bid less 5 (or a match of one deal whose
    lines written to the point never come within 5 of it), a contract made writing the
    takers' total and the bid (its takers more than the defenders), a lowest bid of 10 or
    more, a failed one writing at least 10 more than a pair of trumps kept.

    >>> from mariage import load_rules
    >>> _one_hand_far_apart(load_rules("belote-coinche", {"target": 1}))
    True
    >>> _one_hand_far_apart(load_rules("belote-coinche"))
    False
    >>> made_only = {"target": 1, "coinche_score_mode": "made_only"}
    >>> _one_hand_far_apart(load_rules("belote-coinche", made_only))
    False
    >>> _one_hand_far_apart(load_rules("belote-coinche", {"deal_limit": 1}))
    True
    >>> _one_hand_far_apart(load_rules("belote-coinche", {"deal_limit": 1, "target": 1500}))
    False
    """
    apart = bool(rules.sa_rule) and rules.bid_score_mode == "made_plus_bid" and \
        rules.sa_min >= 10 and rules.bid_failed_base >= rules.pair_value + 10
    one_deal = rules.match_max_hands == 1 and most_exact_line(rules) + 5 < rules.match_target
    return apart and (rules.match_target <= rules.sa_min - 5 or one_deal)


def most_exact_line(rules: Rules) -> int:
    """More than any line of one hand written to the point (rounding may move it: an
    undoubled contract's, card points in it; a doubled or failed one writes round
    figures): every card's points in the richest contract with a capot's last trick (or
    a capot's flat value), the highest bid (a générale too), every set of a rank in the
    pack, runs at their best value a card over the whole pack, and a pair of trumps in
    every suit (twenty-eighth session: Coinche's ``deal_limit=1``, a match of one deal).

    >>> from mariage import load_rules
    >>> most_exact_line(load_rules("belote-coinche"))
    1972
    """
    check_rules(rules, "most_exact_line")
    cards = max([sum(rules.points), *(sum(p) for p in rules.role_points)])
    cards = max(cards + max(rules.capot_value, rules.last_trick_bonus), rules.bid_capot_base)
    bid = max(rules.sa_max, rules.sa_capot_value, rules.sa_generale_value, rules.bid_max)
    sets = sum(sum(c.rank_values) for c in rules.combos if c.same_rank)
    per_card = max((c.value / c.length for c in rules.combos if not c.same_rank and c.length),
                   default=0)
    return cards + bid + sets + int(per_card * rules.ncards) + rules.pair_value * len(rules.suits)


def coverage(tests: Iterable[Test]) -> dict[str, list[str]]:
    """``"ruleset rule-id"`` -> IDs of the focused tests that check it, for every rule."""
    listed = expect_each(tests, Test, "coverage: tests")  # before every ruleset is compiled
    out: dict[str, list[str]] = {}
    for ruleset in list_rulesets():
        for rule in load_rules(ruleset).rule_ids:
            out[f"{ruleset} {rule}"] = []
    for t in listed:
        if t.kind not in ("scenario", "option"):
            continue
        for rule in t.rules:
            key = f"{t.ruleset} {rule}"
            if key in out:
                out[key].append(t.id)
    return out


def coverage_text(cov: dict[str, list[str]]) -> str:
    """The report: one line per rule, uncovered rules marked."""
    if not isinstance(cov, Mapping):  # else an AttributeError ('items')
        raise TypeError(f"coverage_text: cov is what coverage(tests) gives (a dict), "
                        f"not {type(cov).__name__}")
    lines = []
    for key, ids in cov.items():
        if not ids and key in UNREACHABLE:
            lines.append(f"{key}: unreachable: {UNREACHABLE[key]}")
            continue
        lines.append(f"{key}: {len(ids)} " + (", ".join(ids[:4]) + (" ..." if len(ids) > 4
                                                                    else "")
                                               if ids else "NOT COVERED"))
    missing = sum(1 for k, ids in cov.items() if not ids and k not in UNREACHABLE)
    lines.append(f"{len(cov) - missing}/{len(cov)} rule IDs covered or unreachable "
                 f"({sum(1 for key in cov if key in UNREACHABLE)} unreachable)")
    return "\n".join(lines)


#: The kinds of test whose ``rules`` count as checked: the focused ones.
FOCUSED = ("scenario", "option")


@dataclass
class RuleCoverage:
    """Which rules of one configuration at least one focused test that ran names."""

    label: str
    rules: tuple[str, ...]
    checked: dict[str, list[str]]
    unreachable: tuple[str, ...] = ()
    #: the rules the configuration's options switch off (the rulebook's "not in force"):
    #: no match under it can check them, so they are left out like the unreachable ones
    not_in_force: tuple[str, ...] = ()

    def _counted(self, rule: str) -> bool:
        return rule not in self.unreachable and rule not in self.not_in_force

    @property
    def unchecked(self) -> list[str]:
        """The rules no focused test that ran names (unreachable ones and those not in
        force left out)."""
        return [r for r in self.rules if not self.checked.get(r) and self._counted(r)]

    @property
    def percent(self) -> float:
        """Rules checked, in percent of the rules in force that can be reached."""
        reachable = [r for r in self.rules if self._counted(r)]
        if not reachable:
            return 100.0
        return 100.0 * sum(1 for r in reachable if self.checked.get(r)) / len(reachable)

    def text(self) -> str:
        """One line of figures (of the rules in force that can be reached), then the
        unchecked rules.

        >>> RuleCoverage("x", ("a", "b"), {"a": ["t"]}).text()
        'rules checked by a test that ran and names them, x: 1/2 (50.0%)\\n  unchecked: b'
        """
        counted = [r for r in self.rules if self._counted(r)]
        n = sum(1 for r in counted if self.checked.get(r))
        line = (f"rules checked by a test that ran and names them, {self.label}: "
                f"{n}/{len(counted)} ({self.percent:.1f}%)")
        if self.unreachable:
            line += f", {len(self.unreachable)} unreachable: {', '.join(self.unreachable)}"
        if self.not_in_force:
            line += (f", {len(self.not_in_force)} not in force: "
                     f"{', '.join(self.not_in_force)}")
        return "\n".join([line] + ([f"  unchecked: {', '.join(self.unchecked)}"]
                                   if self.unchecked else []))


def run_coverage(outcomes: Iterable[Outcome], ruleset: str, rule_ids: Iterable[str],
                 label: str = "", not_in_force: Iterable[str] = (),
                 unreachable: Iterable[str] = ()) -> RuleCoverage:
    """The rules of ``ruleset`` checked by a focused test of the run that was not skipped
    and that the engine did not fail in (a crash, timeout or garbage ends a test before
    it checks its rules); ``not_in_force``: the rules the configuration switches off;
    ``unreachable``: the rules it makes unreachable (:func:`unreachable_under`).

    >>> from mariage.conformance.runner import Outcome
    >>> o = Outcome("t", "mariglia", "scenario", ("mariglia.play.follow",), "pass")
    >>> cov = run_coverage([o], "mariglia", ["mariglia.play.follow", "mariglia.play.head"])
    >>> cov.unchecked, cov.percent
    (['mariglia.play.head'], 50.0)
    """
    checked: dict[str, list[str]] = {}
    for o in expect_each(outcomes, Outcome, "run_coverage: outcomes"):
        if o.kind not in FOCUSED or o.status == "skip" or o.ruleset != ruleset \
                or o.engine_failure:  # the engine failed in it: it checked nothing
            continue
        for r in o.rules:
            checked.setdefault(r, []).append(o.id)
    return rule_coverage(checked, ruleset, rule_ids, label, not_in_force, unreachable)


def rule_coverage(checked: dict[str, list[str]], ruleset: str, rule_ids: Iterable[str],
                  label: str = "", not_in_force: Iterable[str] = (),
                  also_unreachable: Iterable[str] = ()) -> RuleCoverage:
    """The coverage of the rules of ``ruleset`` given which tests check each
    (``checked``), with its unreachable rules (those of :data:`UNREACHABLE` and
    ``also_unreachable``) and those not in force left out."""
    if not isinstance(checked, Mapping):
        raise TypeError(f"rule_coverage: checked maps rule IDs to test IDs (a dict), "
                        f"not {type(checked).__name__}")
    rules = tuple(expect_each(rule_ids, str, "rule_coverage: rule_ids"))  # "ab": a, b
    name = expect_str(ruleset, "rule_coverage: ruleset").rsplit("/", 1)[-1].removesuffix(".yaml")
    extra = set(also_unreachable)
    unreachable = tuple(r for r in rules if f"{name} {r}" in UNREACHABLE or r in extra)
    switched_off = set(not_in_force)
    off = tuple(r for r in rules if r in switched_off and r not in unreachable)
    return RuleCoverage(label or ruleset, rules, checked, unreachable, off)
