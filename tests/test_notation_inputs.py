"""Inputs of ``validate``: compressed files, directories of shards, a Dask cluster (#16.3-4)."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import sys
from pathlib import Path

import pytest
from mariage.cli import main
from mariage.notation import batch
from mariage.notation.batch import input_files, open_input, validate_file

DATA = Path(__file__).parent / "data" / "records"
GOOD = sorted((DATA / "good").glob("*.mrg"))
BAD = DATA / "bad" / "must-follow.mrg"


def _zstd(data: bytes) -> bytes:
    import zstandard
    return bytes(zstandard.ZstdCompressor().compress(data))


COMPRESS = {".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress, ".zst": _zstd}


@pytest.mark.parametrize("ext", sorted(COMPRESS))
def test_compressed_files_validate_like_plain_ones(tmp_path: Path, ext: str) -> None:
    plain = GOOD[0].read_bytes() + BAD.read_bytes() + GOOD[1].read_bytes()
    path = tmp_path / f"three.mrg{ext}"
    path.write_bytes(COMPRESS[ext](plain))
    flat = tmp_path / "three.mrg"
    flat.write_bytes(plain)
    got = validate_file(str(path))
    want = validate_file(str(flat))
    assert (got.records, got.valid, got.problems) == (want.records, want.valid, want.problems)
    assert (got.records, got.valid) == (3, 2)
    assert [(e.code, e.line, e.record) for e in got.errors] == [
        (e.code, e.line, e.record) for e in want.errors]


def test_a_directory_is_its_shards_in_name_order(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "a.mrg").write_bytes(GOOD[0].read_bytes())
    (tmp_path / "b" / "c.mrg.gz").write_bytes(gzip.compress(GOOD[1].read_bytes()))
    (tmp_path / "b" / "d.mrg.xz").write_bytes(lzma.compress(BAD.read_bytes()))
    (tmp_path / "README.txt").write_text("not a record")
    (tmp_path / ".hidden.mrg").write_text("junk")
    files = list(input_files([str(tmp_path)]))
    assert [Path(f).relative_to(tmp_path).as_posix() for f in files] == [
        "a.mrg", "b/c.mrg.gz", "b/d.mrg.xz"]
    assert main(["validate", str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    summaries = [line for line in out if ": ok:" in line or ": INVALID:" in line]
    assert len(summaries) == 3 and summaries[2].startswith(files[2] + ": INVALID")
    problems = [line for line in out if line.startswith(files[2] + ":") and " N1" in line]
    assert problems and out.index(problems[0]) < out.index(summaries[2])


def test_corrupt_compressed_data_is_a_located_problem(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    data = b"".join(p.read_bytes() for p in GOOD)
    cut = tmp_path / "cut.mrg.gz"
    cut.write_bytes(gzip.compress(data)[: len(gzip.compress(data)) // 2])
    junk = tmp_path / "junk.mrg.xz"
    junk.write_bytes(b"this is not xz data at all\n" * 10)
    good = tmp_path / "fine.mrg"
    good.write_bytes(GOOD[0].read_bytes())
    assert main(["validate", str(cut), str(junk), str(good)]) == 1
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    lines = [line for line in out.out.splitlines() if "N105" in line]
    assert len(lines) == 2 and lines[0].startswith(f"{cut}:") and lines[1].startswith(f"{junk}:1:")
    assert all(line.count("\n") == 0 for line in lines)
    assert f"{good}: ok" in out.out
    summary = validate_file(str(cut))
    assert summary.records >= 1 and summary.errors[-1].code == "N105"


def test_without_a_zstd_module_a_zst_file_is_a_one_line_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a.mrg.zst"
    path.write_bytes(b"\x28\xb5\x2f\xfd")
    monkeypatch.setitem(sys.modules, "zstandard", None)
    monkeypatch.setitem(sys.modules, "compression", None)
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "mariage[zstd]" in err and str(path) in err
    with pytest.raises(batch.InputError):
        open_input(str(path))


# ------------------------------------------------------------------ Dask
def _archive(tmp_path: Path) -> Path:
    root = tmp_path / "archive"
    (root / "2025").mkdir(parents=True)
    for i, p in enumerate(GOOD[:4]):
        (root / "2025" / f"s{i}.mrg.gz").write_bytes(gzip.compress(p.read_bytes()))
    (root / "s9.mrg").write_bytes(BAD.read_bytes() + GOOD[0].read_bytes())
    return root


def test_dask_bag_gives_the_single_process_results(tmp_path: Path) -> None:
    import dask.bag  # noqa: F401 - the test extra installs dask
    import distributed
    from mariage.notation.cluster import validate_bag

    root = _archive(tmp_path)
    single = [validate_file(f).as_dict() for f in input_files([str(root)])]
    assert len(single) == 5 and not all(s["ok"] for s in single)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        on_cluster = [s.as_dict() for s in client.compute(validate_bag([str(root)])).result()]
        strict = client.compute(validate_bag([str(root)], strict=True)).result()
    assert on_cluster == single
    assert [s.as_dict() for s in strict] == [
        validate_file(f, strict=True).as_dict() for f in input_files([str(root)])]


def test_validate_on_a_scheduler_address(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    import dask.bag  # noqa: F401 - the test extra installs dask
    import distributed
    root = _archive(tmp_path)
    missing = str(tmp_path / "missing.mrg")
    assert main(["validate", str(root), missing]) == 2
    single = capsys.readouterr()
    assert "missing.mrg: No such file" in single.err
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        assert main(["validate", str(root), missing, "--scheduler", address]) == 2
        assert capsys.readouterr() == single
        assert main(["validate", str(root), "--scheduler", address]) == 1
        assert capsys.readouterr().out == single.out
    # nothing to read: the error comes before any cluster is sought
    assert main(["validate", missing, "--scheduler", "tcp://127.0.0.1:9"]) == 2
    assert capsys.readouterr().err == f"mariage: error: {missing}: No such file or directory\n"
    assert main(["validate", str(root), "--scheduler", "tcp://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no Dask scheduler" in err


def test_stdin_still_works(monkeypatch: pytest.MonkeyPatch,
                           capsys: pytest.CaptureFixture[str]) -> None:
    data = GOOD[0].read_bytes()

    class Stdin:
        buffer = io.BytesIO(data)

    monkeypatch.setattr(sys, "stdin", Stdin())
    assert main(["validate", "-"]) == 0
    assert "<stdin>: ok: 1 records" in capsys.readouterr().out


def test_an_empty_directory_is_a_usage_error(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("no records here")
    good = tmp_path.parent / f"{tmp_path.name}-good.mrg"
    good.write_bytes(GOOD[0].read_bytes())
    assert main(["validate", str(tmp_path), str(good)]) == 2
    out = capsys.readouterr()
    assert out.err.count("\n") == 1 and "no record files" in out.err
    assert f"{good}: ok" in out.out


def test_replay_reads_a_compressed_file(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.mrg.xz"
    path.write_bytes(lzma.compress(GOOD[0].read_bytes()))
    assert main(["replay", str(path)]) == 0
    assert "=== Hand 1" in capsys.readouterr().out
