"""Conditional defaults (``default_when``): an option's default that depends on the values
of other options, used only where the option is not given."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mariage import load_rules
from mariage.commands.list_cmd import as_json
from mariage.conformance.configuration import effective_options, make_configuration
from mariage.conformance.regen import option_variants
from mariage.notation.recorder import header_tags
from mariage.rulebook.render import render_text, rulebook
from mariage.spec.compile import check_document
from mariage.spec.options import default_text, given_only, resolution_order, resolve
from mariage.spec.specload import load_document

# target depends on trick_six, which is declared after it and depends on tie (declared
# last): the values are settled in dependency order, not in the order of declaration.
CHAINED = """\
format: 1
extends: marianna
ruleset: marianna-chained
options:
  target:
    default_when:
      - when: {trick_six: true}
        value: 301
      - when: {tie: draw}
        value: 401
  trick_six:
    default_when:
      - when: {tie: draw}
        value: true
"""


@pytest.fixture
def chained(tmp_path: Path) -> Path:
    path = tmp_path / "marianna-chained.yaml"
    path.write_text(CHAINED, encoding="utf-8")
    return path


def _values(path: Path, options: dict[str, Any]) -> dict[str, Any]:
    return dict(load_rules(path, options).options)


def test_a_conditional_default_follows_the_options_it_names() -> None:
    doc = load_document("thousand-pl")
    assert resolve(doc)[1]["concede_award"] == 60
    assert resolve(doc, {"players": 3})[1]["concede_award"] == 60
    assert resolve(doc, {"players": 2})[1]["concede_award"] == 60
    data, values = resolve(doc, {"players": "4"})  # as from a command line
    assert values["concede_award"] == 40
    assert data["contract"]["concede"]["award"] == 40


def test_a_value_given_always_wins_over_a_conditional_default() -> None:
    doc = load_document("thousand-pl")
    for award in (60, 0, 40):
        data, values = resolve(doc, {"players": 4, "concede_award": award})
        assert values["concede_award"] == award
        assert data["contract"]["concede"]["award"] == award
    assert resolve(doc, {"concede_award": 40})[1]["concede_award"] == 40


def test_the_parent_keeps_its_plain_default() -> None:
    assert resolve(load_document("thousand"), {"players": 4})[1]["concede_award"] == 60


def test_values_are_settled_after_the_options_they_depend_on(chained: Path) -> None:
    doc = load_document(chained)
    check_document(doc)
    order = resolution_order(doc)
    assert order.index("tie") < order.index("trick_six") < order.index("target")
    assert list(resolve(doc)[1]) == list(doc.data["options"])  # shown in declaration order
    assert _values(chained, {})["target"] == 501
    assert _values(chained, {})["trick_six"] is False
    both = _values(chained, {"tie": "draw"})
    assert both["trick_six"] is True and both["target"] == 301  # the first case that holds
    assert _values(chained, {"tie": "draw", "trick_six": False})["target"] == 401
    assert _values(chained, {"trick_six": "true"})["target"] == 301
    assert _values(chained, {"tie": "draw", "target": 501})["target"] == 501
    assert load_rules(chained, {"tie": "draw"}).document["match"]["end"]["target"] == 301


def test_the_defaults_in_force_follow_the_other_values() -> None:
    four = load_rules("thousand-pl", {"players": 4})
    assert dict(four.defaults)["concede_award"] == 40
    assert dict(load_rules("thousand-pl").defaults)["concede_award"] == 60
    doc = load_document("thousand-pl")
    assert given_only(doc, {"players": 4, "concede_award": 40}) == {"players": 4}
    assert given_only(doc, {"players": 4, "concede_award": 60}) == {"players": 4,
                                                                      "concede_award": 60}
    assert given_only(doc, {"concede_award": 60}) == {}
    assert effective_options("thousand-pl", {"players": 4})["concede_award"] == 40
    assert effective_options("thousand-pl", {})["concede_award"] == 60


def test_a_configuration_keeps_a_value_that_is_not_the_default_in_force() -> None:
    config = make_configuration("thousand-pl", ["players=4", "concede_award=60"])
    assert config.options == {"players": 4, "concede_award": 60}
    assert make_configuration("thousand-pl", ["players=4", "concede_award=40"]).options == \
        {"players": 4}


def test_a_record_header_names_only_values_that_differ_from_the_default_in_force() -> None:
    def named(options: dict[str, Any]) -> dict[str, str]:
        tags = header_tags(load_rules("thousand-pl", options), 0)
        return {t.values[0]: t.values[1] for t in tags if t.name == "Option"}

    assert named({"players": 4, "concede_award": 40}) == {"players": "4"}
    assert named({"players": 4, "concede_award": 60}) == {"players": "4", "concede_award": "60"}
    assert named({"concede_award": 40}) == {"concede_award": "40"}


def test_the_rulebook_prints_the_conditional_default() -> None:
    spec = load_document("thousand-pl").data["options"]["concede_award"]
    assert default_text(spec) == "60 (40 with players=4)"
    book = rulebook(load_rules("thousand-pl", {"players": 4}))
    row = next(r for r in book.options.rows if r[0] == "concede_award")
    assert row[2:4] == ("60 (40 with players=4)", "40")
    text = render_text(load_rules("thousand-pl", {"players": 4}))
    assert "concede_award = 40\n" in text  # the default in force: not marked
    assert "default 60 (40 with players=4)." in " ".join(text.split())
    marked = render_text(load_rules("thousand-pl", {"players": 4, "concede_award": 60}))
    assert "concede_award = 60   (not the default)" in marked
    parent = rulebook(load_rules("thousand"))  # notes 6: a bomb's 40 at four
    assert next(r for r in parent.options.rows if r[0] == "concede_award")[2] == \
        "60 (40 with players=4, concede=bomb)"


def test_mariage_list_shows_the_conditional_default() -> None:
    entry = next(e for e in as_json(False) if e["name"] == "thousand-pl")
    option = next(o for o in entry["options"] if o["name"] == "concede_award")
    assert option["default"] == 60
    assert option["default_when"] == [{"when": {"players": 4}, "value": 40}]


def test_option_variants_differ_from_the_default_in_force(tmp_path: Path) -> None:
    path = tmp_path / "marianna-six.yaml"
    path.write_text("format: 1\nextends: marianna\nruleset: marianna-six\noptions:\n"
                    "  trick_six:\n    default_when:\n      - when: {tie: play_on}\n"
                    "        value: true\n", encoding="utf-8")
    check_document(load_document(path))
    assert dict(load_rules(path).options)["trick_six"] is True
    variants = dict(option_variants(str(path)))
    assert variants["trick_six-false"] == {"trick_six": False}
    assert "trick_six-true" not in variants
