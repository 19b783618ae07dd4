"""A state drawn from a player's information state, for OpenSpiel's searches.

OpenSpiel's information-set MCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``)
asks the state it searches for ``resample_from_infostate(player, sampler)``: a state
the player could not tell from it. :func:`resample` makes one for a game with chance
nodes (``chance="explicit"``): the cards of the current hand that ``player`` has not
seen change places in the deck at random (``sampler()`` draws each), the hand is
replayed with that deck, and the draw is kept only where every action of the replay is
legal and the player's information state string is the one it had. Where the stock is
dealt as it is drawn (:mod:`mariage.ai.spieldeal`), the hand's cards placed so far (at
the deal and at each draw) are the deck renamed: an unseen card still in the stock may
take the place of one placed, and the card it replaces is then left in the stock. Earlier hands are
kept as they were (they shaped the standing, which the player saw). So the state is
consistent with all the player saw, inferences included (a seat that did not follow
suit holds none of the suit). Every such deck that leaves the cards the player saw
where they were (a card an opponent played came from its hand as dealt, or from the
stock, as it truly did) is equally likely, while a uniform draw fits within
:data:`ATTEMPTS` tries; where few deals fit (late in a hand of strict rules, four
players), the state is a walk of :data:`WALK` random swaps of two unseen cards from
the true deal, each swap kept where the hand still replays the same for the player:
consistent, but not a uniform draw.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

import pyspiel

from mariage.errors import IllegalActionError

from .encoding import ActionSpace
from .openspiel_observer import seen_cards

__all__ = ["ATTEMPTS", "WALK", "resample"]

#: the uniform draws tried before :func:`resample` walks from the true deal instead
ATTEMPTS = 200
#: the swaps of two unseen cards that walk tries
WALK = 200
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
    seen = state.dealt_hands[player] | seen_cards(gs.hands, gs.known, player)
    if state.turn_up is not None:
        seen |= 1 << state.turn_up
    space = state._space
    for _, action, learned, drew in state.steps_of(player):
        if action >= 0:  # an action the player saw (-1: seen only as made)
            for card in _cards_named(space.text(action), card_ids):
                seen |= 1 << card
        seen |= learned | drew
    return int(seen)


class _Replay:
    """The current hand of ``state`` replayed with its deck's cards renamed."""

    def __init__(self, state: Any, player: int) -> None:
        history = list(state.history())
        rules = state.rules
        # the hand's nodes: the deal's chance nodes, then the decisions and, where the
        # stock is dealt as drawn (mariage.ai.spieldeal), the chance nodes of its draws
        ndeal = rules.ncards - len(state.game.stock_at)
        nodes = ndeal + len(state.steps_all) + len(state.drawn_at)
        self.start = start = len(history) - nodes
        self.steps = history[start:]
        self.chance = set(range(ndeal)) | {ndeal + k for k in state.drawn_at}
        self.prefix = state.game.new_initial_state()  # the hands before, as they were
        for action in history[:start]:
            self.prefix.apply_action(action)
        self.card_ids = {code: c for c, code in enumerate(rules.card_code)}
        self.codes = rules.card_code
        self.space = state._space
        self.text_ids = _text_ids(self.space)
        self.hidden = {k for k, who in state.hidden_steps.items() if who[player]}
        self.player = player
        self.want = state.information_state_string(player)

    def play(self, swap: dict[int, int]) -> Any:
        """The state with card ``c`` of the deck dealt (or drawn) as ``swap[c]``, or None where an
        action is then illegal or the player would have seen something else."""
        card_ids, codes, chance, hidden = self.card_ids, self.codes, self.chance, self.hidden

        def rename(m: re.Match[str]) -> str:
            card = card_ids.get(m.group())
            return m.group() if card is None else codes[swap.get(card, card)]

        new = self.prefix.clone()
        try:
            decision = 0  # (the decisions by their index in the hand's steps)
            for k, action in enumerate(self.steps):
                if k in chance:  # a card placed: dealt or drawn
                    action = swap.get(action, action)
                else:
                    if decision in hidden:  # a step the player did not see
                        action = self.text_ids[_TOKEN.sub(rename, self.space.text(action))]
                    decision += 1
                new.apply_action(action)
        except (IllegalActionError, ValueError, pyspiel.SpielError):
            return None  # an action the new deal does not allow (a seat that did not follow)
        return new if new.information_state_string(self.player) == self.want else None


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
    if state.gs is None or state.dealt_view is None or state.is_chance_node() \
            or state.is_terminal():  # no hand being played: nothing to draw anew
        return state.clone()
    replay = _Replay(state, player)
    seen = _seen_cards(state, player, replay.card_ids)
    unseen = [c for c in range(state.rules.ncards) if not seen >> c & 1]
    if len(unseen) < 2:
        return state.clone()
    for _ in range(ATTEMPTS):
        drawn = unseen[:]
        for i in range(len(drawn) - 1, 0, -1):  # Fisher-Yates with the caller's draws
            j = min(int(sampler() * (i + 1)), i)
            drawn[i], drawn[j] = drawn[j], drawn[i]
        new = replay.play(dict(zip(unseen, drawn, strict=True)))
        if new is not None:
            return new
    # few deals fit (late in a hand of strict rules): walk from the true deal by swaps
    # of two unseen cards, each kept where the hand still replays the same for the player
    swap = {c: c for c in unseen}
    found = state.clone()
    n = len(unseen)
    for _ in range(WALK):
        a = unseen[min(int(sampler() * n), n - 1)]
        b = unseen[min(int(sampler() * n), n - 1)]
        if a == b:
            continue
        trial = dict(swap)
        trial[a], trial[b] = swap[b], swap[a]
        new = replay.play(trial)
        if new is not None:
            swap, found = trial, new
    return found
