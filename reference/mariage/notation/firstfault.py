"""The first step of a partial hand that no deal explains.

Where no full deal fits a hand with unknown cards (``N135``), the search has
proven it for the hand as a whole. Whether the first ``k`` steps fit a deal
only gets harder as ``k`` grows (each step adds a duty), so the first step
that no deal explains is found by halving: a few more searches, each within
what is left of the hand's tries. A shorter beginning binds fewer cards, so
its search may give up where the whole hand's proof was quick; each search
then has at most ``cap`` tries, and where one gives up the steps are taken
back one at a time from the shortest beginning known to fit no deal; a step
back whose search gives up is searched again with every try left.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mariage.engine.actions import Action, Answer, Exchange, Give, Play, Redeal, SayPair
from mariage.engine.actiontext import action_text
from mariage.engine.state import GameState
from mariage.errors import IllegalActionError

__all__ = ["PROBE_TRIES", "Probe", "first_unexplained", "played_elsewhere", "steps_after",
           "steps_left"]

#: The fewest tries each search of a beginning of the hand may take.
PROBE_TRIES = 100

#: probe(k, notes, budget): do the first ``k`` steps fit a deal (with the annotations
#: after step ``k`` where ``notes``)? ``True``, ``False`` (proven not) or ``None`` (the
#: search gave up), and the tries it used.
Probe = Callable[[int, bool, int], tuple[bool | None, int]]


def first_unexplained(probe: Probe, steps: int, budget: int,
                      cap: int = PROBE_TRIES) -> tuple[int, bool] | None:
    """The first step (1-based) no deal explains, and whether only its annotations fail.

    ``steps`` is the number of steps of a hand that, all together, fit no deal.
    Each probe has at most ``cap`` tries (a step back that gave up: what is left), all
    of them at most ``budget``.
    ``None`` where the step was not found for sure.

    >>> fits = lambda k, notes, budget: (k < 4 or (k == 4 and not notes), 1)
    >>> first_unexplained(fits, 10, 100)  # step 4 fits; the annotations after it do not
    (4, True)
    >>> first_unexplained(lambda k, notes, budget: (k < 7, 1), 10, 100)
    (7, False)
    >>> hard = lambda k, notes, budget: (None if k < 9 else k < 7, 1)  # gives up below 9
    >>> first_unexplained(hard, 10, 100) is None
    True
    """
    lo, hi = 0, steps  # the first lo steps fit a deal (assumed for 0); the first hi do not
    walk = False  # a probe gave up: one step back at a time from hi
    while hi - lo > 1:
        mid = hi - 1 if walk else (lo + hi) // 2
        fits, used = probe(mid, True, min(cap, budget))
        budget -= used
        if fits is None and walk and budget > 0:  # the last step back: every try left
            fits, used = probe(mid, True, budget)
            budget -= used
        if budget <= 0 or (fits is None and walk):
            return None
        if fits is None:
            walk = True
            continue
        lo, hi = (mid, hi) if fits else (lo, mid)
    if hi == 0:
        return None
    if lo == 0:  # the annotations before the first step may be at fault
        fits, used = probe(0, True, min(cap, budget))
        budget -= used
        if fits is not True or budget <= 0:
            return None
    fits, used = probe(hi, False, min(cap, budget))
    return hi, fits is True


def played_elsewhere(slots: Sequence[int], owner: Sequence[int],
                     acts: Sequence[tuple[int, Action | None]]) -> int | None:
    """The first step where a seat plays a card known to be dealt to another seat
    that has passed or exchanged no card before it: no deal explains that step.

    ``slots`` holds the known card at each place of the deck (``-1`` unknown),
    ``owner`` the seat dealt each place (below 0: the stock or the turned-up card).

    >>> from mariage.engine.actions import Give, Play
    >>> played_elsewhere([5, -1], [0, 1], [(0, Play(5)), (1, Play(6))]) is None
    True
    >>> played_elsewhere([5, -1], [0, 1], [(1, Play(6)), (1, Play(5))])
    1
    >>> played_elsewhere([5, -1], [0, 1], [(0, Give(1 << 5)), (1, Play(5))]) is None
    True
    """
    dealt = {c: owner[p] for p, c in enumerate(slots) if c >= 0 and owner[p] >= 0}
    moved: set[int] = set()  # the seats that may have passed a card on
    for i, (seat, a) in enumerate(acts):
        if isinstance(a, (Give, Exchange, Redeal)):
            moved.add(seat)
            if isinstance(a, Redeal):
                return None
        elif isinstance(a, (Play, SayPair)):
            holder = dealt.get(a.card, seat)
            if holder != seat and holder not in moved:
                return i
    return None


def steps_left(st: GameState, seat: int | None) -> str:
    """Where ``seat`` is to act and may play no card, what it may do (a step a record
    left out, such as the trick winner's ``draw`` in Sixty-six), else nothing (also for
    ``None``, nobody to act).

    >>> from mariage import load_rules, new_match
    >>> from mariage.engine.actiontext import parse_action
    >>> st = new_match(load_rules("sixty-six"), seed=6)
    >>> for text in ("9H", "TH"):
    ...     st.apply(parse_action(st.rules, text))
    >>> steps_left(st, 0)
    '; A may now only claim, close, draw'

    An answer is said so (``yes:H`` is no verb): ``'; S may now only answer no'``.
    """
    if seat is None or st.to_act != seat:
        return ""
    legal = st.legal_actions()
    if not legal or len(legal) > 6 or any(type(a) is Play for a in legal):
        return ""
    texts = [action_text(st.rules, a) for a in legal]
    if all(type(a) is Answer for a in legal):  # words, not verbs: "may now only no" reads ill
        return f"; {st.rules.seat_names[seat]} may now only answer {' or '.join(texts)}"
    return f"; {st.rules.seat_names[seat]} may now only {', '.join(texts)}"


def steps_after(start: GameState, deck: list[int], first: int | None,
                steps: Sequence[tuple[int, Action | None]],
                step: tuple[int, Action | None]) -> str:
    """Where ``deck`` is dealt and ``steps`` replayed from ``start`` (not changed), why
    ``step`` is refused (``(in a deal that fits the actions before it: REASON, rule
    ID)``) and :func:`steps_left` for its seat; nothing where a step passes unseen cards,
    or one of ``steps`` is refused."""
    if any(a is None or (type(a) is Give and a.cards < 0) for _, a in (*steps, step)):
        return ""
    st = start.clone()
    try:
        st.deal(deck, first)
        for who, action in steps:
            assert action is not None
            st.apply(action, who)
    except (IllegalActionError, ValueError):  # a hint only: none where the replay differs
        return ""
    seat, refused = step
    why = ""
    try:
        assert refused is not None
        st.clone().apply(refused, seat)
    except IllegalActionError as exc:
        if exc.rule_id is not None and exc.rule_id != st.rules.core_turn:
            why = f" (in a deal that fits the actions before it: {exc.reason}, rule " \
                f"{exc.rule_id})"
    except ValueError:
        pass
    return why + steps_left(st, seat)
