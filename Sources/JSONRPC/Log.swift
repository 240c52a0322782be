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
import Synchronization

/// Log lines go to stderr, never stdout (stdout carries protocol frames only).
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case debug, info, warning, error, off

    public init?(name: String) {
        switch name.lowercased() {
        case "debug", "trace": self = .debug
        case "info": self = .info
        case "warning", "warn": self = .warning
        case "error": self = .error
        case "off", "none", "quiet": self = .off
        default: return nil
        }
    }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A process-wide logger writing whole lines to stderr with one `write(2)` each.
public enum Log {
    private static let threshold = Mutex(LogLevel.warning)

    public static var level: LogLevel {
        get { threshold.withLock { $0 } }
        set { threshold.withLock { $0 = newValue } }
    }

    public static func debug(_ message: @autoclosure () -> String) { write(.debug, message) }
    public static func info(_ message: @autoclosure () -> String) { write(.info, message) }
    public static func warning(_ message: @autoclosure () -> String) { write(.warning, message) }
    public static func error(_ message: @autoclosure () -> String) { write(.error, message) }

    private static func write(_ level: LogLevel, _ message: () -> String) {
        guard level >= self.level, level != .off else { return }
        let line = "movie-rpc [\(level)] \(message())\n"
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { FileDescriptorWriter.writeAll(fd: 2, $0) }
    }
}

/// `write(2)` until every byte is out, retrying on EINTR. Returns false when the peer is gone.
public enum FileDescriptorWriter {
    /// Writes `text`'s UTF-8 bytes (the executable's usage and `--version` lines).
    @discardableResult
    public static func writeAll(fd: Int32, _ text: String) -> Bool {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { writeAll(fd: fd, $0) }
    }

    @discardableResult
    static func writeAll(fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        guard var pointer = buffer.baseAddress else { return true }
        var remaining = buffer.count
        while remaining > 0 {
            let written = write(fd, pointer, remaining)
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return false
            }
            remaining -= written
            pointer += written
        }
        return true
    }
}
