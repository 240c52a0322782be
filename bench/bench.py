#!/usr/bin/env python3
"""Benchmarks for movie-rpc's release binary, with a minimal Python JSON loop as the reference.

    python3 bench/bench.py                 # everything; prints a Markdown table
    python3 bench/bench.py --only protocol # one section: methods, protocol, catalog, accounts, events, discovery
    python3 bench/bench.py --only methods  # issue #14: each read beside the C echo, the Python echo loop
                                           # and the Python loop answering the very bytes movie-rpc answered

Measures over real pipes (newline framing): time from spawn to first response, sequential round trip
p50/p99, pipelined throughput, peak RSS (VmHWM), and the catalog figures against the fake TMDB server.
Results go to stdout and bench/out/results.json. The figures recorded in docs/BENCHMARKS.md come from here.
"""
from __future__ import annotations

import argparse
import json
import re
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "Tests" / "integration"))


class Pipe:
    """A server process and line-level I/O on its raw pipes (no client library in the measured path)."""

    def __init__(self, command: list[str], env: dict[str, str]):
        self.started = time.perf_counter()
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, env=env, bufsize=0)
        self.out = self.process.stdin.fileno()
        self.inp = self.process.stdout.fileno()
        self.buffer = b""

    def send(self, data: bytes):
        view = memoryview(data)
        while view:
            written = os.write(self.out, view)
            view = view[written:]

    def line(self) -> bytes:
        newline = self.buffer.find(b"\n")
        if newline < 0:
            # Large replies come in many chunks: look for the newline in each new chunk only.
            chunks = [self.buffer]
            while True:
                chunk = os.read(self.inp, 1 << 20)
                if not chunk:
                    raise EOFError("server closed stdout")
                chunks.append(chunk)
                at = chunk.find(b"\n")
                if at >= 0:
                    self.buffer = b"".join(chunks)
                    newline = len(self.buffer) - len(chunk) + at
                    break
        line, self.buffer = self.buffer[:newline], self.buffer[newline + 1:]
        return line

    def call(self, payload: bytes) -> bytes:
        self.send(payload)
        return self.line()

    def peak_rss_kib(self) -> int:
        with open(f"/proc/{self.process.pid}/status") as status:
            for row in status:
                if row.startswith("VmHWM:"):
                    return int(row.split()[1])
        return 0

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)


def request(method: str, rid: int = 1, params: dict | None = None) -> bytes:
    message = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def sequential(pipe: Pipe, payload: bytes, count: int, warmup: int = 200) -> dict:
    for _ in range(warmup):
        pipe.call(payload)
    samples = []
    for _ in range(count):
        start = time.perf_counter_ns()
        reply = pipe.call(payload)
        samples.append((time.perf_counter_ns() - start) / 1000)
    if count and b'"error"' in reply:
        raise RuntimeError(f"error reply: {reply[:300]!r}")
    if not samples:
        return {"samples": [], "n": 0}
    return {"p50_us": percentile(samples, 0.5), "p99_us": percentile(samples, 0.99), "n": count, "samples": samples}


def interleaved_sequential_p50s(pipes: dict, rounds: int, block: int, warmup: int = 300) -> dict[object, list[float]]:
    """Sequential p50s of several servers that share the machine's moments: `pipes` maps a key to a (Pipe,
    request) pair; after `warmup` requests on each, every round runs a block of `block` requests on every pipe
    in turn, the order reversed every other round. Returns each key's p50 per round (the rounds line up, so
    ratios can be taken round by round)."""
    for pipe, payload in pipes.values():
        sequential(pipe, payload, 0, warmup=warmup)
    p50s: dict[object, list[float]] = {key: [] for key in pipes}
    keys = list(pipes)
    for round_number in range(rounds):
        for key in keys if round_number % 2 == 0 else reversed(keys):
            pipe, payload = pipes[key]
            p50s[key].append(statistics.median(sequential(pipe, payload, block, warmup=0)["samples"]))
    return p50s


def pipelined(pipe: Pipe, payload_for, count: int) -> float:
    data = b"".join(payload_for(i) for i in range(count))
    writer = threading.Thread(target=pipe.send, args=(data,))
    start = time.perf_counter()
    writer.start()
    for _ in range(count):
        pipe.line()
    elapsed = time.perf_counter() - start
    writer.join()
    return count / elapsed


def time_to_first_response(command: list[str], env: dict, runs: int) -> float:
    return first_responses([command], env, runs)[0]


def first_responses(commands: list[list[str]], env: dict, runs: int) -> list[float]:
    """The median time from spawn to the first reply of each command, the commands started in turn `runs`
    times: a ratio of two of them then compares the same moments of a machine whose speed drifts (measured
    one block after the other, with a pipelined run between, the C echo's block and movie-rpc's saw
    different machines)."""
    times: list[list[float]] = [[] for _ in commands]
    for _ in range(runs):
        for index, command in enumerate(commands):
            times[index].append(first_response_ms(command, env))
    return [statistics.median(each) for each in times]


def first_response_ms(command: list[str], env: dict) -> float:
    """Milliseconds from spawning `command` to its reply to one `server.info`."""
    pipe = Pipe(command, env)
    pipe.call(request("server.info"))
    elapsed = (time.perf_counter() - pipe.started) * 1000
    pipe.close()
    return elapsed


def protocol_section(binary: str, quick: bool) -> list[tuple]:
    rows = []
    home = tempfile.mkdtemp(prefix="bench-home-")
    env = {**os.environ, "MOVIE_RPC_HOME": home}
    for key in ("TMDB_API_KEY", "TMDB_ACCESS_TOKEN"):
        env.pop(key, None)
    servers = [("movie-rpc", [binary]), ("python reference", [sys.executable, str(ROOT / "bench" / "reference_server.py")])]
    n_seq, n_pipe, n_spawn = (1000, 10000, 5) if quick else (5000, 50000, 15)
    for name, command in servers:
        ttfr = time_to_first_response(command, env, n_spawn)
        pipe = Pipe(command, env)
        seq = sequential(pipe, request("server.info"), n_seq)
        throughput = pipelined(pipe, lambda i: request("server.info", i), n_pipe)
        rss = pipe.peak_rss_kib() / 1024
        pipe.close()
        rows += [
            (name, "time to first response (server.info)", f"{ttfr:.1f} ms", "≤ 15 ms" if name == "movie-rpc" else ""),
            (name, "sequential round trip p50 / p99", f"{seq['p50_us']:.0f} / {seq['p99_us']:.0f} µs", "p50 ≤ 50 µs" if name == "movie-rpc" else ""),
            (name, f"pipelined throughput ({n_pipe} requests)", f"{throughput:,.0f} req/s", "≥ 30,000 req/s" if name == "movie-rpc" else ""),
            (name, "peak RSS", f"{rss:.1f} MiB", "≤ 25 MiB" if name == "movie-rpc" else ""),
        ]
    return rows


def catalog_section(binary: str, quick: bool) -> list[tuple]:
    from fake_tmdb import FakeTMDB

    rows = []
    n = 500 if quick else 3000
    home = tempfile.mkdtemp(prefix="bench-home-")
    demo_env = {**os.environ, "MOVIE_RPC_HOME": home}
    for key in ("TMDB_API_KEY", "TMDB_ACCESS_TOKEN"):
        demo_env.pop(key, None)
    pipe = Pipe([binary], demo_env)
    seq = sequential(pipe, request("genres.list"), n)
    rows.append(("demo", "genres.list p50 / p99", f"{seq['p50_us']:.0f} / {seq['p99_us']:.0f} µs", ""))
    seq = sequential(pipe, request("movies.popular", params={"page": 1}), n)
    rows.append(("demo", "movies.popular page (20 movies) p50 / p99", f"{seq['p50_us']:.0f} / {seq['p99_us']:.0f} µs", ""))
    pipe.close()

    fake = FakeTMDB(api_key="bench-key").start()
    env = {**demo_env, "MOVIE_RPC_HOME": tempfile.mkdtemp(prefix="bench-home-"), "TMDB_API_KEY": "bench-key",
           "TMDB_BASE_URL": fake.base_url, "MOVIE_RPC_OFFLINE_WINDOW": "60"}
    pipe = Pipe([binary], env)
    seq = sequential(pipe, request("genres.list", params={"cachePolicy": "cacheFirst"}), n)
    rows.append(("tmdb (fake)", "cached genres.list p50 / p99", f"{seq['p50_us']:.0f} / {seq['p99_us']:.0f} µs", "p50 ≤ 100 µs"))
    seq = sequential(pipe, request("movies.popular", params={"page": 1, "cachePolicy": "cacheFirst"}), n)
    rows.append(("tmdb (fake)", "cached movies.popular page p50 / p99", f"{seq['p50_us']:.0f} / {seq['p99_us']:.0f} µs", "p50 ≤ 300 µs"))
    seq = sequential(pipe, request("movies.popular", params={"page": 1}), n // 5)
    rows.append(("tmdb (fake)", "movies.popular from the network p50 / p99", f"{seq['p50_us']:.0f} / {seq['p99_us']:.0f} µs", ""))

    start = time.perf_counter()
    reply = json.loads(pipe.call(request("catalog.sync", params={"popularPages": 5, "genres": "all"})))
    sync_s = time.perf_counter() - start
    assert reply.get("result", {}).get("failed") == 0, reply
    rows.append(("tmdb (fake)", "catalog.sync 5 popular pages + all 19 genres", f"{sync_s * 1000:.0f} ms", "≤ 2 s"))

    fake.stop()  # the network goes away: connection refused
    pipe.call(request("movies.popular", params={"page": 2}))  # the failure that starts the offline window
    seq = sequential(pipe, request("movies.popular", params={"page": 2}), n // 5, warmup=0)
    reply = json.loads(pipe.call(request("movies.popular", params={"page": 2})))
    assert reply["result"]["source"] == "cache", reply
    rows.append(("tmdb (fake), stopped", "answer from cache after the network failed p50 / p99",
                 f"{seq['p50_us']:.0f} / {seq['p99_us']:.0f} µs", "≤ 2 ms"))
    pipe.close()
    return rows


def discovery_section(binary: str, quick: bool) -> list[tuple]:
    """Issue 12: cached movies.details with every include part, and catalog.sync of 20 popular pages with
    details against a fake TMDB that allows 40 requests a second (429 with Retry-After past it)."""
    from fake_tmdb import FakeTMDB

    rows = []
    n = 500 if quick else 3000
    fake = FakeTMDB(api_key="bench-key", synthetic=True).start()
    env = fresh_env(TMDB_API_KEY="bench-key", TMDB_BASE_URL=fake.base_url, MOVIE_RPC_OFFLINE_WINDOW="60",
                    MOVIE_RPC_RECORD_EVENTS="0")
    pipe = Pipe([binary], env)
    everything = {"movieId": 550, "include": ["credits", "videos", "watchProviders", "releaseDates", "externalIds"],
                  "region": "US", "cachePolicy": "cacheFirst"}
    ok(pipe.call(request("movies.details", params=everything)))
    before = fake.count("/3/movie/550")
    seq = sequential(pipe, request("movies.details", params=everything), n)
    assert fake.count("/3/movie/550") == before, "the cached answer went to TMDB"
    rows.append(("tmdb (fake)", "cached movies.details with all include parts p50 / p99",
                 f"{seq['p50_us']:.0f} / {seq['p99_us']:.0f} µs", "p50 ≤ 300 µs"))
    pipe.close()

    fake.max_per_second = 40
    pipe = Pipe([binary], fresh_env(TMDB_API_KEY="bench-key", TMDB_BASE_URL=fake.base_url,
                                   MOVIE_RPC_RECORD_EVENTS="0"))
    with fake.lock:
        fake.requests.clear()
    start = time.perf_counter()
    result = ok(pipe.call(request("catalog.sync", params={"popularPages": 20, "details": True})))
    elapsed = time.perf_counter() - start
    pipe.close()
    fake.stop()
    sent = sum(1 for r in fake.requests if r.startswith("/3/"))
    floor = sent / 40
    rows.append(("tmdb (fake), 40 req/s", "catalog.sync 20 popular pages + details of each movie",
                 f"{elapsed:.1f} s for {sent} requests ({result['details']} details, {result['failed']} failed); "
                 f"floor {floor:.1f} s; 429s {fake.rate_limited}, not waited out {fake.unhonoured_429s}",
                 "no unhonoured 429; near the floor"))
    return rows


def fresh_env(**extra) -> dict:
    env = {**os.environ, "MOVIE_RPC_HOME": tempfile.mkdtemp(prefix="bench-home-")}
    for key in ("TMDB_API_KEY", "TMDB_ACCESS_TOKEN", "MOVIE_RPC_PASSWORD_ITERATIONS", "MOVIE_RPC_RECORD_EVENTS"):
        env.pop(key, None)
    env.update(extra)
    return env


def ok(reply: bytes) -> dict:
    message = json.loads(reply)
    if "error" in message:
        raise RuntimeError(f"error reply: {message['error']}")
    return message["result"]


def accounts_section(binary: str, quick: bool) -> list[tuple]:
    from fake_tmdb import FakeTMDB

    rows = []
    # Login at the default password cost (PBKDF2-HMAC-SHA256, 600,000 iterations).
    pipe = Pipe([binary], fresh_env())
    ok(pipe.call(request("auth.register", params={"email": "bench@example.com", "password": "correct horse"})))
    times = []
    for _ in range(3 if quick else 7):
        ok(pipe.call(request("auth.logout")))
        start = time.perf_counter()
        ok(pipe.call(request("auth.login", params={"email": "bench@example.com", "password": "correct horse"})))
        times.append((time.perf_counter() - start) * 1000)
    rows.append(("accounts", "auth.login at the default cost (PBKDF2-SHA256, 600,000 iterations), median",
                 f"{statistics.median(times):.0f} ms", "a few hundred ms"))
    pipe.close()

    # 1,000 favorites: more movies than the demo catalog has, so a fake TMDB makes them up.
    fake = FakeTMDB(api_key="bench-key", synthetic=True).start()
    pipe = Pipe([binary], fresh_env(TMDB_API_KEY="bench-key", TMDB_BASE_URL=fake.base_url,
                                    MOVIE_RPC_PASSWORD_ITERATIONS="1000"))
    ok(pipe.call(request("auth.register", params={"email": "fav@example.com", "password": "secret!"})))
    count = 1000
    ids = [10_000_000 + i for i in range(count)]
    data = b"".join(request("favorites.add", i, {"movieId": movie}) for i, movie in enumerate(ids))
    writer = threading.Thread(target=pipe.send, args=(data,))
    writer.start()
    for _ in ids:
        ok(pipe.line())
    writer.join()
    n = 200 if quick else 1000
    seq = sequential(pipe, request("favorites.list"), n, warmup=20)
    assert len(ok(pipe.call(request("favorites.list")))["favorites"]) == count
    rows.append(("accounts", "favorites.list with 1,000 favorites p50 / p99",
                 f"{seq['p50_us'] / 1000:.2f} / {seq['p99_us'] / 1000:.2f} ms", "p50 ≤ 2 ms"))
    seq = sequential(pipe, request("favorites.contains", params={"movieIds": ids[::10]}), n, warmup=20)
    rows.append(("accounts", "favorites.contains for 100 ids p50 / p99",
                 f"{seq['p50_us'] / 1000:.2f} / {seq['p99_us'] / 1000:.2f} ms", "p50 ≤ 1 ms"))
    pipe.close()
    fake.stop()
    return rows


def fill_events(database: pathlib.Path, count: int) -> None:
    """Fills the events table directly, because a million events.add calls would take minutes (events.add
    itself is measured separately); then builds the counters and the search index as the server's batched
    inserts keep them."""
    import random
    import sqlite3

    names = ["genres.opened", "genre.opened", "popular.opened", "latest.opened", "movie.viewed",
             "favorite.added", "favorite.removed", "user.loggedIn", "catalog.synced"]
    rng = random.Random(7)
    base = 1_700_000_000_000
    with sqlite3.connect(database) as db:
        rows = []
        for i in range(count):
            name = names[rng.randrange(len(names))]
            value = rng.randrange(1_000_000)
            params = json.dumps({"movieId": value}) if name.startswith(("movie", "favorite")) else "{}"
            # As EventSearchText writes it: the name, then each value after U+001F.
            search = f"{name}\x1f{value}" if params != "{}" else name
            rows.append((name, base + i * 10, "u-bench" if i % 3 else None, params, search.lower()))
            if len(rows) == 50_000:
                db.executemany("INSERT INTO events (name, ts, user_id, params, search) VALUES (?, ?, ?, ?, ?)", rows)
                rows = []
        if rows:
            db.executemany("INSERT INTO events (name, ts, user_id, params, search) VALUES (?, ?, ?, ?, ?)", rows)
        db.executescript("""
            INSERT INTO events_fts (events_fts) VALUES ('rebuild');
            UPDATE event_search_indexed SET through = (SELECT coalesce(max(id), 0) FROM events) WHERE id = 1;
            UPDATE event_totals SET total = (SELECT count(*) FROM events) WHERE id = 1;
            DELETE FROM event_usage;
            INSERT INTO event_usage (user_key, name, count)
                SELECT coalesce(user_id, ''), name, sum(repeats) FROM events GROUP BY 1, 2;
            """)


def events_section(binary: str, quick: bool) -> list[tuple]:
    rows = []
    count = 100_000 if quick else 1_000_000
    env = fresh_env()
    home = pathlib.Path(env["MOVIE_RPC_HOME"])
    Pipe([binary], env).close()  # creates the schema
    started = time.perf_counter()
    fill_events(home / "movie-rpc.sqlite", count)
    fill_s = time.perf_counter() - started
    pipe = Pipe([binary], env)
    n = 300 if quick else 1000
    first = sequential(pipe, request("events.list", params={"limit": 50}), n, warmup=20)
    # Deep pages: follow cursors 200 pages in, then time fetching the next page from there.
    cursor = None
    for _ in range(200):
        result = ok(pipe.call(request("events.list", params={"limit": 50, **({"cursor": cursor} if cursor else {})})))
        cursor = result["nextCursor"]
    deep = sequential(pipe, request("events.list", params={"limit": 50, "cursor": cursor}), n, warmup=20)
    rows.append((f"events ({count:,} in the database)", "events.list page of 50: first / 200 pages deep, p50",
                 f"{first['p50_us'] / 1000:.2f} / {deep['p50_us'] / 1000:.2f} ms", "p50 ≤ 2 ms"))
    search = sequential(pipe, request("events.search", params={"query": "loggedin", "limit": 50}), n // 5, warmup=5)
    rows.append((f"events ({count:,} in the database)", "events.search for a name substring (\"loggedin\") p50 / p99",
                 f"{search['p50_us'] / 1000:.1f} / {search['p99_us'] / 1000:.1f} ms", "p50 ≤ 50 ms"))
    adds = 5_000 if quick else 20_000
    throughput = pipelined(pipe, lambda i: request("events.add", i, {"name": "bench.added", "params": {"n": i}}), adds)
    rows.append((f"events ({count:,} in the database)", f"events.add sustained ({adds:,} pipelined)",
                 f"{throughput:,.0f} events/s", "≥ 5,000 events/s"))
    pipe.close()
    size = sum(p.stat().st_size for p in home.glob("movie-rpc.sqlite*"))
    rows.append((f"events ({count:,} in the database)", "database size per million events",
                 f"{size / count * 1_000_000 / 2**20:.0f} MiB", f"(filled in {fill_s:.0f} s)"))

    # What recording adds to a request: the same call with recording on and off. The calls are identical,
    # so their events are one run (one row counting them): this is recording's cost for a repeated call.
    timings = {}
    for flag in ("1", "0"):
        pipe = Pipe([binary], fresh_env(MOVIE_RPC_RECORD_EVENTS=flag))
        timings[flag] = sequential(pipe, request("genres.list"), 2000 if quick else 5000)["p50_us"]
        pipe.close()
    rows.append(("events", "recording's cost: genres.list (repeated: one run) p50 with recording on − off",
                 f"{timings['1']:.0f} − {timings['0']:.0f} = {timings['1'] - timings['0']:.0f} µs", "≤ 20 µs"))
    return rows


def c_echo_command() -> list[str]:
    """bench/echo.c, compiled into bench/out (again when the source is newer)."""
    out = ROOT / "bench" / "out"
    out.mkdir(exist_ok=True)
    source, binary = ROOT / "bench" / "echo.c", out / "echo"
    if not binary.exists() or binary.stat().st_mtime < source.stat().st_mtime:
        subprocess.run(["cc", "-O2", "-o", str(binary), str(source)], check=True)
    return [str(binary)]


def result_text(reply: bytes) -> bytes:
    """The result member of a reply to id 1, as the bytes the server wrote."""
    prefix = b'{"jsonrpc":"2.0","id":1,"result":'
    if not reply.startswith(prefix) or not reply.endswith(b"}"):
        raise RuntimeError(f"unexpected reply: {reply[:300]!r}")
    return reply[len(prefix):-1]


def measure(command: list[str], env: dict, method: str, params: dict | None, n_seq: int, n_pipe: int) -> dict:
    return measure_interleaved([command], env, method, params, n_seq, n_pipe)[0]


def measure_interleaved(commands: list[list[str]], env: dict, method: str, params: dict | None, n_seq: int,
                        n_pipe: int, rounds: int = 1) -> list[dict]:
    """Sequential round trips and pipelined throughput of each command, one process each, measured in turn:
    the sequential calls in `rounds` blocks and the pipelined runs `rounds` times, command after command, so
    that a ratio of two of them compares the same moments of a machine whose speed drifts (measured one
    process after the other, the Python loop's figures came a minute after movie-rpc's). Medians."""
    pipes = [Pipe(command, env) for command in commands]
    replies = [pipe.call(request(method, 1, params)) for pipe in pipes]
    samples: list[list[float]] = [[] for _ in commands]
    block = max(1, n_seq // rounds)
    for pipe in pipes:
        sequential(pipe, request(method, 1, params), 0, warmup=min(200, n_seq // 5))
    for _ in range(rounds):
        for index, pipe in enumerate(pipes):
            samples[index] += sequential(pipe, request(method, 1, params), block, warmup=0)["samples"]
    # Roughly the same bytes for every method: fewer requests when replies are large.
    count = max(1000, min(n_pipe, (64 << 20) // max(1, len(replies[0]))))
    throughputs: list[list[float]] = [[] for _ in commands]
    for _ in range(rounds):
        for index, pipe in enumerate(pipes):
            throughputs[index].append(pipelined(pipe, lambda i: request(method, i, params), count))
    results = []
    for index, pipe in enumerate(pipes):
        rss = pipe.peak_rss_kib() / 1024
        pipe.close()
        results.append({"reply": replies[index], "count": count, "rss": rss,
                        "seq": {"p50_us": percentile(samples[index], 0.5), "p99_us": percentile(samples[index], 0.99),
                                "n": len(samples[index])},
                        "throughput": statistics.median(throughputs[index]), "throughputs": throughputs[index]})
    return results


METHOD_IDS = [10_000_000 + i for i in range(100)]
# The reads issue #14 names: a label, the method, its params.
METHOD_CASES = [
    ("server.info", "server.info", None),
    ("genres.list (cached)", "genres.list", {"cachePolicy": "cacheFirst"}),
    ("movies.popular (cached page)", "movies.popular", {"page": 1, "cachePolicy": "cacheFirst"}),
    ("movies.details (cached)", "movies.details", {"movieId": METHOD_IDS[0], "cachePolicy": "cacheFirst"}),
    ("favorites.contains (100 ids)", "favorites.contains", {"movieIds": METHOD_IDS}),
    ("events.list (page of 50)", "events.list", {"limit": 50}),
]
# The same reads on the embedded demo catalog (no credential): what the README's demo and a first user see.
DEMO_METHOD_CASES = [
    ("genres.list (demo catalog)", "genres.list", None),
    ("movies.byGenre (demo catalog page)", "movies.byGenre", {"genreId": 28}),
]


def methods_env(binary: str, **extra) -> dict:
    """A data directory the methods are measured in, filled by one process: an account with 100 favorites,
    200 events, the catalog cache warm. The fake TMDB is stopped after: nothing measured may need the
    network."""
    from fake_tmdb import FakeTMDB

    fake = FakeTMDB(api_key="bench-key", synthetic=True).start()
    env = fresh_env(TMDB_API_KEY="bench-key", TMDB_BASE_URL=fake.base_url, MOVIE_RPC_PASSWORD_ITERATIONS="1000",
                    MOVIE_RPC_OFFLINE_WINDOW="60", **extra)
    setup = Pipe([binary], env)
    ok(setup.call(request("auth.register", params={"email": "bench@example.com", "password": "secret!"})))
    for batch in (
        [request("favorites.add", i, {"movieId": movie}) for i, movie in enumerate(METHOD_IDS)],
        [request("events.add", i, {"name": "bench.added", "params": {"n": i, "note": "x" * 40}}) for i in range(200)],
    ):
        setup.send(b"".join(batch))
        for _ in batch:
            ok(setup.line())
    for _, method, params in METHOD_CASES:
        ok(setup.call(request(method, params={**(params or {}), "cachePolicy": "networkFirst"}
                              if params and "cachePolicy" in params else params)))
    setup.close()
    fake.stop()
    return env


def without_fetched_at(reply: bytes) -> bytes:
    return re.sub(rb'"fetchedAt":"[^"]*"', b'"fetchedAt":""', reply)


def methods_section(binary: str, quick: bool) -> list[tuple]:
    """Issue #14: every read next to the references of the same run: the C echo, the Python echo loop, and
    the Python loop answering each method with the very bytes movie-rpc answered."""
    n_seq, n_pipe, n_spawn = (1000, 10000, 5) if quick else (5000, 50000, 15)
    env = methods_env(binary)
    cases = [(case, env) for case in METHOD_CASES] + [(case, fresh_env()) for case in DEMO_METHOD_CASES]

    reference = [sys.executable, str(ROOT / "bench" / "reference_server.py")]
    # Each method: movie-rpc, the Python loop answering with the very bytes movie-rpc answered just before
    # (what some methods answer depends on what the runs before recorded) and the C echo, measured in turn
    # (three rounds of sequential blocks and of pipelined runs), so that each ratio compares the same moments.
    ours, python_same, echo_same = {}, {}, {}
    for (label, method, params), case_env in cases:
        first = Pipe([binary], case_env)
        answer = result_text(first.call(request(method, 1, params))).decode()
        first.close()
        results_file = pathlib.Path(tempfile.mkdtemp(prefix="bench-ref-")) / "results.json"
        results_file.write_text(json.dumps({method: answer}))
        ours[label], python_same[label], echo_same[label] = measure_interleaved(
            [[binary], reference + [str(results_file)], c_echo_command()], case_env, method, params, n_seq, n_pipe,
            rounds=3)
        # A demo answer says when it was made: its `fetchedAt` changes, its length does not.
        if without_fetched_at(python_same[label]["reply"]) != without_fetched_at(ours[label]["reply"]):
            raise RuntimeError(f"the Python loop's answer to {method} differs from movie-rpc's")

    references = {}
    # movie-rpc's first response and the C echo's, spawned in turn (more runs than the others: each is short).
    c_echo_ttfr, ttfr = first_responses([c_echo_command(), [binary]], env, n_spawn * 3)
    for name, command in (("C echo", c_echo_command()), ("Python echo loop", reference)):
        first = c_echo_ttfr if name == "C echo" else time_to_first_response(command, env, n_spawn)
        references[name] = {"ttfr": first, **measure(command, env, "server.info", None, n_seq, n_pipe)}

    rows = []
    c_echo = references["C echo"]
    for name, figures in references.items():
        rows.append((name, "first response / sequential p50, p99 / pipelined",
                     f"{figures['ttfr']:.1f} ms / {figures['seq']['p50_us']:.0f}, {figures['seq']['p99_us']:.0f} µs"
                     f" / {figures['throughput']:,.0f}/s", "reference"))
    rows.append(("movie-rpc", "first response (server.info)", f"{ttfr:.1f} ms",
                 f"{ttfr / c_echo['ttfr']:.1f}× the C echo"))
    for (label, _, _), _ in cases:
        mine, same, echo = ours[label], python_same[label], echo_same[label]
        size = len(mine["reply"])
        rows.append((f"movie-rpc {label}", f"sequential p50, p99 ({size:,} B replies)",
                     f"{mine['seq']['p50_us']:.0f}, {mine['seq']['p99_us']:.0f} µs "
                     f"(Python same bytes {same['seq']['p50_us']:.0f}, {same['seq']['p99_us']:.0f} µs; "
                     f"C echo {echo['seq']['p50_us']:.0f} µs)",
                     f"p50 {mine['seq']['p50_us'] / echo['seq']['p50_us']:.1f}× the C echo"))
        runs = ", ".join(f"{ours_run / same_run:.2f}" for ours_run, same_run in zip(mine["throughputs"], same["throughputs"]))
        rows.append((f"movie-rpc {label}", f"pipelined ({mine['count']:,} requests, median of 3 in turn)",
                     f"{mine['throughput']:,.0f}/s (Python same bytes {same['throughput']:,.0f}/s)",
                     f"{mine['throughput'] / same['throughput']:.2f}× the Python loop (runs {runs})"))
        rows.append((f"movie-rpc {label}", "peak RSS after the pipelined run", f"{mine['rss']:.1f} MiB", ""))
    return rows


SECTIONS = {"methods": methods_section, "protocol": protocol_section, "catalog": catalog_section,
            "accounts": accounts_section, "events": events_section, "discovery": discovery_section}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.environ.get("MOVIE_RPC_BIN") or str(ROOT / ".build" / "release" / "movie-rpc"))
    parser.add_argument("--only", choices=sorted(SECTIONS), action="append")
    parser.add_argument("--quick", action="store_true", help="fewer iterations (a smoke run)")
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        print(f"no binary at {args.binary}; run: swift build -c release", file=sys.stderr)
        return 2
    rows = []
    for name in args.only or list(SECTIONS):
        rows += SECTIONS[name](args.binary, args.quick)
    print("| subject | measure | result | target |")
    print("|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    out = ROOT / "bench" / "out"
    out.mkdir(exist_ok=True)
    (out / "results.json").write_text(json.dumps(rows, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
