"""The mechanisms of the interpreter, one module each.

:class:`~mariage.engine.state.GameState` holds the data of a match and dispatches
every action to the mechanism that runs it. Each mechanism lives in its own
module with its legal actions, its apply, its refusal reasons and the rule
IDs it runs, so a reader with a rule ID finds the YAML, and then the one
module that executes it (:func:`mechanism_of`).

================  ==========================  ====================================
module            mechanism                   runs
================  ==========================  ====================================
``dealing``       :class:`Dealing`            the deal, rotation, first lead
``trickplay``     :class:`TrickPlay`          legal cards, duties, trick winner, draw
``declarations``  :class:`Declarations`       combinations, windows, values, trump
``asks``          :class:`Asks`               questions to the partner, split marriages
``exchange``      :class:`TrumpExchange`      exchange of a trump for the turn-up
``callout``       :class:`CallingOut`         claims to have reached the target
``scoring``       :class:`Scoring`            hand target, hand scores
``matchend``      :class:`MatchEnd`           match target, ties, resignation
``heldcredit``    :class:`HeldCredit`         declaration points held until a trick
``closing``       :class:`TalonClosing`       closing the stock, the switch to strict play
``claims``        :class:`Claims`             claims of the hand target, the moment after a trick
``gamepoints``    :class:`GamePoints`         game points by how a hand ended, next dealer
``capture``       :class:`CaptureBonus`       a bonus for winning a named card in a trick
``auction``       :class:`Auction`            bids, passes, declarer, nobody bidding
``passing``       :class:`Passing`            cards passed between partners
``contract``      :class:`Contract`           game value, raise, Kontra, made/failed
``questions``     :class:`TrumpCalls`         trump calls, questions, asking levels
``taking``        :class:`TurnedCardTaking`   taking the turned card in rounds, second deal
``announce``      :class:`Announcements`      runs and sets announced, compared between sides
``trumppair``     :class:`TrumpPair`          the pair of trumps said as it is played
``takerscore``    :class:`TakersScore`        made / failed / held-over tie, capot, rounding
``suitauction``   :class:`SuitAuction`        bids of a value and a suit, coinche, surcoinche
``talon``         :class:`Talon`              the declarer's talon, conceding
``running``       :class:`RunningTotals`      barrel, bolts, dumps, winning
================  ==========================  ====================================

**Where they meet.** A mechanism never calls another's internals. At a moment
of the hand where other rules wait (after a trick, the next lead, declaration
points counted, the hand scored, the match over) it runs the handlers of a hook
(:mod:`mariage.engine.mechanisms.hooks`), which each mechanism declares for the
rules that need it; otherwise it may only take the ``steps`` another declares
(end the hand, open the next trick...).

**Extension point.** A mechanism is a stateless object; a
:class:`Mechanisms` set names one of each. To change how one part of the
rules works (for an experiment, or a deliberately faulty engine), subclass
that mechanism, override its public methods, and pass the changed set:

>>> from dataclasses import replace
>>> from mariage import load_rules, GameState
>>> class NoDraw(TrickPlay):
...     def draw(self, st, winner):
...         pass
>>> mech = replace(DEFAULT_MECHANISMS, tricks=NoDraw())
>>> state = GameState(load_rules("marianna"), first_dealer=0, mechanisms=mech)
>>> state.mech.tricks.name
'trick play and duties'
>>> mechanism_of(load_rules("marianna"), "marianna.draw").__module__
'mariage.engine.mechanisms.trickplay'
"""

from __future__ import annotations

from typing import Any

from ...lazyrecord import field, field_names, frozen_record
from ..arguments import check_rules
from ..rules import Rules
from .announce import Announcements
from .asks import Asks

# bidding games
from .auction import Auction
from .base import Mechanism, refuse
from .callout import CallingOut
from .capture import CaptureBonus
from .claims import Claims
from .closing import TalonClosing
from .contract import Contract
from .dealing import Dealing
from .declarations import Declarations
from .exchange import TrumpExchange
from .gamepoints import GamePoints
from .heldcredit import HeldCredit
from .matchend import MatchEnd
from .passing import Passing
from .questions import TrumpCalls
from .runningtotals import RunningTotals
from .scoring import Scoring
from .suitauction import SuitAuction
from .takerscore import TakersScore
from .taking import TurnedCardTaking
from .talon import Talon
from .trickplay import TrickPlay
from .trumppair import TrumpPair

__all__ = [
    "DEFAULT_MECHANISMS",
    "Announcements",
    "Asks",
    "Auction",
    "CallingOut",
    "CaptureBonus",
    "Claims",
    "Contract",
    "Dealing",
    "Declarations",
    "GamePoints",
    "HeldCredit",
    "MatchEnd",
    "Mechanism",
    "Mechanisms",
    "Passing",
    "RunningTotals",
    "Scoring",
    "SuitAuction",
    "TakersScore",
    "Talon",
    "TalonClosing",
    "TrickPlay",
    "TrumpCalls",
    "TrumpExchange",
    "TrumpPair",
    "TurnedCardTaking",
    "mechanism_of",
    "refuse",
]


@frozen_record
class Mechanisms:
    """One instance of each mechanism: what a :class:`~mariage.engine.state.GameState` runs."""

    dealing: Dealing = field(default_factory=Dealing)
    tricks: TrickPlay = field(default_factory=TrickPlay)
    declarations: Declarations = field(default_factory=Declarations)
    asks: Asks = field(default_factory=Asks)
    exchange: TrumpExchange = field(default_factory=TrumpExchange)
    call_out: CallingOut = field(default_factory=CallingOut)
    scoring: Scoring = field(default_factory=Scoring)
    match_end: MatchEnd = field(default_factory=MatchEnd)
    # ---- talon games
    held_credit: HeldCredit = field(default_factory=HeldCredit)
    closing: TalonClosing = field(default_factory=TalonClosing)
    claims: Claims = field(default_factory=Claims)
    game_points: GamePoints = field(default_factory=GamePoints)
    capture: CaptureBonus = field(default_factory=CaptureBonus)
    # bidding games
    auction: Auction = field(default_factory=Auction)
    passing: Passing = field(default_factory=Passing)
    contract: Contract = field(default_factory=Contract)
    calls: TrumpCalls = field(default_factory=TrumpCalls)
    # a turned card taken in rounds, announcements, the pair of trumps, the takers' score
    taking: TurnedCardTaking = field(default_factory=TurnedCardTaking)
    announcements: Announcements = field(default_factory=Announcements)
    trump_pair: TrumpPair = field(default_factory=TrumpPair)
    takers: TakersScore = field(default_factory=TakersScore)
    suit_auction: SuitAuction = field(default_factory=SuitAuction)
    # talon auctions and running totals
    talon: Talon = field(default_factory=Talon)
    running: RunningTotals = field(default_factory=RunningTotals)

    def all(self) -> tuple[Mechanism, ...]:
        """Every mechanism of the set, in the order of the fields."""
        return tuple(getattr(self, name) for name in field_names(type(self)))

    def owner(self, path: str) -> Mechanism | None:
        """The mechanism that runs the rule at ``path`` of a description, or ``None``."""
        best: Mechanism | None = None
        score = 0
        for m in self.all():
            c = m.claim(path)
            if c > score:
                best, score = m, c
        return best

    def rule_ids(self, mechanism: Mechanism, rules: Rules) -> list[str]:
        """The IDs of the rules of ``rules`` that ``mechanism`` runs, in document order.

        >>> from mariage import load_rules
        >>> DEFAULT_MECHANISMS.rule_ids(DEFAULT_MECHANISMS.call_out, load_rules("mariaggia"))
        ['mariaggia.call-out', 'mariaggia.call-out.penalty']
        """
        return [i.id for i in rules.infos if self.owner(i.path) is mechanism]

    def __reduce__(self) -> str | tuple[Any, ...]:
        """The reference's own set is pickled (and copied) by name, so that it comes
        back as the same object: generated code tells a state of the reference's
        mechanisms by identity (:mod:`~mariage.engine.mechanisms.dealing`).

        >>> import pickle
        >>> pickle.loads(pickle.dumps(DEFAULT_MECHANISMS)) is DEFAULT_MECHANISMS
        True
        >>> pickle.loads(pickle.dumps(Mechanisms())) is DEFAULT_MECHANISMS
        False
        """
        if self is DEFAULT_MECHANISMS:
            return "DEFAULT_MECHANISMS"
        return (type(self), tuple(getattr(self, name) for name in field_names(type(self))))


#: the mechanisms of the reference interpreter
DEFAULT_MECHANISMS = Mechanisms()


def mechanism_of(rules: Rules, rule_id: str,
                 mechanisms: Mechanisms = DEFAULT_MECHANISMS) -> Mechanism | None:
    """The mechanism that runs rule ``rule_id`` of ``rules``, or ``None``.

    ``None`` means the rule is a fact of the description that the compiled
    rules carry (the pack, the seats, the visibility of hands, which
    :mod:`mariage.engine.observation` applies), or one of the core rules of turn
    and phase that :class:`~mariage.engine.state.GameState` checks as it dispatches.
    """
    check_rules(rules, "mechanism_of")
    for info in rules.infos:
        if info.id == rule_id:
            return mechanisms.owner(info.path)
    return None
