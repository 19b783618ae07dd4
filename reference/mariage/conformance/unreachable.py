"""More rules a configuration makes unreachable, with the argument from its rules.

:func:`mariage.conformance.coverage.unreachable_under` lists the rules no protocol test
can check under a configuration; these are the arguments added to it in the sixteenth
session, each from the compiled rules alone:

* the **once-a-suit** limit of a declaration made by leading one of its cards, where
  only some of its cards may be led (Schnapsen's and Sixty-six's ``marriage_lead=king``
  or ``queen``): the card led is one of the declaration's, played into the trick, so
  the declaration's cards are never all held again in that hand; a second try on the
  same lead is refused first by the rule of one declaration a lead. Where every card
  of it may be led the same argument is made in ``unreachable_under`` itself.

>>> from mariage import load_rules
>>> once_led_unreachable(load_rules("schnapsen", {"marriage_lead": "queen"}))
['schnapsen.decl.once']
>>> once_led_unreachable(load_rules("marianna"))   # declared, not led
[]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mariage.engine.rules import Declaration, Rules

__all__ = ["more_unreachable", "once_led_unreachable"]


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


def more_unreachable(rules: Rules) -> dict[str, str]:
    """Rule -> why no match under ``rules`` can check it, for the arguments of this
    module.

    >>> from mariage import load_rules
    >>> sorted(more_unreachable(load_rules("sixty-six", {"marriage_lead": "king"})))
    ['schnapsen.decl.once']
    """
    out: dict[str, str] = {}
    for rule in once_led_unreachable(rules):
        out[rule] = (
            "the declaration is made by leading one of its own cards, which is played into "
            "the trick, so its cards are never all held again in that hand; a second try "
            "on the same lead is refused first by the rule of one declaration a lead "
            f"({rules.decl_per_trick_rule}): its once-a-suit limit can never refuse a "
            "declaration")
    return out
