#!/usr/bin/env python3
"""A stand-alone Marianna engine, written from the documentation alone.

It speaks the engine protocol of ``docs/protocol.rst`` (version 2, without
hidden cards) and plays the ruleset ``marianna`` of ``spec/marianna.yaml`` with
every option of that ruleset. It imports nothing from ``mariage``: only the
standard library. It is the example an engine author can read beside the
docs, and the engine that the test suite checks the conformance runner with:

    mariage conformance --engine "python3 conformance/examples/minimal_engine.py"

``--fault MODE`` plants one mistake of the kind engine authors make, so that
one can see what the runner says about it (docs/conformance.rst, "The example
engine"); ``--list-faults`` lists them. Without ``--fault`` the engine is
meant to pass every test of the ruleset and every protocol test.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import Any

# ---------------------------------------------------------------------------
# The pack and the ruleset's data (spec/marianna.yaml)

SUITS = "HDCS"
RANKS = ("A", "3", "K", "Q", "J", "7", "6", "5", "4", "2")  # high to low
POINTS = {"A": 11, "3": 10, "K": 4, "Q": 3, "J": 2}
PACK = [rank + suit for suit in SUITS for rank in RANKS]
NSEATS = 4
HAND_SIZE = 5
DECLARATIONS = ("marianna", "mariannino", "mariannone")
# Words that are actions of every ruleset (docs/protocol.rst, "Which words are
# actions of a ruleset"): refused with core.phase where Marianna has no such thing.
EVERY_RULESET_WORDS = ("pass", "yes", "no", "callout", "close", "claim", "draw", "decline")

OPTIONS: dict[str, dict[str, Any]] = {
    "target": {"type": "int", "default": 501, "min": 1, "max": 10000},
    "marianna_values": {"type": "enum", "default": "40-60-80-100",
                        "values": ["40-60-80-100", "20-40-60-80"]},
    "declare_when": {"type": "enum", "default": "on_turn", "values": ["on_turn", "trick_start"]},
    "declare_who": {"type": "enum", "default": "anyone", "values": ["anyone", "leader"]},
    "combination_window": {"type": "enum", "default": "declarations",
                           "values": ["declarations", "any_trick"]},
    "first_fixes_trump": {"type": "bool", "default": False},
    "trick_six": {"type": "bool", "default": False},
    "mariannino_value": {"type": "enum", "default": "fixed", "values": ["fixed", "next_plus_200"]},
    "combination_once": {"type": "bool", "default": False},
    "tie": {"type": "enum", "default": "play_on", "values": ["play_on", "draw"]},
}

MAX_LINE = 1 << 20

FAULTS = {
    "follow-suit": "forces following suit, where Marianna's play is free (marianna.play.free)",
    "trick-winner": "ignores trump when judging the trick (marianna.trick.winner)",
    "declaration-points": "does not credit a declaration's points to the hand "
                          "(marianna.decl.value)",
    "mariannone-500-only": "a mariannone scores its 500 alone, not the card points already "
                           "taken in the hand (marianna.decl.mariannone.value)",
    "draw-order": "the seat after the trick winner draws first (marianna.draw)",
    "last-trick-bonus": "adds 10 for the last trick to the hand's score (marianna.score.hand)",
    "target-exclusive": "ends the match only above the target, not at it (marianna.match.end)",
    "once-per-hand": "lets a suit's marianna be declared twice in a hand (marianna.decl.once)",
    "resign-scores-hand": "a resignation scores the hand in progress (core.resign)",
    "once-per-match": "a suit's marianna, once declared, is refused for the rest of the match "
                      "(marianna.decl.once)",
    "refuse-legal": "refuses a declaration by a seat that is not leading, though it lists it "
                    "as legal (marianna.decl.who)",
    "wrong-rule": "refuses an action out of turn naming core.hand instead of core.turn",
    "python-repr": "writes its 'state' answer with print(dict), not as JSON",
    "malformed-legal": "answers 'legal' with the actions as one string, not a list",
    "wrong-seat": "answers 'legal' for the seat to act when asked about another seat",
    "seat-between-hands": "answers 'legal' between hands naming seat 0 instead of null",
    "crash": "exits with a traceback in the third trick of a hand",
    "hang": "stops answering in the third trick of a hand",
}


class Refused(Exception):
    """An error answer: ``code``, ``message`` and, for illegal_action, the ``rule``."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule


def illegal(rule: str, message: str) -> Refused:
    """A refusal under a rule ID of the ruleset."""
    return Refused("illegal_action", f"{message} [{rule}]", rule)


def suit_of(card: str) -> str:
    return card[1]


def rank_of(card: str) -> str:
    return card[0]


def strength(card: str) -> int:
    """Higher is better within a suit."""
    return len(RANKS) - RANKS.index(rank_of(card))


class Match:
    """One match of Marianna under the given options."""

    def __init__(self, options: dict[str, Any], dealer: int, fault: str | None) -> None:
        self.opt = {name: spec["default"] for name, spec in OPTIONS.items()}
        self.opt.update(options)
        self.fault = fault
        self.dealer = dealer
        self.hand_no = 0
        self.match_scores = [0, 0]
        self.last_hand: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None
        self.phase = "deal"
        self.declared_in_match: list[list[Any]] = []  # for the once-per-match fault
        self._clear_hand()

    # -- the hand -----------------------------------------------------------
    def _clear_hand(self) -> None:
        self.hands: list[list[str]] = [[] for _ in range(NSEATS)]
        self.stock: list[str] = []
        self.trick = 0
        self.leader: int | None = None
        self.to_act: int | None = None
        self.trump: str | None = None
        self.trump_fixed = False
        self.table: list[tuple[int, str]] = []
        self.declared: list[list[Any]] = []
        self.tricks_won = [0, 0]
        self.card_points = [0, 0]
        self.decl_points = [0, 0]
        self.declared_this_trick: set[int] = set()
        self.spoken: set[int] = set()  # seats heard in this trick's window

    def deal(self, deck: list[str]) -> None:
        """Deal a hand: packets of five from the seat after the dealer; the rest is the stock."""
        self._clear_hand()
        self.hand_no += 1
        first = (self.dealer + 1) % NSEATS
        for i in range(NSEATS):
            self.hands[(first + i) % NSEATS] = deck[HAND_SIZE * i:HAND_SIZE * (i + 1)]
        self.stock = deck[HAND_SIZE * NSEATS:]  # top card first
        self.phase = "play"
        self._start_trick(first)

    def _start_trick(self, leader: int) -> None:
        self.trick += 1
        self.leader = leader
        self.to_act = leader
        self.table = []
        self.declared_this_trick = set()
        self.spoken = set()
        self.phase = "play"
        if self.opt["declare_when"] == "trick_start" and self._window_open():
            self.phase = "window"

    def _window_open(self) -> bool:
        """Is a declaration window held at the start of this trick (declare_when=trick_start)?

        Whenever some declaration's window is open, whether or not anyone holds one: in
        every trick under combination_window=any_trick (docs/protocol.rst, ``legal``).
        """
        last = 6 if self.opt["trick_six"] else 5
        return self.trick <= last or self.opt["combination_window"] == "any_trick"

    # -- declarations -------------------------------------------------------
    def _in_window(self, name: str) -> bool:
        last = 6 if self.opt["trick_six"] else 5
        if self.trick <= last:
            return True
        return name != "marianna" and self.opt["combination_window"] == "any_trick"

    def _holds(self, seat: int, name: str, suit: str) -> bool:
        hand = self.hands[seat]
        if name == "marianna":
            return "K" + suit in hand and "Q" + suit in hand
        if len(hand) != HAND_SIZE:
            return False
        kings = [c for c in hand if rank_of(c) == "K"]
        queens = [c for c in hand if rank_of(c) == "Q"]
        if name == "mariannino":
            return len(queens) == 4 and kings == ["K" + suit]
        return len(kings) == 4 and queens == ["Q" + suit]

    def _used(self, name: str, suit: str) -> bool:
        """Was this declaration made already in the hand (the ``once`` rules)?"""
        if name == "marianna" and self.fault == "once-per-hand":
            return False
        done_before = self.declared_in_match if self.fault == "once-per-match" else []
        for _, done, done_suit, _ in done_before + self.declared:
            if done == name and (done_suit == suit or (
                    name != "marianna" and self.opt["combination_once"])):
                return True
        return False

    def _declaration_error(self, seat: int, name: str, suit: str) -> Refused | None:
        """Why ``seat`` may not declare now, or None (the order of docs/protocol.rst);
        ``suit`` is ``"S:notrump"`` where the declaration declines the trump."""
        suit, _, declines = suit.partition(":")
        if self.phase == "play" and self.opt["declare_when"] == "trick_start":
            return illegal("marianna.decl.who", "declarations are made before the lead only")
        if self.opt["declare_who"] == "leader" and (seat != self.leader or self.table):
            return illegal("marianna.decl.leader-only", "only the leader declares")
        if not self._in_window(name):
            return illegal("marianna.decl.window", "declarations are over in this hand")
        if seat in self.declared_this_trick:
            return illegal("marianna.decl.per-trick", "one declaration per player per trick")
        if not self._holds(seat, name, suit):
            return illegal(f"marianna.decl.{name}", f"the hand holds no {name} in {suit}")
        if self._used(name, suit):
            rule = "marianna.decl.once" if name == "marianna" else f"marianna.decl.{name}.once"
            return illegal(rule, f"the {name} in {suit} was declared already")
        if declines:
            rule = "marianna.decl.trump" if name == "marianna" else f"marianna.decl.{name}.trump"
            return illegal(rule, f"a {name} makes its suit trump: it cannot decline it")
        return None

    def _declare(self, seat: int, name: str, suit: str) -> None:
        team = seat % 2
        count = sum(1 for d in self.declared if d[1] == "marianna")
        schedule = [int(v) for v in self.opt["marianna_values"].split("-")]
        if name == "marianna":
            value = schedule[min(count, 3)]
        elif name == "mariannino":
            value = 250 if self.opt["mariannino_value"] == "fixed" \
                else schedule[min(count, 3)] + 200
        else:
            value = 500
        self.declared.append([seat, name, suit, value])
        self.declared_in_match.append([seat, name, suit, value])
        self.declared_this_trick.add(seat)
        if self.fault != "declaration-points":
            self.decl_points[team] += value
        if name != "mariannone" and not (self.opt["first_fixes_trump"] and self.trump_fixed):
            self.trump = suit
            self.trump_fixed = True
        if name == "mariannone":
            if self.fault == "mariannone-500-only":
                self.card_points = [0, 0]
            self._end_hand("match_won", winner=team)

    # -- legal actions ------------------------------------------------------
    def legal(self, seat: int) -> list[str]:
        if self.phase not in ("play", "window") or seat != self.to_act:
            return []
        decls = [f"{name}:{suit}" for name in DECLARATIONS for suit in SUITS
                 if self._declaration_error(seat, name, suit) is None]
        if self.phase == "window":
            return [*decls, "pass"]
        cards = list(self.hands[seat])
        if self.fault == "follow-suit" and self.table:
            led = suit_of(self.table[0][1])
            same = [c for c in cards if suit_of(c) == led]
            cards = same or cards
        return decls + cards

    # -- applying an action -------------------------------------------------
    def apply(self, seat: int, action: str) -> None:
        kind, name, suit = parse_action(action)
        if self.phase == "over":
            raise illegal("core.over", "the match is over")
        if self.phase == "deal":
            raise illegal("core.phase", "no hand is in progress")
        if action == "callout":  # any seat may call out where a game has it: not Marianna
            raise illegal("core.phase", "there is no calling out in Marianna")
        if seat != self.to_act:
            if self.fault == "wrong-rule":
                raise illegal("core.hand", f"seat {seat} may not play that")
            raise illegal("core.turn", f"it is seat {self.to_act}'s turn, not seat {seat}'s")
        if kind == "word":
            if name == "pass" and self.phase == "window":
                self._speak(seat)
                return
            raise illegal("core.phase", f"'{action}' is not an action of this moment")
        if kind == "card":
            if self.phase == "window":
                raise illegal("core.phase", "every seat declares or passes before the lead")
            if action not in self.hands[seat]:
                raise illegal("core.hand", f"{action} is not in seat {seat}'s hand")
            if action not in self.legal(seat):
                raise illegal("marianna.play.free", f"{action} may not be played now")
            self._play(seat, action)
            return
        error = self._declaration_error(seat, name, suit)
        if error is not None:
            raise error
        if self.fault == "refuse-legal" and seat != self.leader:
            raise illegal("marianna.decl.who", "only the leader declares")
        self._declare(seat, name, suit)
        if self.phase == "window":
            self._speak(seat)

    def _speak(self, seat: int) -> None:
        """A seat declared or passed in the window: the next seat speaks, or play starts."""
        self.spoken.add(seat)
        if self.opt["declare_who"] == "leader" or len(self.spoken) == NSEATS:
            self.phase = "play"
            self.to_act = self.leader
        else:
            self.to_act = (seat + 1) % NSEATS

    def _play(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.table.append((seat, card))
        if len(self.table) < NSEATS:
            self.to_act = (seat + 1) % NSEATS
        else:
            self._finish_trick()

    def _finish_trick(self) -> None:
        trump = None if self.fault == "trick-winner" else self.trump
        best_seat, best = self.table[0]
        for seat, card in self.table[1:]:
            if suit_of(card) == suit_of(best):
                if strength(card) > strength(best):
                    best_seat, best = seat, card
            elif suit_of(card) == trump:
                best_seat, best = seat, card
        team = best_seat % 2
        self.tricks_won[team] += 1
        self.card_points[team] += sum(POINTS.get(rank_of(c), 0) for _, c in self.table)
        if self.stock:
            first = best_seat + 1 if self.fault == "draw-order" else best_seat
            for i in range(NSEATS):
                self.hands[(first + i) % NSEATS].append(self.stock.pop(0))
        if not any(self.hands):
            if self.fault == "last-trick-bonus":
                self.card_points[team] += 10
            self._end_hand("played_out")
        else:
            self._start_trick(best_seat)

    def hand_points(self) -> list[int]:
        return [self.card_points[t] + self.decl_points[t] for t in range(2)]

    def _end_hand(self, ended: str, winner: int | None = None) -> None:
        points = self.hand_points()
        for t in range(2):
            self.match_scores[t] += points[t]
        self.last_hand = {"number": self.hand_no, "points": points, "score": points,
                          "ended": ended, "winner": None}
        self._clear_hand()
        if winner is not None:
            self._finish(winner, "match_won")
            return
        top = max(self.match_scores)
        reached = top > self.opt["target"] if self.fault == "target-exclusive" \
            else top >= self.opt["target"]
        if reached:
            if self.match_scores.count(top) == 1:
                self._finish(self.match_scores.index(top), "target")
                return
            if self.opt["tie"] == "draw":
                self._finish(None, "tie")
                return
        self.phase = "deal"
        self.dealer = (self.dealer + 1) % NSEATS

    def _finish(self, winner: int | None, reason: str) -> None:
        self._clear_hand()
        self.phase = "over"
        self.result = {"winner": winner, "reason": reason, "scores": list(self.match_scores)}

    def resign(self, seat: int) -> None:
        if self.phase == "over":
            raise illegal("core.over", "the match is over")
        if self.fault == "resign-scores-hand":
            points = self.hand_points()
            self.match_scores = [self.match_scores[t] + points[t] for t in range(2)]
        self._finish(1 - seat % 2, "resign")

    def state(self) -> dict[str, Any]:
        return {
            "type": "state", "phase": self.phase, "hand": self.hand_no, "trick": self.trick,
            "dealer": self.dealer, "leader": self.leader, "to_act": self.to_act,
            "trump": self.trump, "turn_up": None,
            "table": [[s, c] for s, c in self.table], "stock": len(self.stock),
            "hands": [list(h) for h in self.hands], "declared": [list(d) for d in self.declared],
            "tricks_won": list(self.tricks_won), "hand_points": self.hand_points(),
            "match_scores": list(self.match_scores), "segni": [0, 0],
            "last_hand": self.last_hand, "terminal": self.phase == "over",
            "result": self.result,
        }


def parse_action(text: str) -> tuple[str, str, str]:
    """``("card", card, "")``, ``("word", word, "")`` or ``("decl", name, suit)``;
    bad_action for any other text."""
    if text in PACK:
        return "card", text, ""
    if text in EVERY_RULESET_WORDS:
        return "word", text, ""
    head, _, rest = text.partition(":")
    if head == "yes" and rest in tuple(SUITS):
        return "word", "yes", ""
    if head == "exchange" and rest in PACK:
        return "word", "exchange", ""
    if head in DECLARATIONS and rest in tuple(SUITS):
        return "decl", head, rest
    # NAME:S:notrump declines the trump: a declaration, which Marianna refuses by the
    # declaration's trump rule (its suit always becomes trump)
    if head in DECLARATIONS and rest in tuple(f"{s}:notrump" for s in SUITS):
        return "decl", head, rest
    raise Refused("bad_action", f"'{text}' is not an action of Marianna")


# ---------------------------------------------------------------------------
# The protocol


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def seat_field(msg: dict[str, Any], key: str, required: bool) -> int | None:
    if key not in msg or msg[key] is None:
        if required:
            raise Refused("bad_request", f"'{key}' must be a seat")
        return None
    value = msg[key]
    if not is_int(value) or not 0 <= value < NSEATS:
        raise Refused("bad_request", f"'{key}' must be a seat (0 .. {NSEATS - 1})")
    return int(value)


def check_options(options: Any) -> dict[str, Any]:
    if not isinstance(options, dict):
        raise Refused("bad_request", "'options' must be an object")
    for name, value in options.items():
        spec = OPTIONS.get(name)
        if spec is None:
            raise Refused("unsupported", f"unknown option '{name}'")
        if spec["type"] == "int":
            if not is_int(value):
                raise Refused("bad_request", f"option '{name}' must be a whole number")
            if not spec["min"] <= value <= spec["max"]:
                raise Refused("unsupported", f"option '{name}' is out of range")
        elif spec["type"] == "bool":
            if not isinstance(value, bool):
                raise Refused("bad_request", f"option '{name}' must be true or false")
        else:
            if not isinstance(value, str):
                raise Refused("bad_request", f"option '{name}' must be a string")
            if value not in spec["values"]:
                raise Refused("unsupported", f"option '{name}' has no value '{value}'")
    return options


def check_deck(msg: dict[str, Any]) -> list[str]:
    """The deck and first_player of a start or deal (Marianna has a dealer: no first_player)."""
    deck = msg.get("deck")
    if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
        raise Refused("bad_request", "'deck' must be a list of card codes")
    first = msg.get("first_player")
    if first is not None and not is_int(first):
        raise Refused("bad_request", "'first_player' must be a seat or null")
    if sorted(deck) != sorted(PACK):
        raise illegal("core.deal", "the deck must hold every card of the pack once")
    if first is not None:
        raise illegal("core.deal", "Marianna has a dealer: first_player must be null")
    return list(deck)


class Engine:
    """Answers one request at a time."""

    def __init__(self, fault: str | None) -> None:
        self.fault = fault
        self.match: Match | None = None

    def hello(self) -> dict[str, Any]:
        return {"type": "hello", "engine": "minimal-marianna", "version": "1",
                "protocol": 2, "rulesets": {"marianna": {"options": OPTIONS}}}

    def handle(self, msg: dict[str, Any]) -> dict[str, Any]:
        kind = msg["type"]
        if kind == "hello":
            return self.hello()
        if kind == "quit":
            return {"type": "bye"}
        if kind == "start":
            return self.start(msg)
        if kind not in ("deal", "legal", "apply", "state", "resign"):
            raise Refused("unknown_type", f"unknown request type '{kind}'")
        match = self.match
        if match is None:
            raise Refused("no_match", "no match has been started")
        if self.fault in ("crash", "hang") and kind == "apply" and match.trick == 3:
            if self.fault == "crash":
                raise RuntimeError(f"simulated crash at trick 3 on {msg}")
            time.sleep(3600)
        if kind == "state":
            return match.state()
        if kind == "legal":
            asked = seat_field(msg, "seat", required=False)
            if self.fault == "wrong-seat":
                asked = None
            seat = match.to_act if asked is None else asked
            actions = match.legal(seat) if seat is not None else []
            if self.fault == "seat-between-hands" and seat is None:
                seat = 0
            if self.fault == "malformed-legal":
                return {"type": "legal", "seat": seat, "actions": ",".join(actions)}
            return {"type": "legal", "seat": seat, "actions": actions}
        if kind == "apply":
            action = msg.get("action")
            if not isinstance(action, str):
                raise Refused("bad_request", "'action' must be a string")
            seat = seat_field(msg, "seat", required=False)
            parse_action(action)  # bad_action before any rule
            actor = match.to_act if seat is None else seat
            if actor is None:  # between hands or after the match: nobody is to act
                actor = 0
            match.apply(actor, action)
            return {"type": "ok"}
        if kind == "resign":
            match.resign(int(seat_field(msg, "seat", required=True) or 0))
            return {"type": "ok"}
        # deal
        deck = check_deck(msg)
        if match.phase == "over":
            raise illegal("core.over", "the match is over")
        if match.phase != "deal":
            raise illegal("core.phase", "a hand is in progress")
        match.deal(deck)
        return {"type": "ok"}

    def start(self, msg: dict[str, Any]) -> dict[str, Any]:
        ruleset = msg.get("ruleset")
        if not isinstance(ruleset, str):
            raise Refused("bad_request", "'ruleset' must be a string")
        if ruleset != "marianna":
            raise Refused("unsupported", f"this engine plays marianna only, not '{ruleset}'")
        options = check_options(msg.get("options", {}))
        dealer = seat_field(msg, "dealer", required=True)
        deck = check_deck(msg)
        self.match = Match(options, int(dealer or 0), self.fault)
        self.match.deal(deck)
        return {"type": "ok"}


# ---------------------------------------------------------------------------
# Reading lines: bounded, strict JSON, one answer per non-blank line


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise ValueError("number too large for a double")
    return value


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the name '{key}' is given twice")
        out[key] = value
    return out


def decode(raw: bytes) -> Any:
    """The JSON value of a line, or bad_json."""
    try:
        text = raw.decode("utf-8")
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite,
                          object_pairs_hook=_unique)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise Refused("bad_json", f"not a JSON line: {exc}") from None


def read_line(inp: Any) -> tuple[bytes | None, bool]:
    """The next line without its line feed, and whether it was too long; (None, _) at the end."""
    line = inp.readline(MAX_LINE + 2)
    if not line:
        return None, False
    if line.endswith(b"\n"):
        line = line[:-1]
    elif len(line) > MAX_LINE:  # too long: skip to the line feed
        while True:
            more = inp.readline(1 << 16)
            if not more or more.endswith(b"\n"):
                break
        return b"", True
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) > MAX_LINE:
        return b"", True
    return line, False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fault", choices=sorted(FAULTS), help="plant one mistake")
    parser.add_argument("--list-faults", action="store_true", help="list the faults and exit")
    args = parser.parse_args(argv)
    if args.list_faults:
        for name, text in FAULTS.items():
            print(f"{name:20} {text}")
        return 0
    engine = Engine(args.fault)
    inp, out = sys.stdin.buffer, sys.stdout
    while True:
        raw, too_long = read_line(inp)
        if raw is None:
            return 0
        msg: Any = None
        try:
            if too_long:
                raise Refused("bad_json", f"the line is longer than {MAX_LINE} bytes")
            if not raw.strip(b" \t\r"):
                continue  # blank lines are never answered
            msg = decode(raw)
            if not isinstance(msg, dict):
                raise Refused("bad_json", "the line is not a JSON object")
            if not isinstance(msg.get("type"), str):
                raise Refused("bad_request", "the object has no string 'type'")
            reply = engine.handle(msg)
        except Refused as exc:
            reply = {"type": "error", "code": exc.code, "message": exc.message}
            if exc.rule is not None:
                reply["rule"] = exc.rule
        if isinstance(msg, dict) and "id" in msg:
            reply["id"] = msg["id"]
        if engine.fault == "python-repr" and reply.get("type") == "state" and reply["trick"] > 1:
            out.write(f"{reply}\n")  # the mistake: Python's repr is not JSON
        else:
            out.write(json.dumps(reply) + "\n")
        out.flush()
        if reply.get("type") == "bye":
            return 0


if __name__ == "__main__":
    sys.exit(main())
