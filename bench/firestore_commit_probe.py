#!/usr/bin/env python3
"""What 1,000 favorite writes cost Google's Firestore emulator, by commit size and commits in flight, with
firebase/firestore.rules (or another rules file), without movie-rpc: the numbers behind SyncEngine's push
strategy (docs/BENCHMARKS.md).

    python3 bench/firestore_commit_probe.py                       # 500x1, 100x4, 100x8, 50x8; 4 runs each
    python3 bench/firestore_commit_probe.py --plans 500x1,100x4 --runs 3 --rules other.rules
    python3 bench/firestore_commit_probe.py --owner               # the admin credential: no rules at all

Each plan gets a fresh emulator (its own process group, stopped as a whole): run 1 is the first 1,000
writes its JVM sees ("cold"), the later runs "warm". Writes are the documents movie-rpc writes (a new
favorite each, its movie summary ~450 bytes), with an ID token of the kind the fake Identity Toolkit
issues; every commit must answer 200.
"""

from __future__ import annotations

import argparse
import base64
import http.client
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "integration"))

from firestore_emulator import RULES_PATH, FirestoreEmulator  # noqa: E402

PROJECT = "demo-movie-rpc"
UID = "probe-user"
MOVIE = {"id": 0, "title": "Synthetic movie with a title", "overview": "x" * 300, "posterPath": "/abc.jpg",
         "releaseDate": "2001-01-01", "voteAverage": 7.1, "genreIds": [1, 2, 3]}


def id_token(uid: str) -> str:
    def part(value: dict) -> str:
        return base64.urlsafe_b64encode(json.dumps(value, separators=(",", ":")).encode()).rstrip(b"=").decode()
    now = int(time.time())
    claims = {"sub": uid, "user_id": uid, "aud": PROJECT, "iss": "https://securetoken.google.com/" + PROJECT,
              "iat": now, "exp": now + 3600, "auth_time": now, "firebase": {"sign_in_provider": "password"}}
    return part({"alg": "none", "typ": "JWT"}) + "." + part(claims) + "."


def write(emulator: FirestoreEmulator, movie_id: int) -> dict:
    movie = json.dumps(dict(MOVIE, id=movie_id))
    return {"update": {"name": emulator.name("users/%s/favorites/%d" % (UID, movie_id)), "fields": {
        "movieId": {"integerValue": str(movie_id)}, "deleted": {"booleanValue": False},
        "changedAt": {"timestampValue": "2026-12-01T10:00:00.000Z"}, "changeId": {"stringValue": "0123456789abcdef"},
        "addedAt": {"timestampValue": "2026-12-01T10:00:00.000Z"}, "movie": {"stringValue": movie}}},
        "updateTransforms": [{"fieldPath": "syncedAt", "setToServerValue": "REQUEST_TIME"}]}


def commit(emulator: FirestoreEmulator, writes: list, token: str) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", emulator.port, timeout=300)
    try:
        connection.request("POST", "/v1/projects/%s/databases/(default)/documents:commit" % PROJECT,
                           json.dumps({"writes": writes}).encode(),
                           {"Content-Type": "application/json", "Authorization": "Bearer " + token})
        response = connection.getresponse()
        body = response.read()
        assert response.status == 200, (response.status, body[:300])
    finally:
        connection.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--plans", default="500x1,100x4,100x8,50x8", help="WRITESxIN_FLIGHT,…")
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--writes", type=int, default=1000)
    parser.add_argument("--rules", default=str(RULES_PATH))
    parser.add_argument("--owner", action="store_true", help="the emulator's admin credential (skips the rules)")
    args = parser.parse_args()
    token = "owner" if args.owner else id_token(UID)
    print("rules %s%s; load average %.1f" % (args.rules, " (bypassed: owner)" if args.owner else "",
                                             os.getloadavg()[0]))
    for plan in args.plans.split(","):
        size, in_flight = (int(n) for n in plan.split("x"))
        emulator = FirestoreEmulator(PROJECT, rules=Path(args.rules)).start()
        try:
            times = []
            next_id = 1
            for _ in range(args.runs):
                ids = list(range(next_id, next_id + args.writes))
                next_id += args.writes
                batches = [[write(emulator, m) for m in ids[i:i + size]] for i in range(0, len(ids), size)]
                began = time.perf_counter()
                with ThreadPoolExecutor(in_flight) as pool:
                    list(pool.map(lambda batch: commit(emulator, batch, token), batches))
                times.append(time.perf_counter() - began)
            print("%4d writes x %d in flight: cold %.2f s, warm %s s; load %.1f"
                  % (size, in_flight, times[0], " ".join("%.2f" % t for t in times[1:]), os.getloadavg()[0]),
                  flush=True)
        finally:
            emulator.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
