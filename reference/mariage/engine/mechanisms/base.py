"""What every mechanism shares: the base class and the refusal helper.

A mechanism is a stateless object: all the data of a match lives in the
:class:`~mariage.engine.state.GameState` it is given, so one instance serves every
state, and a copy of a state shares its mechanisms.

>>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS
>>> DEFAULT_MECHANISMS.tricks.name
'trick play and duties'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn

from mariage.errors import IllegalActionError

from ..actions import Action
from ..actiontext import action_text

if TYPE_CHECKING:
    from ..phase import Phase
    from ..rules import Rules
    from ..state import GameState

__all__ = ["HALF_ANSWER_FORM", "Kept", "LeaderOpening", "Mechanism", "PhaseWindow",
           "kept_per_rules", "partner_of", "refuse"]

#: a phase's legal actions as a window of one fixed ladder of actions
#: (:meth:`Mechanism.phase_window`): the ladder, and the function of (state, seat) that
#: gives ``(head, start, stop)``, the legal actions being ``ladder[:head]`` then
#: ``ladder[start:stop]`` (``head <= start``), or None where they are no such window
PhaseWindow = tuple[tuple[Action, ...],
                    Callable[["GameState", int], "tuple[int, int, int] | None"]]

#: Why ``yes:S`` is refused after a question for a half (``ask:half:X``): its answer is a
#: bare ``yes`` or ``no``, even from a partner holding both cards (decided by this
#: project: one text per answer; the suit is the one asked).
HALF_ANSWER_FORM = ("a half question is answered with a bare yes or no (the suit is the "
                    "one asked)")


class Mechanism:
    """One mechanism of the rules: its legal actions, its apply and its rule IDs.

    ``sections`` names the sections of a game description (dotted paths such
    as ``declarations`` or ``lead.first``) whose rules this mechanism runs;
    where two mechanisms name nested sections, the longer one owns the rule.
    Subclass a mechanism and override its public methods to change how it
    works (the faulty engines of the conformance suite do exactly that), then
    pass the changed set to :class:`~mariage.engine.state.GameState` as
    ``mechanisms=``.
    """

    __slots__ = ()

    #: a short name for the mechanism, as the documentation uses it
    name: ClassVar[str] = ""
    #: the sections of a game description whose rules this mechanism runs
    sections: ClassVar[tuple[str, ...]] = ()
    #: (action type, method name): the actions this mechanism applies, at the seat's turn
    applies: ClassVar[tuple[tuple[type, str], ...]] = ()
    #: action types that any seat may send at any moment (checked by the mechanism)
    any_seat: ClassVar[tuple[tuple[type, str], ...]] = ()
    #: the phases (other than play) whose legal actions this mechanism lists
    phases: ClassVar[tuple[int, ...]] = ()
    #: the methods other mechanisms may call (its steps: end the hand, open a trick...)
    steps: ClassVar[tuple[str, ...]] = ()

    def hooks(self, rules: Rules) -> tuple[tuple[str, str], ...]:
        """(hook, method name) pairs: the hooks this mechanism answers under ``rules``.

        See :mod:`mariage.engine.mechanisms.hooks`; declare a hook only for the
        rules that need it, so that the others pay nothing for it.
        """
        return ()

    def applies_for(self, rules: Rules) -> tuple[tuple[type, str], ...]:
        """(action type, method name) pairs this mechanism applies under ``rules`` only.

        They take over ``applies`` of other mechanisms for that type (a pass in an
        auction, an answer to a trump-call question); the method hands back to the
        usual mechanism whatever is not its own.
        """
        return ()

    def offers(self, rules: Rules) -> bool:
        """True if this mechanism adds actions in the play phase, before the card plays."""
        return False

    def offer(self, st: GameState, seat: int, out: list[Action]) -> None:
        """Add the actions ``seat`` (to act, in the play phase) may take here to ``out``."""

    #: the methods besides :meth:`offer` whose behaviour :meth:`offer_gate` assumes
    gate_depends: ClassVar[tuple[str, ...]] = ()

    def offer_gate(self, rules: Rules) -> str | None:
        """A Python expression that is false only where :meth:`offer` adds nothing.

        The play phase's generated code (:mod:`mariage.engine.fastpath`) calls
        :meth:`offer` only where it is true; it may read ``st`` (the state),
        ``seat`` (the seat to act) and ``h`` (his hand). ``None``: always call.
        A subclass overriding :meth:`offer` or a method named in
        :attr:`gate_depends` loses the gate unless it states its own.
        """
        return None

    def offer_exact(self, rules: Rules) -> tuple[str, Action] | None:
        """An expression (read as :meth:`offer_gate`'s) that is true exactly where
        :meth:`offer` adds one action, and that action (the same object each time).

        Where it is given, the play phase's generated code appends the action
        itself instead of calling :meth:`offer`. ``None``: use the gate. A
        subclass overriding :meth:`offer` or a method named in
        :attr:`gate_depends` loses it unless it states its own.
        """
        return None

    #: hook methods at a trick's end (``after_trick``, ``next_lead``) that never end or
    #: pause the hand, with the slots each may change: undo journals those slots with the
    #: trick's end (:func:`mariage.engine.fastpath.play_apply` with ``trail=True``)
    #: instead of a snapshot of the state; and hooks at a hand's end (``hand_scored``,
    #: ``match_over``), with the slots each may change, kept with the hand's last card
    #: (:func:`mariage.engine.handend.hand_end_writes`). A subclass overriding such a
    #: method loses it.
    trail_hooks: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: hook methods at a trick's end that, where a Python expression holds, neither end
    #: the hand nor change anything but what undo keeps of a trick's end (the phase, the
    #: seat to act, the trick's lists, the scalars of the trick...): the expression is read
    #: before the trick's last card changes anything (``st``, ``winner``: the seat that
    #: will win the trick, ``trick_points``: the card points of the trick's cards); where
    #: it does not hold, undo journals a snapshot
    quiet_hooks: ClassVar[dict[str, str]] = {}
    #: hook methods of :attr:`quiet_hooks` that, where their expression does not hold,
    #: change nothing unless they end the hand, and end it only by the hand end
    #: (``Dispatch.end_hand``): undo then keeps what the hand end writes with the trick's
    #: end (:mod:`mariage.engine.trailplan`) instead of a snapshot. A subclass loses it.
    ending_hooks: ClassVar[frozenset[str]] = frozenset()
    #: applier methods (by name) that write only these slots besides appending to the
    #: hand's actions, and end the hand, if at all, only by the hand end: undo keeps those
    #: slots and what the hand end writes instead of a snapshot where no deal source
    #: deals the next hand (:func:`mariage.engine.trailplan.action_trails`). A subclass
    #: loses it.
    trail_actions: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: per applier of :attr:`trail_actions`, the methods of other mechanisms it runs
    #: (the mechanism's field of :class:`~mariage.engine.mechanisms.Mechanisms`, the
    #: method), whose writes its slots take in: the trail holds only where each is the
    #: method of the bundled mechanism's class, and each ``after_points`` hook is one of
    #: them (:func:`mariage.engine.trailplan.action_trails`).
    trail_calls: ClassVar[dict[str, tuple[tuple[str, str], ...]]] = {}
    #: appliers of :attr:`trail_actions` that write only after an action this mechanism
    #: offers in play (an answer to its own question): where it offers nothing under the
    #: rules (:meth:`offers`, :meth:`offers_any_time`), they write nothing, and an applier
    #: of another mechanism that passes actions on to one (named in its
    #: :attr:`trail_calls`) takes in none of its writes; elsewhere it takes in its
    #: :attr:`trail_actions` (:func:`mariage.engine.trailplan.action_slots`)
    trail_offered: ClassVar[frozenset[str]] = frozenset()
    #: hook methods of :attr:`quiet_hooks` that, where their expression does not hold,
    #: write only these slots besides what a trick's end writes, and end the hand, if at
    #: all, only by the hand end: undo for marks only keeps those slots before the hooks
    #: run instead of the whole state (:func:`mariage.engine.trailplan.gated_slots`; the
    #: methods of other mechanisms such a hook runs are named in :attr:`trail_calls`). A
    #: subclass loses it.
    mark_hooks: ClassVar[dict[str, tuple[str, ...]]] = {}

    def legal_in_phase(self, st: GameState, seat: int) -> Sequence[Action]:
        """The legal actions of ``seat`` (to act) in one of this mechanism's ``phases``."""
        return []

    #: the methods besides :meth:`legal_in_phase` whose behaviour :meth:`phase_listing`
    #: assumes
    listing_depends: ClassVar[tuple[str, ...]] = ()

    def phase_listing(self, rules: Rules) -> Callable[[GameState, int], Sequence[Action]] | None:
        """:meth:`legal_in_phase` written for ``rules``: a function of (state, seat) that
        lists the same actions, with the rules' values and shared actions bound once, or
        ``None`` (no such function, or not for these rules).

        The dispatch table (:mod:`mariage.engine.dispatch`) lists the phase with it. A
        subclass overriding :meth:`legal_in_phase` or a method named in
        :attr:`listing_depends` keeps :meth:`legal_in_phase` unless it states its own.
        """
        return None

    def phase_window(self, rules: Rules) -> PhaseWindow | None:
        """What :meth:`phase_listing` lists, as a window of one fixed ladder of actions
        (:data:`PhaseWindow`: an auction's pass and bids, the bids above the standing one
        up to the seat's highest), so that a caller that wants the actions' ids, not the
        actions, takes them from the ladder's ids at once; ``None`` (the default) where
        the mechanism gives none for ``rules``.

        :func:`~mariage.engine.dispatch.phase_windows_of` offers it only where the
        mechanism overrides none of :meth:`legal_in_phase`, :meth:`phase_listing` and
        :attr:`listing_depends` (so a changed mechanism is listed as it lists) and no
        action open at any moment may join the phase's listing.
        """
        return None

    def all_actions(self, rules: Rules) -> list[Action]:
        """Every action this mechanism could ever offer under ``rules`` (for fixed action ids)."""
        return []

    def offers_any_time(self, rules: Rules) -> bool:
        """True if this mechanism adds actions that any seat may take at any moment."""
        return False

    def any_time(self, st: GameState, seat: int, out: list[Action]) -> None:
        """Add the actions ``seat`` may take whoever is to act to ``out``."""

    #: per hook handler (a method named by :meth:`hooks`): the methods besides it whose
    #: behaviour :meth:`hook_gate` assumes
    hook_gate_depends: ClassVar[dict[str, tuple[str, ...]]] = {}

    def hook_gate(self, method: str, rules: Rules) -> str | None:
        """A Python expression that is false only where the hook handler ``method``
        (``after_trick`` or ``next_lead``) does nothing (and returns nothing true).

        The generated card play calls the handler only where it is true; it may
        read ``st`` (the state) and ``winner`` (the trick's winner, who leads
        next). ``None``: always call. A subclass overriding ``method`` or a method
        it names in :attr:`hook_gate_depends` loses the gate unless it states its
        own.
        """
        return None

    #: the methods besides :meth:`any_time` whose behaviour :meth:`any_time_gate` assumes
    any_time_depends: ClassVar[tuple[str, ...]] = ()

    def any_time_gate(self, rules: Rules) -> str | None:
        """A Python expression that is false only where :meth:`any_time` adds nothing in
        the play phase (read as :meth:`offer_gate` is: ``st``, ``seat``, ``h``); ``None``:
        always call. A subclass overriding :meth:`any_time` or a method named in
        :attr:`any_time_depends` loses the gate unless it states its own.
        """
        return None

    def any_time_phases(self, rules: Rules) -> tuple[int, ...] | None:
        """The phases other than play in which :meth:`any_time` may add something under
        ``rules`` (``None``: any). The other phases' listings do not call it. A subclass
        overriding :meth:`any_time` or a method named in :attr:`any_time_depends` loses
        it unless it states its own.
        """
        return None

    def claim(self, path: str) -> int:
        """How specifically this mechanism claims the rule at ``path`` (0: not at all).

        >>> from mariage.engine.mechanisms import Dealing
        >>> Dealing().claim("lead.first"), Dealing().claim("lead.first_card")
        (10, 0)
        """
        best = 0
        for sec in self.sections:
            if (path == sec or path.startswith(sec + ".")) and len(sec) > best:
                best = len(sec)
        return best


#: what :func:`kept_per_rules` keeps: key -> (rules, the cards of the masks, the table)
Kept = dict[Any, tuple["Rules", int, dict[Any, Any]]]


def kept_per_rules(kept: Kept, key: Any, rules: Rules, masks: Sequence[int]
                   ) -> tuple[int, dict[Any, Any]]:
    """The cards of ``masks`` (all of them) and a table of answers kept in ``kept`` under
    ``key`` for ``rules`` (bounded: at most 64 keys, whatever rules the caller makes).

    >>> from mariage import load_rules
    >>> rules, kept = load_rules("thousand"), {}
    >>> cards, table = kept_per_rules(kept, 1, rules, (3, 12))
    >>> cards, table is kept_per_rules(kept, 1, rules, (3, 12))[1]
    (15, True)
    """
    hit = kept.get(key)
    if hit is None or hit[0] is not rules:
        if len(kept) >= 64:
            kept.clear()
        cards = 0
        for m in masks:
            cards |= m
        hit = kept[key] = (rules, cards, {})
    return hit[1], hit[2]


class LeaderOpening:
    """What the fresh deal may write for a mechanism whose ``open`` enters the phase
    ``opening_phase`` with the leader to act (the taking of the turned card, the
    auction of a trump suit); mixed in before :class:`Mechanism`."""

    __slots__ = ()
    opening_phase: ClassVar[Phase]

    def open_lines(self, ns: dict[str, Any]) -> list[str] | None:
        """Source lines (in a function of ``st``) that do what ``open`` does, which the
        fresh deal writes in place of the call (the phase read as ``_NAME`` from
        ``ns``); ``None`` where a subclass opens its own way.

        >>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS
        >>> DEFAULT_MECHANISMS.taking.open_lines({})
        ['    st.phase = _TAKING', '    st.to_act = st.leader']
        """
        cls = type(self)
        owner = next(k for k in reversed(cls.__mro__) if "opening_phase" in vars(k))
        if getattr(cls, "open", None) is not getattr(owner, "open", None):
            return None
        phase = vars(owner)["opening_phase"]  # (what the owner's ``open`` enters)
        ns[f"_{phase.name}"] = phase
        return [f"    st.phase = _{phase.name}", "    st.to_act = st.leader"]


def partner_of(rules: Rules, seat: int) -> int:
    """The first other seat of ``seat``'s side (his partner in a partnership game).

    >>> from mariage import load_rules
    >>> [partner_of(load_rules("marjapussi-de"), s) for s in range(4)]
    [2, 3, 0, 1]
    """
    for s in rules.teams[rules.team_of[seat]]:
        if s != seat:
            return s
    raise ValueError(f"seat {seat} has no partner under these rules")


def refuse(st: GameState, rule_id: str | None, seat: int | None, action: Action,
           reason: str) -> NoReturn:
    """Raise :class:`~mariage.errors.IllegalActionError` for ``action`` in ``st``.

    The state must not have been changed before this is called: a refused
    action leaves the match exactly as it was.
    """
    try:
        text = action_text(st.rules, action)
    except IndexError:  # a card or declaration number the rules do not have
        text = repr(action)
    raise IllegalActionError(rule_id or "core.phase", seat=seat, action=text, reason=reason,
                             hand=st.hand_no, trick=st.trick_no)

