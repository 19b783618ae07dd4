"""The spec language: bundled rulesets, option typing, ``extends:`` merging, rule metadata.

Bad descriptions are in ``test_spec_errors.py``; the per-rule behaviour is in
the ``test_rules_*.py`` files.
"""

from __future__ import annotations

import dataclasses
import textwrap
from pathlib import Path
from typing import Any

import pytest
from families import by_family
from mariage import OptionError, load_rules, new_match
from mariage.engine.rules import Rules
from mariage.errors import SpecError
from mariage.resources import spec_dir
from mariage.spec.compile import build, check_document, parse_option_value
from mariage.spec.options import playable
from mariage.spec.specload import load_document, read_yaml
from propkit import RULESETS, document, int_choices, option_grid, rules_for

BRISCOLA = (("A", 11), ("3", 10), ("K", 4), ("Q", 3), ("J", 2), ("7", 0), ("6", 0),
            ("5", 0), ("4", 0), ("2", 0))
# ruleset: (seats, hand size, stock, ranks high to low with points, match target)
FACTS: dict[str, tuple[int, int, int, tuple[tuple[str, int], ...], int]] = {
    "marianna": (4, 5, 20, BRISCOLA, 501),
    "marianna-siciliana": (4, 5, 20, BRISCOLA, 501),
    "marianna-2": (2, 5, 30, BRISCOLA, 501),
    "marianna-3": (3, 5, 24, BRISCOLA, 501),  # the two of spades is out: 39 cards
    "cinquecento": (4, 5, 20, BRISCOLA, 500),
    "cinquecento-siciliana": (4, 5, 20, BRISCOLA, 500),
    "mariaggia": (2, 5, 30, BRISCOLA, 250),
    "mariazza": (2, 5, 30, BRISCOLA, 4),
    "mariglia": (4, 10, 0, (("7", 5), ("A", 4), ("K", 3), ("J", 2), ("Q", 1), ("6", 0),
                            ("5", 0), ("4", 0), ("3", 0), ("2", 0)), 35),
    "marjapussi": (4, 9, 0, (("A", 10), ("T", 10), ("K", 5), ("Q", 5), ("J", 5), ("9", 0),
                             ("8", 0), ("7", 0), ("6", 0)), 10),
    "schnapsen": (2, 5, 10, (("A", 11), ("T", 10), ("K", 4), ("Q", 3), ("J", 2)), 7),
    "sixty-six": (2, 6, 12, (("A", 11), ("T", 10), ("K", 4), ("Q", 3), ("J", 2), ("9", 0)),
                  7),
    "sixty-six-3": (3, 6, 12, (("A", 11), ("T", 10), ("K", 4), ("Q", 3), ("J", 2), ("9", 0)),
                    7),
    "sixty-six-4": (4, 8, 0, (("A", 11), ("T", 10), ("K", 4), ("Q", 3), ("J", 2), ("9", 0),
                              ("8", 0), ("7", 0)), 7),
    "marjapussi-de": (4, 9, 0, (("A", 11), ("T", 10), ("K", 4), ("Q", 3), ("J", 2), ("9", 0),
                                ("8", 0), ("7", 0), ("6", 0)), 4),
    # five cards dealt, then the turn-up and the second deal from the 12 left
    "belote": (4, 5, 12, (("A", 11), ("T", 10), ("K", 4), ("Q", 3), ("J", 2), ("9", 0),
                          ("8", 0), ("7", 0)), 1000),
    "belote-coinche": (4, 8, 0, (("A", 11), ("T", 10), ("K", 4), ("Q", 3), ("J", 2), ("9", 0),
                                 ("8", 0), ("7", 0)), 2000),
    "belote-contree": (4, 8, 0, (("A", 11), ("T", 10), ("K", 4), ("Q", 3), ("J", 2), ("9", 0),
                                 ("8", 0), ("7", 0)), 2000),
    "thousand": (3, 7, 3, (("A", 11), ("T", 10), ("K", 4), ("Q", 3), ("J", 2), ("9", 0)),
                 1000),
    "thousand-2": (2, 10, 4, (("A", 11), ("T", 10), ("K", 4), ("Q", 3), ("J", 2), ("9", 0)),
                   1000),
    "thousand-4": (4, 7, 3, (("A", 11), ("T", 10), ("K", 4), ("Q", 3), ("J", 2), ("9", 0)),
                   1000),
    "thousand-pl": (3, 7, 3, (("A", 11), ("T", 10), ("K", 4), ("Q", 3), ("J", 2), ("9", 0)),
                    1000),
}


def test_every_bundled_ruleset_is_described() -> None:
    assert set(RULESETS) == set(FACTS)


@pytest.mark.parametrize("name", RULESETS)
def test_bundled_ruleset_passes_every_check(name: str) -> None:
    check_document(load_document(name))


@pytest.mark.parametrize("name", RULESETS)
def test_the_facts_of_each_ruleset(name: str) -> None:
    seats, hand, stock, ranks, target = FACTS[name]
    r = load_rules(name)
    assert (r.nseats, r.hand_size, r.stock_size, r.match_target) == (seats, hand, stock, target)
    assert r.suits == ("H", "D", "C", "S")
    assert r.ranks == tuple(rank for rank, _ in ranks)
    removed = 1 if name == "marianna-3" else 0  # the two of spades, last in the order
    for suit in range(4):
        n = len(ranks) - (removed if suit == 3 else 0)
        assert [r.points[r.card_index_of(suit, i)] for i in range(n)] == \
            [p for _, p in ranks][:n]
    dealt = seats - (1 if r.sits_out != "none" else 0)  # a seat sitting out: no cards
    assert r.ncards == 4 * len(ranks) - removed == dealt * hand + stock
    teams = sorted(s for t in r.teams for s in t)
    assert teams == list(range(seats))


@pytest.mark.parametrize("name", RULESETS)
def test_every_enum_and_bool_combination_compiles(name: str) -> None:
    grid = option_grid(name)
    for options in grid:
        rules = rules_for(name, options)
        for key, value in options.items():
            assert rules.option(key) == value
    assert rules_for(name, grid[-1]) == load_rules(name, grid[-1])


def _behaviour(rules: Rules) -> dict[str, Any]:
    """The compiled fields that drive play (not option values, texts or metadata)."""
    skip = {"options", "defaults", "infos", "document", "card_index"}
    return {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)
            if f.name not in skip}


@pytest.mark.parametrize("name", by_family())
def test_every_option_value_changes_how_the_game_is_played(name: str) -> None:
    base = _behaviour(rules_for(name, {}))
    defaults = dict(rules_for(name, {}).defaults)
    values: dict[str, list[Any]] = {}
    for options in option_grid(name):
        for k, v in options.items():
            values.setdefault(k, [])
            if v not in values[k]:
                values[k].append(v)
    for k, vs in int_choices(name).items():
        values[k] = vs
    for option, choices in values.items():
        for value in choices:
            if value == defaults[option] or not playable(document(name), {option: value}):
                continue
            changed = _behaviour(rules_for(name, {option: value}))
            assert changed != base, f"{name}: {option}={value} changes nothing"


@pytest.mark.parametrize(("name", "option", "raw", "field", "expected"), [
    ("marianna", "target", "301", "match_target", 301),
    ("marianna", "target", 1, "match_target", 1),
    ("mariazza", "target", "71", "hand_target", 71),
    ("mariazza", "hands", "2", "match_target", 2),
    ("mariglia", "turn_up_bonus", "off", "turn_up_bonus", False),
    ("mariglia", "turn_up_bonus", "YES", "turn_up_bonus", True),
    ("mariglia", "turn_up_bonus", "0", "turn_up_bonus", False),
    ("marjapussi", "pack_size", "32", "ncards", 32),
    ("marjapussi", "pack_size", 28, "hand_size", 7),
    ("marjapussi", "point_system", "original", "pack_points", 120),
    ("marjapussi", "point_system", "simplified", "pack_points", 140),
    ("mariaggia", "call_out_penalty", "lose_match", "call_out_penalty", "lose_match"),
    ("marianna", "declare_who", "leader", "decl_who", "leader"),
    ("marianna", "declare_when", "trick_start", "decl_who", "trick_start"),
    ("marianna", "trick_six", "true", "decl_window", "stock_plus_one"),
])
def test_options_are_parsed_to_their_type_and_applied(name: str, option: str, raw: Any,
                                                      field: str, expected: Any) -> None:
    rules = load_rules(name, {option: raw})
    assert getattr(rules, field) == expected
    value = rules.option(option)
    spec = document(name).data["options"][option]
    kind = {"int": int, "bool": bool}.get(spec["type"])
    if kind is not None:
        assert type(value) is kind
    else:
        assert value in spec["values"]


def test_enum_values_keep_the_type_the_description_gives() -> None:
    assert load_rules("marjapussi", {"pack_size": "32"}).option("pack_size") == 32
    schedule = load_rules("marianna", {"marianna_values": "20-40-60-80"}).declarations[0]
    assert schedule.schedule == (20, 40, 60, 80)


@pytest.mark.parametrize(("name", "options", "says"), [
    ("marianna", {"colour": "red"}, "marianna has no option 'colour' (options: target,"),
    ("marianna", {"target": "0"}, "option 'target' must be between 1 and 10000, got 0"),
    ("marianna", {"target": "-5"}, "must be between 1 and 10000, got -5"),
    ("marianna", {"target": "five"}, "option 'target' takes a whole number, got 'five'"),
    ("marianna", {"target": "3.5"}, "takes a whole number"),
    ("marianna", {"target": True}, "takes a whole number, got True"),
    ("marianna", {"first_fixes_trump": "maybe"}, "takes true or false, got 'maybe'"),
    ("marianna", {"marianna_values": "10-20-30-40"},
     "option 'marianna_values' takes one of 40-60-80-100, 20-40-60-80; got '10-20-30-40'"),
    ("marjapussi", {"pack_size": "30"}, "takes one of 36, 32, 28; got '30'"),
    ("cinquecento", {"marianna_values": "20-40-60-80"}, "cinquecento has no option "
     "'marianna_values'"),
])
def test_bad_option_names_and_values_raise_option_error(name: str, options: dict[str, Any],
                                                        says: str) -> None:
    with pytest.raises(OptionError) as info:
        load_rules(name, options)
    assert says in str(info.value)
    assert info.value.option == next(iter(options))
    assert info.value.code == "S101"


def test_parse_option_value_directly() -> None:
    spec = {"type": "int", "default": 5, "min": 2, "max": 9}
    assert parse_option_value("n", spec, " 7 ") == 7
    for bad in ("1", "10"):
        with pytest.raises(OptionError, match="between 2 and 9"):
            parse_option_value("n", spec, bad)
    flag = {"type": "bool", "default": False}
    assert [parse_option_value("f", flag, x) for x in ("on", "Off", "1", "false", True)] == \
        [True, False, True, False, True]


def test_load_rules_is_cached_and_immutable() -> None:
    a = load_rules("marianna", {"target": "301"})
    assert load_rules("marianna", {"target": "301"}) is a
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.match_target = 5  # type: ignore[misc]
    state = new_match(a, 3)
    assert state.rules is a


# ---------------------------------------------------------------- extends
def _check_merge(parent: dict[str, Any], child: dict[str, Any], merged: dict[str, Any],
                 path: str = "") -> None:
    for key in set(parent) | set(child):
        if key in ("extends", "parent") and not path:
            continue
        where = f"{path}.{key}".lstrip(".")
        if key not in child:
            assert merged[key] == parent[key], f"{where} should be inherited"
        elif child[key] is None:
            assert key not in merged, f"{where} should be removed by null"
        elif isinstance(child[key], dict) and isinstance(parent.get(key), dict):
            _check_merge(parent[key], child[key], merged[key], where)
        else:
            assert merged[key] == child[key], f"{where} should be the child's"


@pytest.mark.parametrize("name", [n for n in RULESETS if "extends" in
                                  read_yaml(spec_dir() / f"{n}.yaml")[0]])
def test_extends_overrides_only_what_differs(name: str) -> None:
    raw, _ = read_yaml(spec_dir() / f"{name}.yaml")
    parent = document(raw["extends"])
    merged = document(name)
    _check_merge(parent.data, raw, merged.data)
    assert merged.data["parent"] == raw["extends"]
    assert load_rules(name).parent == raw["extends"]


def test_cinquecento_inherits_marianna_and_drops_its_options() -> None:
    marianna, cinque = document("marianna").data, document("cinquecento").data
    assert cinque["pack"] == marianna["pack"]
    assert cinque["declarations"]["marianna"]["pattern"] == {"K": 1, "Q": 1}
    assert cinque["declarations"]["marianna"]["value"]["schedule"] == [40, 20, 20, 20]
    assert "marianna_values" not in cinque["options"]
    assert cinque["options"]["target"]["default"] == 500
    assert cinque["options"]["target"]["binds"] == ["match.end.target"]


def _write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def test_extends_in_a_users_own_files(tmp_path: Path) -> None:
    _write(tmp_path / "house.yaml", """\
        format: 1
        extends: marianna
        ruleset: house
        name: House Marianna
        pack:
          points: {A: 11, "3": 10, K: 4, Q: 3, J: 2, "7": 1}
        match:
          end:
            target: 301
        options:
          trick_six: null
          target:
            default: 301
        """)
    child = _write(tmp_path / "house-fast.yaml", """\
        format: 1
        extends: house
        ruleset: house-fast
        options:
          target:
            default: 151
        """)
    doc = load_document(child)
    check_document(doc)
    assert doc.data["parent"] == "house" and doc.data["name"] == "House Marianna"
    assert doc.files[-1].endswith("house-fast.yaml") and len(doc.files) == 3
    rules = build(doc, {})
    assert rules.match_target == 151
    assert rules.pack_points == 124
    assert "trick_six" not in doc.data["options"]
    assert doc.data["pack"]["ranks"] == document("marianna").data["pack"]["ranks"]
    # each value is located in the file that gave it
    target = doc.where("options.target.default")
    assert target is not None and Path(target.file).name == "house-fast.yaml"
    assert (target.line, target.column) == (6, 14)
    points = doc.where("pack.points")
    assert points is not None and Path(points.file).name == "house.yaml"
    assert (points.line, points.column) == (6, 11)
    ranks = doc.where("pack.ranks")
    assert ranks is not None and Path(ranks.file).name == "marianna.yaml"
    with pytest.raises(OptionError, match="no option 'trick_six'"):
        build(doc, {"trick_six": True})


def test_a_child_error_is_located_in_the_child(tmp_path: Path) -> None:
    child = _write(tmp_path / "bad.yaml", """\
        format: 1
        extends: marianna
        ruleset: bad
        deal:
          packet: 3
        """)
    with pytest.raises(SpecError) as info:
        check_document(load_document(child))
    err = info.value
    assert err.location is not None and Path(err.location.file).name == "bad.yaml"
    assert (err.location.line, err.location.column, err.path) == (5, 11, "deal.packet")
    assert "hand size 5 is not a whole number of packets of 3" in err.message


# ---------------------------------------------------------------- rule metadata
@pytest.mark.parametrize("name", RULESETS)
def test_every_rule_has_an_id_text_and_source(name: str) -> None:
    rules = load_rules(name)
    ids = [i.id for i in rules.infos]
    assert len(ids) == len(set(ids))
    ancestors = []  # the rulesets it extends, and theirs: their rule IDs are inherited
    parent = rules.parent
    while parent is not None:
        ancestors.append(parent)
        parent = load_rules(parent).parent
    for info in rules.infos:
        assert info.text.strip() and info.source, info.id
        assert info.id.split(".")[0] in {name.split("-")[-1], name, "core", "marianna",
                                         "siciliana", "cinquecento", *ancestors}
    for core in ("core.turn", "core.hand", "core.phase", "core.over", "core.deal",
                 "core.resign"):
        assert core in ids


@pytest.mark.parametrize("name", RULESETS)
def test_every_option_is_typed_described_and_sourced(name: str) -> None:
    for option, spec in (document(name).data.get("options") or {}).items():
        assert spec["type"] in ("int", "bool", "enum"), option
        assert spec["description"].strip() and spec["source"], option
        assert parse_option_value(option, spec, spec["default"]) == spec["default"]


def test_read_yaml_cache_gives_copies_and_sees_changes(tmp_path: Path) -> None:
    from mariage.spec.specload import read_yaml

    f = tmp_path / "game.yaml"
    f.write_text("a: 1\nb: [1, 2]\n", encoding="utf-8")
    first, _ = read_yaml(f)
    first["b"].append(3)  # the caller owns its copy
    again, marks = read_yaml(f)
    assert again == {"a": 1, "b": [1, 2]}
    assert marks[("b",)].line == 2
    f.write_text("a: 2\nb: [1, 2, 3, 4]\n", encoding="utf-8")  # a changed file is read anew
    changed, _ = read_yaml(f)
    assert changed == {"a": 2, "b": [1, 2, 3, 4]}


def test_the_summary_mariage_list_shows_matches_the_compiled_rules() -> None:
    # `mariage list` reads title, parent, seats and cards without compiling (a quick start)
    from mariage import list_rulesets, load_rules
    from mariage.spec.options import summary
    from mariage.spec.specload import load_document

    for name in list_rulesets():
        rules = load_rules(name)
        assert summary(load_document(name)) == (rules.name, rules.parent, rules.nseats,
                                                rules.ncards), name
