"""Rules that never act under a configuration, argued from its rules (seventeenth session).

More arguments for :func:`mariage.conformance.coverage.unreachable_under` (through
:func:`mariage.conformance.unreachable.more_unreachable`), each from the compiled
rules alone:

* the **once limit of a declaration that wins the match** at once (Marianna's
  mariannone): the first one declared ends the match, so no second one, of another
  suit or the same, is ever declared or refused in that hand
  (:func:`match_won_once`);
* the **deal** (``core.deal``) in a match of **one hand** (German Marjapussi's
  ``hands=1``; a hand thrown in counts as one): a focused test's deals are the deals
  between hands, and there are none; the first deal is the ``start``'s, whose refusal the
  protocol test ``protocol/start/refused-keeps-the-match`` checks (:func:`one_hand_deal`);
* the **first lead of a hand nobody bid** where such a hand is thrown in and dealt
  again (German Marjapussi's ``all_pass=redeal``): every hand played has a declarer,
  who leads it by the contract's rule, and every lead to the first trick is governed
  by the first-card duty (:func:`unbid_lead`). Where no such duty governs the lead
  (Thousand), the first lead's rule is the lead's own rule and stays reachable.

>>> from mariage import load_rules
>>> sorted(never_acts(load_rules("marianna")))
['marianna.decl.mariannone.once']
>>> sorted(never_acts(load_rules("marjapussi-de", {"hands": 1})))
['core.deal']
>>> sorted(never_acts(load_rules("marjapussi-de", {"all_pass": "redeal"})))
['marjapussi-de.lead.first']
>>> never_acts(load_rules("marjapussi-de")), never_acts(load_rules("thousand"))
({}, {})
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mariage.engine.rules import Rules

__all__ = ["match_won_once", "never_acts", "one_hand_deal", "unbid_lead"]


def match_won_once(rules: Rules) -> dict[str, str]:
    """The once limits of the declarations that win the match at once."""
    return {d.once_rule: (
        f"the {d.name} wins the match at once: the first one declared ends it, so no "
        f"second {d.name} is ever declared or refused, and its once limit never acts")
        for d in rules.declarations if d.wins_match and d.once_rule}


def one_hand_deal(rules: Rules) -> dict[str, str]:
    """``core.deal`` where the match is one hand: the first hand ends it, thrown in or
    not (a limit of hands counts every hand, ``match_max_hands_count: all``)."""
    if rules.match_measure != "hands_played" or rules.match_target != 1 or \
            rules.match_max_hands_count != "all":
        return {}
    return {"core.deal": (
        "the match is one hand, and every hand counts (thrown in or not): the match ends "
        "with the first hand, dealt by the start of the match, so no deal is ever made "
        "between hands, where a focused test's deal is refused (the start's refusal of a "
        "bad deck is checked by the protocol test protocol/start/refused-keeps-the-match)")}


def unbid_lead(rules: Rules) -> dict[str, str]:
    """The first lead's rule where it names the leader of a hand nobody bid only: a hand
    nobody bids is thrown in, the declarer leads every hand played (the contract's own
    rule), and the first-card duty governs every lead to the first trick."""
    rule = rules.first_lead_rule
    if not (rule and rules.contract_lead_rule and rules.contract_lead_rule != rule
            and rules.no_bid == "redeal" and rules.first_card_rule
            and rules.first_card_rule != rule):
        return {}
    return {rule: (
        "a hand nobody bid is thrown in and dealt again: every hand played has a "
        f"declarer, who leads it ({rules.contract_lead_rule}), and every lead to the "
        f"first trick is governed by the first-card duty ({rules.first_card_rule}), so "
        "the first lead of a hand nobody bid is never made")}


def never_acts(rules: Rules) -> dict[str, str]:
    """Rule -> why it never acts under ``rules``, for the arguments of this module."""
    out = match_won_once(rules)
    out.update(one_hand_deal(rules))
    out.update(unbid_lead(rules))
    return {r: why for r, why in out.items() if r in rules.rule_ids}
