"""An independent oracle of the actions other than cards, checked against the reference.

``test_independent_play`` checks the cards a seat may play; this file checks the rest of
what the reference offers during a hand's play (``legal_actions()`` minus the plays): the
close, the exchange of the trump jack or nine, the marriages and the claims of Schnapsen
and Sixty-six, for two and three (``RULES-NOTES-schnapsen.md`` sections 1.6-1.10, 2.2-2.4,
3, 5 and 6), with the windows they come in (between a trick and the draw, the reply to a
close, after the last trick); the marriage declarations and the four-nines throw-in of
Thousand (``RULES-NOTES-thousand.md`` sections 3 and 8.1); the mariannas, the mariannino
and mariannone of Marianna and its options (``RULES-NOTES.md``), with the trick_start
window in playing order. Each oracle is written from the notes alone and reads only the
public position (the hands, the stock, the tricks taken) and the actions it has seen;
random seeded matches are driven through the public API and the oracle must give the same
set of action names at every decision.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from indepkit import many, saturation, texts_of
from mariage import GameState, Phase, Play, action_text, load_rules, new_match
from test_independent_play import (
    BEFORE_PLAY,
    _label,
    _names,
    _trump,
    assert_misread_caught,
    rank,
    suit,
)


def _hand(state: GameState, seat: int) -> set[str]:
    return set(_names(state, state.hands[seat]))


def _pairs(hand: set[str]) -> list[str]:
    """The suits in which ``hand`` holds both the king and the queen."""
    return sorted({suit(c) for c in hand if rank(c) == "K" and f"Q{suit(c)}" in hand})


@dataclass
class Book:
    """What an oracle remembers from the actions it has seen in the current hand."""

    opts: Mapping[str, Any]
    closed_by: int = -1  # the seat that closed the talon (Schnapsen, Sixty-six)
    declared_on_lead: bool = False  # a marriage announced for the coming lead
    declared: set[str] = field(default_factory=set)  # suits declared in this hand
    trick_declarers: set[int] = field(default_factory=set)  # who declared in this trick
    replied: bool = False  # the closer's opponent has answered the close (Sixty-six)
    combinations: set[str] = field(default_factory=set)  # mariannino, mariannone said
    dealt: dict[int, set[str]] = field(default_factory=dict)  # the hands as dealt
    window: list[int] = field(default_factory=list)  # the seats asked before this lead
    window_due: bool = False  # declarations were open at this trick's lead

    def seen(self, text: str, seat: int, played: bool) -> None:
        """An action by ``seat`` (``played``: a card)."""
        word, _, declared = text.partition(":")
        if played:
            self.declared_on_lead = False
        elif word == "close":
            self.closed_by, self.replied = seat, False
        elif word in ("marriage", "marianna", "mariannino", "mariannone"):
            self.declared_on_lead = True
            self.trick_declarers.add(seat)
            if word.startswith("mariannin") or word == "mariannone":
                self.combinations.add(word)
            if word != "mariannino":  # a mariannino leaves the king's marianna to say
                self.declared.add(declared)

    def trick_done(self) -> None:
        """A trick is complete."""
        self.trick_declarers, self.window = set(), []

    def deal(self, state: GameState) -> None:
        """The hands as dealt (before any bid or exchange)."""
        self.dealt = {s: _hand(state, s) for s in range(len(state.hands))}

    def new_hand(self) -> None:
        """A new hand: nothing closed or declared."""
        self.closed_by, self.declared_on_lead, self.replied = -1, False, False
        self.declared, self.trick_declarers, self.combinations = set(), set(), set()
        self.window = []


def _won_tricks(state: GameState, seat: int) -> int:
    return sum(1 for *_, winner in state.tricks if winner == seat)


def lowest(state: GameState) -> str:
    """The lowest rank of the pack (Schnapsen's jack, Sixty-six's nine)."""
    return max((rank(c) for c in state.rules.card_code), key="ATKQJ9".index)


def offers_schnapsen(state: GameState, book: Book) -> set[str]:
    """Schnapsen and Sixty-six (``RULES-NOTES-schnapsen.md``): the leader's window in the
    order exchange, close, marriage, lead (section 1.7); the claim after a won trick or a
    marriage (section 1.10); Sixty-six's close before the draw (2.4) and the exchange
    offered to the closer's opponent at the close (2.2)."""
    o, seat = book.opts, state.to_act
    hand = _hand(state, seat)
    trump = _trump(state)
    closed = book.closed_by >= 0
    talon = 0 if closed else len(state.stock)  # cards left, the turn-up included
    claim = {"claim"} if o["claim_mode"] == "explicit" else set()
    nine = f"{lowest(state)}{trump}"  # section 6 ``exchange_card``: the pack's lowest rank
    if state.phase == Phase.CLOSE_REPLY:  # section 2.2: "at the moment of a close"
        return {f"exchange:{nine}", "decline"}
    if state.phase == Phase.AFTER_TRICK:  # between a trick and the draw: the winner
        if o["close_before_draw"] and talon >= o["close_min_talon"] and o["close_allowed"]:
            return claim | {"close", "draw"}
        return claim | {"decline"}
    if state.trick_cards:
        return set()  # the follower: no action but his card
    first_lead = not state.tricks
    offers: set[str] = set()
    if book.declared_on_lead:  # "may claim immediately after declaring"
        return claim if o["claim_on_declaration"] else set()
    if state.tricks and state.tricks[-1][-1] == seat:
        offers |= claim
    if (talon >= o["exchange_min_talon"] and nine in hand
            and (not o["exchange_requires_trick"] or _won_tricks(state, seat) > 0)):
        offers.add(f"exchange:{nine}")
    if (o["close_allowed"] and talon >= o["close_min_talon"]
            and (o["close_on_first_lead"] or not first_lead)):
        offers.add("close")
    if (o["marriage_on_first_lead"] or not first_lead) and (
            o["marriage_after_close"] or talon > 0):
        offers |= {f"marriage:{s}" for s in _pairs(hand)}
    return offers


def close_reply_due(state: GameState, book: Book, closer: int) -> bool:
    """Sixty-six section 2.2: "at the moment of a close, the closer's opponent may
    exchange the trump nine" (``exchange_on_close``), offered right after the close."""
    nine = f"{lowest(state)}{_trump(state)}"
    other = _hand(state, opponent(state, closer))
    return bool(book.opts.get("exchange_on_close")) and nine in other


def opponent(state: GameState, seat: int) -> int:
    """The other player in the hand (Sixty-six for three: the dealer sits out, no cards)."""
    return next(s for s in range(len(state.hands)) if s != seat and state.hands[s])


def after_trick_window(state: GameState, book: Book) -> bool | None:
    """Whether the winner of the trick just completed (the hand going on) has a choice
    before the draw: Sixty-six's "claim, close, or draw" (section 2.4,
    ``close_before_draw``; Schnapsen: "never between a trick and the draw"), or a claim
    after the hand's last trick (section 1.11: "the winner of the last trick may claim
    after it"). None where the notes leave the moment open (no draw is due: the talon
    closed or gone, the claim then offered on the next lead)."""
    o = book.opts
    talon = 0 if book.closed_by >= 0 else len(state.stock)
    if not any(state.hands):
        return o["claim_mode"] == "explicit"
    if talon:
        return bool(o["close_before_draw"] and o["close_allowed"]
                    and talon >= o["close_min_talon"])
    return None


def throw_in(state: GameState, book: Book, seat: int) -> bool:
    """Thousand section 3: ``seat`` holds all four nines (``redeal_four_jacks``: or jacks)
    after the prikup exchange, and (``original_hand``) was dealt them all."""
    o = book.opts
    moment = o["four_nines_redeal"]
    hand = _hand(state, seat)
    for four in ["9", *("J" * bool(o["redeal_four_jacks"]))]:
        cards = {f"{four}{s}" for s in state.rules.suits}
        if cards <= hand and (moment == "after_exchange" or (
                moment == "original_hand" and cards <= book.dealt.get(seat, set()))):
            return True
    return False


def offers_thousand(state: GameState, book: Book) -> set[str]:
    """Thousand section 8.1: only the player about to lead, holding K and Q of the suit,
    once per lead, and not on the deal's first lead (``marriage_first_lead``); before the
    first lead, the throw-in of four nines (section 3)."""
    o, seat = book.opts, state.to_act
    if state.trick_cards or book.declared_on_lead:
        return set()
    pairs = {f"marriage:{s}" for s in _pairs(_hand(state, seat))}
    if not state.tricks:
        thrown = {"redeal"} if throw_in(state, book, seat) else set()
        return thrown | (pairs if o["marriage_first_lead"] else set())
    return pairs


def offers_marianna(state: GameState, book: Book) -> set[str]:
    """Marianna (``RULES-NOTES.md``): at one's own turn, before one's card, while the stock
    lasts (``trick_six``: in trick 6 too), once per player per trick, each suit once per
    hand; a mariannino (four queens and a king) or mariannone (four kings and a queen)
    needs all five cards of the hand."""
    o, seat = book.opts, state.to_act
    open_ = bool(state.stock) or (o["trick_six"] and len(state.tricks) == 5)
    start_only = o["declare_when"] == "trick_start"  # "only at the start of a trick"
    if seat in book.trick_declarers or (start_only and state.phase != Phase.WINDOW) or (
            state.trick_cards and o["declare_who"] == "leader"):
        return set()
    hand = _hand(state, seat)
    offers = {f"marianna:{s}" for s in _pairs(hand) if s not in book.declared} if open_ else set()
    if not open_ and o["combination_window"] != "any_trick":
        return offers
    kings = [c for c in hand if rank(c) == "K"]
    queens = [c for c in hand if rank(c) == "Q"]
    for word, four, one in (("mariannino", queens, kings), ("mariannone", kings, queens)):
        if len(hand) == 5 and len(four) == 4 and len(one) == 1 and not (
                o["combination_once"] and word in book.combinations):
            offers.add(f"{word}:{suit(one[0])}")
    if state.phase == Phase.WINDOW:  # trick_start: "each player ... does so or passes"
        offers.add("pass")
    return offers


Oracle = Callable[[GameState, Book], set[str]]
ORACLES: dict[str, Oracle] = {
    "schnapsen": offers_schnapsen, "sixty-six": offers_schnapsen,
    "sixty-six-3": offers_schnapsen,
    "thousand": offers_thousand, "thousand-pl": offers_thousand,
    "thousand-2": offers_thousand, "thousand-4": offers_thousand,
    "marianna": offers_marianna, "marianna-2": offers_marianna,
    "marianna-3": offers_marianna,
}


def _choose(rng: random.Random, actions: list[Any], texts: list[str]) -> Any:
    """Mostly cards, so that hands run long; the other actions often enough to see them
    all; a claim seldom (it ends the hand)."""
    plays = [a for a in actions if isinstance(a, Play)]
    calls = [a for a, t in zip(actions, texts, strict=True)
             if not isinstance(a, Play) and t != "claim"]
    if "claim" in texts and (rng.random() < 0.05 or not (plays or calls)):
        return actions[texts.index("claim")]
    if calls and (not plays or rng.random() < 0.3):
        return rng.choice(calls)
    return rng.choice(plays)


def check_offers(name: str, seed: int, options: Mapping[str, Any] | None = None,
                 max_actions: int = 400, misread: Mapping[str, Any] | None = None) -> int:
    """Drive one random seeded match; assert the oracle at every decision of the hands'
    play. Returns the decisions checked. ``misread`` gives the oracle (only) some options
    read another way."""
    rules = load_rules(name, options)
    book = Book({**dict(rules.options), **(misread or {})})
    oracle = ORACLES[name]
    state = new_match(rules, seed)
    rng = random.Random(seed)
    checked = 0
    book.deal(state)
    for _ in range(max_actions):
        if state.phase == Phase.OVER:
            break
        actions = state.legal_actions()
        texts = texts_of(rules, actions)
        if state.phase not in BEFORE_PLAY:
            ref = {t for a, t in zip(actions, texts, strict=True) if not isinstance(a, Play)}
            want = oracle(state, book)
            seat = state.to_act
            assert ref == want, (
                f"{name} seed {seed} hand {state.hand_no} trick {len(state.tricks) + 1} "
                f"{state.phase.name}: seat {seat} holds {sorted(_hand(state, seat))}, "
                f"stock {len(state.stock)}, trick {_names(state, state.trick_cards)}: "
                f"reference {sorted(ref)}, oracle {sorted(want)}")
            checked += 1
        action = (_choose(rng, actions, texts) if state.phase not in BEFORE_PLAY
                  else rng.choice(actions))
        seat, hand_no, ntricks = state.to_act, state.hand_no, len(state.tricks)
        if state.phase == Phase.WINDOW and seat not in book.window:
            book.window.append(seat)
        played_by = [*state.trick_seats, seat]
        if not state.trick_cards and isinstance(action, Play):  # the lead: was it open?
            book.window_due = bool(state.stock) or (
                bool(book.opts.get("trick_six")) and len(state.tricks) == 5)
        state.apply(action)
        text = action_text(rules, action)
        book.seen(text, seat, isinstance(action, Play))
        if text == "close" and state.hand_no == hand_no:
            reply = close_reply_due(state, book, seat)
            assert (state.phase == Phase.CLOSE_REPLY) == reply, (
                f"{name} seed {seed} hand {hand_no}: seat {seat} closed, the opponent holds "
                f"{sorted(_hand(state, opponent(state, seat)))}: reference {state.phase.name}, "
                f"oracle {'an exchange offered' if reply else 'no reply'}")
        if state.hand_no != hand_no:
            # explicit claims: the last trick's winner gets his claim window (1.11)
            assert not (oracle is offers_schnapsen and isinstance(action, Play)
                        and book.opts["claim_mode"] == "explicit"), (
                f"{name} seed {seed} hand {hand_no}: a card ended the hand, no claim offered")
            book.new_hand()
            book.deal(state)
        elif len(state.tricks) > ntricks:
            # Marianna trick_start: "by any player, taken in playing order" before the lead
            assert book.opts.get("declare_when") != "trick_start" or (
                book.window == (played_by if book.window_due else [])), (
                f"{name} seed {seed} hand {hand_no} trick {len(state.tricks)}: reference "
                f"declaring window {book.window}, trick played by {played_by}, oracle window "
                f"{'in that order' if book.window_due else 'none'}")
            book.trick_done()
            if oracle is offers_schnapsen:
                window = after_trick_window(state, book)
                assert window is None or (state.phase == Phase.AFTER_TRICK) == window, (
                    f"{name} seed {seed} hand {hand_no} trick {len(state.tricks)}: stock "
                    f"{len(state.stock)}, closed by {book.closed_by}: reference "
                    f"{state.phase.name}, oracle {'a window' if window else 'no window'}")
    return checked


# The options the notes name for these actions, beside each ruleset's defaults.
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("schnapsen", {}),
    ("schnapsen", {"exchange_requires_trick": True}),
    ("schnapsen", {"exchange_min_talon": 4, "close_min_talon": 4}),
    ("schnapsen", {"close_on_first_lead": False, "marriage_on_first_lead": False}),
    ("schnapsen", {"marriage_after_close": False}),
    ("schnapsen", {"claim_mode": "auto"}),
    ("schnapsen", {"claim_on_declaration": False}),
    ("schnapsen", {"close_allowed": False}),
    ("schnapsen", {"close_before_draw": True}),
    ("sixty-six", {}),
    ("sixty-six", {"exchange_on_close": False}),
    ("sixty-six", {"exchange_requires_trick": False}),
    ("sixty-six", {"marriage_after_close": True}),
    ("sixty-six", {"close_before_draw": False}),
    ("sixty-six", {"close_on_first_lead": False, "close_min_talon": 4}),
    ("sixty-six", {"claim_mode": "auto"}),
    ("sixty-six-3", {}),
    ("thousand", {}),
    ("thousand", {"marriage_first_lead": True}),
    ("thousand", {"four_nines_redeal": "off"}),
    ("thousand", {"four_nines_redeal": "original_hand"}),
    ("thousand", {"redeal_four_jacks": True}),
    ("thousand", {"four_nines_redeal": "original_hand", "redeal_four_jacks": True}),
    ("thousand-pl", {}),
    ("thousand-2", {}),
    ("thousand-4", {}),
    ("marianna", {}),
    ("marianna", {"declare_when": "trick_start"}),
    ("marianna", {"declare_who": "leader"}),
    ("marianna", {"trick_six": True}),
    ("marianna", {"combination_window": "any_trick"}),
    ("marianna", {"combination_once": True}),
    ("marianna", {"first_fixes_trump": True}),
    ("marianna-2", {}),
    ("marianna-3", {}),
]



@pytest.mark.parametrize("config", CONFIGS, ids=_label)
def test_offers_agree(config: tuple[str, dict[str, Any]]) -> None:
    """The oracle offers what the reference offers at every decision of a few matches."""
    name, options = config
    assert sum(check_offers(name, seed, options, max_actions=300) for seed in range(6)) > 100


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=_label)
def test_offers_agree_many(config: tuple[str, dict[str, Any]]) -> None:
    """The same over 200 seeded matches per configuration under
    ``MARIAGE_TEST_DEPTH=deep``; in CI 1.5 times the seeds up to the configuration's
    saturation seed (:data:`SATURATED`), at least the default run's 6 (200 before the
    thirty-first session, 100 before the thirty-second)."""
    name, options = config
    n = many(200, SATURATED.get(_label(config)), 6)
    assert sum(check_offers(name, seed, options) for seed in range(n)) > 25 * n


# One option per row: the oracle reads it the other way, from the default and back.
FLIPS: list[tuple[str, str, Any]] = [
    ("schnapsen", "exchange_requires_trick", True),
    ("schnapsen", "exchange_min_talon", 4),
    ("schnapsen", "close_min_talon", 4),
    ("schnapsen", "close_on_first_lead", False),
    ("schnapsen", "marriage_on_first_lead", False),
    ("schnapsen", "marriage_after_close", False),
    ("schnapsen", "claim_mode", "auto"),
    ("schnapsen", "claim_on_declaration", False),
    ("schnapsen", "close_allowed", False),
    ("schnapsen", "close_before_draw", True),
    ("sixty-six", "exchange_requires_trick", False),
    ("sixty-six", "exchange_on_close", False),
    ("sixty-six", "marriage_after_close", True),
    ("sixty-six", "close_before_draw", False),
    ("thousand", "marriage_first_lead", True),
    ("thousand", "four_nines_redeal", "off"),
    ("marianna", "declare_when", "trick_start"),
    ("marianna", "declare_who", "leader"),
    ("marianna", "trick_six", True),
]
MISREADS = [case for name, key, value in FLIPS for case in (
    (name, {}, {key: value}),
    (name, {key: value}, {key: dict(load_rules(name).options)[key]}))] + [
    ("marianna", {"declare_when": "trick_start"}, {"trick_six": True})]  # the window's end


@pytest.mark.parametrize(("name", "options", "misread"), MISREADS, ids=lambda v: str(v))
def test_offers_see_a_misread_option(name: str, options: dict[str, Any],
                                     misread: dict[str, Any]) -> None:
    """The check can fail: the oracle given one option read the wrong way disagrees."""
    assert_misread_caught(check_offers, name, options, misread, 300)


@pytest.mark.parametrize(("name", "oracle", "wrong"), [
    ("schnapsen", offers_schnapsen, "a claim by the follower"),
    ("sixty-six", offers_schnapsen, "a second marriage on one lead"),
    ("thousand", offers_thousand, "a second marriage on one lead"),
    ("marianna", offers_marianna, "a suit declared twice in a hand"),
    ("marianna", offers_marianna, "a marianna after the stock"),
], ids=lambda v: str(v) if isinstance(v, str) else "")
def test_offers_see_a_wrong_reading(name: str, oracle: Oracle, wrong: str,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: an oracle reading one of the notes' points the other way (the
    claim only by the trick's winner or after a marriage; one marriage per lead; one
    declaration per player per trick; none once the stock is gone) disagrees."""
    def misread(state: GameState, book: Book) -> set[str]:
        hand = _hand(state, state.to_act)
        offers = oracle(state, book)
        if wrong == "a claim by the follower" and state.trick_cards:
            return offers | {"claim"}
        if wrong == "a second marriage on one lead" and book.declared_on_lead:
            return offers | {f"marriage:{s}" for s in _pairs(hand)}
        if wrong == "a suit declared twice in a hand":
            return oracle(state, replace(book, declared=set()))
        if wrong == "a marianna after the stock" and not state.stock:
            return offers | {f"marianna:{s}" for s in _pairs(hand) if s not in book.declared}
        return offers

    monkeypatch.setitem(ORACLES, name, misread)
    with pytest.raises(AssertionError, match=rf"^{name} seed .* oracle"):
        for seed in range(30):
            check_offers(name, seed, max_actions=300)


def test_four_nines_any_player() -> None:
    """Thousand section 3: "any player holding all four nines after the prikup exchange
    may throw the deal in before the first lead", a defender too: the reference offers it
    out of turn, to that seat's own ``legal_actions(seat)`` (as the spec's
    thousand.throw-in.four-nines says), and to no other seat."""
    rules = load_rules("thousand")
    holders = 0
    for seed in range(20):
        state, rng, book = new_match(rules, seed), random.Random(seed), Book(dict(rules.options))
        for _ in range(400):
            if state.phase == Phase.OVER:
                break
            actions = state.legal_actions()
            texts = [action_text(rules, a) for a in actions]
            if state.phase == Phase.PLAY and not state.tricks and not state.trick_cards:
                due = {s for s in range(len(state.hands)) if throw_in(state, book, s)}
                holders += len(due)
                offered = {s for s in range(len(state.hands))
                           if "redeal" in (action_text(rules, a)
                                           for a in state.legal_actions(s))}
                assert offered == due, (
                    f"thousand seed {seed} hand {state.hand_no}: seats {sorted(due)} hold "
                    f"four nines, the reference offers a throw-in to {sorted(offered)}")
            state.apply(rng.choice([a for a, t in zip(actions, texts, strict=True)
                                    if t != "redeal"] or actions))
    assert holders > 0


@pytest.mark.parametrize(("name", "seed"), [
    ("marianna", 927), ("marianna", 1350), ("marianna-2", 715), ("marianna-2", 2261)])
def test_offers_combinations(name: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A mariannino or mariannone (a whole hand of four queens and a king, or four kings
    and a queen) is rare in random play: these seeds hold a mariannino. The oracle offers it where
    the reference does, and an oracle that forgets it disagrees."""
    seen: list[str] = []
    combination = ("mariannino:", "mariannone:")

    def counting(state: GameState, book: Book) -> set[str]:
        offers = offers_marianna(state, book)
        seen.extend(t for t in offers if t.startswith(combination))
        return offers

    monkeypatch.setitem(ORACLES, name, counting)
    check_offers(name, seed)
    assert seen
    monkeypatch.setitem(ORACLES, name, lambda state, book: {
        t for t in offers_marianna(state, book) if not t.startswith(combination)})
    with pytest.raises(AssertionError, match=rf"^{name} seed {seed} .* oracle"):
        check_offers(name, seed)


#: Each configuration's saturation seed: the seed after which the set of lines of this module (the
#: oracle's and the driver's) and of ``test_independent_play`` (the pieces it calls) that its slow
#: run reaches over seeds 0-199 stops growing, measured with a line tracer (``sys.settrace``
#: restricted to those two files, the slow run's options) in the thirty-second session. The CI
#: plays 1.5 times the seeds up to it, at least the default run's and at most what it played
#: before (``indepkit.many``): every line reached over 200 seeds is still reached, or the count is
#: unchanged; a configuration not listed (not measured) plays what it played before (half of
#: them). Measure again when an oracle, a driver or a family's rules change (the tracer: the
#: thirty-second session's notes).
SATURATED = saturation("""
2 schnapsen
2 schnapsen exchange_requires_trick=True
2 schnapsen exchange_min_talon=4 close_min_talon=4
0 schnapsen close_on_first_lead=False marriage_on_first_lead=False
2 schnapsen marriage_after_close=False
1 schnapsen claim_mode=auto
2 schnapsen claim_on_declaration=False
0 schnapsen close_allowed=False
8 schnapsen close_before_draw=True
11 sixty-six
10 sixty-six exchange_on_close=False
8 sixty-six exchange_requires_trick=False
2 sixty-six marriage_after_close=True
2 sixty-six close_before_draw=False
1 sixty-six close_on_first_lead=False close_min_talon=4
7 sixty-six claim_mode=auto
11 sixty-six-3
22 thousand
22 thousand marriage_first_lead=True
22 thousand four_nines_redeal=off
22 thousand four_nines_redeal=original_hand
14 thousand redeal_four_jacks=True
14 thousand four_nines_redeal=original_hand redeal_four_jacks=True
19 thousand-pl
3 thousand-2
22 thousand-4
0 marianna
2 marianna declare_when=trick_start
0 marianna declare_who=leader
0 marianna trick_six=True
0 marianna combination_window=any_trick
0 marianna combination_once=True
0 marianna first_fixes_trump=True
0 marianna-2
63 marianna-3
""")
