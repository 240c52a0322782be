import Foundation

/// Response bodies in TMDB's exact v3 shapes (keys, types, nulls), written for these tests.
enum Fixtures {
    static func data(_ json: String) -> Data { Data(json.utf8) }

    static let genreList = """
    {
      "genres": [
        { "id": 28, "name": "Action" },
        { "id": 16, "name": "Animation" },
        { "id": 10770, "name": "TV Movie" }
      ]
    }
    """

    static let popularPage = """
    {
      "page": 2,
      "results": [
        {
          "adult": false,
          "backdrop_path": "/bk4Rp9qfXyTmU2.jpg",
          "genre_ids": [28, 878],
          "id": 424242,
          "original_language": "ja",
          "original_title": "星の剣",
          "overview": "A swordsmith forges a blade from a fallen star.",
          "popularity": 1234.567,
          "poster_path": "/pSt9Qw1xLmN.jpg",
          "release_date": "2024-03-08",
          "title": "Star Blade",
          "video": false,
          "vote_average": 7.3,
          "vote_count": 812
        },
        {
          "adult": false,
          "backdrop_path": null,
          "genre_ids": [],
          "id": 99001,
          "original_language": "en",
          "original_title": "Untitled Project",
          "overview": "",
          "popularity": 0.6,
          "poster_path": null,
          "release_date": "",
          "title": "Untitled Project",
          "video": true,
          "vote_average": 0,
          "vote_count": 0
        }
      ],
      "total_pages": 41877,
      "total_results": 837521
    }
    """

    static let movieDetails = """
    {
      "adult": false,
      "backdrop_path": "/dTl9Bk0Ab.jpg",
      "belongs_to_collection": {
        "id": 7001,
        "name": "Lighthouse Collection",
        "poster_path": "/cOlPo5.jpg",
        "backdrop_path": null
      },
      "budget": 18500000,
      "genres": [ { "id": 18, "name": "Drama" }, { "id": 9648, "name": "Mystery" } ],
      "homepage": "https://example.org/lighthouse",
      "id": 31337,
      "imdb_id": "tt7654321",
      "origin_country": ["IE", "GB"],
      "original_language": "ga",
      "original_title": "An Teach Solais",
      "overview": "Two keepers, one storm, and a light that will not go out.",
      "popularity": 42.125,
      "poster_path": "/lGtHs0.jpg",
      "production_companies": [
        { "id": 501, "logo_path": "/lOgO1.png", "name": "Wexford Pictures", "origin_country": "IE" },
        { "id": 502, "logo_path": null, "name": "Small Rock Films", "origin_country": "" }
      ],
      "production_countries": [
        { "iso_3166_1": "IE", "name": "Ireland" },
        { "iso_3166_1": "GB", "name": "United Kingdom" }
      ],
      "release_date": "2021-11-19",
      "revenue": 64000000,
      "runtime": 109,
      "spoken_languages": [
        { "english_name": "Irish", "iso_639_1": "ga", "name": "Gaeilge" },
        { "iso_639_1": "en", "name": "English" }
      ],
      "status": "Released",
      "tagline": "Keep the light.",
      "title": "The Lighthouse Keepers",
      "video": false,
      "vote_average": 7.9,
      "vote_count": 5120
    }
    """

    /// `/movie/latest` as TMDB sends it: nulls, "", 0 and [] nearly everywhere.
    static let latestMovie = """
    {
      "adult": false,
      "backdrop_path": null,
      "belongs_to_collection": null,
      "budget": 0,
      "genres": [],
      "homepage": "",
      "id": 1300001,
      "imdb_id": null,
      "original_language": "pt",
      "original_title": "Curta",
      "overview": "",
      "popularity": 0.0,
      "poster_path": null,
      "production_companies": [],
      "production_countries": [],
      "release_date": "",
      "revenue": 0,
      "runtime": 0,
      "spoken_languages": [],
      "status": "Released",
      "tagline": "",
      "title": "Curta",
      "video": false,
      "vote_average": 0.0,
      "vote_count": 0
    }
    """

    /// An even emptier record: most keys missing, the rest null.
    static let latestMovieSparse = """
    { "id": 1300002, "title": null, "genres": null, "runtime": null, "spoken_languages": null }
    """

    static let error401 = """
    { "status_code": 7, "status_message": "Invalid API key: You must be granted a valid key.", "success": false }
    """

    /// Key order as seen in real traffic: `success` first.
    static let error404 = """
    {"success":false,"status_code":34,"status_message":"The resource you requested could not be found."}
    """

    static let error429 = """
    { "status_code": 25, "status_message": "Your request count (41) is over the allowed limit of (40).",
      "success": false }
    """

    static let error500 = """
    { "status_message": "Internal error: Something went wrong, contact TMDB.", "status_code": 11, "success": false }
    """

    static let error503 = """
    { "status_code": 9, "status_message": "Service offline: This service is temporarily offline, try again later.",
      "success": false }
    """

    static let error400InvalidPage = """
    { "status_code": 22,
      "status_message": "Invalid page: Pages start at 1 and max at 500. They are expected to be an integer.",
      "success": false }
    """

    /// A status body whose message echoes the caller's credential.
    static func errorEchoing(_ secret: String, statusCode: Int = 7) -> String {
        """
        { "status_code": \(statusCode), "status_message": "Invalid API key \(secret): not granted.", "success": false }
        """
    }
}
