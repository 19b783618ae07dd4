"""What a check of a record gives back, and what a replay tells its listener.

:class:`Checked` is the outcome of :func:`~mariage.notation.replay.check_record`;
a :class:`Listener` is told each deal and action as the record is replayed. Kept
apart from the checker itself, which is about the rules of the replay.
"""

from __future__ import annotations

from typing import Protocol

from mariage.engine.actions import Action
from mariage.engine.rules import Rules
from mariage.engine.state import GameState

from ..errors import count_argument, expect_str
from ..lazyrecord import field, record
from .errors import RecordError
from .model import Act, Hand, Record

__all__ = ["RESIGN", "Checked", "Listener", "action_cache", "is_resign", "replay_arguments"]

RESIGN = "resign"


_ACTIONS: dict[int, tuple[Rules, dict[str, Action]]] = {}


def action_cache(rules: Rules) -> dict[str, Action]:
    """Action texts already parsed for ``rules``, shared by every record of those rules."""
    hit = _ACTIONS.get(id(rules))
    if hit is not None and hit[0] is rules:
        cache = hit[1]
    else:
        if len(_ACTIONS) > 64:
            _ACTIONS.clear()
        cache = {}
        _ACTIONS[id(rules)] = (rules, cache)
    if len(cache) > 4096:  # bounded, whatever the input
        cache.clear()
    return cache


def is_resign(text: str) -> bool:
    """A resignation: ``resign``, or ``resign:REASON`` with a reason (``resign:time``).

    >>> is_resign("resign"), is_resign("resign:time"), is_resign("resign:"), is_resign("KH")
    (True, True, False, False)
    """
    try:
        return text == RESIGN or (text.startswith("resign:") and len(text) > 7)
    except AttributeError:  # None or a number: said so, not as a missing method
        expect_str(text, "is_resign: text")
        raise


class Listener(Protocol):
    """Told about each step of a replay (used by ``mariage replay``).

    A listener may also have ``on_inferred(state, mask)``, called before each
    ``on_deal`` with the cards of that deal the record left unknown and the
    search placed (a bit mask; 0 when the deal was written in full), and
    ``on_forced(act)``, called before ``on_act`` for a card lenient mode applies anyway.
    """

    def on_deal(self, state: GameState, hand: Hand) -> None: ...

    def on_act(self, state: GameState, act: Act, trick_done: bool, hand_over: bool) -> None: ...


@record
class Checked:
    """The outcome of checking one record: ``ok``, the ``errors`` found, and the
    rules and the state the replay reached.

    >>> from mariage.notation import check_record, parse_record
    >>> text = ('[Mariage "1"]\\n[Ruleset "schnapsen"]\\n[Dealer "B"]\\n\\nhand 1\\n'
    ...         'deal dealer: B\\nA: QH AD KD QD JD\\nB: TH QC JC TS JS\\n'
    ...         'stock: KH QS AS AC TD KC AH JH TC\\nturnup: KS\\n'
    ...         '1. A:marriage:D A:QD B:JS (won B)\\n\\nresult *\\n')
    >>> out = check_record(parse_record(text))
    >>> out.ok, out.hands, out.actions, out.rules.ruleset
    (True, 1, 3, 'schnapsen')
    >>> out.state
    <GameState schnapsen: hand 1, trick 2, play; B to act; trump S; stock 8; match A 0, B 0>
    """

    record: Record
    errors: list[RecordError] = field(default_factory=list)
    rules: Rules | None = None
    state: GameState | None = None
    hands: int = 0
    actions: int = 0
    #: True when the record has a syntax error (it is then not replayed past it).
    syntax: bool = False
    #: Illegal plays applied anyway (lenient mode; the card was in the hand).
    forced: int = 0
    #: The cards of the current hand that were unknown (``??``) and placed by the
    #: search for a consistent deal (a bit mask over card indices; 0: none).
    inferred: int = 0
    #: The problem at which the replay stopped before the record's end (lenient
    #: mode: a refused action, a deal that cannot be laid out, a header that names no
    #: rules, a syntax error); None when the record was replayed to its end.
    stopped: RecordError | None = None

    @property
    def ok(self) -> bool:
        """True when no problem was found."""
        return not self.errors


def replay_arguments(listener: object, search_limit: object) -> int:
    """The ``search_limit`` of a replay, checked with its ``listener``: a ``TypeError``
    for a listener without ``on_deal`` and ``on_act`` or a limit that is no whole number
    (they failed deep in the replay, or at the first partial deal), a ``ValueError`` for
    a limit below 1 (it was reported as a search that gave up within "-5 tries").

    >>> replay_arguments(None, 0)
    Traceback (most recent call last):
    ...
    ValueError: check_record: search_limit must be a whole number, at least 1, not 0
    >>> replay_arguments("print", 10)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: check_record: listener must have the methods on_deal and on_act (...), not str
    """
    if listener is not None and not all(callable(getattr(listener, name, None))
                                        for name in ("on_deal", "on_act")):
        raise TypeError("check_record: listener must have the methods on_deal and on_act "
                        f"(a Listener), not {type(listener).__name__}")
    return count_argument(search_limit, "check_record: search_limit", 1)
