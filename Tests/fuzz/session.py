"""Running fuzz cases against one long-lived server and checking the properties.

A *case* is a list of frames written back to back (pipelined), each with the replies it must cause
(:mod:`oracle`). After the case's frames comes sentinel A (a ``server.info`` request with a unique id):

1. Replies are read until A's reply and as many replies as the case requires have arrived, each within
   ``DEADLINE`` seconds of the last write (no hang).
2. Replies and expectations must pair up exactly: every request one reply with its id, no reply for a
   notification, every batch one array, nothing else (matching is by content, since replies to
   concurrent requests may come in any order).
3. Sentinel B is then sent, and its reply must be the very next message. This is the "server still
   answers server.info" property and also the proof of "none": a reply the server should not have sent
   (say, to a notification) would have to come before B's.
4. Every byte of stdout is checked as it arrives (:mod:`wire`): frames only, JSON-RPC responses only, every
   error with a documented code and ``data.kind``, never -32603.

After a failed case the server is killed and the next case starts a fresh one, so one failure cannot
make later cases fail; a server that died during a case is a failure of that case.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

from contract import Contract
from oracle import Expect, Oracle, match
from wire import ProtocolViolation, ServerProcess, encode, frame

DEADLINE = float(os.environ.get("MOVIE_RPC_FUZZ_DEADLINE", "2.0"))
STARTUP_DEADLINE = 10.0


class Stats:
    """Counters for the whole test session (printed at the end; JSON for the long-mode report)."""

    lock = threading.Lock()
    frames = 0  # fuzz frames written (each one framed message, or one chunk of raw stream bytes)
    control_frames = 0  # sentinels and handshakes
    bytes_written = 0
    replies = 0
    cases = 0
    property_checks = 0
    failures = 0
    restarts = 0

    @classmethod
    def add(cls, **counts: int) -> None:
        with cls.lock:
            for name, value in counts.items():
                setattr(cls, name, getattr(cls, name) + value)

    @classmethod
    def as_dict(cls) -> Dict[str, int]:
        return {name: getattr(cls, name) for name in
                ("frames", "control_frames", "bytes_written", "replies", "cases", "property_checks", "failures",
                 "restarts")}


@dataclass
class CaseFrame:
    data: bytes  # exactly what is written
    expects: List[Expect] = field(default_factory=list)
    label: str = ""


class CaseFailure(AssertionError):
    pass


_contract: Optional[Contract] = None


def contract() -> Contract:
    global _contract
    if _contract is None:
        _contract = Contract()
    return _contract


class Session:
    """One long-lived server in one framing, restarted only after a failure."""

    def __init__(self, framing: str, env: Optional[Dict[str, Optional[str]]] = None, name: str = "") -> None:
        self.framing = framing
        self.env = dict(env or {})
        self.name = name or framing
        self.contract = contract()
        max_size = int(self.env.get("MOVIE_RPC_MAX_MESSAGE_SIZE") or 16 * 1024 * 1024)
        self.oracle = Oracle(self.contract, framing, max_size)
        self.server: Optional[ServerProcess] = None
        self._sentinel = 0
        self.pending_optional: List[Expect] = []
        self.starts = 0

    # -- lifecycle

    def start(self) -> None:
        self.server = ServerProcess(self.framing, self.env)
        self.starts += 1
        if self.starts > 1:
            Stats.add(restarts=1)
        self.pending_optional = []
        reply = self._sentinel_round_trip(STARTUP_DEADLINE)
        framing = reply.get("result", {}).get("framing")
        if framing != self.framing:
            raise CaseFailure("server.info says framing %r, expected %r" % (framing, self.framing))

    def ensure_started(self) -> ServerProcess:
        if self.server is None or not self.server.alive:
            if self.server is not None:
                self.server.kill()
            self.start()
        assert self.server is not None
        return self.server

    def discard(self) -> None:
        """Kills the server (after a failure); the next case starts a fresh one."""
        if self.server is not None:
            self.server.kill()
            self.server = None

    def close(self) -> None:
        """End of input: exit 0, and no reply left unread except optional ones."""
        if self.server is None:
            return
        server, self.server = self.server, None
        try:
            leftovers = server.finish()
            unexpected = [m for m in leftovers if not any(e.problem(m) is None for e in self.pending_optional)]
            if unexpected:
                raise CaseFailure("replies nobody asked for, found at end of input: %s" % _dump(unexpected))
        finally:
            server.kill()

    # -- sentinels

    def next_sentinel_id(self) -> str:
        self._sentinel += 1
        return "\u2063sentinel-%d" % self._sentinel

    def sentinel_frame(self, request_id: str) -> bytes:
        Stats.add(control_frames=1)
        return frame(encode({"jsonrpc": "2.0", "id": request_id, "method": "server.info"}), self.framing)

    def _sentinel_round_trip(self, timeout: float) -> Dict[str, Any]:
        server = self.server
        assert server is not None
        sentinel = self.next_sentinel_id()
        server.write(self.sentinel_frame(sentinel))
        reply = server.next(timeout)
        if not isinstance(reply.message, dict) or reply.message.get("id") != sentinel:
            raise CaseFailure("expected the sentinel's reply first, got %s" % _dump([reply.message]))
        return reply.message

    # -- cases

    def run(self, frames: Sequence[CaseFrame], chunking: Optional[random.Random] = None,
            deadline: float = DEADLINE) -> List[Any]:
        """Runs one case; raises CaseFailure with a reproduction when a property does not hold."""
        server = self.ensure_started()
        Stats.add(cases=1, frames=len(frames), bytes_written=sum(len(f.data) for f in frames))
        sentinel_a = self.next_sentinel_id()
        data = b"".join(f.data for f in frames) + self.sentinel_frame(sentinel_a)
        required = [e for f in frames for e in f.expects if not e.optional and not e.many]
        optional = [e for f in frames for e in f.expects if e.optional and not e.many] + self.pending_optional
        replies: List[Any] = []
        try:
            self._write(server, data, chunking)
            last_write = time.monotonic()
            got_a = False
            many = [e for f in frames for e in f.expects if e.many]
            fits: Dict[Any, bool] = {}  # (expectation, reply) pairs already checked, for the repeated matching
            while not (got_a and len(replies) >= len(required)
                       and not match(self._absorb(replies, many, required), required, fits)[0]):
                try:
                    reply = server.next(last_write + deadline - time.monotonic())
                except TimeoutError:
                    unmatched, extra = match(self._absorb(replies, many, required), required + optional, fits)
                    if got_a and extra:
                        raise CaseFailure("replies do not match the requests:\n%s" % _explain(unmatched, extra))
                    raise CaseFailure("hang: no reply within %.1f s; still waiting for %s%s" % (
                        deadline, [e.what for e in unmatched] or ["nothing"],
                        "" if got_a else " and the sentinel after the case"))
                Stats.add(replies=1)
                if isinstance(reply.message, dict) and reply.message.get("id") == sentinel_a:
                    self._check_sentinel(reply.message)
                    got_a = True
                else:
                    replies.append(reply.message)
            unmatched, extra = match(self._absorb(replies, many, required), required + optional, fits)
            Stats.add(property_checks=3)  # replies well-formed; within the deadline; paired with requests
            if unmatched or extra:
                raise CaseFailure("replies do not match the requests:\n%s" % _explain(unmatched, extra))
            # Liveness, and proof that nothing more is coming: B's reply is the very next message.
            self.pending_optional = (self.pending_optional + [e for f in frames for e in f.expects
                                                              if e.optional])[-50:]
            sentinel_b = self.next_sentinel_id()
            server.write(self.sentinel_frame(sentinel_b))
            sent_b = time.monotonic()
            while True:
                try:
                    reply = server.next(sent_b + deadline - time.monotonic())
                except TimeoutError:
                    raise CaseFailure("server.info after the case got no reply within %.1f s" % deadline)
                Stats.add(replies=1)
                if isinstance(reply.message, dict) and reply.message.get("id") == sentinel_b:
                    self._check_sentinel(reply.message)
                    break
                if not any(e.problem(reply.message) is None for e in self.pending_optional):
                    raise CaseFailure("a reply nobody asked for came after the case's replies: %s"
                                      % _dump([reply.message]))
            Stats.add(property_checks=2)  # nothing unexpected afterwards; still alive
            self.oracle.new_case()
            return replies
        except (CaseFailure, ProtocolViolation, AssertionError) as failure:
            self.oracle.new_case()
            Stats.add(failures=1)
            alive = server.alive
            stderr = server.stderr_tail(1500)
            self.discard()
            raise CaseFailure("%s\n%s\nframing: %s; server %s\nwritten (%d bytes): %s\nreplies: %s\nstderr tail:\n%s"
                              % (type(failure).__name__, failure, self.framing,
                                 "still running" if alive else "DIED (exit %s)" % server.proc.returncode,
                                 len(data), _bytes(data), _dump(replies), stderr)) from None

    @staticmethod
    def _absorb(replies: List[Any], many: List[Expect], required: List[Expect]) -> List[Any]:
        """Replies left once junk errors (``many`` expectations) are taken out, unless a required
        expectation could use them."""
        if not many:
            return replies
        return [r for r in replies if not any(e.problem(r) is None for e in many)
                or any(e.problem(r) is None for e in required)]

    def _write(self, server: ServerProcess, data: bytes, chunking: Optional[random.Random]) -> None:
        if chunking is None or len(data) < 2:
            server.write(data)
            return
        cuts = sorted(chunking.sample(range(1, len(data)), min(len(data) - 1, chunking.randint(1, 8))))
        start = 0
        for cut in cuts + [len(data)]:
            server.write(data[start:cut])
            start = cut

    def _check_sentinel(self, message: Dict[str, Any]) -> None:
        result = message.get("result")
        if not isinstance(result, dict) or result.get("framing") != self.framing:
            raise CaseFailure("server.info answered badly: %s" % _dump([message]))

    # -- helpers for tests

    def body_frame(self, body: bytes, label: str = "", cancelled=()) -> CaseFrame:
        """A body framed in this session's framing, with the oracle's expectations."""
        return CaseFrame(frame(body, self.framing), self.oracle.expect(body, cancelled), label)

    def raw_frames(self, body: bytes, label: str = "") -> List[CaseFrame]:
        """Any bytes as message bodies: in newline framing each line of ``body`` is a message of its own."""
        if self.framing == "newline":
            return [self.body_frame(line, label) for line in body.split(b"\n")]
        return [self.body_frame(body, label)]


def _explain(unmatched: List[Expect], extra: List[Any]) -> str:
    """Which expectations went unpaired, which replies nobody expected, and why each reply was refused."""
    lines = ["  missing: %s" % [e.what for e in unmatched], "  unexpected: %s" % _dump(extra)]
    for expect in unmatched:
        for message in extra:
            lines.append("  %s vs %s: %s" % (expect.what, _dump([message], 200), expect.problem(message)))
    return "\n".join(lines)


def _dump(messages: List[Any], size: int = 1500) -> str:
    text = json.dumps(messages, ensure_ascii=True)
    return text if len(text) <= size else text[:size] + "...(%d chars)" % len(text)


def _bytes(data: bytes, size: int = 2000) -> str:
    text = repr(data)
    return text if len(text) <= size else text[:size] + "...(%d bytes)" % len(data)
