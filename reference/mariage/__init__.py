"""mariage: the reference interpreter of the marriage family of card games.

Load a ruleset, start a match, deal, and play:

>>> import mariage
>>> rules = mariage.load_rules("marianna")
>>> state = mariage.new_match(rules, seed=1)
>>> state.to_act is not None
True
>>> action = state.legal_actions()[0]
>>> state.apply(action)
"""

from __future__ import annotations

from .actions import (
    Action,
    Answer,
    AskPartner,
    Bid,
    Call,
    CallOut,
    Declare,
    Exchange,
    Give,
    Kontra,
    Pass,
    Play,
    Question,
    Raise,
    action_text,
    parse_action,
)
from .compile import load_rules
from .deals import SeededDeals, canonical_deck
from .errors import IllegalActionError, MariageError, OptionError, SpecError
from .rules import Rules
from .specload import list_rulesets
from .state import GameState, MatchResult, Phase

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Answer",
    "AskPartner",
    "Bid",
    "Call",
    "CallOut",
    "Declare",
    "Exchange",
    "GameState",
    "Give",
    "IllegalActionError",
    "Kontra",
    "MariageError",
    "MatchResult",
    "OptionError",
    "Pass",
    "Phase",
    "Play",
    "Question",
    "Raise",
    "Rules",
    "SeededDeals",
    "SpecError",
    "action_text",
    "canonical_deck",
    "list_rulesets",
    "load_rules",
    "new_match",
    "parse_action",
]


def new_match(rules: Rules, seed: int) -> GameState:
    """Start a match whose deals come from ``seed``, with the first hand dealt.

    Later hands are dealt automatically from the same seeded stream.
    """
    deals = SeededDeals(rules, seed)
    state = GameState(rules, first_dealer=deals.first_dealer)
    state.deal_source = deals
    deck, first = deals.next_deal()
    state.deal(deck, first)
    return state
