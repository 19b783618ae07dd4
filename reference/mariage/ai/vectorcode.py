"""The generated code of the observation vectors: one function per observing seat.

:class:`~mariage.ai.encoding.Encoder` makes a seat's vector by one function written
for that seat and the ruleset's layout (:func:`~mariage.ai.layout.observation_features`),
with every offset, the seats and sides counted from the observer and the tables of the
one-hot parts written in: no loop over the seats or sides, no offset looked up. Every
part that is 0 or 1 is set as a bit of one Python int, unpacked at once into float32
(a table of each byte's eight values); the parts that are not (hand sizes, stock,
points, standing) are written after into the array's bytes at once (``struct``). The
arguments are those of a :data:`~mariage.ai.encoding.Snapshot`, in its order.

>>> from mariage import load_rules, new_match
>>> rules = load_rules("schnapsen")
>>> state = new_match(rules, 1)
>>> make = vector_functions(rules, False)
>>> vec = make[1](state.hands, state.known, state.trick_cards, state.tricks,
...               state.turn_up, state.trump, state.phase, state.to_act, state.leader,
...               len(state.stock), state.captured, state.decl_points, state.standing(),
...               state.declared, None, 0, 0)
>>> from mariage.ai.encoding import Encoder
>>> bool((vec == Encoder(rules).vector(state, 1)).all())
True
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

import numpy as np

from mariage import codegen
from mariage.engine.phase import Phase
from mariage.engine.rules import Rules

from .layout import bid_scale, observation_features, standing_scale

__all__ = ["vector_functions"]

_PHASES = tuple(Phase)

# each byte value as its eight bits, least significant first, as float32
_BITS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1,
                      bitorder="little").astype(np.float32)

_ARGS = ("hands, known, trick, tricks, turn_up, trump, phase, to_act, leader, stock, "
         "captured, decl_points, standing, declared, bidding, said, picked")


def _source(rules: Rules, seat: int, open_hands: bool) -> str:
    """The source of the vector function of ``seat`` (see the module)."""
    n, c, s = rules.nseats, rules.ncards, len(rules.suits)
    t = len(rules.teams)
    off = {f.name: f.offset for f in observation_features(rules)}
    sizes = {f.name: f.size for f in observation_features(rules)}
    size = sum(sizes.values())
    # the parts that are not 0 or 1 follow one another: written as one slice
    assert off["stock_size"] == off["hand_sizes"] + n and off["hand_points"] == \
        off["stock_size"] + 1 and off["standing"] == off["hand_points"] + t
    seats = [(seat + k) % n for k in range(n)]
    side = rules.team_of[seat]
    sides = [(side + k) % t for k in range(t)]
    hand_parts = [f"hands[{seat}]"]
    for k, other in enumerate(seats[1:], 1):
        part = f"hands[{other}]" if open_hands else f"(known[{other}] & hands[{other}])"
        hand_parts.append(f"{part} << {k * c}")
    to_act = {q: 1 << (off["to_act"] + (q - seat) % n) for q in range(n)}
    to_act_none = 1 << (off["to_act"] + n)
    leader = tuple(1 << (off["leader"] + (q - seat) % n) for q in range(n))
    lines = [
        f"def vector_{seat}({_ARGS}):",
        # the cards of the finished tricks, kept from call to call (see _played)
        "    played = _played(tricks)",
        f"    bits = {' | '.join(hand_parts)}",
        f"    at = {n * c}",
        "    for card in trick:",
        "        bits |= 1 << (at + card)",
        "        played |= 1 << card",
        f"        at += {c}",
        f"    bits |= played << {off['played']}",
        f"    bits |= 1 << ({off['turn_up']} + ({c} if turn_up is None else turn_up))",
        f"    bits |= 1 << ({off['trump']} + ({s} if trump < 0 else trump))",
        "    bits |= _phase_bit[phase]",
        f"    bits |= {to_act_none} if to_act is None else _to_act_bit_{seat}[to_act]",
        "    if phase is not _DEAL and phase is not _OVER:",
        f"        bits |= _leader_bit_{seat}[leader]",
    ]
    if "picked" in off:  # seen by the picker only (and in the open-handed global state)
        cond = "picked" if open_hands else f"picked and to_act == {seat}"
        lines += [f"    if {cond}:", f"        bits |= picked << {off['picked']}"]
    if "said" in off:  # what was said: each seat's block moved to its place from the
        # observer (said_reader of mariage.ai.sayings: seat q's block at q * block)
        block = sizes["said"] // n
        turned = "said" if not seat else (
            f"(said >> {seat * block} | (said & {(1 << seat * block) - 1}) << "
            f"{(n - seat) * block})")
        lines += ["    if said:", f"        bits |= {turned} << {off['said']}"]
    bidding_floats: list[str] = []
    if "bid" in off:  # the auction's present: bidding_of() of encoding (a tuple)
        lines += [
            "    (high_bid, holder, declarer, contract, doubled, bid_suit, strain, passed,"
            " passes) = bidding",
            f"    bits |= _holder_bit_{seat}[holder] | _declarer_bit_{seat}[declarer]",
            *[f"    if passed[{q}]:\n        bits |= {1 << (off['passed'] + (q - seat) % n)}"
              for q in range(n)]]
        if off["strain"] != off["passed"]:  # (strains: a part of their own)
            k = len(rules.strain_names)
            lines.append(f"    bits |= 1 << ({off['strain']} + "
                         f"({k} if strain < 0 else strain - {s}))")
        if off["bid_suit"] != off["strain"]:  # (a suit auction)
            lines.append(f"    bits |= 1 << ({off['bid_suit']} + "
                         f"({s + len(rules.strain_names)} if bid_suit < 0 else bid_suit))")
        # (the auction's numbers follow the standing: written in the same slice)
        assert off["bid"] == off["standing"] + t
        bidding_floats = ["high_bid / _BID", "contract / _BID", "doubled", f"passes / {n}"]
    lines += [
        "    if declared:",
        "        for _, kind, suit, _ in declared:",
        "            if kind >= 0:",
        f"                bits |= 1 << ({off['declared']} + kind * {s} + suit)",
        # (an array of the first size values over the unpacked bytes: no reshape, no slice)
        f"    out = _over({size}, _F32, _take(_frombuffer(bits.to_bytes({(size + 7) // 8}, "
        f"'little'), _U8), 0))",
    ]
    floats = [f"hands[{q}].bit_count() / {c}" for q in seats]
    floats.append(f"stock / {c}")
    # a side's points as GameState.hand_points counts them
    floats += [f"(captured[{m}] + decl_points[{m}]) / _PACK" for m in sides]
    floats += [f"standing[{m}] / _TARGET" for m in sides]
    floats += bidding_floats
    # (written into the array's bytes as float32 in the machine's byte order, numpy's,
    # in C: no array made of a tuple)
    lines += [f"    _pack_{seat}(out, {4 * off['hand_sizes']}, {', '.join(floats)})",
              "    return out", "", f"_pack_{seat} = _Struct('={len(floats)}f').pack_into"]
    # the one-hot bits of the seat to act and the leader, by seat
    lines += [f"_to_act_bit_{seat} = {to_act!r}", f"_leader_bit_{seat} = {leader!r}", ""]
    if "bid" in off:  # (by seat, and -1: nobody)
        for part in ("holder", "declarer"):
            at = off["bid_holder" if part == "holder" else "declarer"]
            bit = {q: 1 << (at + (q - seat) % n) for q in range(n)}
            bit[-1] = 1 << (at + n)
            lines += [f"_{part}_bit_{seat} = {bit!r}", ""]
    return "\n".join(lines)


#: the functions made per rules (by id, the rules kept to check it) and open_hands
_KEPT: dict[tuple[int, bool], tuple[Rules, tuple[Callable[..., Any], ...]]] = {}


def vector_functions(rules: Rules, open_hands: bool) -> tuple[Callable[..., Any], ...]:
    """Per seat, the function making its observation vector from the arguments of a
    snapshot (see the module); ``open_hands``: every hand visible (the global state).
    Made once per rules (at most 64 kept): an environment makes its encoders anew."""
    key = (id(rules), open_hands)
    hit = _KEPT.get(key)
    if hit is None or hit[0] is not rules:
        if len(_KEPT) >= 64:
            _KEPT.clear()
        hit = _KEPT[key] = (rules, _made(rules, open_hands))
    return hit[1]


def _made(rules: Rules, open_hands: bool) -> tuple[Callable[..., Any], ...]:
    """The functions of :func:`vector_functions`, written and compiled."""
    off = {f.name: f.offset for f in observation_features(rules)}
    ns: dict[str, object] = {
        "_played": _played_counter(), "_take": _BITS.take,
        "_frombuffer": np.frombuffer, "_U8": np.dtype(np.uint8),
        "_over": np.ndarray, "_F32": np.dtype(np.float32),
        "_Struct": struct.Struct,
        "_DEAL": Phase.DEAL, "_OVER": Phase.OVER,
        "_phase_bit": {p: 1 << (off["phase"] + k) for k, p in enumerate(_PHASES)},
        "_PACK": rules.pack_points or 1, "_TARGET": standing_scale(rules),
        "_BID": bid_scale(rules),
    }
    source = "".join(_source(rules, seat, open_hands) for seat in range(rules.nseats))
    codegen.run(source, f"<observation vectors of {rules.ruleset}"
                f"{' (open hands)' if open_hands else ''}>", ns)
    return tuple(ns[f"vector_{seat}"] for seat in range(rules.nseats))  # type: ignore[misc]


def _played_counter() -> Callable[[list[tuple[int, tuple[int, ...], int]]], int]:
    """A function giving the cards of the finished tricks of a hand, kept from call to
    call.

    What is kept is how many tricks were counted and the last of them (the tuple
    itself, not its id, which a new one could reuse): a trick is a tuple made when it
    ends, so a list whose trick at that place is the same tuple starts with the same
    tricks (a copy, or the same hand further on); a new hand, another state, or a trick
    taken back and played again has another tuple there.

    >>> played = _played_counter()
    >>> first, second = (0, (1, 2), 0), (1, (5, 6), 1)
    >>> played([first]), played([first, second]), played([second])
    (6, 102, 96)
    """
    # (how many tricks were counted, the last of them, their cards), one tuple read and
    # replaced at once: encoders of the same rules in several threads share it
    kept: list[tuple[int, Any, int]] = [(0, None, 0)]

    def played(tricks: list[tuple[int, tuple[int, ...], int]]) -> int:
        ntricks, last, mask = kept[0]
        if len(tricks) < ntricks or (ntricks and tricks[ntricks - 1] is not last):
            ntricks, mask = 0, 0
        for k in range(ntricks, len(tricks)):
            for card in tricks[k][1]:
                mask |= 1 << card
        if len(tricks) != ntricks:
            kept[0] = (len(tricks), tricks[-1], mask)
        return mask
    return played
