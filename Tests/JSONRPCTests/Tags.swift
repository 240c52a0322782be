import Testing

extension Tag {
    /// Byte-fed framing parsers and framing detection.
    @Tag static var framing: Self
    /// Message classification, params decoding and replies.
    @Tag static var dispatch: Self
    /// The JSON-RPC 2.0 specification's own examples.
    @Tag static var specExamples: Self
    /// Cancellation, idleness and exactly-once replies.
    @Tag static var concurrency: Self
    /// A real `Connection` over pipes.
    @Tag static var transport: Self
    /// Exact encoded output.
    @Tag static var golden: Self
}
