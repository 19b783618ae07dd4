"""One output policy for every command that writes a file (issue #26.4), and bounds on
the numbers ``match`` takes (#26.6).

A symbolic link, a FIFO, a device, a read-only file or a folder is never
replaced: the command says so, naming the user's path, and exits 2 before any
work (``match`` before playing a game, ``conformance`` before running a test).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from hostilekit import deadline
from mariage.cli import main

DATA = Path(__file__).parent / "data" / "records"
RECORD = str(sorted((DATA / "good").glob("*.mrg"))[0])

#: Each command that writes a file, with ``{out}`` where the destination goes.
WRITERS = {
    "play": ["play", "marianna", "--seed", "3", "--quiet", "--out", "{out}"],
    "match": ["match", "marianna", "-n", "2", "--out", "{out}"],
    "render-svg": ["render", RECORD, "--svg", "{out}", "--hand", "1"],
    "render-html": ["render", RECORD, "--html", "{out}"],
    "conformance-json": ["conformance", "--rule", "schnapsen.claim.", "--json", "{out}"],
    "conformance-junit": ["conformance", "--rule", "schnapsen.claim.", "--junit", "{out}"],
    "conformance-trace": ["conformance", "--rule", "schnapsen.claim.", "--trace", "{out}"],
}


def _symlink(folder: Path) -> tuple[Path, Callable[[], bool]]:
    target = folder / "precious.txt"
    target.write_text("precious", encoding="utf-8")
    link = folder / "link.out"
    link.symlink_to(target)
    return link, lambda: link.is_symlink() and target.read_text(encoding="utf-8") == "precious"


def _fifo(folder: Path) -> tuple[Path, Callable[[], bool]]:
    path = folder / "fifo.out"
    os.mkfifo(path)
    return path, lambda: stat.S_ISFIFO(os.lstat(path).st_mode)


def _read_only(folder: Path) -> tuple[Path, Callable[[], bool]]:
    path = folder / "ro.out"
    path.write_text("keep", encoding="utf-8")
    path.chmod(0o444)
    return path, lambda: path.read_text(encoding="utf-8") == "keep"


def _folder(folder: Path) -> tuple[Path, Callable[[], bool]]:
    path = folder / "sub.out"
    path.mkdir()
    (path / "inside").write_text("x", encoding="utf-8")
    return path, lambda: path.is_dir() and os.listdir(path) == ["inside"]


def _device(folder: Path) -> tuple[Path, Callable[[], bool]]:
    """A device node of the test's own (a null device), else a socket: a code that
    replaced it must never replace the system's ``/dev/null``."""
    path = folder / "null.dev"
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        return path, lambda: stat.S_ISCHR(os.lstat(path).st_mode)
    except (OSError, AttributeError):  # not root: a socket is as special
        import socket

        listener = socket.socket(socket.AF_UNIX)
        listener.bind(str(path))
        listener.close()
        return path, lambda: stat.S_ISSOCK(os.lstat(path).st_mode)


DESTINATIONS = {"symlink": _symlink, "fifo": _fifo, "read-only": _read_only,
                "folder": _folder, "device": _device}


@pytest.mark.parametrize("kind", sorted(DESTINATIONS))
@pytest.mark.parametrize("command", sorted(WRITERS))
def test_every_writer_refuses_before_any_work(command: str, kind: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    if kind == "fifo" and not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    path, unchanged = DESTINATIONS[kind](tmp_path)
    argv = [a.replace("{out}", str(path)) for a in WRITERS[command]]
    with deadline(60):
        code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert err.startswith(f"mariage: error: {path}: ") and err.count("\n") == 1, err
    assert ".tmp" not in err and "Traceback" not in err
    assert out == ""  # nothing played, drawn or run first
    assert unchanged()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_every_writer_refuses_an_empty_name(command: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    argv = [a.replace("{out}", "") for a in WRITERS[command]]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "the file name is empty" in err and err.count("\n") == 1


@pytest.mark.parametrize("command", ["match", "render-svg", "conformance-json"])
def test_every_writer_replaces_a_regular_file_whole(command: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "out.txt"
    path.write_text("old", encoding="utf-8")
    path.chmod(0o640)
    argv = [a.replace("{out}", str(path)) for a in WRITERS[command]]
    assert main(argv) == 0, capsys.readouterr().err
    assert path.read_text(encoding="utf-8") not in ("", "old")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640  # the file's mode is kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


@pytest.mark.parametrize("argv, why", [
    (["--time", "inf"], "--time: not a number of seconds"),  # ASCII digits and a '.' only
    (["--time", "nan"], "--time: not a number of seconds"),
    (["--time", "1e400"], "--time: not a number of seconds"),
    (["--time", "9" * 400], "--time takes seconds"),  # digits: read, then over the limit
    (["--time", "0"], "--time takes seconds"),
    (["--seed", "-1"], "a seed is a whole number from 0 to 2**64-1"),
    (["--seed", "1" * 23], "a seed is a whole number from 0 to 2**64-1"),
    (["--seed", str(2**64)], "a seed is a whole number from 0 to 2**64-1"),
    (["--seed", str(2**64 - 1), "-n", "9"], "would pass 2**64-1"),
    (["-n", "0"], "--games takes a whole number from 1 to"),
    (["-n", "9" * 30], "--games takes a whole number from 1 to"),
    (["--playouts", "-5"], "--playouts takes a whole number from 1 to"),
    (["-o", "target=" + "9" * 100_000], "(100000 characters)"),
    (["-o", "x" * 100_000 + "=1"], "has no option"),
    (["-o", "x" * 100_000], "(100000 characters)"),
], ids=lambda a: str(a)[:30])
def test_match_numbers_are_bounded(argv: list[str], why: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    with deadline(30):
        try:
            code = main(["match", "marianna", "-q", *argv])
        except SystemExit as exc:  # argparse's own check of a value
            code = int(str(exc.code))
    out, err = capsys.readouterr()
    assert code == 2 and why in err and err.count("\n") == 1 and len(err) < 600, err
    assert "Traceback" not in err and "game " not in out


@pytest.mark.parametrize("command", [["rules", "marianna"], ["play", "marianna", "--quiet"]])
def test_option_values_are_quoted_back_cut(command: list[str],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    for value in ["target=" + "9" * 100_000, "colour=" + "x" * 100_000,
                  "x" * 100_000 + "=1", "target=" + "9" * 1000]:
        code = main([*command, "-o", value])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and len(err) < 600, err[:300]


def test_render_checks_every_numbered_page_before_drawing_any(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    two = tmp_path / "two.mrg"
    two.write_text(Path(RECORD).read_text(encoding="utf-8") * 2, encoding="utf-8")
    (tmp_path / "page-2.html").symlink_to(tmp_path / "elsewhere.html")
    code = main(["render", str(two), "--html", str(tmp_path / "page.html")])
    out, err = capsys.readouterr()
    assert code == 2 and f"{tmp_path / 'page-2.html'}: is a symbolic link" in err
    assert out == "" and not (tmp_path / "page-1.html").exists()
