import Foundation
import Glibc
import Synchronization

/// A tiny HTTP server on 127.0.0.1 (a free port) for testing the client: it reads each request (head and
/// `Content-Length` body) and does what the test's handler says, with canned bytes.
final class LoopbackServer: Sendable {
    /// One request as the server read it.
    struct Request: Sendable {
        /// 0 for the first connection accepted, 1 for the next…
        var connection: Int
        /// 0 for the first request on its connection.
        var indexOnConnection: Int
        /// The request line and headers, as sent.
        var head: String
        var body: [UInt8]

        var requestLine: String { head.components(separatedBy: "\r\n").first ?? "" }
    }

    enum Action: Sendable {
        /// Writes the bytes and waits for the next request on the connection.
        case respond(String)
        /// Writes the bytes and closes the connection.
        case respondAndClose(String)
        /// Closes the connection without a word.
        case close
        /// Never answers (until the server stops).
        case hang
    }

    let port: Int
    let host: String
    private let listener: Int32
    private let handler: @Sendable (Request) -> Action
    private struct State {
        var connectionsAccepted = 0
        var requests: [Request] = []
        var openSockets: Set<Int32> = []
        var stopped = false
    }

    private let state = Mutex(State())

    /// - Parameter host: the loopback address to listen on (`127.0.0.2` is another host on the same `lo`).
    init(host: String = "127.0.0.1", handler: @escaping @Sendable (Request) -> Action) throws {
        self.host = host
        self.handler = handler
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host)
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, address, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    var baseURL: String { "http://\(host):\(port)" }
    var connectionsAccepted: Int { state.withLock { $0.connectionsAccepted } }
    var requests: [Request] { state.withLock { $0.requests } }

    /// Stops accepting and cuts every open connection (threads blocked on them wake up and end).
    ///
    /// The shutdowns happen under the lock that `serve` closes its socket under: a descriptor in
    /// `openSockets` is still this server's, never a number the kernel has handed to another test's socket
    /// (which once cut a neighbour's connection, failing it with `networkConnectionLost`).
    func stop() {
        state.withLock { state in
            state.stopped = true
            for socket in state.openSockets { shutdown(socket, Int32(SHUT_RDWR)) }
        }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    deinit {
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let number: Int? = state.withLock { state in
                guard !state.stopped else { return nil }
                state.openSockets.insert(client)
                defer { state.connectionsAccepted += 1 }
                return state.connectionsAccepted
            }
            guard let number else {
                close(client)
                return
            }
            let thread = Thread { [self] in serve(client, connection: number) }
            thread.start()
        }
    }

    private func serve(_ socket: Int32, connection: Int) {
        defer {
            state.withLock { state in
                state.openSockets.remove(socket)
                close(socket)
            }
        }
        var pending: [UInt8] = []
        var index = 0
        while let request = readRequest(from: socket, pending: &pending, connection: connection, index: index) {
            state.withLock { $0.requests.append(request) }
            index += 1
            switch handler(request) {
            case .respond(let text):
                guard writeAll(Array(text.utf8), to: socket) else { return }
            case .respondAndClose(let text):
                _ = writeAll(Array(text.utf8), to: socket)
                return
            case .close:
                return
            case .hang:
                var byte: UInt8 = 0
                while recv(socket, &byte, 1, 0) > 0 {}
                return
            }
        }
    }

    private func readRequest(from socket: Int32, pending: inout [UInt8], connection: Int, index: Int) -> Request? {
        let separator = Array("\r\n\r\n".utf8)
        var chunk = [UInt8](repeating: 0, count: 4096)
        func fill() -> Bool {
            let count = recv(socket, &chunk, chunk.count, 0)
            guard count > 0 else { return false }
            pending += chunk[..<count]
            return true
        }
        var headEnd: Int?
        while headEnd == nil {
            headEnd = pending.indices.dropLast(3).first { pending[$0..<($0 + 4)].elementsEqual(separator) }
            if headEnd == nil, !fill() { return nil }
        }
        guard let headEnd else { return nil }
        let head = String(decoding: pending[..<headEnd], as: UTF8.self)
        let length = head.split(separator: "\r\n").compactMap { line -> Int? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
            return Int(parts[1].trimmingCharacters(in: .whitespaces))
        }.first ?? 0
        while pending.count < headEnd + 4 + length {
            if !fill() { return nil }
        }
        let body = Array(pending[(headEnd + 4)..<(headEnd + 4 + length)])
        pending.removeFirst(headEnd + 4 + length)
        return Request(connection: connection, indexOnConnection: index, head: head, body: body)
    }

    private func writeAll(_ bytes: [UInt8], to socket: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}
