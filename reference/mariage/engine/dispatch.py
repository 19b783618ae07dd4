"""Which mechanism does what for one state: the dispatch table, made once per pair.

A :class:`~mariage.engine.state.GameState` does not ask its mechanisms who
applies an action, lists a phase's actions or answers a hook each time: it
reads a :class:`Dispatch` made once for its mechanisms under its rules (both
immutable, so every state of the pair shares it).

>>> from mariage import load_rules
>>> from mariage.engine.actions import Play
>>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS
>>> rules = load_rules("marianna")
>>> table = dispatch_of(DEFAULT_MECHANISMS, rules)
>>> table is dispatch_of(DEFAULT_MECHANISMS, rules), table.trail_plays
(True, True)
>>> table.appliers[Play] == DEFAULT_MECHANISMS.tricks.apply_play
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..lazyrecord import field, frozen_record
from .actionfields import FIELDS_OK
from .actions import Action, Decline
from .duties import duties
from .fastpath import PlayLegal, PlaySplit, keeps, play_apply, play_legal, play_split, start_trick
from .handend import HandEnd, hand_end, hand_end_writes
from .mechanisms import Mechanism, Mechanisms, TrickPlay
from .mechanisms.base import PhaseWindow
from .mechanisms.hooks import Hooks, hooks_of
from .resume import GoOn, resume, resume_decline
from .rules import Rules
from .trailplan import action_trails, mark_extra, mark_keeper, record_slots

if TYPE_CHECKING:
    from .state import GameState

__all__ = ["Applier", "Dispatch", "dispatch_of", "phase_windows_of", "play_split_of"]

#: a mechanism's method that applies one kind of action: (state, seat, action)
Applier = Callable[["GameState", int, Any], None]
_Offer = Callable[["GameState", int, list[Action]], None]
_PhaseLegal = Callable[["GameState", int], Sequence[Action]]


@frozen_record
class Dispatch:
    """What the mechanisms of one state do, looked up once (not per action)."""

    appliers: dict[type, Applier]  # action type -> apply, at the seat's turn
    any_seat: dict[type, Applier]  # action type -> apply, whoever sends it
    any_time: tuple[_Offer, ...]  # actions open to every seat at every moment
    phase_legal: dict[int, _PhaseLegal]  # the other phases' legal actions
    hooks: Hooks  # where the mechanisms meet (after a trick...), under these rules
    play_legal: PlayLegal  # the play phase's legal actions, by generated code
    apply_play: Applier  # a card played by the seat to act, in the play phase (generated code
    # with the trick's end inline, engine.fastpath.play_apply, or the mechanism's own)
    trail_plays: bool  # the reference apply_play runs: undo may journal a play's changes only
    end_hand: HandEnd  # (state, how): Scoring.end_hand(state, how), by generated code where
    # the scoring, match end and dealing are the reference ones (engine.handend.hand_end)
    start_trick: Callable[[GameState, int], None]  # (state, leader): TrickPlay.start_trick,
    # by generated code where it is the reference one (engine.fastpath.start_trick)
    legal_plays: Callable[[GameState, int], int]  # (state, seat): TrickPlay.legal_plays, by
    # generated code where its steps are the reference ones (engine.duties.duties)
    any_time_in: dict[int, tuple[_Offer, ...]]  # per phase other than play: the actions
    # open at any moment that may be open in it (Mechanism.any_time_phases)
    to_act: dict[type, Applier]  # action type -> apply, sent by the seat to act (with no
    # seat named): ``any_seat``'s, else ``appliers``', as GameState._dispatch looks them up
    # (the claims' decline by generated code where there is some: _to_act)
    to_act_plain: dict[type, Applier]  # those of ``to_act`` whose action type has no field
    # to check (actionfields.FIELDS_OK: None; Pass, Decline, Concede, Close...), which
    # GameState.apply calls straight when no seat is named and marks are off
    go_on: GoOn | None  # (state, winner): the play resumed after the winner's pause, as
    # Claims.go_on, by generated code where there is some (engine.resume.resume)
    made_of: tuple[Mechanisms, Rules] = field(repr=False, compare=False)  # what it is of
    # the parts for undo and marks below are made when first read (_undo_parts): a state
    # that never turns undo on (a replay, a validation, a match) never writes their code
    play_trail: Callable[..., None] | None = field(init=False)  # with undo on: the card and
    # its trick's end journaling what they change (generated code, engine.fastpath.play_apply
    # with trail)
    action_trails: dict[type, tuple[Callable[..., Any], Callable[..., None]]] = field(
        init=False)  # with undo on: the actions that declare what they write, kept and set
    # back (engine.trailplan)
    mark_keeper: tuple[Callable[..., Any], Callable[..., None]] | None = field(init=False)
    # with undo on for marks only: a mark's record of what cards alone may write, and its
    # restore (None: a card may write anything; a mark keeps the whole state)
    # (trailplan.mark_keeper)
    mark_free: frozenset[type] = field(init=False)  # with undo on for marks only: the types
    # of action other than cards that write nothing beyond a mark's record (those of
    # action_trails within it)
    mark_extra: dict[type, tuple[Callable[..., Any], Callable[..., None]]] = field(
        init=False)  # ... and those that declare what they write beyond it (with
    # trailplan.GatedHooks, the gated hooks of a trick's end): those slots kept and set back
    # (Marks.log; trailplan.mark_extra)


#: the fields of :class:`Dispatch` made when first read
_UNDO_PARTS = frozenset({"play_trail", "action_trails", "mark_keeper", "mark_free",
                         "mark_extra"})


def _undo_parts(table: Dispatch, name: str) -> Any:
    """``Dispatch.__getattr__``: a part for undo or marks, read before it was made (its
    slot empty): all of them made now, as the table's other fields were, and kept in
    their slots (read straight from then on)."""
    if name not in _UNDO_PARTS:
        raise AttributeError(f"{type(table).__name__!r} object has no attribute {name!r}")
    mech, rules = table.made_of
    appliers = {**table.appliers, **table.any_seat}
    hand_slots = hand_end_writes(mech, rules)
    play_trail = play_apply(mech, rules, trail=True, end_hand=table.end_hand,
                            legal_plays=table.legal_plays, hand_slots=hand_slots)
    marked = None if play_trail is None else record_slots(mech, rules, appliers)
    free, extra = (frozenset(), {}) if marked is None else mark_extra(
        mech, rules, appliers, marked)
    parts = {"play_trail": play_trail,
             "action_trails": action_trails(appliers, hand_slots, mech, rules),
             "mark_keeper": None if marked is None
             else mark_keeper(marked, rules.nseats, len(rules.teams)),
             "mark_free": free, "mark_extra": extra}
    for key, value in parts.items():
        object.__setattr__(table, key, value)
    return parts[name]


Dispatch.__getattr__ = _undo_parts  # type: ignore[attr-defined]  # (hidden from mypy,
# which would take any name as an attribute)


#: (id of the mechanisms, id of the rules) -> (mechanisms, rules, their dispatch table)
_DISPATCH: dict[tuple[int, int], tuple[Mechanisms, Rules, Dispatch]] = {}


def dispatch_of(mech: Mechanisms, rules: Rules) -> Dispatch:
    """The dispatch table of ``mech`` under ``rules``, made once per pair (mechanisms are
    stateless and rules frozen, so states of the same pair share it)."""
    hit = _DISPATCH.get((id(mech), id(rules)))
    if hit is not None and hit[0] is mech and hit[1] is rules:
        return hit[2]
    if len(_DISPATCH) >= 512:  # bounded (above the configurations a suite run meets)
        _DISPATCH.clear()
    table = _dispatch_table(mech, rules)
    _DISPATCH[(id(mech), id(rules))] = (mech, rules, table)
    return table


#: (id of the mechanisms, id of the rules) -> (mechanisms, rules, their split listing)
_SPLIT: dict[tuple[int, int], tuple[Mechanisms, Rules, PlaySplit]] = {}


def play_split_of(mech: Mechanisms, rules: Rules) -> PlaySplit:
    """The play phase's legal actions of the seat to act under ``mech`` and ``rules`` as
    the bits of the cards it may play and the list of the other actions
    (:func:`~mariage.engine.fastpath.play_split`), written once per pair, when first
    asked for (the environments of :mod:`mariage.ai` list action ids from it).

    >>> from mariage import load_rules, new_match
    >>> state = new_match(load_rules("marianna"), 1)
    >>> cards, others = play_split_of(state.mech, state.rules)(state, state.to_act)
    >>> [a.card for a in state.legal_actions()] == state.rules.cards_of(cards), others
    (True, [])
    """
    hit = _SPLIT.get((id(mech), id(rules)))
    if hit is not None and hit[0] is mech and hit[1] is rules:
        return hit[2]
    if len(_SPLIT) >= 64:  # bounded, whatever the caller makes
        _SPLIT.clear()
    fn = play_split(mech, rules, dispatch_of(mech, rules).legal_plays)
    _SPLIT[(id(mech), id(rules))] = (mech, rules, fn)
    return fn


#: (id of the mechanisms, id of the rules) -> (mechanisms, rules, their phase windows)
_WINDOWS: dict[tuple[int, int], tuple[Mechanisms, Rules, dict[int, PhaseWindow]]] = {}


def phase_windows_of(mech: Mechanisms, rules: Rules) -> dict[int, PhaseWindow]:
    """Per phase other than play whose legal actions are a window of a ladder under
    ``mech`` and ``rules`` (:meth:`Mechanism.phase_window`), that window: what
    ``legal_actions()`` lists for the seat to act there is ``ladder[:head]`` then
    ``ladder[start:stop]`` wherever the window gives ``(head, start, stop)`` (the
    environments of :mod:`mariage.ai` make an auction's mask from it). Only where the
    phase's mechanism overrides none of the methods its listing relies on and no action
    open at any moment may join the phase's listing; made once per pair.

    >>> from mariage import load_rules, new_match
    >>> from mariage.engine.phase import Phase
    >>> state = new_match(load_rules("marjapussi-de"), 1)
    >>> ladder, window = phase_windows_of(state.mech, state.rules)[Phase.AUCTION]
    >>> head, start, stop = window(state, state.to_act)
    >>> [*ladder[:head], *ladder[start:stop]] == state.legal_actions(), head, start
    (True, 1, 1)
    """
    hit = _WINDOWS.get((id(mech), id(rules)))
    if hit is not None and hit[0] is mech and hit[1] is rules:
        return hit[2]
    if len(_WINDOWS) >= 64:  # bounded, whatever the caller makes
        _WINDOWS.clear()
    table = dispatch_of(mech, rules)
    owners = {p: m for m in mech.all() for p in m.phases}  # (the last lists the phase)
    windows = {}
    for phase, m in owners.items():
        if table.any_time_in.get(phase, table.any_time):  # something may join the listing
            continue
        found = m.phase_window(rules)
        if found is None:
            continue
        cls = type(m)
        owner = next(k for k in cls.__mro__ if "phase_window" in vars(k))
        if all(getattr(cls, name) is getattr(owner, name)
               for name in ("legal_in_phase", "phase_listing", *m.listing_depends)):
            windows[phase] = found
    _WINDOWS[(id(mech), id(rules))] = (mech, rules, windows)
    return windows


def _dispatch_table(mech: Mechanisms, rules: Rules) -> Dispatch:
    appliers: dict[type, Applier] = {}
    any_seat: dict[type, Applier] = {}
    phase_legal: dict[int, _PhaseLegal] = {}
    for m in mech.all():
        for t, name in m.applies:
            appliers[t] = getattr(m, name)
        for t, name in m.any_seat:
            any_seat[t] = getattr(m, name)
        for p in m.phases:
            phase_legal[p] = _listing(m, rules)
    for m in mech.all():  # appliers that take over an action type under these rules
        for t, name in m.applies_for(rules):
            appliers[t] = getattr(m, name)
    hooks = hooks_of(mech.all(), rules)
    end_hand = hand_end(mech, rules) or mech.scoring.end_hand
    legal = duties(mech, rules)  # written once for the listing and both card plays
    to_act = _to_act(mech, rules, {**appliers, **any_seat}, end_hand)
    return Dispatch(appliers, any_seat,
                    tuple(m.any_time for m in mech.all() if m.offers_any_time(rules)),
                    phase_legal, hooks, play_legal(mech, rules, legal),
                    play_apply(mech, rules, end_hand=end_hand, legal_plays=legal)
                    or mech.tricks.apply_play,
                    type(mech.tricks).apply_play is TrickPlay.apply_play,
                    end_hand, start_trick(mech, rules), legal, _any_time_in(mech, rules),
                    to_act, _plain(to_act), resume(mech, rules, end_hand), (mech, rules))


def _to_act(mech: Mechanisms, rules: Rules, appliers: dict[type, Applier],
            end_hand: HandEnd) -> dict[type, Applier]:
    """``appliers`` (the action types' appliers, as ``GameState._dispatch`` looks them
    up), the claims' decline by generated code where it applies a decline
    (:func:`~mariage.engine.resume.resume_decline`)."""
    if appliers.get(Decline) == mech.claims.apply_decline:
        decline = resume_decline(mech, rules, end_hand)
        if decline is not None:
            appliers[Decline] = decline
    return appliers


def _plain(to_act: dict[type, Applier]) -> dict[type, Applier]:
    """The appliers of ``to_act`` whose action type has no field to check: what
    ``GameState.apply`` would call after its checks, for it to call at once.

    >>> from mariage import load_rules
    >>> from mariage.engine.actions import Bid, Pass
    >>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS
    >>> table = dispatch_of(DEFAULT_MECHANISMS, load_rules("thousand"))
    >>> table.to_act_plain[Pass] == table.to_act[Pass], Bid in table.to_act_plain
    (True, False)
    """
    return {kind: applier for kind, applier in to_act.items() if FIELDS_OK[kind] is None}


def _any_time_in(mech: Mechanisms, rules: Rules) -> dict[int, tuple[_Offer, ...]]:
    """Per phase other than play, the ``any_time`` offers under ``rules`` that may add
    something in it: all but those whose :meth:`Mechanism.any_time_phases` leave the
    phase out (unless the mechanism overrides a method that relies on)."""
    offers = [(m, None if not keeps(m, "any_time_phases", "any_time")
               else m.any_time_phases(rules))
              for m in mech.all() if m.offers_any_time(rules)]
    phases = {p for m in mech.all() for p in m.phases}
    return {p: tuple(m.any_time for m, only in offers if only is None or p in only)
            for p in phases}


def _listing(m: Mechanism, rules: Rules) -> _PhaseLegal:
    """The listing of ``m``'s phases under ``rules``: :meth:`Mechanism.phase_listing` where
    ``m`` gives one and overrides none of the methods it assumes, else ``legal_in_phase``."""
    written = m.phase_listing(rules)
    if written is None:
        return m.legal_in_phase
    cls = type(m)
    owner = next(k for k in cls.__mro__ if "phase_listing" in vars(k))
    if all(getattr(cls, name) is getattr(owner, name)
           for name in ("legal_in_phase", *m.listing_depends)):
        return written
    return m.legal_in_phase
