/// The outcome of deleting events by id: each requested id is in exactly one list, in request order.
public struct EventDeletion: Sendable, Equatable {
    public var deleted: [Int64]
    public var notFound: [Int64]

    public init(deleted: [Int64], notFound: [Int64]) {
        self.deleted = deleted
        self.notFound = notFound
    }
}
