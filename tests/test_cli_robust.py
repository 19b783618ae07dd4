"""The command line under misuse: closed pipes, exit codes, one-line errors, ``--out``, ``--spec``.

Issue #13 items 2 and 5.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from mariage.cli import main
from mariage.outfile import write_output
from mariage.spec.specload import unregister_spec

REFERENCE = str(Path(__file__).resolve().parent.parent / "reference")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = REFERENCE + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("MARIAGE_SPEC_FILES", None)
    return env


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("rec") / "match.txt"
    assert main(["play", "marianna", "--seed", "3", "--quiet", "--out", str(path)]) == 0
    many = path.with_name("many.txt")
    many.write_text("\n".join([path.read_text(encoding="utf-8")] * 4), encoding="utf-8")
    return many


@pytest.mark.parametrize("argv", [
    ["list"], ["rules", "marianna"], ["play", "marianna"], ["check-spec", "marianna", "mariglia"],
    ["validate", "{rec}"], ["replay", "{rec}"], ["view", "{rec}", "--seat", "N"], ["--help"],
    ["conformance", "--coverage"],
], ids=lambda a: a[0])
def test_closed_pipe_ends_quietly(argv: list[str], record: Path) -> None:
    argv = [a.replace("{rec}", str(record)) for a in argv]
    proc = subprocess.Popen([sys.executable, "-m", "mariage", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=_env())
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(5)
    proc.stdout.close()  # like `| head -c 5`
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0, err
    assert err == ""


def test_closed_pipe_keeps_the_verdict(record: Path, tmp_path: Path) -> None:
    """The reader goes away after 5 bytes, long before the last of 400 invalid records:
    validate goes on quietly and still exits 1 (it exited 0, or 2 blaming the record
    file for the broken pipe)."""
    text = record.read_text(encoding="utf-8").split("\n\n[Mariage")[0]
    first = text.index("\n1. ") + 1
    play = text[first:text.index("\n", first)]
    last = play.split(" (")[0].split()[-1]  # the first trick's last card: now one not held
    card = last.split(":")[1]
    wrong = "KH" if card != "KH" else "QH"
    bad = text.replace(play, play.replace(last, last.replace(card, wrong), 1), 1)
    many = tmp_path / "bad.txt"
    many.write_text("\n\n".join([bad] * 400), encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "mariage", "validate", str(many)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env())
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(5)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 1, err
    assert err == ""


@pytest.mark.parametrize("argv", [
    ["rules", "nowhere.yaml"], ["play", "nowhere.yaml"], ["check-spec", "nowhere.yaml"],
    ["validate", "nowhere.txt"], ["replay", "nowhere.txt"], ["view", "nowhere.txt", "-s", "N"],
    ["validate", "--spec", "nowhere.yaml", "x.txt"],
    ["rules", "marianna", "--spec", "nowhere.yaml"],
    ["conformance", "--expect", "nowhere.txt"],
], ids=lambda a: "-".join(a[:2]))
def test_missing_file_is_exit_2_everywhere(argv: list[str], tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    code, _out, err = run(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and "nowhere" in err and "Traceback" not in err


@pytest.mark.parametrize("text", [
    "ruleset: x\nname: [unclosed\n",
    "a:\n  b: 1\n c: 2\n",
    "ruleset: 'open\n",
    "\tx: 1\n",
], ids=["flow", "indent", "quote", "tab"])
@pytest.mark.parametrize("command", ["check-spec", "rules", "play"])
def test_bad_spec_content_is_exit_1_one_line(text: str, command: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    code, _out, err = run(capsys, command, str(path))
    assert code == 1
    assert err.count("\n") == 1 and f"{path}:" in err and "[S002]" in err


def test_yaml_messages_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("a: |\n  x\n b\n", encoding="utf-8")
    code, _, err = run(capsys, "check-spec", str(path))
    assert code == 1 and err.count("\n") == 1


# ---- --out


def test_out_refuses_an_empty_name(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "play", "marianna", "--quiet", "--out", "")
    assert code == 2 and "empty" in err and out == ""


def test_out_refuses_a_symlink(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "precious.txt"
    target.write_text("keep me", encoding="utf-8")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    code, out, err = run(capsys, "play", "marianna", "--quiet", "--out", str(link))
    assert code == 2 and str(link) in err and "symbolic link" in err
    assert target.read_text(encoding="utf-8") == "keep me" and link.is_symlink()
    assert out == ""  # refused before playing


def test_out_refuses_a_fifo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code, _, err = run(capsys, "play", "marianna", "--quiet", "--out", str(fifo))
    assert code == 2 and str(fifo) in err and "FIFO" in err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_out_refuses_a_read_only_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "ro.txt"
    target.write_text("keep me", encoding="utf-8")
    target.chmod(0o444)
    code, _, err = run(capsys, "play", "marianna", "--quiet", "--out", str(target))
    assert code == 2 and str(target) in err and "read-only" in err
    assert target.read_text(encoding="utf-8") == "keep me"


def test_out_refuses_a_read_only_file_even_as_root(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "ro.txt"
    target.write_text("keep me", encoding="utf-8")
    monkeypatch.setattr(os, "access", lambda p, mode: str(p) != str(target))
    with pytest.raises(OSError) as info:
        write_output(str(target), "new")
    assert info.value.filename == str(target) and "read-only" in str(info.value.strerror)
    assert target.read_text(encoding="utf-8") == "keep me"


def test_out_names_the_destination_when_its_folder_is_missing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dest = tmp_path / "no" / "such" / "match.txt"
    code, _, err = run(capsys, "play", "marianna", "--quiet", "--out", str(dest))
    assert code == 2 and str(dest) in err and ".tmp" not in err


def test_out_keeps_the_mode_of_a_file_it_replaces(tmp_path: Path) -> None:
    target = tmp_path / "m.txt"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o600)
    write_output(str(target), "new")
    assert target.read_text(encoding="utf-8") == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_a_killed_runs_temporary_file_is_cleaned(tmp_path: Path) -> None:
    # a process that has ended stands for the killed run
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    pid = int(dead.stdout)
    left = tmp_path / f".m.txt.mariage-{pid}-abc123.tmp"
    left.write_text("half a rec", encoding="utf-8")
    live = tmp_path / f".m.txt.mariage-{os.getppid()}-def456.tmp"
    live.write_text("a run still going", encoding="utf-8")
    write_output(str(tmp_path / "m.txt"), "whole\n")
    assert not left.exists()
    assert live.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["m.txt", live.name])


# ---- --spec and the search path


HOUSE = """\
extends: mariglia
ruleset: house
name: House Mariglia
"""


def test_records_of_an_own_ruleset_validate_and_replay(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    spec = tmp_path / "house-rules.yaml"
    spec.write_text(HOUSE, encoding="utf-8")
    rec = tmp_path / "house.txt"
    try:
        code, _, err = run(capsys, "play", str(spec), "--quiet", "--out", str(rec))
        assert code == 0, err
        assert '[Ruleset "house"]' in rec.read_text(encoding="utf-8")
        unregister_spec("house")
        # without the description, the ruleset is unknown
        code, out, _ = run(capsys, "validate", str(rec))
        assert code == 1 and "N122" in out
        code, out, err = run(capsys, "validate", "--spec", str(spec), str(rec))
        assert code == 0, out + err
        code, out, err = run(capsys, "replay", str(rec), "--spec", str(spec))
        assert code == 0 and "Result:" in out, err
        code, out, err = run(capsys, "view", str(rec), "--seat", "N", "--spec", str(spec))
        assert code == 0 and "[Ruleset" in out, err
        code, out, err = run(capsys, "rules", "house", "--spec", str(spec))
        assert code == 0 and "House Mariglia" in out
        unregister_spec("house")
        # a folder on MARIAGE_SPEC_PATH: the file is found by the ruleset's name
        (tmp_path / "lib").mkdir()
        (tmp_path / "lib" / "house.yaml").write_text(HOUSE, encoding="utf-8")
        monkeypatch.setenv("MARIAGE_SPEC_PATH", str(tmp_path / "lib"))
        code, out, err = run(capsys, "validate", str(rec))
        assert code == 0, out + err
    finally:
        unregister_spec("house")


def test_validate_jobs_sees_the_spec(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "h.yaml"
    spec.write_text(HOUSE, encoding="utf-8")
    rec = tmp_path / "h.txt"
    try:
        assert main(["play", str(spec), "--quiet", "--out", str(rec)]) == 0
        rec.write_text("\n".join([rec.read_text(encoding="utf-8")] * 3), encoding="utf-8")
        unregister_spec("house")
        code, out, err = run(capsys, "validate", "--jobs", "2", "--spec", str(spec), str(rec))
        assert code == 0, out + err
    finally:
        unregister_spec("house")


def test_bad_spec_given_with_spec_is_exit_1(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "bad.yaml"
    spec.write_text("extends: marianna\nruleset: bad\nplayers: {count: many}\n", encoding="utf-8")
    code, _, err = run(capsys, "validate", "--spec", str(spec), "x.txt")
    assert code == 1 and f"{spec}:3:" in err and err.count("\n") == 1


@pytest.mark.parametrize("seed", ["-5", str(1 << 64), "9" * 5000, "1e3", ""])
def test_seed_out_of_range_is_a_usage_error(seed: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["play", "marianna", "--quiet", "--seed", seed])
    err = capsys.readouterr().err
    assert info.value.code == 2
    assert err.count("\n") == 1 and len(err) < 400 and "seed" in err


def test_largest_seed_plays(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "marianna", "--quiet", "--seed", str((1 << 64) - 1)]) == 0
    assert "wins" in capsys.readouterr().out


def test_a_removed_working_folder_is_not_a_crash(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    before = os.getcwd()
    os.chdir(gone)
    try:
        gone.rmdir()
        code, out, err = run(capsys, "rules", "mariglia")
    finally:
        os.chdir(before)
    assert code == 0 and "Mariglia" in out, err
