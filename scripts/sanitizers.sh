#!/usr/bin/env bash
# Builds the Swift unit tests with a sanitizer and runs them (docs/RELIABILITY.md, "Sanitizers").
#
#   scripts/sanitizers.sh [address|thread] [-- extra `swift test` arguments, e.g. --filter EventLog]
#
# address: AddressSanitizer (heap/stack overflows, use after free, double free), scratch .build-asan
# thread:  ThreadSanitizer (data races), scratch .build-tsan
#
# With SANITIZE_SERVER=1 the sanitized movie-rpc binary (built by the same command) then also runs under the
# pytest suites of Tests/integration and Tests/faults; the sanitizer's reports go to files in
# <scratch>/sanitizer-reports and are summarized. For `thread` they are listed but do not fail the run: TSan
# cannot see Synchronization.Mutex's lock on Linux (the library is not instrumented), so every access to
# Mutex-protected state from two threads is reported (see docs/RELIABILITY.md).
#
# The sanitizer runtimes ship with the Swift toolchain; nothing is fetched. Exits non-zero when the build
# fails, a test fails, or the sanitizer reports anything in the unit tests (ASan aborts at the first error;
# TSan reports every race and exits 66 at the end).
set -euo pipefail
cd "$(dirname "$0")/.."

kind="${1:-address}"
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift

case "$kind" in
    address)
        scratch=.build-asan
        # LeakSanitizer is off: the Swift runtime keeps metadata and Foundation caches for the process's
        # lifetime, which LSan reports as leaks of no consequence. Everything else aborts at once.
        options_name=ASAN_OPTIONS
        options="${ASAN_OPTIONS:-detect_leaks=0:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1}"
        ;;
    thread)
        scratch=.build-tsan
        # Every race is reported (with the second stack), and the run then exits 66.
        options_name=TSAN_OPTIONS
        options="${TSAN_OPTIONS:-halt_on_error=0:exitcode=66:second_deadlock_stack=1:history_size=4}"
        ;;
    *)
        echo "usage: $0 [address|thread] [-- swift test arguments]" >&2
        exit 2
        ;;
esac
export "$options_name=$options"

echo "== building the tests with -sanitize=$kind in $scratch"
swift build --build-tests -Xswiftc "-sanitize=$kind" --scratch-path "$scratch"
echo "== running the unit tests with -sanitize=$kind ($options_name=$options)"
swift test --skip-build -Xswiftc "-sanitize=$kind" --scratch-path "$scratch" "$@"
echo "== $kind sanitizer: unit tests clean"

if [ "${SANITIZE_SERVER:-0}" = "1" ]; then
    binary="$PWD/$scratch/debug/movie-rpc"
    reports="$PWD/$scratch/sanitizer-reports"
    rm -rf "$reports"
    mkdir -p "$reports"
    # The servers' reports go to files; the exit status stays 0 so the suites judge behaviour only.
    export "$options_name=$options:exitcode=0:log_path=$reports/report"
    status=0
    for suite in Tests/integration Tests/faults; do
        echo "== $suite against the $kind-sanitized server"
        MOVIE_RPC_BIN="$binary" python3 -m pytest "$suite" -q -p no:cacheprovider || status=1
    done
    count=$(find "$reports" -type f | wc -l)
    echo "== $count sanitizer report file(s) in $reports"
    if [ "$count" -gt 0 ]; then
        grep -h '^SUMMARY' "$reports"/* | sed 's/ in \$.*//' | sort | uniq -c | sort -rn
        [ "$kind" = address ] && status=1
    fi
    exit "$status"
fi
