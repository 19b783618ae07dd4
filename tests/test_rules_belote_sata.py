"""Sans-atout and tout-atout contracts (notes sections 3.4, 5 and 8.6): options ``sa_ta``,
``ta_values`` and ``ta_must_beat_partner`` of the auction presets, and
``second_round_sa_ta`` of classic Belote.

Seats N W S E = 0 1 2 3, E deals, N is eldest and bids (see ``test_rules_belote``).
"""

from __future__ import annotations

from typing import Any

import pytest
from mariage import Phase
from mariage.arena.bots import GreedyBot
from mariage.conformance.protocol import state_json
from mariage.engine.actions import SuitBid
from rulekit import covers, legal_texts, play, refused, start
from test_rules_belote import E, N, bid_deal, deal8
from test_rules_belote_presets import each

BC, BT = "belote-coinche", "belote-contree"
ON = {"sa_ta": True}

# N bids; a heart trick shows the duty to beat over a partner, a spade trick a void seat
HEARTS = ["9H 7C 8C 9C TC JC QC KC", "8H 7D 8D 9D TD JD QD KD",
          "JH 7H AH AS KS QS JS TS", "TH KH QH AD AC 9S 8S 7S"]


def contract(name: str, options: dict[str, Any] | None = None, ruleset: str = BC,
             hands: list[str | None] | None = None):  # type: ignore[no-untyped-def]
    return bid_deal(hands or HEARTS, N, name, options={**ON, **(options or {})},
                    ruleset=ruleset)


def cards_of(texts: list[str]) -> set[str]:
    return {t for t in texts if len(t) == 2}


# ----------------------------------------------------------------- the bids
@covers("belote-coinche.auction.bids", "belote.pack.sans-atout", "belote.pack.tout-atout",
        ruleset=BC, options=ON)
@pytest.mark.parametrize("name", [BC, BT])
def test_sa_ta_bids_are_offered_only_with_the_option(name: str) -> None:
    off = start(name, HEARTS, dealer=E)
    assert "bid:80:SA" not in legal_texts(off) and "bid:80:S" in legal_texts(off)
    refused(off, "bid:80:SA", "belote-coinche.auction.bids")
    st = start(name, HEARTS, dealer=E, options=ON)
    texts = legal_texts(st)
    assert texts[1:7] == ["bid:80:H", "bid:80:D", "bid:80:C", "bid:80:S", "bid:80:SA",
                          "bid:80:TA"]
    play(st, "bid:90:SA pass bid:100:TA pass pass pass")
    assert st.phase == Phase.PLAY and st.trump == -1 and st.contract == 100
    assert state_json(st)["trump"] == "TA" and st.declarer == 2


# ----------------------------------------------------------------- sans-atout
@covers("belote.pack.sans-atout", ruleset=BC, options=ON)
@covers("belote.pack.sans-atout", ruleset=BT, options=ON)
@pytest.mark.parametrize("name", [BC, BT])
def test_sans_atout_plain_order_no_duty_to_beat_no_cutting_aces_19(name: str) -> None:
    st = contract("SA", ruleset=name)
    assert state_json(st)["trump"] == "SA"
    assert sum(st._points) == 152 and st._points[st.rules.card("AS")] == 19
    play(st, "9H 8H")
    assert cards_of(legal_texts(st)) == {"JH", "7H", "AH"}  # no duty to beat
    play(st, "AH KH")
    assert st.tricks[-1][2] == 2  # the ace of hearts, highest in plain order
    assert st.captured == [19 + 4, 0]  # ace 19, king 4, nine and eight 0
    play(st, "AS 9S")
    assert cards_of(legal_texts(st)) == set(st.rules.format_cards(st.hands[N]).split())
    assert not any(t.startswith("belote:") for t in legal_texts(st))  # no belote at all


@covers("belote.pack.sans-atout", "belote.announce.carre", "belote.announce.compare",
        ruleset=BC, options=ON)
@pytest.mark.parametrize(("name", "ns", "ew"), [("SA", 200, 0), ("S", 0, 200)])
def test_sans_atout_carres_aces_200_over_jacks_100(name: str, ns: int, ew: int) -> None:
    hands: list[str | None] = ["AH AD AC AS 7H 8H 9H TH", "KH KD KC KS QH QD QC QS",
                               "7D 8D 9D TD 7C 8C 9C TC", "JH JD JC JS 7S 8S 9S TS"]
    st = contract(name, hands=hands)
    play(st, "carre:A 7H QH 7D carre:J JH")
    assert st.mech.announcements.points(st) == [ns, ew]


# ----------------------------------------------------------------- tout-atout
@covers("belote.pack.tout-atout", "belote.play.tout-atout", ruleset=BC, options=ON)
@covers("belote.pack.tout-atout", "belote.play.tout-atout", ruleset=BT, options=ON)
@pytest.mark.parametrize("name", [BC, BT])
def test_tout_atout_beat_the_best_card_even_over_the_partner(name: str) -> None:
    st = contract("TA", ruleset=name)
    play(st, "9H 8H")
    assert cards_of(legal_texts(st)) == {"JH"}  # N (partner) wins with the nine
    refused(st, "AH", "belote.play.tout-atout")
    play(st, "JH KH AS")
    assert cards_of(legal_texts(st)) == {"9S"}  # E beats the ace with the nine
    play(st, "9S")
    assert cards_of(legal_texts(st)) == set(st.rules.format_cards(st.hands[N]).split())


@covers("belote.play.tout-atout", ruleset=BC, options={**ON, "ta_must_beat_partner": False})
@covers("belote.play.tout-atout", ruleset=BT, options={**ON, "ta_must_beat_partner": False})
@pytest.mark.parametrize("name", [BC, BT])
def test_ta_must_beat_partner_false(name: str) -> None:
    st = contract("TA", {"ta_must_beat_partner": False}, ruleset=name)
    play(st, "9H 8H")
    assert cards_of(legal_texts(st)) == {"JH", "7H", "AH"}
    play(st, "7H KH")  # E's king does not beat N's nine
    assert st.tricks[-1][2] == N
    play(st, "7C 7D AS AC 9S 8C 8D")  # E wins with the ace of clubs, leads the nine
    assert cards_of(legal_texts(st)) == {"JS"}  # an opponent wins: S must still beat


@each(("belote.pack.tout-atout",), [(n, {**ON, "ta_values": v}) for n in (BC, BT)
                                    for v in ("ffb2015", "pagat", "convert_162_258")])
@pytest.mark.parametrize("name", [BC, BT])
@pytest.mark.parametrize(("values", "jack", "queen", "trick"),
                         [("ffb2015", 13, 2, 9 + 13 + 3), ("pagat", 14, 1, 9 + 14 + 3),
                          ("convert_162_258", 20, 3, 14 + 20 + 4)])
def test_ta_values(name: str, values: str, jack: int, queen: int, trick: int) -> None:
    st = contract("TA", {"ta_values": values}, ruleset=name)
    r = st.rules
    assert st._points[r.card("JC")] == jack and st._points[r.card("QD")] == queen
    assert sum(st._points) == (248 if values == "convert_162_258" else 152)
    play(st, "9H 8H JH KH")
    assert st.captured == [trick, 0]


@covers("belote.pack.tout-atout", ruleset=BC, options={**ON, "ta_values": "convert_162_258"})
@pytest.mark.parametrize(("raw", "scaled"), [((129, 129), [81, 81]), ((100, 158), [63, 99]),
                                             ((258, 0), [162, 0])])
def test_ta_values_convert_scales_each_side_to_162(raw: tuple[int, int],
                                                   scaled: list[int]) -> None:
    st = contract("TA", {"ta_values": "convert_162_258"})
    st.captured[:] = raw
    assert st.mech.takers.totals(st)[0] == scaled
    plain = contract("TA")
    plain.captured[:] = raw
    assert plain.mech.takers.totals(plain)[0] == list(raw)


@covers("belote.pack.tout-atout", "belote.belote", ruleset=BC, options=ON)
def test_tout_atout_a_belote_in_every_suit() -> None:
    st = contract("TA")
    assert {"belote:KC", "belote:QC"} <= set(legal_texts(st))
    play(st, "belote:QC 7D 7H AC")  # E must beat the queen with the ace
    assert st.tricks[-1][2] == E
    play(st, "belote:KH")
    assert state_json(st)["takers"]["pairs"] == [[N, "C"], [E, "H"]]
    assert st.mech.takers.totals(st)[2] == [20, 20]
    sa = contract("SA")
    assert not any(t.startswith("belote:") for t in legal_texts(sa))


# ----------------------------------------------------------------- classic second round
@covers("belote.take.second-round", "belote.pack.tout-atout", ruleset="belote",
        options={"second_round_sa_ta": True})
@pytest.mark.parametrize("name", ["SA", "TA"])
def test_second_round_sa_ta(name: str) -> None:
    hands: list[str | None] = ["JS 9S AS AH TH 9D 8D 7D", None, None, None]
    st = deal8(hands, N, "JS", named=name, options={"second_round_sa_ta": True})
    assert st.trump == -1 and state_json(st)["trump"] == name and st.declarer == N
    with pytest.raises(AssertionError):
        deal8(hands, N, "JS", named=name)  # not offered without the option


@covers("belote.take.second-round", ruleset="belote")
def test_second_round_sa_ta_off_refuses_the_contracts() -> None:
    st = start("belote", dealer=E, turn_up="7S")
    play(st, "pass pass pass pass")
    assert not any(t.endswith((":SA", ":TA")) for t in legal_texts(st))
    refused(st, "take:SA", "belote.take.second-round")


# ----------------------------------------------------------------- bots
@pytest.mark.parametrize("name", [BC, BT])
def test_greedy_bots_bid_sans_atout_with_four_aces_and_tout_atout_with_jacks(name: str) -> None:
    aces = start(name, ["AH AD AC AS TH TD KC QS", None, None, None], dealer=E, options=ON)
    bid = GreedyBot().choose(aces)
    assert isinstance(bid, SuitBid) and aces.rules.strain_names[bid.suit - 4] == "SA"
    jacks = start(name, ["JH JD JC JS 9H 9D AC AS", None, None, None], dealer=E, options=ON)
    bid = GreedyBot().choose(jacks)
    assert isinstance(bid, SuitBid) and jacks.rules.strain_names[bid.suit - 4] == "TA"
    off = start(name, ["AH AD AC AS TH TD KC QS", None, None, None], dealer=E)
    bid = GreedyBot().choose(off)
    assert not isinstance(bid, SuitBid) or bid.suit < 4
