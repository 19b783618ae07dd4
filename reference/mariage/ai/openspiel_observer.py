"""What each player of the OpenSpiel games (:mod:`mariage.ai.openspiel_game`) sees: the
observation and information-state strings and tensors of one player's view, what each
decision showed each player, and the information-state lines of a hand."""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from operator import and_, or_
from typing import TYPE_CHECKING, Any

import numpy as np

from mariage.engine.actiontext import action_text
from mariage.engine.observation import observe, public_action
from mariage.engine.phase import Phase
from mariage.engine.rules import Rules
from mariage.engine.state import GameState

from .encoding import ActionSpace, Pick, Snapshot
from .layout import bidding_of
from .sayings import SaidFrom, said_list
from .spielcopy import UNSET, field

if TYPE_CHECKING:
    from .openspiel_game import _Game, _State

__all__ = ["Hand", "Observer", "Step", "action_string", "dealt", "hand_lines", "info_lines",
           "seen_cards", "seen_steps"]

#: a decision as recorded (_State.steps_all): the seat, the action id, per player the
#: cards of other hands it came to see and per player the cards it drew; or, until
#: asked (seen_steps), the seat, the action id, None and the hands and cards known
#: before and after the decision, to work those out from
Step = tuple[int, int, "tuple[int, ...] | None", tuple[Any, ...]]
#: a hand as the information state lines are made from it: its number, the hands as
#: dealt, the turned-up card, the decisions (_State.steps_all), those hidden from some,
#: and what the vectors were made from at the deal (_State.dealt_view: the cards shown
#: then, the seat to act)
Hand = tuple[int, tuple[int, ...], "int | None", list[Step], dict[int, tuple[bool, ...]],
             Snapshot]


def dealt(state: _State) -> GameState | None:
    """The match of ``state``, None before its deal; a sampled-chance state asked nothing
    else yet is before its deal (pyspiel makes a new state to learn a tensor's shape, and
    it is only observed: it takes no seed)."""
    gs = field(state, "gs")  # (its slot read: not dealt by asking)
    return None if gs is UNSET else gs


class Observer:
    """The PyObserver of a game: strings and tensors of one player's view.

    With ``perfect_recall`` the tensor is the information-state tensor
    (:class:`~mariage.ai.encoding.InfoStateEncoder`) and the string the player's whole
    history; else both are the current observation.
    """

    def __init__(self, game: _Game, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.encoder = game.encoder
        self.info_encoder = game.info_encoder
        size = self.info_encoder.size if self.perfect_recall else self.encoder.size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"info_state" if self.perfect_recall else "observation": self.tensor}

    def set_from(self, state: _State, player: int) -> None:
        gs = dealt(state)
        if gs is None or gs.hand_no == 0:
            self.tensor.fill(0)
        elif self.perfect_recall:
            self.tensor[:] = self.info_encoder.tensor(state.dealt_vector(player),
                                                      state.steps_of(player), player)
        else:
            self.tensor[:] = self.encoder.vector(gs, player, state.picked)

    def string_from(self, state: _State, player: int) -> str:
        gs = dealt(state)
        if self.perfect_recall:
            return state.history_text(player) if gs is not None \
                else state.game.first_lines[player][0]
        if gs is None or gs.hand_no == 0:
            return f"seat {player}: no deal yet"
        r = gs.rules
        v = observe(gs, player)
        trump = r.suits[v.trump] if v.trump >= 0 else "-"
        turn_up = r.card_code[v.turn_up] if v.turn_up is not None else "-"
        shown = " ".join(f"{r.seat_names[s]}[{r.format_cards(m)}]" for s, m in
                         enumerate(v.shown) if s != player)
        table = " ".join(f"{r.seat_names[s]}:{r.card_code[c]}" for s, c in v.trick)
        # every card played this hand, as the tensor's ``played`` part (the finished
        # tricks and the current one): which card fell to a gathered trick is not in
        # the points when it counts nothing
        played = 0
        for _, cards, _ in v.tricks:
            for c in cards:
                played |= 1 << c
        for _, c in v.trick:
            played |= 1 << c
        # what the tensor holds besides: the phase, the seat to act, the trick's leader,
        # the cards in each hand and the declarations made (equal strings, equal tensors)
        to_act = r.seat_names[v.to_act] if v.to_act is not None else "-"
        leader = r.seat_names[v.leader] if v.phase not in (Phase.DEAL, Phase.OVER) else "-"
        declared = " ".join(f"{r.declarations[kind].name}:{r.suits[suit]}" for kind, suit
                            in sorted({(d[1], d[2]) for d in v.declared if d[1] >= 0}))
        return (f"seat {r.seat_names[player]} hand {v.hand_no} trick {v.trick_no} "
                f"cards [{r.format_cards(v.hand)}] shown {shown} table [{table}] "
                f"played [{r.format_cards(played)}] sizes {list(v.hand_sizes)} "
                f"trump {trump} turnup {turn_up} stock {v.stock_size} "
                f"points {list(v.hand_points)} match {list(v.match_scores)} "
                f"segni {list(v.segni)} phase {v.phase.name.lower()} to_act {to_act} "
                f"leader {leader} declared [{declared}]"
                + (_bidding_text(r, gs) if self.encoder.bidding else "")
                + _said_text(r, gs, self.encoder.said)
                + (f" picked [{r.format_cards(state.picked)}]"
                   if state.picked and player == gs.to_act else ""))


def _bidding_text(r: Rules, gs: GameState) -> str:
    """The auction's present, as the observation's bidding parts hold it."""
    (high, holder, declarer, contract, doubled, bid_suit, strain, passed,
     passes) = bidding_of(gs)
    names = (*r.suits, *r.strain_names)

    def seat(q: int) -> str:
        return r.seat_names[q] if q >= 0 else "-"
    gone = " ".join(r.seat_names[q] for q, p in enumerate(passed) if p)
    return (f" bid {high} by {seat(holder)} suit {names[bid_suit] if bid_suit >= 0 else '-'}"
            f" contract {contract} declarer {seat(declarer)} doubled {doubled}"
            f" strain {names[strain] if strain >= 0 else '-'} passed [{gone}]"
            f" passes {passes}")


def _said_text(r: Rules, gs: GameState, said: SaidFrom | None) -> str:
    """What was said this hand, as the observation's ``said`` part holds it (nothing
    where the rules say nothing)."""
    if said is None:
        return ""
    bits = said(gs.actions, gs.pair_by, gs.trump, gs.pairs_said)
    return " said [" + " ".join(f"{r.seat_names[q]}:{label}"
                                for q, label in said_list(r, bits)) + "]"


def seen_cards(hands: Sequence[int], known: Sequence[int], player: int) -> int:
    """The cards of ``hands`` that ``player`` sees (its own and those shown to it).

    >>> seen_cards([0b0011, 0b1100], [0, 0b0100], 0)
    7
    """
    seen = hands[player]
    for q, hand in enumerate(hands):
        if q != player:
            seen |= known[q] & hand
    return seen


def info_lines(state: _State, player: int) -> list[str]:
    """The information state lines of ``player`` in ``state``, the current hand included."""
    gs = state.gs
    lines = list(state.game.first_lines[player])
    for hand in state.hands_before:
        hand_lines(state.rules, state._space, lines, player, hand)
    if gs is None or gs.hand_no == 0 or state.dealt_view is None:
        return lines
    hand_lines(state.rules, state._space, lines, player,
               (gs.hand_no, state.dealt_hands, state.turn_up, state.steps_all,
                state.hidden_steps, state.dealt_view))
    return lines


def action_string(rules: Rules, space: ActionSpace, player: int, chance: str | None,
                  action: int) -> str:
    """The text of ``action`` of ``player``: a chance outcome where ``chance`` names the
    chance node (``dealer``, ``first``: a seat; ``card``: a card placed in the deck),
    else an action id of ``space``.

    >>> from mariage import load_rules
    >>> rules = load_rules("schnapsen")
    >>> space = ActionSpace(rules)
    >>> action_string(rules, space, -1, "first", 1), action_string(rules, space, 0, None, 0)
    ('first player B', 'AH')
    """
    r = rules
    if chance is not None:
        if chance in ("dealer", "first"):
            if not 0 <= action < r.nseats:
                raise ValueError(f"chance outcome {action} is no seat "
                                 f"(0 to {r.nseats - 1})")
            return f"first {'dealer' if chance == 'dealer' else 'player'} " \
                f"{r.seat_names[action]}"
        if not 0 <= action < r.ncards:
            raise ValueError(f"chance outcome {action} is no card (0 to {r.ncards - 1})")
        return f"card {r.card_code[action]}"
    if not 0 <= action < space.size:
        raise ValueError(f"action {action} is not an action id (0 to {space.size - 1})")
    return space.text(action)


def seen_steps(steps: list[Step], open_hands: bool = False) -> list[Step]:
    """``steps``, each with what every player came to see and drew worked out (in place:
    once for each step, when first asked). ``open_hands``: every hand lies face up (the
    rules' ``open_hands``), so every card drawn is seen by all."""
    for k, step in enumerate(steps):
        if step[2] is None:
            own, known, hands, now_known = step[3]
            if open_hands:  # every card in a hand is shown
                known, now_known = own, hands
            learned = drawn = (0,) * len(own)
            # a player can come to see a card only if some hand or some seat's shown
            # cards gained one (a hand h gained none of the cards it did not hold, o,
            # where h | o == o): where both only lost cards (a card played), what each
            # sees is part of what it saw, so nobody learned anything
            if list(map(or_, hands, own)) != own or (
                    now_known != known and list(map(or_, now_known, known)) != known):
                # what q sees is its hand and every card shown (q's shown cards are in
                # its hand): seen_cards(hands, known, q) == hands[q] | shown
                shown = reduce(or_, map(and_, now_known, hands))
                shown_before = reduce(or_, map(and_, known, own))
                learned = tuple((h | shown) & ~(o | shown_before)
                                for h, o in zip(hands, own, strict=True))
                drawn = tuple(h & ~o for h, o in zip(hands, own, strict=True))
            steps[k] = (step[0], step[1], learned, drawn)
    return steps




def hand_lines(rules: Rules, space: ActionSpace, lines: list[str], player: int,
               hand: Hand) -> None:
    """Append to ``lines`` what ``player`` saw of ``hand``, as its information-state
    tensor holds it: its cards as dealt, the cards of other hands shown to it then, the
    turned-up card, the seat to act first; every action, each card it drew and each
    other card it came to see by it."""
    r = rules
    hand_no, dealt_hands, turn_up, steps, hidden, at_deal = hand
    line = f"hand {hand_no}: dealt {r.format_cards(dealt_hands[player])}"
    hands, known, to_act = at_deal[0], at_deal[1], at_deal[7]
    shown = " ".join(f"{r.seat_names[q]}[{r.format_cards(cards)}]" for q, cards in (
        (q, hands[q] if r.open_hands else hands[q] & known[q])
        for q in range(r.nseats) if q != player) if cards)
    if shown:
        line += f"; shown {shown}"
    if turn_up is not None:
        line += f"; turned up {r.card_code[turn_up]}"
    if to_act is not None:
        line += f"; {r.seat_names[to_act]} to act"
    lines.append(line)
    for k, (seat, action, learned, drawn) in enumerate(seen_steps(steps, r.open_hands)):
        if k in hidden and hidden[k][player]:
            act = space.action(action)
            text = "pick:?" if isinstance(act, Pick) else \
                action_text(r, public_action(r, player, seat, act))
        else:
            text = space.text(action)
        lines.append(f"{r.seat_names[seat]}:{text}")
        if drawn[player]:
            lines.append(f"drew {r.format_cards(drawn[player])}")
        seen = learned[player] & ~drawn[player]  # type: ignore[index]
        if seen:  # (a card of another hand shown to it, the talon turned...)
            lines.append(f"saw {r.format_cards(seen)}")
