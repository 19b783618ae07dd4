"""``validate --scheduler`` against endpoints that misbehave (issue #26.3 and #26.6).

Local socket servers stand in for a Dask scheduler that accepts and never
answers, answers garbage, or hangs up; each ends in one line (exit 2) within
the scheduler deadline, never a hang or a traceback. The test extra installs
Dask.
"""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from hostilekit import deadline
from mariage.cli import main
from mariage.notation import cluster

DATA = Path(__file__).parent / "data" / "records"
RECORD = str(sorted((DATA / "good").glob("*.mrg"))[0])

#: What each fake scheduler sends on every connection it accepts (None: nothing, ever).
ANSWERS = {
    "silent": None,
    "short": b"\x01\x02\x03",
    "huge-count": b"\xff" * 8,
    "http": b"HTTP/1.1 400 Bad Request\r\n\r\n",
    "plausible-then-garbage": struct.pack("<Q", 1) + b"\xff" * 5,
    "hang-up": b"",
}


@pytest.fixture
def server(request: pytest.FixtureRequest) -> Iterator[str]:
    answer = ANSWERS[request.param]
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.2)
    held: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            if answer is not None:
                conn.sendall(answer)
                if not answer:
                    conn.close()
                    continue
            held.append(conn)  # kept open, silent from now on

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)
        for conn in held:
            conn.close()
        listener.close()


@pytest.fixture(autouse=True)
def _quick(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed", reason="the test extra installs Dask")
    monkeypatch.setattr(cluster, "SCHEDULER_TIMEOUT", 1.0)


@pytest.mark.parametrize("report", ["text", "json"])
@pytest.mark.parametrize("server", sorted(ANSWERS), indirect=True)
def test_a_misbehaving_scheduler_is_one_line_in_bounded_time(
        server: str, report: str, capsys: pytest.CaptureFixture[str]) -> None:
    # the JSON report too leaves standard output empty: no document begun and never ended
    with deadline(30):
        code = main(["validate", RECORD, "--format", report, "--scheduler", server])
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert err.startswith(f"mariage: error: no Dask scheduler at {server}: ")
    assert err.count("\n") == 1
    assert "Traceback" not in err and out == ""


@pytest.mark.parametrize("address, why", [
    ("tls://127.0.0.1:8786", "'tls://' is not supported"),
    ("ucx://127.0.0.1:8786", "'ucx://' is not supported"),
    ("ws://127.0.0.1:8786", "'ws://' is not supported"),
    ("inproc://nowhere/1/2", "no Dask scheduler at inproc://nowhere/1/2"),
    ("tcp://127.0.0.1:99999", "expected tcp://HOST:PORT"),
    ("tcp://127.0.0.1", "expected tcp://HOST:PORT"),
    ("tcp://:8786", "expected tcp://HOST:PORT"),
    ("tcp://" + "x" * 5000 + ":1", "cannot connect"),
])
def test_unsupported_or_malformed_addresses_are_one_line(
        address: str, why: str, capsys: pytest.CaptureFixture[str]) -> None:
    with deadline(30):
        code = main(["validate", RECORD, "--scheduler", address])
    err = capsys.readouterr().err
    assert code == 2 and why in err and err.count("\n") == 1 and len(err) < 600, err


@pytest.mark.parametrize("workers", [1, 0])
def test_a_real_scheduler_passes_the_checks(workers: int, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import distributed
    from mariage.notation import cluster

    # on a loaded machine the connection to a scheduler in this process can take longer
    # than the bound meant for a stalled one; a connection given up leaves its thread
    # building a Client while the cluster closes, and the two then wait on each other
    # (seen once in the eighteenth session, load 6): a wide bound here
    monkeypatch.setattr(cluster, "SCHEDULER_TIMEOUT", 60.0)
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=False,
                                  protocol="tcp://", dashboard_address=None) as local, \
            deadline(150):
        code = main(["validate", RECORD, "--scheduler", local.scheduler_address])
    out, err = capsys.readouterr()
    if workers:
        assert code == 0 and ": ok: 1 records" in out, err
    else:  # the computation would wait for a worker forever
        assert code == 2 and "the scheduler has no workers" in err and err.count("\n") == 1


def test_the_json_report_on_a_cluster_lists_unread_files(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    import distributed

    # the connection to a scheduler in this process can take over a second on a loaded
    # machine (seen in the twenty-third session, load 9): the wide bound of the test above
    monkeypatch.setattr(cluster, "SCHEDULER_TIMEOUT", 60.0)
    missing = str(tmp_path / "missing.mrg")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as local, deadline(60):
        code = main(["validate", "--format", "json", RECORD, missing,
                     "--scheduler", local.scheduler_address])
    report = json.loads(capsys.readouterr().out)
    assert code == 2 and not report["ok"]
    assert [(f["file"], f["ok"], f.get("unread")) for f in report["files"]] == [
        (RECORD, True, None), (missing, False, True)]


class _Waiting:
    """A computation that never finishes (its scheduler stalled or lost its workers)."""

    def result(self, timeout: float | None = None) -> list[object]:
        raise TimeoutError


class _StalledClient:
    """A client whose scheduler stops answering once the computation was sent, or
    answers that it has no workers left."""

    def __init__(self, answer: dict[str, object] | None) -> None:
        self.answer = answer
        self.asked = 0

    def compute(self, bag: object) -> _Waiting:
        return _Waiting()

    def scheduler_info(self) -> dict[str, object]:
        self.asked += 1
        if self.answer is None:
            threading.Event().wait(30)  # no answer
        return self.answer or {}


@pytest.mark.parametrize(("answer", "why"), [
    (None, "the scheduler did not answer within 2 s"),
    ({"workers": {}}, "the scheduler has no workers"),
])
def test_a_scheduler_that_stalls_during_the_run_ends_it(answer: dict[str, object] | None,
                                                        why: str) -> None:
    client = _StalledClient(answer)
    with deadline(30), pytest.raises(cluster.InputError, match=why):
        cluster._run(client, object(), "tcp://127.0.0.1:1")
    assert client.asked == 1
