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

Where sets of several cards are passed, a set is picked one card per decision
(:class:`~mariage.ai.layout.Pick`): the environment keeps the cards picked so far and
hands :meth:`ActionSpace.play` and the masks that int of bits; the engine gets the
whole set as one ``Give`` when its last card is picked.

>>> rules = load_rules("marjapussi-de")
>>> space = ActionSpace(rules)
>>> space.size, space.pick_size
(210, 4)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import numpy as np
import numpy.typing as npt

from mariage.engine.actions import Action, Give, Play
from mariage.engine.dispatch import phase_windows_of, play_split_of
from mariage.engine.fastpath import PlaySplit
from mariage.engine.mechanisms.passing import CardSets
from mariage.engine.phase import Phase
from mariage.engine.rules import Rules
from mariage.engine.state import GameState

from .actionids import ObjectIds
from .layout import (
    AIAction,
    Bidding,
    Feature,
    Pick,
    action_text_of,
    bidding_of,
    decision_bound,
    feature_names,
    has_bidding,
    info_state_features,
    observation_features,
    pick_size,
    slot_drew,
    with_pick,
)
from .legalinfo import mask_of
from .listed import PhaseWindows, WindowMasks, mask_maker
from .numbering import action_number, episode_limit
from .numbering import id_lister as _id_lister
from .numbering import numbering as _numbering
from .sayings import has_sayings, said_reader
from .vectorcode import vector_functions

__all__ = ["ActionSpace", "Encoder", "Feature", "InfoStateEncoder", "Pick", "Snapshot",
           "WindowMasks", "action_number", "episode_limit"]


_PHASES = tuple(Phase)
# the phases compared on every step, as module constants (an enum's attribute is slow)
_DEAL, _OVER, _PASSING, _PLAY = Phase.DEAL, Phase.OVER, Phase.PASSING, Phase.PLAY
# np.zeros with its dtype made once (69 against 114 ns a mask)
_zeros, _INT8 = np.zeros, np.dtype(np.int8)
# a mask's array over its bytes: ndarray(size, int8, bytes) is the array frombuffer
# makes (int8, writeable, the bytearray's memory), 60-100 ns sooner (it takes the
# buffer without making a memoryview of it first)
_over = np.ndarray

#: what an observation vector is made from (:meth:`Encoder.snapshot`): hands, known
#: cards, the trick, the finished tricks, turn-up, trump, phase, seat to act, leader,
#: stock size, card points and declared points per side (a side's points in the hand are
#: their sum, as :meth:`GameState.hand_points` counts them), standing per side,
#: declarations, the auction's present (:func:`bidding_of`; None where the rules have no
#: bidding), what was said (:func:`~mariage.ai.sayings.said_reader`'s bits), cards picked
Snapshot = tuple[list[int], list[int], list[int], list[tuple[int, tuple[int, ...], int]],
                 int | None, int, Phase, int | None, int, int, list[int], list[int],
                 tuple[int, ...], list[tuple[int, int, int, int]], Bidding | None, int, int]


#: what an ActionSpace makes again when unpickled (ActionSpace._derive)
_DERIVED = frozenset({"ids", "_ids", "_card_ids", "_pick_ids", "_pick_mask", "_give_ids",
                      "_cards_sorted", "_mask_bytes", "_split_mech", "_split", "_by_object",
                      "_kept_alive", "_kept_ids", "_listed", "_kept_bound", "_singles",
                      "windows"})
#: how many action objects an ActionSpace keeps the ids of at a time (ObjectIds)
_KEPT_OBJECTS = 4096


class ActionSpace(ObjectIds):
    """The fixed numbering of every action of ``rules``: :attr:`ids` (the id of each
    action) is read only, the numbering's own (:func:`~mariage.ai.numbering.numbering`),
    as every space of the rules reads it and keeps the listings seen in a store of the
    numbering (a change to it would give other environments wrong ids).

    Where passing is factored (:attr:`pick_size` > 0), ids :attr:`pick_base` to
    ``pick_base + ncards - 1`` pick one card each of the set being passed; ``picked``
    (the bits of the cards picked so far of an unfinished set, 0 for none) is what an
    environment keeps between those decisions and hands to :meth:`mask`,
    :meth:`legal_ids` and :meth:`play`.

    >>> from mariage import GameState, load_rules
    >>> from mariage.engine.actiontext import parse_action
    >>> from mariage.engine.deals import canonical_deck
    >>> rules = load_rules("marjapussi-de")
    >>> space = ActionSpace(rules)
    >>> state = GameState(rules, first_dealer=3)
    >>> state.deal(canonical_deck(rules))
    >>> for text in ("bid:120", "pass", "pass", "pass"):
    ...     state.apply(parse_action(rules, text))
    >>> giver = state.to_act
    >>> picked = space.play(state, space.legal_ids(state)[0])
    >>> len(space.legal_ids(state, picked=picked)), state.hands[giver].bit_count()
    (8, 9)
    >>> for i in space.legal_ids(state, picked=picked)[:3]:
    ...     picked = space.play(state, i, picked)
    >>> picked, state.pass_step, state.hands[giver].bit_count()
    (0, 1, 5)
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        shared = _numbering(rules)
        self.actions: tuple[AIAction, ...] = shared.actions
        self.size = len(self.actions)
        #: the largest set passed one card per decision (0: passing is not factored)
        self.pick_size = pick_size(rules)
        #: the id of picking card 0 (-1 where passing is not factored)
        self.pick_base = shared.ids.get(Pick(0), -1)
        # per card, the id of playing it: a card play's id without hashing the action
        # (every card can be played, so every card has one)
        self._play_ids = [shared.ids[Play(c)] for c in range(rules.ncards)]
        # in the play phase, the ids of the cards that may be played straight from the
        # engine's bits (engine.dispatch.play_split_of, by generated code): no action
        # object, no lookup per card; in card order, so sorted where the ids are
        self._derive()
        # the other actions' ids without their hash (mariage.ai.actionids)
        self._start_ids(shared.by_class)

    def _derive(self) -> None:
        """Set what the space takes from the numbering of its rules, shared by the
        numbering's spaces, and its generated functions (not pickled: made again)."""
        shared = _numbering(self.rules)
        #: the id of each action, read only: the numbering's dict, shared by its spaces
        #: (and the store of the listings seen, filled from it), never to be changed
        self.ids: Mapping[AIAction, int] = MappingProxyType(shared.ids)
        self._ids = shared.ids
        plays = self._play_ids
        self._card_ids = _id_lister(tuple(plays))
        # the ids of the sets of cards passed, by their cards (a CardSets listing's ids
        # without making its actions; none where passing is factored)
        self._give_ids = {a.cards: i for i, a in enumerate(self.actions) if type(a) is Give}
        # the ids of picking each card of a bit mask (factored passing), by the same tables
        self._pick_ids = _id_lister(tuple(range(self.pick_base,
                                                self.pick_base + self.rules.ncards))) \
            if self.pick_size else None
        self._cards_sorted = plays == sorted(plays)
        # the bytes of a mask of the picks of a bit mask of cards (factored passing)
        self._pick_mask = mask_maker(self.pick_base, self.rules.ncards, self.size) \
            if self.pick_size else None
        # where the cards' ids follow one another (every bundled ruleset), the mask's
        # bytes are made from the bits at once (see mask_maker)
        ncards = self.rules.ncards
        self._mask_bytes = (mask_maker(plays[0], ncards, self.size)
                            if plays == list(range(plays[0], plays[0] + ncards)) else None)
        # where every set passed is one card (passing not factored) and the ids of giving
        # each card follow one another: the bytes of the mask of giving any card of a
        # hand at once (the engine lists every card of it: CardSets)
        gives = [self._give_ids.get(1 << c, -1) for c in range(ncards)]
        self._singles = (mask_maker(gives[0], ncards, self.size)
                         if self.rules.passing_steps and gives[0] >= 0
                         and all(n == 1 for _, _, n in self.rules.passing_steps)
                         and gives == list(range(gives[0], gives[0] + ncards)) else None)
        # the engine's listing of the play phase (by the state's mechanisms, kept for
        # the last ones seen: an environment's states all have the same)
        self._split_mech: object = None
        self._split: PlaySplit | None = None
        #: the legal ids of the phases listed as a window of a ladder (an auction's),
        #: asked first outside the play phase by mask(), listed_ids() and the
        #: environments (with the windows' masks and ids kept: the space's own)
        self.windows = PhaseWindows(self.phase_windows)
        self._keep_none(_KEPT_OBJECTS, shared.listed)

    def __getstate__(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items() if k not in _DERIVED}

    def __setstate__(self, saved: dict[str, object]) -> None:
        self.__dict__.update(saved)
        self._derive()

    def __deepcopy__(self, memo: dict[int, Any]) -> ActionSpace:
        """A deep copy is the space itself: it never changes once made (pyspiel's
        ``clone()`` deep-copies every attribute of a state, this one included)."""
        return self

    def _play_split(self, state: GameState) -> PlaySplit:
        """The engine's split listing of the play phase for ``state``'s mechanisms."""
        split = self._split
        if split is None or state.mech is not self._split_mech:
            split = self._split = play_split_of(state.mech, self.rules)
            self._split_mech = state.mech
        return split

    def phase_windows(self, state: GameState) -> dict[Phase, WindowMasks]:
        """Per phase whose legal actions are a window of a ladder under ``state``'s
        mechanisms (:func:`~mariage.engine.dispatch.phase_windows_of`: an auction's),
        the :data:`~mariage.ai.listed.WindowMasks` to make its masks from, with an
        empty store of their bytes (an environment keeps it); the ladder's ids are those
        of the whole ladder as a listing (an auction's first: kept in the numbering's
        store, so looked up once for its environments)."""
        return {Phase(phase): (window, {}, self._listed.get([*ladder], self._ids_at_once)[1],
                               self.size)
                for phase, (ladder, window) in phase_windows_of(state.mech, self.rules).items()}

    def id(self, action: AIAction) -> int:
        """The id of ``action`` (``KeyError`` if the ruleset has no such action, as a
        set of cards to pass where passing is factored: see :meth:`action_ids`)."""
        return self._ids[action]

    def action_ids(self, action: Action) -> list[int]:
        """The ids that make the engine's ``action``: one id, or the picks of a set's
        cards in card order where passing is factored."""
        if self.pick_size and type(action) is Give:
            base = self.pick_base
            return [base + c for c in self.rules.cards_of(action.cards)]
        return [self._ids[action]]

    def action(self, action_id: int) -> AIAction:
        """The action of ``action_id``."""
        return self.actions[action_id]

    def text(self, action_id: int) -> str:
        """The canonical text of the action of ``action_id``."""
        return action_text_of(self.rules, self.actions[action_id])

    def _picking(self, state: GameState) -> bool:
        """Whether the seat to act now passes a set one card per decision."""
        return bool(self.pick_size) and state.phase == _PASSING and state.pass_step >= 0

    def set_listing(self, state: GameState) -> Sequence[Action] | None:
        """The engine's listing of the seat to act where it passes a set one card per
        decision, else None: an environment keeps it, for the ``listing`` of
        :meth:`legal_ids`, :meth:`mask` and :meth:`pick_legal`, until the set is complete
        (the state does not change between its picks)."""
        return state.legal_actions() if self._picking(state) else None

    def legal_ids(self, state: GameState, seat: int | None = None, picked: int = 0,
                  listing: Sequence[Action] | None = None) -> list[int]:
        """The ids of the legal actions of ``seat`` (default: the seat to act), sorted;
        ``picked``: the cards picked so far of the set being passed; ``listing``: while
        they are picked, the engine's listing for the seat (``state.legal_actions()``),
        where the caller kept it from the set's first pick (the state does not change
        between the picks of a set)."""
        phase = state.phase
        if phase == _PLAY and (seat is None or seat == state.to_act):
            return self.play_ids(state)
        if phase == _PASSING and self.pick_size and state.pass_step >= 0:  # (picking)
            head, cards = self._pick_options(state, seat, picked, listing)
            assert self._pick_ids is not None
            out = self._pick_ids(cards)  # (in card order: the ids follow one another)
            if head:
                out += head
                out.sort()
            return out
        return self.listed_ids(state, seat)

    def listed_ids(self, state: GameState, seat: int | None = None) -> list[int]:
        """:meth:`legal_ids` where no set is picked (as the play phase's, from the
        engine's listing, without :meth:`legal_ids`'s tests of the phase).

        >>> from mariage import load_rules, new_match
        >>> state = new_match(load_rules("thousand"), 1)  # (an auction first)
        >>> space = ActionSpace(state.rules)
        >>> space.listed_ids(state) == space.legal_ids(state) != []
        True
        """
        to_act, windows = state.to_act, self.windows
        # (a window is the legal ids of the seat to act; none asked where no phase has one)
        if (seat is None or seat == to_act) and (windows.phases or state.mech is not windows.mech):
            ids = windows.legal_ids(state, to_act)  # type: ignore[arg-type]
            if ids is not None:  # an auction's bids, an answer: no listing made
                return ids
        listing = state.legal_actions(seat)
        if type(listing) is list:
            listed = self._kept_listing(listing)
            if listed is not None:  # (its ids sorted, kept)
                return listed[2][:]
            out = self._each_id(listing)
        else:
            out = self._other_ids(listing)
        out.sort()
        return out

    def play_ids(self, state: GameState) -> list[int]:
        """:meth:`legal_ids` of the seat to act in the play phase: the cards' ids from
        the engine's bits, the others by their class or object, or hash (see __init__)."""
        split = self._split
        if split is None or state.mech is not self._split_mech:
            split = self._play_split(state)
        cards, others = split(state, state.to_act)  # type: ignore[arg-type]
        ids = self._card_ids(cards)
        if others:
            ids += self._other_ids(others)
            ids.sort()
        elif not self._cards_sorted:
            ids.sort()
        return ids

    def pick_legal(self, state: GameState, card: int, picked: int = 0,
                   listing: Sequence[Action] | None = None) -> bool:
        """Whether the seat to act may pick ``card`` now, with the cards ``picked`` so
        far: a set is being passed one card per decision and some legal set holds them
        all (as :meth:`legal_ids` has it, without listing every id; ``listing`` as
        there)."""
        if not self._picking(state) or picked >> card & 1:
            return False
        legal = state.legal_actions() if listing is None else listing
        if type(legal) is CardSets:  # every set of the step's size from the hand
            return bool(state.hands[state.to_act] >> card & 1)  # type: ignore[index]
        need = picked | 1 << card
        return any(type(a) is Give and a.cards & need == need for a in legal)

    def _pick_options(self, state: GameState, seat: int | None, picked: int,
                      listing: Sequence[Action] | None) -> tuple[list[int], int]:
        """While a set is passed: the ids of the other legal actions (before the first
        pick) and the cards that, with those picked, can still complete a legal set
        (``listing`` as in :meth:`legal_ids`)."""
        legal = state.legal_actions(seat) if listing is None else listing
        head: list[int] = []
        allowed = 0
        if type(legal) is CardSets:  # every set of the step's size from the hand
            who = state.to_act if seat is None else seat
            assert who is not None
            allowed = state.hands[who]
            if not picked and legal.head:  # the actions offered before the sets (a concession)
                head = [self._action_id(a) for a in legal.head]
        else:
            for a in legal:
                if type(a) is Give:
                    if a.cards & picked == picked:
                        allowed |= a.cards
                elif not picked:
                    head.append(self._action_id(a))
        return head, allowed & ~picked

    def mask(self, state: GameState, seat: int | None = None, picked: int = 0,
             listing: Sequence[Action] | None = None) -> npt.NDArray[np.int8]:
        """1 for each legal action id of ``seat`` (default: the seat to act), else 0;
        ``picked`` and ``listing`` as in :meth:`legal_ids`."""
        phase = state.phase
        if phase == _PLAY and (seat is None or seat == state.to_act):
            # the cards' ids from the engine's bits (see legal_ids)
            split = self._split
            if split is None or state.mech is not self._split_mech:
                split = self._play_split(state)
            cards, others = split(state, state.to_act)  # type: ignore[arg-type]
            made = self._mask_bytes
            if made is not None:  # the bytes at once, the other actions set in them
                listed = made(cards)
                if others:
                    for i in self._other_ids(others):
                        listed[i] = 1
                return _over(self.size, _INT8, listed)
            ids = self._card_ids(cards)
            if others:
                ids += self._other_ids(others)
            return mask_of(ids, self.size)
        if phase == _DEAL or phase == _OVER:  # noqa: SIM109 - no tuple built per call
            return _zeros(self.size, _INT8)
        if phase == _PASSING and self.pick_size and state.pass_step >= 0:  # (picking)
            head, cards = self._pick_options(state, seat, picked, listing)
            assert self._pick_mask is not None
            picks = self._pick_mask(cards)  # the picks' bytes at once
            for i in head:
                picks[i] = 1
            return _over(self.size, _INT8, picks)
        to_act, windows = state.to_act, self.windows
        # (a window is the legal ids of the seat to act; none asked where no phase has one)
        if (seat is None or seat == to_act) and (windows.phases or state.mech is not windows.mech):
            kept = windows.legal_bytes(state, to_act)  # type: ignore[arg-type]
            if kept is not None:  # an auction's bids, an answer: no listing made
                return _over(self.size, _INT8, bytearray(kept))
        return self.listed_mask(state, state.legal_actions(seat), seat)

    def listed_mask(self, state: GameState, listing: Sequence[Action],
                    seat: int | None = None) -> npt.NDArray[np.int8]:
        """:meth:`mask` from the engine's ``listing`` for ``seat`` (default: the seat to
        act), where no set is picked one card at a time: a list's mask kept by its
        objects (:class:`~mariage.ai.listed.KeptListings`: a listing of the same objects
        again, as an auction's pass and bids, a contract's raises, a talon's packets,
        looks none up), a card passed from the hand from its bits."""
        if type(listing) is list:
            if listing:  # (a copy of the one kept: the caller's own)
                return self._listed.mask(listing, self._ids_at_once, self._by_class,
                                         self._made_anew)
            ids = []
        elif type(listing) is CardSets and self._singles is not None:
            # one card each from the hand (passing not factored): the bytes at once
            listed = self._singles(
                state.hands[state.to_act if seat is None else seat])  # type: ignore[index]
            for a in listing.head:  # (a concession)
                listed[self._action_id(a)] = 1
            return _over(self.size, _INT8, listed)
        else:
            ids = self._other_ids(listing)
        return mask_of(ids, self.size)  # (set id by id: no array made from a list)

    def decide(self, state: GameState, choose: Callable[[npt.NDArray[np.int8], int], int]
               ) -> Action:
        """The engine action that ``choose(mask, picked)`` makes for the seat to act,
        asked once, or once per card of a set passed one pick at a time; ``state`` is
        not changed. This turns an agent of ids into a policy for the engine (a bot of
        ``mariage match``). ``ValueError`` for an id the mask refuses.

        >>> from mariage import load_rules, new_match
        >>> state = new_match(load_rules("schnapsen"), 1)
        >>> space = ActionSpace(state.rules)
        >>> action = space.decide(state, lambda mask, picked: int(mask.argmax()))
        >>> action in state.legal_actions(), space.action_ids(action) == [space.legal_ids(state)[0]]
        (True, True)
        """
        picked = 0
        while True:
            mask = self.mask(state, picked=picked)
            action_id = choose(mask, picked)
            if not 0 <= action_id < self.size or not mask[action_id]:
                raise ValueError(f"action {action_id} is not legal now")
            action = self.actions[action_id]
            if not isinstance(action, Pick):
                return action
            picked, complete = with_pick(state, action.card, picked)
            if complete is not None:
                return complete

    def play(self, state: GameState, action_id: int, picked: int = 0) -> int:
        """Apply the action of ``action_id`` to ``state``, or add a pick to ``picked``;
        return the cards picked so far of an unfinished set (0 once the set, or any
        other action, went to the engine). The caller checks legality by the mask."""
        action, picked = self.action_of(state, action_id, picked)
        if action is None:
            return picked
        state.apply(action)
        return 0

    def action_of(self, state: GameState, action_id: int, picked: int = 0
                  ) -> tuple[Action | None, int]:
        """The engine action that :meth:`play` applies for ``action_id`` (``None`` for a
        pick before a set's last card) and the cards picked so far of the set (those
        with a pick, ``picked`` otherwise); nothing applied."""
        action = self.actions[action_id]
        if isinstance(action, Pick):
            picked, complete = with_pick(state, action.card, picked)
            return complete, picked
        return action, picked


class Encoder:
    """Observation vectors (float32) of one seat's view of a state of ``rules``.

    The parts, in order, are :attr:`features` (name, offset, size, meaning); seats are
    counted from the observer (0 = itself). Every one-hot part is set from one big bit
    mask unpacked at once, by a function written for the observing seat
    (:mod:`mariage.ai.vectorcode`), so a vector costs about one decision of the engine
    whatever the ruleset. A vector is a new array each time (one kept is never changed).
    The vector is the hand as it stands, as :func:`mariage.observe` shows it to the seat
    (with the auction as it stands where the rules bid for a contract), not the order
    of what happened: that is the information state's (:class:`InfoStateEncoder`).

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
        feats = observation_features(rules)
        self.features: tuple[Feature, ...] = feats
        self.size = sum(f.size for f in feats)
        #: the rules bid for a contract: the vector shows the auction (bidding_of)
        self.bidding = has_bidding(rules)
        self._derive()

    def _derive(self) -> None:
        """Set the generated functions, one per observing seat (not pickled: made again;
        :mod:`mariage.ai.vectorcode`)."""
        self._vectors = vector_functions(self.rules, self.open_hands)
        #: where the rules have things to say, the function reading what was said in a
        #: state (:func:`~mariage.ai.sayings.said_reader`), else None
        self.said = said_reader(self.rules) if has_sayings(self.rules) else None

    def __getstate__(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items() if k not in ("_vectors", "said")}

    def __setstate__(self, saved: dict[str, object]) -> None:
        self.__dict__.update(saved)
        self._derive()

    def feature_names(self) -> list[str]:
        """One name per value of the vector (``hand[AH]``, ``trump[S]``, ...)."""
        return feature_names(self.rules, self.features)

    def vector(self, state: GameState, seat: int, picked: int = 0,
               standing: tuple[int, ...] | None = None) -> npt.NDArray[np.float32]:
        """The observation vector of ``seat``; ``picked``: the cards the seat to act
        picked so far of the set it passes (factored passing), seen by that seat only
        (and in the open-handed global state); ``standing``: ``state.standing()``, where
        the caller has it (asked of the state otherwise)."""
        # what snapshot() holds, but the state's own lists: read at once, not kept
        said = self.said
        return self._vectors[seat](  # type: ignore[no-any-return]
            state.hands, state.known, state.trick_cards, state.tricks, state.turn_up,
            state.trump, state.phase, state.to_act, state.leader, len(state.stock),
            state.captured, state.decl_points,
            state.standing() if standing is None else standing, state.declared,
            bidding_of(state) if self.bidding else None,
            said(state.actions, state.pair_by, state.trump, state.pairs_said)
            if said else 0, picked)

    def snapshot(self, state: GameState, picked: int = 0) -> Snapshot:
        """What the vectors of ``state`` are made from, copied (the state may change
        after): :meth:`vector_of` makes any seat's vector from it later.

        >>> from mariage import load_rules, new_match
        >>> state = new_match(load_rules("schnapsen"), 1)
        >>> enc = Encoder(state.rules)
        >>> taken = enc.snapshot(state)
        >>> before = enc.vector(state, 0)
        >>> state.apply(state.legal_actions()[0])
        >>> bool((enc.vector_of(taken, 0) == before).all())
        True
        """
        # ([*x]: a list copied without a slice object made, as x[:] makes one)
        return ([*state.hands], [*state.known], [*state.trick_cards], [*state.tricks],
                state.turn_up, state.trump, state.phase, state.to_act, state.leader,
                len(state.stock), [*state.captured], [*state.decl_points],
                state.standing(), [*state.declared],
                bidding_of(state) if self.bidding else None,
                self.said(state.actions, state.pair_by, state.trump, state.pairs_said)
                if self.said else 0, picked)

    def vector_of(self, snapshot: Snapshot, seat: int, picked: int | None = None
                  ) -> npt.NDArray[np.float32]:
        """The observation vector of ``seat`` from a :meth:`snapshot` of a state;
        ``picked``: the cards picked so far of the set being passed, where they are not
        the snapshot's (a pick before a set's last card changes nothing else)."""
        if picked is None or picked == snapshot[-1]:
            return self._vectors[seat](*snapshot)  # type: ignore[no-any-return]
        return self._vectors[seat](*snapshot[:-1], picked)  # type: ignore[no-any-return]


class InfoStateEncoder:
    """Perfect-recall information-state tensors: one seat's whole history of one hand.

    The tensor is the seat's :class:`Encoder` vector when the hand was dealt (its cards,
    the turned-up card, the standing), followed by one slot per decision of the hand in
    the order they were taken, each slot holding who acted (counted from the observer;
    an extra place marks an empty slot), which action id, and the cards that became known
    to the seat by it (drawn from the stock, shown, passed), where the hands lie open
    also which of them it drew (:func:`~mariage.ai.layout.slot_drew`). Two histories
    that differ in anything the seat saw give different tensors; two that differ only in
    what it could not see give equal ones. Layout: :attr:`features`.

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
        #: the cards of a step's draws kept (its slot's part of them follows the learned)
        self.drew_kept = rules.full_mask if slot_drew(rules) else 0
        self.slot_size = (rules.nseats + 1) + self.space.size + rules.ncards * (
            2 if self.drew_kept else 1)
        self.size = self.start.size + self.slots * self.slot_size

    def feature_names(self) -> list[str]:
        """One name per value of the tensor (``dealt_hand[AH]``, ``slot_0_action[AH]``,
        ``slot_0_learned[AH]``, ...), as :meth:`Encoder.feature_names` names the
        observation's.

        >>> from mariage import load_rules
        >>> enc = InfoStateEncoder(load_rules("schnapsen"))
        >>> names = enc.feature_names()
        >>> len(names) == enc.size, names[0], names[-1]
        (True, 'dealt_hand[AH]', 'slot_43_learned[JS]')
        """
        return feature_names(self.rules, self.features)

    def tensor(self, dealt: npt.NDArray[np.float32],
               steps: list[tuple[int, int, int, int]], seat: int) -> npt.NDArray[np.float32]:
        """The tensor of ``seat`` from its vector at the deal and the hand's decisions.

        ``steps`` holds ``(actor, action id, cards the seat learned, cards it drew)`` per
        decision (the cards drawn written only where slots have a part for them); an
        action id of -1 is an action the seat saw made but not what it was (cards passed
        within the other side, a card another seat picked for a set it passes), which
        leaves the slot's action part empty.
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
        c_off, kept, c = n + 1 + self.space.size, self.drew_kept, self.rules.ncards
        for actor, action_id, learned, drew in steps:
            out[at + (actor - seat) % n] = 1.0
            if action_id >= 0:
                out[at + n + 1 + action_id] = 1.0
            cards = learned | (drew & kept) << c  # (the cards drawn: places c further)
            while cards:
                low = cards & -cards
                out[at + c_off + low.bit_length() - 1] = 1.0
                cards ^= low
            at += self.slot_size
        return out
