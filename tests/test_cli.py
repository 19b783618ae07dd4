"""The ``mariage`` command line: list, rules, play; exit codes and one-line errors.

Most tests call :func:`mariage.cli.main` in-process; a few run the command in
a real process to check the whole path, including the absence of tracebacks.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from mariage import __version__, list_rulesets, load_rules
from mariage.cli import main
from mariage.spec.specnames import unregister_spec
from propkit import document

RULESETS = list_rulesets()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_process(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mariage", *argv], capture_output=True,
                          text=True, check=False, timeout=120)


def test_list_names_every_ruleset_and_option_with_its_default(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "list", "--long")
    assert code == 0 and err == ""
    heads = [line for line in out.splitlines() if line and not line.startswith(" ")]
    assert [h.split()[0] for h in heads] == RULESETS
    for name in RULESETS:
        rules = load_rules(name)
        head = next(h for h in heads if h.split()[0] == name)
        assert f"{rules.nseats} players, {rules.ncards} cards" in head
        for option, spec in (document(name).data.get("options") or {}).items():
            default = spec["default"]
            shown = str(default).lower() if isinstance(default, bool) else str(default)
            # a default that other options change is shown after it: "(40 with players=4)"
            assert re.search(rf"^    {re.escape(option)}={re.escape(shown)}"
                             r"(?: \([^()]* with [^()]*\))?  \[", out, re.M), \
                f"{name}: {option}={shown} not listed"


@pytest.mark.parametrize("argv", [["list"], ["list", "--brief"]])
def test_list_is_one_line_per_ruleset_by_default(argv: list[str],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *argv)
    assert code == 0
    lines = out.splitlines()
    assert [line.split()[0] for line in lines[:-1]] == RULESETS
    assert lines[-1].startswith("(mariage list --long") and len(out) < 120 * len(lines)
    for name, line in zip(RULESETS, lines, strict=False):
        count = len(document(name).data.get("options") or {})
        assert line.endswith(f"; {count} option{'s' if count != 1 else ''}"), line


def test_list_shows_the_rulesets_given_with_spec_after_the_bundled_ones(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("extends: marianna\nruleset: house\nname: House rules\noptions:\n"
                     "  target:\n    default: 301\n", encoding="utf-8")
    try:
        code, out, err = run(capsys, "list", "--long", "--spec", str(house))
        assert code == 0 and err == ""
        heads = [line for line in out.splitlines() if line and not line.startswith(" ")]
        assert [h.split()[0] for h in heads] == [*RULESETS, "house"]
        assert heads[-1].startswith(f"house                  House rules (extends marianna) "
                                    f"[{house}]: 4 players, 40 cards")
        assert "\n    target=301  [int" in out.split("\nhouse ")[1]
        code, out, err = run(capsys, "list", "--format", "json", "--spec", str(house))
        listed = json.loads(out)
        assert [e["name"] for e in listed] == [*RULESETS, "house"]
        assert listed[-1]["file"] == str(house) and "file" not in listed[0]
        assert next(o for o in listed[-1]["options"] if o["name"] == "target")["default"] == 301
    finally:
        unregister_spec("house")
    code, out, err = run(capsys, "list", "--spec", str(tmp_path / "none.yaml"))
    assert code == 2 and "none.yaml: file not found [S003]" in err and out == ""


@pytest.mark.parametrize("name", RULESETS)
def test_rules_prints_every_rule_id(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules", name)
    assert code == 0 and err == ""
    rules = load_rules(name)
    for info in rules.infos:
        if info.enabled and not info.id.startswith("core."):
            assert f"[{info.id}]" in out, info.id
    assert out.startswith(rules.name)


@pytest.mark.parametrize(("name", "option", "before", "after"), [
    ("marianna", "marianna_values=20-40-60-80", "the first 40, the second 60",
     "the first 20, the second 40"),
    ("marianna", "target=301", "501", "301"),
    ("mariaggia", "call_out_penalty=lose_match", "the caller scores nothing",
     "the caller loses the match"),
    ("marjapussi", "pack_size=28", "36 cards", "28 cards"),
])
def test_rules_with_an_option_show_the_rule_in_force(name: str, option: str, before: str,
                                                     after: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    _, default, _ = run(capsys, "rules", name)
    code, changed, err = run(capsys, "rules", name, "-o", option)
    assert code == 0 and err == ""
    assert changed != default
    assert after in " ".join(changed.split())
    assert before in " ".join(default.split())


def _result(out: str) -> tuple[str, dict[str, int], int]:
    line = out.rstrip().splitlines()[-1]
    m = re.fullmatch(r"Result: (\S+) wins \((\w+)\); (.*); (\d+) hands", line)
    assert m, line
    scores = {k: int(v) for k, v in (part.rsplit(" ", 1) for part in m.group(3).split(", "))}
    return m.group(1), scores, int(m.group(4))


def test_play_marianna_seed_1_plays_to_501(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "play", "marianna", "--seed", "1")
    assert code == 0 and err == ""
    winner, scores, hands = _result(out)
    assert scores[winner] >= 501 and all(scores[winner] > v for k, v in scores.items()
                                         if k != winner)
    assert out.count("=== Hand ") == hands
    assert out.count("trick 10:") == hands  # every hand played out to the last trick


def _bot_lists(nseats: int) -> list[str]:
    mixed = ",".join(("random", "greedy")[i % 2] for i in range(nseats))
    return ["random", "greedy", mixed]


@pytest.mark.parametrize("name", RULESETS)
def test_play_finishes_a_whole_match_with_every_bot_mix(
        name: str, capsys: pytest.CaptureFixture[str]) -> None:
    rules = load_rules(name)
    for bots in _bot_lists(rules.nseats):
        code, out, err = run(capsys, "play", name, "--seed", "1", "--bots", bots)
        assert code == 0 and err == "", (bots, err)
        winner, scores, hands = _result(out)
        assert hands >= 1 and out.count("=== Hand ") == hands
        assert set(scores) == set(rules.team_names)
        if winner != "nobody" and rules.match_measure == "hands_played":
            assert hands == rules.match_target and scores[winner] == max(scores.values())
        elif winner != "nobody":
            assert scores[winner] >= rules.match_target


@pytest.mark.parametrize(("name", "options"), [
    ("marianna", ["declare_when=trick_start", "first_fixes_trump=true", "target=301"]),
    ("marianna-siciliana", ["marianna_values=20-40-60-80"]),
    ("cinquecento", ["mariannino=true", "mariannone=true"]),
    ("mariglia", ["turn_up_bonus=false", "target=11"]),
    ("mariaggia", ["last_five=none", "exchange=seven_while_stock", "accusa_trump_40=yes"]),
    ("mariazza", ["hands=2", "target=71", "exchange=off"]),
    ("marjapussi", ["pack_size=32", "point_system=original", "trump_choice=true",
                    "ace_of_clubs=true", "must_beat=true", "first_lead=true"]),
    ("marjapussi-de", ["kontra_re=true", "sole_bidder_may_raise_before_exchange=true",
                       "all_pass=redeal", "trump_rule=first", "hands=2"]),
])
def test_play_with_options(name: str, options: list[str],
                           capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", name, "--seed", "4", "-q"]
    for option in options:
        argv += ["-o", option]
    code, out, err = run(capsys, *argv)
    assert code == 0 and err == ""
    assert re.fullmatch(r"\S+ wins \(\w+\); .*\n", out)


def test_play_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "play", "mariaggia", "--seed", "9", "--bots", "random")
    second = run(capsys, "play", "mariaggia", "--seed", "9", "--bots", "random")
    other = run(capsys, "play", "mariaggia", "--seed", "10", "--bots", "random")
    assert first == second
    assert first[1] != other[1]


@pytest.mark.parametrize(("argv", "says"), [
    (["play", "marianne"], "unknown ruleset 'marianne'"),
    (["rules", "no-such-game"], "unknown ruleset 'no-such-game'"),
    (["play", "marianna", "-o", "target=zero"], "option 'target' takes a whole number"),
    (["play", "marianna", "-o", "target=0"], "option 'target' must be between 1 and 10000, got 0"),
    (["play", "marianna", "-q", "--out", "/nonexistent-dir/m.txt"],
     "/nonexistent-dir/m.txt: No such file or directory"),
    (["play", "marianna", "-o", "colour=red"], "marianna has no option 'colour'"),
    (["rules", "marianna", "-o", "first_fixes_trump=perhaps"], "takes true or false"),
    (["rules", "marjapussi", "-o", "pack_size=40"], "takes one of 36, 32, 28"),
    (["play", "marianna", "-o", "target"], "--option takes NAME=VALUE"),
    (["play", "marianna", "--bots", "random,random"], "--bots needs 1 or 4 names, got 2"),
    (["play", "marianna", "--bots", "clever"], "unknown bot 'clever'"),
    (["play", "marianna", "--seed", "x"],
     "argument --seed: a seed is a whole number from 0 to 2**64-1, got 'x'"),
    (["deal", "marianna"], "invalid choice: 'deal'"),
    (["play"], "the following arguments are required: ruleset"),
])
def test_usage_errors_are_one_line_with_exit_code_2(
        argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("mariage: error: ")
    assert says in err
    assert "Traceback" not in err


def test_no_command_prints_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys)
    assert code == 2
    assert "COMMAND" in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.strip() == f"mariage {__version__}"


def test_end_to_end_in_a_real_process() -> None:
    played = run_process("play", "marianna", "--seed", "1")
    assert played.returncode == 0, played.stderr
    assert played.stderr == ""
    assert played.stdout.rstrip().splitlines()[-1].startswith("Result: ")
    winner, scores, _ = _result(played.stdout)
    assert scores[winner] >= 501
    listed = run_process("list", "--brief")
    assert listed.returncode == 0 and len(listed.stdout.splitlines()) == len(RULESETS) + 1


@pytest.mark.parametrize("argv", [["play", "marianne"], ["play", "marianna", "-o", "target=x"],
                                  ["play", "marianna", "--seed", "x"]])
def test_errors_in_a_real_process_have_no_traceback(argv: list[str]) -> None:
    done = run_process(*argv)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(("target", "says"), [
    ("folder", "is a folder, not a game description [S003]"),
    ("binary", "not UTF-8 text"),
    ("missing.yaml", "file not found [S003]"),
])
def test_check_spec_on_a_path_that_is_no_description(
        target: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "binary").write_bytes(b"\x00\xff\xfe\x80 not text")
    code, out, err = run(capsys, "check-spec", str(tmp_path / target))
    # a file that cannot be read is a usage error (2); one read and found bad is 1
    assert code == (1 if target == "binary" else 2) and out == ""
    assert err.count("\n") == 1 and says in err and "Traceback" not in err
