"""Per-rule tests of the Thousand options of the notes' section 11 and 13: who sits out
with four players (``sitter``), the dark bid (``dark_bid``) and the golden round
(``golden_round``).

Seats A B C D = 0 1 2 3 in playing order (clockwise). Dealer 3 (D), so A is forehand.
"""

from __future__ import annotations

from typing import Any

import pytest
from mariage import GameState, OptionError, Phase, load_rules
from mariage.arena.bots import GreedyBot
from mariage.cli import main
from mariage.conformance.regen import option_variants
from mariage.engine.deals import SeededDeals, deal_owners
from mariage.engine.observation import observe
from mariage.notation import check_record, record_match, view
from mariage.rulebook.render import render_text
from rulekit import covers, legal_texts, play, play_out, refused, start

A, B, C, D = 0, 1, 2, 3
FOUR = "thousand-4"


def game(ruleset: str, options: dict[str, Any], seed: int = 1, hands: int = 400) -> GameState:
    """A seeded game of greedy bots, to the target (or ``hands`` hands)."""
    r = load_rules(ruleset, options)
    deals = SeededDeals(r, seed)
    st = GameState(r, first_dealer=deals.first_dealer)
    st.deal_source = deals
    bots = [GreedyBot(s + 1) for s in range(r.nseats)]
    while not st.terminal and len(st.history) < hands:
        if st.phase == Phase.DEAL:
            st.deal(*deals.next_deal())
            continue
        assert st.to_act is not None
        st.apply(bots[st.to_act].choose(st))
    return st


# ---------------------------------------------------------------- sitter (section 13)
@covers("thousand.deal.sitter", "thousand.deal", ruleset=FOUR, options={"sitter": "opposite"})
@pytest.mark.parametrize(("sitter", "out", "active"), [
    ("dealer", D, [A, B, C]), ("dealer_right", C, [A, B, D]), ("opposite", B, [A, C, D])])
def test_the_sitter_and_the_deck_order_of_the_active_seats(sitter: str, out: int,
                                                           active: list[int]) -> None:
    r = load_rules(FOUR, {"sitter": sitter})
    assert r.sitter(D) == out and r.seats_dealt(D) == active
    # notes section 17: deck[3k + j] to s_j, the active seats from the dealer's left
    assert deal_owners(r, D) == active * 7 + [-1] * 3
    st = GameState(r, first_dealer=D)
    st.deal(list(range(24)))
    assert st.out == out and st.hands[out] == 0
    for j, seat in enumerate(active):
        assert st.hands[seat] == sum(1 << (3 * k + j) for k in range(7))
    assert sorted(st.stock) == [21, 22, 23]
    assert st.phase == Phase.AUCTION and st.to_act == A  # forehand: the dealer's left


@covers("thousand.deal.sitter", "thousand.exchange", ruleset=FOUR,
        options={"sitter": "opposite"})
def test_the_player_opposite_the_dealer_takes_no_part() -> None:
    st = start(FOUR, ["KS QS AD TD AC 9C JD"], dealer=D, stock="AH KD QD",
               options={"sitter": "opposite"})
    play(st, "bid:100")
    assert st.to_act == C  # B, opposite the dealer, is passed over
    play(st, "pass pass")
    assert st.declarer == A and st.phase == Phase.PASSING
    play(st, "give:9C")
    assert st.hands[C] >> st.rules.card("9C") & 1  # the first card to C, the next active
    play(st, "give:JD keep")
    play_out(st)
    assert st.history[-1].score[B] == 0 and sum(st.history[-1].tricks) == 8


@covers("thousand.auction.opening", ruleset=FOUR,
        options={"sitter": "opposite", "opening_bid": "dealer_auto_100"})
def test_the_dealer_holds_the_opening_bid_only_where_he_plays(capsys: pytest.CaptureFixture[str]
                                                              ) -> None:
    # notes section 4.2: dealer_auto_100 is invalid where the dealer sits the hand out
    for ruleset, opts in ((FOUR, {}), ("thousand", {"players": 4}),
                          (FOUR, {"sitter": "dealer", "target": 500})):
        with pytest.raises(OptionError) as info:
            load_rules(ruleset, {**opts, "opening_bid": "dealer_auto_100"})
        err = info.value
        assert err.option == "opening_bid" and err.rule_id == "thousand.auction.opening"
        assert "cannot be played with players=4, sitter=dealer" in str(err)
        assert str(err).endswith("(rule thousand.auction.opening)")
    assert main(["play", FOUR, "-o", "opening_bid=dealer_auto_100", "--seed", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err and "sits the hand out" in err
    for sitter in ("opposite", "dealer_right"):  # the dealer plays: he holds it
        st = start(FOUR, [], dealer=D, options={"sitter": sitter,
                                                "opening_bid": "dealer_auto_100"})
        assert st.high_bidder == D and st.high_bid == 100 and st.to_act == A
    # the other openings stay playable with the dealer sitting out
    for opening in ("fh_forced", "fh_auto_100", "none"):
        assert load_rules(FOUR, {"opening_bid": opening}).nseats == 4
    # the suite leaves the refused value out, the rulebook says why
    assert "opening_bid-dealer_auto_100" not in dict(option_variants(FOUR))
    assert "opening_bid-dealer_auto_100" in dict(option_variants("thousand"))
    book = render_text(load_rules(FOUR))
    assert "with opening_bid = dealer_auto_100: refused: with four at the table" in book


@covers("thousand.talon.sitter", ruleset=FOUR,
        options={"sitter": "dealer_right", "sitter_score": "aces_and_marriages"})
@pytest.mark.parametrize(("sitter", "out"), [("dealer", D), ("dealer_right", C),
                                             ("opposite", B)])
def test_the_sitter_scores_from_the_talon_whoever_he_is(sitter: str, out: int) -> None:
    opts = {"sitter": sitter, "sitter_score": "aces_and_marriages"}
    st = start(FOUR, ["KS QS AD TD AC 9C JD"], dealer=D, stock="AH KD QD", options=opts)
    play(st, "bid:100 pass pass concede")  # check 14: 50 + 80
    assert st.history[-1].score[out] == 130
    assert [s for s in range(4) if st.history[-1].score[s] == 60] == \
        [s for s in range(1, 4) if s != out]


@pytest.mark.parametrize("sitter", ["dealer_right", "opposite"])
def test_a_game_with_another_sitter_validates_with_its_seat_views(sitter: str) -> None:
    r = load_rules(FOUR, {"sitter": sitter, "target": 500})
    record = record_match(r, 2, [GreedyBot(s + 1) for s in range(4)])
    assert record.result.winner is not None
    assert check_record(record).errors == []
    for seat in ("A", "B"):
        assert check_record(view(record, seat)).errors == [], seat


# ---------------------------------------------------------------- dark bid (section 11)
H1 = ["KH QH AD TD 9D AC 9S", "AH TH JH KD QD 9C JS", "9H KC QC JC TC KS QS"]
DARK = {"dark_bid": True, "dark_min_total": 0}


def dark(options: dict[str, Any] | None = None, talon: str = "JD AS TS",
         hands: list[str] = H1) -> GameState:
    return start("thousand", hands, dealer=C, stock=talon, options={**DARK, **(options or {})})


@covers("thousand.auction.dark", ruleset="thousand", options=DARK)
def test_forehand_bids_dark_first_and_unseen_talon_goes_to_him() -> None:
    assert "dark:120" not in legal_texts(start("thousand", H1, dealer=C))  # off by default
    st = dark()
    assert legal_texts(st)[-1] == "dark:120" and "pass" not in legal_texts(st)
    refused(st, "dark:125", "thousand.auction.dark")  # the value is fixed
    play(st, "dark:120")
    assert st.high_bid == 120 and st.blind and st.to_act == B
    refused(st, "dark:120", "thousand.auction.dark")  # forehand only, first action only
    play(st, "pass pass")
    assert st.declarer == A and st.contract == 120 and st.phase == Phase.PASSING
    talon = st.talon
    assert talon and st.known[A] & talon == 0  # not shown (thousand.talon.shown)
    assert all(observe(st, s).shown[A] & talon == 0 for s in (B, C))


@covers("thousand.auction.dark", ruleset="thousand", options=DARK)
def test_a_dark_bid_outbid_is_an_ordinary_auction() -> None:
    st = dark()
    play(st, "dark:120 bid:125 pass")
    assert st.to_act == A and not st.blind
    play(st, "pass")
    assert st.declarer == B and st.contract == 125 and st.known[B] == st.talon  # shown


@covers("thousand.auction.dark", ruleset="thousand", options=DARK)
@pytest.mark.parametrize("made", [True, False])
def test_a_dark_contract_made_or_failed_is_doubled(made: bool) -> None:
    st = dark()
    play(st, "dark:120 pass pass give:9S give:9D keep")
    st.captured = [130 if made else 100, 0, 0]  # as if the hand were played so
    st.tricks_won = [5, 2, 1]
    added = st.mech.contract.sheet(st, "played_out")
    assert added[A] == (120 if made else -120)
    st.mech.running.settle(st, "played_out", added)
    assert added[A] == (240 if made else -240) and st.match_scores[A] == added[A]


@covers("thousand.auction.dark", "thousand.contract.concede", ruleset="thousand",
        options=DARK)
def test_a_dark_contract_conceded_is_not_doubled() -> None:
    st = dark()
    play(st, "dark:120 pass pass concede")
    assert st.match_scores == [0, 60, 60]


@covers("thousand.auction.dark", ruleset="thousand", options={"dark_bid": True})
def test_below_dark_min_total_no_dark_bid() -> None:
    st = start("thousand", H1, dealer=C, stock="JD AS TS", options={"dark_bid": True})
    assert st.match_scores[A] == 0 < 240 and "dark:120" not in legal_texts(st)
    refused(st, "dark:120", "thousand.auction.dark")
    st = GameState(load_rules("thousand", {"dark_bid": True}), first_dealer=C)
    st.match_scores[A] = 240
    st = start(st.rules, H1, stock="JD AS TS", state=st)
    assert "dark:120" in legal_texts(st)


@covers("thousand.auction.dark", ruleset="thousand-pl", options=DARK)
def test_no_dark_bid_where_forehand_holds_the_minimum() -> None:
    st = start("thousand-pl", H1, dealer=C, stock="JD AS TS", options=DARK)
    assert st.to_act == B and "dark:120" not in legal_texts(st)
    st = start("thousand-pl", H1, dealer=C, stock="JD AS TS",
               options={**DARK, "opening_bid": "dealer_auto_100"})
    assert st.to_act == A and "dark:120" in legal_texts(st)  # above the dealer's 100


def test_a_game_with_dark_bids_validates_with_its_seat_views() -> None:
    r = load_rules("thousand", {**DARK, "target": 500})
    record = record_match(r, 3, [GreedyBot(1), GreedyBot(2), GreedyBot(3)])
    assert check_record(record).errors == []
    from mariage.notation import write_record
    text = write_record(record)
    assert ":dark:120" in text
    for seat in ("A", "B", "C"):
        assert check_record(view(record, seat)).errors == [], seat


# ---------------------------------------------------------------- golden round (section 11)
GOLD = {"golden_round": "fixed_120"}


def golden(options: dict[str, Any] | None = None) -> GameState:
    return start("thousand", H1, dealer=C, stock="JD AS TS", options={**GOLD, **(options or {})})


def golden_hand(st: GameState, declarer_points: int) -> list[int]:
    """Score the golden hand in progress as if its declarer took ``declarer_points``."""
    st.captured = [declarer_points, 120 - declarer_points - 17, 17]
    st.tricks_won = [5, 2, 1]
    added = st.mech.contract.sheet(st, "played_out")
    st.mech.running.settle(st, "played_out", added)
    return added


@covers("thousand.running.golden", ruleset="thousand", options=GOLD)
def test_a_golden_hand_has_no_auction_forehand_declares_120() -> None:
    st = golden()
    assert st.phase == Phase.AUCTION and st.to_act == A and legal_texts(st) == ["bid:120"]
    refused(st, "pass", "thousand.running.golden")
    refused(st, "bid:125", "thousand.running.golden")
    assert legal_texts(golden(DARK)) == ["bid:120"]  # nor a dark bid
    play(st, "bid:120")
    assert st.declarer == A and st.contract == 120 and st.phase == Phase.PASSING
    assert "concede" not in legal_texts(st)
    refused(st, "concede", "thousand.running.golden")
    play(st, "give:9S give:9D")
    assert st.phase == Phase.PLAY  # no raise
    refused(st, "raise:125", "thousand.running.golden")


@covers("thousand.running.golden", ruleset="thousand", options=GOLD)
@pytest.mark.parametrize(("double", "factor"), [(True, 2), (False, 1)])
def test_every_entry_of_a_golden_hand_is_doubled(double: bool, factor: int) -> None:
    st = golden({"golden_double": double})
    play(st, "bid:120 give:9S give:9D")
    added = golden_hand(st, 90)
    assert added == [-120 * factor, 15 * factor, 15 * factor]  # 13 -> 15, 17 -> 15
    assert st.golden_done == 1 and not st.golden_made


@covers("thousand.running.golden", ruleset="thousand", options=GOLD)
def test_one_golden_hand_per_player_then_ordinary_auctions() -> None:
    st = golden()
    deals = SeededDeals(st.rules, 5)
    for k in range(3):
        assert legal_texts(st) == ["bid:120"] and st.to_act == st.leader
        play(st, "bid:120")
        while st.phase != Phase.DEAL:
            st.apply(st.legal_actions()[0])
        assert st.golden_done == k + 1
        st.deal(*deals.next_deal())
    assert "pass" in legal_texts(st) or len(legal_texts(st)) > 1  # an ordinary auction
    assert "bid:100" in legal_texts(st)


@covers("thousand.running.golden", ruleset="thousand",
        options={**GOLD, "golden_reset_if_none": True})
@pytest.mark.parametrize("made_in", [None, 1])
def test_no_golden_contract_made_every_total_back_to_0(made_in: int | None) -> None:
    st = golden({"golden_reset_if_none": True})
    for k in range(3):
        play(st, "bid:120")
        golden_hand(st, 125 if k == made_in else 90)
        if k < 2:
            st.phase = Phase.DEAL
            st = start(st.rules, H1, stock="JD AS TS", state=st)
    assert st.golden_done == 3
    assert (st.match_scores == [0, 0, 0]) == (made_in is None)


#: the rulebook's golden hands (docs/rulesets/thousand.rst): (declarer, card points taken by
#: A B C, the declarer's marriages, the entries written)
RULEBOOK_GOLDEN = [(A, [90, 13, 17], 0, [-240, 30, 30]), (B, [10, 100, 10], 0, [20, -240, 20])]


@covers("thousand.running.golden", ruleset="thousand",
        options={**GOLD, "golden_reset_if_none": True})
@pytest.mark.parametrize(("third", "entries", "sums", "totals"), [
    (([5, 5, 110], 0), [10, 10, -240], [-210, -200, -190], [0, 0, 0]),  # none made
    (([10, 10, 100], 40), [20, 20, 240], [-200, -190, 290], [-200, -190, 290])])  # C made
def test_the_golden_reset_figures_of_the_rulebook(third: tuple[list[int], int],
                                                  entries: list[int], sums: list[int],
                                                  totals: list[int]) -> None:
    st = golden({"golden_reset_if_none": True})
    written = []
    for declarer, captured, marriages, want in [*RULEBOOK_GOLDEN, (C, *third, entries)]:
        if declarer != A:  # the next golden hand, forehand the next player
            st.phase, st.dealer = Phase.DEAL, declarer - 1
            st = start(st.rules, H1, stock="JD AS TS", state=st)
        assert st.to_act == declarer and legal_texts(st) == ["bid:120"]
        play(st, "bid:120")
        st.captured, st.tricks_won = list(captured), [3, 3, 2]
        st.decl_points = [marriages if s == declarer else 0 for s in range(3)]
        added = st.mech.contract.sheet(st, "played_out")
        st.mech.running.settle(st, "played_out", added)
        assert added == want
        written.append(added)
    assert [sum(col) for col in zip(*written, strict=True)] == sums
    assert st.golden_done == 3 and st.match_scores == totals


@covers("thousand.running.golden", ruleset="thousand", options={"golden_round": "min_bid_120"})
def test_a_min_bid_golden_hand_opens_at_120() -> None:
    st = start("thousand", H1, dealer=C, stock="JD AS TS",
               options={"golden_round": "min_bid_120"})
    assert legal_texts(st)[0] == "bid:120"
    refused(st, "bid:100", "thousand.running.golden")
    play(st, "bid:120 pass pass")
    assert st.declarer == A and st.contract == 120 and "concede" not in legal_texts(st)


@covers("thousand.running.golden", ruleset="thousand",
        options={**GOLD, "golden_can_raise": True})
def test_a_golden_contract_raised_where_agreed() -> None:
    st = golden({"golden_can_raise": True})
    play(st, "bid:120 give:9S give:9D")
    assert st.phase == Phase.CONTRACT
    play(st, "raise:125")
    assert st.contract == 125


@pytest.mark.parametrize(("ruleset", "mode"), [("thousand", "fixed_120"),
                                               ("thousand-4", "min_bid_120"),
                                               ("thousand-2", "fixed_120")])
def test_a_game_with_golden_hands_validates_with_its_seat_views(ruleset: str,
                                                                 mode: str) -> None:
    r = load_rules(ruleset, {"golden_round": mode, "target": 500})
    record = record_match(r, 4, [GreedyBot(s + 1) for s in range(r.nseats)])
    assert check_record(record).errors == []
    assert check_record(view(record, "B")).errors == []


def test_the_rulebook_of_a_lowest_bid_above_120_leaves_out_the_dark_variant() -> None:
    # bid_min=200 is played, but dark_bid=true is not with it (120 is no bid): the rulebook
    # said the configuration could not be played (thousand27)
    book = render_text(load_rules("thousand", {"bid_min": 200}))
    assert "at least 200" in book and "with dark_bid = true" not in book
