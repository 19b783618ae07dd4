"""Record inputs that lie, block or swell: never report more than was read (issue #26.2-3).

Compressed streams cut at every byte, decompression bombs, FIFOs and devices
among the inputs, folders that cannot be listed, and problems by the million:
each ends in a located one-line problem (or usage error) in bounded time and
memory, never in a success that read less than the file held.
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import io
import json
import lzma
import os
import struct
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
from hostilekit import deadline
from mariage.cli import main
from mariage.notation import batch
from mariage.notation.batch import MAX_RATIO, input_files, validate_file
from mariage.notation.reader import MAX_SYNTAX_ERRORS

DATA = Path(__file__).parent / "data" / "records"
GOOD = sorted((DATA / "good").glob("*.mrg"))


def _zstd(data: bytes) -> bytes:
    import zstandard
    return bytes(zstandard.ZstdCompressor().compress(data))


COMPRESS: dict[str, Callable[[bytes], bytes]] = {
    ".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress, ".zst": _zstd}
SMALL = "".join(f'[Mariage "1"]\n[Ruleset "marianna"]\n[Dealer "{d}"]\nresult *\n'
                for d in "NESW").encode()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("ext", sorted(COMPRESS))
def test_a_stream_cut_at_any_byte_is_never_a_success(tmp_path: Path, ext: str) -> None:
    whole = COMPRESS[ext](SMALL)
    path = tmp_path / f"cut.mrg{ext}"
    path.write_bytes(whole)
    assert validate_file(str(path)).ok and validate_file(str(path)).records == 4
    for size in range(len(whole)):
        path.write_bytes(whole[:size])
        with deadline(10):
            summary = validate_file(str(path))
        codes = [e.code for e in summary.errors]
        assert not summary.ok, (ext, size)
        assert summary.records <= 4
        assert codes[-1] == "N105" or (size == 0 and codes == ["N104"]), (ext, size, codes)
        assert summary.errors[-1].file == str(path)


def test_a_zst_cut_short_reports_n105_and_exit_1(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    import zstandard
    # three frames (222 KB, of 100 KB each at most): a cut in the last leaves whole records
    # before it (thirty copies, eight frames, validated the same records five times over)
    text = b"".join(p.read_bytes() for p in GOOD) * 9
    comp = zstandard.ZstdCompressor(level=3)
    frames = [comp.compress(text[i:i + 100_000]) for i in range(0, len(text), 100_000)]
    assert len(frames) == 3
    whole = b"".join(frames)
    count = validate_file(_write(tmp_path / "whole.mrg.zst", whole)).records
    for cut in (10, 30):
        path = _write(tmp_path / f"cut{cut}.mrg.zst", whole[:-cut])
        code, out, _ = run(capsys, "validate", path)
        assert code == 1 and f"{path}:" in out and " N105" in out and "cut short" in out
        summary = validate_file(path)
        assert 0 < summary.records < count and summary.errors[-1].code == "N105"


def _write(path: Path, data: bytes) -> str:
    path.write_bytes(data)
    return str(path)


def _rle_bomb(blocks: int, byte: bytes = b"\n") -> bytes:
    """A zstd frame of ``blocks`` RLE blocks of 128 KiB each: 4 bytes per 128 KiB."""
    head = struct.pack("<I", 0xFD2FB528) + bytes([0x00, 0x38])  # 128 KiB window

    def block(last: int) -> bytes:
        return (last | 1 << 1 | (128 * 1024) << 3).to_bytes(3, "little") + byte

    return head + block(0) * (blocks - 1) + block(1)


@pytest.mark.parametrize("byte", [b"\n", b"\0", b"x"])
def test_a_decompression_bomb_fails_fast(tmp_path: Path, byte: bytes,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    bomb = _rle_bomb(6000, byte)  # 24 KB that stand for 786 MB
    assert len(bomb) < 25_000
    path = _write(tmp_path / "bomb.mrg.zst", bomb)
    with deadline(30):
        code, out, _ = run(capsys, "validate", path)
    assert code == 1 and "N105" in out and f"more than {MAX_RATIO} bytes per compressed" in out
    bz = _write(tmp_path / "bomb.mrg.bz2", bz2.compress(byte * (32 << 20)))  # 46 bytes
    with deadline(30):
        summary = validate_file(bz)
    assert summary.errors[-1].code == "N105" and "bomb" in summary.errors[-1].message


def test_a_stream_within_the_ratio_is_read_whole(tmp_path: Path) -> None:
    text = SMALL * 4000 + GOOD[0].read_bytes()  # 4 MB of repeats: compresses 20 to 600 times
    for ext, squeeze in COMPRESS.items():
        summary = validate_file(_write(tmp_path / f"r.mrg{ext}", squeeze(text)))
        assert summary.ok and summary.records == 16_001, ext


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_special_files_among_the_shards_are_refused_without_blocking(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.mrg").write_bytes(GOOD[0].read_bytes())
    os.mkfifo(tmp_path / "b.mrg")
    os.mkfifo(tmp_path / "c.mrg.gz")
    (tmp_path / "d.mrg").write_bytes(GOOD[1].read_bytes())
    with deadline(20):
        code, out, err = run(capsys, "validate", str(tmp_path))
        assert code == 2
        assert err.count("not a regular file") == 2 and err.count("\n") == 2
        assert out.count(": ok:") == 2
        code, _, err = run(capsys, "validate", str(tmp_path / "b.mrg"))
        assert code == 2 and "b.mrg: " in err and "not a regular file" in err
        code, _, err = run(capsys, "validate", "/dev/zero")
        assert code == 2 and "not a regular file" in err
        with pytest.raises(OSError, match="not a regular file"):
            batch.open_input(str(tmp_path / "c.mrg.gz"))


def _lock(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """Make listing ``folder`` fail as for a user without the right (root reads any)."""
    real = os.scandir

    def scandir(path: object = ".") -> object:
        if os.fspath(path) == str(folder):  # type: ignore[call-overload]
            raise PermissionError(13, "Permission denied", str(folder))
        return real(path)  # type: ignore[call-overload]

    monkeypatch.setattr(os, "scandir", scandir)


def test_a_folder_that_cannot_be_listed_is_an_error(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.mrg").write_bytes(GOOD[0].read_bytes())
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "x.mrg").write_bytes(GOOD[1].read_bytes())
    if os.geteuid() != 0:  # a real unreadable folder (root reads any)
        locked.chmod(0)
        try:
            code, out, err = run(capsys, "validate", str(tmp_path))
        finally:
            locked.chmod(0o700)
        assert code == 2 and str(locked) in err and ": ok:" in out
    _lock(monkeypatch, locked)
    with pytest.raises(PermissionError):
        list(input_files([str(tmp_path)]))
    code, out, err = run(capsys, "validate", str(tmp_path))
    assert code == 2 and f"{locked}: Permission denied" in err and err.count("\n") == 1
    assert out.count(": ok:") == 1


def _peak(work: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("before", [True, False], ids=["before-records", "in-a-record"])
def test_junk_lines_take_bounded_memory(tmp_path: Path, before: bool) -> None:
    lines = 150_000
    head = b"" if before else b'[Mariage "1"]\n'
    path = _write(tmp_path / "junk.mrg", head + b"\xff\n" * lines)
    seen: list[int] = []
    validate_file(str(GOOD[0]))  # the parsers built, the rules loaded: not measured
    with contextlib.redirect_stdout(io.StringIO()):
        peak = _peak(lambda: seen.append(validate_file(path, report=lambda e: None).problems))
    assert peak < 8 << 20, peak  # kept, the problems took about 50 MB
    # listed up to the bound, before the first record as in one (and the N104 at the end)
    assert seen[0] == MAX_SYNTAX_ERRORS + before


def test_json_report_is_written_as_it_goes(tmp_path: Path) -> None:
    bad = '[Mariage "1"]\n[Ruleset "marianna"]\n[Dealer "N"]\nresult * !\n'
    count = 4000
    path = _write(tmp_path / "bad.mrg", (bad * count).encode())
    report_path = tmp_path / "report.json"

    def work(path: str = path) -> None:
        with report_path.open("w", encoding="utf-8") as out, contextlib.redirect_stdout(out):
            assert main(["validate", "--format", "json", path, str(tmp_path / "none.mrg")]) == 2

    with contextlib.redirect_stderr(io.StringIO()):
        # once before measuring, on a few of the records: the parsers are built, the rules
        # loaded (all the work builds or loads once is done by the first record)
        work(_write(tmp_path / "few.mrg", (bad * 3).encode()))
        peak = _peak(work)
    text = report_path.read_text(encoding="utf-8")
    report = json.loads(text)
    assert not report["ok"] and len(report["files"]) == 2
    first = report["files"][0]
    assert (first["records"], first["invalid"], first["problems"]) == (count, count, count)
    assert len(first["errors"]) == count and first["errors"][0]["code"] == "N110"
    assert report["files"][1] == {"file": str(tmp_path / "none.mrg"), "errors": [],
                                  "ok": False, "unread": True}
    assert peak < len(text) // 2, (peak, len(text))  # kept, the errors took more than it


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_conformance_suite_with_a_fifo_or_a_locked_folder_is_an_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    bundled = Path(__file__).parent.parent / "conformance" / "tests" / "schnapsen" / "claim"
    tests = tmp_path / "tests"
    (tests / "a").mkdir(parents=True)
    for test in bundled.glob("*.test"):
        (tests / "a" / test.name).write_bytes(test.read_bytes())
    os.mkfifo(tests / "a" / "pipe.test")
    with deadline(20):
        code, _, err = run(capsys, "conformance", "--suite", str(tmp_path))
    assert code == 2 and "a/pipe.test: is not a regular file" in err and err.count("\n") == 1
    (tests / "a" / "pipe.test").unlink()
    (tests / "locked").mkdir()
    _lock(monkeypatch, tests / "locked")
    code, _, err = run(capsys, "conformance", "--suite", str(tmp_path))
    assert code == 2 and "locked: cannot list the folder" in err and err.count("\n") == 1


@pytest.mark.parametrize("jobs", ["0", "257", "9" * 30])
def test_validate_jobs_are_bounded(jobs: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "validate", str(GOOD[0]), "--jobs", jobs)
    assert code == 2 and "--jobs takes a number of processes from 1 to 256" in err
    assert err.count("\n") == 1 and len(err) < 200


def test_a_cluster_worker_sends_back_a_bounded_list(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from mariage.notation import cluster

    monkeypatch.setattr(cluster, "MAX_KEPT", 10)
    bad = '[Mariage "1"]\n[Ruleset "marianna"]\n[Dealer "N"]\nresult * !\n'
    summary = cluster._one(_write(tmp_path / "bad.mrg", (bad * 30).encode()), False, 100)
    assert (summary.records, summary.problems, len(summary.errors)) == (30, 30, 10)
    assert [e.record for e in summary.errors] == list(range(1, 11))


def test_a_conformance_test_file_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    from mariage.conformance import suite

    bundled = Path(__file__).parent.parent / "conformance" / "tests" / "schnapsen" / "claim"
    (tmp_path / "tests").mkdir()
    for test in bundled.glob("*.test"):
        (tmp_path / "tests" / test.name).write_bytes(test.read_bytes())
    biggest = max(len(t.read_bytes()) for t in bundled.glob("*.test"))
    monkeypatch.setattr(suite, "MAX_TEST_BYTES", biggest - 1)
    code, _, err = run(capsys, "conformance", "--suite", str(tmp_path))
    assert code == 2 and f"larger than {biggest - 1:,} bytes" in err
    monkeypatch.setattr(suite, "MAX_TEST_BYTES", biggest)
    assert len(suite.load_suite(tmp_path / "tests")) == len(list(bundled.glob("*.test")))
