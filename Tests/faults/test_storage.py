"""Storage faults: a read-only data directory, a full disk, a damaged database file, and a database written
by a newer schema. Each must end in a clear answer (an error with data.reason, or a message and an exit
status) and never in a crash, a hang, or silently lost data.

Root ignores permission bits, so when running as root (CI) a read-only or full file system is a tmpfs the
test mounts (read-only: remounted ``ro``; full: a 2 MiB one filled up); as another user, ``chmod`` is
enough for read-only, and the full-disk test is skipped with the reason.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
from pathlib import Path
from typing import Dict, Optional

import pytest

from integration_conftest import full_env
from movie_rpc import RpcError
from mounts import Immutable, Tmpfs, fill
from workload import DB_NAME, LOCAL, Pipeline, all_events, integrity_check, query

FIGHT_CLUB, FORREST_GUMP, BLACK_PHONE = 550, 13, 756999


def error_of(call, *args, **kwargs) -> RpcError:
    with pytest.raises(RpcError) as info:
        call(*args, **kwargs)
    return info.value


def assert_storage_error(error: RpcError, reason: str) -> None:
    assert error.code == -32040 and error.kind == "storageError", error
    assert error.data["reason"] == reason, error
    assert error.message and "SQL" not in error.message and "/" not in error.message, error.message


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run_once(server_binary: str, env: Dict[str, Optional[str]], stdin: bytes = b"", timeout: float = 10):
    """Runs the server to completion on ``stdin``; returns (status, stdout, stderr)."""
    process = subprocess.run([server_binary], input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=full_env(env), timeout=timeout)
    return process.returncode, process.stdout, process.stderr.decode("utf-8", "replace")


# -- read-only data directory ------------------------------------------------------------------------

class ReadOnlyHome:
    """A copy of a data directory that the server cannot write: a tmpfs remounted read-only when running as
    root, ``chattr +i`` when mounting is impossible, ``chmod 0500/0400`` for other users."""

    def __init__(self, source: Path, target: Path) -> None:
        self.source, self.target = source, target
        self.tmpfs: Optional[Tmpfs] = None
        self.immutable = None
        self.how = ""

    def __enter__(self) -> Path:
        self.target.mkdir()
        if os.geteuid() != 0:
            self._copy()
            for path in self.target.rglob("*"):
                path.chmod(0o500 if path.is_dir() else 0o400)
            self.target.chmod(0o500)
            self.how = "chmod 0500/0400"
        elif not Tmpfs.unavailable_reason():
            self.tmpfs = Tmpfs(self.target, "16m")
            self.tmpfs.mount()
            self._copy()
            self.tmpfs.remount(read_only=True)
            self.how = "tmpfs remounted read-only"
        else:
            reason = Immutable.unavailable_reason(self.target)
            if reason:
                pytest.skip("no way to make a directory read-only for root here: %s; %s"
                            % (Tmpfs.unavailable_reason(), reason))
            self._copy()
            self.immutable = Immutable(sorted(self.target.rglob("*"), reverse=True) + [self.target])
            self.immutable.apply()
            self.how = "chattr +i"
        return self.target

    def _copy(self) -> None:
        for path in self.source.iterdir():
            if path.is_dir():
                shutil.copytree(path, self.target / path.name)
            else:
                shutil.copy2(path, self.target / path.name)

    def __exit__(self, *exc_info) -> None:
        if self.tmpfs is not None:
            self.tmpfs.unmount()
        if self.immutable is not None:
            self.immutable.undo()
        if os.geteuid() != 0:
            for path in [self.target] + list(self.target.rglob("*")):
                path.chmod(0o700)


def populate(make_client, env) -> Dict[str, object]:
    """A session that leaves a bit of everything in the data directory; returns what it stored."""
    client = make_client(env=env)
    client.auth_register("reader@example.com", "pw-reader")
    client.favorites_add(FIGHT_CLUB)
    client.favorites_add(FORREST_GUMP)
    stored = {
        "favorites": client.favorites_list(),
        "genres": client.genres_list()["genres"],
        "popular": client.movies_popular(page=1)["results"],
        "details": client.movies_details(movie_id=FIGHT_CLUB)["title"],
        "cached": client.movies_details(movie_id=BLACK_PHONE)["title"],  # so that adding it needs no network
        "event": client.events_add(name="kept.event", params={"n": 1}),
        "image": client.images_fetch("/ro-poster.jpg", size="w92"),
    }
    stored["events"] = all_events(client)
    assert client.close() == 0
    return stored


def test_read_only_data_directory_serves_reads_and_refuses_writes(make_client, live_env, home, tmdb, tmp_path):
    source_env = dict(live_env, MOVIE_RPC_HOME=str(home))
    stored = populate(make_client, source_env)
    with ReadOnlyHome(home, tmp_path / "read-only-home") as read_only:
        print("read-only by:", os.listdir(read_only))
        before = {path.name: digest(path) for path in read_only.iterdir() if path.is_file()}
        tmdb.stop()  # offline: everything comes from the read-only database
        client = make_client(env=dict(live_env, MOVIE_RPC_HOME=str(read_only)))
        assert client.auth_status()["loggedIn"] is True
        assert client.favorites_list() == stored["favorites"]
        assert client.favorites_contains([FIGHT_CLUB, BLACK_PHONE])["contains"] == {"550": True, "756999": False}
        genres = client.genres_list()
        assert genres["source"] == "cache" and genres["genres"] == stored["genres"]
        assert client.movies_popular(page=1)["results"] == stored["popular"]
        assert client.movies_details(movie_id=FIGHT_CLUB)["title"] == stored["details"]
        assert client.events_get(id=stored["event"]["id"]) == stored["event"]
        listed = client.events_list(name="kept.event")["events"]
        assert listed == [stored["event"]]
        assert client.events_search(query="kept.event")["events"] == [stored["event"]]
        assert client.images_fetch("/ro-poster.jpg", size="w92")["source"] == "cache"

        writes = [
            (client.favorites_add, (BLACK_PHONE,)), (client.favorites_remove, (FIGHT_CLUB,)),
            (client.events_add, ("refused.event",)), (client.events_delete, ([stored["event"]["id"]],)),
            (client.account_update, ({"displayName": "Reader"},)), (client.auth_logout, ()),
        ]
        for call, args in writes:
            error = error_of(call, *args)
            assert_storage_error(error, "readOnly")
            assert "read-only" in error.message
        tmdb.start()  # online again: answers still come, though they cannot be cached
        fresh = client.movies_popular(page=4, cache_policy="networkOnly")
        assert fresh["source"] == "network"
        image = error_of(client.images_fetch, "/never-stored.jpg", size="w92")
        assert image.code == -32040 and image.data["reason"] == "readOnly", image
        assert client.favorites_list() == stored["favorites"]  # the refusals changed nothing
        assert client.server_info()["name"] == "movie-rpc"
        assert client.close() == 0  # the recorded events it could not save are not a reason to fail
        after = {path.name: digest(path) for path in read_only.iterdir() if path.is_file()}
        assert after == before


def test_read_only_directory_whose_database_has_no_wal_files_still_serves_reads(make_client, server_binary, home,
                                                                               tmp_path):
    stored = populate_local(make_client, home)
    checkpoint_and_close(home)
    with ReadOnlyHome(home, tmp_path / "read-only-home") as read_only:
        env = dict(LOCAL, MOVIE_RPC_HOME=str(read_only))
        before = {path.name: digest(path) for path in read_only.iterdir() if path.is_file()}
        requests = (b'{"jsonrpc":"2.0","id":1,"method":"favorites.list"}\n'
                    b'{"jsonrpc":"2.0","id":2,"method":"favorites.add","params":{"movieId":%d}}\n' % BLACK_PHONE)
        status, stdout, stderr = run_once(server_binary, env, requests)
        assert status == 0, stderr
        replies = {reply["id"]: reply for reply in map(json.loads, stdout.decode().splitlines())}
        assert stored["favorites"] in json.dumps(replies[1]["result"])
        assert replies[2]["error"]["code"] == -32040 and replies[2]["error"]["data"]["reason"] == "readOnly", replies
        assert "read-only" in replies[2]["error"]["message"]
        assert {path.name: digest(path) for path in read_only.iterdir() if path.is_file()} == before


def populate_local(make_client, home: Path) -> Dict[str, str]:
    client = make_client(env=dict(LOCAL, MOVIE_RPC_HOME=str(home)))
    client.auth_register("reader@example.com", "pw-reader")
    client.favorites_add(FIGHT_CLUB)
    listing = client.favorites_list()
    assert client.close() == 0
    import json
    return {"favorites": json.dumps(listing["favorites"][0]["movie"]["title"])}


def checkpoint_and_close(home: Path) -> None:
    """What any other SQLite client leaves behind: the WAL folded in and the -wal/-shm files removed."""
    connection = sqlite3.connect(str(home / DB_NAME))
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    assert not (home / (DB_NAME + "-wal")).exists() and not (home / (DB_NAME + "-shm")).exists()


# -- disk full ----------------------------------------------------------------------------------------

def test_disk_full_is_reported_then_recovered_without_restart(tmpfs, make_client):
    fs = tmpfs("small-home", "2m")
    client = make_client(env=dict(LOCAL, MOVIE_RPC_HOME=str(fs.target)))
    client.auth_register("full@example.com", "pw-full")
    client.favorites_add(FIGHT_CLUB)
    acknowledged = {client.events_add(name="before.full", params={"i": i})["id"]: i for i in range(20)}

    filler = fill(fs.target)
    assert fs.free_bytes() < 4096
    pipeline = Pipeline(client, window=8)
    outcome = None
    for i in range(400):  # the WAL's free space absorbs a few writes; soon one must fail
        outcome = pipeline.submit("events.add", {"name": "while.full", "params": {"i": i, "pad": "p" * 8000}})
        pipeline.drain()
        if outcome.error is not None:
            break
        acknowledged[outcome.result["id"]] = i
    assert outcome is not None and outcome.error is not None, "400 writes of 8 kB fit in a full 2 MiB disk?"
    for o in pipeline.outcomes:
        if o.error is not None:
            assert_storage_error(o.error, "diskFull")
            assert "full" in o.error.message
    for call, args in [(client.favorites_add, (BLACK_PHONE,)), (client.events_add, ("while.full",))]:
        try:
            result = call(*args)
            if call == client.events_add:
                acknowledged[result["id"]] = None
        except RpcError as error:
            assert_storage_error(error, "diskFull")
    # Reads go on while the disk is full.
    assert FIGHT_CLUB in [f["movieId"] for f in client.favorites_list()["favorites"]]
    assert client.server_info()["name"] == "movie-rpc"

    filler.unlink()  # space returns: the same process writes again
    assert client.favorites_add(FORREST_GUMP)["movieId"] == FORREST_GUMP
    after = client.events_add(name="after.full", params={"pad": "q" * 8000})
    acknowledged[after["id"]] = "after"
    assert client.close() == 0
    assert integrity_check(fs.target) == ["ok"]

    checker = make_client(env=dict(LOCAL, MOVIE_RPC_HOME=str(fs.target)))
    ids = {event["id"] for event in all_events(checker)}
    lost = set(acknowledged) - ids
    assert not lost, "acknowledged events lost on a full disk: %s" % sorted(lost)
    favorites = {f["movieId"] for f in checker.favorites_list()["favorites"]}
    assert {FIGHT_CLUB, FORREST_GUMP} <= favorites
    assert checker.close() == 0


# -- damaged database ---------------------------------------------------------------------------------

def test_garbage_database_is_moved_aside_and_a_fresh_one_started(make_client, home: Path):
    garbage = random.Random(3).randbytes(96 * 1024)
    (home / DB_NAME).write_bytes(garbage)
    (home / (DB_NAME + "-wal")).write_bytes(garbage[:5000])
    client = make_client(env=LOCAL)
    assert client.server_info()["name"] == "movie-rpc"
    added = client.events_add(name="fresh.start")
    assert client.events_list()["events"] == [added]
    assert client.close() == 0

    stderr = client.stderr_tail()
    asides = sorted(home.glob(DB_NAME + ".corrupt-*"))
    assert [p.name for p in asides if not p.name.endswith(("-wal", "-shm"))], os.listdir(home)
    aside = [p for p in asides if not p.name.endswith(("-wal", "-shm"))][0]
    assert re.fullmatch(re.escape(DB_NAME) + r"\.corrupt-\d+", aside.name)
    assert aside.read_bytes() == garbage, "the damaged file must be kept as it was"
    assert Path(str(aside) + "-wal").read_bytes() == garbage[:5000]
    assert "damaged" in stderr and aside.name in stderr, stderr
    assert integrity_check(home) == ["ok"]


def test_database_damaged_inside_reports_corrupt_and_keeps_the_file(make_client, home: Path):
    client = make_client(env=LOCAL)
    for first in range(0, 300, 50):
        pipeline = Pipeline(client, window=16)
        for i in range(first, first + 50):
            pipeline.submit("events.add", {"name": "bulk", "params": {"i": i, "pad": "z" * 3000}})
        pipeline.drain()
    assert client.close() == 0
    checkpoint_and_close(home)
    database = home / DB_NAME
    data = bytearray(database.read_bytes())
    pages = len(data) // 4096
    assert pages > 40
    noise = random.Random(5)
    for offset in range(4096 * (pages // 2), 4096 * (pages // 2 + 10)):
        data[offset] = noise.randrange(256)
    database.write_bytes(bytes(data))
    damaged = digest(database)

    client = make_client(env=LOCAL)
    assert client.server_info()["name"] == "movie-rpc"
    outcomes = []
    for call in (lambda: all_events(client), lambda: client.events_search(query="bulk", limit=500),
                 lambda: client.events_add(name="after.damage")):
        try:
            outcomes.append(call())
        except RpcError as error:
            assert_storage_error(error, "corrupt")
            outcomes.append(error)
    assert any(isinstance(o, RpcError) for o in outcomes), "reading every event should meet the damage"
    assert client.server_info()["name"] == "movie-rpc"
    assert client.close() == 0
    kept = [home / DB_NAME] + list(home.glob(DB_NAME + ".corrupt-*"))
    assert any(p.is_file() and digest(p) == damaged for p in kept) or (home / DB_NAME).exists(), \
        "the damaged database must not be deleted"


def test_database_from_a_newer_schema_is_refused_untouched(make_client, server_binary, home: Path):
    client = make_client(env=LOCAL)
    client.events_add(name="old.data")
    assert client.close() == 0
    for journal_mode in ("wal", "delete"):
        connection = sqlite3.connect(str(home / DB_NAME))
        # As a newer movie-rpc leaves it: a migration this one does not know, and that version's schema
        # stamp in the header (DatabaseMigrator.schemaStamp), which is not this version's.
        connection.execute("INSERT OR IGNORE INTO schema_migrations(identifier, applied_at) "
                           "VALUES ('v99-from-the-future', '2031-01-01T00:00:00.000Z')")
        connection.commit()
        connection.execute("PRAGMA user_version = 99")
        connection.execute("PRAGMA journal_mode = %s" % journal_mode)
        connection.close()
        before = {path.name: (digest(path), path.stat().st_mtime_ns) for path in home.iterdir()}
        status, stdout, stderr = run_once(server_binary, dict(LOCAL, MOVIE_RPC_HOME=str(home)),
                                          b'{"jsonrpc":"2.0","id":1,"method":"server.info"}\n')
        assert status == 3, (journal_mode, status, stderr)
        assert stdout == b""
        assert "newer" in stderr and str(home / DB_NAME) in stderr, stderr
        after = {path.name: (digest(path), path.stat().st_mtime_ns) for path in home.iterdir()}
        assert after == before, "%s: the newer database was modified" % journal_mode
    assert query(home, "SELECT count(*) FROM schema_migrations WHERE identifier = 'v99-from-the-future'") == [(1,)]


def test_never_a_signal_exit_on_any_of_these(server_binary, home: Path, tmp_path: Path):
    """Odd files where the database should be: a directory, an empty file, a truncated header."""
    cases = {
        "directory": lambda p: p.mkdir(),
        "empty": lambda p: p.write_bytes(b""),
        "truncated-header": lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\x10\x00"),
        "zeros": lambda p: p.write_bytes(bytes(8192)),
    }
    for name, make in cases.items():
        directory = tmp_path / ("odd-" + name)
        directory.mkdir()
        make(directory / DB_NAME)
        status, stdout, stderr = run_once(server_binary, dict(LOCAL, MOVIE_RPC_HOME=str(directory)),
                                          b'{"jsonrpc":"2.0","id":1,"method":"events.add","params":{"name":"x"}}\n')
        assert status >= 0 and status != -signal.SIGSEGV, (name, status, stderr)
        assert status in (0, 3), (name, status, stderr)
        if status == 3:
            assert stderr.startswith("movie-rpc: ") and stdout == b"", (name, stderr)
        else:
            assert b'"result"' in stdout, (name, stdout, stderr)
