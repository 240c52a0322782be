"""A fake of Firebase Auth's REST API (Identity Toolkit v1 + Secure Token) for the integration tests.

It speaks the real request and response shapes and error bodies (see the Auth Emulator,
firebase/firebase-tools ``src/emulator/auth/operations.ts``): the emulator URL form
``http://HOST/identitytoolkit.googleapis.com/v1/accounts:<operation>?key=...`` and
``http://HOST/securetoken.googleapis.com/v1/token?key=...``, ``expiresIn`` as a string of seconds, errors as
HTTP 400 ``{"error": {"code": 400, "message": "EMAIL_EXISTS", "errors": [...]}}``.

ID tokens are the Firebase emulators' kind: an unsigned JWT (``alg: none``) with ``sub``/``user_id`` the
user's ``localId``, ``aud`` the project id, ``iss`` ``https://securetoken.google.com/<project>``, ``iat`` and
``exp`` (now + ``expires_in``), which the Cloud Firestore emulator accepts and evaluates its rules against.

Test controls: :meth:`FakeFirebase.expire_id_tokens` (every ID token issued so far is refused with
``TOKEN_EXPIRED``, as an hour-old one would be), :meth:`revoke_refresh_tokens`, :meth:`delete_user`,
``improved_email_privacy`` (``INVALID_LOGIN_CREDENTIALS`` instead of ``EMAIL_NOT_FOUND``/``INVALID_PASSWORD``).
Every request is recorded in :attr:`requests` as ``(operation, body)``.

Runs on 127.0.0.1 on an ephemeral port, one thread per connection, HTTP/1.1 keep-alive with Nagle off.
"""

from __future__ import annotations

import base64
import json
import secrets
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional, Tuple

IDENTITY_PREFIX = "/identitytoolkit.googleapis.com/v1/accounts:"
TOKEN_PATH = "/securetoken.googleapis.com/v1/token"
PROJECT_ID = "demo-movie-rpc"


class AuthError(Exception):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class FakeFirebase:
    def __init__(self, api_key: str = "fake-api-key", expires_in: int = 3600,
                 improved_email_privacy: bool = True, project_id: str = PROJECT_ID) -> None:
        self.api_key = api_key
        self.project_id = project_id
        self.expires_in = expires_in
        self.improved_email_privacy = improved_email_privacy
        self.lock = threading.Lock()
        self.users: Dict[str, Dict[str, Any]] = {}  # localId -> record
        self.id_tokens: Dict[str, Tuple[str, int, bool]] = {}  # token -> (localId, generation, expired)
        self.refresh_tokens: Dict[str, Tuple[str, int]] = {}  # token -> (localId, generation)
        self.requests: List[Tuple[str, Any]] = []
        self.issued_id_tokens: List[str] = []
        self.issued_refresh_tokens: List[str] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                status, body = fake.handle(self.path, self.headers.get("Content-Type", ""), raw)
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=UTF-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, name="fake-firebase", daemon=True)

    # -- lifecycle

    def start(self) -> "FakeFirebase":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    @property
    def host(self) -> str:
        """``host:port`` for FIREBASE_AUTH_EMULATOR_HOST."""
        return "127.0.0.1:%d" % self.server.server_address[1]

    # -- test controls

    def operations(self) -> List[str]:
        with self.lock:
            return [operation for operation, _ in self.requests]

    def expire_id_tokens(self) -> None:
        with self.lock:
            for token, (local_id, generation, _) in list(self.id_tokens.items()):
                self.id_tokens[token] = (local_id, generation, True)

    def revoke_refresh_tokens(self) -> None:
        with self.lock:
            for user in self.users.values():
                user["generation"] += 1

    def delete_user(self, email: str) -> None:
        with self.lock:
            for local_id, user in list(self.users.items()):
                if user["email"] == email.lower():
                    del self.users[local_id]

    def user_by_email(self, email: str) -> Optional[Dict[str, Any]]:
        with self.lock:
            for user in self.users.values():
                if user["email"] == email.lower():
                    return dict(user)
        return None

    # -- the API

    def handle(self, path: str, content_type: str, raw: bytes) -> Tuple[int, Any]:
        parsed = urllib.parse.urlsplit(path)
        query = urllib.parse.parse_qs(parsed.query)
        if parsed.path == TOKEN_PATH:
            operation = "token"
            if "application/x-www-form-urlencoded" in content_type:
                body: Any = {k: v[0] for k, v in urllib.parse.parse_qs(raw.decode()).items()}
            else:
                body = json.loads(raw or b"{}")
        elif parsed.path.startswith(IDENTITY_PREFIX):
            operation = parsed.path[len(IDENTITY_PREFIX):]
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                return 400, self._error_body("INVALID_JSON", 400)
        else:
            return 404, self._error_body("NOT_FOUND", 404)
        with self.lock:
            self.requests.append((operation, body))
            if query.get("key", [""])[0] != self.api_key:
                return 400, {"error": {"code": 400, "message": "API key not valid. Please pass a valid API key.",
                                       "status": "INVALID_ARGUMENT",
                                       "errors": [{"message": "API key not valid. Please pass a valid API key.",
                                                   "domain": "global", "reason": "badRequest"}]}}
            handler = getattr(self, "_op_" + operation, None)
            if handler is None:
                return 404, self._error_body("NOT_FOUND", 404)
            try:
                return 200, handler(body)
            except AuthError as error:
                return error.status, self._error_body(error.message, error.status)

    @staticmethod
    def _error_body(message: str, status: int) -> Dict[str, Any]:
        return {"error": {"code": status, "message": message,
                          "errors": [{"message": message, "domain": "global", "reason": "invalid"}]}}

    def _issue(self, local_id: str) -> Tuple[str, str]:
        generation = self.users[local_id]["generation"]
        id_token = self.id_token_for(local_id, self.users[local_id]["email"], self.expires_in)
        refresh_token = "fake-refresh-" + secrets.token_urlsafe(24)
        self.id_tokens[id_token] = (local_id, generation, False)
        self.refresh_tokens[refresh_token] = (local_id, generation)
        self.issued_id_tokens.append(id_token)
        self.issued_refresh_tokens.append(refresh_token)
        return id_token, refresh_token

    def id_token_for(self, local_id: str, email: str, expires_in: int) -> str:
        """An emulator-style ID token: unsigned JWT, the claims Firebase Auth puts in one."""
        def part(value: Dict[str, Any]) -> str:
            return base64.urlsafe_b64encode(json.dumps(value, separators=(",", ":")).encode()).rstrip(b"=").decode()
        now = int(time.time())
        claims = {"iss": "https://securetoken.google.com/" + self.project_id, "aud": self.project_id,
                  "auth_time": now, "user_id": local_id, "sub": local_id, "iat": now, "exp": now + expires_in,
                  "email": email, "email_verified": False,
                  "firebase": {"identities": {"email": [email]}, "sign_in_provider": "password"},
                  "nonce": secrets.token_urlsafe(12)}  # every token different, as real ones are
        return part({"alg": "none", "typ": "JWT"}) + "." + part(claims) + "."

    def _user_for_id_token(self, body: Dict[str, Any]) -> Dict[str, Any]:
        token = body.get("idToken")
        if not token or token not in self.id_tokens:
            raise AuthError("INVALID_ID_TOKEN")
        local_id, generation, expired = self.id_tokens[token]
        user = self.users.get(local_id)
        if user is None:
            raise AuthError("USER_NOT_FOUND")
        if expired or generation < user["generation"]:
            raise AuthError("TOKEN_EXPIRED")
        return user

    @staticmethod
    def _check_email_password(body: Dict[str, Any]) -> Tuple[str, str]:
        email, password = body.get("email"), body.get("password")
        if not email:
            raise AuthError("MISSING_EMAIL")
        if "@" not in email:
            raise AuthError("INVALID_EMAIL")
        if not password:
            raise AuthError("MISSING_PASSWORD")
        return email, password

    def _op_signUp(self, body: Dict[str, Any]) -> Dict[str, Any]:
        email, password = self._check_email_password(body)
        if any(user["email"] == email.lower() for user in self.users.values()):
            raise AuthError("EMAIL_EXISTS")
        if len(password) < 6:
            raise AuthError("WEAK_PASSWORD : Password should be at least 6 characters")
        local_id = secrets.token_hex(14)
        self.users[local_id] = {"localId": local_id, "email": email.lower(), "password": password,
                                "displayName": body.get("displayName") or "",
                                "createdAt": str(int(time.time() * 1000)), "generation": 0, "disabled": False}
        id_token, refresh_token = self._issue(local_id)
        return {"kind": "identitytoolkit#SignupNewUserResponse", "idToken": id_token, "email": email.lower(),
                "refreshToken": refresh_token, "expiresIn": str(self.expires_in), "localId": local_id}

    def _op_signInWithPassword(self, body: Dict[str, Any]) -> Dict[str, Any]:
        email, password = self._check_email_password(body)
        user = next((u for u in self.users.values() if u["email"] == email.lower()), None)
        if user is None:
            raise AuthError("INVALID_LOGIN_CREDENTIALS" if self.improved_email_privacy else "EMAIL_NOT_FOUND")
        if user["password"] != password:
            raise AuthError("INVALID_LOGIN_CREDENTIALS" if self.improved_email_privacy else "INVALID_PASSWORD")
        if user["disabled"]:
            raise AuthError("USER_DISABLED")
        id_token, refresh_token = self._issue(user["localId"])
        return {"kind": "identitytoolkit#VerifyPasswordResponse", "localId": user["localId"], "email": user["email"],
                "displayName": user["displayName"], "idToken": id_token, "registered": True,
                "refreshToken": refresh_token, "expiresIn": str(self.expires_in)}

    def _op_lookup(self, body: Dict[str, Any]) -> Dict[str, Any]:
        user = self._user_for_id_token(body)
        return {"kind": "identitytoolkit#GetAccountInfoResponse", "users": [{
            "localId": user["localId"], "email": user["email"], "emailVerified": False,
            "displayName": user["displayName"], "providerUserInfo": [], "passwordHash": "UkVEQUNURUQ=",
            "passwordUpdatedAt": 0, "validSince": "0", "disabled": user["disabled"], "lastLoginAt": "0",
            "createdAt": user["createdAt"]}]}

    def _op_update(self, body: Dict[str, Any]) -> Dict[str, Any]:
        user = self._user_for_id_token(body)
        response: Dict[str, Any] = {"kind": "identitytoolkit#SetAccountInfoResponse", "localId": user["localId"],
                                    "email": user["email"], "providerUserInfo": []}
        if "displayName" in body:
            user["displayName"] = body["displayName"] or ""
        if "DISPLAY_NAME" in (body.get("deleteAttribute") or []):
            user["displayName"] = ""
        response["displayName"] = user["displayName"]
        if "password" in body:
            if len(body["password"]) < 6:
                raise AuthError("WEAK_PASSWORD : Password should be at least 6 characters")
            user["password"] = body["password"]
            user["generation"] += 1  # validSince moves: older tokens are revoked
            response["passwordHash"] = "UkVEQUNURUQ="
        if body.get("returnSecureToken"):
            id_token, refresh_token = self._issue(user["localId"])
            response.update({"idToken": id_token, "refreshToken": refresh_token, "expiresIn": str(self.expires_in)})
        return response

    def _op_delete(self, body: Dict[str, Any]) -> Dict[str, Any]:
        user = self._user_for_id_token(body)
        del self.users[user["localId"]]
        return {"kind": "identitytoolkit#DeleteAccountResponse"}

    def _op_token(self, body: Dict[str, Any]) -> Dict[str, Any]:
        if body.get("grant_type") != "refresh_token":
            raise AuthError("INVALID_GRANT_TYPE")
        token = body.get("refresh_token")
        if not token:
            raise AuthError("MISSING_REFRESH_TOKEN")
        if token not in self.refresh_tokens:
            raise AuthError("INVALID_REFRESH_TOKEN")
        local_id, generation = self.refresh_tokens[token]
        user = self.users.get(local_id)
        if user is None:
            raise AuthError("USER_NOT_FOUND")
        if user["disabled"]:
            raise AuthError("USER_DISABLED")
        if generation < user["generation"]:
            raise AuthError("TOKEN_EXPIRED")
        id_token, _ = self._issue(local_id)
        return {"expires_in": str(self.expires_in), "token_type": "Bearer", "refresh_token": token,
                "id_token": id_token, "user_id": local_id, "project_id": self.project_id,
                "access_token": id_token}
