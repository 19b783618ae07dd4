"""Bad game descriptions: each fails with file:line:column, the path and what was expected.

Every file in ``tests/data/bad_specs/`` holds exactly one kind of problem. The
table below gives, for each, the exact position, the error code, the path
inside the document and a fragment of the explanation. ``mariage check-spec``
must print that as one line and exit with code 1.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from mariage.cli import main
from mariage.errors import SpecError
from mariage.spec.compile import check_document
from mariage.spec.specload import load_document

BAD = Path(__file__).parent / "data" / "bad_specs"

# file, (line, column), code, path inside the document, what the message says
CASES: list[tuple[str, tuple[int, int], str, str, str]] = [
    ("yaml_syntax.yaml", (5, 8), "S002", "", "YAML syntax: expected ',' or ']'"),
    ("wrong_type.yaml", (6, 10), "S001", "players.count", "expected integer, got str 'four'"),
    ("unknown_key.yaml", (7, 11), "S001", "pack.colour", "'colour' was unexpected"),
    ("missing_key.yaml", (6, 3), "S001", "trick", "missing key: 'trump_at' is a required"),
    ("bad_enum.yaml", (6, 13), "S001", "trick.trump_at", "expected one of ['end'], got 'whenever'"),
    ("rank_twice.yaml", (6, 10), "S020", "pack.ranks", "rank listed twice: ['4']"),
    ("option_unused.yaml", (7, 5), "S020", "options.colour",
     "option 'colour' is used by nothing"),
    ("effect_missing_path.yaml", (13, 9), "S010",
     "options.low_values.effects.true.declarations.marianna.valeu.schedule",
     "no 'declarations.marianna.valeu'"),
    ("short_schedule.yaml", (8, 17), "S020", "declarations.marianna.value.schedule",
     "the schedule has 3 values but 4 suits can be declared"),
    ("duplicate_rule_id.yaml", (6, 7), "S020", "draw.id",
     "rule ID 'marianna.deal' is used twice (also at 'deal')"),
    ("undeclared_source.yaml", (6, 11), "S020", "draw.source",
     "source 'seed999' is not listed under 'sources'"),
    ("teams_not_partition.yaml", (6, 10), "S020", "players.teams",
     "teams must split seats 0..3, each once"),
    ("hand_size.yaml", (6, 14), "S020", "deal.hand_size", "4 hands of 11 need more than 40"),
    ("unknown_parent.yaml", (3, 10), "S004", "extends", "unknown ruleset 'marianne'"),
    ("not_utf8.yaml", (3, 11), "S003", "", "not UTF-8 text (byte 42)"),
    ("empty.yaml", (1, 1), "S002", "", "empty document"),
    ("default_when_unknown_option.yaml", (10, 25), "S020",
     "options.target.default_when.1.when.playres",
     "names option 'playres', which does not exist"),
    ("default_when_bad_value.yaml", (8, 44), "S020",
     "options.target.default_when.0.when.declare_when",
     "option 'declare_when' takes one of on_turn, trick_start; got 'on_trick'"),
    ("default_when_value_type.yaml", (9, 16), "S001", "options.target.default_when.0.value",
     "option 'target' must be between 1 and 10000, got 20000"),
    ("default_when_ring.yaml", (8, 7), "S020", "options.trick_six.default_when",
     "depend on each other: first_fixes_trump -> trick_six -> first_fixes_trump"),
    ("invalid_when_unknown_option.yaml", (9, 35), "S020",
     "options.opening_bid.invalid_when.0.when.sittr",
     "names option 'sittr', which is not another option of invalid-when-unknown-option; "
     "did you mean 'sitter'?"),
    ("invalid_when_bad_value.yaml", (8, 16), "S020", "options.opening_bid.invalid_when.0.value",
     "option 'opening_bid' takes one of fh_forced, fh_auto_100, dealer_auto_100, none; "
     "got 'dealer_auto_200'"),
    ("invalid_when_defaults.yaml", (8, 9), "S020", "options.opening_bid.invalid_when.0",
     "the defaults cannot be played: opening_bid=fh_forced cannot be played with "
     "sitter=dealer"),
    ("invalid_when_unknown_rule.yaml", (10, 15), "S020", "options.opening_bid.invalid_when.0.rule",
     "cites rule 'thousand.auction.openin', which invalid-when-unknown-rule does not have; "
     "did you mean 'thousand.auction.opening'?"),
]


def _check(path: Path) -> SpecError:
    with pytest.raises(SpecError) as info:
        check_document(load_document(path))
    return info.value


def test_every_bad_file_has_a_case() -> None:
    listed = {c[0] for c in CASES} | {"cycle_a.yaml", "cycle_b.yaml"}
    assert listed == {p.name for p in BAD.glob("*.yaml")}


@pytest.mark.parametrize(("name", "pos", "code", "path", "says"), CASES,
                         ids=[c[0] for c in CASES])
def test_bad_spec_is_located(name: str, pos: tuple[int, int], code: str, path: str,
                             says: str) -> None:
    err = _check(BAD / name)
    assert err.location is not None
    assert Path(err.location.file).resolve() == (BAD / name).resolve()
    assert (err.location.line, err.location.column) == pos
    assert err.code == code
    assert err.path == path
    assert says in err.message
    text = str(err)
    assert text.startswith(f"{err.location.file}:{pos[0]}:{pos[1]}: ")
    assert text.endswith(f"[{code}]")
    assert "\n" not in text


@pytest.mark.parametrize(("name", "closer"), [("cycle_a.yaml", "cycle_b.yaml"),
                                               ("cycle_b.yaml", "cycle_a.yaml")])
def test_extends_cycle_points_at_the_extends_that_closes_it(name: str, closer: str) -> None:
    err = _check(BAD / name)
    assert err.code == "S004"
    assert err.path == "extends"
    assert err.location is not None
    assert Path(err.location.file).resolve() == (BAD / closer).resolve()
    assert (err.location.line, err.location.column) == (3, 10)
    assert "makes a cycle" in err.message
    assert err.message.count("cycle_") == 3


def test_a_missing_file_is_a_spec_error() -> None:
    err = _check(BAD / "no_such_file.yaml")
    assert err.code == "S003"
    assert "file not found" in err.message


@pytest.mark.parametrize("name", sorted(p.name for p in BAD.glob("*.yaml")))
def test_check_spec_prints_one_line_and_exits_1(name: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check-spec", str(BAD / name)])
    out, err = capsys.readouterr()
    assert code == 1
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1
    assert "Traceback" not in err
    reported = Path(lines[0].split(":", 1)[0]).name
    assert reported == name or {reported, name} == {"cycle_a.yaml", "cycle_b.yaml"}
    assert lines[0].rstrip().endswith("]")


def test_check_spec_reports_each_bad_file_and_still_checks_the_good_ones(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check-spec", str(BAD / "rank_twice.yaml"), "marianna",
                 str(BAD / "empty.yaml")])
    out, err = capsys.readouterr()
    assert code == 1
    assert out.startswith("marianna: ok (")
    assert len(err.splitlines()) == 2


def test_check_spec_exit_codes_in_a_real_process() -> None:
    good = subprocess.run([sys.executable, "-m", "mariage", "check-spec", "mariazza"],
                          capture_output=True, text=True, check=False)
    assert good.returncode == 0, good.stderr
    assert good.stdout.startswith("mariazza: ok (")
    bad = subprocess.run([sys.executable, "-m", "mariage", "check-spec",
                          str(BAD / "short_schedule.yaml")],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 1
    assert bad.stdout == ""
    assert len(bad.stderr.splitlines()) == 1
    assert ":8:17: at 'declarations.marianna.value.schedule'" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_a_document_checked_once_is_not_built_again_until_it_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mariage.spec import compile as compile_module

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    house = tmp_path / "house.yaml"
    house.write_text("extends: marianna\nname: house\n", encoding="utf-8")
    checks: list[str] = []
    real = compile_module._check_document

    def counted(doc: object) -> None:
        checks.append("built")
        real(doc)  # type: ignore[arg-type]

    monkeypatch.setattr(compile_module, "_check_document", counted)
    check_document(load_document(house))
    check_document(load_document(house))
    assert checks == ["built"]  # the second time from the disk cache
    house.write_text("extends: marianna\nname: house\n# changed\n", encoding="utf-8")
    check_document(load_document(house))
    assert checks == ["built", "built"]
    # a bad description is never remembered as checked
    bad = BAD / "option_unused.yaml"
    for _ in range(2):
        _check(bad)
