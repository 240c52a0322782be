/// One connection on a serial dispatch queue of its own, exposed to async code as an actor.
///
/// Every use of the connection runs on that queue, so a blocking SQLite call never holds a cooperative
/// thread. A task cancelled while its access runs interrupts the statement (or the wait for a lock) and
/// gets `CancellationError`; a task cancelled before its access begins gets it without running.
actor SerializedConnection {
    private let executor: DispatchQueueExecutor
    nonisolated let interruption = Interruption()
    private var connection: SQLiteConnection?
    private let open: (@Sendable () throws -> SQLiteConnection)?
    /// Run on the queue before the first access (and again before the next one, if it failed).
    private var setUp: (@Sendable (SQLiteConnection) throws -> Void)?
    private var isClosed = false

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Serializes `connection`, already open; `setUp` (settings whose statements make SQLite parse the
    /// schema) runs on the queue before the first access instead of now.
    init(
        label: String, connection: sending SQLiteConnection,
        setUp: (@Sendable (SQLiteConnection) throws -> Void)? = nil
    ) {
        executor = DispatchQueueExecutor(label: label)
        connection.install(interruption)
        self.connection = connection
        self.setUp = setUp
        open = nil
    }

    /// Serializes a connection that `open` opens on the queue at first use (and again after it failed).
    init(label: String, open: @escaping @Sendable () throws -> SQLiteConnection) {
        executor = DispatchQueueExecutor(label: label)
        connection = nil
        self.open = open
    }

    /// Runs `body` with the connection on its queue; see the type's comment for cancellation.
    nonisolated func run<T: Sendable>(_ body: @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        let access = interruption.makeAccessID()
        return try await withTaskCancellationHandler {
            try await self.access(access, body)
        } onCancel: { [interruption] in
            interruption.interrupt(access)
        }
    }

    private func access<T: Sendable>(_ access: UInt64, _ body: (SQLiteConnection) throws -> T) throws -> T {
        let connection = try openedConnection()
        interruption.begin(access)
        defer { interruption.end() }
        // Checked after `begin`: a cancellation before it is seen here, one after it sets the flag.
        if Task.isCancelled {
            throw CancellationError()
        }
        do {
            return try body(connection)
        } catch {
            // Whatever failed after the interruption failed because of it.
            if interruption.isInterrupted { throw CancellationError() }
            throw error
        }
    }

    private func openedConnection() throws -> SQLiteConnection {
        if let connection {
            if let setUp {
                try setUp(connection)
                self.setUp = nil
            }
            return connection
        }
        guard !isClosed, let open else {
            throw SQLiteError(code: .misuse, message: "connection is closed")
        }
        let opened = try open()
        opened.install(interruption)
        connection = opened
        return opened
    }

    /// Closes the connection (if it was opened); later accesses throw ``ResultCode/misuse``.
    func close() throws {
        isClosed = true
        guard let connection else { return }
        try connection.close()
    }
}
