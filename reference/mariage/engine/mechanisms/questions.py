"""Trump calls: announcing one's own pair, and questions to the partner.

Runs who may call (the winner of the last trick, before his lead) and how
often, the pair and its value per suit, announcing an own pair, asking the
partner "do you have a pair?" and "do you have a half in this suit?", the
truthful answers, how a call sets trump (the latest call rules, or the
first one fixes it), each suit once, who is credited, and the monotone
asking levels (after a pair question no announcement; after a half question
only half questions).

>>> from mariage import load_rules
>>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS as M
>>> M.rule_ids(M.calls, load_rules("marjapussi-de"))[:3]
['marjapussi-de.calls.who', 'marjapussi-de.calls.per-trick', 'marjapussi-de.calls.pair']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..actions import Action, Answer, Call, Question
from ..phase import PLAY, QUESTION
from .asks import Asks
from .base import (
    HALF_ANSWER_FORM,
    Kept,
    Mechanism,
    PhaseWindow,
    kept_per_rules,
    partner_of,
    refuse,
)

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["CALLED_PAIR", "HALF", "PAIR", "TrumpCalls"]

#: the kinds of :class:`~mariage.engine.actions.Question`
PAIR, HALF = 0, 1

#: per number of suits: the call of each suit's pair, the question for the pair of
#: trumps and the half question about each suit, made once when first listed (actions
#: are immutable, so every listing may share them)
_ASKED: dict[int, tuple[tuple[Call, ...], Question, tuple[Question, ...]]] = {}


def _asked(nsuits: int) -> tuple[tuple[Call, ...], Question, tuple[Question, ...]]:
    hit = _ASKED.get(nsuits)
    if hit is None:
        hit = _ASKED[nsuits] = (tuple(Call(s) for s in range(nsuits)), Question(PAIR),
                                tuple(Question(HALF, s) for s in range(nsuits)))
    return hit

#: per number of suits: the answer naming each suit's pair, a bare yes and a bare no, made
#: once when first listed (as :data:`_ASKED`)
_ANSWERS: dict[int, tuple[tuple[Answer, ...], Answer, Answer]] = {}


def _answers(nsuits: int) -> tuple[tuple[Answer, ...], Answer, Answer]:
    hit = _ANSWERS.get(nsuits)
    if hit is None:
        hit = _ANSWERS[nsuits] = (tuple(Answer(True, s) for s in range(nsuits)), Answer(True),
                                  Answer(False))
    return hit


#: id(rules) -> (rules, the cards of every pair, and the calls open to a seat per (cards
#: of pairs held, suits called, asking level): TrumpCalls.legal)
_CALLS: Kept = {}

#: the "declaration" number of a called pair in ``GameState.declared``
CALLED_PAIR = -99


#: the slots :meth:`TrumpCalls.settle` writes
_SETTLE_WRITES = ("trump", "trump_set_in_trick", "called", "call_credit", "decl_points",
                  "declared")


class TrumpCalls(Mechanism):
    """Pairs announced or found by questions to the partner; they set trump."""

    __slots__ = ()
    name: ClassVar[str] = "trump calls and questions"
    sections: ClassVar[tuple[str, ...]] = ("calls",)
    applies: ClassVar[tuple[tuple[type, str], ...]] = ((Call, "apply_call"),
                                                       (Question, "apply_question"))
    phases: ClassVar[tuple[int, ...]] = (QUESTION,)
    #: a call or a question spends one of the seat's declarations in the trick; a call,
    #: or an answer that completes a pair, settles it (trump, its value, the suit called);
    #: a question waits for the partner's answer; an answer gives the turn back, or, with
    #: no question pending, is the asks' (Asks.apply_answer, whose writes count where the
    #: rules have asks: trail_calls, Mechanism.trail_offered)
    trail_actions: ClassVar[dict[str, tuple[str, ...]]] = {
        "apply_call": ("decl_this_trick", "known", *_SETTLE_WRITES),
        "apply_question": ("decl_this_trick", "ask_level", "question", "phase", "to_act"),
        "apply_answer": ("question", "phase", "to_act", "known", *_SETTLE_WRITES)}
    trail_calls: ClassVar[dict[str, tuple[tuple[str, str], ...]]] = {
        "apply_answer": (("asks", "apply_answer"),
                         *Asks.trail_calls["apply_answer"])}

    def applies_for(self, rules: Rules) -> tuple[tuple[type, str], ...]:
        """Answers are the calls' while the rules have trump calls."""
        return ((Answer, "apply_answer"),) if rules.calls_rule is not None else ()

    def all_actions(self, rules: Rules) -> list[Action]:
        """Each call, each question and each answer."""
        if rules.calls_rule is None:
            return []
        suits = range(len(rules.suits))
        return [*(Call(s) for s in suits), Question(PAIR), *(Question(HALF, s) for s in suits),
                *(Answer(True, s) for s in suits), Answer(True), Answer(False)]

    def offers(self, rules: Rules) -> bool:
        """Calls are offered in play wherever the rules have them."""
        return rules.calls_rule is not None

    # ------------------------------------------------------------ queries
    def partner(self, st: GameState, seat: int) -> int:
        """The partner of ``seat``."""
        return partner_of(st.rules, seat)

    def may_call(self, st: GameState, seat: int) -> bool:
        """True if ``seat`` may make a call now (trick winner, before his lead, right left)."""
        return (st.phase == PLAY and seat == st.leader and not st.trick_cards
                and st.trick_no > 1 and st.decl_this_trick[seat] < st.rules.calls_per_trick)

    def pairs(self, st: GameState, seat: int) -> list[int]:
        """The suits of the pairs ``seat`` holds that were not called yet."""
        hand = st.hands[seat]
        called = st.called
        return [s for s, m in enumerate(st.rules.call_pair_masks)
                if hand & m == m and not called >> s & 1]

    def level_allows(self, st: GameState, seat: int, kind: int) -> bool:
        """True if ``seat``'s asking level allows an announcement (-1) or question ``kind``."""
        if st.rules.levels_rule is None:
            return True
        return st.ask_level[seat] <= kind + 1

    def half_suits(self, st: GameState, seat: int) -> list[int]:
        """The suits ``seat`` may ask a half question about."""
        r = st.rules
        out = []
        for s, m in enumerate(r.call_pair_masks):
            if r.half_needs_own and not st.hands[seat] & m:
                continue
            if not r.recall_allowed and st.called >> s & 1:
                continue
            out.append(s)
        return out

    def legal(self, st: GameState, seat: int) -> list[Action]:
        """The calls ``seat`` may make now.

        They depend on the cards of pairs in his hand, the suits called and his
        asking level alone: this class keeps them per rules and those three (a
        subclass, which may ask other things, works them out each time).
        """
        if not self.may_call(st, seat):
            return []
        if type(self) is not TrumpCalls:
            return self.calls_now(st, seat)
        r = st.rules
        pairs, kept = kept_per_rules(_CALLS, id(r), r, r.call_pair_masks)
        key = (st.hands[seat] & pairs, st.called,
               st.ask_level[seat] if r.levels_rule is not None else 0)
        calls = kept.get(key)
        if calls is None:
            calls = kept[key] = tuple(self.calls_now(st, seat))
        return [*calls]

    def calls_now(self, st: GameState, seat: int) -> list[Action]:
        """:meth:`legal` worked out (``seat`` may call now)."""
        out: list[Action] = []
        calls, pair, halves = _asked(len(st.rules.suits))
        if self.level_allows(st, seat, -1):
            out += [calls[s] for s in self.pairs(st, seat)]
        if self.level_allows(st, seat, PAIR):
            out.append(pair)
        out += [halves[s] for s in self.half_suits(st, seat)]
        return out

    def offer(self, st: GameState, seat: int, out: list[Action]) -> None:
        """The calls open to ``seat`` before his lead."""
        if not st.trick_cards:
            out.extend(self.legal(st, seat))

    gate_depends: ClassVar[tuple[str, ...]] = ("legal", "may_call", "calls_now")

    def offer_gate(self, rules: Rules) -> str | None:
        """``seat`` leads to a trick after the first with calls left in it (what
        :meth:`may_call` asks in the play phase)."""
        return ("not st.trick_cards and seat == st.leader and st.trick_no > 1"
                f" and st.decl_this_trick[seat] < {rules.calls_per_trick}")

    def legal_in_phase(self, st: GameState, seat: int) -> list[Action]:
        """The partner's truthful answers to the pending question."""
        assert st.question is not None
        kind, _, suit = st.question
        yes_suit, yes, no = _answers(len(st.rules.suits))
        if kind == PAIR:
            pairs: list[Action] = [yes_suit[s] for s in self.pairs(st, seat)]
            return pairs or [no]
        return [yes if st.hands[seat] & st.rules.call_pair_masks[suit] else no]

    #: (the methods :meth:`phase_window` answers as :meth:`legal_in_phase` lists with)
    listing_depends: ClassVar[tuple[str, ...]] = ("pairs",)

    def phase_window(self, rules: Rules) -> PhaseWindow | None:
        """The answers :meth:`legal_in_phase` lists as a window of the ladder of every
        answer (the answer naming each suit's pair, then a bare yes, then a bare no):
        the pairs held, where their suits follow one another (else ``None``), or the
        one yes or no.

        >>> from mariage import load_rules
        >>> from mariage.engine.actiontext import action_text
        >>> rules = load_rules("marjapussi-de")
        >>> ladder, window = TrumpCalls().phase_window(rules)
        >>> [action_text(rules, a) for a in ladder[-3:]]
        ['yes:S', 'yes', 'no']
        """
        if rules.calls_rule is None:
            return None
        n = len(rules.suits)
        yes_suit, yes, no = _answers(n)
        masks = rules.call_pair_masks
        half = (n, n + 1)  # (the start of yes, of no)

        def window(st: GameState, seat: int) -> tuple[int, int, int] | None:
            assert st.question is not None
            kind, _, suit = st.question
            hand = st.hands[seat]
            if kind == PAIR:  # (the pairs of pairs(), in suit order)
                called = st.called
                first = last = -1
                for s, m in enumerate(masks):
                    if hand & m == m and not called >> s & 1:
                        if first < 0:
                            first = s
                        elif s != last + 1:  # two pairs apart: no window
                            return None
                        last = s
                return (0, first, last + 1) if first >= 0 else (0, n + 1, n + 2)
            start = half[0] if hand & masks[suit] else half[1]
            return (0, start, start + 1)
        return (*yes_suit, yes, no), window

    # -------------------------------------------------------------- apply
    def refusal(self, st: GameState, seat: int) -> tuple[str | None, str] | None:
        """Why ``seat`` may not call now at all, or ``None``."""
        r = st.rules
        if r.calls_rule is None:
            return r.core_phase, "this ruleset has no calls"
        if st.phase != PLAY:
            return r.core_phase, "a call is made only before a lead, when no answer is awaited"
        if seat != st.leader or st.trick_cards or st.trick_no <= 1:
            return r.calls_rule, "only the winner of the last trick may call, before his lead"
        if st.decl_this_trick[seat] >= r.calls_per_trick:
            return r.calls_per_trick_rule, "the call for this trick is used up"
        return None

    def apply_call(self, st: GameState, seat: int, action: Call) -> None:
        """``seat`` announces his own pair."""
        r = st.rules
        bad = self.refusal(st, seat)
        if bad is not None:
            refuse(st, bad[0], seat, action, bad[1])
        if not self.level_allows(st, seat, -1):
            refuse(st, r.levels_rule, seat, action,
                   "after asking a question a player may no longer announce")
        suit = action.suit
        if not 0 <= suit < len(r.suits):
            refuse(st, r.core_phase, seat, action, "no such suit")
        m = r.call_pair_masks[suit]
        if st.hands[seat] & m != m:
            refuse(st, r.call_pair_rule, seat, action, "the hand does not hold that pair")
        if st.called >> suit & 1:
            refuse(st, r.call_once_rule, seat, action, "that suit was called already")
        st.actions.append((seat, action))
        st.decl_this_trick[seat] += 1
        st.known[seat] |= m
        self.settle(st, seat, suit)

    def apply_question(self, st: GameState, seat: int, action: Question) -> None:
        """``seat`` asks his partner."""
        r = st.rules
        bad = self.refusal(st, seat)
        if bad is not None:
            refuse(st, bad[0], seat, action, bad[1])
        kind, suit = action.kind, action.suit
        if kind == PAIR and suit < 0:
            if not self.level_allows(st, seat, PAIR):
                refuse(st, r.levels_rule, seat, action,
                       "after a half question a player may only ask for halves")
        elif kind == HALF and 0 <= suit < len(r.suits):
            if suit not in self.half_suits(st, seat):
                if not r.recall_allowed and st.called >> suit & 1:
                    refuse(st, r.recall_rule, seat, action, "that suit was called already")
                refuse(st, r.ask_half_rule, seat, action,
                       "a half question needs a half of that suit in the asker's hand")
        else:
            refuse(st, r.core_phase, seat, action, "no such question")
        st.actions.append((seat, action))
        st.decl_this_trick[seat] += 1
        level = 1 if kind == PAIR else 2
        if r.levels_rule is not None and st.ask_level[seat] < level:
            st.ask_level[seat] = level
        st.question = (kind, seat, suit)
        st.phase = QUESTION
        st.to_act = self.partner(st, seat)

    def apply_answer(self, st: GameState, seat: int, action: Answer) -> None:
        """The partner answers the pending question (other answers go to the asks)."""
        if st.phase != QUESTION:
            st.mech.asks.apply_answer(st, seat, action)
            return
        r = st.rules
        assert st.question is not None
        kind, asker, suit = st.question
        if action not in self.legal_in_phase(st, seat):
            rule, why = r.answers_rule, "the answer must be truthful"
            if kind == HALF and action.yes and action.suit >= 0:
                why = HALF_ANSWER_FORM
            named = action.suit
            if kind == PAIR and action.yes and 0 <= named < len(r.suits) \
                    and st.called >> named & 1 \
                    and st.hands[seat] & r.call_pair_masks[named] == r.call_pair_masks[named]:
                rule, why = r.call_once_rule, "that suit was called already"
            refuse(st, rule, seat, action, why)
        st.actions.append((seat, action))
        st.question = None
        st.phase = PLAY
        st.to_act = asker
        if not action.yes:
            return
        if kind == PAIR:
            st.known[seat] |= r.call_pair_masks[action.suit]
            self.settle(st, seat, action.suit)
            return
        m = r.call_pair_masks[suit]
        if st.hands[asker] & m:  # the asker holds the other half: the pair is complete
            self.settle(st, asker if r.half_credit_asker else seat, suit)

    def settle(self, st: GameState, seat: int, suit: int) -> None:
        """A pair of ``suit`` is called for ``seat``: trump and (once) its value."""
        r = st.rules
        bit = 1 << suit
        first = st.trump < 0
        if r.call_trump_latest or first:
            st.trump = suit
            st.trump_set_in_trick = True
        credited = st.call_credit[seat] if r.call_once_per_player else st.called
        fresh = not credited & bit
        value = r.call_values[suit] if fresh else 0
        st.called |= bit
        st.call_credit[seat] |= bit
        st.decl_points[r.team_of[seat]] += value
        st.declared.append((seat, CALLED_PAIR, suit, value))
