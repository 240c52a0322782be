#!/usr/bin/env bash
# Builds the release binary and prints its path. It is what plain `swift build -c release` builds: Package.swift
# links the Swift runtime statically in release on Linux (the binary then needs only Debian's libssl, libcrypto
# and libsqlite3), so the README's commands and this script give the same binary.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --product movie-rpc)
swift build "${flags[@]}" >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/movie-rpc"
