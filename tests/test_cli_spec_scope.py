"""A command's ``--spec`` and ``--allow-extends-anywhere`` hold for that command only:
a second :func:`mariage.cli.main` in the same process (a test run, a notebook) lists and
reads only what it is given. (They once stayed: ``list`` after ``conformance --spec``
showed the house ruleset, and the spec files' variable stayed in the environment.)"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from mariage.cli import main
from mariage.spec.specload import register_spec
from mariage.spec.specnames import registered_specs, unregister_spec

HOUSE = "extends: mariglia\nruleset: mariglia-scope-house\nname: House\n"


def _listed(capsys: pytest.CaptureFixture[str]) -> list[str]:
    assert main(["list"]) == 0
    return [line.split()[0] for line in capsys.readouterr().out.splitlines() if line.strip()]


def test_a_spec_given_to_one_command_is_not_known_to_the_next(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(HOUSE, encoding="utf-8")
    env_before = os.environ.get("MARIAGE_SPEC_FILES")
    assert main(["rules", "mariglia-scope-house", "--spec", str(house)]) == 0
    assert "House" in capsys.readouterr().out
    assert "mariglia-scope-house" not in _listed(capsys)
    assert registered_specs() == {}
    assert os.environ.get("MARIAGE_SPEC_FILES") == env_before
    assert main(["rules", "mariglia-scope-house"]) != 0  # unknown again
    assert "mariglia-scope-house" in capsys.readouterr().err


def test_a_failing_command_forgets_its_specs_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(HOUSE, encoding="utf-8")
    assert main(["rules", "no-such-ruleset", "--spec", str(house)]) != 0
    capsys.readouterr()
    assert registered_specs() == {}
    assert "mariglia-scope-house" not in _listed(capsys)


def test_what_the_caller_registered_stays(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(HOUSE, encoding="utf-8")
    other = tmp_path / "other.yaml"
    other.write_text(HOUSE.replace("scope-house", "scope-other"), encoding="utf-8")
    register_spec(house)
    try:
        assert main(["list", "--spec", str(other)]) == 0
        listed = capsys.readouterr().out
        assert "mariglia-scope-other" in listed and "mariglia-scope-house" in listed
        assert list(registered_specs()) == ["mariglia-scope-house"]
    finally:
        unregister_spec("mariglia-scope-house")


def test_allow_extends_anywhere_is_undone(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(HOUSE, encoding="utf-8")
    before = os.environ.get("MARIAGE_EXTENDS_ANYWHERE")
    assert main(["rules", "mariglia-scope-house", "--spec", str(house),
                 "--allow-extends-anywhere"]) == 0
    capsys.readouterr()
    assert os.environ.get("MARIAGE_EXTENDS_ANYWHERE") == before
