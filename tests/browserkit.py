"""A real headless browser for the tests: Chromium driven over its DevTools pipe.

Chromium started with ``--remote-debugging-pipe`` reads DevTools commands from
file descriptor 3 and writes replies and events to descriptor 4, each message
a JSON object ended by a NUL byte. That needs no WebSocket client and no
package beyond the standard library; the browser is the Debian ``chromium``
package (``.ci/run`` installs it when it is missing).

Run as a script to take screenshots::

    python tests/browserkit.py page.html out.png 412
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium() -> str | None:
    """The browser to run: ``$MARIAGE_CHROMIUM`` or the first one on ``PATH``."""
    env = os.environ.get("MARIAGE_CHROMIUM")
    if env:
        return env
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


class BrowserError(RuntimeError):
    """A DevTools command failed or timed out."""


class Browser:
    """One headless Chromium process; :meth:`page` opens a tab."""

    def __init__(self, exe: str | None = None, timeout: float = 30.0) -> None:
        exe = exe or find_chromium()
        if exe is None:
            raise BrowserError("no Chromium found: install the 'chromium' package "
                               "(.ci/run does) or set MARIAGE_CHROMIUM")
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="mariage-chromium-")
        self._log = open(os.environ.get("MARIAGE_CHROMIUM_LOG", os.devnull), "wb")  # noqa: SIM115
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()
        # the child's ends numbered 10 or more, so that moving them to 3 and 4 clobbers nothing
        low = (to_chrome_r, from_chrome_w)
        to_chrome_r, from_chrome_w = (fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in low)
        for fd in low:
            os.close(fd)
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                 "--disable-background-networking", "--remote-debugging-pipe",
                 f"--user-data-dir={self.profile}", "about:blank"]
        # a small Python step moves the pipe ends to 3 and 4, then becomes the browser
        move = ("import os, sys; os.dup2(int(sys.argv[1]), 3); os.dup2(int(sys.argv[2]), 4); "
                "os.execv(sys.argv[3], sys.argv[3:])")
        self.proc = subprocess.Popen([sys.executable, "-c", move, str(to_chrome_r),
                                      str(from_chrome_w), exe, *flags],
                                     pass_fds=(to_chrome_r, from_chrome_w),
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=self._log)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._next = 0
        self._replies: dict[int, dict[str, Any]] = {}
        self._events: queue.Queue[dict[str, Any]] = queue.Queue()
        self._lock = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        buf = b""
        with os.fdopen(self._from_chrome, "rb", buffering=0) as f:
            while True:
                chunk = f.read(65536)
                if not chunk:
                    break
                buf += chunk
                while b"\0" in buf:
                    raw, buf = buf.split(b"\0", 1)
                    msg = json.loads(raw)
                    if "id" in msg:
                        with self._lock:
                            self._replies[msg["id"]] = msg
                            self._lock.notify_all()
                    else:
                        self._events.put(msg)
        with self._lock:
            self._lock.notify_all()

    def send(self, method: str, params: dict[str, Any] | None = None,
             session: str | None = None) -> dict[str, Any]:
        """Send one command and wait for its result."""
        self._next += 1
        n = self._next
        msg: dict[str, Any] = {"id": n, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._to_chrome, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        with self._lock:
            while n not in self._replies:
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    raise BrowserError(f"{method}: no reply from the browser")
                self._lock.wait(left)
            reply = self._replies.pop(n)
        if "error" in reply:
            raise BrowserError(f"{method}: {reply['error'].get('message')}")
        result: dict[str, Any] = reply.get("result", {})
        return result

    def page(self, width: int, height: int = 900) -> Page:
        """A new tab with a viewport ``width`` x ``height`` (a phone below 600 px)."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target,
                                                      "flatten": True})["sessionId"]
        return Page(self, session, width, height)

    def close(self) -> None:
        """End the browser process (the one this object started) and remove its profile."""
        with contextlib.suppress(BrowserError, OSError):
            self.send("Browser.close")
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to_chrome)
        self._log.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Page:
    """One tab: load a file, evaluate JavaScript, press keys, take screenshots.

    ``problems`` collects console errors, uncaught exceptions and failed loads.
    """

    def __init__(self, browser: Browser, session: str, width: int, height: int) -> None:
        self.browser = browser
        self.session = session
        self.problems: list[str] = []
        self.events: list[dict[str, Any]] = []
        for domain in ("Runtime.enable", "Log.enable", "Page.enable", "Network.enable"):
            self.send(domain)
        self.width, self.height = width, height
        self._viewport(width, height)

    def _viewport(self, width: int, height: int) -> None:
        self.send("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1,
            "mobile": width < 600})

    def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        result = self.browser.send(method, params, self.session)
        self._drain()
        return result

    def _drain(self, wait: float = 0.0) -> None:
        deadline = time.monotonic() + wait
        while True:
            try:
                left = max(0.0, deadline - time.monotonic())
                ev = self.browser._events.get(timeout=left) if left else \
                    self.browser._events.get_nowait()
            except queue.Empty:
                return
            if ev.get("sessionId") != self.session:
                continue
            self.events.append(ev)
            method, params = ev.get("method"), ev.get("params", {})
            if method == "Runtime.exceptionThrown":
                d = params.get("exceptionDetails", {})
                text = d.get("exception", {}).get("description") or d.get("text")
                self.problems.append(f"exception: {text}")
            elif method == "Runtime.consoleAPICalled" and params.get("type") in (
                    "error", "assert", "warning"):
                args = " ".join(str(a.get("value", a.get("description", "")))
                                for a in params.get("args", []))
                self.problems.append(f"console.{params.get('type')}: {args}")
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") in (
                    "error", "warning"):
                self.problems.append(f"log: {params['entry'].get('text')}")
            elif method == "Network.requestWillBeSent":
                url = params.get("request", {}).get("url", "")
                if not url.startswith(("file:", "data:", "about:")):
                    self.problems.append(f"network request: {url}")

    def open(self, path: Path) -> None:
        """Load ``path`` and wait for its load event."""
        self.send("Page.navigate", {"url": path.resolve().as_uri()})
        deadline = time.monotonic() + self.browser.timeout
        while time.monotonic() < deadline:
            self._drain(0.1)
            if any(e.get("method") == "Page.loadEventFired" for e in self.events):
                return
        raise BrowserError(f"{path}: the page did not load")

    def eval(self, expression: str) -> Any:
        """The value of a JavaScript expression (JSON-able)."""
        res = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                             "awaitPromise": True})
        if "exceptionDetails" in res:
            raise BrowserError(f"{expression}: {res['exceptionDetails'].get('text')}")
        return res.get("result", {}).get("value")

    def key(self, key: str) -> None:
        """Press and release ``key`` (a DOM key name: ``ArrowRight``, ``End``...)."""
        codes = {"ArrowRight": 39, "ArrowLeft": 37, "ArrowUp": 38, "ArrowDown": 40, "Home": 36,
                 "End": 35, "PageDown": 34, "PageUp": 33}
        base = {"key": key, "code": key, "windowsVirtualKeyCode": codes.get(key, 0)}
        self.send("Input.dispatchKeyEvent", {"type": "rawKeyDown", **base})
        self.send("Input.dispatchKeyEvent", {"type": "keyUp", **base})

    def screenshot(self, out: Path, full: bool = True) -> None:
        """Save a PNG of the page (the whole page when ``full``)."""
        if full:  # a viewport as tall as the page: no scroll bar, nothing cut off
            height = self.eval("document.documentElement.scrollHeight")
            self._viewport(self.width, max(height, self.height))
        res = self.send("Page.captureScreenshot", {"format": "png"})
        if full:
            self._viewport(self.width, self.height)
        out.write_bytes(base64.b64decode(res["data"]))


if __name__ == "__main__":
    html, png, width = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with Browser() as b:
        p = b.page(width)
        p.open(Path(html))
        for k in sys.argv[4:]:
            p.key(k)
        p.screenshot(Path(png))
        print("problems:", p.problems)
