#!/usr/bin/env bash
# Soak test (docs/RELIABILITY.md, "Soak"): N mixed requests (default 200,000) through one movie-rpc process,
# 32 in flight, sampling its resident memory and open descriptors; fails if memory grows more than 10%
# after the warm-up, descriptors drift, or any reply is wrong.
#
#   scripts/soak.sh [N]          # uses $MOVIE_RPC_BIN, else builds the release binary first
set -euo pipefail
cd "$(dirname "$0")/.."

requests="${1:-200000}"
if [ -z "${MOVIE_RPC_BIN:-}" ]; then
    MOVIE_RPC_BIN="$(bash scripts/release-build.sh)"
fi
exec python3 Tests/faults/soak.py "$requests" --binary "$MOVIE_RPC_BIN"
