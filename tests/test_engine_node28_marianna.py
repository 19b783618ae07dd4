"""The Marianna-family engine in plain Node.js against the suite, at every option value.

``conformance/examples/marianna_engine.js`` plays ``marianna``, ``marianna-2``,
``marianna-3``, ``marianna-siciliana`` (the Sicilian split marriage), ``cinquecento`` and
``cinquecento-siciliana`` at every value of their options, written from the documents
alone (the Python ``minimal_engine.py`` plays ``marianna`` only). It must pass every
stored test of each ruleset (every rule in force checked, every refusal's rule named),
agree with the reference answer for answer in random matches with random options,
dealt combinations and random illegal actions, and each planted fault (``--fault
MODE``) must fail, charged to the rule it breaks: each is a mistake made while writing
the engine that the suites passed before the scenario named in ``FAULTS``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import enginediff
import nodekit
import pytest
from mariage.conformance.client import EngineClient

ENGINE = nodekit.EXAMPLES / "marianna_engine.js"
RULESETS = ("marianna", "marianna-2", "marianna-3", "marianna-siciliana", "cinquecento",
            "cinquecento-siciliana")
PACK = [r + s for s in "HDCS" for r in "A3KQJ7654" + "2"]
SEATS = {"marianna-2": 2, "marianna-3": 3}


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str,
        fault: str | None = None) -> tuple[int, str, dict[str, Any]]:
    """``mariage conformance`` against the JS engine: exit code, output, JSON report."""
    return nodekit.run_engine(ENGINE, tmp_path, capsys, *args, fault=fault)


def pair() -> tuple[enginediff.Reference, EngineClient]:
    """Both engines said hello to: the reference in this process, the JS one as a child."""
    return nodekit.reference_and(ENGINE)


def test_the_example_needs_nothing_but_node() -> None:
    assert nodekit.needs_nothing_but_node(ENGINE)


def test_hello_offers_every_option_value_the_reference_does() -> None:
    theirs, ours = nodekit.rulesets_offered(ENGINE)
    assert sorted(ours) == sorted(RULESETS)
    keys = ("type", "default", "values", "min", "max")
    for ruleset in RULESETS:
        assert sorted(ours[ruleset]["options"]) == sorted(theirs[ruleset]["options"])
        for name, spec in theirs[ruleset]["options"].items():
            mine = ours[ruleset]["options"][name]
            assert {k: mine.get(k) for k in keys} == {k: spec.get(k) for k in keys}, name


#: ruleset -> the kinds of its stored tests run here (all of them for one: the CI's time)
STORED = {"marianna-siciliana": (), "cinquecento-siciliana": ("scenario", "option")}


@pytest.mark.parametrize("ruleset", sorted(STORED))
def test_passes_every_stored_test_of_a_ruleset(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], ruleset: str) -> None:
    kinds = [a for k in STORED[ruleset] for a in ("--kind", k)]
    code, out, report = run(tmp_path, capsys, "--ruleset", ruleset, "--require-rule-ids",
                            "--min-coverage", "100", *kinds)
    assert code == 0, out[-3000:]
    assert report["tests"] and all(t["status"] == "pass" for t in report["tests"])
    [coverage] = report["coverage"]
    assert coverage["percent"] == 100.0 and coverage["unchecked"] == [], coverage
    assert report["refusals"]["named"] == report["refusals"]["expected"] > 10


def _option_value(rng: random.Random, spec: dict[str, Any]) -> Any:
    if spec["type"] == "bool":
        return rng.choice([True, False])
    if spec["type"] == "enum":
        return rng.choice(spec["values"])
    return rng.choice([1, 60, 150, 300, spec["default"]])


def _noise(rng: random.Random, pack: list[str], declared: list[list[Any]],
           legal: list[str]) -> str:
    suit = rng.choice("HDCS")
    held = [a for a in legal if a.startswith("mariann")]
    if held and rng.random() < 0.3:          # a declaration held, declining the trump
        return rng.choice(held) + ":notrump"
    if declared and rng.random() < 0.3:      # again, or declining the trump
        _, name, suit, _ = rng.choice(declared)
        return f"{name}:{suit}" + rng.choice(["", ":notrump"])
    return rng.choice([
        rng.choice(pack), rng.choice(pack), "pass", "yes", "no", f"yes:{suit}",
        f"marianna:{suit}", f"mariannino:{suit}", f"mariannone:{suit}", f"ask:cover:{suit}",
        "callout", "close", "exchange:7H", "bid:120", f"marianna:{suit}:notrump", "2S", "KX",
        "ask:partner"])


def _deck(rng: random.Random, pack: list[str], seats: int) -> list[str]:
    """A shuffled pack; a third of the time a mariannino or a mariannone is dealt to one
    seat, or lies in the stock where a seat draws it."""
    deck = pack[:]
    rng.shuffle(deck)
    if rng.random() < 0.35:
        many, one = rng.choice([("Q", "K"), ("K", "Q")])
        combo = [many + s for s in "HDCS"] + [one + rng.choice("HDCS")]
        rest = [c for c in deck if c not in combo]
        at = rng.choice([0, 5 * rng.randrange(seats), 5 * seats + rng.randrange(3)])
        deck = rest[:at] + combo + rest[at:]
        if rng.random() < 0.5:        # spread over a packet and the draws
            k, j = at + 4, 5 * seats + rng.randrange(seats)
            deck[k], deck[j] = deck[j], deck[k]
    return deck


def random_match(seed: int, steps: int, ruleset: str | None = None) -> int:
    """One match with random options; every answer of the two engines compared. Returns
    the number of requests."""
    rng = random.Random(seed)
    ruleset = ruleset or rng.choice(RULESETS)
    ref, js = pair()
    sent = 0
    seats = SEATS.get(ruleset, 4)
    pack = [c for c in PACK if not (seats == 3 and c == "2S")]

    def both(req: dict[str, Any]) -> dict[str, Any]:
        nonlocal sent
        sent += 1
        a, b = (enginediff.normal(e.request(dict(req))) for e in (ref, js))
        assert a == b, (seed, ruleset, req, a, b)
        return a

    try:
        specs = ref.request({"type": "hello", "protocol": 2})["rulesets"][ruleset]["options"]
        names = rng.sample(sorted(specs), min(len(specs), rng.randint(1, 6)))
        options = {n: _option_value(rng, specs[n]) for n in names}
        start = {"type": "start", "ruleset": ruleset, "options": options,
                 "dealer": rng.randrange(seats), "deck": _deck(rng, pack, seats)}
        if both(start)["type"] != "ok":
            return sent
        for _ in range(steps):
            st = both({"type": "state"})
            if st["terminal"]:
                break
            if st["phase"] == "deal":
                both({"type": "deal", "deck": _deck(rng, pack, seats)})
                continue
            legal = [both({"type": "legal", "seat": s})["actions"] for s in range(seats)]
            if rng.random() < 0.2:
                req = {"type": "apply", "action": _noise(rng, pack, st["declared"],
                                                       legal[st["to_act"]])}
                if rng.random() < 0.3:
                    req["seat"] = rng.randrange(seats)
                both(req)
                continue
            acts = legal[st["to_act"]]
            said = [a for a in acts if ":" in a or a == "yes"]
            pick = rng.choice(said) if said and rng.random() < 0.7 else rng.choice(acts)
            both({"type": "apply", "seat": st["to_act"], "action": pick})
    finally:
        ref.close()
        js.close()
    return sent


def test_random_matches_agree_with_the_reference_answer_for_answer() -> None:
    assert sum(random_match(seed, 50, RULESETS[seed % 6]) for seed in range(6)) > 500


#: fault -> (ruleset, the rule a failing stored test is charged to)
FAULTS: dict[str, tuple[str, str]] = {
    "notrump-bad-action": ("cinquecento", "cinquecento.decl.trump"),
    "close-before-turn": ("marianna", "core.turn"),
    "notrump-before-once": ("cinquecento-siciliana", "marianna.decl.once"),
    "mariannino-never-spoils": ("marianna-siciliana", "siciliana.split.spoiled"),
    "split-trump-overrides": ("cinquecento-siciliana", "cinquecento.decl.trump"),
    "ask-in-window": ("marianna-siciliana", "core.phase"),
    "ask-trump-first": ("marianna-siciliana", "marianna.decl.per-trick"),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_each_planted_fault_fails_naming_its_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fault: str) -> None:
    ruleset, rule = FAULTS[fault]
    code, out, report = run(tmp_path, capsys, "--ruleset", ruleset, "--kind", "scenario",
                            "--kind", "option", "--rule", rule, fault=fault)
    assert code == 1, out[-3000:]
    failed = [t for t in report["tests"] if t["status"] == "fail"]
    assert any(rule in t["charged"] for t in failed), [(t["id"], t["charged"]) for t in failed]
    assert report["rules"][rule]["fail"] > 0


if __name__ == "__main__":       # python tests/test_engine_node28_marianna.py LO HI [RULESET]
    lo, hi = int(sys.argv[1]), int(sys.argv[2])
    total = 0
    for s in range(lo, hi):
        total += random_match(s, 1500, sys.argv[3] if len(sys.argv) > 3 else None)
    print(f"seeds {lo}..{hi}: {total} requests, no difference")
