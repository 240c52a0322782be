"""The client's framing decoders, fed bytes split at every position (no server needed)."""

from __future__ import annotations

import pytest

from movie_rpc.framing import (ContentLengthDecoder, FramingError, NewlineDecoder, encode_frame,
                               encode_message, make_decoder)

BODIES = [b'{"jsonrpc":"2.0","id":1,"result":null}', '{"a":"é😀"}'.encode(), b"[1,2,3]"]


@pytest.mark.parametrize("framing", ["newline", "content-length"])
def test_split_at_every_byte(framing):
    stream = b"".join(encode_frame(body, framing) for body in BODIES)
    for cut in range(len(stream) + 1):
        decoder = make_decoder(framing)
        bodies = decoder.feed(stream[:cut]) + decoder.feed(stream[cut:])
        assert bodies == BODIES, cut
        assert decoder.pending == 0


@pytest.mark.parametrize("framing", ["newline", "content-length"])
def test_byte_by_byte(framing):
    stream = b"".join(encode_frame(body, framing) for body in BODIES)
    decoder = make_decoder(framing)
    bodies = []
    for index in range(len(stream)):
        bodies += decoder.feed(stream[index:index + 1])
    assert bodies == BODIES


def test_newline_details():
    decoder = NewlineDecoder()
    assert decoder.feed(b'{"a":1}\r\n\n  \n{"b":2}') == [b'{"a":1}']
    assert decoder.finish() == [b'{"b":2}']
    with pytest.raises(ValueError):
        encode_frame(b"a\nb", "newline")


def test_content_length_details():
    decoder = ContentLengthDecoder()
    body = '{"t":"é"}'.encode()
    frame = b"Content-Type: application/json\r\ncontent-length: %d\r\n\r\n" % len(body) + body
    assert decoder.feed(b"\r\n" + frame) == [body]
    assert encode_message({"t": "é"}, "content-length") == b"Content-Length: %d\r\n\r\n" % len(body) + body


@pytest.mark.parametrize("header", [b"X: 1\r\n\r\n", b"Content-Length: -1\r\n\r\n", b"nonsense\r\n\r\n",
                                    b"Content-Length: 1e3\r\n\r\n"])
def test_content_length_rejects_broken_headers(header):
    with pytest.raises(FramingError):
        ContentLengthDecoder().feed(header)


def test_unknown_framing():
    with pytest.raises(ValueError):
        make_decoder("xml")
