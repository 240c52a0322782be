"""Pipelined request streams over the Python client, and checks of the database a server left behind.

``Pipeline`` keeps up to ``window`` requests in flight on one client and records, for every request, the
outcome that arrived (a result or an :class:`RpcError`) or that none did (the server died first). Nothing
sleeps: waiting is ``Future.result(timeout)`` on the oldest request in flight.
"""

from __future__ import annotations

import concurrent.futures
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

from movie_rpc import Client, RpcError
from movie_rpc.errors import MovieRpcError

DB_NAME = "movie-rpc.sqlite"

# Local accounts at a test cost, and no Firebase from the outer environment.
LOCAL: Dict[str, Optional[str]] = {
    "MOVIE_RPC_PASSWORD_ITERATIONS": "1000", "FIREBASE_API_KEY": None, "FIREBASE_AUTH_EMULATOR_HOST": None,
}
# The fake TMDB's key (a credential as far as the server knows: it must never appear in any output).
TMDB_API_KEY = "faults-5e1f0a2b9c8d7e6f5a4b3c2d1e0f9a8b"


@dataclass
class Outcome:
    method: str
    params: Dict[str, Any]
    tag: Any = None
    result: Any = None
    error: Optional[RpcError] = None
    answered: bool = False  # a reply (result or error) arrived
    violation: Optional[BaseException] = None  # the result broke the contract (re-raised by Pipeline)


@dataclass
class Pipeline:
    client: Client
    window: int = 32
    deadline: float = 10.0  # seconds any one reply may take
    outcomes: List[Outcome] = field(default_factory=list)
    _in_flight: List[Any] = field(default_factory=list)

    def submit(self, method: str, params: Dict[str, Any], tag: Any = None) -> Outcome:
        while len(self._in_flight) >= self.window:
            self._settle_oldest()
        outcome = Outcome(method, params, tag)
        future = self.client.request_async(method, params)
        future.add_done_callback(lambda f, o=outcome: _record(f, o))
        self.outcomes.append(outcome)
        self._in_flight.append(future)
        return outcome

    def _settle_oldest(self) -> None:
        future = self._in_flight.pop(0)
        try:
            future.result(self.deadline)
        except concurrent.futures.TimeoutError:
            raise AssertionError("no reply to %s within %ss; stderr:\n%s" % (
                future, self.deadline, self.client.stderr_tail()[-3000:]))
        except MovieRpcError:
            pass  # recorded by the callback

    def drain(self) -> None:
        while self._in_flight:
            self._settle_oldest()

    @property
    def answered(self) -> int:
        return sum(1 for o in self.outcomes if o.answered)

    def settle_after_death(self, timeout: float = 10.0) -> None:
        """After the server was killed: every request in flight ends (answered or ServerExited)."""
        end = time.monotonic() + timeout
        for future in self._in_flight:
            try:
                future.result(max(0.1, end - time.monotonic()))
            except concurrent.futures.TimeoutError:
                raise AssertionError("a request neither answered nor failed after the server died")
            except MovieRpcError:
                pass
        self._in_flight = []


def _record(future, outcome: Outcome) -> None:
    try:
        outcome.result = future.result()
        outcome.answered = True
    except RpcError as error:
        outcome.error = error
        outcome.answered = True
    except MovieRpcError:
        pass  # no reply: the server exited
    except BaseException as error:  # the client's result_validator refused the result
        outcome.violation = error
        outcome.answered = True


def integrity_check(home: Path) -> List[str]:
    """``PRAGMA integrity_check`` and ``PRAGMA foreign_key_check`` of the data directory's database, by
    Python's sqlite3 (a separate library build from the server's): ``["ok"]`` when healthy."""
    connection = sqlite3.connect(str(Path(home) / DB_NAME), timeout=10)
    try:
        lines = [row[0] for row in connection.execute("PRAGMA integrity_check")]
        problems = connection.execute("PRAGMA foreign_key_check").fetchall()
        if problems:
            lines.append("foreign_key_check: %r" % (problems,))
        return lines
    finally:
        connection.close()


def query(home: Path, sql: str, *args: Any) -> List[tuple]:
    connection = sqlite3.connect(str(Path(home) / DB_NAME), timeout=10)
    try:
        return connection.execute(sql, args).fetchall()
    finally:
        connection.close()


def demo_movie_ids() -> List[int]:
    """Every movie id of the embedded demo catalog, in the catalog's order."""
    import json
    root = Path(__file__).resolve().parents[2]
    return [movie["id"] for movie in json.loads((root / "data" / "demo-catalog.json").read_text())["movies"]]


def all_events(client: Client, **filters: Any) -> List[Dict[str, Any]]:
    events, cursor = [], None
    while True:
        page = client.events_list(limit=500, cursor=cursor, **filters)
        events += page["events"]
        cursor = page["nextCursor"]
        if cursor is None:
            return events


def wait_until(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    """For conditions outside the protocol (a process exiting): checks with a deadline, sleeping briefly."""
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError("timed out after %ss waiting for %s" % (timeout, what))
        time.sleep(0.02)
