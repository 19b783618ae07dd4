"""Hidden cards on the engine's side: one seat's view of a hand, kept as a full guess.

Under protocol version 2 a ``start`` or ``deal`` may name the engine's own
``seat`` and show ``??`` for the cards that seat cannot see. The reference
engine then plays on a *guess*: a full deal consistent with everything the
seat has been told (its own cards, the turned-up card, the public actions and
the ``reveal`` of each ``apply``), replayed through the hand so far.

* An action of the engine's own seat is checked against the guess exactly as
  in a full deal: its legality depends only on what the seat knows.
* An action of another seat that the guess refuses (a card the guess placed
  elsewhere, a duty the guessed hand would break), or a ``reveal`` that the
  guess contradicts, makes the engine deal again: :func:`complete_deal`
  searches a deal in which every action so far is legal and every revealed
  card is where it was seen, choosing too what each pass the seat did not see
  (``give:?``) carried: a talon card shown, then given away or laid aside face
  down, is placed so. Should the search fail within its limit, the guess is
  mended in place (hidden cards exchanged until the action is legal), and
  should that fail, a last, longer search is made, so that an action legal in
  some consistent deal is not refused.

:class:`HiddenHand` holds one hand of this; :func:`parse_hidden_deck` and
:func:`parse_reveal` read the protocol's fields.

>>> from mariage import load_rules, GameState, parse_action
>>> rules = load_rules("marianna")
>>> st = GameState(rules, first_dealer=0)
>>> deck = [rules.card_code[c] for c in range(40)]
>>> masked = [c if 5 <= i < 10 else "??" for i, c in enumerate(deck)]  # seat 2 sees its own
>>> hand = HiddenHand(st, 2, parse_hidden_deck(rules, masked), None)
>>> rules.format_cards(hand.state.hands[2])
'7H 6H 5H 4H 2H'
>>> hand.apply(1, parse_action(rules, "AD"))   # seat 1 plays a card the guess did not give it
>>> rules.card_code[hand.state.trick_cards[0]], hand.redeals
('AD', 1)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from mariage.engine.actions import Action, Exchange, Give, Play
from mariage.engine.arguments import check_rules
from mariage.engine.observation import in_hands_seen, observe
from mariage.engine.rules import Rules
from mariage.engine.state import GameState, Phase, in_turn_only

from ..errors import IllegalActionError
from ..notation.placement import plays_in, unseen_give
from ..notation.search import complete_deal
from .protocol import UNKNOWN_CARD, ProtocolError, state_json

__all__ = ["DEFAULT_SEARCH", "PUBLIC_FIELDS", "HiddenHand", "parse_hidden_deck", "parse_reveal",
           "public_state"]

#: Replays the search of a new consistent deal may use (per search); past it, the
#: guess is mended in place (which needs no search of the hand's past).
DEFAULT_SEARCH = 250

#: Random re-deals of the hidden cards tried when the guess must be mended in place.
MEND_TRIES = 400

#: Replays of the last search, made when the search and the mend both failed, before an
#: action of another seat is refused: a legal action must not be refused for a search
#: cut short (Thousand for four, a talon card the guess had given away: 5,144 replays,
#: a third of a second).
LAST_SEARCH = 50 * DEFAULT_SEARCH

#: The fields of a ``state`` (as sent in an ``apply``) the guess must agree with.
PUBLIC_FIELDS = ("phase", "trick", "leader", "to_act", "trump", "turn_up", "table", "stock",
                 "declared", "tricks_won", "hand_points", "match_scores", "segni",
                 "last_hand", "terminal", "result", "closed_by", "bidding", "placed")

Step = tuple[int, Action]


def parse_hidden_deck(rules: Rules, deck: Any) -> list[int]:
    """The deck of a ``start``/``deal`` with hidden cards: card numbers, ``-1`` for ``??``.

    A deck that is not a list of strings is ``bad_request``; one of the wrong
    length, with an unknown code or a card twice is refused with ``core.deal``.
    """
    check_rules(rules)
    if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
        raise ProtocolError("bad_request", "'deck' must be a list of card codes")
    out = [-1 if c == UNKNOWN_CARD else rules.card_index.get(c, -2) for c in deck]
    known = [c for c in out if c >= 0]
    if len(out) != rules.ncards or -2 in out or len(set(known)) != len(known):
        raise IllegalActionError("core.deal", seat=None, action="deal",
                                 reason=f"a deal must hold the {rules.ncards} places of the "
                                 "pack, each card once or '??'")
    return out


def _seat_key(rules: Rules, key: str) -> int:
    if not key.isdigit() or not key.isascii() or len(key) > 3 or not 0 <= int(key) < rules.nseats:
        raise ProtocolError("bad_request", f"'reveal.hands' keys are seats 0.."
                            f"{rules.nseats - 1}, got {key[:20]!r}")
    return int(key)


def _card(rules: Rules, code: Any) -> int:
    if not isinstance(code, str) or code not in rules.card_index:
        raise ProtocolError("bad_request", f"not a card of the pack: {str(code)[:20]!r}")
    return rules.card_index[code]


def parse_reveal(rules: Rules, reveal: Any) -> tuple[dict[int, int], dict[int, list[int]]]:
    """The ``reveal`` of an ``apply``: ``{"deck": {place: code}, "hands": {seat: [codes]}}``.

    Returns (deck place -> card, seat -> cards); both parts are optional.
    """
    if reveal is None:
        return {}, {}
    if not isinstance(reveal, dict):
        raise ProtocolError("bad_request", "'reveal' must be an object")
    deck = reveal.get("deck") or {}
    hands = reveal.get("hands") or {}
    if not isinstance(deck, dict) or not isinstance(hands, dict):
        raise ProtocolError("bad_request", "'reveal.deck' and 'reveal.hands' must be objects")
    places: dict[int, int] = {}
    for key, code in deck.items():
        if not key.isdigit() or not key.isascii() or len(key) > 3 \
                or not 0 <= int(key) < rules.ncards:
            raise ProtocolError("bad_request", f"'reveal.deck' keys are deck places 0.."
                                f"{rules.ncards - 1}, got {key[:20]!r}")
        places[int(key)] = _card(rules, code)
    held: dict[int, list[int]] = {}
    for key, codes in hands.items():
        if not isinstance(codes, list):
            raise ProtocolError("bad_request", "'reveal.hands' values are lists of card codes")
        held[_seat_key(rules, key)] = [_card(rules, c) for c in codes]
    return places, held


def _deal_places(before: GameState, first: int | None, seat: int) -> tuple[list[int], int]:
    """For each deck place, the seat its card is dealt to (``-1``: the stock or turn-up);
    and the places whose cards ``seat`` sees as the hand is dealt (bit mask): its own
    hand, the turned-up card, the hands the rules lay open (``visibility.open_hands``)."""
    trial = before.clone()
    trial.enable_undo(False)
    trial.deal_source = None
    n = before.rules.ncards
    trial.deal(list(range(n)), first)  # card number = deck place
    owner = [-1] * n
    for s, h in enumerate(trial.hands):
        for p in before.rules.cards_of(h):
            owner[p] = s
    return owner, in_hands_seen(observe(trial, seat))


def _apply(st: GameState, seat: int, action: Action, later: Sequence[Step]) -> None:
    """Apply one step; cards passed unseen (``give:?``) become a choice that fits ``later``."""
    if type(action) is Give and action.cards < 0:
        action = unseen_give(st, seat, plays_in(later))
    st.apply(action, seat)


def _to_act(st: GameState) -> int | None:
    """The ``to_act`` of ``st``'s ``state`` (``None`` outside a hand)."""
    return None if st.phase in (Phase.DEAL, Phase.OVER) else st.to_act


def public_state(st: GameState) -> dict[str, Any]:
    """The fields of ``st``'s ``state`` response that every seat sees alike and that
    hidden cards may steer (who is to act after a close, the trump a question sets...)."""
    full = state_json(st, hands=False)
    return {k: full.get(k) for k in PUBLIC_FIELDS}


def _place(st: GameState, card: int) -> tuple[int, int]:
    """Where ``card`` lies: ``(seat, -1)`` in a hand, ``(-1, i)`` at index ``i`` of the
    stock, ``(-2, i)`` of the stock put aside by a close; ``(-1, -1)``: elsewhere."""
    for s, h in enumerate(st.hands):
        if h >> card & 1:
            return s, -1
    if card in st.stock:
        return -1, st.stock.index(card)
    if card in st.aside:
        return -2, st.aside.index(card)
    return -1, -1


def _move(st: GameState, move: Mapping[int, int]) -> None:
    """Put in the place of each card ``a`` of ``move`` (a hand, the stock, the stock put
    aside) the card ``move[a]``."""
    places = {a: _place(st, a) for a in move}
    for s, _ in places.values():
        if s >= 0:
            st.hands[s] &= ~sum(1 << a for a in move if places[a][0] == s)
    for a, b in move.items():
        s, i = places[a]
        if s >= 0:
            st.hands[s] |= 1 << b
        elif i >= 0:
            (st.stock if s == -1 else st.aside)[i] = b


class HiddenHand:
    """One hand as ``seat`` sees it, played on a full guess (``state``).

    ``before`` is the match state waiting for the deal (not kept changed);
    ``slots`` the deck with ``-1`` for the places ``seat`` cannot see.
    ``redeals`` counts the new deals searched, ``mends`` the guesses mended in place.
    """

    def __init__(self, before: GameState, seat: int, slots: list[int], first: int | None,
                 search: int = DEFAULT_SEARCH) -> None:
        self.rules = before.rules
        self.seat = seat
        self.before = before.clone()
        self.slots = list(slots)
        self.first = first
        self.search = search
        self.owner, seen = _deal_places(before, first, seat)
        if any(o == seat and c < 0 for o, c in zip(self.owner, slots, strict=True)):
            raise IllegalActionError("core.deal", seat=None, action="deal",
                                     reason=f"the deck must show every card dealt to seat "
                                     f"{seat}, the seat it is seen by")
        unshown = [p for p, c in enumerate(slots) if c < 0 and seen >> p & 1]
        if unshown:  # the turned-up card, or a hand the rules lay open
            raise IllegalActionError("core.deal", seat=None, action="deal",
                                     reason=f"the deck must show every card seat {seat} "
                                     f"sees as the hand is dealt (the turned-up card, the "
                                     f"hands laid open): place {unshown[0]} is "
                                     f"{UNKNOWN_CARD}")
        self.acts: list[Step] = []
        self.holds: dict[int, list[tuple[int, int]]] = {}  # step -> (seat, card) held then
        self.publics: dict[int, dict[str, Any]] = {}  # step -> the public state told then
        self.redeals = 0
        self.mends = 0
        self.passed: dict[int, int] = {}  # step -> the cards of a give:? the search chose
        self.rng = random.Random(seat)
        found, _ = complete_deal(self.before, self.slots, self.owner, first, [], limit=1)
        assert found is not None  # with no action yet, the first fill always fits
        self.deck = found
        self.state = self._replay(found, [])

    # -- the guess
    def _replay(self, deck: list[int], acts: Sequence[Step]) -> GameState:
        st = self.before.clone()
        st.deal(deck, self.first)
        for i, (seat, action) in enumerate(acts):
            if type(action) is Give and action.cards < 0 and i in self.passed:
                action = Give(self.passed[i])  # the cards the search passed there
            _apply(st, seat, action, acts[i + 1:])
        return st

    def _verify(self, st: GameState, step: int, trick_done: bool = False) -> bool:
        """Does ``st`` (after ``step`` actions) keep the holds and the state told for it?"""
        told = self.publics.get(step)
        if told is not None:
            if _to_act(st) != told.get("to_act", _to_act(st)):
                return False
            now = public_state(st)
            if any(now[k] != v for k, v in told.items()):
                return False
        return all(st.hands[s] >> c & 1 for s, c in self.holds.get(step, ()))

    def _agrees(self, st: GameState, deck: Sequence[int], step: int) -> bool:
        """Does the guess keep every seen deck place, and what was told for ``step``?"""
        if any(c >= 0 and deck[p] != c for p, c in enumerate(self.slots)):
            return False
        return self._verify(st, step)

    def _pinned(self) -> list[int]:
        """``slots`` with each card seen held by another seat (and not yet placed) put on
        a place dealt to that seat: one deal among those that fit, as any does."""
        slots = list(self.slots)
        placed = {c for c in slots if c >= 0}
        for step in sorted(self.holds):
            for s, c in self.holds[step]:
                if c in placed:
                    continue
                free = [p for p, o in enumerate(self.owner) if o == s and slots[p] < 0]
                if free:
                    slots[free[0]] = c
                    placed.add(c)
        return slots

    def _redeal(self, acts: list[Step], limit: int = 0) -> bool:
        """Search a deal consistent with ``slots``, the holds, the turns and ``acts``
        (within ``limit`` replays per search, else the hand's ``search``)."""
        verify = self._verify if self.holds or self.publics else None
        tries = [self._pinned(), self.slots] if self.holds else [self.slots]
        for slots in tries:
            chosen: dict[int, int] = {}  # what unseen passes carried, where the search chose
            found, _ = complete_deal(self.before, slots, self.owner, self.first, acts,
                                     limit=limit or self.search, verify=verify, chosen=chosen)
            if found is not None:
                self.redeals += 1
                self.passed = chosen
                self.deck, self.state, self.acts = found, self._replay(found, acts), acts
                return True
        # a hand whose search failed once mostly fails again (the search only grows): try
        # less from now on, and mend the guess in place sooner
        self.search = max(25, self.search // 5)
        return False

    def _seen(self, st: GameState) -> set[int]:
        """Cards whose place ``seat`` knows: seen deck places, cards seen held, shown cards."""
        seen = {c for c in self.slots if c >= 0}
        seen.update(c for held in self.holds.values() for _, c in held)
        for h, k in zip(st.hands, st.known, strict=True):
            seen.update(self.rules.cards_of(h & k))
        if st.turn_up is not None:
            seen.add(st.turn_up)
        return seen

    def _hidden(self, st: GameState, movable: int = -1) -> list[int]:
        """The cards of the guess ``seat`` cannot place (others' hands, the stock, a
        stock put aside), and ``movable`` if it lies in one of those places."""
        seen = self._seen(st) - {movable}
        out: list[int] = []
        if not self.rules.open_hands:
            for s, h in enumerate(st.hands):
                if s != self.seat:
                    out += [c for c in self.rules.cards_of(h) if c not in seen]
        return out + [c for c in (*st.stock, *st.aside) if c not in seen]

    def _fix(self, st: GameState, step: int) -> bool:
        """Exchange hidden cards until the guess keeps every seen deck place and the
        holds of ``step`` and ``step + 1`` (cards seen held just after an action were
        held before it); the guess may then no longer explain the hand's past."""
        for p, c in enumerate(self.slots):
            g = self.deck[p]
            if c >= 0 and g != c:
                if c not in self._hidden(st, c) or _place(st, g) == (-1, -1):
                    return False
                self._adopt(st, {c: g, g: c})
        for s, c in (*self.holds.get(step, ()), *self.holds.get(step + 1, ())):
            if st.hands[s] >> c & 1:
                continue
            mine = [y for y in self._hidden(st) if st.hands[s] >> y & 1]
            if not mine or c not in self._hidden(st, c):
                return False
            self._adopt(st, {c: mine[0], mine[0]: c})
        return True

    def _mend(self, seat: int, action: Action, step: int) -> bool:
        """Mend the guess in place so that ``action`` is legal and agrees with what was
        told, then take it: first one exchange of two hidden cards, then hidden cards
        dealt again at random (a card played kept in the player's hand), up to
        ``MEND_TRIES`` times."""
        st = self.state.clone()
        if not self._fix(st, step):
            return False
        hidden = self._hidden(st)
        mine = [y for y in hidden if st.hands[seat] >> y & 1]
        others = [y for y in hidden if not st.hands[seat] >> y & 1]
        want = action.card if isinstance(action, (Play, Exchange)) else -1
        pairs = [(want, y) for y in mine] if want in others else \
            [(y, z) for y in mine for z in others]
        moves: list[dict[int, int]] = [{}]
        moves += [{a: b, b: a} for a, b in pairs]
        moves += [self._shuffle(st, seat, want, hidden) for _ in range(MEND_TRIES)]
        for move in moves:
            trial = st.clone()
            _move(trial, move)
            try:
                _apply(trial, seat, action, [])
            except IllegalActionError:
                continue
            if self._verify(trial, step + 1):
                self._adopt(st, move)
                _apply(st, seat, action, [])
                self.state = st
                return True
        return False

    def _shuffle(self, st: GameState, seat: int, want: int, hidden: list[int]
                 ) -> dict[int, int]:
        """A random new place for each hidden card (``want`` into ``seat``'s hand)."""
        new = list(hidden)
        self.rng.shuffle(new)
        if want in new:
            places = [i for i, c in enumerate(hidden) if st.hands[seat] >> c & 1]
            if places:
                j = new.index(want)
                i = self.rng.choice(places)
                new[i], new[j] = new[j], new[i]
        return {a: b for a, b in zip(hidden, new, strict=True) if a != b}

    def _adopt(self, st: GameState, move: dict[int, int]) -> None:
        """Carry out ``move`` (card -> the card that takes its place) on the guess and deck."""
        if not move:
            return
        _move(st, move)
        self.deck = [move.get(c, c) for c in self.deck]
        self.mends += 1

    # -- what the engine is told
    def apply(self, seat: int, action: Action, deck: Mapping[int, int] | None = None,
              hands: Mapping[int, Sequence[int]] | None = None,
              public: dict[str, Any] | None = None) -> None:
        """``seat`` took ``action``; ``deck`` and ``hands`` are what it revealed to our
        seat, ``public`` the state after it as our seat sees it (a ``state`` response:
        only the fields of :func:`public_state` are compared), where told.

        Raises :class:`IllegalActionError` (the state unchanged) for an action of our
        own seat that is not legal, or one of another seat that no deal explains, and
        :class:`ProtocolError` for a reveal that contradicts what was seen.
        """
        if type(action) is Give and action.cards < 0 and seat == self.seat:
            raise ProtocolError("bad_request", "'give:?' is for the cards of another side")
        step = len(self.acts)
        saved = (list(self.slots), {k: list(v) for k, v in self.holds.items()},
                 dict(self.publics), list(self.deck))
        try:
            for p, c in (deck or {}).items():
                if (c in self.slots and self.slots.index(c) != p) or 0 <= self.slots[p] != c:
                    raise ProtocolError("bad_request", f"'reveal' puts "
                                        f"{self.rules.card_code[c]} where another card was seen")
                self.slots[p] = c
            if type(action) is Give and action.cards >= 0 and seat != self.seat:
                self.holds.setdefault(step, []).extend(
                    (seat, c) for c in self.rules.cards_of(action.cards))
            for s, cards in (hands or {}).items():
                self.holds.setdefault(step + 1, []).extend((s, c) for c in cards)
            if public is not None:
                self.publics[step + 1] = {k: public[k] for k in PUBLIC_FIELDS if k in public}
            self._take(seat, action, step)
        except (IllegalActionError, ProtocolError):
            self.slots, self.holds, self.publics, self.deck = saved
            raise

    def _turn_told(self, st: GameState, seat: int, action: Action, step: int) -> bool:
        """Was ``seat`` told not to be the seat to act at ``step``, for an action only the
        seat to act takes? Every deal the search may find keeps the ``to_act`` told (as
        ``st`` does), so none makes the action legal: it is refused at once, not after
        every search (up to a minute of them in Belote before the thirty-sixth session)."""
        return "to_act" in self.publics.get(step, {}) and seat != _to_act(st) \
            and in_turn_only(st, action)

    def _take(self, seat: int, action: Action, step: int) -> None:
        st = self.state
        acts = [*self.acts, (seat, action)]
        if self._verify(st, step):
            trial = st.clone()
            try:
                _apply(trial, seat, action, [])
            except IllegalActionError:
                if seat == self.seat or self._turn_told(st, seat, action, step):
                    raise  # our own action: refused as in a full deal; or out of turn
            else:
                if self._agrees(trial, self.deck, step + 1):
                    self.state, self.acts = trial, acts
                    return
        if seat == self.seat:
            _apply(st.clone(), seat, action, [])  # refused here if it is not legal
        if self._redeal(acts) or self._mend(seat, action, step) \
                or self._redeal(acts, LAST_SEARCH):
            self.acts = acts
            return
        _apply(st.clone(), seat, action, [])  # refused: say why
        raise IllegalActionError("core.deal", seat=seat, action="apply",
                                 reason="no deal consistent with what this seat has seen "
                                 "makes that action legal")
