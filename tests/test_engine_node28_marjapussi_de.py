"""The Node.js engine of the German bidding Marjapussi against the suites and the
reference.

``conformance/examples/marjapussi_de_engine.js``, written from the user docs alone, plays
``marjapussi-de`` at every value of its 30 options (the Finnish ``marjapussi``, which
shares little with it, is ``marjapussi_engine.js``). It must pass every stored test of the
ruleset (every rule in force checked, every refusal's rule named), the suites derived for
single-option configurations (run by hand: they cost seconds each), and agree with the
reference answer for answer in random matches with random options and random illegal
actions. Each planted fault (``--fault
MODE``) is a mistake made while writing the engine that the stored and derived suites
passed at 100%: it must now fail the stored scenario named in ``FAULTS``, charged to its
rule.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import enginediff
import nodekit
import pytest

ENGINE = nodekit.EXAMPLES / "marjapussi_de_engine.js"
RULESET = "marjapussi-de"
PACK = [r + s for s in "HDCS" for r in "ATKQJ9876"]


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str,
        fault: str | None = None) -> tuple[int, str, dict[str, Any]]:
    """``mariage conformance`` against the JS engine: exit code, output, JSON report."""
    return nodekit.run_engine(ENGINE, tmp_path, capsys, *args, fault=fault)


def test_the_example_needs_nothing_but_node() -> None:
    assert nodekit.needs_nothing_but_node(ENGINE)


def test_hello_offers_every_option_value_the_reference_does() -> None:
    theirs, ours = nodekit.rulesets_offered(ENGINE)
    assert list(ours) == [RULESET]
    keys = ("type", "default", "values", "min", "max")
    specs = theirs[RULESET]["options"]
    assert sorted(ours[RULESET]["options"]) == sorted(specs) and len(specs) == 30
    for name, spec in specs.items():
        mine = ours[RULESET]["options"][name]
        assert {k: mine.get(k) for k in keys} == {k: spec.get(k) for k in keys}, name


def test_passes_the_stored_scenarios_naming_every_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The scenario and option tests (the golden and perft tests and the derived suites,
    which cost seconds, pass too: run by hand, figures in docs/conformance.rst)."""
    code, out, report = run(tmp_path, capsys, "--ruleset", RULESET, "--require-rule-ids",
                            "--min-coverage", "100", "--kind", "scenario", "--kind", "option")
    assert code == 0, out[-3000:]
    assert len(report["tests"]) > 35 and all(t["status"] == "pass" for t in report["tests"])
    [coverage] = report["coverage"]
    assert coverage["percent"] == 100.0 and coverage["unchecked"] == [], coverage
    assert report["refusals"]["named"] == report["refusals"]["expected"] > 40


def _option_value(rng: random.Random, spec: dict[str, Any]) -> Any:
    if spec["type"] == "bool":
        return rng.choice([True, False])
    if spec["type"] == "enum":
        return rng.choice(spec["values"])
    return rng.choice([spec["min"], spec["max"], spec["default"], spec["default"]])


def _noise(rng: random.Random, hands: list[list[str]]) -> str:
    suit = rng.choice("HDCS")
    held = [c for h in hands for c in h]
    four = "+".join(rng.sample(held, 4)) if len(held) >= 4 else "AH"
    return rng.choice([
        rng.choice(PACK), rng.choice(held or PACK), "pass", "yes", "no", f"yes:{suit}",
        f"call:{suit}", "ask:pair", f"ask:half:{suit}", "kontra", "re", "keep",
        f"raise:{rng.choice([120, 125, 133, 200, 420, 425])}", f"give:{four}",
        f"bid:{rng.choice([5, 115, 120, 122, 125, 130, 300, 420, 425, 440])}", "callout",
        "close", "marriage:H", "ask:partner", "KX", "bid:0120"])


def _pick(rng: random.Random, acts: list[str]) -> str:
    """A legal action: mostly a pass or a low bid in the auction, a call or a question
    where there is one, else any."""
    bids = [a for a in acts if a.startswith("bid:")]
    if bids:
        return rng.choice(bids[:6]) if rng.random() < 0.35 else "pass"
    said = [a for a in acts if a.startswith(("call", "ask", "yes", "kontra", "re"))]
    if said and rng.random() < 0.6:
        return rng.choice(said)
    return rng.choice(acts)


def random_match(seed: int, steps: int) -> int:
    """One match with random options; every answer of the two engines compared. Returns
    the number of requests."""
    rng = random.Random(seed)
    ref, js = nodekit.reference_and(ENGINE)
    options: dict[str, Any] = {}
    sent = 0
    log: list[dict[str, Any]] = []

    def both(req: dict[str, Any]) -> dict[str, Any]:
        nonlocal sent
        sent += 1
        a, b = (enginediff.normal(e.request(dict(req))) for e in (ref, js))
        assert a == b, (seed, options, req, a, b, log[-8:])
        log.append(req if req["type"] != "state" else {k: a.get(k) for k in (
            "phase", "to_act", "trick", "trump", "bidding", "hands", "table")})
        return a

    try:
        specs = ref.request({"type": "hello", "protocol": 2})["rulesets"][RULESET]["options"]
        names = rng.sample(sorted(specs), rng.randint(1, 8))
        options.update({n: _option_value(rng, specs[n]) for n in names})
        deck = PACK[:]
        rng.shuffle(deck)
        start = {"type": "start", "ruleset": RULESET, "options": options,
                 "dealer": rng.randrange(4), "deck": deck}
        if both(start)["type"] != "ok":
            return sent
        for _ in range(steps):
            st = both({"type": "state"})
            if st["terminal"]:
                break
            if st["phase"] == "deal":
                rng.shuffle(deck)
                both({"type": "deal", "deck": deck})
                continue
            legal = [both({"type": "legal", "seat": s})["actions"] for s in range(4)]
            if rng.random() < 0.2:
                req = {"type": "apply", "action": _noise(rng, st["hands"])}
                if rng.random() < 0.4:
                    req["seat"] = rng.randrange(4)
                both(req)
                continue
            if rng.random() < 0.05 and any(legal):       # kontra or re from any seat
                seat = rng.randrange(4)
                if legal[seat]:
                    both({"type": "apply", "seat": seat, "action": rng.choice(legal[seat])})
                    continue
            both({"type": "apply", "seat": st["to_act"], "action": _pick(rng, legal[st["to_act"]])})
    finally:
        ref.close()
        js.close()
    return sent


def test_random_matches_agree_with_the_reference_answer_for_answer() -> None:
    assert sum(random_match(seed, 60) for seed in range(4)) > 400


#: fault -> the rule a failing stored test is charged to
FAULTS: dict[str, str] = {
    "called-in-call-order": "marjapussi-de.calls.once",
    "keep-in-play": "marjapussi-de.contract.raise",
    "fixed-value-any-seat": "core.phase",
    "once-before-pair": "marjapussi-de.calls.pair",
    "fixed-without-raise": "core.phase",
    "schwarz-contract-only": "marjapussi-de.score.sheet",
    "answer-called-suit": "marjapussi-de.calls.once",
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_each_planted_fault_fails_naming_its_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fault: str) -> None:
    rule = FAULTS[fault]
    code, out, report = run(tmp_path, capsys, "--ruleset", RULESET, "--kind", "scenario",
                            "--kind", "option", "--rule", rule, fault=fault)
    nodekit.assert_killed(code, out, report, rule)


if __name__ == "__main__":       # python tests/test_engine_node28_marjapussi_de.py LO HI
    lo, hi = int(sys.argv[1]), int(sys.argv[2])
    total = sum(random_match(s, 3000) for s in range(lo, hi))
    print(f"seeds {lo}..{hi}: {total} requests, no difference")
