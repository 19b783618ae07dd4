"""Numbers, names and tags from hostile input (third round): one reading of a whole
number, whatever the input; names a record can write back; a tag given twice refused;
every bad value a located, one-line error.

Python's ``int()`` reads ``'１０'``, ``'٣'``, ``'1_000'``, ``' 5 '`` and truncates ``2.7``;
it raises a bare ``ValueError`` for ``'²'`` (a digit to ``str.isdigit``) and for text of
more than 4300 digits; and JSON Schema counts ``2.0`` as an integer. Each case below went
through one of these before.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from mariage import load_rules
from mariage.cli import main
from mariage.commands.human import Human
from mariage.conformance.hidden import parse_reveal
from mariage.engine.actiontext import parse_action
from mariage.engine.state import GameState
from mariage.errors import OptionError, whole_number
from mariage.spec import rulesload as compile_

SPEC_DIR = Path(__file__).resolve().parent.parent / "spec"


@pytest.fixture(autouse=True)
def _fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MARIAGE_NO_CACHE", "1")
    compile_._RULES_CACHE.clear()
    compile_._DOCUMENTS.clear()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as stop:  # argparse refuses an argument this way
        code = int(stop.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _house(tmp_path: Path, old: str, new: str, base: str = "marianna-2") -> Path:
    text = (SPEC_DIR / f"{base}.yaml").read_text(encoding="utf-8")
    text = text.replace(f"ruleset: {base}\n", "ruleset: house\n", 1)
    assert old in text
    path = tmp_path / "house.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize("raw", [7, "-12", "+3", "0"])
def test_whole_numbers_are_read(raw: object) -> None:
    assert whole_number(raw) == int(str(raw))


@pytest.mark.parametrize("raw", [2.0, 2.7, float("inf"), float("nan"), True, None, "",
                                 "２", "٣", "²", "1_000", " 5", "5 ", "0x10", "1e3",
                                 "9" * 4301])
def test_anything_else_is_not_a_whole_number(raw: object) -> None:
    assert whole_number(raw) is None


@pytest.mark.parametrize("old,new,shown", [
    ("  count: 2\n", "  count: 2.0\n", "players.count': expected integer, got float 2.0"),
    ("version: 1\n", "version: 1.0\n", "version': expected integer, got float 1.0"),
])
def test_a_float_where_the_schema_wants_an_integer_is_located(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str,
        shown: str) -> None:
    """``count: 2.0`` passed the schema and crashed the compiler with a traceback."""
    path = _house(tmp_path, old, new)
    for argv in (("check-spec", str(path)), ("rules", str(path)),
                 ("play", str(path), "-q")):
        code, _, err = run(capsys, *argv)
        assert code == 1, argv
        assert shown in err and "[S001]" in err and f"{path.name}:" in err
        assert len(err.splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("default", ["501.0", "501.7", "[501]", "'lots'"])
def test_an_int_options_default_of_another_type_is_located(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], default: str) -> None:
    """Was an unlocated usage error (exit 2), and ``501.7`` was silently played as 501."""
    path = _house(tmp_path, "    default: 501\n", f"    default: {default}\n", "marianna")
    for argv in (("check-spec", str(path)), ("rules", str(path))):
        code, _, err = run(capsys, *argv)
        assert code == 1, argv
        assert "house.yaml:" in err and "at 'options.target.default'" in err, err
        assert "takes a whole number" in err and "[S001]" in err


@pytest.mark.parametrize("value", [2.7, 500.9, "１０", "1_000", "\u00a0600", "٣٠٠",
                                   float("inf"), float("nan"), "9" * 5000])
def test_option_values_are_whole_numbers_or_refused(value: object) -> None:
    """``{'target': 2.7}`` played to 2, ``'１０'`` to 10, and ``inf`` raised OverflowError."""
    with pytest.raises(OptionError, match="option 'target' takes a whole number"):
        load_rules("marianna", {"target": value})
    assert load_rules("marianna", {"target": "+600"}).match_target == 600
    assert load_rules("marianna", {"target": " 600\t"}).match_target == 600


@pytest.mark.parametrize("value", ["１０", "1_000", "6 00", "٣"])
def test_command_line_option_values_are_ascii_whole_numbers(
        capsys: pytest.CaptureFixture[str], value: str) -> None:
    code, out, err = run(capsys, "rules", "marianna", "-o", f"target={value}")
    assert code == 2 and out == ""
    assert err == f"mariage: error: option 'target' takes a whole number, got {value!r}\n"


@pytest.mark.parametrize("text", ["bid:\u00b2", "bid:\uff11\uff10\uff10", "raise:\u00b2",
                                  "dark:\u00b2", "bid:" + "1" * 5000, "dark:" + "1" * 5000])
def test_action_texts_with_odd_digits_are_not_actions(text: str) -> None:
    """``bid:²`` was ``invalid literal for int()``, ``bid:111...`` (5000 digits) Python's
    advice to call ``sys.set_int_max_str_digits()``: both now "not an action", cut."""
    rules = load_rules("thousand")
    with pytest.raises(ValueError) as info:
        parse_action(rules, text)
    message = str(info.value)
    assert message.startswith("not an action of thousand: ")
    assert "int()" not in message and len(message) < 140


def test_a_long_bid_in_range_of_digits_is_still_an_action_the_rules_refuse() -> None:
    rules = load_rules("thousand")
    assert parse_action(rules, "bid:" + "9" * 30) is not None


def test_a_person_typing_an_odd_digit_is_asked_again() -> None:
    """``²`` at the prompt ended the whole match with exit 2."""
    rules = load_rules("marianna")
    state = GameState(rules, first_dealer=0)
    state.deal(list(range(rules.ncards)))
    out = io.StringIO()
    human = Human(state.to_act, io.StringIO("\u00b2\n\uff11\n1\n"), out)
    assert human.choose(state) == state.legal_actions()[0]
    assert out.getvalue().count("is not one of the choices") == 2


@pytest.mark.parametrize("argv,message", [
    (("match", "marianna", "--engine", "\u00b2=cat", "-n", "1"), "no seat '\u00b2'"),
    (("match", "marianna", "--bot", "\u0663=greedy", "-n", "1"), "no seat '\u0663'"),
    (("validate", "--scheduler", "local:\u00b2", "x.mrg"),
     "--scheduler local:N takes a number of workers, got '\u00b2'"),
    (("validate", "--scheduler", "tcp://localhost:\u00b2", "x.mrg"),
     "expected tcp://HOST:PORT"),
])
def test_odd_digits_in_arguments_are_named(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                           argv: tuple[str, ...], message: str) -> None:
    if "--scheduler" in argv:
        pytest.importorskip("distributed")
    (tmp_path / "x.mrg").write_text('[Mariage "1"]\n[Ruleset "marianna"]\n[Dealer "N"]\n'
                                    "result *\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err and "int()" not in err


@pytest.mark.parametrize("reveal", [{"hands": {"\u00b2": ["AH"]}}, {"deck": {"\u00b2": "AH"}},
                                    {"deck": {"1" * 5000: "AH"}}])
def test_reveal_keys_with_odd_digits_are_bad_requests(reveal: dict[str, object]) -> None:
    from mariage.conformance.protocol import ProtocolError

    with pytest.raises(ProtocolError) as info:
        parse_reveal(load_rules("marianna"), json.loads(json.dumps(reveal)))
    assert info.value.code == "bad_request" and "keys are" in str(info.value)


@pytest.mark.parametrize("argv", [("rules", "marianna"), ("play", "marianna", "-q"),
                                  ("match", "marianna", "-n", "1", "-q")])
def test_an_option_given_twice_on_the_command_line_is_refused(
        capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    """``-o target=300 -o target=700`` played to 700 without a word."""
    code, out, err = run(capsys, *argv, "-o", "target=300", "-o", " target =700")
    assert (code, out) == (2, "")
    assert err == "mariage: error: --option: 'target' is given twice\n"


# ---------------------------------------------------------------- names in descriptions
@pytest.mark.parametrize("names,shown", [
    ('["A B", C]', "'A B' does not match"), ('["-", C]', "'-' does not match"),
    ('["", C]', "'' does not match"), ('[A, A]', "one distinct name per team [S020]"),
])
def test_team_names_are_one_distinct_word(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          names: str, shown: str) -> None:
    """Any text was a team name: ``A B`` made records that failed validation (the result
    line is ``result TEAM REASON``), ``-`` (no winner) and ``[A, A]`` ambiguous ones."""
    path = _house(tmp_path, "team_names: [A, B]", f"team_names: {names}")
    code, _, err = run(capsys, "check-spec", str(path))
    assert code == 1 and shown in err and "house.yaml:" in err and "team_names" in err


def test_a_ruleset_name_is_at_most_what_a_record_can_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A 65-character ruleset name played, and its records were N122 for ``validate``."""
    path = _house(tmp_path, "ruleset: house\n", f"ruleset: {'h' * 65}\n")
    code, _, err = run(capsys, "check-spec", str(path))
    assert code == 1 and "at 'ruleset'" in err and "is too long [S001]" in err
    path = _house(tmp_path, "ruleset: house\n", f"ruleset: {'h' * 64}\n")
    assert run(capsys, "check-spec", str(path))[0] == 0


def test_a_long_extends_name_is_located(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """``extends: aaa...`` (300+ characters) was ``mariage: error: ...: File name too
    long``, exit 2, with no line."""
    path = _house(tmp_path, "extends: marianna\n", f"extends: {'a' * 5000}\n")
    code, _, err = run(capsys, "check-spec", str(path))
    assert code == 1 and err.startswith(f"{path}:3:10: at 'extends': unknown ruleset")
    assert "(5000 characters)" in err and len(err) < 1000


def test_check_spec_cuts_a_value_quoted_back_whole(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A 200,000-character seat name was quoted back whole on one 200 KB line."""
    path = _house(tmp_path, "seat_names: [A, B]", f"seat_names: [{'a' * 200_000}, B]")
    code, _, err = run(capsys, "check-spec", str(path))
    assert code == 1 and len(err) < 1100 and err.count("\n") == 1
    assert err.startswith(f"{path}:21:16: at 'players.seat_names.0'") and "[S001]" in err


# ---------------------------------------------------------------- tags given twice
RECORD_HEAD = '[Mariage "1"]\n[Ruleset "marianna"]\n[Dealer "N"]\n'


@pytest.mark.parametrize("tags,shown", [
    ('[Option "target" "300"]\n[Option "target" "700"]\n',
     "5:2: N120 record 1, at 'target': the tag Option 'target' is given twice"),
    ('[Seat "N" "Anna"]\n[Seat "N" "Bruno"]\n',
     "5:2: N120 record 1, at 'N': the tag Seat 'N' is given twice"),
    ('[Observer "N"]\n[Observer "S"]\n', "5:2: N120 record 1: the tag Observer is given twice"),
    ('[StartHand "2"]\n[StartHand "3"]\n[StartScore "0" "0"]\n',
     "5:2: N120 record 1: the tag StartHand is given twice"),
    ('[StartHand "2"]\n[StartScore "0" "0"]\n[StartScore "10" "0"]\n',
     "6:2: N120 record 1: the tag StartScore is given twice"),
    ('[Observer "Q"]\n', "4:2: N124 record 1, at 'Q': no seat 'Q' in marianna"),
])
def test_a_tag_given_twice_or_an_unknown_observer_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], tags: str, shown: str) -> None:
    """Each was a valid record: which of two targets holds was the reader's guess (the
    last), and ``[Observer "Q"]`` named no seat."""
    path = tmp_path / "a.mrg"
    path.write_text(RECORD_HEAD + tags + "result *\n", encoding="utf-8")
    for argv in (("validate", str(path)), ("validate", "--strict", str(path))):
        code, out, _ = run(capsys, *argv)
        assert code == 1 and f"a.mrg:{shown}" in out, out


def test_records_differing_only_in_a_repeated_tag_are_each_checked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The canonical fast path keeps each header it checked: a header like a good one but
    for a second Observer must not reuse the good one's verdict."""
    good = RECORD_HEAD + '[Observer "N"]\nresult *\n'
    bad = RECORD_HEAD + '[Observer "N"]\n[Observer "N"]\nresult *\n'
    path = tmp_path / "a.mrg"
    path.write_text(good + "\n" + bad + "\n" + good, encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 1 and "3 records, 2 valid, 1 invalid" in out
    assert "N120 record 2: the tag Observer is given twice" in out


# ---------------------------------------------------------------- conformance arguments
@pytest.mark.parametrize("kind,shown", [
    ("folder", "is a folder"),
    ("fifo", "is not a regular file (a FIFO, socket or device); not read"),
    ("binary", "not UTF-8 text (byte 1)"), ("large", "larger than 8,388,608 bytes"),
])
def test_an_expect_file_is_read_like_a_test_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, shown: str) -> None:
    """``--expect`` read any file whole: a folder or a FIFO was "no such file", bytes that
    are not UTF-8 a bare ``'utf-8' codec can't decode ...`` naming no file."""
    import os

    from hostilekit import deadline

    path = tmp_path / "expect.txt"
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "binary":
        path.write_bytes(b"a\xff\n")
    else:
        path.write_bytes(b"x\n" * (5 << 20))
    with deadline(20):
        code, out, err = run(capsys, "conformance", "--ruleset", "marianna", "--kind",
                             "perft", "--expect", str(path))
    assert (code, out) == (2, "")
    assert err == f"mariage: error: --expect {path}: {shown}\n"


@pytest.mark.parametrize("value", ["200", "-1", "nan", "inf", "lots"])
def test_min_coverage_is_a_percentage(capsys: pytest.CaptureFixture[str], value: str) -> None:
    """``--min-coverage 200`` ran the whole suite to fail it; ``nan`` passed any run."""
    code, out, err = run(capsys, "conformance", "--min-coverage", value)
    assert (code, out) == (2, "")
    assert f"--min-coverage: a percentage from 0 to 100, got {value!r}" in err


# ---------------------------------------------------------------- records drawn
@pytest.mark.parametrize("kind", ["--html", "--svg"])
def test_render_says_why_it_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                    kind: str) -> None:
    """A record with problems was drawn and ``render`` exited 1 with nothing on standard
    error: a script saw a failure and no reason."""
    bad = Path(__file__).resolve().parent / "data" / "records" / "bad" / "must-follow.mrg"
    out = tmp_path / ("b.html" if kind == "--html" else "b.svg")
    extra = ("--hand", "1") if kind == "--svg" else ()
    code, stdout, err = run(capsys, "render", str(bad), kind, str(out), *extra)
    _, checked, _ = run(capsys, "validate", str(bad))
    assert code == 1 and stdout.strip() == str(out) and out.exists()
    problems = checked.splitlines()[:-1]  # the last line is the file's summary
    assert problems and err.splitlines()[0] == problems[0]
    assert " N141 " in err.splitlines()[0]


# ---------------------------------------------------------------- closed standard streams
def _with_closed(redirect: str, *argv: str, cwd: Path) -> tuple[int, str]:
    import shlex
    import subprocess
    import sys

    command = " ".join(shlex.quote(a) for a in (sys.executable, "-m", "mariage", *argv))
    done = subprocess.run(["sh", "-c", f"{command} {redirect}"], cwd=cwd, timeout=120,
                          capture_output=True, text=True, check=False)
    return done.returncode, done.stdout + done.stderr


@pytest.mark.parametrize("redirect,argv,code", [
    (">&-", ("list",), 0), (">&-", ("validate", "a.mrg"), 1),
    (">&-", ("play", "mariazza", "-q", "--out", "b.mrg"), 0),
    ("<&-", ("replay", "-"), 1), ("<&-", ("engine",), 0),
    ("<&-", ("play", "mariazza", "-q", "--human", "A"), 0),
    ("2>&- >/dev/null", ("validate", "missing.mrg"), 2),
])
def test_a_closed_standard_stream_is_like_dev_null(tmp_path: Path, redirect: str,
                                                   argv: tuple[str, ...], code: int) -> None:
    """With ``>&-`` or ``<&-`` Python sets ``sys.stdout``/``sys.stdin`` to None: every
    command ended in ``AttributeError: 'NoneType' object has no attribute 'flush'`` (or
    ``'buffer'``), a traceback; with ``2>&-`` a missing file was exit 1, not 2."""
    (tmp_path / "a.mrg").write_text(RECORD_HEAD + "result N\n", encoding="utf-8")
    got, text = _with_closed(redirect, *argv, cwd=tmp_path)
    assert got == code, text
    assert "Traceback" not in text
    if "--out" in argv:
        assert (tmp_path / "b.mrg").read_text(encoding="utf-8").startswith('[Mariage "1"]')


# ---------------------------------------------------------------- conformance test files
GOLDEN = (Path(__file__).resolve().parent.parent / "conformance" / "tests" / "marianna"
          / "golden" / "combination_once-true.test")
BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{b}: &{b} [{', '.join([f'*{a}'] * 10)}]\n" for a, b in zip("abcdefgh", "bcdefghi",
                                                                 strict=True))


@pytest.mark.parametrize("old,new,shown", [
    ("kind: golden", "kind: golden\ndepth: [1]", "'depth' must be a whole number"),
    ("kind: golden", "kind: golden\ndepth: .inf", "'depth' must be a whole number"),
    ("kind: golden", "kind: golden\ndepth: 99999999999999",
     "'depth' must be from 0 to 10000, got 99999999999999"),
    ("kind: golden", "kind: golden\ncounts: 5", "'counts' must be a list of whole numbers"),
    ("kind: golden", "kind: golden\ncounts: [x]", "'counts' must be a list of whole numbers"),
    ("features: [golden, option]", "features: 5", "'features' must be a list of texts"),
    ("options: {combination_once: true}", "options: [1, 2]", "'options' must be a mapping"),
    ("options: {combination_once: true}", "options: xyz", "'options' must be a mapping"),
    ("initial: {", "initial: 5\nold: {", "'initial' must be a mapping"),
    ("kind: golden", "kind: golden\nnegative: 7", "'negative' must be a mapping"),
    ("rules: [marianna.pack", "rules: [[1], marianna.pack", "'rules' must be a list of texts"),
    ('- {"act": "2C"', '- {"act": 5', "step 1: 'act' must be a text"),
    ('"legal": ["4D", "KC", "JC", "2C", "4S"]', '"legal": 5',
     "step 1: 'legal' must be a list of texts"),
    ("kind: golden", "a: &a [x, x]\nkind: golden\nsame: *a",
     "the front matter repeats a value by a YAML alias"),
    ("kind: golden", "kind: golden\nx: &x [*x]", "the front matter repeats a value by a YAML"),
])
def test_a_test_file_of_the_wrong_shape_is_named(old: str, new: str, shown: str) -> None:
    """``depth: [1]``, ``features: 5``, a step's ``act: 5`` were tracebacks of the runner;
    ``depth: 99999999999999`` asked for a list that size; ``options: xyz`` was a bare
    ``dictionary update sequence element #0 has length 1`` naming no file."""
    from mariage.conformance.suite import SuiteError, parse_test

    text = GOLDEN.read_text(encoding="utf-8")
    assert old in text
    with pytest.raises(SuiteError) as info:
        parse_test(text.replace(old, new, 1), "x/bad.test")
    assert str(info.value).startswith(f"x/bad.test: {shown}")


@pytest.mark.parametrize("step,shown", [
    ('{"send_long": 99999999999999}', "'send_long' must be from 0 to 16,777,216"),
    ('{"send_hex": "zz"}', "'send_hex' must be hexadecimal text"),
    ('{"silent": "yes", "send": "x"}', "'silent' must be true or false"),
])
def test_a_protocol_step_is_bounded(step: str, shown: str) -> None:
    from mariage.conformance.suite import SuiteError, parse_test

    text = ("---\nid: p\ndescription: d\nkind: protocol\nruleset: '*'\nrules: [x]\n"
            f"start: {{}}\nsteps:\n- {step}\n---\n")
    with pytest.raises(SuiteError, match=f"p.test: step 1: {shown}"):
        parse_test(text, "p.test")


def test_an_alias_bomb_in_a_suite_is_refused_at_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Nine lines of aliases in ``initial`` stood for 10^9 values: the run compared them
    with the engine's state for minutes, past 3 GB."""
    from hostilekit import deadline

    text = GOLDEN.read_text(encoding="utf-8").replace("kind: golden", BOMB + "kind: golden")
    text = text.replace('initial: {"phase"', 'initial: {"bomb": *i, "phase"')
    (tmp_path / "tests" / "marianna").mkdir(parents=True)
    (tmp_path / "tests" / "marianna" / "bomb.test").write_text(text, encoding="utf-8")
    with deadline(30):
        code, _, err = run(capsys, "conformance", "--suite", str(tmp_path))
    assert code == 2 and "bomb.test: the front matter repeats a value by a YAML alias" in err


# ---------------------------------------------------------------- protocol messages
@pytest.mark.parametrize("line,name", [
    ('{"type": "state", "type": "legal"}', "type"),
    ('{"type": "apply", "action": "QS", "action": "KS"}', "action"),
    ('{"type": "start", "options": {"target": 300, "target": "x"}}', "target"),
])
def test_a_message_that_gives_a_name_twice_is_bad_json(line: str, name: str) -> None:
    """Python's JSON reader kept the last value: ``apply`` of ``QS`` then ``KS`` played
    ``KS``, where another reader would play ``QS``."""
    from mariage.conformance.protocol import ProtocolError, decode

    with pytest.raises(ProtocolError) as info:
        decode(line)
    assert info.value.code == "bad_json"
    assert f"the name '{name}' is given twice in one object" in str(info.value)


def test_the_engine_answers_a_repeated_name_and_carries_on() -> None:
    import subprocess
    import sys

    lines = '{"type": "state", "type": "legal"}\n{"type": "state", "id": 1}\n'
    done = subprocess.run([sys.executable, "-m", "mariage", "engine"], input=lines,
                          capture_output=True, text=True, timeout=60, check=False)
    replies = [json.loads(r) for r in done.stdout.splitlines()]
    assert [(r["code"], r.get("id")) for r in replies] == [("bad_json", None), ("no_match", 1)]
    assert done.returncode == 0 and done.stderr == ""


# ---------------------------------------------------------------- text shown and written back
ESCAPES = "gr\x1b[31mRED\x1b[0m\x07\u202eeedy"


@pytest.mark.parametrize("argv", [("replay",), ("stats",)])
def test_what_a_record_says_cannot_act_on_the_terminal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    """A player name with escape sequences (valid in a record) was printed raw by
    ``replay`` and ``stats``: it could clear the screen or reorder the line."""
    good = Path(__file__).resolve().parent / "data" / "records" / "good" / "marianna.mrg"
    text = good.read_text(encoding="utf-8")
    seat = next(line for line in text.splitlines() if line.startswith('[Seat "N"'))
    path = tmp_path / "a.mrg"
    path.write_text(text.replace(seat, f'[Seat "N" "{ESCAPES}"]'), encoding="utf-8")
    code, out, _ = run(capsys, *argv, str(path))
    assert code == 0
    assert "gr\\x1b[31mRED\\x1b[0m\\x07\\u202eeedy" in out
    assert not any(c in out for c in "\x1b\x07\u202e")


def test_an_engines_name_is_one_printable_line_in_the_table_and_the_record(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An engine naming itself ``ev\\x1b[2Jil\\n[Ruleset "x`` in its hello cleared the
    terminal, and ``match --out`` wrote a record broken over two lines (N110)."""
    import sys

    wrapper = tmp_path / "named.py"
    wrapper.write_text(
        "import json, subprocess, sys\n"
        "p = subprocess.Popen([sys.executable, '-m', 'mariage', 'engine'], text=True,\n"
        "                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)\n"
        "for line in sys.stdin:\n"
        "    p.stdin.write(line); p.stdin.flush()\n"
        "    msg = json.loads(p.stdout.readline())\n"
        "    if msg.get('type') == 'hello':\n"
        "        msg['engine'] = 'ev\\x1b[2Jil\\n[Ruleset \"x' + 'y' * 200\n"
        "    print(json.dumps(msg), flush=True)\n", encoding="utf-8")
    out = tmp_path / "m.mrg"
    code, table, _ = run(capsys, "match", "mariazza", "--engine", f"A={sys.executable} {wrapper}",
                         "-n", "1", "-q", "--out", str(out))
    assert code == 0 and "\x1b" not in table and "ev\\x1b[2Jil [Ruleset" in table
    seat = next(line for line in out.read_text(encoding="utf-8").splitlines()
                if line.startswith('[Seat "A"'))
    assert seat.startswith('[Seat "A" "ev\\\\x1b[2Jil [Ruleset \\"xyyy') and seat.endswith('..."]')
    assert run(capsys, "validate", str(out))[0] == 0


def test_the_writer_never_breaks_a_tag_over_two_lines() -> None:
    from mariage.notation.model import Record, Tag
    from mariage.notation.writer import write_record

    text = write_record(Record((Tag("Mariage", ("1",)), Tag("Event", ("a\nb", 'c"\\'))),
                               (), (), None))
    assert text == '[Mariage "1"]\n[Event "a b" "c\\"\\\\"]\n'


# ---------------------------------------------------------------- the library
@pytest.mark.parametrize("action,shown", [(None, "<NoneType None>"), ("AH", "<str 'AH'>"),
                                           (5, "<int 5>"), ("x" * 100, "<str 'xxxx")])
def test_applying_what_is_not_an_action_says_so(action: object, shown: str) -> None:
    """``state.apply("AH")`` was refused as ``action 'callout': this ruleset has no such
    action [core.phase]``: an action nobody gave (any unknown object was named
    ``callout``). It is still refused under core.phase, saying what it was."""
    from mariage import new_match
    from mariage.errors import IllegalActionError

    state = new_match(load_rules("marianna"), seed=1)
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)  # type: ignore[arg-type]
    message = str(info.value)
    assert info.value.rule_id == "core.phase" and f"action '{shown}" in message
    assert "not an action of any game (parse_action(rules, text) makes one of a text)" in \
        message and "callout" not in message and len(message) < 200
    state.apply(state.legal_actions()[0])  # the state is unchanged: a real action works


def test_two_spec_files_for_one_ruleset_are_refused(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """``--spec a.yaml --spec b.yaml``, both ``ruleset: house``: the last one was used
    without a word (the order of the options decided the rules)."""
    first = _house(tmp_path, "name: Marianna for two", "name: First house")
    second = tmp_path / "other.yaml"
    second.write_text(first.read_text(encoding="utf-8").replace("First", "Second"),
                      encoding="utf-8")
    from mariage.spec.specload import unregister_spec

    try:
        code, out, err = run(capsys, "rules", "house", "--spec", str(first), "--spec",
                             str(second))
        again = run(capsys, "rules", "house", "--spec", str(first), "--spec", str(first))
    finally:
        unregister_spec("house")
    assert (code, out) == (2, "")
    assert err == (f"mariage: error: --spec: {first} and {second} both describe the ruleset "
                   "'house' (which one is meant would be a guess)\n")
    assert again[0] == 0 and again[1].startswith("First house (house")
