"""The command line as people use it: ``--format json`` for list, rules and replay; shell
completion; what ``replay`` prints for declarations, held points and segni."""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from mariage import list_rulesets, load_rules
from mariage.cli import main
from mariage.notation import parse_record, write_record
from mariage.notation.recorder import record_match

GOOD = Path(__file__).parent / "data" / "records" / "good"
BAD = Path(__file__).parent / "data" / "records" / "bad"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -------------------------------------------------------------- --format json
def test_list_json_names_every_ruleset_with_its_options(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "list", "--format", "json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert [d["name"] for d in data] == list_rulesets()
    mariazza = next(d for d in data if d["name"] == "mariazza")
    assert mariazza["players"] == 2 and mariazza["cards"] == 40
    target = next(o for o in mariazza["options"] if o["name"] == "target")
    assert target["default"] == load_rules("mariazza").option("target")
    code, out, _ = run(capsys, "list", "--format", "json", "--brief")
    assert "options" not in json.loads(out)[0]


def test_rules_json_holds_every_rule_id_and_follows_options(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "marianna", "--format", "json")
    assert code == 0
    book = json.loads(out)
    ids = {r["info"]["id"] for s in book["sections"] for r in s["rules"]}
    assert set(load_rules("marianna").rule_ids) == ids
    code, out, _ = run(capsys, "rules", "marianna", "--format", "json", "-o", "target=301")
    forced = json.loads(out)["options_in_force"]
    assert ["target", "301", False] in forced


def test_replay_json_has_every_action_in_order_and_each_hand_end(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", str(GOOD / "marianna.mrg"), "--format", "json")
    assert code == 0
    data = json.loads(out)
    rec = parse_record((GOOD / "marianna.mrg").read_text())
    assert data["ok"] and len(data["hands"]) == len(rec.hands)
    for hand, h in zip(data["hands"], rec.hands, strict=True):
        acts = [f"{i.seat}:{i.text}" for i in h.items if type(i).__name__ == "Act"]
        assert [f"{a['seat']}:{a['action']}" for a in hand["actions"]] == acts
        assert hand["end"]["scored"] == hand["end"]["points"]
    first = data["hands"][0]
    assert first["deal"]["N"] == ["3H", "7D", "2D", "3C", "5S"]
    assert first["tricks"][4]["cards"] == [["N", "3C"], ["W", "6H"], ["S", "5H"], ["E", "QS"]]
    code, out, _ = run(capsys, "replay", str(BAD / "must-follow.mrg"), "--format", "json")
    codes = [e["code"] for e in json.loads(out)["errors"]]
    # lenient replay goes on past the refused card, so later mismatches may follow it
    assert code == 1 and codes[0] == "N141"


# ------------------------------------------------------------- replay text
HAND_WRITTEN = """[Mariage "1"]
[Ruleset "mariglia"]
[Dealer "N"]

hand 1
deal dealer: N
N: 6D 5D 4D 3D 2D 6S 5S 4S 3S 2S
W: 7H AH KH JH QH 7C AC KC JC QC
S: 6H 5H 4H 3H 2H 6C 5C 4C 3C 2C
E: 7D AD KD JD QD 7S AS KS JS QS
turnup: 2S
1. W:7C S:6C E:AD N:2S (won N)
2. N:6D W:QH S:KC E:7D (won E)

result *
"""


def test_replay_shows_the_trick_where_it_stopped(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    """A record written by hand from notation.rst with a card its seat does not hold:
    the replay stops there, shows the cards of that trick played so far, and says
    where and why on standard error (line 13, column 14: ``S:KC``), exit 1."""
    path = tmp_path / "hand.mrg"
    path.write_text(HAND_WRITTEN, encoding="utf-8")
    code, out, err = run(capsys, "replay", str(path))
    assert code == 1
    shown = out.rstrip().splitlines()
    assert shown[-3] == "  trick  2: N:6D W:QH  (the replay stops here)"
    # the last line says there is no result, and where and why the replay stopped
    assert shown[-1] == (f"Result: none: the replay stopped at {path}:13:14: N141 record 1, "
                         "hand 1, trick 2, seat S, at 'S:KC': that card is not in the "
                         "player's hand [core.hand] (1 problem in all, each listed on stderr)")
    assert err.startswith(f"{path}:13:14: N141 ") and err.rstrip().endswith("[core.hand]")


def test_replay_of_an_unfinished_record_shows_the_trick_under_way(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A legal record that ends within a trick (``result *``): the cards of that trick
    are shown, said to be where the record ends, and the result is unfinished, exit 0."""
    path = tmp_path / "hand.mrg"
    path.write_text(HAND_WRITTEN.replace(" W:QH S:KC E:7D (won E)", " W:QH"),
                    encoding="utf-8")
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0
    assert "trick  2: N:6D W:QH  (the record ends here)" in out
    assert out.rstrip().endswith("Result: unfinished")


def test_replay_of_an_illegal_card_shows_it_played_and_says_where_and_why(
        capsys: pytest.CaptureFixture[str]) -> None:
    """notation.rst: a card refused but held is shown played, the problem goes to
    standard error as ``validate`` prints it (line, column, rule ID), and the exit is 1."""
    code, out, err = run(capsys, "replay", str(BAD / "must-follow.mrg"))
    assert code == 1
    first = err.splitlines()[0]
    assert " N141 " in first and first.endswith("[mariglia.play.follow]"), first
    assert first.split(": N141")[0].count(":") == 2  # file:line:column
    assert "trick  1: S:7D E:7H! N:3D W:3H  -> E" in out  # the refused card marked
    assert out.count("marked !") == 1


def test_replay_shows_a_declaration_after_the_card_it_followed(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", str(GOOD / "marianna.mrg"))
    assert code == 0
    line = next(x for x in out.splitlines() if "marianna:S" in x)
    assert line.split(":", 1)[0].strip() == "trick  5"
    assert "N:3C W:6H S:5H E:marianna:S (trump S) E:QS  -> E" in line


def test_replay_of_segni_shows_the_segno_not_a_zero_score(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", str(GOOD / "mariazza.mrg"))
    assert code == 0
    ends = [x for x in out.splitlines() if "hand over" in x]
    assert ends and all("scored" not in x for x in ends)
    assert "  hand over (target): points A 27, B 41; segno B" in ends


def test_replay_shows_held_points() -> None:
    rules = load_rules("mariazza")
    from mariage.arena.bots import make_bot

    for seed in range(1, 40):  # a match where a second player declares: held till he leads
        rec = record_match(rules, seed=seed, bots=[make_bot("greedy", i) for i in range(2)])
        text = write_record(rec)
        proc = subprocess.run([sys.executable, "-m", "mariage", "replay", "-"], input=text,
                              capture_output=True, text=True, check=False, timeout=120)
        assert proc.returncode == 0, proc.stderr
        if "; held " in proc.stdout:
            line = next(x for x in proc.stdout.splitlines() if "; held " in x)
            seat = line.rsplit("; held ", 1)[1].split()[0]
            assert f"{seat}:mariazza:" in line  # held by the seat that declared second
            return
    pytest.fail("no match with held points among 39 seeds")


# -------------------------------------------------------------- completion
def _complete(script: str, *words: str) -> list[str]:
    bash = shutil.which("bash")
    assert bash is not None
    quoted = " ".join(f"'{w}'" for w in words)
    probe = (script + f"\nCOMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}; _mariage; "
             'printf "%s\\n" "${COMPREPLY[@]}"\n')
    proc = subprocess.run([bash, "--norc", "-c", probe], capture_output=True, text=True,
                          check=True, timeout=60)
    return [w for w in proc.stdout.splitlines() if w]


def test_bash_completion_completes_commands_options_values_and_rulesets(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, script, _ = run(capsys, "completion", "bash")
    assert code == 0
    assert _complete(script, "mariage", "re") == ["replay", "render"]
    assert _complete(script, "mariage", "rules", "mariag") == ["mariaggia"]
    assert _complete(script, "mariage", "replay", "--fo") == ["--format"]
    assert _complete(script, "mariage", "list", "--format", "") == ["text", "json"]
    assert _complete(script, "mariage", "completion", "") == ["bash", "zsh"]
    assert "--html" in _complete(script, "mariage", "render", "--")


def test_the_completion_script_is_kept_and_the_same(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    from mariage.cli import build_parser
    from mariage.commands.completion import bash_script, zsh_script

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    made = {"bash": bash_script(build_parser()), "zsh": zsh_script(build_parser())}
    for shell in ("bash", "zsh"):
        assert run(capsys, "completion", shell)[1] == made[shell]  # made, and kept

    def never() -> None:
        raise AssertionError("the parser was built although the script was kept")

    from mariage.commands import completion

    for shell in ("bash", "zsh"):  # from the cache: the parser is not built
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        p = sub.add_parser("completion")
        completion.add_arguments(p)
        args = parser.parse_args(["completion", shell])
        args._build_parser = never
        assert completion.run(args) == 0
        assert capsys.readouterr().out == made[shell]


def test_zsh_completion_loads_the_same_function(capsys: pytest.CaptureFixture[str]) -> None:
    code, script, _ = run(capsys, "completion", "zsh")
    assert code == 0 and script.startswith("#compdef mariage\n")
    assert "bashcompinit" in script and "complete -o default -F _mariage mariage" in script
    with pytest.raises(SystemExit) as exc:
        main(["completion", "fish"])
    assert exc.value.code == 2


def test_replay_reports_every_deal_problem_in_one_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (GOOD / "marianna.mrg").read_text()
    text = text.replace("N: 3H 7D 2D 3C 5S", "N: 3H 7D 2D 3C XX", 1)
    text = text.replace("W: QH JH JD AC 6C", "W: QH JH JD AC 3H", 1)
    bad = tmp_path / "two.mrg"
    bad.write_text(text)
    code, out, err = run(capsys, "replay", str(bad))
    assert code == 1
    assert [line.split()[1] for line in err.splitlines()] == ["N130", "N131"]
    # no result: the deal could not be laid out (the last of its problems is named)
    assert out.rstrip().splitlines()[-1].startswith(
        f"Result: none: the replay stopped at {bad}:13:16: N131 ")
