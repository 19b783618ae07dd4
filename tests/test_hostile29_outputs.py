"""An output never replaces a game description the command reads: ``stats --spec h.yaml
--out h.yaml`` wrote its report over the description, and ``conformance --ruleset
mariazza --json spec/mariazza.yaml`` (or ``stats``, ``render``, ``match --out``) over a
bundled one, after which every command failed on it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hostilekit import forget_house, run_cli

RECORDS = Path(__file__).resolve().parent / "data" / "records"
HOUSE = "ruleset: house\nextends: mariazza\nname: House\n"


def _record(tmp_path: Path, capsys: pytest.CaptureFixture[str], *spec: str) -> Path:
    out = tmp_path / "m.mrg"
    code, _, err = run_cli(["play", *spec, "mariazza" if not spec else "house", "-q",
                            "--out", str(out)], capsys)
    assert code == 0, err
    return out


@pytest.mark.usefixtures(forget_house.__name__)
def test_stats_does_not_write_over_the_spec_it_reads(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "house.yaml"
    spec.write_text(HOUSE, encoding="utf-8")
    record = _record(tmp_path, capsys, "--spec", str(spec))
    code, _, err = run_cli(["stats", "--spec", str(spec), "--out", str(spec), str(record)],
                           capsys)
    assert code == 2 and "is also a file this command reads; not replaced" in err, err
    assert spec.read_text(encoding="utf-8") == HOUSE


@pytest.mark.parametrize("argv", [
    ["stats", "--out", "{dest}", "{record}"],
    ["render", "--html", "{dest}", "{record}"],
    ["match", "mariazza", "-b", "A=random", "-b", "B=random", "-n", "1", "--out", "{dest}"],
    ["conformance", "--ruleset", "mariazza", "--kind", "perft", "--json", "{dest}"]])
def test_no_output_writes_over_a_bundled_description(
        argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """(the bundled folder is a copy here, so that the old code harms no checkout)"""
    import mariage.resources
    from mariage.resources import spec_dir

    record = _record(tmp_path, capsys)
    bundled = tmp_path / "spec"
    shutil.copytree(spec_dir(), bundled)
    monkeypatch.setattr(mariage.resources, "spec_dir", lambda: bundled)
    dest = bundled / "thousand.yaml"
    before = dest.read_bytes()
    code, _, err = run_cli([a.format(dest=dest, record=record) for a in argv], capsys)
    assert code == 2 and "is also a file this command reads; not replaced" in err, err
    assert dest.read_bytes() == before
