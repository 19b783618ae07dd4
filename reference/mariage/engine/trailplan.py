"""What undo keeps of a trick's end and of a hand's end, as the mechanisms declare it.

The generated card play with a trail (:func:`mariage.engine.fastpath.play_apply`)
journals a trick's end as the values of :data:`TRICK_END_SLOTS` and of what the hooks
there declare they change (:attr:`Mechanism.trail_hooks`), where every hook says so
or says when it changes nothing (:attr:`Mechanism.quiet_hooks`): :func:`hook_trail`
reads those declarations. A hook that ends the hand only by the hand end
(:attr:`Mechanism.ending_hooks`) may end it in a trail too: the entry then keeps what
the hand end writes (:func:`hand_kept`, kept and set back by the functions
:func:`slot_keeper` writes), as the hand's last card does.

>>> from mariage import load_rules
>>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS
>>> plan = hook_trail(DEFAULT_MECHANISMS, load_rules("mariazza"))
>>> plan.slots, len(plan.quiet), len(plan.ending)
((), 1, 1)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .. import codegen
from ..lazyrecord import frozen_record

if TYPE_CHECKING:
    from .mechanisms import Mechanisms
    from .rules import Rules
    from .state import GameState

__all__ = ["CARD_SLOTS", "HAND_END_SLOTS", "TRICK_END_SLOTS", "TRICK_HELD", "GatedHooks",
           "HookTrail", "action_slots", "action_trails", "gated_slots", "hand_kept",
           "hook_trail", "keep_value", "mark_extra", "mark_keeper", "mark_slots",
           "record_slots", "slot_keeper", "trick_entry"]

#: slots whose values the journal entry of a trick's end keeps in any case
TRICK_END_SLOTS = frozenset({
    "hands", "known", "forced", "stock", "captured", "tricks_won", "trick_seats",
    "trick_cards", "decl_this_trick", "leader", "trick_no", "last_winner", "turn_up",
    "trump_set_in_trick", "lead_mask", "_free_play", "_decl_open", "phase", "window_left",
    "trump", "trump_next", "to_act", "actions", "tricks"})


#: slots a card within its trick writes (what undo of it sets back: journal.undo_card)
CARD_SLOTS = ("hands", "known", "forced", "trick_seats", "trick_cards", "actions", "to_act")

#: the lists among :data:`TRICK_END_SLOTS` and :data:`CARD_SLOTS` that are always flat
#: lists of numbers (a mark's record copies them without a check): the small lists of
#: seats and teams, which the restore of a trick's end writes back in place too
#: (``trick_entry``), and the others, set back as new copies
_IN_PLACE = frozenset({"hands", "known", "forced", "captured", "tricks_won"})
#: those of them per seat (the others per team)
_PER_SEAT = frozenset({"hands", "known", "forced"})
_FLAT_LISTS = _IN_PLACE | {"stock", "trick_seats", "trick_cards", "decl_this_trick",
                           # (what the hand end and the actions beyond a record write that
                           # is always a list whose items are never lists: per seat or team
                           # numbers, the cards set aside, the declarations made as tuples)
                           "aside", "ask_level", "barrel", "bolts", "call_credit",
                           "decl_points", "declared", "falls", "game_points", "held",
                           "match_scores", "round_residue", "segni"}
#: lists that, while a hand is played, are only ever appended to (a new hand gives a new
#: list): the slots kept for an action (:func:`slot_keeper`) and a mark's record hold the
#: list itself and its length, and cut it back, instead of copies
_GROWN = frozenset({"declared"})
#: ... and in a mark's record the trick's two lists too: only appended to where undo is
#: for marks only (the journal, whose take-back of a card pops them, is off then), and
#: replaced by new lists at a trick's opening and at the hand end
_MARK_GROWN = _GROWN | {"trick_seats", "trick_cards"}
#: slots that always hold a list of flat lists (per declaration, per seat): copied by
#: :func:`slot_keeper` without a check
_NESTED = frozenset({"used_suit", "used_hand"})
#: the slots among those that never hold a list (numbers, flags, strings, None or tuples)
_NO_LISTS = frozenset({"to_act", "leader", "trick_no", "last_winner", "turn_up",
                       "trump_set_in_trick", "lead_mask", "_free_play", "_decl_open", "phase",
                       "window_left", "trump", "trump_next", "hand_over_reason",
                       "_result", "dealer", "next_dealer", "carry_bonus", "golden_done",
                       "golden_made", "deal_outcome", "no_win", "placed", "pot", "claim_by",
                       "claim_ok", "closed_by", "close_from_lead", "close_opp_points",
                       "close_opp_tricks", "draw_tricks", "_tricks_per_hand", "decl_count",
                       "called", "pending_ask", "ask_spent", "split", "question"})

#: slots the hand end writes under any rules besides what it declares (Scoring.end_hand)
HAND_END_SLOTS = ("phase", "to_act", "trick_seats", "trick_cards", "hand_over_reason")

#: the lists that the journal entry of a trick's end keeps themselves, not copies
#: (:func:`trick_entry`: the trick's two lists and the trick's declarations, which the
#: next trick's opening replaces with new lists rather than changing them): where the
#: hand ends at that trick and the hand end does not replace one (:data:`HAND_END_SLOTS`),
#: the entry still holds the state's list, which the next deal must then not keep for
#: the new hand (:data:`mariage.engine.copies.HELD_AFTER_HAND` names those)
TRICK_HELD = frozenset({"trick_seats", "trick_cards", "decl_this_trick"})


def action_trails(appliers: dict[type, Callable[..., None]], hand_slots: tuple[str, ...] | None,
                  mech: Mechanisms | None = None, rules: Rules | None = None
                  ) -> dict[type, tuple[Callable[[GameState], tuple[Any, ...]],
                                        Callable[[GameState, tuple[Any, ...]], None]]]:
    """Per action type whose applier (in ``appliers``, as the state looks them up) is a
    method its mechanism's class declares in :attr:`Mechanism.trail_actions`: the
    functions that keep and set back what it writes (:func:`slot_keeper`), the slots
    it declares and what the hand end writes (``hand_slots``, from
    :func:`~mariage.engine.handend.hand_end_writes`; none where that is None), less the
    lists only ever appended to (undo cuts them back by their lengths). An applier that
    runs other mechanisms' methods (:attr:`Mechanism.trail_calls`) is left out unless
    ``mech`` and ``rules`` are given and :func:`_calls_kept` holds."""
    return {kind: slot_keeper(tuple(s for s in slots if s not in _APPENDED))
            for kind, slots in action_slots(appliers, hand_slots, mech, rules).items()}


def action_slots(appliers: dict[type, Callable[..., None]], hand_slots: tuple[str, ...] | None,
                 mech: Mechanisms | None = None, rules: Rules | None = None
                 ) -> dict[type, tuple[str, ...]]:
    """The slots :func:`action_trails` keeps per action type (with the lists only ever
    appended to, ``actions``, ``tricks`` and ``history``)."""
    if hand_slots is None:
        return {}
    out = {}
    for kind, applier in appliers.items():
        owner = type(getattr(applier, "__self__", None))
        name = getattr(getattr(applier, "__func__", None), "__name__", "")
        declared = vars(owner).get("trail_actions", {}).get(name)
        calls = vars(owner).get("trail_calls", {}).get(name, ())
        if declared is not None and (not calls or _calls_kept(calls, mech, rules)):
            passed = _passed_on(calls, mech, rules) if calls else ()
            out[kind] = (*dict.fromkeys((*declared, *passed, *hand_slots, *HAND_END_SLOTS)),
                         *_APPENDED)
    return out


def _passed_on(calls: tuple[tuple[str, str], ...], mech: Mechanisms | None,
               rules: Rules | None) -> tuple[str, ...]:
    """The writes of the appliers among ``calls`` (the bundled methods: :func:`_calls_kept`
    holds) that an applier passes actions on to: their :attr:`Mechanism.trail_actions`,
    but none of one of :attr:`Mechanism.trail_offered` whose mechanism offers nothing
    under ``rules`` (it writes only after an action the mechanism offers)."""
    from .mechanisms import DEFAULT_MECHANISMS

    assert mech is not None and rules is not None
    out: list[str] = []
    for field, method in calls:
        bundled = vars(type(getattr(DEFAULT_MECHANISMS, field)))
        written = bundled.get("trail_actions", {}).get(method)
        if written is None:  # (a plain method: the caller names what it writes)
            continue
        ours = getattr(mech, field)
        if method not in bundled.get("trail_offered", ()) \
                or ours.offers(rules) or ours.offers_any_time(rules):
            out += written
    return tuple(out)


def _calls_kept(calls: tuple[tuple[str, str], ...], mech: Mechanisms | None,
                rules: Rules | None) -> bool:
    """True if each of ``calls`` (a field of the mechanisms, a method) is, under ``mech``,
    the method of the bundled mechanism's class, and, where one of them is
    :meth:`Declarations.score` (which runs them), each ``after_points`` hook under
    ``rules`` is one of them: the writes an applier's :attr:`Mechanism.trail_actions`
    take in are then those it runs."""
    from .mechanisms import DEFAULT_MECHANISMS
    from .mechanisms.hooks import hooks_of

    if mech is None or rules is None:
        return False
    kept = set()
    for field, method in calls:
        bundled = getattr(type(getattr(DEFAULT_MECHANISMS, field)), method)
        if getattr(type(getattr(mech, field)), method) is not bundled:
            return False
        kept.add(bundled)
    if ("declarations", "score") not in calls:
        return True
    return all(getattr(hook, "__func__", None) in kept
               for hook in hooks_of(mech.all(), rules).after_points)


#: lists only ever appended to while a state lives: undo cuts them back by length
_APPENDED = frozenset({"actions", "tricks", "_history"})


@frozen_record
class HookTrail:
    """What undo needs around the hooks of a trick's end (:func:`hook_trail`)."""

    slots: tuple[str, ...]  # what the trailed hooks may change, kept with the trick's end
    quiet: tuple[str, ...]  # expressions under which the other hooks change nothing
    ending: tuple[str, ...]  # ... of hooks that otherwise end the hand by the hand end only


def hook_trail(mech: Mechanisms, rules: Rules) -> HookTrail | None:
    """What undo needs around the hooks of a trick's end under ``mech`` and ``rules``: the
    slots they may change and the expressions under which the others change nothing
    (those of hooks that may end the hand, but only by the hand end, apart); None where
    a hook's mechanism declares neither (:attr:`Mechanism.trail_hooks`,
    :attr:`Mechanism.quiet_hooks`), or is a subclass of the class that declared it."""
    from .mechanisms.hooks import hooks_of

    hooks = hooks_of(mech.all(), rules)
    slots: list[str] = []
    quiet: list[str] = []
    ending: list[str] = []
    for handler in (*hooks.after_trick, *hooks.next_lead):
        owner, name = type(handler.__self__), handler.__func__.__name__  # type: ignore[attr-defined]
        written = vars(owner).get("trail_hooks", {}).get(name)
        gate = vars(owner).get("quiet_hooks", {}).get(name)
        if written is not None:
            slots += [s for s in written if s not in slots and s not in TRICK_END_SLOTS]
        elif gate is not None:
            (ending if name in vars(owner).get("ending_hooks", ()) else quiet).append(gate)
        else:
            return None
    return HookTrail(tuple(slots), tuple(quiet), tuple(ending))


def hand_kept(hand_slots: tuple[str, ...] | None,
               plan: HookTrail | None
               ) -> tuple[str, ...] | None:
    """The slots the journal entry of the hand's last card keeps beyond its trick's end:
    ``hand_slots`` (what the hand end writes) less what the trick's end keeps and the
    record of hands (cut back by its length); None where the hand's last card goes by
    snapshot (the hand end or a hook of the trick's end does not say what it writes)."""
    if hand_slots is None or plan is None:
        return None
    return tuple(s for s in hand_slots
                 if s not in TRICK_END_SLOTS and s not in plan.slots and s != "_history")


@lru_cache(maxsize=64)
def slot_keeper(slots: tuple[str, ...]) -> tuple[Callable[[GameState], tuple[Any, ...]],
                                                 Callable[[GameState, tuple[Any, ...]], None]]:
    """Two functions written for ``slots``: ``keep(state)``, their values in a tuple
    (lists copied, as :func:`keep_value` copies them; the slots known never to hold a
    list read as they are, those known to hold a flat list or a list of flat lists
    copied without a check), and
    ``put(state, values)``, which sets them back in one assignment.

    >>> from mariage import load_rules, GameState
    >>> keep, put = slot_keeper(("dealer", "match_scores"))
    >>> state = GameState(load_rules("marianna"), first_dealer=2)
    >>> kept = keep(state)
    >>> state.match_scores[0] += 40
    >>> state.dealer = 3
    >>> put(state, kept)
    >>> state.dealer, state.match_scores
    (2, [0, 0])
    """
    values = "".join(f"st.{slot}, " if slot in _NO_LISTS else
                     f"(v := st.{slot}), len(v), " if slot in _GROWN else
                     f"[*st.{slot}], " if slot in _FLAT_LISTS else
                     f"[*map(_copy, st.{slot})], " if slot in _NESTED else
                     f"v if (v := st.{slot}).__class__ is not list else _keep(v), "
                     for slot in slots)
    targets = "".join(f"a{i}, n{i}, " if slot in _GROWN else f"st.{slot}, "
                      for i, slot in enumerate(slots))
    cuts = "".join(f"    st.{slot} = a{i}\n    del a{i}[n{i}:]\n"
                   for i, slot in enumerate(slots) if slot in _GROWN)
    source = (f"def keep(st):\n    return ({values})\n"
              f"def put(st, v):\n    ({targets}) = v\n{cuts}" if slots else
              "def keep(st):\n    return ()\ndef put(st, v):\n    pass\n")
    ns: dict[str, Any] = {"_keep": keep_value, "_copy": list.copy}
    codegen.run(source, f"<slots kept by undo: {', '.join(slots)}>", ns)
    return ns["keep"], ns["put"]


def keep_value(value: Any) -> Any:
    """``value`` as a journal keeps it: a list copied (its lists too), anything else as is."""
    if value.__class__ is list:
        return [v[:] for v in value] if value and value[0].__class__ is list else value[:]
    return value


def trick_entry(nseats: int, nteams: int, extra: tuple[str, ...]) -> tuple[list[str], str]:
    """The journal entry of a trick's last card, written for ``nseats`` seats, ``nteams``
    teams and the slots ``extra`` the hooks of the trick's end declare: the lines of
    the card play that keep what the trick's end changes in one list (its first item
    :data:`~mariage.engine.journal.TRICK_TRAIL`, then ``_restore``, the function that
    sets it back, and the values, the small lists of seats and teams inline: no copy
    made but of a stock that is not empty; its last item, None, becomes what the hand
    end writes where the card ends the hand), and the source of ``_restore`` (which
    writes those small lists in place). The card
    play reads ``hb0``.., ``kn0``.., ``fc0``.. (hands, known cards, forced cards before
    the card) and ``seats``, ``trick`` (the trick's lists, left as they are).

    >>> keep, source = trick_entry(2, 2, ())
    >>> keep[0]
    '    cp0, cp1, = st.captured'
    >>> source.splitlines()[2:4]
    ['    v = st.hands', '    v[0] = hb0']
    """
    def each(name: str, count: int) -> list[str]:
        return [f"{name}{i}" for i in range(count)]

    lists = {"hands": each("hb", nseats), "known": each("kn", nseats),
             "forced": each("fc", nseats), "captured": each("cp", nteams),
             "tricks_won": each("tw", nteams)}
    scalars = ("decl_this_trick", "leader", "trick_no", "last_winner", "turn_up",
               "trump_set_in_trick", "lead_mask", "_free_play", "_decl_open", "phase",
               "window_left", "trump", "trump_next")
    # (what the card play writes, what the restore unpacks it into)
    items = [("_TRICK", "_"), ("_restore", "_"), ("seat", "seat"),
             *((v, v) for v in lists["hands"] + lists["known"] + lists["forced"]),
             ("stock[:] if (stock := st.stock) else stock", "st.stock"),
             *((v, v) for v in lists["captured"] + lists["tricks_won"]),
             ("seats", "seats"), ("trick", "cards"), *((f"st.{s}", f"st.{s}") for s in scalars),
             ("len(st.actions) - 1", "na"), ("len(st.tricks)", "nt"),
             *((f"_keep(st.{s})", f"st.{s}") for s in extra), ("None", "_")]
    keep = [f"    {', '.join(lists['captured'])}, = st.captured",
            f"    {', '.join(lists['tricks_won'])}, = st.tricks_won",
            "    journal.append(entry := [" + ", ".join(i for i, _ in items) + "])"]
    source = "\n".join([
        "def _restore(st, e):",
        "    (" + ", ".join(t for _, t in items) + ",) = e",
        *(f"    v = st.{slot}\n" + "\n".join(f"    v[{i}] = {name}" for i, name in enumerate(names))
          for slot, names in lists.items()),
        "    seats.pop()", "    cards.pop()", "    del st.actions[na:]", "    del st.tricks[nt:]",
        "    st.trick_seats = seats", "    st.trick_cards = cards", "    st.to_act = seat", ""])
    return keep, source


def mark_slots(plan: HookTrail | None, hand_slots: tuple[str, ...] | None
               ) -> tuple[str, ...] | None:
    """Every slot that cards alone may write under a trick end's ``plan``
    (:func:`hook_trail`) and a hand end that writes ``hand_slots``
    (:func:`~mariage.engine.handend.hand_end_writes`), where no deal source deals: a card
    within its trick (:data:`CARD_SLOTS`), a trick's end (:data:`TRICK_END_SLOTS` and
    what its hooks declare), the hand's end (``hand_slots`` and :data:`HAND_END_SLOTS`).
    A mark's record keeps these only (:meth:`GameState.enable_undo
    <mariage.engine.state.GameState.enable_undo>` with ``marks_only``); where a hook of
    the trick's end changes something undeclared unless an expression holds
    (``plan.quiet``), the card play reads those expressions first and keeps the whole
    state where one fails (:func:`~mariage.engine.fastpath.play_apply`). None where a
    hook declares nothing or the hand end does not say what it writes: a card may then
    write anything, and a mark keeps the whole state.

    >>> from mariage import load_rules
    >>> from mariage.engine.handend import hand_end_writes
    >>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS as M
    >>> rules = load_rules("marianna")
    >>> len(mark_slots(hook_trail(M, rules), hand_end_writes(M, rules)))
    30
    >>> rules = load_rules("schnapsen")
    >>> len(mark_slots(hook_trail(M, rules), hand_end_writes(M, rules)))
    32
    """
    if plan is None or hand_slots is None:
        return None
    return tuple(dict.fromkeys((*CARD_SLOTS, *sorted(TRICK_END_SLOTS), *plan.slots,
                                *hand_slots, *HAND_END_SLOTS, *sorted(_APPENDED))))


def record_slots(mech: Mechanisms, rules: Rules, appliers: dict[type, Callable[..., None]]
                 ) -> tuple[str, ...] | None:
    """What a mark's record keeps under ``mech`` and ``rules`` (``appliers``, as the state
    looks them up): :func:`mark_slots`, then the slots beyond them of each action whose
    mechanism offers it in the play phase under these rules (:meth:`Mechanism.offers`,
    :meth:`Mechanism.offers_any_time`) and declares writes beyond them that never hold a
    list (:data:`_NO_LISTS`: a claim's seat and verdict, an ask's pending state): two
    reads at a mark and two writes at its restore per slot cost less than a log entry
    (:meth:`Marks.widen <mariage.engine.journal.Marks.widen>`) of an action that a playout
    often takes. Such an action is then free (:func:`mark_extra`). None where
    :func:`mark_slots` is.

    >>> from mariage import load_rules
    >>> from mariage.engine.dispatch import dispatch_of
    >>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS as M
    >>> rules = load_rules("schnapsen")
    >>> table = dispatch_of(M, rules)
    >>> record_slots(M, rules, table.to_act)[-2:]
    ('claim_by', 'claim_ok')
    """
    from .handend import hand_end_writes

    hand_slots = hand_end_writes(mech, rules)
    marked = mark_slots(hook_trail(mech, rules), hand_slots)
    if marked is None:
        return None
    kept = set(marked)
    folded: list[str] = []
    for kind, slots in action_slots(appliers, hand_slots, mech, rules).items():
        owner = getattr(appliers[kind], "__self__", None)
        offered = owner is not None and (owner.offers(rules) or owner.offers_any_time(rules))
        beyond = [s for s in slots if s not in kept]
        if offered and beyond and all(s in _CHEAP for s in beyond):
            folded += [s for s in beyond if s not in folded]
    return (*marked, *folded)


#: what a mark's record takes in of an action beyond :func:`mark_slots` (:func:`record_slots`):
#: slots that never hold a list, or hold a flat list or a list only appended to
_CHEAP = _NO_LISTS | _FLAT_LISTS | _GROWN


@lru_cache(maxsize=64)
def mark_keeper(slots: tuple[str, ...], seats: int = 0, teams: int = 0
                ) -> tuple[Callable[[GameState], tuple[Any, ...]],
                           Callable[[GameState, tuple[Any, ...]], None]]:
    """Two functions written for ``slots`` (:func:`mark_slots`): ``keep(state)``, a mark's
    record (their values in a tuple, lists copied; of the lists only ever appended to,
    the list itself and its length), and ``put(state, record)``, which sets them back
    and leaves the record as it was, so that a mark can be come back to again and again:
    the flat lists of the trick's end are written back in place, other lists as copies,
    the appended lists cut back to their lengths. Where ``seats`` and ``teams`` (their
    numbers) are given, the lists per seat and per team of the trick's end are kept as
    their items, and written back item by item.

    >>> from mariage import load_rules, new_match
    >>> keep, put = mark_keeper(("hands", "to_act", "actions", "match_scores"))
    >>> state = new_match(load_rules("marianna"), seed=1)
    >>> record, before = keep(state), state.legal_actions()
    >>> for _ in range(6):
    ...     state.apply(state.legal_actions()[0])
    >>> put(state, record)
    >>> state.legal_actions() == before, len(state.actions)
    (True, 0)
    """
    kept: list[str] = []
    targets: list[str] = []  # one unpacking of the record: scalars straight into the slots
    after: list[str] = []  # then the lists, from the locals they were unpacked into
    unpack: list[str] = []  # (the lists kept as their items, read first)
    for i, slot in enumerate(slots):
        if slot in _APPENDED or slot in _MARK_GROWN:  # the list itself and its length:
            kept += [f"(v := st.{slot})", "len(v)"]  # cut back
            targets += [f"a{i}", f"n{i}"]
            after += [f"    st.{slot} = a{i}", f"    del a{i}[n{i}:]"]
        elif slot in _NO_LISTS:  # as it is, straight back into the slot
            kept.append(f"st.{slot}")
            targets.append(f"st.{slot}")
        elif slot in _IN_PLACE and (size := seats if slot in _PER_SEAT else teams):
            items = [f"i{i}_{j}" for j in range(size)]  # its items, back one by one
            unpack.append(f"    {', '.join(items)}, = st.{slot}")
            kept += items
            targets += items
            after += [f"    v = st.{slot}", *(f"    v[{j}] = {x}" for j, x in enumerate(items))]
        elif slot in _FLAT_LISTS:  # a copy, written back in place or copied again
            kept.append(f"[*st.{slot}]")
            targets.append(f"l{i}")
            after.append(f"    st.{slot}[:] = l{i}" if slot in _IN_PLACE
                         else f"    st.{slot} = [*l{i}]")
        else:  # anything: a list copied each way (its lists too: keep_value), else as it is
            kept.append(f"v if (v := st.{slot}).__class__ is not list else v[:] "
                        "if not v or v[0].__class__ is not list else _keep(v)")
            targets.append(f"v{i}")
            after.append(f"    st.{slot} = v if (v := v{i}).__class__ is not list else v[:] "
                         "if not v or v[0].__class__ is not list else _keep(v)")
    source = ("def keep(st):\n" + "".join(f"{line}\n" for line in unpack)
              + "    return (" + ", ".join(kept) + ",)\n"
              "def put(st, r):\n    (" + ", ".join(targets) + ",) = r\n"
              + "\n".join(after) + "\n")
    ns: dict[str, Any] = {"_keep": keep_value}
    codegen.run(source, f"<a mark's record: {', '.join(slots)}>", ns)
    return ns["keep"], ns["put"]


class GatedHooks:
    """The key, among the types of action of :func:`mark_extra`, of the hooks of a
    trick's end whose quiet gate failed (:attr:`HookTrail.quiet`): the plain card play
    tells undo for marks only with it (:meth:`Marks.widen
    <mariage.engine.journal.Marks.widen>`) before those hooks run."""

    __slots__ = ()


def gated_slots(mech: Mechanisms, rules: Rules) -> tuple[str, ...] | None:
    """The slots the hooks of a trick's end under ``mech`` and ``rules`` may write where
    their quiet gate fails (:attr:`Mechanism.mark_hooks` of each hook of
    :attr:`HookTrail.quiet`, with what the hand end writes left to the caller); None
    where one of them does not say, or runs another mechanism's method
    (:attr:`Mechanism.trail_calls`) that is not the bundled one (:func:`_calls_kept`)."""
    from .mechanisms.hooks import hooks_of

    hooks = hooks_of(mech.all(), rules)
    slots: list[str] = []
    for handler in (*hooks.after_trick, *hooks.next_lead):
        owner, name = type(handler.__self__), handler.__func__.__name__  # type: ignore[attr-defined]
        if name not in vars(owner).get("quiet_hooks", {}) \
                or name in vars(owner).get("trail_hooks", {}) \
                or name in vars(owner).get("ending_hooks", ()):
            continue  # (not a quiet gate's hook: see hook_trail)
        written = vars(owner).get("mark_hooks", {}).get(name)
        calls = vars(owner).get("trail_calls", {}).get(name, ())
        if written is None or (calls and not _calls_kept(calls, mech, rules)):
            return None
        slots += [s for s in written if s not in slots]
    return tuple(slots)


def mark_extra(mech: Mechanisms, rules: Rules, appliers: dict[type, Callable[..., None]],
               marked: tuple[str, ...]
               ) -> tuple[frozenset[type], dict[type, tuple[Callable[[GameState], tuple[Any, ...]],
                                                           Callable[[GameState, tuple[Any, ...]],
                                                                    None]]]]:
    """What undo for marks only keeps of an action other than a card (or the gated hooks
    of a trick's end, :class:`GatedHooks`) that declares what it writes, where a mark's
    record keeps ``marked`` (:func:`mark_slots`): the types that write nothing beyond
    (``mark_free``), and per other type the functions of :func:`slot_keeper` for the
    slots it declares beyond (``mark_extra``: kept in :attr:`Marks.log
    <mariage.engine.journal.Marks.log>` before the action, not the whole state).

    >>> from mariage import load_rules
    >>> from mariage.engine.dispatch import dispatch_of
    >>> from mariage.engine.actions import Close, Declare
    >>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS as M
    >>> table = dispatch_of(M, load_rules("schnapsen"))
    >>> Declare in table.mark_extra, Close in table.mark_free, GatedHooks in table.mark_extra
    (True, True, True)
    """
    from .handend import hand_end_writes

    hand_slots = hand_end_writes(mech, rules)
    kept = set(marked)
    declared = action_slots(appliers, hand_slots, mech, rules)
    gated = gated_slots(mech, rules) if hand_slots is not None else None
    if gated is not None:
        declared[GatedHooks] = gated
    free = frozenset(kind for kind, slots in declared.items() if kept.issuperset(slots))
    extra = {kind: slot_keeper(tuple(s for s in slots if s not in kept))
             for kind, slots in declared.items() if kind not in free}
    return free, extra
