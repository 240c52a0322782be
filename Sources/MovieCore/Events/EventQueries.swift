#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore

/// An event ready for the `events` table: params already JSON text, search text already built.
struct EncodedEvent: Sendable {
    var name: String
    var timestampMillis: Int64
    var userID: String?
    var params: String
    var search: String
    /// How many times it happened (a run of identical recorded events is one row; see `EventLog`).
    var repeats: Int64 = 1
    /// When it last happened, for a run; nil for an event that happened once.
    var lastTimestampMillis: Int64? = nil
    /// The stored row this run goes on from: its count grows instead of a row being added, unless the row
    /// is gone (deleted or pruned meanwhile), and then the run is inserted as a row of its own.
    var continuesRow: Int64? = nil
}

/// The event log's SQL, run on a connection inside `Database.read`/`write`. Every value is bound; the
/// only SQL assembled at run time is a choice among fixed fragments.
enum EventQueries {
    private static let columns = "id, name, ts, user_id, params, repeats, last_ts"

    // MARK: Writing

    /// Inserts `events` in order and returns their ids, and keeps the totals and the per-user usage counts
    /// for the whole batch (see migration v3). The search index is not touched: the rows join the tail above
    /// its watermark (migration v5), indexed later by ``indexSearchTail(atLeast:_:)``.
    ///
    /// An event that goes on from a stored row (``EncodedEvent/continuesRow``) adds its count to that row and
    /// gets its id; if the row is gone it is inserted. Usage counts count occurrences (each row's `repeats`),
    /// the total counts rows.
    static func insert(_ events: [EncodedEvent], _ db: SQLiteConnection) throws -> [Int64] {
        var ids: [Int64] = []
        ids.reserveCapacity(events.count)
        var inserted = 0
        var start = events.startIndex
        // The rows up to the next continuation go in together; found once for each such stretch.
        var end = start
        while start < events.endIndex {
            if let row = events[start].continuesRow, try continueRun(row, with: events[start], db) {
                ids.append(row)
                start += 1
                continue
            }
            if end <= start {
                end = events[(start + 1)...].firstIndex { $0.continuesRow != nil } ?? events.endIndex
            }
            let size = rowsPerInsert.first { $0 <= end - start } ?? 1
            try insertRows(events[start..<(start + size)], db, into: &ids)
            inserted += size
            start += size
        }
        guard !ids.isEmpty else { return ids }
        if inserted > 0 {
            try db.run("UPDATE event_totals SET total = total + ? WHERE id = 1", [.integer(Int64(inserted))])
        }
        // Recorded batches come in runs of one user and one name: the key is hashed once a run, not per event.
        var usage: [UsageKey: Int64] = [:]
        var run: (key: UsageKey, count: Int64)?
        for event in events {
            let user = event.userID ?? ""
            if let current = run, current.key.user == user, current.key.name == event.name {
                run?.count += event.repeats
                continue
            }
            if let run { usage[run.key, default: 0] += run.count }
            run = (UsageKey(user: user, name: event.name), event.repeats)
        }
        if let run { usage[run.key, default: 0] += run.count }
        for (key, count) in usage {
            try db.run(
                """
                INSERT INTO event_usage (user_key, name, count) VALUES (?, ?, ?)
                    ON CONFLICT (user_key, name) DO UPDATE SET count = count + excluded.count
                """, [.text(key.user), .text(key.name), .integer(count)])
        }
        return ids
    }

    /// Adds the events above the search index's watermark to the index and moves the watermark to the
    /// newest event, when at least `minimum` ids lie above it; returns how many events were indexed (those
    /// with values: since migration v7 the index holds nothing else), and how many ids stay above the
    /// watermark. Call inside a write transaction: another connection then neither indexes the same rows
    /// nor sees the watermark move without them.
    @discardableResult
    static func indexSearchTail(atLeast minimum: Int, _ db: SQLiteConnection) throws -> (indexed: Int, left: Int) {
        guard let row = try db.queryOne(
            "SELECT through, (SELECT coalesce(max(id), 0) FROM events) FROM event_search_indexed WHERE id = 1")
        else { throw MovieError.storage(.corrupt) }
        let through = try row.int64(0)
        let newest = try row.int64(1)
        // An upper bound on the tail's rows (deleted ids count), read without counting.
        let lag = Int(clamping: newest - through)
        guard lag > 0, lag >= minimum else { return (0, max(0, lag)) }
        // Only the events with values, and only their values (migration v7).
        try db.run(
            "INSERT INTO events_fts (rowid, search) "
                + "SELECT id, search FROM events_search_values WHERE id > ? AND id <= ?",
            [.integer(through), .integer(newest)])
        let indexed = db.changes
        try db.run("UPDATE event_search_indexed SET through = ? WHERE id = 1", [.integer(newest)])
        return (indexed, 0)
    }

    /// Rows per INSERT statement, largest first (the rest of a batch takes the smaller ones). A statement
    /// of 16 rows costs each row 6,000 fewer instructions in SQLite than one per row (AUTOINCREMENT reads and
    /// writes `sqlite_sequence` once per statement, and each statement is begun, stepped and reset); larger
    /// ones add little. Five fixed sizes keep the statement cache to five entries.
    private static let rowsPerInsert = [16, 8, 4, 2, 1]

    private static let insertSQL: [Int: String] = Dictionary(uniqueKeysWithValues: rowsPerInsert.map { size in
        (size, "INSERT INTO events (name, ts, user_id, params, search, repeats, last_ts) VALUES "
            + Array(repeating: "(?, ?, ?, ?, ?, ?, ?)", count: size).joined(separator: ", "))
    })

    /// Adds `event`'s occurrences to stored row `id`, if it is still there and still the same event; returns
    /// whether it was. Only the count and the last time change: no index holds them.
    private static func continueRun(_ id: Int64, with event: EncodedEvent, _ db: SQLiteConnection) throws -> Bool {
        try db.run(
            """
            UPDATE events SET repeats = repeats + ?, last_ts = max(coalesce(last_ts, ts), ?)
                WHERE id = ? AND name = ? AND user_id IS ? AND params = ?
            """,
            [.integer(event.repeats), .integer(event.lastTimestampMillis ?? event.timestampMillis), .integer(id),
             .text(event.name), event.userID.map(SQLiteValue.text) ?? .null, .text(event.params)])
        return db.changes == 1
    }

    /// Inserts `rows` with one statement and appends their ids. The statement takes ids one above the other,
    /// each above every id ever handed out (AUTOINCREMENT; one writer, no conflict clause, and it inserts all
    /// its rows or fails), so they are the `rows.count` ids ending at the last one.
    private static func insertRows(
        _ rows: ArraySlice<EncodedEvent>, _ db: SQLiteConnection, into ids: inout [Int64]
    ) throws {
        guard let sql = insertSQL[rows.count] else { throw MovieError.storage(.other) }
        // Borrowed, not copied by SQLite value by value: four text values a row.
        var values = BorrowedBindings(values: rows.count * 7, textBytes: rows.count * 96)
        for event in rows {
            values.append(event.name)
            values.append(event.timestampMillis)
            values.append(event.userID)
            values.append(event.params)
            values.append(event.search)
            values.append(event.repeats)
            if let last = event.lastTimestampMillis { values.append(last) } else { values.appendNull() }
        }
        try db.withStatement(sql) { statement in try statement.run(borrowing: values) }
        // Checked, because an id off by one would answer an add with another event's id.
        guard db.changes == rows.count else { throw MovieError.storage(.other) }
        let last = db.lastInsertRowID
        ids += (last - Int64(rows.count) + 1)...last
    }

    private struct UsageKey: Hashable {
        var user: String
        var name: String
    }

    /// Deletes the oldest events (by timestamp, then id) beyond `maxEvents`; returns how many. The total
    /// is kept by a trigger, so this costs one row read when nothing is over the cap.
    static func prune(maxEvents: Int, _ db: SQLiteConnection) throws -> Int {
        let total = try db.scalarInt("SELECT total FROM event_totals WHERE id = 1") ?? 0
        let excess = total - maxEvents
        guard excess > 0 else { return 0 }
        try db.run(
            "DELETE FROM events WHERE id IN (SELECT id FROM events ORDER BY ts ASC, id ASC LIMIT ?)",
            [.integer(Int64(excess))])
        return excess
    }

    /// Deletes each id `viewer` may see; the outcome lists every id once, in the given order (an event
    /// the viewer may not see is `notFound`, as if it did not exist).
    static func delete(_ ids: [Int64], viewer: EventViewer, _ db: SQLiteConnection) throws -> EventDeletion {
        var conditions = ["id = ?"]
        var visibility: [SQLiteValue] = []
        viewer.appendCondition(to: &conditions, &visibility)
        let sql = "DELETE FROM events WHERE " + conditions.joined(separator: " AND ")
        var deletion = EventDeletion(deleted: [], notFound: [])
        for id in ids {
            try db.run(sql, [.integer(id)] + visibility)
            if db.changes > 0 {
                deletion.deleted.append(id)
            } else {
                deletion.notFound.append(id)
            }
        }
        return deletion
    }

    /// Deletes every event of `userID` (an account being deleted); returns how many.
    static func deleteAll(ofUser userID: String, _ db: SQLiteConnection) throws -> Int {
        try db.run("DELETE FROM events WHERE user_id = ?", [.text(userID)])
        return db.changes
    }

    // MARK: Reading

    static func event(id: Int64, viewer: EventViewer, _ db: SQLiteConnection) throws -> StoredEvent? {
        var conditions = ["id = ?"]
        var arguments: [SQLiteValue] = [.integer(id)]
        viewer.appendCondition(to: &conditions, &arguments)
        return try db.queryOne(
            "SELECT \(columns) FROM events WHERE " + conditions.joined(separator: " AND "), arguments
        ).map(decode)
    }

    /// One newest-first page: at most `limit` events after `cursor` that pass `filter` and that `viewer`
    /// may see, and no more than `budget` bytes of them (see ``PageCollector``).
    static func list(
        _ filter: EventFilter, viewer: EventViewer = .everyone, limit: Int, budget: Int = .max,
        after cursor: EventCursor?, _ db: SQLiteConnection
    ) throws -> EventPage {
        var conditions: [String] = []
        var arguments: [SQLiteValue] = []
        viewer.appendCondition(to: &conditions, &arguments)
        if let name = filter.name {
            conditions.append("name = ?")
            arguments.append(.text(name))
        }
        switch filter.user {
        case .any: break
        case .anonymous: conditions.append("user_id IS NULL")
        case .id(let userID):
            conditions.append("user_id = ?")
            arguments.append(.text(userID))
        }
        if let since = filter.sinceMillis {
            conditions.append("ts >= ?")
            arguments.append(.integer(since))
        }
        if let until = filter.untilMillis {
            conditions.append("ts < ?")
            arguments.append(.integer(until))
        }
        appendKeyset(cursor, to: &conditions, &arguments)
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        var collector = PageCollector(limit: limit, budget: budget)
        try collector.collect(
            "SELECT \(columns) FROM events\(whereClause) ORDER BY ts DESC, id DESC LIMIT ?",
            arguments + [.integer(Int64(limit + 1))], db)
        return try collector.page()
    }

    /// How `search` finds a page; see ``search(_:limit:after:tuning:_:)``.
    struct SearchTuning: Sendable {
        /// Rows scanned newest-first before the trigram index is consulted.
        var scanBudget = 4096
        /// Largest candidate set taken from the trigram index; beyond it the scan simply continues.
        var maxCandidates = 20_000
    }

    /// One newest-first page of events matching `query` (see `EventSearchText` for what matches).
    ///
    /// 1. Scan newest-first from the cursor, checking each row exactly, until the page is full or
    ///    `scanBudget` rows were looked at. Frequent matches (a common event name) end here.
    /// 2. Rarer matches: for queries of 3 or more characters, the candidates are the trigram index's (for
    ///    the values), the events of each name that contains the query (the index holds no names), and the
    ///    tail above the watermark; when there are at most `maxCandidates`, check those exactly and sort
    ///    them (far-back records are reached without scanning). One read transaction, so one snapshot.
    /// 3. Otherwise (queries of 1-2 characters, or trigrams too common to narrow anything) SQLite scans on
    ///    from where step 1 stopped, to the end of the log if need be.
    static func search(
        _ query: String, viewer: EventViewer = .everyone, limit: Int, budget: Int = .max, after cursor: EventCursor?,
        tuning: SearchTuning = SearchTuning(), _ db: SQLiteConnection
    ) throws -> EventPage {
        let needle = EventSearchText.normalize(query)
        var collector = PageCollector(limit: limit, budget: budget)
        let scan = try budgetScan(needle, viewer: viewer, after: cursor, budget: tuning.scanBudget, &collector, db)
        guard !collector.isFull, let lastScanned = scan.lastScanned, !scan.reachedEnd else {
            return try collector.page()
        }
        if let expression = EventSearchText.trigramExpression(needle) {
            // The index, its watermark and the events are of one moment: a read is one snapshot.
            let indexed = try { () throws -> EventPage? in
                guard let names = try namesContaining(needle, db),
                    try candidateCount(expression, names: names, cap: tuning.maxCandidates, db)
                        <= tuning.maxCandidates
                else { return nil }
                // The index's candidates, the events of the matching names and every event above the
                // watermark: all are checked exactly, so the page is the one a fully indexed log gives.
                var conditions = [
                    "id IN (SELECT rowid FROM events_fts WHERE events_fts MATCH ? UNION ALL "
                        + namesFragment(names.count)
                        + "SELECT id FROM events WHERE id > (SELECT through FROM event_search_indexed WHERE id = 1))",
                    "instr(search, ?) > 0",
                ]
                var arguments: [SQLiteValue] = [.text(expression)] + names.map(SQLiteValue.text) + [.text(needle)]
                viewer.appendCondition(to: &conditions, &arguments)
                appendKeyset(cursor, to: &conditions, &arguments)
                var indexed = PageCollector(limit: limit, budget: budget)
                try indexed.collect(
                    "SELECT \(columns) FROM events WHERE \(conditions.joined(separator: " AND ")) "
                        + "ORDER BY ts DESC, id DESC LIMIT ?",
                    arguments + [.integer(Int64(limit + 1))], db)
                return try indexed.page()
            }()
            if let indexed { return indexed }
        }
        var conditions = ["instr(search, ?) > 0"]
        var arguments: [SQLiteValue] = [.text(needle)]
        viewer.appendCondition(to: &conditions, &arguments)
        appendKeyset(lastScanned, to: &conditions, &arguments)
        try collector.collect(
            "SELECT \(columns) FROM events WHERE \(conditions.joined(separator: " AND ")) "
                + "ORDER BY ts DESC, id DESC LIMIT ?",
            arguments + [.integer(Int64(limit + 1))], db)
        return try collector.page()
    }

    private struct BudgetScan {
        var lastScanned: EventCursor?
        var reachedEnd = false
    }

    /// Looks at up to `budget` rows newest-first after `cursor` that `viewer` may see, giving those that
    /// match to `collector`, until it is full.
    private static func budgetScan(
        _ needle: String, viewer: EventViewer, after cursor: EventCursor?, budget: Int,
        _ collector: inout PageCollector, _ db: SQLiteConnection
    ) throws -> BudgetScan {
        var conditions: [String] = []
        var arguments: [SQLiteValue] = [.text(needle)]
        viewer.appendCondition(to: &conditions, &arguments)
        appendKeyset(cursor, to: &conditions, &arguments)
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        var scan = BudgetScan()
        try db.withStatement(
            "SELECT \(columns), instr(search, ?) > 0 FROM events\(whereClause) ORDER BY ts DESC, id DESC LIMIT ?"
        ) { statement in
            try statement.bind(arguments + [.integer(Int64(budget))])
            var scanned = 0
            while !collector.isFull {
                guard try statement.step() else {
                    scan.reachedEnd = scanned < budget
                    break
                }
                scanned += 1
                if case .integer(let hit) = statement.value(at: 7), hit != 0 {
                    collector.offer(statement.row())
                }
                if case .integer(let id) = statement.value(at: 0), case .integer(let millis) = statement.value(at: 2) {
                    scan.lastScanned = EventCursor(timestampMillis: millis, id: id)
                }
            }
        }
        return scan
    }

    /// The index's candidates, the events of `names` and the events above the watermark (each capped), which
    /// the index path checks.
    private static func candidateCount(
        _ expression: String, names: [String], cap: Int, _ db: SQLiteConnection
    ) throws -> Int {
        let capped = SQLiteValue.integer(Int64(cap + 1))
        var sql = """
            SELECT (SELECT count(*) FROM (SELECT rowid FROM events_fts WHERE events_fts MATCH ? LIMIT ?))
                + (SELECT count(*) FROM (SELECT id FROM events
                       WHERE id > (SELECT through FROM event_search_indexed WHERE id = 1) LIMIT ?))
            """
        var arguments: [SQLiteValue] = [.text(expression), capped, capped]
        if !names.isEmpty {
            sql += "\n    + (SELECT count(*) FROM (SELECT id FROM events WHERE name IN ("
                + placeholders(names.count) + ") LIMIT ?))"
            arguments += names.map(SQLiteValue.text) + [capped]
        }
        return try db.scalarInt(sql, arguments) ?? 0
    }

    /// More names than this containing a query (from `events.add`) leave it to the scan.
    static let maxMatchingNames = 100

    /// The distinct names of stored events whose search text contains `needle`, as the exact check finds it
    /// (the name lowercased, before the first separator: see ``EventSearchText``); nil when more than
    /// ``maxMatchingNames`` do. One seek in `events_by_name` per distinct name.
    private static func namesContaining(_ needle: String, _ db: SQLiteConnection) throws -> [String]? {
        let rows = try db.query(
            """
            WITH RECURSIVE names(name) AS (
                SELECT min(name) FROM events
                UNION ALL
                SELECT (SELECT min(name) FROM events WHERE name > names.name) FROM names WHERE names.name IS NOT NULL
            )
            SELECT name FROM names WHERE name IS NOT NULL
            """)
        var matching: [String] = []
        for row in rows {
            let name = try row.string(0)
            guard EventSearchText.nameText(name, contains: needle) else { continue }
            guard matching.count < maxMatchingNames else { return nil }
            matching.append(name)
        }
        return matching
    }

    /// `SELECT id FROM events WHERE name IN (?, …) UNION ALL ` for `count` names; empty for none.
    private static func namesFragment(_ count: Int) -> String {
        count == 0 ? "" : "SELECT id FROM events WHERE name IN (" + placeholders(count) + ") UNION ALL "
    }

    /// `?, ?, …`: one bound parameter per value.
    private static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// Per-name counts of the occurrences of the events `viewer` may see (a row's `repeats`): from the
    /// trigger-kept usage table; from `sinceMillis` on, by adding up each visible name's range in
    /// `events_by_name` (a run counts from its first time).
    static func stats(sinceMillis: Int64?, viewer: EventViewer = .everyone, _ db: SQLiteConnection) throws
        -> EventStats
    {
        var usageConditions: [String] = []
        var usageArguments: [SQLiteValue] = []
        if let keys = viewer.usageKeys {
            usageConditions.append("user_key IN (" + keys.map { _ in "?" }.joined(separator: ", ") + ")")
            usageArguments += keys.map(SQLiteValue.text)
        }
        let whereClause = usageConditions.isEmpty ? "" : " WHERE " + usageConditions.joined(separator: " AND ")
        let rows: [Row]
        if let since = sinceMillis {
            var conditions = ["events.name = names.name", "ts >= ?"]
            var arguments: [SQLiteValue] = [.integer(since)]
            viewer.appendCondition(to: &conditions, &arguments)
            rows = try db.query(
                """
                SELECT name, (SELECT coalesce(sum(repeats), 0) FROM events WHERE \(conditions.joined(separator: " AND ")))
                FROM (SELECT DISTINCT name FROM event_usage\(whereClause)) AS names
                """,
                arguments + usageArguments)
        } else {
            rows = try db.query("SELECT name, sum(count) FROM event_usage\(whereClause) GROUP BY name", usageArguments)
        }
        let counts = try rows.map { EventStats.Count(name: try $0.string(0), count: try $0.int(1)) }
        return EventStats(counts: counts.filter { $0.count > 0 })
    }

    /// The names of every stored event of `userID` (nil: the anonymous user).
    static func usedNames(userID: String?, _ db: SQLiteConnection) throws -> Set<String> {
        let rows = try db.query(
            "SELECT name FROM event_usage WHERE user_key = ? AND count > 0", [.text(userID ?? "")])
        return Set(try rows.map { try $0.string(0) })
    }

    // MARK: Helpers

    /// Strictly after `cursor` in (ts DESC, id DESC) order, written so the index range applies to `ts`.
    private static func appendKeyset(
        _ cursor: EventCursor?, to conditions: inout [String], _ arguments: inout [SQLiteValue]
    ) {
        guard let cursor else { return }
        conditions.append("ts <= ? AND (ts < ? OR id < ?)")
        arguments += [.integer(cursor.timestampMillis), .integer(cursor.timestampMillis), .integer(cursor.id)]
    }

    /// Collects the rows of one page: at most `limit`, and no more than `budget` bytes as sent (estimated
    /// from the stored params text, which is already JSON, plus the other members), so that a page of large
    /// events is shorter rather than larger; it always holds at least one event, and `nextCursor` says
    /// where the rest starts. Rows are stepped one at a time, so no more than the page is ever held.
    struct PageCollector {
        let limit: Int
        let budget: Int
        private(set) var rows: [Row] = []
        private var bytes = 0
        /// A row was left out (past `limit` or the budget): there is a next page.
        private(set) var hasMore = false

        init(limit: Int, budget: Int) {
            self.limit = limit
            self.budget = budget
        }

        var isFull: Bool { hasMore }

        /// The bytes of one event on the wire, near enough: params and name as stored, the user id, and the
        /// rest of the object (`id`, `timestamp`, member names, punctuation).
        static func estimatedBytes(_ row: Row) -> Int {
            func length(_ index: Int) -> Int {
                if case .text(let text) = row[index] { return text.utf8.count }
                return 0
            }
            return length(1) + length(3) + length(4) + 96
        }

        /// Takes `row` if the page has room for it; otherwise notes that there is more.
        mutating func offer(_ row: Row) {
            guard !hasMore else { return }
            let size = Self.estimatedBytes(row)
            guard rows.count < limit, rows.isEmpty || bytes + size <= budget else {
                hasMore = true
                return
            }
            rows.append(row)
            bytes += size
        }

        /// Steps `sql` and offers its rows until the page is full.
        mutating func collect(_ sql: String, _ arguments: [SQLiteValue], _ db: SQLiteConnection) throws {
            try db.withStatement(sql) { statement in
                try statement.bind(arguments)
                while !hasMore, try statement.step() {
                    offer(statement.row())
                }
            }
        }

        func page() throws -> EventPage {
            let events = try rows.map(EventQueries.decode)
            return EventPage(events: events, nextCursor: hasMore ? events.last?.cursor : nil)
        }
    }

    fileprivate static func decode(_ row: Row) throws -> StoredEvent {
        // The params text is kept as stored; the wire checks it before serving it (see `EventWire`).
        StoredEvent(
            id: try row.int64(0), name: try row.string(1), timestampMillis: try row.int64(2),
            userID: try row.optionalString(3), paramsJSON: try row.string(4), repeats: Int(try row.int64(5)),
            lastTimestampMillis: try row.optionalInt64(6))
    }
}
