#!/usr/bin/env python3
"""Benchmarks of favorites sync against Google's Cloud Firestore emulator (issue 15).

Starts the emulator (firebase/firestore.rules, its own process group, stopped as a whole at the end), the
fake Identity Toolkit of the integration tests and, for 1,000 distinct movies, the fake TMDB; drives two
servers ("machines") logged in as one user through the Python client, over pipes.

    python3 bench/sync_bench.py --binary "$(bash scripts/release-build.sh)"
    python3 bench/sync_bench.py --quick

Measures:
- visible on the other: favorites.add on A, sync.now on A, sync.now on B, favorites.contains on B (p50,
  and the parts);
- 1,000 favorites: from the last of 1,000 pipelined favorites.add on A to its outbox empty (sync.now), then
  sync.now on B bringing them all;
- favorites.add + favorites.remove round trip p50 with sync on and with MOVIE_RPC_SYNC=0.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "integration"))
sys.path.insert(0, str(ROOT / "clients" / "python"))

from fake_firebase import FakeFirebase  # noqa: E402
from fake_tmdb import FakeTMDB, CATALOG  # noqa: E402
from firestore_emulator import FirestoreEmulator  # noqa: E402
from movie_rpc import Client  # noqa: E402

PROJECT = "demo-movie-rpc"
KEY = "bench-web-api-key"
PASSWORD = "Bench-pass-123"


def p50(values):
    return statistics.median(values)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.environ.get("MOVIE_RPC_BIN") or str(ROOT / ".build/release/movie-rpc"))
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rounds = 5 if args.quick else 20
    trips = 50 if args.quick else 300

    emulator = FirestoreEmulator(PROJECT).start()
    firebase = FakeFirebase(api_key=KEY, project_id=PROJECT).start()
    tmdb = FakeTMDB(api_key="bench-tmdb", synthetic=True).start()
    scratch = Path(tempfile.mkdtemp(prefix="sync-bench-"))
    clients = []
    print("emulator ready in %.1f s; load average %.1f" % (emulator.started_in, os.getloadavg()[0]))

    def machine(name: str, **extra: str) -> Client:
        env = {"MOVIE_RPC_HOME": str(scratch / name / "home"), "MOVIE_RPC_KEY_FILE": str(scratch / name / "key"),
               "FIREBASE_API_KEY": KEY, "FIREBASE_AUTH_EMULATOR_HOST": firebase.host,
               "FIREBASE_PROJECT_ID": PROJECT, "FIRESTORE_EMULATOR_HOST": emulator.host,
               "MOVIE_RPC_SYNC_INTERVAL": "3600", "TMDB_API_KEY": "bench-tmdb", "TMDB_BASE_URL": tmdb.base_url}
        env.update(extra)
        client = Client(args.binary, env=env, timeout=300)
        clients.append(client)
        return client

    try:
        a, b = machine("a"), machine("b")
        a.call("auth.register", email="bench@example.com", password=PASSWORD)
        b.call("auth.login", email="bench@example.com", password=PASSWORD)

        # 1. An add on A visible on B after sync.now.
        ids = [movie["id"] for movie in CATALOG["movies"]][: rounds + 1]
        total, push, pull = [], [], []
        for movie in ids[1:]:
            began = time.perf_counter()
            a.call("favorites.add", movieId=movie)
            pushed_at = time.perf_counter()
            a.call("sync.now")
            pulled_at = time.perf_counter()
            b.call("sync.now")
            assert b.call("favorites.contains", movieIds=[movie])["contains"][str(movie)]
            ended = time.perf_counter()
            total.append(ended - began)
            push.append(pulled_at - pushed_at)
            pull.append(ended - pulled_at)
        print("add visible on the other after sync.now: p50 %.0f ms (A sync.now %.0f ms, B sync.now + contains "
              "%.0f ms), %d rounds" % (p50(total) * 1000, p50(push) * 1000, p50(pull) * 1000, len(total)))

        # 2. 1,000 favorites pushed by A and pulled by B.
        many = list(range(10_000_000, 10_001_000))
        for pending in [a.request_async("favorites.add", movieId=m) for m in many]:
            pending.result(timeout=300)
        began = time.perf_counter()
        assert a.call("sync.now")["pending"] == 0
        pushed = time.perf_counter() - began
        began = time.perf_counter()
        b.call("sync.now")
        pulled = time.perf_counter() - began
        count = len(b.call("favorites.list")["favorites"])
        assert count >= 1000, count
        print("1,000 favorites: pushed in %.2f s (after the adds), pulled in %.2f s, %.2f s in all"
              % (pushed, pulled, pushed + pulled))

        # 3. favorites.add round trip, sync on and off.
        def round_trips(client: Client) -> float:
            movie = ids[0]
            times = []
            for _ in range(trips):
                began = time.perf_counter()
                client.call("favorites.add", movieId=movie)
                times.append(time.perf_counter() - began)
                client.call("favorites.remove", movieId=movie)
            return p50(times)

        off = machine("off", MOVIE_RPC_SYNC="0")
        off.call("auth.login", email="bench@example.com", password=PASSWORD)
        on = machine("on")
        on.call("auth.login", email="bench@example.com", password=PASSWORD)
        on.call("sync.now")
        # Sync on with Firestore unreachable: the same work in the add, without the emulator's JVM taking
        # the machine's two cores for the background pushes.
        unreachable = machine("unreachable", FIRESTORE_EMULATOR_HOST="127.0.0.1:1")
        unreachable.call("auth.login", email="bench@example.com", password=PASSWORD)
        results = {}
        for label, client in (("off", off), ("on", on), ("unreachable", unreachable)) * 2:
            results.setdefault(label, []).append(round_trips(client))
        best = {label: min(values) * 1000 for label, values in results.items()}
        print("favorites.add round trip p50: sync off %.3f ms; on %.3f ms (%+.1f %%); on, Firestore unreachable "
              "%.3f ms (%+.1f %%); %d each, best of 2"
              % (best["off"], best["on"], (best["on"] / best["off"] - 1) * 100, best["unreachable"],
                 (best["unreachable"] / best["off"] - 1) * 100, trips))
    finally:
        for client in clients:
            client.close()
        tmdb.stop()
        firebase.stop()
        emulator.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
