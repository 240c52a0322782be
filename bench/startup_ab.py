#!/usr/bin/env python3
"""Time to first response of several server binaries, interleaved, so that they share the machine's state.

    python3 bench/startup_ab.py OLD_BINARY NEW_BINARY [--runs 60]

Each run spawns the binary with a fresh data directory per binary, sends one server.info and waits for the
reply (newline framing), as bench.py's first-response figure does. Prints median, p10 and p90 per binary.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time

REQUEST = b'{"jsonrpc":"2.0","id":1,"method":"server.info"}\n'


def first_response_ms(binary: str, env: dict) -> float:
    started = time.perf_counter()
    process = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=env, bufsize=0)
    os.write(process.stdin.fileno(), REQUEST)
    if not os.read(process.stdout.fileno(), 1 << 16):
        raise RuntimeError(f"{binary} closed stdout without answering")
    elapsed = (time.perf_counter() - started) * 1000
    process.stdin.close()
    process.wait(timeout=30)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()
    envs = {}
    for binary in args.binaries:
        env = {**os.environ, "MOVIE_RPC_HOME": tempfile.mkdtemp(prefix="startup-ab-")}
        for key in ("TMDB_API_KEY", "TMDB_ACCESS_TOKEN"):
            env.pop(key, None)
        envs[binary] = env
    times = {binary: [] for binary in args.binaries}
    for _ in range(args.runs):
        for binary in args.binaries:
            times[binary].append(first_response_ms(binary, envs[binary]))
    for binary, samples in times.items():
        samples.sort()
        print(f"{binary}: median {statistics.median(samples):.2f} ms, p10 {samples[len(samples) // 10]:.2f}, "
              f"p90 {samples[len(samples) * 9 // 10]:.2f} ({len(samples)} runs)")


if __name__ == "__main__":
    main()
