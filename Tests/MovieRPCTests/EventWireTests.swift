import Foundation
import JSONRPC
import Testing

@testable import MovieCore
@testable import MovieRPC

/// Events are served from their stored params text; the bytes must be what encoding the decoded event
/// gave before (JSONEncoder, sorted keys, slashes unescaped).
@Suite("Event wire")
struct EventWireTests {
    /// The shape the events methods encoded through `JSONEncoder` before params were served as stored.
    private struct EncoderShape: Encodable {
        let id: Int64
        let name: String
        let timestamp: String
        let userId: String?
        let params: [String: EventValue]
        let repeats: Int
        let lastTimestamp: String

        enum CodingKeys: String, CodingKey { case id, name, timestamp, userId, params, repeats, lastTimestamp }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(timestamp, forKey: .timestamp)
            try container.encode(userId, forKey: .userId)
            try container.encode(params, forKey: .params)
            try container.encode(repeats, forKey: .repeats)
            try container.encode(lastTimestamp, forKey: .lastTimestamp)
        }
    }

    private static let samples: [[String: EventValue]] = [
        [:],
        ["movieId": .int(550), "title": .string("Léon: the Professional / \"quoted\" \\ \u{1F3AC}")],
        ["rating": .double(7.25), "ok": .bool(true), "ids": .array([.int(1), .string("a/b"), .double(0.5), .bool(false)])],
        ["z": .int(-9_223_372_036_854_775_808), "a": .string("tab\tnew\nline\u{0001}")],
    ]

    @Test("a stored event is served with exactly the bytes the encoder gave", arguments: samples)
    func servedBytesMatchTheEncoder(params: [String: EventValue]) throws {
        let event = StoredEvent(id: 42, name: "movie.viewed", timestampMillis: 1_780_000_000_123, userID: "u1",
                                params: params)
        let timestamp = EventTime.string(millis: event.timestampMillis)
        let expected = try ResultEncoding.encodeWithEncoder(EncoderShape(
            id: event.id, name: event.name, timestamp: timestamp, userId: event.userID, params: params,
            repeats: 1, lastTimestamp: timestamp))
        #expect(try EventWire(event).writtenJSON == expected)
        // A run: how many times, and when the last one was.
        let run = StoredEvent(id: 43, name: "movie.viewed", timestampMillis: 1_780_000_000_123, userID: "u1",
                              params: params, repeats: 3, lastTimestampMillis: 1_780_000_059_999)
        #expect(try EventWire(run).writtenJSON == ResultEncoding.encodeWithEncoder(EncoderShape(
            id: run.id, name: run.name, timestamp: timestamp, userId: run.userID, params: params, repeats: 3,
            lastTimestamp: EventTime.string(millis: 1_780_000_059_999))))
        let anonymous = StoredEvent(id: 1, name: "genres.opened", timestampMillis: 0, userID: nil, params: params)
        let page = try EventPageResult(EventPage(events: [anonymous, event], nextCursor: nil))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(page.writtenJSON)) as? [String: Any])
        #expect((json["events"] as? [[String: Any]])?.count == 2)
        #expect(json["nextCursor"] is NSNull)
    }

    @Test("params stored by another writer (spaces, line breaks) are written again in the canonical form")
    func foreignRowsAreRewritten() throws {
        let event = StoredEvent(id: 7, name: "movie.viewed", timestampMillis: 0, userID: nil,
                                paramsJSON: "{\n  \"movieId\": 550,\r\n  \"a\": \"x/y\"\n}")
        let written = String(decoding: try EventWire(event).writtenJSON, as: UTF8.self)
        #expect(written.contains(#""params":{"a":"x/y","movieId":550}"#))
        #expect(!written.contains("\n"))
    }

    @Test("params that are not a JSON object are refused as corrupt storage, never sent")
    func corruptRowsAreRefused() {
        for text in ["[1,2]", "{\"a\":", "not json", "{\"a\":1} {\"b\":2}"] {
            let event = StoredEvent(id: 7, name: "x", timestampMillis: 0, userID: nil, paramsJSON: text)
            #expect(throws: MovieError.self) { try EventWire(event) }
        }
    }
}
