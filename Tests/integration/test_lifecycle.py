"""The process: arguments, end of input, signals, the LSP lifecycle, and what goes to stdout."""

from __future__ import annotations

import json
import signal
import subprocess
import threading

import pytest

from conftest import full_env
from movie_rpc.framing import FRAMINGS
from raw_server import DEADLINE, assert_only_valid_frames


def run(server_binary, server_env, args, stdin=b""):
    return subprocess.run([server_binary] + args, input=stdin, capture_output=True, env=full_env(server_env),
                          timeout=DEADLINE)


def test_version_prints_the_version_and_exits_0(server_binary, server_env, contract):
    done = run(server_binary, server_env, ["--version"])
    assert done.returncode == 0
    assert done.stdout.decode().strip() == "movie-rpc %s" % contract.document["info"]["version"]


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_prints_usage_and_exits_0(server_binary, server_env, flag):
    done = run(server_binary, server_env, [flag])
    assert done.returncode == 0
    text = done.stdout.decode()
    assert "Usage: movie-rpc" in text and "MOVIE_RPC_HOME" in text


def test_an_unknown_argument_exits_2_with_usage_on_stderr(server_binary, server_env):
    done = run(server_binary, server_env, ["--frobnicate"])
    assert done.returncode == 2
    assert done.stdout == b""
    assert b"unknown argument --frobnicate" in done.stderr


def test_empty_input_exits_0_without_output(server_binary, server_env):
    done = run(server_binary, server_env, [])
    assert done.returncode == 0
    assert done.stdout == b""


@pytest.mark.parametrize("framing", FRAMINGS)
def test_end_of_input_exits_0_after_answering_what_is_in_flight(spawn_raw, framing):
    raw = spawn_raw(framing)
    raw.write(b"".join(raw.encode({"jsonrpc": "2.0", "method": "server.info", "id": i}) for i in range(50)))
    raw.close_stdin()
    replies = [raw.next() for _ in range(50)]
    assert sorted(reply["id"] for reply in replies) == list(range(50))
    assert raw.wait() == 0


@pytest.mark.parametrize("signal_number", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_termination_signal_exits_0(spawn_raw, signal_number):
    raw = spawn_raw("newline")
    raw.assert_alive()  # the server is up and its signal handlers are installed
    raw.proc.send_signal(signal_number)
    status = raw.wait()
    raw.finish(expect_status=None)
    assert status == 0, "exit status %s; stderr:\n%s" % (status, raw.stderr_text()[:600])


def test_a_termination_signal_right_after_the_first_answer_is_never_lost(spawn_raw):
    """The window in which a signal could be lost was microseconds wide (Dispatch signal sources registered
    after the first answer); 40 starts caught it nearly every time, at 6 to 18 losses in 100."""
    for attempt in range(40):
        raw = spawn_raw("newline")
        raw.assert_alive()
        raw.proc.send_signal(signal.SIGTERM)
        status = raw.wait()
        raw.finish(expect_status=None)
        assert status == 0, "start %d: exit status %s" % (attempt, status)


@pytest.mark.parametrize("framing", FRAMINGS)
def test_initialize_shutdown_exit_exits_0(spawn_raw, framing):
    raw = spawn_raw(framing)
    initialize = raw.request("initialize", {"processId": None, "capabilities": {}, "clientInfo": {"name": "t"}})
    assert initialize["result"]["capabilities"]["movieRpc"]["framing"] == framing
    raw.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    assert raw.request("shutdown")["result"] is None
    raw.send({"jsonrpc": "2.0", "method": "exit"})
    assert raw.wait() == 0  # exits on `exit`, with stdin still open


def test_exit_without_shutdown_exits_1(spawn_raw):
    raw = spawn_raw("content-length")
    raw.request("initialize", {})
    raw.send({"jsonrpc": "2.0", "method": "exit"})
    assert raw.wait() == 1
    raw.finish(expect_status=1)


@pytest.mark.parametrize("framing", FRAMINGS)
def test_stdout_carries_only_frames_even_with_debug_logging(spawn_raw, framing):
    raw = spawn_raw(framing, args=["--log-level", "debug"])
    raw.assert_alive()
    raw.send_body(b"{not json")
    raw.next()
    raw.send({"jsonrpc": "2.0", "method": "nope", "id": 1})
    raw.next()
    raw.send([{"jsonrpc": "2.0", "method": "server.info", "id": 2}, {"jsonrpc": "2.0", "method": "x"}])
    raw.next()
    raw.request("rpc.discover")
    raw.finish()
    messages = assert_only_valid_frames(bytes(raw.stdout), framing)
    assert len(messages) == 5
    assert raw.stderr_text().strip(), "debug logging goes to stderr"


def test_server_info_reports_the_data_directory_and_demo_catalog(client, home):
    info = client.server_info()
    assert info["dataDirectory"] == str(home)
    assert info["catalog"] == "demo"
    assert info["protocolVersion"] == "2.0"


def test_a_tmdb_credential_switches_the_catalog_mode(make_client):
    # No request reaches TMDB here: server.info only reports the mode.
    client = make_client(env={"TMDB_API_KEY": "0" * 32, "TMDB_BASE_URL": "http://127.0.0.1:9"})
    assert client.server_info()["catalog"] == "tmdb"


def test_a_client_that_closes_its_read_end_does_not_kill_the_server(server_binary, server_env):
    # Replies then fail with EPIPE; the server must neither die of SIGPIPE nor hang.
    process = subprocess.Popen([server_binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=full_env(server_env))
    process.stdout.close()
    process.stdin.write(b"".join(b'{"jsonrpc":"2.0","method":"server.info","id":%d}\n' % i for i in range(50)))
    process.stdin.close()
    assert process.wait(DEADLINE) == 0


def write_everything_then_read(server_binary, server_env, method: bytes, count: int, watchdog_seconds: int) -> list:
    """Writes `count` requests for `method` from one thread before reading any reply, then reads every reply;
    the ids answered. A server and a client that wait on each other are killed by the watchdog."""
    process = subprocess.Popen([server_binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=full_env(server_env))
    watchdog = threading.Timer(watchdog_seconds, process.kill)
    watchdog.start()
    try:
        process.stdin.write(b"".join(b'{"jsonrpc":"2.0","method":"%s","id":%d}\n' % (method, i) for i in range(count)))
        process.stdin.close()
        ids = [json.loads(line)["id"] for line in process.stdout]
    finally:
        watchdog.cancel()
    assert process.wait(DEADLINE) == 0, "killed by the watchdog: the server and the client waited on each other"
    return ids


def test_a_client_that_writes_everything_before_reading_does_not_deadlock(server_binary, server_env):
    # 20,000 requests (1.1 MB) written from one thread before any reply is read: the replies fill the stdout
    # pipe, the requests the stdin pipe. The server stops reading when its backlog is full, but must read on
    # once its replies stop flowing, or the write would block forever.
    count = 20000
    ids = write_everything_then_read(server_binary, server_env, b"server.info", count, watchdog_seconds=60)
    assert sorted(ids) == list(range(count))


def test_a_client_that_writes_everything_before_reading_large_replies_does_not_deadlock(server_binary, server_env):
    # 10,000 requests for a 13 KB page (0.5 MB of requests, 130 MB of replies) written before any reply is
    # read: the replies overflow every output budget at once, so the server must take the requests into
    # its framing buffer, where they cost their own bytes, or the write blocks forever (it did when
    # the requests waited for their replies' room in the pipe).
    count = 10000
    ids = write_everything_then_read(server_binary, server_env, b"movies.popular", count, watchdog_seconds=120)
    assert sorted(ids) == list(range(count))
