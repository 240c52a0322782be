#!/usr/bin/env bash
# Runs the Neovim front end's tests (clients/nvim/tests/test_*.lua) headless against the real
# server in demo mode: each script gets a fresh MOVIE_RPC_HOME and 120 s, and its exit status is
# the test's. Prints "N passed, M failed"; exits non-zero when any failed.
#
#   scripts/nvim-tests.sh [test_name ...]     e.g. scripts/nvim-tests.sh paging favorites
#
# MOVIE_RPC_BIN: the server binary (default .build/release/movie-rpc).
# MOVIE_RPC_NVIM: the nvim to use (default nvim on PATH; Debian's neovim is installed if missing).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
PLUGIN="$ROOT/clients/nvim"

NVIM="${MOVIE_RPC_NVIM:-nvim}"
if ! command -v "$NVIM" >/dev/null 2>&1; then
    if [ -n "${MOVIE_RPC_NVIM:-}" ]; then
        echo "nvim-tests: MOVIE_RPC_NVIM=$MOVIE_RPC_NVIM is not an executable" >&2
        exit 2
    fi
    echo "nvim-tests: installing Debian's neovim" >&2
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then
        SUDO="sudo"
    fi
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq neovim >/dev/null || {
        echo "nvim-tests: could not install neovim" >&2
        exit 2
    }
fi

BIN="${MOVIE_RPC_BIN:-.build/release/movie-rpc}"
if [ ! -x "$BIN" ]; then
    echo "nvim-tests: no server binary at $BIN" >&2
    echo "  build it: swift build -c release --product movie-rpc" >&2
    echo "  or point MOVIE_RPC_BIN at one" >&2
    exit 2
fi
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"

echo "nvim-tests: $("$NVIM" --version | head -n 1), server $("$BIN" --version 2>/dev/null || echo '?') ($BIN)"

# Help tags: a broken tag (duplicate, bad file) makes :helptags fail, and so this run.
if ! "$NVIM" --headless -u NONE -i NONE \
        -c "try | helptags $PLUGIN/doc | catch | echo v:exception | cquit 1 | endtry" -c 'qall!' 2>&1; then
    echo "nvim-tests: :helptags $PLUGIN/doc failed" >&2
    exit 1
fi

tests=()
if [ "$#" -gt 0 ]; then
    for name in "$@"; do
        name="${name#test_}"
        name="${name%.lua}"
        tests+=("$PLUGIN/tests/test_$name.lua")
    done
else
    tests=("$PLUGIN"/tests/test_*.lua)
fi

passed=0
failed=0
failed_names=()
for test in "${tests[@]}"; do
    name="$(basename "$test" .lua)"
    if [ ! -f "$test" ]; then
        echo "nvim-tests: no such test: $test" >&2
        failed=$((failed + 1))
        failed_names+=("$name")
        continue
    fi
    home="$(mktemp -d "${TMPDIR:-/tmp}/movie-rpc-nvim-$name.XXXXXX")"
    echo "--- $name"
    MOVIE_RPC_HOME="$home" MOVIE_RPC_BIN="$BIN" timeout 120 \
        "$NVIM" --headless -u NONE -i NONE --cmd "set rtp^=$PLUGIN" -c "luafile $test" </dev/null
    status=$?
    echo
    if [ "$status" -eq 0 ]; then
        echo "--- $name: passed"
        passed=$((passed + 1))
    else
        if [ "$status" -eq 124 ]; then
            echo "--- $name: FAILED (timed out after 120 s)"
        else
            echo "--- $name: FAILED (exit $status)"
        fi
        failed=$((failed + 1))
        failed_names+=("$name")
    fi
    rm -rf "$home"
done

if [ "$failed" -gt 0 ]; then
    echo "failed: ${failed_names[*]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
