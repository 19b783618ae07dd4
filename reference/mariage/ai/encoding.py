"""Fixed action ids, action masks and observation vectors of a ruleset.

Every action a ruleset could ever offer gets a fixed id (:class:`ActionSpace`),
in the order of the mechanisms that offer them
(:meth:`mariage.engine.mechanisms.Mechanism.all_actions`): the card plays in card
order, then declarations and ``pass``, asks and answers, exchanges,
``callout``, and the actions of the newer mechanisms (closing, claims...).
An observation vector (:class:`Encoder`) is built
from :func:`mariage.observe` of one seat only, so it holds nothing that seat
cannot see; seats are counted from the observing seat (0 = itself).

>>> from mariage import load_rules, new_match
>>> rules = load_rules("marianna")
>>> space = ActionSpace(rules)
>>> space.size, space.text(0), space.text(space.size - 1)
(65, 'AH', 'pass')
>>> state = new_match(rules, 1)
>>> mask = space.mask(state)
>>> int(mask.sum()) == len(state.legal_actions())
True
>>> enc = Encoder(rules)
>>> enc.vector(state, state.to_act).shape == (enc.size,)
True
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from mariage.engine.actions import Action, action_text, parse_action
from mariage.engine.mechanisms import DEFAULT_MECHANISMS
from mariage.engine.observation import observe
from mariage.engine.phase import Phase
from mariage.engine.rules import Rules
from mariage.engine.state import GameState

__all__ = ["ActionSpace", "Encoder"]

_PHASES = tuple(Phase)


class ActionSpace:
    """The fixed numbering of every action of ``rules``."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        candidates: list[Action] = []
        seen: set[Action] = set()
        for m in DEFAULT_MECHANISMS.all():  # each mechanism lists what it could offer
            for a in m.all_actions(rules):
                if a not in seen:
                    seen.add(a)
                    candidates.append(a)
        self.actions: tuple[Action, ...] = tuple(
            a for a in candidates if parse_action(rules, action_text(rules, a)) == a)
        self.ids: dict[Action, int] = {a: i for i, a in enumerate(self.actions)}
        self.size = len(self.actions)

    def id(self, action: Action) -> int:
        """The id of ``action`` (``KeyError`` if the ruleset has no such action)."""
        return self.ids[action]

    def action(self, action_id: int) -> Action:
        """The action of ``action_id``."""
        return self.actions[action_id]

    def text(self, action_id: int) -> str:
        """The canonical text of the action of ``action_id``."""
        return action_text(self.rules, self.actions[action_id])

    def legal_ids(self, state: GameState, seat: int | None = None) -> list[int]:
        """The ids of the legal actions of ``seat`` (default: the seat to act), sorted."""
        return sorted(self.ids[a] for a in state.legal_actions(seat))

    def mask(self, state: GameState, seat: int | None = None) -> npt.NDArray[np.int8]:
        """1 for each legal action id of ``seat`` (default: the seat to act), else 0."""
        out = np.zeros(self.size, dtype=np.int8)
        if state.phase != Phase.DEAL and state.phase != Phase.OVER:
            out[self.legal_ids(state, seat)] = 1
        return out


class Encoder:
    """Observation vectors (float32) of one seat's view of a state of ``rules``.

    Parts, in order: own hand; for each other seat (counted from the
    observer) the cards of its hand the observer knows; the current trick,
    one card slot per position from the leader; every card already played
    in the hand; the turned-up card; the trump suit (or none); the phase; the
    seat to act and the leader (counted from the observer); hand sizes and
    the stock's size (as fractions of the pack); each team's hand points
    (own team first, as fractions of the pack's points) and match standing
    (as fractions of the target); declarations made this hand (per
    declaration and suit).
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        n, c, s = rules.nseats, rules.ncards, len(rules.suits)
        t = len(rules.teams)
        self.size = (c + (n - 1) * c + n * c + c + (c + 1) + (s + 1) + len(_PHASES)
                     + (n + 1) + n + n + 1 + t + t + len(rules.declarations) * s)

    def vector(self, state: GameState, seat: int) -> npt.NDArray[np.float32]:
        """The observation vector of ``seat``."""
        r = self.rules
        n, c, nsuits = r.nseats, r.ncards, len(r.suits)
        view = observe(state, seat)
        out = np.zeros(self.size, dtype=np.float32)
        at = 0

        def cards(mask: int) -> None:
            for card in r.cards_of(mask):
                out[at + card] = 1.0

        cards(view.hand)
        at += c
        for k in range(1, n):
            cards(view.shown[(seat + k) % n])
            at += c
        for pos, (_, card) in enumerate(view.trick):
            out[at + pos * c + card] = 1.0
        at += n * c
        for _, played, _ in view.tricks:
            for card in played:
                out[at + card] = 1.0
        for _, card in view.trick:
            out[at + card] = 1.0
        at += c
        out[at + (c if view.turn_up is None else view.turn_up)] = 1.0
        at += c + 1
        out[at + (nsuits if view.trump < 0 else view.trump)] = 1.0
        at += nsuits + 1
        out[at + _PHASES.index(view.phase)] = 1.0
        at += len(_PHASES)
        out[at + (n if view.to_act is None else (view.to_act - seat) % n)] = 1.0
        at += n + 1
        if view.phase != Phase.DEAL and view.phase != Phase.OVER:
            out[at + (view.leader - seat) % n] = 1.0
        at += n
        for k in range(n):
            out[at + k] = view.hand_sizes[(seat + k) % n] / c
        at += n
        out[at] = view.stock_size / c
        at += 1
        teams = len(r.teams)
        mine = r.team_of[seat]
        order = [(mine + k) % teams for k in range(teams)]
        for k, team in enumerate(order):
            out[at + k] = view.hand_points[team] / max(1, r.pack_points)
            out[at + teams + k] = (state.standing()[team] / max(1, r.match_target))
        at += 2 * teams
        for _, kind, suit, _ in view.declared:
            if kind >= 0:
                out[at + kind * nsuits + suit] = 1.0
        at += len(r.declarations) * nsuits
        assert at == self.size
        return out
