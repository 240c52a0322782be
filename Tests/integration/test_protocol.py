"""JSON-RPC 2.0 over both framings, byte for byte.

First the worked examples of the JSON-RPC 2.0 specification (section "Examples"), adapted to this
server's methods: ``server.info`` stands in for ``subtract``/``sum``/``get_data``, ``initialize`` for a
method taking named params. Then what a robust stdio server must survive. After every bad input the
server must still answer, and answer the very next request first (``raw.assert_alive()``): that is also
how "no reply at all" is proven without waiting for a timeout.
"""

from __future__ import annotations

import json

import pytest

from movie_rpc.framing import FRAMINGS

pytestmark = pytest.mark.parametrize("framing", FRAMINGS)


def request(method, request_id=None, params=None, **extra):
    message = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    if request_id is not None:
        message["id"] = request_id
    message.update(extra)
    return message


def by_id(replies):
    return {json.dumps(reply["id"]): reply for reply in replies}


# ---------------------------------------------------------------- the specification's examples


def test_spec_rpc_call_with_positional_parameters(raw):
    # spec: {"method": "subtract", "params": [42, 23], "id": 1} <- 19. Our methods take params by name
    # (paramStructure "by-name"), so positional params are invalid params, answered with the request id.
    raw.send(request("initialize", 1, [42, 23]))
    raw.assert_error_reply(raw.next(), -32602, 1, kind="invalidParams")
    raw.send(request("initialize", 2, [23, 42]))
    raw.assert_error_reply(raw.next(), -32602, 2, kind="invalidParams")
    raw.assert_alive()


@pytest.mark.parametrize("method", ["server.info", "rpc.discover", "shutdown"])
def test_positional_params_on_a_method_without_params_are_invalid(raw, method):
    raw.send(request(method, 1, [42, 23]))
    raw.assert_error_reply(raw.next(), -32602, 1, kind="invalidParams")
    raw.assert_alive()


def test_spec_rpc_call_with_named_parameters(raw):
    # spec: {"subtrahend": 23, "minuend": 42} id 3 <- 19; the same in another key order, id 4 <- 19.
    raw.send(request("initialize", 3, {"processId": 42, "rootUri": None, "capabilities": {}}))
    first = raw.reply_to(3)
    raw.send(request("initialize", 4, {"capabilities": {}, "rootUri": None, "processId": 42}))
    second = raw.reply_to(4)
    assert first["result"] == second["result"]
    assert first["result"]["serverInfo"]["name"] == "movie-rpc"


def test_spec_notifications_get_no_reply(raw):
    # spec: {"method": "update", "params": [1,2,3,4,5]} and {"method": "foobar"} <- nothing
    raw.send(request("update", params=[1, 2, 3, 4, 5]))
    raw.send(request("foobar"))
    raw.send(request("server.info"))  # a known method sent as a notification runs but is not answered
    raw.assert_alive()


def test_spec_call_of_a_non_existent_method(raw):
    raw.send(request("foobar", "1"))
    error = raw.assert_error_reply(raw.next(), -32601, "1", kind="methodNotFound")
    assert "foobar" in error["message"]
    raw.assert_alive()


def test_spec_call_with_invalid_json(raw):
    raw.send_body(b'{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]')
    raw.assert_error_reply(raw.next(), -32700, None, kind="parseError")
    raw.assert_alive()


def test_spec_call_with_invalid_request_object(raw):
    raw.send_body(b'{"jsonrpc": "2.0", "method": 1, "params": "bar"}')
    raw.assert_error_reply(raw.next(), -32600, None, kind="invalidRequest")
    raw.assert_alive()


def test_spec_batch_with_invalid_json(raw):
    raw.send_body(b'[\n  {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},\n'
                  b'  {"jsonrpc": "2.0", "method"\n]'.replace(b"\n", b" "))
    reply = raw.next()
    assert isinstance(reply, dict), "a single error object, not an array: %r" % (reply,)
    raw.assert_error_reply(reply, -32700, None, kind="parseError")
    raw.assert_alive()


def test_spec_empty_array(raw):
    raw.send_body(b"[]")
    reply = raw.next()
    assert isinstance(reply, dict), "a single error object, not an array: %r" % (reply,)
    raw.assert_error_reply(reply, -32600, None, kind="invalidRequest")
    raw.assert_alive()


def test_spec_invalid_batch(raw, subtests):
    for batch in [b"[1]", b"[1,2,3]"]:
        with subtests.test(batch=batch):
            raw.send_body(batch)
            reply = raw.next()
            assert isinstance(reply, list) and len(reply) == len(json.loads(batch)), reply
            for item in reply:
                raw.assert_error_reply(item, -32600, None, kind="invalidRequest")
            raw.assert_alive()


def test_spec_mixed_batch(raw):
    raw.send([
        request("server.info", "1", {}),
        request("notify_hello", params=[7]),
        request("rpc.discover", "2"),
        {"foo": "boo"},
        request("foo.get", "5", {"name": "myself"}),
        request("initialize", "9", {"capabilities": {}}),
    ])
    reply = raw.next()
    assert isinstance(reply, list) and len(reply) == 5, reply
    replies = by_id(item for item in reply if item["id"] is not None)
    assert set(replies) == {'"1"', '"2"', '"5"', '"9"'}
    assert replies['"1"']["result"]["name"] == "movie-rpc"
    assert replies['"2"']["result"]["openrpc"]
    raw.assert_error_reply(replies['"5"'], -32601, "5", kind="methodNotFound")
    assert "capabilities" in replies['"9"']["result"]
    invalid = [item for item in reply if item["id"] is None]
    assert len(invalid) == 1
    raw.assert_error_reply(invalid[0], -32600, None, kind="invalidRequest")
    raw.assert_alive()


def test_spec_batch_of_only_notifications_gets_nothing(raw):
    raw.send([request("notify_sum", params=[1, 2, 4]), request("notify_hello", params=[7])])
    raw.send([request("server.info"), request("rpc.discover")])
    raw.assert_alive()  # the next reply answers the next request: nothing at all came before it


# ---------------------------------------------------------------- ids and params


# Each of these runs its inputs through one server: after each input it must still answer, in order.


def test_ids_are_echoed_verbatim(raw, subtests):
    for request_id in [0, 1, -7, 2 ** 53 + 1, 2 ** 63 - 1, "", "1", "abc", "é😀 \"quoted\" \\ / \n\t", "x" * 1000]:
        with subtests.test(request_id=request_id):
            reply = raw.request("server.info", request_id=request_id)  # checks the id, value and type
            assert "result" in reply


def test_id_null_is_answered_with_id_null(raw):
    raw.send(request("server.info", None, id=None))
    raw.track(None, "server.info")
    reply = raw.next()
    assert reply["id"] is None and reply["result"]["name"] == "movie-rpc"
    raw.assert_alive()


def test_an_invalid_id_is_an_invalid_request(raw, subtests):
    for bad_id in [b"true", b"{}", b"[1]"]:
        with subtests.test(bad_id=bad_id):
            raw.send_body(b'{"jsonrpc":"2.0","method":"server.info","id":' + bad_id + b"}")
            raw.assert_error_reply(raw.next(), -32600, None, kind="invalidRequest")
            raw.assert_alive()


def test_server_info_accepts_absent_null_and_empty_params(raw, subtests):
    for request_id, params in enumerate(["absent", None, [], {}]):
        with subtests.test(params=params):
            message = request("server.info", request_id)
            if params != "absent":
                message["params"] = params
            raw.send(message)
            assert raw.reply_to(request_id)["result"]["framing"] == raw.framing


def test_an_unknown_param_is_invalid_params_naming_the_field(raw):
    raw.send(request("server.info", 1, {"verbose": True}))
    error = raw.assert_error_reply(raw.next(), -32602, 1, kind="invalidParams")
    assert error["data"]["field"] == "verbose"
    raw.assert_alive()


def test_params_of_the_wrong_type_are_an_invalid_request_with_the_id(raw):
    raw.send(request("server.info", 7, "bar"))
    raw.assert_error_reply(raw.next(), -32600, 7, kind="invalidRequest")
    raw.assert_alive()


def test_malformed_envelopes_are_invalid_requests(raw, subtests):
    for message in [{"jsonrpc": "1.0", "method": "server.info", "id": 1}, {"method": "server.info", "id": 1},
                    {"jsonrpc": "2.0", "id": 1}]:
        with subtests.test(message=message):
            raw.send(message)
            reply = raw.next()
            raw.assert_error_reply(reply, -32600, reply["id"], kind="invalidRequest")
            assert reply["id"] in (1, None)
            raw.assert_alive()


def test_json_that_is_not_an_object_or_array_is_an_invalid_request(raw, subtests):
    # First a valid message: framing is detected from the first byte, and a stream starting with a
    # letter (`null`, `true`) is taken for an LSP header.
    raw.assert_alive()
    for body in [b"null", b"42", b'"server.info"', b"true"]:
        with subtests.test(body=body):
            raw.send_body(body)
            raw.assert_error_reply(raw.next(), -32600, None, kind="invalidRequest")
            raw.assert_alive()


def test_a_response_sent_to_the_server_is_ignored(raw):
    raw.send({"jsonrpc": "2.0", "id": 99, "result": 3})
    raw.send({"jsonrpc": "2.0", "id": 98, "error": {"code": 1, "message": "x"}})
    raw.assert_alive()


def test_cancelling_an_unknown_request_is_silent(raw):
    raw.send(request("$/cancelRequest", params={"id": 12345}))
    raw.assert_alive()


def test_an_unknown_dollar_request_is_method_not_found(raw):
    raw.send(request("$/unknownThing", 3))
    raw.assert_error_reply(raw.next(), -32601, 3, kind="methodNotFound")
    raw.assert_alive()


# ---------------------------------------------------------------- bytes on the pipe


def test_messages_split_at_every_byte(raw):
    data = raw.encode(request("server.info", 1)) + raw.encode(request("rpc.discover", 2))
    for index in range(len(data)):
        raw.write(data[index:index + 1])
    replies = by_id([raw.next(), raw.next()])  # requests run concurrently: replies may come in any order
    assert replies["1"]["result"]["name"] == "movie-rpc"
    assert replies["2"]["result"]["openrpc"]


def test_messages_split_at_odd_points(raw):
    data = b"".join(raw.encode(request("server.info", i)) for i in range(1, 6))
    # Cut inside the header name, inside "\r\n\r\n", inside a string, right before and after a newline.
    cuts = sorted({3, 9, len(data) // 7, len(data) // 3, len(data) // 2 + 1, len(data) - 2,
                   data.find(b"\r\n\r\n") + 1 if b"\r\n\r\n" in data else 17,
                   data.find(b"\n") if b"\n" in data else 23, data.find(b"\n") + 1 if b"\n" in data else 29})
    start = 0
    for cut in cuts + [len(data)]:
        raw.write(data[start:cut])
        start = cut
    replies = [raw.next() for _ in range(5)]
    assert sorted(reply["id"] for reply in replies) == [1, 2, 3, 4, 5]


def test_many_messages_in_one_write(raw):
    count = 200
    raw.write(b"".join(raw.encode(request("server.info", i)) for i in range(count)))
    replies = [raw.next() for _ in range(count)]
    assert sorted(reply["id"] for reply in replies) == list(range(count))
    raw.assert_alive()


def test_a_message_of_exactly_the_size_limit_is_accepted(spawn_raw, framing):
    raw = spawn_raw(framing, env={"MOVIE_RPC_MAX_MESSAGE_SIZE": "1024"})
    head = b'{"jsonrpc":"2.0","method":"initialize","id":1,"params":{"clientInfo":{"name":"'
    tail = b'"}}}'
    body = head + b"x" * (1024 - len(head) - len(tail)) + tail
    assert len(body) == 1024
    raw.track(1, "initialize")
    raw.send_body(body)
    assert "result" in raw.reply_to(1)


def test_a_message_over_the_size_limit_is_rejected_then_the_next_answered(spawn_raw, framing):
    raw = spawn_raw(framing, env={"MOVIE_RPC_MAX_MESSAGE_SIZE": "1024"})
    raw.send(request("initialize", 1, {"clientInfo": {"name": "x" * 2000}}))
    error = raw.assert_error_reply(raw.next(), -32600, None)
    assert error["data"]["kind"] == "messageTooLarge"
    assert error["data"]["limit"] == 1024
    raw.assert_alive()
    # A huge one, larger than any pipe buffer, is skipped as it streams in.
    raw.send(request("initialize", 2, {"clientInfo": {"name": "y" * 300_000}}))
    raw.assert_error_reply(raw.next(), -32600, None)
    raw.assert_alive()


def test_invalid_utf8_is_a_parse_error(raw):
    raw.send_body(b'{"jsonrpc":"2.0","method":"server.info","id":"\xff\xfe"}')
    raw.assert_error_reply(raw.next(), -32700, None, kind="parseError")
    raw.assert_alive()


# Invalid JSON that Foundation's JSONDecoder would accept or half-accept: each is -32700 with id null, before
# any decoding (docs/RELIABILITY.md, "lenient JSON" and "BOM").
LENIENT_JSON = [
    ("trailing comma", b'{"jsonrpc":"2.0","id":1,"method":"server.info",}'),
    ("trailing comma in a batch", b'[{"jsonrpc":"2.0","id":1,"method":"server.info"},]'),
    ("doubled comma", b'{"jsonrpc":"2.0",,"id":1,"method":"server.info"}'),
    ("raw control character", b'{"jsonrpc":"2.0","id":6,"method":"server.info","x":"a\x01b"}'),
    ("lone minus", b"-"), ("leading zero", b"01"), ("no fraction digits", b"1."), ("no exponent digits", b"1e+"),
    ("leading zero in the id", b'{"jsonrpc":"2.0","id":01,"method":"server.info"}'),
    ("bad escape in params", b'{"jsonrpc":"2.0","id":5,"method":"movies.popular","params":{"language":"\\x"}}'),
    ("short unicode escape", b'{"jsonrpc":"2.0","id":5,"method":"server.info","x":"\\u12"}'),
    ("unpaired surrogate", b'{"jsonrpc":"2.0","id":5,"method":"server.info","x":"\\ud800"}'),
    ("NUL then a digit", b"\x000"),
    ("UTF-16LE request", '{"jsonrpc":"2.0","id":1,"method":"server.info"}'.encode("utf-16-le")),
    ("two values", b'{"jsonrpc":"2.0","id":1,"method":"server.info"} {}'),
    ("unquoted key", b'{jsonrpc:"2.0","id":1,"method":"server.info"}'),
    ("byte order mark", b'\xef\xbb\xbf{"jsonrpc":"2.0","id":1,"method":"server.info"}'),
]


def test_invalid_json_that_foundation_accepts_is_a_parse_error(raw, subtests):
    for name, body in LENIENT_JSON:
        with subtests.test(name):
            raw.send_body(body)
            error = raw.assert_error_reply(raw.next(), -32700, None, kind="parseError")
            assert error["message"].startswith("Parse error: invalid JSON at byte "), error
            assert "given data" not in error["message"]
            raw.assert_alive()


def test_valid_json_edge_cases_are_served(raw, subtests):
    for name, body in [("escapes and a surrogate pair", b'{"jsonrpc":"2.0","id":1,"method":"server.info",'
                        b'"x":"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83c\\udfac"}'),
                       ("whitespace everywhere", b' \t{ "jsonrpc" : "2.0" , "id" : 1 , "method" : "server.info" } \t'),
                       ("exponent id", b'{"jsonrpc":"2.0","id":1E0,"method":"server.info"}')]:
        with subtests.test(name):
            raw.track(1, "server.info")
            raw.send_body(body)
            reply = raw.next()
            assert reply.get("id") == 1 and "result" in reply, reply


def test_foundation_wording_never_reaches_the_client(raw, subtests):
    # Numbers Foundation cannot hold in the member's type are named by us, with the member.
    for name, params, field, wording in [
        ("beyond Int64", '{"genreId":9223372036854775808}', "genreId",
         "must be an integer between -9223372036854775808 and 9223372036854775807"),
        ("below Int64", '{"genreId":-9223372036854775809}', "genreId",
         "must be an integer between -9223372036854775808 and 9223372036854775807"),
        ("fraction", '{"genreId":1.5}', "genreId", "must be an integer"),
        ("beyond Double", '{"genreId":1e400}', "params", "out of range"),
    ]:
        with subtests.test(name):
            raw.send_body(('{"jsonrpc":"2.0","id":7,"method":"movies.byGenre","params":%s}' % params).encode())
            error = raw.assert_error_reply(raw.next(), -32602, 7)
            assert error["data"]["field"] == field, error
            assert wording in error["message"], error
            assert "given data" not in error["message"] and "JSON" not in error["message"], error


def test_progress_token_beyond_int64_names_the_range(raw, subtests):
    for token in ["9223372036854775808", "true"]:
        with subtests.test(token):
            raw.send_body(('{"jsonrpc":"2.0","id":8,"method":"catalog.sync","params":{"progressToken":%s}}'
                           % token).encode())
            error = raw.assert_error_reply(raw.next(), -32602, 8)
            assert error["data"]["field"] == "progressToken", error
            assert error["message"] == ('Param "progressToken" is invalid: must be an integer between '
                                        '-9223372036854775808 and 9223372036854775807, or a string'), error


def test_deep_nesting_is_rejected(raw, subtests):
    for name, body in [("100 arrays", b"[" * 100 + b"]" * 100), ("70 objects", b'{"a":' * 70 + b"1" + b"}" * 70),
                       ("100000 arrays", b"[" * 100_000 + b"]" * 100_000)]:
        with subtests.test(name):
            raw.send_body(body)
            raw.assert_error_reply(raw.next(), -32700, None, kind="parseError")
            raw.assert_alive()


def test_moderate_nesting_in_params_is_fine(raw):
    nested = {}
    for _ in range(50):
        nested = {"n": nested}
    reply = raw.request("initialize", {"capabilities": nested})
    assert "result" in reply


def test_blank_lines_between_messages_are_tolerated(raw):
    one = raw.encode(request("server.info", 1))
    two = raw.encode(request("server.info", 2))
    separator = b"\n\n" if raw.framing == "newline" else b"\r\n"
    raw.write(one + separator + two)
    assert {raw.next()["id"], raw.next()["id"]} == {1, 2}


def test_non_ascii_content_is_counted_in_bytes(raw):
    reply = raw.request("initialize", {"clientInfo": {"name": "Amélie 🎬 東京物語"}})
    assert "result" in reply


def test_a_large_batch_is_answered_in_one_array(raw):
    raw.send([request("server.info", i) for i in range(500)] + [request("rpc.discover", "d")])
    reply = raw.next()
    assert isinstance(reply, list) and len(reply) == 501
    assert {item["id"] for item in reply} == set(range(500)) | {"d"}
