"""The census's ``--offset J`` (seventeenth session): with ``--every K`` the offsets 0 to
K-1 share a ruleset's configurations out between K runs, each with the defaults, and the
default offset keeps the sample the census took before the option."""

from __future__ import annotations

import pytest
from mariage.conformance import census
from mariage.conformance.census import CensusRow, configurations, main, sampled
from mariage.conformance.configuration import Configuration

RULESETS = ["mariglia", "thousand-pl"]


def _run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
         argv: list[str]) -> list[str]:
    """The labels of the configurations ``main(argv)`` takes, without deriving a suite."""
    taken: list[str] = []

    def row(config: Configuration) -> CensusRow:
        taken.append(config.label)
        return CensusRow(config.label, 1, 1, 100.0, {}, ())

    monkeypatch.setattr(census, "census_row", row)
    assert main(argv) == 0
    capsys.readouterr()
    return taken


@pytest.fixture(scope="module")
def labels() -> dict[str, list[str]]:
    return {r: [c.label for c in configurations(r)] for r in RULESETS}


@pytest.mark.parametrize("every", [3, 8])
def test_the_offsets_share_the_configurations_out(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        labels: dict[str, list[str]], every: int) -> None:
    defaults = [ls[0] for ls in labels.values()]
    others = [label for ls in labels.values() for label in ls[1:]]
    seen: list[str] = []
    for offset in range(every):
        taken = _run(monkeypatch, capsys,
                     [*RULESETS, "--every", str(every), "--offset", str(offset)])
        assert [t for t in taken if t in defaults] == defaults
        seen += [t for t in taken if t not in defaults]
    assert sorted(seen) == sorted(others)          # each one once: a partition
    assert len(seen) == len(set(seen))


def test_the_default_offset_keeps_the_sample_taken_before(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        labels: dict[str, list[str]]) -> None:
    before = [label for ls in labels.values() for i, label in enumerate(ls) if i % 8 == 0]
    assert _run(monkeypatch, capsys, [*RULESETS, "--every", "8"]) == before
    assert _run(monkeypatch, capsys, [*RULESETS, "--every", "8", "--offset", "0"]) == before
    assert _run(monkeypatch, capsys, RULESETS) == [label for ls in labels.values()
                                                   for label in ls]


def test_an_offset_outside_the_sample_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mariglia", "--every", "4", "--offset", "4"]) == 2
    assert main(["mariglia", "--offset", "-1"]) == 2
    assert "--offset" in capsys.readouterr().err


def test_sampled() -> None:
    assert [i for i in range(12) if sampled(i, 4, 3)] == [0, 3, 7, 11]
    assert [i for i in range(12) if sampled(i, 4)] == [0, 4, 8]
    assert all(sampled(i) for i in range(5))
