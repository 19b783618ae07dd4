"""Random matches played by two engines side by side through the engine protocol: the
same requests to both, every answer compared (``message`` aside, legal lists and the
sets of cards in a state in one order). Used against ``mariage engine`` by the tests of
the example engines written in other languages; also a script::

    python tests/enginediff.py 'node conformance/examples/belote_engine.js' belote 0 200

The reference is served in this process (:class:`Reference`) unless a command is given
for it: the comparison is the same, without an interpreter to start and compile the
rules in, and without a second process to wake at every request (nor a thread and two
pipes: the requests and answers pass through the protocol's JSON, as on the wire).
"""

from __future__ import annotations

import json
import os
import random
import shlex
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import Any

import protokit
from mariage.conformance.engine import ReferenceEngine
from mariage.conformance.protocol import decode, encode

#: a match's options, drawn by a random generator
Options = Callable[[random.Random], dict[str, Any]]


class Engine(protokit.Engine):
    """An engine command over the protocol, said hello to (this package's reference
    first on ``PYTHONPATH``), stopped by ``close`` whatever state it is in."""

    def __init__(self, command: Sequence[str]) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(protokit.REFERENCE), env.get("PYTHONPATH", "")])
        self.proc = subprocess.Popen(list(command), env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        self.ask({"type": "hello", "protocol": 2})

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


class Reference:
    """The reference engine in this process, said hello to: ``mariage engine``'s answers,
    as its protocol loop (:func:`mariage.conformance.engine.serve`) makes them from a
    request, each request and answer passed through the protocol's JSON (encoded and
    decoded, as on the wire), without the loop's thread and pipes: a third of the
    Python time of a random match went to them (the loop itself is checked by the
    protocol suite, tests/test_conformance_protocol_suite.py). ``ask`` and ``request``
    are one: the second is :class:`~mariage.conformance.client.EngineClient`'s name."""

    def __init__(self) -> None:
        self.engine = ReferenceEngine()
        self.hello()

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        msg = decode(encode(request))
        answer = self.engine.handle(msg)
        if "id" in msg:  # copied into the answer, as the loop does
            answer["id"] = msg["id"]
        decoded: dict[str, Any] = decode(encode(answer))
        return decoded

    request = ask

    def hello(self) -> dict[str, Any]:
        return self.ask({"type": "hello", "protocol": 2})

    def close(self) -> None:
        self.ask({"type": "quit"})


#: either side of a comparison
Side = Engine | Reference


def _side(command: Sequence[str] | None) -> Side:
    return Reference() if command is None else Engine(command)


def normal(answer: dict[str, Any]) -> dict[str, Any]:
    """``answer`` without its free-text message, its unordered lists sorted."""
    out = {k: v for k, v in answer.items() if k != "message"}
    if out.get("type") == "legal":
        out["actions"] = sorted(out["actions"])
    if out.get("type") == "state":
        out["hands"] = [sorted(h) for h in out.get("hands", [])]
        if out.get("takers"):
            out["takers"] = {**out["takers"],
                             "shown": [sorted(h) for h in out["takers"]["shown"]]}
    return out


def play(engines: tuple[Side, Side], ruleset: str, pack: list[str], seed: int,
         options: Options, noise: Callable[[random.Random], str],
         steps: int = 800) -> str | None:
    """One random match from ``seed``: None if both engines answered every request
    alike, else a description of the first difference. A quarter of the actions are
    drawn from ``noise`` (mostly illegal); legal lists are asked for the seat to act
    and for a random seat; announcements, belotes and takes are preferred."""
    rng = random.Random(seed)
    opts = options(rng)
    deck = pack[:]
    rng.shuffle(deck)
    log: list[dict[str, Any]] = []
    last: list[dict[str, Any]] = []      # the two answers to the last request

    def both(request: dict[str, Any]) -> dict[str, Any] | None:
        last[:] = [normal(e.ask(request)) for e in engines]
        log.append(request)
        return last[1] if last[0] == last[1] else None

    start = {"type": "start", "ruleset": ruleset, "dealer": rng.randrange(4),
             "deck": deck, "options": opts}
    started = both(start)
    if started is None:
        return _told(seed, opts, log, last)
    if started["type"] == "error":      # refused alike (options out of their ranges)
        return None
    for _ in range(steps):
        state = both({"type": "state"})
        if state is None:
            return _told(seed, opts, log, last)
        if state["terminal"]:
            return None
        if state["phase"] == "deal":
            deck = pack[:]
            rng.shuffle(deck)
            if both({"type": "deal", "deck": deck}) is None:
                return _told(seed, opts, log, last)
            continue
        legal = both({"type": "legal", "seat": rng.randrange(4)}) and both({"type": "legal"})
        if legal is None:
            return _told(seed, opts, log, last)
        acts = legal["actions"]
        said = [a for a in acts if ":" in a and not a.startswith(("take", "bid:"))]
        bids = [a for a in acts if a.startswith("bid:")]
        request: dict[str, Any] = {"type": "apply"}
        if rng.random() < 0.25:
            request["action"] = noise(rng)
            if rng.random() < 0.3:
                request["seat"] = rng.randrange(4)
        elif bids or "coinche" in acts or "surcoinche" in acts:
            request["action"] = _auction_pick(rng, acts, bids)
        elif said and rng.random() < 0.7:
            request["action"] = rng.choice(said)
        elif any(a.startswith("take") for a in acts) and rng.random() < 0.5:
            request["action"] = rng.choice([a for a in acts if a.startswith("take")])
        else:
            request["action"] = rng.choice(acts)
        if both(request) is None:
            return _told(seed, opts, log, last)
    return None


def _auction_pick(rng: random.Random, acts: list[str], bids: list[str]) -> str:
    """An auction's action: mostly a pass, else one of the lowest bids (now and then capot
    or générale), a coinche or a surcoinche."""
    r = rng.random()
    doubles = [a for a in acts if a in ("coinche", "surcoinche")]
    if doubles and r < 0.3:
        return rng.choice(doubles)
    if bids and r < 0.6:
        numeric = [b for b in bids if b.split(":")[1].isdigit()]
        low = numeric[:8] if numeric and rng.random() < 0.9 else bids
        return rng.choice(low)
    return "pass"


def _told(seed: int, opts: dict[str, Any], log: list[dict[str, Any]],
          last: list[dict[str, Any]]) -> str:
    mine, ref = last
    return (f"seed {seed}, options {json.dumps(opts)}: after {len(log) - 1} requests, "
            f"{json.dumps(log[-1])}\n  (last requests: {json.dumps(log[-6:-1])})\n"
            f"  engine: {json.dumps(mine)}\n  reference: {json.dumps(ref)}")


BELOTE_CHOICES: dict[str, list[Any]] = {
    "deal_packets": ["3-2", "2-3"], "second_round_suits": ["other_suits", "any_suit"],
    "second_round_sa_ta": [False, True], "all_pass": ["next_dealer", "same_dealer"],
    "second_deal_start": ["eldest", "taker"], "must_overtrump_partner": [True, False],
    "partner_trump_undertrump": ["no_undertrump", "allowed", "overtrump_if_only_trumps"],
    "undertrump": ["required", "optional", "forbidden_unless_only_trumps"],
    "trump_when_partner_master": ["free", "must_trump"], "announcements": [True, False],
    "long_sequence": ["single_hundred", "split"], "card_in_two_combinations": [False, True],
    "announce_tie": ["none_score", "first_in_rotation"], "belote_order": ["any", "king_first"],
    "belote_declare": ["explicit", "automatic"], "belote_counts_for_contract": [True, False],
    "belote_on_failure": ["holder_keeps", "goes_to_winner"],
    "belote_alone_cannot_win": [True, False], "dedans_rule": ["litige", "tie_fails", "tie_makes"],
    "capot_value": [252, 250, 162], "rounding": ["none", "nearest10_5up", "nearest10_6up"],
    "direction": ["anticlockwise", "clockwise"], "first_dealer": ["random", "seat0", "seat3"],
    "target": [1, 50, 100, 200, 300, 500], "deal_limit": [0, 1, 2, 3],
    "dedans_points": [0, 54, 160, 162],
}
BELOTE_PACK = [r + s for s in "HDCS" for r in "ATKQJ987"]
#: the options of belote-coinche, those of belote it keeps among them
COINCHE_CHOICES: dict[str, list[Any]] = {
    **{k: v for k, v in BELOTE_CHOICES.items() if k not in (
        "deal_packets", "second_round_suits", "second_round_sa_ta", "second_deal_start",
        "dedans_points", "capot_value")},
    "target": [1, 100, 300, 500, 1000], "generale": [0, 0, 400, 1000],
    "coinche_timing": ["in_turn", "any_time"], "rounding_decides_game": [True, False],
    "coinche_deal_packets": ["3-2-3", "3-3-2", "2-3-3", "4-4"],
    "bid_min": [10, 80, 90, 100, 160], "bid_step": [10, 15, 20], "bid_max": [80, 160, 170, 240],
    "capot_coinchable": [True, False], "must_beat_defence": [True, False],
    "bid_80_needs_82": [True, False], "belote_multiplied": [True, False],
    "multiplier_base": ["whole_score", "bid_only", "fixed_320_640"],
    "surcoinche_multiplier": [4, 3], "failed_base": [160, 162],
    "coinche_score_mode": ["made_plus_bid", "bid_only", "made_only"], "sa_ta": [False, True],
    "ta_values": ["ffb2015", "pagat", "convert_162_258"], "ta_must_beat_partner": [True, False],
    "capot_scoring": ["ffb", "pagat"], "defence_capot_250": [True, False],
    "coinche_freezes": [True, False],
}
CONTREE_CHOICES = {k: v for k, v in COINCHE_CHOICES.items() if k not in (
    "announcements", "long_sequence", "card_in_two_combinations", "announce_tie")}
CHOICES = {"belote": BELOTE_CHOICES, "belote-coinche": COINCHE_CHOICES,
           "belote-contree": CONTREE_CHOICES}


def belote_options(rng: random.Random) -> dict[str, Any]:
    """Each option of ``belote`` at a random value, a third of the time."""
    return {k: rng.choice(v) for k, v in BELOTE_CHOICES.items() if rng.random() < 0.35}


def auction_options(ruleset: str) -> Options:
    """Each option of an auction preset at a random value, a third of the time."""
    return lambda rng: {k: rng.choice(v) for k, v in CHOICES[ruleset].items()
                        if rng.random() < 0.35}


def belote_noise(rng: random.Random) -> str:
    """A random action text of the Belote family (and a few of other games)."""
    return rng.choice([
        "take", "pass", "take:" + rng.choice(["H", "D", "C", "S", "SA", "TA"]),
        rng.choice(BELOTE_PACK), "belote:" + rng.choice(BELOTE_PACK),
        rng.choice(["tierce", "cinquante", "cent"]) + ":" + rng.choice(BELOTE_PACK),
        "carre:" + rng.choice("AKQJT987"), "yes", "close", "coinche", "surcoinche",
        "bid:" + rng.choice(["80", "90", "95", "100", "160", "250", "capot", "generale"]) + ":"
        + rng.choice(["H", "S", "SA", "TA"])])


def differences(engine: Sequence[str], reference: Sequence[str] | None, seeds: range,
                stop: int = 1, ruleset: str = "belote") -> list[str]:
    """The differences found in matches of Belote (or ``ruleset``, one of its auction
    presets) from ``seeds`` (at most ``stop``; the engines are started again after each)
    between ``engine`` and the ``reference`` command (``None``: the reference in this
    process)."""
    options = belote_options if ruleset == "belote" else auction_options(ruleset)
    found: list[str] = []
    pair = (Engine(engine), _side(reference))
    try:
        for seed in seeds:
            told = play(pair, ruleset, BELOTE_PACK, seed, options, belote_noise)
            if told is not None:
                found.append(told)
                if len(found) >= stop:
                    break
                for e in pair:
                    e.close()
                pair = (Engine(engine), _side(reference))
    finally:
        for e in pair:
            e.close()
    return found


if __name__ == "__main__":
    cmd, ruleset, lo, hi = sys.argv[1:5]
    told = differences(shlex.split(cmd), [sys.executable, "-m", "mariage", "engine"],
                       range(int(lo), int(hi)), stop=3, ruleset=ruleset)
    print("\n".join(told) or f"no difference in seeds {lo}..{hi}")
