#if os(Linux)
import CMalloc
#endif
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import JSONRPC
import MovieRPC

// stdout carries protocol frames only: keep a private duplicate of it for frames and point fd 1 at
// stderr, so that a stray print from anywhere in the process cannot corrupt the stream.
let protocolOutput = dup(STDOUT_FILENO)
dup2(STDERR_FILENO, STDOUT_FILENO)
// A client that closes its end must not kill us with SIGPIPE; writes then fail with EPIPE instead.
signal(SIGPIPE, SIG_IGN)
// SIGTERM, SIGINT and SIGHUP from here on end the process cleanly, once the server exists to be closed.
TerminationSignals.install()
// At most two malloc arenas: glibc's default (8 per core) gives each new thread one as it allocates, so
// resident memory crept up as the database connections' dispatch queues ran on new worker threads (the
// soak test's RSS check: +7.5 to 12.1 % after warm-up with the default, +5.6 to 6.9 % with two).
#if os(Linux)
mallopt(M_ARENA_MAX, 2)
#endif

let usage = """
    Usage: movie-rpc [--log-level debug|info|warning|error|off] [--help] [--version]

    A JSON-RPC 2.0 server on stdin/stdout for a movie catalog (TMDB, offline cache, demo catalog),
    accounts, favorites and an activity log. Framing is detected from the first bytes: LSP-style
    Content-Length headers, or newline-delimited JSON. Logs go to stderr.

    Environment:
      MOVIE_RPC_HOME        data directory (default $XDG_DATA_HOME/movie-rpc or ~/.local/share/movie-rpc)
      TMDB_ACCESS_TOKEN     TMDB API read access token (Bearer); or
      TMDB_API_KEY          TMDB v3 API key. Without either, the embedded demo catalog is served.
      TMDB_BASE_URL         TMDB API base URL (default https://api.themoviedb.org/3)
      MOVIE_RPC_MAX_MESSAGE_SIZE  largest accepted message in bytes (default 16777216)
      MOVIE_RPC_LOG_LEVEL   same as --log-level

    Try: echo '{"jsonrpc":"2.0","id":1,"method":"server.info"}' | movie-rpc

    """

func writeToStderr(_ text: String) {
    FileDescriptorWriter.writeAll(fd: STDERR_FILENO, text)
}

func writeToStdout(_ text: String) {
    FileDescriptorWriter.writeAll(fd: protocolOutput, text)
}

/// The environment as a dictionary, read from `environ` (the first of repeated names wins, as for `getenv`):
/// `ProcessInfo.processInfo.environment` cost 718,000 instructions here, a tenth of the start-up before the
/// first answer, most of it setting up `ProcessInfo` itself, which nothing else in the process uses.
func processEnvironment() -> [String: String] {
    var count = 0
    while environ[count] != nil { count += 1 }
    var variables = [String: String](minimumCapacity: count)  // no rehashing as it fills
    var entry = environ
    while let pointer = entry.pointee {
        let text = String(cString: pointer)
        if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
            let name = String(text[..<equals])
            if variables[name] == nil { variables[name] = String(text[text.utf8.index(after: equals)...]) }
        }
        entry += 1
    }
    return variables
}

var environment = processEnvironment()
var arguments = CommandLine.arguments.dropFirst()
if let level = environment["MOVIE_RPC_LOG_LEVEL"].flatMap(LogLevel.init(name:)) { Log.level = level }
while let argument = arguments.popFirst() {
    switch argument {
    case "--help", "-h":
        writeToStdout(usage)
        exit(0)
    case "--version":
        writeToStdout("\(ServerConfiguration.name) \(ServerConfiguration.version)\n")
        exit(0)
    case "--log-level":
        guard let name = arguments.popFirst(), let level = LogLevel(name: name) else {
            writeToStderr("movie-rpc: --log-level needs one of debug, info, warning, error, off\n")
            exit(2)
        }
        Log.level = level
    default:
        if argument.hasPrefix("--log-level="), let level = LogLevel(name: String(argument.dropFirst(12))) {
            Log.level = level
            continue
        }
        writeToStderr("movie-rpc: unknown argument \(argument)\n\n" + usage)
        exit(2)
    }
}

let configuration = ServerConfiguration.fromEnvironment(environment)
let server: MovieServer
let startup = ContinuousClock.now
do {
    server = try MovieServer(configuration: configuration)
    Log.debug("Server assembled in \(ContinuousClock.now - startup)")
} catch {
    writeToStderr("movie-rpc: \(error)\n")
    exit(3)
}

TerminationSignals.deliver(to: server)

Log.info("movie-rpc \(ServerConfiguration.version) starting; catalog \(configuration.catalogMode)")
await server.serve(inputFD: STDIN_FILENO, outputFD: protocolOutput) { [server] status in
    ProcessExit.finish(server, status: status)
}
await ProcessExit.finishAtEndOfInput(server)
