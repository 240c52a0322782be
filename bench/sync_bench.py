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
- favorites.add round trip p50 with sync off (MOVIE_RPC_SYNC=0), on, and on with Firestore unreachable,
  two ways: in blocks (a round of each in turn, after each round of "on" a sync.now outside the timing so
  that its background pushes do not run into the next variant's round; best and median of the rounds'
  p50s), and interleaved (one add of each in turn, the order rotating, so that a drift in the machine's
  load, such as another process's build or the emulator's JVM, weighs on all three alike; p50 of all);
- 1,000 pending favorites pushed: 1,000 favorites.add on a machine whose Firestore is unreachable, then
  that machine restarted with the emulator: from its start to sync.status saying its outbox is empty
  (polled every 20 ms; the push of its start-up cycle, nothing else running), then sync.now on B pulling
  them; three rounds, the first one the first 1,000-write push the emulator's JVM sees ("cold": it has
  served only the start-up reads, the 20 rounds and the round trips above), the others "warm";
- 1,000 favorites as issue 15 words it: from the last of 1,000 pipelined favorites.add on A to its outbox
  empty (sync.now), then sync.now on B bringing them all (the background push overlaps the adds).
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
    trips = 50 if args.quick else 200
    trip_rounds = 3 if args.quick else 7
    push_rounds = 1 if args.quick else 3

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

        # 2. favorites.add round trip, sync on and off (before the large pushes, whose aftermath in the
        # emulator's JVM would weigh on it).
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
        for label, client in (("off", off), ("on", on), ("unreachable", unreachable)) * trip_rounds:
            results.setdefault(label, []).append(round_trips(client))
            if label == "on":  # its pushes are its own, not the next variant's
                on.call("sync.now")
        for name, pick in (("best", min), ("median", statistics.median)):
            value = {label: pick(values) * 1000 for label, values in results.items()}
            print("favorites.add round trip p50, %s of %d rounds of %d: sync off %.3f ms; on %.3f ms (%+.1f %%); "
                  "on, Firestore unreachable %.3f ms (%+.1f %%)"
                  % (name, trip_rounds, trips, value["off"], value["on"], (value["on"] / value["off"] - 1) * 100,
                     value["unreachable"], (value["unreachable"] / value["off"] - 1) * 100))
        print("  rounds (ms): " + "; ".join("%s %s" % (label, " ".join("%.3f" % (v * 1000) for v in values))
                                         for label, values in results.items()))
        variants = {"off": off, "on": on, "unreachable": unreachable}
        order = list(variants)
        samples = {label: [] for label in variants}
        movie = ids[0]
        for round_ in range(trip_rounds):
            for i in range(trips):
                for label in order[i % 3:] + order[:i % 3]:
                    client = variants[label]
                    began = time.perf_counter()
                    client.call("favorites.add", movieId=movie)
                    samples[label].append(time.perf_counter() - began)
                    client.call("favorites.remove", movieId=movie)
            on.call("sync.now")
        value = {label: p50(values) * 1000 for label, values in samples.items()}
        print("favorites.add round trip p50, interleaved, %d each: sync off %.3f ms; on %.3f ms (%+.1f %%); on, "
              "Firestore unreachable %.3f ms (%+.1f %%); load %.1f"
              % (len(samples["off"]), value["off"], value["on"], (value["on"] / value["off"] - 1) * 100,
                 value["unreachable"], (value["unreachable"] / value["off"] - 1) * 100, os.getloadavg()[0]))
        # 3. 1,000 pending favorites pushed from a start, then pulled by B.
        dead = "127.0.0.1:1"  # nothing listens there: Firestore unreachable
        b.call("sync.now")
        for round_ in range(push_rounds):
            offline = machine("p", FIRESTORE_EMULATOR_HOST=dead)
            if round_ == 0:
                offline.call("auth.login", email="bench@example.com", password=PASSWORD)
            batch = list(range(10_100_000 + round_ * 1000, 10_101_000 + round_ * 1000))
            for pending in [offline.request_async("favorites.add", movieId=m) for m in batch]:
                pending.result(timeout=300)
            assert offline.call("sync.status")["pending"] >= 1000
            offline.close()
            clients.remove(offline)
            began = time.perf_counter()
            online = machine("p")
            while online.call("sync.status")["pending"] > 0:
                time.sleep(0.02)
            pushed = time.perf_counter() - began
            began = time.perf_counter()
            pulled_report = b.call("sync.now")
            pulled = time.perf_counter() - began
            assert pulled_report["pulled"] >= 1000, pulled_report
            online.call("sync.now")  # pulls back its own writes, outside the timing: the next start has none
            online.close()
            clients.remove(online)
            print("1,000 pending favorites (%s): pushed in %.2f s from the server's start, pulled in %.2f s, "
                  "%.2f s in all; load %.1f" % ("cold" if round_ == 0 else "warm", pushed, pulled, pushed + pulled,
                                               os.getloadavg()[0]))

        # 4. 1,000 favorites pushed by A and pulled by B, as issue 15 words it.
        many = list(range(10_000_000, 10_001_000))
        began = time.perf_counter()
        for pending in [a.request_async("favorites.add", movieId=m) for m in many]:
            pending.result(timeout=300)
        added = time.perf_counter() - began
        began = time.perf_counter()
        assert a.call("sync.now")["pending"] == 0
        pushed = time.perf_counter() - began
        began = time.perf_counter()
        b.call("sync.now")
        pulled = time.perf_counter() - began
        count = len(b.call("favorites.list")["favorites"])
        assert count >= 1000, count
        print("1,000 favorites: added in %.2f s (pipelined), then pushed in %.2f s (after the adds), pulled in "
              "%.2f s, %.2f s in all" % (added, pushed, pulled, pushed + pulled))

    finally:
        for client in clients:
            client.close()
        tmdb.stop()
        firebase.stop()
        emulator.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
