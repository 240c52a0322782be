#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONRPC
import MovieCore
import TMDB

/// The wire form of credits, videos, watch providers and external ids: written here once, used by their
/// own methods and by `movies.details` with `include`.
extension JSONWriter {
    static let profileSize = "w185"
    static let logoSize = "w92"

    mutating func credits(_ credits: MovieCredits) {
        key("cast")
        array(credits.cast) { writer, credit in
            writer.object { writer in
                writer.member("personId", credit.personID)
                writer.member("name", credit.name)
                writer.member("character", credit.character)
                writer.member("order", credit.order)
                writer.profile(credit.profilePath)
            }
        }
        key("crew")
        array(credits.crew) { writer, credit in
            writer.object { writer in
                writer.member("personId", credit.personID)
                writer.member("name", credit.name)
                writer.member("job", credit.job)
                writer.member("department", credit.department)
                writer.profile(credit.profilePath)
            }
        }
    }

    mutating func profile(_ path: String?) {
        member("profilePath", path)
        member("profileUrl", TMDBClient.imageURL(path: path, size: Self.profileSize))
    }

    mutating func videos(_ videos: [Video]) {
        array(videos) { writer, video in
            writer.object { writer in
                writer.member("name", video.name)
                writer.member("site", video.site)
                writer.member("key", video.key)
                writer.member("type", video.type)
                writer.member("official", video.official)
                writer.member("publishedAt", video.publishedAt)
                writer.member("url", video.url)
            }
        }
    }

    /// `link`, `flatrate`, `rent`, `buy`, `free`, `ads` as members of the current object.
    mutating func watchOptionMembers(_ options: WatchOptions) {
        member("link", options.link)
        for (name, providers): (StaticString, [WatchProvider]) in [
            ("flatrate", options.flatrate), ("rent", options.rent), ("buy", options.buy), ("free", options.free),
            ("ads", options.ads),
        ] {
            key(name)
            array(providers) { writer, provider in
                writer.object { writer in
                    writer.member("providerId", provider.providerID)
                    writer.member("name", provider.name)
                    writer.member("logoUrl", TMDBClient.imageURL(path: provider.logoPath, size: Self.logoSize))
                }
            }
        }
    }

    mutating func externalIDs(_ ids: ExternalIDs) {
        object { writer in
            writer.member("imdbId", ids.imdbId)
            writer.member("wikidataId", ids.wikidataId)
            writer.member("facebookId", ids.facebookId)
            writer.member("instagramId", ids.instagramId)
            writer.member("twitterId", ids.twitterId)
        }
    }
}

/// A page of movies is the answer of every list method; these build the `CatalogRequest` each asks.
extension CatalogParams {
    /// -32010 when the query is empty or only whitespace; the trimmed query otherwise (at most 500 bytes).
    static func query(_ query: String) throws -> String {
        let trimmed = query.trimmingWhitespace()
        guard !trimmed.isEmpty else {
            throw MovieError.validationFailed([FieldProblem(field: "query", problem: "must not be empty")])
        }
        guard trimmed.utf8.count <= 500 else {
            throw ResponseError.invalidParams("query must be at most 500 bytes", field: "query")
        }
        return trimmed
    }

    /// A release year TMDB can hold.
    static func year(_ year: Int?, field: String) throws -> Int? {
        guard let year else { return nil }
        guard (1800...2200).contains(year) else {
            throw ResponseError.invalidParams("\(field) must be a year between 1800 and 2200", field: field)
        }
        return year
    }

    /// ISO 3166-1 alpha-2 codes that name a country (not a macro-region such as `EU` or `QO`): the two-letter
    /// regions of Foundation's `Locale.Region.isoRegions` (ICU's list, with its exceptional reservations such as
    /// `AC` and `XK`), written out because the modules link FoundationEssentials only, which has no region list.
    static let countryCodes: Set<String> = Set(
        """
        AC AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR
        BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CP CQ CR CU CV CW CX CY CZ DE DG DJ DK DM
        DO DZ EA EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT
        GU GW GY HK HM HN HR HT HU IC ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR
        KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU
        MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY
        QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TA TC TD TF TG
        TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM
        ZW
        """.split(whereSeparator: \.isWhitespace).map(String.init))

    /// A region that must be a real ISO 3166-1 country code, as watch providers are listed by.
    static func country(_ region: String?, field: String) throws -> String? {
        guard let region else { return nil }
        guard countryCodes.contains(region) else {
            throw ResponseError.invalidParams(
                "\(field) must be an uppercase ISO 3166-1 country code like \"US\"", field: field)
        }
        return region
    }
}
