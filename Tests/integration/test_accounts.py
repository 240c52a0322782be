"""Accounts over real pipes: validation, registration, login, the session singleton across restarts and
processes, throttling, password changes, deletion, secrets hygiene, and the Firebase Auth path against a
fake Identity Toolkit server (fake_firebase.py).

Servers hash with MOVIE_RPC_PASSWORD_ITERATIONS=1000 for speed, except the test that checks the default
cost (600000) is what gets recorded.
"""
from __future__ import annotations

import os
import sqlite3
import stat
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import pytest

from fake_firebase import FakeFirebase
from conftest import error_of

DB_NAME = "movie-rpc.sqlite"
LOCAL: Dict[str, Optional[str]] = {
    "MOVIE_RPC_PASSWORD_ITERATIONS": "1000", "FIREBASE_API_KEY": None, "FIREBASE_AUTH_EMULATOR_HOST": None,
}
USER_KEYS = {"id", "email", "displayName", "bio", "phone", "birthDate", "createdAt", "provider"}


def rows(home: Path, sql: str, *args: Any) -> List[tuple]:
    """Runs a query on the server's database (a separate connection, closed at once)."""
    connection = sqlite3.connect(str(home / DB_NAME), timeout=10)
    try:
        return connection.execute(sql, args).fetchall()
    finally:
        connection.close()


def scalar(home: Path, sql: str, *args: Any) -> Any:
    return rows(home, sql, *args)[0][0]


def database_bytes(home: Path) -> bytes:
    data = b""
    for suffix in ("", "-wal", "-shm"):
        path = home / (DB_NAME + suffix)
        if path.exists():
            data += path.read_bytes()
    return data


@pytest.fixture
def start(make_client):
    """Starts a server with local accounts at the test cost; extra env on top."""
    def start(env: Optional[Dict[str, Optional[str]]] = None, **options):
        changes = dict(LOCAL)
        changes.update(env or {})
        return make_client(env=changes, **options)
    return start


# -- validation

def test_validate_checks_only_given_fields_and_has_no_side_effect(start, home):
    client = start()
    assert client.auth_validate() == {"valid": True, "fields": []}
    assert client.auth_validate(email="ada@example.com") == {"valid": True, "fields": []}
    result = client.auth_validate(email="ada@", password="ab", password_confirmation="abc",
                                  profile={"phone": "call me", "birthDate": "2999-01-01", "displayName": "Ada"})
    assert result["valid"] is False
    assert result["fields"] == [
        {"field": "email", "problem": "must be a valid email address, like name@example.com"},
        {"field": "password", "problem": "must be at least 3 characters"},
        {"field": "passwordConfirmation", "problem": "must match the password"},
        {"field": "profile.phone", "problem": "may contain only digits, spaces and + - ( )"},
        {"field": "profile.birthDate", "problem": "must be in the past"},
    ]
    assert client.auth_validate(password="abc", password_confirmation="abc")["valid"] is True
    assert scalar(home, "SELECT count(*) FROM users") == 0
    assert client.auth_status()["loggedIn"] is False


def test_invalid_registration_lists_every_field_and_creates_nothing(start, home):
    client = start()
    error = error_of(client.auth_register, "not an email", "zq", password_confirmation="xy",
                     profile={"bio": "b" * 1001, "birthDate": "1990-02-30"})
    assert error.code == -32010 and error.kind == "validationFailed"
    assert [f["field"] for f in error.data["fields"]] == [
        "email", "password", "passwordConfirmation", "profile.bio", "profile.birthDate"]
    assert "zq" not in error.message and "not an email" not in error.message  # fields, never values
    assert scalar(home, "SELECT count(*) FROM users") == 0
    assert scalar(home, "SELECT count(*) FROM sessions") == 0


def test_unknown_profile_members_and_wrong_types_are_invalid_params(start):
    client = start()
    error = error_of(client.auth_register, "ada@example.com", "secret", profile={"nickname": "ada"})
    assert error.code == -32602 and error.data["field"] == "profile.nickname"
    error = error_of(client.call, "auth.login", {"email": "ada@example.com", "password": 12345})
    assert error.code == -32602 and error.data["field"] == "password"
    assert "12345" not in error.message


# -- the session singleton

def test_register_restart_logged_in_logout_restart_logged_out(start, home):
    client = start()
    result = client.auth_register("Ada@Example.com", "correct horse", password_confirmation="correct horse",
                                  profile={"displayName": "Ada", "phone": "+1 (555) 010-9999",
                                           "birthDate": "1990-12-10"})
    assert result["route"] == "main"
    user = result["user"]
    assert set(user) == USER_KEYS
    assert user["email"] == "Ada@Example.com" and user["provider"] == "local"
    assert user["displayName"] == "Ada" and user["bio"] is None and user["birthDate"] == "1990-12-10"
    assert client.auth_status() == {"loggedIn": True, "user": user, "route": "main"}
    assert client.close() == 0

    restarted = start()
    assert restarted.auth_status() == {"loggedIn": True, "user": user, "route": "main"}
    assert restarted.auth_logout() == {"route": "login"}
    assert restarted.auth_status() == {"loggedIn": False, "user": None, "route": "login"}
    assert restarted.close() == 0

    again = start()
    assert again.auth_status() == {"loggedIn": False, "user": None, "route": "login"}
    assert again.auth_logout() == {"route": "login"}  # logging out twice is harmless
    logged_in = again.auth_login("ada@EXAMPLE.com", "correct horse")
    assert logged_in == {"user": user, "route": "main"}


def test_two_processes_on_one_data_directory_see_the_same_session(start):
    first, second = start(), start()
    assert second.auth_status()["loggedIn"] is False
    ada = first.auth_register("ada@example.com", "pw-ada")["user"]
    assert second.auth_status()["user"] == ada
    second.favorites_add(550)
    assert [f["movieId"] for f in first.favorites_list()["favorites"]] == [550]
    second.auth_logout()
    assert first.auth_status()["loggedIn"] is False
    assert error_of(first.favorites_list).code == -32011
    bob = second.auth_register("bob@example.com", "pw-bob")["user"]
    assert first.auth_status()["user"] == bob


def test_email_is_taken_case_insensitively(start, home):
    client = start()
    client.auth_register("ada@example.com", "pw1")
    error = error_of(client.auth_register, "ADA@Example.COM", "pw2")
    assert error.code == -32013 and error.kind == "emailTaken"
    assert scalar(home, "SELECT count(*) FROM users") == 1


def test_unknown_email_and_wrong_password_look_the_same(start):
    client = start()
    client.auth_register("ada@example.com", "pw1")
    client.auth_logout()
    wrong = error_of(client.auth_login, "ada@example.com", "pw2")
    unknown = error_of(client.auth_login, "bob@example.com", "pw1")
    assert wrong.code == unknown.code == -32012
    assert (wrong.message, wrong.data) == (unknown.message, unknown.data)
    assert client.auth_status()["loggedIn"] is False


def test_login_input_is_validated_first(start, home):
    client = start()
    error = error_of(client.auth_login, "ada", "pw")
    assert error.code == -32010
    assert [f["field"] for f in error.data["fields"]] == ["email", "password"]
    assert scalar(home, "SELECT count(*) FROM login_attempts") == 0


# -- throttling

def test_five_failures_lock_the_email_across_restarts_and_success_resets(start, home):
    client = start()
    client.auth_register("ada@example.com", "pw-right")
    client.auth_logout()
    for _ in range(5):
        assert error_of(client.auth_login, "ada@example.com", "pw-wrong").code == -32012
    locked = error_of(client.auth_login, "ada@example.com", "pw-right")
    assert locked.code == -32014 and locked.kind == "tooManyAttempts"
    assert 1 <= locked.data["retryAfter"] <= 30
    assert error_of(client.auth_login, "ADA@example.com", "pw-wrong").code == -32014  # not counted
    assert scalar(home, "SELECT failures FROM login_attempts") == 5
    client.close()

    restarted = start()
    assert error_of(restarted.auth_login, "ada@example.com", "pw-right").code == -32014
    # Let the lock pass (moved back in the database rather than waited for): the next failure doubles it.
    connection = sqlite3.connect(str(home / DB_NAME), timeout=10)
    with connection:
        connection.execute("UPDATE login_attempts SET locked_until = ?", (time.time() - 1,))
    connection.close()
    assert error_of(restarted.auth_login, "ada@example.com", "pw-wrong").code == -32012
    doubled = error_of(restarted.auth_login, "ada@example.com", "pw-right")
    assert doubled.code == -32014 and 30 < doubled.data["retryAfter"] <= 60
    connection = sqlite3.connect(str(home / DB_NAME), timeout=10)
    with connection:
        connection.execute("UPDATE login_attempts SET locked_until = ?", (time.time() - 1,))
    connection.close()
    assert restarted.auth_login("ada@example.com", "pw-right")["route"] == "main"
    assert scalar(home, "SELECT count(*) FROM login_attempts") == 0


# -- account changes

def test_profile_update_sets_and_clears_fields(start):
    client = start()
    client.auth_register("ada@example.com", "pw1", profile={"displayName": "Ada", "phone": "123"})
    user = client.account_update(profile={"bio": "Analyst\nand poet", "phone": ""})["user"]
    assert (user["displayName"], user["bio"], user["phone"]) == ("Ada", "Analyst\nand poet", None)
    error = error_of(client.account_update, profile={"displayName": "x" * 101})
    assert error.code == -32010 and error.data["fields"] == [
        {"field": "profile.displayName", "problem": "must be at most 100 characters"}]
    assert client.auth_status()["user"] == user


def test_password_change_needs_the_current_password_and_ends_other_sessions(start, home):
    client = start()
    ada = client.auth_register("ada@example.com", "pw-old")["user"]
    # Another session of Ada's (another device's), straight into the database.
    connection = sqlite3.connect(str(home / DB_NAME), timeout=10)
    with connection:
        connection.execute("INSERT INTO sessions(token_hash, user_id, created_at) VALUES (randomblob(32), ?, ?)",
                           (ada["id"], "2026-01-01T00:00:00.000Z"))
    connection.close()
    before = rows(home, "SELECT s.id, s.token_hash FROM current_session c JOIN sessions s ON s.id = c.session_id")
    assert scalar(home, "SELECT count(*) FROM sessions WHERE user_id = ?", ada["id"]) == 2

    missing = error_of(client.account_update, new_password="pw-new")
    assert missing.code == -32010 and missing.data["fields"][0]["field"] == "currentPassword"
    assert error_of(client.account_update, new_password="pw-new", current_password="pw-bad").code == -32012
    assert scalar(home, "SELECT count(*) FROM sessions WHERE user_id = ?", ada["id"]) == 2

    assert client.account_update(new_password="pw-new", current_password="pw-old")["user"] == ada
    after = rows(home, "SELECT s.id, s.token_hash FROM current_session c JOIN sessions s ON s.id = c.session_id")
    assert scalar(home, "SELECT count(*) FROM sessions WHERE user_id = ?", ada["id"]) == 1
    assert after[0][0] == before[0][0] and after[0][1] != before[0][1]  # kept, with a fresh token
    assert client.auth_status()["user"] == ada
    client.auth_logout()
    assert error_of(client.auth_login, "ada@example.com", "pw-old").code == -32012
    assert client.auth_login("ada@example.com", "pw-new")["user"] == ada


def test_account_methods_need_a_logged_in_user(start):
    client = start()
    calls = [(client.account_update, {"profile": {"bio": "x"}}), (client.account_delete, {"password": "pw"})]
    for call, args in calls:
        error = error_of(call, **args)
        assert error.code == -32011 and error.kind == "loginRequired"


def test_deleting_an_account_leaves_nothing_of_the_user(start, home):
    client = start()
    bob = client.auth_register("bob@example.com", "pw-bob")["user"]
    client.favorites_add(13)
    ada = client.auth_register("ada@example.com", "pw-ada")["user"]
    client.favorites_add(550)
    client.favorites_add(13)
    client.auth_logout()
    assert error_of(client.auth_login, "ada@example.com", "pw-wrong").code == -32012
    client.auth_login("ada@example.com", "pw-ada")

    assert error_of(client.account_delete, "pw-wrong").code == -32012
    assert scalar(home, "SELECT count(*) FROM users WHERE id = ?", ada["id"]) == 1
    client.events_stats()  # a read flushes what was recorded
    ada_events = scalar(home, "SELECT count(*) FROM events WHERE user_id = ?", ada["id"])
    assert ada_events >= 4  # registered, two favorites, logged in
    deleted = client.account_delete("pw-ada")
    assert deleted["deleted"] is True and deleted["route"] == "login" and deleted["eventsDeleted"] >= ada_events
    assert client.auth_status() == {"loggedIn": False, "user": None, "route": "login"}

    for table, column in [("users", "id"), ("sessions", "user_id"), ("favorites", "user_id")]:
        assert scalar(home, "SELECT count(*) FROM %s WHERE %s = ?" % (table, column), ada["id"]) == 0, table
    assert scalar(home, "SELECT count(*) FROM login_attempts WHERE email_normalized = 'ada@example.com'") == 0
    assert scalar(home, "SELECT count(*) FROM current_session") == 0
    # No table mentions Ada: her activity events went with the account (issue 13.4: 7 rows were left,
    # custom notes included). The trigram index's own tables hold no ids.
    assert scalar(home, "SELECT count(*) FROM events WHERE user_id = ?", ada["id"]) == 0
    assert scalar(home, "SELECT count(*) FROM event_usage WHERE user_key = ?", ada["id"]) == 0
    tables = [name for (name,) in rows(home, "SELECT name FROM sqlite_master WHERE type = 'table'")
              if not name.startswith(("events_fts", "sqlite_"))]
    for table in tables:
        columns = [column[1] for column in rows(home, "PRAGMA table_info(%s)" % table)]
        for column in columns:
            hits = scalar(home, "SELECT count(*) FROM %s WHERE CAST(%s AS TEXT) IN (?, ?)" % (table, column),
                          ada["id"], "ada@example.com")
            assert hits == 0, (table, column)
    # Bob is untouched, and Ada's email is free again.
    client.auth_login("bob@example.com", "pw-bob")
    assert [f["movieId"] for f in client.favorites_list()["favorites"]] == [13]
    assert client.auth_register("ada@example.com", "pw-ada2")["user"]["id"] != ada["id"]
    assert bob["id"] != ada["id"]


# -- costs and secrets

def test_the_default_cost_is_recorded_as_600000(start, home):
    client = start({"MOVIE_RPC_PASSWORD_ITERATIONS": None})
    client.auth_register("ada@example.com", "correct horse battery")
    stored = scalar(home, "SELECT password_hash FROM users")
    algorithm, iterations, salt, key = stored.split("$")
    assert (algorithm, iterations) == ("pbkdf2-sha256", "600000")
    assert len(salt) == 24 and len(key) == 44  # base64 of 16 and 32 bytes
    client.auth_logout()
    started = time.monotonic()
    client.auth_login("ada@example.com", "correct horse battery")
    elapsed = time.monotonic() - started
    started = time.monotonic()
    error_of(client.auth_login, "nobody@example.com", "correct horse battery")
    unknown = time.monotonic() - started
    print("login at the default cost: %.0f ms; unknown email: %.0f ms" % (elapsed * 1000, unknown * 1000))
    # An unknown email costs a full key derivation too (generous bounds: shared, noisy machine).
    assert unknown > elapsed * 0.3


def test_secrets_never_reach_stdout_stderr_or_the_database(spawn_raw, home):
    passwords = ["Pw-first-7f3a9c", "Pw-wrong-51e0bd", "Pw-second-c2d84e"]
    raw = spawn_raw("newline", env=dict(LOCAL, MOVIE_RPC_LOG_LEVEL="debug"))
    assert "result" in raw.request("auth.register", {"email": "ada@example.com", "password": passwords[0],
                                                     "passwordConfirmation": passwords[0]})
    raw.request("auth.logout")
    assert raw.request("auth.login", {"email": "ada@example.com", "password": passwords[1]})["error"]["code"] == -32012
    assert "result" in raw.request("auth.login", {"email": "ada@example.com", "password": passwords[0]})
    assert raw.request("account.update", {"newPassword": passwords[2],
                                          "currentPassword": passwords[1]})["error"]["code"] == -32012
    assert "result" in raw.request("account.update", {"newPassword": passwords[2], "currentPassword": passwords[0]})
    assert raw.request("auth.validate", {"password": passwords[1], "passwordConfirmation": passwords[2]})["result"]
    raw.finish()
    output = bytes(raw.stdout) + raw.stderr_text().encode()
    stored = database_bytes(home)
    for password in passwords:
        assert password.encode() not in output
        assert password.encode() not in stored
    hashes = [row[0] for row in rows(home, "SELECT password_hash FROM users")]
    tokens = [bytes(row[0]) for row in rows(home, "SELECT token_hash FROM sessions")]
    assert hashes and tokens and all(len(token) == 32 for token in tokens)
    for secret in hashes:
        assert secret.encode() not in output
        salt, key = secret.split("$")[2:]
        assert salt.encode() not in output and key.encode() not in output
    for token in tokens:
        assert token.hex().encode() not in output.lower()


def test_the_database_and_its_directory_are_private(start, home):
    client = start()
    client.auth_register("ada@example.com", "pw1")
    for suffix in ("", "-wal", "-shm"):
        path = home / (DB_NAME + suffix)
        if path.exists():
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    client.close()
    assert stat.S_IMODE((home / DB_NAME).stat().st_mode) == 0o600


# -- Firebase Auth, against the fake

FIREBASE_KEY = "fake-web-api-key-3f9d"


@pytest.fixture
def firebase() -> Iterator[FakeFirebase]:
    fake = FakeFirebase(api_key=FIREBASE_KEY).start()
    yield fake
    fake.stop()


@pytest.fixture
def start_firebase(start, firebase):
    def start_firebase(env: Optional[Dict[str, Optional[str]]] = None, **options):
        changes = {"FIREBASE_API_KEY": FIREBASE_KEY, "FIREBASE_AUTH_EMULATOR_HOST": firebase.host}
        changes.update(env or {})
        return start(changes, **options)
    return start_firebase


def test_firebase_register_login_and_restart(start_firebase, firebase, home):
    client = start_firebase()
    result = client.auth_register("Ada@Example.com", "secret-1", profile={"displayName": "Ada", "bio": "Hi"})
    user = result["user"]
    remote = firebase.user_by_email("ada@example.com")
    assert remote is not None and user["id"] == remote["localId"] and remote["displayName"] == "Ada"
    assert user["provider"] == "firebase" and user["bio"] == "Hi"
    assert firebase.operations() == ["signUp"]
    # Favorites are local, keyed by Firebase's localId.
    client.favorites_add(550)
    assert scalar(home, "SELECT user_id FROM favorites") == remote["localId"]
    assert scalar(home, "SELECT password_hash FROM users") is None
    client.close()

    restarted = start_firebase()
    assert restarted.auth_status()["user"] == user  # no request needed
    restarted.auth_logout()
    assert error_of(restarted.auth_login, "ada@example.com", "secret-X").code == -32012
    logged_in = restarted.auth_login("ada@example.com", "secret-1")["user"]
    assert logged_in["id"] == user["id"] and logged_in["displayName"] == "Ada" and logged_in["bio"] == "Hi"
    assert firebase.operations()[-3:] == ["signInWithPassword", "signInWithPassword", "lookup"]
    assert [f["movieId"] for f in restarted.favorites_list()["favorites"]] == [550]


def test_firebase_errors_map_to_the_local_codes(start_firebase, firebase):
    client = start_firebase()
    client.auth_register("ada@example.com", "secret-1")
    assert error_of(client.auth_register, "ADA@example.com", "secret-2").code == -32013  # EMAIL_EXISTS
    weak = error_of(client.auth_register, "bob@example.com", "abcde")  # ok locally, WEAK_PASSWORD remotely
    assert weak.code == -32010
    assert weak.data["fields"] == [
        {"field": "password", "problem": "is too weak: Password should be at least 6 characters"}]
    client.auth_logout()
    unknown = error_of(client.auth_login, "nobody@example.com", "secret-1")
    wrong = error_of(client.auth_login, "ada@example.com", "secret-X")
    assert unknown.code == wrong.code == -32012 and unknown.message == wrong.message
    # Invalid input is refused before any request.
    count = len(firebase.operations())
    assert error_of(client.auth_login, "ada@", "x").code == -32010
    assert error_of(client.auth_register, "bob@example.com", "ab").code == -32010
    assert len(firebase.operations()) == count


def test_firebase_without_email_privacy_maps_the_same(start, home):
    fake = FakeFirebase(api_key=FIREBASE_KEY, improved_email_privacy=False).start()
    try:
        client = start({"FIREBASE_API_KEY": FIREBASE_KEY, "FIREBASE_AUTH_EMULATOR_HOST": fake.host})
        client.auth_register("ada@example.com", "secret-1")
        client.auth_logout()
        unknown = error_of(client.auth_login, "nobody@example.com", "secret-1")  # EMAIL_NOT_FOUND
        wrong = error_of(client.auth_login, "ada@example.com", "secret-X")  # INVALID_PASSWORD
        assert unknown.code == wrong.code == -32012
    finally:
        fake.stop()


def test_firebase_id_token_is_refreshed_after_expiry(start_firebase, firebase, home):
    client = start_firebase()
    client.auth_register("ada@example.com", "secret-1")
    firebase.expire_id_tokens()
    user = client.account_update(profile={"displayName": "Ada L."})["user"]
    assert user["displayName"] == "Ada L."
    assert firebase.operations()[-3:] == ["update", "token", "update"]
    assert firebase.user_by_email("ada@example.com")["displayName"] == "Ada L."
    client.close()
    # After a restart no ID token is in memory: the stored refresh token gets one first.
    restarted = start_firebase()
    restarted.account_update(profile={"displayName": ""})
    assert firebase.operations()[-2:] == ["token", "update"]
    assert firebase.user_by_email("ada@example.com")["displayName"] == ""


def test_firebase_revoked_session_requires_login(start_firebase, firebase):
    client = start_firebase()
    client.auth_register("ada@example.com", "secret-1")
    firebase.expire_id_tokens()
    firebase.revoke_refresh_tokens()
    error = error_of(client.account_update, profile={"displayName": "X"})
    assert error.code == -32011
    assert client.auth_status()["loggedIn"] is False


def test_firebase_password_change_and_delete(start_firebase, firebase, home):
    client = start_firebase()
    ada = client.auth_register("ada@example.com", "secret-1")["user"]
    assert error_of(client.account_update, new_password="secret-2", current_password="secret-X").code == -32012
    client.account_update(new_password="secret-2", current_password="secret-1")
    assert firebase.user_by_email("ada@example.com")["password"] == "secret-2"
    stored = scalar(home, "SELECT refresh_token FROM sessions")
    assert stored.startswith("v1:") and not any(t in stored for t in firebase.issued_refresh_tokens)  # sealed
    # The stored token is the one issued with the new password (the change revoked the older ones): a
    # restarted server, with no ID token in memory, refreshes with it and is served.
    client.close()
    client = start_firebase()
    firebase.expire_id_tokens()
    client.account_update(profile={"displayName": "Ada"})
    assert firebase.operations()[-2:] == ["token", "update"]
    client.favorites_add(550)
    assert error_of(client.account_delete, "secret-1").code == -32012
    deleted = client.account_delete("secret-2")
    assert deleted["deleted"] is True and deleted["route"] == "login" and deleted["eventsDeleted"] >= 1
    assert firebase.user_by_email("ada@example.com") is None
    assert firebase.operations()[-2:] == ["signInWithPassword", "delete"]
    for table, column in [("users", "id"), ("sessions", "user_id"), ("favorites", "user_id")]:
        assert scalar(home, "SELECT count(*) FROM %s WHERE %s = ?" % (table, column), ada["id"]) == 0


def test_firebase_unreachable_is_a_clear_retryable_error(start):
    client = start({"FIREBASE_API_KEY": FIREBASE_KEY, "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:1"})
    error = error_of(client.auth_login, "ada@example.com", "secret-1")
    assert error.code == -32031
    assert error.message == "The sign-in service is unreachable"
    assert error.data["retryable"] is True
    assert FIREBASE_KEY not in str(error.data) and FIREBASE_KEY not in error.message


def test_firebase_secrets_never_reach_stdout_or_stderr(spawn_raw, firebase, home):
    env = dict(LOCAL, MOVIE_RPC_LOG_LEVEL="debug", FIREBASE_API_KEY=FIREBASE_KEY,
               FIREBASE_AUTH_EMULATOR_HOST=firebase.host)
    raw = spawn_raw("newline", env=env)
    assert "result" in raw.request("auth.register", {"email": "ada@example.com", "password": "Pw-fb-1a2b3c"})
    assert raw.request("auth.login", {"email": "ada@example.com", "password": "Pw-fb-wrong9"})["error"]
    firebase.expire_id_tokens()
    assert "result" in raw.request("account.update", {"profile": {"displayName": "Ada"}})
    raw.finish()
    output = bytes(raw.stdout) + raw.stderr_text().encode()
    secrets = [FIREBASE_KEY, "Pw-fb-1a2b3c", "Pw-fb-wrong9"] + firebase.issued_id_tokens \
        + firebase.issued_refresh_tokens
    for secret in secrets:
        assert secret.encode() not in output, secret[:12]
    stored = database_bytes(home)
    for secret in [FIREBASE_KEY, "Pw-fb-1a2b3c", "Pw-fb-wrong9"] + firebase.issued_id_tokens:
        assert secret.encode() not in stored, secret[:12]
    # The refresh token is kept (a restart must stay logged in), sealed in its one column.
    for secret in firebase.issued_refresh_tokens:
        assert secret.encode() not in stored, secret[:12]
    assert scalar(home, "SELECT refresh_token FROM sessions").startswith("v1:")
