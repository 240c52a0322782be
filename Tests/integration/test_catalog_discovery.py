"""The catalog's finding methods over real pipes (#12): search, the lists, discover, credits, videos, watch
providers, related movies, find by IMDb id, people, and movies.details with include; against the fake
TMDB (which speaks TMDB's wire format and counts requests) with its faults, and the demo's refusals."""
from __future__ import annotations

import pytest

from fake_tmdb import FakeTMDB
from conftest import error_of

ALL_PARTS = ["credits", "videos", "watchProviders", "releaseDates", "externalIds"]


def api_requests(tmdb: FakeTMDB) -> list[str]:
    return [r for r in tmdb.requests if r.startswith("/3/")]


# -- movies.search ------------------------------------------------------------------------------------

def test_search_finds_titles_and_leaves_adult_ones_out_unless_asked(live, tmdb):
    client = live()
    page = client.call("movies.search", query="fight club")
    assert page["source"] == "network" and page["complete"] is True
    assert [m["id"] for m in page["results"]][:1] == [550]
    assert all(not m["adult"] for m in page["results"])
    assert "include_adult=false" in tmdb.requests[-1] and "query=fight%20club" in tmdb.requests[-1]
    adult = client.call("movies.search", query="fight club", includeAdult=True)
    assert any(m["adult"] for m in adult["results"])


@pytest.mark.parametrize("query", ["", "   ", "\t\n"])
def test_an_empty_search_is_refused_and_nothing_is_sent(live, tmdb, query):
    client = live()
    error = error_of(client.call, "movies.search", query=query)
    assert error.code == -32010 and error.kind == "validationFailed"
    assert api_requests(tmdb) == []


def test_search_parameters_are_part_of_the_cache_key(live, tmdb):
    client = live()
    client.call("movies.search", query="the", year=2019)
    client.call("movies.search", query="the", year=2020)
    tmdb.stop()
    assert client.call("movies.search", query="the", year=2019)["source"] == "cache"
    # Not cached under these parameters: the local index answers, saying it may be incomplete.
    uncached = client.call("movies.search", query="the", year=2021)
    assert uncached["source"] == "cache" and uncached["complete"] is False


@pytest.mark.parametrize("params, field", [
    ({"query": "x", "page": 0}, "page"), ({"query": "x", "year": 99}, "year"),
    ({"query": "x", "language": "english"}, "language"), ({"query": "x", "region": "usa"}, "region"),
    ({"query": "x", "includeAdult": "yes"}, "includeAdult"),
])
def test_search_params_are_checked_before_anything_is_sent(live, tmdb, params, field):
    client = live()
    error = error_of(client.call, "movies.search", params)
    assert error.code == -32602 and error.field == field
    assert api_requests(tmdb) == []


# -- lists --------------------------------------------------------------------------------------------

def test_trending_top_rated_now_playing_and_upcoming(live, tmdb):
    client = live()
    day = client.call("movies.trending")
    week = client.call("movies.trending", window="week", page=2)
    assert day["results"] and week["page"] == 2
    assert any(r.startswith("/3/trending/movie/day?") for r in tmdb.requests)
    assert any(r.startswith("/3/trending/movie/week?") for r in tmdb.requests)
    assert error_of(client.call, "movies.trending", window="month").field == "window"
    top = client.call("movies.topRated")
    ratings = [m["voteAverage"] for m in top["results"]]
    assert ratings == sorted(ratings, reverse=True) and "dates" not in top
    now = client.call("movies.nowPlaying", region="US")
    assert now["dates"] == {"minimum": "2026-10-29", "maximum": "2026-12-10"}
    assert client.call("movies.upcoming")["dates"]["minimum"] == "2026-12-16"
    assert "dates" not in client.call("movies.popular")


# -- movies.discover ----------------------------------------------------------------------------------

def test_discover_filters_reach_tmdb_with_genre_all_and_any(live, tmdb):
    client = live()
    both = client.call("movies.discover", genreIds=[28, 12], sortBy="vote_average.desc", minRating=6.5)
    assert both["results"] and all({28, 12} <= set(m["genreIds"]) for m in both["results"])
    assert "with_genres=28%2C12" in tmdb.requests[-1] and "vote_average.gte=6.5" in tmdb.requests[-1]
    either = client.call("movies.discover", genreIds=[28, 12], genreMatch="any")
    assert "with_genres=28%7C12" in tmdb.requests[-1]
    assert either["totalResults"] > both["totalResults"]


@pytest.mark.parametrize("params, field", [
    ({"watchProviderIds": [8]}, "watchRegion"),
    ({"certification": "R"}, "certificationCountry"),
    ({"releasedFrom": "2020-05-01", "releasedTo": "2020-01-01"}, "releasedFrom"),
    ({"minRuntime": 120, "maxRuntime": 90}, "minRuntime"),
])
def test_discover_refuses_half_a_pair_and_sends_nothing(live, tmdb, params, field):
    client = live()
    error = error_of(client.call, "movies.discover", params)
    assert error.code == -32010
    assert [f["field"] for f in error.data["fields"]] == [field]
    assert api_requests(tmdb) == []


@pytest.mark.parametrize("params, field", [
    ({"sortBy": "rating.desc"}, "sortBy"), ({"releasedFrom": "2020-02-30"}, "releasedFrom"),
    ({"genreIds": [0]}, "genreIds[0]"), ({"genreIds": list(range(1, 30))}, "genreIds"),
    ({"watchRegion": "XX", "watchProviderIds": [8]}, "watchRegion"), ({"minRating": 11}, "minRating"),
])
def test_discover_params_are_checked(live, tmdb, params, field):
    client = live()
    error = error_of(client.call, "movies.discover", params)
    assert error.code == -32602 and error.field == field
    assert api_requests(tmdb) == []


# -- credits, videos, watch providers, related, find --------------------------------------------------

def test_credits_in_billing_order_with_profile_urls(live, tmdb):
    client = live()
    credits = client.call("movies.credits", movieId=550)
    assert credits["movieId"] == 550 and [c["order"] for c in credits["cast"]] == [0, 1, 2]
    assert credits["cast"][0]["profileUrl"] is None
    assert credits["cast"][1]["profileUrl"] == "https://image.tmdb.org/t/p/w185" + credits["cast"][1]["profilePath"]
    assert credits["crew"][0]["job"] == "Director"
    assert error_of(client.call, "movies.credits", movieId=424242).code == -32021


def test_videos_put_trailers_first_and_build_urls_for_youtube_and_vimeo(live, tmdb):
    videos = live().call("movies.videos", movieId=550)["videos"]
    assert videos[0]["type"] == "Trailer" and videos[0]["url"] == "https://www.youtube.com/watch?v=tr550"
    by_site = {v["site"]: v["url"] for v in videos}
    assert by_site["Vimeo"] == "https://vimeo.com/76979871" and by_site["Dailymotion"] is None


def test_watch_providers_for_one_region(live, tmdb):
    client = live()
    us = client.call("movies.watchProviders", movieId=550, region="US")
    assert us["region"] == "US" and us["link"].endswith("locale=US")
    assert [p["name"] for p in us["rent"]] == ["Apple TV", "Google Play Movies"]
    assert us["flatrate"][0] == {"providerId": 8, "name": "Netflix",
                                 "logoUrl": "https://image.tmdb.org/t/p/w92/logo8.jpg"}
    de = client.call("movies.watchProviders", movieId=550, region="DE")
    assert de["flatrate"] == [] and de["free"] == [] and de["buy"]
    # One TMDB answer holds every country: the second region came from it.
    assert tmdb.count("/3/movie/550/watch/providers") == 1 or de["source"] == "network"
    assert client.call("movies.watchProviders", movieId=550, region="JP")["buy"] == []
    before = len(api_requests(tmdb))
    for region in ["XX", "us", "USA"]:
        assert error_of(client.call, "movies.watchProviders", movieId=550, region=region).field == "region"
    assert len(api_requests(tmdb)) == before


def test_recommendations_and_similar(live, tmdb):
    client = live()
    recommended = client.call("movies.recommendations", movieId=550)
    similar = client.call("movies.similar", movieId=550, page=1)
    assert recommended["results"] and similar["results"]
    assert any(r.startswith("/3/movie/550/recommendations?") for r in tmdb.requests)
    assert any(r.startswith("/3/movie/550/similar?") for r in tmdb.requests)
    assert error_of(client.call, "movies.similar", movieId=0).field == "movieId"


def test_find_by_imdb_id(live, tmdb):
    client = live()
    movie = client.call("movies.find", imdbId="tt0137523")
    assert movie["id"] == 550 and movie["title"] == "Fight Club" and movie["source"] == "network"
    assert "external_source=imdb_id" in tmdb.requests[-1]
    assert error_of(client.call, "movies.find", imdbId="tt9999999999").code == -32021
    before = len(api_requests(tmdb))
    for bad in ["0137523", "tt", "tt12a", "nm0000158", "tt0137523/../x"]:
        assert error_of(client.call, "movies.find", imdbId=bad).field == "imdbId"
    assert len(api_requests(tmdb)) == before


# -- people -------------------------------------------------------------------------------------------

def test_people_search_and_details_with_filmography_newest_first(live, tmdb):
    client = live()
    people = client.call("people.search", query="Performer 110")
    assert people["results"][0]["name"] == "Performer 110"
    assert people["results"][0]["profileUrl"].endswith("/w185/p110.jpg")
    person = client.call("people.details", personId=110)
    assert person["name"] == "Performer 110" and person["birthday"] == "1970-01-01" and person["deathday"] is None
    dates = [m["releaseDate"] for m in person["movies"]["cast"] if m["releaseDate"]]
    assert dates and dates == sorted(dates, reverse=True)
    assert all(m["character"] == "Role" for m in person["movies"]["cast"])
    assert tmdb.count("/3/person/110?") == 1 and "append_to_response=movie_credits" in tmdb.requests[-1]
    assert error_of(client.call, "people.search", query=" ").code == -32010
    assert error_of(client.call, "people.details", personId=99999).code == -32021


# -- movies.details include ---------------------------------------------------------------------------

def test_details_include_is_one_request_and_one_cache_entry(live, tmdb):
    client = live()
    plain = client.call("movies.details", movieId=550)
    assert not {"credits", "videos", "watchProviders", "certification", "externalIds"} & set(plain)
    full = client.call("movies.details", movieId=550, include=ALL_PARTS, region="US")
    detail_requests = [r for r in tmdb.requests if r.startswith("/3/movie/550")]
    assert len(detail_requests) == 2 and "append_to_response=" in detail_requests[1]
    for part in ["credits", "videos", "watch%2Fproviders", "release_dates", "external_ids"]:
        assert part in detail_requests[1]
    assert full["credits"]["cast"][0]["order"] == 0 and full["videos"][0]["type"] == "Trailer"
    assert list(full["watchProviders"]) == ["US"] and full["certification"] == "R"
    assert full["externalIds"]["imdbId"] == "tt0137523"
    assert {k: v for k, v in full.items() if k in plain and k not in ("fetchedAt",)} == \
        {k: v for k, v in plain.items() if k != "fetchedAt"}
    # Any other choice of parts is the same stored entry: offline, it answers from the cache.
    tmdb.stop()
    germany = client.call("movies.details", movieId=550, include=["releaseDates", "watchProviders"], region="DE")
    assert germany["source"] == "cache" and germany["certification"] == "16" and "credits" not in germany
    every_region = client.call("movies.details", movieId=550, include=["watchProviders"])
    assert set(every_region["watchProviders"]) == {"US", "DE"}
    assert error_of(client.call, "movies.details", movieId=550, include=["reviews"]).field == "include[0]"


# -- faults -------------------------------------------------------------------------------------------

def test_new_methods_fall_back_to_the_cache_and_report_upstream_failures(live, tmdb):
    client = live()
    calls = [("movies.credits", {"movieId": 550}), ("movies.videos", {"movieId": 550}),
             ("movies.watchProviders", {"movieId": 550, "region": "US"}), ("movies.find", {"imdbId": "tt0137523"}),
             ("movies.trending", {}), ("movies.topRated", {}), ("people.details", {"personId": 110}),
             ("movies.discover", {"genreIds": [18]}), ("movies.search", {"query": "fight"})]
    fresh = {method: client.call(method, params) for method, params in calls}
    tmdb.set_fault("500")
    for method, params in calls:
        cached = client.call(method, params)
        assert cached["source"] == "cache" and cached["fetchedAt"] == fresh[method]["fetchedAt"], method
    assert error_of(client.call, "movies.credits", movieId=13).code == -32031
    tmdb.set_fault(None)
    tmdb.stop()
    for method, params in calls:
        assert client.call(method, params)["source"] == "cache", method
    assert error_of(client.call, "movies.videos", movieId=13).code == -32030


def test_a_429_is_honoured_then_answered(live, tmdb):
    client = live()
    tmdb.set_fault("429", times=1, retry_after=1)
    assert client.call("movies.credits", movieId=550)["cast"]
    assert tmdb.count("/3/movie/550/credits") == 2


def test_a_timeout_is_offline(live, tmdb):
    client = live()
    tmdb.set_fault("slow", delay=4)
    error = error_of(client.call, "movies.trending")
    assert error.code == -32030


# -- the demo catalog ---------------------------------------------------------------------------------

@pytest.mark.parametrize("method, params", [
    ("movies.credits", {"movieId": 550}), ("movies.videos", {"movieId": 550}),
    ("movies.watchProviders", {"movieId": 550, "region": "US"}), ("people.search", {"query": "Brad"}),
    ("people.details", {"personId": 287}), ("movies.details", {"movieId": 550, "include": ["credits"]}),
    ("movies.details", {"movieId": 550, "include": ["externalIds", "videos"]}),
    ("movies.nowPlaying", {}), ("movies.upcoming", {}),
])
def test_the_demo_refuses_what_it_does_not_have(client, method, params):
    error = error_of(client.call, method, params)
    assert error.code == -32034 and error.kind == "unavailableInDemo"
    assert "TMDB_API_KEY" in error.message


def test_the_demo_answers_what_its_data_holds(client):
    assert client.call("movies.find", imdbId="tt0137523")["id"] == 550
    assert error_of(client.call, "movies.find", imdbId="tt0000001").code == -32021
    top = client.call("movies.topRated")["results"]
    assert [m["voteAverage"] for m in top] == sorted((m["voteAverage"] for m in top), reverse=True)
    assert client.call("movies.trending", window="week")["source"] == "demo"
    fight_club = client.call("movies.details", movieId=550, include=["externalIds"])
    assert fight_club["externalIds"]["imdbId"] == "tt0137523"
    related = client.call("movies.recommendations", movieId=550)["results"]
    assert related and all(18 in m["genreIds"] for m in related)
