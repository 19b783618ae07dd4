"""Validating a record by replaying it on the rules engine.

:func:`check_record` checks the header, lays out each deal, replays every
action with :class:`~mariage.engine.state.GameState`, re-checks every annotation,
each hand's end and the match result. Strict mode stops at the first
problem; lenient mode goes on where it can and collects every problem, but
never invents an action: after a refused action the rest of that record is
checked only for what does not need the replay (cards, deals, syntax).

A deal with unknown cards (``??``) is completed by :mod:`mariage.notation.search` first.

>>> from mariage.notation.reader import parse_record
>>> rec = parse_record('[Mariage "1"]\\n[Ruleset "marianna"]\\n[Dealer "N"]\\nresult *\\n')
>>> check_record(rec).errors
[]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mariage.engine.actions import Action, Give, Play, played_card
from mariage.engine.actiontext import parse_action
from mariage.engine.rules import Rules
from mariage.engine.state import GameState, Phase

from ..errors import IllegalActionError, did_you_mean
from .annotations import contract_note, measure, note_problem, note_rule, team_name
from .checked import Checked, Listener, is_resign, replay_arguments
from .errors import NotationError, RecordError, odd_column
from .firstfault import PROBE_TRIES, first_unexplained, steps_after, steps_left
from .layout import Layout, layout
from .model import (
    UNKNOWN,
    Act,
    Comment,
    DealPart,
    Hand,
    Note,
    Record,
    TrickMark,
    expect_record,
    expect_text,
)
from .optionhint import between_hands, legal_with, option_with_action, played_on_with
from .reader import DEFAULT_LIMIT, parse_record, syntax_errors
from .recordhead import check_header
from .turnupdeck import turnup_choices, turnup_unknown

# Module-level aliases: enum member access is slow on the hot path.
_DEAL, _PLAY, _WINDOW, _ANSWER, _OVER = (Phase.DEAL, Phase.PLAY, Phase.WINDOW, Phase.ANSWER,
                                         Phase.OVER)

__all__ = ["Checked", "Listener", "check_record", "check_text", "contract_note", "is_resign",
           "measure", "note_problem", "team_name", "validate"]


#: Added to the message of an illegal play that lenient mode applied anyway.
FORCED_NOTE = "applied anyway (lenient: the card is in the hand), later checks assume it"


def _force_play(st: GameState, seat: int, action: Action) -> bool:
    """Apply a refused play whose card is in the seat's hand, at its turn; False if not.

    Imperfect sources (old engines) allowed some illegal plays; applying them
    lets the rest of the match be checked
    (:meth:`~mariage.engine.mechanisms.TrickPlay.force_play`).
    """
    if type(action) is not Play:
        return False
    assert isinstance(action, Play)
    return st.mech.tricks.force_play(st, seat, action)


def _over_why(st: GameState) -> str:
    """Why no hand may follow: the match ended, with which hand, and (where its rules play
    a number of hands) that it was the last they play: a record keeper may not know."""
    res = st.result
    if res is None:
        return "the match is already over"
    if res.reason == "hands":
        return f"the match is already over: hand {st.hand_no} was the last its rules play"
    return (f"the match is already over: it ended with hand {st.hand_no} ({res.reason})"
            + played_on_with(st.rules))


class _Stop(Exception):
    pass


class _Checker:
    def __init__(self, record: Record, strict: bool, listener: Listener | None,
                 search_limit: int) -> None:
        self.rec = record
        self.strict = strict
        self.listener = listener
        self.limit = replay_arguments(listener, search_limit)
        self.out = Checked(record)
        self.hand = 0
        self.trick = 0
        self.replaying = True
        self.rules: Rules | None = None
        self.state: GameState | None = None
        self._actions: dict[str, Action] = {}  # set to the rules' shared cache in header()
        self._hand_items: Sequence[object] = ()
        # the cards of this hand's unseen passes that the deal search chose, by Act id
        self._passed: dict[int, int] = {}
        self.last = (0, 0)
        self.count = 0
        self.first_hand = 1
        self._dealt_by: int | None = None  # the dealer of the hand before, once replayed
        # this hand's dealer, deck and first player, and the actions applied since
        self._dealt: tuple[int | None, list[int], int | None, dict[str, Any]] | None = None
        self._done: list[tuple[int, Action]] = []

    # ------------------------------------------------------------ reporting
    def error(self, code: str, message: str, line: int = 0, column: int = 0, *,
              seat: str | None = None, token: str | None = None,
              rule_id: str | None = None, trick: int | None = None) -> None:
        err = RecordError(code, message, file=self.rec.file, line=line or self.rec.line,
                          column=column or (1 if not line else 0), record=self.rec.number,
                          hand=self.hand, trick=self.trick if trick is None else trick,
                          seat=seat, token=token, rule_id=rule_id)
        self.out.errors.append(err)
        if self.strict:
            raise _Stop

    def stop_replay(self) -> None:
        """No more actions are replayed; the problem just reported is where it stopped."""
        if self.replaying and self.out.errors:
            self.out.stopped = self.out.errors[-1]
        self.replaying = False

    # --------------------------------------------------------------- header
    def header(self) -> bool:
        """Check the tags and make the rules and the state (:func:`.recordhead.check_header`);
        False where the replay cannot start."""
        return check_header(self)

    # ---------------------------------------------------------------- hands
    def run(self) -> Checked:
        try:
            if not self.header():
                self.stop_replay()
                return self.out
            for hand in self.rec.hands:
                self.next_hand(hand)
            self.finish()
        except _Stop:
            pass
        return self.out

    def next_hand(self, hand: Hand) -> None:
        self.count += 1
        self.hand_(self.first_hand + self.count - 1, hand)

    def stream(self, text: str) -> Checked:
        """Parse and check ``text`` hand by hand (see :func:`check_text`)."""
        rec = self.rec
        started = ok = False

        def sink(header: Record, hand: Hand) -> None:
            nonlocal started, ok
            if not started:
                started = True
                self.rec = header
                ok = self.header()
                if not ok:
                    self.stop_replay()
            if ok:
                self.next_hand(hand)

        try:
            try:
                full = parse_record(text, file=rec.file, number=rec.number, line=rec.line,
                                    sink=sink)
            except NotationError as exc:
                self.out.errors.append(exc.error)
                self.out.syntax = True
                self.out.stopped = exc.error
                if not self.strict:
                    self.out.errors.extend(syntax_errors(
                        text, exc.error, file=rec.file, number=rec.number,
                        line=rec.line)[1:])
                return self.out
            self.rec = self.out.record = full
            if not started and not self.header():
                self.stop_replay()
                return self.out
            if ok or not started:
                self.finish()
        except _Stop:
            pass
        return self.out

    def _report_part(self, code: str, message: str, part: DealPart | None, index: int) -> None:
        if part is None:
            self.error(code, message)
            return
        if 0 <= index < len(part.columns):
            self.error(code, message, part.line, part.columns[index],
                       token=part.card_as_written(index))
        elif 0 <= index < len(part.cards):
            self.error(code, message, part.line, part.column, token=part.card_as_written(index))
        else:
            self.error(code, message, part.line, part.column, token=part.label + ":")

    def hand_(self, expected: int, hand: Hand) -> None:
        rules, st = self.rules, self.state
        assert rules is not None and st is not None
        self.hand = hand.number if hand.number > 0 else expected
        self.trick = 0
        self.out.hands += 1
        if hand.number != expected:
            self.error("N134", f"this should be hand {expected}", hand.line, hand.column,
                       token=f"hand {hand.number if hand.number >= 0 else '?'}")
        if self.replaying and st.phase == _OVER:
            self.error("N162", _over_why(st), hand.line, hand.column)
            self.stop_replay()
        elif self.replaying and st.phase != _DEAL:
            self.hand -= 1
            self.trick = st.trick_no
            self.error("N146", f"hand {st.hand_no} stops before it is over (trick "
                       f"{st.trick_no}, seat {rules.seat_names[st.to_act or 0]} to act)",
                       hand.line, hand.column)
            self.hand += 1
            self.trick = 0
            self.stop_replay()
        self.out.inferred = 0
        lay = layout(rules, hand.deal, st.dealer, self._report_part, self.replaying,
                     self.dealer_why(), st.placed)
        self._dealt_by = st.dealer
        if lay is None or not self.replaying:
            self.stop_replay()
            self.static_items(hand)
            return
        deck = lay.deck
        self._passed = {}
        if -1 in deck and not any(UNKNOWN in part.cards for part in hand.deal.parts):
            # a full deal with a card it could not read (reported): nothing to search for,
            # and no card is invented in its place
            self.stop_replay()
            self.static_items(hand)
            return
        if -1 in deck or turnup_unknown(rules, hand):
            steps = self.steps(hand)
            if steps is None:
                self.stop_replay()
                return
            notes = self.notes_after(hand)

            def verify(state: GameState, index: int, trick_done: bool) -> bool:
                for note in notes[index]:
                    problem = note_problem(state, note, trick_done)
                    if problem is not None and problem[0] not in ("N155", "N112"):
                        return False
                return True

            from .search import complete_deal  # only for a deal with unknown cards

            found, tries = None, 0
            chosen: dict[int, int] = {}  # the cards of unseen passes, where the search chose
            for candidate in turnup_choices(rules, hand, st.dealer, deck, lay.owner):
                chosen.clear()
                found, more = complete_deal(st, candidate, lay.owner, lay.first, steps,
                                            self.limit - tries, verify, chosen)
                tries += more
                if found is not None or tries >= self.limit:
                    break
            if found is not None:
                acts = [item for item in hand.items if isinstance(item, Act)]
                self._passed = {id(acts[i]): cards for i, cards in chosen.items()}
                known = 0
                for c in deck:
                    if c >= 0:
                        known |= 1 << c
                self.out.inferred = rules.full_mask & ~known
                if turnup_unknown(rules, hand) and st.dealer is not None:
                    last = max(i for i, o in enumerate(lay.owner) if o == st.dealer)
                    self.out.inferred |= 1 << found[last]  # which card was turned up
            if found is None:
                if tries >= self.limit:
                    self.error("N136", "the search for a consistent deal gave up within its "
                               f"limit of {self.limit} tries (neither found nor ruled out; "
                               "a higher search limit may settle it)",
                               hand.line, hand.column)
                else:
                    self.unexplained(hand, st, lay, deck, steps, verify, tries)
                self.stop_replay()
                return
            deck = found
        self._dealt = (st.dealer, list(deck), lay.first, between_hands(st))
        self._done = []
        try:
            st.deal(deck, lay.first)
        except IllegalActionError as exc:
            self.error("N133", exc.reason, hand.line, hand.column, rule_id=exc.rule_id)
            self.stop_replay()
            return
        if self.listener:
            inferred = getattr(self.listener, "on_inferred", None)
            if inferred is not None:
                inferred(st, self.out.inferred)
            self.listener.on_deal(st, hand)
        self.items(hand)

    def unexplained(self, hand: Hand, st: GameState, lay: Layout, deck: list[int],
                    steps: list[tuple[int, Action | None]],
                    verify: Callable[[GameState, int, bool], bool],
                    tries: int) -> None:
        """``N135`` at the first action (or its annotations) that no deal explains, found
        with the hand's tries left; at the hand where they do not suffice."""
        from .search import complete_deal

        rules = self.rules
        assert rules is not None

        def probe(k: int, notes: bool, budget: int) -> tuple[bool | None, int]:
            def check(state: GameState, index: int, trick_done: bool) -> bool:
                return (index == k and not notes) or verify(state, index, trick_done)

            used = 0
            for candidate in turnup_choices(rules, hand, st.dealer, deck, lay.owner):
                found, more = complete_deal(st, candidate, lay.owner, lay.first, steps[:k],
                                            budget - used, check, {})
                used += more
                if found is not None:
                    return True, used
                if used >= budget:
                    return None, used
            return False, used

        message = "no full deal is consistent with the known cards and the actions"
        up_to = "no full deal is consistent with the known cards and the actions up to "
        first = first_unexplained(probe, len(steps), self.limit - tries,
                                  max(PROBE_TRIES, 4 * tries))
        if first is None:
            self.error("N135", message, hand.line, hand.column)
            return
        k, notes = first
        trick, seen, at, note = 0, 0, None, None
        for item in hand.items:
            if isinstance(item, Act):
                seen += 1
                if seen > k:
                    break
                at, at_trick = (item, trick) if seen == k else (at, 0)
            elif isinstance(item, TrickMark):
                trick = item.number
            elif notes and seen == k and isinstance(item, Note):
                note = item
                break
        assert at is not None
        if note is not None:
            self.error("N135", up_to + "this annotation", note.line,
                       note.column, seat=at.seat, trick=at_trick,
                       token=f"({' '.join((note.key, *note.values))})")
        else:
            hint = ""  # a step left out (a draw) is no matter of cards: say what it is
            for candidate in turnup_choices(rules, hand, st.dealer, deck, lay.owner):
                found, _ = complete_deal(st, candidate, lay.owner, lay.first, steps[:k - 1],
                                         PROBE_TRIES, verify, {})
                if found is not None:
                    hint = steps_after(st, found, lay.first, steps[:k - 1], steps[k - 1])
                    break
            self.error("N135", up_to + "this one" + hint, at.line, at.column,
                       seat=at.seat, trick=at_trick, token=at.as_written())

    @staticmethod
    def notes_after(hand: Hand) -> list[list[Note]]:
        """The annotations before the first action (index 0) and after each action."""
        out: list[list[Note]] = [[]]
        for item in hand.items:
            if isinstance(item, Act):
                out.append([])
            elif isinstance(item, Note):
                out[-1].append(item)
        return out

    def dealer_why(self) -> str:
        """Why the rules give this hand's deal to its dealer: the ``[Dealer]`` tag, or the
        hand before (its dealer and how it ended: a hand thrown in is dealt again)."""
        rules, st = self.rules, self.state
        assert rules is not None and st is not None
        before = self._dealt_by
        if before is None or st.dealer is None:
            return ", as the [Dealer] tag says"
        seats, n, reason = rules.seat_names, st.hand_no, st.hand_over_reason
        if rules.rotation in ("hand_winner", "hand_loser") and st.history \
                and reason not in ("redeal", "void"):
            return self._result_deals(rules, st, n, reason)
        if before == st.dealer:
            thrown = ", which was thrown in" if reason in ("redeal", "void") else ""
            return f": {seats[before]} deals again after hand {n}{thrown} (ended {reason})"
        return f": {seats[before]} dealt hand {n} (ended {reason}), and the deal passes on"

    @staticmethod
    def _result_deals(rules: Rules, st: GameState, n: int, reason: str) -> str:
        """Why this hand's dealer deals where the result of the hand before decides it."""
        if st.history[-1].winner is None or st.dealer is None:
            return (f": hand {n} was drawn (ended {reason}), and after a drawn hand the same "
                    f"dealer deals again (rule {rules.rotation_rule})")
        who, did = ("winner", "won") if rules.rotation == "hand_winner" else ("loser", "lost")
        team = rules.team_of[st.dealer]  # (with partners: its player after the last dealer)
        after = "" if len(rules.teams[team]) == 1 else " (that side's player after the dealer)"
        return (f": {rules.team_names[team]} {did} hand {n} (ended {reason}), and the {who} "
                f"of a hand deals the next{after} (rule {rules.rotation_rule})")

    def steps(self, hand: Hand) -> list[tuple[int, Action | None]] | None:
        rules = self.rules
        assert rules is not None
        seats = rules.seat_names
        out: list[tuple[int, Action | None]] = []
        before = self.trick  # a refusal here ends the replay: the trick as written locates it
        for item in hand.items:
            if isinstance(item, Act):
                if item.seat not in seats:
                    self.unknown_seat(item)
                    return None
                a = None if is_resign(item.text) else self.action(item)
                if a is None and not is_resign(item.text):
                    return None
                out.append((seats.index(item.seat), a))
            elif isinstance(item, TrickMark):
                self.trick = item.number
        self.trick = before
        return out

    def unknown_seat(self, act: Act) -> None:
        assert self.rules is not None
        seats = self.rules.seat_names
        self.error("N124", f"no seat {act.seat!r} (seats: {', '.join(seats)})"
                   f"{did_you_mean(act.seat, seats)}",
                   act.line, act.column, token=act.as_written())

    def action(self, act: Act) -> Action | None:
        a = self._actions.get(act.text)
        if a is None:
            assert self.rules is not None
            try:
                a = parse_action(self.rules, act.text)
            except ValueError:
                written = act.as_written()  # two plays joined by a look-alike blank
                self.error("N140", f"{act.text!r} is not an action of {self.rules.ruleset}"
                           f"{odd_column(written, act.column)}"
                           f"{option_with_action(self.rules, act.text)}",
                           act.line, act.column, seat=act.seat, token=written)
                return None
            self._actions[act.text] = a
        return a

    def static_items(self, hand: Hand) -> None:
        """Checks that need no replay: seats and action texts."""
        assert self.rules is not None
        for item in hand.items:
            if isinstance(item, Act):
                if item.seat not in self.rules.seat_names:
                    self.unknown_seat(item)
                elif not is_resign(item.text):
                    self.action(item)
            elif isinstance(item, TrickMark):  # no replay: the trick as written locates
                self.trick = item.number

    def items(self, hand: Hand) -> None:
        rules, st = self.rules, self.state
        assert rules is not None and st is not None
        seats = rules.seat_names
        seat_index = {name: i for i, name in enumerate(seats)}
        trick_done = False
        listener = self.listener
        if hand.items:  # where a missing result is reported
            self.last = (hand.items[-1].line, hand.items[-1].column)
        self._hand_items = hand.items  # for cards passed unseen (give:?)
        for item in hand.items:
            if not self.replaying:
                if isinstance(item, Act):
                    if item.seat not in seats:
                        self.unknown_seat(item)
                    elif not is_resign(item.text):
                        self.action(item)
                elif isinstance(item, TrickMark):  # the replay stopped: the trick as written
                    self.trick = item.number
                continue
            t = type(item)
            if t is Act:
                assert isinstance(item, Act)
                trick_done = self.act(item, seat_index)
                if listener and self.replaying:
                    listener.on_act(st, item, trick_done,
                                    st.phase in (_DEAL, _OVER))
            elif t is Note:
                assert isinstance(item, Note)
                self.note(item, trick_done)
            elif t is TrickMark:
                assert isinstance(item, TrickMark)
                if st.phase not in (_DEAL, _OVER) and (item.number != st.trick_no
                                                       or not st.trick_no):
                    # trick 0: the auction or the talon, before trick 1 (no trick number)
                    left = steps_left(st, st.to_act)  # a step left out (a draw)
                    self.error("N145", f"this is {'still ' if left else ''}trick "
                               f"{st.trick_no}{left}" if st.trick_no else
                               "no trick number before trick 1 (the auction or the talon)"
                               + left,
                               item.line, item.column, token=f"{item.number}.",
                               trick=st.trick_no)
            else:
                assert isinstance(item, Comment)

    def act(self, item: Act, seat_index: dict[str, int]) -> bool:
        st = self.state
        rules = self.rules
        assert st is not None and rules is not None
        phase = st.phase
        if phase != _DEAL and phase != _OVER:
            self.trick = st.trick_no
        seat = seat_index.get(item.seat, -1)
        if seat < 0:
            self.unknown_seat(item)
            self.stop_replay()
            return False
        if phase == _OVER:
            self.error("N144", "the match is over: no action may follow", item.line,
                       item.column, seat=item.seat, token=item.as_written(),
                       rule_id=rules.core_over)
            self.stop_replay()
            return False
        if is_resign(item.text):
            st.resign(seat)
            self.out.actions += 1
            return False
        action = self.action(item)
        if action is None:
            self.stop_replay()
            return False
        if st.phase == _DEAL:
            points = " ".join(map(str, st.history[-1].points)) if st.history else "-"
            self.error("N143", f"hand {st.hand_no} is over (ended {st.hand_over_reason}, with "
                       f"points {points}): no action may follow", item.line, item.column,
                       seat=item.seat,
                       token=item.as_written(),
                       rule_id=rules.core_phase)
            self.stop_replay()
            return False
        if type(action) is Give and action.cards < 0:  # cards passed unseen by the writer
            passed = self._passed.get(id(item))
            if passed is not None:  # the cards the deal search chose with the deal
                action = Give(passed)
            else:
                from .placement import unseen_give

                action = unseen_give(st, seat, self.later_plays(item))
        ntricks = len(st.tricks)
        try:
            st.apply(action, seat)
        except IllegalActionError as exc:
            code = "N142" if exc.rule_id == rules.core_turn else "N141"
            why = exc.reason + legal_with(rules, exc.rule_id, self._dealt, self._done, seat,
                                          action)
            if code == "N142" and st.to_act is not None:
                why = f"out of turn: seat {rules.seat_names[st.to_act]} is to act"
            forced = code == "N141" and not self.strict and _force_play(st, seat, action)
            if forced:
                why += f"; {FORCED_NOTE}"
            elif code == "N141":
                why += steps_left(st, seat)
            self.error(code, why, item.line, item.column, seat=item.seat,
                       token=item.as_written(), rule_id=exc.rule_id)
            if not forced:
                self.stop_replay()
                return False
            self.out.forced += 1
            if (on_forced := getattr(self.listener, "on_forced", None)) is not None:
                on_forced(item)
        self._done.append((seat, action))
        self.out.actions += 1
        return len(st.tricks) > ntricks

    def later_plays(self, item: Act) -> list[tuple[int, int]]:
        """(seat, card) of the cards played after ``item`` in its hand."""
        r = self.rules
        assert r is not None
        out: list[tuple[int, int]] = []
        started = False
        for other in self._hand_items:
            if other is item:
                started = True
            elif started and isinstance(other, Act) and other.seat in r.seat_names:
                action = self._actions.get(other.text)
                if action is None:
                    try:
                        action = parse_action(r, other.text)
                    except ValueError:
                        continue  # reported where it is replayed
                card = played_card(action)  # a play, or one that says the pair
                if card >= 0:
                    out.append((r.seat_names.index(other.seat), card))
        return out

    # ------------------------------------------------------------ annotations
    def note(self, note: Note, trick_done: bool) -> None:
        st = self.state
        assert st is not None
        problem = note_problem(st, note, trick_done)
        if problem is not None:  # (won S) with a joiner after the S: say why it differs
            text = str(note)
            self.error(problem[0], problem[1] + odd_column(text, 0), note.line, note.column,
                       token=text, rule_id=note_rule(st.rules, problem[0]))

    # ----------------------------------------------------------------- end
    def finish(self) -> None:
        st, rules, res = self.state, self.rules, self.rec.result
        assert st is not None and rules is not None
        line, col = (res.line, res.column) if res else self.last
        if not self.replaying:
            return
        if st.phase != _OVER:
            if res is not None and res.winner is None:
                return
            self.error("N161", "the record stops before the match is over (write "
                       "'result *' for an unfinished match)", line, col)
            return
        assert st.result is not None
        want = team_name(rules, st.result.winner)
        if res is None:
            self.error("N160", f"the match result is missing: result {want} "
                       f"{st.result.reason}", line, col)  # after the record's last token
        elif res.winner != want or (res.reason is not None and res.reason != st.result.reason):
            self.error("N160", f"the match result is {want} {st.result.reason}", line, col,
                       token=f"result {res.winner or '*'} {res.reason or ''}".strip())


def check_record(record: Record, *, strict: bool = False, listener: Listener | None = None,
                 search_limit: int = DEFAULT_LIMIT) -> Checked:
    """Check ``record``: replay it on the rules engine and re-check its annotations; in
    strict mode stop at the first problem; ``listener`` is told each deal and action.

    >>> from mariage.notation import parse_record
    >>> text = ('[Mariage "1"]\\n[Ruleset "schnapsen"]\\n[Dealer "B"]\\n\\nhand 1\\n'
    ...         'deal dealer: B\\nA: QH AD KD QD JD\\nB: TH QC JC TS JS\\n'
    ...         'stock: KH QS AS AC TD KC AH JH TC\\nturnup: KS\\n'
    ...         '1. A:marriage:D A:QD B:JS (won B)\\n\\nresult *\\n')
    >>> check_record(parse_record(text)).ok
    True
    >>> wrong = parse_record(text.replace("(won B)", "(won A)"), file="wrong.mrg")
    >>> print(*check_record(wrong).errors)  # doctest: +NORMALIZE_WHITESPACE
    wrong.mrg:11:27: N150 record 1, hand 1, trick 1, at '(won A)': seat B won the trick
    [schnapsen.trick.winner]
    """
    expect_record(record, "check_record")
    return _Checker(record, strict, listener, search_limit).run()


def check_text(text: str, *, file: str = "<string>", number: int = 1, line: int = 1,
               strict: bool = False, listener: Listener | None = None,
               search_limit: int = DEFAULT_LIMIT) -> Checked:
    """Parse and check the text of one record, hand by hand as it is parsed.

    Memory stays bounded by the text and one hand, however long the match. A
    syntax error stops the replay there (the hands before it are checked); in
    lenient mode every later syntax error is reported too (see
    :func:`~.reader.syntax_errors`). ``Checked.record`` holds the header and
    result only (no hands).

    >>> out = check_text('[Mariage "1"]\\n[Ruleset "marianna"]\\n[Dealer "N"]\\nresult *\\n')
    >>> out.ok, out.record.ruleset
    (True, 'marianna')
    >>> [e.code for e in check_text('[Mariage "1"]\\n%%\\n').errors]
    ['N110']
    """
    expect_text(text, "check_text", file, number, line)
    header = Record((), (), (), None, file, number, line)
    return _Checker(header, strict, listener, search_limit).stream(text)


def validate(record: Record) -> Checked:
    """Check ``record`` strictly; raise :class:`NotationError` on the first problem.

    A whole recorded match, then the same with one card changed:

    >>> from mariage import load_rules
    >>> from mariage.arena.bots import make_bot
    >>> from mariage.notation import parse_record, record_match, write_record
    >>> text = write_record(record_match(load_rules("schnapsen"), seed=42,
    ...                                  bots=[make_bot("greedy", 0), make_bot("greedy", 1)]))
    >>> validate(parse_record(text)).ok
    True
    >>> try:
    ...     validate(parse_record(text.replace("B:JS", "B:AS", 1), file="bad.mrg"))
    ... except NotationError as exc:
    ...     print(exc.error.line, exc.error.column, exc.error.rule_id)
    ...     print(exc)  # doctest: +NORMALIZE_WHITESPACE
    13 22 core.hand
    bad.mrg:13:22: N141 record 1, hand 1, trick 1, seat B, at 'B:AS': that card is not
    in the player's hand [core.hand]
    """
    out = check_record(record, strict=True)
    if out.errors:
        raise NotationError(out.errors[0])
    return out
