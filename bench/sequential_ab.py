#!/usr/bin/env python3
"""Sequential round trips of one or more movie-rpc binaries, method by method, beside the C echo.

    python3 bench/sequential_ab.py BINARY [MORE ...] [--rounds 12] [--block 400]

One request at a time, each sent when the reply to the one before has arrived: what an editor waiting on
each answer sees, and what bench.py's "sequential p50" measures. Every binary is started once per method
in a data directory set up as bench.py's methods section sets it up (a TMDB credential for a fake TMDB that
is stopped, the catalog cache warm), and the C echo once. Each round runs a block of requests on every pipe
in turn (the order reversed every other round), so that all of them see the same moments of a machine
whose speed drifts; printed per binary and method: the median of the rounds' p50s, and the median of the
rounds' ratios to the C echo's p50 in the same round.

`ping` is answered by a raw handler through the same path as every method (framing, envelope, dispatcher,
task, output): beside the C echo it shows what the protocol costs, and beside the others what each method's
own work (params, handler, result, recording) adds.
"""
from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import bench  # noqa: E402
from bench import Pipe, request  # noqa: E402

METHODS = {
    "ping": None,
    "server.info": None,
    "genres.list": {"cachePolicy": "cacheFirst"},
    "movies.details": {"movieId": bench.METHOD_IDS[0], "cachePolicy": "cacheFirst"},
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--block", type=int, default=400, help="requests per pipe per round")
    args = parser.parse_args()
    pipes: dict[object, tuple[Pipe, bytes]] = {}
    for binary in args.binaries:
        env = bench.methods_env(binary)
        for method, params in METHODS.items():
            pipes[(binary, method)] = (Pipe([binary], env), request(method, 1, params))
    pipes["echo"] = (Pipe(bench.c_echo_command(), dict(os.environ)), request("server.info", 1, None))
    p50s = bench.interleaved_sequential_p50s(pipes, args.rounds, args.block)
    for pipe, _ in pipes.values():
        pipe.close()
    echo_p50s = p50s.pop("echo")

    print(f"C echo: p50 {statistics.median(echo_p50s):.1f} µs (median of {args.rounds} rounds of {args.block})")
    print("| binary | method | sequential p50 | × the C echo |")
    print("|---|---|---|---|")
    for (binary, method), values in p50s.items():
        ratio = statistics.median(value / echo for value, echo in zip(values, echo_p50s))
        print(f"| {binary} | {method} | {statistics.median(values):.1f} µs | {ratio:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
