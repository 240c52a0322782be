#!/usr/bin/env python3
"""Paired pipelined runs of two or more movie-rpc binaries, for telling a change from the machine's drift.

    python3 bench/ab.py genres.list BEFORE AFTER [MORE ...] [--rounds 8]

Each round starts every binary in turn (the order reversed every other round) on a fresh copy of one data
directory set up as bench.py's methods section sets it up (an account with 100 favorites, 200 events, the
catalog cache warm), and times one pipelined run of the method (50,000 requests; 8,000 for the large
replies) after a first request. Printed per binary: the median throughput, the server's CPU time per request
(user + system, from /proc) and its context switches per request (every thread's, voluntary and not); then,
for each binary after the first, the median of its per-round ratios to the first. On this machine the
speed of one run drifts by ±30 % from minute to minute; a ratio taken within the same round does not
see most of that drift, and CPU time and switches per request barely move with it.
"""
from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import bench  # noqa: E402


def context_switches(pid: int) -> int:
    total = 0
    for thread in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{thread}/status") as status:
            total += sum(int(line.split()[1]) for line in status if "ctxt_switches" in line)
    return total


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("method", choices=[method for _, method, _ in bench.METHOD_CASES])
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    params = {method: params for _, method, params in bench.METHOD_CASES}[args.method]
    count = 8000 if args.method in ("movies.popular", "events.list") else 50_000
    env = bench.methods_env(args.binaries[0])
    home = pathlib.Path(env["MOVIE_RPC_HOME"])
    pristine = pathlib.Path(tempfile.mkdtemp(prefix="bench-ab-")) / "home"
    shutil.copytree(home, pristine)
    rates: dict[str, list[float]] = {binary: [] for binary in args.binaries}
    cpu: dict[str, list[float]] = {binary: [] for binary in args.binaries}
    switches: dict[str, list[float]] = {binary: [] for binary in args.binaries}
    for round_number in range(args.rounds):
        order = args.binaries if round_number % 2 == 0 else list(reversed(args.binaries))
        for binary in order:
            shutil.rmtree(home)
            shutil.copytree(pristine, home)
            pipe = bench.Pipe([binary], env)
            pipe.call(bench.request(args.method, 1, params))
            cpu_before, switches_before = cpu_seconds(pipe.process.pid), context_switches(pipe.process.pid)
            rates[binary].append(bench.pipelined(pipe, lambda i: bench.request(args.method, i, params), count))
            cpu[binary].append((cpu_seconds(pipe.process.pid) - cpu_before) / count * 1e6)
            switches[binary].append((context_switches(pipe.process.pid) - switches_before) / count)
            pipe.close()
    shutil.rmtree(pristine.parent)
    print(f"{args.method}, {count:,} pipelined requests, {args.rounds} rounds")
    for binary in args.binaries:
        print(f"  {binary}: {statistics.median(rates[binary]):,.0f}/s, CPU {statistics.median(cpu[binary]):.1f} µs "
              f"and {statistics.median(switches[binary]):.3f} context switches a request "
              f"(runs {', '.join(f'{rate / 1000:.0f}k' for rate in rates[binary])})")
    first = args.binaries[0]
    for binary in args.binaries[1:]:
        ratios = sorted(after / before for before, after in zip(rates[first], rates[binary]))
        print(f"  {binary} / {first}: {statistics.median(ratios):.2f} "
              f"(rounds {', '.join(f'{ratio:.2f}' for ratio in ratios)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
