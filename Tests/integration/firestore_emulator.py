"""Google's Cloud Firestore emulator for the sync tests and benchmarks, started as CI starts it.

``gcloud emulators firestore start --host-port=127.0.0.1:PORT --rules=firebase/firestore.rules`` is a
wrapper that runs a Java child: it is started in a process group of its own, and :meth:`stop` ends the
whole group (SIGTERM, then SIGKILL) and waits until no process of it is left. Ready when it prints
"Dev App Server is now running". :meth:`reset` empties it between tests; :meth:`stop` then :meth:`start`
again on the same port is "the network went away and came back" (its data is lost: it keeps it in memory).

Also a small REST client for the tests' own reads and writes: ``token="owner"`` bypasses the rules (the
emulator's admin credential), any other token is an ID token the rules judge.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

REPO_ROOT = Path(__file__).resolve().parents[2]
RULES_PATH = REPO_ROOT / "firebase" / "firestore.rules"
READY_LINE = "Dev App Server is now running"
START_TIMEOUT = 120.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def available() -> Optional[str]:
    """None when the emulator can run here, else why not."""
    if shutil.which("gcloud") is None:
        return "gcloud is not installed"
    if shutil.which("java") is None:
        return "java is not installed"
    return None


class FirestoreEmulator:
    def __init__(self, project: str, rules: Path = RULES_PATH, port: Optional[int] = None) -> None:
        self.project = project
        self.rules = rules
        self.port = port or free_port()
        self.process: Optional[subprocess.Popen] = None
        self.output: List[str] = []
        self.started_in: Optional[float] = None

    @property
    def host(self) -> str:
        return "127.0.0.1:%d" % self.port

    @property
    def running(self) -> bool:
        return self.process is not None

    def start(self) -> "FirestoreEmulator":
        assert self.process is None, "already running"
        began = time.monotonic()
        command = ["gcloud", "emulators", "firestore", "start", "--host-port=%s" % self.host,
                   "--rules=%s" % self.rules, "--quiet"]
        env = dict(os.environ)
        env.setdefault("CLOUDSDK_CORE_DISABLE_PROMPTS", "1")
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True, start_new_session=True, env=env)
        ready = threading.Event()
        process = self.process

        def drain() -> None:
            assert process.stdout is not None
            for line in process.stdout:
                self.output.append(line.rstrip())
                del self.output[:-200]
                if READY_LINE in line:
                    ready.set()
            ready.set()

        threading.Thread(target=drain, name="firestore-emulator-output", daemon=True).start()
        if not ready.wait(START_TIMEOUT) or process.poll() is not None:
            self.stop()
            raise RuntimeError("the Firestore emulator did not start:\n" + "\n".join(self.output[-30:]))
        # The first calls compile the rules and warm the JVM (seconds on a loaded machine): pay that here.
        self.get("users/warm-up/favorites/1", token=None)
        self.get("users/warm-up", token="owner")
        self.started_in = time.monotonic() - began
        return self

    def stop(self) -> None:
        """Ends the wrapper and its Java child (the whole process group) and waits until they are gone."""
        process, self.process = self.process, None
        if process is None:
            return
        group = process.pid  # start_new_session: the group id is the wrapper's pid
        for sig, patience in ((signal.SIGTERM, 15.0), (signal.SIGKILL, 15.0)):
            try:
                os.killpg(group, sig)
            except ProcessLookupError:
                break
            deadline = time.monotonic() + patience
            while time.monotonic() < deadline:
                try:
                    process.wait(timeout=0.05)
                except subprocess.TimeoutExpired:
                    pass
                if not self._group_alive(group):
                    break
            if not self._group_alive(group):
                break
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass

    @staticmethod
    def _group_alive(group: int) -> bool:
        # A zombie (exited, not yet reaped by init) still counts for killpg(0); /proc says whether it is one.
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[2]) == group and fields[0] != "Z":
                return True
        return False

    # -- REST

    def url(self, path: str) -> str:
        return "http://%s/v1/projects/%s/databases/(default)/documents%s" % (self.host, self.project, path)

    def request(self, method: str, url: str, body: Any = None, token: Optional[str] = "owner") -> Tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", "Bearer " + token)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                raw = response.read()
                return response.status, json.loads(raw) if raw else None
        except urllib.error.HTTPError as error:
            raw = error.read()
            try:
                return error.code, json.loads(raw)
            except ValueError:
                return error.code, raw.decode(errors="replace")

    def reset(self) -> None:
        """Deletes every document. 409 (ABORTED: a commit still under way) is tried again."""
        url = "http://%s/emulator/v1/projects/%s/databases/(default)/documents" % (self.host, self.project)
        for _ in range(50):
            status, body = self.request("DELETE", url)
            if status != 409:
                break
            time.sleep(0.1)
        assert status == 200, (status, body)

    def set_rules(self, rules: str) -> None:
        """Replaces the security rules of the running emulator (as firebase-tools does)."""
        status, body = self.request(
            "PUT", "http://%s/emulator/v1/projects/%s:securityRules" % (self.host, self.project),
            {"rules": {"files": [{"name": "firestore.rules", "content": rules}]}})
        assert status == 200, (status, body)

    def get(self, path: str, token: Optional[str] = "owner") -> Tuple[int, Any]:
        return self.request("GET", self.url("/" + path), token=token)

    def list_documents(self, path: str, token: Optional[str] = "owner") -> Tuple[int, List[Dict[str, Any]]]:
        documents: List[Dict[str, Any]] = []
        page_token = ""
        while True:
            query = "?pageSize=300" + ("&pageToken=" + page_token if page_token else "")
            status, body = self.request("GET", self.url("/" + path + query), token=token)
            if status != 200:
                return status, body
            documents += body.get("documents", [])
            page_token = body.get("nextPageToken", "")
            if not page_token:
                return status, documents

    def commit(self, writes: List[Dict[str, Any]], token: Optional[str] = "owner") -> Tuple[int, Any]:
        return self.request("POST", self.url(":commit"), {"writes": writes}, token=token)

    def name(self, path: str) -> str:
        return "projects/%s/databases/(default)/documents/%s" % (self.project, path)
