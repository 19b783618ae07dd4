"""Faulty engines for the original games (Marianna, Mariglia, Mariaggia and their
relatives): one rule broken each, by a patch of the rules or a replaced mechanism."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mariage.engine.actions import Action, Answer, AskPartner, CallOut, Declare, Play
from mariage.engine.mechanisms import (
    Asks,
    CallingOut,
    Dealing,
    Declarations,
    MatchEnd,
    Scoring,
    TrickPlay,
)
from mariage.engine.rules import Declaration, Rules, When
from mariage.engine.state import GameState, Phase

from .faultkit import (
    _asks,
    _decls,
    _exchange_two,
    _fault,
    _m,
    _no_cutoff,
    _points,
    _when,
)


# ------------------------------------------------------------ mechanism overrides
class _Scratch(GameState):
    """A state that can carry a faulty mechanism's own notes (it has a ``__dict__``)."""


def _judged_under(st: GameState, trump: int, winner_index: Callable[[GameState], int]) -> int:
    """The trick's winner as ``winner_index`` judges it with ``trump`` in force; the
    state's trump is left as it was."""
    saved = st.trump
    st.trump = trump
    try:
        return winner_index(st)
    finally:
        st.trump = saved


class _TrumpAtStart(TrickPlay):
    """The trick goes by the trump in force when the trick was led."""

    def start_trick(self, st: GameState, leader: int) -> None:
        super().start_trick(st, leader)
        setattr(st, "trump0", st.trump)  # noqa: B010 - a note only this fault keeps

    def winner_index(self, st: GameState) -> int:
        return _judged_under(st, getattr(st, "trump0", st.trump), super().winner_index)


class _LeaderDrawsFirst(TrickPlay):
    """After a trick, drawing starts with the trick's leader instead of its winner."""

    def draw(self, st: GameState, winner: int) -> None:
        super().draw(st, st.leader)


class _DealerLeads(Dealing):
    """The dealer leads to the first trick instead of the player after him."""

    def deal(self, st: GameState, deck: Any, first_player: int | None = None) -> None:
        super().deal(st, deck, first_player)
        if st.dealer is not None and st.phase in (Phase.PLAY, Phase.WINDOW):
            st.leader = st.dealer
            st.to_act = st.dealer


class _DeclareAgain(Declarations):
    """A declared suit is not remembered: the same marriage can be declared again."""

    def declare(self, st: GameState, seat: int, d: Declaration, suit: int,
                make_trump: bool) -> None:
        super().declare(st, seat, d, suit, make_trump)
        if d.same_suit:
            st.used_suit[d.index][seat] &= ~(1 << suit)


class _KingAlone(Declarations):
    """A king alone (without its queen) is accepted as a marriage."""

    def melds(self, st: GameState, d: Declaration, seat: int, hand: int) -> list[int]:
        out = super().melds(st, d, seat, hand)
        if not d.same_suit:
            return out
        king = st.rules.ranks.index("K")
        used = 0
        for u in st.used_suit[d.index]:
            used |= u
        for s in range(len(st.rules.suits)):
            k = st.rules.card_index_of(s, king)
            if hand >> k & 1 and s not in out and not used >> s & 1:
                out.append(s)
        return sorted(out)

    def legal(self, st: GameState, seat: int) -> list[Action]:
        r = st.rules
        out: list[Action] = []
        for d in r.declarations:
            for s in self.melds(st, d, seat, st.hands[seat]):
                out.append(Declare(d.index, s))
        return out

    def pattern_held(self, st: GameState, d: Declaration, hand: int, suit: int) -> bool:
        return True


class _FailedAskKeepsRight(Asks):
    """A partner's 'no' gives the asker his declaration right back."""

    def apply_answer(self, st: GameState, seat: int, action: Answer) -> None:
        pending = st.pending_ask
        super().apply_answer(st, seat, action)
        if pending is not None and not action.yes:
            st.decl_this_trick[pending[1]] -= 1


class _SplitScoresAnyway(Asks):
    """A split marriage scores even when the other side wins its trick."""

    def settle_split(self, st: GameState, winner: int) -> None:
        assert st.split is not None
        ask, _team, suit = st.split
        st.split = (ask, st.rules.team_of[winner], suit)
        super().settle_split(st, winner)


class _YesWithoutCard(Asks):
    """A partner may say yes to a cover ask without holding the other card."""

    def answers(self, st: GameState, seat: int) -> list[Action]:
        out = super().answers(st, seat)
        if Answer(True) not in out and st.pending_ask is not None \
                and st.rules.asks[st.pending_ask[0]].kind == "half":
            out.insert(0, Answer(True))
        return out

    def apply_answer(self, st: GameState, seat: int, action: Answer) -> None:
        if action.yes and action not in super().answers(st, seat):
            st.pending_ask = None
            st.phase = Phase.PLAY
            st.to_act = st.leader
            return
        super().apply_answer(st, seat, action)


class _ClaimWithoutHand(CallingOut):
    """A call-out counts only the running total, not this hand's points."""

    def settle(self, st: GameState, seat: int) -> None:
        team = st.rules.team_of[seat]
        if st.match_scores[team] >= st.rules.match_target:
            super().settle(st, seat)
        else:
            st.mech.scoring.end_hand(st, "call_out_failed", zero_team=team)


class _TurnUpDrawnFirst(Dealing):
    """The turned-up card is put on top of the stock instead of under it."""

    def deal(self, st: GameState, deck: Any, first_player: int | None = None) -> None:
        super().deal(st, deck, first_player)
        if st.rules.turn_up == "under_stock" and st.stock:
            st.stock.append(st.stock.pop(0))


class _DealerBackwards(Dealing):
    """The deal passes to the previous seat instead of the next."""

    def rotate_dealer(self, st: GameState) -> None:
        if st.dealer is not None and st.next_dealer is None:
            st.dealer = (st.dealer - 1) % st.rules.nseats
            return
        super().rotate_dealer(st)


class _AnyCardPlays(TrickPlay):
    """A card that is not in the hand is taken as if it were."""

    def apply_play(self, st: GameState, seat: int, action: Play) -> None:
        if 0 <= action.card < st.rules.ncards and st.phase == Phase.PLAY:
            holder = [s for s in range(st.rules.nseats) if st.hands[s] >> action.card & 1]
            if seat not in holder:
                st.hands[seat] |= 1 << action.card
                for s in holder:
                    st.hands[s] &= ~(1 << action.card)
                st.forced[seat] = -1
                st.trick_seats.append(seat)
                st.trick_cards.append(action.card)
                st.hands[seat] ^= 1 << action.card
                if len(st.trick_cards) < st.rules.nseats:
                    st.to_act = (seat + 1) % st.rules.nseats
                else:
                    self.finish_trick(st)
                return
        super().apply_play(st, seat, action)


class _FirstToCrossWins(MatchEnd):
    """When both sides pass the target in one hand, the first side in seat order wins."""

    def check(self, st: GameState, after_hand: bool, reason: str) -> None:
        scores = self.measure(st)
        reached = [t for t, v in enumerate(scores) if v >= st.rules.match_target]
        if len(reached) > 1:
            self.finish(st, reached[0], reason)
            return
        super().check(st, after_hand, reason)


class _MajorityOnTie(Scoring):
    """A tie in card points still gives the majority point (to the first side)."""

    def hand_score(self, st: GameState, how: str) -> tuple[list[int], int | None]:
        added, winner = super().hand_score(st, how)
        r = st.rules
        if (r.score_kind == "table" and how == "played_out"
                and r.table_majority_mode == "separate"):
            top = max(st.captured)
            if st.captured.count(top) > 1:
                added[st.captured.index(top)] += r.table_majority
        return added, winner


class _AnswerDeclaredSuit(Asks):
    """A partner asked for any marriage may name one whose suit was declared already."""

    def answers(self, st: GameState, seat: int) -> list[Action]:
        out = super().answers(st, seat)
        assert st.pending_ask is not None
        a = st.rules.asks[st.pending_ask[0]]
        if a.kind != "any":
            return out
        d = st.rules.declarations[a.declaration]
        hand = st.hands[seat]
        extra: list[Action] = [Answer(True, s) for s, m in enumerate(d.suit_masks)
                               if hand & m == m and Answer(True, s) not in out]
        return extra + out


class _AnyTrumpBeatsTrumpLed(TrickPlay):
    """When trump is led, any later trump takes the trick, however low."""

    def winner_index(self, st: GameState) -> int:
        cards, trump, suit_of = st.trick_cards, st.trump, st.rules.suit_of
        if trump >= 0 and suit_of[cards[0]] == trump:
            return max(i for i, c in enumerate(cards) if suit_of[c] == trump)
        return super().winner_index(st)


class _PlayedTrumpLoses(TrickPlay):
    """A trump played to a plain suit does not win: the best card of the suit led does."""

    def winner_index(self, st: GameState) -> int:
        trump = st.trump
        if trump >= 0 and st.rules.suit_of[st.trick_cards[0]] != trump:
            trump = -1
        return _judged_under(st, trump, super().winner_index)


class _SplitOnlyForAsker(Asks):
    """A split marriage counts only when the asker himself wins its trick."""

    def settle_split(self, st: GameState, winner: int) -> None:
        assert st.split is not None
        asker = next(seat for seat, action in reversed(st.actions)
                     if isinstance(action, AskPartner))
        if winner != asker:
            ask, _team, suit = st.split
            st.split = (ask, -1, suit)
        super().settle_split(st, winner)


# The dispatch itself is GameState's: these two faults override its public apply.
class _SeatIgnored(GameState):
    """Whoever the action is sent for, it is taken as the seat to act's."""

    def apply(self, action: Action, seat: int | None = None) -> None:
        super().apply(action, None if not isinstance(action, CallOut) else seat)


class _PlaysAfterEnd(GameState):
    """Actions after the end of the match are silently accepted."""

    def apply(self, action: Action, seat: int | None = None) -> None:
        if self.phase == Phase.OVER:
            return
        super().apply(action, seat)



def _mariannino_ordered(r: Rules) -> Rules:
    return _decls(r, "rule", "marianna.decl.mariannino", ordered=True)


# ------------------------------------------------------------------ the faults
_fault("trump-at-start", "marianna.trick.winner", "marianna",
       "the trick is judged by the trump in force when it was led, so a marianna declared "
       "during the trick does not count for it",
       mechanisms=_m(tricks=_TrumpAtStart()), state_class=_Scratch)
_fault("marianna-values-shifted", "marianna.decl.value", "marianna",
       "marianna values one step off: the first scores 60, the second 80...",
       lambda r: _decls(r, "value_rule", "marianna.decl.value", schedule=(60, 80, 100, 100)))
_fault("leader-draws-first", "marianna.draw", "marianna",
       "after a trick the leader draws first instead of the winner",
       mechanisms=_m(tricks=_LeaderDrawsFirst()))
_fault("declare-after-stock", "marianna.decl.window", "marianna",
       "declarations still allowed once the stock is exhausted",
       _no_cutoff)
_fault("dealer-leads", "marianna.lead.first", "marianna",
       "the dealer leads to the first trick instead of the player on his right",
       mechanisms=_m(dealing=_DealerLeads()))
_fault("marianna-again", "marianna.decl.once", "marianna",
       "the same suit's marianna may be declared twice in a hand",
       mechanisms=_m(declarations=_DeclareAgain()))
_fault("two-declarations-per-trick", "marianna.decl.per-trick", "marianna",
       "a player may declare twice in one trick",
       decl_per_trick=2)
_fault("king-alone", "marianna.decl.marianna", "marianna",
       "a king without its queen is accepted as a marianna",
       mechanisms=_m(declarations=_KingAlone()))
_fault("mariannino-in-order", "marianna.decl.mariannino", "marianna",
       "a mariannino counts as a marianna in the order of values", _mariannino_ordered)
_fault("mariannone-no-win", "marianna.decl.mariannone.value", "marianna",
       "a mariannone scores 500 but does not win the match",
       lambda r: _decls(r, "value_rule", "marianna.decl.mariannone.value", wins_match=False))
_fault("target-exceeded", "marianna.match.end", "marianna",
       "the match ends only when a team goes past the target, not when it reaches it",
       lambda r: _when(r, "marianna.match.end", match_target=r.match_target + 1))
_fault("deal-one-by-one", "marianna.deal", "marianna",
       "cards are dealt one at a time instead of in packets of five",
       packet=1)
_fault("ace-counts-ten", "marianna.pack", "marianna", "aces count 10 instead of 11", _points)
_fault("dealer-backwards", "marianna.deal.rotation", "marianna",
       "the deal passes to the previous seat instead of the next",
       mechanisms=_m(dealing=_DealerBackwards()))
_fault("cinquecento-trump-changes", "cinquecento.decl.trump", "cinquecento",
       "in Cinquecento every marianna changes trump, as in Marianna",
       lambda r: _decls(r, "trump_rule", "cinquecento.decl.trump", trump_effect="set"))
_fault("cinquecento-marianna-values", "cinquecento.decl.value", "cinquecento",
       "Cinquecento mariannas valued 40-60-80-100 as in Marianna",
       lambda r: _decls(r, "value_rule", "cinquecento.decl.value", schedule=(40, 60, 80, 100)))
_fault("cover-with-trump", "siciliana.ask.cover", "marianna-siciliana",
       "the cover ask is allowed after trump is set",
       lambda r: _asks(r, "rule", "siciliana.ask.cover", needs_no_trump=False))
_fault("cover-ask-keeps-declaration", "siciliana.ask.declaration", "marianna-siciliana",
       "asking for a cover leaves the asker's declaration for the trick open",
       lambda r: _asks(r, "rule", "siciliana.ask.cover", uses_declaration=False))
_fault("cover-scores-when-lost", "siciliana.ask.cover-play", "marianna-siciliana",
       "a split marriage scores whoever wins its trick", mechanisms=_m(asks=_SplitScoresAnyway()))
_fault("cover-yes-without-card", "siciliana.ask.answer", "marianna-siciliana",
       "the partner may answer yes to a cover ask without the other card",
       mechanisms=_m(asks=_YesWithoutCard()))
_fault("mariglia-no-overtrump", "mariglia.play.overtrump", "mariglia",
       "no duty to trump (or overtrump) when void and an opponent is winning",
       duty="void_rule", void_duty="none")
_fault("mariglia-trump-partner", "mariglia.play.overtrump", "mariglia",
       "a void player must trump even when his partner is winning",
       duty="void_rule", void_when=When.ALWAYS)
_fault("mariglia-head-always", "mariglia.play.head", "mariglia",
       "a follower must beat the trick even when his partner is winning it",
       duty="head_rule", head=When.ALWAYS)
_fault("mariglia-no-follow", "mariglia.play.follow", "mariglia",
       "no duty to follow suit",
       duty="follow_rule", follow=False)
_fault("mariglia-no-turn-up-bonus", "mariglia.score.turn-up", "mariglia",
       "the turned-up card's points are not scored for the dealer's team",
       turn_up_bonus=False)
_fault("mariglia-no-trick-points", "mariglia.score.hand", "mariglia",
       "tricks are not worth a point each in the hand total",
       trick_point=0)
_fault("last-five-no-follow", "mariaggia.play.last-five.follow", "mariaggia",
       "no duty to follow suit in the last five tricks",
       duty="follow_rule", phases="no_stock", follow=False)
_fault("last-five-no-beat", "mariaggia.play.last-five.beat", "mariaggia",
       "no duty to beat the card led in the last five tricks",
       duty="head_rule", phases="no_stock", head=When.NEVER)
_fault("last-five-no-trump", "mariaggia.play.last-five.trump", "mariaggia",
       "no duty to trump when void in the last five tricks",
       duty="void_rule", phases="no_stock", void_duty="none")
_fault("duties-from-start", "mariaggia.play.free", "mariaggia",
       "the last-five duties applied from the first trick",
       lambda r: _when(r, "mariaggia.play.free", obligation_stock=r.obligation_no_stock))
_fault("claim-without-hand", "mariaggia.call-out", "mariaggia",
       "a call-out counts only the running total, not the points of the hand in progress",
       mechanisms=_m(call_out=_ClaimWithoutHand()))
_fault("wrong-claim-loses-match", "mariaggia.call-out.penalty", "mariaggia",
       "a wrong call-out loses the match instead of the hand",
       call_out_penalty="lose_match")
_fault("accusa-by-follower", "mariaggia.decl.who", "mariaggia",
       "the second player may declare an accusa",
       decl_who="on_turn")
_fault("turn-up-drawn-first", "mariaggia.draw", "mariaggia",
       "the turned-up card is drawn first instead of last",
       mechanisms=_m(dealing=_TurnUpDrawnFirst()))
_fault("mariazza-held-at-once", "mariazza.decl.held", "mariazza",
       "a second player's mariazza is credited at once instead of when he next leads",
       lambda r: _decls(r, "rule", "mariazza.decl.mariazza", credit="immediate"))
_fault("sixty-segno", "mariazza.score.sixty", "mariazza",
       "a top score of exactly 60 still takes the segno",
       segno_void_top=None)
_fault("mariazza-exchange-two", "mariazza.exchange", "mariazza",
       "the two of trump is exchanged for the face-up card instead of the seven",
       _exchange_two)
_fault("mariazza-no-hand-target", "mariazza.hand.target", "mariazza",
       "the hand is played out instead of ending the moment a player reaches 41",
       hand_target=None)
_fault("mariazza-trump-20", "mariazza.decl.value", "mariazza",
       "a mariazza in trump scores 20 like the others",
       lambda r: _decls(r, "value_rule", "mariazza.decl.value", if_trump_suit=None))
_fault("partner-may-lie", "marjapussi.ask.answer", "marjapussi",
       "a partner asked for a marriage may say no while holding one",
       lambda r: _asks(r, "answer_rule", "marjapussi.ask.answer", answer="may_refuse"))
_fault("failed-ask-keeps-right", "marjapussi.decl.per-trick", "marjapussi",
       "after a partner's 'no' the trick winner may still declare or ask",
       mechanisms=_m(asks=_FailedAskKeepsRight()))
_fault("leader-declares-first-trick", "marjapussi.decl.who", "marjapussi",
       "the first leader of a hand may declare before any trick is won",
       lambda r: _asks(_when(r, "marjapussi.decl.who", decl_who="leader"), "rule",
                       "marjapussi.ask.any", who="leader"))
_fault("marjapussi-no-trump-duty", "marjapussi.play.trump", "marjapussi",
       "a player void in the suit led need not trump",
       duty="void_rule", void_duty="none")
_fault("no-last-trick-point", "marjapussi.score.last-trick", "marjapussi",
       "no game point for the last trick",
       table_last_trick=0)
_fault("threshold-of-other-system", "marjapussi.score.threshold", "marjapussi",
       "the threshold point at 61 card points (the original system's) under simplified points",
       lambda r: _when(r, "marjapussi.score.threshold", table_threshold=61)
       if r.table_threshold == 75 else r)
_fault("majority-merged", "marjapussi.score.majority", "marjapussi",
       "the majority point is not scored separately from the threshold point",
       table_majority_mode="merged")
_fault("trump-marriage-one-point", "marjapussi.decl.value", "marjapussi",
       "the marriage that makes trump is worth 1 game point like the others",
       lambda r: _decls(r, "value_rule", "marjapussi.decl.value", if_makes_trump=None))
_fault("wrong-seat-accepted", "core.turn", "marianna",
       "an action sent for a seat that is not to act is taken for the seat to act",
       state_class=_SeatIgnored)
_fault("card-not-in-hand", "core.hand", "marianna",
       "a card that is not in the player's hand is accepted", mechanisms=_m(tricks=_AnyCardPlays()))
_fault("play-after-end", "core.over", "marianna",
       "actions after the end of the match are accepted and ignored",
       state_class=_PlaysAfterEnd)
_fault("first-to-cross-wins", "marianna.match.end", "marianna",
       "when both sides pass the target in the same hand, the first side in seat order wins "
       "whoever is ahead", mechanisms=_m(match_end=_FirstToCrossWins()))
_fault("majority-on-tie", "marjapussi.score.majority", "marjapussi",
       "a tie in card points still gives one side the majority point",
       mechanisms=_m(scoring=_MajorityOnTie()))
_fault("answer-declared-suit", "marjapussi.ask.answer", "marjapussi",
       "a partner asked for a marriage may name one whose suit was declared already",
       mechanisms=_m(asks=_AnswerDeclaredSuit()))
_fault("any-trump-beats-trump-led", "marianna.trick.winner", "marianna",
       "when trump is led, a lower trump played later takes the trick",
       mechanisms=_m(tricks=_AnyTrumpBeatsTrumpLed()))
_fault("played-trump-loses", "marianna.trick.winner", "marianna",
       "a trump played to a plain suit does not take the trick",
       mechanisms=_m(tricks=_PlayedTrumpLoses()))
_fault("split-only-for-asker", "siciliana.ask.cover-play", "marianna-siciliana",
       "a split marriage counts only when the asker, not his partner, wins its trick",
       mechanisms=_m(asks=_SplitOnlyForAsker()))


