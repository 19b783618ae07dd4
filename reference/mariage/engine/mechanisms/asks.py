"""Asks: questions to the partner that complete a declaration.

Runs who may ask and when, the kinds of ask (the partner names a combination
he holds, or holds the other half of the asker's), how the partner answers
(truthfully, or free to refuse) and how a yes is settled: at once, or by
both halves being played to the trick and counting if the asking side wins it
(the Sicilian split).

>>> from mariage import load_rules, GameState
>>> from mariage.engine.deals import canonical_deck
>>> state = GameState(load_rules("marianna-siciliana"), first_dealer=0)
>>> state.deal(canonical_deck(state.rules))
>>> state.mech.asks.partner(state, 1)
3
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..actions import Action, Answer, AskPartner
from ..phase import ANSWER, DEAL, OVER, PLAY
from .base import HALF_ANSWER_FORM, Mechanism, refuse
from .declarations import DECLARE_WRITES, or_all

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["Asks"]


class Asks(Mechanism):
    """Asking the partner, answering, and settling a split marriage."""

    __slots__ = ()
    name: ClassVar[str] = "asks"
    steps: ClassVar[tuple[str, ...]] = ("apply_answer",)
    sections: ClassVar[tuple[str, ...]] = ("asks",)
    #: no split marriage waits on the trick: the hook changes nothing
    quiet_hooks: ClassVar[dict[str, str]] = {"after_trick": "st.split is None"}
    #: an ask spends the seat's declaration (or its ask) and waits for the answer
    trail_actions: ClassVar[dict[str, tuple[str, ...]]] = {
        "apply_ask": ("decl_this_trick", "ask_spent", "pending_ask"),
        # an answer gives the turn back (a no may give the declaration back); a yes
        # declares (Declarations.declare, its score, a held credit, an automatic claim)
        # or splits the marriage (the two cards forced and shown)
        "apply_answer": ("pending_ask", "phase", "to_act", "decl_this_trick", "ask_spent",
                         "known", "forced", "_free_play", "split", *DECLARE_WRITES,
                         "claim_by", "claim_ok")}
    #: an answer writes only while an ask waits: where the rules have no asks, nothing
    trail_offered: ClassVar[frozenset[str]] = frozenset({"apply_answer"})
    trail_calls: ClassVar[dict[str, tuple[tuple[str, str], ...]]] = {
        "apply_answer": (("declarations", "declare"), ("declarations", "score"),
                         ("held_credit", "hold"), ("claims", "after_declaration")),
        "after_trick": (("declarations", "score"), ("held_credit", "hold"),
                        ("claims", "after_declaration"))}
    #: a split marriage settled by its trick: scored (Declarations.score), trump, the suit
    #: used, the declaration noted
    mark_hooks: ClassVar[dict[str, tuple[str, ...]]] = {
        "after_trick": ("split", "trump", "used_suit", "declared", "decl_count", "game_points",
                        "held", "decl_points", "claim_by", "claim_ok")}
    applies: ClassVar[tuple[tuple[type, str], ...]] = ((AskPartner, "apply_ask"),
                                                       (Answer, "apply_answer"))
    phases: ClassVar[tuple[int, ...]] = (ANSWER,)

    def offers(self, rules: Rules) -> bool:
        """Asks are offered in play wherever the rules have any."""
        return bool(rules.asks)

    def all_actions(self, rules: Rules) -> list[Action]:
        """Each ask in each suit (or none), and each answer."""
        suits = (-1, *range(len(rules.suits)))
        out: list[Action] = [AskPartner(a.index, s) for a in rules.asks for s in suits]
        if rules.asks:
            out += [Answer(True, s) for s in suits] + [Answer(False)]
        return out

    def offer(self, st: GameState, seat: int, out: list[Action]) -> None:
        """The asks open to ``seat`` before he leads."""
        if not st.trick_cards and st.forced[seat] < 0:
            out.extend(self.legal(st, seat))

    def offer_gate(self, rules: Rules) -> str | None:
        """``seat`` leads, with no card forced on him."""
        return "not st.trick_cards and st.forced[seat] < 0"

    def legal_in_phase(self, st: GameState, seat: int) -> list[Action]:
        """While an ask waits: the partner's answers."""
        return self.answers(st, seat)


    def partner(self, st: GameState, seat: int) -> int:
        """The partner of ``seat`` (``seat`` itself in a game without partners)."""
        r = st.rules
        team = r.teams[r.team_of[seat]]
        others = [s for s in team if s != seat]
        return others[0] if others else seat

    def legal(self, st: GameState, seat: int) -> list[Action]:
        """The asks ``seat`` may make now (before his lead, in the play phase)."""
        r = st.rules
        if seat != st.leader or st.decl_this_trick[seat] >= r.decl_per_trick:
            return []
        if st.ask_spent is not None and st.ask_spent == (st.trick_no, seat):
            return []  # a failed ask that left the declaration open: no second ask
        out: list[Action] = []
        hand = st.hands[seat]
        window_open = st.mech.declarations.window_open
        who_ok = st.mech.declarations.who_ok
        for a in r.asks:
            if not window_open(st, a.window) or not who_ok(st, a.who, seat):
                continue
            if a.needs_no_trump and st.trump >= 0:
                continue
            d = r.declarations[a.declaration]
            if a.kind == "any":
                out.append(AskPartner(a.index))
                continue
            used = or_all(st.used_suit[d.index])
            for s, m in enumerate(d.suit_masks):
                held = hand & m
                if held and held != m and not used >> s & 1:
                    out.append(AskPartner(a.index, s))
        return out

    def answers(self, st: GameState, seat: int) -> list[Action]:
        """The answers ``seat`` (the partner asked) may give."""
        assert st.pending_ask is not None
        r = st.rules
        ask_i, asker, suit = st.pending_ask
        a = r.asks[ask_i]
        d = r.declarations[a.declaration]
        hand = st.hands[seat]
        if a.kind == "any":
            yes: list[Action] = [Answer(True, s)
                                 for s in st.mech.declarations.melds(st, d, seat, hand)]
        else:
            other = d.suit_masks[suit] & ~st.hands[asker]
            yes = [Answer(True)] if hand & other == other else []
        if a.answer == "truthful":
            return yes or [Answer(False)]
        return [*yes, Answer(False)]

    # -------------------------------------------------------------- apply
    def apply_ask(self, st: GameState, seat: int, action: AskPartner) -> None:
        """``seat`` asks his partner."""
        r = st.rules
        if st.phase != PLAY or st.forced[seat] >= 0 or action not in self.legal(st, seat):
            rule = r.asks[action.ask].rule if 0 <= action.ask < len(r.asks) else None
            if st.phase != PLAY:  # an ask while an answer (or a bid...) is awaited:
                rule = r.core_phase  # not this kind of action now, as a declaration
            elif (seat == st.leader and not st.trick_cards
                    and (st.decl_this_trick[seat] >= r.decl_per_trick
                         or st.ask_spent == (st.trick_no, seat))):
                rule = r.decl_per_trick_rule  # the one declaration action is used up
            refuse(st, rule, seat, action, self.reason(st, seat, action))
        st.actions.append((seat, action))
        if r.asks[action.ask].uses_declaration:
            st.decl_this_trick[seat] += 1
        else:  # his declaration stays open; one ask per trick all the same
            st.ask_spent = (st.trick_no, seat)
        st.pending_ask = (action.ask, seat, action.suit)
        st.phase = ANSWER
        st.to_act = self.partner(st, seat)

    def reason(self, st: GameState, seat: int, action: AskPartner) -> str:
        """Why ``action`` is refused for ``seat``."""
        r = st.rules
        if st.phase != PLAY:
            return "an ask is made only before leading, when no answer is awaited"
        if seat != st.leader or st.trick_cards:
            return "only the player about to lead may ask, before leading"
        if st.decl_this_trick[seat] >= r.decl_per_trick:
            return "the declaration right for this trick is used up"
        if st.ask_spent == (st.trick_no, seat):
            return "one ask per trick: after an ask only a declaration of his own"
        if 0 <= action.ask < len(r.asks):
            a = r.asks[action.ask]
            if not st.mech.declarations.window_open(st, a.window):
                return "asks are over for this hand (stock exhausted)"
            if a.needs_no_trump and st.trump >= 0:
                return "asks are allowed only while there is no trump"
            if a.who == "trick_winner" and st.trick_no == 1:
                return "only the winner of the last trick may ask"
        return "the asker must hold exactly one card of that pair"

    def apply_answer(self, st: GameState, seat: int, action: Answer) -> None:
        """The partner ``seat`` answers the pending ask."""
        r = st.rules
        if st.phase != ANSWER:
            refuse(st, r.core_phase, seat, action, "no ask is waiting for an answer")
        assert st.pending_ask is not None
        ask_i, asker, suit = st.pending_ask
        a = r.asks[ask_i]
        if action not in self.answers(st, seat):
            why = ("the answer must be truthful" if a.answer == "truthful"
                   else "yes needs the other card of the pair")
            if a.kind != "any" and action.yes and action.suit >= 0:
                why = HALF_ANSWER_FORM
            elif a.kind == "any" and action.yes and action.suit < 0:
                why = "a yes to a question for a marriage names it (yes:H)"
            refuse(st, a.answer_rule, seat, action, why)
        st.actions.append((seat, action))
        st.pending_ask = None
        st.phase = PLAY
        st.to_act = asker
        if not action.yes:
            if r.failed_ask == "may_declare" and a.uses_declaration:  # a failed ask gives it back
                st.decl_this_trick[asker] -= 1
                st.ask_spent = (st.trick_no, asker)
            return
        d = r.declarations[a.declaration]
        declare = st.mech.declarations.declare
        if a.kind == "any":
            declare(st, seat, d, action.suit, True)
            return
        pair = d.suit_masks[suit]
        if a.settle == "at_once":
            st.known[seat] |= st.hands[seat] & pair
            declare(st, asker, d, suit, True)
            st.known[asker] |= st.hands[asker] & pair
            return
        mine = st.hands[asker] & pair
        theirs = st.hands[seat] & pair
        st.forced[asker] = mine.bit_length() - 1
        st.forced[seat] = theirs.bit_length() - 1
        st._free_play = False
        st.known[asker] |= mine
        st.known[seat] |= theirs
        st.split = (ask_i, r.team_of[asker], suit)

    def hooks(self, rules: Rules) -> tuple[tuple[str, str], ...]:
        """After a trick, where the rules have asks: a split marriage waits on it."""
        return (("after_trick", "after_trick"),) if rules.asks else ()

    def after_trick(self, st: GameState, winner: int) -> bool:
        """The trick of a split marriage settles it; True if that ended the hand."""
        if st.split is None:
            return False
        self.settle_split(st, winner)
        return st.phase == OVER or st.phase == DEAL

    def settle_split(self, st: GameState, winner: int) -> None:
        """The trick with a split marriage is won by ``winner``: score it if his side asked."""
        assert st.split is not None
        r = st.rules
        ask_i, split_team, suit = st.split
        a = r.asks[ask_i]
        spoilers = st.trump_set_in_trick  # teams whose declaration set trump in the trick
        if a.spoiled_by == "opponent":
            spoilers &= ~(1 << split_team)
        elif a.spoiled_by == "never":
            spoilers = 0
        if split_team == r.team_of[winner] and not spoilers:
            st.mech.declarations.score(st, winner, a.value, "points", a.ordered)
            if st.trump < 0 or r.declarations[a.declaration].trump_effect == "set":
                st.trump = suit
            st.used_suit[a.declaration][winner] |= 1 << suit
            st.declared.append((winner, -1 - ask_i, suit, a.value))
        st.split = None
