#!/usr/bin/env python3
"""Storage and build benchmarks for movie-rpc, beside a C echo measured in the same run.

    python3 bench/storage_bench.py build BINARY [BINARY ...]   # first response and peak RSS, vs the C echo
    python3 bench/storage_bench.py contention BINARY           # genres.list / favorites.list p99 under contention

build: each binary and the C echo (bench/echo.c, as bench.py builds it) are started in turn, --runs
times, so all see the same machine state; first response is spawn to the reply of server.info (the echo
answers its first line). Peak RSS (VmHWM) is read after a pipelined run of 20,000 requests of each method.

contention: one server with a logged-in user, 50 favorites and --events stored events. genres.list and
favorites.list are timed one at a time (p50/p99): idle; while another process (Python's sqlite3) holds the
write lock with BEGIN IMMEDIATE and a favorites.add of ours waits for it; while four events.search scans over every event (a query that matches
nothing) run all the time on the same connection.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import sqlite3
import statistics
import sys
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from bench import (Pipe, c_echo_command, fill_events, first_response_ms, fresh_env, ok, percentile,  # noqa: E402
                   pipelined, request)

HERE = pathlib.Path(__file__).resolve().parent


def c_echo() -> str:
    """The C echo bench.py measures too (bench/echo.c, compiled once into bench/out); returns its path."""
    return c_echo_command()[0]


def peak_rss_after_pipelined(command: list[str], env: dict, method: str, params: dict | None, count: int) -> float:
    pipe = Pipe(command, env)
    ok_reply = pipe.call(request(method, 0, params))
    if b'"error"' in ok_reply:
        raise RuntimeError(f"{method}: {ok_reply[:200]!r}")
    pipelined(pipe, lambda i: request(method, i + 1, params), count)
    rss = pipe.peak_rss_kib() / 1024
    pipe.close()
    return rss


def build_section(binaries: list[str], runs: int, count: int) -> None:
    echo = c_echo()
    subjects = [("C echo", [echo])] + [(name, [name]) for name in binaries]
    times: dict[str, list[float]] = {name: [] for name, _ in subjects}
    # One data directory per subject, made before the runs: a start opens a database, it does not create one.
    envs = {name: fresh_env() for name, _ in subjects}
    for name, command in subjects:
        first_response_ms(command, envs[name])
    for _ in range(runs):
        for name, command in subjects:
            times[name].append(first_response_ms(command, envs[name]))
    echo_ms = statistics.median(times["C echo"])
    print("| binary | first response median (p90) | × C echo |")
    print("|---|---|---|")
    for name, _ in subjects:
        ordered = sorted(times[name])
        median, p90 = statistics.median(ordered), ordered[int(0.9 * (len(ordered) - 1))]
        print(f"| {name} | {median:.2f} ms ({p90:.2f}) | {median / echo_ms:.1f} |")
    methods = [("server.info", None), ("genres.list", None), ("movies.popular", {"page": 1}),
               ("movies.details", {"movieId": 550}), ("events.list", {"limit": 50})]
    print()
    print("| binary | " + " | ".join(f"peak RSS, {count:,} × {m}" for m, _ in methods) + " |")
    print("|---|" + "---|" * len(methods))
    for name, command in subjects[1:]:
        cells = [f"{peak_rss_after_pipelined(command, fresh_env(), m, p, count):.1f} MiB" for m, p in methods]
        print(f"| {name} | " + " | ".join(cells) + " |")


class Scans:
    """Keeps `count` events.search scans running on `pipe`; replies of other requests go to `replies`."""

    def __init__(self, pipe: Pipe, count: int) -> None:
        self.pipe, self.count = pipe, count
        self.replies: dict[int, threading.Event] = {}
        self.lock = threading.Lock()
        self.scanning = False
        self.next_scan = 1_000_000
        self.completed = 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _scan(self) -> None:
        self.next_scan += 1
        self.pipe.send(request("events.search", self.next_scan, {"query": "zz-no-such-event", "limit": 50}))

    def start(self) -> None:
        with self.lock:
            self.scanning = True
            for _ in range(self.count):
                self._scan()

    def stop(self) -> None:
        with self.lock:
            self.scanning = False

    def _read(self) -> None:
        while True:
            try:
                line = self.pipe.line()
            except EOFError:
                return
            rid = json.loads(line)["id"]
            if rid > 1_000_000:
                with self.lock:
                    self.completed += 1
                    if self.scanning:
                        self._scan()
            else:
                with self.lock:
                    event = self.replies.pop(rid)
                event.set()

    def send(self, rid: int, method: str, params: dict | None = None) -> threading.Event:
        event = threading.Event()
        with self.lock:
            self.replies[rid] = event
        self.pipe.send(request(method, rid, params))
        return event

    def call(self, rid: int, method: str) -> float:
        start = time.perf_counter_ns()
        self.send(rid, method).wait()
        return (time.perf_counter_ns() - start) / 1000


def timed(scans: Scans, method: str, n: int, first_id: int) -> str:
    samples = [scans.call(first_id + i, method) for i in range(n)]
    return f"{percentile(samples, 0.5) / 1000:.2f} / {percentile(samples, 0.99) / 1000:.2f} ms"


def contention_section(binary: str, events: int, n: int) -> None:
    env = fresh_env(MOVIE_RPC_PASSWORD_ITERATIONS="1000")
    home = pathlib.Path(env["MOVIE_RPC_HOME"])
    Pipe([binary], env).close()  # creates the schema
    fill_events(home / "movie-rpc.sqlite", events)
    pipe = Pipe([binary], env)
    ok(pipe.call(request("auth.register", params={"email": "bench@example.com", "password": "secret!"})))
    page = ok(pipe.call(request("movies.popular", params={"page": 1})))["results"]
    page += ok(pipe.call(request("movies.popular", params={"page": 2})))["results"]
    page += ok(pipe.call(request("movies.popular", params={"page": 3})))["results"]
    assert len(page) > 50, len(page)
    for movie in page[:50]:
        ok(pipe.call(request("favorites.add", params={"movieId": movie["id"]})))
    scans = Scans(pipe, 4)
    rows = []
    for method in ("genres.list", "favorites.list"):
        rows.append((method, "idle", timed(scans, method, n, 1)))
    lock = sqlite3.connect(str(home / "movie-rpc.sqlite"), isolation_level=None, timeout=30)
    lock.execute("BEGIN IMMEDIATE")
    # A write of ours waits for the lock meanwhile, as one does as soon as anything is written.
    waiting = scans.send(99_999, "favorites.add", {"movieId": page[50]["id"]})
    for method in ("genres.list", "favorites.list"):
        rows.append((method, "another process holds the write lock (and a favorites.add waits for it)",
                     timed(scans, method, n, 100_000)))
    lock.rollback()
    lock.close()
    waiting.wait()
    scans.start()
    before = scans.completed
    for method in ("genres.list", "favorites.list"):
        rows.append((method, "four events.search scans running", timed(scans, method, n, 200_000)))
    scans.stop()
    done = scans.completed - before
    print(f"| method | while | p50 / p99 |  ({events:,} events; {done} scans completed during the last rows)")
    print("|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    pipe.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("section", choices=["build", "contention"])
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--events", type=int, default=300_000)
    parser.add_argument("-n", type=int, default=500)
    args = parser.parse_args()
    if args.section == "build":
        build_section(args.binaries, args.runs, args.count)
    else:
        contention_section(args.binaries[0], args.events, args.n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
