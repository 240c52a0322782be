"""Concurrent logins under faults (issue 13.1): several server processes on one data directory guessing one
email's password at once share one throttle (the count is taken in the database, in the write transaction
that lets a guess through), and a process killed with guesses in flight gives none of their counts back.
"""

from __future__ import annotations

import socket
import threading
from typing import List

import pytest

from fake_firebase import FakeFirebase
from workload import LOCAL

FIREBASE_KEY = "fake-web-api-key-faults"


def guesses(first_id: int, count: int, password_prefix: str = "wrong") -> List[dict]:
    return [{"jsonrpc": "2.0", "id": first_id + i, "method": "auth.login",
             "params": {"email": "ada@example.com", "password": "%s-%d" % (password_prefix, first_id + i)}}
            for i in range(count)]


def checked(replies) -> int:
    return sum(1 for reply in replies if reply.get("error", {}).get("code") != -32014)


@pytest.mark.parametrize("processes", [2, 4])
def test_processes_guessing_at_once_share_one_throttle(spawn_raw, processes: int):
    servers = [spawn_raw(env=dict(LOCAL)) for _ in range(processes)]
    assert "result" in servers[0].request("auth.register", {"email": "ada@example.com", "password": "pw-right"})
    assert "result" in servers[0].request("auth.logout")
    data = [server.encode(guesses(1000 * (index + 1), 50)) for index, server in enumerate(servers)]
    start = threading.Barrier(processes)

    def send(index: int) -> None:
        start.wait()
        servers[index].write(data[index])

    threads = [threading.Thread(target=send, args=(index,)) for index in range(processes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    replies = [reply for server in servers for reply in server.next(timeout=60)]
    assert len(replies) == 50 * processes
    assert checked(replies) == 5, [r.get("error", {}).get("code") for r in replies]
    for server in servers:
        assert server.request("auth.login", {"email": "ada@example.com", "password": "pw-right"})[
            "error"]["code"] == -32014


def test_a_process_killed_with_guesses_in_flight_gives_back_no_count(spawn_raw):
    firebase = FakeFirebase(api_key=FIREBASE_KEY).start()
    hanging = socket.socket()
    try:
        env = dict(LOCAL)
        env.update({"FIREBASE_API_KEY": FIREBASE_KEY, "FIREBASE_AUTH_EMULATOR_HOST": firebase.host})
        server = spawn_raw(env=env)
        assert "result" in server.request("auth.register", {"email": "ada@example.com", "password": "pw-right"})
        server.finish()
        # Firebase now accepts connections and never answers: each guess waits in flight.
        hanging.bind(("127.0.0.1", 0))
        hanging.listen(16)
        hanging.settimeout(30)
        env["FIREBASE_AUTH_EMULATOR_HOST"] = "127.0.0.1:%d" % hanging.getsockname()[1]
        env["MOVIE_RPC_TMDB_TIMEOUT"] = "60"
        stuck = spawn_raw(env=env)
        for request in guesses(1, 5):
            stuck.send(request)
        connections = [hanging.accept()[0] for _ in range(5)]  # each guess got this far, so was let through
        stuck.kill()
        stuck.finished = True  # killed on purpose, its five requests unanswered
        for connection in connections:
            connection.close()
        env["FIREBASE_AUTH_EMULATOR_HOST"] = firebase.host
        restarted = spawn_raw(env=env)
        # Each was counted before it was sent, so the lock holds after the crash, even for the right password.
        # (Counted after the check, as before issue 13.1, the crash left no failure on record at all.)
        refused = restarted.request("auth.login", {"email": "ada@example.com", "password": "pw-right"})
        assert refused["error"]["code"] == -32014, refused
        assert firebase.operations().count("signInWithPassword") == 0
    finally:
        hanging.close()
        firebase.stop()
