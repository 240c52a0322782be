#!/usr/bin/env python3
"""Time to first response of several server binaries, interleaved, so that they share the machine's state.

    python3 bench/startup_ab.py OLD_BINARY NEW_BINARY [--runs 60] [--as-bench]

Each run spawns the binary with a fresh data directory per binary, sends one server.info and waits for the
reply (newline framing), as bench.py's first-response figure does. Prints median, p10 and p90 per binary.
With --as-bench, each binary starts as bench.py's methods section starts it (a TMDB credential for a fake
TMDB, an account, the catalog cache warm: what its first-response figure measures), and the C echo is
spawned in turn as well, each binary's median then given as a multiple of the echo's.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import pathlib
import sys
import time

REQUEST = b'{"jsonrpc":"2.0","id":1,"method":"server.info"}\n'


def first_response_ms(command: list[str], env: dict) -> float:
    started = time.perf_counter()
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=env, bufsize=0)
    os.write(process.stdin.fileno(), REQUEST)
    if not os.read(process.stdout.fileno(), 1 << 16):
        raise RuntimeError(f"{command[0]} closed stdout without answering")
    elapsed = (time.perf_counter() - started) * 1000
    process.stdin.close()
    process.wait(timeout=30)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument("--as-bench", action="store_true", help="start as bench.py's methods section does, beside the C echo")
    args = parser.parse_args()
    envs = {}
    commands = {binary: [binary] for binary in args.binaries}
    if args.as_bench:
        sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
        import bench  # noqa: E402
    for binary in args.binaries:
        if args.as_bench:
            envs[binary] = bench.methods_env(binary)
            continue
        env = {**os.environ, "MOVIE_RPC_HOME": tempfile.mkdtemp(prefix="startup-ab-")}
        for key in ("TMDB_API_KEY", "TMDB_ACCESS_TOKEN"):
            env.pop(key, None)
        envs[binary] = env
    if args.as_bench:
        commands["C echo"] = bench.c_echo_command()
        envs["C echo"] = dict(os.environ)
    times = {name: [] for name in commands}
    for _ in range(args.runs):
        for name, command in commands.items():
            times[name].append(first_response_ms(command, envs[name]))
    echo = statistics.median(times["C echo"]) if args.as_bench else None
    for name, samples in times.items():
        samples.sort()
        ratio = f", {statistics.median(samples) / echo:.2f}x the C echo" if echo else ""
        print(f"{name}: median {statistics.median(samples):.2f} ms, p10 {samples[len(samples) // 10]:.2f}, "
              f"p90 {samples[len(samples) * 9 // 10]:.2f} ({len(samples)} runs){ratio}")


if __name__ == "__main__":
    main()
