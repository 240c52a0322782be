#!/usr/bin/env bash
# Checks the Emacs front end (clients/emacs/movie-rpc.el): it byte-compiles without a warning, passes
# checkdoc, and its ERT tests (clients/emacs/test/movie-rpc-tests.el) pass in emacs --batch against the
# real server in demo mode, the README's setup snippet included.
#
#   scripts/emacs-tests.sh [ert-selector]      e.g. scripts/emacs-tests.sh movie-rpc-test-genres
#
# MOVIE_RPC_BIN: the server binary (default .build/release/movie-rpc).
# MOVIE_RPC_EMACS: the emacs to use (default emacs on PATH; Debian's emacs-nox, see install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
PACKAGE="$ROOT/clients/emacs"
EMACS="${MOVIE_RPC_EMACS:-emacs}"

if ! command -v "$EMACS" >/dev/null 2>&1; then
    echo "emacs-tests: no $EMACS (scripts/install-deps.sh installs Debian's emacs-nox)" >&2
    exit 2
fi
BIN="${MOVIE_RPC_BIN:-.build/release/movie-rpc}"
if [ ! -x "$BIN" ]; then
    echo "emacs-tests: no server binary at $BIN (bash scripts/release-build.sh prints its path)" >&2
    exit 2
fi
export MOVIE_RPC_BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
echo "emacs-tests: $("$EMACS" --version | head -n 1), server $MOVIE_RPC_BIN"

scratch="$(mktemp -d "${TMPDIR:-/tmp}/movie-rpc-emacs.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
cp "$PACKAGE/movie-rpc.el" "$scratch/"

# Byte-compiled apart from the sources (a stale .elc beside them would shadow the .el), warnings as errors.
echo "--- byte-compile"
"$EMACS" --batch -Q -L "$scratch" --eval '(setq byte-compile-error-on-warn t)' \
    -f batch-byte-compile "$scratch/movie-rpc.el"

echo "--- checkdoc"
checkdoc_output="$("$EMACS" --batch -Q -L "$scratch" \
    --eval "(progn (require 'checkdoc) (checkdoc-file \"$scratch/movie-rpc.el\"))" 2>&1)"
if [ -n "$checkdoc_output" ]; then
    echo "$checkdoc_output"
    echo "emacs-tests: checkdoc found problems" >&2
    exit 1
fi

echo "--- ert"
selector="${1:-t}"
"$EMACS" --batch -Q -L "$scratch" -l "$PACKAGE/test/movie-rpc-tests.el" \
    --eval "(ert-run-tests-batch-and-exit '$selector)"
