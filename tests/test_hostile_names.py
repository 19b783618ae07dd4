"""A record names a ruleset, never a file; ``extends:`` stays in its folders (issue #26.1).

A service that validates uploaded records must not be made to read (and quote)
files of its own choosing; a file in the working folder must not stand in for a
bundled ruleset.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hostilekit import deadline
from mariage.cli import main
from mariage.resources import spec_dir
from mariage.spec import rulesload as compile_
from mariage.spec.specload import EXTENDS_ANYWHERE_ENV, resolve_name, resolve_ruleset

SECRET = "secret-token-4711"
SPEC_DIR = Path(__file__).resolve().parent.parent / "spec"


def _record(ruleset: str) -> str:
    return f'[Mariage "1"]\n[Ruleset "{ruleset}"]\n[Dealer "N"]\nresult *\n'


@pytest.fixture(autouse=True)
def _fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MARIAGE_NO_CACHE", "1")
    monkeypatch.delenv(EXTENDS_ANYWHERE_ENV, raising=False)
    compile_._RULES_CACHE.clear()
    compile_._DOCUMENTS.clear()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("tag", ["{dir}/secret.yaml", "secret.yaml", "./secret.yaml",
                                 "../{base}/secret.yaml", "secret", "/etc/passwd"])
def test_a_record_tag_is_never_read_as_a_path(tag: str, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "secret.yaml").write_text(f"ruleset: x\n{SECRET}: 1\n", encoding="utf-8")
    (tmp_path / "secret").write_text(f"ruleset: x\n{SECRET}: 1\n", encoding="utf-8")
    tag = tag.format(dir=tmp_path, base=tmp_path.name)
    rec = tmp_path / "a.mrg"
    rec.write_text(_record(tag), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "validate", str(rec))
    assert code == 1
    assert SECRET not in out + err
    assert (" N122 " in out and "not a file" in out) or "unknown ruleset" in out


def test_a_file_in_the_working_folder_does_not_replace_a_bundled_ruleset(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    impostor = (SPEC_DIR / "marianna.yaml").read_text(encoding="utf-8")
    (tmp_path / "mariglia").write_text(impostor, encoding="utf-8")
    (tmp_path / "mariglia.yaml").write_text(impostor, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "rules", "mariglia")
    assert code == 0 and out.startswith("Mariglia") and "Marianna" not in out.splitlines()[0]
    assert resolve_ruleset("mariglia") == resolve_name("mariglia")
    # the bundled folder: the checkout's spec/, or the installed package's copy of it
    assert resolve_name("mariglia").parent.resolve() == spec_dir().resolve()
    rec = tmp_path / "g.mrg"
    assert main(["play", "mariglia", "--seed", "5", "--quiet", "--out", str(rec)]) == 0
    code, out, _ = run(capsys, "validate", str(rec))
    assert code == 0, out
    code, out, _ = run(capsys, "rules", "./mariglia")  # named as a path: the user's choice
    assert code == 0 and out.startswith("Marianna")


def _house(folder: Path, extends: str) -> Path:
    spec = folder / "house.yaml"
    spec.write_text(f"extends: {extends}\nruleset: house\nname: House\n", encoding="utf-8")
    return spec


def test_extends_outside_its_folder_is_refused_before_reading(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "secret.yaml").write_text(f"ruleset: x\n{SECRET}: 1\n", encoding="utf-8")
    for target in ["../b/secret.yaml", str(tmp_path / "b" / "secret.yaml"), "/etc/passwd"]:
        spec = _house(tmp_path / "a", target)
        code, out, err = run(capsys, "rules", str(spec))
        assert code == 1 and out == "" and SECRET not in err and "root:" not in err
        assert "--allow-extends-anywhere" in err and "[S004]" in err and err.count("\n") == 1
    # a link in the folder to a file outside it is outside too
    os.symlink(tmp_path / "b" / "secret.yaml", tmp_path / "a" / "link.yaml")
    code, _, err = run(capsys, "rules", str(_house(tmp_path / "a", "link.yaml")))
    assert code == 1 and SECRET not in err and "outside" in err
    # the explicit flag lets it through: the file is then read and its faults reported
    code, _, err = run(capsys, "rules", str(_house(tmp_path / "a", "../b/secret.yaml")),
                       "--allow-extends-anywhere")
    assert code == 1 and "unexpected key" in err


def test_extends_inside_its_folder_or_the_search_path_works(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "lib").mkdir()
    base = (SPEC_DIR / "schnapsen.yaml").read_text(encoding="utf-8")
    (tmp_path / "a" / "mine.yaml").write_text(base, encoding="utf-8")
    (tmp_path / "lib" / "theirs.yaml").write_text(base, encoding="utf-8")
    code, out, err = run(capsys, "rules", str(_house(tmp_path / "a", "mine.yaml")))
    assert code == 0 and out.startswith("House"), err
    code, out, err = run(capsys, "rules", str(_house(tmp_path / "a", "mine")))
    assert code == 0 and out.startswith("House"), err
    spec = _house(tmp_path / "a", "../lib/theirs.yaml")
    assert run(capsys, "rules", str(spec))[0] == 1
    monkeypatch.setenv("MARIAGE_SPEC_PATH", str(tmp_path / "lib"))
    code, out, err = run(capsys, "rules", str(spec))
    assert code == 0 and out.startswith("House"), err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_named_as_a_description_is_refused_without_blocking(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    with deadline(20):
        code, _, err = run(capsys, "rules", str(tmp_path / "pipe.yaml"))
        assert code == 2 and "not a regular file" in err and err.count("\n") == 1
        code, _, err = run(capsys, "rules", str(_house(tmp_path, "pipe")))
        assert code == 1 and "not a regular file" in err and "[S004]" in err
        code, _, err = run(capsys, "validate", "--spec", str(tmp_path / "pipe.yaml"), "x.mrg")
        assert code == 2 and "not a regular file" in err
        search = tmp_path / "search"
        search.mkdir()
        os.mkfifo(search / "house.yaml")  # on the search path: not a ruleset, not waited on
        os.environ["MARIAGE_SPEC_PATH"] = str(search)
        try:
            code, _, err = run(capsys, "rules", "house")
        finally:
            del os.environ["MARIAGE_SPEC_PATH"]
        assert code == 2 and "unknown ruleset 'house'" in err and ", house" not in err


def test_a_file_named_like_a_ruleset_is_not_read_but_hinted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "house").write_text(f"ruleset: house\n{SECRET}: 1\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for command in (["rules", "house"], ["play", "house"], ["check-spec", "house"]):
        code, out, err = run(capsys, *command)
        assert code == 2 and SECRET not in out + err, command
        assert "give it as a path: ./house" in out + err
    code, _, err = run(capsys, "rules", "./house")  # named as a path: read, faults quoted
    assert code == 1 and "unexpected key" in err


def test_long_values_in_records_and_arguments_are_quoted_cut(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = tmp_path / "long.mrg"
    rec.write_text(_record("marianna").replace(
        "result *", f'[Option "{"x" * 60_000}" "1"]\nresult *'), encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(rec))
    assert code == 1 and " N123 " in out and max(map(len, out.splitlines())) < 600
    played = tmp_path / "m.mrg"
    assert main(["play", "marianna", "--seed", "2", "--quiet", "--out", str(played)]) == 0
    capsys.readouterr()
    code, _, err = run(capsys, "render", str(played), "--svg", str(tmp_path / "o.svg"),
                       "--hand", "9" * 4000)
    assert code == 2 and err.count("\n") == 1 and len(err) < 1200
    assert "no hand <a whole number of about 10**" in err  # named by its size


def test_a_long_unknown_name_is_cut_in_the_message(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "rules", "x" * 100_000)
    assert code == 2 and len(err) < 2000 and "100000 characters" in err


@pytest.mark.parametrize("command", [["replay", "{rec}"], ["replay", "{rec}", "--format", "json"],
                                     ["view", "{rec}", "-s", "N"],
                                     ["render", "{rec}", "--html", "{dir}/page.html"]])
def test_no_command_reads_the_file_a_record_names(command: list[str], tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "secret.yaml").write_text(f"ruleset: x\n{SECRET}: 1\n", encoding="utf-8")
    rec = tmp_path / "a.mrg"
    rec.write_text(_record(str(tmp_path / "secret.yaml")), encoding="utf-8")
    argv = [a.format(rec=rec, dir=tmp_path) for a in command]
    code, out, err = run(capsys, *argv)
    pages = "".join(p.read_text(encoding="utf-8") for p in tmp_path.glob("*.html"))
    assert code == 1 and "N122" in out + err + pages  # render shows it in the page
    assert SECRET not in out + err + pages
