"""Favorites and profile sync through Cloud Firestore, against Google's real Firestore emulator.

Two servers with different data directories stand for two machines of one user. Firebase Auth is the
fake Identity Toolkit (fake_firebase.py), issuing the emulators' unsigned JWTs, which the Firestore
emulator accepts and judges with firebase/firestore.rules. The emulator is started once for the module
(its own process group, stopped as a whole at the end) and emptied before each test.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional

import pytest

from fake_firebase import FakeFirebase
from fake_tmdb import FakeTMDB
from firestore_emulator import RULES_PATH, FirestoreEmulator, available
from conftest import error_of

PROJECT = "demo-movie-rpc"
API_KEY = "fake-web-api-key-sync"
PASSWORD = "Sync-pass-77x"
DB_NAME = "movie-rpc.sqlite"
DEAD_HOST = "127.0.0.1:1"  # nothing listens there: Firestore unreachable


@pytest.fixture(scope="module")
def emulator() -> Iterator[FirestoreEmulator]:
    reason = available()
    if reason:
        pytest.skip("the Firestore emulator cannot run here: " + reason)
    emulator = FirestoreEmulator(PROJECT).start()
    try:
        yield emulator
    finally:
        emulator.stop()
        assert not emulator.running


@pytest.fixture
def firestore(emulator: FirestoreEmulator) -> FirestoreEmulator:
    if not emulator.running:  # a test stopped it and failed before starting it again
        emulator.start()
    emulator.reset()
    return emulator


@pytest.fixture
def firebase() -> Iterator[FakeFirebase]:
    fake = FakeFirebase(api_key=API_KEY, project_id=PROJECT).start()
    yield fake
    fake.stop()


@pytest.fixture
def machine(make_client, tmp_path: Path, firebase: FakeFirebase, firestore: FirestoreEmulator):
    """machine("a") starts a server for machine a (its own data directory and key file, kept across
    restarts of the same name), with Firebase Auth and Firestore sync configured."""
    def start(name: str, host: Optional[str] = None, **env: Optional[str]):
        root = tmp_path / name
        (root / "home").mkdir(parents=True, exist_ok=True)
        changes: Dict[str, Optional[str]] = {
            "MOVIE_RPC_HOME": str(root / "home"), "MOVIE_RPC_KEY_FILE": str(root / "secrets.key"),
            "FIREBASE_API_KEY": API_KEY, "FIREBASE_AUTH_EMULATOR_HOST": firebase.host,
            "FIREBASE_PROJECT_ID": PROJECT, "FIRESTORE_EMULATOR_HOST": host or firestore.host,
            # No periodic pull during a test: each test syncs when it means to.
            "MOVIE_RPC_SYNC_INTERVAL": "3600",
        }
        changes.update(env)
        return make_client("newline", env=changes)
    return start


def home_of(tmp_path: Path, name: str) -> Path:
    return tmp_path / name / "home"


def rows(home: Path, sql: str, *args: Any) -> List[tuple]:
    connection = sqlite3.connect(str(home / DB_NAME), timeout=10)
    try:
        return connection.execute(sql, args).fetchall()
    finally:
        connection.close()


def favorite_ids(client) -> List[int]:
    return sorted(f["movieId"] for f in client.call("favorites.list")["favorites"])


def remote_favorites(firestore: FirestoreEmulator, uid: str) -> Dict[int, Dict[str, Any]]:
    status, documents = firestore.list_documents("users/%s/favorites" % uid)
    assert status == 200, documents
    return {int(d["fields"]["movieId"]["integerValue"]): d["fields"] for d in documents}


def sign_up(client, email: str = "ada@example.com") -> str:
    return client.call("auth.register", email=email, password=PASSWORD)["user"]["id"]


def log_in(client, email: str = "ada@example.com") -> str:
    return client.call("auth.login", email=email, password=PASSWORD)["user"]["id"]


def after_this_millisecond() -> None:
    """Returns once the wall clock is in a later millisecond than when called: a change made after it is
    stamped later than every change answered before it (the conflict rule compares milliseconds, and at
    the same millisecond an add wins over a removal). At most a millisecond."""
    now = time.time_ns() // 1_000_000
    while time.time_ns() // 1_000_000 <= now:
        time.sleep(0.0002)


def sync(client) -> Dict[str, int]:
    """sync.now, with room for a loaded machine (an emulator just started answers its first calls slowly)."""
    return client.wait(client.request_async("sync.now"), timeout=180)


def wait_for(condition: Callable[[], bool], timeout: float = 30.0) -> bool:
    """Polls `condition` (a request or a read each time) until it holds; for background work only."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


# -- without Firestore

def test_sync_is_disabled_for_local_accounts_and_when_turned_off(make_client, firebase):
    local = make_client("newline")
    status = local.call("sync.status")
    assert status == {"enabled": False, "provider": "none", "state": "disabled", "pending": 0,
                      "lastPushedAt": None, "lastPulledAt": None, "lastError": None}
    error = error_of(local.call, "sync.now")
    assert error.code == -32031 and "FIREBASE_PROJECT_ID" in error.message
    off = make_client("newline", env={"FIREBASE_API_KEY": API_KEY, "FIREBASE_AUTH_EMULATOR_HOST": firebase.host,
                                      "FIREBASE_PROJECT_ID": PROJECT, "MOVIE_RPC_SYNC": "0"})
    sign_up(off)
    off.call("favorites.add", movieId=550)
    assert off.call("sync.status")["provider"] == "none"


# -- two machines, one user

def test_add_remove_and_profile_propagate_between_two_machines(machine, firestore):
    a, b = machine("a"), machine("b")
    uid = sign_up(a)
    assert log_in(b) == uid
    assert a.call("sync.status")["enabled"] is True

    added = a.call("favorites.add", movieId=550)
    a.call("account.update", profile={"bio": "Likes Fincher", "phone": "+1 555 0100"})
    # Pushed in the background shortly after each change, or by sync.now, whichever comes first.
    assert sync(a)["pending"] == 0
    remote = remote_favorites(firestore, uid)
    assert remote[550]["deleted"] == {"booleanValue": False} and "movie" in remote[550]

    sync(b)
    on_b = b.call("favorites.list")["favorites"]
    assert [f["movieId"] for f in on_b] == [550]
    assert on_b[0]["movie"] == added["movie"] and on_b[0]["addedAt"] == added["addedAt"]
    assert b.call("auth.status")["user"]["bio"] == "Likes Fincher"
    assert b.call("favorites.contains", movieIds=[550, 13])["contains"] == {"550": True, "13": False}

    b.call("favorites.remove", movieId=550)
    assert sync(b)["pending"] == 0
    assert remote_favorites(firestore, uid)[550]["deleted"] == {"booleanValue": True}  # a tombstone
    sync(a)
    assert favorite_ids(a) == []
    status = a.call("sync.status")
    assert status["state"] == "idle" and status["pending"] == 0 and status["lastError"] is None
    assert status["lastPushedAt"] and status["lastPulledAt"]


def test_sync_now_reports_progress_and_a_refusal_by_the_rules_in_plain_words(machine, firestore):
    a = machine("a")
    sign_up(a)
    a.call("favorites.add", movieId=550)
    assert sync(a)["pending"] == 0
    a.call("sync.now", progressToken="sync-1")
    progress = [a.next_notification(timeout=30) for _ in range(3)]
    assert [n.params["token"] for n in progress] == ["sync-1"] * 3
    assert [n.params["value"]["done"] for n in progress] == [0, 1, 2]

    firestore.set_rules("rules_version = '2';\nservice cloud.firestore { match /{document=**} "
                        "{ allow read, write: if false; } }")
    try:
        a.call("favorites.add", movieId=13)  # answered locally all the same
        error = error_of(sync, a)
        assert error.code == -32031 and error.data["retryable"] is False
        # Background retries may be under way (three in a row at most, then it stays in error).
        assert wait_for(lambda: a.call("sync.status")["state"] == "error")
        status = a.call("sync.status")
        assert status["pending"] == 1
        assert "security rules" in status["lastError"] and "403" in status["lastError"]
    finally:
        firestore.set_rules(RULES_PATH.read_text())
    assert sync(a)["pending"] == 0
    assert a.call("sync.status")["lastError"] is None


def test_a_change_reaches_the_other_machine_in_the_background(machine):
    a, b = machine("a"), machine("b", MOVIE_RPC_SYNC_INTERVAL="1")
    sign_up(a)
    log_in(b)
    sync(b)
    a.call("favorites.add", movieId=550)  # pushed by itself shortly after (debounced)
    assert wait_for(lambda: a.call("sync.status")["pending"] == 0)
    # b pulls when a list is read and its last pull is older than MOVIE_RPC_SYNC_INTERVAL.
    assert wait_for(lambda: favorite_ids(b) == [550])


def test_offline_changes_on_both_machines_are_decided_by_the_rule(machine, firestore, tmp_path):
    a, b = machine("a"), machine("b")
    uid = sign_up(a)
    log_in(b)
    for movie in (550, 13):
        a.call("favorites.add", movieId=movie)
    sync(a)
    sync(b)
    assert favorite_ids(b) == [13, 550]

    firestore.stop()  # both machines offline
    # 550: added again on a, then removed later on b: the removal is the later change and wins.
    a.call("favorites.remove", movieId=550)
    a.call("favorites.add", movieId=550)
    # Later by the clock, not only in order: answered within one millisecond, the two changes had the same
    # time, where the add wins (a CI run of 2026-12-03 saw exactly that).
    after_this_millisecond()
    b.call("favorites.remove", movieId=550)
    # 13: removed on b, then removed and added again later on a: the add wins.
    b.call("favorites.remove", movieId=13)
    a.call("favorites.remove", movieId=13)
    a.call("favorites.add", movieId=13)
    # 155: added on b only, 278 on a only: nothing to decide, both arrive.
    b.call("favorites.add", movieId=155)
    a.call("favorites.add", movieId=278)
    # Local answers are unaffected; sync says it is offline, in words, and keeps the outbox.
    assert favorite_ids(a) == [13, 278, 550] and favorite_ids(b) == [155]
    error = error_of(a.call, "sync.now")
    assert error.code == -32031 and error.data["retryable"] is True
    status = a.call("sync.status")
    assert status["state"] == "offline" and status["pending"] == 3
    assert "cannot be reached" in status["lastError"]

    firestore.start()  # back (the emulator keeps nothing across a restart: only the outboxes remain)
    # Background retries run too: a push of an older change can land just after a newer one from the
    # other machine; the machine holding the newer one pushes it again at its next sync. A round or two.
    for _ in range(5):
        sync(a)
        sync(b)
        if favorite_ids(a) == favorite_ids(b) and a.call("sync.status")["pending"] == 0:
            break
    assert favorite_ids(a) == favorite_ids(b) == [13, 155, 278]
    remote = remote_favorites(firestore, uid)
    assert remote[550]["deleted"] == {"booleanValue": True}
    assert all(remote[m]["deleted"] == {"booleanValue": False} for m in (13, 155, 278))
    assert a.call("sync.status")["pending"] == 0 and b.call("sync.status")["pending"] == 0


def test_a_change_survives_kill_9_and_is_pushed_after_restart(machine, firestore, tmp_path):
    # Unreachable Firestore first, so the change is surely still in the outbox when the process dies.
    a = machine("a", host=DEAD_HOST)
    uid = sign_up(a)
    a.call("favorites.add", movieId=550)
    os.kill(a.pid, signal.SIGKILL)
    a.process.wait(timeout=10)
    assert rows(home_of(tmp_path, "a"), "SELECT kind, movie_id FROM sync_outbox") == [("favorite", 550)]

    restarted = machine("a")  # pushes at start, nobody asking
    assert wait_for(lambda: 550 in remote_favorites(firestore, uid))
    assert wait_for(lambda: restarted.call("sync.status")["pending"] == 0)


def test_the_outbox_survives_clean_restarts(machine, firestore):
    a = machine("a", host=DEAD_HOST)
    uid = sign_up(a)
    for movie in (550, 13, 155):
        a.call("favorites.add", movieId=movie)
    a.call("favorites.remove", movieId=13)
    assert a.call("sync.status")["pending"] == 3  # one entry per movie: the latest state is pushed
    assert a.close() == 0  # tries to push within its deadline, and cannot

    again = machine("a", host=DEAD_HOST)
    assert again.call("sync.status")["pending"] == 3
    assert again.close() == 0

    online = machine("a")
    sync(online)
    assert online.call("sync.status")["pending"] == 0
    remote = remote_favorites(firestore, uid)
    assert sorted(remote) == [13, 155, 550] and remote[13]["deleted"] == {"booleanValue": True}


def test_a_thousand_favorites_reach_the_other_machine(machine, firestore, make_client):
    tmdb = FakeTMDB(api_key="tmdb-key", synthetic=True).start()
    try:
        catalog = {"TMDB_API_KEY": "tmdb-key", "TMDB_BASE_URL": tmdb.base_url}
        a, b = machine("a", **catalog), machine("b", **catalog)
        uid = sign_up(a)
        log_in(b)
        ids = list(range(10_000_000, 10_001_000))
        pending = [a.request_async("favorites.add", movieId=movie) for movie in ids]
        for request in pending:
            request.result(timeout=60)
        assert sync(a)["pending"] == 0
        assert len(remote_favorites(firestore, uid)) == 1000
        sync(b)
        assert favorite_ids(b) == ids
    finally:
        tmdb.stop()


# -- other users, the rules

def test_a_second_user_sees_nothing_and_the_rules_refuse_cross_user_access(machine, firestore, firebase):
    a = machine("a")
    uid_a = sign_up(a)
    a.call("favorites.add", movieId=550)
    sync(a)

    c = machine("c")
    uid_c = sign_up(c, "bob@example.com")
    assert sync(c)["pulled"] == 0
    assert favorite_ids(c) == []

    bob = firebase.id_token_for(uid_c, "bob@example.com", 3600)
    ada = firebase.id_token_for(uid_a, "ada@example.com", 3600)
    assert firestore.get("users/%s/favorites/550" % uid_a, token=bob)[0] == 403
    assert firestore.list_documents("users/%s/favorites" % uid_a, token=bob)[0] == 403
    assert firestore.get("users/%s" % uid_a, token=bob)[0] == 403
    assert firestore.get("users/%s/favorites/550" % uid_a, token=None)[0] == 403
    assert firestore.get("users/%s/favorites/550" % uid_a, token=ada)[0] == 200

    def favorite(uid: str, movie_id: int, **fields: Any) -> Dict[str, Any]:
        movie = movie_id
        document = {"movieId": {"integerValue": str(movie)}, "deleted": {"booleanValue": False},
                    "changedAt": {"timestampValue": "2026-12-01T10:00:00.000Z"},
                    "changeId": {"stringValue": "0123456789abcdef"},
                    "addedAt": {"timestampValue": "2026-12-01T10:00:00.000Z"},
                    "movie": {"stringValue": '{"id": %d}' % movie}}
        document.update(fields)
        return {"update": {"name": firestore.name("users/%s/favorites/%d" % (uid, movie)),
                           "fields": {k: v for k, v in document.items() if v is not None}},
                "updateTransforms": [{"fieldPath": "syncedAt", "setToServerValue": "REQUEST_TIME"}]}

    assert firestore.commit([favorite(uid_a, 9)], token=ada)[0] == 200  # the shape the server writes
    assert firestore.commit([favorite(uid_a, 10)], token=bob)[0] == 403  # another user's document
    assert firestore.commit([{"delete": firestore.name("users/%s/favorites/550" % uid_a)}], token=bob)[0] == 403
    malformed = [
        favorite(uid_a, 11, movieId={"integerValue": "12"}),          # id not the document's
        favorite(uid_a, 11, movieId={"stringValue": "11"}),           # wrong type
        favorite(uid_a, 11, deleted={"stringValue": "no"}),
        favorite(uid_a, 11, movie={"stringValue": "x" * 20000}),      # too large
        favorite(uid_a, 11, movie=None),                              # an add without its movie
        favorite(uid_a, 11, extra={"stringValue": "?"}),              # an unknown field
        favorite(uid_a, 11, changeId={"stringValue": ""}),
    ]
    for write in malformed:
        assert firestore.commit([write], token=ada)[0] == 403, write
    no_server_time = favorite(uid_a, 11)
    del no_server_time["updateTransforms"]
    assert firestore.commit([no_server_time], token=ada)[0] == 403
    # The malformed-but-allowed document the server did not write is skipped, not applied.
    assert sync(c)["pulled"] == 0 and favorite_ids(c) == []


def test_the_server_skips_remote_documents_it_cannot_read(machine, firestore):
    a = machine("a")
    uid = sign_up(a)
    # Allowed by the rules (a string), but not a movie summary: never applied.
    write = {"update": {"name": firestore.name("users/%s/favorites/77" % uid), "fields": {
        "movieId": {"integerValue": "77"}, "deleted": {"booleanValue": False},
        "changedAt": {"timestampValue": "2026-12-01T10:00:00.000Z"}, "changeId": {"stringValue": "ff"},
        "addedAt": {"timestampValue": "2026-12-01T10:00:00.000Z"}, "movie": {"stringValue": "not json"}}},
        "updateTransforms": [{"fieldPath": "syncedAt", "setToServerValue": "REQUEST_TIME"}]}
    assert firestore.commit([write])[0] == 200
    assert sync(a)["pulled"] == 0
    assert favorite_ids(a) == []


# -- tokens

def test_id_tokens_are_refreshed_during_a_sync_and_a_revoked_session_says_so(machine, firebase, firestore):
    firebase.expires_in = 30  # always within the 30 s refresh margin: every Firestore call refreshes first
    a = machine("a")
    uid = sign_up(a)
    for movie in (550, 13, 155):
        a.call("favorites.add", movieId=movie)
    before = firebase.operations().count("token")
    assert sync(a)["pending"] == 0
    refreshes = firebase.operations().count("token") - before
    assert refreshes >= 2  # runQuery, get (and commit, unless pushed before): each with a fresh token
    assert len(remote_favorites(firestore, uid)) == 3

    firebase.revoke_refresh_tokens()
    a.call("favorites.add", movieId=278)  # still answered locally
    error = error_of(a.call, "sync.now")
    assert error.code == -32011
    status = a.call("sync.status")  # the session ended: nothing is pushed for anyone, and it says so
    assert status["enabled"] is False and status["state"] == "error" and "log in again" in status["lastError"]
    log_in(a)
    assert favorite_ids(a) == [13, 155, 278, 550]
    assert sync(a)["pending"] == 0
    assert len(remote_favorites(firestore, uid)) == 4


def test_logout_stops_syncing_and_keeps_nothing_pending_under_another_user(machine, firestore, tmp_path):
    a = machine("a", host=DEAD_HOST)
    uid_a = sign_up(a)
    a.call("favorites.add", movieId=550)
    a.call("auth.logout")
    uid_b = sign_up(a, "bob@example.com")
    assert a.call("sync.status")["pending"] == 0  # Ada's change stays Ada's
    assert rows(home_of(tmp_path, "a"), "SELECT user_id FROM sync_outbox") == [(uid_a,)]
    a.close()

    online = machine("a")
    sync(online)
    assert remote_favorites(firestore, uid_b) == {} and remote_favorites(firestore, uid_a) == {}
    online.call("auth.logout")
    log_in(online)
    sync(online)
    assert list(remote_favorites(firestore, uid_a)) == [550]


def test_account_delete_removes_the_remote_documents(machine, firestore, firebase):
    a = machine("a")
    uid = sign_up(a)
    for movie in (550, 13):
        a.call("favorites.add", movieId=movie)
    a.call("account.update", profile={"bio": "Gone soon"})
    sync(a)
    assert len(remote_favorites(firestore, uid)) == 2 and firestore.get("users/" + uid)[0] == 200

    firestore.stop()
    error = error_of(a.call, "account.delete", password=PASSWORD)
    assert error.code == -32031 and error.data["retryable"] is True and "Firestore" in error.message
    assert a.call("auth.status")["loggedIn"] is True  # nothing deleted: the user can try again
    firestore.start()
    sync(a)  # the restarted emulator is empty: put the documents back first

    assert a.call("account.delete", password=PASSWORD)["deleted"] is True
    assert remote_favorites(firestore, uid) == {}
    assert firestore.get("users/" + uid)[0] == 404
    assert firebase.user_by_email("ada@example.com") is None


# -- secrets

def test_no_token_or_password_in_any_output_or_file(spawn_raw, firebase, firestore, tmp_path, home):
    env = {"MOVIE_RPC_LOG_LEVEL": "debug", "FIREBASE_API_KEY": API_KEY,
           "FIREBASE_AUTH_EMULATOR_HOST": firebase.host, "FIREBASE_PROJECT_ID": PROJECT,
           "FIRESTORE_EMULATOR_HOST": firestore.host, "MOVIE_RPC_SYNC_INTERVAL": "3600"}
    firebase.expires_in = 30
    raw = spawn_raw("newline", env=env)
    assert "result" in raw.request("auth.register", {"email": "ada@example.com", "password": PASSWORD})
    assert "result" in raw.request("favorites.add", {"movieId": 550})
    assert "result" in raw.request("sync.now", {})
    assert "result" in raw.request("sync.status", {})
    firestore.stop()
    assert "error" in raw.request("sync.now", {})
    assert "result" in raw.request("sync.status", {})
    firestore.start()
    raw.finish()
    output = bytes(raw.stdout) + raw.stderr_text().encode()
    stored = b""
    for path in sorted(home.rglob("*")):
        if path.is_file():
            stored += path.read_bytes()
    secrets = [API_KEY, PASSWORD] + firebase.issued_id_tokens + firebase.issued_refresh_tokens
    assert len(firebase.issued_id_tokens) >= 3
    for secret in secrets:
        assert secret.encode() not in output, secret[:12]
        assert secret.encode() not in stored, secret[:12]
