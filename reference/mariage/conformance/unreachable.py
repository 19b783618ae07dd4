"""More rules a configuration makes unreachable, with the argument from its rules.

:func:`mariage.conformance.coverage.unreachable_under` lists the rules no protocol test
can check under a configuration; these are the arguments added to it in the sixteenth
session, each from the compiled rules alone:

* the **once-a-suit** limit of a declaration made by leading one of its cards, where
  only some of its cards may be led (Schnapsen's and Sixty-six's ``marriage_lead=king``
  or ``queen``): the card led is one of the declaration's, played into the trick, so
  the declaration's cards are never all held again in that hand; a second try on the
  same lead is refused first by the rule of one declaration a lead. Where every card
  of it may be led the same argument is made in ``unreachable_under`` itself;
* the **spoiling of a split marriage** by a declaration that sets trump in its trick,
  where nobody whose declaration spoils it can make one there (:func:`unspoiled_splits`):
  where only the player about to lead declares (``declare_who=leader``), he is the
  asker, whose own side's declaration does not spoil it, or who used his declaration
  up by asking; where declarations are made only in a window at the trick's start
  (``declare_when=trick_start``), they all come before the ask, which is made only in
  the play and only while there is no trump: one that set trump forbids the ask;
* that **asking is the asker's declaration** for the trick (a declaration after the ask
  refused by the rule of one declaration a trick), where declarations are made only in
  the window at the trick's start: the ask is made in the play, after that window, where
  every declaration is refused first by the rule on who declares (:func:`unspoiled_splits`
  gives both of a window at the trick's start);
* the **cut-off of the whole-hand declarations** by their window, where the window
  lasts a trick past the stock (Marianna's ``trick_six``): once it is closed a trick has
  been played since the last card was drawn, so a hand holds at most one card fewer than
  a full hand, fewer than a whole-hand declaration's cards (:func:`cut_off_unreachable`);
* (seventeenth session) a **litige** where every hand played has a bid that the takers
  need only reach (Belote contrée's ``must_beat_defence=false``): equal totals are then
  judged on the bid alone, made or failed, never held over (:func:`litige_unreachable`);
* (eighteenth session) the **barrel** where it starts at or past the target
  (Thousand's ``target=850`` under a barrel at 880): a total that reaches it has won
  first (:func:`barrel_unreachable`);
* (twenty-second session) the **bid cap** where the lowest bid is held before anyone
  speaks and is the highest bid too (Polish Thousand's ``bid_min=400``, the ceiling being
  400): nobody may bid above it and the contract is never raised, so every bid and raise
  is refused by the bids' or the raise's own rule before the cap is looked at
  (:func:`cap_unreachable`);
* (twenty-third session) the rule on a **level match** where the match is decided on
  hands won (Mariazza's segni): a hand adds one to one side at most, and the match ends
  as soon as one side has the target, so no two sides ever stand level at it; with no
  limit of hands, nothing else ends the match with sides level
  (:func:`level_unreachable`).

>>> from mariage import load_rules
>>> once_led_unreachable(load_rules("schnapsen", {"marriage_lead": "queen"}))
['schnapsen.decl.once']
>>> once_led_unreachable(load_rules("marianna"))   # declared, not led
[]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mariage.engine.mechanisms import DEFAULT_MECHANISMS

from .neveracts import never_acts

if TYPE_CHECKING:
    from mariage.engine.rules import Declaration, Rules

__all__ = ["barrel_unreachable", "cap_unreachable", "cut_off_unreachable", "level_unreachable",
           "litige_unreachable", "more_unreachable", "once_led_unreachable", "unspoiled_splits"]


def _led_from_its_own(d: Declaration) -> bool:
    """Whether ``d`` is declared by leading a card of it: in every suit, the cards that
    may be led are some of its cards (none other)."""
    return bool(d.lead_masks) and len(d.lead_masks) == len(d.suit_masks) and all(
        lead and lead & ~held == 0 for lead, held in zip(d.lead_masks, d.suit_masks,
                                                         strict=True))


def once_led_unreachable(rules: Rules) -> list[str]:
    """The once-a-suit rules of the declarations made by leading one of their own cards,
    one declaration a lead (see the module's text)."""
    if rules.decl_per_trick != 1:
        return []
    return [d.once_rule for d in rules.declarations
            if d.once_scope in ("suit", "suit_per_player") and d.same_suit and d.once_rule
            and _led_from_its_own(d)]


#: The most cards fewer than a full hand a seat holds once each window is closed: the
#: window of the stock closes as the last card is drawn, the one a trick past it after
#: a trick more (a hand is never fuller than a full hand after the deal).
_SPENT_AFTER_WINDOW = {"stock": 0, "stock_plus_one": 1}


def cut_off_unreachable(rules: Rules) -> list[str]:
    """The cut-off of the whole-hand declarations (``rules.decl_combo_window_rule``)
    where no hand holds as many cards as one of them once its window is closed.

    >>> from mariage import load_rules
    >>> cut_off_unreachable(load_rules("marianna", {"trick_six": True}))
    ['marianna.decl.combination-window']
    >>> cut_off_unreachable(load_rules("marianna"))   # a full hand after the stock
    []
    """
    rule = rules.decl_combo_window_rule
    whole = [d for d in rules.declarations if d.whole_hand]
    if not rule or not whole:
        return []
    held = [rules.hand_size - _SPENT_AFTER_WINDOW[d.window] for d in whole
            if d.window in _SPENT_AFTER_WINDOW]
    if len(held) < len(whole):  # a window that never closes, or one not known here
        return []
    return [rule] if all(d.size > most for d, most in zip(whole, held, strict=True)) \
        else []


def litige_unreachable(rules: Rules) -> list[str]:
    """The rule of a litige (equal totals held over) where no hand is played without a
    bid (an auction of bids by value, whose hands all pass are dealt again) and the
    takers need only reach the bid, not beat the defenders: a contract is then made or
    failed, whatever the defenders' total.

    >>> from mariage import load_rules
    >>> litige_unreachable(load_rules("belote-contree"))
    ['belote.score.litige']
    >>> litige_unreachable(load_rules("belote-contree", {"must_beat_defence": True}))
    []
    >>> litige_unreachable(load_rules("belote")), litige_unreachable(load_rules("belote-coinche"))
    ([], [])
    """
    rule = rules.takers_tie_rule
    if rule and rules.takers_tie == "litige" and rules.sa_rule and not rules.bid_must_beat:
        return [rule]
    return []


def unspoiled_splits(rules: Rules) -> dict[str, str]:
    """The rules on spoiling a split marriage that no declaration can act on, and on the
    ask using the declaration up where no declaration can follow it (see the module's
    text), with why.

    >>> from mariage import load_rules
    >>> sorted(unspoiled_splits(load_rules("marianna-siciliana", {"declare_who": "leader"})))
    ['siciliana.split.spoiled']
    >>> sorted(unspoiled_splits(load_rules("marianna-siciliana",
    ...                                    {"declare_when": "trick_start"})))
    ['siciliana.ask.declaration', 'siciliana.split.spoiled']
    >>> unspoiled_splits(load_rules("marianna-siciliana"))
    {}
    """
    out: dict[str, str] = {}
    for a in rules.asks:
        if a.who != "leader":
            continue  # (an ask is made in the play, by the player about to lead)
        if a.spoiled_rule and rules.decl_who in ("leader", "trick_winner") and (
                a.spoiled_by == "opponent" or (a.spoiled_by == "any" and a.uses_declaration)):
            out[a.spoiled_rule] = (
                "only the player about to lead declares, before his lead, and he is the one "
                "who asks for the split marriage: his own side's declaration does not spoil "
                "it, or asking used his declaration up, so no declaration that spoils it is "
                "ever made in its trick")
        if rules.decl_who == "trick_start" and a.declaring_rule:
            out[a.declaring_rule] = (
                "an ask is made in the play, after the window at the trick's start where "
                "declarations are made: in the play every declaration is refused first by the "
                f"rule on who declares ({rules.decl_who_rule}), so none is ever refused "
                "because the ask used the declaration up")
        if a.spoiled_rule and rules.decl_who == "trick_start" and a.needs_no_trump:
            out[a.spoiled_rule] = (
                "declarations are made only in the window at the trick's start, before the "
                "ask, which is made in the play and only while there is no trump: a "
                "declaration that set trump in the trick forbids the ask, so none spoils a "
                "split marriage")
    return out


def barrel_unreachable(rules: Rules) -> bool:
    """True where no total ever stands on the barrel: it starts past the target, or at it
    where a total at the target wins (``win_rule=at_least``). Under ``more_than`` a total
    of exactly the target has not won and may stand on a barrel there; under ``exactly``
    no total passes the target.

    >>> from mariage import load_rules
    >>> barrel_unreachable(load_rules("thousand", {"target": 850}))
    True
    >>> barrel_unreachable(load_rules("thousand")), barrel_unreachable(load_rules("marianna"))
    (False, False)
    """
    if rules.barrel_rule is None:
        return False
    at, target = rules.barrel_at, rules.match_target
    return at > target or (at == target and rules.win_rule == "at_least")


#: The openings where a seat holds the lowest bid before anyone speaks.
_HELD_OPENINGS = ("first_holds_minimum", "dealer_holds_minimum")


def cap_unreachable(rules: Rules) -> bool:
    """True where the bid cap (``rules.bid_cap_rule``) never refuses a bid or a raise:
    the lowest bid is held before anyone speaks (:data:`_HELD_OPENINGS`), no golden hand
    or blind bid changes the auction, and one step above the lowest bid passes the
    auction's ceiling. Every bid must then beat the held one and every raise the
    contract, which is that lowest bid: each is over the ceiling, refused by the bids'
    or the raise's rule first, and the cap is never reached.

    >>> from mariage import load_rules
    >>> cap_unreachable(load_rules("thousand-pl", {"bid_min": 400}))
    True
    >>> cap_unreachable(load_rules("thousand-pl")), cap_unreachable(load_rules(
    ...     "thousand", {"bid_min": 400}))   # Russian forehand must bid, not hold, 400
    (False, False)
    """
    if not rules.bid_cap_rule or rules.bid_cap == "none" or \
            rules.opening not in _HELD_OPENINGS or rules.golden_rule is not None or \
            rules.blind_rule is not None:
        return False
    return rules.bid_min + rules.bid_step > DEFAULT_MECHANISMS.auction.ceiling(rules)


def level_unreachable(rules: Rules) -> bool:
    """True where the rule on a level match (``rules.tie_rule``) never acts: the match is
    decided on hands won, which a hand adds one at a time to one side at most (the
    hand's winner, if any), and it ends as soon as a side has the target, so two sides
    never reach it together; and no limit of hands ends the match with sides level.

    >>> from mariage import load_rules
    >>> level_unreachable(load_rules("mariazza", {"hands": 5000}))
    True
    >>> level_unreachable(load_rules("marjapussi")), level_unreachable(load_rules(
    ...     "marjapussi-de"))   # game points may tie; a session of hands may end level
    (False, False)
    """
    return bool(rules.tie_rule) and rules.match_measure == "hands_won" and \
        not rules.match_max_hands


def pair_alone_unreachable(rules: Rules) -> bool:
    """True where no team reaches the target through its pair of trumps alone
    (``rules.pair_alone_rule``): the game is one played deal (a void deal scores nothing),
    so a team's total is what that deal wrote, and the target is more than the pairs of
    every suit could write, even multiplied four times.

    >>> from mariage import load_rules
    >>> pair_alone_unreachable(load_rules("belote", {"deal_limit": 1}))
    True
    >>> pair_alone_unreachable(load_rules("belote", {"deal_limit": 1, "target": 50}))
    False
    >>> pair_alone_unreachable(load_rules("belote", {"deal_limit": 2}))
    False
    """
    most = rules.pair_value * max([len(rules.suits), *rules.bid_pair_values]) * 4
    return bool(rules.pair_alone_rule) and rules.pair_alone_cannot_win and \
        rules.match_max_hands == 1 and rules.match_target > most


def more_unreachable(rules: Rules) -> dict[str, str]:
    """Rule -> why no match under ``rules`` can check it, for the arguments of this
    module.

    >>> from mariage import load_rules
    >>> sorted(more_unreachable(load_rules("sixty-six", {"marriage_lead": "king"})))
    ['schnapsen.decl.once']
    """
    out = unspoiled_splits(rules)
    out.update(never_acts(rules))  # the seventeenth session's arguments
    for rule in cut_off_unreachable(rules):
        out[rule] = (
            "the whole-hand declarations' window lasts a trick past the stock: once it is "
            "closed a trick has been played since the last card was drawn, so a hand holds "
            "fewer cards than a whole-hand declaration and none is ever refused by the "
            "window alone")
    for rule in litige_unreachable(rules):
        out[rule] = (
            "every hand played has a bid (all passing deals again), and the takers need only "
            "reach it, whatever the defenders make: equal totals are judged made or failed on "
            "the bid, never held over as a litige")
    if barrel_unreachable(rules):
        assert rules.barrel_rule is not None
        out[rules.barrel_rule] = (
            f"the barrel starts at {rules.barrel_at}, at or past the target of "
            f"{rules.match_target}: a total that reaches it has won the game first, so no "
            "total ever stands on the barrel")
    if cap_unreachable(rules):
        assert rules.bid_cap_rule is not None
        out[rules.bid_cap_rule] = (
            f"the lowest bid, {rules.bid_min}, is held before anyone speaks ({rules.opening}) "
            "and is the highest bid too: every bid must beat it and every raise the "
            "contract, which is it, so each is over the ceiling and refused by the bids' or "
            "the raise's rule before the cap is looked at")
    if level_unreachable(rules):
        out[rules.tie_rule] = (
            f"the match is decided on hands won, which a hand adds one at a time to one side "
            f"at most, and it ends as soon as a side has won {rules.match_target}: no two "
            "sides ever stand level at the target, and no limit of hands ends the match "
            "level, so the rule on a level match never acts")
    if pair_alone_unreachable(rules):
        assert rules.pair_alone_rule is not None
        out[rules.pair_alone_rule] = (
            f"the game is one played deal and its target, {rules.match_target}, is more than "
            "the pairs of trumps of every suit could write in it: no team reaches the target "
            "through its pair alone")
    for rule in once_led_unreachable(rules):
        out[rule] = (
            "the declaration is made by leading one of its own cards, which is played into "
            "the trick, so its cards are never all held again in that hand; a second try "
            "on the same lead is refused first by the rule of one declaration a lead "
            f"({rules.decl_per_trick_rule}): its once-a-suit limit can never refuse a "
            "declaration")
    return out
