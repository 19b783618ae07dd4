"""The Thousand engine in plain Node.js, now at every option value, against the suite.

``conformance/examples/thousand_engine.js`` plays the four Thousand rulesets (``thousand``,
``thousand-2``, ``thousand-4``, ``thousand-pl``) at every value of all 66 options,
written from the documents alone. It must pass every stored test of each ruleset (none
skipped, every rule in force checked, ``thousand.auction.no-bid`` with
``opening_bid=none`` included), agree with the reference answer for answer in random
matches with random options and random illegal actions, and each planted fault
(``--fault MODE``) must fail, charged to the rule it breaks. Five of the faults are
mistakes the stored suite did not see before the scenarios
``thousand/play/marriage-notrump`` (``marriage:H:notrump`` taken as a plain marriage),
``thousand/running/dump-score``, ``barrel-score`` and ``golden-reset-score`` (the hand's
score counting a dump, the barrel's clamp, the golden reset) and
``thousand/play/marriage-auto-only-pair`` (a lone declarable pair must be declared); two
more before ``thousand-2/talon/packets-when`` and ``thousand/core/concede-off`` (the
refusals of a packet chosen in the auction and of a concession where there is none), and
one before ``thousand-4/talon/sitter-concede`` (seen only by a golden test, charged to
another rule), one before ``thousand-4/running/barrel-sitter`` (a hand sat out using a
barrel attempt), one before ``thousand/throw-in/weak-talon-golden`` and
``weak-talon-excused`` (the talon claims granted to a golden hand's forced 120, refused
to an unraised lowest bid after forehand, allowed no bid, passed), one before
``thousand/throw-in/weak-talon-unshown`` (a claim on a talon nobody was shown), one
before ``thousand/play/ace-marriage-auto`` (an ace led plain under auto-declare).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import nodekit
import pytest
from enginediff import Reference
from mariage.conformance.client import EngineClient, ProcessTransport

ENGINE = nodekit.EXAMPLES / "thousand_engine.js"
RULESETS = ("thousand", "thousand-2", "thousand-4", "thousand-pl")
PACK = [r + s for s in "HDCS" for r in "ATKQJ9"]


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str,
        fault: str | None = None) -> tuple[int, str, dict[str, Any]]:
    """``mariage conformance`` against the JS engine: exit code, output, JSON report."""
    return nodekit.run_engine(ENGINE, tmp_path, capsys, *args, fault=fault)


def clients() -> tuple[Reference, EngineClient]:
    """The reference (in this process) and the JS engine (a subprocess), said hello to."""
    ref = Reference()
    js = EngineClient(lambda: ProcessTransport(f"{nodekit.node()} {ENGINE}"), timeout=20)
    js.hello()
    return ref, js


def test_the_example_needs_nothing_but_node() -> None:
    source = ENGINE.read_text()
    assert not re.search(r"\brequire\(", source)  # no module, not even node's own
    assert "mariage conformance --engine" in source.split("'use strict'")[1][:1500]


def test_hello_offers_every_option_value_the_reference_does() -> None:
    ref, js = clients()
    try:
        theirs = ref.request({"type": "hello", "protocol": 2})["rulesets"]
        ours = js.request({"type": "hello", "protocol": 2})["rulesets"]
    finally:
        ref.close()
        js.close()
    assert sorted(ours) == list(RULESETS)
    for ruleset in RULESETS:
        assert len(ours[ruleset]["options"]) == 66
        for name, spec in theirs[ruleset]["options"].items():
            mine = ours[ruleset]["options"][name]
            keys = ("type", "default", "values", "min", "max")
            assert {k: mine.get(k) for k in keys} == {k: spec.get(k) for k in keys}, name


@pytest.mark.parametrize("ruleset", RULESETS)
def test_passes_every_stored_test_of_each_ruleset(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], ruleset: str) -> None:
    code, out, report = run(tmp_path, capsys, "--ruleset", ruleset)
    assert code == 0, out[-3000:]
    assert report["tests"] and all(t["status"] == "pass" for t in report["tests"])
    [coverage] = report["coverage"]
    assert coverage["percent"] == 100.0 and coverage["unchecked"] == [], coverage
    assert report["refusals"]["named"] == report["refusals"]["expected"] > 20
    if ruleset == "thousand":
        ids = {t["id"] for t in report["tests"]}
        assert {"thousand/play/marriage-notrump", "thousand/running/dump-score"} <= ids


def _option_value(rng: random.Random, spec: dict[str, Any]) -> Any:
    if spec["type"] == "bool":
        return rng.choice([True, False])
    if spec["type"] == "enum":
        return rng.choice(spec["values"])
    lo, hi = spec["min"], spec["max"]
    return rng.choice([lo, spec["default"], rng.randint(lo, min(hi, lo + 300))])


_WORDS = ["pass", "keep", "concede", "redeal", "dark:120", "dark:100", "bid:95", "bid:130",
          "raise:400", "talon:1", "talon:3", "aces:H", "marriage:S", "marriage:H:notrump",
          "give:AH", "give:9S+9D", "kontra", "yes", "bid:120"]


def _random_match(seed: int, steps: int) -> int:
    """One match with random options; every answer of the two engines compared. Returns
    the number of requests."""
    rng = random.Random(seed)
    ref, js = clients()
    sent = 0

    def both(req: dict[str, Any]) -> dict[str, Any]:
        nonlocal sent
        sent += 1
        a, b = ref.request(dict(req)), js.request(dict(req))
        for r in (a, b):
            r.pop("message", None)
            if r.get("type") == "state":
                r["hands"] = [sorted(h) for h in r["hands"]]
            if r.get("type") == "legal":
                r["actions"] = sorted(r["actions"])
        assert a == b, (seed, req)
        return a

    try:
        ruleset = rng.choice(RULESETS)
        specs = ref.request({"type": "hello", "protocol": 2})["rulesets"][ruleset]["options"]
        options = {n: _option_value(rng, specs[n]) for n in rng.sample(sorted(specs), 4)}
        deck = PACK[:]
        rng.shuffle(deck)
        start = {"type": "start", "ruleset": ruleset, "options": options, "dealer": 1,
                 "deck": deck}
        if both(start)["type"] != "ok":
            return sent
        nodekit.random_walk(both, rng, deck, _WORDS, steps, noise=0.15, prefer_said=0,
                            cards=PACK)
    finally:
        ref.close()
        js.close()
    return sent


def test_random_matches_agree_with_the_reference_answer_for_answer() -> None:
    assert sum(_random_match(seed, 300) for seed in range(8)) > 2000


#: fault -> (ruleset, the rule a failing stored test is charged to)
FAULTS = {
    "first-marriage-trump": ("thousand", "thousand.marriage.trump"),
    "tie-higher-total": ("thousand", "thousand.match.tie"),
    "win-more-than": ("thousand", "thousand.running.win"),
    "barrel-made-no-clamp": ("thousand", "thousand.running.barrel"),
    "resign-best-other": ("thousand", "core.resign"),
    "clamp-in-score": ("thousand", "thousand.running.barrel"),
    "marriage-notrump": ("thousand", "thousand.marriage.trump"),
    "dump-in-score": ("thousand", "thousand.running.dump"),
    "sitter-concede-nothing": ("thousand-4", "thousand.talon.sitter"),
    "golden-reset-in-score": ("thousand", "thousand.running.golden"),
    "auto-strict": ("thousand", "thousand.marriage.auto"),
    "talon-core-phase": ("thousand-2", "thousand.talon.packets"),
    "concede-off-illegal": ("thousand", "thousand.contract.concede"),
    "sitter-attempt": ("thousand-4", "thousand.running.barrel"),
    "claim-forced-bid": ("thousand", "thousand.throw-in.weak-talon"),
    "claim-unshown": ("thousand", "thousand.throw-in"),
    "auto-no-aces": ("thousand", "thousand.marriage.auto"),
}


#: faults run only against the tests of these rules (the CI's time)
NARROW = {"claim-forced-bid": "thousand.throw-in.", "claim-unshown": "thousand.throw-in.",
          "auto-no-aces": "thousand.marriage.auto"}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_each_planted_fault_fails_naming_its_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fault: str) -> None:
    ruleset, rule = FAULTS[fault]
    narrow = ["--rule", NARROW[fault]] if fault in NARROW else []
    code, out, report = run(tmp_path, capsys, "--ruleset", ruleset, "--kind", "scenario",
                            "--kind", "option", *narrow, fault=fault)
    assert code == 1, out[-3000:]
    failed = [t for t in report["tests"] if t["status"] == "fail"]
    assert any(rule in t["charged"] for t in failed), [(t["id"], t["charged"]) for t in failed]
    assert report["rules"][rule]["fail"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["thousand", "thousand-4"])  # (the CI's time)
def test_passes_the_suite_derived_for_each_ruleset(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], ruleset: str) -> None:
    code, out, report = run(tmp_path, capsys, "--ruleset", ruleset, "--derived",
                            "--min-coverage", "100")
    assert code == 0, out[-3000:]
    [coverage] = report["coverage"]
    assert coverage["percent"] == 100.0 and coverage["unchecked"] == [], coverage
    assert all(t["status"] in ("pass", "skip") for t in report["tests"])
    assert sum(t["status"] == "pass" for t in report["tests"]) > 80


@pytest.mark.slow
def test_passes_the_suites_of_a_declared_house_configuration(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    engine = f"{ENGINE} --house thousand-4:sitter=opposite,sitter_score=card_points"
    code, out, report = nodekit.run_engine(Path(engine), tmp_path, capsys, "--declared")
    assert code == 0, out[-3000:]
    assert all(t["status"] in ("pass", "skip") for t in report["tests"])
    passed = [t for t in report["tests"] if t["status"] == "pass"]
    assert sum(t["ruleset"] == "thousand-4" for t in passed) > 50
