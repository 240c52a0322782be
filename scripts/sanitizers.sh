#!/usr/bin/env bash
# Builds the Swift unit tests with a sanitizer and runs them (docs/RELIABILITY.md, "Sanitizers").
#
#   scripts/sanitizers.sh [address|thread] [-- extra `swift test` arguments, e.g. --filter EventLog]
#
# address: AddressSanitizer (overflows, use after free, double free), scratch .build-asan; aborts at the
#          first error.
# thread:  ThreadSanitizer (data races), scratch .build-tsan. Reports go to files and are sorted by
#          Tests/faults/tsan_reports.py: TSan cannot see Synchronization.Mutex's lock on Linux (the library
#          ships uninstrumented), so accesses to Mutex-guarded state are reported as races; those are listed
#          but do not fail the run, every other report does.
#
# With SANITIZE_SERVER=1 the sanitized movie-rpc binary (built by the same command) then also runs under the
# pytest suites of Tests/integration and Tests/faults (but the soak), reports judged the same way.
#
# The sanitizer runtimes ship with the Swift toolchain; nothing is fetched. Exits non-zero when the build
# fails, a test fails, or the sanitizer finds anything.
set -euo pipefail
cd "$(dirname "$0")/.."

kind="${1:-address}"
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift

case "$kind" in
    address)
        scratch=.build-asan
        # LeakSanitizer is off: the Swift runtime keeps metadata and Foundation caches for the process's
        # lifetime, which LSan reports as leaks of no consequence.
        options_name=ASAN_OPTIONS
        default="detect_leaks=0:halt_on_error=1:strict_string_checks=1"
        default+=":detect_stack_use_after_return=1:check_initialization_order=1"
        options="${ASAN_OPTIONS:-$default}"
        ;;
    thread)
        scratch=.build-tsan
        options_name=TSAN_OPTIONS
        options="${TSAN_OPTIONS:-halt_on_error=0:second_deadlock_stack=1:history_size=4}"
        ;;
    *)
        echo "usage: $0 [address|thread] [-- swift test arguments]" >&2
        exit 2
        ;;
esac
reports="$PWD/$scratch/sanitizer-reports"
rm -rf "$reports"
mkdir -p "$reports/unit" "$reports/server"

# Judges the report files in $1: ASan reports always fail; TSan reports fail unless on Mutex-guarded state.
judge() {
    local count
    count=$(find "$1" -type f | wc -l)
    if [ "$kind" = thread ]; then
        python3 Tests/faults/tsan_reports.py "$1"
    elif [ "$count" -gt 0 ]; then
        echo "AddressSanitizer reports in $1:"
        grep -h '^SUMMARY' "$1"/* | sort | uniq -c
        return 1
    fi
}

echo "== building the tests with -sanitize=$kind in $scratch"
swift build --build-tests -Xswiftc "-sanitize=$kind" --scratch-path "$scratch"
echo "== running the unit tests with -sanitize=$kind"
if [ "$kind" = thread ]; then
    # The exit status judges the tests; the reports are judged below.
    export TSAN_OPTIONS="$options:exitcode=0:log_path=$reports/unit/report"
else
    export ASAN_OPTIONS="$options"
fi
swift test --skip-build -Xswiftc "-sanitize=$kind" --scratch-path "$scratch" "$@"
judge "$reports/unit"
echo "== $kind sanitizer: unit tests clean"

if [ "${SANITIZE_SERVER:-0}" = "1" ]; then
    binary="$PWD/$scratch/debug/movie-rpc"
    # The servers' reports go to files; their exit status stays 0 so that the suites judge behaviour only.
    export "$options_name=$options:exitcode=0:log_path=$reports/server/report"
    status=0
    echo "== Tests/integration against the $kind-sanitized server"
    MOVIE_RPC_BIN="$binary" python3 -m pytest Tests/integration -q -p no:cacheprovider || status=1
    # Not the soak: the sanitizers' quarantine and shadow memory make resident memory meaningless.
    echo "== Tests/faults (but the soak) against the $kind-sanitized server"
    MOVIE_RPC_BIN="$binary" python3 -m pytest Tests/faults -q -p no:cacheprovider -k "not soak" || status=1
    judge "$reports/server" || status=1
    exit "$status"
fi
