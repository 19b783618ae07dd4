"""Audit 41c: the summaries and aims of the Marianna family, Mariglia, Mariaggia,
Mariazza and Marjapussi give the match and hand targets in force, not the defaults.

RULES-NOTES.md makes every target an option (Marianna "targets 300, 400, 500";
Cinquecento "Target 500"; Mariglia "Target agreed beforehand: default 35 ... option
for other values"; Mariaggia "Target 250"; Mariazza "41 by default; 71 also seen",
"4 by default; 2 also seen"; Marjapussi "First team to 10"). The reference plays the
option value, so the rulebook must say it everywhere, the summary and aim included.
"""

from __future__ import annotations

import pytest
from mariage.rulebook.render import rulebook
from rulekit import rules_of

CASES = [
    ("marianna", {"target": 300}, "501"),
    ("marianna-2", {"target": 300}, "501"),
    ("marianna-3", {"target": 300}, "501"),
    ("marianna-siciliana", {"target": 300}, "501"),
    ("cinquecento", {"target": 300}, "500"),
    ("cinquecento-siciliana", {"target": 300}, "500"),
    ("mariglia", {"target": 21}, "35"),
    ("mariaggia", {"target": 300}, "250"),
    ("mariazza", {"target": 71}, "41"),
    ("mariazza", {"hands": 2}, "four"),
    ("marjapussi", {"target": 12}, "10"),
]


@pytest.mark.parametrize(("ruleset", "options", "default"), CASES)
def test_summary_and_aim_follow_the_target_option(
        ruleset: str, options: dict[str, int], default: str) -> None:
    rules = rules_of(ruleset, **options)
    book = rulebook(rules)
    said = f"{book.summary} {book.aim}"
    assert f" {default} " not in f" {said.replace(';', ' ').replace('.', ' ')} ", said
    assert "{" not in said, said
    value = str(next(iter(options.values())))
    assert value in said, said


def test_marjapussi_must_beat_overview_names_the_best_card_of_the_suit_led() -> None:
    """Notes, Marjapussi seed options: must-beat - when following suit, play higher if you
    can. The reference (marjapussi.play.beat) makes a follower head the best card of the
    suit led even once a trump is winning; the overview said only 'beat the winning
    card', which a reader takes to lapse once the trick is trumped."""
    from mariage.rulebook.render import facts
    from rulekit import legal_texts, play
    from test_rules_marjapussi import PLAYS, _deal
    state = _deal(PLAYS, {"must_beat": True})
    play(state, "AH 7H 9H 6H marriage:H 9C TC 8H")  # hearts trump; S trumps the clubs
    assert legal_texts(state) == ["AC"]  # W must still beat the ten of clubs
    duty = dict(facts(rules_of("marjapussi", must_beat=True)))["Duty to follow"]
    assert "best card of the suit led" in duty, duty


@pytest.mark.parametrize(("ruleset", "options", "claim"), [
    # notes, Mariaggia: the last five's duties are an option, "none" among them
    ("mariaggia", {"last_five": "none"}, "with stricter play in the last five"),
    # notes, Mariaggia: "Options: 40 when the pair is trump"
    ("mariaggia", {"accusa_trump_40": True}, "(an accusa) scores 20."),
    # notes, Mariazza: "Worth 20, or 40 in the trump suit" (trump_mariazza_40 = false: 20)
    ("mariazza", {"trump_mariazza_40": False}, "scores 20, or 40 in trump."),
])
def test_summary_makes_no_claim_an_option_in_force_contradicts(
        ruleset: str, options: dict[str, object], claim: str) -> None:
    said = " ".join(rulebook(rules_of(ruleset, **options)).summary.split())
    assert claim not in said, said


def test_marjapussi_merged_majority_is_not_listed_as_a_separate_item() -> None:
    """Notes, Marjapussi: 'The fourth item overlaps the first; keep it literal and make it
    an option.' With majority_point=merged the reference scores no separate majority
    point (a side with 75+ and more card points scores 1, not 2); the overview, the
    hand-scoring rule and the summary still listed 'the majority' as a table item."""
    from mariage.rulebook.render import facts
    rules = rules_of("marjapussi", majority_point="merged")
    assert rules.table_majority_mode == "merged"  # test_majority_point_merged_option plays it
    line = dict(facts(rules))["Hand scoring"]
    assert "majority" not in line, line
    book = rulebook(rules)
    hand = next(i for s in book.sections for i in s.rules if i.info.id == "marjapussi.score.hand")
    assert "and the majority" not in hand.info.text, hand.info.text
    assert "the last trick and the majority." not in " ".join(book.summary.split())
