"""The legal actions of the play phase, by straight-line code generated per ruleset.

Most decisions of a match are made in the play phase, where a seat may take
what the mechanisms offer before a card (declarations, asks, a close...),
play one of the cards the duties allow, or take an action open at any moment.
:func:`play_legal` writes, once per set of mechanisms and ruleset, a function
that lists them in that order without a loop over the mechanisms:

* each offer is called behind its *gate*, a cheap necessary condition that
  the mechanism states as an expression (:meth:`Mechanism.offer_gate`, for
  instance "the declaration window is open and the hand holds a king and a
  queen of one suit"), so that the usual decision, where nothing is
  offered, makes no call at all;
* the cards are listed from tables of the play actions of each group of
  eight cards (:func:`card_tables`): one lookup per group instead of a step
  per card;
* the actions open at any moment are asked for behind their own gate
  (:meth:`Mechanism.any_time_gate`: a hand is thrown in only in the first
  trick).

A mechanism subclass that overrides a method its gate relies on
(:attr:`Mechanism.gate_depends`) loses the gate, so a changed mechanism is
still called at every decision.

:func:`play_apply` writes, the same way, the play of a card by the seat to
act with the end of its trick inline (winner, points, the draw, the next
trick), unrolled for the seats of a trick. The hooks of the trick's end
(``after_trick``, ``next_lead``) are called where the reference calls them;
where the trick play mechanism overrides a step of its own (see
:data:`~mariage.engine.mechanisms.trickplay.TRAILED_METHODS`), there is no
such code and the mechanism's own :meth:`TrickPlay.apply_play` runs. The last
card of a hand ends it by the code :func:`mariage.engine.handend.hand_end`
writes for the same mechanisms and rules (or :meth:`Scoring.end_hand`).

>>> from mariage import load_rules, GameState
>>> from mariage.engine.deals import canonical_deck
>>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS
>>> rules = load_rules("marianna")
>>> state = GameState(rules, first_dealer=0)
>>> state.deal(canonical_deck(rules))
>>> legal = play_legal(DEFAULT_MECHANISMS, rules)
>>> legal(state, 1) == state.legal_actions()
True
>>> [str(a) for a in cards_of(rules, 0b10011)]
['Play(AH)', 'Play(3H)', 'Play(JH)']
>>> play = play_apply(DEFAULT_MECHANISMS, rules)
>>> play(state, 1, state.legal_actions()[1])
>>> state.trick_cards, state.to_act
([0], 2)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .. import codegen
from .duties import duties
from .journal import CARD_TRAIL, HAND_TRAIL, TRICK_TRAIL
from .subsets import subset_table
from .trailplan import (
    GatedHooks,
    HookTrail,
    hand_kept,
    hook_trail,
    keep_value,
    slot_keeper,
    trick_entry,
)

if TYPE_CHECKING:
    from .actions import Action, Play
    from .handend import HandEnd
    from .mechanisms import Mechanism, Mechanisms
    from .rules import Rules
    from .state import GameState

__all__ = ["PlayApply", "PlaySplit", "bit_tables", "card_tables", "cards_of", "keeps",
           "play_apply", "play_legal", "play_split", "start_trick", "table_lister"]

#: cards per table: each table has 2 ** _GROUP entries
_GROUP = 8

PlayLegal = Callable[["GameState", int], list["Action"]]
#: the play phase's legal actions as (the bits of the cards, the other actions)
PlaySplit = Callable[["GameState", int], tuple[int, list["Action"]]]
#: a card played by the seat to act in the play phase: (state, seat, play), and with
#: ``trail`` (see :func:`play_apply`) undo's journal as a fourth argument
PlayApply = Callable[..., None]


def card_tables(rules: Rules) -> tuple[tuple[tuple[Action, ...], ...], ...]:
    """Per group of eight cards, the play actions of each subset of the group.

    ``card_tables(rules)[g][bits]`` are the plays of the cards ``8 * g + i``
    for each bit ``i`` set in ``bits``, in card order.
    """
    plays = rules.play_actions
    return _card_tables(plays, tuple(p.code for p in plays))


@lru_cache(maxsize=64)
def _card_tables(plays: tuple[Play, ...], codes: tuple[str, ...]
                 ) -> tuple[tuple[tuple[Action, ...], ...], ...]:
    """:func:`card_tables` of the plays of a pack: the same for every ruleset and option
    value with that pack, so made once per pack (an engine compiles new rules often).
    ``codes`` are part of the key: plays compare equal by card number alone, but each
    pack's plays show their own card codes."""
    return bit_tables(plays)


def _cards_expr(groups: int, mask: str) -> str:
    """The source of the tuple of plays of the cards in ``mask``, group by group."""
    full = (1 << _GROUP) - 1
    parts = [f"*_t{g}[{mask}]" if g == 0 and groups == 1 else
             f"*_t{g}[{mask} & {full}]" if g == 0 else
             f"*_t{g}[{mask} >> {g * _GROUP}]" if g == groups - 1 else
             f"*_t{g}[{mask} >> {g * _GROUP} & {full}]"
             for g in range(groups)]
    return "(" + ", ".join(parts) + ",)"


def bit_tables(values: tuple[Any, ...]) -> tuple[tuple[tuple[Any, ...], ...], ...]:
    """Per group of eight bits, the ``values`` of the bits set in each subset of the
    group: ``bit_tables(values)[g][b]`` lists ``values[8 * g + i]`` for each bit ``i``
    of ``b``, in order (what :func:`table_lister` reads).

    >>> bit_tables(("a", "b", "c"))[0][0b101]
    ('a', 'c')
    """
    n = len(values)
    return tuple(subset_table(values[g:g + _GROUP]) for g in range(0, n, _GROUP))


def table_lister(tables: tuple[tuple[tuple[Any, ...], ...], ...]) -> Callable[[int], list[Any]]:
    """A function of bits ``m`` that lists what ``tables`` hold for them: per group of
    eight bits ``g``, ``tables[g][m >> 8 * g & 255]`` (as :func:`card_tables` hold the
    plays of a group's cards), all groups in one list, by generated code.

    >>> ids = table_lister(bit_tables(tuple(range(100, 110))))
    >>> ids(0b10_0000_0101)
    [100, 102, 109]
    """
    ns: dict[str, Any] = {f"_t{g}": t for g, t in enumerate(tables)}
    listed = _cards_expr(len(tables), "m")
    codegen.run(f"def listed(m):\n    return [{listed[1:-2]}]\n",
                f"<bits of {len(tables)} tables>", ns)
    fn: Callable[[int], list[Any]] = ns["listed"]
    return fn


def cards_of(rules: Rules, mask: int) -> list[Action]:
    """The plays of the cards in ``mask``, in card order (the tables' reference use)."""
    tables = card_tables(rules)
    out: list[Action] = []
    for g, table in enumerate(tables):
        out += table[mask >> g * _GROUP & ((1 << _GROUP) - 1)]
    return out


def _gate(m: Mechanism, rules: Rules, kind: str = "offer") -> str | None:
    """``m``'s gate of its ``offer`` (or ``any_time``) under ``rules``, unless ``m``
    overrides a method the gate relies on."""
    gate = m.offer_gate(rules) if kind == "offer" else m.any_time_gate(rules)
    if gate is None or not keeps(m, f"{kind}_gate", kind):
        return None
    return gate


def keeps(m: Mechanism, stated: str, kind: str = "offer") -> bool:
    """True if ``m`` overrides none of the methods that the class stating ``stated``
    (a gate, an exact offer, the phases of an offer) relies on: ``kind`` and its
    ``depends`` (:attr:`Mechanism.gate_depends`, :attr:`Mechanism.any_time_depends`).

    >>> from mariage.engine.mechanisms import Talon
    >>> class Anyone(Talon):
    ...     def throw_in_claim(self, st, seat):
    ...         return "any"
    >>> keeps(Talon(), "any_time_gate", "any_time"), keeps(Anyone(), "any_time_gate", "any_time")
    (True, False)
    """
    cls = type(m)
    owner = next(k for k in cls.__mro__ if stated in vars(k))
    depends = m.gate_depends if kind == "offer" else m.any_time_depends
    return all(getattr(cls, name) is getattr(owner, name) for name in (kind, *depends))


def _offer_lines(i: int, m: Mechanism, rules: Rules, ns: dict[str, Any]) -> str:
    """The source of ``m``'s offer in the play phase: the action itself where the
    mechanism states exactly when it is offered, else a call behind its gate."""
    exact = m.offer_exact(rules)
    if exact is not None and keeps(m, "offer_exact"):
        ns[f"_act{i}"] = exact[1]
        return f"    if {exact[0]}:\n        out.append(_act{i})"
    ns[f"_offer{i}"] = m.offer
    gate = _gate(m, rules)
    call = f"_offer{i}(st, seat, out)"
    return f"    if {gate}:\n        {call}" if gate else f"    {call}"


def play_legal(mech: Mechanisms, rules: Rules,
               legal_plays: Callable[[GameState, int], int] | None = None) -> PlayLegal:
    """The legal actions of the seat to act in the play phase, under ``mech`` and ``rules``.

    Equal to what :meth:`GameState.legal_actions` lists in the play phase
    (it calls this); the function is written for these mechanisms and rules.
    ``legal_plays``: the duties (default: :func:`~mariage.engine.duties.duties` of ``mech``
    and ``rules``).
    """
    fn: PlayLegal = _play_listing(mech, rules, legal_plays, False)
    return fn


def play_split(mech: Mechanisms, rules: Rules,
               legal_plays: Callable[[GameState, int], int] | None = None) -> PlaySplit:
    """What :func:`play_legal` lists, as the bits of the cards that may be played and
    the list of the other actions in their order (no action object made per card);
    :func:`~mariage.engine.dispatch.play_split_of` keeps it per mechanisms and rules.

    >>> from mariage import load_rules, new_match
    >>> state = new_match(load_rules("schnapsen"), 2)
    >>> split = play_split(state.mech, state.rules)
    >>> cards, others = split(state, state.to_act)
    >>> [str(a) for a in others], cards == state.hands[state.to_act]
    (['Exchange(card=9)', 'Close()'], True)
    >>> state.legal_actions() == others + cards_of(state.rules, cards)
    True
    """
    fn: PlaySplit = _play_listing(mech, rules, legal_plays, True)
    return fn


def _play_listing(mech: Mechanisms, rules: Rules,
                  legal_plays: Callable[[GameState, int], int] | None, split: bool) -> Any:
    """The function :func:`play_legal` (or, with ``split``, :func:`play_split`) writes."""
    from .mechanisms.trickplay import TrickPlay

    tables = card_tables(rules)
    ns: dict[str, Any] = {f"_t{g}": t for g, t in enumerate(tables)}
    ns["_legal_plays"] = legal_plays or duties(mech, rules)
    lines = ["def play_legal(st, seat):", "    h = st.hands[seat]", "    out = []"]
    offers = [m for m in mech.all() if m.offers(rules)]
    for i, m in enumerate(offers):
        lines.append(_offer_lines(i, m, rules, ns))
    own_duties = type(mech.tricks).legal_plays is TrickPlay.legal_plays
    if own_duties:  # the whole hand where no duty can narrow it (see _whole_hand)
        ns["_suit_mask"], ns["suit_of"] = rules.suit_mask, rules.suit_of
        lines.append(f"    m = h if st._free_play or {_whole_hand(rules)} "
                     "else _legal_plays(st, seat)")
    else:
        lines.append("    m = _legal_plays(st, seat)")
    cards = _cards_expr(len(tables), "m")
    if not split:
        lines += ["    if out:", f"        out += {cards}",
                  "    else:", f"        out = [{cards[1:-2]}]"]
    for i, m in enumerate(m for m in mech.all() if m.offers_any_time(rules)):
        ns[f"_any{i}"] = m.any_time
        gate = _gate(m, rules, "any_time")
        call = f"_any{i}(st, seat, out)"
        lines.append(f"    if {gate}:\n        {call}" if gate else f"    {call}")
    lines.append("    return m, out" if split else "    return out")
    source = "\n".join(lines) + "\n"
    codegen.run(source, f"<play phase{' split' if split else ''} of {rules.ruleset}>", ns)
    return ns["play_legal"]


def _winner_lines(k: int) -> list[str]:
    """Source of the index ``w`` of the card winning the trick ``c0 .. c{k-1}`` (as
    :meth:`TrickPlay.winner_index`): the highest of the suit led, or else of trumps."""
    lines = ["    w = 0", "    bs = suit_of[c0]", "    bst = strength[c0]"]
    for i in range(1, k):
        last = i == k - 1
        lines += [f"    s = suit_of[c{i}]",
                  "    if s == bs:",
                  f"        if strength[c{i}] > bst:",
                  f"            w = {i}" if last else f"            w, bst = {i}, strength[c{i}]",
                  "    elif s == trump:",
                  f"        w = {i}" if last else f"        w, bs, bst = {i}, s, strength[c{i}]"]
    return lines


def _draw_lines(k: int, sit_out: bool) -> list[str]:
    """Source of the draw after a trick (as :meth:`TrickPlay.draw`), the winner first."""
    lines = ["        pop = st.stock.pop", "        hands = st.hands",
             "        turn_up = st.turn_up", "        s = winner"]
    for i in range(k):
        lines += ["        c = pop()", "        hands[s] |= 1 << c",
                  "        if c == turn_up:", "            st.known[s] |= 1 << c",
                  "            st.turn_up = turn_up = None"]
        if i < k - 1:
            lines.append("        s = _next[s]")
            if sit_out:
                lines.append("        if s == st.out:\n            s = st.next_seat(s)")
    return lines


def _start_lines(mech: Mechanisms, rules: Rules, ns: dict[str, Any],
                 fresh: bool = False) -> list[str]:
    """Source of the next trick's opening, the first one too (as
    :meth:`TrickPlay.start_trick`), with ``winner`` to lead (with ``fresh``, a hand's
    first trick: :func:`~mariage.engine.mechanisms.trickplay.start_lines`)."""
    from .mechanisms.trickplay import start_lines

    return start_lines(mech, rules, ns, fresh)


def _gated_hooks(mech: Mechanisms, rules: Rules, hook: str
                 ) -> list[tuple[Callable[..., Any], str | None]]:
    """The handlers of ``hook`` under ``mech`` and ``rules``, in the order of
    :func:`~mariage.engine.mechanisms.hooks.hooks_of`, each with its gate
    (:meth:`Mechanism.hook_gate`; None where the mechanism overrides a method the gate
    relies on)."""
    out: list[tuple[Callable[..., Any], str | None]] = []
    for m in mech.all():
        for name, method in m.hooks(rules):
            if name != hook:
                continue
            gate = m.hook_gate(method, rules)
            if gate is not None:
                cls = type(m)
                owner = next(k for k in cls.__mro__ if "hook_gate" in vars(k))
                for depends in (method, *m.hook_gate_depends.get(method, ())):
                    if getattr(cls, depends) is not getattr(owner, depends, None):
                        gate = None
            out.append((getattr(m, method), gate))
    return out


def _whole_hand(rules: Rules) -> str:
    """Source of a condition under which :meth:`TrickPlay.legal_plays` of ``seat`` is
    his whole hand ``h`` whatever the duties: no forced card, and a lead where no card
    must be led (as :func:`_sure_legal`), or no card of the suit led and no trump."""
    void = ("st.trick_cards and not h & _suit_mask[suit_of[st.trick_cards[0]]]"
            " and (st.trump < 0 or not h & _suit_mask[st.trump])")
    if rules.foreign_trump_rule is None and rules.decl_auto_rule is None:
        first = " and st.trick_no != 1" if rules.first_card_prefs else ""
        lead = f"not st.trick_cards and not st.lead_mask{first}"
        return f"st.forced[seat] < 0 and ({lead} or {void})"
    return f"st.forced[seat] < 0 and {void}"


def _sure_legal(mech: Mechanisms, rules: Rules) -> str:
    """Source of a condition under which the card ``card`` (in ``hand``, the hand of
    ``seat``, who has no forced card) is among :meth:`TrickPlay.legal_plays`, so that
    the duties need not be worked out again to check it ('' where no such shortcut is
    known). Each case follows from how the duties narrow a hand:

    * a seat's only card (``hand == bit``: the last trick of a hand) is allowed
      whatever the duties, which narrow a hand but never to nothing; tried first, it
      spares the last trick (the hand's last card among it) the cases below;
    * a lead is free unless a declared card must be led (``lead_mask``), the first
      lead of the hand prefers a card or leads are limited;
    * a card of the suit led is allowed unless a duty to head the trick may narrow
      the suit (in every suit, or in trumps only: then a card of a plain suit led)
      or the first trick asks for a rank; that is judged on the rules' duties, so it
      holds only while they are in force (not those of a contract that brings its
      own, as all trumps);
    * whatever the duties, a card of the suit led that beats every card of that
      suit in the trick heads it, so it is allowed, and so is any card of the suit
      led where the hand holds none that beats a card of that suit in the trick (it
      cannot head it) (but where the first trick asks for a rank);
    * whatever the duties, a seat that holds no card of the suit led and no trump
      may play any card;
    * whatever the duties, a seat that holds no card of the suit led may play a
      trump that beats every trump in the trick (each duty of a void seat, to trump,
      to overtrump, not to undertrump his partner, asks at most that much).
    """
    from .mechanisms.trickplay import TrickPlay
    from .rules import When

    if type(mech.tricks).legal_plays is not TrickPlay.legal_plays:
        return ""  # other duties: ask them
    conds = ["hand == bit"]
    if rules.foreign_trump_rule is None and rules.decl_auto_rule is None:
        first = " and st.trick_no != 1" if rules.first_card_prefs else ""
        conds.append(f"not st.trick_cards and not st.lead_mask{first}")
    follow = "st.trick_cards and suit_of[card] == suit_of[st.trick_cards[0]]"
    if rules.first_trick_rank >= 0:
        follow += " and st.trick_no != 1"
    # beating every card of the suit led in the trick (unrolled for its positions)
    beats = ["st._higher[st.trick_cards[0]] >> card & 1"] + [
        f"(len(st.trick_cards) <= {i} or suit_of[st.trick_cards[{i}]] != suit_of[card]"
        f" or st._higher[st.trick_cards[{i}]] >> card & 1)"
        for i in range(1, rules.hand_seats - 1)]
    # no card of the hand beats some card of the suit led in the trick: it cannot head
    cannot = " or ".join(["not hand & st._higher[st.trick_cards[0]]"] + [
        f"len(st.trick_cards) > {i} and suit_of[st.trick_cards[{i}]] == suit_of[card]"
        f" and not hand & st._higher[st.trick_cards[{i}]]"
        for i in range(1, rules.hand_seats - 1)])
    beats = [f"({cannot} or {' and '.join(beats)})"]
    free = ""  # the suit led cannot be narrowed under the rules' own duties
    obs = (rules.obligation_stock, rules.obligation_no_stock)
    if all(ob is not None for ob in obs):
        own = "st._ob_stock is _ob_stock and st._ob_no_stock is _ob_no_stock"
        if all(ob.head is When.NEVER for ob in obs if ob is not None):
            free = own
        elif all(ob.head_suits == "trump" for ob in obs if ob is not None):
            free = f"{own} and suit_of[card] != st.trump"
    conds.append(f"{follow} and ({free} or {' and '.join(beats)})" if free
                 else f"{follow} and {' and '.join(beats)}")
    void = "st.trick_cards and not hand & _suit_mask[suit_of[st.trick_cards[0]]]"
    conds.append(f"{void} and (st.trump < 0 or not hand & _suit_mask[st.trump])")
    # the first card is of the suit led, not a trump (the seat holds a trump, not that suit)
    overtrump = [f"(len(st.trick_cards) <= {i} or suit_of[st.trick_cards[{i}]] != st.trump"
                 f" or st._higher[st.trick_cards[{i}]] >> card & 1)"
                 for i in range(1, rules.hand_seats - 1)]
    conds.append(" and ".join([void, "suit_of[card] == st.trump", *overtrump]))
    return " or ".join(f"({c})" for c in conds)


def start_trick(mech: Mechanisms, rules: Rules) -> Callable[[GameState, int], None]:
    """The opening of a trick with a given leader under ``mech`` and ``rules``, as
    :meth:`TrickPlay.start_trick` (written for these rules), or that method itself where
    the trick play mechanism overrides it.

    >>> from mariage import load_rules, GameState
    >>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS
    >>> state = GameState(load_rules("marianna"), first_dealer=0)
    >>> start_trick(DEFAULT_MECHANISMS, state.rules)(state, 2)
    >>> state.trick_no, state.to_act, state._decl_open
    (1, 2, True)
    """
    from .mechanisms.trickplay import TrickPlay
    from .phase import PLAY, WINDOW

    if type(mech.tricks).start_trick is not TrickPlay.start_trick:
        return mech.tricks.start_trick
    ns: dict[str, Any] = {"_PLAY": PLAY, "_WINDOW": WINDOW}
    lines = ["def start_trick(st, winner):", *_start_lines(mech, rules, ns)]
    codegen.run("\n".join(lines) + "\n", f"<trick start of {rules.ruleset}>", ns)
    fn: Callable[[GameState, int], None] = ns["start_trick"]
    return fn


def play_apply(mech: Mechanisms, rules: Rules, trail: bool = False,
               end_hand: HandEnd | None = None,
               legal_plays: Callable[[GameState, int], int] | None = None,
               hand_slots: tuple[str, ...] | None = None) -> PlayApply | None:
    """The play of a card by the seat to act, with its trick's end, under ``mech`` and
    ``rules``; ``None`` where the trick play mechanism changes a step of its own.

    It does what :meth:`TrickPlay.apply_play` and, for the last card of a
    trick, :meth:`TrickPlay.finish_trick` do, in the play phase (the only
    caller, :meth:`GameState.apply`, checks the phase); a card it would
    refuse is handed to :meth:`TrickPlay.apply_play`, which refuses it.
    The last card of a hand ends it by ``end_hand`` (default: the code
    :func:`~mariage.engine.handend.hand_end` writes, or :meth:`Scoring.end_hand`);
    a card's duties are worked out by ``legal_plays`` (default: :func:`duties`).

    With ``trail``, the function takes undo's journal as a fourth argument
    and adds to it what the card changes (see :mod:`mariage.engine.journal`): a card
    within its trick, the seat alone (or the seat with what was known of his
    hand and his forced card, where the card changes them); the last card of a
    trick, the values its trick's end changes (the small lists changed in place
    as numbers, a copy of the stock, the trick's lists as they are, the scalars,
    and the slots the hooks of the trick's end declare in
    :attr:`Mechanism.trail_hooks`), with the function that takes them back
    (:func:`~mariage.engine.trailplan.trick_entry`). Given
    ``hand_slots``, the slots ``end_hand`` may write besides
    (:func:`~mariage.engine.handend.hand_end_writes`), the hand's last card
    journals a trail too where no deal source deals the next hand: its trick's
    end, the values of those slots and the length of the record of hands (cut
    back to it, never copied). The hand's last card otherwise, and a trick's end
    whose hooks may end or pause the hand (a hook that declares neither
    ``trail_hooks`` nor a ``quiet_hooks`` expression that holds), are journaled
    as a snapshot of the state instead (:meth:`GameState.apply` with undo on).
    ``None`` also where those hooks leave no other way.

    >>> from mariage import load_rules, GameState
    >>> from mariage.engine.deals import canonical_deck
    >>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS
    >>> rules = load_rules("marianna")
    >>> state = GameState(rules, first_dealer=0)
    >>> state.deal(canonical_deck(rules))
    >>> play = play_apply(DEFAULT_MECHANISMS, rules, trail=True)
    >>> journal = []
    >>> play(state, 1, state.legal_actions()[1], journal)
    >>> journal, state.trick_cards
    ([1], [0])
    >>> from mariage.engine.journal import take_back
    >>> take_back(state, journal.pop())
    >>> state.trick_cards, state.to_act
    ([], 1)
    """
    from .handend import hand_end
    from .mechanisms.trickplay import TRAILED_METHODS, TrickPlay
    from .phase import PLAY, WINDOW

    cls = type(mech.tricks)
    if any(getattr(cls, m) is not getattr(TrickPlay, m) for m in TRAILED_METHODS):
        return None
    k, n = rules.hand_seats, rules.nseats
    ns: dict[str, Any] = {
        "_refuse": mech.tricks.apply_play, "_legal_plays": legal_plays or duties(mech, rules),
        "_sp": seat_plays(rules),
        "_next": tuple(s + 1 if s + 1 < n else 0 for s in range(n)),
        "suit_of": rules.suit_of, "_team_of": rules.team_of, "_PLAY": PLAY, "_WINDOW": WINDOW,
        "_end_hand": end_hand or hand_end(mech, rules) or mech.scoring.end_hand,
        "_suit_mask": rules.suit_mask, "_ob_stock": rules.obligation_stock,
        "_ob_no_stock": rules.obligation_no_stock,
        "_CARD": CARD_TRAIL, "_TRICK": TRICK_TRAIL, "_HAND": HAND_TRAIL, "_keep": keep_value}
    name = f"<{'undo trail' if trail else 'card play'} of {rules.ruleset}>"
    cards = ", ".join(f"c{i}" for i in range(k))
    plan = hook_trail(mech, rules) if trail else None
    kept = hand_kept(hand_slots, plan) if trail else None
    lines = _card_lines(k, n, trail, plan, _sure_legal(mech, rules), kept is not None)
    if trail and plan is None:  # every trick's end by snapshot: nothing more here
        return _made(lines, ns, name)
    extra = plan.slots if plan else ()
    ending = plan is not None and plan.ending and kept is not None  # (see _card_lines)
    if kept is not None:
        ns["_keep_hand"], ns["_put_hand"] = slot_keeper(kept)
    hand_entry = ["entry[0] = _HAND", "entry[-1] = (_put_hand, _keep_hand(st), len(st._history))"]
    if not plan or not (plan.quiet or plan.ending):  # (else the winner is known already)
        lines += [f"    {cards}, = trick", "    strength = st._strength", "    trump = st.trump",
                  *_winner_lines(k), "    winner = seats[w]"]
    total = " + ".join(f"points[c{i}]" for i in range(k))
    quiet = () if trail else getattr(hook_trail(mech, rules), "quiet", ())
    if quiet:  # undo for marks only: where a hook may write what a mark's record does not
        # keep, what they declare (trailplan.mark_extra) or the whole state first
        # (journal.Marks.widen; the gates read as the trail's)
        lines += ["    if st._marks is not None:"]
        if any("trick_points" in q for q in quiet):
            lines += ["        points = st._points", f"        trick_points = {total}"]
        lines += ["        if not (" + " and ".join(f"({q})" for q in quiet) + "):",
                  "            st._marks.widen(st, _GATED)"]
        ns["_GATED"] = GatedHooks
    lines += ["    team = _team_of[winner]", "    points = st._points"]
    if trail:  # the entry and the function that takes it back (trailplan.trick_entry)
        keep, restore = trick_entry(n, len(rules.teams), extra)
        lines += keep
    if ending:  # a hook may end the hand (by the hand end): keep what that writes
        lines += ["    if ends:", *("        " + line for line in hand_entry)]
    lines += [f"    st.captured[team] += {total}", "    st.tricks_won[team] += 1",
              f"    st.tricks.append((st.leader, ({cards},), winner))",
              "    st.last_winner = winner"]
    for i, (after_trick, gate) in enumerate(_gated_hooks(mech, rules, "after_trick")):
        ns[f"_after{i}"] = after_trick
        call = f"if _after{i}(st, winner):"
        lines.append(f"    if ({gate}) and _after{i}(st, winner):\n        return" if gate
                     else f"    {call}\n        return")
    if ending:  # the hooks did not end the hand: a trick's end after all
        lines += ["    if ends:", "        entry[0] = _TRICK", "        entry[-1] = None"]
    lines += ["    if st.stock:", *_draw_lines(k, k < n)]
    if not trail or kept is not None:  # (else the hand's last card went by snapshot)
        lines.append("    if st.trick_no >= st._tricks_per_hand:")
        if kept is not None:  # the entry becomes the hand's: what the hand end writes
            lines += ["        " + line for line in hand_entry]
        if rules.last_trick_points:
            lines.append(f"        st.captured[team] += {rules.last_trick_points}")
        if rules.leftover_rule is not None:
            lines += ["        for c in st.aside:  # (no generator: most hands set none aside)",
                      "            st.captured[team] += points[c]"]
        lines += ["        _end_hand(st, 'played_out')", "        return"]
    lines += _start_lines(mech, rules, ns)
    for i, (next_lead, gate) in enumerate(_gated_hooks(mech, rules, "next_lead")):
        ns[f"_lead{i}"] = next_lead
        lines.append(f"    if {gate}:\n        _lead{i}(st, winner)" if gate
                     else f"    _lead{i}(st, winner)")
    if trail:
        lines.append(restore)
    return _made(lines, ns, name)


def _card_lines(k: int, n: int, trail: bool, plan: HookTrail | None,
                sure: str = "", hand_trail: bool = False) -> list[str]:
    """Source of the play of a card up to its trick's end (:func:`play_apply`): the
    checks, the hand, the trick, the next seat; with ``trail``, the journal entry of a
    card within its trick, and the snapshot of the hand's last card (with
    ``hand_trail``, only where a deal source deals the next hand) or of every trick's
    end, where ``plan`` is None (``n`` seats, ``k`` of them in a trick); with
    ``hand_trail``, ``ends`` tells whether a hook that ends the hand only by the hand
    end may end it (``plan.ending``). ``sure``: a
    condition under which the card is legal without working the duties out
    (:func:`_sure_legal`)."""
    lines = ["def apply_play(st, seat, action, journal):" if trail else
             "def apply_play(st, seat, action):",
             "    card = action.card", "    hands = st.hands", "    hand = hands[seat]",
             # (a card that is no int: the reference play refuses it, saying why)
             "    if card.__class__ is not int or card < 0 or not hand >> card & 1:",
             "        return _refuse(st, seat, action)"]
    sit_out = k < n
    # (with a trail, the trick's length before the card is known: no second len())
    next_seat = (f"    if before < {k - 1}:" if trail else f"    if len(trick) < {k}:",
                 "        nxt = _next[seat]",
                 "        st.to_act = nxt if nxt != st.out else st.next_seat(nxt)" if sit_out
                 else "        st.to_act = nxt")

    def sure_lines(forced: str) -> list[str]:  # the card is legal: no duties worked out
        return [f"    elif {forced} < 0 and ({sure}):", "        hands[seat] = hand ^ bit"
                ] if sure else []

    if not trail:  # the plain play of a card
        return [*lines, "    bit = 1 << card",
                "    if st._free_play:", "        hands[seat] = hand ^ bit",
                *sure_lines("st.forced[seat]"),
                "    elif _legal_plays(st, seat) & bit:", "        hands[seat] = hand ^ bit",
                "        st.forced[seat] = -1",
                "    else:", "        return _refuse(st, seat, action)",
                "    st.actions.append(_sp[seat][card])", "    known = st.known",
                "    if known[seat] & bit:", "        known[seat] ^= bit",
                "    seats = st.trick_seats", "    seats.append(seat)",
                "    trick = st.trick_cards", "    trick.append(card)",
                *next_seat, "        return"]
    # the hand's last card, or hooks that may end it: a snapshot (GameState._journaled)
    lines += ["    seats = st.trick_seats", "    trick = st.trick_cards"]
    snapshot = "        return st._journaled(st.apply, action, seat)"
    if plan is None:
        lines += [f"    if (before := len(trick)) == {k - 1}:", snapshot]
    else:
        quiet, ending = (plan.quiet, plan.ending) if hand_trail else \
            (plan.quiet + plan.ending, ())
        lines.append(f"    if (before := len(trick)) == {k - 1}:")
        if quiet or ending:  # read before anything changes: the trick's winner first
            lines += [f"        {', '.join(f'c{i}' for i in range(k - 1))}, = trick",
                      f"        c{k - 1} = card", "        strength = st._strength",
                      "        trump = st.trump",
                      *("    " + line for line in _winner_lines(k)),
                      f"        winner = seats[w] if w < {k - 1} else seat"]
            if any("trick_points" in q for q in quiet + ending):  # (read by those gates only)
                total = " + ".join(f"points[c{i}]" for i in range(k))
                lines += ["        points = st._points", f"        trick_points = {total}"]
        last = "st.trick_no >= st._tricks_per_hand" + (
            " and st.deal_source is not None" if hand_trail else "")
        cond = " or ".join([last, *(f"not ({q})" for q in quiet)])
        if ending:  # (a hand ended with a deal source: the next deal too, by a snapshot)
            lines.append("        ends = " + " or ".join(f"not ({q})" for q in ending))
            cond += " or ends and st.deal_source is not None"
        lines += [f"        if {cond}:", "    " + snapshot,
                  *(f"        {', '.join(f'{v}{i}' for i in range(n))}, = {src}"
                    for v, src in (("hb", "hands"), ("kn", "st.known"), ("fc", "st.forced")))]
    return [*lines, "    bit = 1 << card", "    forced = st.forced", "    f = forced[seat]",
            "    if st._free_play:", "        hands[seat] = hand ^ bit", *sure_lines("f"),
            "    elif _legal_plays(st, seat) & bit:", "        hands[seat] = hand ^ bit",
            "        forced[seat] = -1",
            "    else:", "        return _refuse(st, seat, action)",
            "    st.actions.append(_sp[seat][card])", "    known = st.known",
            "    kb = known[seat]", "    if kb & bit:", "        known[seat] = kb ^ bit",
            "    seats.append(seat)", "    trick.append(card)", *next_seat,
            "        if kb & bit or f >= 0:", "            journal.append([_CARD, seat, kb, f])",
            "        else:", "            journal.append(seat)", "        return"]


def seat_plays(rules: Rules) -> tuple[tuple[tuple[int, Play], ...], ...]:
    """Per seat and card, the entry of :attr:`GameState.actions` that a card played by
    the generated card play notes: one shared tuple ``(seat, play)`` each, the play the
    ruleset's own (equal to any other of the card), so that a card's note makes nothing
    and the next deal frees none of them.

    >>> from mariage import load_rules, new_match, Play
    >>> rules = load_rules("schnapsen")
    >>> plays = seat_plays(rules)
    >>> plays[1][3]
    (1, Play(QH))
    >>> state = new_match(rules, seed=1)
    >>> seat, card = state.to_act, state.legal_actions()[-1].card
    >>> state.apply(Play(card))
    >>> state.actions[-1] == (seat, Play(card)), state.actions[-1][1] is rules.play_actions[card]
    (True, True)
    """
    from .actions import Play

    shared = rules.play_actions or tuple(Play(c) for c in range(rules.ncards))
    return tuple(tuple((seat, play) for play in shared) for seat in range(rules.nseats))


def _made(lines: list[str], ns: dict[str, Any], name: str) -> PlayApply:
    """The function ``apply_play`` that ``lines`` define, compiled under ``name``."""
    codegen.run("\n".join(lines) + "\n", name, ns)
    fn: PlayApply = ns["apply_play"]
    return fn
