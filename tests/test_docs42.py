"""The pages walked as a newcomer would (forty-second session): what a reader copies
from README.md and docs/ must be what the commands take and print."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from mariage.cli import build_parser, main

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = {p.name: p.read_text(encoding="utf-8")
         for p in [ROOT / "README.md", *sorted(DOCS.glob("*.rst"))]}


def _commands() -> dict[str, set[str]]:
    """Each sub-command of ``mariage`` and the option strings it takes."""
    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {name: {s for a in sub._actions for s in a.option_strings}
                    for name, sub in action.choices.items()}
    raise AssertionError("no sub-commands")


COMMANDS = _commands()


def shown_commands() -> list[tuple[str, int, str, str]]:
    """Every ``mariage COMMAND ...`` a page shows, in a code block or an inline literal:
    (page, line, command, the rest of it up to the end of the literal, the line or a
    comment; shell continuations joined, quoted engine commands left out)."""
    found = []
    for name, text in PAGES.items():
        joined = re.sub(r"\\\n\s*", " ", text)
        for m in re.finditer(r"(?<![\w./-])mariage ([a-z][a-z-]*)([^\n`]*)", joined):
            command, rest = m.group(1), m.group(2)
            if command not in COMMANDS:
                continue
            rest = re.sub(r'"[^"]*"', '""', rest.split(" #")[0])
            found.append((name, joined[:m.start()].count("\n") + 1, command, rest))
    return found


def test_every_command_the_pages_show_takes_the_options_they_give_it() -> None:
    """An option a page puts after ``mariage COMMAND`` is one that command has (the
    options inside an engine's quoted command are the engine's, and not checked)."""
    shown = shown_commands()
    assert len(shown) > 150
    assert {c for _, _, c, _ in shown} == set(COMMANDS)
    wrong = [f"{page}:{line}: mariage {command} has no {flag}"
             for page, line, command, rest in shown
             for flag in re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", rest)
             if flag not in COMMANDS[command]]
    assert wrong == []


def _block_after(text: str, heading: str) -> str:
    section = text.split(f"\n{heading}\n", 1)[1]
    return section.split(".. code-block:: text\n", 1)[1].lstrip("\n").split("\n\n", 1)[0]


@pytest.mark.parametrize("command", ["validate", "replay", "view"])
def test_the_command_line_of_the_notation_page_lists_every_option(command: str) -> None:
    """The *Command line* block of notation.rst gives each option of the record commands
    (``replay --format json``, described below it, was missing from it); ``--spec`` and
    ``--allow-extends-anywhere`` are limits.rst's."""
    block = _block_after(PAGES["notation.rst"], "Command line\n------------")
    lines = block.splitlines()
    start = next(i for i, line in enumerate(lines)
                 if line.strip().startswith(f"mariage {command} "))
    shown = lines[start]
    for line in lines[start + 1:]:
        if line.strip().startswith("mariage "):
            break
        shown += line
    options = {o for o in COMMANDS[command] if o.startswith("--")} - {
        "--help", "--spec", "--allow-extends-anywhere"}
    assert options
    assert {o for o in options if not re.search(re.escape(o) + r"(?![\w-])", shown)} == set()


# ---------------------------------------------------------------- counts on the pages
def _prolog() -> dict[str, int]:
    sys.path.insert(0, str(DOCS))
    try:
        import conf
    finally:
        sys.path.remove(str(DOCS))
    return {k: int(v) for k, v in re.findall(r"\|([\w*-]+)\| replace:: (\d+)",
                                             conf.rst_prolog)}


def test_the_pages_type_no_count_of_tests() -> None:
    """Counts of the suite's tests are substitutions computed at each build: "the 18
    protocol tests" of the skeleton's paragraph was typed (a lower-case word before
    ``tests`` escaped the older check)."""
    typed = [f"{name}: {m.group(0)}" for name, text in PAGES.items()
             for m in re.finditer(r"\b\d[\d,]* (?:[A-Za-z-]+ )?tests\b(?![/.])", text)]
    assert typed == []


def test_the_skeleton_run_counts_the_protocol_tests() -> None:
    """The Node.js skeleton's run ends ``N tests (M run)``, M its ruleset's tests and the
    protocol tests (which run against every engine): the page said M was Mariglia's
    alone (20 where the runner prints 38)."""
    from mariage.conformance.suite import load_suite

    prolog = _prolog()
    protocol = len(load_suite(kinds=["protocol"]))
    assert prolog["protocol-tests"] == protocol > 0
    mariglia = len(load_suite(rulesets=["mariglia"]))
    assert prolog["mariglia-run"] == mariglia + protocol
    text = PAGES["conformance.rst"]
    shown = re.search(r"# \|suite-tests\| tests \(\|([\w-]+)\| run\b", text)
    assert shown is not None and shown.group(1) == "mariglia-run"
    used = set(re.findall(r"\|([\w-]+)\|", text)) - {"suite-tests"}
    assert used <= set(prolog), used - set(prolog)


# ---------------------------------------------------------------- a record's problem
GAMES = """\
[Mariage "1"]
[Ruleset "mariglia"]
[Event "Club night"]
[Seat "N" "Nina"]
[Seat "W" "Walter"]
[Seat "S" "Sara"]
[Seat "E" "Enzo"]
[Dealer "W"]
[Date "2026.12.07"]

hand 1
deal dealer: W
N: 5H AH 6D 2D AC KC JC QS 4S 3S
W: JH QH JD QD 5D 7C 5C 4C KS 2S
S: KH 6H 4H 3H KD 4D 3D QC 7S 6S
E: 7H 2H 7D AD 6C 3C 2C AS JS 5S
turnup: 2S
1. S:KD E:7H N:2D W:5D
"""


def test_the_example_problem_of_the_notation_page_is_what_validate_prints(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The page's example line is ``validate --strict``'s, word for word, for the record it
    describes (E discards 7H on a diamond lead in trick 1, holding diamonds); lenient mode,
    the default, says more, as the page now says."""
    text = PAGES["notation.rst"]
    m = re.search(r"For example, ``mariage validate --strict (\S+)``[^:]*::\n\n   (\S.*)\n",
                  text)
    assert m is not None
    file, line = m.group(1), m.group(2)
    monkeypatch.chdir(tmp_path)
    (tmp_path / file).write_text(GAMES, encoding="utf-8")
    assert main(["validate", "--strict", file]) == 1
    assert capsys.readouterr().out.splitlines()[0] == line
    lenient = re.search(r"reads ``(must follow suit\s+\(D\); applied anyway[^`]*)``", text)
    assert lenient is not None
    assert main(["validate", file]) == 1
    first = capsys.readouterr().out.splitlines()[0]
    said = " ".join(lenient.group(1).split())
    assert first.startswith(line.split(": must")[0] + ": " + said), (first, said)


# ---------------------------------------------------------------- your own rulesets
def test_a_description_on_the_search_path_is_found_by_its_file_name(tmp_path: Path) -> None:
    """limits.rst: on ``MARIAGE_SPEC_PATH`` a ruleset is found by its file's name, so the
    records a description plays are read only when the file is named after its
    ``ruleset:`` (a newcomer who saved the conformance page's ``house.yaml`` there got
    ``N122`` for every record it played)."""
    text = " ".join(PAGES["limits.rst"].split())
    m = re.search(r"\(``([\w-]+)\.yaml`` for ``ruleset: ([\w-]+)``; the same description "
                  r"saved as ``([\w-]+)\.yaml`` is ruleset ``([\w-]+)`` to ``rules`` and "
                  r"``play``, but its records, ``\[Ruleset \"([\w-]+)\"\]``, are then "
                  r"``N122``\)", text)
    assert m is not None
    good, ruleset, bad, bad_name, written = m.groups()
    assert good == ruleset == written and bad == bad_name != ruleset
    assert "under that name" in PAGES["README.md"]
    description = f"format: 1\nextends: schnapsen\nruleset: {ruleset}\n"
    record = tmp_path / "house.mrg"
    spec = tmp_path / "house-spec.yaml"
    spec.write_text(description, encoding="utf-8")
    assert main(["play", str(spec), "--seed", "1", "--out", str(record), "-q"]) == 0
    assert f'[Ruleset "{ruleset}"]' in record.read_text(encoding="utf-8")

    def validate(file_name: str) -> subprocess.CompletedProcess[str]:
        folder = tmp_path / file_name
        folder.mkdir()
        (folder / f"{file_name}.yaml").write_text(description, encoding="utf-8")
        env = {**os.environ, "MARIAGE_SPEC_PATH": str(folder), "MARIAGE_NO_CACHE": "1"}
        return subprocess.run([sys.executable, "-m", "mariage", "validate", str(record)],
                              capture_output=True, text=True, env=env, timeout=120,
                              check=False)

    named_so = validate(good)
    assert named_so.returncode == 0, named_so.stdout + named_so.stderr
    named_otherwise = validate(bad)
    assert named_otherwise.returncode == 1 and " N122 " in named_otherwise.stdout


# ---------------------------------------------------------------- coverage lines
OPTIONLESS = '''\
import json, subprocess, sys
engine = subprocess.Popen([sys.executable, "-m", "mariage", "engine"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE)
for raw in sys.stdin.buffer:
    engine.stdin.write(raw)
    engine.stdin.flush()
    if not raw.strip(b" \\t\\r\\n"):
        continue
    answer = json.loads(engine.stdout.readline())
    if answer.get("type") == "hello":
        answer["rulesets"] = {"marianna": {"options": {}}}
    sys.stdout.write(json.dumps(answer) + "\\n")
    sys.stdout.flush()
'''


def test_the_coverage_line_shown_is_what_the_runner_prints(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """*Every rule checked* shows the coverage line of an engine that lists Marianna
    without its options; the runner prints it so. (The page showed Schnapsen's
    ``close_min_talon=11`` at 39/44 with the closing rules unchecked: since the
    thirty-fifth session they are unreachable there, and the run checks 38/38.)"""
    text = PAGES["conformance.rst"]
    m = re.search(r"\(``\"options\": \{\}``\)[^:]*::\n\n((?:   .*\n)+)", text)
    assert m is not None
    shown = [line[3:] for line in m.group(1).splitlines()]
    engine = tmp_path / "optionless.py"
    engine.write_text(OPTIONLESS, encoding="utf-8")
    code = main(["conformance", "--engine", f"{sys.executable} {engine}", "--ruleset",
                 "marianna", "--no-progress"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[-len(shown):] == shown


def test_the_close_that_needs_more_cards_than_the_talon_holds_is_as_the_page_says() -> None:
    from mariage import load_rules
    from mariage.conformance.coverage import unreachable_under
    from mariage.spec.inforce import not_in_force

    text = " ".join(PAGES["conformance.rst"].split())
    m = re.search(r"``mariage conformance --ruleset schnapsen -o close_min_talon=11`` checks "
                  r"(\d+)/(\d+), (\w+) rules unreachable", text)
    assert m is not None
    rules = load_rules("schnapsen", {"close_min_talon": 11})
    unreachable = unreachable_under(rules)
    counted = len(rules.rule_ids) - len(unreachable) - len(not_in_force(rules))
    words = {"six": 6, "five": 5, "seven": 7}
    assert (int(m.group(1)), int(m.group(2)), words[m.group(3)]) == (
        counted, counted, len(unreachable))
    assert "schnapsen.close.effect" in unreachable


def _summary_lines(block: str) -> list[str]:
    """The FAIL/ERROR lines of a literal block whose lines the page cut to fit."""
    out: list[str] = []
    for line in block.splitlines():
        line = line.strip()
        if line.startswith(("FAIL ", "ERROR ")):
            out.append(line)
        elif line and out:
            out[-1] += " " + line
    return out


@pytest.mark.parametrize(("fault", "args"), [
    ("follow-suit", ("--rule", "core.resign", "--kind", "scenario")),
    ("hang", ("--rule", "marianna.decl.window", "--kind", "scenario", "--timeout", "0.5",
              "--max-hangs", "0")),
])
def test_the_failure_lines_shown_are_what_the_runner_prints(
        fault: str, args: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    """*How a test is run and judged*: the example engine's failures, as the runner
    prints them (the page left out the rule ID the engine's own message ends with)."""
    text = PAGES["conformance.rst"]
    block = text.split("as the reference interpreter follows the test", 1)[1]
    block = block.split("::\n\n", 1)[1].split("\n\n", 1)[0]
    shown = _summary_lines(block)
    assert [s.split()[0] for s in shown] == ["FAIL", "ERROR"]
    want = " ".join((shown[0] if fault == "follow-suit" else shown[1]).split())
    engine = ROOT / "conformance" / "examples" / "minimal_engine.py"
    code = main(["conformance", "--engine", f"{sys.executable} {engine} --fault {fault}",
                 "--ruleset", "marianna", "--no-progress", *args])
    out = capsys.readouterr().out
    assert code == 1
    assert want in [" ".join(line.split()) for line in out.splitlines()], out[-2000:]


def test_the_trace_example_has_the_ids_a_trace_has(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """In a ``--trace`` every request after ``hello`` carries its ``id``, the one its answer
    copies (the page's example left it off the ``start`` whose answer showed it)."""
    import json

    text = PAGES["conformance.rst"]
    example = text.split("Example (shortened)::\n\n", 1)[1].split("\n\n", 1)[0]
    trace = tmp_path / "trace.txt"
    engine = ROOT / "conformance" / "examples" / "minimal_engine.py"
    assert main(["conformance", "--engine", f"{sys.executable} {engine} --fault follow-suit",
                 "--ruleset", "marianna", "--rule", "core.resign", "--kind", "scenario",
                 "--no-progress", "--trace", str(trace)]) == 1
    capsys.readouterr()

    def pairs(lines: list[str]) -> list[tuple[object, object]]:
        """(the id of each request after hello, the id of the answer after it)."""
        out = []
        for line, after in zip(lines, [*lines[1:], ""], strict=True):
            if line.startswith("{") and '"hello"' not in line:
                request = json.loads(line.replace(",...", ""))
                answer = json.loads(after[3:].replace(",...", "")) if after.startswith(
                    "#< ") else {}
                out.append((request.get("id"), answer.get("id", request.get("id"))))
        return out

    written = pairs(trace.read_text(encoding="utf-8").splitlines())
    assert written and all(isinstance(i, int) and i == j for i, j in written)
    shown = pairs([line.strip() for line in example.splitlines()])
    assert len(shown) == 2 and all(isinstance(i, int) and i == j for i, j in shown), shown


def test_the_test_extra_is_said_to_bring_the_extras_it_brings() -> None:
    """install.rst's comment on ``pip install '.[test]'`` names the extras that extra pulls
    in (it named the docs extra, not the ai one, which brings numpy, Gymnasium,
    PettingZoo and OpenSpiel)."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pulled = {m.group(1) for d in project["project"]["optional-dependencies"]["test"]
              if (m := re.fullmatch(r"mariage\[(\w+)\]", d))}
    assert pulled
    line = next(line for line in PAGES["install.rst"].splitlines()
                if line.strip().startswith("pip install '.[test]'") and "#" in line)
    comment = line.split("#", 1)[1]
    assert all(re.search(rf"\b{extra}\b", comment) for extra in pulled), (pulled, comment)


def test_the_readme_says_what_ci_runs() -> None:
    """The README's *Development* paragraph follows ``.ci/run`` step by step: no step
    of its own builds the docs (the slow tests do, ``test_docs_build``), and ``ruff``
    checks more than the package."""
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
          .splitlines() if line.strip() and not line.lstrip().startswith("#")]
    said = " ".join(PAGES["README.md"].split("## Development", 1)[1].split())
    ruff = next(line for line in ci if line.startswith("ruff check "))
    places = ruff.split()[2:]
    assert places == ["reference", "tests", "benchmarks"]
    assert "`ruff` on the package, the tests and the benchmarks" in said
    assert any(line.startswith("mypy --strict reference/mariage") for line in ci)
    builds = any("sphinx" in line for line in ci)
    assert builds or "the docs' build with warnings as errors among them" in said
    build_test = (ROOT / "tests" / "test_docs_build.py").read_text(encoding="utf-8")
    assert "@pytest.mark.slow\ndef test_the_docs_build_with_warnings_as_errors" in build_test


def test_the_house_rules_of_the_spec_language_page_play(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """*House rules* (spec-language.rst, added for a player who wants his club's
    rulebook): the description and the four commands, as written, with what the
    comments say they print."""
    text = PAGES["spec-language.rst"].split("\nHouse rules\n", 1)[1].split("\nHow a ", 1)[0]
    yaml_block = text.split(".. code-block:: yaml\n\n", 1)[1].split("\n\n", 1)[0]
    name = re.search(r"Saved as ``([\w.-]+)``", text)
    assert name is not None
    monkeypatch.chdir(tmp_path)
    (tmp_path / name.group(1)).write_text(
        "\n".join(line[3:] for line in yaml_block.splitlines()) + "\n", encoding="utf-8")
    commands = text.split("like a bundled\nruleset::\n\n", 1)[1].split("\n\n", 1)[0]
    ran = 0
    for line in commands.splitlines():
        command, _, said = line.strip().partition("#")
        words = command.split()
        assert words[0] == "mariage"
        assert main([*words[1:], *(["-q"] if words[1] == "play" else [])]) == 0, line
        out = capsys.readouterr().out
        said = said.strip().removesuffix("...").strip()
        if said:
            assert out.startswith(said), (line, out[:200])
        ran += 1
    assert ran == 4
    assert main(["rules", "marianna", "-o", "target=301", "-o", "trick_six=true"]) == 0
    rulebook = capsys.readouterr().out
    assert rulebook.count("(not the default)") == 2


LOGGING_ENGINE = '''\
import subprocess, sys
log = open(sys.argv[1], "ab")
engine = subprocess.Popen([sys.executable, "-m", "mariage.arena.refengine"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE)
for raw in sys.stdin.buffer:
    log.write(raw)
    log.flush()
    engine.stdin.write(raw)
    engine.stdin.flush()
    if raw.strip():
        sys.stdout.buffer.write(engine.stdout.readline())
        sys.stdout.flush()
'''


def test_what_an_engine_of_a_match_is_dealt_is_what_the_arena_page_shows(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """arena.rst, *What each engine sees*: the ``start`` the engine of seat B gets in
    the Schnapsen match of seed 1, and the ``reveal`` of its first draw."""
    import json

    text = PAGES["arena.rst"]
    part = text.split("with the Schnapsen deal of seed 1", 1)[1]
    shown = json.loads(part.split("::\n\n", 1)[1].split("\n\n", 1)[0])
    reveal = re.search(r"``\"reveal\": (\{[^`]*\})``", part)
    assert reveal is not None
    engine, log = tmp_path / "logging.py", tmp_path / "requests.log"
    engine.write_text(LOGGING_ENGINE, encoding="utf-8")
    assert main(["match", "schnapsen", "--engine", f"B={sys.executable} {engine} {log}",
                 "--games", "1", "--seed", "1", "-q"]) == 0
    capsys.readouterr()
    sent = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()
            if line.strip()]
    start = next(r for r in sent if r["type"] == "start")
    assert {k: v for k, v in start.items() if k in shown} == shown
    assert set(start) - set(shown) <= {"id", "options"}
    first = next(r for r in sent if r["type"] == "apply" and "reveal" in r)
    assert first["reveal"] == json.loads(reveal.group(1))


def test_an_engine_that_lists_no_ruleset_is_judged_as_the_page_says(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """*Verdicts*: the protocol tests that need no match run against any engine; a run
    of the whole suite against one that lists no ruleset runs those alone and fails, as
    the page shows (it once passed: nothing of the rules checked); ``--kind protocol``
    passes it. Filtered to a ruleset it does not list, no test runs and the run fails
    as shown."""
    import json

    text = " ".join(PAGES["conformance.rst"].split())
    assert "an engine whose ``hello`` lists no ruleset at all runs those alone" in text
    assert "**Such a run fails too** (exit 1)" in text
    engine = tmp_path / "nothing.py"
    engine.write_text(OPTIONLESS.replace('{"marianna": {"options": {}}}', "{}"),
                      encoding="utf-8")
    report = tmp_path / "r.json"
    command = f"{sys.executable} {engine}"
    assert main(["conformance", "--engine", command, "--no-progress", "--kind", "protocol",
                 "--json", str(report)]) == 0
    capsys.readouterr()
    data = json.loads(report.read_text(encoding="utf-8"))
    ran = [t for t in data["tests"] if t["status"] != "skip"]
    assert ran and all(t["kind"] == "protocol" and t["status"] == "pass" for t in ran)
    assert main(["conformance", "--engine", command, "--no-progress"]) == 1
    verdict = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert re.search(r": FAILED: no test of a ruleset ran \(\d+ skipped \(ruleset not "
                        rf"supported\)\); only the {len(ran)} protocol tests did$", verdict), \
        verdict
    shown = re.search(r"``(FAILED: no test of a ruleset ran \()N( skipped \(ruleset not "
                      r"supported\)\); only the )P( protocol tests did)``", text)
    assert shown is not None, "the page shows the verdict"
    assert main(["conformance", "--engine", command, "--no-progress", "--ruleset",
                 "mariglia"]) == 1
    shown = re.search(r"``(FAILED: no test ran: )N( skipped \(ruleset not supported\))``",
                      text)
    assert shown is not None
    from mariage.conformance.suite import load_suite

    line = f"{shown.group(1)}{len(load_suite(rulesets=['mariglia']))}{shown.group(2)}"
    assert capsys.readouterr().out.rstrip().endswith(line)
