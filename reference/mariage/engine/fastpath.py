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
  per card.

A mechanism subclass that overrides a method its gate relies on
(:attr:`Mechanism.gate_depends`) loses the gate, so a changed mechanism is
still called at every decision.

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
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .actions import Action
    from .mechanisms import Mechanism, Mechanisms
    from .rules import Rules
    from .state import GameState

__all__ = ["card_tables", "cards_of", "play_legal"]

#: cards per table: each table has 2 ** _GROUP entries
_GROUP = 8

PlayLegal = Callable[["GameState", int], list["Action"]]


def card_tables(rules: Rules) -> tuple[tuple[tuple[Action, ...], ...], ...]:
    """Per group of eight cards, the play actions of each subset of the group.

    ``card_tables(rules)[g][bits]`` are the plays of the cards ``8 * g + i``
    for each bit ``i`` set in ``bits``, in card order.
    """
    return _card_tables(tuple(rules.play_actions))


@lru_cache(maxsize=64)
def _card_tables(plays: tuple[Action, ...]) -> tuple[tuple[tuple[Action, ...], ...], ...]:
    """:func:`card_tables` of the plays of a pack: the same for every ruleset and option
    value with that pack, so made once per pack (an engine compiles new rules often)."""
    ncards = len(plays)
    groups = (ncards + _GROUP - 1) // _GROUP
    return tuple(
        tuple(tuple(plays[g * _GROUP + i] for i in range(_GROUP)
                    if bits >> i & 1 and g * _GROUP + i < ncards)
              for bits in range(1 << _GROUP))
        for g in range(groups))


def _cards_expr(groups: int, mask: str) -> str:
    """The source of the tuple of plays of the cards in ``mask``, group by group."""
    full = (1 << _GROUP) - 1
    parts = [f"*_t{g}[{mask}]" if g == 0 and groups == 1 else
             f"*_t{g}[{mask} & {full}]" if g == 0 else
             f"*_t{g}[{mask} >> {g * _GROUP}]" if g == groups - 1 else
             f"*_t{g}[{mask} >> {g * _GROUP} & {full}]"
             for g in range(groups)]
    return "(" + ", ".join(parts) + ",)"


def cards_of(rules: Rules, mask: int) -> list[Action]:
    """The plays of the cards in ``mask``, in card order (the tables' reference use)."""
    tables = card_tables(rules)
    out: list[Action] = []
    for g, table in enumerate(tables):
        out += table[mask >> g * _GROUP & ((1 << _GROUP) - 1)]
    return out


def _gate(m: Mechanism, rules: Rules) -> str | None:
    """``m``'s gate under ``rules``, unless ``m`` overrides a method the gate relies on."""
    gate = m.offer_gate(rules)
    if gate is None:
        return None
    cls = type(m)
    owner = next(k for k in cls.__mro__ if "offer_gate" in vars(k))
    for name in ("offer", *m.gate_depends):
        if getattr(cls, name) is not getattr(owner, name):
            return None
    return gate


def play_legal(mech: Mechanisms, rules: Rules) -> PlayLegal:
    """The legal actions of the seat to act in the play phase, under ``mech`` and ``rules``.

    Equal to what :meth:`GameState.legal_actions` lists in the play phase
    (it calls this); the function is written for these mechanisms and rules.
    """
    from .mechanisms.trickplay import TrickPlay

    tables = card_tables(rules)
    ns: dict[str, Any] = {f"_t{g}": t for g, t in enumerate(tables)}
    ns["_legal_plays"] = mech.tricks.legal_plays
    lines = ["def play_legal(st, seat):", "    h = st.hands[seat]", "    out = []"]
    offers = [m for m in mech.all() if m.offers(rules)]
    for i, m in enumerate(offers):
        ns[f"_offer{i}"] = m.offer
        gate = _gate(m, rules)
        call = f"_offer{i}(st, seat, out)"
        lines.append(f"    if {gate}:\n        {call}" if gate else f"    {call}")
    own_duties = type(mech.tricks).legal_plays is TrickPlay.legal_plays
    lines.append("    m = h if st._free_play else _legal_plays(st, seat)" if own_duties
                 else "    m = _legal_plays(st, seat)")
    cards = _cards_expr(len(tables), "m")
    lines += ["    if out:", f"        out += {cards}",
              "    else:", f"        out = [{cards[1:-2]}]"]
    for i, m in enumerate(m for m in mech.all() if m.offers_any_time(rules)):
        ns[f"_any{i}"] = m.any_time
        lines.append(f"    _any{i}(st, seat, out)")
    lines.append("    return out")
    source = "\n".join(lines) + "\n"
    exec(compile(source, f"<play phase of {rules.ruleset}>", "exec"), ns)
    fn: PlayLegal = ns["play_legal"]
    return fn
