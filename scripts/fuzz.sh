#!/usr/bin/env bash
# Fuzzing (docs/RELIABILITY.md, "Fuzzing"): the hypothesis property suite over real pipes against the
# release binary, and the libFuzzer target on the wire layer (framing, dispatch, JSONWriter).
#
#   scripts/fuzz.sh                      CI: the property suite (ci profile), then 30 s of libFuzzer
#   scripts/fuzz.sh SECONDS              libFuzzer only, for SECONDS (30 = the CI budget, 3600 = long mode)
#   scripts/fuzz.sh hypothesis [PROFILE] the property suite only: ci (default), long or dev
#   scripts/fuzz.sh libfuzzer [SECONDS]  same as scripts/fuzz.sh SECONDS
#
# The server binary is $MOVIE_RPC_BIN, else .build/release/movie-rpc (build it first). The libFuzzer
# target is built here with swiftc into $FUZZ_BUILD_DIR (default .build/fuzz), straight from
# Sources/JSONRPC/*.swift and Fuzz/FramingFuzzer.swift, so Package.swift is not involved.
# Each part prints an "N passed, M failed" style line; the exit status is non-zero if any part failed.
set -uo pipefail
cd "$(dirname "$0")/.."

FUZZ_BUILD_DIR="${FUZZ_BUILD_DIR:-.build/fuzz}"
export MOVIE_RPC_BIN="${MOVIE_RPC_BIN:-$PWD/.build/release/movie-rpc}"
status=0
summary=()

run_hypothesis() {
    local profile="${1:-ci}"
    if [ ! -x "$MOVIE_RPC_BIN" ]; then
        echo "fuzz.sh: no server binary at $MOVIE_RPC_BIN (swift build -c release, or set MOVIE_RPC_BIN)" >&2
        summary+=("hypothesis ($profile): 0 passed, 1 failed (no binary)")
        status=1
        return
    fi
    python3 -m pip install -q --disable-pip-version-check -r Tests/fuzz/requirements.txt || {
        summary+=("hypothesis ($profile): 0 passed, 1 failed (pip install)"); status=1; return; }
    local stats
    stats="$(mktemp)"
    local started=$SECONDS
    MOVIE_RPC_FUZZ_STATS="$stats" python3 -m pytest Tests/fuzz -q -p no:cacheprovider -W ignore::DeprecationWarning \
        --hypothesis-profile="$profile"
    local result=$?
    [ $result -eq 0 ] || status=1
    summary+=("$(python3 - "$stats" "$profile" "$((SECONDS - started))" "$result" <<'EOF'
import json, sys
path, profile, seconds, result = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
try:
    s = json.load(open(path))
except (OSError, ValueError):
    print("hypothesis (%s): 0 passed, 1 failed (pytest exit %d, no figures)" % (profile, result))
    sys.exit()
print("hypothesis (%s): %d passed, %d failed; %d frames (+%d sentinel), %d cases, %d property checks, "
      "%d failed cases, %s s" % (profile, s["tests_passed"], s["tests_failed"] or (1 if result else 0), s["frames"],
                                 s["control_frames"], s["cases"], s["property_checks"], s["failures"], seconds))
EOF
)")
    rm -f "$stats"
}

build_libfuzzer() {
    local target="$FUZZ_BUILD_DIR/framing-fuzzer"
    mkdir -p "$FUZZ_BUILD_DIR"
    local newest
    newest="$(ls -t Sources/JSONRPC/*.swift Fuzz/FramingFuzzer.swift "$target" 2>/dev/null | head -1)"
    if [ -x "$target" ] && [ "$newest" = "$target" ]; then
        return 0
    fi
    echo "fuzz.sh: building $target"
    # ld.gold warns once per ASan helper symbol ("Cannot export local symbol"); those lines are noise.
    swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name JSONRPCFuzz \
        Sources/JSONRPC/*.swift Fuzz/FramingFuzzer.swift -o "$target" 2>&1 | grep -v "Cannot export local symbol"
    return "${PIPESTATUS[0]}"
}

run_libfuzzer() {
    local seconds="${1:-30}"
    if ! build_libfuzzer; then
        summary+=("libFuzzer: 0 passed, 1 failed (build)")
        status=1
        return
    fi
    local corpus="$FUZZ_BUILD_DIR/corpus" artifacts="$FUZZ_BUILD_DIR/artifacts/" log="$FUZZ_BUILD_DIR/libfuzzer.log"
    mkdir -p "$corpus" "$artifacts"
    local before
    before="$(ls "$artifacts" | wc -l)"
    # New inputs go to the first directory (a working copy); Fuzz/corpus, the seeds, is only read.
    # The Swift runtime's backtracer, run on a fatalError under ASan, trips ASan itself: libFuzzer's own
    # report is the useful one. Leak detection is off: LeakSanitizer reports a reply's Data as leaked when
    # the request's task still holds it for a moment after waitUntilIdle (the harness cannot wait for the
    # task's frame to unwind), a false positive; a real leak shows as growing RSS (-rss_limit_mb).
    SWIFT_BACKTRACE=enable=no "$FUZZ_BUILD_DIR/framing-fuzzer" "$corpus" Fuzz/corpus -max_total_time="$seconds" \
        -timeout=30 -rss_limit_mb=2048 -detect_leaks=0 -max_len=65536 -print_final_stats=1 \
        -artifact_prefix="$artifacts" 2>&1 | tee "$log" |
        grep -E "^#[0-9]+[[:space:]]+(INITED|DONE|REDUCE|pulse)|ERROR|Assertion|Fatal error|SUMMARY|stat::" || true
    local result=${PIPESTATUS[0]}
    local crashes=$(( $(ls "$artifacts" | wc -l) - before ))
    local execs cov ft units
    execs="$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')"
    units="$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 | sed -E 's/.*corp: ([0-9]+)\/.*/\1/')"
    cov="$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE)' "$log" | tail -1 | sed -E 's/.* cov: ([0-9]+).*/\1/')"
    ft="$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE)' "$log" | tail -1 | sed -E 's/.* ft: ([0-9]+).*/\1/')"
    if [ "$result" -ne 0 ] || [ "$crashes" -gt 0 ]; then
        status=1
        summary+=("libFuzzer (${seconds} s): 0 passed, 1 failed; ${execs:-?} execs, cov ${cov:-?}, ft ${ft:-?}, \
${crashes} new crash artifacts in $artifacts (log $log)")
    else
        summary+=("libFuzzer (${seconds} s): 1 passed, 0 failed; ${execs:-?} execs, cov ${cov:-?}, ft ${ft:-?}, \
corpus ${units:-?}, 0 crashes")
    fi
}

case "${1:-}" in
    "")
        run_hypothesis ci
        run_libfuzzer 30
        ;;
    hypothesis)
        run_hypothesis "${2:-ci}"
        ;;
    libfuzzer)
        run_libfuzzer "${2:-30}"
        ;;
    *[!0-9]*)
        echo "usage: $0 [SECONDS | hypothesis [ci|long|dev] | libfuzzer [SECONDS]]" >&2
        exit 2
        ;;
    *)
        run_libfuzzer "$1"
        ;;
esac

echo
echo "== fuzz summary"
for line in "${summary[@]}"; do echo "$line"; done
exit $status
