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

/// Warnings from the domain layer go to stderr (stdout is the protocol's). MovieCore does not depend on
/// the JSON-RPC module, so it writes its own lines.
enum StoreLog {
    static func warning(_ message: String) {
        let line = Array("movie-rpc [warning] \(message)\n".utf8)
        line.withUnsafeBytes { bytes in
            guard var next = bytes.baseAddress else { return }
            var left = bytes.count
            while left > 0 {
                let written = write(2, next, left)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                next += written
                left -= written
            }
        }
    }
}
