#!/usr/bin/env bash
# Builds the release binary and prints its path. The Swift runtime is linked statically, which halves
# startup time and memory; the binary then needs only Debian's libssl, libcrypto and libsqlite3.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --product movie-rpc --static-swift-stdlib)
swift build "${flags[@]}" >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/movie-rpc"
