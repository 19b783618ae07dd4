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

from typing import TYPE_CHECKING

from .lazynames import lazy_names

if TYPE_CHECKING:
    from .engine.actions import (
        Action,
        Answer,
        AskPartner,
        Bid,
        Call,
        CallOut,
        Claim,
        Close,
        Declare,
        Decline,
        Draw,
        Exchange,
        Give,
        Kontra,
        Pass,
        Play,
        Question,
        Raise,
    )
    from .engine.actiontext import action_text, naming, parse_action, set_naming
    from .engine.deals import SeededDeals, canonical_deck
    from .engine.observation import Observation, observe
    from .engine.rules import Rules
    from .engine.state import GameState, MatchResult, Phase, new_match
    from .errors import IllegalActionError, MariageError, OptionError, SpecError
    from .spec.rulesload import load_rules
    from .spec.specload import list_rulesets

# The public names are imported on first use, so that a command that needs
# only part of the package (``mariage list``) starts quickly, and so that this
# module imports nothing: every module of the package may read ``__version__``.
_A, _O, _S, _D, _E = ("engine.actions", "engine.observation", "engine.state", "engine.deals",
                      "errors")
_LAZY = {
    **dict.fromkeys(
        ("Action", "Answer", "AskPartner", "CallOut", "Claim", "Close", "Decline", "Draw",
         "Bid", "Call", "Give", "Kontra", "Question", "Raise", "Declare", "Exchange", "Pass",
         "Play"), _A),
    **dict.fromkeys(("action_text", "parse_action", "naming", "set_naming"),
                    "engine.actiontext"),
    "Observation": _O, "observe": _O, "load_rules": "spec.rulesload",
    "SeededDeals": _D, "canonical_deck": _D, "IllegalActionError": _E, "MariageError": _E,
    "OptionError": _E, "SpecError": _E, "Rules": "engine.rules",
    "list_rulesets": "spec.specload", "GameState": _S, "MatchResult": _S, "Phase": _S,
    "new_match": _S,
}


__getattr__, __dir__ = lazy_names(globals(), _LAZY)

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Answer",
    "AskPartner",
    "Bid",
    "Call",
    "CallOut",
    "Claim",
    "Close",
    "Declare",
    "Decline",
    "Draw",
    "Exchange",
    "GameState",
    "Give",
    "IllegalActionError",
    "Kontra",
    "MariageError",
    "MatchResult",
    "Observation",
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
    "naming",
    "new_match",
    "observe",
    "parse_action",
    "set_naming",
]

