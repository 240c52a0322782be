"""What is specific to one framing: LSP header blocks, newline-delimited details, framing detection."""

from __future__ import annotations

import json

import pytest


def request(method, request_id):
    return {"jsonrpc": "2.0", "method": method, "id": request_id}


# ---------------------------------------------------------------- newline


def test_newline_framing_accepts_crlf_and_a_last_line_without_newline(spawn_raw):
    raw = spawn_raw("newline")
    raw.track(1, "server.info")
    raw.track(2, "server.info")
    raw.write(b'{"jsonrpc":"2.0","method":"server.info","id":1}\r\n')
    raw.reply_to(1)
    raw.write(b'{"jsonrpc":"2.0","method":"server.info","id":2}')
    raw.close_stdin()
    raw.reply_to(2)


def test_leading_whitespace_before_the_first_message_is_skipped(spawn_raw):
    raw = spawn_raw("newline")
    raw.write(b"\n  \r\n\t")
    raw.assert_alive()


def test_two_messages_on_one_line_are_a_parse_error(spawn_raw):
    raw = spawn_raw("newline")
    raw.write(json.dumps(request("server.info", 1)).encode() + json.dumps(request("server.info", 2)).encode()
              + b"\n")
    raw.assert_error_reply(raw.next(), -32700, None, kind="parseError")
    raw.assert_alive()


# ---------------------------------------------------------------- content-length

BROKEN_HEADER_BLOCKS = {
    "no content-length": b"X-Foo: bar\r\n\r\n",
    "non-numeric length": b"Content-Length: abc\r\n\r\n",
    "negative length": b"Content-Length: -5\r\n\r\n",
    "line without colon": b"garbage line\r\n\r\n",
}


def test_a_broken_header_block_is_reported_then_the_next_message_answered(spawn_raw, subtests):
    raw = spawn_raw("content-length")
    raw.assert_alive()  # first a valid message, so the stream is in content-length framing
    for name, garbage in BROKEN_HEADER_BLOCKS.items():
        with subtests.test(name):
            request_id = raw.new_id()
            raw.write(garbage + raw.encode(request("server.info", request_id)))
            raw.assert_error_reply(raw.next(), -32700, None, kind="parseError")
            raw.reply_to(request_id)
            raw.assert_alive()


def test_garbage_headers_before_the_first_message(spawn_raw):
    raw = spawn_raw("content-length")
    raw.write(b"Hello: world\r\nfoo: bar\r\n\r\n")
    raw.assert_error_reply(raw.next(), -32700, None, kind="parseError")
    raw.assert_alive()


@pytest.mark.parametrize("garbage, answered", [
    # The stray line and the next header form one broken block: that message is lost, the one after is not.
    (b"garbage\r\n", {2}),
    # A broken block, then a body of unknown length: both messages after it are answered.
    (b"Content-Length: x\r\n\r\n{}", {1, 2}),
], ids=["stray line glued to the next header", "bad length followed by a body"])
def test_the_server_recovers_when_garbage_runs_into_the_next_header(spawn_raw, garbage, answered):
    # After a broken header block the next header comes right after the last byte of a body (bodies rarely
    # end in a newline): resynchronising must find it anywhere, not only at the start of a line.
    raw = spawn_raw("content-length")
    raw.assert_alive()
    raw.write(garbage + raw.encode(request("server.info", 1)) + raw.encode(request("server.info", 2)))
    raw.assert_error_reply(raw.next(), -32700, None, kind="parseError")
    assert {raw.next()["id"] for _ in answered} == answered
    raw.assert_alive()


def test_other_headers_and_any_header_case_are_accepted(spawn_raw):
    raw = spawn_raw("content-length")
    body = json.dumps(request("server.info", 1)).encode()
    raw.track(1, "server.info")
    raw.write(b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: %d\r\n\r\n"
              % len(body) + body)
    raw.reply_to(1)
    raw.assert_alive()


def test_replies_carry_exact_content_length_headers(spawn_raw):
    raw = spawn_raw("content-length")
    raw.request("initialize", {"clientInfo": {"name": "Amélie 🎬"}})
    output = bytes(raw.stdout)
    header, _, body = output.partition(b"\r\n\r\n")
    assert header.startswith(b"Content-Length: ")
    assert int(header.split(b":")[1]) == len(body)


@pytest.mark.parametrize("framing", ["newline", "content-length"])
def test_framing_is_detected_from_the_first_bytes(spawn_raw, framing):
    raw = spawn_raw(framing)
    assert raw.assert_alive()["framing"] == framing
