extension KeyedDecodingContainer {
    /// Decodes `key`, or returns `fallback` when the key is missing or `null`.
    /// A value of the wrong type still throws, so a wrong shape is not silently accepted.
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key, default fallback: T) throws -> T {
        try decodeIfPresent(type, forKey: key) ?? fallback
    }
}
