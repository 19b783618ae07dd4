"""An engine's helpers that leave its process group (``setsid``, a double fork) do not
outlive the run: not after a run that ends, times out, or is interrupted."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hostile26kit import engine_command, stop_when
from mariage.conformance.client import EngineClient, EngineFailure
from mariage.conformance.strays import end_strays, new_mark

REFERENCE = Path(__file__).resolve().parent.parent / "reference"
SUITE = REFERENCE.parent / "conformance" / "tests"

def engine(tmp_path: Path, how: str, silent: bool = False) -> tuple[str, Path]:
    """The command of the scripted engine leaving a sleeper out of its group (``how``:
    ``setsid`` or ``daemon``), and the file it writes the sleeper's pid to."""
    pids = tmp_path / "pids.txt"
    return engine_command(tmp_path, how, pids, *(["silent"] if silent else [])), pids


def pids_of(path: Path) -> list[int]:
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def started(path: Path) -> list[int]:
    end = time.monotonic() + 20
    while not pids_of(path) and time.monotonic() < end:
        time.sleep(0.02)
    assert pids_of(path), "the engine did not start its sleeper"
    return pids_of(path)


def gone(pids: list[int], within: float = 5.0) -> bool:
    """Have the processes ``pids`` ended and been reaped (no zombie either) within
    ``within`` seconds? Those left are killed, so that a failing test leaves nothing."""
    end = time.monotonic() + within
    while any(os.path.exists(f"/proc/{p}") for p in pids) and time.monotonic() < end:
        time.sleep(0.05)
    left = [p for p in pids if os.path.exists(f"/proc/{p}")]
    for pid in left:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return not left




@pytest.mark.parametrize("how", ["setsid", "daemon"])
def test_a_closed_engine_leaves_no_helper_that_left_its_group(how: str, tmp_path: Path) -> None:
    command, pids = engine(tmp_path, how)
    client = EngineClient.for_command(command, timeout=10)
    try:
        client.hello()
        sleepers = started(pids)
        assert all(os.path.exists(f"/proc/{p}") for p in sleepers)
        assert os.getsid(sleepers[0]) != os.getsid(client._transport.proc.pid)  # type: ignore[union-attr]
    finally:
        client.close()
    assert gone(sleepers)


@pytest.mark.parametrize("how", ["setsid", "daemon"])
def test_a_timeout_restart_leaves_no_helper(how: str, tmp_path: Path) -> None:
    command, pids = engine(tmp_path, how, silent=True)
    client = EngineClient.for_command(command, timeout=20)  # the hello waits for setsid
    try:
        client.hello()
        client.timeout = 1  # (1 s for it too failed under load)
        sleepers = started(pids)
        with pytest.raises(EngineFailure, match="timeout"):
            client.request({"type": "choose", "budget_ms": 10, "legal": ["AH"]})
        client.restart()
        assert gone(sleepers)
    finally:
        client.close()


def run(argv: list[str]) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(REFERENCE)}
    return subprocess.Popen([sys.executable, "-m", "mariage", *argv], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def argv_of(command: str, engine_cmd: str, tmp_path: Path) -> list[str]:
    if command == "match":
        return ["match", "mariazza", "--engine", f"A={engine_cmd}", "-n", "2", "--time", "2",
                "-o", "target=11", "-q"]
    return ["conformance", "--engine", engine_cmd, "--kind", "protocol", "--timeout", "2",
            "--suite", str(_small_suite(tmp_path))]


#: protocol tests the scripted engine fails, two by a restart: the run starts six engines
#: (the whole protocol suite, 18 tests, started 25: ten seconds of waiting a command)
SMALL_SUITE = ("protocol/quit.test", "protocol/framing/not-json.test",
               "protocol/start/unsupported.test")


def _small_suite(tmp_path: Path) -> Path:
    """A suite folder in ``tmp_path`` holding the tests of :data:`SMALL_SUITE`."""
    suite = tmp_path / "suite"
    for name in SMALL_SUITE:
        target = suite / "tests" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((SUITE / name).read_bytes())
    return suite


@pytest.mark.parametrize("how", ["setsid", "daemon"])
@pytest.mark.parametrize("command", ["match", "conformance"])
def test_a_command_that_ends_leaves_no_helper(command: str, how: str, tmp_path: Path) -> None:
    engine_cmd, pids = engine(tmp_path, how)
    proc = run(argv_of(command, engine_cmd, tmp_path))
    try:
        _out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "Traceback" not in err
    assert (proc.returncode == 0) if command == "match" else (proc.returncode in (0, 1)), err
    assert pids_of(pids) and gone(pids_of(pids))


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("command", ["match", "conformance"])
def test_a_command_stopped_by_a_signal_leaves_no_helper(command: str, sig: signal.Signals,
                                                        tmp_path: Path) -> None:
    engine_cmd, pids = engine(tmp_path, "daemon", silent=True)
    argv = argv_of(command, engine_cmd, tmp_path)
    argv[argv.index("2")] = "30"  # --time / --timeout: the run waits for the answer
    proc = run(argv)
    _, err = stop_when(proc, lambda: bool(pids_of(pids)), sig)
    sleepers = pids_of(pids)
    assert proc.returncode == 128 + sig and "Traceback" not in err, err
    assert gone(sleepers)


def test_only_the_processes_that_carry_the_mark_are_killed() -> None:
    from mariage.conformance.strays import MARK

    mark = new_mark()
    assert end_strays(mark, None) == []  # no process carries a fresh mark
    marked = subprocess.Popen(["sleep", "600"], env={**os.environ, MARK: mark},
                              start_new_session=True)
    other = subprocess.Popen(["sleep", "600"], env={**os.environ, MARK: new_mark()},
                             start_new_session=True)
    try:
        time.sleep(0.2)  # exec'd: its environment is the sleeper's
        assert end_strays(mark, None) == [marked.pid]
        assert marked.wait(timeout=5) == -signal.SIGKILL and other.poll() is None
    finally:
        for proc in (marked, other):
            proc.kill()
            proc.wait()
