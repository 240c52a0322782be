"""Framing of JSON-RPC messages on a byte stream.

Two framings, the same ones the server speaks (it detects which from the first bytes):

* ``"newline"``: one JSON text per line (``\\n``, optional ``\\r`` before it);
* ``"content-length"``: LSP base protocol, ``Content-Length: N\\r\\n`` (other headers allowed and
  ignored), a blank line, then N bytes of UTF-8 body.

The decoders are pure parsers fed arbitrary chunks of bytes: they never block and never read a stream
themselves, so the same code serves the client's reader thread and byte-level tests.
"""

from __future__ import annotations

import json
from typing import Any, List, Union

__all__ = [
    "FRAMINGS",
    "FramingError",
    "NewlineDecoder",
    "ContentLengthDecoder",
    "make_decoder",
    "encode_frame",
    "encode_message",
]

FRAMINGS = ("newline", "content-length")


class FramingError(ValueError):
    """The byte stream cannot be split into messages (a broken header block)."""


class NewlineDecoder:
    """Splits newline-delimited JSON. Blank lines are skipped."""

    name = "newline"

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> List[bytes]:
        """Adds bytes; returns every complete message body they finish."""
        self._buffer += data
        bodies: List[bytes] = []
        while True:
            newline = self._buffer.find(b"\n")
            if newline < 0:
                return bodies
            line = bytes(self._buffer[:newline])
            del self._buffer[: newline + 1]
            if line.endswith(b"\r"):
                line = line[:-1]
            if line.strip():
                bodies.append(line)

    def finish(self) -> List[bytes]:
        """At end of stream: a last line without its newline still counts."""
        rest = bytes(self._buffer)
        self._buffer.clear()
        return [rest.rstrip(b"\r")] if rest.strip() else []

    @property
    def pending(self) -> int:
        """Bytes held that do not form a complete message yet."""
        return len(self._buffer)


class ContentLengthDecoder:
    """Splits LSP base-protocol frames. Raises :class:`FramingError` on a header block without a
    usable ``Content-Length`` (a peer that sends one is broken; there is no resynchronising)."""

    name = "content-length"
    max_header_size = 8 * 1024

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._body_length: int | None = None

    def feed(self, data: bytes) -> List[bytes]:
        self._buffer += data
        bodies: List[bytes] = []
        while True:
            if self._body_length is None:
                # Blank lines between messages are tolerated, as the server tolerates them.
                while bytes(self._buffer[:1]) in (b"\r", b"\n"):
                    del self._buffer[:1]
                end = self._buffer.find(b"\r\n\r\n")
                if end < 0:
                    if len(self._buffer) > self.max_header_size:
                        raise FramingError("header block exceeds %d bytes" % self.max_header_size)
                    return bodies
                header = bytes(self._buffer[:end])
                del self._buffer[: end + 4]
                self._body_length = self.parse_header(header)
            if len(self._buffer) < self._body_length:
                return bodies
            bodies.append(bytes(self._buffer[: self._body_length]))
            del self._buffer[: self._body_length]
            self._body_length = None

    def finish(self) -> List[bytes]:
        return []

    @property
    def pending(self) -> int:
        return len(self._buffer) + (1 if self._body_length is not None else 0)

    @staticmethod
    def parse_header(header: bytes) -> int:
        """The ``Content-Length`` of one header block (without its terminating blank line)."""
        try:
            text = header.decode("ascii")
        except UnicodeDecodeError:
            raise FramingError("header is not ASCII: %r" % header[:80]) from None
        length = None
        for line in text.split("\r\n"):
            if not line:
                continue
            name, colon, value = line.partition(":")
            if not colon:
                raise FramingError("malformed header line: %r" % line[:80])
            if name.strip().lower() == "content-length":
                value = value.strip()
                if not value.isdigit():
                    raise FramingError("Content-Length is not a non-negative integer: %r" % value)
                length = int(value)
        if length is None:
            raise FramingError("missing Content-Length header in %r" % text[:80])
        return length


def make_decoder(framing: str) -> "Union[NewlineDecoder, ContentLengthDecoder]":
    """A fresh decoder for ``framing`` (``"newline"`` or ``"content-length"``)."""
    if framing == "newline":
        return NewlineDecoder()
    if framing == "content-length":
        return ContentLengthDecoder()
    raise ValueError("unknown framing %r; expected one of %s" % (framing, ", ".join(FRAMINGS)))


def encode_frame(body: bytes, framing: str) -> bytes:
    """Frames one message body (already-encoded JSON bytes)."""
    if framing == "newline":
        if b"\n" in body:
            raise ValueError("a newline-framed message must not contain a raw newline")
        return body + b"\n"
    if framing == "content-length":
        return b"Content-Length: %d\r\n\r\n" % len(body) + body
    raise ValueError("unknown framing %r; expected one of %s" % (framing, ", ".join(FRAMINGS)))


def encode_message(message: Any, framing: str) -> bytes:
    """Encodes a JSON value compactly as UTF-8 and frames it."""
    body = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return encode_frame(body, framing)
