"""The Python client package (clients/python), against the real server and against a scripted fake
server for what the real one cannot be made to do yet (stay silent, notify, die, misbehave)."""

from __future__ import annotations

import sys
import threading

import pytest

from movie_rpc import OMIT, Call, Client, Notify, RpcError, RpcTimeout, ServerExited
from movie_rpc.framing import FRAMINGS

# ---------------------------------------------------------------- against the real server


@pytest.mark.parametrize("framing", FRAMINGS)
def test_helpers_and_call_forms(make_client, framing, home):
    client = make_client(framing)
    info = client.server_info()
    assert info == client.call("server.info") == client.call("server.info", {}) == client.call("server.info", None)
    assert info["framing"] == framing and info["dataDirectory"] == str(home)
    assert "server.info" in client.method_names()
    assert client.shutdown() is None


def test_rpc_error_carries_code_kind_and_field(client):
    with pytest.raises(RpcError) as caught:
        client.call("server.info", page=0)
    error = caught.value
    assert (error.code, error.kind, error.field, error.method) == (-32602, "invalidParams", "page", "server.info")
    assert "page" in str(error)
    with pytest.raises(RpcError) as caught:
        client.movies_popular(page=0)
    assert (caught.value.code, caught.value.field) == (-32602, "page")


def test_concurrent_calls_from_many_threads(client):
    failures = []

    def work():
        try:
            for _ in range(25):
                assert client.server_info()["name"] == "movie-rpc"
        except BaseException as error:  # collected and asserted in the main thread
            failures.append(error)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not failures


def test_request_async_futures(lsp_client):
    futures = [lsp_client.request_async("server.info") for _ in range(100)]
    assert len({future.id for future in futures}) == 100
    assert all(lsp_client.wait(future)["framing"] == "content-length" for future in futures)
    assert not futures[0].cancel(), "a request on the wire cannot be cancelled locally"


def test_batch(client):
    results = client.batch([Call("server.info"), Notify("nothing.here"), Call("nope"),
                            Call("server.info", {"bogus": 1}), Call("rpc.discover")])
    assert results[0]["name"] == "movie-rpc"
    assert results[1] is None
    assert isinstance(results[2], RpcError) and results[2].kind == "methodNotFound"
    assert isinstance(results[3], RpcError) and results[3].field == "bogus"
    assert results[4]["openrpc"]


def test_notify_and_cancel_do_not_disturb_the_session(client):
    client.notify("update", [1, 2, 3])
    done = client.request_async("server.info")
    client.wait(done)
    client.cancel(done)  # already answered: the server ignores it
    client.cancel(424242)
    assert client.server_info()["name"] == "movie-rpc"
    assert client.unmatched.empty()


def test_exit_after_shutdown_is_0_and_later_calls_raise_server_exited(make_client):
    client = make_client("content-length")
    client.initialize(process_id=None, client_info={"name": "pytest"})
    client.shutdown()
    assert client.exit() == 0
    with pytest.raises(ServerExited):
        client.server_info()


def test_close_answers_in_flight_requests_first(make_client):
    client = make_client()
    futures = [client.request_async("server.info") for _ in range(20)]
    assert client.close() == 0
    assert all(future.result(0)["name"] == "movie-rpc" for future in futures)


def test_a_rejecting_result_validator_fails_the_call(server_binary, server_env):
    def reject(method, result):
        raise AssertionError("rejected %s" % method)

    with Client(server_binary, env=server_env, result_validator=reject, timeout=10) as client:
        with pytest.raises(AssertionError, match="rejected server.info"):
            client.server_info()


def test_a_missing_binary_is_reported(tmp_path):
    with pytest.raises(FileNotFoundError):
        Client(str(tmp_path / "no-such-movie-rpc"))


def test_unknown_framing_is_rejected_before_spawning(server_binary):
    with pytest.raises(ValueError):
        Client(server_binary, framing="xml")


# ---------------------------------------------------------------- against a scripted fake server

FAKE_SERVER = r'''
import json, sys
out = sys.stdout.buffer
def send(message):
    out.write(json.dumps(message).encode() + b"\n"); out.flush()
for line in sys.stdin.buffer:
    message = json.loads(line)
    method, rid = message.get("method"), message.get("id")
    if method is None:
        send({"jsonrpc": "2.0", "method": "gotReply", "params": message})
    elif method == "echo":
        send({"jsonrpc": "2.0", "id": rid, "result": {"hasParams": "params" in message,
                                                      "params": message.get("params")}})
    elif method == "notifyMe":
        send({"jsonrpc": "2.0", "method": "event/one", "params": {"n": 1}})
        send({"jsonrpc": "2.0", "id": rid, "result": "sent"})
    elif method == "$/cancelRequest":
        send({"jsonrpc": "2.0", "method": "gotCancel", "params": message["params"]})
    elif method == "garbage":
        out.write(b"this is not json\n"); out.flush()
        send({"jsonrpc": "2.0", "id": rid, "result": 1})
    elif method == "askClient":
        send({"jsonrpc": "2.0", "id": "s1", "method": "client/thing", "params": {}})
    elif method == "die":
        sys.exit(3)
    # anything else ("silent"): never answered
'''


@pytest.fixture
def fake():
    client = Client([sys.executable, "-c", FAKE_SERVER], timeout=10)
    yield client
    client.close()


def test_params_forms_on_the_wire(fake):
    assert fake.call("echo") == {"hasParams": False, "params": None}
    assert fake.call("echo", None) == {"hasParams": True, "params": None}
    assert fake.call("echo", OMIT) == {"hasParams": False, "params": None}
    assert fake.call("echo", a=1, b=None) == {"hasParams": True, "params": {"a": 1, "b": None}}
    assert fake.call("echo", {"a": 1}) == fake.call("echo", a=1)
    assert fake.call("echo", [1, 2])["params"] == [1, 2]
    assert fake.call("echo", method="m", params="p")["params"] == {"method": "m", "params": "p"}
    with pytest.raises(TypeError):
        fake.call("echo", {"a": 1}, b=2)


def test_helpers_send_no_params_member_when_none_is_set(fake):
    # The generated helpers build the params they were given (unset ones left out) and call this.
    assert fake._call_method("echo", {"page": 1}) == {"hasParams": True, "params": {"page": 1}}
    assert fake._call_method("echo", {}) == {"hasParams": False, "params": None}


def test_notifications_reach_the_callback_and_the_queue():
    seen = []
    with Client([sys.executable, "-c", FAKE_SERVER], timeout=10,
                on_notification=lambda method, params: seen.append((method, params))) as client:
        assert client.call("notifyMe") == "sent"
        assert client.next_notification(5) == ("event/one", {"n": 1})
    assert seen == [("event/one", {"n": 1})]


def test_a_timeout_cancels_the_request(fake):
    with pytest.raises(RpcTimeout) as caught:
        fake.wait(fake.request_async("silent"), timeout=0.2)
    notification = fake.next_notification(5)
    assert notification == ("gotCancel", {"id": caught.value.request_id})
    assert isinstance(caught.value, TimeoutError)


def test_a_server_that_dies_fails_pending_and_later_requests(fake):
    silent = fake.request_async("silent")
    with pytest.raises(ServerExited) as caught:
        fake.call("die")
    assert caught.value.returncode == 3
    with pytest.raises(ServerExited):
        silent.result(5)
    with pytest.raises(ServerExited):
        fake.call("echo")
    assert fake.close() == 3


def test_garbage_output_is_recorded_not_fatal(fake):
    assert fake.call("garbage") == 1
    assert len(fake.protocol_errors) == 1 and "invalid JSON" in str(fake.protocol_errors[0])


def test_a_server_request_is_answered_method_not_found(fake):
    fake.notify("askClient")
    method, params = fake.next_notification(5)
    assert method == "gotReply"
    assert params["id"] == "s1" and params["error"]["code"] == -32601
