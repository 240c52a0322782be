"""A third-party JSON-RPC client drives the server: python-lsp-jsonrpc (import name pylsp_jsonrpc), the
transport layer of python-lsp-server. It speaks LSP Content-Length framing (it also sends a
``Content-Type: ...; charset=utf8`` header) and string (uuid) request ids."""

from __future__ import annotations

import subprocess
import threading

import pytest

from conftest import full_env
from raw_server import DEADLINE

pylsp_jsonrpc = pytest.importorskip(
    "pylsp_jsonrpc", reason="python-lsp-jsonrpc is not installed: pip install -r Tests/integration/requirements.txt")
from pylsp_jsonrpc.endpoint import Endpoint  # noqa: E402
from pylsp_jsonrpc.exceptions import JsonRpcException  # noqa: E402
from pylsp_jsonrpc.streams import JsonRpcStreamReader, JsonRpcStreamWriter  # noqa: E402


@pytest.fixture
def endpoint(server_binary, server_env):
    process = subprocess.Popen([server_binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=full_env(server_env))
    writer = JsonRpcStreamWriter(process.stdin)
    reader = JsonRpcStreamReader(process.stdout)
    # The server sends us no requests; the dispatcher is empty.
    endpoint = Endpoint({}, writer.write, max_workers=2)
    listener = threading.Thread(target=reader.listen, args=(endpoint.consume,), daemon=True)
    listener.start()
    yield endpoint, process
    endpoint.shutdown()
    if process.poll() is None:
        writer.close()
        process.wait(DEADLINE)
    listener.join(DEADLINE)
    process.stdout.close()


def test_server_info(endpoint, contract):
    client, _ = endpoint
    result = client.request("server.info").result(timeout=DEADLINE)
    contract.assert_result_matches("server.info", result)
    assert result["framing"] == "content-length"


def test_initialize_shutdown_exit(endpoint, contract):
    client, process = endpoint
    result = client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}}).result(
        timeout=DEADLINE)
    contract.assert_result_matches("initialize", result)
    assert set(result["capabilities"]["movieRpc"]["methods"]) == set(contract.method_names)
    client.notify("initialized", {})
    assert client.request("shutdown").result(timeout=DEADLINE) is None
    client.notify("exit")
    assert process.wait(DEADLINE) == 0


def test_errors_arrive_as_exceptions(endpoint):
    client, _ = endpoint
    with pytest.raises(JsonRpcException) as caught:
        client.request("no.such.method").result(timeout=DEADLINE)
    assert caught.value.code == -32601
    assert client.request("server.info").result(timeout=DEADLINE)["name"] == "movie-rpc"
