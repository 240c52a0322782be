#!/usr/bin/env bash
# Builds the release binary and prints its path. It runs exactly the README's `swift build -c release` (every
# product, so a product that fails to link fails here, in the demo and in the tests): Package.swift links the Swift
# runtime statically in release on Linux (the binary then needs only Debian's libssl, libcrypto and libsqlite3), so
# the README's commands and this script give the same binary.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release >&2
echo "$(swift build -c release --show-bin-path)/movie-rpc"
