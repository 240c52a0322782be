"""A movie-rpc process on raw pipes, with a strict reader of what it writes.

Reading is a thread doing blocking reads on stdout and handing every parsed frame to a queue; waiting is
``queue.get(timeout=...)``. The reader is strict: stdout must be nothing but frames of the input's framing
(``Content-Length: N\\r\\n\\r\\n`` + N bytes, or one JSON text per ``\\n``-terminated line), each a JSON-RPC
2.0 response or a non-empty array of them. Anything else is queued as a :class:`ProtocolViolation`,
which fails the case that reads it.
"""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional

REPO_ROOT = Path(__file__).resolve().parents[2]
FRAMINGS = ("newline", "content-length")
HEADER = re.compile(rb"Content-Length: (0|[1-9][0-9]*)\r\n\r\n")


def binary_path() -> Path:
    configured = os.environ.get("MOVIE_RPC_BIN")
    return Path(configured) if configured else REPO_ROOT / ".build" / "release" / "movie-rpc"


def frame(body: bytes, framing: str) -> bytes:
    """``body`` framed as the client sends it (newline: the caller keeps ``\\n`` out of the body)."""
    if framing == "newline":
        return body + b"\n"
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def encode(value: Any) -> bytes:
    """Compact UTF-8 JSON (non-ASCII as is; lone surrogates, which UTF-8 cannot carry, as escapes)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, ensure_ascii=True, separators=(",", ":"), allow_nan=False).encode("ascii")


class ProtocolViolation(AssertionError):
    """The server wrote something that is not a valid frame of a valid response."""


@dataclass
class Reply:
    message: Any  # the parsed body: a response object or a batch (list)
    raw: bytes
    at: float  # time.monotonic() when it was parsed


def response_shape_problems(item: Any) -> List[str]:
    """The JSON-RPC 2.0 response rules (members, version, id type); error details are the contract's."""
    if not isinstance(item, dict):
        return ["response is not an object: %.200r" % (item,)]
    problems = []
    if item.get("jsonrpc") != "2.0":
        problems.append('"jsonrpc" is not "2.0"')
    if "id" not in item:
        problems.append("no id")
    elif item["id"] is not None and (isinstance(item["id"], bool) or not isinstance(item["id"], (int, str))):
        problems.append("id is neither null, an integer nor a string: %r" % (item["id"],))
    keys = set(item)
    if keys != {"jsonrpc", "id", "result"} and keys != {"jsonrpc", "id", "error"}:
        problems.append("members must be jsonrpc, id and exactly one of result/error: %s" % sorted(keys))
    return problems


class OutputParser:
    """Splits the server's stdout into frames, strictly."""

    def __init__(self, framing: str) -> None:
        self.framing = framing
        self.buffer = bytearray()

    def feed(self, data: bytes) -> List[bytes]:
        self.buffer += data
        bodies: List[bytes] = []
        while True:
            if self.framing == "newline":
                end = self.buffer.find(b"\n")
                if end < 0:
                    return bodies
                body = bytes(self.buffer[:end])
                del self.buffer[:end + 1]
                if not body or body.endswith(b"\r"):
                    raise ProtocolViolation("empty line or CR in newline output: %r" % body[:200])
                bodies.append(body)
            else:
                if not self.buffer:
                    return bodies
                end = self.buffer.find(b"\r\n\r\n")
                if end < 0:
                    if len(self.buffer) > 64:
                        raise ProtocolViolation("not a Content-Length header: %r" % bytes(self.buffer[:80]))
                    return bodies
                match = HEADER.match(self.buffer)
                if match is None or match.end() != end + 4:
                    raise ProtocolViolation("not a Content-Length header: %r" % bytes(self.buffer[:80]))
                length = int(match.group(1))
                if len(self.buffer) < match.end() + length:
                    return bodies
                bodies.append(bytes(self.buffer[match.end():match.end() + length]))
                del self.buffer[:match.end() + length]


def is_notification(message: Any) -> bool:
    """A notification from the server (``$/progress`` while catalog.sync runs): never a reply."""
    return (isinstance(message, dict) and "id" not in message and isinstance(message.get("method"), str)
            and set(message) <= {"jsonrpc", "method", "params"})


def notification_problems(message: Dict[str, Any]) -> List[str]:
    problems = []
    if message.get("jsonrpc") != "2.0":
        problems.append('"jsonrpc" is not "2.0"')
    if "params" in message and not isinstance(message["params"], (dict, list)):
        problems.append("params is neither an object nor an array")
    if message["method"] == "$/progress":
        params = message.get("params")
        if not (isinstance(params, dict) and isinstance(params.get("token"), (int, str)) and "value" in params):
            problems.append("$/progress params must be {token, value}")
    return problems


def parse_body(body: bytes) -> Any:
    try:
        message = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise ProtocolViolation("reply is not UTF-8 JSON (%s): %r" % (error, body[:300]))
    if is_notification(message):
        problems = notification_problems(message)
        if problems:
            raise ProtocolViolation("; ".join(problems) + ": %.300r" % body)
        return message
    items = message if isinstance(message, list) else [message]
    if isinstance(message, list) and not message:
        raise ProtocolViolation("empty batch reply []")
    for item in items:
        problems = response_shape_problems(item)
        if problems:
            raise ProtocolViolation("; ".join(problems) + ": %.300r" % body)
    return message


class ServerProcess:
    """One movie-rpc process. ``framing`` is what the client speaks (and expects back)."""

    def __init__(self, framing: str, env: Optional[Mapping[str, Optional[str]]] = None,
                 home: Optional[str] = None) -> None:
        self.framing = framing
        self._own_home = None
        if home is None:
            self._own_home = tempfile.TemporaryDirectory(prefix="movie-rpc-fuzz-")
            home = self._own_home.name
        environment = {name: value for name, value in os.environ.items()
                       if not name.startswith(("TMDB_", "MOVIE_RPC_", "FIREBASE_")) and name != "XDG_DATA_HOME"}
        environment["MOVIE_RPC_HOME"] = home
        environment["MOVIE_RPC_PASSWORD_ITERATIONS"] = "1000"  # hashing at the default takes ~0.2 s
        environment["MOVIE_RPC_LOG_LEVEL"] = "error"
        for name, value in (env or {}).items():
            if value is None:
                environment.pop(name, None)
            else:
                environment[name] = value
        self.env = environment
        self.proc = subprocess.Popen([str(binary_path())], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=environment, bufsize=0)
        self.messages: "queue.Queue[Any]" = queue.Queue()
        self.stdout_bytes = 0
        self.notifications = 0  # server-to-client notifications seen ($/progress)
        self._stderr = bytearray()
        self._parser = OutputParser(framing)
        self._reader = threading.Thread(target=self._read_stdout, daemon=True)
        self._reader.start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()
        self.stdin_closed = False

    # -- reader threads

    def _read_stdout(self) -> None:
        fd = self.proc.stdout.fileno()
        broken = False
        while True:
            try:
                chunk = os.read(fd, 1 << 16)
            except OSError:
                break
            if not chunk:
                break
            self.stdout_bytes += len(chunk)
            if broken:
                continue
            try:
                bodies = self._parser.feed(chunk)
                for body in bodies:
                    message = parse_body(body)
                    if is_notification(message):
                        self.notifications += 1
                    else:
                        self.messages.put(Reply(message, body, time.monotonic()))
            except ProtocolViolation as violation:
                self.messages.put(violation)
                broken = True
        if not broken and self._parser.buffer:
            self.messages.put(ProtocolViolation("stdout ends inside a frame: %r" % bytes(self._parser.buffer[-200:])))
        self.messages.put(EOFError("server closed stdout"))

    def _read_stderr(self) -> None:
        for line in iter(self.proc.stderr.readline, b""):
            self._stderr += line
            if len(self._stderr) > 1 << 20:
                del self._stderr[:len(self._stderr) - (1 << 19)]

    def stderr_tail(self, size: int = 3000) -> str:
        return self._stderr[-size:].decode("utf-8", "replace")

    # -- I/O

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def write(self, data: bytes) -> None:
        fd = self.proc.stdin.fileno()
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(fd, view):]
        except BrokenPipeError:
            raise AssertionError("server closed stdin (exit %s); stderr:\n%s" % (self.proc.poll(), self.stderr_tail()))

    def next(self, timeout: float) -> Reply:
        """The next reply, or AssertionError after ``timeout`` seconds, at end of output or on a violation."""
        try:
            item = self.messages.get(timeout=max(0.0, timeout))
        except queue.Empty:
            raise TimeoutError("no reply within %.1f s" % timeout)
        if isinstance(item, EOFError):
            self.messages.put(item)
            time.sleep(0.05)
            raise AssertionError("server closed stdout (exit status %s, i.e. it crashed or exited); stderr:\n%s"
                                 % (self.proc.poll(), self.stderr_tail()))
        if isinstance(item, BaseException):
            raise item
        return item

    def close_stdin(self) -> None:
        if not self.stdin_closed:
            self.stdin_closed = True
            try:
                self.proc.stdin.close()
            except BrokenPipeError:
                pass

    def finish(self, timeout: float = 10.0) -> List[Any]:
        """End of input: the server must exit 0 within ``timeout`` s. Returns the replies nobody read."""
        self.close_stdin()
        try:
            status = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError("server did not exit within %.0f s of end of input" % timeout)
        self._reader.join(timeout)
        self._stderr_reader.join(timeout)
        leftovers = []
        while True:
            item = self.messages.get_nowait()
            if isinstance(item, EOFError):
                break
            if isinstance(item, BaseException):
                raise item
            leftovers.append(item.message)
        if status != 0:
            raise AssertionError("exit status %s at end of input; stderr:\n%s" % (status, self.stderr_tail()))
        return leftovers

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except (OSError, ValueError):
                pass
        if self._own_home is not None:
            self._own_home.cleanup()
            self._own_home = None
