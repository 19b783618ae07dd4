"""What the seats said this hand, as the observation holds it: the announcements of runs
and sets and the pair of trumps said (the Belote family), the pairs called, and the
questions to the partner with their answers (Marjapussi, the Sicilian forms).

Everything said is public (:func:`mariage.observe` lists it among the hand's actions),
but the state keeps little of it: a ``no`` to a question changes nothing but the list
of actions, and an announcement shows its cards only after the first trick. The
observation's ``said`` part holds it per seat (counted from the observer), one block of
:func:`said_labels` each: a statement by its text, a question by its text with the
answer it got after ``=`` (``?``: not answered yet). Which statements and questions
there are follows from the actions the rules could ever offer (the mechanisms'
``all_actions``), so a ruleset that says nothing has no block.

>>> from mariage import load_rules
>>> said_labels(load_rules("marjapussi-de"))[:7]
('call:H', 'call:D', 'call:C', 'call:S', 'ask:pair=yes:H', 'ask:pair=yes:D', 'ask:pair=yes:C')
>>> said_labels(load_rules("marjapussi-de"))[-3:]
('ask:half:S=yes', 'ask:half:S=no', 'ask:half:S=?')
>>> len(said_labels(load_rules("belote"))), said_labels(load_rules("schnapsen"))
(70, ())

The order of what was said is not kept (as elsewhere in the observation): a question
asked twice with two answers sets both. The information-state tensor keeps the order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mariage.engine.actions import Action, Announce, Answer, AskPartner, Call, Question, SayPair
from mariage.engine.actiontext import action_text, parse_action
from mariage.engine.mechanisms import DEFAULT_MECHANISMS
from mariage.engine.rules import Rules

__all__ = ["SaidFrom", "has_sayings", "said_labels", "said_list", "said_reader"]

#: what a seat states (the statement is the action itself; the pair of trumps said with
#: its card is kept by the state, as the card's play: per suit)
_STATEMENTS = (Announce, SayPair, Call)
#: what a seat asks its partner (the partner's answer follows at once)
_QUESTIONS = (Question, AskPartner)
#: every kind of action the ``said`` part reads
_SAID_KINDS = frozenset((*_STATEMENTS, *_QUESTIONS, Answer))

#: one seat's block: its labels; per statement its place, per (question, answer) its
#: place, per question the place of "not answered yet", per suit the place of its pair
#: said (empty where the pair is not said)
_Table = tuple[tuple[str, ...], dict[Action, int], dict[tuple[Action, Action], int],
               dict[Action, int], dict[int, int]]

#: id(rules) -> (rules, its table), at most 64 kept
_TABLES: dict[int, tuple[Rules, _Table]] = {}


def _possible(rules: Rules, action: Action, runs: set[tuple[int, int]]) -> bool:
    """Whether ``action`` (a statement or a question) can ever be made under ``rules``: a
    run announced by a top card it can top (``runs``: :func:`_run_keys`), an ask in the
    form of its kind (a suit named for a half, none for "any")."""
    if type(action) is Announce and not rules.combos[action.combo].same_rank:
        return (action.combo, action.card) in runs
    if type(action) is AskPartner:
        return (action.suit < 0) == (rules.asks[action.ask].kind == "any")
    return True


def _run_keys(rules: Rules) -> set[tuple[int, int]]:
    """The (kind, top card) of every run announcement ``rules`` allow, as the engine
    splits the runs of every length from every card."""
    if not rules.combos:
        return set()
    nr, order = len(rules.ranks), rules.run_order
    split = DEFAULT_MECHANISMS.announcements.split_run
    return {(kind.index, key) for s in range(len(rules.suits)) for p in range(nr)
            for length in range(1, nr - p + 1)
            for kind, key, _ in split(rules, s * nr + order[p], length)}


def _table(rules: Rules) -> _Table:
    """The labels and places of one seat's block (see the module), made once per rules."""
    hit = _TABLES.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    said: list[Action] = []
    answers: list[Action] = []
    for m in DEFAULT_MECHANISMS.all():
        for a in m.all_actions(rules):
            if type(a) in _SAID_KINDS and a not in said and a not in answers \
                    and parse_action(rules, action_text(rules, a)) == a:
                (answers if type(a) is Answer else said).append(a)
    labels: list[str] = []
    statements: dict[Action, int] = {}
    replies: dict[tuple[Action, Action], int] = {}
    waiting: dict[Action, int] = {}
    pairs: dict[int, int] = {}
    runs = _run_keys(rules)
    for a in said:
        if not _possible(rules, a, runs):
            continue
        text = action_text(rules, a)
        if type(a) is SayPair:  # (said with either card: one place per suit)
            suit = rules.suit_of[a.card]
            if suit not in pairs:
                pairs[suit] = len(labels)
                labels.append(f"{text.split(':')[0]}:{rules.suits[suit]}")
            continue
        if type(a) not in _QUESTIONS:
            statements[a] = len(labels)
            labels.append(text)
            continue
        # a question naming a suit is answered yes or no; one naming none, yes with
        # the suit found, or no
        for reply in answers:
            assert type(reply) is Answer
            if not reply.yes or (reply.suit < 0) == (getattr(a, "suit", -1) >= 0):
                replies[a, reply] = len(labels)
                labels.append(f"{text}={action_text(rules, reply)}")
        waiting[a] = len(labels)
        labels.append(f"{text}=?")
    table = (tuple(labels), statements, replies, waiting, pairs)
    if len(_TABLES) >= 64:
        _TABLES.clear()
    _TABLES[id(rules)] = (rules, table)
    return table


def said_labels(rules: Rules) -> tuple[str, ...]:
    """The labels of one seat's block of the observation's ``said`` part (empty where
    the rules have nothing to say: see the module)."""
    return _table(rules)[0]


def has_sayings(rules: Rules) -> bool:
    """Whether the observation of ``rules`` has a ``said`` part.

    >>> from mariage import load_rules
    >>> has_sayings(load_rules("belote-contree")), has_sayings(load_rules("thousand"))
    (True, False)
    """
    return bool(_table(rules)[0])


#: what :func:`said_reader`'s function reads: a hand's actions, the seat that said the
#: pair of trumps (-1: none), the trump suit and the (seat, suit) of the other pairs said
SaidFrom = Callable[[Sequence[tuple[int, Action]], int, int, Sequence[tuple[int, int]]],
                    int]


def said_reader(rules: Rules) -> SaidFrom:
    """A function giving what was said in a hand as bits, from the state's ``actions``,
    ``pair_by``, ``trump`` and ``pairs_said`` (the pair of trumps said is kept there: its
    action is kept as the card's play): seat ``q``'s block at
    ``q * len(said_labels(rules))``, a label's place in it. What it read of the actions
    is kept from call to call (as the played cards of :mod:`mariage.ai.vectorcode`): how
    many, the last of them (the tuple itself) and their bits, so that the actions read
    again after one more cost one step.

    >>> from mariage import load_rules, new_match, parse_action
    >>> rules = load_rules("marjapussi")
    >>> said = said_reader(rules)
    >>> state = new_match(rules, 0)
    >>> for text in ("8H", "KH", "QH", "AH", "ask:half:S"):
    ...     state.apply(parse_action(rules, text))
    >>> said_list(rules, said(state.actions, state.pair_by, state.trump, state.pairs_said))
    [(3, 'ask:half:S=?')]
    >>> state.apply(parse_action(rules, "yes"))
    >>> said_list(rules, said(state.actions, -1, -1, ()))
    [(3, 'ask:half:S=yes')]
    """
    labels, statements, replies, waiting, pairs = _table(rules)
    size = len(labels)
    kinds = _SAID_KINDS
    # [how many actions were read, the last of them, their bits with the question
    # waiting, the bits without it, the question waiting for its answer: (asker,
    # question) or None], in a holder: one more action saying nothing sets the first two
    # items in place (the last first: a reader that sees one without the other finds
    # them apart and reads the actions again), a longer read puts a new list in the
    # holder (readers in several threads share it)
    holder: list[list[Any]] = [[0, None, 0, 0, None]]

    def scan(actions: Sequence[tuple[int, Action]]) -> int:
        """The bits of ``actions``, from those kept where they start the same."""
        count, last, _, bits, open_q = holder[0]
        bits = int(bits)  # (the holder's items are Any)
        total = len(actions)
        if total < count or (count and actions[count - 1] is not last):
            count, bits, open_q = 0, 0, None
        for seat, a in actions[count:] if count else actions:
            if open_q is not None:  # the question's answer (or whatever came instead)
                place = replies.get((open_q[1], a))
                if place is not None:
                    bits |= 1 << (open_q[0] * size + place)
                open_q = None
            elif a.__class__ in kinds:
                if a.__class__ in _QUESTIONS:
                    if a in waiting:
                        open_q = (seat, a)
                else:
                    place = statements.get(a)
                    if place is not None:
                        bits |= 1 << (seat * size + place)
        out: int = bits if open_q is None else bits | 1 << (open_q[0] * size + waiting[open_q[1]])
        if total:
            holder[0] = [total, actions[-1], out, bits, open_q]
        return out

    def said(actions: Sequence[tuple[int, Action]], pair_by: int = -1, trump: int = -1,
             others: Sequence[tuple[int, int]] = ()) -> int:
        kept = holder[0]
        count = kept[0]
        total = len(actions)
        out: int
        if total == count and (not count or actions[-1] is kept[1]):
            out = kept[2]
        elif total == count + 1 and count and kept[4] is None and actions[-2] is kept[1] \
                and actions[-1][1].__class__ not in kinds:
            # (one more action, most often one saying nothing)
            out = kept[2]
            kept[1] = actions[-1]
            kept[0] = total
        else:
            out = scan(actions)
        if said_pairs:  # (a pair scored without a word is not said)
            if pair_by >= 0:
                out |= 1 << (pair_by * size + pairs[trump])
            for seat, suit in others:
                out |= 1 << (seat * size + pairs[suit])
        return out
    said_pairs = bool(pairs)
    return said


def said_list(rules: Rules, bits: int) -> list[tuple[int, str]]:
    """The (seat, label) of each bit of :func:`said_reader`'s ``bits``, seat by seat.

    >>> from mariage import load_rules
    >>> said_list(load_rules("belote"), 1 << 70 | 1)
    [(0, 'tierce:AH'), (1, 'tierce:AH')]
    """
    labels = said_labels(rules)
    size = len(labels)
    out = []
    while bits:
        low = bits & -bits
        at = low.bit_length() - 1
        out.append((at // size, labels[at % size]))
        bits ^= low
    return out
