"""Faulty engines for the talon auction and the running totals (Thousand): the talon, the
compulsory opening, the bid cap, conceding, throwing a hand in, the barrel and bolts, the
seat sitting out, the dark bid and the golden hands, one rule broken each."""

from __future__ import annotations

from dataclasses import replace

from mariage.engine.actions import ChooseTalon, Declare
from mariage.engine.mechanisms import Auction, Declarations, RunningTotals, Talon, TrickPlay
from mariage.engine.mechanisms.base import refuse
from mariage.engine.phase import PASSING
from mariage.engine.state import GameState

from . import faulty_bidding  # noqa: F401  (registered first: the list keeps its order)
from .faultkit import _decls, _fault, _m

_RULESETS = "thousand thousand-pl thousand-4"


class _TalonLeftOut(Talon):
    """The declarer never takes the talon: it stays face down."""

    __slots__ = ()

    def take(self, st: GameState) -> None:
        pass


class _ForehandMayPass(Auction):
    """Forehand may pass at his first turn: there is no compulsory opening."""

    __slots__ = ()

    def must_open(self, st: GameState, seat: int) -> bool:
        return False


class _NoBidCap(Auction):
    """Any bid up to the highest is allowed, with or without a marriage."""

    __slots__ = ()

    def cap(self, st: GameState, hand: int) -> int:
        return self.ceiling(st.rules)


class _ConcedeForNothing(Talon):
    """A conceded hand scores nothing for anybody."""

    __slots__ = ()

    def concession_sheet(self, st: GameState) -> list[int]:
        return [0] * len(st.rules.teams)


class _AnyoneThrowsIn(Talon):
    """Any player may throw the hand in whenever some player could."""

    __slots__ = ()

    def throw_in_claim(self, st: GameState, seat: int) -> str | None:
        for s in range(st.rules.nseats):
            found = super().throw_in_claim(st, s)
            if found is not None:
                return found
        return None


class _OtherPacket(Talon):
    """The declarer gets the packet of the talon he did not choose."""

    __slots__ = ()

    def apply_choose(self, st: GameState, seat: int, action: ChooseTalon) -> None:
        other = (action.packet + 1) % st.rules.talon_packets
        super().apply_choose(st, seat, ChooseTalon(other) if st.pass_step < 0 else action)


class _NoBarrel(RunningTotals):
    """Totals pass the barrel freely: no clamp, no attempts, no collisions."""

    __slots__ = ()

    def barrel(self, st: GameState, on: list[bool], sides: tuple[int, ...]) -> None:
        pass


class _TieToHigherTotal(RunningTotals):
    """Of several players reaching the target in one hand the higher total wins, even
    over the declarer."""

    __slots__ = ()

    def settle(self, st: GameState, how: str, added: list[int]) -> tuple[int | None] | None:
        won = super().settle(st, how, added)
        if won is None:
            return won
        scores = st.match_scores
        reached = [t for t in range(len(scores))
                   if self.wins(st.rules.win_rule, scores[t], st.rules.match_target)]
        top = max(scores[t] for t in reached)
        best = [t for t in reached if scores[t] == top]
        return (best[0] if len(best) == 1 else None,)


class _NoBolts(RunningTotals):
    """A hand without a trick costs nothing, however often."""

    __slots__ = ()

    def bolts(self, st: GameState, added: list[int], sides: tuple[int, ...], decl: int,
              on: list[bool]) -> None:
        pass


class _NotrumpTaken(Declarations):
    """A marriage declared without trump (``marriage:H:notrump``) is taken as a plain
    marriage, which makes trump, instead of being refused."""

    __slots__ = ()

    def apply_declare(self, st: GameState, seat: int, action: Declare) -> None:
        super().apply_declare(st, seat, replace(action, trump=True))


class _AutoDeclareOnly(TrickPlay):
    """Where leading a marriage's card declares it, such a card is never led alone, even
    from a hand holding nothing else."""

    __slots__ = ()

    def lead_limits(self, st: GameState, seat: int, hand: int) -> int:
        out = super().lead_limits(st, seat, hand)
        if st.rules.decl_auto_rule is not None:
            out &= ~self.undeclared_pairs(st, seat, hand)
        return out


class _SitterConcedeNothing(Talon):
    """The seat sitting out scores nothing from the talon in a conceded hand."""

    __slots__ = ()

    def concession_sheet(self, st: GameState) -> list[int]:
        out = super().concession_sheet(st)
        if st.out >= 0:
            out[st.rules.team_of[st.out]] = 0
        return out


class _SitterAttempt(RunningTotals):
    """A player on the barrel uses an attempt in a hand he sits out, as in one he plays."""

    __slots__ = ()

    def barrel(self, st: GameState, on: list[bool], sides: tuple[int, ...]) -> None:
        super().barrel(st, on, tuple(range(len(st.match_scores))))


class _GoldenClaim(Talon):
    """A golden hand's lowest bid, when nobody raised it, is taken for the compulsory
    opening at the lowest bid: the talon claims are open to it."""

    __slots__ = ()

    @staticmethod
    def compulsory_minimum(st: GameState) -> bool:
        return st.contract == st.mech.auction.floor(st) and st.rules.opening != "free"


class _PacketOutOfPhase(Talon):
    """A packet chosen outside the packet's choice is refused as ``core.phase``."""

    __slots__ = ()

    def apply_choose(self, st: GameState, seat: int, action: ChooseTalon) -> None:
        if st.phase != PASSING:
            refuse(st, st.rules.core_phase, seat, action, "not the moment to choose")
        super().apply_choose(st, seat, action)


class _ScoreAsChange(RunningTotals):
    """The hand's score (``last_hand.score``) is the change of each total: the barrel's
    clamp and falls and a dump counted in it."""

    __slots__ = ()

    def settle(self, st: GameState, how: str, added: list[int]) -> tuple[int | None] | None:
        before = list(st.match_scores)
        won = super().settle(st, how, added)
        if how != "redeal":
            added[:] = [now - was for now, was in zip(st.match_scores, before, strict=True)]
        return won


_fault("talon-left-out", "thousand.talon", _RULESETS,
       "the declarer never takes the talon", mechanisms=_m(talon=_TalonLeftOut()))
_fault("forehand-may-pass", "thousand.auction.opening", _RULESETS,
       "forehand may pass at his first turn", mechanisms=_m(auction=_ForehandMayPass()))
_fault("no-bid-cap", "thousand.auction.cap", _RULESETS,
       "bids above 120 without a marriage", mechanisms=_m(auction=_NoBidCap()))
_fault("concede-for-nothing", "thousand.contract.concede", _RULESETS,
       "a conceded hand scores nothing", mechanisms=_m(talon=_ConcedeForNothing()))
_fault("anyone-throws-in", "thousand.throw-in", _RULESETS,
       "any player throws the hand in when one may", mechanisms=_m(talon=_AnyoneThrowsIn()))
_fault("no-barrel", "thousand.running.barrel", _RULESETS,
       "no barrel: totals pass it freely", mechanisms=_m(running=_NoBarrel()))
_fault("no-bolts", "thousand.running.bolts", _RULESETS,
       "hands without a trick cost nothing", mechanisms=_m(running=_NoBolts()))
_fault("other-packet", "thousand.talon.packets", "thousand-2",
       "the declarer gets the packet not chosen", mechanisms=_m(talon=_OtherPacket()))
_fault("leftover-lost", "thousand.score.leftover", "thousand-2",
       "the cards out of play score for nobody",
       patch=lambda r: replace(r, leftover_rule=None))
_fault("sitter-is-dealer", "thousand.deal.sitter", "thousand-4",
       "the dealer sits out whoever the rules name", sits_out_after=0)
_fault("dark-not-doubled", "thousand.auction.dark", _RULESETS + " thousand-2",
       "a dark contract scores single", blind_multiplier=1)
_fault("golden-not-doubled", "thousand.running.golden", _RULESETS + " thousand-2",
       "a golden hand scores single", golden_multiplier=1)
# found by the JS engine written from the docs (conformance/examples/thousand_engine.js)
_fault("first-marriage-trump", "thousand.marriage.trump", _RULESETS,
       "the first marriage's suit stays trump",
       patch=lambda r: _decls(r, "trump_rule", "thousand.marriage.trump",
                              trump_effect="first_fixes"))
_fault("tie-to-higher-total", "thousand.match.tie", _RULESETS,
       "the higher total wins a tie at the target", mechanisms=_m(running=_TieToHigherTotal()))
_fault("win-past-target", "thousand.running.win", _RULESETS,
       "a total on the target does not win",
       patch=lambda r: replace(r, win_rule="more_than") if r.win_rule == "at_least" else r)
_fault("marriage-notrump-taken", "thousand.marriage.trump", _RULESETS,
       "marriage:H:notrump is taken as a plain marriage",
       mechanisms=_m(declarations=_NotrumpTaken()))
_fault("score-counts-clamp", "thousand.running.barrel", _RULESETS,
       "the hand's score counts the barrel's clamp", mechanisms=_m(running=_ScoreAsChange()))
_fault("score-counts-dump", "thousand.running.dump", _RULESETS,
       "the hand's score counts a dump", mechanisms=_m(running=_ScoreAsChange()))
_fault("score-counts-golden-reset", "thousand.running.golden", _RULESETS,
       "the hand's score counts the golden reset", mechanisms=_m(running=_ScoreAsChange()))
_fault("auto-declare-only", "thousand.marriage.auto", _RULESETS,
       "a hand of a declarable pair alone must declare it",
       mechanisms=_m(tricks=_AutoDeclareOnly()))
_fault("sitter-concede-nothing", "thousand.talon.sitter", "thousand-4 thousand-pl",
       "the seat sitting out scores nothing in a conceded hand",
       mechanisms=_m(talon=_SitterConcedeNothing()))
_fault("sitter-uses-attempt", "thousand.running.barrel", "thousand-4",
       "a hand sat out uses a barrel attempt", mechanisms=_m(running=_SitterAttempt()))
_fault("golden-claim", "thousand.throw-in.weak-talon", "thousand",
       "a golden hand's 120 nobody raised gives the talon claims",
       mechanisms=_m(talon=_GoldenClaim()))
_fault("packet-out-of-phase", "thousand.talon.packets", "thousand-2",
       "a packet chosen in the auction is refused as core.phase",
       mechanisms=_m(talon=_PacketOutOfPhase()))
