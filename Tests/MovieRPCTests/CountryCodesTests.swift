import Foundation
import Testing

@testable import MovieRPC

@Suite("Country codes for watch providers")
struct CountryCodesTests {
    /// The list is written out (the modules link FoundationEssentials, which has no region list); it must be the
    /// one Foundation's `Locale.Region.isoRegions` gives, which the tests still link.
    @Test func theWrittenListIsFoundationsRegionList() {
        let foundation = Set(
            Locale.Region.isoRegions.map(\.identifier).filter { code in
                code.count == 2 && code.allSatisfy { $0.isASCII && $0.isUppercase }
            }
        ).subtracting(["EU", "EZ", "QO", "UN"])
        #expect(CatalogParams.countryCodes == foundation)
        #expect(CatalogParams.countryCodes.contains("US") && CatalogParams.countryCodes.contains("DE"))
        #expect(!CatalogParams.countryCodes.contains("EU") && !CatalogParams.countryCodes.contains("XX"))
    }
}
