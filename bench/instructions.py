#!/usr/bin/env python3
"""Instructions per request of each read in bench.py's methods section, counted by valgrind's callgrind.

    python3 bench/instructions.py [--binary B] [--only genres.list] [--no-recording]

Wall-clock figures on this machine drift by more than the 10 % a step is worth (docs/BENCHMARKS.md), but an
instruction count does not: for the same binary and inputs it repeats within about 1 %, whatever else the
machine is doing. Each method is answered 1,000 and then 5,000 times pipelined by a server under callgrind
(every thread, the activity event's recording included, start-up excluded by the difference), in a data
directory set up as bench.py's: an account with 100 favorites, 200 events, the catalog cache warm. Copies are
overstated: callgrind counts each byte of a `rep movsb` as an instruction. Takes 5-8 minutes.
"""
from __future__ import annotations

import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import bench  # noqa: E402
from bench import METHOD_CASES, Pipe, methods_env, request  # noqa: E402


def total_instructions(binary: str, env: dict, method: str, params: dict | None, count: int) -> int:
    out = pathlib.Path(tempfile.mkdtemp(prefix="bench-cg-")) / "callgrind.out"
    pipe = Pipe(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary], env)
    pipe.call(request(method, 1, params))
    bench.pipelined(pipe, lambda i: request(method, i, params), count)
    pipe.close()
    summary = subprocess.run(["callgrind_annotate", "--auto=no", "--threshold=100", str(out)],
                             capture_output=True, text=True, check=True).stdout
    match = re.search(r"([\d,]+) \(100\.0%\)\s+PROGRAM TOTALS", summary)
    if not match:
        raise RuntimeError(f"no total in {out}")
    return int(match.group(1).replace(",", ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.environ.get("MOVIE_RPC_BIN")
                        or str(bench.ROOT / ".build" / "release" / "movie-rpc"))
    parser.add_argument("--only", action="append", help="a method name; may be repeated")
    parser.add_argument("--no-recording", action="store_true", help="MOVIE_RPC_RECORD_EVENTS=0")
    args = parser.parse_args()
    env = methods_env(args.binary, **({"MOVIE_RPC_RECORD_EVENTS": "0"} if args.no_recording else {}))
    print("| method | instructions per request |")
    print("|---|---|")
    for _, method, params in METHOD_CASES:
        if args.only and method not in args.only:
            continue
        few = total_instructions(args.binary, env, method, params, 1000)
        many = total_instructions(args.binary, env, method, params, 5000)
        print(f"| {method} | {(many - few) / 4000:,.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
