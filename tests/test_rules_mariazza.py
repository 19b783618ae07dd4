"""Per-rule tests of Mariazza (Breda).

Seats A B = 0 1. There is no dealer: A receives the first five cards, B the
next five, the next card is turned up (trump) under the stock; the first
player is given with each deal (A unless said otherwise).
"""

from __future__ import annotations

from mariage import GameState, Phase
from rulekit import (
    cards,
    covers,
    endgame,
    legal_texts,
    play,
    play_out,
    refused,
    rules_of,
    start,
    suit,
)

A, B = 0, 1
RULES = "mariazza"
# A holds the heart pair, B the diamond pair; spades are trump (turned 5S).
PAIRS = ["KH QH AH 3H QC", "KD QD 4H 5C 6C"]
# B ends at exactly 60: he trumps the ace, then leads five times to A's counters.
SIXTY = ["AH 3H AC KC KH", "2S 4S 6S KD QD"]
SIXTY_STOCK = "7S 2C 2D 4C 5D 5C 6D 6C 7D 7H"
SIXTY_PLAY = "AH 2S 4S 3H 6S AC 7S KC 2D KH"


def _deal(hands: list[str], turn_up: str = "5S", stock: str = "", first: int = A,
          options: dict[str, object] | None = None, state: GameState | None = None
          ) -> GameState:
    return start(RULES, hands, dealer=None, first_player=first, turn_up=turn_up, stock=stock,
                 options=options, state=state)


@covers("mariazza.players", "mariazza.pack", "mariazza.deal", "mariazza.lead.first",
        ruleset=RULES)
def test_no_dealer_first_player_given_turned_trump_under_the_stock() -> None:
    r = rules_of(RULES)
    assert r.nseats == 2 and r.pack_points == 120 and r.first_lead == "lot"
    state = GameState(r, first_dealer=None)
    state.deal(list(range(40)), first_player=B)
    assert state.dealer is None and state.to_act == B
    assert cards(state, A) == "AH 3H KH QH JH" and cards(state, B) == "7H 6H 5H 4H 2H"
    assert r.card_code[state.turn_up or 0] == "AD" and state.trump == suit(state, "D")
    assert len(state.stock) == 30 and state.stock[0] == state.turn_up


@covers("mariazza.deal.rotation", "mariazza.lead.first", ruleset=RULES)
def test_the_first_player_is_chosen_afresh_each_hand() -> None:
    state = _deal(PAIRS, first=B)
    play_out(state)
    assert state.phase == Phase.DEAL and state.dealer is None
    _deal(PAIRS, first=B, state=state)
    assert state.to_act == B
    play_out(state)
    _deal(PAIRS, first=A, state=state)
    assert state.to_act == A


@covers("mariazza.play.free", ruleset=RULES)
def test_no_duty_to_follow_beat_or_trump_ever() -> None:
    state = _deal(PAIRS)
    play(state, "AH")
    assert set(legal_texts(state)) == {"mariazza:D", "KD", "QD", "4H", "5C", "6C"}
    state = endgame(RULES, leader="5H AD 7C 4D 3D", follower="KH 4H AC 3S 5S",
                    turn_up="5S", first_player=A, options={"target": 200})
    play(state, "5H")  # the last five tricks: still any card
    assert set(legal_texts(state)) == {"KH", "4H", "AC", "3S", "5S"}


@covers("mariazza.trick.winner", ruleset=RULES)
def test_trump_wins_same_suit_higher_wins_else_the_card_led() -> None:
    state = _deal(["AH 2C 4C 4D 5D", "2S 3C 3D 7H 6H"])
    play(state, "AH 2S")
    assert state.tricks[-1][2] == B  # a trump beats a plain card
    play(state, "3C 2C")
    assert state.tricks[-1][2] == B  # the card led
    play(state, "3D 4D")
    assert state.tricks[-1][2] == B  # the three beats the four of the suit


@covers("mariazza.draw", ruleset=RULES)
def test_winner_draws_first_and_the_loser_of_trick_fifteen_takes_the_face_up_card() -> None:
    state = _deal(["AH 2C 4C 4D 5D", "2S 3C 3D 7H 6H"], stock="JS 7S")
    play(state, "AH 2S")
    assert "JS" in cards(state, B) and "7S" in cards(state, A)
    state = endgame(RULES, leader="AH 3H KH QH JH", follower="5S 4C 6C 7C 2C", turn_up="5S",
                    first_player=A, options={"target": 200})
    assert "5S" in cards(state, 1 - state.to_act) and state.turn_up is None


@covers("mariazza.decl.who", "mariazza.decl.mariazza", "mariazza.decl.value",
        "mariazza.decl.trump", "mariazza.decl.held", ruleset=RULES)
def test_leader_counts_at_once_second_player_is_held_until_he_leads() -> None:
    state = _deal(PAIRS, stock="2C 2D 2H 4D")
    refused(state, "mariazza:D", "core.turn", seat=B)
    refused(state, "mariazza:C", "mariazza.decl.mariazza")
    play(state, "mariazza:H")
    assert state.decl_points == [20, 0] and state.trump == suit(state, "S")
    play(state, "AH mariazza:D")  # B declares as second player: held
    assert state.held == [0, 20] and state.decl_points == [20, 0]
    play(state, "4H")
    assert state.tricks[-1][2] == A and state.held == [0, 20]  # A leads again
    play(state, "QC 5C")  # 5C does not beat the queen: A wins again
    assert state.held == [0, 20]
    play(state, "2C 6C")
    assert state.tricks[-1][2] == B
    assert state.held == [0, 0] and state.decl_points == [20, 20]  # added as B leads


@covers("mariazza.decl.value", ruleset=RULES)
def test_trump_mariazza_40() -> None:
    state = _deal(["KS QS AH 3H 2C", "KD QD 4H 5C 6C"], turn_up="5S")
    play(state, "mariazza:S")
    assert state.decl_points == [40, 0]


@covers("mariazza.decl.value", ruleset=RULES, options={"trump_mariazza_40": False})
def test_trump_mariazza_20_option() -> None:
    state = _deal(["KS QS AH 3H 2C", "KD QD 4H 5C 6C"], turn_up="5S",
                  options={"trump_mariazza_40": False})
    play(state, "mariazza:S")
    assert state.decl_points == [20, 0]


@covers("mariazza.decl.per-trick", "mariazza.decl.once", ruleset=RULES)
def test_one_mariazza_per_turn_each_suit_once() -> None:
    state = _deal(["KH QH KC QC 2D", "KD 3D 4H 5C 6C"], stock="2C 2H")
    play(state, "mariazza:H")
    refused(state, "mariazza:C", "mariazza.decl.per-trick")
    play(state, "2D 3D")  # B wins, A draws 2H
    play(state, "4H")
    refused(state, "mariazza:H", "mariazza.decl.once")
    play(state, "mariazza:C")
    assert state.held == [20, 0]  # declared as second player this time


@covers("mariazza.decl.window", ruleset=RULES)
def test_declaring_after_the_stock_is_gone() -> None:
    state = endgame(RULES, leader="KH QH 3H JH 7H", follower="5S 4C 6C 7C 2C", turn_up="5S",
                    first_player=A, options={"target": 200})
    assert "mariazza:H" in legal_texts(state)
    play(state, "mariazza:H")
    assert state.declared[-1][3] == 20


@covers("mariazza.exchange", "mariazza.decl.value", ruleset=RULES)
def test_exchange_the_seven_of_trump_then_declare_with_the_card_taken() -> None:
    state = _deal(["7S QS AH 2C 3D", "KD QD 4H 5C 6C"], turn_up="KS")
    assert "mariazza:S" not in legal_texts(state)
    refused(state, "exchange:7S", "core.turn", seat=B)
    play(state, "exchange:7S")
    assert "KS" in cards(state, A) and state.rules.card_code[state.turn_up or 0] == "7S"
    assert state.stock[0] == state.turn_up  # the seven now lies under the stock
    play(state, "mariazza:S")
    assert state.decl_points == [40, 0]
    assert set(legal_texts(state)) == {"KS", "QS", "AH", "2C", "3D"}  # a card must follow


@covers("mariazza.exchange", ruleset=RULES)
def test_no_exchange_once_the_stock_is_gone() -> None:
    state = endgame(RULES, leader="7S AH 3H JH 5C", follower="KS 4C 6C 7C 2C", turn_up="KS",
                    first_player=A, options={"target": 200})
    refused(state, "exchange:7S", "mariazza.exchange")


@covers("mariazza.exchange", ruleset=RULES, options={"exchange": False})
def test_exchange_option_off() -> None:
    state = _deal(["7S QS AH 2C 3D", "KD QD 4H 5C 6C"], turn_up="KS",
                  options={"exchange": False})
    assert not any(t.startswith("exchange") for t in legal_texts(state))
    refused(state, "exchange:7S", "core.phase")


@covers("mariazza.hand.target", "mariazza.decl.held", "mariazza.score.hand", ruleset=RULES)
def test_hand_ends_after_the_trick_that_reaches_41_before_the_draw() -> None:
    state = _deal(PAIRS, stock="2C 2D 2H 4D")
    play(state, "mariazza:H AH mariazza:D 4H")  # A: 20 + 11; B's 20 held
    stock = len(state.stock)
    play(state, "3H 5C")  # A: 41
    assert state.phase == Phase.DEAL and len(state.stock) == stock  # nothing drawn
    rec = state.history[-1]
    assert rec.ended == "target" and rec.points == (41, 0)  # B's held points are lost
    assert rec.winner == A and state.segni == [1, 0]


@covers("mariazza.hand.target", ruleset=RULES)
def test_hand_ends_on_a_declaration_that_counts_at_once() -> None:
    state = _deal(["KH QH AH 3H QC", "KD QD 4H 5C 6C"], stock="KC 2D")
    play(state, "mariazza:H AH 4H")  # A: 31, draws the king of clubs
    play(state, "mariazza:C")
    assert state.phase == Phase.DEAL and state.history[-1].points == (51, 0)
    assert state.history[-1].ended == "target" and state.segni == [1, 0]


@covers("mariazza.hand.target", "mariazza.decl.held", ruleset=RULES)
def test_hand_ends_when_held_points_are_added() -> None:
    state = _deal(["3H 2C 4C 5C 6C", "AH KD QD 7C JC"])
    play(state, "3H mariazza:D AH")  # B: 21 and 20 held
    assert state.phase == Phase.DEAL and state.history[-1].points == (0, 41)
    assert state.segni == [0, 1]


@covers("mariazza.hand.target", ruleset=RULES, options={"target": 71})
def test_target_option() -> None:
    state = _deal(PAIRS, stock="2C 2D 2H 4D", options={"target": 71})
    play(state, "mariazza:H AH mariazza:D 4H 3H 5C")
    assert state.phase == Phase.PLAY and state.hand_points(A) == 41


@covers("mariazza.score.sixty", "mariazza.hand.target", ruleset=RULES)
def test_a_top_score_of_exactly_60_wins_no_segno() -> None:
    state = _deal(SIXTY, turn_up="5S", stock=SIXTY_STOCK, first=A)
    play(state, SIXTY_PLAY)
    assert state.to_act == B and state.hand_points(B) == 40
    play(state, "mariazza:D")
    rec = state.history[-1]
    assert rec.ended == "target" and rec.points == (0, 60)
    assert rec.winner is None and state.segni == [0, 0]


@covers("mariazza.score.hand", "mariazza.match.end", "mariazza.match.tie", ruleset=RULES)
def test_match_to_four_segni() -> None:
    state = _deal(["3H 2C 4C 5C 6C", "AH KD QD 7C JC"])
    state.segni = [3, 2]
    play(state, "3H mariazza:D AH")
    assert state.segni == [3, 3] and state.phase == Phase.DEAL  # nobody has four yet
    _deal(["3H 2C 4C 5C 6C", "AH KD QD 7C JC"], state=state)
    play(state, "3H mariazza:D AH")
    assert state.terminal and state.result is not None
    assert state.result.winner == B and state.result.scores == (3, 4)


@covers("mariazza.match.end", ruleset=RULES, options={"hands": 2})
def test_hands_option() -> None:
    state = _deal(["3H 2C 4C 5C 6C", "AH KD QD 7C JC"], options={"hands": 2})
    state.segni = [0, 1]
    play(state, "3H mariazza:D AH")
    assert state.terminal and state.result is not None and state.result.winner == B


@covers("core.resign", ruleset=RULES)
def test_resign_out_of_turn_ends_the_match() -> None:
    state = _deal(PAIRS)
    assert state.to_act == A
    state.resign(B)
    assert state.terminal and state.result is not None
    assert state.result.winner == A and state.result.reason == "resign"


# A deal (first player A, trump spades) on which play_out splits the cards 50-70.
EVEN = ("KH QH 3C 5D KS 5H 3H QS JD 6D AS 5C 5S AD 2H 4S 2S JH KD JC QD KC 2D 4H 6H 7C 6C "
        "6S 7S AC QC AH 3D 7D 7H JS 2C 4D 3S 4C")


@covers("mariazza.score.sixty", "mariazza.score.hand", ruleset=RULES, options={"target": 71})
def test_equal_scores_win_no_segno() -> None:
    state = GameState(rules_of(RULES, target=71), first_dealer=None)
    state.deal(EVEN.split(), first_player=A)
    play(state, "mariazza:H")  # 20 at once for A
    play_out(state)
    rec = state.history[-1]
    assert rec.ended == "played_out" and rec.points == (70, 70)
    assert rec.winner is None and state.segni == [0, 0]


@covers("mariazza.decl.per-trick", "mariazza.exchange", ruleset=RULES)
def test_no_second_declaration_after_an_exchange_by_default() -> None:
    state = _deal(["7S KH QH QS 2C", "KD QD 4H 5C 6C"], turn_up="KS")
    play(state, "mariazza:H exchange:7S")
    assert "mariazza:S" not in legal_texts(state)
    refused(state, "mariazza:S", "mariazza.decl.per-trick")


@covers("mariazza.decl.per-trick", "mariazza.exchange", ruleset=RULES,
        options={"exchange_chain": True, "target": 71})
def test_exchange_chain_declare_exchange_declare() -> None:
    state = _deal(["7S KH QH QS 2C", "KD QD 4H 5C 6C"], turn_up="KS",
                  options={"exchange_chain": True, "target": 71})
    play(state, "mariazza:H exchange:7S")
    assert "mariazza:S" in legal_texts(state)
    play(state, "mariazza:S")
    assert state.decl_points == [60, 0]
    refused(state, "mariazza:S", "mariazza.decl.per-trick")
    assert not any(":" in t for t in legal_texts(state))


def _unfinished(options: dict[str, object]) -> tuple[int, ...]:
    state = GameState(rules_of(RULES, target=71, **options), first_dealer=None)
    state.deal(EVEN.split(), first_player=A)
    play_out(state)
    rec = state.history[-1]
    assert rec.ended == "played_out" and sorted(rec.points) == [50, 70]
    return rec.points, rec.winner  # type: ignore[return-value]


@covers("mariazza.score.unfinished", ruleset=RULES, options={"target": 71})
def test_a_hand_played_out_below_the_target_goes_to_the_higher_score() -> None:
    points, winner = _unfinished({})
    assert winner == points.index(70)


@covers("mariazza.score.unfinished", ruleset=RULES,
        options={"target": 71, "unfinished_hand": "nobody"})
def test_unfinished_hand_nobody_option() -> None:
    _, winner = _unfinished({"unfinished_hand": "nobody"})
    assert winner is None
