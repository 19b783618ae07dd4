"""The runner's side of the engine protocol: transports with timeouts, and restarts.

A :class:`Transport` carries lines to and from an engine: a subprocess
(:class:`ProcessTransport`) or an engine object served in a thread of this
process over OS pipes (:class:`ThreadTransport`, used to test many engines
fast through the very same code path). :class:`EngineClient` sends one request,
waits for one response within the timeout, and turns every way an engine can
misbehave (exit, silence, a line that is not a message, a line too long) into
an :class:`EngineFailure`.

>>> from mariage.conformance.engine import ReferenceEngine
>>> client = EngineClient(lambda: ThreadTransport(ReferenceEngine()), timeout=5)
>>> client.hello()["engine"]
'mariage-reference'
>>> client.request({"type": "state"})["code"]
'no_match'
>>> client.close()
"""

from __future__ import annotations

import contextlib
import os
import select
import shlex
import subprocess
import threading
import time
from collections.abc import Callable
from typing import Any

from .protocol import MAX_LINE, PROTOCOL_VERSION, ProtocolError, decode, encode

__all__ = ["EngineClient", "EngineFailure", "ProcessTransport", "ThreadTransport", "Transport"]


class EngineFailure(Exception):
    """The engine crashed, hung, or wrote something that is not a response.

    ``kind`` is ``crash``, ``timeout`` or ``garbage``.
    """

    def __init__(self, kind: str, message: str) -> None:
        self.kind = kind
        self.message = message
        super().__init__(f"engine {kind}: {message}")


class Transport:
    """Lines to and from one running engine, read with a deadline."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self._rfd = read_fd
        self._wfd = write_fd
        self._buf = b""

    def send(self, line: str) -> None:
        """Write one line (a newline is added)."""
        data = (line + "\n").encode()
        try:
            while data:
                n = os.write(self._wfd, data)
                data = data[n:]
        except OSError as exc:
            raise EngineFailure("crash", f"cannot write to the engine ({exc.strerror})") from None

    def receive(self, timeout: float) -> str:
        """The next line (without its newline), waiting at most ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            nl = self._buf.find(b"\n")
            if nl >= 0:
                raw, self._buf = self._buf[:nl], self._buf[nl + 1:]
                try:
                    return raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise EngineFailure("garbage", "a line that is not UTF-8") from None
            if len(self._buf) > MAX_LINE:
                raise EngineFailure("garbage", f"a line longer than {MAX_LINE} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineFailure("timeout", f"no response within {timeout:g} s")
            ready, _, _ = select.select([self._rfd], [], [], left)
            if not ready:
                raise EngineFailure("timeout", f"no response within {timeout:g} s")
            chunk = os.read(self._rfd, 65536)
            if not chunk:
                raise EngineFailure("crash", "the engine closed its output (exited?)")
            self._buf += chunk

    def close(self) -> None:
        """Stop the engine and release the pipes."""
        for fd in (self._wfd, self._rfd):
            with contextlib.suppress(OSError):
                os.close(fd)


class ProcessTransport(Transport):
    """An engine run as a command (split like a POSIX shell line)."""

    def __init__(self, command: str) -> None:
        try:
            self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        except (OSError, ValueError) as exc:
            raise EngineFailure("crash", f"cannot start '{command}': {exc}") from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        super().__init__(self.proc.stdout.fileno(), self.proc.stdin.fileno())

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        assert self.proc.stdin is not None and self.proc.stdout is not None
        for stream in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(OSError):
                stream.close()


class ThreadTransport(Transport):
    """An engine object served by :func:`~mariage.conformance.engine.serve` in a thread.

    If the engine raises, the thread closes its output, which the client sees as
    a crash, just as with a process.
    """

    def __init__(self, engine: Any) -> None:
        from .engine import serve

        req_r, req_w = os.pipe()
        resp_r, resp_w = os.pipe()
        self._inp = os.fdopen(req_r, "r", encoding="utf-8")
        self._out = os.fdopen(resp_w, "w", encoding="utf-8")

        def run() -> None:
            try:
                serve(engine, self._inp, self._out)
            except Exception:
                pass
            finally:
                for stream in (self._out, self._inp):
                    with contextlib.suppress(OSError):
                        stream.close()

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()
        super().__init__(resp_r, req_w)

    def close(self) -> None:
        super().close()
        self._thread.join(timeout=5)


class EngineClient:
    """Requests and responses with one engine, restarted on demand."""

    def __init__(self, factory: Callable[[], Transport], timeout: float = 10.0) -> None:
        self.factory = factory
        self.timeout = timeout
        self._transport: Transport | None = None
        self.info: dict[str, Any] | None = None
        self.requests = 0
        self.restarts = 0

    @classmethod
    def for_command(cls, command: str, timeout: float = 10.0) -> EngineClient:
        """A client that runs ``command`` as the engine."""
        return cls(lambda: ProcessTransport(command), timeout)

    def _live(self) -> Transport:
        if self._transport is None:
            self._transport = self.factory()
        return self._transport

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send ``message`` and return the engine's response (``log`` lines skipped)."""
        t = self._live()
        self.requests += 1
        t.send(encode(message))
        while True:
            line = t.receive(self.timeout).strip()
            if not line:
                continue
            try:
                reply = decode(line)
            except ProtocolError as exc:
                raise EngineFailure("garbage", f"{exc.message}: {line[:80]!r}") from None
            if reply["type"] != "log":
                return reply

    def hello(self) -> dict[str, Any]:
        """Handshake; raise :class:`EngineFailure` unless the engine speaks our version."""
        reply = self.request({"type": "hello", "protocol": PROTOCOL_VERSION})
        if reply.get("type") != "hello" or reply.get("protocol") != PROTOCOL_VERSION:
            raise EngineFailure("garbage", f"the handshake answer is not a hello for protocol "
                                f"{PROTOCOL_VERSION}: {encode(reply)[:120]}")
        self.info = reply
        return reply

    def restart(self) -> None:
        """Stop the engine; the next request starts a fresh one (and must say hello)."""
        self.restarts += 1
        self.close()

    def close(self) -> None:
        """Ask the engine to quit, then stop it."""
        t = self._transport
        self._transport = None
        if t is None:
            return
        with contextlib.suppress(EngineFailure):
            t.send(encode({"type": "quit"}))
        t.close()
