"""A movie-rpc process driven byte by byte: write anything to its stdin, read its framed replies with a
deadline.

Reading is a thread doing blocking reads on the pipe and putting parsed messages on a queue; waiting for a
reply is ``queue.get(timeout=...)``: no sleeping, no polling, no non-blocking file descriptors.

Every reply is checked as it is taken: an error object against the error table, a result against its
method's result schema (the method is known for requests sent with :meth:`send`; raw writes declare theirs
with :meth:`track`). :meth:`finish` closes the pipe and re-parses *all* of stdout strictly.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
from typing import Any, Dict, List, Mapping, Optional, Sequence

from movie_rpc.framing import FramingError, encode_frame, make_decoder
from openrpc_contract import OpenRpcContract

DEADLINE = 30.0  # seconds any single reply may take (loaded machines); replies normally take milliseconds


class RawServer:
    def __init__(self, argv: Sequence[str], env: Mapping[str, str], framing: str,
                 contract: OpenRpcContract) -> None:
        self.framing = framing
        self.contract = contract
        self.proc = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=dict(env), bufsize=0)
        self.stdout = bytearray()
        self._stderr = bytearray()
        self._messages: "queue.Queue[Any]" = queue.Queue()
        self._decoder = make_decoder(framing)
        self._expected: Dict[Any, str] = {}
        self.unvalidated_results: List[Any] = []
        self.replies_seen = 0
        self._next_id = 1000
        self._reader = threading.Thread(target=self._read_stdout, daemon=True)
        self._reader.start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()
        self.finished = False

    # -- reading (reader threads)

    def _read_stdout(self) -> None:
        fd = self.proc.stdout.fileno()
        broken = False
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            self.stdout += chunk
            if broken:
                continue
            try:
                bodies = self._decoder.feed(chunk)
            except FramingError as error:
                self._messages.put(AssertionError("server wrote an invalid frame: %s" % error))
                broken = True
                continue
            for body in bodies:
                try:
                    self._messages.put(json.loads(body.decode("utf-8")))
                except ValueError as error:
                    self._messages.put(AssertionError("server wrote invalid JSON (%s): %r" % (error, body)))
        self._messages.put(EOFError("server closed stdout"))

    def _read_stderr(self) -> None:
        for line in iter(self.proc.stderr.readline, b""):
            self._stderr += line

    def stderr_text(self) -> str:
        return self._stderr.decode("utf-8", "replace")

    # -- writing

    def write(self, data: bytes) -> None:
        """Writes bytes as they are."""
        fd = self.proc.stdin.fileno()
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]

    def frame(self, body: bytes) -> bytes:
        """``body`` framed in this server's framing (even if it is not JSON)."""
        return encode_frame(body, self.framing)

    def send_body(self, body: bytes) -> None:
        """Frames and writes a message body given as bytes (which need not be valid JSON)."""
        self.write(self.frame(body))

    def encode(self, message: Any) -> bytes:
        """A JSON value as one frame; request ids in it are tracked for result validation."""
        for item in message if isinstance(message, list) else [message]:
            if isinstance(item, dict) and "id" in item and isinstance(item.get("method"), str):
                self.track(item["id"], item["method"])
        return self.frame(json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))

    def send(self, message: Any) -> None:
        self.write(self.encode(message))

    def track(self, request_id: Any, method: str) -> None:
        """Declares that a result with ``request_id`` answers ``method`` (for raw writes)."""
        key = json.dumps(request_id)
        self._expected[key] = method

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    # -- replies

    def next(self, timeout: float = DEADLINE) -> Any:
        """The next message the server wrote (checked against the contract), or fails after ``timeout``."""
        try:
            message = self._messages.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("no reply within %ss; server stderr:\n%s" % (timeout, self.stderr_text()[-3000:]))
        if isinstance(message, BaseException):
            if isinstance(message, EOFError):
                self._messages.put(message)  # stays the last thing to read
                raise AssertionError("server closed stdout (exit %s) while a reply was expected; stderr:\n%s"
                                     % (self.proc.poll(), self.stderr_text()[-3000:]))
            raise message
        self._check(message)
        return message

    def _check(self, message: Any) -> None:
        items = message if isinstance(message, list) else [message]
        assert not isinstance(message, list) or items, "server sent an empty batch reply"
        for item in items:
            assert isinstance(item, dict), "reply is not an object: %r" % (item,)
            assert item.get("jsonrpc") == "2.0", item
            assert "id" in item, "reply without id: %r" % (item,)
            assert ("result" in item) != ("error" in item), "need exactly one of result/error: %r" % (item,)
            assert set(item) == {"jsonrpc", "id", "result"} or set(item) == {"jsonrpc", "id", "error"}, item
            self.replies_seen += 1
            if "error" in item:
                self.contract.assert_error(item["error"])
                continue
            method = self._expected.get(json.dumps(item["id"]))
            if method is None:
                self.unvalidated_results.append(item)
            else:
                self.contract.assert_result_matches(method, item["result"])

    def reply_to(self, request_id: Any, timeout: float = DEADLINE) -> Dict[str, Any]:
        """The next message, which must be the (single) reply to ``request_id``."""
        reply = self.next(timeout)
        assert isinstance(reply, dict), "expected the reply to %r, got a batch: %.300r" % (request_id, reply)
        assert reply["id"] == request_id and type(reply["id"]) is type(request_id), \
            "expected the reply to %r next, got %.300r" % (request_id, reply)
        return reply

    def request(self, method: str, params: Any = None, request_id: Any = None) -> Dict[str, Any]:
        """Sends one request and returns its reply, which must be the next message."""
        request_id = self.new_id() if request_id is None else request_id
        message: Dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.reply_to(request_id)

    def assert_alive(self) -> Dict[str, Any]:
        """server.info still works, and its reply is the very next message: nothing else was pending."""
        reply = self.request("server.info")
        assert "result" in reply, reply
        assert reply["result"]["framing"] == self.framing
        return reply["result"]

    def assert_error_reply(self, reply: Any, code: int, request_id: Any = None,
                           kind: Optional[str] = None) -> Dict[str, Any]:
        assert isinstance(reply, dict), "expected a single error object, got %r" % (reply,)
        assert "error" in reply, "expected an error, got %r" % (reply,)
        assert reply["id"] == request_id and type(reply["id"]) is type(request_id), reply
        self.contract.assert_error(reply["error"], code=code, kind=kind)
        return reply["error"]

    # -- ending

    def close_stdin(self) -> None:
        if not self.proc.stdin.closed:
            self.proc.stdin.close()

    def wait(self, timeout: float = DEADLINE) -> int:
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError("server did not exit within %ss" % timeout)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def finish(self, expect_status: Optional[int] = 0, timeout: float = DEADLINE) -> int:
        """Ends the session (end of input), then checks: exit status, every reply read and validated,
        and all of stdout made of valid frames of valid JSON-RPC responses."""
        if self.finished:
            return self.proc.returncode
        self.finished = True
        try:
            self.close_stdin()
            status = self.wait(timeout)
        finally:
            self.kill()
            self._reader.join(timeout)
            self._stderr_reader.join(timeout)
            self.proc.stdout.close()
            self.proc.stderr.close()
        leftovers = []
        while True:
            item = self._messages.get_nowait()  # the reader thread always ends with EOFError
            if isinstance(item, EOFError):
                break
            leftovers.append(item)
        assert not leftovers, "replies nobody read: %r" % (leftovers,)
        assert not self.unvalidated_results, "results whose method was not tracked: %r" % self.unvalidated_results
        assert_only_valid_frames(bytes(self.stdout), self.framing)
        if expect_status is not None:
            assert status == expect_status, "exit status %s; stderr:\n%s" % (status, self.stderr_text()[-3000:])
        return status


def assert_only_valid_frames(stdout: bytes, framing: str) -> List[Any]:
    """Parses all of ``stdout``: only whole frames, each a JSON-RPC 2.0 response or batch of responses."""
    decoder = make_decoder(framing)
    try:
        bodies = decoder.feed(stdout)
    except FramingError as error:
        raise AssertionError("stdout is not a sequence of %s frames: %s" % (framing, error))
    assert decoder.pending == 0, "stdout ends with a partial frame: %r" % stdout[-200:]
    messages = []
    for body in bodies:
        message = json.loads(body.decode("utf-8"))
        for item in message if isinstance(message, list) else [message]:
            assert isinstance(item, dict) and item.get("jsonrpc") == "2.0", item
            assert ("result" in item) != ("error" in item) and "id" in item, item
        if framing == "newline":
            assert b"\n" not in body
        messages.append(message)
    return messages
