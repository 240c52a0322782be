import SQLiteStore

extension EventLog {
    /// The event log's schema steps. Never edit an applied step; add one at the end.
    ///
    /// - `events`: one row per event. `ts` is milliseconds since 1970 UTC; `params` is the JSON object
    ///   text; `search` is the lowercased name and parameter values (see `EventSearchText`). `id` is
    ///   `AUTOINCREMENT`, so ids of deleted events are never handed out again.
    /// - `events_by_time (ts, id)` serves newest-first keyset pages (scanned backwards) and retention
    ///   (oldest first); `events_by_name (name, ts, id)` serves pages filtered by name. (Descending until v6.)
    /// - `event_totals` (one row) and `event_usage` (per user and name; `''` is the anonymous user) are
    ///   kept by `EventQueries.insert` (per batch) and by delete triggers, so retention, `events.stats` and
    ///   hints never count the whole table.
    /// - `events_fts`: an FTS5 trigram index over `search` (external content, no positions: it only
    ///   narrows candidates, which are then checked exactly), kept the same way.
    /// - `event_changes` (one row): how many events were ever deleted or updated, kept by triggers; with
    ///   the `events` row of `sqlite_sequence` it is the log's ``EventRevision``.
    /// - `event_search_indexed` (one row, v5): `through` is the watermark of `events_fts`: every event with
    ///   `id <= through` is in the index, none above it is. Inserts leave the index alone; the tail above
    ///   the watermark is indexed in one go later (`EventQueries.indexSearchTail`), and searches check the
    ///   tail without the index.
    /// - Since v7 `events_fts` indexes only the parameter values of `search` (view `events_search_values`:
    ///   the text after the name, for the events that have values); the events whose name matches are found
    ///   by name (`events_by_name`), so an event without params costs the index nothing.
    /// - Since v8 a row is a run: `repeats` is how many times the event happened (1 for most), `last_ts` when
    ///   it last did (null: at `ts`). `event_usage` counts occurrences, `event_totals` rows.
    static let migrations: [MovieStore.Migration] = [
        ("v1-events", { db in
            try db.execute("""
                CREATE TABLE events (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL,
                    ts INTEGER NOT NULL,
                    user_id TEXT,
                    params TEXT NOT NULL,
                    search TEXT NOT NULL
                );
                CREATE INDEX events_by_time ON events (ts DESC, id DESC);
                CREATE INDEX events_by_name ON events (name, ts DESC, id DESC);
                CREATE TABLE event_totals (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    total INTEGER NOT NULL
                );
                INSERT INTO event_totals (id, total) VALUES (1, 0);
                CREATE TABLE event_usage (
                    user_key TEXT NOT NULL,
                    name TEXT NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (user_key, name)
                ) WITHOUT ROWID;
                CREATE TRIGGER events_counted AFTER INSERT ON events BEGIN
                    UPDATE event_totals SET total = total + 1 WHERE id = 1;
                    INSERT INTO event_usage (user_key, name, count) VALUES (coalesce(new.user_id, ''), new.name, 1)
                        ON CONFLICT (user_key, name) DO UPDATE SET count = count + 1;
                END;
                CREATE TRIGGER events_uncounted AFTER DELETE ON events BEGIN
                    UPDATE event_totals SET total = total - 1 WHERE id = 1;
                    UPDATE event_usage SET count = count - 1
                        WHERE user_key = coalesce(old.user_id, '') AND name = old.name;
                    DELETE FROM event_usage
                        WHERE user_key = coalesce(old.user_id, '') AND name = old.name AND count <= 0;
                END;
                """)
        }),
        ("v2-events-search", { db in
            try db.execute("""
                CREATE VIRTUAL TABLE events_fts USING fts5(
                    search, content = 'events', content_rowid = 'id',
                    tokenize = 'trigram', detail = 'none', columnsize = 0
                );
                INSERT INTO events_fts (events_fts) VALUES ('rebuild');
                CREATE TRIGGER events_fts_insert AFTER INSERT ON events BEGIN
                    INSERT INTO events_fts (rowid, search) VALUES (new.id, new.search);
                END;
                CREATE TRIGGER events_fts_delete AFTER DELETE ON events BEGIN
                    INSERT INTO events_fts (events_fts, rowid, search) VALUES ('delete', old.id, old.search);
                END;
                """)
        }),
        // Inserts keep the counters and the search index once per batch (`EventQueries.insert`), not per row:
        // the per-row triggers made a batch of 256 events 3.4 times as slow (19,300 against 65,800 events/s,
        // the trigram index's per-row insert most of it). Deletes are rare and keep their triggers.
        ("v3-events-batched-insert", { db in
            try db.execute("""
                DROP TRIGGER events_counted;
                DROP TRIGGER events_fts_insert;
                """)
        }),
        // What a kept `events.list` page is checked against (``EventRevision``): inserts already move
        // `sqlite_sequence` (AUTOINCREMENT), for every writer and at no cost; deletes (`events.delete`, an
        // account's events, retention) and updates move this counter, per row, as rare as they are.
        ("v4-events-revision", { db in
            try db.execute("""
                CREATE TABLE event_changes (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    count INTEGER NOT NULL
                );
                INSERT INTO event_changes (id, count) VALUES (1, 0);
                CREATE TRIGGER events_changed_by_delete AFTER DELETE ON events BEGIN
                    UPDATE event_changes SET count = count + 1 WHERE id = 1;
                END;
                CREATE TRIGGER events_changed_by_update AFTER UPDATE ON events BEGIN
                    UPDATE event_changes SET count = count + 1 WHERE id = 1;
                END;
                """)
        }),
        // Search-index maintenance leaves the recording path (issue 14): per batch of 256 the trigram
        // insert was 4.2 µs a row, most of an event's SQLite cost; in batches of thousands it is about half
        // that. Every event stored so far is indexed (v3 indexed each batch), so the watermark starts at the
        // newest. The delete trigger removes only indexed rows: a 'delete' of a row the external-content
        // index never held would corrupt it.
        ("v5-events-deferred-search-index", { db in
            try db.execute("""
                CREATE TABLE event_search_indexed (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    through INTEGER NOT NULL
                );
                INSERT INTO event_search_indexed (id, through) VALUES (1, (SELECT coalesce(max(id), 0) FROM events));
                DROP TRIGGER events_fts_delete;
                CREATE TRIGGER events_fts_delete AFTER DELETE ON events
                    WHEN old.id <= (SELECT through FROM event_search_indexed WHERE id = 1)
                BEGIN
                    INSERT INTO events_fts (events_fts, rowid, search) VALUES ('delete', old.id, old.search);
                END;
                """)
        }),
        // New events carry the newest timestamps, so in the descending indexes of v1 each lands at the
        // index's left edge, where SQLite's page splits leave pages half full: a third more file and about
        // 15 % more work per insert (a Python replica: 7.7 against 6.5 µs an event, 30 against 21 MB for
        // 200,000). Ascending indexes serve the same newest-first pages and keyset conditions by scanning
        // backwards, with the same query plans (checked by a test).
        ("v6-events-ascending-indexes", { db in
            try db.execute("""
                DROP INDEX events_by_time;
                DROP INDEX events_by_name;
                CREATE INDEX events_by_time ON events (ts, id);
                CREATE INDEX events_by_name ON events (name, ts, id);
                """)
        }),
        // The trigram index held each event's name as well as its values, and indexing it was a quarter of
        // recording an event (9 trigrams for `genres.list`, which has no values). A search finds the events
        // whose name matches through the few distinct names instead, so the index keeps the values alone:
        // the `search` text after the name's separator (names have no control characters), for the events
        // that have any. Every event up to the watermark is indexed again that way; the tail stays the tail.
        ("v7-events-search-values", { db in
            try db.execute("""
                DROP TRIGGER events_fts_delete;
                DROP TABLE events_fts;
                CREATE VIEW events_search_values AS
                    SELECT id, substr(search, instr(search, char(31)) + 1) AS search FROM events
                    WHERE instr(search, char(31)) > 0;
                CREATE VIRTUAL TABLE events_fts USING fts5(
                    search, content = 'events_search_values', content_rowid = 'id',
                    tokenize = 'trigram', detail = 'none', columnsize = 0
                );
                INSERT INTO events_fts (rowid, search)
                    SELECT id, search FROM events_search_values
                    WHERE id <= (SELECT through FROM event_search_indexed WHERE id = 1);
                CREATE TRIGGER events_fts_delete AFTER DELETE ON events
                    WHEN instr(old.search, char(31)) > 0
                        AND old.id <= (SELECT through FROM event_search_indexed WHERE id = 1)
                BEGIN
                    INSERT INTO events_fts (events_fts, rowid, search)
                        VALUES ('delete', old.id, substr(old.search, instr(old.search, char(31)) + 1));
                END;
                """)
        }),
        // Runs (issue 14): an event recorded again and again (an editor polling one method, a script's loop)
        // was a row each time, three B-tree inserts of SQLite work an event (a quarter of a cached read's
        // instructions) that filled the log with copies and pushed older history past the cap. A run of
        // identical recorded events is one row with a count. Existing rows happened once. Deleting a row
        // takes all its occurrences off the usage counts.
        ("v8-events-runs", { db in
            try db.execute("""
                ALTER TABLE events ADD COLUMN repeats INTEGER NOT NULL DEFAULT 1;
                ALTER TABLE events ADD COLUMN last_ts INTEGER;
                DROP TRIGGER events_uncounted;
                CREATE TRIGGER events_uncounted AFTER DELETE ON events BEGIN
                    UPDATE event_totals SET total = total - 1 WHERE id = 1;
                    UPDATE event_usage SET count = count - old.repeats
                        WHERE user_key = coalesce(old.user_id, '') AND name = old.name;
                    DELETE FROM event_usage
                        WHERE user_key = coalesce(old.user_id, '') AND name = old.name AND count <= 0;
                END;
                """)
        }),
    ]
}
