"""Reads never wait for a write: another process (Python's sqlite3) holds the database's write lock with
BEGIN IMMEDIATE, and reads that touch the database still answer, from the reader connections, while the
lock is held.

Each read must answer within one server busy timeout (5 s): a read that waited for the lock would take
at least that long (before the reader pool, 30 to 90 s, because reads queued behind a write that waited).
"""
from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Dict, Optional

import pytest

LOCAL: Dict[str, Optional[str]] = {
    "MOVIE_RPC_PASSWORD_ITERATIONS": "1000", "FIREBASE_API_KEY": None, "FIREBASE_AUTH_EMULATOR_HOST": None,
}
FIGHT_CLUB, FORREST_GUMP = 550, 13
BUSY_TIMEOUT_SECONDS = 5.0


class WriteLock:
    """Another process's write lock on the server's database, held until released."""

    def __init__(self, home: Path) -> None:
        self.connection = sqlite3.connect(str(home / "movie-rpc.sqlite"), timeout=30, isolation_level=None)

    def __enter__(self) -> "WriteLock":
        self.connection.execute("BEGIN IMMEDIATE")
        # A change in the open transaction: the lock is really taken, and nothing of it may show to readers.
        self.connection.execute("UPDATE event_totals SET total = total WHERE id = 1")
        return self

    def __exit__(self, *exc_info) -> None:
        self.connection.rollback()
        self.connection.close()


def timed(call, *args, **kwargs):
    started = time.monotonic()
    result = call(*args, **kwargs)
    return result, time.monotonic() - started


@pytest.fixture
def client(make_client):
    client = make_client(env=LOCAL)
    client.auth_register("reader@example.com", "pw-reader")
    client.favorites_add(FIGHT_CLUB)
    client.favorites_add(FORREST_GUMP)
    client.events_list()  # Flushed: the recorded events are stored, the next ones wait in the buffer.
    return client


def test_reads_answer_while_another_process_holds_the_write_lock(client, home: Path) -> None:
    with WriteLock(home):
        # A write of ours that waits for the lock (a favorite, and the flushes of the events recorded
        # meanwhile): reads must not queue behind it.
        waiting = client.request_async("favorites.add", movieId=680)
        status, status_seconds = timed(client.auth_status)
        favorites, favorites_seconds = timed(client.favorites_list)
        events, events_seconds = timed(client.events_list, limit=10)
        genres, genres_seconds = timed(client.genres_list)
        assert not waiting.done()
    client.wait(waiting, timeout=120)
    assert status["loggedIn"] is True
    assert sorted(item["movieId"] for item in favorites["favorites"]) == [FORREST_GUMP, FIGHT_CLUB], favorites
    assert events["events"], events
    assert genres["genres"]
    for method, seconds in [("auth.status", status_seconds), ("favorites.list", favorites_seconds),
                            ("events.list", events_seconds), ("genres.list", genres_seconds)]:
        assert seconds < BUSY_TIMEOUT_SECONDS, "%s took %.1f s while the lock was held" % (method, seconds)


def test_a_write_waiting_for_the_lock_does_not_hold_reads(client, home: Path) -> None:
    with WriteLock(home):
        waiting = client.request_async("favorites.add", movieId=680)
        favorites, seconds = timed(client.favorites_list)
        assert not waiting.done()
        assert seconds < BUSY_TIMEOUT_SECONDS, "favorites.list took %.1f s behind a waiting write" % seconds
    assert len(favorites["favorites"]) == 2
    client.wait(waiting, timeout=120)  # Once the lock is released, the write goes through.
    assert len(client.favorites_list()["favorites"]) == 3


def test_another_process_closing_the_database_leaves_the_servers_writes_visible(make_client, home: Path) -> None:
    """Another process opens the database while the server has not written yet, reads, closes; the server's
    writes after that must reach the file that process sees. Found on 2026-12-03: the server read the file's
    header through a descriptor of its own and closed it, which released its POSIX locks; the other process,
    closing, took itself for the last connection and deleted the write-ahead log, and the server's writes
    went on into the deleted file (seen by nobody until the server exited)."""
    client = make_client(env=LOCAL)
    client.events_add(name="before.restart")
    assert client.close() == 0
    restarted = make_client(env=LOCAL)  # a stamped database, opened without reading its schema
    assert restarted.server_info()["name"] == "movie-rpc"
    other = sqlite3.connect(str(home / "movie-rpc.sqlite"), timeout=30)
    assert [name for (name,) in other.execute("SELECT name FROM events")] == ["before.restart"]
    other.close()
    assert (home / "movie-rpc.sqlite-wal").exists(), "the server's write-ahead log was deleted by another process"
    restarted.events_add(name="after.restart")
    other = sqlite3.connect(str(home / "movie-rpc.sqlite"), timeout=30)
    names = [name for (name,) in other.execute("SELECT name FROM events ORDER BY id")]
    other.close()
    assert names == ["before.restart", "after.restart"]
    assert restarted.close() == 0
