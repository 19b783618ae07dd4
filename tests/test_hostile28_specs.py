"""The twenty-eighth session's hostile sweep of game descriptions: one saved as UTF-16
(an editor's "Unicode") was ``not UTF-8 text (byte 0)``, or, without its byte-order
mark, a NUL character refused by YAML or a byte further on; now it says what it is. An
option whose min is above its max is named so (its default was blamed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostilekit import forget_house, run_cli

HOUSE = "ruleset: house\nextends: mariazza\nname: Müller\n"


@pytest.mark.parametrize(("encoding", "what"), [
    ("utf-16", "UTF-16 text (little-endian, with a byte-order mark)"),
    ("utf-16-le", "UTF-16 text (little-endian, without a byte-order mark)"),
    ("utf-16-be", "UTF-16 text (big-endian, without a byte-order mark)"),
    ("utf-32", "UTF-32 text (little-endian, with a byte-order mark)")])
def test_a_description_in_utf16_says_so(encoding: str, what: str, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "house.yaml"
    spec.write_bytes(HOUSE.encode(encoding))
    code, out, err = run_cli(["check-spec", str(spec)], capsys)
    assert code == 1 and (out + err).count("\n") == 1, out + err
    assert f"house.yaml:1:1: the file is {what}: a description is UTF-8 text [S003]" \
        in out + err, out + err


def test_a_gzip_description_is_not_told_to_be_named_gz(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A description is never read compressed: the hint of a record file is not given."""
    spec = tmp_path / "house.yaml"
    spec.write_bytes(b"\x1f\x8b\x08\x00" + HOUSE.encode())
    code, out, err = run_cli(["check-spec", str(spec)], capsys)
    assert code == 1 and ".gz" not in out + err and "S003" in out + err, out + err


@pytest.mark.usefixtures(forget_house.__name__)
@pytest.mark.parametrize(("bounds", "told"), [
    ("    min: 5000\n    max: 10\n", "min 5000 is above max 10"),
    ("    min: 20000\n", "min 20000 is above max 10000")])
def test_an_option_whose_min_is_above_its_max_is_named_so(
        bounds: str, told: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It was the default that was blamed: ``must be between 5000 and 10, got 41``."""
    spec = tmp_path / "house.yaml"
    spec.write_text("ruleset: house\nextends: mariazza\noptions:\n  target:\n" + bounds,
                    encoding="utf-8")
    for argv in (["check-spec", str(spec)], ["play", "house", "--spec", str(spec)]):
        code, out, err = run_cli(argv, capsys)
        assert code == 1 and "house.yaml:5:10: at 'options.target.min': option 'target': " \
            f"{told}, so no value is allowed [S020]" in out + err, out + err
