#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONRPC
import MovieCore

/// The assembled server: configuration, domain services, method table and connection.
public final class MovieServer: Sendable {
    public let context: ServerContext
    public let dispatcher: Dispatcher

    /// Opens the data directory's store; throws when it cannot be used (the message says why).
    public init(configuration: ServerConfiguration) throws {
        let services = try MovieServices(configuration: configuration.services)
        context = ServerContext(configuration: configuration, services: services)
        let table = MethodList.table(for: context, contract: .embedded)
        dispatcher = Dispatcher(
            table: table, limits: .init(maxMessageSize: configuration.maxMessageSize), mapError: WireErrors.map)
    }

    /// Serves the connection until end of input and every in-flight request has been answered.
    /// `onExit` is called for the LSP `exit` notification with the status to exit with.
    public func serve(inputFD: Int32, outputFD: Int32, onExit: @escaping @Sendable (Int32) -> Void) async {
        let connection = Connection(inputFD: inputFD, outputFD: outputFD, dispatcher: dispatcher)
        context.setFramingSource { connection.framingName }
        context.setExitHandler(onExit)
        await context.services.start()
        await connection.run()
    }
}

extension MovieServer {
    /// Flushes and closes what the domain holds open. Safe to call more than once.
    public func close() async {
        await context.services.close()
    }
}
