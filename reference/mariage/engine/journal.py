"""The undo journal: what an action records with undo on, and how it is taken back.

With undo on (:meth:`~mariage.engine.state.GameState.enable_undo`), each
action leaves one entry in the state's journal:

* a card within its trick, by the generated card play
  (:func:`mariage.engine.fastpath.play_apply` with ``trail``): the seat (an
  ``int``), or the list ``[CARD_TRAIL, seat, known, forced]`` where it changed
  what was known of the hand or the seat's forced card;
* the last card of a trick that does not end the hand: the list
  ``[TRICK_TRAIL, restore, ...]``, the function written per ruleset that takes it
  back, then the values the trick's end changes, the small lists of seats and
  teams (hands, known cards, forced cards, points, tricks won) as numbers (no
  copy: ``restore`` writes them back in place), a copy of a stock that is not
  empty, the trick's own lists and scalars, the lengths of the lists of actions
  and tricks, what the hooks of the trick's end declare they change, and None
  (:func:`~mariage.engine.trailplan.trick_entry`);
* the card that ends the hand (its last card, or a trick's end whose hook ends
  it by the hand end, as Mariazza's target), where no deal source deals the
  next hand and the hand end says what it writes: the list ``[HAND_TRAIL, ...]``,
  the same items with the last one a tuple: a function that sets the slots the
  hand end writes, their values (:func:`~mariage.engine.trailplan.slot_keeper`)
  and the length of the record of hands (cut back to it, never copied);
* an action other than a card whose mechanism declares what it writes (a claim,
  a call-out, an ask and its answer, a declaration, a close, an exchange, a call, a
  question, a draw or decline after a trick:
  :attr:`~mariage.engine.mechanisms.base.Mechanism.trail_actions`),
  where no deal source deals: an :class:`ActionEntry`, those slots and what the
  hand end writes, and the lengths of the lists only ever appended to;
* anything else: a snapshot of the state (:mod:`mariage.engine.copies`), a
  ``tuple``.

So an entry's class tells its kind (``int``, ``list``: a trail; ``ActionEntry``;
``tuple``: a snapshot); the journal (a :class:`Journal`) notes where its
snapshots and action entries are, so that :func:`rewind` knows at once whether a
line holds trails only. :func:`take_back` undoes one entry; :func:`rewind` takes a
whole line back to a mark from few entries (the state's ``undo`` and ``undo_to``).

>>> from mariage import load_rules, new_match
>>> state = new_match(load_rules("marianna"), seed=1)
>>> state.enable_undo()
>>> state.apply(state.legal_actions()[0])
>>> entry = state._undo[-1]
>>> type(entry).__name__, len(state.trick_cards)
('int', 1)
>>> take_back(state, state._undo.pop())
>>> len(state.trick_cards), len(state.actions)
(0, 0)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .copies import COPIERS, snapshot_state

if TYPE_CHECKING:
    from .state import GameState

__all__ = ["CARD_TRAIL", "HAND_TRAIL", "TRICK_TRAIL", "ActionEntry", "Journal", "Marks",
           "Undoable",
           "restore_action",
           "restore_hand", "restore_trick", "rewind", "take_back", "undo_card"]


#: the first item of a journal entry for a card within its trick that changed what was
#: known of the hand or the forced card: [CARD_TRAIL, seat, known before, forced before]
CARD_TRAIL = object()
#: the first item of a journal entry (a list) for the last card of a trick (see play_apply)
TRICK_TRAIL = object()
#: the first item of a journal entry (a list) for the hand's last card journaled as a
#: trail: a trick's end (:data:`TRICK_TRAIL`) then what the hand end writes
HAND_TRAIL = object()

class ActionEntry(list):  # type: ignore[type-arg]
    """The journal entry of an action other than a card that declares what it writes
    (:attr:`~mariage.engine.mechanisms.base.Mechanism.trail_actions`): ``[put, values,
    actions, tricks, history]``, the function that sets the slots back, their values
    and the lengths of the lists only ever appended to. Its own class, so that
    :func:`rewind` tells it from the trails of cards by class."""

    __slots__ = ()


def restore_action(st: GameState, entry: ActionEntry) -> None:
    """Take back the action that journaled ``entry`` (an :class:`ActionEntry`)."""
    put, values, actions, tricks, history = entry
    put(st, values)
    del st.actions[actions:]
    del st.tricks[tricks:]
    del st._history[history:]


def undo_card(st: GameState, entry: Any) -> None:
    """Take back the card within its trick that journaled ``entry``
    (:func:`~mariage.engine.fastpath.play_apply` with ``trail``): an ``int``, the
    seat, where the card changed nothing known of his hand nor his forced card; else
    ``[CARD_TRAIL, seat, known, forced]``."""
    if entry.__class__ is int:
        seat = entry
    else:
        _, seat, known, forced = entry
        st.known[seat] = known
        st.forced[seat] = forced
    st.hands[seat] |= 1 << st.trick_cards.pop()
    st.trick_seats.pop()
    st.actions.pop()
    st.to_act = seat


def restore_trick(st: GameState, entry: list[Any]) -> None:
    """Take back the last card of a trick, which journaled ``entry`` (it starts with
    :data:`TRICK_TRAIL`; :func:`~mariage.engine.fastpath.play_apply` with ``trail``): put
    back what it kept of the state before the card, and cut the lists of actions and
    tricks to their lengths then, by the function the entry holds as its second item
    (written per ruleset: :func:`~mariage.engine.trailplan.trick_entry`).

    Everything a later card of the hand changes is among these (where no snapshot came
    between), so :meth:`GameState.undo_to` restores the earliest such entry only.
    """
    entry[1](st, entry)


def restore_hand_end(st: GameState, entry: list[Any]) -> None:
    """Put back what the end of the hand changed, as the hand's last card journaled it
    in ``entry`` (it starts with :data:`HAND_TRAIL`; its last item): the slots the hand
    end writes (set by the function kept with them:
    :func:`~mariage.engine.trailplan.slot_keeper`), and the record of hands cut back to
    its length then (it is only ever appended to)."""
    put, values, history = entry[-1]
    put(st, values)
    del st._history[history:]


def restore_hand(st: GameState, entry: list[Any]) -> None:
    """Take back the hand's last card, which journaled ``entry`` (it starts with
    :data:`HAND_TRAIL`): the end of the hand, then the trick's end."""
    restore_hand_end(st, entry)
    entry[1](st, entry)


def take_back(state: GameState, entry: Any) -> None:
    """Undo the action that journaled ``entry``: a card within its trick, a trick's end,
    or a snapshot of the state."""
    if entry.__class__ is int:  # a card within its trick, that changed nothing known
        state.hands[entry] |= 1 << state.trick_cards.pop()
        state.trick_seats.pop()
        state.actions.pop()
        state.to_act = entry
    elif entry.__class__ is tuple:  # a snapshot
        COPIERS[type(state)].restore(state, entry)
    elif entry.__class__ is ActionEntry:  # an action that declares what it writes
        restore_action(state, entry)
    elif entry[0] is TRICK_TRAIL:  # the last card of a trick
        entry[1](state, entry)
    elif entry[0] is HAND_TRAIL:  # the hand's last card
        restore_hand(state, entry)
    else:  # a card within its trick (CARD_TRAIL)
        undo_card(state, entry)


class Journal(list[Any]):
    """Undo's journal: one entry per action (see the module), and ``odd``, where its
    snapshots and :class:`ActionEntry` entries are (positions, in order), so that
    :func:`rewind` knows without a search whether a line holds trails only."""

    __slots__ = ("odd",)

    def __init__(self) -> None:
        super().__init__()
        self.odd: list[int] = []

    def keep_odd(self, entry: Any) -> None:
        """Append ``entry``, a snapshot or an :class:`ActionEntry`, noting where it is."""
        self.odd.append(len(self))
        self.append(entry)

    def cut_odd(self) -> None:
        """Forget the positions of the snapshots and action entries no longer kept."""
        odd, n = self.odd, len(self)
        while odd and odd[-1] >= n:
            odd.pop()


def rewind(state: GameState, journal: Journal, mark: int) -> None:
    """Take every entry of ``journal`` past ``mark`` back (``0 <= mark <= len(journal)``).

    A line of one or two actions is taken back one action at a time. A longer one is
    rebuilt from few entries. Where it holds trails only (the usual line of a
    search: no position of :attr:`Journal.odd` past the mark), the hand's last card,
    if it is the line's last entry, gives back what the hand's end wrote, and the
    earliest trick's end after the mark (within a trick's cards of it) everything the
    later cards changed; only the cards before it are taken back one by one. Else see
    :func:`_rewind_odd`.
    """
    if len(journal) - mark < 3:
        while len(journal) > mark:
            take_back(state, journal.pop())
        journal.cut_odd()
        return
    odd = journal.odd
    if odd and odd[-1] >= mark:
        _rewind_odd(state, journal, mark)
        return
    last = journal[-1]
    if last.__class__ is list and last[0] is HAND_TRAIL:  # (restore_hand_end, inline)
        put, values, history = last[-1]
        put(state, values)
        del state._history[history:]
    _trails_back(state, journal, mark, len(journal))
    del journal[mark:]


def _rewind_odd(state: GameState, journal: Journal, mark: int) -> None:
    """:func:`rewind` of a line that holds a snapshot or an :class:`ActionEntry`.

    The earliest snapshot after the mark gives the state before its action; of the
    trails before it (all cards, one action each), the earliest trick's end holds
    everything the later ones changed (and the lengths of the lists of actions and
    tricks) but what the end of the hand wrote, which the hand's last card, the last
    trail before the snapshot (nothing but a snapshot follows it), keeps. An
    :class:`ActionEntry` before the first snapshot is taken back after the line that
    follows it, and the line before it then.
    """
    kinds = list(map(type, journal[mark:]))  # int, list: a trail; tuple: a snapshot
    if ActionEntry in kinds:  # an action's entry before any snapshot: what follows it
        at = mark + kinds.index(ActionEntry)  # back first, then it, then what is before
        if tuple not in kinds[:at - mark]:
            rewind(state, journal, at + 1)
            restore_action(state, journal.pop())
            journal.cut_odd()
            rewind(state, journal, mark)
            return
    entries = journal[mark:]
    del journal[mark:]
    journal.cut_odd()
    end = len(entries)  # where the first snapshot is (or the end)
    if tuple in kinds:
        end = kinds.index(tuple)
        COPIERS[type(state)].restore(state, entries[end])
    last = entries[end - 1] if end else None  # the hand's last card, if a trail
    if last.__class__ is list and last[0] is HAND_TRAIL:
        restore_hand_end(state, last)
    _trails_back(state, entries, 0, end)


def _trails_back(state: GameState, entries: list[Any], start: int, end: int) -> None:
    """Take back the trails ``entries[start:end]`` (cards, the hand's end already set
    back; the list is left as it is): the earliest trick's end among them, within a
    trick's cards of the first, then the cards before it, the last first."""
    at = end
    for i in range(start, end):
        entry = entries[i]
        if entry.__class__ is not int and entry[0] is not CARD_TRAIL:  # a trick's (hand's) end
            entry[1](state, entry)
            at = i
            break
    if at == start:
        return
    del state.actions[start - at:]
    hands, known, forced = state.hands, state.known, state.forced
    seats, cards = state.trick_seats, state.trick_cards
    for entry in reversed(entries[start:at]):  # cards within the trick, the last first
        if entry.__class__ is int:
            seat = entry
        else:
            _, seat, known[seat], forced[seat] = entry
        hands[seat] |= 1 << cards.pop()
        seats.pop()
        state.to_act = seat


class Marks(list[Any]):
    """Undo for marks only (:meth:`Undoable.enable_undo` with ``marks_only``): no journal
    of actions, one record per mark, ``[kept, whole, pos, at]``, and :attr:`log`.

    ``kept`` is what cards alone may write, as the state was at the mark (the ruleset's
    :attr:`~mariage.engine.dispatch.Dispatch.mark_keeper`), or None where a card may write
    anything (a hook of the trick's end that changes something undeclared unless an
    expression holds, a trick play of its own, a hand end that does not say what it
    writes). ``whole`` is a snapshot of the whole state (:mod:`mariage.engine.copies`):
    where ``kept`` is None, the state at the mark, taken again each time it is restored;
    else None until something other than a card that does not say what it writes is
    done after the mark (an action whose mechanism declares nothing, a deal, the next
    deal by a deal source, a resignation), which first takes one (:meth:`widen`): what
    cards and the logged actions did not write is then as it was at the mark.

    ``log`` holds, in order, what the actions other than cards that declare what they
    write beyond the records wrote since the oldest record (a declaration, a close, a
    question, an exchange, held points counted at a trick's end:
    :attr:`~mariage.engine.dispatch.Dispatch.mark_extra`): ``(put, values)``, the
    function that sets those slots back and their values before the action. ``pos`` is
    the log's length when the record was made, ``at`` its length when ``whole`` was
    taken: a restore puts back ``whole`` (if any), then the log's entries past ``pos``
    that came before it, the last first, then ``kept``.

    ``clean`` is True while the state has not changed since the last record was made or
    restored but by actions that add to the list of actions ``acts`` (cards, and the
    actions whose writes the records keep, :attr:`~mariage.engine.dispatch.Dispatch.mark_free`,
    for which :meth:`~mariage.engine.state.GameState.apply` does not call :meth:`widen`:
    each appends itself), whose count is ``length`` there: :meth:`Undoable.mark` then
    gives that record again rather than make a new one.
    """

    __slots__ = ("acts", "clean", "length", "log", "seen")

    def __init__(self) -> None:
        super().__init__()
        self.clean = False
        self.acts: list[Any] | None = None
        self.length = 0
        self.log: list[tuple[Callable[..., None], tuple[Any, ...]]] = []
        self.seen: set[type] = set()  # the kinds logged since the last record was made or
        # restored: their slots are in the log as they were then, not logged again

    def widen(self, state: GameState, kind: type | None = None) -> None:
        """Before anything but a card changes ``state`` (an action of type ``kind``, the
        hooks of a trick's end whose gate failed (``kind``
        :class:`~mariage.engine.trailplan.GatedHooks`), or a deal or resignation, ``kind``
        None): nothing where the records
        keep what it writes (:attr:`~mariage.engine.dispatch.Dispatch.mark_free`); the
        values of the slots it declares beyond them, in :attr:`log`, where it declares
        them (:attr:`~mariage.engine.dispatch.Dispatch.mark_extra`); else one snapshot of
        the whole state for the last records that have none (those made since the last
        snapshot)."""
        self.clean = False
        if kind in self.seen or not self or self[-1][1] is not None:
            return  # (logged already since the last record, or the whole state kept)
        table = state._appliers
        if kind in table.mark_free:
            return
        extra = table.mark_extra.get(kind)  # type: ignore[arg-type]
        if extra is not None:
            self.seen.add(kind)  # type: ignore[arg-type]
            self.log.append((extra[1], extra[0](state)))
            return
        whole = snapshot_state(state)
        at = len(self.log)
        for record in reversed(self):
            if record[1] is not None:
                break
            record[1] = whole
            record[3] = at

    def unlog(self, state: GameState, pos: int) -> None:
        """Set back what the log's entries past ``pos`` wrote, the last first, and drop
        them."""
        log = self.log
        for i in range(len(log) - 1, pos - 1, -1):
            put, values = log[i]
            put(state, values)
        del log[pos:]
        self.seen.clear()

    def take(self, state: GameState) -> int:
        """A mark of ``state`` as it is now: the last record, if nothing but cards may
        have changed it since (see :attr:`clean`), else a new one."""
        if self.clean and state.actions is self.acts and len(state.actions) == self.length:
            return len(self) - 1
        keeper = state._appliers.mark_keeper
        pos = len(self.log)
        if self.seen:
            self.seen.clear()
        self.append([None, snapshot_state(state), pos, pos] if keeper is None
                     else [keeper[0](state), None, pos, 0])
        self.clean, self.acts, self.length = True, state.actions, len(state.actions)
        return len(self) - 1

    def restore(self, state: GameState, mark: int) -> None:
        """Set ``state`` back to record ``mark`` and forget the later records."""
        del self[mark + 1:]
        record = self[mark]
        kept, whole, pos, at = record
        if whole is not None:  # (the snapshot's lists become the state's: used once)
            del self.log[at:]  # (what came after the snapshot: it holds the state before)
            COPIERS[type(state)].restore(state, whole)
            record[1] = None
            for earlier in reversed(self[:mark]):  # the earlier records that share it
                if earlier[1] is not whole:
                    break
                earlier[1] = None
        if len(self.log) > pos:
            self.unlog(state, pos)
        self.seen.clear()
        keeper = state._appliers.mark_keeper
        if kept is None or keeper is None:  # the whole state kept: again, for the next time
            record[1] = snapshot_state(state)
            record[3] = len(self.log)
        else:
            keeper[1](state, kept)
        self.clean, self.acts, self.length = True, state.actions, len(state.actions)


class Undoable:
    """The undo of a :class:`~mariage.engine.state.GameState` (a base of it): turning the
    journal on and off, taking back one action, a mark and a whole line back to it."""

    __slots__ = ()  # the state's own slots: what these methods read and write

    def enable_undo(self, on: bool = True, *, marks_only: bool = False) -> None:
        """Start (or, with ``on=False``, stop) keeping what :meth:`undo` needs.

        With ``marks_only``, undo goes back to marks only: no journal of actions is
        kept (:meth:`apply` costs what it costs with undo off, :meth:`undo` is refused),
        and :meth:`mark` makes a record that :meth:`undo_to` sets the state back to, as
        often as asked: where cards alone may follow, of what cards may write (the
        trick's and the hand's ends included: :attr:`Dispatch.mark_keeper
        <mariage.engine.dispatch.Dispatch.mark_keeper>`); where an action that declares
        what it writes follows (a declaration, a close, a question...), the slots it
        declares beyond that are logged first, and where anything else follows (a bid, a
        deal...) a snapshot of the whole state is taken then, once (:class:`Marks`). So a
        search that plays lines out from a position and
        comes back to it (random playouts to the hand's end) pays a record, not a clone
        nor a journal; a search that takes actions back one by one wants the journal.
        ``enable_undo()`` turns the journal back on, dropping the marks.

        With undo on, a card journals only what it changes (a trail, written
        by generated code: :func:`mariage.engine.fastpath.play_apply`): within
        its trick, the seat (and what was known of his hand and his forced card
        where those change); at a trick's end, what the trick's end changes,
        with what the hooks there declare they change
        (:attr:`~mariage.engine.mechanisms.base.Mechanism.trail_hooks`); the
        card that ends the hand, with what the hand end writes, where no
        :attr:`deal_source` deals the next hand in the same call and the
        mechanisms say what it writes
        (:func:`~mariage.engine.handend.hand_end_writes`); the same way, an action
        whose mechanism declares what it writes
        (:attr:`~mariage.engine.mechanisms.base.Mechanism.trail_actions`: a claim,
        a call-out, an ask and its answer, a declaration, a close, an exchange, a call,
        a question, a draw or decline after a trick). Otherwise the card
        that ends the hand, a trick's end whose hooks may end or pause the hand
        in other ways, any other :meth:`apply`, :meth:`deal` and :meth:`resign`
        first journal the state (the price of a :meth:`clone`; the lists of
        actions, tricks and hands played are kept with their lengths and cut
        back, not copied). A refused action leaves no
        entry. Turning undo off drops the journal. See also :meth:`mark` and
        :meth:`undo_to`.

        >>> from mariage import load_rules, new_match
        >>> state = new_match(load_rules("marianna"), seed=1)
        >>> state.enable_undo()
        >>> before = state.legal_actions()
        >>> state.apply(before[-1])
        >>> state.undo()
        >>> state.legal_actions() == before
        True
        """
        st: GameState = self  # type: ignore[assignment]  # (the state this base is of)
        for flag in (on, marks_only):
            if type(flag) is not bool:
                raise TypeError(f"enable_undo takes True or False, got {type(flag).__name__} "
                                f"{flag!r:.40}")
        if not on:
            st._undo = st._marks = None
        elif marks_only:
            st._undo = None
            if st._marks is None:
                st._marks = Marks()
        else:
            st._marks = None
            if st._undo is None:
                st._undo = Journal()

    @property
    def undo_depth(self) -> int:
        """How many actions :meth:`undo` can take back now (0 with undo off or for marks
        only)."""
        st: GameState = self  # type: ignore[assignment]  # (the state this base is of)
        return 0 if st._undo is None else len(st._undo)

    def undo(self) -> None:
        """Take back the last :meth:`apply`, :meth:`deal` or :meth:`resign` made with undo on.

        A hand dealt automatically by :attr:`deal_source` after an action is
        taken back with it. Raises ``ValueError`` if there is nothing to undo.
        """
        st: GameState = self  # type: ignore[assignment]  # (the state this base is of)
        journal = st._undo
        if not journal:
            raise ValueError("nothing to undo" if journal is not None else
                             "undo is for marks only: undo_to() a mark, or enable_undo()"
                             if st._marks is not None else
                             "undo is off: call enable_undo() first")
        entry = journal.pop()
        if entry.__class__ is int:  # a card within its trick (the usual entry: inline)
            st.hands[entry] |= 1 << st.trick_cards.pop()
            st.trick_seats.pop()
            st.actions.pop()
            st.to_act = entry
        elif entry.__class__ is list and entry[0] is TRICK_TRAIL:  # a trick's end
            entry[1](st, entry)
        else:
            take_back(st, entry)
            journal.cut_odd()

    def mark(self) -> int:
        """A mark of this moment, which :meth:`undo_to` comes back to (undo is turned on).

        A search marks a position, plays a line from it (a playout to the end
        of the hand, a branch of a tree) and takes the whole line back in one
        call; marks nest, and :meth:`undo` still takes back one action at a
        time. The mark is the journal's depth: it stays good while at least
        that many actions are kept. For marks only (:meth:`enable_undo` with
        ``marks_only``), it is the number of a record (the last one again where
        nothing but cards came since it was made or restored); it stays good until
        :meth:`undo_to` an earlier mark.

        >>> from mariage import load_rules, new_match
        >>> state = new_match(load_rules("marianna"), seed=1)
        >>> root = state.mark()
        >>> before = state.legal_actions()
        >>> while state.hand_no == 1:  # to the end of the hand, and the next deal
        ...     state.apply(state.legal_actions()[-1])
        >>> state.undo_to(root)
        >>> state.hand_no, state.legal_actions() == before, state.undo_depth
        (1, True, 0)
        """
        st: GameState = self  # type: ignore[assignment]  # (the state this base is of)
        if st._marks is not None:  # (undo for marks only: a record, see Marks)
            return st._marks.take(st)
        if st._undo is None:
            st._undo = Journal()
        return len(st._undo)

    def undo_to(self, mark: int) -> None:
        """Take back every action made since :meth:`mark` returned ``mark``, in one call.

        Raises ``ValueError`` if undo is off or fewer actions are kept than the mark.

        >>> from mariage import load_rules, new_match
        >>> state = new_match(load_rules("schnapsen"), seed=2)
        >>> root = state.mark()
        >>> for _ in range(3):
        ...     state.apply(state.legal_actions()[0])
        >>> inner, seen = state.mark(), state.legal_actions()
        >>> for _ in range(5):
        ...     state.apply(state.legal_actions()[-1])
        >>> state.undo_to(inner)
        >>> state.legal_actions() == seen, state.undo_depth
        (True, 3)
        >>> state.undo_to(root)
        >>> len(state.actions), state.undo_depth
        (0, 0)
        >>> state.undo_to(inner)
        Traceback (most recent call last):
        ...
        ValueError: no such mark: 3 (undo depth 0)
        """
        st: GameState = self  # type: ignore[assignment]  # (the state this base is of)
        marks = st._marks
        if marks is not None:  # (undo for marks only: a record, see Marks)
            if type(mark) is not int or not 0 <= mark < len(marks):
                raise ValueError(f"no such mark: {mark!r} ({len(marks)} marks kept)")
            record = marks[-1]
            keeper = st._appliers.mark_keeper
            if mark == len(marks) - 1 and record[1] is None and keeper is not None:
                keeper[1](st, record[0])  # the usual line: cards only, from the last mark
                log, pos = marks.log, record[2]
                if len(log) > pos:  # (and actions that declare their writes)
                    if len(log) == pos + 1:  # (one: set back inline)
                        put, values = log.pop()
                        put(st, values)
                        marks.seen.clear()
                    else:
                        marks.unlog(st, pos)
                marks.clean, marks.acts, marks.length = True, st.actions, len(st.actions)
                return
            marks.restore(st, mark)
            return
        journal = st._undo
        if type(mark) is not int or journal is None or not 0 <= mark <= len(journal):
            raise ValueError(f"no such mark: {mark!r} (undo depth {st.undo_depth})")
        rewind(st, journal, mark)

    def _trailed(self, kept: tuple[Callable[..., Any], Callable[..., None]],
                 action: Any, seat: int | None) -> None:
        """Apply ``action`` with undo off after keeping what it declares it writes (``kept``:
        the functions of :func:`~mariage.engine.trailplan.slot_keeper`) and the lengths of
        the lists only ever appended to; on error, put them back."""
        st: GameState = self  # type: ignore[assignment]  # (the state this base is of)
        journal = st._undo
        assert journal is not None
        keep, put = kept
        entry = ActionEntry((put, keep(st), len(st.actions), len(st.tricks), len(st._history)))
        st._undo = None
        try:
            st.apply(action, seat)
        except BaseException:
            restore_action(st, entry)
            raise
        finally:
            st._undo = journal
        journal.keep_odd(entry)

    def _journaled(self, method: Callable[..., None], *args: Any) -> None:
        """Run ``method`` with undo off after journaling the state; on error, restore it."""
        st: GameState = self  # type: ignore[assignment]  # (the state this base is of)
        journal = st._undo
        assert journal is not None
        snap = snapshot_state(st)
        st._undo = None
        try:
            method(*args)
        except BaseException:
            COPIERS[type(st)].restore(st, snap)
            raise
        finally:
            st._undo = journal
        journal.keep_odd(snap)
