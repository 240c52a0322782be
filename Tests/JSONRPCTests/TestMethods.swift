import Foundation
@testable import JSONRPC

/// Small methods, each exercising one path through the dispatcher.
enum TestMethods {
    struct Subtract: RPCMethod {
        static let name = "subtract"
        struct Params: Decodable, Sendable {
            var minuend: Int
            var subtrahend: Int
        }
        typealias Result = Int
    }

    struct Add: RPCMethod {
        static let name = "math.add"
        struct Params: Decodable, Sendable {
            var a: Int
            var b: Int
        }
        struct Result: Encodable, Sendable {
            var sum: Int
        }
    }

    struct Sum: RPCMethod {
        static let name = "sum"
        struct Params: Decodable, Sendable {
            var values: [Int]
        }
        typealias Result = Int
    }

    struct GetData: RPCMethod {
        static let name = "get_data"
        typealias Params = NoParams
        typealias Result = JSONValue
    }

    /// The name of the thread the handler runs on.
    struct ThreadName: RPCMethod {
        static let name = "thread.name"
        typealias Params = NoParams
        typealias Result = String
    }

    static func currentThreadName() -> String {
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return name.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct Ping: RPCMethod {
        static let name = "ping"
        typealias Params = NoParams
        typealias Result = String
    }

    /// A control message: answered ahead of whatever waits.
    struct ControlPing: RPCMethod {
        static let name = "control.ping"
        static let isControl = true
        typealias Params = NoParams
        typealias Result = String
    }

    /// A result of `count` bytes of text (plus quotes), to fill batch replies.
    struct Blob: RPCMethod {
        static let name = "blob"
        struct Params: Decodable, Sendable { var count: Int }
        typealias Result = String
    }

    struct UpdateProfile: RPCMethod {
        static let name = "profile.update"
        struct Params: Decodable, Sendable {
            struct Profile: Decodable, Sendable {
                var phone: String
            }
            var name: String
            var profile: Profile
            var ids: [Int]
        }
        typealias Result = NullResult
    }

    /// Throws a wire error of its own.
    struct NotFound: RPCMethod {
        static let name = "movies.details"
        typealias Params = NoParams
        typealias Result = NullResult
    }

    /// Throws an error that is not a `ResponseError`, with a secret in its text.
    struct Broken: RPCMethod {
        static let name = "broken"
        typealias Params = NoParams
        typealias Result = NullResult
    }

    /// Waits on the fixture's gate, then answers `"done"`; stops with `CancellationError` when cancelled.
    struct Slow: RPCMethod {
        static let name = "slow"
        typealias Params = NoParams
        typealias Result = String
    }

    /// Waits on the fixture's gate (or a cancellation), then answers `"committed"` either way: work that
    /// cannot be taken back once started, like a write joining a commit.
    struct Committing: RPCMethod {
        static let name = "committing"
        typealias Params = NoParams
        typealias Result = String
    }

    /// Sends a notification through its context, then answers.
    struct Progress: RPCMethod {
        static let name = "progress"
        typealias Params = NoParams
        typealias Result = String
    }

    struct SecretError: Error, CustomStringConvertible {
        let description = "connection to db failed: password=hunter2"
    }

    static let notFound = ResponseError(
        code: ErrorCode(rawValue: -32001), message: "Movie not found", data: ["kind": "notFound", "movieId": 42])
}

/// A dispatcher over `TestMethods`, with hooks that let a test see and steer what the handlers do.
final class DispatcherFixture: Sendable {
    let gate = Gate()
    /// One event per `slow` handler that has started and is parked on the gate.
    let slowStarted = EventCounter()
    /// One event per `slow` handler that has finished (gate opened or cancelled).
    let slowFinished = EventCounter()
    /// The ids of `slow` requests in the order their handlers started.
    let slowStartOrder = Recorder<RequestID?>()
    /// How many `slow` handlers run at once.
    let slowConcurrency = Gauge()
    /// One event per `notify_hello` notification delivered.
    let helloNotifications = EventCounter()
    /// Every error handed to the error mapper.
    let mappedErrors = Recorder<String>()
    let dispatcher: Dispatcher

    init(limits: Dispatcher.Limits = Dispatcher.Limits(), allowedParams: [String: [String]] = [:]) {
        var table = MethodTable(allowedParams: allowedParams)
        let gate = self.gate
        let slowStarted = self.slowStarted
        let slowFinished = self.slowFinished
        let slowStartOrder = self.slowStartOrder
        let slowConcurrency = self.slowConcurrency
        let helloNotifications = self.helloNotifications
        let mappedErrors = self.mappedErrors
        table.register(TestMethods.Subtract.self) { params, _ in params.minuend - params.subtrahend }
        table.register(TestMethods.Add.self) { params, _ in .init(sum: params.a + params.b) }
        table.register(TestMethods.Sum.self) { params, _ in params.values.reduce(0, +) }
        table.register(TestMethods.GetData.self) { _, _ in ["hello", 5] }
        table.register(TestMethods.Ping.self) { _, _ in "pong" }
        table.register(TestMethods.ControlPing.self) { _, _ in "pong" }
        table.register(TestMethods.Blob.self) { params, _ in String(repeating: "b", count: params.count) }
        table.register(TestMethods.ThreadName.self) { _, _ in TestMethods.currentThreadName() }
        table.register(TestMethods.UpdateProfile.self) { _, _ in NullResult() }
        table.register(TestMethods.NotFound.self) { _, _ in throw TestMethods.notFound }
        table.register(TestMethods.Broken.self) { _, _ in throw TestMethods.SecretError() }
        table.register(TestMethods.Slow.self) { _, context in
            slowConcurrency.enter()
            slowStartOrder.record(context.id)
            slowStarted.record()
            await gate.wait()
            slowConcurrency.leave()
            slowFinished.record()
            try Task.checkCancellation()
            return "done"
        }
        table.register(TestMethods.Committing.self) { _, _ in
            slowStarted.record()
            await gate.wait()
            return "committed"
        }
        table.register(TestMethods.Progress.self) { _, context in
            context.notify("$/progress", ["percent": 50] as JSONValue)
            return "finished"
        }
        table.onNotification("notify_hello") { _ in helloNotifications.record() }
        dispatcher = Dispatcher(table: table, limits: limits) { error in
            mappedErrors.record(String(describing: error))
            return .internalError
        }
    }

    /// Feeds one message, waits until every request it started has answered, and returns the replies.
    func send(_ text: String) async throws -> [JSONValue] {
        try await send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) async throws -> [JSONValue] {
        let collector = ReplyCollector()
        dispatcher.receive(bytes, reply: collector.reply)
        await dispatcher.waitUntilIdle()
        return try collector.values()
    }
}

extension JSONValue {
    /// `error.code` of a response, or nil.
    var errorCode: Int? {
        if case .int(let code) = self["error"]?["code"] { return code }
        return nil
    }

    /// `error.data.field` of a response, or nil.
    var errorField: String? {
        if case .string(let field) = self["error"]?["data"]?["field"] { return field }
        return nil
    }

    /// `error.message` of a response, or nil.
    var errorMessage: String? {
        if case .string(let message) = self["error"]?["message"] { return message }
        return nil
    }

    /// The members of an array, or nil.
    var elements: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}
