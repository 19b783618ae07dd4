"""Faulty engines for Belote and its auction presets: trump order, the duties that depend
on the suit led or the partner, taking the turned card, announcements compared between
the teams, belote-rebelote, the takers' score and the auction, one rule broken each."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mariage.engine.mechanisms import Announcements, SuitAuction, TakersScore
from mariage.engine.rules import Rules, When
from mariage.engine.state import GameState

from . import faulty_bidding  # noqa: F401  (registered first: the list keeps its order)
from .faultkit import _fault, _m

ALL = "belote belote-coinche belote-contree"
WITH_ANNOUNCEMENTS = "belote belote-coinche"


class _WrongTeamAnnouncements(Announcements):
    """The team with the weaker best announcement scores (the comparison reversed)."""

    __slots__ = ()

    def best_side(self, st: GameState) -> int:
        best = super().best_side(st)
        return best if best < 0 else st.opponent(best)


class _TiedAnnouncementsBothScore(Announcements):
    """Equal best announcements of both teams: each team scores its own."""

    __slots__ = ()

    def points(self, st: GameState) -> list[int]:
        if super().best_side(st) >= 0 or not st.announced:
            return super().points(st)
        r = st.rules
        out = [0] * len(r.teams)
        for made in st.announced:
            out[r.team_of[made[0]]] += self.value(st, made)
        return out


class _DoubleOwnSide(SuitAuction):
    """A player may double his partner's bid as well as an opponent's."""

    __slots__ = ()

    def may_double(self, st: GameState, seat: int) -> bool:
        return not st.kontras and st.high_bidder >= 0


class _GeneraleBySide(TakersScore):
    """A générale is made when the bidder's side takes every trick, his partner's too."""

    __slots__ = ()

    def outcome(self, st: GameState) -> str:
        r = st.rules
        if st.contract and st.contract == r.sa_generale_value:
            side = st.tricks_won[r.team_of[st.declarer]]
            return "made" if side == r.hand_size + st.draw_tricks else "failed"
        return super().outcome(st)


class _CapotKeepsOwn(TakersScore):
    """Takers who make a capot do not score the defenders' counting announcements."""

    __slots__ = ()

    def sheet(self, st: GameState, how: str) -> list[int]:
        out = super().sheet(st, how)
        r = st.rules
        if how != "played_out" or st.contract:
            return out
        taker = r.team_of[st.declarer]
        if st.tricks_won[taker] == r.hand_size + st.draw_tricks:
            ann = self.totals(st)[1]
            out[taker] -= sum(a for t, a in enumerate(ann) if t != taker)
        return out


class _LitigeDropped(TakersScore):
    """The total held from a litige is never paid: the next deal's winner does not get it."""

    __slots__ = ()

    def sheet(self, st: GameState, how: str) -> list[int]:
        if how != "played_out":
            return super().sheet(st, how)
        held, st.pot = st.pot, 0
        out = super().sheet(st, how)
        if st.deal_outcome == "tied":  # a litige again: the held total grows
            st.pot += held
        return out


def _belote(rules: Rules, **changes: Any) -> Rules:
    return replace(rules, **changes) if rules.takers_rule is not None else rules


def _plain_trumps(rules: Rules) -> Rules:
    """The trump suit ranks and scores its cards like a plain suit."""
    n = len(rules.suits)
    return _belote(rules, role_strength=(rules.strength,) * n, role_points=(rules.points,) * n,
                   role_higher=(rules.higher,) * n)


def _eights_count(rules: Rules) -> Rules:
    combos = tuple(replace(c, rank_values=tuple(
        100 if rules.ranks[i] == "8" else v for i, v in enumerate(c.rank_values)),
        rank_order=(*c.rank_order, rules.ranks.index("8")))
        if c.same_rank else c for c in rules.combos)
    return _belote(rules, combos=combos)


def _strain_table(rules: Rules, kind: str, **changes: Any) -> Rules:
    """Change the role tables of the contract ``kind`` (no_trump, all_trump) with
    ``changes``: field name -> the new table of that contract."""
    if kind not in rules.strain_kinds:
        return rules
    i = len(rules.suits) + rules.strain_kinds.index(kind)
    tables: dict[str, Any] = {f: (*getattr(rules, f)[:i], v, *getattr(rules, f)[i + 1:])
                              for f, v in changes.items()}
    return replace(rules, **tables)


def _all_trump_exempt(rules: Rules) -> Rules:
    ob = rules.all_trump_obligation
    return rules if ob is None else replace(rules, all_trump_obligation=replace(
        ob, head=When.OPPONENT_WINNING))


_fault("sans-atout-ace-eleven", "belote.pack.sans-atout", "belote-coinche belote-contree",
       "in a sans-atout contract the ace scores 11, not 19",
       lambda r: _strain_table(r, "no_trump", role_points=r.points))
_fault("tout-atout-plain-order", "belote.pack.tout-atout", "belote-coinche belote-contree",
       "in tout-atout every suit ranks in plain order (A-10-K-Q-J-9)",
       lambda r: _strain_table(r, "all_trump", role_strength=r.strength,
                               role_higher=r.higher))
_fault("tout-atout-partner-free", "belote.play.tout-atout", "belote-coinche belote-contree",
       "in tout-atout a player need not beat his partner's winning card",
       _all_trump_exempt)
_fault("trump-plain-order", "belote.pack.trump", ALL,
       "the trump suit ranks A-10-K-Q-J-9 and scores like a plain suit",
       _plain_trumps)
_fault("partner-exempt-in-trumps", "belote.play.trump-led", ALL,
       "when trumps are led a player need not beat his partner's trump",
       duty="head_rule", head=When.OPPONENT_WINNING)
_fault("trump-over-partner", "belote.play.partner-winning", ALL,
       "a void player must trump even when his partner is winning the trick",
       duty="void_partner_rule", void_when=When.ALWAYS)
_fault("undertrump-partner", "belote.play.partner-winning", WITH_ANNOUNCEMENTS,
       "a void player may play a trump below his partner's winning trump",
       duty="void_partner_rule", void_partner="free")
_fault("no-forced-undertrump", "belote.play.void", "belote",
       "a void player who cannot beat an opponent's trump may discard",
       duty="void_rule", void_duty="beat")
_fault("forced-undertrump", "belote.play.void", "belote-coinche belote-contree",
       "a void player who cannot beat an opponent's trump must still play a lower one",
       duty="void_rule", void_duty="overtrump")
_fault("second-round-turned-suit", "belote.take.second-round", "belote",
       "the turn-up's suit may be named again in the second round",
       lambda r: _belote(r, take_other_suits=False))
_fault("second-deal-from-taker", "belote.take.second-deal", "belote",
       "the second deal starts with the taker instead of eldest",
       lambda r: _belote(r, second_deal_start="taker"))
_fault("wrong-team-announcements", "belote.announce.compare", WITH_ANNOUNCEMENTS,
       "the team with the weaker best announcement scores its announcements",
       mechanisms=_m(announcements=_WrongTeamAnnouncements()))
_fault("tied-announcements-score", "belote.announce.tie", "belote",
       "equal best announcements of the two teams both score",
       mechanisms=_m(announcements=_TiedAnnouncementsBothScore()))
_fault("carre-of-eights", "belote.announce.carre", "belote",
       "four eights are announced as a carré worth 100",
       _eights_count)
_fault("belote-not-scored", "belote.belote", ALL,
       "belote-rebelote is worth nothing",
       lambda r: _belote(r, pair_value=0))
_fault("belote-lost-on-failure", "belote.score.belote-kept", WITH_ANNOUNCEMENTS,
       "failed takers lose their belote to the defenders",
       lambda r: _belote(r, takers_pair_on_failure="goes_to_winner"))
_fault("litige-fails", "belote.score.litige", ALL,
       "equal totals make the takers fail instead of holding their points",
       lambda r: _belote(r, takers_tie="tie_fails"))
_fault("capot-counts-ten", "belote.score.capot", ALL,
       "a capot counts the usual 10 for the last trick, not 100",
       lambda r: _belote(r, capot_value=r.last_trick_points))
_fault("no-dix-de-der", "belote.score.dix-de-der", ALL,
       "the last trick is worth no 10",
       lambda r: _belote(r, last_trick_points=0))
_fault("bids-in-fives", "belote-coinche.auction.bids", "belote-coinche belote-contree",
       "bids may rise by 5 instead of 10",
       lambda r: _belote(r, sa_step=5))
_fault("double-own-side", "belote-coinche.auction.coinche", "belote-coinche belote-contree",
       "a player may double his partner's bid",
       mechanisms=_m(suit_auction=_DoubleOwnSide()))
_fault("only-the-bid-doubled", "belote-coinche.score.doubled",
       "belote-coinche belote-contree",
       "a double multiplies only the bid, not the 160 and the announcements",
       lambda r: _belote(r, bid_multiplier_base="bid_only"))
_fault("generale-by-the-side", "belote-coinche.auction.generale",
       "belote-coinche belote-contree",
       "a générale is made when the bidder's side takes every trick, his partner's too",
       mechanisms=_m(takers=_GeneraleBySide()))
_fault("coinche-only-in-turn", "belote-coinche.auction.coinche-at-once",
       "belote-coinche belote-contree",
       "where a coinche is said as soon as the bid is made, it is still said only in turn",
       sa_double_window_rule=None)
_fault("rounded-totals-always", "belote-coinche.match.rounded-totals",
       "belote-coinche belote-contree",
       "the rounded scores decide the game even where the totals before rounding should",
       round_decides_game=True)
_fault("exact-totals-always", "belote-coinche.match.rounded-totals",
       "belote-coinche belote-contree",
       "the totals before rounding decide the game even where the written scores should",
       round_decides_game=False)
_fault("capot-keeps-own", "belote.score.capot", "belote",
       "takers who make a capot do not score the defenders' counting announcements",
       mechanisms=_m(takers=_CapotKeepsOwn()))
_fault("litige-dropped", "belote.score.litige", "belote",
       "the total held from a litige is never paid to the winner of the next played deal",
       mechanisms=_m(takers=_LitigeDropped()))
_fault("tie-ends-drawn", "belote.match.tie", "belote",
       "equal totals at or over the target end the game as a draw instead of another deal",
       lambda r: _belote(r, tie_mode="draw"))
