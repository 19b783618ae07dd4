"""A scripted engine for the hostile tests of the twenty-sixth session: it plays
``legal[0]`` of Mariazza and misbehaves as its first argument says.

* ``setsid PIDS [silent]``: first starts ``setsid sleep 600`` (a child in a session of its
  own); ``daemon PIDS [silent]``: forks twice, the middle process calling ``setsid`` and
  exiting (the sleeper, an orphan, is taken in by init). Either writes the sleeper's pid
  to ``PIDS``; ``silent`` answers nothing after the hello. ``bare PIDS [silent]``: as
  ``daemon``, the sleeper then clearing its environment (``sleep`` run with none).
* ``stall GAME HAND READY``: once dealt hand ``HAND`` of game ``GAME`` (from 1), writes
  ``READY`` and answers its next ``choose`` no more.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ENGINE = """
import json, os, subprocess, sys, time
HELLO = {"type": "hello", "engine": "hostile26", "protocol": 1, "requests": ["choose"],
         "rulesets": {"mariazza": {"options": {"target": {"type": "int", "default": 41}}}}}
mode, args = sys.argv[1], sys.argv[2:]


def sleeper():
    if mode == "setsid":
        time.sleep(0.1)
        pid = subprocess.Popen(["setsid", "sleep", "600"]).pid
        end = time.monotonic() + 20  # told once it has left (setsid runs after the fork)
        while os.getsid(pid) == os.getsid(0) and time.monotonic() < end:
            time.sleep(0.01)
        return pid
    r, w = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.write(w, str(os.getpid()).encode())
            os.closerange(0, 3)
            if mode == "bare":
                os.execve("/bin/sleep", ["sleep", "600"], {})
            time.sleep(600)
        os._exit(0)
    os.close(w)
    return int(os.read(r, 100))


if mode in ("setsid", "daemon", "bare"):
    pid = sleeper()
    with open(args[0], "a") as f:
        f.write(f"{pid}\\n")
stall = tuple(map(int, args[:2])) if mode == "stall" else None
games = dealt = 0
while line := sys.stdin.readline():
    msg = json.loads(line)
    kind = msg["type"]
    games, dealt = (games + 1, 1) if kind == "start" else (games, dealt + (kind == "deal"))
    if kind == "quit":
        break
    if kind == "hello":
        reply = HELLO
    elif kind == "choose" and (games, dealt) >= (stall or (1 << 30,)):
        open(args[2], "w").close()
        time.sleep(600)
    elif "silent" in args:
        time.sleep(600)
    else:
        reply = {"type": "choose", "seat": 0, "action": msg["legal"][0]} \\
            if kind == "choose" else {"type": "ok"}
    print(json.dumps(reply), flush=True)
"""


def engine_command(tmp_path: Path, *args: object) -> str:
    """The command line of :data:`ENGINE` with ``args``, its script written in ``tmp_path``."""
    script = tmp_path / "engine.py"
    script.write_text(ENGINE)
    return " ".join([sys.executable, str(script), *map(str, args)])


def stop_when(proc: subprocess.Popen[str], ready: Callable[[], bool],
              sig: int = signal.SIGINT) -> tuple[str, str]:
    """Send ``sig`` to ``proc`` once ``ready()`` (within 60 s; half a second later, so
    that the run waits on its engine), then its standard output and error; ``proc`` is
    killed should it not end within 30 s."""
    try:
        end = time.monotonic() + 60
        while not ready() and time.monotonic() < end and proc.poll() is None:
            time.sleep(0.05)
        assert ready(), "the run did not get where the signal is due"
        time.sleep(0.5)
        proc.send_signal(sig)
        return proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
