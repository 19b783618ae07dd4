"""The undo journal: what an action records with undo on, and how it is taken back.

With undo on (:meth:`~mariage.engine.state.GameState.enable_undo`), each
action leaves one entry in the state's journal:

* a card within its trick, by the generated card play
  (:func:`mariage.engine.fastpath.play_apply` with ``trail``): the seat (an
  ``int``), or ``(CARD_TRAIL, seat, known, forced)`` where it changed what was
  known of the hand or the seat's forced card;
* the last card of a trick that does not end the hand: ``(TRICK_TRAIL, ...)``,
  copies of the lists the trick's end changes, the trick's own lists and
  scalars, and what the hooks of the trick's end declare they change;
* anything else: a snapshot of the state (:mod:`mariage.engine.copies`).

:func:`take_back` undoes one entry; :func:`rewind` takes a whole line back to
a mark from few entries (the state's ``undo`` and ``undo_to``).

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

from typing import TYPE_CHECKING, Any

from .copies import COPIERS

if TYPE_CHECKING:
    from .state import GameState

__all__ = ["CARD_TRAIL", "TRICK_TRAIL", "restore_trick", "rewind", "take_back", "undo_card",
           "undo_trick"]


#: the first item of a journal entry for a card within its trick that changed what was
#: known of the hand or the forced card: (CARD_TRAIL, seat, known before, forced before)
CARD_TRAIL = object()
#: the first item of a journal entry for the last card of a trick (see play_apply)
TRICK_TRAIL = object()


def undo_card(st: GameState, entry: Any) -> None:
    """Take back the card within its trick that journaled ``entry``
    (:func:`~mariage.engine.fastpath.play_apply` with ``trail``): an ``int``, the
    seat, where the card changed nothing known of his hand nor his forced card; else
    ``(CARD_TRAIL, seat, known, forced)``."""
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


def undo_trick(st: GameState, entry: tuple[Any, ...]) -> None:
    """Take back the last card of a trick, which journaled ``entry`` (it starts with
    :data:`TRICK_TRAIL`; :func:`~mariage.engine.fastpath.play_apply` with ``trail``)."""
    restore_trick(st, entry)
    st.tricks.pop()
    st.actions.pop()


def restore_trick(st: GameState, entry: tuple[Any, ...]) -> None:
    """Put back what ``entry`` (:data:`TRICK_TRAIL`) kept of the state before the last
    card of a trick, but for the lists of actions and tricks, which grew by one item.

    Everything a later card of the hand changes is among these (where no snapshot came
    between), so :meth:`GameState.undo_to` restores the earliest such entry only.
    """
    (_, seat, st.hands, st.known, st.forced, st.stock, st.captured, st.tricks_won, seats,
     cards, st.decl_this_trick, st.leader, st.trick_no, st.last_winner, st.turn_up,
     st.trump_set_in_trick, st.lead_mask, st._free_play, st._decl_open, st.phase,
     st.window_left, st.trump, st.trump_next, names, values) = entry
    seats.pop()
    cards.pop()
    st.trick_seats, st.trick_cards = seats, cards
    st.to_act = seat
    if names:  # what the hooks of the trick's end changed
        for name, value in zip(names, values, strict=True):
            setattr(st, name, value)


def take_back(state: GameState, entry: Any) -> None:
    """Undo the action that journaled ``entry``: a card within its trick, a trick's end,
    or a snapshot of the state."""
    if entry.__class__ is int:  # a card within its trick, that changed nothing known
        state.hands[entry] |= 1 << state.trick_cards.pop()
        state.trick_seats.pop()
        state.actions.pop()
        state.to_act = entry
    elif entry[0] is TRICK_TRAIL:  # the last card of a trick
        undo_trick(state, entry)
    elif entry[0] is CARD_TRAIL:  # a card within its trick
        undo_card(state, entry)
    else:
        COPIERS[type(state)].restore(state, entry)


def rewind(state: GameState, journal: list[Any], mark: int) -> None:
    """Take every entry of ``journal`` past ``mark`` back (``0 <= mark <= len(journal)``).

    A line of one or two actions is taken back one action at a time. A longer one is
    rebuilt from few entries: the earliest snapshot after the mark gives the state
    before its action; of the trails before it (all cards, one action each), the
    earliest trick's end holds everything the later ones changed, and only the cards
    before it in its trick are taken back one by one.
    """
    if len(journal) - mark < 3:
        while len(journal) > mark:
            take_back(state, journal.pop())
        return
    entries = journal[mark:]
    del journal[mark:]
    kinds = list(map(type, entries))  # int: a card within its trick; else a tuple
    end = len(entries)  # where the first snapshot is (or the end)
    first_trick = -1
    tricks = 0
    at = -1
    for _ in range(kinds.count(tuple)):
        at = kinds.index(tuple, at + 1)
        kind = entries[at][0]
        if kind is TRICK_TRAIL:
            tricks += 1
            if first_trick < 0:
                first_trick = at
        elif kind is not CARD_TRAIL:
            end = at
            take_back(state, entries[at])
            break
    if end:
        del state.actions[len(state.actions) - end:]
        if tricks:
            del state.tricks[len(state.tricks) - tricks:]
    if first_trick >= 0:
        restore_trick(state, entries[first_trick])
        end = first_trick
    hands, known, forced = state.hands, state.known, state.forced
    seats, cards = state.trick_seats, state.trick_cards
    for entry in reversed(entries[:end]):  # cards within the trick, the last first
        if entry.__class__ is int:
            seat = entry
        else:
            _, seat, known[seat], forced[seat] = entry
        hands[seat] |= 1 << cards.pop()
        seats.pop()
        state.to_act = seat
