"""The observer of the OpenSpiel games (:mod:`mariage.ai.openspiel_game`): the
observation and information-state strings and tensors of one player's view."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from mariage.engine.observation import observe
from mariage.engine.state import GameState

if TYPE_CHECKING:
    from .openspiel_game import _Game, _State

__all__ = ["Observer", "dealt"]


def dealt(state: _State) -> GameState | None:
    """The match of ``state``, None before its deal; a sampled-chance state asked nothing
    else yet is before its deal (pyspiel makes a new state to learn a tensor's shape, and
    it is only observed: it takes no seed)."""
    return state.__dict__.get("gs")


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
        return (f"seat {r.seat_names[player]} hand {v.hand_no} trick {v.trick_no} "
                f"cards [{r.format_cards(v.hand)}] shown {shown} table [{table}] "
                f"trump {trump} turnup {turn_up} stock {v.stock_size} "
                f"points {list(v.hand_points)} match {list(v.match_scores)} "
                f"segni {list(v.segni)}"
                + (f" picked [{r.format_cards(state.picked)}]"
                   if state.picked and player == gs.to_act else ""))
