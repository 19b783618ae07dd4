"""A state drawn from a player's information state, for OpenSpiel's searches.

OpenSpiel's information-set MCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``)
asks the state it searches for ``resample_from_infostate(player, sampler)``: a state
the player could not tell from it. :func:`resample` makes one for a game with chance
nodes (``chance="explicit"``): the cards of the current hand that ``player`` has not
seen change places in the deck at random (``sampler()`` draws each swap), the match is
replayed with that deck, and the draw is kept only where every action of the replay is
legal and the player's information state string is the one it had; else another draw
(at most :data:`ATTEMPTS`). Earlier hands are kept as they were (they shaped the
standing, which the player saw). So the state is consistent with all the player saw,
inferences included (a seat that did not follow suit holds none of it), and every
deck consistent with it is equally likely.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

import pyspiel

from mariage.errors import IllegalActionError

from .encoding import ActionSpace
from .openspiel_observer import seen_steps

__all__ = ["ATTEMPTS", "resample"]

#: the draws tried before :func:`resample` gives up
ATTEMPTS = 1000
_TOKEN = re.compile(r"[^:,\s]+")


def _cards_named(text: str, card_ids: dict[str, int]) -> list[int]:
    """The card ids that the action text ``text`` names (``AH``, ``pick:AH``...)."""
    return [card_ids[t] for t in _TOKEN.findall(text) if t in card_ids]


@functools.cache
def _text_ids(space: ActionSpace) -> dict[str, int]:
    """Each action id of ``space`` by its text."""
    return {space.text(i): i for i in range(space.size)}


def _seen_cards(state: Any, player: int, card_ids: dict[str, int]) -> int:
    """The cards of the current hand ``player`` has seen, as bits (a superset is fine:
    the replay's check catches the rest; a card left out only narrows the draw)."""
    gs = state.gs
    seen = state.dealt_hands[player] | state._seen(gs.hands, gs.known, player)
    if state.turn_up is not None:
        seen |= 1 << state.turn_up
    space = state._space
    for _, action, learned in state.steps_of(player):
        if action >= 0:  # an action the player saw (-1: seen only as made)
            for card in _cards_named(space.text(action), card_ids):
                seen |= 1 << card
        seen |= learned
    for step in seen_steps(state.steps_all):
        seen |= step[3][player]  # the cards it drew
    return int(seen)


def resample(state: Any, player: int, sampler: Callable[[], float]) -> Any:
    """A state of ``state``'s game that ``player`` cannot tell from ``state``, its
    unseen cards of the current hand dealt anew (module docstring)."""
    if state.game.sampled:
        raise pyspiel.SpielError(
            "resample_from_infostate needs the game's chance nodes: load the game with "
            "chance=\"explicit\" (the default), not \"sampled\"")
    if not 0 <= player < state.rules.nseats:
        raise pyspiel.SpielError(f"resample_from_infostate: no player {player} (0 to "
                                 f"{state.rules.nseats - 1})")
    history = list(state.history())
    decisions = len(state.steps_all)
    ncards = state.rules.ncards
    if state.gs is None or state.dealt_view is None or state.is_chance_node() \
            or state.is_terminal():  # no hand being played: nothing to draw anew
        return state.clone()
    start = len(history) - decisions - ncards  # the current hand's deck, then its steps
    rules = state.rules
    card_ids = {code: c for c, code in enumerate(rules.card_code)}
    seen = _seen_cards(state, player, card_ids)
    unseen = [c for c in range(ncards) if not seen >> c & 1]
    space = state._space
    text_ids = _text_ids(space)
    codes = rules.card_code
    hidden = {k for k, who in state.hidden_steps.items() if who[player]}
    want = state.information_state_string(player)
    for _ in range(ATTEMPTS):
        drawn = unseen[:]
        for i in range(len(drawn) - 1, 0, -1):  # Fisher-Yates with the caller's draws
            j = min(int(sampler() * (i + 1)), i)
            drawn[i], drawn[j] = drawn[j], drawn[i]
        swap = dict(zip(unseen, drawn, strict=True))

        def rename(m: re.Match[str], swap: dict[int, int] = swap) -> str:
            card = card_ids.get(m.group())
            return m.group() if card is None else codes[swap.get(card, card)]

        new = state.game.new_initial_state()
        try:
            for k, action in enumerate(history):
                if start <= k < start + ncards:
                    action = swap.get(action, action)
                elif k - start - ncards in hidden:  # a step the player did not see
                    action = text_ids[_TOKEN.sub(rename, space.text(action))]
                new.apply_action(action)
        except (IllegalActionError, ValueError, pyspiel.SpielError):
            # an action the new deal does not allow (a seat that did not follow suit)
            continue
        if new.information_state_string(player) == want:
            return new
    raise pyspiel.SpielError(f"resample_from_infostate: no deal consistent with player "
                             f"{player}'s information state in {ATTEMPTS} draws")
