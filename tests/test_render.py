"""The rulebook model and its text rendering (``mariage rules``)."""

from __future__ import annotations

import pytest
from mariage import list_rulesets, load_rules
from mariage.cli import main
from mariage.rulebook.render import comparison, facts, render_text, rulebook

RULESETS = list_rulesets()


@pytest.mark.parametrize("name", RULESETS)
def test_every_rule_and_option_is_in_the_rulebook(name: str) -> None:
    rules = load_rules(name)
    book = rulebook(rules)
    shown = [item.info.id for s in book.sections for item in s.rules]
    assert sorted(shown) == sorted(rules.rule_ids)
    assert [row[0] for row in book.options.rows] == [k for k, _ in rules.defaults]
    text = render_text(rules)
    for rid in rules.rule_ids:
        assert f"[{rid}]" in text
    for opt, _ in rules.defaults:
        assert f"  {opt} = " in text


def test_cli_prints_the_same_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "mariglia", "-o", "target=21"]) == 0
    assert capsys.readouterr().out == render_text(load_rules("mariglia", {"target": "21"}),
                                                  "mariglia")


def test_cli_refuses_a_bad_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "marianna", "-o", "colour=red"]) == 2
    assert "colour" in capsys.readouterr().err


def test_decided_points_say_so_and_name_their_option() -> None:
    items = {i.info.id: i for s in rulebook(load_rules("mariaggia")).sections for i in s.rules}
    beat = items["mariaggia.play.last-five.beat"]
    assert "decided by this project" in beat.status
    assert "option last_five, default follow+beat+trump" in beat.status
    assert ("last_five = follow", "not in force") in beat.variants


def test_option_values_reword_rules_both_ways() -> None:
    default = {i.info.id: i for s in rulebook(load_rules("marianna")).sections for i in s.rules}
    value = default["marianna.decl.value"]
    assert "first 40" in value.info.text
    assert any(label == "marianna_values = 20-40-60-80" and "first 20" in reads
               for label, reads in value.variants)
    other = load_rules("marianna", {"marianna_values": "20-40-60-80"})
    items = {i.info.id: i for s in rulebook(other).sections for i in s.rules}
    value = items["marianna.decl.value"]
    assert "first 20" in value.info.text
    assert "option marianna_values = 20-40-60-80, default 40-60-80-100" in value.status
    assert any("first 40" in reads for _, reads in value.variants)


def test_rules_switched_off_with_their_parent_are_not_in_force() -> None:
    items = {i.info.id: i for s in rulebook(load_rules("cinquecento")).sections for i in s.rules}
    for rid in ("marianna.decl.mariannino", "marianna.decl.mariannino.value"):
        assert not items[rid].in_force
        assert ("mariannino = true", "in force") in items[rid].variants
    assert items["cinquecento.decl.value"].in_force
    text = render_text(load_rules("cinquecento"))
    assert "[marianna.decl.mariannino.value] (not in force" in text


def test_cards_table_and_facts() -> None:
    rules = load_rules("mariglia")
    book = rulebook(rules)
    cards = next(s for s in book.sections if s.key == "cards").tables[0]
    assert cards.rows[0] == ("1", "7", "seven", "5")
    assert sum(int(r[3]) for r in cards.rows) * 4 == 60
    got = dict(facts(rules))
    assert got["Tricks per hand"] == "10"
    assert got["Trump"].startswith("the suit of the dealer's last card")
    assert "beat an opponent's winning card" in got["Duty to follow"]


def test_the_cards_section_counts_a_suit_short_of_a_card() -> None:
    """Marianna for three takes the two of spades out (notes ¶12): the rulebook said
    "39 cards, 10 in each suit"."""
    text = render_text(load_rules("marianna-3"))
    assert "39 cards, 10 in hearts, diamonds and clubs, 9 in spades (" in " ".join(text.split())
    assert "40 cards, 10 in each suit (" in render_text(load_rules("marianna"))


def test_pack_option_changes_the_cards_table() -> None:
    rules = load_rules("marjapussi", {"pack_size": "28"})
    cards = next(s for s in rulebook(rules).sections if s.key == "cards").tables[0]
    assert [r[1] for r in cards.rows] == ["A", "T", "K", "Q", "J", "9", "8"]
    assert dict(facts(rules))["Hand"] == "7 cards each"


def test_comparison_has_a_column_per_ruleset() -> None:
    rulesets = [load_rules(n) for n in RULESETS]
    table = comparison(rulesets)
    assert table.header[1:] == tuple(r.name for r in rulesets)
    assert all(len(row) == len(rulesets) + 1 for row in table.rows)
    players = next(row for row in table.rows if row[0] == "Players")
    assert players[1 + RULESETS.index("mariaggia")] == "2, each playing alone"


#: decided points with nothing a player could choose instead (so no option), and why
NOTHING_TO_CHOOSE = {
    "marianna.decl.once": "the notes: each suit's marianna once follows from the cards",
    "marianna.decl.mariannone.trump": "the mariannone ends the match: no card is played after",
    "mariazza.match.tie": "segni come one at a time: the match cannot end level",
    "marjapussi.decl.once": "the same pair declared again for more points is no reading",
    "marianna-3.pack": "twos count nothing: which two leaves changes only the cards dealt",
    "schnapsen.match.tie": "only one player scores in a hand: the match cannot end level",
    "schnapsen.decl.once": "one king and one queen per suit: a second marriage cannot exist",
    "sixty-six-3.lead.first": "the only source names the player on the dealer's left; no "
                              "other first leader is played",
    "sixty-six-3.match.tie": "only the winner of a hand can reach the target in it: the "
                             "match cannot end level",
    "marjapussi-de.match.tie": "no source plays on after the last hand of a session; level "
                               "totals are a draw",
    "thousand.throw-in": "the notes: a redeal is a claim of the entitled player; no source "
                         "throws a hand in by itself",
    "thousand.match.tie": "kurnik's order (declarer, then the higher total, then a draw) is "
                          "the only one described",
    "thousand.running": "the notes fix the end-of-hand order for every implementation",
    "mariglia.match.tie": "only one team scores in a hand and the turn-up bonus ends the "
                          "match at once: no match can end level (its tie option was "
                          "removed, #22)",
}


@pytest.mark.parametrize("name", list_rulesets())
def test_every_decided_point_is_shown_with_its_option(name: str) -> None:
    rules = load_rules(name)
    text = render_text(rules)
    for info in rules.infos:
        if not info.decided or info.id in NOTHING_TO_CHOOSE:
            continue
        assert info.option, f"{name}: decided point {info.id} has no option"
        spec = dict(rules.defaults)
        assert info.option in spec, (info.id, info.option)
        head = next(line for line in text.splitlines() if line.startswith(f"[{info.id}]"))
        assert "decided by this project" in head and f"option {info.option}" in head, head


def test_the_duty_to_beat_names_the_suits_it_binds_in() -> None:
    """Belote's duty to beat binds only on a trump lead (``head_suits: trump``); the
    overview said "beat the winning card when following", as if in every suit
    (found by the Node.js Belote engine written from the docs)."""
    belote = dict(facts(load_rules("belote")))["Duty to follow"]
    assert "beat the winning card when following a trump lead" in belote
    mariglia = dict(facts(load_rules("mariglia")))["Duty to follow"]
    assert "trump lead" not in mariglia


def test_a_rule_put_out_of_force_says_what_happens_instead() -> None:
    # raise_allowed=false: the contract phase is gone, and the rulebook says so (it said
    # only "not in force"); a rule merely reworded by another value's effects does not
    items = {i.info.id: i for s in rulebook(load_rules("thousand")).sections for i in s.rules}
    raise_ = dict(items["thousand.contract.raise"].variants)
    assert raise_["raise_allowed = false"].startswith("not in force: There is no raise: the "
                                                      "winning bid is the contract.")
    concede = dict(items["thousand.contract.concede"].variants)
    assert concede["concede = off"] == "not in force"
