"""An engine's helper that clears its environment and detaches (``setsid`` and a double
fork, orphaned) does not outlive the run: the engine's supervisor takes it in and ends
it, also when the runner itself is killed. Where ``prctl`` is missing, the supervisor
becomes the engine."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hostile26kit import engine_command
from mariage.conformance import supervision
from mariage.conformance.client import EngineClient, EngineFailure, ProcessTransport
from mariage.conformance.strays import MARK
from test_hostile26_strays import gone, pids_of, started

REFERENCE = Path(__file__).resolve().parent.parent / "reference"


def bare(tmp_path: Path) -> tuple[str, Path]:
    pids = tmp_path / "pids.txt"
    return engine_command(tmp_path, "bare", pids), pids


def cleared(pid: int) -> bool:
    """Has ``pid`` an empty environment (its exec done) within 10 s?"""
    end = time.monotonic() + 10
    while time.monotonic() < end:
        with open(f"/proc/{pid}/environ", "rb") as f:
            if not f.read():
                return True
        time.sleep(0.02)
    return False


def test_a_helper_with_no_mark_that_left_the_engine_ends_with_it(tmp_path: Path) -> None:
    command, pids = bare(tmp_path)
    client = EngineClient.for_command(command, timeout=10)
    try:
        client.hello()
        sleeper = started(pids)[0]
        assert cleared(sleeper)  # no mark to find it by
        transport = client._transport
        assert isinstance(transport, ProcessTransport)
        assert os.getsid(sleeper) != os.getsid(transport.proc.pid)
    finally:
        client.close()
    assert gone([sleeper])


def test_a_match_leaves_no_helper_with_no_mark(tmp_path: Path) -> None:
    engine_cmd, pids = bare(tmp_path)
    done = subprocess.run([sys.executable, "-m", "mariage", "match", "mariazza", "--engine",
                           f"A={engine_cmd}", "-n", "1", "--time", "2", "-o", "target=11", "-q"],
                          env={**os.environ, "PYTHONPATH": str(REFERENCE)}, capture_output=True,
                          text=True, timeout=120)  # killed should it not end
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert pids_of(pids) and gone(pids_of(pids))


#: A runner that starts the engine, says hello, writes the engine's pid and waits.
RUNNER = """
import sys, time
from mariage.conformance.client import EngineClient
client = EngineClient.for_command(sys.argv[1], timeout=10)
client.hello()
live = client._transport
with open(sys.argv[2], "w") as f:
    f.write(str(live._watch.pid if live._watch else live.proc.pid))
time.sleep(600)
"""


def test_a_runner_killed_leaves_neither_engine_nor_helper(tmp_path: Path) -> None:
    command, pids = bare(tmp_path)
    told = tmp_path / "engine.txt"
    runner = subprocess.Popen([sys.executable, "-c", RUNNER, command, str(told)],
                              env={**os.environ, "PYTHONPATH": str(REFERENCE)})
    try:
        sleeper = started(pids)[0]
        end = time.monotonic() + 20
        while not (told.exists() and told.read_text()) and time.monotonic() < end:
            time.sleep(0.02)
        engine = int(told.read_text())
        assert cleared(sleeper) and os.path.exists(f"/proc/{engine}")
    finally:
        runner.send_signal(signal.SIGKILL)  # no handler, no finally: only the pipe ends
        runner.wait()
    assert gone([engine, sleeper])


def test_a_program_that_cannot_run_is_a_crash_naming_it(tmp_path: Path) -> None:
    script = tmp_path / "engine.sh"
    script.write_text("#!/bin/sh\n")  # not executable
    with pytest.raises(EngineFailure, match=r"cannot start .*\[Errno 13\] Permission "
                                            rf"denied: '{script}'"):
        ProcessTransport(str(script))


#: The supervisor run where ctypes finds no ``prctl``.
NO_PRCTL = """
import ctypes, sys
class Libc:
    def __init__(self, *args, **kwargs):
        pass
ctypes.CDLL = Libc  # no prctl attribute
exec(sys.argv.pop(1))  # the supervisor's own start
"""


def test_without_prctl_the_supervisor_becomes_the_engine() -> None:
    watch = supervision.Supervision()
    argv = watch.command(["sh", "-c", f'echo "$$ ${{{MARK}:-none}}"; read x'])
    proc = subprocess.Popen([sys.executable, "-c", NO_PRCTL, *argv[4:]], pass_fds=watch.fds,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            env={**os.environ, MARK: "m1"})
    try:
        watch.started()
        assert watch.pid is None  # direct: the runner's earlier means apply
        assert proc.stdout is not None
        assert proc.stdout.readline().decode().split() == [str(proc.pid), "m1"]
    finally:
        watch.close()
        proc.kill()
        proc.wait()
