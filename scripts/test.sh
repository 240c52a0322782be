#!/usr/bin/env bash
# Runs every test: Swift unit tests, the pytest integration suites, the Python client's own tests (and
# mypy --strict on it), the Neovim plugin's headless tests, the Emacs package's ERT tests,
# the fault-injection suites, the fuzzers on their short budget, and the unit tests under
# AddressSanitizer. Installs what a fresh machine lacks first (scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
python3 scripts/embed-resources.py --check
python3 scripts/gen-python-client.py --check
(cd clients/python && python3 -m mypy --strict movie_rpc examples tests)
export MOVIE_RPC_BIN="$(bash scripts/release-build.sh)"
swift build --build-tests
swift test --skip-build
python3 -m pytest Tests/integration -q
python3 -m pytest clients/python/tests -q
bash scripts/nvim-tests.sh
bash scripts/emacs-tests.sh
python3 -m pytest Tests/faults -q
bash scripts/fuzz.sh
bash scripts/sanitizers.sh address
