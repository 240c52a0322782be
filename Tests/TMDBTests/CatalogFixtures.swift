import Foundation

/// The new catalog endpoints' bodies in TMDB's exact v3 shapes (keys, types, nulls, key order), written
/// for these tests and checked against TMDB's documented examples.
enum CatalogFixtures {
    /// `GET /movie/{id}?append_to_response=credits,videos,watch/providers,release_dates,external_ids`.
    static let detailsWithParts = """
    {
      "adult": false, "backdrop_path": "/bd.jpg", "belongs_to_collection": null, "budget": 1000000,
      "genres": [{"id": 18, "name": "Drama"}], "homepage": "", "id": 4242, "imdb_id": "tt0004242",
      "origin_country": ["FR"], "original_language": "fr", "original_title": "Le Quai", "overview": "A dock.",
      "popularity": 12.5, "poster_path": "/p.jpg", "production_companies": [], "production_countries": [],
      "release_date": "1938-05-18", "revenue": 0, "runtime": 91,
      "spoken_languages": [{"english_name": "French", "iso_639_1": "fr", "name": "Français"}],
      "status": "Released", "tagline": "", "title": "Port of Shadows", "video": false, "vote_average": 7.4,
      "vote_count": 310,
      "credits": {
        "cast": [
          {"adult": false, "gender": 1, "id": 8, "known_for_department": "Acting", "name": "Michèle Morgan",
           "original_name": "Michèle Morgan", "popularity": 3.1, "profile_path": null, "cast_id": 2,
           "character": "Nelly", "credit_id": "52fe4", "order": 1},
          {"adult": false, "gender": 2, "id": 7, "known_for_department": "Acting", "name": "Jean Gabin",
           "original_name": "Jean Gabin", "popularity": 5.2, "profile_path": "/jg.jpg", "cast_id": 1,
           "character": "Jean", "credit_id": "52fe3", "order": 0}
        ],
        "crew": [
          {"adult": false, "gender": 2, "id": 9, "known_for_department": "Directing", "name": "Marcel Carné",
           "original_name": "Marcel Carné", "popularity": 2.0, "profile_path": null, "credit_id": "52fe5",
           "department": "Directing", "job": "Director"}
        ]
      },
      "videos": {
        "results": [
          {"iso_639_1": "fr", "iso_3166_1": "FR", "name": "Extrait", "key": "abc", "site": "YouTube", "size": 480,
           "type": "Clip", "official": false, "published_at": "2019-01-01T10:00:00.000Z", "id": "v1"},
          {"iso_639_1": "fr", "iso_3166_1": "FR", "name": "Bande-annonce", "key": "123456", "site": "Vimeo",
           "size": 1080, "type": "Trailer", "official": true, "published_at": "2018-01-01T10:00:00.000Z", "id": "v2"}
        ]
      },
      "watch/providers": {
        "results": {
          "FR": {"link": "https://www.themoviedb.org/movie/4242-le-quai/watch?locale=FR",
                 "flatrate": [{"logo_path": "/mubi.jpg", "provider_id": 11, "provider_name": "MUBI",
                               "display_priority": 9}],
                 "buy": [{"logo_path": "/itunes.jpg", "provider_id": 2, "provider_name": "Apple TV",
                          "display_priority": 4},
                         {"logo_path": "/gp.jpg", "provider_id": 3, "provider_name": "Google Play Movies",
                          "display_priority": 1}]}
        }
      },
      "release_dates": {
        "results": [
          {"iso_3166_1": "FR", "release_dates": [
            {"certification": "", "descriptors": [], "iso_639_1": "", "note": "Cannes",
             "release_date": "1938-05-01T00:00:00.000Z", "type": 1},
            {"certification": "U", "descriptors": [], "iso_639_1": "", "note": "",
             "release_date": "1938-05-18T00:00:00.000Z", "type": 3}
          ]}
        ]
      },
      "external_ids": {"imdb_id": "tt0004242", "wikidata_id": "Q1", "facebook_id": null, "instagram_id": null,
                       "twitter_id": null}
    }
    """

    /// `GET /movie/now_playing`: the paged envelope with `dates` first.
    static let nowPlaying = """
    {"dates": {"maximum": "2026-12-10", "minimum": "2026-10-29"}, "page": 1,
     "results": [{"adult": false, "backdrop_path": null, "genre_ids": [16], "id": 5, "original_language": "en",
                  "original_title": "Five", "overview": "", "popularity": 9.0, "poster_path": null,
                  "release_date": "2026-11-01", "title": "Five", "video": false, "vote_average": 6.0,
                  "vote_count": 2}],
     "total_pages": 3, "total_results": 41}
    """

    /// `GET /find/tt0004242?external_source=imdb_id`.
    static let find = """
    {"movie_results": [{"adult": false, "backdrop_path": "/bd.jpg", "id": 4242, "title": "Port of Shadows",
                        "original_language": "fr", "original_title": "Le Quai", "overview": "A dock.",
                        "poster_path": "/p.jpg", "media_type": "movie", "genre_ids": [18], "popularity": 12.5,
                        "release_date": "1938-05-18", "video": false, "vote_average": 7.4, "vote_count": 310}],
     "person_results": [], "tv_results": [], "tv_episode_results": [], "tv_season_results": []}
    """

    /// `GET /search/person`: `known_for` mixes movies and TV (not read).
    static let searchPerson = """
    {"page": 1, "results": [
      {"adult": false, "gender": 2, "id": 7, "known_for_department": "Acting", "name": "Jean Gabin",
       "original_name": "Jean Gabin", "popularity": 5.2, "profile_path": "/jg.jpg",
       "known_for": [{"adult": false, "backdrop_path": null, "id": 99, "name": "A Series", "original_name": "A",
                      "media_type": "tv", "first_air_date": "1960-01-01", "origin_country": ["FR"]}]}
     ], "total_pages": 1, "total_results": 1}
    """

    /// `GET /person/{id}?append_to_response=movie_credits`.
    static let personWithCredits = """
    {"adult": false, "also_known_as": ["Jean-Alexis Moncorgé"], "biography": "French actor.",
     "birthday": "1904-05-17", "deathday": "1976-11-15", "gender": 2, "homepage": null, "id": 7,
     "imdb_id": "nm0000007", "known_for_department": "Acting", "name": "Jean Gabin",
     "place_of_birth": "Paris, France", "popularity": 5.2, "profile_path": "/jg.jpg",
     "movie_credits": {
       "cast": [
         {"adult": false, "backdrop_path": null, "genre_ids": [18], "id": 4242, "original_language": "fr",
          "original_title": "Le Quai", "overview": "", "popularity": 12.5, "poster_path": null,
          "release_date": "1938-05-18", "title": "Port of Shadows", "video": false, "vote_average": 7.4,
          "vote_count": 310, "character": "Jean", "credit_id": "c1", "order": 0},
         {"adult": false, "backdrop_path": null, "genre_ids": [], "id": 4343, "original_language": "fr",
          "original_title": "Inconnu", "overview": "", "popularity": 0.5, "poster_path": null,
          "release_date": "", "title": "Unknown", "video": false, "vote_average": 0, "vote_count": 0,
          "character": "", "credit_id": "c3", "order": 2},
         {"adult": false, "backdrop_path": null, "genre_ids": [80], "id": 4444, "original_language": "fr",
          "original_title": "Touchez pas au grisbi", "overview": "", "popularity": 8.0, "poster_path": null,
          "release_date": "1954-03-17", "title": "Grisbi", "video": false, "vote_average": 7.2,
          "vote_count": 200, "character": "Max", "credit_id": "c2", "order": 0}
       ],
       "crew": [],
       "id": 7
     }}
    """
}
