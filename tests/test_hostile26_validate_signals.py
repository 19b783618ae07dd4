"""``mariage validate --jobs N`` stopped by SIGTERM or Ctrl-C mid-run: one line, exit 143
or 130, no worker's traceback, no worker left, and the report's lines whole."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REFERENCE = Path(__file__).resolve().parent.parent / "reference"
ENV = {**os.environ, "PYTHONPATH": str(REFERENCE)}
SUMMARY = re.compile(r"^\S+: ok: 1 records, 1 valid, 0 invalid, 0 problems$")


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of 3000 one-record files: more than a loaded machine checks in the
    seconds before the signal."""
    folder = tmp_path_factory.mktemp("shards")
    record = folder / "r0.mrg"
    subprocess.run([sys.executable, "-m", "mariage", "play", "mariazza", "-q", "--out",
                    str(record)], env=ENV, check=True, capture_output=True, timeout=60)
    text = record.read_text()
    for k in range(1, 3000):
        (folder / f"r{k}.mrg").write_text(text)
    return folder


def in_session(sid: int) -> list[int]:
    """The processes still running (not zombies) in session ``sid``."""
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[4]) == sid and fields[0] != "Z":
                out.append(int(name))
    return out


@pytest.mark.parametrize(("sig", "group"), [(signal.SIGTERM, False), (signal.SIGTERM, True),
                                            (signal.SIGINT, True)])
def test_a_signal_mid_run_ends_validate_with_one_line(shards: Path, sig: signal.Signals,
                                                       group: bool) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "mariage", "validate", "--jobs", "2",
                             str(shards)], env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()  # the workers are at it
        assert SUMMARY.match(first.rstrip("\n")), first
        time.sleep(0.3)
        (os.killpg if group else os.kill)(proc.pid, sig)
        out, err = proc.communicate(timeout=20)
        left: list[int] = []
        end = time.monotonic() + 3
        while (left := in_session(proc.pid)) and time.monotonic() < end:
            time.sleep(0.05)
    finally:
        if proc.poll() is None or in_session(proc.pid):
            with contextlib.suppress(ProcessLookupError):  # gone since the look
                os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    word = "terminated" if sig == signal.SIGTERM else "interrupted"
    assert (proc.returncode, err) == (128 + sig, f"mariage: {word}\n")
    assert left == []  # no worker outlives the run
    lines = (first + out).split("\n")
    assert lines[-1] == "" and len(lines) - 1 < 3000  # stopped mid-run, each line whole
    assert all(SUMMARY.match(line) for line in lines[:-1])
