"""Faulty engines for Marjapussi's asks, duties and match end that the stored suite
missed until the Node.js example engine (``conformance/examples/marjapussi_engine.js``)
made the same mistakes: one rule broken each."""

from __future__ import annotations

from dataclasses import replace

from mariage.engine.actions import Action, Answer, Declare
from mariage.engine.mechanisms import Asks, Declarations, MatchEnd
from mariage.engine.state import GameState

from . import faulty_core  # noqa: F401  (registered first: the list keeps its order)
from .faultkit import _fault, _m


class _OneAnswer(Asks):
    """A partner holding two marriages may name only the first suit (in suit order)."""

    __slots__ = ()

    def answers(self, st: GameState, seat: int) -> list[Action]:
        out = super().answers(st, seat)
        yes = [a for a in out if isinstance(a, Answer) and a.yes]
        return [a for a in out if a not in yes[1:]]


class _HalfYesNamesSuit(Asks):
    """A half-ask may be answered ``yes:S`` (naming the suit) as well as ``yes``."""

    __slots__ = ()

    def answers(self, st: GameState, seat: int) -> list[Action]:
        out = super().answers(st, seat)
        assert st.pending_ask is not None
        ask_i, _asker, suit = st.pending_ask
        if st.rules.asks[ask_i].kind != "any" and Answer(True) in out:
            out = [*out, Answer(True, suit)]
        return out


class _DeclineTrumpAnyTime(Declarations):
    """Where a marriage may decline trump, it may still do so once trump is set (a
    declaration that could not make trump anyway)."""

    __slots__ = ()

    def legal(self, st: GameState, seat: int) -> list[Action]:
        out = super().legal(st, seat)
        if st.trump < 0:
            return out
        r = st.rules
        return out + [replace(a, trump=False) for a in out if isinstance(a, Declare)
                      and a.trump and r.declarations[a.decl].trump_effect == "choose"]

    def apply_declare(self, st: GameState, seat: int, action: Declare) -> None:
        if not action.trump and st.trump >= 0 and 0 <= action.decl < len(st.rules.declarations) \
                and st.rules.declarations[action.decl].trump_effect == "choose":
            action = replace(action, trump=True)
        super().apply_declare(st, seat, action)


class _TieFirstWins(MatchEnd):
    """Both sides at or over the target with equal totals: the first side wins."""

    __slots__ = ()

    def check(self, st: GameState, after_hand: bool, reason: str) -> None:
        scores = self.judged(st)
        if len(scores) > 1 and min(scores) >= st.rules.match_target \
                and len(set(scores)) == 1:
            self.finish(st, 0, reason)
            return
        super().check(st, after_hand, reason)


_fault("marjapussi-one-answer", "marjapussi.ask.answer", "marjapussi",
       "a partner asked for a marriage who holds two may name only the first suit",
       mechanisms=_m(asks=_OneAnswer()))
_fault("beat-until-trumped", "marjapussi.play.beat", "marjapussi",
       "under must_beat a follower need not beat the suit's best card once the trick is "
       "trumped", duty="head_rule", head_beat="winning")
_fault("tie-first-wins", "marjapussi.match.tie", "marjapussi",
       "both sides at the target with equal totals: the first side wins instead of playing on",
       mechanisms=_m(match_end=_TieFirstWins()))
_fault("half-yes-names-suit", "marjapussi.ask.half.answer", "marjapussi",
       "a half-ask may be answered yes:S, naming the suit, as well as yes",
       mechanisms=_m(asks=_HalfYesNamesSuit()))
_fault("decline-trump-with-trump", "marjapussi.decl.trump", "marjapussi",
       "under trump_choice a marriage may be declined as trump once trump is set",
       mechanisms=_m(declarations=_DeclineTrumpAnyTime()))
