#!/usr/bin/env bash
# Runs every test: Swift unit tests, the pytest integration suites and the Neovim plugin's headless
# tests against the release binary.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 scripts/embed-resources.py --check
swift build -c release --static-swift-stdlib --product movie-rpc
swift build --build-tests
swift test --skip-build
export MOVIE_RPC_BIN="$(swift build -c release --static-swift-stdlib --show-bin-path)/movie-rpc"
python3 -m pytest Tests/integration -q
bash scripts/nvim-tests.sh
