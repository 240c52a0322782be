import JSONRPC
import MovieCore

// The domain's string enums that methods take as params, read by the params decoder straight from their
// string (`RawStringParam`). Each decodes as the standard library's `RawRepresentable` does; one left off
// this list still decodes the same, only through its own `init(from:)`.
extension CachePolicy: RawStringParam {}
extension TrendingWindow: RawStringParam {}
extension DiscoverFilter.GenreMatch: RawStringParam {}
extension DetailsPart: RawStringParam {}
