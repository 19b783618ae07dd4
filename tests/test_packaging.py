"""Packaging: licence, metadata, one version, typed, the schema published where its $id says,
and ``--regenerate`` that never writes into an installed package."""

from __future__ import annotations

import json
import runpy
import tomllib
from pathlib import Path

import mariage
import pytest
from mariage.cli import main
from mariage.resources import schema_path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]


def test_the_licence_file_is_the_mit_licence_the_metadata_names() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "WITHOUT WARRANTY OF ANY KIND" in text
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]


def test_one_source_for_the_version() -> None:
    assert "version" not in PROJECT and "version" in PROJECT["dynamic"]
    source = ROOT / PYPROJECT["tool"]["hatch"]["version"]["path"]
    assert f'__version__ = "{mariage.__version__}"' in source.read_text(encoding="utf-8")


def test_metadata_says_who_what_and_that_the_package_is_typed() -> None:
    assert PROJECT["authors"] and all(a.get("name") for a in PROJECT["authors"])
    assert "Typing :: Typed" in PROJECT["classifiers"]
    assert not any(c.startswith("License ::") for c in PROJECT["classifiers"])  # PEP 639
    assert (Path(mariage.__file__).parent / "py.typed").is_file()
    assert {"Documentation", "Changelog", "Schema"} <= set(PROJECT["urls"])


def test_the_schema_is_published_in_the_docs_at_its_id() -> None:
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    home = PROJECT["urls"]["Documentation"]
    assert schema["$id"] == PROJECT["urls"]["Schema"] and schema["$id"].startswith(home)
    conf = runpy.run_path(str(ROOT / "docs" / "conf.py"))
    (extra,) = conf["html_extra_path"]
    published = ROOT / "docs" / extra / schema["$id"][len(home):]
    assert json.loads(published.read_text(encoding="utf-8")) == schema


def test_regenerate_never_writes_into_an_installed_package(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from mariage.commands import conformance_cmd

    installed = tmp_path / "site-packages" / "mariage" / "_data"
    suite = installed / "conformance"
    (suite / "tests").mkdir(parents=True)
    monkeypatch.setattr(conformance_cmd, "INSTALLED", installed)
    code = main(["conformance", "--regenerate", "--suite", str(suite)])
    err = capsys.readouterr().err
    assert code == 2 and "installed package" in err and err.count("\n") == 1
    assert list((suite / "tests").iterdir()) == []
