"""A new hand's data, set by straight-line code generated once per ruleset.

Every deal clears about fifty-five fields of a :class:`~mariage.engine.state.GameState`
(the hands, the tricks, the declarations, the auction...), and nearly all of
their values at the start of a hand depend on the rules only. The method that
says what they are (``GameState._new_hand``, typed and readable) is run once
per ruleset on a scratch state; :func:`hand_resetter` then generates a
function that stores the same values: the immutable ones (numbers, strings,
``None``, tuples) all at once by unpacking a prototype tuple, and each list,
or list of lists, anew from a list display, so that no two hands and no two
states share a list. (The next deal's code, :func:`reset_lines` with ``keep_start``,
keeps a state's own list where it still holds what a hand starts with: no other state
holds it.)

>>> from mariage import load_rules, GameState
>>> rules = load_rules("marianna")
>>> a, b = GameState(rules, first_dealer=0), GameState(rules, first_dealer=0)
>>> reset = hand_resetter(GameState, rules)
>>> a.hands[0] = 5
>>> reset(a)
>>> a.hands, a.used_hand[0], a.to_act, a.hands is b.hands
([0, 0, 0, 0], [False, False, False, False], None, False)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import codegen

if TYPE_CHECKING:
    from .rules import Rules
    from .state import GameState

__all__ = ["TRICK_COUNTS", "hand_resetter", "hand_values", "match_starter",
           "own_reset", "reset_lines", "slots_of"]

Resetter = Callable[["GameState"], None]

#: (class of the state, id of the rules) -> (the rules, their resetter)
_RESETTERS: dict[tuple[type, int], tuple[Rules, Resetter]] = {}

#: values a new hand may share with the prototype: immutable, written as themselves
_PLAIN = (int, bool, str, type(None))

#: the hand's lists that every trick's end adds to (its points and the trick, per side:
#: :func:`~mariage.engine.fastpath.play_apply`), so that after a played hand they never
#: hold their start: the next deal makes them anew without comparing them first (only
#: a matter of cost: a list compared and found changed is made anew all the same)
TRICK_COUNTS = frozenset({"captured", "tricks_won"})


def _immutable(value: Any) -> bool:
    """True for a value that no code can change in place (so hands may share it)."""
    if type(value) in _PLAIN or type(value) is float:
        return True
    return type(value) is tuple and all(map(_immutable, value))


def _display(value: Any, consts: list[Any]) -> str:
    """Source that makes a new list equal to ``value`` each time it runs (its items
    immutable or lists of such); an item that is not plain is read from ``consts``."""
    if type(value) is list:
        return "[" + "".join(_display(v, consts) + ", " for v in value) + "]"
    if not _immutable(value):
        raise TypeError(f"no code for a new {type(value).__name__} per hand")
    if type(value) in _PLAIN:
        return repr(value)
    consts.append(value)
    return f"_k[{len(consts) - 1}]"


def _copy(value: Any) -> Any:
    """A copy of a list of immutable values or of such lists (a start value to compare)."""
    return [_copy(v) for v in value] if type(value) is list else value


def _resetter_source(values: dict[str, Any], consts: list[Any], var: str = "s",
                     skip: tuple[str, ...] = (), kept: frozenset[str] = frozenset(),
                     starts: dict[str, Any] | None = None
                     ) -> tuple[list[str], tuple[Any, ...]]:
    """The body of a function that sets the slots ``values`` names (but those in
    ``skip``) of the state ``var`` to their values, and the prototype tuple it unpacks
    as ``_proto``. A slot in ``kept`` whose value is a list keeps the list it holds
    where that still equals the value: an empty one by a test of its truth, any other
    (where ``starts`` is given: a copy of the value put there as ``_start_<slot>``,
    which nothing changes) by a comparison, instead of a new list."""
    values = {name: v for name, v in values.items() if name not in skip}
    shared = [name for name, v in values.items() if _immutable(v)]
    lines = []
    if shared:
        lines.append("    (" + "".join(f"{var}.{name}, " for name in shared) + ") = _proto")
    for name, v in values.items():
        if name in shared:
            continue
        display = _display(v, consts)
        if name in kept and v == [] and type(v) is list:
            lines += [f"    if {var}.{name}:", f"        {var}.{name} = []"]
        elif name in kept and starts is not None and type(v) is list:
            starts[f"_start_{name}"] = _copy(v)
            lines += [f"    if {var}.{name} != _start_{name}:", f"        {var}.{name} = {display}"]
        else:
            lines.append(f"    {var}.{name} = {display}")
    return lines, tuple(values[name] for name in shared)


_SLOTS: dict[type, tuple[str, ...]] = {}


def slots_of(cls: type) -> tuple[str, ...]:
    """Every slot of ``cls`` and its bases, in definition order (worked out once a class:
    a class's slots are fixed when it is made).

    >>> class A:
    ...     __slots__ = ("x", "y")
    >>> class B(A):
    ...     __slots__ = "z"
    >>> slots_of(B)
    ('x', 'y', 'z')
    """
    known = _SLOTS.get(cls)
    if known is not None:
        return known
    names: dict[str, None] = {}  # (a dict keeps the first place of each name)
    for klass in reversed(cls.__mro__):
        declared = klass.__dict__.get("__slots__", ())
        for name in (declared,) if isinstance(declared, str) else declared:
            if name != "__weakref__":
                names.setdefault(name)
    known = _SLOTS[cls] = tuple(names)
    return known


def _defining_base(cls: type[GameState]) -> type[GameState]:
    """The first class of ``cls``'s bases that defines ``_new_hand`` (the reference state:
    its new hand's values depend on the rules alone)."""
    return next(k for k in reversed(cls.__mro__) if "_new_hand" in k.__dict__)


def own_reset(cls: type[GameState]) -> bool:
    """True if ``cls`` resets a hand its own way: its ``reset_hand`` is not the one of
    the class that says what a hand starts with (code that stands for ``reset_hand``
    must then call it).

    >>> from mariage import GameState
    >>> class Counted(GameState):
    ...     __slots__ = ()
    ...     def reset_hand(self) -> None:
    ...         super().reset_hand()
    >>> own_reset(GameState), own_reset(Counted)
    (False, True)
    """
    return cls.reset_hand is not _defining_base(cls).reset_hand


def hand_values(cls: type[GameState], rules: Rules) -> dict[str, Any] | None:
    """The value of each slot of a state of class ``cls`` under ``rules`` when a hand
    starts (``None`` where a subclass might make them depend on more than the rules).

    >>> from mariage import load_rules, GameState
    >>> values = hand_values(GameState, load_rules("marianna"))
    >>> values["hands"], values["to_act"], "rules" in values
    ([0, 0, 0, 0], None, False)
    """
    base = _defining_base(cls)
    if cls.reset_bidding is not base.reset_bidding or cls._new_hand is not base._new_hand:
        return None  # a subclass's own values might depend on more than the rules
    scratch = object.__new__(cls)
    scratch.rules = rules
    base._new_hand(scratch)
    if getattr(scratch, "__dict__", None):
        return None
    missing = object()
    values = {name: getattr(scratch, name, missing) for name in slots_of(cls)
              if name != "rules"}
    return {name: v for name, v in values.items() if v is not missing}


def reset_lines(cls: type[GameState], rules: Rules, var: str, skip: tuple[str, ...],
                namespace: dict[str, Any], keep_start: bool = False,
                always_new: frozenset[str] = frozenset()) -> list[str] | None:
    """Source lines (in a function) that give the state ``var`` of class ``cls`` under
    ``rules`` a new hand's data as :meth:`GameState._new_hand` does, but for the slots
    in ``skip`` (which the caller sets itself); the constants they read are put in
    ``namespace`` (as ``_proto`` and ``_k``). ``None`` where no code can be written
    (a subclass that changes what a new hand holds, or holds what no display makes).

    With ``keep_start`` (a state whose slots are all set: the next deal), a list that
    still holds what a hand starts with is kept, not made anew: the state's own list,
    which no other state shares (a clone or a snapshot copies it; the one that starts
    empty is tested for its truth, any other compared with that start); but the lists
    in ``always_new`` (those a snapshot keeps with their lengths,
    :data:`~mariage.engine.copies.APPEND_ONLY`), which are always new, and those of
    :data:`TRICK_COUNTS`, made anew without a comparison that would nearly always fail.

    >>> from mariage import load_rules, GameState
    >>> ns = {}
    >>> lines = reset_lines(GameState, load_rules("marianna"), "st", ("hands",), ns)
    >>> any("st.hands" in line for line in lines), "    st.known = [0, 0, 0, 0, ]" in lines
    (False, True)
    """
    values = hand_values(cls, rules)
    if values is None:
        return None
    consts: list[Any] = []
    kept = frozenset(values) - always_new - TRICK_COUNTS if keep_start else frozenset()
    starts: dict[str, Any] = {}
    try:
        lines, proto = _resetter_source(values, consts, var, skip, kept, starts)
    except TypeError:
        return None
    namespace.update(starts, _proto=proto, _k=tuple(consts))
    return lines


def _make_resetter(cls: type[GameState], rules: Rules) -> Resetter | None:
    """Generate the resetter of ``cls`` under ``rules`` (``None``: none can be made)."""
    namespace: dict[str, Any] = {}
    lines = reset_lines(cls, rules, "s", (), namespace)
    if lines is None:
        return None
    source = "\n".join(["def reset(s):", *lines, "    pass"]) + "\n"
    codegen.run(source, f"<new hand of {rules.name}>", namespace)
    reset: Resetter = namespace["reset"]
    return reset


def hand_resetter(cls: type[GameState], rules: Rules) -> Resetter:
    """A function that gives a state of class ``cls`` under ``rules`` a new hand's data,
    exactly as ``GameState._new_hand`` does; made once per class and rules (they are
    frozen). Where it cannot be generated (a subclass that changes what a new hand
    holds), it is that method itself."""
    key = (cls, id(rules))
    hit = _RESETTERS.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    if len(_RESETTERS) >= 64:  # bounded, whatever the caller makes
        _RESETTERS.clear()
    reset = _make_resetter(cls, rules) or cls._new_hand
    _RESETTERS[key] = (rules, reset)
    return reset


Starter = Callable[[Any, Any], "GameState"]

#: (class of the state, id of the rules, id of the mechanisms, the slots skipped) ->
#: (the rules, the mechanisms, their starter or None)
_STARTERS: dict[tuple[type, int, int, tuple[str, ...]], tuple[Any, Any, Starter | None]] = {}


def _starter_source(cls: type[GameState], rules: Rules, mechanisms: Any,
                    skip: tuple[str, ...], namespace: dict[str, Any]) -> str | None:
    """The source of :func:`match_starter`'s function (``None``: none can be written).

    Two states are made as a caller would make them (the first dealer 0, or ``None``
    where the rules have no dealer); a slot both hold the same object in (the rules,
    the mechanisms and the code made of them, numbers, ``None``) or an equal immutable
    value is stored from a prototype tuple; a list (of such values, or of lists of them)
    is made anew from a list display; anything else, and a slot set in one but not the
    other, gives up. The slots in ``skip`` are left to the caller."""
    first = None if rules.first_dealer == "none" else 0
    a = cls(rules, first_dealer=first, mechanisms=mechanisms)
    b = cls(rules, first_dealer=first, mechanisms=mechanisms)
    if getattr(a, "__dict__", None):
        return None
    missing = object()
    shared: dict[str, Any] = {}
    made: list[str] = []
    consts: list[Any] = []
    for name in slots_of(cls):
        if name in ("first_dealer", "dealer") or name in skip:
            continue
        va, vb = getattr(a, name, missing), getattr(b, name, missing)
        if va is missing or vb is missing:
            if va is not vb:
                return None
            continue  # (unset in both: left unset)
        if va is vb or (_immutable(va) and va == vb):
            shared[name] = va
        elif type(va) is list and va == vb:
            try:
                made.append(f"    s.{name} = {_display(va, consts)}")
            except TypeError:
                return None
        else:
            return None
    namespace.update(_new=object.__new__, _cls=cls, _proto=tuple(shared.values()),
                     _k=tuple(consts))
    return "\n".join(["def start(first_dealer, dealer):", "    s = _new(_cls)",
                      "    (" + "".join(f"s.{name}, " for name in shared) + ") = _proto",
                      *made, "    s.first_dealer = first_dealer", "    s.dealer = dealer",
                      "    return s"]) + "\n"


def match_starter(cls: type[GameState], rules: Rules, mechanisms: Any,
                  skip: tuple[str, ...] = ()) -> Starter | None:
    """A function ``start(first_dealer, dealer)`` that makes a state of class ``cls``
    under ``rules`` and ``mechanisms`` at the start of a match, no hand dealt, as
    ``cls(rules, first_dealer, mechanisms)`` makes it (``dealer`` is what that gives:
    ``first_dealer``, or ``None`` where the rules have no dealer; both checked by the
    caller), but for the slots in ``skip``, which the caller sets itself (what the
    mechanisms answer the state at its making, as their classes are then), without
    running its ``__init__``: every value stored from a prototype or a list display, so
    that no two states share a list (:func:`_starter_source`). Made once per class,
    rules, mechanisms and ``skip`` (they are frozen); ``None`` where it cannot be.

    >>> from mariage import load_rules, GameState
    >>> rules = load_rules("marianna")
    >>> start = match_starter(GameState, rules, GameState(rules).mech)
    >>> a, b = start(2, 2), GameState(rules, first_dealer=2)
    >>> a.__getstate__() == b.__getstate__(), a.hands is start(2, 2).hands
    (True, False)
    """
    key = (cls, id(rules), id(mechanisms), skip)
    hit = _STARTERS.get(key)
    if hit is not None and hit[0] is rules and hit[1] is mechanisms:
        return hit[2]
    if len(_STARTERS) >= 64:  # bounded, whatever the caller makes
        _STARTERS.clear()
    namespace: dict[str, Any] = {}
    source = _starter_source(cls, rules, mechanisms, skip, namespace)
    start: Starter | None = None
    if source is not None:
        codegen.run(source, f"<match start of {rules.name}>", namespace)
        start = namespace["start"]
    _STARTERS[key] = (rules, mechanisms, start)
    return start
