// swift-tools-version:6.0
// movie-rpc is licensed under the Apache License, Version 2.0 (SPDX: Apache-2.0); the text is in LICENSE.
import PackageDescription

// In release builds on Linux, the Swift runtime is linked statically, so that the binary plain
// `swift build -c release` makes (the one every README command uses) is the fast one: it loads no libswift*.so
// files, which shortens its start and lowers its resident memory (see docs/BENCHMARKS.md). This is what
// `--static-swift-stdlib` does: the flag goes to every Swift compile too, so that modules are read from
// swift_static and autolink the static libraries they need. The modules import FoundationEssentials, never
// Foundation: the corelibs module would bring ICU's 30 MB of data, CoreFoundation's start-up work and 5 MiB of
// resident memory for APIs the project does not need (Tests/integration/test_build.py holds this).
let staticSwiftRuntime = LinkerSetting.unsafeFlags(
    ["-static-stdlib"], .when(platforms: [.linux], configuration: .release))
//
// `-disable-concrete-type-metadata-mangled-name-accessors`: code that needs the metadata of a concrete generic
// type (a `[RequestID: Entry]`'s storage, a `Set<String>`) calls that type's metadata accessor with the witness
// tables it already has, instead of asking the runtime to demangle the type's name. Demangling checks each
// generic requirement (`Key: Hashable`) by searching every protocol conformance record in the binary, 4,866 of
// them, about 300,000 instructions for each new key type: four such searches before the first answer, and one
// on the first request's path, were a third of the instructions from exec to the first answer. (The runtime
// caches what it found, so only the first use of each type paid; the binary grows by 60 KB of code.)
let staticSwiftRuntimeCompile = SwiftSetting.unsafeFlags(
    ["-static-stdlib", "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"],
    .when(platforms: [.linux], configuration: .release))

// The C libraries from Debian's -dev packages. Release builds on Linux link their static archives (libsqlite3.a,
// libssl.a, libcrypto.a, from the same packages): the loader then binds none of their ~6,500 symbol references
// at every start (they are BIND_NOW), which was half of the instructions before the first answer, and maps no
// extra libraries (see docs/BENCHMARKS.md). Other builds (debug, tests, sanitizers) link the shared libraries.
// The binary then carries its own OpenSSL, as swift-nio-ssl carries BoringSSL: rebuild it after a security update
// of libssl3 or libsqlite3-0 (README, "Front ends").
/// The folder of this manifest: the linker runs elsewhere, and needs the ordering file's absolute path.
let packageDirectory = String(#filePath.dropLast("/Package.swift".count))

func cLibrary(_ name: String) -> [LinkerSetting] {
    [
        .unsafeFlags(["-Xlinker", "-l:lib\(name).a"], .when(platforms: [.linux], configuration: .release)),
        .linkedLibrary(name, .when(platforms: [.linux], configuration: .debug)),
        .linkedLibrary(name, .when(platforms: [.macOS])),
    ]
}

// The request path's modules, which hold no actor: their nonisolated async functions run on their caller's
// executor (SE-0461) instead of hopping to the global one at each call and return. A cached `genres.list`
// made 15 such switches; each also takes the task's status-record lock under Swift 6.3, whose
// `Task.immediate` gives the task an executor-preference record even for a nil executor. Now 8 (3 % fewer
// instructions a request, docs/BENCHMARKS.md, session 13). MovieCore keeps the default, so that its actors'
// async callees (the TMDB client decoding a response) still run off the actor; its functions on the
// request path say `nonisolated(nonsending)`.
let callersExecutor = SwiftSetting.enableUpcomingFeature("NonisolatedNonsendingByDefault")

let package = Package(
    name: "MovieRPC",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "movie-rpc", targets: ["movie-rpc"]),
    ],
    targets: [
        // C libraries from Debian, through system-library shims.
        // Headers only: the libraries are linked by the targets that use them (`cLibrary` below).
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        // glibc's mallopt, for the executable's malloc tuning.
        .systemLibrary(name: "CMalloc"),
        // pwritev2 with RWF_NOWAIT: the protocol output written without blocking, in blocking mode.
        .systemLibrary(name: "CNonBlockingWrite"),

        // Wire protocol only: messages, framing, connection, dispatch, error codes.
        .target(name: "JSONRPC", dependencies: ["CNonBlockingWrite"], swiftSettings: [callersExecutor]),
        // SQLite wrapper: connection, statements, migrations, errors.
        .target(name: "SQLiteStore", dependencies: ["CSQLite"], linkerSettings: cLibrary("sqlite3")),
        // HTTP/1.1 client over POSIX sockets (TLS through OpenSSL) and the transport-neutral HTTP types.
        .target(name: "HTTPTransport", dependencies: ["COpenSSL"], linkerSettings: cLibrary("ssl") + cLibrary("crypto")),
        // TMDB v3 HTTP client: endpoints as data, models, errors, retry.
        .target(name: "TMDB", dependencies: ["HTTPTransport"]),
        // Domain: repository, demo catalog, session, accounts, favorites, events.
        .target(
            name: "MovieCore", dependencies: ["SQLiteStore", "HTTPTransport", "TMDB", "CCrypto"],
            linkerSettings: cLibrary("crypto")),
        // The method table: params/result types and handlers; wiring.
        .target(name: "MovieRPC", dependencies: ["JSONRPC", "MovieCore"], swiftSettings: [callersExecutor]),
        .executableTarget(
            name: "movie-rpc", dependencies: ["MovieRPC", "JSONRPC", "CMalloc"], exclude: ["link-order.txt", "StaticCXX"],
            linkerSettings: [
                // Packed relative relocations (DT_RELR, glibc ≥ 2.36): the static Swift runtime's 2 MB relocation
                // table shrinks to 15 KB, which the loader no longer pages in (≈ 2.5 MiB less resident memory,
                // faster start). gold lacks the option; lld ships with the toolchain. The driver exports every
                // public symbol of an executable (for tests that link one); this binary is no one's library, and
                // without the exports the dynamic symbol table shrinks from 7,411 entries to 463 and
                // --gc-sections drops the public code nothing calls (1 MB of text).
                // The functions laid out in the order they first run (scripts/gen-link-order.py): start-up
                // then touches a few contiguous megabytes of code instead of 9 MB spread over all of it.
                // The C++ runtime from its archive: the static Swift runtime's link names `-lstdc++`, which
                // found libstdc++.so, whose 4,300 symbol references the loader bound at every start (1.65
                // million instructions, a fifth of the start-up); Sources/movie-rpc/StaticCXX/libstdc++.so,
                // first on the library path, is a linker script that answers the name with libstdc++.a.
                .unsafeFlags(["-use-ld=lld", "-L\(packageDirectory)/Sources/movie-rpc/StaticCXX",
                              "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                              "-Xlinker", "--no-export-dynamic",
                              "-Xlinker", "--symbol-ordering-file=\(packageDirectory)/Sources/movie-rpc/link-order.txt",
                              "-Xlinker", "--no-warn-symbol-ordering"],
                             .when(platforms: [.linux], configuration: .release)),
            ]),

        // Offline search over generated movies (bench/search-bench; docs/BENCHMARKS.md has the command).
        .executableTarget(
            name: "search-bench", dependencies: ["MovieCore", "SQLiteStore"], path: "bench/search-bench"),

        .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC"]),
        .testTarget(name: "SQLiteStoreTests", dependencies: ["SQLiteStore"]),
        .testTarget(name: "HTTPTransportTests", dependencies: ["HTTPTransport"]),
        .testTarget(name: "TMDBTests", dependencies: ["TMDB", "HTTPTransport"]),
        .testTarget(name: "MovieCoreTests", dependencies: ["MovieCore", "HTTPTransport"]),
        .testTarget(name: "MovieRPCTests", dependencies: ["MovieRPC", "JSONRPC"]),
    ],
    swiftLanguageModes: [.v6]
)

// Every module is compiled for the static runtime in release, so every executable must link it too (a target
// compiled with -static-stdlib autolinks libraries that exist only in swift_static): without the linker flag,
// plain `swift build -c release`, which builds every product, failed at bench/search-bench.
for target in package.targets where [.regular, .executable].contains(target.type) {
    target.swiftSettings = (target.swiftSettings ?? []) + [staticSwiftRuntimeCompile]
    if target.type == .executable {
        target.linkerSettings = (target.linkerSettings ?? []) + [staticSwiftRuntime]
    }
}
