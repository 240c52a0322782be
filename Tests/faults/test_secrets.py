"""Security checks: no credential, password or token in clear in anything the server writes (stdout,
stderr at debug level, every file of the data directory), private file modes, and SQL built only with
bound parameters.

Secrets are searched in clear and in the encodings a leak would most likely take: URL-encoded (both
``%20`` and ``+`` forms), base64 (standard and URL-safe, at each of the three byte alignments, so a secret
inside a longer encoded blob is found too) and hex.
"""

from __future__ import annotations

import base64
import json
import os
import re
import sqlite3
import stat
import urllib.parse
from pathlib import Path
from typing import Dict, List, Tuple

from fake_firebase import FakeFirebase
from fake_tmdb import FakeTMDB, error_body
from raw_server import RawServer

from workload import DB_NAME, LOCAL

TMDB_KEY = "tmdb-K3y-7f9a1c2e4b6d8f0a1c3e5b7d9f1a3c5e"
TMDB_TOKEN = "eyJhbGciOiJIUzI1NiJ9.tmdb-read-access.t0ken-9a8b7c6d5e4f"
FIREBASE_KEY = "AIzaSy-firebase-Web-Key_0123456789abcdef"
PASSWORDS = ["Corr3ct horse+battery/staple=42", "N3w pa$$word&more?yes", "Wr0ng-pa55word-guess!"]
LOCAL_PASSWORDS = ["l0cal Secret/pass+word=1", "l0cal N3w&secret?pass", "l0cal wr0ng guess"]


def encodings(secret: str) -> List[Tuple[str, bytes]]:
    """(form, bytes) for every form of ``secret`` searched for."""
    raw = secret.encode("utf-8")
    forms = [("clear", raw),
             ("url", urllib.parse.quote(secret, safe="").encode()),
             ("url+", urllib.parse.quote_plus(secret, safe="").encode()),
             ("hex", raw.hex().encode())]
    for shift in range(3):
        part = raw[shift:]
        part = part[:len(part) // 3 * 3]
        if len(part) >= 9:
            forms.append(("base64@%d" % shift, base64.b64encode(part)))
            forms.append(("base64url@%d" % shift, base64.urlsafe_b64encode(part)))
    unique, seen = [], set()
    for name, value in forms:
        if value not in seen:
            seen.add(value)
            unique.append((name, value))
    return unique


def find_leaks(secrets: Dict[str, str], blobs: Dict[str, bytes]) -> List[str]:
    """Every (secret, form, where) found; matching ignores ASCII case for the hex and URL forms."""
    leaks = []
    for label, secret in secrets.items():
        for form, needle in encodings(secret):
            for where, blob in blobs.items():
                haystack, target = (blob.lower(), needle.lower()) if form in ("hex", "url", "url+") else (blob, needle)
                if target in haystack:
                    leaks.append("%s (%s) in %s" % (label, form, where))
    return leaks


def data_directory_bytes(home: Path) -> Dict[str, bytes]:
    return {str(path.relative_to(home)): path.read_bytes() for path in sorted(home.rglob("*")) if path.is_file()}


class EchoingTMDB(FakeTMDB):
    """The fake TMDB with three more faults: a 401 with an empty body, and a 401 and a 500 whose
    status_message echoes the credential the request carried (clear and URL-encoded), as a careless proxy
    might."""

    extra_faults = {"401-empty", "401-echo", "500-echo"}

    def _handle(self, h):
        with self.lock:
            fault = self.fault if self.fault in self.extra_faults else None
        if fault is None or h.path.startswith("/t/p/"):
            return super()._handle(h)
        with self.lock:
            self.requests.append(h.path)
        # Echo the credential this request carried: the api_key query item and the Authorization header.
        sent = urllib.parse.parse_qs(urllib.parse.urlsplit(h.path).query).get("api_key", [""])[0]
        echo = "Invalid API key %s (%s), header %s" % (
            sent, urllib.parse.quote(sent, safe=""), h.headers.get("Authorization", ""))
        if fault == "401-empty":
            return self._send(h, 401, b"")
        if fault == "401-echo":
            return self._send(h, 401, error_body(7, echo))
        return self._send(h, 500, error_body(11, echo))


def request_ok(server: RawServer, method: str, params=None):
    reply = server.request(method, params)
    assert "result" in reply, reply
    return reply["result"]


def request_error(server: RawServer, method: str, params=None):
    reply = server.request(method, params)
    assert "error" in reply, reply
    return reply["error"]


def replies_have_no_token_members(stdout: bytes) -> List[str]:
    found = []

    def walk(node, where):
        if isinstance(node, dict):
            for key, value in node.items():
                if "token" in key.lower() and key != "progressToken":
                    found.append("%s.%s" % (where, key))
                walk(value, "%s.%s" % (where, key))
        elif isinstance(node, list):
            for item in node:
                walk(item, where)

    for line in stdout.splitlines():
        if line.strip():
            walk(json.loads(line), "reply")
    return found


def test_no_credential_password_or_token_in_clear_anywhere(spawn_raw, home: Path, tmp_path: Path):
    tmdb = EchoingTMDB(api_key=TMDB_KEY, access_token=TMDB_TOKEN).start()
    firebase = FakeFirebase(api_key=FIREBASE_KEY).start()
    outputs: Dict[str, bytes] = {}
    try:
        common = {"TMDB_BASE_URL": tmdb.base_url, "TMDB_IMAGE_BASE_URL": tmdb.image_base_url,
                  "MOVIE_RPC_TMDB_TIMEOUT": "2", "MOVIE_RPC_TMDB_MAX_RETRY_AFTER": "1",
                  "MOVIE_RPC_PASSWORD_ITERATIONS": "1000",
                  "FIREBASE_API_KEY": FIREBASE_KEY, "FIREBASE_AUTH_EMULATOR_HOST": firebase.host,
                  "MOVIE_RPC_KEY_FILE": str(tmp_path / "config" / "secrets.key")}
        # 1. API key in the query, Firebase accounts, every TMDB failure, at debug log level.
        server = spawn_raw(env=dict(common, TMDB_API_KEY=TMDB_KEY), args=["--log-level", "debug"])
        request_ok(server, "catalog.sync", {"popularPages": 1, "genres": [18]})
        request_ok(server, "movies.details", {"movieId": 550})
        request_ok(server, "images.fetch", {"path": "/secret-check.jpg", "size": "w92"})
        for fault, params in [("401", {"movieId": 13}), ("401-empty", {"movieId": 680}),
                              ("401-echo", {"movieId": 155}), ("500-echo", {"movieId": 27205}),
                              ("429", {"movieId": 603}), ("garbage", {"movieId": 11})]:
            tmdb.set_fault(fault, retry_after=1)
            error = request_error(server, "movies.details", dict(params, cachePolicy="networkOnly"))
            assert error["code"] in (-32031, -32032, -32033), error
        tmdb.set_fault(None)
        password, new_password, wrong = PASSWORDS
        request_ok(server, "auth.register", {"email": "ada@example.com", "password": password,
                                             "passwordConfirmation": password, "profile": {"displayName": "Ada"}})
        request_ok(server, "favorites.add", {"movieId": 550})
        request_ok(server, "account.update", {"newPassword": new_password, "currentPassword": password})
        request_ok(server, "auth.logout")
        assert request_error(server, "auth.login", {"email": "ada@example.com", "password": wrong})["code"] == -32012
        request_ok(server, "auth.login", {"email": "ada@example.com", "password": new_password})
        firebase.expire_id_tokens()  # the next call refreshes the ID token with the stored refresh token
        request_ok(server, "account.update", {"profile": {"displayName": "Ada L."}})
        request_ok(server, "events.add", {"name": "note", "params": {"text": "no secrets here"}})
        live_files = data_directory_bytes(home)
        server.finish()
        outputs["stdout#1"] = bytes(server.stdout)
        outputs["stderr#1"] = server.stderr_text().encode()
        outputs.update({"live:" + name: data for name, data in live_files.items()})

        # 2. Bearer token instead of the key, on the same data directory.
        bearer = spawn_raw(env=dict(common, TMDB_ACCESS_TOKEN=TMDB_TOKEN), args=["--log-level", "debug"])
        request_ok(bearer, "genres.list", {"cachePolicy": "networkOnly"})
        tmdb.set_fault("401-echo")
        request_error(bearer, "movies.popular", {"page": 3, "cachePolicy": "networkOnly"})
        tmdb.set_fault(None)
        bearer.finish()
        outputs["stdout#2"] = bytes(bearer.stdout)
        outputs["stderr#2"] = bearer.stderr_text().encode()
    finally:
        tmdb.stop()
        firebase.stop()

    files = data_directory_bytes(home)
    assert any(name.endswith("-wal") for name in files) or DB_NAME in files
    assert any(name.startswith("images/") for name in files), files.keys()
    outputs.update({"file:" + name: data for name, data in files.items()})
    # The echoed credential reached the client, redacted (so the echo path was really exercised).
    assert b"<redacted>" in outputs["stdout#1"] and b"<redacted>" in outputs["stdout#2"]

    secrets = {"TMDB API key": TMDB_KEY, "TMDB access token": TMDB_TOKEN, "Firebase API key": FIREBASE_KEY}
    secrets.update({"password %d" % i: p for i, p in enumerate(PASSWORDS)})
    secrets.update({"Firebase ID token %d" % i: t for i, t in enumerate(firebase.issued_id_tokens)})
    # Refresh tokens are stored (a restarted server needs one), but sealed under a key outside the data
    # directory: in clear nowhere, the database included.
    secrets.update({"refresh token %d" % i: t for i, t in enumerate(firebase.issued_refresh_tokens)})
    assert firebase.issued_id_tokens and firebase.issued_refresh_tokens
    leaks = find_leaks(secrets, outputs)
    assert not leaks, "secrets in clear:\n  " + "\n  ".join(leaks)
    key_file = tmp_path / "config" / "secrets.key"
    assert key_file.stat().st_size == 32 and key_file.stat().st_mode & 0o777 == 0o600
    connection = sqlite3.connect(str(home / DB_NAME))
    try:
        stored = [r for (r,) in connection.execute("SELECT refresh_token FROM sessions") if r is not None]
    finally:
        connection.close()
    assert stored and all(r.startswith("v1:") for r in stored), stored
    assert not replies_have_no_token_members(outputs["stdout#1"] + outputs["stdout#2"])


def test_local_accounts_leak_no_password_and_keep_only_token_hashes(spawn_raw, home: Path):
    server = spawn_raw(env=dict(LOCAL), args=["--log-level", "debug"])
    password, new_password, wrong = LOCAL_PASSWORDS
    request_ok(server, "auth.validate", {"email": "bo@example.com", "password": password,
                                         "passwordConfirmation": password + "x"})
    request_ok(server, "auth.register", {"email": "bo@example.com", "password": password})
    assert request_error(server, "auth.register", {"email": "bo@example.com", "password": password})["code"] == -32013
    request_ok(server, "account.update", {"newPassword": new_password, "currentPassword": password})
    request_ok(server, "auth.logout")
    for _ in range(3):
        assert request_error(server, "auth.login", {"email": "bo@example.com", "password": wrong})["code"] == -32012
    request_ok(server, "auth.login", {"email": "bo@example.com", "password": new_password})
    assert request_error(server, "account.delete", {"password": wrong})["code"] == -32012
    request_ok(server, "favorites.add", {"movieId": 13})
    live_files = data_directory_bytes(home)
    server.finish()

    outputs = {"stdout": bytes(server.stdout), "stderr": server.stderr_text().encode()}
    outputs.update({"live:" + k: v for k, v in live_files.items()})
    outputs.update({"file:" + k: v for k, v in data_directory_bytes(home).items()})
    leaks = find_leaks({"password %d" % i: p for i, p in enumerate(LOCAL_PASSWORDS)}, outputs)
    assert not leaks, "passwords in clear:\n  " + "\n  ".join(leaks)
    assert not replies_have_no_token_members(outputs["stdout"])

    connection = sqlite3.connect(str(home / DB_NAME))
    try:
        columns = [row[1] for row in connection.execute("PRAGMA table_info(sessions)")]
        assert "token" not in columns and "token_hash" in columns, columns
        hashes = connection.execute("SELECT token_hash, refresh_token FROM sessions").fetchall()
        assert hashes and all(isinstance(h, bytes) and len(h) == 32 and r is None for h, r in hashes), hashes
        stored = connection.execute("SELECT password_hash FROM users").fetchall()
        assert stored and all(p and not any(secret in p for secret in LOCAL_PASSWORDS) for (p,) in stored)
    finally:
        connection.close()


# -- file modes ---------------------------------------------------------------------------------------

def test_data_files_are_private_whatever_the_umask(spawn_raw, tmp_path: Path):
    home = tmp_path / "loose-home"
    home.mkdir(mode=0o755)
    home.chmod(0o755)  # an existing directory that is too open gets tightened
    tmdb = FakeTMDB(api_key=TMDB_KEY).start()
    previous = os.umask(0)
    try:
        server = spawn_raw(env=dict(LOCAL, MOVIE_RPC_HOME=str(home), TMDB_API_KEY=TMDB_KEY,
                                    TMDB_BASE_URL=tmdb.base_url, TMDB_IMAGE_BASE_URL=tmdb.image_base_url))
    finally:
        os.umask(previous)
    try:
        request_ok(server, "auth.register", {"email": "m@example.com", "password": "pw-modes"})
        request_ok(server, "movies.popular", {"page": 1})
        request_ok(server, "images.fetch", {"path": "/mode-check.jpg", "size": "w185"})
        request_ok(server, "images.fetch", {"path": "/mode-check.png", "size": "original"})
        request_ok(server, "events.add", {"name": "modes"})
        live = modes(home)
        server.finish()
    finally:
        tmdb.stop()
    after = modes(home)
    live_names, after_names = {path.name for path in live}, {path.name for path in after}
    assert {DB_NAME, DB_NAME + "-wal", DB_NAME + "-shm", "mode-check.jpg", "mode-check.png"} <= live_names, live_names
    # A clean exit closes the database: the write-ahead log is checkpointed into it and removed.
    assert {DB_NAME, "mode-check.jpg", "mode-check.png"} <= after_names, after_names
    assert DB_NAME + "-wal" not in after_names, after_names
    for snapshot in (live, after):
        assert snapshot[home] == 0o700
        loose = {str(path): oct(mode) for path, mode in snapshot.items()
                 if mode != (0o700 if path.is_dir() else 0o600)}
        assert not loose, "not private: %s" % loose


def modes(home: Path) -> Dict[Path, int]:
    return {path: stat.S_IMODE(path.stat().st_mode) for path in [home] + sorted(home.rglob("*"))}


# -- SQL only with bound parameters -------------------------------------------------------------------

SQL_START = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|PRAGMA|WITH|BEGIN|COMMIT|ROLLBACK|"
                       r"SAVEPOINT|RELEASE|REPLACE|VACUUM|ANALYZE|ATTACH|DETACH)\b", re.IGNORECASE)
SQL_ANYWHERE = re.compile(r"\b(SELECT\s.+\sFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|WHERE\s|"
                          r"ORDER\s+BY|CREATE\s+(TABLE|INDEX|TRIGGER)|PRAGMA\s)", re.IGNORECASE | re.DOTALL)

# Interpolations audited to insert only fixed text chosen by the code, never a value from a client or the
# network: (file suffix, interpolated expression) -> why it is safe.
AUDITED = {
    ("SQLiteStore/SQLiteConnection.swift", "name"):
        "savepoint name built from an internal depth counter (sqlitestore_savepoint_N)",
    ("SQLiteStore/SQLiteConnection.swift", "version"):
        "an Int (PRAGMA values cannot be bound); Swift's Int description is digits only",
    ("SQLiteStore/Database.swift", "pageCacheKiB"):
        "an Int from DatabaseConfiguration (PRAGMA values cannot be bound); digits only",
    ("SQLiteStore/Database.swift", "writerCacheKiB"):
        "an Int from DatabaseConfiguration (PRAGMA values cannot be bound); digits only",
    ("MovieCore/Events/EventQueries.swift", "columns"): "a constant column list",
    ("MovieCore/Events/EventQueries.swift", "whereClause"):
        "joined from fixed condition fragments; every value in them is a bound ? parameter",
    ("MovieCore/Events/EventQueries.swift", 'conditions.joined(separator: " AND ")'):
        "fixed condition fragments; every value in them is a bound ? parameter",
    ("MovieCore/Accounts/AccountStore.swift", "Self.userColumns"): "a constant column list",
    ("MovieCore/Search/LocalMovieIndex.swift", "level.table"):
        "one of the index's two FTS5 table names, string literals in the same function (a table name cannot be bound)",
}


class SwiftLiteral:
    def __init__(self, line: int, body: str, interpolations: List[str]) -> None:
        self.line, self.body, self.interpolations = line, body, interpolations


def swift_string_literals(text: str) -> List[SwiftLiteral]:
    """Every string literal of a Swift file (single-line, multi-line, raw), with the expressions of its
    interpolations; literals nested inside interpolations are listed too. Comments are skipped."""
    literals: List[SwiftLiteral] = []
    n = len(text)

    def string(i: int):
        """``text[i]`` opens a literal; returns the index after it."""
        start_line = text.count("\n", 0, i) + 1
        hashes = 0
        while text[i] == "#":
            hashes, i = hashes + 1, i + 1
        multi = text.startswith('"""', i)
        i += 3 if multi else 1
        close = ('"""' if multi else '"') + "#" * hashes
        escape = "\\" + "#" * hashes
        begin, expressions = i, []
        while i < n:
            if text.startswith(close, i):
                literals.append(SwiftLiteral(start_line, text[begin:i], expressions))
                return i + len(close)
            if text.startswith(escape, i):
                i += len(escape)
                if i < n and text[i] == "(":
                    i, expression = interpolation(i + 1)
                    expressions.append(expression)
                else:
                    i += 1
                continue
            if not multi and text[i] == "\n":
                break  # unterminated: not a literal after all
            i += 1
        literals.append(SwiftLiteral(start_line, text[begin:i], expressions))
        return i

    def interpolation(i: int):
        """After ``\\(``: returns the index after the matching parenthesis and the expression."""
        depth, begin = 1, i
        while i < n:
            if text[i] == '"' or (text[i] == "#" and re.match(r'#+"', text[i:i + 8])):
                i = string(i)
                continue
            if text[i] == "(":
                depth += 1
            elif text[i] == ")":
                depth -= 1
                if depth == 0:
                    return i + 1, text[begin:i].strip()
            i += 1
        return n, text[begin:].strip()

    i = 0
    while i < n:
        if text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif text[i] == '"' or (text[i] == "#" and re.match(r'#+"', text[i:i + 8])):
            i = string(i)
        else:
            i += 1
    return literals


def looks_like_sql(body: str) -> bool:
    return bool(SQL_START.search(body) or SQL_ANYWHERE.search(body))


def test_sql_is_built_with_bound_parameters_only():
    sources = Path(__file__).resolve().parents[2] / "Sources"
    offenders, audited_seen, sql_literals = [], set(), 0
    for path in sorted(sources.rglob("*.swift")):
        relative = str(path.relative_to(sources))
        if "/Generated/" in "/" + relative:
            continue
        for literal in swift_string_literals(path.read_text(encoding="utf-8")):
            if not looks_like_sql(literal.body):
                continue
            sql_literals += 1
            for expression in literal.interpolations:
                key = next((k for k in AUDITED if relative.endswith(k[0]) and k[1] == expression), None)
                if key:
                    audited_seen.add(key)
                else:
                    offenders.append("%s:%d: \\(%s) in SQL %r" % (
                        relative, literal.line, expression, literal.body.strip()[:80]))
    assert sql_literals > 40, "the scan found too little SQL (%d literals): is the parser broken?" % sql_literals
    assert not offenders, "SQL built by string interpolation (bind a ? parameter instead, or audit it):\n  " \
        + "\n  ".join(offenders)
    stale = set(AUDITED) - audited_seen
    assert not stale, "audited exceptions that no longer exist (remove them): %s" % sorted(stale)


def test_the_sql_scan_catches_interpolated_values():
    sample = '''
        try db.run("DELETE FROM favorites WHERE user_id = '\\(userID)'")
        let ok = try db.query("SELECT id FROM users WHERE email = ?", [.text(email)])
        try db.execute("""
            UPDATE users SET bio = '\\(profile.bio ?? "")' WHERE id = ?
            """)
        // try db.run("DELETE FROM x WHERE id = \\(commented)")
        log("Loaded \\(count) movies")
        try db.query("SELECT a FROM t WHERE \\(conditions.joined(separator: " AND ")) LIMIT ?", [])
        try db.run(#"DELETE FROM t WHERE note = "\\#(raw)" AND x = '\\(notInterpolated)'"#)
    '''
    found = [expression for literal in swift_string_literals(sample) if looks_like_sql(literal.body)
             for expression in literal.interpolations]
    assert found == ["userID", 'profile.bio ?? ""', 'conditions.joined(separator: " AND ")', "raw"]
