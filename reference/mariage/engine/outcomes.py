"""How hands and matches end: the records a :class:`~mariage.engine.state.GameState` keeps.

They live apart from :mod:`mariage.engine.state` so that the mechanisms that make them
(scoring, match end) import them once, at module level, rather than on every
hand; :mod:`mariage.engine.state` exports them under its own name as before.

>>> HandRecord(1, 0, (60, 60), (60, 60), (5, 5), "played_out").winner is None
True
>>> hand_record(1, 0, (60, 60), (60, 60), (5, 5), "played_out") == HandRecord(
...     1, 0, (60, 60), (60, 60), (5, 5), "played_out")
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import codegen
from ..lazyrecord import FACTORY, field_defaults, field_names, frozen_record

__all__ = ["HandRecord", "MatchResult", "hand_record", "match_result", "record_lines"]


@frozen_record
class MatchResult:
    """How a match ended: the winning team (or ``None``) and why."""

    winner: int | None
    reason: str
    scores: tuple[int, ...]


@frozen_record
class HandRecord:
    """The outcome of one finished hand."""

    number: int
    dealer: int | None
    points: tuple[int, ...]  # card points plus declarations, per team
    score: tuple[int, ...]  # what was added to the match score, per team
    tricks: tuple[int, ...]
    ended: str  # played_out | target | call_out | match_won
    winner: int | None = None  # the team that took the hand (segno), where that counts
    # bidding games: the contract of the hand
    contract: int = 0  # the game value (0: no contract)
    declarer: int = -1
    made: bool | None = None  # None: nobody bid
    schwarz: tuple[int, ...] = ()  # the teams that won no trick
    kontras: int = 0  # Kontra and Re said
    # a contract judged against the defence (scoring.takers)
    outcome: str = ""  # made | failed | tied (held over); "" for no contract
    announce_side: int = -1  # the side whose announcements counted (-1: none)
    held: int = 0  # points held over for the next played deal, after this one
    trump: int = -1  # the trump suit of the contract


#: a frozen slotted dataclass -> its draft class (see _record_maker)
_DRAFTS: dict[type, type] = {}


def _draft_of(cls: type) -> type:
    """The draft class of ``cls``: a plain class with the same slots (made once)."""
    draft = _DRAFTS.get(cls)
    if draft is None:
        names = field_names(cls)
        draft = _DRAFTS[cls] = type(f"_{cls.__name__}Draft", (), {"__slots__": names})
    return draft


def _record_maker(cls: type) -> Callable[..., Any]:
    """A function that makes a ``cls`` (a frozen slotted dataclass) from its fields.

    It takes the same arguments as ``cls`` and returns the same object, made
    faster: the fields are stored into a *draft*, an object of a plain class
    with the same slots (an ordinary store, where the frozen class must go
    through each slot's descriptor), and the draft then becomes a ``cls`` by
    assignment to ``__class__`` (allowed between classes of the same layout).
    About 2.5 times faster than through the descriptors, 6 times than the
    dataclass's ``__init__``. Generated from the fields, so it follows them.
    """
    names = field_names(cls)
    defaults = field_defaults(cls)
    draft = _draft_of(cls)
    params = []
    namespace: dict[str, Any] = {"_cls": cls, "_draft": draft}
    for name in names:
        if name not in defaults:
            params.append(name)
            continue
        assert defaults[name] is not FACTORY, "a default factory is not supported"
        namespace[f"_default_{name}"] = defaults[name]
        params.append(f"{name}=_default_{name}")
    # (the draft class called: it has no __init__, and the call costs less than
    # object.__new__(draft))
    lines = [f"def make({', '.join(params)}):", "    obj = _draft()"]
    lines += [f"    obj.{name} = {name}" for name in names]
    lines += ["    obj.__class__ = _cls", "    return obj"]
    codegen.run("\n".join(lines) + "\n", f"<maker of {cls.__qualname__}>", namespace)
    maker: Callable[..., Any] = namespace["make"]
    return maker


#: ``HandRecord(...)``, faster (made once per hand)
hand_record: Callable[..., HandRecord] = _record_maker(HandRecord)

#: ``MatchResult(...)``, faster (made once per match, by the generated match check)
match_result: Callable[..., MatchResult] = _record_maker(MatchResult)


def record_lines(target: str, values: dict[str, str], namespace: dict[str, Any],
                 indent: str = "    ") -> list[str]:
    """Source lines that append to the list ``target`` the :class:`HandRecord` whose
    fields are the expressions ``values`` (the other fields their defaults), made as
    :func:`hand_record` makes it but without a call (code generated for the end of a
    hand writes it in place); the names they read are put in ``namespace``.

    >>> ns = {}
    >>> lines = record_lines("out", {"number": "1", "dealer": "0", "points": "(60, 60)",
    ...     "score": "(60, 60)", "tricks": "(5, 5)", "ended": "'played_out'"}, ns)
    >>> exec("\\n".join(["def f(out):", *lines]), ns)
    >>> out = []
    >>> ns["f"](out)
    >>> out == [hand_record(1, 0, (60, 60), (60, 60), (5, 5), "played_out")]
    True
    """
    namespace.update(_record_draft=_draft_of(HandRecord),
                     _record_class=HandRecord)
    lines = [f"{indent}record = _record_draft()"]
    defaults = field_defaults(HandRecord)
    for name in field_names(HandRecord):
        expr = values.get(name)
        if expr is None:
            assert name in defaults and defaults[name] is not FACTORY, \
                f"no value for the field {name}"
            namespace[f"_record_default_{name}"] = defaults[name]
            expr = f"_record_default_{name}"
        lines.append(f"{indent}record.{name} = {expr}")
    return [*lines, f"{indent}record.__class__ = _record_class", f"{indent}{target}.append(record)"]
