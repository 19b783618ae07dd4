"""The forty-first rules audit of Belote against its notes (RULES-NOTES-belote.md): the
points the notes mark "(decided)" are said to be decided by this project in the rulebook
(``mariage rules``), as the others are. Each case failed before the audit's change; the
notes' section is named in each.
"""

from __future__ import annotations

from typing import Any

import pytest
from mariage import load_rules


@pytest.mark.parametrize(("ruleset", "rule_id", "options", "words"), [
    # notes 4.5: "Engine: false announcements are not legal actions. (decided)"
    ("belote", "belote.announce", {}, "a combination he does not hold"),
    ("belote", "belote.announce", {"card_in_two_combinations": True},
     "a combination he does not hold"),
    ("belote-coinche", "belote.announce", {}, "a combination he does not hold"),
    # notes 5: the belote's cards in an announced sequence ("the overlap is decided")
    ("belote", "belote.belote", {}, "may also be in an announced run"),
    ("belote", "belote.belote", {"belote_order": "king_first"}, "may also be in an announced"),
    ("belote", "belote.belote", {"belote_declare": "automatic"}, "may also be in an announced"),
    # notes 5 and 8.4 send the takers' belote to the defenders when they fail (contree);
    # that the defenders' own goes to the takers of a doubled contract made is ours
    ("belote-contree", "belote.score.belote-kept", {}, "the defenders' own goes to the takers"),
    ("belote-coinche", "belote.score.belote-kept", {"belote_on_failure": "goes_to_winner"},
     "the defenders' own goes to the takers"),
])
def test_points_the_notes_leave_to_us_are_said_to_be_decided(ruleset: str, rule_id: str,
                                                             options: dict[str, Any],
                                                             words: str) -> None:
    rules = load_rules(ruleset, options)
    info = next(i for i in rules.infos if i.id == rule_id)
    said = " ".join(info.text.split())
    assert words in said, said
    after = said[said.index(words):]
    assert "decided by this project" in after[:len(words) + 160], (rule_id, options, said)


@pytest.mark.parametrize("rule", ["litige", "tie_fails", "tie_makes"])
def test_coinche_equal_totals_short_of_the_bid_fail_and_the_rulebook_says_so(rule: str) -> None:
    """Notes 8.3: the takers' total "must reach the bid value"; must_beat_defence adds a
    condition, and only for it do "equal totals" go to the dedans_rule. At 81-81 on a bid
    of 90 the reference fails the takers (no litige, no tie_makes), but its rulebook said
    "equal totals are judged by the rule on them" (coinche), and with tie_makes "with
    equal totals the takers make their contract", which an implementer could apply."""
    from test_rules_belote import SPADES, N, bid_deal, finish, gain
    st = bid_deal(SPADES, N, "S", 90, options={"dedans_rule": rule})
    finish(st, 81, 4)
    assert st.history[-1].outcome == "failed" and gain(st) == [0, 250] and st.pot == 0
    st = bid_deal(SPADES, N, "S", 80, options={"dedans_rule": rule})
    finish(st, 81, 4)  # the bid reached: equal totals go to the rule on them
    assert st.history[-1].outcome == {"litige": "tied", "tie_fails": "failed",
                                      "tie_makes": "made"}[rule]
    rules = load_rules("belote-coinche", {"dedans_rule": rule})
    texts = {i.id: " ".join(i.text.split()) for i in rules.infos}
    assert "short of the bid" in texts["belote-coinche.score.contract"]
    if rule != "tie_fails":  # (tie_fails: equal totals fail, the bid reached or not)
        assert "reach the bid" in texts["belote.score.litige"], texts["belote.score.litige"]


@pytest.mark.parametrize(("ruleset", "target"), [("belote", 1000), ("belote-coinche", 2000),
                                                 ("belote-contree", 2000)])
def test_the_rulebook_counts_152_in_the_pack_and_names_the_target(ruleset: str,
                                                                  target: int) -> None:
    """Notes 0: "trump suit 62, each plain suit 30, pack 152; with dix de der 162", and
    the target (7.1, 8.5: 1000, 2000 in the auction presets). The rulebook printed
    "Card points: 120 in the pack, plus 10 for the last trick" and "the pack holds 120
    card points" (the plain values only), and its summary and aim "the first team to
    {target} points wins" with the placeholder left in."""
    from mariage.commands.rules_cmd import rulebook_output
    book = rulebook_output(ruleset, {})
    points = next(line for line in book.splitlines() if line.strip().startswith("Card points"))
    assert "152 in the pack" in points and "10 for the last trick" in points, points
    assert "holds 152 card points" in " ".join(book.split())
    assert "{target}" not in book
    assert f"first team to {target} points wins" in " ".join(book.split())
    other = rulebook_output(ruleset, {"target": 1500})
    assert "first team to 1500 points wins" in " ".join(other.split())


@pytest.mark.parametrize(("ruleset", "beat", "announces"), [
    ("belote", True, True), ("belote-coinche", True, True), ("belote-contree", False, False)])
def test_the_overview_states_what_the_takers_need_and_counts_the_belote(
        ruleset: str, beat: bool, announces: bool) -> None:
    """Notes 2.6, 6.2 (classic: more than the defenders), 8.3 (the auction presets: the
    bid, and in coinche more than the defenders too; contree: the bid only, no
    announcements) and 5 (the belote, counted even without announcements). The overview
    said of contree that "the takers need more than the defenders" and scored
    announcements, of both presets nothing of the bid, and left the belote out of the
    declarations."""
    from mariage.rulebook.render import facts
    seen = dict(facts(load_rules(ruleset)))
    scoring = seen["Hand scoring"]
    assert ("more than the defenders" in scoring) is beat, scoring
    assert ("bid" in scoring) is (ruleset != "belote"), scoring
    assert ("announcement" in scoring) is announces, scoring
    assert "belote" in seen["Declarations"], seen["Declarations"]
