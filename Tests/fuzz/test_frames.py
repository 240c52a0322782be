"""Byte-level fuzzing of message bodies whose framing stays intact: mutated requests (truncation, NUL bytes,
invalid UTF-8, byte flips, BOMs, bad escapes), random bytes, deep nesting, whitespace-only bodies. In
newline framing a body's own newlines split it into several messages, which the oracle expects as such.
One long-lived server per framing."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import scaled
from session import contract
from strategies import (INVALID_UTF8, deep_values, envelopes, is_exit_notification, json_values, junk_bytes,
                        mutated_bodies)
from wire import encode

CONTRACT = contract()
bases = st.one_of(envelopes(CONTRACT, valid_bias=0.8), json_values,
                  st.lists(envelopes(CONTRACT, valid_bias=0.8), min_size=1, max_size=3)) \
    .filter(lambda value: not is_exit_notification(value))


def exit_free(body: bytes) -> bool:
    """Mutations can turn a method name into "exit"; a body that mentions it is not sent as a notification."""
    return b"exit" not in body.lower()


@given(data=st.data())
def test_mutated_requests(session, data):
    base = encode(data.draw(bases, label="base"))
    body = data.draw(mutated_bodies(base).filter(exit_free), label="mutated body")
    session.run(session.raw_frames(body))


@given(bodies=st.lists(junk_bytes().filter(exit_free), min_size=1, max_size=5))
@settings(max_examples=scaled(0.5))
def test_random_bytes(session, bodies):
    frames = [frame for body in bodies for frame in session.raw_frames(body)]
    session.run(frames)


@given(value=deep_values, wrap=st.sampled_from(["plain", "params", "batch", "id"]))
@settings(max_examples=scaled(0.5))
def test_deep_nesting(session, value, wrap):
    # Valid JSON nested from 1 to 200 levels: -32700 beyond 64, an ordinary answer within.
    if wrap == "params":
        value = {"jsonrpc": "2.0", "id": 1, "method": "auth.validate", "params": {"profile": value}}
    elif wrap == "batch":
        value = [{"jsonrpc": "2.0", "id": 2, "method": "server.info", "params": value}]
    elif wrap == "id":
        value = {"jsonrpc": "2.0", "id": value, "method": "server.info"}
    session.run(session.raw_frames(encode(value)))


@given(opening=st.sampled_from([b"[", b"{\"a\":", b"[{\"a\":"]), count=st.integers(60, 5000),
       closed=st.booleans())
@settings(max_examples=scaled(0.25))
def test_deep_brackets_balanced_or_not(session, opening, count, closed):
    closing = {b"[": b"]", b"{\"a\":": b"}", b"[{\"a\":": b"}]"}[opening]
    body = opening * count + b"1" + (closing * count if closed else b"")
    session.run(session.raw_frames(body))


@given(base=bases, noise=st.lists(st.sampled_from([b"\x00", b"\x00\x00\x00"] + INVALID_UTF8), min_size=1, max_size=4),
       where=st.sampled_from(["start", "end", "inside string", "between members"]))
@settings(max_examples=scaled(0.5))
def test_nul_bytes_and_invalid_utf8(session, base, noise, where):
    body = encode(base)
    junk = b"".join(noise)
    if where == "start":
        body = junk + body
    elif where == "end":
        body = body + junk
    elif where == "inside string" and b'"' in body:
        index = body.index(b'"') + 1
        body = body[:index] + junk + body[index:]
    else:
        index = body.find(b",")
        body = body[:index + 1] + junk + body[index + 1:] if index >= 0 else junk + body
    session.run(session.raw_frames(body))


@given(body=st.lists(st.sampled_from([b" ", b"\t", b"\r", b"\r\n", b"\n"]), max_size=12).map(b"".join))
@settings(max_examples=scaled(0.25))
def test_whitespace_only_bodies(session, body):
    # Newline framing skips blank lines; in Content-Length framing an empty body is -32700.
    session.run(session.raw_frames(body))
