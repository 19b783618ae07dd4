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
