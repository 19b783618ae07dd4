"""The twenty-eighth session's hostile sweep of the environment: a standard stream whose
encoding cannot write a character (``PYTHONIOENCODING=ascii``, a Latin-1 locale).

Standard output failed with ``'ascii' codec can't encode character '\\u2665' in position
1108`` (exit 2, whatever the verdict); now it names the character and what to set.
(Standard error writes such a character as its escape, whatever PYTHONIOENCODING says.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import mariage


def run_ascii(*argv: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONIOENCODING="ascii:strict",
               PYTHONPATH=str(Path(mariage.__file__).resolve().parents[1]))
    return subprocess.run([sys.executable, "-m", "mariage", *argv], capture_output=True,
                          text=True, encoding="utf-8", env=env, timeout=60, check=False)


def test_standard_output_names_the_character_it_cannot_write() -> None:
    proc = run_ascii("rules", "belote")  # the suits are written with their symbols
    assert proc.returncode == 2 and "codec" not in proc.stderr, proc.stderr
    assert proc.stderr == ("mariage: error: standard output cannot write U+2665 BLACK "
                           "HEART SUIT: its encoding is ascii (from PYTHONIOENCODING or "
                           "the locale); set PYTHONIOENCODING=utf-8\n"), proc.stderr
