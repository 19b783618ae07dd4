"""The engine protocol: message framing, error codes and the JSON form of a state.

Messages are JSON objects, one per line, over an engine's standard input
(requests) and standard output (responses). ``docs/protocol.rst`` is the
normative description; this module is the reference implementation of its
data formats, shared by the reference engine and the conformance runner.

>>> from mariage import load_rules, GameState
>>> from mariage.engine.deals import canonical_deck
>>> rules = load_rules("marianna")
>>> state = GameState(rules, first_dealer=0)
>>> state.deal(canonical_deck(rules))
>>> view = state_json(state)
>>> view["phase"], view["to_act"], view["stock"], view["hands"][1]
('play', 1, 20, ['AH', '3H', 'KH', 'QH', 'JH'])
>>> decode(encode({"type": "legal"}))
{'type': 'legal'}
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Callable
from operator import attrgetter
from typing import Any

from mariage.engine.actiontext import contract_name
from mariage.engine.mechanisms.questions import CALLED_PAIR
from mariage.engine.rules import Rules
from mariage.engine.state import GameState, Phase, expect_state

from .limits import PROTOCOL_VERSION

__all__ = [
    "ERROR_CODES",
    "HIDDEN_CARDS",
    "MAX_LINE",
    "PHASES",
    "PROTOCOL_VERSION",
    "SUPPORTED_VERSIONS",
    "SURROGATE_ESCAPE",
    "UNKNOWN_CARD",
    "ProtocolError",
    "bidding_json",
    "check_message",
    "decode",
    "encode",
    "lone_surrogate",
    "seat_state_json",
    "sorted_card_sets",
    "state_json",
    "takers_json",
    "view_key",
]


#: The versions a runner or a match accepts in an engine's ``hello``: version 2 adds
#: hidden cards (``seat`` in ``start``/``deal``, ``reveal`` in ``apply``) to version 1.
SUPPORTED_VERSIONS = (1, 2)

#: The ``features`` entry of a ``hello`` answer for an engine that accepts hidden cards.
HIDDEN_CARDS = "hidden_cards"

#: A card the engine's seat cannot see, in a ``deck`` or a ``state``'s ``hands``.
UNKNOWN_CARD = "??"

#: The longest line either side must accept, in bytes.
MAX_LINE = 1 << 20

#: Phase names of the state, by :class:`~mariage.engine.state.Phase`.
PHASES = {Phase.DEAL: "deal", Phase.PLAY: "play", Phase.WINDOW: "window",
          Phase.ANSWER: "answer", Phase.OVER: "over",
          # talon games
          Phase.AFTER_TRICK: "after_trick", Phase.CLOSE_REPLY: "close_reply",
          # bidding games
          Phase.AUCTION: "auction", Phase.PASSING: "passing", Phase.CONTRACT: "contract",
          Phase.QUESTION: "question",
          # a turned card taken in rounds
          Phase.TAKING: "taking", Phase.BIDDING: "bidding"}

#: Every error code an engine may answer with, and what it means.
ERROR_CODES = {
    "bad_json": "the line is not a JSON object",
    "bad_request": "a field is missing or has the wrong type",
    "unknown_type": "the request type is not known to the engine",
    "no_match": "no match has been started",
    "unsupported": "the ruleset or an option value is not supported",
    "bad_action": "the text is not an action of the ruleset",
    "illegal_action": "the action breaks a rule (the response names the rule ID)",
    "internal_error": "the engine failed on this request (a bug in the engine)",
}


class ProtocolError(Exception):
    """A line that is not a protocol message."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(f"{message} [{code}]")


#: :func:`encode`'s encoder, made once: ``json.dumps`` with options makes one for each
#: message (half the time of a short one)
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def encode(message: dict[str, Any]) -> str:
    """One message as one line of JSON (no newline), keys sorted."""
    return _ENCODER.encode(message)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:20]} is too large")
    return value


def _one_value_per_name(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):  # find the first name given twice
        seen: set[str] = set()
        for name, _ in pairs:
            if name in seen:
                raise ValueError(f"the name {name[:40]!r} is given twice in one object")
            seen.add(name)
    return value


#: an escape that may stand for half of a UTF-16 pair (``\\ud800``): only a line or a
#: file holding one can decode to a text that is no text (:func:`lone_surrogate`)
SURROGATE_ESCAPE = re.compile(r"\\(?:u|U000)[dD][89a-fA-F]")


def lone_surrogate(data: Any) -> tuple[str, str] | None:
    """A text of ``data`` (decoded JSON or YAML: texts, lists, mappings) holding half of
    a UTF-16 pair alone, and that half; ``None`` if there is none. Such a text is no
    character string, and cannot be written out as UTF-8.

    >>> lone_surrogate({"engine": ["ok", "x\\ud800"]})
    ('x\\ud800', '\\ud800')
    >>> lone_surrogate({"engine": "\\U0001f600"}) is None
    True
    """
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            try:
                node.encode("utf-8")
            except UnicodeEncodeError as exc:
                return node, node[exc.start]
        elif isinstance(node, dict):
            stack.extend(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return None


#: :func:`decode`'s strict decoder, made once (``json.loads`` with options makes one for
#: each line: a third of the time of a short one)
_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite,
                            object_pairs_hook=_one_value_per_name)


def decode(line: str) -> dict[str, Any]:
    """Parse one line into a message; raise :class:`ProtocolError` if it is not one.

    Strict JSON: ``NaN``, ``Infinity``, numbers too large for a double and an object
    that gives a name twice (which value was meant would be a guess) are refused.

    >>> decode('{"type": "legal", "seat": NaN}')
    Traceback (most recent call last):
    mariage.conformance.protocol.ProtocolError: not JSON: NaN is not JSON [bad_json]
    >>> decode('{"type": "apply", "action": "QS", "action": "KS"}')
    Traceback (most recent call last):
    mariage.conformance.protocol.ProtocolError: not JSON: the name 'action' is given twice \
in one object [bad_json]
    """
    try:
        value = _DECODER.decode(line)
    except RecursionError:  # Python's words would say nothing to an engine's author
        raise ProtocolError("bad_json", "not JSON: arrays or objects nested too deeply "
                            "to read") from None
    except ValueError as exc:
        why = str(exc)
        if "integer string conversion" in why:  # Python's bound on digits
            why = f"a number of more than {sys.get_int_max_str_digits()} digits"
        elif line.startswith("\ufeff"):  # not "decode using utf-8-sig", Python's advice
            why = "the line starts with a byte order mark (U+FEFF), which JSON does not allow"
        raise ProtocolError("bad_json", f"not JSON: {why[:200]}") from None
    if SURROGATE_ESCAPE.search(line):  # only an escape makes half a pair: else no walk
        found = lone_surrogate(value)
        if found is not None:
            raise ProtocolError("bad_json", f"not JSON: a text holds {found[1]!a}, half of "
                                "a UTF-16 pair alone, which is no character")
    return check_message(value)


def check_message(value: Any) -> dict[str, Any]:
    """``value`` (a line's JSON value) as a message: an object with a string ``type``;
    else :class:`ProtocolError` with the code a line holding it gets (``bad_json``,
    ``bad_request``).

    >>> check_message([])
    Traceback (most recent call last):
    mariage.conformance.protocol.ProtocolError: a message must be a JSON object [bad_json]
    >>> check_message({"type": 5})
    Traceback (most recent call last):
    mariage.conformance.protocol.ProtocolError: a message needs a string field 'type' \
[bad_request]
    """
    if not isinstance(value, dict):
        raise ProtocolError("bad_json", "a message must be a JSON object")
    if not isinstance(value.get("type"), str):
        raise ProtocolError("bad_request", "a message needs a string field 'type'")
    return value


def _cards(rules: Rules, mask: int) -> list[str]:
    return [rules.card_code[c] for c in rules.cards_of(mask)]


def _suit(rules: Rules, suit: int) -> str | None:
    return contract_name(rules, suit) if suit >= 0 else None


def declared_json(state: GameState) -> list[list[Any]]:
    """The declarations of the current hand: ``[seat, what, suit, value]`` each.

    ``what`` is the declaration's name, or ``ask:NAME`` for a split marriage
    completed through an ask and scored when its trick was won.
    """
    r = expect_state(state, "declared_json").rules
    out: list[list[Any]] = []
    for seat, kind, suit, value in state.declared:
        if kind == CALLED_PAIR:  # a trump call of a bidding game
            out.append([seat, "pair", r.suits[suit], value])
            continue
        name = r.declarations[kind].name if kind >= 0 else f"ask:{r.asks[-1 - kind].name}"
        out.append([seat, name, r.suits[suit], value])
    return out


def state_json(state: GameState, hands: bool = True) -> dict[str, Any]:
    """The protocol's view of ``state`` (every field of a ``state`` response; without
    ``hands`` unless ``hands``)."""
    r = expect_state(state, "state_json").rules
    in_hand = state.phase not in (Phase.DEAL, Phase.OVER)
    nteams = len(r.teams)
    last: dict[str, Any] | None = None
    if state.history:
        h = state.history[-1]
        last = {"number": h.number, "points": list(h.points), "score": list(h.score),
                "ended": h.ended, "winner": h.winner}
    result: dict[str, Any] | None = None
    if state.result is not None:
        res = state.result
        result = {"winner": res.winner, "reason": res.reason, "scores": list(res.scores)}
    out: dict[str, Any] = {
        "phase": PHASES[state.phase],
        "hand": state.hand_no,
        "trick": state.trick_no if in_hand else 0,
        "dealer": state.dealer,
        "leader": state.leader if in_hand else None,
        "to_act": state.to_act if in_hand else None,
        "trump": _suit(r, state.trump if state.strain < 0 else state.strain) if in_hand
        else None,
        "turn_up": r.card_code[state.turn_up] if in_hand and state.turn_up is not None
        else None,
        "table": [[s, r.card_code[c]] for s, c in
                  zip(state.trick_seats, state.trick_cards, strict=True)] if in_hand else [],
        "stock": len(state.stock) if in_hand else 0,
        "hands": None if not hands else [_cards(r, m) for m in state.hands] if in_hand
        else [[] for _ in state.hands],
        "declared": declared_json(state) if in_hand else [],
        "tricks_won": list(state.tricks_won) if in_hand else [0] * nteams,
        "hand_points": [state.hand_points(t) for t in range(nteams)] if in_hand
        else [0] * nteams,
        "match_scores": list(state.match_scores),
        "segni": list(state.segni),
        "last_hand": last,
        "terminal": state.terminal,
        "result": result,
    }
    if not hands:
        del out["hands"]
    if r.talon_game:  # talon games only, so that other rulesets' states are unchanged
        out["closed_by"] = state.closed_by if in_hand and state.closed_by >= 0 else None
    if r.auction_rule is not None:  # bidding games only: the other rulesets' state is as before
        out["bidding"] = bidding_json(state, in_hand)
    if r.takers_rule is not None:  # takers against the defence only, likewise
        out["takers"] = takers_json(state, in_hand)
    if r.places_rule is not None:  # only where the others play on for the places
        out["placed"] = list(state.placed)
    return out


#: The fields of a state :func:`state_json` reads under every ruleset, then those it
#: reads in talon games, in bidding games, in takers' games and where contracts name no
#: trump suit (:func:`view_key` reads them raw; kept beside the view they make).
_VIEWED = ("phase", "hand_no", "trick_no", "dealer", "leader", "to_act", "trump", "strain",
           "turn_up", "trick_seats", "trick_cards", "stock", "hands", "declared",
           "tricks_won", "captured", "decl_points", "match_scores", "segni", "_history",
           "_result")
_VIEWED_TALON = ("closed_by",)
_VIEWED_BIDDING = ("high_bid", "high_bidder", "auction_passed", "declarer", "contract",
                   "kontras", "ask_level", "called")
_VIEWED_TAKERS = ("announced", "declarer", "contract", "kontras", "pair_by", "pot", "known")
_VIEWED_STRAINS = ("pairs_said",)
_VIEWED_PLACES = ("placed",)
#: What the view calls of the state besides its fields.
_VIEW_CALLS = ("rules", "hand_points", "history", "result", "terminal")


def _naming(r: Rules) -> tuple[Any, ...]:
    """What of the rules :func:`state_json` reads: two rules alike in it make the same
    view of states with the same fields."""
    return (type(r), len(r.teams), r.nseats, r.card_code, r.suits, r.strain_names, r.ranks,
            r.rank_of, tuple(d.name for d in r.declarations), tuple(a.name for a in r.asks),
            tuple((c.name, c.same_rank) for c in r.combos), r.talon_game,
            r.auction_rule is None, r.takers_rule is None, bool(r.sa_strains or r.take_strains),
            r.places_rule is None)


def view_key(ref: GameState, other: GameState) -> Callable[[GameState], tuple[Any, ...]] | None:
    """A key of states like ``ref`` and ``other``: the raw fields :func:`state_json`
    reads, so that two states of equal keys have equal views (and no view need be made
    to tell so). ``None`` where equal keys could still show otherwise: rules that name
    or show things otherwise, or a state class of its own in what the view reads.

    >>> from mariage import load_rules, new_match
    >>> a, b = new_match(load_rules("marianna"), 1), new_match(load_rules("marianna"), 1)
    >>> key = view_key(a, b)
    >>> key(a) == key(b), view_key(a, new_match(load_rules("belote"), 1))
    (True, None)
    """
    r = expect_state(ref, "view_key").rules
    if _naming(r) != _naming(expect_state(other, "view_key").rules):
        return None
    names = _VIEWED + (_VIEWED_TALON if r.talon_game else ()) + (
        _VIEWED_BIDDING if r.auction_rule is not None else ()) + (
        _VIEWED_TAKERS if r.takers_rule is not None else ()) + (
        _VIEWED_STRAINS if r.takers_rule is not None and (r.sa_strains or r.take_strains)
        else ()) + (_VIEWED_PLACES if r.places_rule is not None else ())
    for cls in (type(ref), type(other)):
        if any(getattr(cls, n, None) is not getattr(GameState, n, None)
               for n in names + _VIEW_CALLS):
            return None
    return attrgetter(*dict.fromkeys(names))

def takers_json(state: GameState, in_hand: bool) -> dict[str, Any]:
    """The ``takers`` object: the taker, the contract bid and its doubling, the
    announcements made (seat, kind, key card or rank), the seat that said the pair of
    trumps, the points held over from a tie and the cards of each hand shown to everyone
    (announced cards, where the rules show them)."""
    r = expect_state(state, "takers_json").rules
    made = [[seat, r.combos[k].name,
             r.ranks[r.rank_of[c]] if r.combos[k].same_rank else r.card_code[c]]
            for seat, k, c, _ in state.announced] if in_hand else []
    out = {"taker": state.declarer if in_hand and state.declarer >= 0 else None,
           "contract": state.contract if in_hand else 0,
           "doubled": state.kontras if in_hand else 0,
           "announced": made,
           "pair_by": state.pair_by if in_hand and state.pair_by >= 0 else None,
           "held": state.pot,
           "shown": [_cards(r, h & k) if in_hand else []  # announced cards shown
                     for h, k in zip(state.hands, state.known, strict=True)]}
    if r.sa_strains or r.take_strains:  # contracts without one trump suit: the pairs said
        out["pairs"] = [[s, r.suits[suit]] for s, suit in state.pairs_said] if in_hand else []
    return out


def sorted_card_sets(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` (a ``state`` object) with its sets of cards in one order (sorted codes):
    the hands and the cards shown, whose order carries no meaning.

    >>> sorted_card_sets({"hands": [["KH", "AH"]], "takers": {"shown": [["TC", "9C"]]}})
    {'hands': [['AH', 'KH']], 'takers': {'shown': [['9C', 'TC']]}}
    """
    out = dict(view)
    if isinstance(out.get("hands"), list):
        out["hands"] = [_sorted_set(h) for h in out["hands"]]
    takers = out.get("takers")
    if isinstance(takers, dict) and isinstance(takers.get("shown"), list):
        out["takers"] = {**takers, "shown": [_sorted_set(h) for h in takers["shown"]]}
    return out


def _sorted_set(cards: Any) -> Any:
    """A list of card codes sorted; a list that also holds other values (an engine's
    ``[5, "AH"]``, a test's ``[null]``) sorted too, codes first, without comparing
    values of two types (which Python refuses); anything else as it is."""
    if not isinstance(cards, list):
        return cards
    if all(type(c) is str for c in cards):
        return sorted(cards)
    return sorted(cards, key=lambda c: (0, c) if type(c) is str else (1, repr(c)))


def seat_state_json(state: GameState, seat: int) -> dict[str, Any]:
    """The ``state`` of ``state`` as ``seat`` sees it: other hands show the cards
    shown (declared, asked for...) and ``??`` for the rest (hidden cards, version 2)."""
    out = state_json(state)
    r = state.rules
    if state.phase in (Phase.DEAL, Phase.OVER) or r.open_hands:
        return out
    hands = []
    for s, h in enumerate(state.hands):
        shown = h if s == seat else h & state.known[s]
        hands.append(_cards(r, shown) + [UNKNOWN_CARD] * (h & ~shown).bit_count())
    out["hands"] = hands
    return out


def bidding_json(state: GameState, in_hand: bool) -> dict[str, Any]:
    """The auction, contract and trump calls of the current hand (bidding games).

    ``high_bid`` and ``high_bidder`` (or ``null``), ``passed`` per seat,
    ``declarer`` (or ``null``), ``contract`` (the game value, 0 for none),
    ``kontras`` (Kontra and Re said), ``ask_levels`` per seat and ``called``
    (the suits called this hand, in suit order).
    """
    r = expect_state(state, "bidding_json").rules
    if not in_hand:
        return {"high_bid": 0, "high_bidder": None, "passed": [False] * r.nseats,
                "declarer": None, "contract": 0, "kontras": 0, "ask_levels": [0] * r.nseats,
                "called": []}
    return {
        "high_bid": state.high_bid,
        "high_bidder": state.high_bidder if state.high_bidder >= 0 else None,
        "passed": list(state.auction_passed),
        "declarer": state.declarer if state.declarer >= 0 else None,
        "contract": state.contract,
        "kontras": state.kontras,
        "ask_levels": list(state.ask_level),
        "called": [s for i, s in enumerate(r.suits) if state.called >> i & 1],
    }
