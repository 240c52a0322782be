import Foundation
import SQLiteStore

/// An event ready for the `events` table: params already JSON text, search text already built.
struct EncodedEvent: Sendable {
    var name: String
    var timestampMillis: Int64
    var userID: String?
    var params: String
    var search: String
}

/// The event log's SQL, run on a connection inside `Database.read`/`write`. Every value is bound; the
/// only SQL assembled at run time is a choice among fixed fragments.
enum EventQueries {
    private static let columns = "id, name, ts, user_id, params"

    // MARK: Writing

    /// Inserts `events` in order and returns their ids. Call inside a transaction.
    static func insert(_ events: [EncodedEvent], _ db: SQLiteConnection) throws -> [Int64] {
        try events.map { event in
            try db.run(
                "INSERT INTO events (name, ts, user_id, params, search) VALUES (?, ?, ?, ?, ?)",
                [.text(event.name), .integer(event.timestampMillis), event.userID.map(SQLiteValue.text) ?? .null,
                 .text(event.params), .text(event.search)])
            return db.lastInsertRowID
        }
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

    /// Deletes each id; the outcome lists every id once, in the given order.
    static func delete(_ ids: [Int64], _ db: SQLiteConnection) throws -> EventDeletion {
        var deletion = EventDeletion(deleted: [], notFound: [])
        for id in ids {
            try db.run("DELETE FROM events WHERE id = ?", [.integer(id)])
            if db.changes > 0 {
                deletion.deleted.append(id)
            } else {
                deletion.notFound.append(id)
            }
        }
        return deletion
    }

    // MARK: Reading

    static func event(id: Int64, _ db: SQLiteConnection) throws -> StoredEvent? {
        try db.queryOne("SELECT \(columns) FROM events WHERE id = ?", [.integer(id)]).map(decode)
    }

    /// One newest-first page: `limit` events after `cursor` that pass `filter`.
    static func list(_ filter: EventFilter, limit: Int, after cursor: EventCursor?, _ db: SQLiteConnection) throws
        -> EventPage
    {
        var conditions: [String] = []
        var arguments: [SQLiteValue] = []
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
        let rows = try db.query(
            "SELECT \(columns) FROM events\(whereClause) ORDER BY ts DESC, id DESC LIMIT ?",
            arguments + [.integer(Int64(limit + 1))])
        return try page(rows, limit: limit)
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
    /// 2. Rarer matches: for queries of 3 or more characters, ask the trigram index for candidates; when
    ///    there are at most `maxCandidates`, check those exactly and sort them (far-back records are
    ///    reached without scanning).
    /// 3. Otherwise (queries of 1-2 characters, or trigrams too common to narrow anything) SQLite scans on
    ///    from where step 1 stopped, to the end of the log if need be.
    static func search(
        _ query: String, limit: Int, after cursor: EventCursor?, tuning: SearchTuning = SearchTuning(),
        _ db: SQLiteConnection
    ) throws -> EventPage {
        let needle = EventSearchText.normalize(query)
        let scan = try budgetScan(needle, after: cursor, budget: tuning.scanBudget, wanted: limit + 1, db)
        guard scan.matches.count <= limit, let lastScanned = scan.lastScanned, !scan.reachedEnd else {
            return try page(scan.matches, limit: limit)
        }
        if let expression = EventSearchText.trigramExpression(needle),
            try candidateCount(expression, cap: tuning.maxCandidates, db) <= tuning.maxCandidates
        {
            var conditions = ["id IN (SELECT rowid FROM events_fts WHERE events_fts MATCH ?)", "instr(search, ?) > 0"]
            var arguments: [SQLiteValue] = [.text(expression), .text(needle)]
            appendKeyset(cursor, to: &conditions, &arguments)
            let rows = try db.query(
                "SELECT \(columns) FROM events WHERE \(conditions.joined(separator: " AND ")) "
                    + "ORDER BY ts DESC, id DESC LIMIT ?",
                arguments + [.integer(Int64(limit + 1))])
            return try page(rows, limit: limit)
        }
        var conditions = ["instr(search, ?) > 0"]
        var arguments: [SQLiteValue] = [.text(needle)]
        appendKeyset(lastScanned, to: &conditions, &arguments)
        let rest = try db.query(
            "SELECT \(columns) FROM events WHERE \(conditions.joined(separator: " AND ")) "
                + "ORDER BY ts DESC, id DESC LIMIT ?",
            arguments + [.integer(Int64(limit + 1 - scan.matches.count))])
        return try page(scan.matches + rest, limit: limit)
    }

    private struct BudgetScan {
        var matches: [Row] = []
        var lastScanned: EventCursor?
        var reachedEnd = false
    }

    /// Looks at up to `budget` rows newest-first after `cursor`, keeping those that match, until `wanted`
    /// matched.
    private static func budgetScan(
        _ needle: String, after cursor: EventCursor?, budget: Int, wanted: Int, _ db: SQLiteConnection
    ) throws -> BudgetScan {
        var conditions: [String] = []
        var arguments: [SQLiteValue] = [.text(needle)]
        appendKeyset(cursor, to: &conditions, &arguments)
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        var scan = BudgetScan()
        try db.withStatement(
            "SELECT \(columns), instr(search, ?) > 0 FROM events\(whereClause) ORDER BY ts DESC, id DESC LIMIT ?"
        ) { statement in
            try statement.bind(arguments + [.integer(Int64(budget))])
            var scanned = 0
            while scan.matches.count < wanted {
                guard try statement.step() else {
                    scan.reachedEnd = scanned < budget
                    break
                }
                scanned += 1
                if case .integer(let hit) = statement.value(at: 5), hit != 0 {
                    scan.matches.append(statement.row())
                }
                if case .integer(let id) = statement.value(at: 0), case .integer(let millis) = statement.value(at: 2) {
                    scan.lastScanned = EventCursor(timestampMillis: millis, id: id)
                }
            }
        }
        return scan
    }

    private static func candidateCount(_ expression: String, cap: Int, _ db: SQLiteConnection) throws -> Int {
        try db.scalarInt(
            "SELECT count(*) FROM (SELECT rowid FROM events_fts WHERE events_fts MATCH ? LIMIT ?)",
            [.text(expression), .integer(Int64(cap + 1))]) ?? 0
    }

    /// Per-name counts: from the trigger-kept usage table; from `sinceMillis` on, by counting each stored
    /// name's range in `events_by_name` (index only).
    static func stats(sinceMillis: Int64?, _ db: SQLiteConnection) throws -> EventStats {
        let rows: [Row]
        if let since = sinceMillis {
            rows = try db.query(
                """
                SELECT name, (SELECT count(*) FROM events WHERE events.name = names.name AND ts >= ?)
                FROM (SELECT DISTINCT name FROM event_usage) AS names
                """,
                [.integer(since)])
        } else {
            rows = try db.query("SELECT name, sum(count) FROM event_usage GROUP BY name")
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

    private static func page(_ rows: [Row], limit: Int) throws -> EventPage {
        let events = try rows.prefix(limit).map(decode)
        return EventPage(events: events, nextCursor: rows.count > limit ? events.last?.cursor : nil)
    }

    private static func decode(_ row: Row) throws -> StoredEvent {
        let params: [String: EventValue]
        do {
            params = try JSONDecoder().decode([String: EventValue].self, from: Data(try row.string(4).utf8))
        } catch let error as SQLiteError {
            throw error
        } catch {
            throw SQLiteError(code: .corrupt, message: "stored event params are not a JSON object")
        }
        return StoredEvent(
            id: try row.int64(0), name: try row.string(1), timestampMillis: try row.int64(2),
            userID: try row.optionalString(3), params: params)
    }
}
