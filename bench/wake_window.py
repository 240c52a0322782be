#!/usr/bin/env python3
"""How a sequential round trip grows with the server's work per request, measured with the C echo kept busy.

    python3 bench/wake_window.py [BINARY] [--busy 0,1,2,3,4,5,6,8,10,15] [--rounds 6] [--block 500]

bench.py's sequential client writes a request and then blocks reading the reply. A reply written while the
client is still on its way into `read` costs nothing more; one written after the client has gone to sleep
pays for waking it. This script starts the C echo (bench/echo.c) once per busy time, each keeping the CPU
busy that many microseconds before it answers, and measures their sequential p50s in interleaved rounds
(as bench/sequential_ab.py does): printed per busy time, the p50, its ratio to the echo that is not busy,
and what the round trip added beyond the busy time itself. With a BINARY, its sequential p50 for `ping` and
`genres.list` (cached), measured in the same rounds, shows where each sits on that curve.
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

METHODS = {"ping": None, "genres.list": {"cachePolicy": "cacheFirst"}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary", nargs="?")
    parser.add_argument("--busy", default="0,1,2,3,4,5,6,8,10,15", help="microseconds, comma-separated")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--block", type=int, default=500, help="requests per pipe per round")
    args = parser.parse_args()
    busy = [float(value) for value in args.busy.split(",")]
    if 0.0 not in busy:
        busy.insert(0, 0.0)
    echo = bench.c_echo_command()
    pipes: dict[str, tuple[Pipe, bytes]] = {}
    echo_request = request("server.info", 1, None)
    for microseconds in busy:
        command = echo + ([str(int(microseconds * 1000))] if microseconds else [])
        pipes[f"echo busy {microseconds:g} µs"] = (Pipe(command, dict(os.environ)), echo_request)
    if args.binary:
        env = bench.methods_env(args.binary)
        for method, params in METHODS.items():
            pipes[method] = (Pipe([args.binary], env), request(method, 1, params))
    p50s = bench.interleaved_sequential_p50s(pipes, args.rounds, args.block)
    for pipe, _ in pipes.values():
        pipe.close()
    names = list(pipes)

    base = statistics.median(p50s[names[0]])
    print(f"C echo, not busy: p50 {base:.1f} µs (median of {args.rounds} rounds of {args.block})")
    print("| server | busy per request | sequential p50 | × the echo | added beyond the busy time |")
    print("|---|---|---|---|---|")
    for microseconds, name in zip(busy, names):
        p50 = statistics.median(p50s[name])
        print(f"| C echo | {microseconds:g} µs | {p50:.1f} µs | {p50 / base:.2f} | {p50 - base - microseconds:+.1f} µs |")
    for name in names[len(busy):]:
        p50 = statistics.median(p50s[name])
        print(f"| movie-rpc `{name}` | | {p50:.1f} µs | {p50 / base:.2f} | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
