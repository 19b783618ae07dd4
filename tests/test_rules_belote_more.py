"""More options of the Belote options table (notes section 11): ``capot_scoring`` of the
auction presets, ``first_dealer`` and ``deal_limit``.

Seats N W S E = 0 1 2 3, E deals, N is eldest and bids (see ``test_rules_belote``).
"""

from __future__ import annotations

import pytest
from mariage import GameState, Phase, load_rules
from mariage.engine.deals import SeededDeals
from rulekit import covers, legal_texts, play, play_out, play_tricks, refused, start
from test_rules_belote import SPADES, E, N, bid_deal, deal8, finish, gain
from test_rules_belote_presets import each

BC, BT = "belote-coinche", "belote-contree"
ALL_HEARTS = ["JH 9H AH TH KH QH 8H 7H", None, None, None]
NO_JACK = ["9H AH TH KH QH 8H 7H AS", None, None, "JH"]


@each(("belote.score.capot",), [(n, {"capot_scoring": v, "rounding": "none"})
                                for n in (BC, BT) for v in ("ffb", "pagat")])
@pytest.mark.parametrize("name", [BC, BT])
@pytest.mark.parametrize(("hands", "value", "ffb", "pagat"), [
    (ALL_HEARTS, 80, [80 + 252, 0], [80 + 250, 0]),  # capot made, not bid
    (ALL_HEARTS, "capot", [250 + 252, 0], [500, 0]),  # capot bid and made
    (NO_JACK, "capot", [0, 160 + 250], [0, 500]),  # capot bid, failed
])
def test_capot_scoring(name: str, hands: list[str | None], value: int | str,
                       ffb: list[int], pagat: list[int]) -> None:
    for mode, want in (("ffb", ffb), ("pagat", pagat)):
        st = bid_deal(hands, N, "H", value, options={"capot_scoring": mode,
                                                     "rounding": "none"}, ruleset=name)
        play_tricks(st, 8)
        assert gain(st) == want, mode


@covers("belote.match.end", ruleset="belote", options={"deal_limit": 2})
@covers("belote.match.end", ruleset=BC, options={"deal_limit": 2})
@covers("belote.match.end", ruleset=BT, options={"deal_limit": 2})
@pytest.mark.parametrize("name", ["belote", BC, BT])
@pytest.mark.parametrize("limit", [0, 2])
def test_deal_limit_counts_played_deals_only(name: str, limit: int) -> None:
    st = GameState(load_rules(name, {"deal_limit": limit}), first_dealer=E)
    opening = "take" if name == "belote" else "bid:80:H pass pass pass"
    st.deal(list(range(32)))
    play(st, " ".join(["pass"] * (8 if name == "belote" else 4)))  # a void deal
    assert st.history[-1].ended == "void" and not st.terminal
    for n in (1, 2):
        st.deal(list(range(32)))
        play(st, opening)
        play_out(st)
        assert st.history[-1].ended == "played_out"
        assert st.terminal == (limit == 2 and n == 2)
    if st.terminal:
        assert st.result is not None and st.hand_no == 3
        ns, ew = st.match_scores
        assert st.result.winner == (None if ns == ew else int(ew > ns))


@each(("belote.deal.first-dealer",), [(n, {"first_dealer": v}) for n in ("belote", BC, BT)
                                      for v in ("random", "seat0", "seat1", "seat2",
                                                "seat3")])
@pytest.mark.parametrize("name", ["belote", BC, BT])
def test_first_dealer_by_lot_or_a_named_seat(name: str) -> None:
    drawn = {SeededDeals(load_rules(name), seed).first_dealer for seed in range(1, 30)}
    assert drawn == {0, 1, 2, 3}  # by lot: every seat deals first in some match
    for seat in range(4):
        rules = load_rules(name, {"first_dealer": f"seat{seat}"})
        assert {SeededDeals(rules, seed).first_dealer for seed in range(1, 30)} == {seat}
        text = next(i.text for i in rules.infos if i.id == "belote.deal.first-dealer")
        assert text.startswith(f"Seat {seat} ")


@each(("belote-coinche.auction.coinche",), [(n, {"coinche_freezes": v}) for n in (BC, BT)
                                            for v in (True, False)])
@pytest.mark.parametrize("name", [BC, BT])
def test_coinche_freezes(name: str) -> None:
    frozen = start(name, dealer=E)
    play(frozen, "bid:80:H coinche")
    assert legal_texts(frozen) == ["pass", "surcoinche"]
    refused(frozen, "bid:90:H", "belote-coinche.auction.coinche")
    st = start(name, dealer=E, options={"coinche_freezes": False})
    play(st, "bid:80:H coinche")
    assert "bid:90:S" in legal_texts(st) and "surcoinche" in legal_texts(st)
    play(st, "pass")
    assert "bid:90:S" in legal_texts(st) and "surcoinche" not in legal_texts(st)
    refused(st, "surcoinche", "belote-coinche.auction.coinche")
    play(st, "bid:90:S pass pass pass")  # the higher bid cancels the double
    assert st.phase == Phase.PLAY and st.contract == 90 and st.kontras == 0
    assert st.declarer == E
    again = start(name, dealer=E, options={"coinche_freezes": False})
    play(again, "bid:80:H coinche pass pass surcoinche")  # the bidder redoubles at his turn
    assert again.phase == Phase.PLAY and again.kontras == 2 and again.contract == 80


# ------------------------------------------- rule texts under the options (eighteenth session)
#: (ruleset, options, rule ID, words the text must hold, words it must not hold): the
#: rulebook must read right under every option value (docs/spec-language.rst, "Options")
TEXTS: list[tuple[str, dict[str, object], str, tuple[str, ...], tuple[str, ...]]] = [
    # direction: eldest is on the dealer's left when play goes clockwise (notes 1.2)
    ("belote", {"direction": "clockwise"}, "belote.deal", ("eldest",), ("right",)),
    ("belote", {"direction": "clockwise", "deal_packets": "2-3"}, "belote.deal",
     ("two cards, then three",), ("right",)),
    ("belote", {"direction": "clockwise"}, "belote.deal.rotation", ("left when",),
     ("(the dealer's right)",)),
    (BC, {"direction": "clockwise"}, "belote-coinche.deal", ("eldest",), ("right",)),
    # coinche_deal_packets (notes 8.1)
    (BC, {}, "belote-coinche.deal", ("three, two and three",), ()),
    (BC, {"coinche_deal_packets": "3-3-2"}, "belote-coinche.deal", ("three, three and two",),
     ("three, two and three",)),
    (BT, {"coinche_deal_packets": "2-3-3"}, "belote-coinche.deal", ("two, three and three",),
     ("three, two and three",)),
    (BC, {"coinche_deal_packets": "4-4"}, "belote-coinche.deal", ("four and four",),
     ("three, two and three",)),
    # the second round (notes 2.3): any_suit with sans-atout / tout-atout
    ("belote", {"second_round_sa_ta": True, "second_round_suits": "any_suit"},
     "belote.take.second-round", ("here any_suit",), ("names a suit other",)),
    # trick duties (notes 3.2 rule 7): must_trump with each undertrump value
    ("belote", {"trump_when_partner_master": "must_trump"}, "belote.play.void",
     ("even when his partner is winning", "here required"), ()),
    ("belote", {"trump_when_partner_master": "must_trump", "undertrump": "optional"},
     "belote.play.void", ("even when his partner is winning", "here optional"), ()),
    (BC, {"trump_when_partner_master": "must_trump"}, "belote.play.void",
     ("even when his partner is winning", "here optional"), ()),
    (BT, {"trump_when_partner_master": "must_trump",
          "undertrump": "forbidden_unless_only_trumps"}, "belote.play.void",
     ("even when his partner is winning", "here forbidden_unless_only_trumps"), ()),
    # belote-rebelote (notes 5)
    ("belote", {"belote_order": "king_first"}, "belote.belote", ("king first",),
     ("either order",)),
    ("belote", {"belote_declare": "automatic"}, "belote.belote", ("without saying",),
     ("forfeits",)),
    ("belote", {"belote_declare": "automatic", "belote_order": "king_first"}, "belote.belote",
     ("without saying", "king_first"), ("forfeits",)),
    ("belote", {"belote_counts_for_contract": False}, "belote.score.hand",
     ("left out",), ()),
    ("belote", {}, "belote.score.belote-kept", ("always stays",), ()),
    ("belote", {"belote_on_failure": "goes_to_winner"}, "belote.score.belote-kept",
     ("goes to the defenders",), ("always stays",)),
    ("belote", {"belote_on_failure": "goes_to_winner"}, "belote.score.dedans",
     ("162",), ("nothing but",)),
    (BC, {"belote_on_failure": "goes_to_winner"}, "belote.score.belote-kept",
     ("goes to the defenders",), ("always stays",)),
    (BC, {"belote_on_failure": "goes_to_winner"}, "belote.score.dedans", (),
     ("nothing but",)),
    (BT, {}, "belote.score.dedans", (), ("nothing but",)),
    (BT, {"belote_on_failure": "holder_keeps"}, "belote.score.dedans", ("nothing but",), ()),
    (BT, {"belote_on_failure": "holder_keeps"}, "belote.score.belote-kept",
     ("always stays",), ("goes to the defenders",)),
    # classic dedans and capot figures (notes 6.3, 6.5)
    ("belote", {"dedans_points": 160}, "belote.score.dedans", ("160",), ("162",)),
    ("belote", {"capot_value": 250}, "belote.score.capot", ("flat 250",), ("252",)),
    ("belote", {"capot_value": 162}, "belote.score.capot", ("162",), ("252", "100 for")),
    # the auction (notes 8.2)
    (BC, {"capot_coinchable": False}, "belote-coinche.auction.capot",
     ("cannot be doubled",), ()),
    (BC, {"capot_coinchable": False}, "belote-coinche.auction.coinche", (), ("capot",)),
    (BC, {"capot_coinchable": False, "coinche_freezes": False},
     "belote-coinche.auction.coinche", (), ("capot",)),
    # the contract (notes 8.3)
    (BC, {"must_beat_defence": False}, "belote-coinche.score.contract",
     ("80 needs 82 where bid_80_needs_82 is true (here true)",), ()),
    (BT, {}, "belote-coinche.score.contract", ("no litige", "(here false)"), ()),
    (BT, {"bid_80_needs_82": True}, "belote-coinche.score.contract", ("(here true)",), ()),
    # scores (notes 8.4)
    (BC, {"coinche_score_mode": "bid_only"}, "belote-coinche.score.made", ("bid only",),
     ("their total and the bid",)),
    (BC, {"coinche_score_mode": "made_only"}, "belote-coinche.score.made",
     ("without the bid",), ("their total and the bid",)),
    (BC, {"surcoinche_multiplier": 3}, "belote-coinche.score.doubled",
     ("3 after a surcoinche",), ("4 after",)),
    (BT, {"surcoinche_multiplier": 3}, "belote-coinche.score.doubled",
     ("3 after a surcontre",), ("4 after",)),
    (BC, {"failed_base": 162}, "belote-coinche.score.doubled", ("162",), ("160",)),
    (BC, {"failed_base": 162}, "belote.score.dedans", ("162",), ("160",)),
    (BC, {"failed_base": 162}, "belote.score.capot", ("instead of 162",), ("160",)),
    (BC, {"belote_multiplied": False}, "belote-coinche.score.doubled",
     ("added after",), ("multiplied with the rest",)),
    (BT, {"belote_multiplied": True}, "belote-coinche.score.doubled",
     ("multiplied with the rest",), ("added after",)),
    (BC, {"multiplier_base": "bid_only"}, "belote-coinche.score.doubled",
     ("only the bid",), ()),
    (BC, {"multiplier_base": "bid_only", "belote_multiplied": False},
     "belote-coinche.score.doubled", ("only the bid",), ()),
    (BT, {"multiplier_base": "fixed_320_640"}, "belote-coinche.score.doubled",
     ("320",), ()),
]


@pytest.mark.parametrize(("name", "options", "rule_id", "has", "lacks"), TEXTS,
                         ids=[f"{c[0]}-{c[2]}-{'-'.join(f'{k}={v}' for k, v in c[1].items())}"
                              for c in TEXTS])
def test_rule_texts_read_right_under_the_options(name: str, options: dict[str, object],
                                                  rule_id: str, has: tuple[str, ...],
                                                  lacks: tuple[str, ...]) -> None:
    text = load_rules(name, options).info(rule_id).text
    for words in has:
        assert words in text, f"{rule_id} should say {words!r}: {text}"
    for words in lacks:
        assert words not in text, f"{rule_id} should not say {words!r}: {text}"


# ------------------------------------------------- scoring corners (nineteenth session)
# Points of the scoring the notes leave open (the second audit left them so): each is now
# an option or a rule text marked decided by this project.
DEFENDERS_CAPOT = ["8S AH TH 9D 8D 7D KH QH", "JS 9S AS TS"]  # N bids; W keeps the JS


def _text(name: str, rule_id: str, **options: object) -> str:
    rules = load_rules(name, dict(options))
    return " ".join(next(i.text for i in rules.infos if i.id == rule_id).split())


@each(("belote.score.capot", "belote-coinche.score.doubled"),
      [(n, {"defence_capot_250": v}) for n in (BC, BT) for v in (True, False)])
@pytest.mark.parametrize("name", [BC, BT])
def test_defenders_who_take_every_trick_against_a_failed_contract(name: str) -> None:
    """Notes 8.4 give 250 "on a capot" to the takers of a made doubled contract and write
    160 for a failure; the reference gave 250 to defenders taking every trick too, a
    reading no rule text marked as ours. Option ``defence_capot_250`` (new; true, the
    reference's reading, decided by this project; false: ``failed_base``)."""
    for options, want in (({}, [330, 660, 500]),
                          ({"defence_capot_250": False}, [240, 480, 410])):
        got = []
        for value, doubling in ((80, ""), (80, "coinche"), ("capot", "")):
            st = bid_deal(DEFENDERS_CAPOT, N, "S", value, doubling=doubling, options=options,
                          ruleset=name)
            finish(st, 0, 0)
            assert st.history[-1].outcome == "failed"
            got.append(gain(st)[1])
        assert got == want, options
    said = _text(name, "belote.score.capot", defence_capot_250=False)
    assert "decided by this project" in said and "160 as in any failed contract" in said
    assert "250 too where defence_capot_250 says so (here true" in _text(
        name, "belote.score.capot")
    assert load_rules(name).infos and next(
        i for i in load_rules(name).infos if i.id == "belote.score.capot").decided


@covers("belote.score.litige", ruleset=BC)
def test_a_doubled_litige_and_the_held_total_after_a_double_and_before_rounding() -> None:
    """Notes 8.3 apply the litige to equal totals of a bid but say nothing of a doubled
    one, nor of the held total after the next deal's double or rounding. As played (and
    now said, decided by this project): no bid and no double in a litige; the held total
    is added unmultiplied to the receiving line, before it is rounded."""
    st = bid_deal(SPADES, N, "S", 80, doubling="coinche")
    finish(st, 81, 4)
    assert st.history[-1].outcome == "tied" and gain(st) == [0, 80] and st.pot == 81
    st = bid_deal(SPADES, N, "S", 80, doubling="coinche")
    st.pot = 81
    finish(st, 104, 5)
    assert gain(st) == [(160 + 80) * 2 + 81 - 1, 0]  # 561 written 560, the 81 not doubled
    st = bid_deal(SPADES, N, "S", 80)
    st.pot = 81
    finish(st, 104, 5)
    assert gain(st) == [270, 60]  # 104 + 80 + 81 = 265 -> 270 (rounded apart: 180 + 80)
    said = _text(BC, "belote.score.litige")
    assert "neither the bid nor the double counts" in said
    assert "after that deal's double and before rounding" in said
    assert "decided by this project" in said


@covers("belote.score.litige", ruleset="belote", options={"rounding": "nearest10_5up"})
def test_the_held_total_is_rounded_with_the_receiving_line() -> None:
    """Classic Belote with ``rounding`` (notes 6.4, 6.6): the held 81 joins the takers'
    line of the next deal before rounding (decided by this project, now said)."""
    st = deal8(SPADES, N, "JS", options={"rounding": "nearest10_5up"})
    st.pot = 81
    finish(st, 104, 5)
    assert gain(st) == [190, 60]  # 104 + 81 = 185 -> 190; 58 -> 60
    said = _text("belote", "belote.score.litige")
    assert "before that line is rounded" in said and "decided by this project" in said


@each(("belote-coinche.score.made", "belote-coinche.score.doubled"),
      [(n, {"coinche_score_mode": v}) for n in (BC, BT) for v in ("bid_only", "made_only")])
@pytest.mark.parametrize("mode", ["bid_only", "made_only"])
def test_the_score_mode_changes_only_an_undoubled_contract_made(mode: str) -> None:
    """Notes 8.4 name ``coinche_score_mode`` (only the bid, or only the total, written)
    without saying what becomes of the defenders' line or of a failed or doubled
    contract: the reference leaves both as under ``made_plus_bid``, now said (decided by
    this project)."""
    opts = {"coinche_score_mode": mode}
    st = bid_deal(SPADES, N, "S", 100, options=opts)
    finish(st, 104, 5)
    assert gain(st) == [{"bid_only": 100, "made_only": 100}[mode], 60]  # 104 -> 100
    st = bid_deal(SPADES, N, "S", 100, options=opts)
    finish(st, 90, 4)
    assert gain(st) == [0, 160 + 100]
    st = bid_deal(SPADES, N, "S", 100, doubling="coinche", options=opts)
    finish(st, 104, 5)
    assert gain(st) == [(160 + 100) * 2, 0]
    said = _text(BC, "belote-coinche.score.made", coinche_score_mode=mode)
    assert "Only this line changes" in said and "decided by this project" in said
