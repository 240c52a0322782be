"""The activity log and profiles as a hostile client tries them (issue 13, items 3, 4, 9, 13 and 14): another
user's events stay private, byte limits hold, impossible timestamps and bidirectional overrides are refused,
and a key file others can read is not used.
"""
from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Dict, Optional

import pytest

from fake_firebase import FakeFirebase
from conftest import error_of

LOCAL: Dict[str, Optional[str]] = {
    "MOVIE_RPC_PASSWORD_ITERATIONS": "1000", "FIREBASE_API_KEY": None, "FIREBASE_AUTH_EMULATOR_HOST": None,
}


@pytest.fixture
def start(make_client):
    def start(env: Optional[Dict[str, Optional[str]]] = None, **options):
        changes = dict(LOCAL)
        changes.update(env or {})
        return make_client(env=changes, **options)
    return start


def two_users(client):
    """An anonymous note, Bob's secret note, then Ada logged in with a note of hers."""
    anonymous = client.events_add(name="note", params={"text": "left on the shared machine"})
    client.auth_register("bob@example.com", "pw-bob")
    bobs = client.events_add(name="note", params={"text": "bob's secret diary"})
    client.auth_logout()
    client.auth_register("ada@example.com", "pw-ada")
    adas = client.events_add(name="note", params={"text": "ada's note"})
    return anonymous, bobs, adas


# -- item 3: activity logs are private

def test_a_user_never_reads_counts_or_deletes_another_users_events(start):
    client = start()
    anonymous, bobs, adas = two_users(client)
    listed = client.call("events.list", {"limit": 500})["events"]
    assert bobs["id"] not in [e["id"] for e in listed]
    assert {e["userId"] for e in listed} <= {None, adas["userId"]}
    assert {anonymous["id"], adas["id"]} <= {e["id"] for e in listed}
    assert client.call("events.list", {"userId": bobs["userId"]})["events"] == []
    assert client.call("events.search", {"query": "secret"})["events"] == []
    assert [e["id"] for e in client.call("events.search", {"query": "note"})["events"]] == [adas["id"], anonymous["id"]]
    assert error_of(client.events_get, id=bobs["id"]).code == -32021
    stats = client.events_stats()
    assert stats["total"] == len(listed)
    assert client.events_stats(since="2000-01-01T00:00:00Z")["total"] == len(listed)
    assert client.events_delete(ids=[bobs["id"], adas["id"]]) == {"deleted": [adas["id"]], "notFound": [bobs["id"]]}
    # Bob's note is still there for Bob.
    client.auth_logout()
    client.auth_login("bob@example.com", "pw-bob")
    assert client.events_get(id=bobs["id"])["params"] == {"text": "bob's secret diary"}
    # Nobody logged in: only the anonymous events.
    client.auth_logout()
    assert {e["userId"] for e in client.call("events.list", {"limit": 500})["events"]} == {None}
    assert error_of(client.events_get, id=bobs["id"]).code == -32021


def test_the_testers_switch_shows_every_event(start):
    client = start({"MOVIE_RPC_EVENTS_SCOPE": "all"})
    anonymous, bobs, adas = two_users(client)
    assert client.events_get(id=bobs["id"])["params"]["text"] == "bob's secret diary"
    assert [e["id"] for e in client.call("events.search", {"query": "secret"})["events"]] == [bobs["id"]]
    assert [e["id"] for e in client.call("events.list", {"userId": bobs["userId"], "name": "note"})["events"]] \
        == [bobs["id"]]


# -- item 4: account.delete takes the user's events with it

def test_deleting_an_account_deletes_its_events_and_says_how_many(start, home):
    client = start()
    anonymous, bobs, adas = two_users(client)
    client.movies_details(movie_id=550)  # recorded, still buffered when the delete comes
    deleted = client.account_delete("pw-ada")
    assert deleted["eventsDeleted"] >= 3  # user.registered, the note, movie.viewed (recorded, not yet flushed)
    connection = sqlite3.connect(str(home / "movie-rpc.sqlite"))
    try:
        assert connection.execute("SELECT count(*) FROM events WHERE user_id = ?", (adas["userId"],)).fetchone() \
            == (0,)
        assert connection.execute("SELECT count(*) FROM events WHERE user_id = ?", (bobs["userId"],)).fetchone()[0] \
            >= 2
    finally:
        connection.close()


# -- item 9: byte limits

def test_long_arrays_and_large_params_are_refused_naming_the_field(client):
    # Refused while decoding, after 1,000 elements, so a huge array costs no more than a long one.
    error = error_of(client.events_add, name="ok", params={"tags": list(range(1001))})
    assert error.code == -32602 and error.field == "params.tags" and "at most 1000 elements" in error.message
    error = error_of(client.events_add, name="ok", params={"k%d" % i: "x" * 10000 for i in range(7)})
    assert error.code == -32010 and [f["field"] for f in error.fields] == ["params"]
    assert "65536 bytes" in error.fields[0]["problem"]
    assert client.events_add(name="ok", params={"tags": list(range(1000))})["params"]["tags"][-1] == 999
    assert client.events_stats()["total"] == 1


def test_a_page_of_large_events_stays_within_its_byte_budget(client):
    text = "y" * 9000
    for index in range(40):  # 40 events of about 36 KB: 1.4 MB in all
        client.events_add(name="big", params={"a": text, "b": text, "c": text, "d": "%d" % index})
    first = client.call("events.list", {"limit": 500})
    size = len(json.dumps(first))
    assert size <= (1 << 20) + 64 * 1024, size
    assert 1 <= len(first["events"]) < 40 and first["nextCursor"] is not None
    found = client.call("events.search", {"query": "yyy", "limit": 500})
    assert len(json.dumps(found)) <= (1 << 20) + 64 * 1024 and found["nextCursor"] is not None
    events, cursor = [], None
    while True:
        page = client.call("events.list", {"limit": 500, **({"cursor": cursor} if cursor else {})})
        events += page["events"]
        cursor = page["nextCursor"]
        if cursor is None:
            break
    assert sorted(int(e["params"]["d"]) for e in events) == list(range(40))


# -- item 13: impossible timestamps, bidirectional overrides

IMPOSSIBLE = ["0000-01-01T00:00:00Z", "2026-02-30T12:00:00Z", "2026-11-30T24:00:00Z", "2026-11-30T23:60:00Z",
              "2026-11-30T23:59:60Z", "2026-11-30T08:00:00+25:00", "2026-11-30T08:00:00"]


@pytest.mark.parametrize("timestamp", IMPOSSIBLE)
def test_impossible_timestamps_are_refused(client, timestamp):
    error = error_of(client.events_add, name="ok", timestamp=timestamp)
    assert error.code == -32010 and [f["field"] for f in error.fields] == ["timestamp"]
    assert error_of(client.call, "events.list", {"since": timestamp}).field == "since"
    assert client.events_stats()["total"] == 0


def test_real_timestamps_round_trip(client):
    for text, stored in [("2024-02-29T23:59:59.999Z", "2024-02-29T23:59:59.999Z"),
                         ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00.000Z"),
                         ("2026-11-30T10:00:00+02:00", "2026-11-30T08:00:00.000Z")]:
        assert client.events_add(name="ok", timestamp=text)["timestamp"] == stored


@pytest.mark.parametrize("control", ["\u202e", "\u202a", "\u2066", "\u2069", "\u200f", "\u001b", "\u2028"])
def test_profile_text_refuses_bidi_overrides_and_control_characters(start, home, control):
    client = start()
    error = error_of(client.auth_register, "ada@example.com", "pw-ada",
                     profile={"displayName": "Ada" + control + "gnp.exe"})
    assert error.code == -32010 and [f["field"] for f in error.fields] == ["profile.displayName"]
    client.auth_register("ada@example.com", "pw-ada", profile={"displayName": "Ada"})
    if control != "\u2028":  # a line separator is a line break, which a bio may have
        error = error_of(client.account_update, profile={"bio": "about" + control + "me"})
        assert error.code == -32010 and [f["field"] for f in error.fields] == ["profile.bio"]
    assert client.auth_status()["user"]["displayName"] == "Ada"


# -- item 14: a key file others can read is refused

def test_a_key_file_readable_by_others_is_refused_with_a_clear_message(spawn_raw, server_env, tmp_path: Path):
    firebase = FakeFirebase(api_key="fake-key-file-test").start()
    try:
        key_file = Path(server_env["MOVIE_RPC_KEY_FILE"])
        key_file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        key_file.write_bytes(os.urandom(32))
        key_file.chmod(0o644)
        env = dict(LOCAL)
        env.update({"FIREBASE_API_KEY": "fake-key-file-test", "FIREBASE_AUTH_EMULATOR_HOST": firebase.host})
        server = spawn_raw(env=env)
        assert "result" in server.request("auth.register", {"email": "ada@example.com", "password": "secret-1"})
        server.finish()
        message = server.stderr_text()
        assert "accessible by others" in message and "chmod 600 %s" % key_file in message, message
        # Not used: no refresh token was sealed with it, so none was stored.
        connection = sqlite3.connect(str(Path(server_env["MOVIE_RPC_HOME"]) / "movie-rpc.sqlite"))
        try:
            assert connection.execute("SELECT count(*) FROM sessions WHERE refresh_token IS NOT NULL").fetchone() \
                == (0,)
        finally:
            connection.close()
        assert key_file.stat().st_mode & 0o777 == 0o644  # left as it was: the user decides
        key_file.chmod(0o600)  # once private it is used
        server = spawn_raw(env=env)
        assert "result" in server.request("auth.login", {"email": "ada@example.com", "password": "secret-1"})
        server.finish()
        assert "accessible by others" not in server.stderr_text()
    finally:
        firebase.stop()
