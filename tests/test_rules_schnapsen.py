"""Per-rule tests of Schnapsen and Sixty-six, including the small checks of the rules notes (§8).

Seats A B = 0 1; B deals unless said otherwise, so A leads first. Deals are
laid out by the notes' deck order (section 7, see ``schnapsenkit.deal``).
Where a test needs a scoring situation deep in a hand, it sets the card
points and tricks of the players directly (``force``) and then takes the
real action (a claim, a close, the last trick) through the interpreter.
"""

from __future__ import annotations

from typing import Any

import pytest
from mariage import GameState, Phase, load_rules, new_match, parse_action
from mariage.engine.actions import Claim, Decline, Draw, Play
from mariage.engine.observation import observe
from rulekit import covers, legal_texts, play, refused
from schnapsenkit import A, B, deal, force, on_lead_after_winning

S, X = "schnapsen", "sixty-six"


def plays(state: GameState, seat: int | None = None) -> list[str]:
    return [t for t in legal_texts(state, seat) if t[0] in "AKQJT9"]


def has(state: GameState, seat: int, code: str) -> bool:
    return bool(state.hands[seat] >> state.rules.card_index[code] & 1)


def go_on(state: GameState, keep: str = "", stop: Any = None) -> GameState:
    """Play on without claiming or closing: first legal card not in ``keep``, draw, decline."""
    hand = state.hand_no
    kept = {state.rules.card_index[c] for c in keep.split()}
    while state.phase not in (Phase.DEAL, Phase.OVER) and state.hand_no == hand:
        if stop is not None and stop(state):
            break
        acts = state.legal_actions()
        choice = next((a for a in acts if isinstance(a, (Draw, Decline))), None)
        if choice is None:
            cards = [a for a in acts if isinstance(a, Play)]
            choice = next((a for a in cards if a.card not in kept), cards[0])
        state.apply(choice)
    return state


def last_score(state: GameState) -> tuple[int, ...]:
    return state.history[-1].score


# ----------------------------------------------------------------- pack and deal
@covers("schnapsen.players", "schnapsen.pack", "schnapsen.deal", ruleset=S)
def test_schnapsen_deck_order_trump_after_the_first_round() -> None:
    r = load_rules(S)
    assert r.nseats == 2 and r.pack_points == 120 and r.ncards == 20
    st = GameState(r, first_dealer=B)
    st.deal(list(range(20)))
    code = r.card_code
    # 0-2 non-dealer, 3-5 dealer, 6 turn-up, 7-8 non-dealer, 9-10 dealer, 11-19 talon
    assert r.format_cards(st.hands[A]) == " ".join(sorted((code[i] for i in (0, 1, 2, 7, 8)),
                                                          key=r.card_index.__getitem__))
    assert r.format_cards(st.hands[B]) == " ".join(code[i] for i in (3, 4, 5, 9, 10))
    assert st.turn_up == 6 and st.trump == r.suit_of[6]
    assert st.stock[-1] == 11 and st.stock[0] == 6 and len(st.stock) == 10
    assert [st.stock.pop() for _ in range(9)] == list(range(11, 20))


@covers("schnapsen.deal", ruleset=S, options={"turnup_after": "all_cards"})
def test_schnapsen_deck_order_trump_after_all_cards() -> None:
    st = GameState(load_rules(S, {"turnup_after": "all_cards"}), first_dealer=B)
    st.deal(list(range(20)))
    assert st.hands[A] == sum(1 << i for i in (0, 1, 2, 6, 7))
    assert st.hands[B] == sum(1 << i for i in (3, 4, 5, 8, 9))
    assert st.turn_up == 10 and st.stock[-1] == 11 and st.stock[0] == 10


@covers("sixty-six.pack", "sixty-six.deal", "schnapsen.players", ruleset=X)
def test_sixty_six_deck_order_trump_after_all_cards() -> None:
    r = load_rules(X)
    assert r.ncards == 24 and r.pack_points == 120 and r.hand_size == 6
    assert r.points[r.card_index["9H"]] == 0
    st = GameState(r, first_dealer=B)
    st.deal(list(range(24)))
    assert st.hands[A] == sum(1 << i for i in (0, 1, 2, 6, 7, 8))
    assert st.hands[B] == sum(1 << i for i in (3, 4, 5, 9, 10, 11))
    assert st.turn_up == 12 and st.stock[-1] == 13 and len(st.stock) == 12


@covers("sixty-six.deal", ruleset=X, options={"turnup_after": "first_round"})
def test_sixty_six_deck_order_trump_after_the_first_round() -> None:
    st = GameState(load_rules(X, {"turnup_after": "first_round"}), first_dealer=A)
    st.deal(list(range(24)))
    # the dealer is A: B is the non-dealer and gets 0-2 and 7-9
    assert st.hands[B] == sum(1 << i for i in (0, 1, 2, 7, 8, 9))
    assert st.hands[A] == sum(1 << i for i in (3, 4, 5, 10, 11, 12))
    assert st.turn_up == 6 and st.stock[-1] == 13 and st.to_act == B


@covers("schnapsen.lead.first", "schnapsen.deal.rotation", ruleset=S)
def test_non_dealer_leads_and_the_deal_alternates() -> None:
    st = deal(S, dealer=B)
    assert st.to_act == A and st.leader == A
    go_on(st)
    assert st.phase == Phase.DEAL and st.dealer == A
    deal(S, state=st)
    assert st.to_act == B


# ----------------------------------------------------------------- tricks and drawing
TRICKS = ("TH JD KC QC JS", "AH AD QD KS QS")


@covers("schnapsen.trick.winner", "schnapsen.play.open", "schnapsen.draw", ruleset=S)
def test_trick_winner_open_play_and_drawing() -> None:
    st = deal(S, *TRICKS, turn="AS", talon="JH TC KH AC")
    play(st, "TH")
    assert plays(st) == ["AH", "AD", "QD", "KS", "QS"]  # any card while the talon is open
    play(st, "AH")  # same suit: the higher wins
    assert st.tricks[-1][2] == B and has(st, B, "JH") and has(st, A, "TC")
    play(st, "AD JS")  # the follower trumps: he wins
    assert st.tricks[-1][2] == A and has(st, A, "KH") and has(st, B, "AC")
    play(st, "KC QD")  # neither the suit led nor a trump: the leader wins
    assert st.tricks[-1][2] == A


@covers("schnapsen.draw", "schnapsen.play.switch", ruleset=S)
def test_schnapsen_talon_runs_out_after_trick_five_and_the_loser_takes_the_turn_up() -> None:
    st = deal(S, turn="AS")
    go_on(st, stop=lambda s: s.trick_no == 6)
    assert not st.stock and st.trick_no == 6 and st.turn_up is None
    loser = B if st.tricks[4][2] == A else A
    assert has(st, loser, "AS")
    assert st.hands[A].bit_count() == 5 and st.hands[B].bit_count() == 5


@covers("sixty-six.draw", ruleset=X)
def test_sixty_six_talon_runs_out_after_trick_six() -> None:
    st = deal(X, turn="AS")
    go_on(st, stop=lambda s: s.trick_no == 7)
    assert not st.stock and st.trick_no == 7
    loser = B if st.tricks[5][2] == A else A
    assert has(st, loser, "AS") and st.hands[A].bit_count() == 6


# ----------------------------------------------------------------- strict play
@covers("schnapsen.play.follow", "schnapsen.play.head", "schnapsen.play.trump",
        "schnapsen.play.switch", "schnapsen.close.effect", ruleset=S)
def test_strict_play_from_the_close() -> None:
    st = deal(S, "TH KC QC TD JD", "AH JH AD KS QS", turn="AS")
    play(st, "close")
    play(st, "TH")
    assert plays(st) == ["AH"]  # follow and beat
    refused(st, "JH", "schnapsen.play.head")
    refused(st, "AD", "schnapsen.play.follow")
    play(st, "AH")
    play(st, "AD")
    assert plays(st) == ["TD", "JD"]
    play(st, "JD KS")
    assert st.tricks[-1][2] == B


@covers("schnapsen.play.trump", "schnapsen.play.head", ruleset=S)
def test_strict_play_lower_in_suit_else_trump_else_anything() -> None:
    st = deal(S, "AH KC QC TD JD", "JH TS KS QD AD", turn="AS")
    play(st, "close AH")
    assert plays(st) == ["JH"]  # cannot beat: a lower card of the suit
    play(st, "JH")
    play(st, "KC")
    assert plays(st) == ["TS", "KS"]  # void: a trump
    refused(st, "QD", "schnapsen.play.trump")


@covers("schnapsen.play.follow", ruleset=S, options={"strict_duty": "follow_only"})
def test_strict_duty_follow_only() -> None:
    st = deal(S, "TH KC QC TD JD", "AH JH AD KS QS", turn="AS",
              options={"strict_duty": "follow_only"})
    play(st, "close TH")
    assert plays(st) == ["AH", "JH"]
    play(st, "JH")
    play(st, "KC")
    assert plays(st) == ["AH", "AD", "KS", "QS"]


@covers("schnapsen.play.follow", "sixty-six.draw", ruleset=X,
        options={"strict_duty": "follow_only"})
def test_sixty_six_follow_only_after_exhaustion() -> None:
    st = deal(X, options={"strict_duty": "follow_only"})
    go_on(st, stop=lambda s: s.trick_no == 7 and len(s.trick_cards) == 1)
    led = st.rules.suit_of[st.trick_cards[0]]
    assert st.to_act is not None
    hand = st.hands[st.to_act]
    suit_cards = hand & st.rules.suit_mask[led]
    legal = sum(1 << st.rules.card_index[c] for c in plays(st))
    assert legal == (suit_cards or hand)


# ----------------------------------------------------------------- marriages
MARRIAGE = ("KH QH TD JD AC", "AH TH KC JC TS")


@covers("schnapsen.decl.who", "schnapsen.decl.marriage", "schnapsen.decl.lead",
        "schnapsen.decl.credit", "schnapsen.decl.value", "schnapsen.decl.trump", ruleset=S)
def test_marriage_on_the_first_lead_is_held_until_a_trick() -> None:
    st = deal(S, *MARRIAGE, turn="AS")
    assert "marriage:H" in legal_texts(st)
    play(st, "marriage:H")
    assert st.decl_points[A] == 0 and st.held[A] == 20 and st.trump == st.rules.suits.index("S")
    assert plays(st) == ["KH", "QH"]
    refused(st, "TD", "schnapsen.decl.lead")
    play(st, "KH AH")  # B wins: A's marriage still waits
    assert st.held[A] == 20
    play(st, "TH")
    st.apply(parse_action(st.rules, "AC" if has(st, A, "AC") else plays(st)[0]))
    go_on(st, stop=lambda s: s.tricks_won[A] > 0)
    assert st.tricks_won[A] == 1 and st.held[A] == 0 and st.decl_points[A] == 20


@covers("schnapsen.decl.credit", "schnapsen.score.false-claim", ruleset=S)
def test_a_marriage_of_a_player_who_never_wins_a_trick_is_worth_nothing() -> None:
    st = deal(S, *MARRIAGE, turn="AS")
    play(st, "marriage:H claim")
    assert st.history[-1].ended == "false_claim" and st.history[-1].points[A] == 0


@covers("schnapsen.decl.value", ruleset=S)
def test_a_trump_marriage_is_worth_40() -> None:
    st = deal(S, "KS QS TD JD AC", turn="AS")
    force(st, A, tricks=1)
    play(st, "marriage:S")
    assert st.decl_points[A] == 40


@covers("schnapsen.decl.value", ruleset=S, options={"marriage_values": "20/20"})
def test_marriage_values_20_20() -> None:
    st = deal(S, "KS QS TD JD AC", turn="AS", options={"marriage_values": "20/20"})
    force(st, A, tricks=1)
    play(st, "marriage:S")
    assert st.decl_points[A] == 20


@covers("schnapsen.decl.lead", ruleset=S, options={"marriage_lead": "king"})
def test_marriage_lead_king() -> None:
    st = deal(S, *MARRIAGE, turn="AS", options={"marriage_lead": "king"})
    play(st, "marriage:H")
    assert plays(st) == ["KH"]
    refused(st, "QH", "schnapsen.decl.lead")


@covers("schnapsen.decl.lead", ruleset=S, options={"marriage_lead": "queen"})
def test_marriage_lead_queen() -> None:
    st = deal(S, *MARRIAGE, turn="AS", options={"marriage_lead": "queen"})
    play(st, "marriage:H")
    assert plays(st) == ["QH"]


@covers("schnapsen.decl.who", ruleset=S, options={"marriage_on_first_lead": False})
def test_no_marriage_on_the_first_lead() -> None:
    st = deal(S, *MARRIAGE, turn="AS", options={"marriage_on_first_lead": False})
    refused(st, "marriage:H", "schnapsen.decl.who")
    on_lead_after_winning(st, A)
    st.trick_no = 2
    assert "marriage:H" in legal_texts(st)


@covers("schnapsen.decl.who", "schnapsen.decl.per-trick", "schnapsen.decl.once", ruleset=S)
def test_only_the_leader_declares_once_per_lead_and_each_suit_once() -> None:
    st = deal(S, "KH QH KD QD AC", "AH TH KC QC TS", turn="AS")
    play(st, "marriage:H")
    refused(st, "marriage:D", "schnapsen.decl.per-trick")
    play(st, "QH")
    assert not [t for t in legal_texts(st) if t.startswith("marriage")]  # B follows
    refused(st, "marriage:C", "schnapsen.decl.who")
    st.hands[A] |= 1 << st.rules.card_index["QH"]  # the pair together again
    st.trick_cards, st.trick_seats, st.decl_this_trick = [], [], [0, 0]
    on_lead_after_winning(st, A)
    assert "marriage:H" not in legal_texts(st)
    refused(st, "marriage:H", "schnapsen.decl.once")


@covers("schnapsen.decl.credit", "schnapsen.claim", "schnapsen.claim.timing",
        "schnapsen.score.claim", "schnapsen.score.scale", ruleset=S)
def test_marriage_of_a_player_with_a_trick_counts_at_once_and_he_may_go_out() -> None:
    st = deal(S, *MARRIAGE, turn="AS")
    force(st, A, captured=46, tricks=1)
    play(st, "marriage:H")
    assert st.decl_points[A] == 20
    play(st, "claim")
    assert st.history[-1].ended == "claim" and last_score(st) == (3, 0)


@covers("schnapsen.decl.credit", "sixty-six.score.false-claim", ruleset=X)
def test_sixty_six_marriage_with_a_trick_counts_at_once() -> None:
    st = deal(X, *MARRIAGE, turn="AS")
    force(st, A, captured=46, tricks=1)
    play(st, "marriage:H claim")
    assert last_score(st) == (3, 0)


@covers("schnapsen.decl.credit", ruleset=S, options={"marriage_counting": "immediate"})
def test_marriage_counting_immediate() -> None:
    st = deal(S, *MARRIAGE, turn="AS", options={"marriage_counting": "immediate"})
    play(st, "marriage:H")
    assert st.decl_points[A] == 20 and st.held[A] == 0


@covers("schnapsen.decl.credit", ruleset=S,
        options={"marriage_counting": "next_trick_after_declaring"})
def test_marriage_counting_next_trick_after_declaring() -> None:
    st = deal(S, *MARRIAGE, turn="AS", options={"marriage_counting": "next_trick_after_declaring"})
    force(st, A, tricks=2)
    play(st, "marriage:H")
    assert st.decl_points[A] == 0 and st.held[A] == 20
    play(st, "QH TS")  # B trumps: A's marriage still waits although A has tricks
    assert st.held[A] == 20
    st.mech.held_credit.on_trick_won(st, A)
    assert st.decl_points[A] == 20


@covers("schnapsen.decl.window", ruleset=S)
def test_schnapsen_marriage_after_exhaustion() -> None:
    st = deal(S, "KH QH AS TS KS", turn="JS")
    go_on(st, keep="KH QH", stop=lambda s: s.trick_no >= 6 and s.leader == A
          and not s.trick_cards)
    assert not st.stock and st.leader == A
    assert "marriage:H" in legal_texts(st)


@covers("sixty-six.decl.window", ruleset=X)
def test_sixty_six_no_marriage_after_exhaustion() -> None:
    st = deal(X, "KH QH AS TS KS AD", turn="JS")
    go_on(st, keep="KH QH", stop=lambda s: s.trick_no >= 7 and s.leader == A
          and not s.trick_cards)
    assert not st.stock and st.leader == A
    assert "marriage:H" not in legal_texts(st)
    refused(st, "marriage:H", "sixty-six.decl.window")


@covers("sixty-six.decl.window", ruleset=X, options={"marriage_after_close": True})
def test_sixty_six_marriage_after_close_option() -> None:
    st = deal(X, "KH QH AS TS KS AD", turn="JS", options={"marriage_after_close": True})
    play(st, "close decline")
    assert "marriage:H" in legal_texts(st)


@covers("schnapsen.decl.window", ruleset=S, options={"marriage_after_close": False})
def test_schnapsen_no_marriage_after_close_option() -> None:
    st = deal(S, "KH QH AS TS KS", turn="JS", options={"marriage_after_close": False})
    play(st, "close")
    refused(st, "marriage:H", "schnapsen.decl.window")


# ----------------------------------------------------------------- exchange
@covers("schnapsen.exchange", ruleset=S)
def test_trump_jack_exchange_on_the_first_lead_without_a_trick() -> None:
    st = deal(S, "JS KH QH TD JD", "AH TH KC QC JC", turn="AS")
    assert "exchange:JS" in legal_texts(st)
    play(st, "exchange:JS")
    assert has(st, A, "AS") and st.turn_up == st.rules.card_index["JS"]
    assert st.stock[0] == st.turn_up
    play(st, "close")  # exchange, then close
    refused(st, "exchange:AS", "schnapsen.exchange")


@covers("schnapsen.exchange", ruleset=S)
def test_no_exchange_by_the_follower_or_after_a_marriage() -> None:
    st = deal(S, "KH QH TD JD AC", "JS TH KC QC JC", turn="AS")
    play(st, "TD")
    refused(st, "exchange:JS", "schnapsen.exchange")
    st2 = deal(S, "JS KS QS TD JD", turn="AS")
    play(st2, "marriage:S")
    refused(st2, "exchange:JS", "schnapsen.exchange")


@covers("schnapsen.exchange", ruleset=S, options={"exchange_min_talon": 4})
def test_exchange_min_talon() -> None:
    st = deal(S, "JS KH QH TD JD", turn="AS", options={"exchange_min_talon": 4})
    st.stock = [st.stock[0], st.stock[-1]]  # the turn-up and one face-down card
    refused(st, "exchange:JS", "schnapsen.exchange")


@covers("schnapsen.exchange", ruleset=S, options={"exchange_requires_trick": True})
def test_schnapsen_exchange_requires_trick_option() -> None:
    st = deal(S, "JS KH QH TD JD", turn="AS", options={"exchange_requires_trick": True})
    refused(st, "exchange:JS", "schnapsen.exchange")
    force(st, A, tricks=1)
    assert "exchange:JS" in legal_texts(st)


@covers("sixty-six.exchange", ruleset=X)
def test_nine_exchange_needs_a_trick() -> None:
    st = deal(X, "9S KH QH TD JD AD", turn="AS")
    refused(st, "exchange:9S", "sixty-six.exchange")
    force(st, A, tricks=1)
    play(st, "exchange:9S")
    assert has(st, A, "AS")


@covers("sixty-six.exchange", ruleset=X, options={"exchange_requires_trick": False})
def test_nine_exchange_without_a_trick_option() -> None:
    st = deal(X, "9S KH QH TD JD AD", turn="AS", options={"exchange_requires_trick": False})
    assert "exchange:9S" in legal_texts(st)


# ----------------------------------------------------------------- closing
@covers("schnapsen.close", "schnapsen.close.effect", "schnapsen.close.snapshot", ruleset=S)
def test_close_before_the_first_trick() -> None:
    st = deal(S, "AH TH KC QC TD", turn="AS")
    play(st, "close")
    assert st.closed_by == A and not st.stock and st.turn_up is None
    assert st.close_opp_tricks == 0 and st.close_opp_points == 0
    assert st.trick_no == 1 and st.to_act == A and st._tricks_per_hand == 5
    refused(st, "close", "schnapsen.close")


@covers("schnapsen.close", "schnapsen.close.snapshot", ruleset=S)
def test_no_close_after_declaring_nor_between_trick_and_draw() -> None:
    st = deal(S, "KH QH TD JD AC", turn="AS")
    play(st, "marriage:H")
    refused(st, "close", "schnapsen.close")
    play(st, "KH")
    st.apply(Play(st.hands[B].bit_length() - 1))
    assert st.phase == Phase.PLAY and len(st.stock) == 8  # drawn at once: no pause
    w = st.tricks[-1][2]
    force(st, 1 - w, captured=17, tricks=3)
    play(st, "close")
    assert st.close_opp_points == 17 and st.close_opp_tricks == 3


@covers("schnapsen.close", ruleset=S, options={"close_on_first_lead": False})
def test_close_on_first_lead_forbidden() -> None:
    st = deal(S, options={"close_on_first_lead": False})
    refused(st, "close", "schnapsen.close")
    st.trick_no = 2
    assert "close" in legal_texts(st)


@covers("schnapsen.close", ruleset=S, options={"close_min_talon": 4})
def test_close_min_talon() -> None:
    st = deal(S, options={"close_min_talon": 4})
    assert "close" in legal_texts(st)
    st.stock = [st.stock[0], st.stock[-1]]
    refused(st, "close", "schnapsen.close")


@covers("schnapsen.close", ruleset=S, options={"close_allowed": False})
def test_closing_not_allowed() -> None:
    st = deal(S, options={"close_allowed": False})
    assert "close" not in legal_texts(st)
    refused(st, "close", "core.phase")


@covers("sixty-six.close", "schnapsen.close.effect", "schnapsen.claim.timing", ruleset=X)
def test_sixty_six_close_before_drawing() -> None:
    st = deal(X, "AH TH KC QC TD JD", "KH QD JC 9C 9D 9H", turn="AS")
    play(st, "AH KH")
    assert st.phase == Phase.AFTER_TRICK and st.to_act == A
    assert legal_texts(st) == ["claim", "close", "draw"]
    play(st, "close")
    assert st.hands[A].bit_count() == 5 and st.hands[B].bit_count() == 5 and not st.stock
    assert st.phase == Phase.PLAY and st.to_act == A and st.trick_no == 2
    assert st._tricks_per_hand == 6


@covers("sixty-six.close", ruleset=X, options={"close_before_draw": False})
def test_sixty_six_no_close_before_drawing_option() -> None:
    st = deal(X, "AH TH KC QC TD JD", "KH QD JC 9C 9D 9H", turn="AS",
              options={"close_before_draw": False})
    play(st, "AH KH")
    assert st.phase == Phase.PLAY and st.hands[A].bit_count() == 6


@covers("schnapsen.close", ruleset=S, options={"close_before_draw": True})
def test_schnapsen_close_before_drawing_option() -> None:
    st = deal(S, "AH TH KC QC TD", "KH QD JC JD JH", turn="AS",
              options={"close_before_draw": True})
    play(st, "AH KH close")
    assert st.hands[A].bit_count() == 4 and st.closed_by == A


@covers("sixty-six.close.reply", ruleset=X)
def test_sixty_six_exchange_of_the_nine_at_the_close_without_a_trick() -> None:
    st = deal(X, "AH TH KC QC TD JD", "9S KH QD JC 9C 9D", turn="AS")
    play(st, "close")
    assert st.phase == Phase.CLOSE_REPLY and st.to_act == B
    assert legal_texts(st) == ["exchange:9S", "decline"]
    play(st, "exchange:9S")
    assert has(st, B, "AS") and st.phase == Phase.PLAY and st.to_act == A and not st.stock


@covers("sixty-six.close.reply", ruleset=X)
def test_sixty_six_declining_the_exchange_at_the_close() -> None:
    st = deal(X, "AH TH KC QC TD JD", "9S KH QD JC 9C 9D", turn="AS")
    play(st, "close decline")
    assert has(st, B, "9S") and st.phase == Phase.PLAY and st.turn_up is None


@covers("sixty-six.close", ruleset=X, options={"exchange_on_close": False})
def test_sixty_six_no_exchange_at_the_close_option() -> None:
    st = deal(X, "AH TH KC QC TD JD", "9S KH QD JC 9C 9D", turn="AS",
              options={"exchange_on_close": False})
    play(st, "close")
    assert st.phase == Phase.PLAY and st.to_act == A


@covers("schnapsen.close.reply", ruleset=S, options={"exchange_on_close": True})
def test_schnapsen_exchange_at_the_close_option() -> None:
    st = deal(S, "AH TH KC QC TD", "JS KH QD JC JD", turn="AS",
              options={"exchange_on_close": True})
    play(st, "close")
    assert legal_texts(st) == ["exchange:JS", "decline"]


# ----------------------------------------------------------------- claims
@covers("schnapsen.claim", "schnapsen.claim.timing", ruleset=S)
def test_claim_timing() -> None:
    st = deal(S, "TH KC QC TD JD", "AH AD JH KS QS", turn="AS")
    assert "claim" not in legal_texts(st)
    refused(st, "claim", "schnapsen.claim.timing")  # first lead, no trick, no marriage
    play(st, "TH AH")
    assert "claim" in legal_texts(st)  # B won the trick
    play(st, "AD")
    refused(st, "claim", "schnapsen.claim.timing")  # A, following: not a claim moment


@covers("schnapsen.claim.timing", ruleset=S, options={"claim_on_declaration": False})
def test_no_claim_on_the_declaration_option() -> None:
    st = deal(S, *MARRIAGE, turn="AS", options={"claim_on_declaration": False})
    force(st, A, captured=50, tricks=1)
    play(st, "marriage:H")
    refused(st, "claim", "schnapsen.claim.timing")
    # a trick winner claims before declaring; once he declares, the claim waits
    st = deal(S, *MARRIAGE, turn="AS", options={"claim_on_declaration": False})
    force(st, A, captured=50, tricks=1)
    on_lead_after_winning(st, A)
    assert "claim" in legal_texts(st)
    play(st, "marriage:H")
    refused(st, "claim", "schnapsen.claim.timing")


@covers("schnapsen.claim", ruleset=S, options={"claim_mode": "auto"})
def test_auto_claims() -> None:
    st = deal(S, "AH TH KC QC TD", "JH QD JC JD KH", turn="AS", options={"claim_mode": "auto"})
    assert "claim" not in legal_texts(st)
    refused(st, "claim", "schnapsen.claim")
    force(st, A, captured=50, tricks=1)
    play(st, "AH JH")  # 13 more: 63
    assert st.phase == Phase.PLAY
    play(st, "TH")
    st.apply(Play(st.rules.card_index["KH"]) if has(st, B, "KH") else Play(
        st.hands[B].bit_length() - 1))
    assert st.history[-1].ended == "claim" and st.history[-1].score[A] > 0


@covers("schnapsen.claim", ruleset=X, options={"claim_mode": "auto"})
def test_sixty_six_auto_claim_on_a_declaration() -> None:
    st = deal(X, *MARRIAGE, turn="AS", options={"claim_mode": "auto"})
    force(st, A, captured=46, tricks=1)
    play(st, "marriage:H")
    assert st.history[-1].ended == "claim" and last_score(st) == (3, 0)


# ----------------------------------------------------------------- game points (§8)
def closed_then_claimed(ruleset: str, opp_tricks_at_close: int, **options: Any) -> GameState:
    st = deal(ruleset, options=options)
    force(st, B, captured=11 * opp_tricks_at_close, tricks=opp_tricks_at_close)
    play(st, "close")
    if st.phase == Phase.CLOSE_REPLY:
        play(st, "decline")
    force(st, B, captured=20, tricks=2)
    force(st, A, captured=66, tricks=3)
    on_lead_after_winning(st, A)
    play(st, "claim")
    return st


@covers("schnapsen.score.closer", "schnapsen.close.snapshot", ruleset=S)
def test_8_1_schnapsen_closer_scored_on_the_opponent_at_the_close() -> None:
    assert last_score(closed_then_claimed(S, 0)) == (3, 0)
    assert last_score(closed_then_claimed(S, 1)) == (2, 0)


@covers("sixty-six.score.closer", ruleset=X)
def test_8_1_sixty_six_closer_scored_on_the_opponent_at_the_end() -> None:
    assert last_score(closed_then_claimed(X, 0)) == (2, 0)


@covers("schnapsen.score.closer", ruleset=S, options={"close_snapshot": "at_end"})
def test_close_snapshot_at_end() -> None:
    assert last_score(closed_then_claimed(S, 0, close_snapshot="at_end")) == (2, 0)


@covers("sixty-six.score.closer", ruleset=X, options={"close_snapshot": "at_close"})
def test_close_snapshot_at_close() -> None:
    assert last_score(closed_then_claimed(X, 0, close_snapshot="at_close")) == (3, 0)


def failed_close(ruleset: str, opp_tricks_at_close: int, **options: Any) -> GameState:
    st = deal(ruleset, options=options)
    force(st, B, captured=0, tricks=opp_tricks_at_close)
    play(st, "close")
    if st.phase == Phase.CLOSE_REPLY:
        play(st, "decline")
    force(st, B, captured=0, tricks=opp_tricks_at_close)
    return go_on(st)


@pytest.mark.parametrize("ruleset", [S, X])
@covers("schnapsen.score.failed-close", ruleset=S)
@covers("schnapsen.score.failed-close", ruleset=X)
def test_8_2_failed_close(ruleset: str) -> None:
    st = failed_close(ruleset, 1)
    assert st.history[-1].ended == "played_out" and last_score(st) == (0, 2)
    st = failed_close(ruleset, 0)
    assert last_score(st) == (0, 3)


@covers("schnapsen.score.failed-close", ruleset=S, options={"failed_close_score": "hoyle"})
@covers("schnapsen.score.failed-close", ruleset=X, options={"failed_close_score": "hoyle"})
def test_failed_close_hoyle() -> None:
    for ruleset in (S, X):
        st = failed_close(ruleset, 1, failed_close_score="hoyle")
        closer_points = st.history[-1].points[A]
        assert last_score(st) == (0, 1 if closer_points >= 33 else 2)
        assert last_score(failed_close(ruleset, 0, failed_close_score="hoyle")) == (0, 3)


def beaten_closer(ruleset: str, opp_tricks_at_close: int, **options: Any) -> GameState:
    st = deal(ruleset, options=options)
    force(st, B, tricks=opp_tricks_at_close)
    play(st, "close")
    if st.phase == Phase.CLOSE_REPLY:
        play(st, "decline")
    force(st, B, captured=70, tricks=4)
    on_lead_after_winning(st, B)
    play(st, "claim")
    return st


@covers("schnapsen.score.beaten-closer", ruleset=S)
def test_schnapsen_closers_opponent_goes_out_first() -> None:
    assert last_score(beaten_closer(S, 0)) == (0, 3)
    assert last_score(beaten_closer(S, 2)) == (0, 2)


@covers("sixty-six.score.beaten-closer", ruleset=X)
def test_sixty_six_closers_opponent_goes_out_first() -> None:
    assert last_score(beaten_closer(X, 0)) == (0, 2)


@covers("schnapsen.score.beaten-closer", ruleset=S, options={"beaten_closer_score": "flat2"})
def test_beaten_closer_flat2() -> None:
    assert last_score(beaten_closer(S, 0, beaten_closer_score="flat2")) == (0, 2)


@covers("sixty-six.score.beaten-closer", ruleset=X,
        options={"beaten_closer_score": "like_failed_close"})
def test_beaten_closer_like_failed_close() -> None:
    assert last_score(beaten_closer(X, 0, beaten_closer_score="like_failed_close")) == (0, 3)


def false_claim(ruleset: str, opp: tuple[int, int], **options: Any) -> GameState:
    st = deal(ruleset, *MARRIAGE, turn="AS", options=options)
    force(st, B, captured=opp[0], tricks=opp[1])
    force(st, A, captured=30, tricks=2)
    on_lead_after_winning(st, A)
    play(st, "claim")
    assert st.history[-1].ended == "false_claim"
    return st


@covers("schnapsen.score.false-claim", ruleset=S)
def test_8_3_schnapsen_false_claim() -> None:
    assert last_score(false_claim(S, (0, 0))) == (0, 3)
    assert last_score(false_claim(S, (40, 1))) == (0, 2)


@covers("sixty-six.score.false-claim", ruleset=X)
def test_8_3_sixty_six_false_claim() -> None:
    assert last_score(false_claim(X, (0, 0))) == (0, 2)


@covers("schnapsen.score.false-claim", ruleset=S, options={"false_claim_score": "flat2"})
def test_false_claim_flat2() -> None:
    assert last_score(false_claim(S, (0, 0), false_claim_score="flat2")) == (0, 2)


@covers("schnapsen.score.false-claim", ruleset=S, options={"false_claim_score": "as_claimed"})
@covers("sixty-six.score.false-claim", ruleset=X, options={"false_claim_score": "as_claimed"})
def test_false_claim_as_claimed() -> None:
    for ruleset in (S, X):
        assert last_score(false_claim(ruleset, (40, 1), false_claim_score="as_claimed")) == (0, 1)
        assert last_score(false_claim(ruleset, (20, 1), false_claim_score="as_claimed")) == (0, 2)


@covers("sixty-six.score.false-claim", ruleset=X, options={"false_claim_score": "pagat"})
def test_sixty_six_false_claim_pagat() -> None:
    assert last_score(false_claim(X, (0, 0), false_claim_score="pagat")) == (0, 3)


def closer_claims_falsely(ruleset: str, **options: Any) -> GameState:
    st = deal(ruleset, options=options)
    play(st, "close")
    if st.phase == Phase.CLOSE_REPLY:
        play(st, "decline")
    force(st, B, captured=10, tricks=1)
    force(st, A, captured=40, tricks=2)
    on_lead_after_winning(st, A)
    play(st, "claim")
    return st


@covers("schnapsen.score.false-claim", ruleset=S)
def test_closer_false_claim_by_the_false_claim_row() -> None:
    assert last_score(closer_claims_falsely(S)) == (0, 2)


@covers("schnapsen.score.false-claim", "schnapsen.score.failed-close", ruleset=S,
        options={"closer_false_claim": "failed_close_row"})
@covers("sixty-six.score.false-claim", ruleset=X,
        options={"closer_false_claim": "failed_close_row"})
def test_closer_false_claim_by_the_failed_close_row() -> None:
    assert last_score(closer_claims_falsely(S, closer_false_claim="failed_close_row")) == (0, 3)
    assert last_score(closer_claims_falsely(X, closer_false_claim="failed_close_row")) == (0, 3)


def to_the_last_trick(ruleset: str, **options: Any) -> GameState:
    st = deal(ruleset, options=options)
    return go_on(st, stop=lambda s: s.phase == Phase.AFTER_TRICK and not s.stock)


@covers("schnapsen.score.played-out", "schnapsen.claim.timing", "schnapsen.score.hand",
        ruleset=S)
def test_8_4_schnapsen_last_trick_wins_one_point() -> None:
    st = to_the_last_trick(S)
    w = st.last_winner
    assert legal_texts(st) == ["claim", "decline"]
    force(st, w, captured=30)
    force(st, 1 - w, captured=90)
    play(st, "decline")
    assert st.history[-1].ended == "played_out"
    assert last_score(st)[w] == 1 and last_score(st)[1 - w] == 0


@covers("schnapsen.score.played-out", "schnapsen.score.claim", ruleset=S)
def test_the_last_trick_winner_with_66_may_claim_on_the_scale() -> None:
    st = to_the_last_trick(S)
    w = st.last_winner
    force(st, w, captured=90)
    force(st, 1 - w, captured=30, tricks=2)
    play(st, "claim")
    assert last_score(st)[w] == 2


@covers("schnapsen.score.played-out", ruleset=S, options={"last_trick_flat": True})
def test_last_trick_flat() -> None:
    st = deal(S, options={"last_trick_flat": True})
    go_on(st, stop=lambda s: s.phase == Phase.AFTER_TRICK)
    assert st.phase == Phase.DEAL and st.history[-1].ended == "played_out"
    assert sorted(last_score(st)) == [0, 1]


@covers("schnapsen.score.played-out", "schnapsen.claim", ruleset=S,
        options={"last_trick_flat": True, "claim_mode": "auto"})
def test_last_trick_flat_with_auto_claims() -> None:
    options = {"last_trick_flat": True, "claim_mode": "auto"}
    st = deal(S, options=options)
    go_on(st, stop=lambda s: s.trick_no == 10)
    force(st, A, captured=70)  # both have 66 already (unclaimed): only the last trick counts
    force(st, B, captured=70)
    go_on(st)
    w = st.tricks[-1][2]
    assert st.history[-1].ended == "played_out" and last_score(st)[w] == 1


def closer_reaches_66_with_the_last_trick(**options: Any) -> GameState:
    """A closes at once, takes every trick and has 55 before the last one (13 more in it)."""
    st = deal(S, "AH TH AD TD AC", "JH QH JD QD JC", turn="AS", options=options)
    play(st, "close")
    go_on(st, stop=lambda s: s.trick_no == 5)
    assert st.leader == A and st.tricks_won[A] == 4 and st.tricks_won[B] == 0
    force(st, A, captured=55)
    play(st, "AC JC")
    return st


@covers("schnapsen.claim.timing", "schnapsen.score.closer", "schnapsen.score.played-out",
        ruleset=S, options={"last_trick_flat": True})
@covers("schnapsen.claim", "schnapsen.score.closer", ruleset=S,
        options={"last_trick_flat": True, "claim_mode": "auto"})
def test_last_trick_flat_leaves_the_closer_his_claim_after_the_last_trick() -> None:
    # notes §1.11 and §5 #15: the flat 1 is the row of a hand nobody closed; a closer who
    # reaches 66 with the last trick still claims (§1.9: he undertakes to reach 66 and
    # claim) and scores on the opponent at the close, not a failed close
    st = closer_reaches_66_with_the_last_trick(last_trick_flat=True)
    assert st.phase == Phase.AFTER_TRICK and legal_texts(st) == ["claim", "decline"]
    play(st, "claim")
    assert st.history[-1].ended == "claim" and last_score(st) == (3, 0)
    st = closer_reaches_66_with_the_last_trick(last_trick_flat=True, claim_mode="auto")
    assert st.history[-1].ended == "claim" and last_score(st) == (3, 0)
    # declining it is a failed close, as without the option
    st = closer_reaches_66_with_the_last_trick(last_trick_flat=True)
    play(st, "decline")
    assert st.history[-1].ended == "played_out" and last_score(st) == (0, 3)


@covers("sixty-six.score.played-out", "sixty-six.score.last-trick", "schnapsen.score.scale",
        ruleset=X)
def test_8_4_sixty_six_last_trick_ten_and_the_higher_total() -> None:
    st = deal(X)
    before = [0, 0]

    def at_last(s: GameState) -> bool:
        if s.trick_no == 12 and len(s.trick_cards) == 1:
            before[:] = list(s.captured)
        return s.phase == Phase.AFTER_TRICK and not s.stock

    go_on(st, stop=at_last)
    w = st.last_winner
    cards_pts = sum(st.rules.points[c] for c in st.tricks[-1][1])
    assert st.captured[w] == before[w] + cards_pts + 10  # the ten for the last trick
    force(st, w, captured=40)
    force(st, 1 - w, captured=90)
    play(st, "decline")
    assert last_score(st)[1 - w] == 1 and last_score(st)[w] == 0


@covers("schnapsen.score.last-trick", "schnapsen.score.played-out", ruleset=S,
        options={"last_trick_rule": "ten_points"})
def test_schnapsen_ten_points_option() -> None:
    st = to_the_last_trick(S, last_trick_rule="ten_points")
    w = st.last_winner
    force(st, w, captured=40)
    force(st, 1 - w, captured=90)
    play(st, "decline")
    assert last_score(st)[1 - w] == 1


@covers("sixty-six.score.played-out", ruleset=X, options={"last_trick_rule": "one_point"})
def test_sixty_six_one_point_option() -> None:
    st = to_the_last_trick(X, last_trick_rule="one_point")
    w = st.last_winner
    force(st, w, captured=30)
    force(st, 1 - w, captured=90)
    play(st, "decline")
    assert last_score(st)[w] == 1


@covers("sixty-six.score.last-trick", ruleset=X)
def test_no_last_trick_ten_after_a_close() -> None:
    st = deal(X)
    play(st, "close")
    if st.phase == Phase.CLOSE_REPLY:
        play(st, "decline")
    go_on(st, stop=lambda s: s.phase == Phase.AFTER_TRICK)
    total = sum(st.captured)
    assert total == sum(st.rules.points[c] for t in st.tricks for c in t[1])


@covers("sixty-six.score.last-trick", ruleset=X, options={"last_trick_bonus_when_closed": True})
def test_sixty_six_last_trick_ten_after_a_close_option() -> None:
    # notes §6: last_trick_bonus_when_closed (default false, §2.4: no 10 after a close)
    st = deal(X, options={"last_trick_bonus_when_closed": True})
    play(st, "close")
    if st.phase == Phase.CLOSE_REPLY:
        play(st, "decline")
    go_on(st, stop=lambda s: s.phase == Phase.AFTER_TRICK)
    total = sum(st.captured)
    assert total == sum(st.rules.points[c] for t in st.tricks for c in t[1]) + 10
    assert st.captured[st.last_winner] >= 10


@covers("sixty-six.score.played-out", "sixty-six.deal.rotation", ruleset=X)
def test_8_5_drawn_sixty_six_hand() -> None:
    st = to_the_last_trick(X)
    force(st, A, captured=65)
    force(st, B, captured=65)
    dealer = st.dealer
    play(st, "decline")
    assert last_score(st) == (0, 0) and st.history[-1].winner is None
    assert st.dealer == dealer


@covers("sixty-six.score.draw-bonus", ruleset=X, options={"draw_bonus_next_hand": True})
def test_draw_bonus_next_hand() -> None:
    st = to_the_last_trick(X, draw_bonus_next_hand=True)
    force(st, A, captured=65)
    force(st, B, captured=65)
    play(st, "decline")
    assert st.carry_bonus == 1
    deal(X, *MARRIAGE, turn="AS", state=st)
    force(st, A, captured=46, tricks=1)
    play(st, "marriage:H claim")
    assert last_score(st) == (4, 0) and st.carry_bonus == 0


@covers("schnapsen.score.scale", "sixty-six.pack", ruleset=X)
def test_8_7_a_trick_of_two_nines_is_a_trick() -> None:
    st = deal(X, "9H AS TS KS QS JS", "9D AH TH KH QH JH", turn="AC")
    play(st, "9H 9D")
    assert st.tricks_won[A] == 1 and st.captured[A] == 0
    assert st.mech.game_points.scale(st.rules, 0, 1) == 2


# ----------------------------------------------------------------- match
def win_hand(state: GameState, seat: int) -> None:
    """``seat`` goes out with 66 against a trickless opponent (3 game points)."""
    if state.phase == Phase.DEAL:
        deal(state.rules.ruleset, state=state, options=dict(state.rules.options))
    force(state, seat, captured=70, tricks=3)
    on_lead_after_winning(state, seat)
    play(state, "claim")


@covers("schnapsen.match.end", "schnapsen.match.tie", ruleset=S)
def test_schnapsen_match_to_seven() -> None:
    st = deal(S)
    st.match_scores = [4, 6]
    win_hand(st, A)
    assert st.terminal and st.result is not None and st.result.winner == A
    assert st.result.reason == "target"


@covers("schnapsen.match.end", ruleset=S, options={"match_target": 9})
def test_schnapsen_match_target_option() -> None:
    st = deal(S, options={"match_target": 9})
    st.match_scores = [4, 0]
    win_hand(st, A)
    assert not st.terminal
    win_hand(st, A)
    assert st.terminal


@covers("schnapsen.match.bummerl", ruleset=S, options={"bummerl_schneider_double": True})
def test_schneider_bummerl() -> None:
    st = deal(S, options={"bummerl_schneider_double": True})
    st.match_scores = [6, 0]
    win_hand(st, A)
    assert st.result is not None and st.result.reason == "schneider_bummerl"
    st = deal(S, options={"bummerl_schneider_double": True})
    st.match_scores = [6, 1]
    win_hand(st, A)
    assert st.result is not None and st.result.reason == "target"


@covers("sixty-six.match.end", "sixty-six.deal.rotation", "schnapsen.match.tie", ruleset=X)
def test_sixty_six_match_and_the_winner_deals() -> None:
    st = deal(X, dealer=B)
    win_hand(st, A)
    assert st.dealer == A
    st.match_scores = [6, 0]
    win_hand(st, B)
    assert st.dealer == B and st.match_scores == [6, 3]
    win_hand(st, A)
    assert st.terminal and st.result is not None and st.result.winner == A


@covers("sixty-six.match.end", ruleset=X, options={"match_target": 10})
def test_sixty_six_match_target_option() -> None:
    st = deal(X, options={"match_target": 10})
    st.match_scores = [7, 0]
    win_hand(st, A)
    assert st.terminal and st.match_scores[A] == 10


@covers("schnapsen.deal.rotation", ruleset=S, options={"next_dealer": "winner"})
@covers("sixty-six.deal.rotation", ruleset=X, options={"next_dealer": "alternate"})
def test_next_dealer_options_winner_and_alternate() -> None:
    st = deal(S, dealer=B, options={"next_dealer": "winner"})
    win_hand(st, A)
    assert st.dealer == A
    st = deal(X, dealer=B, options={"next_dealer": "alternate"})
    win_hand(st, B)
    assert st.dealer == A


@covers("schnapsen.deal.rotation", ruleset=S, options={"next_dealer": "loser"})
@covers("sixty-six.deal.rotation", ruleset=X, options={"next_dealer": "loser"})
def test_next_dealer_loser() -> None:
    for ruleset in (S, X):
        st = deal(ruleset, dealer=A, options={"next_dealer": "loser"})
        win_hand(st, A)
        assert st.dealer == B


@pytest.mark.parametrize("ruleset", [S, X])
@covers("schnapsen.match.tie", "schnapsen.score.hand", ruleset=S)
@covers("schnapsen.match.tie", "schnapsen.score.hand", ruleset=X)
def test_whole_matches_one_side_scores_per_hand(ruleset: str) -> None:
    import random

    for seed in range(3):
        st = new_match(load_rules(ruleset), seed)
        rng = random.Random(seed)
        while not st.terminal:
            st.apply(rng.choice(st.legal_actions()))
        assert all(sum(1 for v in h.score if v) <= 1 for h in st.history)
        assert st.result is not None and max(st.match_scores) >= 7
        assert all(h.ended in ("claim", "false_claim", "played_out") for h in st.history)


@covers("schnapsen.visibility", ruleset=S)
@covers("schnapsen.visibility", ruleset=S, options={"review_own_tricks": False})
@covers("schnapsen.visibility", ruleset=X, options={"review_own_tricks": False})
def test_visibility_and_review_own_tricks() -> None:
    st = deal(S, *MARRIAGE, turn="AS")
    obs = observe(st, A)
    assert obs.shown[B] == 0 and obs.turn_up == st.turn_up
    play(st, "marriage:H")
    assert observe(st, B).shown[A] == st.hands[A] & (
        (1 << st.rules.card_index["KH"]) | (1 << st.rules.card_index["QH"]))
    for ruleset in (S, X):
        on = load_rules(ruleset).info("schnapsen.visibility").text
        off = load_rules(ruleset, {"review_own_tricks": False}).info("schnapsen.visibility").text
        assert "look through the tricks he has won" in on and "may not be looked" in off


@covers("schnapsen.visibility", ruleset=S)
@covers("schnapsen.visibility", ruleset=S, options={"review_own_tricks": False})
def test_which_tricks_a_player_may_look_through() -> None:
    for review in (True, False):
        st = deal(S, "AH TH KC QC TD", "JH JD JC QD QS", turn="AS", talon="QH KH KD",
                  options={"review_own_tricks": review})
        play(st, "AH JH TH JD")  # A wins tricks 1 and 2
        assert observe(st, A).reviewable == ((0, 1) if review else (1,))
        assert observe(st, B).reviewable == (1,)  # the last trick, until the next card
        st.apply(Play(st.hands[A].bit_length() - 1))  # A leads: the next card is played
        assert observe(st, A).reviewable == ((0, 1) if review else ())
        assert observe(st, B).reviewable == ()


@covers("schnapsen.exchange", "schnapsen.claim", ruleset=S)
def test_claim_and_close_actions_round_trip_as_text() -> None:
    r = load_rules(S)
    for text in ("close", "claim", "draw", "decline", "exchange:JS", "marriage:H"):
        from mariage import action_text

        assert action_text(r, parse_action(r, text)) == text
    assert isinstance(parse_action(r, "claim"), Claim)


# ----------------------------------------------------------------- Sixty-six: the shared options
@covers("sixty-six.exchange", ruleset=X, options={"exchange_min_talon": 4})
def test_sixty_six_exchange_min_talon() -> None:
    st = deal(X, "9S KH QH TD JD AD", turn="AS", options={"exchange_min_talon": 4})
    force(st, A, tricks=1)
    assert "exchange:9S" in legal_texts(st)
    st.stock = [st.stock[0], st.stock[-1]]
    refused(st, "exchange:9S", "sixty-six.exchange")


@covers("schnapsen.decl.value", ruleset=X, options={"marriage_values": "20/20"})
def test_sixty_six_marriage_values_20_20() -> None:
    st = deal(X, "KS QS TD JD AC AD", turn="AS", options={"marriage_values": "20/20"})
    force(st, A, tricks=1)
    play(st, "marriage:S")
    assert st.decl_points[A] == 20


@covers("schnapsen.decl.lead", ruleset=X, options={"marriage_lead": "king"})
@covers("schnapsen.decl.lead", ruleset=X, options={"marriage_lead": "queen"})
def test_sixty_six_marriage_lead_options() -> None:
    for lead, card in (("king", "KH"), ("queen", "QH")):
        st = deal(X, *MARRIAGE, turn="AS", options={"marriage_lead": lead})
        play(st, "marriage:H")
        assert plays(st) == [card]


@covers("schnapsen.decl.who", ruleset=X, options={"marriage_on_first_lead": False})
def test_sixty_six_no_marriage_on_the_first_lead() -> None:
    st = deal(X, *MARRIAGE, turn="AS", options={"marriage_on_first_lead": False})
    refused(st, "marriage:H", "schnapsen.decl.who")


@covers("schnapsen.decl.credit", ruleset=X, options={"marriage_counting": "immediate"})
@covers("schnapsen.decl.credit", ruleset=X,
        options={"marriage_counting": "next_trick_after_declaring"})
def test_sixty_six_marriage_counting_options() -> None:
    st = deal(X, *MARRIAGE, turn="AS", options={"marriage_counting": "immediate"})
    play(st, "marriage:H")
    assert st.decl_points[A] == 20
    st = deal(X, *MARRIAGE, turn="AS", options={"marriage_counting": "next_trick_after_declaring"})
    force(st, A, tricks=1)
    play(st, "marriage:H")
    assert st.decl_points[A] == 0 and st.held[A] == 20


@covers("schnapsen.claim.timing", ruleset=X, options={"claim_on_declaration": False})
def test_sixty_six_no_claim_on_the_declaration() -> None:
    st = deal(X, *MARRIAGE, turn="AS", options={"claim_on_declaration": False})
    force(st, A, captured=50, tricks=1)
    play(st, "marriage:H")
    refused(st, "claim", "schnapsen.claim.timing")


@covers("sixty-six.close", ruleset=X, options={"close_allowed": False})
@covers("sixty-six.close", ruleset=X, options={"close_on_first_lead": False})
@covers("sixty-six.close", ruleset=X, options={"close_min_talon": 4})
def test_sixty_six_close_options() -> None:
    st = deal(X, options={"close_allowed": False})
    refused(st, "close", "core.phase")
    st = deal(X, options={"close_on_first_lead": False})
    refused(st, "close", "sixty-six.close")
    st = deal(X, options={"close_min_talon": 4})
    st.stock = [st.stock[0], st.stock[-1]]
    refused(st, "close", "sixty-six.close")


# ----------------------------------------------------------------- rule texts under options
TEXTS = [
    (S, {"exchange_requires_trick": True}, "schnapsen.exchange",
     "must have won a trick", "needs no trick"),
    (X, {"exchange_requires_trick": False}, "sixty-six.exchange",
     "needs no trick", "only if he has already won"),
    (S, {"close_before_draw": True}, "schnapsen.close",
     "before he draws", "not between a trick and the draw"),
    (S, {"close_on_first_lead": False}, "schnapsen.close",
     "may not be closed on the first lead", "before the first trick"),
    (S, {"close_before_draw": True, "close_on_first_lead": False}, "schnapsen.close",
     "may not be closed on the first lead", "not between a trick and the draw"),
    (X, {"close_before_draw": False}, "sixty-six.close",
     "not between a trick and the draw", "either before drawing"),
    (X, {"close_on_first_lead": False}, "sixty-six.close",
     "may not be closed on the first lead", "also before the first trick"),
    (S, {"closer_false_claim": "failed_close_row"}, "schnapsen.score.false-claim",
     "by the closer is scored as a failed close", "scored the same way"),
    (X, {"closer_false_claim": "failed_close_row"}, "sixty-six.score.false-claim",
     "by the closer is scored as a failed close", "or 3 if he had won no trick when the false"),
    (S, {"closer_false_claim": "failed_close_row", "false_claim_score": "flat2"},
     "schnapsen.score.false-claim", "scores 2 game points", "scored the same way"),
    # the review (eighteenth session): the closer's false claim is scored by the failed
    # close's own row (hoyle: 1, 2 or 3 by his points), not always 2 or 3
    (S, {"closer_false_claim": "failed_close_row", "failed_close_score": "hoyle"},
     "schnapsen.score.false-claim", "as the rule on a failed close says",
     "3 if his opponent had won no trick when the talon was closed"),
    # after a close the talon's cards are out of play: the pack is not worth 130
    (X, {"last_trick_bonus_when_closed": True}, "sixty-six.score.last-trick",
     "out of play", "worth 130"),
    # the flat point of the last trick keeps the claim after it, as in Schnapsen
    (X, {"last_trick_rule": "one_point"}, "sixty-six.score.played-out",
     "we let him claim after the last trick", "equal totals are a drawn hand"),
]


@pytest.mark.parametrize("ruleset,options,rule_id,says,not_says", TEXTS)
def test_the_rule_text_says_what_a_non_default_option_plays(
        ruleset: str, options: dict[str, Any], rule_id: str, says: str, not_says: str) -> None:
    # each option changed the rule's data but left its text saying the default
    # (notes §1.8, §1.9, §1.11, §2.2, §2.4, §6); several options at once stay true
    text = " ".join(load_rules(ruleset, options).info(rule_id).text.split())
    assert says in text and not_says not in text, text


def test_the_flat_last_trick_of_sixty_six_is_marked_decided_as_in_schnapsen() -> None:
    # under one_point Sixty-six plays Schnapsen's decided corner (a claim after the last
    # trick scores the scale), so its rule is marked decided there and only there
    for options, decided in (({}, False), ({"last_trick_rule": "one_point"}, True)):
        assert load_rules(X, options).info("sixty-six.score.played-out").decided is decided
