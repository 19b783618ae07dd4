"""Faulty engines for Marjapussi's asks, duties and match end that the stored suite
missed until the Node.js example engine (``conformance/examples/marjapussi_engine.js``)
made the same mistakes: one rule broken each."""

from __future__ import annotations

from mariage.engine.actions import Action, Answer
from mariage.engine.mechanisms import Asks, MatchEnd
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
