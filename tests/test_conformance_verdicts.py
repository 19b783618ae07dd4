"""Runner verdicts and bounds (#17.1, #13.4): engines that support nothing, speak another
protocol, flood log lines, leave helpers behind; usage errors of the command line."""

from __future__ import annotations

import json
import os
import sys
import textwrap
import time
from pathlib import Path

import pytest
from mariage.cli import main
from mariage.conformance.client import EngineClient, EngineFailure, ThreadTransport
from mariage.conformance.engine import ReferenceEngine
from mariage.conformance.runner import run_suite, run_test
from mariage.conformance.suite import load_suite


def script(tmp_path: Path, body: str, name: str = "engine.py") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return f"{sys.executable} {path}"


def test_cat_never_passes(capsys: pytest.CaptureFixture[str]) -> None:
    t0 = time.monotonic()
    assert main(["conformance", "--engine", "cat", "--timeout", "2"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "handshake" in err and "rulesets" in err
    # stopped at once, not a timeout of 2 s for each of thousands of tests (60: a loaded machine)
    assert time.monotonic() - t0 < 60


def test_engine_supporting_nothing_fails_and_says_why(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    cmd = script(tmp_path, """
        import sys, json
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] == "quit":
                break
            print(json.dumps({"type": "hello", "protocol": 1, "rulesets": {}}), flush=True)
    """)
    js = tmp_path / "r.json"
    assert main(["conformance", "--engine", cmd, "--ruleset", "mariglia", "--json",
                 str(js)]) == 1
    out = capsys.readouterr().out
    assert "FAILED: no test ran" in out and "ruleset not supported" in out
    report = json.loads(js.read_text())
    assert report["ok"] is False and report["ran"] == 0
    assert report["skipped"]["ruleset"]["count"] == len(load_suite(rulesets=["mariglia"]))
    assert report["verdict"].startswith("FAILED: no test ran")


def test_other_protocol_version_stops_the_run_with_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cmd = script(tmp_path, """
        import sys, json
        for line in sys.stdin:
            print(json.dumps({"type": "hello", "protocol": 3, "rulesets": {"mariglia": {}}}),
                  flush=True)
    """)
    assert main(["conformance", "--engine", cmd]) == 1
    captured = capsys.readouterr()
    assert captured.err == ("mariage: error: the engine failed its handshake: the engine speaks "
                            "protocol 3, this runner speaks protocols 1 and 2; "
                            f"{len(load_suite())} tests were not run\n")
    assert captured.out == ""


def test_silent_engine_pays_the_timeout_once(tmp_path: Path) -> None:
    cmd = script(tmp_path, "import time\ntime.sleep(60)\n")
    tests = load_suite(rulesets=["mariglia"])
    client = EngineClient.for_command(cmd, timeout=0.5, start_timeout=0.5)
    t0 = time.monotonic()
    try:
        result = run_suite(client, tests)
    finally:
        client.close()
    assert time.monotonic() - t0 < 5
    assert result.outcomes == [] and "no answer to 'hello'" in result.aborted
    assert not result.ok


def test_a_slow_start_is_not_a_failed_handshake(tmp_path: Path) -> None:
    """The answer to hello gets the start-up allowance, later answers the timeout."""
    cmd = script(tmp_path, """
        import json, sys, time
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] == "hello":
                time.sleep(1.0)  # an engine loading its code
                print(json.dumps({"type": "hello", "protocol": 2, "id": msg["id"],
                                  "rulesets": {"mariglia": {}}}), flush=True)
            elif msg["type"] == "quit":
                break
            else:
                time.sleep(30)
    """)
    client = EngineClient.for_command(cmd, timeout=0.3, start_timeout=5)
    try:
        assert client.hello()["rulesets"] == {"mariglia": {}}
        assert client.timeout == 0.3
        t0 = time.monotonic()
        with pytest.raises(EngineFailure, match=r"no response within 0\.3 s"):
            client.request({"type": "state"})
        assert time.monotonic() - t0 < 3
    finally:
        client.close()
    with pytest.raises(ValueError, match="start_timeout must be"):
        EngineClient.for_command(cmd, start_timeout=0)


@pytest.mark.parametrize("argv", [
    ["--engine", ""], ["--engine", "   "], ["--engine", "/no/such/engine"],
    ["--engine", "no-such-program-anywhere-xyz"], ["--engine", "'unbalanced"],
    ["--timeout", "inf"], ["--timeout", "nan"], ["--timeout", "0"], ["--timeout", "-3"],
    ["--timeout", "1e9"], ["--timeout", "soon"], ["--test-timeout", "inf"],
    ["--test-timeout", "0"],
])
def test_usage_errors_exit_2_with_one_line(argv: list[str],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(["conformance", *argv])
    except SystemExit as exc:
        code = int(exc.code or 0)
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("mariage: error:")
    assert "Traceback" not in err


def test_non_executable_engine_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "engine"
    path.write_text("#!/bin/sh\n")
    path.chmod(0o644)
    assert main(["conformance", "--engine", str(path)]) == 2


def test_handshake_restricts_bool_and_int_values(tmp_path: Path) -> None:
    hello = ReferenceEngine().hello()
    opts = hello["rulesets"]["mariazza"]["options"]
    opts["exchange"]["values"] = [True]          # only the default
    opts["hands"]["max"] = 2                     # a narrower int range

    class Narrow(ReferenceEngine):
        def hello(self) -> dict:
            return hello

    tests = [t for t in load_suite(rulesets=["mariazza"]) if t.options]
    client = EngineClient(lambda: ThreadTransport(Narrow()), timeout=30)
    try:
        result = run_suite(client, tests)
    finally:
        client.close()
    by_id = {o.id: o for o in result.outcomes}
    skipped = [o for o in result.outcomes if o.status == "skip"]
    assert skipped and all(o.skip_reason == "value" for o in skipped)
    assert {tuple(sorted(by_id[o.id].message.split("'")[1:2])) for o in skipped} <= {
        ("exchange",), ("hands",)}
    assert any(o.status == "pass" for o in result.outcomes)


LOG_FLOOD = """
    import sys, json, time
    HELLO = sys.argv[1]
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            print(open(HELLO).read(), flush=True)
            continue
        while True:   # never answers, but keeps talking
            print(json.dumps({"type": "log", "text": "thinking"}), flush=True)
            print("   ", flush=True)
            time.sleep(0.05)
"""


def test_log_lines_do_not_extend_the_deadline(tmp_path: Path) -> None:
    hello = tmp_path / "hello.json"
    hello.write_text(json.dumps(ReferenceEngine().hello()))
    cmd = script(tmp_path, LOG_FLOOD) + f" {hello}"
    test = load_suite(rulesets=["mariglia"], kinds=["scenario"])[0]
    client = EngineClient.for_command(cmd, timeout=1.0)
    t0 = time.monotonic()
    try:
        out = run_test(client, test)
    finally:
        client.close()
    assert out.status == "error" and "timeout" in out.message
    assert time.monotonic() - t0 < 8


def test_whole_test_deadline() -> None:
    class Slow(ReferenceEngine):
        def handle(self, msg: dict) -> dict:
            if msg["type"] != "hello":
                time.sleep(0.2)
            return super().handle(msg)

    test = next(t for t in load_suite(rulesets=["mariglia"], kinds=["golden"]))
    client = EngineClient(lambda: ThreadTransport(Slow()), timeout=5)
    t0 = time.monotonic()
    try:
        out = run_test(client, test, test_timeout=1.0)
    finally:
        client.close()
    assert out.status == "error" and "time limit" in out.message
    assert time.monotonic() - t0 < 4


def test_the_engines_process_group_is_ended(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    cmd = script(tmp_path, f"""
        import subprocess, sys, time
        child = subprocess.Popen(["sleep", "300"])
        open({str(pidfile)!r}, "w").write(str(child.pid))
        time.sleep(300)
    """)
    client = EngineClient.for_command(cmd, timeout=1.0, start_timeout=1.0)
    with pytest.raises(EngineFailure):
        client.hello()
    client.close()
    pid = int(pidfile.read_text())
    for _ in range(50):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        # a zombie waiting for its (killed) parent's reaper counts as gone
        stat = Path(f"/proc/{pid}/stat")
        if stat.exists() and stat.read_text().split(")")[-1].split()[0] == "Z":
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"the engine's child {pid} is still running")


def test_trace_writes_a_replayable_script(tmp_path: Path) -> None:
    trace = tmp_path / "trace.txt"
    cmd = f"{sys.executable} -m mariage.conformance.faulty mariglia-no-follow"
    assert main(["conformance", "--engine", cmd, "--ruleset", "mariglia", "--kind", "scenario",
                 "--trace", str(trace)]) == 1
    text = trace.read_text()
    assert "# test mariglia/play/follow-and-head" in text
    requests = [json.loads(x) for x in text.splitlines() if x and not x.startswith("#")]
    assert requests[0]["type"] == "hello" and any(r["type"] == "start" for r in requests)
    assert any(x.startswith("#< {") for x in text.splitlines())


def test_regenerate_reports_bad_yaml_in_one_line(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "bad.yaml").write_text("scenarios:\n  - id: x\n    description: a: b\n")
    assert main(["conformance", "--suite", str(tmp_path), "--regenerate", "--check"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mariage: error: bad.yaml:3:") and err.count("\n") == 1


def test_a_restarted_engine_that_fails_its_handshake_stops_the_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The first engine crashes on its first 'apply'; every later start fails its hello:
    the run reports the test that ran, then stops with one line."""
    flag = tmp_path / "started"
    cmd = script(tmp_path, f"""
        import os, sys
        from mariage.conformance.engine import ReferenceEngine, serve
        if os.path.exists({str(flag)!r}):
            sys.stdout.write('{{"type": "hello", "protocol": 1}}\\n')
            sys.stdout.flush()
            sys.stdin.read()
            sys.exit(0)
        open({str(flag)!r}, "w").close()
        class Crash(ReferenceEngine):
            def handle(self, msg):
                if msg["type"] == "apply":
                    sys.exit(3)
                return super().handle(msg)
        serve(Crash(), sys.stdin, sys.stdout)
    """)
    code = main(["conformance", "--engine", cmd, "--ruleset", "mariglia", "--kind", "scenario"])
    captured = capsys.readouterr()
    assert code == 1
    assert "ERROR mariglia/" in captured.out and "FAILED: the run stopped" in captured.out
    assert captured.err.count("\n") == 1 and "handshake" in captured.err


def test_the_trace_replays_to_the_same_answers(tmp_path: Path) -> None:
    import subprocess

    trace = tmp_path / "trace.txt"
    engine = [sys.executable, "-m", "mariage.conformance.faulty", "mariglia-no-follow"]
    assert main(["conformance", "--engine", " ".join(engine), "--ruleset", "mariglia",
                 "--kind", "scenario", "--trace", str(trace)]) == 1
    blocks = trace.read_text().split("# test ")[1:]
    assert blocks
    lines = blocks[0].splitlines()[1:]
    requests = [x for x in lines if x and not x.startswith("#")]
    recorded = [json.loads(x[3:]) for x in lines if x.startswith("#< ")]
    proc = subprocess.run(engine, input="\n".join(requests) + "\n", capture_output=True,
                          text=True, timeout=120, check=True)
    answers = [json.loads(x) for x in proc.stdout.splitlines()]
    assert answers[1:len(recorded) + 1] == recorded  # the first answer is the hello


def test_progress_on_standard_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "--ruleset", "mariglia", "--kind", "scenario",
                 "--progress"]) == 0
    err = capsys.readouterr().err
    total = len(load_suite(rulesets=["mariglia"], kinds=["scenario"]))
    assert f"[1/{total}]" in err and f"[{total}/{total}]" in err
    assert main(["conformance", "--ruleset", "mariglia", "--kind", "scenario"]) == 0
    assert "[1/" not in capsys.readouterr().err  # not a terminal: no progress by default
