"""Framing corruption: broken and unusual Content-Length header blocks, wrong lengths, junk between frames,
huge declared lengths, and whole random streams.

Broken framing can swallow what follows (a Content-Length larger than what follows waits for more bytes),
so each property keeps the stream in sync by construction or uses a fresh server:

* wrong lengths on the long-lived server: the declared number of bytes is always sent (the body truncated
  to it, or padded with spaces or junk up to it), so the next header starts where the server expects it;
* junk between frames on the long-lived server: junk that never spells ``content-length`` (the name the
  server resynchronises on) followed by two requests: the second must be answered, the first may be lost
  inside the junk's broken header block, and the junk may cause any number of id-null -32700/-32600;
* random streams (any mix of frames, junk, broken headers, huge lengths, cut at random points): a fresh
  server per example, then end of input: exit 0, only valid frames, every id answered at most once, no
  -32603;
* huge declared lengths (beyond 16 MiB, up to 2^63-1 and 30 digits): a fresh server each, answered
  -32600 at once though the body never comes.
"""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SERVER_ENV, scaled
from contract import INVALID_REQUEST, PARSE_ERROR
from oracle import Expect, expect_error, framing_error, too_large
from session import CaseFrame, Session, Stats, contract
from strategies import envelopes, is_exit_notification, junk_bytes
from wire import FRAMINGS, ServerProcess, encode, frame

CONTRACT = contract()
HEADER_NAME = b"content-length"
DEFAULT_LIMIT = 16 * 1024 * 1024


@pytest.fixture(scope="module")
def lsp():
    server = Session("content-length", env=dict(SERVER_ENV), name="stream")
    yield server
    server.close()


def spells_header_name(data: bytes) -> bool:
    """Whether the server's resynchronising search would find a header name in ``data`` (it compares
    ``byte | 0x20``, so ``\\r`` matches ``-`` and capitals match)."""
    n = len(HEADER_NAME)
    return any(all(data[i + k] | 0x20 == HEADER_NAME[k] for k in range(n)) for i in range(len(data) - n + 1))


requests = envelopes(CONTRACT, valid_bias=0.9).filter(lambda v: not is_exit_notification(v))


# -- wrong Content-Length, stream kept in sync

@given(message=requests, delta=st.integers(-40, 40) | st.integers(-4000, 4000),
       pad=st.sampled_from([b" ", b"\x00", b"}", b"\xff", b"a", b"\r\n"]))
@settings(max_examples=scaled(0.5))
def test_wrong_content_length_with_the_declared_bytes_sent(lsp, message, delta, pad):
    body = encode(message)
    declared = max(0, len(body) + delta)
    sent = body[:declared] if declared <= len(body) else body + (pad * declared)[:declared - len(body)]
    data = b"Content-Length: %d\r\n\r\n" % declared + sent
    lsp.run([CaseFrame(data, lsp.oracle.expect(sent))])


# -- header variants that are valid

@st.composite
def header_blocks(draw, length: int) -> bytes:
    name = draw(st.sampled_from([b"Content-Length", b"content-length", b"CONTENT-LENGTH", b"Content-length"]))
    value = b"%d" % length
    value = draw(st.sampled_from([value, b"0" * draw(st.integers(1, 5)) + value]))
    spacing = draw(st.sampled_from([(b" ", b""), (b"", b""), (b"   ", b"  "), (b"\t", b"\t")]))
    lines = [name + b":" + spacing[0] + value + spacing[1]]
    others = draw(st.lists(st.sampled_from([
        b"Content-Type: application/vscode-jsonrpc; charset=utf-8", b"Content-Type: application/json; charset=utf8",
        b"X-Custom: \xc3\xa9t\xc3\xa9", b"X-Empty:", b"X: a:b:c", b"Content-Type:"]), max_size=3))
    position = draw(st.integers(0, len(others)))
    lines = others[:position] + lines + others[position:]
    if draw(st.booleans()):
        # The same length twice: the last Content-Length counts; both are the same here.
        lines.append(b"Content-Length: %d" % length)
    blank = draw(st.sampled_from([b"", b"\r\n", b"\n", b"\r\n\r\n", b"\n\r\n"]))
    return blank + b"\r\n".join(lines) + b"\r\n\r\n"


@given(message=requests, data=st.data())
@settings(max_examples=scaled(0.5))
def test_header_variants(lsp, message, data):
    body = encode(message)
    lsp.run([CaseFrame(data.draw(header_blocks(len(body))) + body, lsp.oracle.expect(body))])


# -- absurd and conflicting lengths (issue #13 item 11): refused, and the next message is answered

def _without_header_name(junk: bytes) -> bytes:
    return junk if not spells_header_name(junk) else b""


@given(message=requests, junk=junk_bytes(40),
       declared=st.one_of(st.integers(4 * DEFAULT_LIMIT + 1, 2 ** 63 - 1).map(lambda n: b"%d" % n),
                          st.integers(20, 80).map(lambda n: b"9" * n),
                          st.integers(1, 9).map(lambda d: b"%d" % d + b"0" * 30)))
@settings(max_examples=scaled(0.5))
def test_an_absurd_length_is_refused_and_the_next_message_is_answered(lsp, message, junk, declared):
    # Beyond four times the limit the body is not skipped (it never comes): the server looks for the next
    # header, so what follows the header block up to it is discarded.
    body = encode(message)
    lsp.run([
        CaseFrame(b"Content-Length: " + declared + b"\r\n\r\n" + _without_header_name(junk),
                  [Expect("-32600 messageTooLarge", id=None, check=too_large)]),
        CaseFrame(frame(body, "content-length"), lsp.oracle.expect(body)),
    ])


@given(message=requests, junk=junk_bytes(40), first=st.integers(0, 300), second=st.integers(0, 300),
       between=st.lists(st.sampled_from([b"Content-Type: application/json", b"X: y"]), max_size=2))
@settings(max_examples=scaled(0.5))
def test_conflicting_lengths_are_refused_and_the_next_message_is_answered(lsp, message, junk, first, second,
                                                                          between):
    if first == second:
        second += 1
    header = b"\r\n".join([b"Content-Length: %d" % first] + between + [b"content-length: %d" % second])
    body = encode(message)
    lsp.run([
        CaseFrame(header + b"\r\n\r\n" + _without_header_name(junk),
                  [Expect("-32700 conflicting lengths", id=None, check=expect_error(PARSE_ERROR))]),
        CaseFrame(frame(body, "content-length"), lsp.oracle.expect(body)),
    ])


# -- junk between frames: the server resynchronises

@st.composite
def junk_streams(draw) -> bytes:
    pieces = draw(st.lists(st.one_of(
        junk_bytes(40),
        st.sampled_from([b"Content-Len", b"Content-Length", b"Content-Length:", b"Content-Length: 12",
                         b"Content-Length: -5\r\n\r\n", b"Content-Length: abc\r\n\r\n", b"Content-Length: 1 2\r\n\r\n",
                         b"Content-Length: +7\r\n\r\n", b"Content-Length: 0x10\r\n\r\n", b"X: y\r\n\r\n",
                         b"garbage\r\n",
                         b"\r\n\r\n", b"no colon\r\n\r\n", b"Content-Type: x\r\n\r\n{}", b"\xff\xfe: 1\r\n\r\n",
                         b"Content-Length: 99999999999999999999999999999\r\n\r\n"]),
        st.integers(8 * 1024 - 8, 8 * 1024 + 8).map(lambda n: b"x" * n)), min_size=1, max_size=5))
    return b"".join(pieces)


@given(junk=junk_streams())
@settings(max_examples=scaled(0.5))
def test_resynchronising_after_junk(lsp, junk):
    # Junk that spells the header name would declare a length of its own: that is the next property's
    # business (fresh servers); here the junk never does, so the server must find the next real header.
    junk = junk if not spells_header_name(junk) else junk.replace(b"Length", b"Lenght").replace(b"length", b"lenght")
    if spells_header_name(junk):
        return
    lost = lsp.next_sentinel_id() + "-maybe-lost"
    kept = lsp.next_sentinel_id() + "-kept"
    first_body = encode({"jsonrpc": "2.0", "id": lost, "method": "server.info"})
    second_body = encode({"jsonrpc": "2.0", "id": kept, "method": "server.info"})
    lsp.run([
        CaseFrame(junk, [Expect("junk errors", id=None, many=True, check=framing_error)]),
        CaseFrame(frame(first_body, "content-length"), [Expect("maybe lost in the junk", id=lost, optional=True,
                                                               check=lambda r: None)]),
        CaseFrame(frame(second_body, "content-length"), [Expect("the request after", id=kept, check=lambda r: None)]),
    ])


# -- random streams, fresh server each

SEGMENTS = ["frame", "frame", "frame", "junk", "broken header", "wrong length", "notification", "batch", "pause"]


@st.composite
def random_streams(draw, framing: str):
    """(chunks of bytes to write with pauses between, ids of the requests in it)."""
    # A first request fixes the framing (a stream starting "Content-" would be taken for LSP headers).
    ids, parts = ["r"], [frame(encode({"jsonrpc": "2.0", "id": "r", "method": "server.info"}), framing)]
    for index in range(draw(st.integers(1, 12))):
        kind = draw(st.sampled_from(SEGMENTS))
        request_id = "r%d" % index
        if kind in ("frame", "wrong length"):
            ids.append(request_id)
            body = encode({"jsonrpc": "2.0", "id": request_id,
                           "method": draw(st.sampled_from(["server.info", "genres.list", "auth.status", "nope"]))})
            if kind == "wrong length" and framing == "content-length":
                parts.append(b"Content-Length: %d\r\n\r\n" % max(0, len(body) + draw(st.integers(-20, 20))) + body)
            else:
                parts.append(frame(body, framing))
        elif kind == "notification":
            parts.append(frame(encode({"jsonrpc": "2.0", "method": "server.info"}), framing))
        elif kind == "batch":
            batch_ids = ["%s-%d" % (request_id, k) for k in range(draw(st.integers(1, 3)))]
            ids.extend(batch_ids)
            batch = [{"jsonrpc": "2.0", "id": i, "method": "server.info"} for i in batch_ids]
            parts.append(frame(encode(batch), framing))
        elif kind == "junk":
            parts.append(draw(junk_bytes(64)))
        elif kind == "broken header":
            parts.append(draw(st.sampled_from([b"Content-Length: x\r\n\r\n", b"Content-Len", b"Content-Length: 5",
                                               b"\r\n\r\n\r\n", b"Foo\r\n\r\n", b"Content-Length: 999999999999\r\n\r\n",
                                               b"Content-Length: 20000000\r\n\r\n", b"Content-Length: 3\r\n"])))
        else:
            parts.append(None)  # a pause: the server sees what came so far as one read
    data = b"".join(p for p in parts if p)
    if b"exit" in data.lower():
        data = data.replace(b"exit", b"tixe")
    cuts = draw(st.lists(st.integers(0, max(0, len(data))), max_size=6, unique=True))
    return data, sorted(cuts), ids


def check_stream(framing: str, data: bytes, cuts, ids) -> None:
    server = ServerProcess(framing, dict(SERVER_ENV))
    Stats.add(cases=1, frames=len(cuts) + 1, bytes_written=len(data))
    try:
        start = 0
        for cut in cuts + [len(data)]:
            server.write(data[start:cut])
            start = cut
            time.sleep(0.001)
        leftovers = server.finish(timeout=5.0)
    except AssertionError as failure:
        Stats.add(failures=1)
        raise AssertionError("%s\nframing %s, stream %r cut at %s" % (failure, framing, data[:3000], cuts)) from None
    finally:
        server.kill()
    seen = []
    problems = []
    for message in leftovers:
        for item in message if isinstance(message, list) else [message]:
            problems += CONTRACT.error_shape_problems(item["error"]) if "error" in item else []
            if item["id"] is not None:
                seen.append(item["id"])
                if item["id"] not in ids:
                    problems.append("reply to an id never sent: %r" % item["id"])
            elif "error" in item and item["error"].get("code") not in (PARSE_ERROR, INVALID_REQUEST):
                if not (item["error"].get("code") == -32602):  # a batch member with id null is fine too
                    problems.append("id-null reply that is not -32700/-32600: %r" % item)
    duplicates = {i for i in seen if seen.count(i) > 1}
    if duplicates:
        problems.append("ids answered more than once: %s" % sorted(duplicates))
    Stats.add(replies=len(leftovers), property_checks=4)
    if problems:
        Stats.add(failures=1)
        raise AssertionError("%s\nframing %s, stream %r cut at %s\nreplies: %s" % (
            "; ".join(problems), framing, data[:3000], cuts, json.dumps(leftovers)[:3000]))


@pytest.mark.parametrize("framing", FRAMINGS)
@given(data=st.data())
@settings(max_examples=scaled(0.15))
def test_random_streams_then_end_of_input(framing, data):
    stream, cuts, ids = data.draw(random_streams(framing))
    check_stream(framing, stream, cuts, ids)


# -- huge declared lengths (fresh server each, no body ever sent)

@pytest.mark.parametrize("declared", [DEFAULT_LIMIT + 1, 2 ** 31, 2 ** 63 - 1, 2 ** 63, 10 ** 30])
def test_a_huge_declared_length_is_refused_at_once(declared):
    server = ServerProcess("content-length", dict(SERVER_ENV))
    try:
        server.write(frame(encode({"jsonrpc": "2.0", "id": 1, "method": "server.info"}), "content-length"))
        assert server.next(5.0).message["id"] == 1
        server.write(b"Content-Length: %d\r\n\r\n{\"jsonrpc\":" % declared)
        reply = server.next(2.0).message
        problem = expect_error(INVALID_REQUEST)(reply) or (None if reply["id"] is None else "id not null")
        assert problem is None and reply["error"]["data"].get("kind") == "messageTooLarge", reply
        Stats.add(cases=1, frames=2, replies=2, property_checks=3)
        assert server.finish(timeout=5.0) == []  # what follows is skipped; end of input ends it cleanly
    finally:
        server.kill()


@pytest.mark.parametrize("framing", FRAMINGS)
def test_a_message_just_over_16_mib_is_skipped_whole(framing):
    session = Session(framing, env=dict(SERVER_ENV), name="16MiB")
    try:
        oversized = b'{"jsonrpc":"2.0","id":1,"method":"server.info","params":{"x":"' + b"a" * DEFAULT_LIMIT + b'"}}'
        exact = b'{"jsonrpc":"2.0","id":2,"method":"server.info"}'
        exact = exact + b" " * (DEFAULT_LIMIT - len(exact))
        session.run([session.body_frame(oversized), session.body_frame(exact)], deadline=20.0)
    finally:
        session.close()
