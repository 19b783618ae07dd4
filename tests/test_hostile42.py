"""The forty-second session's hostile sweep: the command line's files, flags and reports,
an engine's hello, and house descriptions that extend a bundled ruleset.

Each test names what happened before its fix.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostilekit import forget_house, run_cli

RECORD = """[Mariage "1"]
[Ruleset "schnapsen"]
[Dealer "B"]

hand 1
deal dealer: B
A: QH AD KD QD JD
B: TH QC JC TS JS
stock: KH QS AS AC TD KC AH JH TC
turnup: KS
1. A:marriage:D A:QD B:JS (won B)

result *
"""


# ------------------------------------------------------------------ stats counts records
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_stats_counts_no_record_for_a_problem_of_the_file(
        fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # was: text before the first record and "no record found" counted as 2 invalid
    # records ("2 records, 0 valid, 2 invalid") where validate says 0 records; junk before
    # a good record made "2 records, 1 valid, 1 invalid" where validate says 1 record
    junk = tmp_path / "junk.mrg"
    junk.write_text("not a record\n", encoding="utf-8")
    before = tmp_path / "before.mrg"
    before.write_text("not a record\n" + RECORD, encoding="utf-8")
    for path, records in ((junk, 0), (before, 1)):
        code, out, err = run_cli(["stats", "--format", fmt, str(path)], capsys)
        assert code == 1 and "Traceback" not in err
        assert f"{path}:1:1: N103 " in err
        if fmt == "json":
            got = json.loads(out)
            assert (got["records"], got["valid"], got["invalid"]) == (records, records, 0)
        else:
            assert out.startswith(f"{records} records, {records} valid, 0 invalid")
        code, out, _ = run_cli(["validate", str(path)], capsys)
        assert code == 1 and f"INVALID: {records} records, {records} valid, 0 invalid" in out


# ------------------------------------------------------------------ conformance's flags
@pytest.mark.parametrize("extra", [["--json", "{tmp}/report.json"], ["--junit", "{tmp}/r.xml"],
                                   ["--trace", "{tmp}/trace.txt"], ["--rule", "mariazza.deal"],
                                   ["--min-coverage", "100"], ["--require-rule-ids"]])
def test_write_suite_refuses_what_only_a_run_reads(extra: list[str], tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    # was: the suite written, exit 0, and no report, no trace, no filter, no coverage check
    extra = [a.replace("{tmp}", str(tmp_path)) for a in extra]
    code, out, err = run_cli(["conformance", "--ruleset", "mariazza", "--write-suite",
                              str(tmp_path / "suite"), *extra], capsys)
    assert (code, out) == (2, "")
    assert err.startswith("mariage: error: --write-suite writes the derived suite and runs "
                          f"nothing: leave out {extra[0]} ") and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []  # nothing written


@pytest.mark.parametrize("extra", [["--json", "{tmp}/report.json"], ["--ruleset", "mariazza"],
                                   ["--engine", "cat"], ["--coverage"]])
def test_regenerate_refuses_what_it_leaves_unused(extra: list[str], tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # was: the test files rebuilt (or their diff printed) and the flag dropped, exit 0
    extra = [a.replace("{tmp}", str(tmp_path)) for a in extra]
    code, out, err = run_cli(["conformance", "--suite", str(tmp_path), "--regenerate",
                              "--check", *extra], capsys)
    assert (code, out) == (2, "")
    assert err == ("mariage: error: --regenerate rebuilds every generated test file and runs "
                   f"nothing: leave out {extra[0]}\n")


def test_check_without_regenerate_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    # was: the whole suite run against the reference engine (--check was dropped)
    code, out, err = run_cli(["conformance", "--check", "--ruleset", "mariazza"], capsys)
    assert (code, out) == (2, "")
    assert err.startswith("mariage: error: --check goes with --regenerate")


# ------------------------------------------------------------------ an engine's hello
HELLO_ENGINE = """import json, sys
extra = json.loads(sys.argv[1])
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "quit":
        print(json.dumps({"type": "bye"}), flush=True)
        break
    hello = {"type": "hello", "engine": "hostile42", "protocol": 2,
             "rulesets": {"mariazza": {"options": {}}}}
    print(json.dumps({**hello, **extra} if msg["type"] == "hello" else {"type": "ok"}),
          flush=True)
"""


@pytest.mark.parametrize(("extra", "why"), [
    ({"rulesets": {"mariazza": {"options": []}}},
     "ruleset 'mariazza': 'options' must be an object (option name -> object), not []"),
    ({"rulesets": {"mariazza": {"options": {"target": 41}}}},
     "ruleset 'mariazza': option 'target' must be an object"),
    ({"rulesets": {"mariazza": {"options": {"target": {"type": "integer", "default": 41}}}}},
     "option 'target': 'type' must be one of int, bool, enum, not \"integer\""),
    ({"rulesets": {"mariazza": {"options": {"target": {"type": "int", "values": 41}}}}},
     "option 'target': 'values' must be a list, not 41"),
    ({"rulesets": {"mariazza": {"options": {"target": {"type": "int", "max": "99"}}}}},
     "option 'target': 'max' must be a number, not \"99\""),
    ({"features": "hidden_cards"}, "'features' must be a list of texts, not \"hidden_cards\""),
    ({"requests": "choose"}, "'requests' must be a list of texts, not \"choose\""),
    ({"protocol": 2.0}, "the engine speaks protocol 2.0, this runner speaks protocols 1 and 2"),
])
def test_a_malformed_hello_fails_the_handshake_saying_what(
        extra: dict[str, object], why: str, tmp_path: Path) -> None:
    # was: passed over: "values": 41 ran every test of the option, "options": [] ran the
    # tests at the defaults, "features": "hidden_cards" and "requests": "choose" were read
    # letter by letter ("choose" in "choose"), protocol 2.0 was taken for 2
    import sys

    from mariage.conformance.client import EngineClient, HandshakeError

    script = tmp_path / "engine.py"
    script.write_text(HELLO_ENGINE, encoding="utf-8")
    quoted = json.dumps(json.dumps(extra))
    client = EngineClient.for_command(f"{sys.executable} {script} {quoted}", timeout=30)
    try:
        with pytest.raises(HandshakeError) as caught:
            client.hello()
    finally:
        client.close()
    assert why in caught.value.message


# ------------------------------------------------------------------ play --bots
@pytest.mark.parametrize(("bots", "which"), [("random,", 2), (",greedy", 1), ("", 1),
                                             ("random, ,greedy", 2)])
def test_an_empty_bot_name_is_refused_not_dropped(
        bots: str, which: int, capsys: pytest.CaptureFixture[str]) -> None:
    # was: dropped: "random," played random at both seats, exit 0; "random, ,greedy" said
    # "--bots needs 1 or 2 names, got 2" of the two names it kept
    code, out, err = run_cli(["play", "mariazza", "-q", "--max-hands", "1", "--bots", bots],
                             capsys)
    assert (code, out) == (2, "")
    assert err.startswith(f"mariage: error: --bots: name {which} of '{bots}' is empty (one "
                          "name, or 2 separated by commas: ") and err.count("\n") == 1


# ------------------------------------------------------------------ a house description
@pytest.mark.parametrize(("change", "sets"), [
    ("deal:\n  hand_size: 21\n", "4:14 sets deal.hand_size"),
    ("players:\n  count: 3\n", "4:10 sets players.count"),
    ("pack:\n  remove_ranks: [A, '3', K, Q, J, '7', '6', '5', '4', '2']\n",
     "4:17 sets pack.remove_ranks"),
])
@pytest.mark.parametrize("command", ["check-spec", "play"])
@pytest.mark.usefixtures(forget_house.__name__)
def test_a_conflict_a_house_file_makes_in_its_parent_names_the_house_file(
        change: str, sets: str, command: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    # was: located in spec/mariazza.yaml alone ("at 'deal.packet': hand size 21 is not a
    # whole number of packets of 5"), a file the user never wrote; house.yaml unnamed
    house = tmp_path / "house.yaml"
    house.write_text(f"extends: mariazza\nruleset: house\n{change}", encoding="utf-8")
    argv = [command, str(house)] + (["-q"] if command == "play" else [])
    code, _, err = run_cli(argv, capsys)
    assert code == 1 and "Traceback" not in err
    assert "mariazza.yaml:" in err.split(": at ")[0]
    assert f", which {house} extends: {house}:{sets}) [S020]\n" in err
    assert err.count("\n") == 1


# ------------------------------------------------------------------ standard input twice
@pytest.mark.parametrize("command", [["validate"], ["validate", "--format", "json"], ["stats"]])
def test_standard_input_named_twice_is_refused_before_reading(
        command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # was: stats "mariage: error: I/O operation on closed file." (exit 2, no file named);
    # validate read the records once, then found "no record" in the second "-": exit 1
    good = tmp_path / "good.mrg"
    good.write_text(RECORD, encoding="utf-8")
    code, out, err = run_cli([*command, "-", str(good), "-"], capsys)
    assert (code, out) == (2, "")
    assert err == "mariage: error: -: standard input is named 2 times; it can be read once\n"


# ------------------------------------------------------------------ compressed files
def _bad_compressed(kind: str, folder: Path) -> Path:
    """A file named for its compression that does not hold it (or holds it cut short)."""
    import gzip

    if kind == "text.gz":
        path = folder / "text.mrg.gz"
        path.write_text(RECORD, encoding="utf-8")
    elif kind == "text.zst":  # (the test extra installs zstandard, the reader of .zst)
        path = folder / "text.mrg.zst"
        path.write_text(RECORD, encoding="utf-8")
    elif kind == "text.bz2":
        path = folder / "text.mrg.bz2"
        path.write_text(RECORD, encoding="utf-8")
    else:
        path = folder / "cut.mrg.gz"
        path.write_bytes(gzip.compress(RECORD.encode() * 20)[:120])
    return path


@pytest.mark.parametrize("kind", ["text.gz", "text.zst", "text.bz2", "cut.gz"])
@pytest.mark.parametrize("command", [["replay"], ["replay", "--format", "json"],
                                     ["view", "-s", "A"], ["render", "--html", "{out}.html"],
                                     ["render", "--svg", "{out}.svg", "--hand", "1"]])
def test_a_compressed_file_that_cannot_be_read_is_n105_at_its_line(
        kind: str, command: list[str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    # was: a cut .gz raised EOFError and a .zst that is no zstd a ZstdError (tracebacks);
    # a .gz or .bz2 holding text was "mariage: error: text.mrg.gz: None" (replay) or "Not
    # a gzipped file (b'[M')" without the file's name (view, render), exit 2
    path = _bad_compressed(kind, tmp_path)
    argv = [a.replace("{out}", str(tmp_path / "page")) for a in command]
    code, out, err = run_cli([*argv, str(path)], capsys)
    assert code == 1 and "Traceback" not in err
    if "json" in command:
        first = json.loads(out)["errors"][0]
        assert (first["code"], first["file"], first["line"]) == ("N105", str(path), 1)
    else:
        assert f"{path}:1:1: N105: the file cannot be read further: " in err
    assert not list(tmp_path.glob("page*"))  # nothing drawn


def test_read_records_says_n105_where_a_compressed_stream_breaks(tmp_path: Path) -> None:
    # was: the decoder's own EOFError out of mariage.notation.read_records
    from mariage.notation.batch import open_input
    from mariage.notation.errors import NotationError
    from mariage.notation.reader import read_records

    path = _bad_compressed("cut.gz", tmp_path)
    with open_input(path) as stream, pytest.raises(NotationError) as caught:
        list(read_records(stream, str(path)))
    assert caught.value.error.code == "N105"


# ------------------------------------------------------------------ a suite's test file
QUIT_TEST = """---
id: protocol/quit42
description: "quit is answered with bye"
kind: protocol
ruleset: "*"
rules: [protocol.quit]
features: [protocol]
start: {}
steps: STEPS
---
"""


@pytest.mark.parametrize("steps", ["1.5", "5", "true"])
def test_steps_that_are_no_list_are_refused_naming_the_file(
        steps: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # was: a TypeError traceback ('float' object is not iterable) as the suite was read
    folder = tmp_path / "tests" / "protocol"
    folder.mkdir(parents=True)
    test = folder / "quit.test"
    test.write_text(QUIT_TEST.replace("STEPS", steps), encoding="utf-8")
    code, out, err = run_cli(["conformance", "--suite", str(tmp_path), "--no-progress"],
                             capsys)
    assert (code, out) == (2, "")
    assert err.startswith("mariage: error: protocol/quit.test: 'steps' must be a list of "
                          "mappings")
    assert err.count("\n") == 1


# ------------------------------------------------------------------ record N of a file
@pytest.mark.parametrize("command", [["replay", "-r", "2"], ["replay", "--format", "json",
                                                             "-r", "2"],
                                     ["view", "-s", "A", "-r", "2"]])
def test_record_n_is_read_though_an_earlier_record_does_not_parse(
        command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # was: "N110 record 1, at '%%'" and exit 1: every record before N was parsed, and the
    # first that did not parse stopped the reading (render -r 2 drew record 2)
    path = tmp_path / "two.mrg"
    path.write_text(RECORD.replace("hand 1\n", "hand 1 %%\n") + "\n" + RECORD,
                    encoding="utf-8")
    code, out, err = run_cli([*command, str(path)], capsys)
    assert (code, err) == (0, "")
    assert "N110" not in out
    code, out, err = run_cli([*command[:-1], "1", str(path)], capsys)  # record 1: its own
    assert code == 1 and "N110" in (out if "json" in command else err)


def test_a_deal_step_without_its_deck_is_run_not_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # was: KeyError: 'deck' out of the reference that follows a test to blame its rules
    import yaml
    from mariage.resources import conformance_dir

    source = conformance_dir() / "tests" / "mariazza" / "deal" / "first-player-required.test"
    text = source.read_text(encoding="utf-8")
    end = text.index("\n---\n", 3)
    data = yaml.safe_load(text[4:end + 1])
    deal = next(s for s in data["steps"] if "deal" in s)
    del deal["deal"]["deck"]
    folder = tmp_path / "tests" / "mariazza"
    folder.mkdir(parents=True)
    (folder / "nodeck.test").write_text("---\n" + yaml.safe_dump(data) + text[end + 1:],
                                        encoding="utf-8")
    code, out, err = run_cli(["conformance", "--suite", str(tmp_path), "--no-progress"],
                             capsys)
    assert code == 1 and "Traceback" not in err
    assert f"FAIL  {data['id']}: step 5: " in out  # bad_request, not the refusal expected


# ------------------------------------------------------------------ render's problems
@pytest.mark.parametrize("limit", [None, "0", "5"])
def test_render_lists_at_most_max_problems_on_stderr(
        limit: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # was: every problem the page shows, one line each: 20,000 lines for a record of
    # 20,000 wrong annotations (replay and validate list 100, then count the rest)
    path = tmp_path / "notes.mrg"
    path.write_text(RECORD.replace("(won B)\n", "(won B)\n" + "(points 1 2)\n" * 120),
                    encoding="utf-8")
    page = tmp_path / "page.html"
    extra = [] if limit is None else ["--max-problems", limit]
    code, out, err = run_cli(["render", "--html", str(page), *extra, str(path)], capsys)
    assert (code, out) == (1, f"{page}\n") and page.exists()
    lines = err.splitlines()
    shown = {None: 100, "0": 120, "5": 5}[limit]
    assert sum(" N152 " in line for line in lines) == shown
    if shown < 120:
        assert lines[-1] == (f"... and {120 - shown} more problems found and not shown "
                             f"(--max-problems {shown}; 0 shows all)")
