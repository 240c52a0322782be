/// How many events of each name are stored.
public struct EventStats: Sendable, Equatable {
    public struct Count: Sendable, Equatable {
        public var name: String
        public var count: Int

        public init(name: String, count: Int) {
            self.name = name
            self.count = count
        }
    }

    /// Most frequent first; equal counts by name.
    public var counts: [Count]
    public var total: Int

    public init(counts: [Count]) {
        self.counts = counts.sorted { ($0.count, $1.name) > ($1.count, $0.name) }
        total = counts.reduce(0) { $0 + $1.count }
    }
}
