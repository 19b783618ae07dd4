"""Every option changes something an engine or a record can observe.

For each non-default value of each option of each ruleset (the values the
conformance suite generates tests for: ``option_variants``), something must
differ from the default options: either a seeded random match (same deals,
same random choices) shows a different state, legal action list or seat
observation at some step, or a test of the suite under that value, replayed
without it (its other option values kept), has a step that goes otherwise (an
action accepted where it is refused, or a state field that differs).
"""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest
from mariage.conformance.generate import long_match
from mariage.conformance.protocol import sorted_card_sets, state_json
from mariage.conformance.regen import option_variants
from mariage.conformance.suite import Test as SuiteTest
from mariage.conformance.suite import load_suite
from mariage.engine.actions import Claim, Close, Pass, Play
from mariage.engine.actiontext import action_text, parse_action
from mariage.engine.deals import SeededDeals
from mariage.engine.observation import observe
from mariage.engine.state import GameState
from mariage.errors import IllegalActionError, MariageError
from mariage.spec.rulesload import load_rules
from mariage.spec.specload import list_rulesets

SEEDS = range(1, 41)

VARIANTS = [(ruleset, label, options) for ruleset in list_rulesets()
            for label, options in option_variants(ruleset)]


@functools.cache
def option_tests() -> list[SuiteTest]:
    """The suite's tests under option values: read once a process, by the first slow test
    that wants them (not at every collection: the default run's workers read them for
    no test)."""
    return [t for t in load_suite(kinds=["option", "scenario", "golden"]) if t.options]


def _view(state: GameState) -> Any:
    r = state.rules
    return (state_json(state), [action_text(r, a) for a in state.legal_actions()],
            [observe(state, s) for s in range(r.nseats)])


def seeded_difference(ruleset: str, options: dict[str, Any], seed: int,
                      context: dict[str, Any] | None = None, style: str = "uniform",
                      max_steps: int = 3000, start: int | None = None) -> str:
    """Where a seeded random match differs between ``context`` (other option values,
    the same on both sides) and ``context`` plus ``options``.

    ``style``: ``uniform`` (any legal action), ``bold`` (an action other than a card,
    a declaration, an exchange, a close, a claim..., whenever one is legal, half of the
    time), ``quiet`` (never a claim or a close while another action is legal, so
    that hands are played out) or ``calm`` (as quiet, and a pass whenever one is legal,
    three times in four, so that auctions end at ordinary contracts).

    ``start``: every side begins the match with that score, as a record of a match's
    later hands may (``[StartScore]``), so that random play meets the thresholds of a
    far target (Thousand's 555, barrel and 1000) within a few hands.

    Records name the seats, so seat names that differ are a difference too.
    """
    base = dict(context or {})
    ra, rb = load_rules(ruleset, base), load_rules(ruleset, {**base, **options})
    if ra.seat_names != rb.seat_names:
        return f"the seat names ({' '.join(ra.seat_names)} vs {' '.join(rb.seat_names)})"
    da, db = SeededDeals(ra, seed), SeededDeals(rb, seed)
    if da.first_dealer != db.first_dealer:
        return f"the first dealer ({da.first_dealer} vs {db.first_dealer})"
    a, b = GameState(ra, first_dealer=da.first_dealer), GameState(rb, first_dealer=db.first_dealer)
    a.deal_source, b.deal_source = da, db
    for st, deals in ((a, da), (b, db)):
        if start is not None:
            st.match_scores[:] = [start] * len(st.match_scores)
        st.deal(*deals.next_deal())
    rng = random.Random(seed)
    for step in range(max_steps):
        va, vb = _view(a), _view(b)
        if va != vb:
            what = [k for k in va[0] if va[0][k] != vb[0].get(k)] or \
                (["legal actions"] if va[1] != vb[1] else ["an observation"])
            return f"step {step}: {', '.join(what)}"
        if a.terminal:
            return ""
        acts = a.legal_actions()
        others = [i for i, x in enumerate(acts) if type(x) is not Play]
        quiet = [i for i, x in enumerate(acts) if type(x) not in (Claim, Close)]
        passes = [i for i, x in enumerate(acts) if type(x) is Pass] if style == "calm" else []
        if style == "bold" and others and rng.random() < 0.5:
            i = rng.choice(others)
        elif style == "calm" and passes and rng.random() < 0.75:
            i = passes[0]
        elif style in ("quiet", "calm") and quiet:
            i = rng.choice(quiet)
        else:
            i = rng.randrange(len(acts))
        a.apply(acts[i])
        b.apply(b.legal_actions()[i])
    return ""


def contexts(ruleset: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    """The option values a search runs under: the defaults, and a low target (where the
    ruleset has one and it is not the option under test) so that matches end often."""
    specs = load_rules(ruleset).document.get("options") or {}
    out: list[dict[str, Any]] = [{}]
    for name in ("target", "match_target"):
        spec = specs.get(name)
        if spec and name not in options and spec.get("type") == "int":
            low = max(int(spec.get("min", 1)), int(spec["default"]) // 8)
            try:
                load_rules(ruleset, {name: low, **options})
            except MariageError:
                continue
            out.append({name: low})
    return out


def replayed_difference(test: SuiteTest, options: dict[str, Any]) -> str:
    """Where a test goes otherwise when replayed without ``options`` (its other option
    values kept)."""
    rules = load_rules(test.ruleset, {k: v for k, v in test.options.items()
                                      if k not in options})
    try:
        state = GameState(rules, first_dealer=test.start.get("dealer"))
    except ValueError:
        return "its dealer is not a seat under the defaults"
    try:
        state.deal(test.start["deck"], test.start.get("first_player"))
    except IllegalActionError:
        return "its deal is not a deal under the defaults"
    for n, step in enumerate(test.steps, 1):
        seat = step.get("seat")
        try:
            if "act" in step:
                state.apply(parse_action(rules, step["act"]), seat)
            elif "deal" in step:
                state.deal(step["deal"]["deck"], step["deal"].get("first_player"))
            elif "resign" in step:
                state.resign(step["resign"])
        except (IllegalActionError, ValueError):
            if "error" not in step:
                return f"step {n} is refused under the defaults"
            continue
        if "error" in step:
            return f"step {n} is accepted under the defaults"
        have = sorted_card_sets(state_json(state))
        for key, want in sorted_card_sets(step.get("state") or {}).items():
            got = have.get(key)
            if got != want:
                return f"step {n}: {key}"
    return ""


def shown(ruleset: str, options: dict[str, Any], seeds: range) -> str:
    """How an option value shows itself (or ``""``): in a suite test replayed without
    it, in the seeded match :data:`KNOWN_SEEDS` names, or in seeded matches."""
    mine = [t for t in option_tests() if t.ruleset == ruleset
            and all(t.options.get(k) == v for k, v in options.items())]
    for test in mine:
        found = replayed_difference(test, options)
        if found:
            return f"{test.id}: {found}"
    label = next((f"{r}:{lb}" for r, lb, o in VARIANTS if r == ruleset and o == options), "")
    if label in KNOWN_SEEDS:
        seed, context, style, *start = KNOWN_SEEDS[label]
        found = seeded_difference(ruleset, options, seed, context, style,
                                  start=start[0] if start else None)
        if found:
            return f"seed {seed} under {context}, {style}: {found}"
    rules = load_rules(ruleset)
    if long_match(rules):  # hundreds of hands a match: a quarter of the seeds
        seeds = seeds[:max(1, len(seeds) // 4)]
    for context in contexts(ruleset, options):
        for seed in seeds:
            for style in ("uniform", "bold", "quiet"):
                found = seeded_difference(ruleset, options, seed, context, style)
                if found:
                    return f"seed {seed} under {context}, {style}: {found}"
    if long_match(rules):  # matches begun near the far target's thresholds
        for start in START_SHARES:
            score = rules.match_target * start // 100
            for seed in range(1, 9):
                for style in ("uniform", "bold", "quiet", "calm"):
                    found = seeded_difference(ruleset, options, seed, {}, style, 1500, score)
                    if found:
                        return f"seed {seed} from {score} each, {style}: {found}"
    return ""


#: Where a match to a far target (Thousand's 1000) keeps its thresholds (555, the barrel
#: at 880, the target), as shares of the target in percent: the seeded search also
#: begins matches with every side at these scores.
START_SHARES = (54, 87, 98)


#: Values whose effect shows only in a rarer seeded match, found by a longer search:
#: (seed, other option values, style[, the score each side begins with]). The test
#: replays exactly that match.
KNOWN_SEEDS: dict[str, tuple[Any, ...]] = {
    # values that act only beside another one: the leftover cards of the game for two,
    # and the talon claims of a declarer above the lowest bid once a weak talon counts
    **{f"{r}:two_player_leftover-nobody": (1, {"players": 2}, "uniform")
       for r in ("thousand", "thousand-4", "thousand-pl")},
    **{f"{r}:prikup_redeal_only_at_100-false": (1, {"redeal_weak_prikup": 20}, "uniform")
       for r in ("thousand", "thousand-2", "thousand-4", "thousand-pl")},
    "cinquecento-siciliana:split_spoiled_by-never": (50, {}, "bold"),
    "marianna-2:tie-draw": (91, {"target": 62}, "bold"),
    "schnapsen:beaten_closer_score-flat2": (45, {}, "uniform"),
    "mariaggia:accusa_window-hand": (112, {}, "uniform"),
    "sixty-six:beaten_closer_score-like_failed_close": (231, {}, "uniform"),
    "sixty-six-3:beaten_closer_score-like_failed_close": (231, {}, "uniform"),
    # effective only beside another value: a game value above 420 once the last trick
    # scores nothing; a hand limit where the session ends at 500
    "marjapussi-de:bid_max-none": (1, {"last_trick_bonus": 0}, "uniform"),
    "marjapussi-de:hand_limit-13": (1, {"session_end": "bonus_300_at_500"}, "uniform"),
    # Belote: random bids climb to a doubled capot, so ordinary contracts need a calm match
    "belote:all_pass-same_dealer": (1, {}, "calm"),
    "belote-coinche:all_pass-same_dealer": (1, {}, "calm"),
    "belote-contree:all_pass-same_dealer": (1, {}, "calm"),
    "belote-coinche:rounding-nearest10_6up": (2, {}, "calm"),
    "belote-contree:rounding-nearest10_6up": (1, {}, "calm"),
    "belote-coinche:must_beat_defence-false": (16, {}, "calm"),
    "belote-contree:bid_80_needs_82-true": (117, {}, "calm"),
    "belote-coinche:announce_tie-first_in_rotation": (26, {}, "calm"),
    "belote-coinche:belote_counts_for_contract-false": (6, {}, "calm"),
    "belote-contree:belote_counts_for_contract-false": (4, {}, "calm"),
    "belote-coinche:card_in_two_combinations-true": (11, {}, "calm"),
    # where the defence must be beaten (coinche) 80 needs 82 anyway, 81 each being a tie
    "belote-coinche:bid_80_needs_82-false": (240, {"must_beat_defence": False}, "calm"),
    # a dump value or an award that only a dump or a write-off of that kind uses
    "thousand-2:dump_value-185": (2, {"dump_at_555": "positive"}, "uniform"),
    "thousand-2:write_off_award-half_bid": (1, {"concede": "write_off"}, "uniform"),
    # two players on the barrel at once: seen with three players, from 870 each
    "thousand-2:barrel_collision-coexist": (2, {"players": 3}, "bold", 870),
    # the game for two keeps the sitter's options of the game for four (players=4)
    "thousand-2:sitter_score-card_points": (1, {"players": 4}, "uniform"),
    "thousand-2:sitter_ace_value-16": (1, {"players": 4, "sitter_score": "aces_and_marriages"},
                                       "uniform"),
    # the sitter's talon scoring of the game for four, and the values that only matter
    # beside another one (a dump, a write-off, barrel attempts, bolts, no bid cap); the
    # Polish rules round to 10, so a total of 555 needs round_to=5 there
    **{f"{r}:{v}-true": (1, {"players": 4, "sitter_score": "card_points"}, "uniform")
       for r in ("thousand-2", "thousand-4", "thousand-pl")
       for v in ("sitter_marriage", "sitter_half_marriage")},
    **{f"thousand-pl:sitter_score-{v}": (1, {"players": 4}, "uniform")
       for v in ("card_points", "none")},
    # the least total for a dark bid, with dark bids on (and forehand speaking first),
    # every total starting between the two values
    **{f"{r}:dark_min_total-80": (1, {"dark_bid": True}, "uniform", 100)
       for r in ("thousand", "thousand-2", "thousand-4")},
    "thousand-pl:dark_min_total-80": (1, {"dark_bid": True, "opening_bid": "fh_forced"},
                                      "uniform", 100),
    # the golden hands' refinements, with golden hands (the game for two has no
    # scenario of its own for them)
    **{f"thousand-2:{v}": (1, {"golden_round": "fixed_120"}, "uniform")
       for v in ("golden_double-false", "golden_can_raise-true", "golden_reset_if_none-true")},
    # who sits out only matters with four players
    **{f"{r}:sitter-{v}": (1, {"players": 4}, "uniform")
       for r in ("thousand", "thousand-2", "thousand-pl") for v in ("dealer_right", "opposite")},
    "thousand-pl:sitter_ace_value-16": (1, {"players": 4, "sitter_score": "aces_and_marriages"},
                                        "uniform"),
    "thousand-pl:dump_at_555-both": (1, {"round_to": 5}, "uniform"),
    "thousand-pl:dump_value-185": (1, {"dump_at_555": "positive", "round_to": 5}, "calm"),
    "thousand-pl:write_off_award-half_bid": (1, {"concede": "write_off"}, "uniform"),
    "thousand-pl:barrel_penalty-1": (1, {"barrel_attempts": 3}, "uniform", 870),
    **{f"thousand-pl:{v}": (1, {"bolt_condition": "no_tricks"}, "uniform")
       for v in ("bolt_count-consecutive", "bolt_penalty-40", "declarer_bolts-true")},
    "thousand-pl:bid_max-1000": (1, {"bid_cap": "none"}, "uniform"),
    # found by the long search (30-70 s each): matches begun near a far target's
    # thresholds (the fourth value: each side's score at the start)
    "thousand-2:barrel_attempts-1": (2, {}, "uniform", 870),
    "thousand-2:barrel_clamp-false": (1, {}, "bold", 540),
    "thousand-2:barrel_collision-all_fall": (6, {}, "bold", 870),
    "thousand-2:barrel_fail_contract-attempt_only": (1, {}, "bold", 540),
    "thousand-2:barrel_penalty-40": (2, {}, "uniform", 870),
    "thousand-2:declarer_round_before_check-true": (5, {}, "calm", 540),
    "thousand-2:dump_at_555-both": (4, {}, "calm", 540),
    "thousand-2:win_rule-exactly": (1, {}, "uniform", 870),
    "thousand-2:win_rule-more_than": (7, {}, "uniform", 980),
    "thousand-4:barrel_attempts-1": (2, {}, "uniform", 540),
    "thousand-4:barrel_fail_contract-attempt_only": (2, {}, "uniform", 540),
    "thousand-pl:barrel_at-802": (1, {}, "bold", 540),
    "thousand-pl:barrel_attempts-1": (1, {}, "bold", 540),
    "thousand-pl:barrel_clamp-true": (1, {}, "bold", 540),
    "thousand-pl:barrel_collision-all_fall": (1, {}, "uniform", 870),
    "thousand-pl:barrel_collision-knock_off": (1, {}, "uniform", 870),
    "thousand-pl:barrel_fail_contract-attempt_only": (1, {}, "bold", 540),
    "thousand-pl:win_rule-exactly": (4, {"target": 500}, "bold"),
    "thousand-pl:win_rule-more_than": (8, {}, "calm", 870),
    "thousand:barrel-false": (3, {}, "bold", 540),
    "thousand-2:barrel-false": (1, {}, "bold", 540),
    "thousand-4:barrel-false": (2, {}, "uniform", 540),
    "thousand-pl:barrel-false": (1, {}, "bold", 540),
    "thousand:declarer_round_before_check-true": (4, {}, "bold"),
    "thousand:bolt_condition-zero_entry": (3, {}, "uniform"),
    "thousand:four_nines_redeal-original_hand": (1, {}, "uniform"),
    "thousand:four_nines_redeal-before_bidding": (1, {}, "uniform"),
    "thousand:four_nines_redeal-off": (1, {}, "uniform"),
    # the seeds the search finds first (20-50 s each, twenty-ninth session): the bolts of
    # the game for two and for four, a total of 555, the declarer's round before the check
    "thousand-2:bolt_condition-zero_entry": (5, {}, "uniform"),
    **{f"thousand-2:{v}": (9, {}, "uniform")
       for v in ("bolt_condition-off", "bolt_count-consecutive", "bolt_penalty-40")},
    "thousand-4:bolt_condition-zero_entry": (3, {}, "uniform"),
    "thousand-4:dump_at_555-both": (3, {}, "uniform"),
    "thousand-4:declarer_round_before_check-true": (4, {}, "bold"),
    # the seeded matches the search of ``shown`` reaches first for the values that no
    # replayed test shows and whose search took more than 0.1 CPU-s (thirty-first
    # session): the test replays that match alone (a value that stops showing itself
    # there is searched for as before, so the verdict is the search's)
    "belote-coinche:belote_multiplied-false": (2, {}, "uniform"),
    "belote-coinche:belote_on_failure-goes_to_winner": (3, {}, "uniform"),
    "belote-coinche:coinche_score_mode-bid_only": (15, {}, "uniform"),
    "belote-coinche:coinche_score_mode-made_only": (15, {}, "uniform"),
    "belote-coinche:partner_trump_undertrump-allowed": (6, {}, "uniform"),
    "belote-coinche:partner_trump_undertrump-overtrump_if_only_trumps": (6, {}, "uniform"),
    "belote-coinche:rounding-none": (15, {}, "uniform"),
    "belote-contree:coinche_score_mode-bid_only": (15, {}, "uniform"),
    "belote-contree:coinche_score_mode-made_only": (15, {}, "uniform"),
    "belote-contree:must_overtrump_partner-false": (2, {}, "uniform"),
    "belote-contree:partner_trump_undertrump-no_undertrump": (7, {}, "bold"),
    "belote-contree:partner_trump_undertrump-overtrump_if_only_trumps": (10, {}, "uniform"),
    "belote-contree:rounding-none": (15, {}, "uniform"),
    "belote:announce_tie-first_in_rotation": (26, {}, "bold"),
    "belote:belote_counts_for_contract-false": (1, {}, "bold"),
    "belote:belote_on_failure-goes_to_winner": (10, {}, "bold"),
    "belote:capot_value-162": (1, {}, "bold"),
    "belote:capot_value-250": (1, {}, "bold"),
    "belote:card_in_two_combinations-true": (16, {}, "uniform"),
    "belote:dedans_rule-tie_fails": (3, {}, "bold"),
    "belote:must_overtrump_partner-false": (1, {}, "bold"),
    "belote:second_round_suits-any_suit": (1, {}, "bold"),
    "cinquecento-siciliana:split_ask-may_declare": (3, {}, "uniform"),
    "cinquecento-siciliana:split_order-outside": (11, {}, "uniform"),
    "marianna-2:trick_six-true": (2, {}, "uniform"),
    "marjapussi-de:first_trick_ace_follow-false": (2, {}, "bold"),
    "marjapussi-de:half_call_credit-asker": (1, {}, "bold"),
    "marjapussi-de:pair_credit_once_per_hand-false": (4, {}, "uniform"),
    "marjapussi-de:schwarz_factor-1": (13, {}, "uniform"),
    "schnapsen:close_snapshot-at_end": (14, {}, "uniform"),
    "schnapsen:failed_close_score-hoyle": (32, {}, "uniform"),
    "sixty-six-3:close_snapshot-at_close": (5, {}, "uniform"),
    "sixty-six-3:failed_close_score-hoyle": (29, {}, "uniform"),
    "sixty-six-3:last_trick_bonus_when_closed-true": (5, {}, "uniform"),
    "sixty-six-3:marriage_counting-immediate": (6, {}, "uniform"),
    "sixty-six:close_snapshot-at_close": (5, {}, "uniform"),
    "sixty-six:failed_close_score-hoyle": (29, {}, "uniform"),
    "sixty-six:marriage_counting-immediate": (6, {}, "uniform"),
    "thousand-2:concede-bomb": (1, {}, "uniform"),
    "thousand-2:concede-write_off": (1, {}, "uniform"),
    "thousand-2:concede_award-20": (1, {}, "uniform"),
    "thousand-2:concede_limit-1": (1, {}, "uniform"),
    "thousand-2:declarer_bolts-true": (2, {}, "uniform"),
    "thousand-2:four_nines_redeal-before_bidding": (1, {}, "uniform"),
    "thousand-2:four_nines_redeal-off": (1, {}, "uniform"),
    "thousand-2:four_nines_redeal-original_hand": (1, {}, "uniform"),
    "thousand-2:musik_shown-not_at_100": (1, {}, "uniform"),
    "thousand-2:redeal_dealer-next": (1, {}, "uniform"),
    "thousand-4:ace_marriage-1": (1, {}, "uniform"),
    "thousand-4:bolt_condition-off": (1, {}, "uniform"),
    "thousand-4:bolt_count-consecutive": (1, {}, "uniform"),
    "thousand-4:bolt_penalty-40": (1, {}, "uniform"),
    "thousand-4:concede_limit-1": (1, {}, "uniform"),
    "thousand-4:declarer_bolts-true": (1, {}, "uniform"),
    "thousand-4:four_nines_redeal-before_bidding": (1, {}, "uniform"),
    "thousand-4:four_nines_redeal-off": (1, {}, "uniform"),
    "thousand-4:four_nines_redeal-original_hand": (1, {}, "uniform"),
    "thousand-4:musik_shown-not_at_100": (1, {}, "uniform"),
    "thousand-4:must_trump-false": (1, {}, "uniform"),
    "thousand-4:redeal_dealer-next": (1, {}, "uniform"),
    "thousand-4:trump_change-next_trick": (1, {}, "uniform"),
    "thousand-4:trump_rule-first": (1, {}, "bold"),
    "thousand-pl:ace_marriage-1": (1, {}, "bold"),
    "thousand-pl:bolt_condition-zero_entry": (1, {}, "uniform"),
    "thousand-pl:concede_award-20": (1, {}, "uniform"),
    "thousand-pl:declarer_round_before_check-true": (2, {}, "bold"),
    "thousand-pl:four_nines_redeal-off": (1, {}, "uniform"),
    "thousand-pl:four_nines_redeal-original_hand": (1, {}, "uniform"),
    "thousand-pl:musik_shown-not_at_100": (1, {}, "uniform"),
    "thousand-pl:redeal_dealer-next": (1, {}, "uniform"),
    "thousand-pl:trump_rule-first": (1, {}, "bold"),
    "thousand:ace_marriage-1": (1, {}, "uniform"),
    "thousand:bolt_condition-off": (1, {}, "uniform"),
    "thousand:bolt_count-consecutive": (1, {}, "uniform"),
    "thousand:declarer_bolts-true": (1, {}, "uniform"),
    "thousand:must_trump-false": (1, {}, "uniform"),
    "thousand:redeal_dealer-next": (1, {}, "uniform"),
    "thousand:round_mode-down": (1, {}, "uniform"),
    "thousand:trump_change-next_trick": (1, {}, "uniform"),
    "thousand:trump_rule-first": (1, {}, "bold"),
}


#: a long search over seeded matches for the values no replayed test or known seed shows
@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "label", "options"), [
    pytest.param(r, label, o, id=f"{r}:{label}") for r, label, o in VARIANTS])
def test_every_option_value_changes_something_observable(
        ruleset: str, label: str, options: dict[str, Any]) -> None:
    assert shown(ruleset, options, SEEDS), (
        f"{ruleset} option {label}: no option test replayed under the defaults and no "
        f"seeded match (seeds {SEEDS.start}..{SEEDS.stop - 1}) shows a difference")


def test_the_variants_cover_every_option_of_every_ruleset() -> None:
    for ruleset in list_rulesets():
        specs = load_rules(ruleset).document.get("options") or {}
        named = {label.rsplit("-", 1)[0] for r, label, _ in VARIANTS if r == ruleset} | \
            {next(iter(o)) for r, _, o in VARIANTS if r == ruleset}
        assert {k for k, v in specs.items() if v} <= named, ruleset
