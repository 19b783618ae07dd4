"""Newcomers following the documentation literally (twenty-fourth session's walk):
what they copy from the pages must hold."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from mariage.cli import main
from mariage.notation import check_text

DOCS = Path(__file__).resolve().parent.parent / "docs"


def notation_example() -> list[str]:
    """The lines of the first text block of ``docs/notation.rst`` (*An example*)."""
    text = (DOCS / "notation.rst").read_text(encoding="utf-8")
    m = re.search(r"\.\. code-block:: text\n\n((?:   .*\n|\n)+)", text)
    assert m is not None
    return [line[3:] for line in m.group(1).splitlines() if line.strip()]


def filled_in(example: list[str], played: list[str]) -> list[str]:
    """The played record with the example's lines put in: its tags by name, its
    comment after the tags, its trick lines by hand and number."""
    tags = {line.split('"')[0] + line.split('"')[1]: line
            for line in example if line.startswith("[")}
    comment = [line for line in example if line.startswith("{")]
    tricks: dict[tuple[str, str], str] = {}
    hand = ""
    for line in example:
        if line.startswith("hand "):
            hand = line
        elif m := re.match(r"(\d+)\. ", line):
            tricks[hand, m.group(1)] = line
    out: list[str] = []
    hand = ""
    for line in played:
        if line.startswith("["):
            key = line.split('"')[0] + line.split('"')[1]
            out.append(tags.get(key, line))
            continue
        if line.startswith("hand "):
            if hand == "":
                out.extend(comment)
            hand = line
        m = re.match(r"(\d+)\. ", line)
        out.append(tricks.get((hand, m.group(1)), line) if m else line)
    return out


def test_the_notation_example_is_the_match_it_says_it_is(tmp_path: Path) -> None:
    """The example of notation.rst is the match of the seed it names, so a reader who
    writes out its lines left out gets a valid record (the example used to lead with
    a seat out of turn and play a trump its seat never held)."""
    text = (DOCS / "notation.rst").read_text(encoding="utf-8")
    command = re.search(r"This is the match of ``mariage (play [^`]*) --out FILE``", text)
    assert command is not None
    out = tmp_path / "played.mrg"
    assert main([*command.group(1).split(), "--quiet", "--out", str(out)]) == 0
    played = out.read_text(encoding="utf-8").splitlines()
    example = notation_example()
    record = filled_in(example, played)
    kept = iter(record)
    for line in example:  # every line of the example, in its order
        if line != "...":
            assert line in kept, line
    checked = check_text("\n".join(record) + "\n")
    assert checked.ok, checked.errors[:1]
    assert example[-1] == played[-1]  # the result


def test_a_perft_failure_shows_its_first_differing_node_once() -> None:
    """The summary's line of a failing perft test holds the first differing node, as
    docs/conformance.rst shows it; the node was printed again on the next line."""
    from mariage.conformance.client import EngineClient, ThreadTransport
    from mariage.conformance.faulty import FAULTS, FaultyEngine
    from mariage.conformance.reports import summary_text
    from mariage.conformance.results import RunResult
    from mariage.conformance.runner import run_test
    from mariage.conformance.suite import load_suite

    test = next(t for t in load_suite(rulesets=["mariglia"], kinds=["perft"]))
    client = EngineClient(lambda: ThreadTransport(FaultyEngine(FAULTS["mariglia-no-follow"])),
                          timeout=30)
    try:
        out = run_test(client, test)
    finally:
        client.close()
    assert out.status == "fail" and len(out.details) == 2  # the counts, then the node
    text = summary_text(RunResult([out], None, 0.0, 0, 0))
    assert text.startswith(f"FAIL  {test.id}: perft: ")
    assert text.count("first differing node:") == 1
    assert out.further == []


def test_the_example_engine_run_ends_as_the_page_shows(
        capsys: pytest.CaptureFixture[str]) -> None:
    """docs/conformance.rst, *The example engine*: the command and the last line of its
    output as the page gives them (the page said 34/34: one of Marianna's rules is not
    in force at the defaults)."""
    text = (DOCS / "conformance.rst").read_text(encoding="utf-8")
    block = text.split("The example engine\n", 1)[1].split("Read it beside the docs", 1)[0]
    command = re.search(r'mariage conformance --engine "([^"]+)"', block)
    last = re.search(r"# (rules checked by a test that ran .*)", block)
    assert command is not None and last is not None
    program = command.group(1).replace("python3 ", f"{sys.executable} ", 1)
    root = DOCS.parent
    assert main(["conformance", "--engine", program.replace(" conformance/",
                                                          f" {root}/conformance/")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == last.group(1)


HOUSE = """format: 1
extends: schnapsen
ruleset: house-schnapsen
name: Our club's Schnapsen
version: 1
options:
"""


def test_a_house_description_may_move_an_option_default(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    """A house description that plays without closing (``close_allowed: {default:
    false}``, as ``mariage conformance --spec house.yaml`` takes it) passes
    ``mariage check-spec``: ``close_allowed=true`` brings closing back, though the
    bundled option keys its effects by ``false`` alone (it said "changes nothing")."""
    from mariage import load_rules, new_match
    from mariage.engine.actiontext import action_text

    house = tmp_path / "house.yaml"
    house.write_text(HOUSE + "  close_allowed: {default: false}\n", encoding="utf-8")
    assert main(["check-spec", str(house)]) == 0, capsys.readouterr().err
    for allowed in (False, True):  # the value does change something
        rules = load_rules(str(house), {"close_allowed": allowed})
        legal = [action_text(rules, a) for a in new_match(rules, seed=1).legal_actions()]
        assert ("close" in legal) is allowed


def test_an_option_value_with_the_default_effects_still_changes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    same = tmp_path / "same.yaml"
    same.write_text(HOUSE + """  drawn_flag:
    type: bool
    default: false
    source: [pagat ¶4]
    description: Draws the same either way.
    effects:
      false: {closing.enabled: true}
      true: {closing.enabled: true}
""", encoding="utf-8")
    assert main(["check-spec", str(same)]) == 1
    assert "option 'drawn_flag'=true changes nothing [S020]" in capsys.readouterr().err


def test_the_house_description_of_the_conformance_page_checks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/conformance.rst's house description passes ``mariage check-spec`` as the
    page says (S020 before check-spec compared an option value's effects with the
    default's)."""
    text = (DOCS / "conformance.rst").read_text(encoding="utf-8")
    m = re.search(r"\.\. code-block:: yaml\n\n((?:   .*\n)+)", text)
    assert m is not None
    house = tmp_path / "house.yaml"
    house.write_text("\n".join(line[3:] for line in m.group(1).splitlines()) + "\n",
                     encoding="utf-8")
    assert main(["check-spec", str(house)]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out.startswith(f"{house}: ok ")


def test_the_scenario_of_a_close_fails_an_engine_that_never_offers_one() -> None:
    """An engine whose ``legal`` never lists ``close`` (but applies it when told) passed
    every stored Schnapsen scenario, with schnapsen.close counted as checked: the
    scenario of a failed close now asks for the legal actions before closing."""
    from mariage.conformance.client import EngineClient, ThreadTransport
    from mariage.conformance.engine import ReferenceEngine
    from mariage.conformance.runner import run_test
    from mariage.conformance.suite import load_suite

    class NoClose(ReferenceEngine):
        def handle(self, msg: dict[str, object]) -> dict[str, object]:
            reply: dict[str, object] = super().handle(msg)
            actions = reply.get("actions")
            if reply.get("type") == "legal" and isinstance(actions, list):
                reply = {**reply, "actions": [a for a in actions if a != "close"]}
            return reply

    for ruleset in ("schnapsen", "sixty-six"):
        test = next(t for t in load_suite(rulesets=[ruleset], kinds=["scenario"])
                    if t.id == f"{ruleset}/close/failed")
        client = EngineClient(lambda: ThreadTransport(NoClose()), timeout=30)
        try:
            out = run_test(client, test)
        finally:
            client.close()
        assert out.status == "fail", ruleset
        assert "missing ['close']" in out.message
        assert out.blamed == (f"{ruleset}.close",)


def test_the_property_test_of_the_conformance_page_runs() -> None:
    """docs/conformance.rst's property test runs as written against the reference
    engine (it called a ``my_engine`` the page never made)."""
    pytest.importorskip("hypothesis")
    text = (DOCS / "conformance.rst").read_text(encoding="utf-8")
    m = re.search(r"\.\. code-block:: python\n\n((?:   .*\n|\n)+)", text)
    assert m is not None
    code = "\n".join(line[3:] for line in m.group(1).splitlines())
    assert '"mariage engine"' in code
    code = code.replace('"mariage engine"', repr(f"{sys.executable} -m mariage engine"))
    space: dict[str, object] = {"__name__": "conformance_rst"}
    exec(compile(code, "conformance.rst", "exec"), space)
    test = space["test_every_legal_sequence_is_accepted"]
    try:
        assert callable(test)
        test()
    finally:
        engine = space["engine"]
        assert hasattr(engine, "close")
        engine.close()


def test_the_environment_defaults_the_ai_page_gives() -> None:
    """docs/ai.rst names the defaults of the environments' arguments."""
    import inspect

    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    from mariage.ai.gym_env import MariageGymEnv
    from mariage.ai.pettingzoo_env import MariageEnv

    text = " ".join((DOCS / "ai.rst").read_text(encoding="utf-8").split())
    gym = inspect.signature(MariageGymEnv.__init__).parameters
    assert f"default ``{gym['opponents'].default}``" in text
    assert f"so many hands, default {gym['max_hands'].default}" in text
    zoo = inspect.signature(MariageEnv.__init__).parameters
    assert f"``max_hands`` (default {zoo['max_hands'].default}, as above)" in text


def test_a_written_suite_reports_the_coverage_of_its_configuration(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--write-suite DIR`` then ``--suite DIR`` (docs/conformance.rst: "later, in your
    own CI") reports the coverage line of the derived run; it reported the ruleset at its
    defaults, with the rules the configuration switches off counted as unchecked, so
    ``--min-coverage 100`` failed there and passed on the derived run."""
    house = f"{sys.executable} -m mariage.conformance.house schnapsen close_allowed=false"
    configuration = ["--ruleset", "schnapsen", "-o", "close_allowed=false"]
    assert main(["conformance", *configuration, "--write-suite", str(tmp_path)]) == 0
    assert json.loads((tmp_path / "configuration.json").read_text(encoding="utf-8")) == \
        {"ruleset": "schnapsen", "options": {"close_allowed": False}}
    capsys.readouterr()
    assert main(["conformance", "--engine", house, *configuration,
                 "--min-coverage", "100"]) == 0
    derived = capsys.readouterr().out.splitlines()
    assert main(["conformance", "--engine", house, "--suite", str(tmp_path),
                 "--min-coverage", "100"]) == 0
    written = capsys.readouterr().out.splitlines()
    line = next(x for x in derived if x.startswith("rules checked by a test that ran"))
    assert "schnapsen close_allowed=false: 37/37 (100.0%)" in line
    assert line in written
    assert not any("--declared" in x for x in written)  # it is the derived suite


def test_the_stored_suite_leaves_out_the_rules_its_defaults_make_unreachable(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The stored suite's coverage at a ruleset's defaults leaves out the rules the
    defaults make unreachable, as the suite derived for the defaults does: a stored
    scenario that names ``schnapsen.decl.once`` cannot exercise it (a marriage is declared
    as one of its cards is led, so no hand holds the pair again), and the stored run
    counted it as checked (44/44 against the derived run's 43/43, 1 unreachable)."""
    assert main(["conformance", "--ruleset", "schnapsen"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines()
                if x.startswith("rules checked by a test that ran"))
    assert "schnapsen: 43/43 (100.0%), 1 unreachable: schnapsen.decl.once" in line
