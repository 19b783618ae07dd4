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
from typing import TYPE_CHECKING, Any

from ..tuplerecord import items_source, new_source, padded, tuple_record

if TYPE_CHECKING:
    from .state import GameState

__all__ = ["HandRecord", "MatchResult", "hand_record", "loser_note", "made_records",
           "match_result", "record_lines"]


@tuple_record
class MatchResult:
    """How a match ended: the winning team (or ``None``) and why (a frozen record kept
    in a tuple, as :class:`HandRecord`); ``GameState.result`` once the match is over.

    >>> from mariage import load_rules, new_match
    >>> state = new_match(load_rules("marianna"), seed=1)
    >>> while not state.terminal:
    ...     state.apply(state.legal_actions()[0])
    >>> state.result
    MatchResult(winner=1, reason='target', scores=(345, 535))
    >>> state.rules.team_names[state.result.winner], len(state.history)
    ('WE', 7)
    """

    winner: int | None
    reason: str
    scores: tuple[int, ...]


@tuple_record
class HandRecord:
    """The outcome of one finished hand.

    A frozen record kept in a tuple (:func:`~mariage.tuplerecord.tuple_record`): the
    end of a hand makes one by a single call."""

    number: int
    dealer: int | None
    points: tuple[int, ...]  # card points plus declarations, per team
    score: tuple[int, ...]  # what was added to the match score, per team
    tricks: tuple[int, ...]
    ended: str  # played_out, target, claim, void...: (ended ...), listed in docs/notation.rst
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
    trump: int = -1  # the trump suit of the contract, or past the suits its strain (SA, TA)


#: ``HandRecord(...)`` (the class itself: a tuple record is made by one call)
hand_record: Callable[..., HandRecord] = HandRecord

#: ``MatchResult(...)`` (the class itself, as :data:`hand_record`)
match_result: Callable[..., MatchResult] = MatchResult


def record_lines(target: str, values: dict[str, str], namespace: dict[str, Any],
                 indent: str = "    ", plain: bool = False) -> list[str]:
    """Source lines that append to the list ``target`` the :class:`HandRecord` whose
    fields are the expressions ``values`` (the other fields their defaults), made by
    one call (:func:`~mariage.tuplerecord.new_source`; code generated for the end of a
    hand writes it in place); the names they read are put in ``namespace``. With
    ``plain``, the plain tuple of its fields is appended instead, for the record to be
    made when it is read (``GameState.history`` does, :func:`made_records`), without
    the fields after the last one ``values`` gives (their defaults, put back then).

    >>> ns = {}
    >>> lines = record_lines("out", {"number": "1", "dealer": "0", "points": "(60, 60)",
    ...     "score": "(60, 60)", "tricks": "(5, 5)", "ended": "'played_out'"}, ns)
    >>> exec("\\n".join(["def f(out):", *lines]), ns)
    >>> out = []
    >>> ns["f"](out)
    >>> out == [hand_record(1, 0, (60, 60), (60, 60), (5, 5), "played_out")]
    True
    """
    made = items_source(HandRecord, values, namespace, trim=True) if plain else \
        new_source(HandRecord, values, namespace)
    return [f"{indent}{target}.append({made})"]


def made_records(records: list[Any]) -> list[HandRecord]:
    """``records`` with the plain tuples at its end (the fields of a hand's record, as
    :func:`record_lines` with ``plain`` appends them: the last ones left out where they
    are their defaults) made into :class:`HandRecord`\\ s in place, and returned (the
    end of a hand leaves the record to its first reader).

    >>> records = [(1, 0, (60, 60), (60, 60), (5, 5), "played_out", None, 0, -1, None,
    ...             (), 0, "", -1, 0, -1), (2, 1, (70, 50), (1, 0), (6, 4), "played_out")]
    >>> made_records(records) == [hand_record(1, 0, (60, 60), (60, 60), (5, 5),
    ...     "played_out"), hand_record(2, 1, (70, 50), (1, 0), (6, 4), "played_out")]
    True
    """
    i = len(records) - 1
    while i >= 0 and records[i].__class__ is tuple:
        records[i] = _new(HandRecord, padded(HandRecord, records[i]))
        i -= 1
    return records


_new: Any = tuple.__new__


def loser_note(st: GameState) -> str:
    """``"; C loses"``, to follow a match's winner where the others played on for the
    places (``match.places``) and side C came last (:attr:`GameState.loser
    <mariage.engine.state.GameState.loser>`); else nothing.

    >>> from mariage import load_rules, new_match
    >>> state = new_match(load_rules("sixty-six-3", {"three_hand_play_for_loser": True}), 3)
    >>> while not state.terminal:
    ...     state.apply(state.legal_actions()[0])
    >>> loser_note(state), loser_note(new_match(load_rules("sixty-six-3"), 3))
    ('; B loses', '')
    """
    loser = st.loser
    return "" if loser is None else f"; {st.rules.team_names[loser]} loses"
