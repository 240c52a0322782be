"""Budgets for what a client controls (issue #13, items 7, 8, 11, 12): batch replies, queued input and
output, absurd or conflicting Content-Length headers, and control messages behind a backlog waiting on a
hanging upstream. Memory figures come from /proc/PID/status with generous bounds; nothing is timed."""

from __future__ import annotations

import json
import os
import subprocess
import threading

from conftest import full_env
from fake_tmdb import FakeTMDB
from raw_server import DEADLINE

API_KEY = "budget-test-api-key"
MIB = 1024 * 1024


def peak_rss_mib(pid: int) -> float:
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM in /proc/%d/status" % pid)


def request(request_id, method, params=None):
    message = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


# -- item 7: a batch's reply has a budget

def test_a_batch_reply_stays_within_the_message_limit_and_memory_stays_bounded(spawn_raw):
    """Before: 10,000 rpc.discover (0.5 MB in) built a 483 MB reply and 1.4 GB peak RSS."""
    raw = spawn_raw("newline")
    count = 5000
    raw.send([request(i, "rpc.discover") for i in range(count)])
    reply = raw.next(timeout=60)
    assert isinstance(reply, list) and sorted(item["id"] for item in reply) == list(range(count))
    size = len(json.dumps(reply, separators=(",", ":")).encode())
    answered = [item for item in reply if "result" in item]
    refused = [item for item in reply if "error" in item]
    # Results fill at most the limit; each member past it is a small error (about 250 bytes).
    assert size <= 16 * MIB + 300 * len(refused), "batch reply of %d bytes" % size
    assert answered and refused, "some members answered within the budget, the rest refused"
    for item in refused:
        raw.assert_error_reply(item, -32600, item["id"], kind="replyTooLarge")
        assert item["error"]["data"]["limit"] == 16 * MIB
    assert any(item["error"]["data"]["ran"] is False for item in refused)
    assert peak_rss_mib(raw.proc.pid) < 300
    raw.assert_alive()


def test_a_small_batch_is_answered_whole(spawn_raw):
    raw = spawn_raw("newline")
    raw.send([request(i, "rpc.discover") for i in range(20)])
    reply = raw.next()
    assert sorted(item["id"] for item in reply) == list(range(20))
    assert all("result" in item for item in reply)


# -- item 8: queued input and output have byte budgets

def test_a_client_that_stops_reading_is_held_back_and_memory_stays_bounded(server_binary, server_env):
    """Before: RSS grew 18 -> 655 MB while 15 MiB requests kept arriving and no reply was read (the reading
    thread read on once a reply had been stuck for 10 ms, and blocked replies held the task pool)."""
    process = subprocess.Popen([server_binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=full_env(server_env), bufsize=0)
    # 1,000 rpc.discover: about 48 MB of replies nobody reads yet, more than the output budget (8 MiB).
    small = b"".join(b'{"jsonrpc":"2.0","id":%d,"method":"rpc.discover"}\n' % i for i in range(1000))
    padding = b"x" * (15 * MIB)
    big_count = 30  # 450 MiB of requests in all
    written = [0]
    done = threading.Event()

    def write(data):
        view = memoryview(data)
        while view:
            view = view[os.write(process.stdin.fileno(), view):]

    def write_all():
        try:
            write(small)
            for i in range(big_count):
                write(b'{"jsonrpc":"2.0","id":%d,"method":"genres.list","params":{"pad":"%s"}}\n'
                      % (10000 + i, padding))
                written[0] += 1
            process.stdin.close()
        except OSError:
            pass
        finally:
            done.set()

    writer = threading.Thread(target=write_all, daemon=True)
    writer.start()
    try:
        # Wait until the writer is held back (no progress for a while) or has written everything.
        last, still = -1, 0
        while not done.is_set() and still < 6:
            done.wait(0.5)
            still = still + 1 if written[0] == last else 0
            last = written[0]
        held_back = not done.is_set()
        peak = peak_rss_mib(process.pid)
        assert peak < 400, "peak RSS %.0f MiB with %d of %d large requests written" % (peak, written[0], big_count)
        assert held_back, "the server read all %d MiB although no reply was read" % (big_count * 15)
        # Reading the replies lets everything through: nothing is lost.
        ids = []
        for line in process.stdout:
            ids.append(json.loads(line)["id"])
        writer.join(DEADLINE)
        assert sorted(ids) == list(range(1000)) + [10000 + i for i in range(big_count)]
        assert process.wait(DEADLINE) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


# -- item 11: absurd and conflicting Content-Length headers

def test_an_absurd_content_length_is_refused_and_the_next_message_is_answered(spawn_raw):
    """Before: the length saturated to Int.max and every later message was silently dropped."""
    raw = spawn_raw("content-length")
    raw.assert_alive()
    raw.write(b"Content-Length: 99999999999999999999999999\r\n\r\n{}")
    raw.assert_error_reply(raw.next(), -32600, None, kind="messageTooLarge")
    raw.assert_alive()
    raw.write(b"Content-Length: 9999999999\r\n\r\n" + b'{"jsonrpc":"2.0","id":1,"method":"server.info"}')
    raw.assert_error_reply(raw.next(), -32600, None, kind="messageTooLarge")
    raw.assert_alive()


def test_conflicting_content_lengths_are_refused_and_the_next_message_is_answered(spawn_raw):
    """Before: the last header won, the body was cut short and the next frame was lost."""
    raw = spawn_raw("content-length")
    raw.assert_alive()
    body = b'{"jsonrpc":"2.0","id":7,"method":"server.info"}'
    raw.write(b"Content-Length: 2\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    error = raw.assert_error_reply(raw.next(), -32700, None, kind="parseError")
    assert "Conflicting Content-Length" in error["message"]
    raw.assert_alive()


# -- item 12: control messages behind a backlog on a hanging upstream

def test_control_messages_are_answered_ahead_of_a_backlog_on_a_hanging_upstream(spawn_raw):
    """Before: 400 requests to a TMDB that never answered kept server.info and $/cancelRequest unread until
    the upstream timeouts had drained the backlog (17.7 s at a 3 s timeout). The upstream here times out
    after 60 s, so every control reply must come before the first timeout reply: an order, not a time."""
    tmdb = FakeTMDB(api_key=API_KEY).start()
    tmdb.set_fault("slow", delay=3600)
    try:
        raw = spawn_raw("newline", env={"TMDB_API_KEY": API_KEY, "TMDB_BASE_URL": tmdb.base_url,
                                        "MOVIE_RPC_TMDB_TIMEOUT": "60"})
        policies = ["networkFirst", "cacheFirst", "networkOnly"]
        hanging = [request(i, "movies.popular", {"page": 1 + i % 500, "language": "en-US" if i < 500 else "de-DE",
                                                 "cachePolicy": policies[i % 3]})
                   for i in range(1000)]
        raw.write(b"".join(raw.encode(message) for message in hanging))
        raw.send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 999}})
        raw.send(request("info", "server.info"))
        raw.send(request("bye", "shutdown"))
        seen = {}
        while not {"info", "bye", 999} <= set(seen):
            reply = raw.next(timeout=55)
            seen[reply["id"]] = reply
        assert "result" in seen["info"] and seen["info"]["result"]["catalog"] == "tmdb"
        assert seen["bye"]["result"] is None
        raw.assert_error_reply(seen[999], -32800, 999, kind="requestCancelled")
        assert set(seen) == {"info", "bye", 999}, "only the control replies come before the upstream timeouts"
    finally:
        raw.kill()
        raw.finished = True
        tmdb.stop()
