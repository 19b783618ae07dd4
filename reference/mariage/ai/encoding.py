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

from mariage.engine.actions import Action, action_text
from mariage.engine.phase import Phase
from mariage.engine.rules import Rules
from mariage.engine.state import GameState

from .layout import (
    Feature,
    action_list,
    decision_bound,
    feature_names,
    info_state_features,
    observation_features,
)

__all__ = ["ActionSpace", "Encoder", "Feature", "InfoStateEncoder"]

_PHASES = tuple(Phase)


class ActionSpace:
    """The fixed numbering of every action of ``rules``."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.actions: tuple[Action, ...] = action_list(rules)
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
        ids = self.ids
        return sorted([ids[a] for a in state.legal_actions(seat)])

    def mask(self, state: GameState, seat: int | None = None) -> npt.NDArray[np.int8]:
        """1 for each legal action id of ``seat`` (default: the seat to act), else 0."""
        out = np.zeros(self.size, dtype=np.int8)
        if state.phase != Phase.DEAL and state.phase != Phase.OVER:
            ids = self.ids
            out[[ids[a] for a in state.legal_actions(seat)]] = 1
        return out


# each byte value as its eight bits, least significant first, as float32
_BITS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1,
                      bitorder="little").astype(np.float32)


class Encoder:
    """Observation vectors (float32) of one seat's view of a state of ``rules``.

    The parts, in order, are :attr:`features` (name, offset, size, meaning); seats are
    counted from the observer (0 = itself). Every one-hot part is set from one big bit
    mask unpacked at once, so a vector costs a few microseconds whatever the ruleset.
    What the vector holds is exactly what :func:`mariage.observe` shows the seat.

    >>> from mariage import load_rules
    >>> enc = Encoder(load_rules("schnapsen"))
    >>> [f.name for f in enc.features][:3], enc.size == sum(f.size for f in enc.features)
    (['hand', 'known_hand_1', 'trick_card_0'], True)
    """

    def __init__(self, rules: Rules, open_hands: bool | None = None) -> None:
        self.rules = rules
        #: every hand visible (the global state of :meth:`MariageEnv.state`), or as the
        #: rules say
        self.open_hands = rules.open_hands if open_hands is None else open_hands
        n, c, s = rules.nseats, rules.ncards, len(rules.suits)
        feats = observation_features(rules)
        off = {f.name: f.offset for f in feats}
        self.features: tuple[Feature, ...] = feats
        self.size = sum(f.size for f in feats)
        self._nbytes = (self.size + 7) // 8
        # offsets kept as plain attributes: no lookups by name on the hot path
        self._o_played, self._o_turn_up, self._o_trump = (off["played"], off["turn_up"],
                                                          off["trump"])
        self._o_to_act, self._o_leader, self._o_declared = (off["to_act"], off["leader"],
                                                            off["declared"])
        self._o_sizes, self._o_stock = off["hand_sizes"], off["stock_size"]
        self._o_points, self._o_standing = off["hand_points"], off["standing"]
        self._phase_bit = {p: 1 << (off["phase"] + k) for k, p in enumerate(_PHASES)}
        self._nsuits = s
        del n, c
        self._played_cache: tuple[int, int, int, int] = (-1, -1, -1, 0)

    def feature_names(self) -> list[str]:
        """One name per value of the vector (``hand[AH]``, ``trump[S]``, ...)."""
        return feature_names(self.rules, self.features)

    def _played(self, state: GameState) -> int:
        """The cards of the finished tricks of the hand, kept from call to call."""
        sid, hand_no, ntricks, mask = self._played_cache
        tricks = state.tricks
        if sid != id(state) or hand_no != state.hand_no or ntricks > len(tricks):
            ntricks, mask = 0, 0
        for k in range(ntricks, len(tricks)):
            for card in tricks[k][1]:
                mask |= 1 << card
        self._played_cache = (id(state), state.hand_no, len(tricks), mask)
        return mask

    def vector(self, state: GameState, seat: int) -> npt.NDArray[np.float32]:
        """The observation vector of ``seat``."""
        r = self.rules
        n, c = r.nseats, r.ncards
        hands = state.hands
        bits = hands[seat]
        at = c
        open_hands = self.open_hands
        known = state.known
        for k in range(1, n):
            s = seat + k
            if s >= n:
                s -= n
            bits |= (hands[s] if open_hands else known[s] & hands[s]) << at
            at += c
        played = self._played(state)
        for card in state.trick_cards:
            bits |= 1 << (at + card)
            played |= 1 << card
            at += c
        bits |= played << self._o_played
        turn_up = state.turn_up
        bits |= 1 << (self._o_turn_up + (c if turn_up is None else turn_up))
        trump = state.trump
        bits |= 1 << (self._o_trump + (self._nsuits if trump < 0 else trump))
        phase = state.phase
        bits |= self._phase_bit[phase]
        to_act = state.to_act
        bits |= 1 << (self._o_to_act + (n if to_act is None else (to_act - seat) % n))
        if phase != Phase.DEAL and phase != Phase.OVER:
            bits |= 1 << (self._o_leader + (state.leader - seat) % n)
        if state.declared:
            base, nsuits = self._o_declared, self._nsuits
            for _, kind, suit, _ in state.declared:
                if kind >= 0:
                    bits |= 1 << (base + kind * nsuits + suit)
        out: npt.NDArray[np.float32] = _BITS[np.frombuffer(
            bits.to_bytes(self._nbytes, "little"), np.uint8)].reshape(-1)[:self.size]
        at = self._o_sizes
        out[at:at + n] = [hands[(seat + k) % n].bit_count() / c for k in range(n)]
        out[self._o_stock] = len(state.stock) / c
        teams = len(r.teams)
        mine = r.team_of[seat]
        pack = r.pack_points or 1
        target = r.match_target or 1
        standing = state.standing()
        at = self._o_points
        for k in range(teams):
            team = (mine + k) % teams
            out[at + k] = state.hand_points(team) / pack
            out[at + teams + k] = standing[team] / target
        return out


class InfoStateEncoder:
    """Perfect-recall information-state tensors: one seat's whole history of one hand.

    The tensor is the seat's :class:`Encoder` vector when the hand was dealt (its cards,
    the turned-up card, the standing), followed by one slot per decision of the hand in
    the order they were taken, each slot holding who acted (counted from the observer;
    an extra place marks an empty slot), which action id, and the cards that became known
    to the seat by it (drawn from the stock, shown, passed). Two histories that differ in
    anything the seat saw give different tensors; two that differ only in what it could
    not see give equal ones. Layout: :attr:`features`.

    >>> from mariage import load_rules
    >>> enc = InfoStateEncoder(load_rules("schnapsen"))
    >>> enc.slots, [f.name for f in enc.features][-3:]
    (44, ['slot_43_actor', 'slot_43_action', 'slot_43_learned'])
    """

    def __init__(self, rules: Rules, space: ActionSpace | None = None) -> None:
        self.rules = rules
        self.space = space or ActionSpace(rules)
        self.start = Encoder(rules)
        self.slots = decision_bound(rules)
        self.features: tuple[Feature, ...] = info_state_features(rules, self.space.size)
        self.slot_size = (rules.nseats + 1) + self.space.size + rules.ncards
        self.size = self.start.size + self.slots * self.slot_size

    def tensor(self, dealt: npt.NDArray[np.float32],
               steps: list[tuple[int, int, int]], seat: int) -> npt.NDArray[np.float32]:
        """The tensor of ``seat`` from its vector at the deal and the hand's decisions.

        ``steps`` holds ``(actor, action id, cards the seat learned)`` per decision; an
        action id of -1 is an action the seat saw made but not what it was (cards passed
        within the other side), which leaves the slot's action part empty.
        """
        if len(steps) > self.slots:
            raise ValueError(f"{len(steps)} decisions in one hand: more than the "
                             f"{self.slots} slots of the information-state tensor")
        n = self.rules.nseats
        out = np.zeros(self.size, np.float32)
        out[:self.start.size] = dealt
        at = self.start.size
        empty = np.zeros(self.slot_size, np.float32)
        empty[n] = 1.0
        out[at:].reshape(self.slots, self.slot_size)[len(steps):] = empty
        c_off = n + 1 + self.space.size
        for actor, action_id, learned in steps:
            out[at + (actor - seat) % n] = 1.0
            if action_id >= 0:
                out[at + n + 1 + action_id] = 1.0
            while learned:
                low = learned & -learned
                out[at + c_off + low.bit_length() - 1] = 1.0
                learned ^= low
            at += self.slot_size
        return out
