#!/usr/bin/env bash
# Builds the release binary and prints its path. With libcurl's development files present (Debian's
# libcurl4-openssl-dev, installed by scripts/install-deps.sh) the Swift runtime is linked statically,
# which halves startup time and memory; without them the ordinary dynamic build is used.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --product movie-rpc)
if pkg-config --exists libcurl 2>/dev/null; then flags+=(--static-swift-stdlib); fi
swift build "${flags[@]}" >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/movie-rpc"
