"""Engine processes that misbehave: two answers to one request, an engine that exits while
a process it started holds its output, one that closes its output and lives on, a command
line with shell operators, JSON nested or numbered past what can be read, and a runner
stopped by SIGTERM or interrupted while it stops an engine (no engine may outlive it)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from hostilekit import deadline, run_cli
from mariage.conformance.client import (
    EngineClient,
    EngineFailure,
    ProcessTransport,
    check_command,
)
from mariage.conformance.protocol import ProtocolError, decode

REFERENCE = Path(__file__).resolve().parent.parent / "reference"

#: An engine that plays a match from the legal actions; ``MODE`` (argv[1]) is how it
#: misbehaves once asked to choose (``mute``: after its hello; ``deaf``: at once); it
#: writes its process ids to argv[2] first.
ENGINE = """
import json, os, sys, time
mode, pids = sys.argv[1], sys.argv[2]
with open(pids, "a") as f:
    f.write(f"{os.getpid()}\\n")
if mode == "deaf":  # reads nothing, so never sees the end of its input either
    time.sleep(600)
if mode == "early":  # a line before any request
    sys.stdout.write('{"type": "ok"}\\n'); sys.stdout.flush()
if mode == "noisy":  # more than a pipe holds, before the hello and with every answer
    sys.stderr.write("x" * 1_000_000 + "\\n"); sys.stderr.flush()
def say(msg):
    sys.stdout.write(json.dumps(msg) + "\\n"); sys.stdout.flush()
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "hello":
        if mode == "closein":  # reads no more, yet lives on
            os.close(0)
        say({"type": "hello", "engine": "hostile", "protocol": 1, "requests": ["choose"],
             "rulesets": {"mariazza": {"options": {"target": {"type": "int", "default": 41}}}}})
        if mode == "closein":
            time.sleep(600)
        continue
    if kind == "quit":
        break
    if mode == "mute":
        time.sleep(600)
    if mode == "ctrl":  # words that would act on a terminal, break a line or an XML file
        if kind == "choose" or kind == "apply":
            sys.stderr.write("dying\\x1b[2J\\x07\\n"); sys.stderr.flush()
        say({"type": "error", "code": "illegal_action\\x1b[31m",
             "message": "nul\\x00 esc\\x1b]0;title\\x07 cr\\r\\nnew line \\ufffe",
             "rule": "x\\x0c"})
        continue
    if mode == "noisy":
        sys.stderr.write("y" * 1_000_000 + "\\n"); sys.stderr.flush()
    if kind != "choose" or mode == "none":
        say({"type": "ok"})
        continue
    if mode == "twice":  # both at once: a second line sent later is read as the next answer
        sys.stdout.write(2 * (json.dumps({"type": "choose", "seat": 0,
                                          "action": msg["legal"][0]}) + "\\n"))
        sys.stdout.flush()
    elif mode == "dies":
        sys.stderr.write("fatal\\x1b[2J\\x1b]0;pwned\\x07 error\\n")
        sys.exit(3)
    elif mode == "cr":  # old Mac line ends: the runner waits for a line feed
        sys.stdout.write(json.dumps({"type": "choose", "seat": 0, "action": "AH"}) + "\\r")
        sys.stdout.flush()
        time.sleep(600)
    elif mode == "surrogate":  # json.dumps writes it as the escape \\ud800
        say({"type": "choose", "seat": 0, "action": "\\ud800"})
    elif mode in ("early", "noisy"):
        say({"type": "choose", "seat": 0, "action": msg["legal"][0]})
    elif mode == "fork":
        if os.fork() == 0:
            with open(pids, "a") as f:
                f.write(f"{os.getpid()}\\n")
            time.sleep(600)
        os._exit(0)
    elif mode == "closeout":
        os.close(1)
        time.sleep(600)
    elif mode == "silent":
        time.sleep(600)
"""


def engine(tmp_path: Path, mode: str) -> tuple[str, Path]:
    """The command of :data:`ENGINE` misbehaving as ``mode``, and its file of pids."""
    script = tmp_path / "engine.py"
    script.write_text(ENGINE)
    pids = tmp_path / f"pids-{mode}.txt"
    return f"{sys.executable} {script} {mode} {pids}", pids


def alive(pid: int) -> bool:
    """Is process ``pid`` running (not gone, not a zombie)?"""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False


def pids_of(path: Path) -> list[int]:
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def started(path: Path) -> None:
    """Wait until the engine listing its pids in ``path`` has started."""
    end = time.monotonic() + 20
    while not pids_of(path) and time.monotonic() < end:
        time.sleep(0.02)
    assert pids_of(path), "the engine did not start"


def none_alive(path: Path, within: float = 3.0) -> bool:
    """Have all processes listed in ``path`` ended within ``within`` seconds? (Those left
    are killed, so that a failing test leaves nothing behind.)"""
    end = time.monotonic() + within
    while any(alive(p) for p in pids_of(path)) and time.monotonic() < end:
        time.sleep(0.05)
    left = [p for p in pids_of(path) if alive(p)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return not left


def choose(client: EngineClient) -> dict[str, Any]:
    client.hello()
    return client.request({"type": "choose", "budget_ms": 100, "legal": ["AH", "KH"]})


def failure_choosing(tmp_path: Path, mode: str, timeout: float = 8) -> EngineFailure:
    """How :data:`ENGINE` in ``mode`` fails when asked to choose (after its hello); none
    of its processes may be left afterwards."""
    command, pids = engine(tmp_path, mode)
    client = EngineClient.for_command(command, timeout=timeout)
    try:
        with deadline(20), pytest.raises(EngineFailure) as info:
            choose(client)
    finally:
        client.close()
    assert none_alive(pids)
    return info.value


# -- what an engine writes and when ---------------------------------------------------

def test_two_answers_to_one_request_are_named_not_taken_for_the_next(tmp_path: Path) -> None:
    command, pids = engine(tmp_path, "twice")
    client = EngineClient.for_command(command, timeout=5)
    try:
        choose(client)
        with pytest.raises(EngineFailure) as info:
            client.request({"type": "apply", "action": "AH"})
    finally:
        client.close()
    assert info.value.kind == "garbage"
    assert "before request 3 ('apply'): the engine wrote a line no request asked for" in \
        info.value.message and '"action": "AH"' in info.value.message
    assert none_alive(pids)


def test_a_second_answer_forfeits_the_match_game_saying_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    command, pids = engine(tmp_path, "twice")
    code, out, _ = run_cli(["match", "mariazza", "-o", "target=10", "--engine",
                            f"A={command}", "--games", "1", "--time", "1"], capsys)
    assert code == 0  # a forfeit is a result (--no-forfeits makes it exit 1)
    assert "forfeits (crash): before request" in out and "no request asked for" in out
    assert none_alive(pids)


CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f]")  # all but tab and line feed


def test_an_engines_control_characters_reach_no_terminal_report_or_trace(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """They were printed as they came (an escape sequence clears the screen), broke the
    JUnit report (NUL is no XML) and the trace's one-line comments (a line feed)."""
    command, pids = engine(tmp_path, "ctrl")
    junit, trace = tmp_path / "r.xml", tmp_path / "t.txt"
    code, out, err = run_cli(["conformance", "--engine", command, "--ruleset", "mariazza",
                              "--kind", "scenario", "--junit", str(junit), "--trace",
                              str(trace), "--timeout", "5"], capsys)
    assert code == 1 and "FAIL" in out and "\\x1b[31m" in out
    for text in (out, err, junit.read_text(encoding="utf-8"), trace.read_text(encoding="utf-8")):
        assert not CONTROL.search(text)
    ET.parse(junit)  # well-formed
    for line in trace.read_text(encoding="utf-8").splitlines():  # each line a request
        assert not line or line.startswith("#") or json.loads(line)["type"]
    assert none_alive(pids)


def test_an_engines_control_characters_reach_no_game_line_or_record(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    command, pids = engine(tmp_path, "ctrl")
    record = tmp_path / "games.txt"
    code, out, err = run_cli(["match", "mariazza", "-o", "target=10", "--engine",
                              f"A={command}", "-n", "2", "--out", str(record)], capsys)
    assert code == 0 and "forfeits (desync): the engine answered start with " \
        "illegal_action\\x1b[31m: nul\\x00 esc\\x1b]0;title\\x07 cr\\r\\nnew line" in out
    for text in (out, err, record.read_text(encoding="utf-8")):
        assert not CONTROL.search(text)
    assert none_alive(pids)


def test_an_engines_last_words_are_quoted_without_their_control_characters(
        tmp_path: Path) -> None:
    failure = failure_choosing(tmp_path, "dies")
    assert failure.message == ("the engine exited with code 3 during request 2 ('choose'); "
                               "its standard error ends: fatal\\x1b[2J\\x1b]0;pwned\\x07 error")


def test_a_line_before_the_hello_is_named_as_such(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    command, pids = engine(tmp_path, "early")
    code, out, err = run_cli(["match", "mariazza", "--engine", f"A={command}", "-n", "1"],
                             capsys)
    assert code == 2 and out == ""
    # found waiting before the hello was sent, or read as its answer: either way, said so
    assert "no request asked for" in err or \
        "(the first line an engine writes must be its answer to 'hello')" in err, err
    assert none_alive(pids)


def test_an_engine_writing_megabytes_to_its_standard_error_still_plays(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A runner that never read the engine's standard error would deadlock here (the
    engine blocks on a full pipe): it is read as it comes, and only its end kept."""
    command, pids = engine(tmp_path, "noisy")
    with deadline(120):
        code, out, _ = run_cli(["match", "mariazza", "-o", "target=10", "--engine",
                                f"A={command}", "-n", "1", "--time", "5"], capsys)
    assert code == 0 and "forfeits (" not in out and " wins (target)" in out
    assert none_alive(pids)


def test_an_engine_that_exits_while_its_child_holds_its_output_is_a_crash_at_once(
        tmp_path: Path) -> None:
    t0 = time.monotonic()
    failure = failure_choosing(tmp_path, "fork", timeout=8)
    assert time.monotonic() - t0 < 5  # not the 8 s of a timeout
    assert failure.kind == "crash"
    assert "the engine exited with code 0 (a process it started still holds its output " \
        "open) during request 2 ('choose')" in failure.message
    assert len(pids_of(tmp_path / "pids-fork.txt")) == 2  # the child, stopped too


def test_an_engine_that_closes_its_output_and_lives_on_is_called_so(tmp_path: Path) -> None:
    failure = failure_choosing(tmp_path, "closeout")
    assert failure.kind == "crash"
    assert "the engine closed its output but did not exit during request 2" in \
        failure.message and "(exited?)" not in failure.message


def test_a_timeout_shows_what_came_without_a_line_feed(tmp_path: Path) -> None:
    failure = failure_choosing(tmp_path, "cr", timeout=3)
    assert failure.kind == "timeout"
    assert failure.message == ("the answer to 'choose': no response within 3 s (it wrote 46 "
                               "bytes with no line feed after them: '{\"type\": \"choose\", "
                               "\"seat\": 0, \"action\": \"AH\"}\\r')")


def test_an_engine_that_closes_its_input_and_lives_on_is_called_so(tmp_path: Path) -> None:
    failure = failure_choosing(tmp_path, "closein")
    assert failure.kind == "crash"
    assert "the engine closed its input (cannot write to it: Broken pipe) during request 2 " \
        "('choose')" in failure.message


def test_half_a_utf16_pair_in_an_answer_forfeits_and_the_record_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It decoded to a text no UTF-8 output can hold: the match stopped at the game line
    with exit 2 and "'utf-8' codec can't encode character", its records unwritten."""
    command, pids = engine(tmp_path, "surrogate")
    out = tmp_path / "games.txt"
    code, table, err = run_cli(["match", "mariazza", "-o", "target=10", "--engine",
                                f"A={command}", "-n", "1", "--out", str(out)], capsys)
    assert code == 0 and err == "", err
    assert "forfeits (crash): the answer to 'choose': not JSON: a text holds '\\ud800', " \
        "half of a UTF-16 pair alone, which is no character" in table
    assert "[Termination " in out.read_text(encoding="utf-8")
    assert none_alive(pids)


def test_the_reference_engine_answers_half_a_utf16_pair_with_bad_json_and_goes_on() -> None:
    from mariage.conformance.client import ThreadTransport
    from mariage.conformance.engine import ReferenceEngine

    client = EngineClient(lambda: ThreadTransport(ReferenceEngine()), timeout=5)
    try:
        reply = client.exchange('{"type": "state", "id": "\\ud800"}')
        assert reply["code"] == "bad_json" and "half of a UTF-16 pair" in reply["message"]
        assert client.exchange('{"type": "state", "id": "\\ud83d\\ude00"}')["id"] == \
            "\U0001f600"  # a whole pair is one character
    finally:
        client.close()


@pytest.mark.parametrize(("line", "shown"), [
    ('{"type": "ok", "x": ' + "[" * 100_000 + "]" * 100_000 + "}",
     "not JSON: arrays or objects nested too deeply to read"),
    ('{"type": "ok", "x": 1' + "0" * 5000 + "}", "not JSON: a number of more than 4300 digits"),
    ('\ufeff{"type": "ok"}', "not JSON: the line starts with a byte order mark (U+FEFF), which "
     "JSON does not allow"),
])
def test_json_past_what_python_reads_is_refused_in_the_protocols_words(line: str,
                                                                       shown: str) -> None:
    with pytest.raises(ProtocolError) as info:
        decode(line)
    assert info.value.message == shown  # no "recursion depth", no "sys.set_int_max_..."


# -- the command line of an engine ------------------------------------------------------

@pytest.mark.parametrize(("command", "operator"), [
    ("engine --x | tee log.txt", "|"),
    ("engine --x 2>/dev/null", ">"),
    ("engine < moves.txt", "<"),
    ("cd /opt/engine; ./engine", ";"),
    ("make && ./engine", "&"),
    ("engine $(cat args)", "("),
    ("engine `cat args`", "`"),
])
def test_a_shell_operator_in_an_engine_command_is_refused(command: str, operator: str) -> None:
    with pytest.raises(ValueError) as info:
        check_command(command)
    assert f"--engine: '{operator}' is a shell operator, but no shell runs the command" in \
        str(info.value)


@pytest.mark.parametrize(("command", "argv"), [
    ("cat '|' \"a > b\" x\\;y", ["cat", "|", "a > b", "x;y"]),  # quoted or escaped: words
    ("cat --sep=, 'it''s'", ["cat", "--sep=,", "its"]),
])
def test_quoted_operators_are_arguments(command: str, argv: list[str]) -> None:
    assert check_command(command) == argv


@pytest.mark.parametrize("command", ["match", "conformance"])
def test_the_commands_refuse_a_shell_operator_before_running_anything(
        command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "log.txt"
    engine_cmd = f"{sys.executable} -m mariage engine | tee {log}"
    argv = ["match", "mariazza", "--engine", f"A={engine_cmd}", "-n", "1"] \
        if command == "match" else ["conformance", "--engine", engine_cmd, "--kind", "protocol"]
    code, out, err = run_cli(argv, capsys)
    assert code == 2 and out == ""
    assert err.strip() == ("mariage: error: --engine: '|' is a shell operator, but no shell runs "
                           "the command (the program would get it as an argument): quote it, "
                           "or run a shell yourself, as in \"sh -c '...'\"")


def test_a_program_name_with_a_space_not_quoted_is_hinted(tmp_path: Path) -> None:
    program = tmp_path / "my engine"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    with pytest.raises(ValueError) as info:
        check_command(f"{program} --fast")
    assert str(info.value) == (f"--engine: no such program: {tmp_path}/my (the file "
                               f"'{program}' exists: quote a name that has spaces)")
    assert check_command(f"'{program}' --fast") == [str(program), "--fast"]


def test_a_tilde_no_shell_expands_is_hinted() -> None:
    with pytest.raises(ValueError) as info:
        check_command("~/no-such-engine-h25 --fast")
    assert "(no shell runs the command: '~' and '$' are not expanded)" in str(info.value)


# -- stopping: no engine outlives the runner --------------------------------------------

def test_an_interrupt_while_an_engine_is_stopped_still_kills_its_group(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    command, pids = engine(tmp_path, "deaf")
    transport = ProcessTransport(command)
    started(pids)
    try:
        real_wait = transport.proc.wait

        def interrupted(timeout: float | None = None) -> int:
            if timeout is not None:  # the moment given to the engine to quit
                raise KeyboardInterrupt
            return real_wait()

        monkeypatch.setattr(transport.proc, "wait", interrupted)
        with pytest.raises(KeyboardInterrupt):
            transport.close()
        monkeypatch.undo()
    finally:
        assert none_alive(pids, within=2)


def test_an_interrupt_while_quit_is_sent_still_stops_the_engine(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    command, pids = engine(tmp_path, "none")
    client = EngineClient.for_command(command, timeout=5)
    client.hello()
    live = client._transport
    assert live is not None

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(live, "send", interrupted)
    try:
        with pytest.raises(KeyboardInterrupt):
            client.close()
    finally:
        assert none_alive(pids, within=2)


@pytest.mark.parametrize("command", ["match", "conformance"])
def test_sigterm_stops_the_run_and_its_engines_and_writes_nothing(command: str,
                                                                  tmp_path: Path) -> None:
    engine_cmd, pids = engine(tmp_path, "silent" if command == "match" else "mute")
    out = tmp_path / "out.txt"
    argv = ["match", "mariazza", "--engine", f"A={engine_cmd}", "-n", "2", "--time", "30",
            "--out", str(out)] if command == "match" else \
        ["conformance", "--engine", engine_cmd, "--kind", "protocol", "--timeout", "30",
         "--json", str(out)]
    env = {**os.environ, "PYTHONPATH": str(REFERENCE)}
    proc = subprocess.Popen([sys.executable, "-m", "mariage", *argv], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        started(pids)
        time.sleep(0.5)  # the engine has its request: the run waits for the answer
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert none_alive(pids, within=2)
    assert proc.returncode == 143 and err == "mariage: terminated\n"
    assert sorted(os.listdir(tmp_path)) == ["engine.py", pids.name]  # no output, no temp


def test_sigterm_still_ends_a_validate_with_workers_at_once(tmp_path: Path) -> None:
    """Only the commands that run engines turn SIGTERM into an exception: raised amid a
    pool's locks, it hung ``validate --jobs 2`` in the pool's terminate() (a guard)."""
    record = tmp_path / "r.mrg"
    env = {**os.environ, "PYTHONPATH": str(REFERENCE)}
    subprocess.run([sys.executable, "-m", "mariage", "play", "mariazza", "-q", "--out",
                    str(record)], env=env, check=True, capture_output=True, timeout=60)
    proc = subprocess.Popen([sys.executable, "-m", "mariage", "validate", "--jobs", "2",
                             *[str(record)] * 2000], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        time.sleep(1.5)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=15)
    finally:
        with contextlib.suppress(ProcessLookupError):  # the workers too, should it hang
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert proc.returncode == 143  # ends at once, as test_hostile26_validate_signals says
