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
import json
import os
import select
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from typing import Any

from ..errors import expect_str, printable, shown
from .command import check_command, shell_operator
from .configuration import check_configurations, check_hello
from .limits import MAX_TIMEOUT, START_TIMEOUT, check_timeout
from .protocol import (
    MAX_LINE,
    PROTOCOL_VERSION,
    SUPPORTED_VERSIONS,
    ProtocolError,
    decode,
    encode,
)
from .strays import MARK, end_strays, new_mark
from .supervision import Supervision, supervised

__all__ = ["CLOSE_GRACE", "LOG_LIMIT", "MAX_TIMEOUT", "STDERR_TAIL", "EngineClient",
           "EngineFailure", "HandshakeError", "ProcessTransport", "ThreadTransport", "Transport",
           "UnaskedLine", "check_command", "check_timeout", "quoted_command", "shell_operator",
           "stderr_note"]

#: At most this many requests of one test are kept for ``--trace``.
LOG_LIMIT = 2000

#: How many bytes of an engine's standard error are kept, to quote when it dies.
STDERR_TAIL = 2048

#: How long an engine whose output (or input) has ended may take to show that it is
#: exiting (its standard error ends, or its exit is known) before it is taken to have
#: closed it and run on: a crash found at once, not 1.2 s later. (Time enough for a busy
#: machine to see an exiting engine's standard error end: its message then says how it
#: ended.)
CLOSE_GRACE = 0.3



def quoted_command(command: str) -> str:
    """An engine's command line to quote in a message: cut, so that a command of a
    megabyte (a hello's configurations passed inline) does not flood the terminal, and
    printable.

    >>> quoted_command("node engine.js"), len(quoted_command("x" * 10000)) < 200
    ("'node engine.js'", True)
    """
    return printable(shown(command, 160))

class EngineFailure(Exception):
    """The engine crashed, hung, or wrote something that is not a response.

    ``kind`` is ``crash``, ``timeout`` or ``garbage``. ``tail`` is the end of the
    engine's standard error as :func:`stderr_note` gives it (already at the end of
    ``message``); ``request`` the number of the request in the test (1 for its first,
    the ``start``) when known; ``rules`` the rule IDs of the step being answered when
    the runner knows them (:func:`~mariage.conformance.runner.run_test` charges the
    failure to them, else to no rule).
    """

    def __init__(self, kind: str, message: str, tail: str = "", request: int | None = None,
                 rules: tuple[str, ...] = ()) -> None:
        self.kind = kind
        self.message = message + tail
        self.head = message
        self.tail = tail
        self.request = request
        self.rules = rules
        super().__init__(f"engine {kind}: {self.message}")


class UnaskedLine(EngineFailure):
    """The engine wrote a line before the request it would answer was sent: a second
    answer to one request, or a line before the first (a protocol error: ``garbage``)."""

    def __init__(self, line: str) -> None:
        super().__init__("garbage", "the engine wrote a line no request asked for (two "
                         f"answers to one request?): {line[:80]!r}")


class HandshakeError(EngineFailure):
    """The engine did not answer ``hello`` as the protocol says: the run cannot go on."""

    def __init__(self, message: str) -> None:
        super().__init__("handshake", message)


class Transport:
    """Lines to and from one running engine, read with a deadline."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self._rfd = read_fd
        self._wfd = write_fd
        self._buf = b""
        #: the engine's output, polled (a poll object is made once; select builds its
        #: sets at each call, a few microseconds of every request's two waits)
        self._poller: Any = None
        if read_fd >= 0 and hasattr(select, "poll"):
            self._poller = select.poll()
            self._poller.register(read_fd, select.POLLIN)
        if write_fd >= 0:
            os.set_blocking(write_fd, False)  # every write has a deadline (:meth:`send`)

    def send(self, line: str | bytes, deadline: float | None = None,
             timeout: float = 10.0) -> None:
        """Write one line (a newline is added), by ``deadline`` at most.

        ``line`` may be bytes, sent as they are (the protocol tests send lines
        that are not UTF-8). The write never blocks past ``deadline`` (a
        :func:`time.monotonic` time; default: ``timeout`` seconds from now): an
        engine that stops reading its input while the pipe is full is a
        ``timeout``, not a hang.
        """
        data = (line if isinstance(line, bytes) else line.encode()) + b"\n"
        end = time.monotonic() + timeout if deadline is None else deadline
        try:
            while data:
                try:
                    n = os.write(self._wfd, data)
                except BlockingIOError:
                    left = end - time.monotonic()
                    ready = select.select([], [self._wfd], [], max(0.0, left))[1] \
                        if left > 0 else []
                    if not ready:
                        raise EngineFailure("timeout", f"the engine did not read its input "
                                            f"within {timeout:g} s") from None
                    continue
                data = data[n:]
        except OSError as exc:
            tail = self.last_words()
            raise EngineFailure("crash", f"{self.exit_status() or 'the engine closed its input'}"
                                f" (cannot write to it: {exc.strerror})", tail) from None

    def last_words(self) -> str:
        """What the engine wrote to its standard error before it died, as ``"; its
        standard error ends: ..."``, or ``""`` (none kept)."""
        return ""

    def exit_status(self) -> str:
        """How the engine ended, once it has: ``the engine exited with code 3``, ``the
        engine was killed by signal 9 (SIGKILL)``; ``""`` if that is not known (call
        after :meth:`last_words`, which gives a dying engine a moment to end)."""
        return ""

    def receive(self, deadline: float, timeout: float) -> str:
        """The next line (without its newline), waiting until ``deadline`` at most.

        ``deadline`` is a :func:`time.monotonic` time; ``timeout`` is only for
        the message.
        """
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
            if left <= 0 or not self._wait(left):
                raise EngineFailure("timeout", f"no response within {timeout:g} s"
                                    + self._unended())
            chunk = os.read(self._rfd, 65536)
            if not chunk:
                tail = self.last_words()
                raise EngineFailure("crash", self.exit_status() or self._closed(), tail)
            self._buf += chunk

    def _unended(self) -> str:
        """What the engine wrote with no line feed after it, for a timeout's message (an
        engine that ends its lines with a lone carriage return, or not at all)."""
        if not self._buf.strip():
            return ""
        text = self._buf[:60].decode("utf-8", "replace")
        more = "..." if len(self._buf) > 60 else ""
        return f" (it wrote {len(self._buf)} bytes with no line feed after them: {text!r}{more})"

    def _readable(self, seconds: float) -> bool:
        """Is the engine's output readable (or ended) within ``seconds`` (0: now)?"""
        if self._poller is not None:
            return bool(self._poller.poll(max(0, int(seconds * 1000 + 0.999))))
        return bool(select.select([self._rfd], [], [], max(0.0, seconds))[0])

    def _wait(self, seconds: float) -> bool:
        """Wait at most ``seconds`` for the engine's output to be readable; ``False`` if
        it is not (:class:`ProcessTransport` fails sooner where the engine has exited).
        Waited in steps of 0.1 s: a signal's handler runs only between bytecodes, so one
        that came the instant before a long wait began would wait with it."""
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if self._readable(min(left, 0.1)):
                return True
            if left <= 0.1:
                return False

    def _closed(self) -> str:
        """What an end of the engine's output means, when its exit status is not known."""
        return "the engine closed its output (exited?)"

    def unasked(self) -> str | None:
        """A whole line the engine wrote before it was asked anything (a second answer to
        the last request, or a line before the first), read without waiting; ``None`` if
        there is none. Blank and ``log`` lines are dropped, as :meth:`receive` drops them.
        A subclass that never set up the pipe (one that scripts its own lines by
        overriding :meth:`send` and :meth:`receive`) has none to read.
        """
        if not hasattr(self, "_rfd"):
            return None
        if self._readable(0):
            with contextlib.suppress(OSError):
                self._buf += os.read(self._rfd, 65536)  # b"" at the end: found by receive
        while (nl := self._buf.find(b"\n")) >= 0:
            text = self._buf[:nl].decode("utf-8", "replace").strip(" \t\r")
            if text:
                try:
                    if decode(text)["type"] == "log":
                        text = ""
                except ProtocolError:
                    pass
            if text:
                return text
            self._buf = self._buf[nl + 1:]
        return None

    def close(self) -> None:
        """Stop the engine and release the pipes."""
        for fd in (self._wfd, self._rfd):
            with contextlib.suppress(OSError):
                os.close(fd)


class ProcessTransport(Transport):
    """An engine run as a command (split like a POSIX shell line).

    On Linux the engine runs under a supervisor (:mod:`~mariage.conformance.supervisor`)
    that takes in every process the engine started that detaches, and ends them all
    when the engine is stopped, even if the runner dies. Besides (and where the
    supervisor cannot take in orphans), the engine runs in a process group of its own;
    :meth:`close` ends the whole group, and every process the engine started that left
    it (marked as the engine's in its environment, :mod:`~mariage.conformance.strays`),
    so an engine that started helpers leaves no orphans, whether they called
    ``setsid`` or not. Its standard
    error is read as it comes and only the last :data:`STDERR_TAIL` bytes are
    kept: a failure that ends the engine quotes them (:meth:`last_words`).
    """

    def __init__(self, command: str) -> None:
        self.mark = new_mark()
        #: the engine closed its output (or input) and runs on: it can never answer again
        self.closed_for_good = False
        watch = self._watch = Supervision() if supervised() else None
        try:
            argv = shlex.split(command)
            self.proc = subprocess.Popen(watch.command(argv) if watch else argv,
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, start_new_session=True,
                                         env={**os.environ, MARK: self.mark},
                                         pass_fds=watch.fds if watch else ())
        except (OSError, ValueError) as exc:
            if watch:
                watch.close()
            raise EngineFailure("crash",
                                f"cannot start {quoted_command(command)}: {exc}") from None
        try:
            if watch:
                try:
                    watch.started()
                except OSError as exc:
                    raise EngineFailure("crash",
                                        f"cannot start {quoted_command(command)}: {exc}") from None
                if watch.pid is None:  # no subreaper here: the supervisor is the engine
                    watch.close()
                    self._watch = None
            assert self.proc.stdin is not None and self.proc.stdout is not None
            assert self.proc.stderr is not None
            self._tail = bytearray()
            self._errors = threading.Thread(target=self._drain, args=(self.proc.stderr,),
                                            daemon=True)
            self._errors.start()
            super().__init__(self.proc.stdout.fileno(), self.proc.stdin.fileno())
        except BaseException:  # an interrupt (Ctrl-C, SIGTERM) right after the start
            self._kill()
            raise

    def _kill(self) -> None:
        watch = self._watch
        ended = False
        try:
            ended = watch is not None and watch.stop(self.proc)  # it ends all, orphans too
        finally:
            try:  # the helpers that left the group, while the engine's tree still holds
                if not ended:
                    end_strays(self.mark, self.proc.pid)
            finally:
                with contextlib.suppress(OSError):  # the group is gone already
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
                if watch is not None:
                    watch.close()

    def _returncode(self, timeout: float = 0.0) -> int | None:
        """The engine's return code, waiting at most ``timeout`` s; ``None`` while it runs."""
        if self._watch is not None:
            return self._watch.returncode(self.proc, timeout)
        if timeout > 0:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=timeout)
        return self.proc.poll()

    def _wait(self, seconds: float) -> bool:
        """As :meth:`Transport._wait`, but an engine that has exited while a process it
        started holds its output open is a crash at once, not a timeout."""
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if self._readable(min(left, 0.1)):
                return True
            if self._returncode() is not None:  # exited: its end of output is readable now,
                if self._readable(0):  # unless another holds it
                    return True
                raise EngineFailure("crash", f"{self.exit_status()} (a process it started "
                                    "still holds its output open)", self.last_words())
            if left <= 0.1:
                return False

    def _closed(self) -> str:
        return "the engine closed its output but did not exit" if self._returncode() is None \
            else "the engine closed its output"

    def _drain(self, stream: Any) -> None:
        """Read the engine's standard error to its end, keeping only its tail."""
        with contextlib.suppress(OSError, ValueError):
            fd = stream.fileno()
            while True:
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                self._tail += chunk
                del self._tail[:-STDERR_TAIL]

    def last_words(self) -> str:
        """As :meth:`Transport.last_words`, giving a dying engine up to 0.5 s to end and
        finish its standard error; but an engine that runs on with its standard error
        open, :data:`CLOSE_GRACE` after its output or input ended, closed it for good (an
        engine that exits closes its output and its standard error at once): it can never
        answer again, and is not waited for."""
        now = time.monotonic()
        end, grace = now + 0.5, now + CLOSE_GRACE
        while self._errors.is_alive() and self._returncode() is None:
            if time.monotonic() >= grace:
                self.closed_for_good = True
                return stderr_note(bytes(self._tail))
            self._errors.join(timeout=0.01)
        self._returncode(max(0.0, end - time.monotonic()))  # its last words
        self._errors.join(timeout=max(0.0, end - time.monotonic()))
        return stderr_note(bytes(self._tail))

    def exit_status(self) -> str:
        code = self._returncode()
        if code is None:
            return ""
        if code >= 0:
            return f"the engine exited with code {code}"
        try:
            name = f" ({signal.Signals(-code).name})"
        except ValueError:
            name = ""
        return f"the engine was killed by signal {-code}{name}"

    def close(self) -> None:
        """Close the engine's input, give it a moment to exit, then end its process group."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
            if not self.closed_for_good:  # one that can never answer has no quit to take
                self._returncode(0.2)
        finally:  # even when interrupted: no engine outlives the run
            self._kill()
        self._errors.join(timeout=1)
        for stream in (self.proc.stdout, self.proc.stderr):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()


def _shown(line: str | bytes) -> str:
    """A request line as ``--trace`` keeps it: text, cut at 4096 characters."""
    shown = line if isinstance(line, str) else line.decode("utf-8", "replace")
    if len(shown) > 4096:
        shown = shown[:4096] + f"... ({len(line)} bytes in all)"
    return shown


def stderr_note(tail: bytes) -> str:
    """``"; its standard error ends: ..."`` for the last bytes an engine wrote to its
    standard error (on one line, at most 300 characters), or ``""``.

    >>> stderr_note(b"Traceback ...\\nKeyError: 'x'\\n")
    "; its standard error ends: Traceback ... | KeyError: 'x'"
    """
    if not isinstance(tail, bytes | bytearray):  # else "'str' object has no attribute..."
        raise TypeError(f"stderr_note: tail is the bytes an engine wrote, not "
                        f"{type(tail).__name__}")
    text = " | ".join(printable(line.strip()) for line in  # no escape sequence acts
                      tail.decode("utf-8", "replace").splitlines() if line.strip())
    if not text:
        return ""
    return "; its standard error ends: " + (text if len(text) <= 300 else "..." + text[-297:])


class ThreadTransport(Transport):
    """An engine object served by :func:`~mariage.conformance.engine.serve` (or by
    ``server``, a function of the same form) in a thread.

    If the engine raises, the thread closes its output, which the client sees as
    a crash, just as with a process.
    """

    def __init__(self, engine: Any, server: Callable[..., int] | None = None) -> None:
        from .engine import serve as serve_engine

        serve = server or serve_engine  # ``server``: another loop (a protocol fault)
        req_r, req_w = os.pipe()
        resp_r, resp_w = os.pipe()
        self._inp = os.fdopen(req_r, "rb")  # bytes: a line that is not UTF-8 is answered
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
    """Requests and responses with one engine, restarted on demand.

    ``timeout`` limits each response, counted from the request: ``log`` and
    blank lines do not extend it. The answer to ``hello`` gets the larger of
    ``timeout`` and ``start_timeout`` (default
    :data:`~mariage.conformance.limits.START_TIMEOUT`, 10 s), as an engine
    process that has just started loads its code first. :meth:`set_deadline` sets a limit for a
    whole test on top. ``log`` keeps the exchange since :meth:`start_log`
    (request and response lines), for ``--trace``.
    """

    def __init__(self, factory: Callable[[], Transport], timeout: float = 10.0,
                 start_timeout: float = START_TIMEOUT) -> None:
        self.factory = factory
        self.timeout = check_timeout(timeout)
        self.start_timeout = check_timeout(start_timeout, "start_timeout")
        self._transport: Transport | None = None
        self.info: dict[str, Any] | None = None
        self.requests = 0
        #: requests since :meth:`begin_test` (the number a failure names)
        self.test_requests = 0
        self.restarts = 0
        self.deadline: float | None = None
        self.test_limit: float | None = None
        self.log: list[tuple[str, str]] | None = None

    @classmethod
    def for_command(cls, command: str, timeout: float = 10.0,
                    start_timeout: float = START_TIMEOUT) -> EngineClient:
        """A client that runs ``command`` as the engine (a command of no word, or no
        text, is refused here: it was only found to be "no engine" at the first request,
        as "the supervisor ended before it started the engine")."""
        if not expect_str(command, "for_command: command").strip():
            raise ValueError("for_command: the command is empty")
        return cls(lambda: ProcessTransport(command), timeout, start_timeout)

    def set_deadline(self, seconds: float | None) -> None:
        """Limit every request from now on to end within ``seconds`` (``None``: no limit)."""
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.test_limit = seconds

    def begin_test(self) -> None:
        """Count requests afresh: the next one is request 1 of a test."""
        self.test_requests = 0

    def start_log(self) -> None:
        """Start recording the exchange afresh."""
        self.log = []

    def _live(self) -> Transport:
        if self._transport is None:
            self._transport = self.factory()
        return self._transport

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send ``message`` and return the engine's response (``log`` lines skipped).

        A failure names the request it happened on (``the answer to 'state': not
        JSON: ...``; ``the engine exited with code 1 during request 7 ('apply')``, its
        number since :meth:`begin_test`): the runner asks for ``legal`` and ``state``
        around each step.

        A request without an ``id`` is sent with the number of the request (since the
        client was made) as its ``id``, which the protocol has the engine copy into its
        answer; the id is taken off the answer again. An answer that carries the number
        of an *earlier* request is a late second answer to that one (two answers to one
        request that :meth:`Transport.unasked` could not see, as the second came after
        the next request was written): ``garbage``. An answer without the id is left to
        the ``protocol.framing.id`` test.
        """
        if not isinstance(message, dict):
            raise TypeError(f"request: the message is a dict, not {type(message).__name__}")
        number = self.requests + 1
        own = "id" not in message
        try:
            reply = self.exchange(encode({**message, "id": number} if own else message))
        except EngineFailure as exc:
            kind = message.get("type")
            if isinstance(exc, HandshakeError) or kind == "hello":
                raise
            k = self.test_requests
            if isinstance(exc, UnaskedLine):
                raise EngineFailure(exc.kind, f"before request {k} ('{kind}'): {exc.head}",
                                    exc.tail, k) from None
            if exc.kind == "crash":
                raise EngineFailure(exc.kind, f"{exc.head} during request {k} ('{kind}')",
                                    exc.tail, k) from None
            raise EngineFailure(exc.kind, f"the answer to '{kind}': {exc.head}", exc.tail,
                                k) from None
        if own and "id" in reply:
            echoed = reply.pop("id")
            if type(echoed) is int and 0 < echoed < number:
                raise EngineFailure("garbage", f"the answer to '{message.get('type')}' "
                                    f"carries the id {echoed} of an earlier request (this "
                                    f"one's is {number}): a late second answer to that "
                                    "request?", "", self.test_requests)
        return reply

    def exchange(self, line_out: str | bytes) -> dict[str, Any]:
        """Send one raw line (text or bytes, without its line feed) and return the
        engine's response to it (``log`` lines skipped).

        The write and the wait for the answer share one deadline: ``timeout``
        from now, or the whole test's limit if it comes first.
        """
        t = self._live()
        self.requests += 1
        self.test_requests += 1
        early = t.unasked()
        if early is not None:
            raise UnaskedLine(early)
        now = time.monotonic()
        deadline = now + self.timeout
        whole = self.deadline is not None and self.deadline < deadline
        spent = EngineFailure("timeout", f"the whole test's time limit of "
                              f"{self.test_limit:g} s is spent") if whole else None
        if self.deadline is not None and whole:
            deadline = self.deadline
            if deadline <= now and spent is not None:
                raise spent
        logged = self.log is not None and len(self.log) < LOG_LIMIT
        shown = ""
        if self.log is not None and logged:
            shown = _shown(line_out)
            self.log.append((shown, ""))
        try:
            t.send(line_out, deadline, self.timeout)
            while True:
                line = t.receive(deadline, self.timeout).strip(" \t\r")
                if not line:
                    continue
                try:
                    reply = decode(line)
                except ProtocolError as exc:
                    raise EngineFailure("garbage", f"{exc.message}: {line[:80]!r}") from None
                if reply["type"] != "log":
                    if self.log is not None and logged:
                        self.log[-1] = (shown, line)
                    return reply
        except EngineFailure as exc:
            if exc.kind == "timeout" and spent is not None:
                raise spent from None
            raise

    def send_only(self, line_out: str | bytes) -> None:
        """Send one raw line that gets no answer (a blank line), within ``timeout``."""
        self._live().send(line_out, None, self.timeout)

    def hello(self) -> dict[str, Any]:
        """Handshake; raise :class:`HandshakeError` unless the engine speaks our version.

        The answer must be a ``hello`` with a protocol number we speak
        (:data:`~mariage.conformance.protocol.SUPPORTED_VERSIONS`: an engine of
        version 1 is driven as before) and an object ``rulesets`` (ruleset name ->
        object).
        """
        timeout = self.timeout
        self.timeout = max(timeout, self.start_timeout)
        try:
            reply = self.request({"type": "hello", "protocol": PROTOCOL_VERSION})
        except EngineFailure as exc:
            raise HandshakeError(f"no answer to 'hello' ({exc.kind}: {exc.message})") from None
        finally:
            self.timeout = timeout
        if reply.get("type") != "hello":
            raise HandshakeError(f"'hello' was answered with a {reply.get('type')!r} message "
                                 "(the first line an engine writes must be its answer to "
                                 f"'hello'): {encode(reply)[:120]}")
        version = reply.get("protocol")  # a whole number: not true, nor 2.0
        if version not in SUPPORTED_VERSIONS or not isinstance(version, int) \
                or isinstance(version, bool):
            raise HandshakeError(f"the engine speaks protocol {json.dumps(version)}, "
                                 f"this runner speaks protocols "
                                 f"{' and '.join(map(str, SUPPORTED_VERSIONS))}")
        sets = reply.get("rulesets")
        if not isinstance(sets, dict) or not all(isinstance(v, dict) for v in sets.values()):
            raise HandshakeError("the 'hello' answer has no 'rulesets' object (ruleset name -> "
                                 f"object): {encode(reply)[:120]}")
        why = check_configurations(reply.get("configurations", []))
        if why:
            raise HandshakeError(f"the 'hello' answer's configurations are malformed: {why}")
        why = check_hello(reply)
        if why:
            raise HandshakeError(f"the 'hello' answer is malformed: {why}")
        self.info = reply
        return reply

    def restart(self) -> None:
        """Stop the engine after a failure; the next request starts a fresh one (and must
        say hello)."""
        self.restarts += 1
        self.renew()

    def renew(self) -> None:
        """Stop the engine (not a failure: not counted in :attr:`restarts`); the next
        request starts a fresh one, which must say hello."""
        self.info = None
        self.close()

    def close(self) -> None:
        """Ask the engine to quit, then stop it."""
        t = self._transport
        self._transport = None
        if t is None:
            return
        try:
            with contextlib.suppress(EngineFailure):
                t.send(encode({"type": "quit"}), timeout=0.5)
        finally:
            t.close()
