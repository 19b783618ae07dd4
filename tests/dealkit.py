"""An independent dealer, written from the documents alone, for ``test_independent_deal``.

Everything here follows the published contract, the way an engine author in
another language would read it, without importing :mod:`mariage`:

* ``docs/prng.rst``: SplitMix64, ``below(n)`` with rejection, the Fisher-Yates
  shuffle from the top index down, the canonical deck, the order of the draws
  (first dealer, then per hand the first player by lot and the shuffle, or the
  gathered pack and its cut);
* ``docs/spec-language.rst``: how a description is built (``extends`` merges
  mappings key by key, ``null`` removes a key; options *bind* or have
  *effects* on dotted paths; ``default_when``; ``invalid_when``);
* ``docs/protocol.rst`` ("How the deck is dealt") and the ``deal`` section of
  each description (packets from the seat after the dealer, the turn-up, the
  stock top first, the talon, the seat sitting out).

The descriptions are read with ``yaml.safe_load`` from ``spec/``.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

SPEC_DIR = Path(__file__).resolve().parent.parent / "spec"
MASK64 = (1 << 64) - 1


# ----------------------------------------------------------------- the generator
class SplitMix64:
    """The deal generator of ``docs/prng.rst``."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next_u64(self) -> int:
        """Advance the state, then mix it."""
        self.state = (self.state + GOLDEN) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A whole number from 0 to n - 1, draws in the last incomplete block thrown away."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def shuffle(self, deck: list[str]) -> None:
        """Fisher-Yates from the last position down to 1."""
        for i in range(len(deck) - 1, 0, -1):
            j = self.below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]


GOLDEN = 0x9E3779B97F4A7C15


def _unshift(y: int, k: int) -> int:
    """The z with ``z ^ (z >> k) == y``."""
    z = y
    for _ in range(64 // k + 1):
        z = y ^ (z >> k)
    return z & MASK64


def seed_whose_output(k: int, x: int) -> int:
    """A seed whose ``k``-th ``next_u64`` (from 1) is ``x``: the mix is a bijection, so
    undo it and step the state back (to reach the draws ``below`` must throw away)."""
    z = _unshift(x, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK64
    z = _unshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK64
    z = _unshift(z, 30)
    return (z - k * GOLDEN) & MASK64


# ------------------------------------------------------------ the descriptions
def _merge(base: Any, over: Any) -> Any:
    """Mappings merge key by key, anything else is replaced, ``None`` removes a key."""
    if not (isinstance(base, dict) and isinstance(over, dict)):
        return copy.deepcopy(over)
    out = copy.deepcopy(base)
    for key, value in over.items():
        if value is None:
            out.pop(key, None)
        elif key in out:
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


@functools.cache
def _resolved(name: str) -> dict[str, Any]:
    text = (SPEC_DIR / f"{name}.yaml").read_text(encoding="utf-8")
    doc = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # safe only
    base = doc.get("extends")
    if base is None:
        return dict(doc)
    merged: dict[str, Any] = _merge(_resolved(base), doc)
    merged.pop("extends", None)
    return merged


def raw_spec(name: str) -> dict[str, Any]:
    """The description ``name`` with its ``extends`` chain resolved (options not applied)."""
    return copy.deepcopy(_resolved(name))


def rulesets() -> list[str]:
    """Every bundled ruleset (the file names of ``spec/``)."""
    return sorted(p.stem for p in SPEC_DIR.glob("*.yaml"))


def _same(a: Any, b: Any) -> bool:
    """Option values compared with their type (``true`` is not ``1``), keys of effects
    being strings where the YAML wrote them so (``'32'`` for the int 32)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return a == b or str(a) == str(b)


def _holds(when: Mapping[str, Any], values: Mapping[str, Any]) -> bool:
    return all(_same(values.get(k), v) for k, v in when.items())


def settle(doc: Mapping[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """Every option's value: the given one, else the first ``default_when`` case, else the
    default (an option with cases settled after those its cases name)."""
    options = doc.get("options") or {}
    values: dict[str, Any] = {}
    pending = list(options)
    while pending:
        for name in pending:
            opt = options[name]
            cases = opt.get("default_when") or []
            needs = {k for case in cases for k in case["when"]} - {name}
            if name in given or not needs & set(pending):
                break
        pending.remove(name)
        if name in given:
            values[name] = given[name]
            continue
        values[name] = opt.get("default")
        for case in cases:
            if _holds(case["when"], values):
                values[name] = case["value"]
                break
    return values


def refusal(doc: Mapping[str, Any], values: Mapping[str, Any]) -> str | None:
    """Why the ``invalid_when`` cases refuse these values, or None where they are playable."""
    for name, opt in (doc.get("options") or {}).items():
        for case in opt.get("invalid_when") or []:
            if _same(values.get(name), case["value"]) and _holds(case["when"], values):
                return f"{name}={case['value']}: {case.get('because', '')}"
    return None


def _set_path(doc: dict[str, Any], path: str, value: Any) -> None:
    parts = path.split(".")
    node = doc
    for part in parts[:-1]:
        node = node.setdefault(part, {})
    node[parts[-1]] = copy.deepcopy(value)


def _effects_of(effects: Mapping[Any, Any], value: Any) -> Mapping[str, Any]:
    for key, eff in effects.items():
        if _same(key, value):
            return eff or {}
    return {}


def apply_options(doc: dict[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """The description with the options applied, in declaration order."""
    out = copy.deepcopy(doc)
    for name, opt in (doc.get("options") or {}).items():
        value = values[name]
        for path in opt.get("binds") or []:
            _set_path(out, path, value)
        for path, new in _effects_of(opt.get("effects") or {}, value).items():
            _set_path(out, path, new)
    return out


@dataclass
class Game:
    """What dealing needs from one description, options applied."""

    name: str
    options: dict[str, Any]
    doc: dict[str, Any]

    @classmethod
    def load(cls, name: str, options: Mapping[str, Any] | None = None) -> Game:
        raw = raw_spec(name)
        for key, value in (options or {}).items():
            opt = (raw.get("options") or {}).get(key)
            allowed = [True, False] if opt and opt.get("type") == "bool" else \
                (opt or {}).get("values")
            if opt is None or (allowed is not None and not any(_same(value, v)
                                                               for v in allowed)):
                raise ValueError(f"{name}: option {key}={value!r} is not offered")
        values = settle(raw, options or {})
        why = refusal(raw, values)
        if why is not None:
            raise ValueError(f"{name}: refused by invalid_when ({why})")
        return cls(name, dict(options or {}), apply_options(raw, values))

    def get(self, path: str, default: Any = None) -> Any:
        """The value at a dotted path, or ``default``."""
        node: Any = self.doc
        for part in path.split("."):
            if not isinstance(node, dict) or part not in node:
                return default
            node = node[part]
        return node

    def on(self, path: str) -> bool:
        """A rule present and not switched off (``enabled: false``)."""
        rule = self.get(path)
        return isinstance(rule, dict) and rule.get("enabled", True) is not False

    @property
    def nseats(self) -> int:
        return int(self.get("players.count"))

    @property
    def teams(self) -> list[list[int]]:
        return [list(t) for t in self.get("players.teams")]

    def canonical_deck(self) -> list[str]:
        """Suits in listed order, ranks high to low, removed ranks and cards left out."""
        gone_ranks = set(self.get("pack.remove_ranks") or [])
        gone_cards = set(self.get("pack.remove_cards") or [])
        return [r + s for s in self.get("pack.suits") for r in self.get("pack.ranks")
                if r not in gone_ranks and r + s not in gone_cards]

    def packet_rounds(self) -> list[int]:
        """The packet size of each round of the deal."""
        packets = self.get("deal.packets")
        if packets:
            return [int(p) for p in packets]
        size, packet = int(self.get("deal.hand_size")), int(self.get("deal.packet"))
        return [packet] * (size // packet)

    def sitter(self, dealer: int | None) -> int:
        """The seat sitting the hand out, or -1."""
        if dealer is None or not self.on("deal.sits_out"):
            return -1
        who = self.get("deal.sits_out.who")
        n = self.nseats
        return {"dealer": dealer, "before_dealer": (dealer - 1) % n,
                "opposite_dealer": (dealer + n // 2) % n}[who]


# ------------------------------------------------------------------- the deal
@dataclass
class Deal:
    """One hand as dealt: every place of the deck accounted for."""

    deck: list[str]
    dealer: int | None
    first_player: int | None
    hands: list[list[str]]
    places: dict[str, int]  # card -> its place in the deck
    out: int = -1
    turn_up: str | None = None
    stock: list[str] = field(default_factory=list)  # top (next drawn) first, turn-up last
    talon: list[list[str]] = field(default_factory=list)  # the talon's packets, deck order
    receivers: list[int] = field(default_factory=list)  # seats dealt, first one first

    @property
    def leader(self) -> int:
        """The first seat dealt (after the dealer), or the first player by lot."""
        return self.first_player if self.first_player is not None else self.receivers[0]


def playing_order_from(game: Game, first: int, out: int = -1) -> list[int]:
    """Every seat in playing order from ``first``, the seat sitting out passed over."""
    n = game.nseats
    return [(first + i) % n for i in range(n) if (first + i) % n != out]


def deal(game: Game, deck: Sequence[str], dealer: int | None,
         first_player: int | None = None) -> Deal:
    """Deal ``deck`` (top card first) as protocol.rst and the ``deal`` section say."""
    deck = list(deck)
    n = game.nseats
    out = game.sitter(dealer)
    receivers = playing_order_from(game, 0 if dealer is None else (dealer + 1) % n, out)
    hands: list[list[str]] = [[] for _ in range(n)]
    pos = 0
    turn_up: str | None = None
    mode = game.get("deal.turn_up", "none")
    after = game.get("deal.turn_up_after") or "all_cards"
    rounds = game.packet_rounds()
    for r, size in enumerate(rounds):
        for seat in receivers:
            hands[seat].extend(deck[pos:pos + size])
            pos += size
        if mode == "under_stock" and after == "first_round" and r == 0 and len(rounds) > 1:
            turn_up, pos = deck[pos], pos + 1
    if mode in ("under_stock", "to_taker") and turn_up is None:
        turn_up, pos = deck[pos], pos + 1
    if mode == "dealer_last":
        assert dealer is not None
        turn_up = hands[dealer][-1]
    rest = deck[pos:]
    stock: list[str] = []
    talon: list[list[str]] = []
    if game.on("talon"):
        if game.on("talon.packets"):
            count = int(game.get("talon.packets.count"))
            each = len(rest) // count
            talon = [rest[i * each:(i + 1) * each] for i in range(count)]
        else:
            talon = [rest]
    else:
        stock = rest + ([turn_up] if mode == "under_stock" and turn_up else [])
    return Deal(deck, dealer, first_player, hands, {c: i for i, c in enumerate(deck)},
                out, turn_up, stock, talon, receivers)


# ------------------------------------------------------------- a seeded match
class SeededMatch:
    """The decks, dealers and first players of a seeded match, hand by hand."""

    def __init__(self, game: Game, seed: int, rng: type[SplitMix64] = SplitMix64) -> None:
        self.game = game
        self.rng = rng(seed)
        self.hand_no = 0
        how = game.get("deal.first_dealer")
        self.first_dealer: int | None = {
            "lot": lambda: self.rng.below(game.nseats),
            "none": lambda: None,
            "last_seat": lambda: game.nseats - 1,
            "seat": lambda: int(game.get("deal.first_dealer_seat")),
        }[how]()

    def next_deal(self, dealer: int | None, gathered: Sequence[str] | None = None) -> Deal:
        """The next hand's deal by ``dealer``; ``gathered`` is the last hand's pack
        gathered (``deal.gather``), used from the second hand on where the rules say so."""
        self.hand_no += 1
        first_player = None
        if self.game.get("lead.first.who") == "lot":
            first_player = self.rng.below(self.game.nseats)
        if self.hand_no > 1 and self.game.on("deal.gather"):
            assert gathered is not None
            pack = list(gathered)
            least = int(self.game.get("deal.gather.cut_min"))
            k = least + self.rng.below(len(pack) - 2 * least + 1)
            deck = pack[k:] + pack[:k]
        else:
            deck = self.game.canonical_deck()
            self.rng.shuffle(deck)
        return deal(self.game, deck, dealer, first_player)


def gather(game: Game, played: Sequence[str], dealt: Deal,
           left: Sequence[Sequence[str]]) -> list[str]:
    """The pack gathered after a hand (prng.rst): the cards played, tricks in the order
    won and each trick in play order; then each seat's hand from seat 0, its cards in
    canonical order; the turn-up; the stock from its top; any other card canonically."""
    canon = game.canonical_deck()
    rank = {c: i for i, c in enumerate(canon)}
    out: list[str] = []
    seen: set[str] = set()

    def add(cards: Sequence[str]) -> None:
        for c in cards:
            if c not in seen:
                seen.add(c)
                out.append(c)

    add(played)
    for hand in left:
        add(sorted(hand, key=rank.__getitem__))
    if dealt.turn_up:
        add([dealt.turn_up])
    add(dealt.stock)
    add(canon)
    return out


def next_dealer(game: Game, dealer: int | None, winner_seat: int | None,
                loser_seat: int | None, ended: str, thrown_in: bool = False) -> int | None:
    """The dealer of the next hand by ``deal.rotation.next`` and how the hand ended;
    ``thrown_in``: a player threw the hand in by a claim (``redeal``)."""
    if dealer is None:
        return None
    n = game.nseats
    how = game.get("deal.rotation.next")
    if thrown_in:  # "not scored and dealt again" (throw_in): by the same dealer
        return dealer
    if ended in ("void", "redeal"):  # nobody took, or nobody bid
        same = "same_dealer" in (game.get("taking.all_pass.next"),
                                 game.get("suit_auction.all_pass.next"))
        return dealer if same else (dealer + 1) % n
    if how == "next_seat":
        return (dealer + 1) % n
    if how in ("hand_winner", "hand_loser"):
        seat = winner_seat if how == "hand_winner" else loser_seat
        return dealer if seat is None else seat
    raise AssertionError(f"unknown rotation {how!r}")

