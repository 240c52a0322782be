#!/usr/bin/env bash
# Builds the server and runs the tour: a whole session against the embedded demo catalog.
set -euo pipefail
cd "$(dirname "$0")/.."
export MOVIE_RPC_BIN="$(bash scripts/release-build.sh)"
# A throwaway data directory, so the tour starts from nothing and leaves nothing behind.
export MOVIE_RPC_HOME="${MOVIE_RPC_HOME:-$(mktemp -d)}"
exec python3 clients/python/examples/tour.py "$@"
