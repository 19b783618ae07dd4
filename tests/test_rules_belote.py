"""Per-rule tests of Belote (the rules notes ``RULES-NOTES-belote.md``).

Seats in playing order (anticlockwise) N W S E = 0 1 2 3, partners opposite: NS
against EW. Unless said otherwise E deals, so N is eldest: he speaks first and
leads the first trick. A situation is given as each seat's whole hand of eight
after the second deal (:func:`deal8`); the deck that deals it is worked out from
the deal order of the notes (section 12). Scoring situations set the sides'
card points and tricks just before the last trick (:func:`finish`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from mariage import GameState, Phase, Rules, load_rules
from mariage.arena.bots import make_bot
from mariage.engine.deals import SeededDeals
from mariage.notation.recorder import record_match
from mariage.notation.replay import validate
from mariage.notation.writer import write_record
from rulekit import covers, finish_hand, legal_texts, play, play_tricks, refused, start

B = "belote"
N, W, S, E = 0, 1, 2, 3
NS, EW = 0, 1


def plays(state: GameState) -> set[str]:
    """The cards the seat to act may play."""
    return {t for t in legal_texts(state) if t in state.rules.card_index}


def filled(rules: Rules, hands: Sequence[str | None]) -> list[list[str]]:
    """Whole hands of eight: ``None`` or short hands filled from the cards nobody asked
    for, lowest first."""
    asked = [c for h in hands if h for c in h.split()]
    spare = [c for c in sorted(rules.card_code, key=lambda c: (-rules.rank_of[rules.card(c)],
                                                                rules.suit_of[rules.card(c)]))
             if c not in asked]
    full = []
    for s in range(4):
        h = (hands[s] or "").split() if s < len(hands) else []
        while len(h) < 8:
            h.append(spare.pop(0))
        full.append(h)
    return full


def deal8(hands: Sequence[str | None], taker: int, turn_up: str, named: str | None = None,
          dealer: int = E, options: Mapping[str, Any] | None = None,
          ruleset: str = B) -> GameState:
    """A deal in play whose seats hold ``hands`` (eight cards each after the second deal;
    ``None`` or short hands are filled from the cards nobody asked for, lowest first).

    ``taker`` takes the turn-up in the first round, or (``named``) names that suit in
    the second round, after four passes in the first. Under an auction (the presets),
    ``taker`` bids 80 in the turn-up's suit (or ``named``) and the others pass.
    """
    rules = load_rules(ruleset, dict(options or {}))
    if rules.sa_rule is not None:
        return bid_deal(hands, taker, named or turn_up[-1], 80, "", dealer, options, ruleset)
    assert turn_up in (hands[taker] or "").split(), "the taker gets the turn-up"
    full = filled(rules, hands)
    eldest = (dealer + 1) % 4
    first = (taker if rules.second_deal_start == "taker" else eldest)
    second: list[str] = []
    five: list[list[str]] = []
    for s in range(4):
        h = [c for c in full[s] if c != turn_up]
        k = rules.second_deal_taker if s == taker else rules.second_deal_others
        five.append(h[:len(h) - k])
    for i in range(4):
        s = (first + i) % 4
        h = [c for c in full[s] if c != turn_up]
        k = rules.second_deal_taker if s == taker else rules.second_deal_others
        second += h[len(h) - k:]
    state = start(rules, five, dealer=dealer, stock=second, turn_up=turn_up)
    speaker = eldest
    if named is not None:
        play(state, "pass pass pass pass")
    while speaker != taker:
        play(state, "pass")
        speaker = (speaker + 1) % 4
    play(state, "take" if named is None else f"take:{named}")
    check_hands(state, full)
    return state


def bid_deal(hands: Sequence[str | None], taker: int, suit: str, value: int | str = 80,
             doubling: str = "", dealer: int = E, options: Mapping[str, Any] | None = None,
             ruleset: str = "belote-coinche") -> GameState:
    """A deal of an auction preset in play: ``taker`` bids ``value`` in ``suit`` after
    passes from eldest; then (``doubling``) the next opponent coinches and the taker's side
    passes, or his partner surcoinches; else three passes."""
    rules = load_rules(ruleset, dict(options or {}))
    full = filled(rules, hands)
    state = start(rules, full, dealer=dealer)
    speaker = (dealer + 1) % 4
    while speaker != taker:
        play(state, "pass")
        speaker = (speaker + 1) % 4
    play(state, f"bid:{value}:{suit}")
    if doubling == "coinche":
        play(state, "coinche pass pass")
    elif doubling == "surcoinche":
        play(state, "coinche surcoinche")
    else:
        play(state, "pass pass pass")
    assert state.phase == Phase.PLAY
    check_hands(state, full)
    return state


def check_hands(state: GameState, full: list[list[str]]) -> None:
    rules = state.rules
    for s in range(4):
        assert rules.format_cards(state.hands[s]).split() == sorted(full[s], key=rules.card)


def finish(state: GameState, ns_cards: int, ns_tricks: int) -> GameState:
    """Play to the last trick, set the sides so that the deal ends at ``ns_cards`` / 162 in
    cards (the last trick's 10 included) and ``ns_tricks`` / 8, then play it. The jack of
    trumps is kept to the last trick, which its holder's side therefore wins."""
    return finish_hand(state, ns_cards, ns_tricks, keep="J" + state.rules.suits[state.trump])


# NS take spades (N takes the turned jack); hands chosen so that N (eldest) wins the
# last trick with the ace of hearts: he keeps it to the end
SPADES = ["JS 9S AS AH TH 9D 8D 7D", None, None, None]


def spades(options: Mapping[str, Any] | None = None, ruleset: str = B) -> GameState:
    return deal8(SPADES, N, "JS", options=options, ruleset=ruleset)


def gain(state: GameState) -> list[int]:
    return list(state.history[-1].score)


def dealt(ruleset: str = B, options: Mapping[str, Any] | None = None) -> GameState:
    """A new match of ``ruleset`` with ``options``, E dealing the unshuffled deck (card 0
    first): the first deal in progress, N to speak."""
    st = GameState(load_rules(ruleset, dict(options or {})), first_dealer=E)
    st.deal(list(range(32)))
    return st


# ----------------------------------------------------------------- players, pack, deal
@covers("belote.players", "belote.pack", "belote.pack.trump", ruleset=B)
def test_four_players_anticlockwise_and_the_two_card_orders() -> None:
    r = load_rules(B)
    assert r.nseats == 4 and r.teams == ((0, 2), (1, 3)) and r.direction == "anticlockwise"
    assert r.seat_names == ("N", "W", "S", "E")
    # check 1: a trump suit is 62, a plain suit 30, the pack 152 (162 with dix de der)
    for trump in range(4):
        pts = r.role_points[trump]
        for s in range(4):
            total = sum(pts[c] for c in r.cards_of(r.suit_mask[s]))
            assert total == (62 if s == trump else 30)
        assert sum(pts) + r.last_trick_points == 162
        order = sorted(r.cards_of(r.suit_mask[trump]), key=lambda c: -r.role_strength[trump][c])
        assert [r.ranks[r.rank_of[c]] for c in order] == ["J", "9", "A", "T", "K", "Q", "8", "7"]
    plain = sorted(r.cards_of(r.suit_mask[0]), key=lambda c: -r.role_strength[1][c])
    assert [r.ranks[r.rank_of[c]] for c in plain] == ["A", "T", "K", "Q", "J", "9", "8", "7"]


@covers("belote.deal", "belote.take", "belote.take.second-deal", "belote.lead.first",
        ruleset=B)
def test_five_cards_a_turn_up_then_the_second_deal_makes_eight_each() -> None:
    r = load_rules(B)
    st = GameState(r, first_dealer=E)
    deck = list(range(32))
    st.deal(deck)
    # check 3: 4 x 5 + 1 + 11 = 32; packets 3 then 2 from eldest (N)
    assert [bin(h).count("1") for h in st.hands] == [5, 5, 5, 5]
    assert st.hands[N] == sum(1 << c for c in (0, 1, 2, 12, 13))
    assert st.turn_up == 20 and st.phase == Phase.TAKING and st.to_act == N
    play(st, "pass take")  # W takes the jack of clubs
    assert st.trump == r.suits.index("C") and st.declarer == W
    # second deal from eldest: 3 to N, 2 to the taker W (with the turn-up), 3, 3
    assert st.hands[N] >> 21 & 1 and st.hands[N] >> 23 & 1
    assert st.hands[W] >> 20 & 1 and st.hands[W] >> 24 & 1 and st.hands[W] >> 25 & 1
    assert [bin(h).count("1") for h in st.hands] == [8, 8, 8, 8]
    assert st.phase == Phase.PLAY and st.to_act == N  # eldest leads, whoever took


@covers("belote.take", ruleset=B)
def test_first_round_takes_only_the_turned_suit() -> None:
    st = dealt()
    assert legal_texts(st) == ["pass", "take"]
    refused(st, "take:H", "belote.take")


@covers("belote.take.second-round", ruleset=B)
def test_second_round_names_another_suit() -> None:
    st = dealt()
    play(st, "pass pass pass pass")
    assert legal_texts(st) == ["pass", "take:H", "take:D", "take:S"]
    refused(st, "take:C", "belote.take.second-round")
    refused(st, "take", "belote.take.second-round")
    play(st, "pass take:H")
    assert st.trump == 0 and st.declarer == W
    assert st.hands[W] >> 20 & 1  # the taker gets the turn-up even when he named a suit


@covers("belote.take.second-round", ruleset=B, options={"second_round_suits": "any_suit"})
def test_second_round_any_suit_option() -> None:
    st = dealt(options={"second_round_suits": "any_suit"})
    play(st, "pass pass pass pass")
    assert legal_texts(st) == ["pass", "take:H", "take:D", "take:C", "take:S"]


@covers("belote.take.all-pass", "belote.deal.rotation", ruleset=B)
def test_eight_passes_void_the_deal_and_the_next_dealer_deals() -> None:
    st = dealt()
    play(st, " ".join(["pass"] * 8))
    assert st.phase == Phase.DEAL and st.dealer == N and st.match_scores == [0, 0]
    assert st.history[-1].ended == "void" and st.history[-1].score == (0, 0)


@covers("belote.take.all-pass", ruleset=B, options={"all_pass": "same_dealer"})
def test_all_pass_same_dealer_option() -> None:
    st = dealt(options={"all_pass": "same_dealer"})
    play(st, " ".join(["pass"] * 8))
    assert st.phase == Phase.DEAL and st.dealer == E


@covers("belote.deal", ruleset=B, options={"deal_packets": "2-3"})
def test_deal_packets_two_then_three_option() -> None:
    st = dealt(options={"deal_packets": "2-3"})
    assert st.hands[N] == sum(1 << c for c in (0, 1, 8, 9, 10))


@covers("belote.take.second-deal", ruleset=B, options={"second_deal_start": "taker"})
def test_second_deal_from_the_taker_option() -> None:
    st = dealt(options={"second_deal_start": "taker"})
    play(st, "pass take")  # W takes: he is dealt first, two cards (21, 22)
    assert st.hands[W] >> 21 & 1 and st.hands[W] >> 22 & 1 and st.hands[S] >> 23 & 1


@covers("belote.players", ruleset=B, options={"direction": "clockwise"})
def test_direction_clockwise_option_changes_only_the_seating() -> None:
    r = load_rules(B, {"direction": "clockwise"})
    assert r.direction == "clockwise" and r.seat_names == ("N", "E", "S", "W")
    assert r.teams == load_rules(B).teams


# ----------------------------------------------------------------- trick play (3.3)
@covers("belote.trick.winner", ruleset=B)
def test_jack_and_nine_of_trumps_beat_the_ace_and_any_plain_card() -> None:
    st = deal8(["9S AH KH QH JH TH 9H 8H", "JS 7S AD KD QD JD TD 9D", None, None], W, "JS")
    play(st, "AH 7S")  # W cuts the ace of hearts with a low trump
    assert st.current_winner() == 1
    play_tricks(st, 1)
    assert st.tricks[0][2] == W


P1 = ["9S 7H 8H 9H 7D 8D 9D 7C", "8S TD", "JS QS AH KH QH JH TH KD", "AS"]


@covers("belote.play.follow", "belote.play.trump-led", ruleset=B)
def test_p1_trumps_led_must_beat_the_partner() -> None:
    st = deal8(P1, E, "AS")
    play(st, "9S 8S")
    assert plays(st) == {"JS"}  # check 6
    refused(st, "QS", "belote.play.trump-led")


@covers("belote.play.trump-led", ruleset=B, options={"must_overtrump_partner": False})
def test_p1_must_overtrump_partner_false() -> None:
    st = deal8(P1, E, "AS", options={"must_overtrump_partner": False})
    play(st, "9S 8S")
    assert plays(st) == {"JS", "QS"}


P2 = ["KH AH TH QH JH AC KC QC", "7H 9H 8H AS 7D 8D 9D JD", "TS KS QS JS 9S TD 9C 8C",
      "8S 7S AD KD QD JC TC 7C"]


@covers("belote.play.void", ruleset=B)
def test_p2_void_and_an_opponent_cut_must_still_play_a_lower_trump() -> None:
    st = deal8(P2, S, "JS")
    play(st, "KH 7H TS")
    assert plays(st) == {"8S", "7S"}  # check 7
    refused(st, "AD", "belote.play.void")


#: P2 after K♥ 7♥ 10♠: the cards E may play, by the value of ``undertrump``
P2_EXPECT = {"required": {"8S", "7S"},
             "optional": {"8S", "7S", "AD", "KD", "QD", "JC", "TC", "7C"},
             "forbidden_unless_only_trumps": {"AD", "KD", "QD", "JC", "TC", "7C"}}


@covers("belote.play.void", ruleset=B, options={"undertrump": "optional"})
@covers("belote.play.void", ruleset=B, options={"undertrump": "forbidden_unless_only_trumps"})
@pytest.mark.parametrize("value", ["optional", "forbidden_unless_only_trumps"])
def test_p2_undertrump_options(value: str) -> None:
    st = deal8(P2, S, "JS", options={"undertrump": value})
    play(st, "KH 7H TS")
    assert plays(st) == P2_EXPECT[value]
    for card in set(st.rules.format_cards(st.hands[E]).split()) - P2_EXPECT[value]:
        refused(st, card, "belote.play.void")


P3 = ["AD AH KH QH AC KC QC JC", "7D 8D 9D TD JD QD KD 8H", "9S 7C TH JH 9H 7H 8C 9C",
      "JS"]


@covers("belote.play.partner-winning", ruleset=B)
def test_p3_partner_winning_with_a_plain_card_any_card() -> None:
    st = deal8(P3, E, "JS")
    play(st, "AD 7D")
    assert {"9S", "7C"} <= plays(st) and plays(st) == set(
        st.rules.format_cards(st.hands[S]).split())  # check 8


@covers("belote.play.void", ruleset=B, options={"trump_when_partner_master": "must_trump"})
def test_p3_trump_when_partner_master_must_trump() -> None:
    st = deal8(P3, E, "JS", options={"trump_when_partner_master": "must_trump"})
    play(st, "AD 7D")
    assert plays(st) == {"9S"}


P4 = ["AC AH TH 9H 8H 7H AD TD", "TS KD QD JD 9D 8D 7D 9S", "8C KC QC TC 9C 7C JC 8S",
      "JS 7S KH QH JH KS QS AS"]


def p4(options: Mapping[str, Any] | None = None) -> GameState:
    st = deal8(P4, E, "JS", options=options)
    play(st, "AC TS 8C")
    return st


@covers("belote.play.partner-winning", ruleset=B)
def test_p4_partner_winning_with_a_trump_no_undertrump() -> None:
    st = p4()
    assert plays(st) == {"JS", "AS", "KH", "QH", "JH"}  # not KS QS 7S, below the ten
    refused(st, "7S", "belote.play.partner-winning")
    st.hands[E] = sum(1 << st.rules.card(c) for c in ("7S", "8S"))  # only lower trumps
    assert plays(st) == {"7S", "8S"}


@covers("belote.play.partner-winning", ruleset=B,
        options={"partner_trump_undertrump": "allowed"})
def test_p4_partner_trump_undertrump_allowed() -> None:
    st = p4({"partner_trump_undertrump": "allowed"})
    assert "7S" in plays(st) and len(plays(st)) == 8


@covers("belote.play.partner-winning", ruleset=B,
        options={"partner_trump_undertrump": "overtrump_if_only_trumps"})
def test_p4_partner_trump_overtrump_if_only_trumps() -> None:
    st = p4({"partner_trump_undertrump": "overtrump_if_only_trumps"})
    assert len(plays(st)) == 8  # holding plain cards: anything
    st.hands[E] = sum(1 << st.rules.card(c) for c in ("JS", "7S"))
    assert plays(st) == {"JS"}


@covers("belote.play.void", ruleset=B, options={"trump_when_partner_master": "must_trump"})
def test_p4_must_trump_fourth_seat_exception() -> None:
    st = p4({"trump_when_partner_master": "must_trump"})
    assert plays(st) == {"JS", "AS", "KH", "QH", "JH"}  # not KS QS 7S, below the ten


@covers("belote.play.void", ruleset=B)
def test_p5_second_seat_must_cut_though_partner_has_not_played() -> None:
    st = deal8(["AH KD QD JD TD 9D 8D 7D", "7S KC QC JC TC 9C 8C 7C", None, "JS"], E, "JS")
    play(st, "AH")
    assert plays(st) == {"7S"}


# ----------------------------------------------------------------- announcements (4.6)
def announce_deal(hands: Sequence[str], turn_up: str, taker: int,
                  options: Mapping[str, Any] | None = None) -> GameState:
    return deal8(hands, taker, turn_up, options=options)


def trick1(st: GameState, script: Sequence[str]) -> None:
    """Play the first trick: per seat in turn, its announcements (texts) then its first
    legal card."""
    for texts in script:
        for t in texts.split():
            play(st, t)
        play_tricks(st, 0)
        card = next(a for a in st.legal_actions() if type(a).__name__ == "Play")
        st.apply(card)


A1 = ["KC QC JC 9H 7D 8S AD 8H", "TH 7H AS TS 7C 8C 9D TD", "AH JD QD KD 9C TC AC 7S",
      "KS QS JS JH KH QH 8D 9S"]


@covers("belote.announce", "belote.announce.tierce", "belote.announce.tie", ruleset=B)
def test_a1_equal_plain_tierces_cancel() -> None:
    st = announce_deal(A1, "JH", E)
    trick1(st, ["tierce:KC", "", "", "tierce:KS"])
    assert st.mech.announcements.best_side(st) == -1  # check 9, last part
    assert st.mech.announcements.points(st) == [0, 0]


@covers("belote.announce.tie", ruleset=B, options={"announce_tie": "first_in_rotation"})
def test_a1_first_in_rotation() -> None:
    st = announce_deal(A1, "JH", E, options={"announce_tie": "first_in_rotation"})
    trick1(st, ["tierce:KC", "", "", "tierce:KS"])
    assert st.mech.announcements.best_side(st) == NS
    assert st.mech.announcements.points(st) == [20, 0]


@covers("belote.announce.compare", ruleset=B)
def test_a2_plain_tierce_to_the_ace_beats_a_trump_tierce_to_the_nine() -> None:
    hands = ["AC JC 9C 7C AD 9D 7D KH", "AS KS QS TC 8C TD 8D 7S", "9H 8H 7H JS 9S KC QD QH",
             "AH TH JD JH KD QC TS 8S"]
    st = announce_deal(hands, "JH", E)
    trick1(st, ["", "tierce:AS", "tierce:9H", ""])
    assert st.mech.announcements.best_side(st) == EW  # check 9, second part
    assert st.mech.announcements.points(st) == [0, 20]


@covers("belote.announce.carre", "belote.announce.cent", "belote.announce.compare",
        ruleset=B)
def test_a3_a_carre_of_queens_beats_a_cent_and_takes_its_tierce_along() -> None:
    hands = ["JS TS 9S 8S 7S AH 7C 8C", "QH QD QC QS 9H 8H 9D AC", "KH TH 7H KD TD 8D 7D KC",
             "JC TC 9C JH KS AS AD JD"]
    st = announce_deal(hands, "JH", E)
    trick1(st, ["cent:JS", "carre:Q", "", "tierce:JC"])
    ann = st.mech.announcements
    assert ann.best_side(st) == EW  # check 9: a carré of queens beats a cent
    assert ann.points(st) == [0, 100 + 20]


@covers("belote.announce.cinquante", "belote.announce.compare", ruleset=B)
def test_a4_higher_top_beats_a_trump_run_of_the_same_length() -> None:
    hands = ["AC KC QC JC 7H 8H 9D 7D", "KH QH JH TH AS 8C 9C 8D", "AD TD JD 7S 8S 9S TS 9H",
             "JS QS KS AH TC QD KD 7C"]
    st = announce_deal(hands, "KH", W)
    trick1(st, ["cinquante:AC", "cinquante:KH", "", ""])
    assert st.mech.announcements.best_side(st) == NS
    assert st.mech.announcements.points(st) == [50, 0]


@covers("belote.announce.carre", "belote.announce.tierce", ruleset=B)
def test_a5_a_team_scores_all_its_announcements() -> None:
    hands = ["AH KH QH 8C 7C 8D 7D 8S", "KS QS JS TS AS AC KC 7S", "9H 9D 9C 9S TD JD AD QD",
             "JH TH 7H QC JC TC 8H KD"]
    st = announce_deal(hands, "JH", E)
    trick1(st, ["tierce:AH", "cent:AS", "carre:9", ""])
    assert st.mech.announcements.best_side(st) == NS
    assert st.mech.announcements.points(st) == [170, 0]


@covers("belote.announce.carre", ruleset=B)
def test_four_eights_cannot_be_announced_and_a_false_one_is_refused() -> None:
    hands = ["8H 8D 8C 8S AH KH 7C 7D", None, None, "JS"]
    st = announce_deal(hands, "JS", E)
    assert not [t for t in legal_texts(st) if t.startswith("carre")]  # check 9: 0 points
    refused(st, "carre:8", "belote.announce.carre")
    refused(st, "cinquante:AH", "belote.announce.cinquante")


@covers("belote.announce", ruleset=B)
def test_announcements_only_in_the_first_trick_before_the_card() -> None:
    hands = ["AH KH QH 8C 7C 8D 7D 8S", None, None, "JS"]
    st = announce_deal(hands, "JS", E)
    assert "tierce:AH" in legal_texts(st)
    play_tricks(st, 1)
    refused(st, "tierce:AH", "belote.announce")


@covers("belote.announce", ruleset=B, options={"announcements": False})
def test_announcements_off() -> None:
    hands = ["AH KH QH 8C 7C 8D 7D 8S", None, None, "JS"]
    st = announce_deal(hands, "JS", E, options={"announcements": False})
    assert not [t for t in legal_texts(st) if ":" in t]


@covers("belote.announce", ruleset=B, options={"long_sequence": "split"})
def test_long_sequence_split() -> None:
    hands = ["AH KH QH JH TH 9H 8H 7H", None, None, "JS"]
    st = announce_deal(hands, "JS", E, options={"long_sequence": "split"})
    assert [t for t in legal_texts(st) if ":" in t] == ["cent:AH", "tierce:9H"]
    st = announce_deal(hands, "JS", E)
    assert [t for t in legal_texts(st) if ":" in t] == ["cent:AH"]


@covers("belote.announce", ruleset=B, options={"card_in_two_combinations": True})
def test_card_in_two_combinations() -> None:
    hands = ["JH JD JC JS QH KH 7C 8C", None, None, "9S"]
    st = announce_deal(hands, "9S", E)
    play(st, "carre:J")
    assert "tierce:KH" not in legal_texts(st)  # the jack of hearts is used
    st = announce_deal(hands, "9S", E, options={"card_in_two_combinations": True})
    play(st, "carre:J")
    assert "tierce:KH" in legal_texts(st)


# ----------------------------------------------------------------- belote-rebelote (5)
BELOTE = ["JS KS QS 7H 8H 9H 7D 8D", None, None, None]


@covers("belote.belote", ruleset=B)
def test_belote_said_with_the_first_card_scores_twenty() -> None:
    st = deal8(BELOTE, N, "JS")
    assert {"belote:KS", "belote:QS"} <= set(legal_texts(st))
    play(st, "belote:QS")
    assert st.pair_by == N and st.trick_cards == [st.rules.card("QS")]
    refused(st, "belote:KS", "belote.belote")  # W does not hold the pair


@covers("belote.belote", ruleset=B, options={"belote_order": "king_first"})
def test_belote_order_king_first() -> None:
    st = deal8(BELOTE, N, "JS", options={"belote_order": "king_first"})
    texts = set(legal_texts(st))
    assert "belote:KS" in texts and "belote:QS" not in texts


@covers("belote.belote", ruleset=B, options={"belote_declare": "automatic"})
def test_belote_declare_automatic() -> None:
    st = deal8(BELOTE, N, "JS", options={"belote_declare": "automatic"})
    assert st.pair_by == N and not [t for t in legal_texts(st) if t.startswith("belote")]


@covers("belote.belote", "belote.score.belote-kept", ruleset=B,
        options={"announcements": False})
def test_check10_belote_counts_without_announcements_and_stays_when_dedans() -> None:
    st = deal8(BELOTE, N, "JS", options={"announcements": False})
    play(st, "belote:KS")
    finish(st, 70, 3)  # check 5 / S3: takers 70 + 20 = 90 against 92: dedans
    assert gain(st) == [20, 162] and st.history[-1].outcome == "failed"


@covers("belote.score.belote-kept", ruleset=B, options={"belote_on_failure": "goes_to_winner"})
def test_belote_on_failure_goes_to_winner() -> None:
    st = deal8(BELOTE, N, "JS", options={"belote_on_failure": "goes_to_winner"})
    play(st, "belote:KS")
    finish(st, 70, 3)
    assert gain(st) == [0, 182]


@covers("belote.score.belote-kept", ruleset=B, options={"belote_counts_for_contract": False})
def test_belote_counts_for_contract_false() -> None:
    st = deal8(BELOTE, N, "JS", options={"belote_counts_for_contract": False})
    play(st, "belote:KS")
    finish(st, 80, 3)  # 80 + 20 = 100 > 82 would make it; without the belote 80 < 82
    assert st.history[-1].outcome == "failed" and gain(st) == [20, 162]
    st = deal8(BELOTE, N, "JS")
    play(st, "belote:KS")
    finish(st, 80, 3)
    assert st.history[-1].outcome == "made" and gain(st) == [100, 82]


# ----------------------------------------------------------------- end of a deal (6.7)
@covers("belote.score.hand", "belote.score.contract", "belote.score.dix-de-der", ruleset=B)
def test_check4_82_80_made() -> None:
    st = finish(spades(), 82, 4)
    assert gain(st) == [82, 80] and st.history[-1].outcome == "made"
    assert sum(st.history[-1].points) == 162


@covers("belote.score.dedans", ruleset=B)
def test_check4_80_82_dedans() -> None:
    st = finish(spades(), 80, 4)
    assert gain(st) == [0, 162] and st.history[-1].outcome == "failed"


@covers("belote.score.dedans", ruleset=B, options={"dedans_points": 160})
def test_dedans_points_option() -> None:
    st = finish(spades({"dedans_points": 160}), 80, 4)
    assert gain(st) == [0, 160]


@covers("belote.score.contract", "belote.belote", ruleset=B)
def test_s1_made_with_the_belote() -> None:
    st = deal8(BELOTE, N, "JS")
    play(st, "belote:KS")
    finish(st, 86, 4)
    assert gain(st) == [106, 76]


@covers("belote.score.dedans", "belote.announce.compare", ruleset=B)
def test_s2_the_defenders_better_announcement_makes_the_takers_dedans() -> None:
    st = spades()
    r = st.rules
    st.announced += [(N, 0, r.card("AH"), 0), (E, 1, r.card("KD"), 0)]  # tierce; cinquante
    finish(st, 92, 4)
    assert gain(st) == [0, 212] and st.history[-1].announce_side == EW


@covers("belote.score.litige", ruleset=B)
def test_check4_s4_litige_held_for_the_next_played_deal() -> None:
    st = finish(spades(), 81, 4)
    assert gain(st) == [0, 81] and st.pot == 81 and st.history[-1].outcome == "tied"
    assert st.history[-1].held == 81
    # a void deal is skipped
    st.deal(list(range(32)))
    play(st, " ".join(["pass"] * 8))
    assert st.pot == 81
    # next deal EW take and fail: NS win that deal and the 81 on top
    nxt = deal8(["AH TH 9D 8D 7D 9C 8C 7C", "JS", None, None], W, "JS", dealer=N)
    nxt.pot = st.pot
    finish(nxt, 90, 4)
    assert gain(nxt) == [162 + 81, 0] and nxt.pot == 0


@covers("belote.score.litige", ruleset=B)
def test_s5_litige_with_an_announcement() -> None:
    st = spades()
    st.announced.append((N, 0, st.rules.card("AH"), 0))
    finish(st, 71, 4)
    assert gain(st) == [0, 91] and st.pot == 91


@covers("belote.score.litige", ruleset=B, options={"dedans_rule": "tie_fails"})
def test_dedans_rule_tie_fails() -> None:
    st = finish(spades({"dedans_rule": "tie_fails"}), 81, 4)
    assert gain(st) == [0, 162]


@covers("belote.score.litige", ruleset=B, options={"dedans_rule": "tie_makes"})
def test_dedans_rule_tie_makes() -> None:
    st = finish(spades({"dedans_rule": "tie_makes"}), 81, 4)
    assert gain(st) == [81, 81]


@covers("belote.score.capot", ruleset=B)
def test_s6_check2_capot_takes_the_defenders_announcement() -> None:
    st = spades()
    st.announced.append((E, 1, st.rules.card("KD"), 0))  # E's cinquante, the best
    finish(st, 162, 8)
    assert gain(st) == [302, 0] and st.history[-1].outcome == "made"


@covers("belote.score.capot", "belote.score.dedans", ruleset=B)
@pytest.mark.parametrize(("options", "cards"), [({}, 252), ({"capot_value": 250}, 250),
                                                ({"capot_value": 162}, 162)])
def test_takers_without_a_trick_are_dedans_whatever_they_announced(
        options: dict[str, Any], cards: int) -> None:
    """Notes 6.5: if the defenders win every trick the takers are dedans, and the defenders
    score their capot and every counting announcement. NS's announcements (300) beat the
    defenders' 252 (or 250, 162) in cards; the reference judged the take made."""
    st = deal8(["7S 9H 9D 9C AC KC QC JC", None, None, "JS"], N, "7S", options=options)
    r = st.rules
    st.announced += [(N, 3, r.card("9H"), 0), (N, 1, r.card("AC"), 0), (S, 2, r.card("AD"), 0)]
    assert st.mech.announcements.points(st) == [150 + 50 + 100, 0]
    finish(st, 0, 0)
    assert st.history[-1].outcome == "failed" and gain(st) == [0, cards + 300]


@covers("belote.score.capot", ruleset=B, options={"capot_value": 250})
def test_capot_value_flat_250() -> None:
    st = finish(spades({"capot_value": 250}), 162, 8)
    assert gain(st) == [250, 0]


@covers("belote.score.capot", ruleset=B, options={"capot_value": 162})
def test_capot_value_162() -> None:
    st = finish(spades({"capot_value": 162}), 162, 8)
    assert gain(st) == [162, 0]


@covers("belote.score.rounding", ruleset=B, options={"rounding": "nearest10_5up"})
def test_check12_rounding_5up() -> None:
    st = finish(spades({"rounding": "nearest10_5up"}), 87, 4)
    assert gain(st) == [90, 80]  # 87-75 is written 90-80
    st = finish(spades({"rounding": "nearest10_5up"}), 85, 4)
    assert gain(st) == [90, 80]


@covers("belote.score.rounding", ruleset=B, options={"rounding": "nearest10_6up"})
def test_check12_rounding_6up() -> None:
    st = finish(spades({"rounding": "nearest10_6up"}), 87, 4)
    assert gain(st) == [90, 70]  # 87-75 is written 90-70 (160)


# ----------------------------------------------------------------- game end (7)
@covers("belote.match.end", "belote.match.tie", ruleset=B)
def test_the_game_ends_after_the_deal_that_reaches_the_target() -> None:
    st = spades()
    st.match_scores = [918, 500]
    finish(st, 82, 4)
    assert st.terminal and st.result is not None and st.result.winner == NS
    st = spades()
    st.match_scores = [920, 922]
    finish(st, 82, 4)  # 1002 each: equal totals play on
    assert not st.terminal


@covers("belote.match.end", ruleset=B, options={"target": 501})
def test_target_option() -> None:
    st = spades({"target": 501})
    st.match_scores = [419, 0]
    finish(st, 82, 4)
    assert st.terminal


@covers("belote.match.belote-alone", ruleset=B)
def test_the_belote_alone_does_not_win() -> None:
    st = deal8(BELOTE, N, "JS")
    st.match_scores = [990, 0]
    play(st, "belote:KS")
    finish(st, 70, 3)
    assert st.match_scores == [1010, 162] and not st.terminal and st.no_win == 1


@covers("belote.match.belote-alone", ruleset=B, options={"belote_alone_cannot_win": False})
def test_belote_alone_cannot_win_false() -> None:
    st = deal8(BELOTE, N, "JS", options={"belote_alone_cannot_win": False})
    st.match_scores = [990, 0]
    play(st, "belote:KS")
    finish(st, 70, 3)
    assert st.terminal and st.result is not None and st.result.winner == NS


@covers("belote.visibility", ruleset=B)
def test_hands_hidden_the_turn_up_public() -> None:
    from mariage.engine.observation import observe

    st = dealt()
    view = observe(st, W)
    assert view.turn_up == 20 and view.shown[N] == 0 and view.hand == st.hands[W]


# ----------------------------------------------------------------- whole games
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_whole_games_validate_and_seeds_reproduce(seed: int) -> None:
    rules = load_rules(B)
    bots = [make_bot("random", seed + s) for s in range(4)]
    rec = record_match(rules, seed, bots)
    validate(rec)
    again = record_match(rules, seed, [make_bot("random", seed + s) for s in range(4)])
    assert write_record(again) == write_record(rec)
    assert rec.hands and rec.result is not None and rec.result.winner is not None


def test_played_deals_share_162_card_points() -> None:
    rules = load_rules(B, {"announcements": False})
    deals = SeededDeals(rules, 7)
    st = GameState(rules, first_dealer=deals.first_dealer)
    bots = [make_bot("random", s) for s in range(4)]
    while not st.terminal and st.hand_no < 30:
        if st.phase == Phase.DEAL:
            st.deal(*deals.next_deal())
            continue
        seat = st.to_act
        assert seat is not None
        st.apply(bots[seat].choose(st))
    played = [h for h in st.history if h.ended == "played_out"]
    assert played and all(sum(h.points) == 162 for h in played)  # check 1


# ----------------------------------------------------------------- an independent referee
TRUMP_ORDER, PLAIN_ORDER = "J9ATKQ87", "ATKQJ987"
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3}
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}


def referee_trick(codes: list[str], trump: str) -> tuple[int, int]:
    """(index of the winning card, card points) of a trick, from the notes' tables."""
    led = codes[0][1]

    def rank(code: str) -> tuple[int, int]:
        if code[1] == trump:
            return (2, -TRUMP_ORDER.index(code[0]))
        return (1, -PLAIN_ORDER.index(code[0])) if code[1] == led else (0, 0)

    best = max(range(len(codes)), key=lambda i: rank(codes[i]))
    points = sum((TRUMP_POINTS if c[1] == trump else PLAIN_POINTS).get(c[0], 0) for c in codes)
    return best, points


@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_a_referee_from_the_notes_agrees_on_tricks_points_and_deal_scores(seed: int) -> None:
    """Random games without announcements, belote automatic: every trick's winner and
    points, each deal's totals (162, capot 252), the contract's result and the written
    scores (made, dedans 162 plus the belote kept, litige held over) recomputed from the
    notes' tables."""
    import random

    rules = load_rules(B, {"announcements": False, "belote_declare": "automatic"})
    deals = SeededDeals(rules, seed)
    st = GameState(rules, first_dealer=deals.first_dealer)
    rng = random.Random(seed)
    pot = 0
    checked = 0
    while not st.terminal and st.hand_no < 25:
        if st.phase == Phase.DEAL:
            st.deal(*deals.next_deal())
            cards = [0, 0]
            tricks = [0, 0]
            continue
        before = len(st.tricks)
        st.apply(rng.choice(st.legal_actions()))
        if len(st.tricks) > before:
            leader, played, winner = st.tricks[-1]
            codes = [rules.card_code[c] for c in played]
            best, points = referee_trick(codes, rules.suits[st.trump])
            assert winner == (leader + best) % 4
            cards[winner % 2] += points
            tricks[winner % 2] += 1
        h = st.history[-1] if st.history else None
        if h is None or h.number != st.hand_no or h.ended != "played_out" or \
                st.phase not in (Phase.DEAL, Phase.OVER):
            continue
        last = st.tricks[-1][2] % 2
        cards[last] += 100 if tricks[last] == 8 else 10
        taker = h.declarer % 2
        pair = [0, 0]
        # the hand record's points are the card points with the usual 10 for the last trick
        assert h.points == (cards[0] - (90 if tricks[0] == 8 else 0),
                            cards[1] - (90 if tricks[1] == 8 else 0)), (h.points, cards)
        belote_team = -1 if st.pair_by < 0 else st.pair_by % 2
        if belote_team >= 0:
            pair[belote_team] = 20
        mine, theirs = cards[taker] + pair[taker], cards[1 - taker] + pair[1 - taker]
        want = [0, 0]
        if tricks[taker] == 8 or mine > theirs:
            want = [cards[0] + pair[0], cards[1] + pair[1]]
            want[taker] += pot
            pot = 0
        elif mine < theirs:
            want[taker] = pair[taker]
            want[1 - taker] = (cards[1 - taker] if tricks[1 - taker] == 8 else 162) + \
                pair[1 - taker] + pot
            pot = 0
        else:
            want[1 - taker] = theirs
            pot += mine
        assert list(h.score) == want, (h, cards, pair, pot)
        checked += 1
    assert checked >= 3


# ----------------------------------------------------------------- announcements shown
@covers("belote.announce.show", ruleset=B, options={"announce_tie": "first_in_rotation"})
def test_the_counting_team_shows_its_announced_cards_to_every_seat() -> None:
    from mariage.arena.hiding import SeatView
    from mariage.conformance.protocol import seat_state_json

    st = announce_deal(A1, "JH", E, options={"announce_tie": "first_in_rotation"})
    views = [SeatView(s) for s in range(4)]
    for v in views:
        v.deal(st, list(range(32)))
    trick1(st, ["tierce:KC", "", "", "tierce:KS"])
    tierce = {st.rules.card(c) for c in ("KC", "QC", "JC")}
    shown = {c for c in tierce if st.hands[N] >> c & 1}
    assert shown and len(shown) >= 2  # the tierce's cards not played to the first trick
    assert {c for c in range(32) if st.known[N] >> c & 1} == shown
    assert st.known[E] & ~st.hands[E] == 0 and not st.known[E] & sum(
        1 << st.rules.card(c) for c in ("QS", "JS"))  # the losing team shows nothing
    codes = sorted(st.rules.card_code[c] for c in shown)
    for s in (W, S, E):  # hidden-card mode: every other seat is told the shown cards
        reveal = views[s].after(st)
        assert sorted(reveal["hands"][str(N)]) == codes
        assert sorted(c for c in seat_state_json(st, s)["hands"][N] if c != "??") == codes
    assert str(E) not in views[W].after(st).get("hands", {})


@covers("belote.announce.show", ruleset=B)
def test_cancelled_announcements_are_not_shown() -> None:
    st = announce_deal(A1, "JH", E)
    trick1(st, ["tierce:KC", "", "", "tierce:KS"])
    assert st.trick_no == 2 and st.known[N] == 0 and st.known[E] & st.hands[E] == 0


# ----------------------------------------------------------------- no shuffle after the first
GATHER = {"shuffle": "first_deal_only"}


def _gathered_by_hand(st: GameState) -> list[int]:
    """The pack after a hand as the rule says it is gathered, computed here apart: the
    tricks' cards as played, or (a void deal) the hands from N round in playing order,
    each in pack order, the turn-up, the stock top first."""
    r = st.rules
    if st.tricks:
        return [c for _, cards, _ in st.tricks for c in cards]
    hands = [c for s in range(4) for c in sorted(r.cards_of(st.hands[s]))]
    turn_up = [] if st.turn_up is None else [st.turn_up]  # none in the auction presets
    return [*hands, *turn_up, *reversed(st.stock)]


@covers("belote.deal.gather", ruleset=B, options=GATHER)
@covers("belote.deal.gather", ruleset="belote-coinche", options=GATHER)
@covers("belote.deal.gather", ruleset="belote-contree", options=GATHER)
@pytest.mark.parametrize("name", [B, "belote-coinche", "belote-contree"])
@pytest.mark.parametrize("void", [False, True])
def test_shuffle_first_deal_only_gathers_the_last_deal_and_cuts(name: str, void: bool) -> None:
    from mariage.engine.deals import deal_owners
    from mariage.engine.prng import SplitMix64

    for options in (GATHER, {}):
        rules = load_rules(name, options)
        for seed in range(1, 20):  # the first seed whose first deal is played (or void)
            deals = SeededDeals(rules, seed)
            st = GameState(rules, first_dealer=deals.first_dealer)
            st.deal(*deals.next_deal(st))
            bots = [make_bot("greedy", s) for s in range(4)]
            while st.phase != Phase.DEAL:
                seat = st.to_act
                assert seat is not None
                st.apply(parse_pass(st) if void else bots[seat].choose(st))
            if (st.history[-1].ended == "void") == void:
                break
        assert (st.history[-1].ended == "void") == void
        gathered = _gathered_by_hand(st)
        assert sorted(gathered) == list(range(32))
        draws = SplitMix64(0)
        draws.state = deals.rng.state
        deck, _ = deals.next_deal(st)
        cuts = [k for k in range(32) if deck == gathered[k:] + gathered[:k]]
        if not options:  # shuffled again by default
            assert cuts == []
            continue
        assert cuts == [3 + draws.below(32 - 6 + 1)]  # each packet of the cut 3 or more
        dealer = st.dealer
        st.deal(deck)
        owners = deal_owners(rules, dealer)
        for s in range(4):
            assert st.hands[s] == sum(1 << c for c, o in zip(deck, owners, strict=True)
                                      if o == s)


def parse_pass(st: GameState) -> Any:
    assert legal_texts(st)[0] == "pass"
    return st.legal_actions()[0]


def test_gathered_decks_are_deterministic_and_records_validate() -> None:
    for name in (B, "belote-coinche"):
        rules = load_rules(name, GATHER)
        rec = record_match(rules, 3, [make_bot("random", s) for s in range(4)])
        validate(rec)
        again = record_match(rules, 3, [make_bot("random", s) for s in range(4)])
        assert write_record(again) == write_record(rec)
        shuffled = record_match(load_rules(name), 3, [make_bot("random", s) for s in range(4)])
        assert write_record(shuffled).split("hand 2")[1] != write_record(rec).split("hand 2")[1]


# ----------------------------------------------------------------- the rulebook's prose figures
#: docs/rulesets/belote-coinche.rst, rounding_decides_game: in a match to 500, N bids 80 in
#: spades in each of three deals and NS take these card points (of 162)
ROUNDED_UP, ROUNDED_DOWN = (85, 85, 82), (84, 84, 94)


@covers("belote-coinche.match.rounded-totals", "belote.match.end", ruleset="belote-coinche",
        options={"rounding_decides_game": False, "target": 500})
@pytest.mark.parametrize(("takes", "written", "exact"), [
    (ROUNDED_UP, [(170, 80), (340, 160), (500, 240)], (492, 234)),
    (ROUNDED_DOWN, [(160, 80), (320, 160), (490, 230)], (502, 224))])
@pytest.mark.parametrize("decides", [True, False])
def test_the_rounding_figures_of_the_rulebook(takes: tuple[int, ...],
                                              written: list[tuple[int, int]],
                                              exact: tuple[int, int], decides: bool) -> None:
    rules = load_rules("belote-coinche", {"rounding_decides_game": decides, "target": 500})
    st = GameState(rules, first_dealer=E)
    lines = []
    for ns, want in zip(takes, written, strict=True):
        start(rules, filled(rules, SPADES), state=st)  # the deal has passed on
        while st.to_act != N:
            play(st, "pass")
        play(st, "bid:80:S pass pass pass")
        finish(st, ns, 4)
        assert st.history[-1].outcome == "made"
        lines.append((ns + 80, 162 - ns))
        assert tuple(st.match_scores) == want
        if want != written[-1]:
            assert not st.terminal
    assert tuple(sum(col) for col in zip(*lines, strict=True)) == exact
    # the written 500 ends the game only where rounding decides it; the exact 502 only
    # where it does not, NS winning with a written 490
    ends = (exact[0] < 500) == decides
    assert st.terminal == ends
    if ends:
        assert st.result is not None and st.result.winner == NS
        assert st.result.scores == written[-1]


#: docs/rulesets/belote.rst, the whole deal: the first five cards of each (N W S E), the
#: turn-up, the rest of the pack as dealt, and the play
WHOLE_DEAL = (["AS TS 7H 8C AD", "JH AH KS QS TC", "KH 7S AC KC TD", "TH JS JC KD QD"], "9H",
              "9S 9C 7D 8S 8D QH QC 9D 8H 7C JD",
              "pass take AS 8S 7S JS TS QS 9D 8H JD AD 8D TD 9S KS belote:QH TH "
              "KD 7D TC KH AC 7C 8C 9H JH KC QD 7H AH QC JC 9C")


@covers("belote.deal.gather", ruleset=B, options=GATHER)
def test_the_gathered_pack_and_cut_of_the_rulebook() -> None:
    from mariage.engine.deals import gathered_deck

    five, turn_up, stock, script = WHOLE_DEAL
    st = start(load_rules(B, GATHER), five, dealer=E, stock=stock, turn_up=turn_up)
    play(st, script)
    assert st.history[-1].outcome == "made" and st.match_scores == [74, 108]
    r = st.rules
    pack = [r.card_code[c] for c in gathered_deck(st)]
    assert " ".join(pack[:4]) == "AS 8S 7S JS" and " ".join(pack[-4:]) == "AH QC JC 9C"
    assert pack == [r.card_code[c] for _, cards, _ in st.tricks for c in cards]
    assert st.dealer == N  # the deal has passed to N; E cuts
    cut = gathered_deck(st)[12:] + gathered_deck(st)[:12]  # E lifts the first three tricks
    assert " ".join(r.card_code[c] for c in cut[:4]) == "9S KS QH TH"
    st.deal(cut)
    want = {W: "9S KS QH JH KC", S: "TH KD 7D QD 7H", E: "TC KH AC AH QC", N: "7C 8C 9H JC 9C"}
    for seat, cards in want.items():
        assert st.hands[seat] == sum(1 << r.card(c) for c in cards.split()), seat
    assert st.turn_up == r.card("AS") and st.to_act == W
