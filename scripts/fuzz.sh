#!/usr/bin/env bash
# Fuzzing (docs/RELIABILITY.md, "Fuzzing"): the hypothesis property suite over real pipes against the
# release binary, and two libFuzzer targets: the wire layer (framing, dispatch, JSONWriter) and the HTTP/1.1
# response parser.
#
#   scripts/fuzz.sh                      CI: the property suite (ci profile), then 30 s of each libFuzzer target
#   scripts/fuzz.sh SECONDS              both libFuzzer targets, SECONDS each (30 = the CI budget, 3600 = long)
#   scripts/fuzz.sh hypothesis [PROFILE] the property suite only: ci (default), long or dev
#   scripts/fuzz.sh libfuzzer [SECONDS]  same as scripts/fuzz.sh SECONDS
#   scripts/fuzz.sh framing [SECONDS]    the wire-layer target only
#   scripts/fuzz.sh http [SECONDS]       the HTTP response parser target only
#
# The server binary is $MOVIE_RPC_BIN, else .build/release/movie-rpc (build it first). The libFuzzer
# targets are built here with swiftc into $FUZZ_BUILD_DIR (default .build/fuzz), straight from source files
# (Sources/JSONRPC/*.swift and Fuzz/FramingFuzzer.swift; HTTP_FUZZ_SOURCES below), so Package.swift is not
# involved. Each part prints an "N passed, M failed" style line; the exit status is non-zero if any part failed.
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

# The HTTP target's sources: the response parser and the one HTTPTransport type it references.
HTTP_FUZZ_SOURCES=(Sources/HTTPTransport/Parsing/HTTPResponseParser.swift Sources/HTTPTransport/HTTPTransportError.swift
    Sources/HTTPTransport/Requests/RedirectPolicy.swift Sources/HTTPTransport/Requests/RedirectRule.swift
    Sources/HTTPTransport/Requests/AddressClass.swift Sources/HTTPTransport/Requests/HTTPOrigin.swift
    Sources/HTTPTransport/HTTPRequest.swift Sources/HTTPTransport/HTTPResponse.swift
    Sources/HTTPTransport/HTTPHeaderLookup.swift Sources/HTTPTransport/HTTPMethod.swift
    Sources/HTTPTransport/Requests/PercentEncoding.swift
    Fuzz/HTTPResponseFuzzer.swift)

# build_fuzz_target NAME MODULE SOURCE...: builds $FUZZ_BUILD_DIR/NAME unless it is newer than every source.
build_fuzz_target() {
    local target="$FUZZ_BUILD_DIR/$1" module="$2"
    shift 2
    mkdir -p "$FUZZ_BUILD_DIR"
    local newest
    newest="$(ls -t "$@" "$target" 2>/dev/null | head -1)"
    if [ -x "$target" ] && [ "$newest" = "$target" ]; then
        return 0
    fi
    echo "fuzz.sh: building $target"
    # ld.gold warns once per ASan helper symbol ("Cannot export local symbol"); those lines are noise.
    # -I: JSONRPC imports the CNonBlockingWrite shim (a header-only module map, nothing to link).
    swiftc -sanitize=fuzzer,address -parse-as-library -O -g -I Sources/CNonBlockingWrite -module-name "$module" \
        "$@" -o "$target" 2>&1 |
        grep -v "Cannot export local symbol"
    return "${PIPESTATUS[0]}"
}

# run_fuzz_target LABEL TARGET SEEDS WORKDIR SECONDS DETECT_LEAKS: runs a built target and adds its summary line.
run_fuzz_target() {
    local label="$1" target="$FUZZ_BUILD_DIR/$2" seeds="$3" workdir="$4" seconds="$5" detect_leaks="$6"
    local corpus="$FUZZ_BUILD_DIR/${workdir}corpus" artifacts="$FUZZ_BUILD_DIR/${workdir}artifacts/"
    local log="$FUZZ_BUILD_DIR/${workdir}libfuzzer.log"
    mkdir -p "$corpus" "$artifacts"
    local before
    before="$(ls "$artifacts" | wc -l)"
    # New inputs go to the first directory (a working copy); the seeds are only read.
    # The Swift runtime's backtracer, run on a fatalError under ASan, trips ASan itself: libFuzzer's own
    # report is the useful one.
    SWIFT_BACKTRACE=enable=no "$target" "$corpus" "$seeds" -max_total_time="$seconds" \
        -timeout=30 -rss_limit_mb=2048 -detect_leaks="$detect_leaks" -max_len=65536 -print_final_stats=1 \
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
        summary+=("$label (${seconds} s): 0 passed, 1 failed; ${execs:-?} execs, cov ${cov:-?}, ft ${ft:-?}, \
${crashes} new crash artifacts in $artifacts (log $log)")
    else
        summary+=("$label (${seconds} s): 1 passed, 0 failed; ${execs:-?} execs, cov ${cov:-?}, ft ${ft:-?}, \
corpus ${units:-?}, 0 crashes")
    fi
}

run_framing_fuzzer() {
    local seconds="${1:-30}"
    if ! build_fuzz_target framing-fuzzer JSONRPCFuzz Sources/JSONRPC/*.swift Fuzz/FramingFuzzer.swift; then
        summary+=("libFuzzer framing: 0 passed, 1 failed (build)")
        status=1
        return
    fi
    # Leak detection is off: LeakSanitizer reports a reply's Data as leaked when the request's task still
    # holds it for a moment after waitUntilIdle (the harness cannot wait for the task's frame to unwind), a
    # false positive; a real leak shows as growing RSS (-rss_limit_mb).
    run_fuzz_target "libFuzzer framing" framing-fuzzer Fuzz/corpus "" "$seconds" 0
}

run_http_fuzzer() {
    local seconds="${1:-30}"
    if ! build_fuzz_target http-response-fuzzer HTTPResponseFuzz "${HTTP_FUZZ_SOURCES[@]}"; then
        summary+=("libFuzzer http: 0 passed, 1 failed (build)")
        status=1
        return
    fi
    # Leak detection is on: the parser is a value type run synchronously, with no task that could still
    # hold memory when an input ends, so anything LeakSanitizer reports is a real leak.
    run_fuzz_target "libFuzzer http" http-response-fuzzer Fuzz/http-corpus http- "$seconds" 1
}

case "${1:-}" in
    "")
        run_hypothesis ci
        run_framing_fuzzer 30
        run_http_fuzzer 30
        ;;
    hypothesis)
        run_hypothesis "${2:-ci}"
        ;;
    libfuzzer)
        run_framing_fuzzer "${2:-30}"
        run_http_fuzzer "${2:-30}"
        ;;
    framing)
        run_framing_fuzzer "${2:-30}"
        ;;
    http)
        run_http_fuzzer "${2:-30}"
        ;;
    *[!0-9]*)
        echo "usage: $0 [SECONDS | hypothesis [ci|long|dev] | libfuzzer [SECONDS] | framing [SECONDS] | http [SECONDS]]" >&2
        exit 2
        ;;
    *)
        run_framing_fuzzer "$1"
        run_http_fuzzer "$1"
        ;;
esac

echo
echo "== fuzz summary"
for line in "${summary[@]}"; do echo "$line"; done
exit $status
