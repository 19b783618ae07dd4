"""An independent check of dealing, against the reference and its protocol engine.

The expectations come from ``tests/dealkit.py``, written from the documents
alone (``docs/prng.rst``, ``docs/protocol.rst``, ``docs/spec-language.rst`` and
the ``deal``, ``talon``, ``taking``, ``passing`` and ``draw`` sections of each
description in ``spec/``), as an engine author in another language would:
from a seed, the first dealer, each hand's deck, each seat's hand, the stock in
drawing order, the turned-up card, the talon, the seat sitting out, the seat to
act first, and the dealer and deal of the second hand. During the first hand
an independent model follows every card (the draws after each trick, the talon
taken and the cards given in Thousand, Belote's second distribution, German
Marjapussi's passing) and must agree with the reference after every action.

The reference is used only as the thing checked: ``new_match`` and
``GameState`` (``docs/api.rst``), ``SeatView`` (what ``mariage match`` deals to
each seat's engine) and ``mariage engine`` over the protocol.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from dealkit import (
    MASK64,
    Deal,
    Game,
    SeededMatch,
    SplitMix64,
    deal,
    gather,
    next_dealer,
    playing_order_from,
    rulesets,
    seed_whose_output,
)
from hostilekit import deadline
from indepkit import many, saturation, texts_of
from mariage import GameState, Phase, action_text, load_rules, new_match
from mariage.arena.hiding import SeatView
from mariage.cli import main
from protokit import PROXY, REFERENCE, Engine

# Configurations that change the deal: seats, pack, packets, turn-up, talon, sitter,
# first dealer, rotation, second distribution, gathering. Every ruleset at its defaults too.
CONFIGS: list[tuple[str, dict[str, Any]]] = [(name, {}) for name in rulesets()] + [
    ("belote", {"shuffle": "first_deal_only"}),
    ("belote", {"first_dealer": "seat3", "deal_packets": "2-3"}),
    ("belote", {"direction": "clockwise", "second_deal_start": "taker"}),
    ("belote", {"all_pass": "same_dealer", "first_dealer": "seat0"}),
    ("belote-coinche", {"coinche_deal_packets": "3-3-2"}),
    ("belote-coinche", {"coinche_deal_packets": "4-4", "shuffle": "first_deal_only"}),
    ("belote-contree", {"coinche_deal_packets": "2-3-3", "all_pass": "same_dealer"}),
    ("mariaggia", {"exchange": "two_at_start"}),
    ("mariaggia", {"exchange": "seven_while_stock"}),
    ("marjapussi", {"pack_size": 32}),
    ("marjapussi", {"pack_size": 28, "ace_of_clubs": True}),
    ("marjapussi-de", {"deal_packet_size": 3}),
    ("marjapussi-de", {"partnership_draw": "fixed", "all_pass": "redeal"}),
    ("schnapsen", {"turnup_after": "all_cards", "next_dealer": "winner"}),
    ("schnapsen", {"next_dealer": "loser"}),
    ("sixty-six", {"turnup_after": "first_round", "next_dealer": "alternate"}),
    ("sixty-six-4", {"deal_packets": "2-2-2-2"}),
    ("thousand", {"players": 2}),
    ("thousand", {"players": 4}),
    ("thousand", {"players": 4, "sitter": "dealer_right"}),
    ("thousand", {"players": 4, "sitter": "opposite"}),
    ("thousand", {"opening_bid": "none"}),
    ("thousand", {"dark_bid": True, "dark_min_total": 0, "musik_shown": "never"}),
    ("thousand", {"golden_round": "fixed_120", "players": 2}),
    ("thousand-pl", {"players": 4}),
    ("thousand-4", {"sitter": "opposite"}),
]
IDS = [name + "".join(f",{k}={v}" for k, v in opts.items()) for name, opts in CONFIGS]
SEEDS = (7, 1, 2**64 - 1)

# Actions the driver avoids while another is legal: they end the hand early.
AVOID = ("claim", "redeal", "concede", "callout")


def codes(state: GameState, mask: int) -> list[str]:
    """The cards of a bit mask as sorted codes."""
    return sorted(state.rules.format_cards(mask).split())


def card(state: GameState, number: int | None) -> str | None:
    return None if number is None else state.rules.card_code[number]


def check_deal(state: GameState, game: Game, dealt: Deal, where: str) -> None:
    """The reference's freshly dealt hand against the independent deal."""
    assert state.dealer == dealt.dealer, f"{where}: dealer"
    assert [codes(state, h) for h in state.hands] == [sorted(h) for h in dealt.hands], \
        f"{where}: hands"
    assert card(state, state.turn_up) == dealt.turn_up, f"{where}: turn-up"
    # GameState.stock holds the cards to draw with the next one last (the talon
    # games keep the talon there, its packets in deck order, until it is taken)
    reference_stock = [card(state, c) for c in reversed(state.stock)]
    assert reference_stock == dealt.stock + [c for p in dealt.talon for c in p], \
        f"{where}: stock"
    assert state.out == dealt.out, f"{where}: seat sitting out"
    lead = dealt.leader
    if game.get("auction.opening.mode") == "first_holds_minimum":  # forehand holds a bid
        lead = dealt.receivers[1]
    if game.on("lead.holder") and state.hand_no == 1:  # the holder of a card leads
        holder = game.get("lead.holder.card")
        lead = next(s for s, h in enumerate(dealt.hands) if holder in h)
    assert state.to_act == lead, f"{where}: first to act"
    if state.phase == Phase.PLAY:
        assert state.leader == lead, f"{where}: leader"
    else:  # bid, taken or passed first: the seat after the dealer (protocol.rst, leader)
        assert state.leader == dealt.receivers[0], f"{where}: leader before the first trick"


class Tracker:
    """Where every card of one hand is, followed from the documents alone."""

    def __init__(self, game: Game, dealt: Deal) -> None:
        self.game = game
        self.dealt = dealt
        self.hands = [list(h) for h in dealt.hands]
        self.stock = list(dealt.stock)
        self.turn_up = dealt.turn_up
        self.pending = -1  # a trick's winner whose draw waits for his "draw" (or a close)
        self.closing = False  # closed, the opponent's reply (an exchange) still to come
        self.trick: list[tuple[int, str]] = []
        self.played: list[str] = []
        # the last seat to bid (or the seat holding the lowest bid before anyone speaks)
        self.declarer = {"first_holds_minimum": dealt.receivers[0],
                         "dealer_holds_minimum": dealt.dealer
                         }.get(game.get("auction.opening.mode"), -1)
        self.talon_taken = False
        self.steps = 0  # passing steps made
        self.events: set[str] = set()  # what the hand exercised: draw, talon, give, second_deal
        word = game.get("trump_pair.word")
        self.card_words = (f"{word}:",) if word else ()

    def draw_round(self, first: int) -> None:
        """One card each from the top of the stock, ``first`` first, in playing order."""
        for seat in playing_order_from(self.game, first, self.dealt.out):
            if self.stock:
                self.hands[seat].append(self.stock.pop(0))
                self.events.add("draw")
        if not self.stock and self.game.get("deal.turn_up") == "under_stock":
            self.turn_up = None  # the turned card was the last one drawn

    def second_deal(self, taker: int) -> None:
        """Belote's second distribution: the turn-up to the taker, then one packet each."""
        rule = self.game.get("taking.second_deal")
        first = taker if rule.get("start") == "taker" else self.dealt.receivers[0]
        assert self.dealt.turn_up is not None
        self.events.add("second_deal")
        self.hands[taker].append(self.dealt.turn_up)
        self.turn_up = None
        for seat in playing_order_from(self.game, first, self.dealt.out):
            count = int(rule["taker"] if seat == taker else rule["others"])
            self.hands[seat].extend(self.stock[:count])
            del self.stock[:count]

    def receiver(self, to: str) -> int:
        """The seat a passing step gives to."""
        seat = self.declarer
        team = next(t for t in self.game.teams if seat in t)
        if to == "partner":
            return next(s for s in team if s != seat)
        defenders = [s for s in playing_order_from(self.game, seat, self.dealt.out)
                     if s not in team]
        return {"first_defender": defenders[0], "second_defender": defenders[-1]}[to]

    def give(self, seat: int, cards: list[str]) -> None:
        step = self.game.get("passing.steps")[self.steps]
        self.steps += 1
        self.events.add("give")
        for c in cards:
            self.hands[seat].remove(c)
        if step["to"] == "discard":
            return
        giver_is_declarer = step["from"] == "declarer"
        to = self.receiver(step["to"]) if giver_is_declarer else self.declarer
        self.hands[to].extend(cards)

    def apply(self, seat: int, text: str, before: Phase, state: GameState) -> None:
        """Follow one action (``state`` is the reference after it, read only for the
        winner of a completed trick and the phase)."""
        word, _, rest = text.partition(":")
        if text in self.dealt.places or text.startswith(self.card_words):
            played = rest if rest else text
            self.hands[seat].remove(played)
            self.trick.append((seat, played))
            self.played.append(played)
            if len(self.trick) == len(self.dealt.receivers):
                self.trick = []
                if state.tricks and self.game.get("closing.before_draw") and self.stock:
                    self.pending = state.tricks[-1][2]  # he may close before the draw
                elif state.tricks:
                    self.draw_round(state.tricks[-1][2])
        elif word in ("bid", "dark") or word == "take":
            self.declarer = seat
        elif word == "exchange":  # the trump card given for the turned-up one, under the stock
            assert self.turn_up is not None
            self.hands[seat].remove(rest)
            self.hands[seat].append(self.turn_up)
            self.stock[-1] = self.turn_up = rest
            self.events.add("exchange")
        elif text == "close":  # nobody draws again; the stock is put aside after the reply
            self.closing, self.pending = True, -1
            self.events.add("close")
        elif text == "draw":  # the winner went on without closing: the draw is made
            self.draw_round(self.pending)
            self.pending = -1
        elif word == "talon":
            self.hands[seat].extend(self.dealt.talon[int(rest) - 1])
            self.talon_taken = True
            self.events.add("talon")
        elif word == "give":
            self.give(seat, rest.split("+"))
        if self.closing and state.phase != Phase.CLOSE_REPLY:
            self.stock, self.turn_up, self.closing = [], None, False
        if (before == Phase.AUCTION and state.phase != Phase.AUCTION and self.declarer >= 0
                and self.game.on("talon") and not self.game.on("talon.packets")
                and not self.talon_taken):
            self.hands[self.declarer].extend(self.dealt.talon[0])
            self.talon_taken = True
            self.events.add("talon")
        if (before == Phase.TAKING and state.phase != Phase.TAKING and self.declarer >= 0
                and self.game.on("taking.second_deal")):
            self.second_deal(self.declarer)


def choose(state: GameState, rng: random.Random, throw_in: bool = False) -> Any:
    """A legal action: an exchange of the turned-up card whenever allowed; else one
    avoiding those of AVOID while another is legal; with ``throw_in``, a hand thrown in
    or conceded whenever the rules allow it."""
    legal = list(state.legal_actions())
    texts = texts_of(state.rules, legal)
    swaps = [a for a, t in zip(legal, texts, strict=True) if t.startswith("exchange:")]
    if swaps:  # the turned-up card taken whenever allowed: it moves a card under the stock
        return swaps[0]
    if throw_in:
        ends = [a for a, t in zip(legal, texts, strict=True) if t in ("redeal", "concede")]
        if ends:
            return ends[0]
    kept = [(a, t) for a, t in zip(legal, texts, strict=True) if not t.startswith(AVOID)]
    if rng.random() < 0.9:  # a close only now and then, so that the stock is drawn too
        kept = [(a, t) for a, t in kept if t != "close"] or kept
    return rng.choice([a for a, _ in kept] or legal)


def winner_seats(game: Game, team: int | None) -> tuple[int | None, int | None]:
    """The seat of a hand's winning team and of the other, for two sides of one seat."""
    if team is None or len(game.teams) != 2:
        return None, None
    return game.teams[team][0], game.teams[1 - team][0]


def play_first_hand(name: str, options: dict[str, Any], seed: int,
                    throw_in: bool = False, engine: Engine | None = None) -> set[str]:
    """Deal, follow and finish hand 1 by a seeded driver, then check hand 2's deal;
    what the first hand exercised (``Tracker.events``, plus ``hand2``). With ``engine``,
    the protocol engine is sent the same deal and actions, then hand 2's ``deal``."""
    game = Game.load(name, options)
    match = SeededMatch(game, seed)
    rules = load_rules(name, options)
    state = new_match(rules, seed=seed)
    assert state.first_dealer == match.first_dealer
    dealt = match.next_deal(match.first_dealer)
    check_deal(state, game, dealt, f"{name} {options} seed {seed} hand 1")
    model = Tracker(game, dealt)
    rng = random.Random(seed)
    if engine is not None:
        assert engine.ask(start(game, dealt, dealt.deck)) == {"type": "ok"}
    while state.hand_no == 1 and not state.terminal:
        action, seat, before = choose(state, rng, throw_in), state.to_act, state.phase
        text = action_text(rules, action)
        model.events.add(text if text in ("redeal", "concede") else "")
        state.apply(action)
        assert seat is not None
        model.apply(seat, text, before, state)
        if engine is not None:
            answer = engine.ask({"type": "apply", "action": text, "seat": seat})
            assert answer == {"type": "ok"}, f"{name} {options} seed {seed} {seat}:{text}"
        if state.hand_no == 1 and state.phase not in (Phase.AFTER_TRICK, Phase.DEAL):
            where = f"{name} {options} seed {seed} after {seat}:{text}"
            assert [codes(state, h) for h in state.hands] == \
                [sorted(h) for h in model.hands], f"{where}: hands"
            if not game.on("talon"):
                assert [card(state, c) for c in reversed(state.stock)] == model.stock, \
                    f"{where}: stock"
            assert card(state, state.turn_up) == model.turn_up, f"{where}: turn-up"
    if state.terminal:
        return model.events
    record = state.history[-1]
    assert record.dealer == dealt.dealer
    won, lost = winner_seats(game, record.winner)
    dealer2 = next_dealer(game, dealt.dealer, won, lost, record.ended,
                          thrown_in="redeal" in model.events)
    if game.on("lead.holder"):  # the holder of the card deals the second hand too
        dealer2 = next(s for s, h in enumerate(dealt.hands) if game.get("lead.holder.card") in h)
    pack = gather(game, model.played, dealt, model.hands) if game.on("deal.gather") else None
    dealt2 = match.next_deal(dealer2, pack)
    where = f"{name} {options} seed {seed} hand 2 (hand 1 {record.ended})"
    check_deal(state, game, dealt2, where)
    if engine is not None:  # the engine moves the dealer on itself (protocol.rst, deal)
        between = engine.ask({"type": "state"})
        assert (between["phase"], between["dealer"]) == ("deal", dealer2), where
        answer = engine.ask({"type": "deal", "deck": dealt2.deck,
                             "first_player": dealt2.first_player})
        assert answer == {"type": "ok"}, where
        view = engine.ask({"type": "state"})
        assert [sorted(h) for h in view["hands"]] == [sorted(h) for h in dealt2.hands], where
        assert (view["dealer"], view["turn_up"], view["to_act"]) == \
            (dealer2, dealt2.turn_up, state.to_act), where
    return model.events - {""} | {"hand2"}


def expected_events(game: Game) -> set[str]:
    """What following a few first hands must exercise, by the description's sections."""
    events = {"hand2"}
    dealer = None if game.get("deal.first_dealer") == "none" else 0
    if deal(game, game.canonical_deck(), dealer, 0).stock \
            and not game.on("taking.second_deal"):
        events.add("draw")  # a stock drawn from after the tricks
    if game.on("talon"):
        events.add("talon")
    if game.get("passing.steps"):
        events.add("give")
    if game.on("taking.second_deal"):
        events.add("second_deal")
    return events


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_two_hands_agree(engine: Engine, name: str, options: dict[str, Any]) -> None:
    """Two hands, the first followed card by card; the protocol engine plays the first
    seed's alongside."""
    seen: set[str] = set()
    for seed in SEEDS:
        seen |= play_first_hand(name, options, seed, engine=engine if seed == SEEDS[0] else None)
    assert expected_events(Game.load(name, options)) <= seen


@pytest.mark.slow
@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_two_hands_agree_wide(name: str, options: dict[str, Any]) -> None:
    """Two hands of seeds 100-349 under ``MARIAGE_TEST_DEPTH=deep``; in CI 1.5 times the
    seeds up to the configuration's saturation seed (:data:`SATURATED`), at least 3."""
    seen: set[str] = set()
    label = name + "".join(f",{k}={v}" for k, v in options.items())
    saturated = SATURATED.get(label)
    if saturated is not None:
        saturated -= 100
    for seed in range(100, 100 + many(250, saturated, 3, before=250)):
        seen |= play_first_hand(name, options, seed)
    game = Game.load(name, options)
    wanted = expected_events(game) | {e for e, rule in (("exchange", "exchange"),
                                                      ("close", "closing")) if game.on(rule)}
    assert wanted <= seen


@pytest.mark.parametrize(("name", "options", "end"), [
    ("thousand", {"redeal_low_hand": 60}, "redeal"),
    ("thousand-pl", {"redeal_low_hand": 60}, "redeal"),
    ("thousand-2", {"redeal_low_hand": 60}, "redeal"),
    ("thousand-4", {"redeal_low_hand": 60, "sitter": "dealer_right"}, "redeal"),
    ("thousand", {}, "concede"),
    ("thousand-2", {}, "concede"),
    ("thousand-4", {}, "concede"),
])
def test_hand_two_after_a_throw_in_or_a_concession(name: str, options: dict[str, Any],
                                                   end: str) -> None:
    """A hand thrown in is dealt again by the same dealer (protocol.rst's Thousand
    example); a conceded hand is scored, and the deal passes on."""
    seen: set[str] = set()
    for seed in SEEDS:
        seen |= play_first_hand(name, options, seed, throw_in=True)
    assert {end, "hand2"} <= seen


def draw_bounds(game: Game) -> list[int]:
    """The bounds of the first hand's ``below`` draws, in order (prng.rst)."""
    seats = [game.nseats] * ((game.get("deal.first_dealer") == "lot")
                             + (game.get("lead.first.who") == "lot"))
    return seats + list(range(len(game.canonical_deck()), 1, -1))


class NoRejection(SplitMix64):
    """The generator with ``next_u64() mod n``: what prng.rst warns against."""

    def below(self, n: int) -> int:
        return self.next_u64() % n


@pytest.mark.parametrize("name", rulesets())
def test_a_draw_thrown_away(name: str) -> None:
    """A seed whose draw falls in below(n)'s incomplete last block (2**64 - 1 for any n
    not a power of two, found by undoing the mix): the reference throws it away too."""
    game = Game.load(name)
    k = next(i for i, n in enumerate(draw_bounds(game), 1) if n & (n - 1))
    seed = seed_whose_output(k, MASK64)
    match, sloppy = SeededMatch(game, seed), SeededMatch(game, seed, NoRejection)
    state = new_match(load_rules(name), seed=seed)
    assert state.first_dealer == match.first_dealer
    dealt = match.next_deal(match.first_dealer)
    careless = sloppy.next_deal(sloppy.first_dealer)  # the seed tells the two apart
    assert (careless.dealer, careless.first_player, careless.deck) != \
        (dealt.dealer, dealt.first_player, dealt.deck)
    check_deal(state, game, dealt, f"{name} seed {seed:#x} (draw {k} thrown away)")


def test_every_ruleset_is_covered() -> None:
    import mariage
    assert sorted(mariage.list_rulesets()) == rulesets()


def test_refused_configurations_are_refused() -> None:
    """invalid_when, read independently, refuses what the reference refuses."""
    from mariage import OptionError
    with pytest.raises(ValueError, match="invalid_when"):
        Game.load("thousand-4", {"opening_bid": "dealer_auto_100"})
    with pytest.raises(OptionError):
        load_rules("thousand-4", {"opening_bid": "dealer_auto_100"})


# ------------------------------------------------------------ the protocol engine
@pytest.fixture(scope="module")
def engine() -> Iterator[Engine]:
    eng = Engine()
    assert eng.ask({"type": "hello", "protocol": 2})["protocol"] == 2
    yield eng
    eng.close()


def seen_by(game: Game, dealt: Deal, seat: int) -> set[str]:
    """The cards ``seat`` sees once the hand is dealt: its own, the turned-up card, and
    every hand where the rules lay hands open (``visibility.open_hands``)."""
    seen = set(dealt.hands[seat])
    if dealt.turn_up is not None:
        seen.add(dealt.turn_up)
    if game.get("visibility.open_hands"):
        seen.update(c for h in dealt.hands for c in h)
    return seen


def start(game: Game, dealt: Deal, deck: Sequence[str], seat: int | None = None
          ) -> dict[str, Any]:
    request: dict[str, Any] = {"type": "start", "ruleset": game.name, "options": game.options,
                               "dealer": dealt.dealer, "deck": list(deck),
                               "first_player": dealt.first_player}
    if seat is not None:
        request["seat"] = seat
    return request


def check_engine_deal(engine: Engine, name: str, options: dict[str, Any], seed: int) -> None:
    game = Game.load(name, options)
    match = SeededMatch(game, seed)
    dealt = match.next_deal(match.first_dealer)
    where = f"{name} {options} seed {seed}"
    assert engine.ask(start(game, dealt, dealt.deck)) == {"type": "ok"}, where
    state = engine.ask({"type": "state"})
    assert [sorted(h) for h in state["hands"]] == [sorted(h) for h in dealt.hands], where
    assert (state["dealer"], state["turn_up"]) == (dealt.dealer, dealt.turn_up), where
    assert state["stock"] == len(dealt.stock) + sum(map(len, dealt.talon)), where
    reference = GameState(load_rules(name, options), first_dealer=dealt.dealer)
    numbers = [reference.rules.card_index[c] for c in dealt.deck]
    reference.deal(numbers, dealt.first_player)
    assert state["to_act"] == reference.to_act, where
    for seat in range(game.nseats):
        seen = seen_by(game, dealt, seat)
        masked = [c if c in seen else "??" for c in dealt.deck]
        # what `mariage match` deals to this seat's engine
        assert SeatView(seat).deal(reference, numbers) == masked, f"{where} seat {seat}"
        assert engine.ask(start(game, dealt, masked, seat)) == {"type": "ok"}, where
        view = engine.ask({"type": "state"})
        for other, hand in enumerate(dealt.hands):  # the cards shown, then "??"
            shown = sorted(c for c in hand if c in seen) + ["??"] * len(set(hand) - seen)
            assert sorted(view["hands"][other]) == sorted(shown), \
                f"{where} seat {seat} sees {other}"
        assert view["turn_up"] == dealt.turn_up, f"{where} seat {seat}"
        assert view["stock"] == state["stock"], f"{where} seat {seat}"
        holder = game.get("lead.holder.card") if game.on("lead.holder") else None
        if holder is None or holder in seen:  # else the first action tells who leads
            assert view["to_act"] == state["to_act"], f"{where} seat {seat}"


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_engine_deals_and_seat_views(engine: Engine, name: str,
                                     options: dict[str, Any]) -> None:
    check_engine_deal(engine, name, options, 5)


def test_hidden_deck_must_show_what_the_seat_sees(engine: Engine) -> None:
    """Regression: a hidden deck hiding the turned-up card (or a hand the rules lay open)
    was accepted, and the engine then invented it: Schnapsen seed 1, seat 0, told
    nothing of the turn-up QC, reported AD turned up and diamonds trump."""
    for name, seat_of in (("schnapsen", 0), ("belote", 2), ("mariglia", 2), ("mariaggia", 1)):
        game = Game.load(name)
        match = SeededMatch(game, 1)
        dealt = match.next_deal(match.first_dealer)
        seat = dealt.receivers[seat_of % len(dealt.receivers)]
        own = set(dealt.hands[seat])
        if game.get("visibility.open_hands") and dealt.turn_up:  # only the open hand hidden
            own.add(dealt.turn_up)
        answer = engine.ask(start(game, dealt, [c if c in own else "??" for c in dealt.deck],
                                  seat))
        assert (answer["type"], answer.get("rule")) == ("error", "core.deal"), name
        assert "sees as the hand is dealt" in answer["message"], name


# ------------------------------------------------- what `mariage match` sends a seat



@pytest.mark.slow
@pytest.mark.parametrize(("name", "options", "seed"), [(*case, 3) for case in [
    ("schnapsen", {}), ("mariaggia", {}), ("mariazza", {}), ("marianna-3", {"target": 101}),
    ("sixty-six-3", {}), ("mariglia", {"target": 21}), ("belote", {"deal_limit": 2}),
    ("thousand", {"players": 4, "target": 500}), ("thousand-2", {}), ("belote-coinche", {}),
    ("marjapussi", {}), ("cinquecento-siciliana", {}), ("sixty-six-4", {})]]
    + [("marjapussi-de", {}, 1)])
def test_match_deals_each_seat_its_view(tmp_path: Path, name: str,
                                        options: dict[str, Any], seed: int,
                                        monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """``mariage match --seed S`` over one round (a game per team, the entrants moved on
    by one seat each game, docs/arena.rst): the engine entered at seat 0, logged by a
    proxy, is dealt in each game the same hands (hand k: the k-th shuffle of seed S),
    with ``??`` at every place its seat cannot see; every ``reveal`` names cards where the
    independent deal put them; and the ``state`` sent with each action shows it no card
    of another hand it was not told of."""
    proxy, log = tmp_path / "proxy.py", tmp_path / "requests.txt"
    proxy.write_text(PROXY, encoding="utf-8")
    game = Game.load(name, options)
    argv = ["match", name, "--games", str(len(game.teams)),
            "--seed", str(seed), "-q", "-e", f"0={sys.executable} {proxy} {log}"]
    argv += [a for k, v in options.items() for a in ("-o", f"{k}={v}")]
    # the command in this process (what it sends is the point, not its process); the
    # proxy and the engine behind it, processes of their own, run the checkout's package
    monkeypatch.setenv("PYTHONPATH", str(REFERENCE))
    with deadline(110):
        assert main(argv) == 0, capsys.readouterr().err[-2000:]
    match = SeededMatch(game, seed)
    dealer, me, seats = match.first_dealer, 0, []
    hands, reveals, gives = 0, 0, 0
    told: set[str] = set()  # the cards the engine's seat was told of in this hand
    for line in log.read_text(encoding="utf-8").splitlines():
        assert not line.startswith("ERROR"), f"{name}: the engine refused a request: {line}"
        request = json.loads(line)
        if request["type"] in ("start", "deal"):
            if request["type"] == "start":  # a new game of the round: the same deals
                match = SeededMatch(game, seed)
                dealer, me = match.first_dealer, request["seat"]
                assert request["dealer"] == dealer
                seats.append(me)
            dealt = match.next_deal(dealer)
            seen = seen_by(game, dealt, me)
            assert request["deck"] == [c if c in seen else "??" for c in dealt.deck], \
                f"{name} hand {match.hand_no}"
            assert request["first_player"] == dealt.first_player
            hands += 1
            stock_places = {dealt.places[c] for c in dealt.stock} | \
                {dealt.places[c] for packet in dealt.talon for c in packet}
            told = {c for c in request["deck"] if c != "??"}
        for place, code in request.get("reveal", {}).get("deck", {}).items():
            # a card seen coming off the stock (or the talon), by its place in the deck
            assert int(place) in stock_places and dealt.deck[int(place)] == code, \
                f"{name} hand {match.hand_no}: reveal {place}={code}"
            reveals += 1
            told.add(code)
        for cards in request.get("reveal", {}).get("hands", {}).values():
            told.update(cards)
        action, by = request.get("action", ""), request.get("seat")
        told.update(action.replace("+", ":").split(":"))  # cards an action names are public
        view = request.get("state")
        if isinstance(view, dict) and view.get("hands"):  # what the seat is shown of each hand
            for other, held in enumerate(view["hands"]):
                where = f"{name} hand {match.hand_no} after {by}:{action}: {me} sees {other}"
                if other == me:
                    assert "??" not in held, where
                else:
                    assert {c for c in held if c != "??"} <= told, where
        if action.startswith("give:") and by is not None and len(game.teams[0]) > 1 \
                and me not in next(t for t in game.teams if by in t):
            assert action == "give:?", f"{name}: the other side's passing is hidden"
            gives += 1
        if isinstance(request.get("state"), dict) and "dealer" in request["state"]:
            dealer = request["state"]["dealer"]  # phase deal: the next hand's dealer
    assert hands >= 2
    assert seats == list(range(len(game.teams))), seats  # a game per team, a seat on each
    assert gives > 0 or name != "marjapussi-de"
    assert reveals > 0 or not deal(game, game.canonical_deck(), 0, 0).stock \
        or game.on("taking.second_deal")


# Hands of `mariage match` in which the engine of seat 0, dealt hidden cards, refused a
# legal action of another seat: its guess had passed a card unseen (a talon card the
# declarer kept, or laid away) and its search could not choose what an unseen pass carried.
def cards(text: str) -> list[str]:
    """A deck written as card codes separated by spaces, ``??`` for a card unseen."""
    return text.split()


SEAT_VIEW_CASES: list[dict[str, Any]] = [
    # Thousand for four, seed 3, hand 8: seat 0 deals and sits out; seat 1 keeps TH
    {"options": {"players": 4, "target": 500}, "dealer": 0, "seat": 0, "deck": ["??"] * 24,
     "acts": [[1, "bid:100"], [2, "pass"], [3, "pass", {"deck": {"21": "TD", "22": "TH",
                                                                 "23": "QS"}}],
              [1, "give:?"], [1, "give:?"], [1, "keep"], [1, "AS"], [2, "9S"], [3, "JS"],
              [1, "marriage:H", {"hands": {"1": ["KH", "QH"]}}], [1, "QH"], [2, "AH"],
              [3, "9H"], [2, "AC"], [3, "QC"], [1, "TC"], [2, "TS"], [3, "JH"], [1, "QS"],
              [3, "AD"], [1, "TD"], [2, "QD"], [3, "9D"], [1, "TH"]]},
    # Thousand for two, seed 11, hand 1: seat 1 laid away the shown 9C, then shows a void
    {"options": {"players": 2}, "dealer": 1, "seat": 0,
     "deck": cards("AC ?? JC ?? AH ?? TS ?? TC ?? KS ?? "
                   "9H ?? JH ?? AS ?? QC ?? ?? ?? ?? ??"),
     "acts": [[0, "bid:100"], [1, "bid:105"], [0, "pass"],
              [1, "talon:1", {"deck": {"20": "9C", "21": "AD"}}], [1, "give:?"], [1, "keep"],
              [1, "AD"], [0, "9H"], [1, "marriage:H", {"hands": {"1": ["KH", "QH"]}}], [1, "QH"],
              [0, "AH"], [0, "AC"], [1, "KC"], [0, "AS"], [1, "9S"], [0, "TC"], [1, "KH"]]},
    # Thousand for four, seed 12, hand 24: seat 3 gave the shown JD to seat 1
    {"options": {"players": 4}, "dealer": 2, "seat": 0,
     "deck": cards("?? QD ?? ?? KD ?? ?? KH ?? ?? TD ?? "
                   "?? JC ?? ?? KC ?? ?? 9H ?? ?? ?? ??"),
     "acts": [[3, "bid:100"], [0, "pass"],
              [1, "pass", {"deck": {"21": "JD", "22": "QC", "23": "AH"}}], [3, "give:9C"],
              [3, "give:?"], [3, "keep"], [3, "AH"], [0, "9H"], [1, "JH"],
              [3, "marriage:S", {"hands": {"3": ["KS", "QS"]}}], [3, "QS"], [0, "9C"], [1, "TS"],
              [1, "AD"], [3, "AS"]]},
    # Belote coinchée, seed 22, hand 1: seat 1 announces cinquante:QH, which needs QH JH
    # TH 9H without KH and without 8H; the search said no deal could (two cards lacked)
    {"ruleset": "belote-coinche", "options": {}, "dealer": 2, "seat": 0,
     "deck": cards("?? ?? ?? 8C TS 9D ?? ?? ?? ?? ?? ?? ?? ?? QS 7H "
                   "?? ?? ?? ?? ?? ?? ?? AS JD KC ?? ?? ?? ?? ?? ??"),
     "acts": [[3, "bid:80:C"], [0, "pass"], [1, "pass"], [2, "pass"], [3, "tierce:AD"],
              [3, "AD"], [0, "9D"], [1, "cinquante:QH"]]},
]


@pytest.mark.parametrize("case", SEAT_VIEW_CASES,
                         ids=["sitter", "laid-away", "given-away", "two-lacked"])
def test_hidden_engine_accepts_what_an_unseen_pass_explains(engine: Engine,
                                                            case: dict[str, Any]) -> None:
    """Regression: every action below is legal in some deal consistent with seat 0's view
    (protocol.rst, Hidden cards), but the engine refused the last (core.hand,
    thousand.play.follow, belote.announce.cinquante). Its search now chooses what an unseen
    pass carried, splits on a card where two must be lacked, and searches longer before it
    refuses."""
    answer = engine.ask({"type": "start", "ruleset": case.get("ruleset", "thousand"),
                         "options": case["options"],
                         "dealer": case["dealer"], "seat": case["seat"], "deck": case["deck"],
                         "first_player": None})
    assert answer == {"type": "ok"}
    for seat, action, *reveal in case["acts"]:
        request = {"type": "apply", "seat": seat, "action": action}
        if reveal:
            request["reveal"] = reveal[0]
        assert engine.ask(request) == {"type": "ok"}, f"{seat}:{action}"


#: Each configuration's saturation seed: the seed (of 100-349) after which the set of
#: lines of this module and of ``dealkit`` that ``play_first_hand`` reaches stops
#: growing, measured with a line tracer (``sys.settrace`` restricted to those two files)
#: in the thirty-second session. The CI plays 1.5 times the seeds from 100 up to it
#: (``indepkit.many``), so every line reached over the 250 seeds is still reached; a
#: configuration not listed (not measured) plays all of them. Measure again when the
#: deal model, the driver or a family's deal changes.
SATURATED = saturation("""
101 belote
115 belote-coinche
116 belote-contree
103 cinquecento
101 cinquecento-siciliana
139 mariaggia
103 marianna
101 marianna-2
124 marianna-3
101 marianna-siciliana
159 mariazza
241 mariglia
100 marjapussi
100 marjapussi-de
108 schnapsen
349 sixty-six
105 sixty-six-3
101 sixty-six-4
100 thousand
100 thousand-2
100 thousand-4
100 thousand-pl
101 belote,shuffle=first_deal_only
101 belote,first_dealer=seat3,deal_packets=2-3
101 belote,direction=clockwise,second_deal_start=taker
101 belote,all_pass=same_dealer,first_dealer=seat0
115 belote-coinche,coinche_deal_packets=3-3-2
108 belote-coinche,coinche_deal_packets=4-4,shuffle=first_deal_only
143 belote-contree,coinche_deal_packets=2-3-3,all_pass=same_dealer
139 mariaggia,exchange=two_at_start
139 mariaggia,exchange=seven_while_stock
100 marjapussi,pack_size=32
100 marjapussi,pack_size=28,ace_of_clubs=True
100 marjapussi-de,deal_packet_size=3
100 marjapussi-de,partnership_draw=fixed,all_pass=redeal
119 schnapsen,turnup_after=all_cards,next_dealer=winner
108 schnapsen,next_dealer=loser
150 sixty-six,turnup_after=first_round,next_dealer=alternate
148 sixty-six-4,deal_packets=2-2-2-2
100 thousand,players=2
100 thousand,players=4
100 thousand,players=4,sitter=dealer_right
100 thousand,players=4,sitter=opposite
100 thousand,opening_bid=none
100 thousand,dark_bid=True,dark_min_total=0,musik_shown=never
100 thousand,golden_round=fixed_120,players=2
100 thousand-pl,players=4
100 thousand-4,sitter=opposite
""")
