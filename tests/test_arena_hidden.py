"""Hidden cards (protocol version 2): each engine of a match sees only its own seat's view,
and the reference engine plays on a guess of the cards it cannot see."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from mariage import GameState, load_rules, parse_action
from mariage.arena.bots import make_bot
from mariage.arena.hiding import SeatView
from mariage.arena.match import Match
from mariage.arena.players import BotPlayer, EnginePlayer, Player, changed_options
from mariage.cli import main
from mariage.conformance.engine import ReferenceEngine
from mariage.conformance.hidden import HiddenHand, parse_hidden_deck
from mariage.conformance.protocol import seat_state_json
from mariage.engine.actions import Exchange, Give, Play
from mariage.engine.actiontext import action_text
from mariage.engine.deals import SeededDeals, canonical_deck
from mariage.engine.observation import observe
from mariage.engine.phase import DEAL
from mariage.errors import IllegalActionError
from mariage.notation.writer import write_record
from mariage.spec.specload import list_rulesets

ENGINE = f"{sys.executable} -m mariage engine"
REF = f"{sys.executable} -m mariage.arena.refengine"


def seen_now(state: GameState, seat: int) -> int:
    """What ``seat`` sees in ``state``, restated from the observation (not from SeatView)."""
    obs = observe(state, seat)
    mask = obs.hand
    for m in obs.shown:
        mask |= m
    if obs.turn_up is not None:
        mask |= 1 << obs.turn_up
    for _, c in obs.trick:
        mask |= 1 << c
    for _, cards, _ in obs.tricks:
        for c in cards:
            mask |= 1 << c
    for _, a in obs.actions:
        if isinstance(a, (Play, Exchange)):
            mask |= 1 << a.card
        elif isinstance(a, Give) and a.cards >= 0:
            mask |= a.cards
    return mask


def codes_in(value: Any) -> list[str]:
    """Every word of every string in a message (action texts split at ':' and '+')."""
    if isinstance(value, str):
        return value.replace("+", ":").split(":")
    if isinstance(value, dict):
        return [w for k, v in value.items() for w in codes_in(k) + codes_in(v)]
    if isinstance(value, list):
        return [w for v in value for w in codes_in(v)]
    return []


class SpyPlayer(EnginePlayer):
    """An engine player that checks every line it sends against its seat's knowledge."""

    def __init__(self, command: str) -> None:
        super().__init__(command)
        self.seat = -1
        self.allowed = 0
        self.deck: list[int] = []
        self.sent: list[dict[str, Any]] = []
        self.leaks: list[str] = []
        self.rules = load_rules("marianna")

    def _watch(self, state: GameState) -> None:
        self.rules = state.rules
        self.allowed |= seen_now(state, self.seat)

    def start(self, state: GameState, seat: int, deck: list[int],
              first_player: int | None) -> None:
        self.seat, self.deck, self.allowed = seat, list(deck), 0
        self._watch(state)
        super().start(state, seat, deck, first_player)

    def dealt(self, state: GameState, deck: list[int], first_player: int | None) -> None:
        self.deck, self.allowed = list(deck), 0
        self._watch(state)
        super().dealt(state, deck, first_player)

    def applied(self, state: GameState, seat: int, text: str) -> None:
        self._watch(state)
        super().applied(state, seat, text)

    def _send(self, message: dict[str, Any], fail_kind: str = "desync",
              timeout: float | None = None) -> dict[str, Any]:
        r = self.rules
        self.sent.append(message)
        for word in codes_in(message):
            c = r.card_index.get(word)
            if c is not None and not self.allowed >> c & 1:
                self.leaks.append(f"{r.card_code[c]} in {json.dumps(message)[:120]}")
        if message["type"] in ("start", "deal"):
            deck = message["deck"]
            if [p for p, code in enumerate(deck) if code != "??"] != \
                    [p for p, c in enumerate(self.deck) if self.allowed >> c & 1]:
                self.leaks.append("the deck shows other places than the seat sees")
            if not all(code in ("??", r.card_code[c])
                       for code, c in zip(deck, self.deck, strict=True)):
                self.leaks.append("the deck is not the true deck")
        for place, code in (message.get("reveal") or {}).get("deck", {}).items():
            if r.card_code[self.deck[int(place)]] != code:  # the true card of that place
                self.leaks.append(f"place {place} does not hold {code}")
        return super()._send(message, fail_kind, timeout)


@pytest.mark.parametrize(("name", "options", "draws"), [("marianna", {"target": 101}, True),
                                                        ("schnapsen", {"match_target": 2}, True),
                                                        ("marjapussi-de", {"hands": 4}, False)])
def test_an_engine_never_receives_a_card_its_seat_cannot_see(
        name: str, options: dict[str, Any], draws: bool) -> None:
    rules = load_rules(name, options)
    spies = [SpyPlayer(ENGINE), SpyPlayer(f"{REF} --bot random --seed 3")]
    factories: dict[int, Any] = {0: lambda: spies[0], 1: lambda: spies[1]}
    match = Match(rules, factories)
    try:
        games = match.play(games=2, seed=5)
    finally:
        match.close()
    assert all(g.forfeit is None for g in games), [g.forfeit for g in games]
    for spy in spies:
        assert spy.hides
        assert spy.leaks == []
        hidden = [m for m in spy.sent if m["type"] in ("start", "deal")]
        assert hidden and all("??" in m["deck"] and "seat" in m for m in hidden)
        if draws:  # cards drawn from the stock are revealed by their places
            assert any("deck" in m.get("reveal", {}) for m in spy.sent)
        assert all("state" in m for m in spy.sent if m["type"] == "apply")
    if rules.passing_steps:  # the other side's passes arrive unseen
        assert any(m.get("action") == "give:?" for spy in spies for m in spy.sent)


def test_a_spy_catches_a_full_deal(tmp_path: Path) -> None:
    """The leak check can fail: an engine of protocol 1 is dealt every card."""
    script = tmp_path / "old_engine.py"
    script.write_text(
        "import sys\n"
        "from mariage.arena.refengine import ChoosingEngine\n"
        "from mariage.conformance.engine import serve\n"
        "class Old(ChoosingEngine):\n"
        "    def hello(self):\n"
        "        out = super().hello()\n"
        "        del out['features']\n"
        "        out['protocol'] = 1\n"
        "        return out\n"
        "serve(Old(), sys.stdin, sys.stdout)\n")
    spy = SpyPlayer(f"{sys.executable} {script}")
    match = Match(load_rules("mariazza", {"target": 10}), {0: lambda: spy})
    try:
        games = match.play(games=1, seed=2)
    finally:
        match.close()
    assert games[0].forfeit is None and not spy.hides
    assert spy.leaks and "??" not in spy.sent[0]["deck"]


@pytest.mark.parametrize(("name", "options"), [("marianna", {"target": 101}),
                                               ("mariglia", {"target": 11}),
                                               ("schnapsen", {"match_target": 3}),
                                               ("marjapussi-de", {"hands": 4})])
def test_two_hidden_engines_play_a_match_whose_records_validate(
        name: str, options: dict[str, Any], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    rules = load_rules(name, options)
    players: list[Player] = []

    def engine(command: str) -> Player:
        players.append(EnginePlayer(command))
        return players[-1]

    match = Match(rules, {0: lambda: engine(ENGINE),
                          1: lambda: engine(f"{REF} --bot random --seed 4")})
    try:
        games = match.play(games=2, seed=9)
    finally:
        match.close()
    assert [g.forfeit for g in games] == [None, None]
    assert all(isinstance(p, EnginePlayer) and p.hides for p in players)
    out = tmp_path / "games.txt"
    out.write_text("\n".join(write_record(g.record) for g in games))
    capsys.readouterr()
    assert main(["validate", str(out)]) == 0
    assert "2 valid, 0 invalid" in capsys.readouterr().out


def test_match_command_with_hidden_engines(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m.txt"
    assert main(["match", "mariglia", "-o", "target=11", "--games", "2", "--seed", "4",
                 "--engine", f"N={ENGINE}", "--engine", f"W={REF} --bot random",
                 "--out", str(out), "-q"]) == 0
    assert "forfeits" not in out.read_text()
    assert main(["validate", str(out)]) == 0


def feed(name: str, seed: int, hands: int = 1,
         min_turns: int = 0) -> list[tuple[str, int, list[str], list[str]]]:
    """Play ``hands`` hands (more while fewer than ``min_turns`` turns were seen: a hand
    may end at once, conceded) with random bots, an engine per seat fed hidden cards; return
    (ruleset, seat, the engine's legal actions, the referee's) at every turn."""
    r = load_rules(name)
    deals = SeededDeals(r, seed)
    st = GameState(r, first_dealer=deals.first_dealer)
    engines = [ReferenceEngine() for _ in range(r.nseats)]
    views = [SeatView(s) for s in range(r.nseats)]
    bots = [make_bot("random", seed * 10 + s) for s in range(r.nseats)]
    out = []
    while not st.terminal:
        if st.phase == DEAL:
            if st.hand_no >= hands and len(out) >= min_turns:
                break
            deck, first = deals.next_deal()
            st.deal(deck, first)
            for s, e in enumerate(engines):
                msg: dict[str, Any] = {"type": "deal", "deck": views[s].deal(st, deck),
                                       "seat": s, "first_player": first}
                if st.hand_no == 1:
                    msg.update(type="start", ruleset=name, options=changed_options(r),
                               dealer=deals.first_dealer)
                assert e.handle(msg) == {"type": "ok"}, msg
            continue
        seat = st.to_act
        assert seat is not None
        legal = engines[seat].handle({"type": "legal"})
        assert legal["seat"] == seat
        out.append((name, seat, sorted(legal["actions"]),
                    sorted(action_text(r, a) for a in st.legal_actions())))
        action = bots[seat].choose(st)
        st.apply(action, seat)
        for s, e in enumerate(engines):
            m = {"type": "apply", "action": views[s].action(st, seat, action), "seat": seat,
                 "state": seat_state_json(st, s)}
            reveal = views[s].after(st)
            if reveal:
                m["reveal"] = reveal
            assert e.handle(m) == {"type": "ok"}, (name, s, m)
    return out


@pytest.mark.parametrize("name", list_rulesets())
def test_hidden_engine_answers_legal_for_its_seat_as_with_the_full_deal(name: str) -> None:
    turns = feed(name, seed=3, min_turns=9)
    assert len(turns) > 8
    for _, seat, hidden, full in turns:
        assert hidden == full, (name, seat)


def test_an_opponent_action_that_contradicts_the_guess_forces_a_new_deal() -> None:
    rules = load_rules("marianna")
    st = GameState(rules, first_dealer=0)
    deck = [rules.card_code[c] for c in canonical_deck(rules)]
    masked = [c if 5 <= i < 10 else "??" for i, c in enumerate(deck)]  # seat 2's cards
    hand = HiddenHand(st, 2, parse_hidden_deck(rules, masked), None)
    assert rules.format_cards(hand.state.hands[2]) == "7H 6H 5H 4H 2H"
    # the first guess gives seat 1 the lowest unseen cards; AS lies elsewhere in it
    assert not hand.state.hands[1] >> rules.card_index["AS"] & 1
    hand.apply(1, parse_action(rules, "AS"))
    assert hand.redeals == 1 and hand.mends == 0
    assert hand.state.trick_cards == [rules.card_index["AS"]]
    assert rules.format_cards(hand.state.hands[2]) == "7H 6H 5H 4H 2H"
    # the engine's own seat: legal as in the full deal, and an illegal card refused
    assert [action_text(rules, a) for a in hand.state.legal_actions()] == \
        ["7H", "6H", "5H", "4H", "2H"]
    with pytest.raises(IllegalActionError, match=r"core\.hand"):
        hand.apply(2, parse_action(rules, "KS"))
    assert hand.state.trick_cards == [rules.card_index["AS"]]


def test_when_the_search_gives_up_the_guess_is_mended_in_place() -> None:
    rules = load_rules("marianna")
    st = GameState(rules, first_dealer=0)
    deck = [rules.card_code[c] for c in canonical_deck(rules)]
    masked = [c if 5 <= i < 10 else "??" for i, c in enumerate(deck)]
    hand = HiddenHand(st, 2, parse_hidden_deck(rules, masked), None, search=0)
    hand.apply(1, parse_action(rules, "AS"))  # a search that gives up at once
    assert hand.redeals == 0 and hand.mends == 1
    assert hand.state.trick_cards == [rules.card_index["AS"]]
    assert hand.state.hands[2] == sum(1 << rules.card_index[c] for c in deck[5:10])


def test_a_reveal_or_state_that_contradicts_the_guess_is_followed() -> None:
    rules = load_rules("schnapsen")
    deals = SeededDeals(rules, 4)
    st = GameState(rules, first_dealer=deals.first_dealer)
    full, _ = deals.next_deal()
    st.deal(full)
    view = SeatView(0)
    engine = ReferenceEngine()
    assert engine.handle({"type": "start", "ruleset": "schnapsen",
                          "dealer": deals.first_dealer, "seat": 0,
                          "deck": view.deal(st, full)}) == {"type": "ok"}
    bots = [make_bot("greedy", 1), make_bot("greedy", 2)]
    while st.hand_no == 1 and st.phase != DEAL:
        seat = st.to_act
        assert seat is not None
        action = bots[seat].choose(st)
        st.apply(action, seat)
        msg = {"type": "apply", "action": view.action(st, seat, action), "seat": seat,
               "state": seat_state_json(st, 0)}
        reveal = view.after(st)
        if reveal:
            msg["reveal"] = reveal
        assert engine.handle(msg) == {"type": "ok"}
        if st.phase != DEAL:  # the engine's view is the referee's view of seat 0
            assert engine.handle({"type": "state"})["hands"] == seat_state_json(st, 0)["hands"]
    assert engine.hidden is not None and engine.hidden.redeals + engine.hidden.mends > 0


def test_an_illegal_card_still_loses_under_hidden_cards() -> None:
    rules = load_rules("marianna")
    players: list[EnginePlayer] = []

    def faulty() -> Player:
        players.append(EnginePlayer(f"{REF} --fault illegal --fault-after 2"))
        return players[0]

    match = Match(rules, {0: faulty, 1: lambda: BotPlayer("greedy", 1)})
    try:
        games = match.play(games=1, seed=3)
    finally:
        match.close()
    assert players[0].hides
    forfeit = games[0].forfeit
    assert forfeit is not None and forfeit[1] == "illegal"
    assert "[core.hand] that card is not in the player's hand" in forfeit[2]
    tags = {t.name: t.values[0] for t in games[0].record.tags}
    assert "forfeits (illegal)" in tags["Termination"]


def test_hidden_deal_requests_are_checked() -> None:
    engine = ReferenceEngine()
    deck = ["AH", "3H", "KH", "QH", "JH"] + ["??"] * 35  # seat 1's cards, dealer 0
    bad = engine.handle({"type": "start", "ruleset": "marianna", "dealer": 0, "seat": 7,
                         "deck": deck})
    assert bad["code"] == "bad_request"
    for wrong in (deck[:-1], ["??"] * 40, [*deck[:5], "AH", *deck[6:]]):
        assert engine.handle({"type": "start", "ruleset": "marianna", "dealer": 0,
                              "seat": 1, "deck": wrong})["rule"] == "core.deal"
    assert engine.handle({"type": "start", "ruleset": "marianna", "dealer": 0, "seat": 1,
                          "deck": deck}) == {"type": "ok"}
    refused = engine.handle({"type": "apply", "action": "AH", "seat": 1,
                             "reveal": {"deck": {"99": "AH"}}})
    assert refused["code"] == "bad_request"
    assert engine.handle({"type": "apply", "action": "give:?", "seat": 1})["code"] == \
        "bad_action"  # no passing in Marianna
    state = engine.handle({"type": "state"})
    assert state["hands"][2] == ["??"] * 5 and len(state["hands"][1]) == 5
