"""Fuzzing the record reader and validator, strict and lenient.

Good records are mutated at random (lines dropped, doubled, swapped or cut;
tokens replaced by odd text, huge numbers, stray brackets, invalid UTF-8,
byte-order marks, CR LF line ends; files truncated) and validated in both
modes. Whatever the input, validation must not raise, every problem must be a
known code on one line with its place, strict mode must stop at its first
problem, and lenient mode must start with that same problem and agree on
validity; and whatever the fast path for canonical records
(:func:`mariage.notation.fast.fast_valid`) accepts, the full validator must
accept too.

In CI the run is small and derandomized (a few seconds). For long runs::

    python tests/test_notation_fuzz.py --long 2        # two hours
    MARIAGE_FUZZ_SECONDS=600 pytest tests/test_notation_fuzz.py

A long run goes on with fresh random seeds until its time is up, and stops
at the first failing input (Hypothesis shrinks it and prints it).
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st
from mariage.notation.batch import validate_file, validate_stream
from mariage.notation.errors import CODES, NotationError
from mariage.notation.fast import fast_valid
from mariage.notation.reader import RawRecord, read_records, split_records
from mariage.notation.replay import check_text

DATA = Path(__file__).parent / "data" / "records"
GOOD = [p.read_bytes() for p in sorted((DATA / "good").glob("*.mrg"))]
#: Examples per run in CI (``MARIAGE_FUZZ_EXAMPLES`` changes it).
EXAMPLES = int(os.environ.get("MARIAGE_FUZZ_EXAMPLES", "40"))
#: A long run's length in seconds (``MARIAGE_FUZZ_SECONDS``; 0: one short run).
SECONDS = float(os.environ.get("MARIAGE_FUZZ_SECONDS", "0"))

ODD = ["", "(", ")", "[", "]", "{", "}", '"', "\\", ":", "::", "??", "?", ".", "1.", "hand",
       "result", "deal", "stock:", "turnup:", "resign", "resign:x", "(won N)", "(points 1 2)",
       "(match)", "[Mariage \"1\"]", "[Ruleset \"mariazza\"]", "N:AH", "A:exchange:7H",
       "\t", "\r", "\x00", "é", "\u2028", "²", "9" * 12, "9" * 5000, "-1", "0"]

token = st.one_of(st.sampled_from(ODD), st.text(max_size=12))


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """A good record file, mutated a few times."""
    lines = draw(st.sampled_from(GOOD)).split(b"\n")
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["drop", "double", "swap", "cut", "token", "insert",
                                   "bytes", "crlf", "bom", "join", "space", "split"]))
        if op == "drop":
            del lines[i]
        elif op == "double":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "cut":
            lines[i] = lines[i][:draw(st.integers(0, max(len(lines[i]) - 1, 0)))]
        elif op == "token":
            words = lines[i].split(b" ")
            k = draw(st.integers(0, len(words) - 1))
            words[k] = draw(token).encode("utf-8", "surrogatepass")
            lines[i] = b" ".join(words)
        elif op == "insert":
            lines.insert(i, draw(token).encode("utf-8", "surrogatepass"))
        elif op == "bytes":
            at = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:at] + draw(st.binary(min_size=1, max_size=4)) + lines[i][at:]
        elif op == "crlf":
            lines = [line + b"\r" for line in lines]
        elif op == "space":  # layouts the fast path must refuse or read right
            lines[i] = lines[i].replace(b" ", draw(st.sampled_from([b"  ", b" \t", b"\t"])), 1)
        elif op == "split":  # the same items over two lines (valid where it splits moves)
            parts = lines[i].split(b" ")
            if len(parts) > 1:
                k = draw(st.integers(1, len(parts) - 1))
                lines[i:i + 1] = [b" ".join(parts[:k]), b" ".join(parts[k:])]
        elif op == "bom":
            lines[0] = b"\xef\xbb\xbf" + lines[0]
        elif i + 1 < len(lines):  # join two lines
            lines[i:i + 2] = [lines[i] + b" " + lines[i + 1]]
        if not lines:
            lines = [b""]
    data = b"\n".join(lines)
    if draw(st.booleans()):
        data = data[:draw(st.integers(0, len(data)))]
    return data


def check_input(data: bytes) -> None:
    """The properties every input must have."""
    strict = validate_stream(io.BytesIO(data), "fuzz.mrg", strict=True)
    lenient = validate_stream(io.BytesIO(data), "fuzz.mrg", strict=False)
    for summary in (strict, lenient):
        assert summary.problems == len(summary.errors)
        for err in summary.errors:
            assert err.code in CODES, err
            text = str(err)
            assert "\n" not in text and text.startswith("fuzz.mrg"), text
            assert err.line >= 0 and err.column >= 0 and err.record >= 0, text
        assert summary.valid <= summary.records
    assert len(strict.errors) <= 1
    assert strict.ok == lenient.ok
    if strict.errors:
        assert lenient.errors[0] == strict.errors[0]
    for raw in split_records(io.BytesIO(data), "fuzz.mrg"):  # the fast path is sound
        if isinstance(raw, RawRecord) and not raw.problems and fast_valid(
                raw.text, file=raw.file, number=raw.number, line=raw.line):
            assert check_text(raw.text, file=raw.file, number=raw.number, line=raw.line,
                              strict=True).errors == []
    try:  # the strict reader raises its own error and nothing else
        for _ in read_records(io.BytesIO(data), "fuzz.mrg"):
            pass
    except NotationError as exc:
        assert exc.error.code in CODES


_SETTINGS = settings(max_examples=EXAMPLES, deadline=None, database=None,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@_SETTINGS
@given(mutated())
def _fuzz(data: bytes) -> None:
    check_input(data)


def _rounds(prop: Callable[[], None], ci_seed: int) -> None:
    """One derandomized run in CI; in a long run, fresh seeds until the time is up."""
    if SECONDS <= 0:
        seed(ci_seed)(prop)()
        return
    end = time.monotonic() + SECONDS
    run = 0
    while time.monotonic() < end:
        seed(run)(prop)()
        run += 1


@pytest.mark.slow
def test_fuzz_the_reader_strict_and_lenient() -> None:
    _rounds(_fuzz, 20261130)


def _zstd(data: bytes) -> bytes:
    import zstandard
    return bytes(zstandard.ZstdCompressor().compress(data))


CODECS = {".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress, ".zst": _zstd}
_FOLDER = tempfile.TemporaryDirectory(prefix="mariage-fuzz-")  # removed at exit


@_SETTINGS
@given(mutated(), st.sampled_from(sorted(CODECS)), st.sampled_from(["cut", "flip", "whole"]),
       st.floats(0, 1, exclude_max=True), st.integers(1, 255))
def _fuzz_compressed(data: bytes, ext: str, damage: str, where: float, mask: int) -> None:
    packed = CODECS[ext](data)
    at = int(where * len(packed))
    if damage == "cut":
        packed = packed[:at]
    elif damage == "flip":
        packed = packed[:at] + bytes([packed[at] ^ mask]) + packed[at + 1:]
    path = os.path.join(_FOLDER.name, f"fuzz.mrg{ext}")
    with open(path, "wb") as f:
        f.write(packed)
    plain = validate_stream(io.BytesIO(data), "plain.mrg")
    summary = validate_file(path)  # never raises, whatever the damage
    for err in summary.errors:
        assert err.code in CODES and "\n" not in str(err) and str(err).startswith(path)
    if damage == "cut":  # never more than was read, and never a success
        assert not summary.ok and summary.records <= plain.records
        assert summary.errors[-1].code in ("N105", "N104")
    if damage == "whole":
        assert (summary.records, summary.valid, summary.problems) == (
            plain.records, plain.valid, plain.problems)


@pytest.mark.slow
def test_fuzz_compressed_streams_cut_and_damaged() -> None:
    """Records compressed by each codec, then cut or with a byte changed anywhere."""
    _rounds(_fuzz_compressed, 20261201)


def test_the_fuzz_properties_catch_a_bad_report() -> None:
    """The properties are not vacuous: a validator that lets a problem through fails them."""
    data = GOOD[0].replace(b"(won ", b"(won X", 1)
    check_input(data)
    from mariage.notation import batch

    real = batch.check_raw
    try:
        batch.check_raw = lambda raw, strict, limit=5000: [] if strict else real(
            raw, strict, limit)
        try:
            check_input(data)
        except AssertionError:
            return
        raise AssertionError("a strict mode that finds nothing went unnoticed")
    finally:
        batch.check_raw = real


if __name__ == "__main__":  # python tests/test_notation_fuzz.py --long HOURS
    import pytest

    args = sys.argv[1:]
    if args[:1] == ["--long"]:
        hours = float(args[1]) if len(args) > 1 else 1.0
        os.environ["MARIAGE_FUZZ_SECONDS"] = str(hours * 3600)
        os.environ.setdefault("MARIAGE_FUZZ_EXAMPLES", "500")
    raise SystemExit(pytest.main(["-x", "-q", __file__, "-k", "fuzz_the_reader"]))
