"""Offline search over real pipes (#12): movies cached by different methods (a popular page, a genre page,
details, a favorite) are found by movies.search after the fake TMDB stops, with source "cache" and
complete false; cacheOnly answers from the index without asking TMDB; the index outlives the process;
the demo catalog searches its own movies with the same rules."""
from __future__ import annotations

import pytest


@pytest.fixture
def live(live):
    """conftest's live servers, with cheap password hashes for the tests that log in."""
    return lambda **env: live(**{"MOVIE_RPC_PASSWORD_ITERATIONS": "1000", **env})


LEON, SHAWSHANK, PUSS_IN_BOOTS, DOMINION, GODFATHER = 101, 278, 315162, 507086, 238


def ids(page: dict) -> list[int]:
    return [movie["id"] for movie in page["results"]]


def cache_by_four_methods(client) -> None:
    client.call("movies.popular", page=1)              # Jurassic World Dominion is on it
    client.call("movies.byGenre", genreId=16)          # Animation: Puss in Boots: The Last Wish
    client.call("movies.details", movieId=LEON)        # Léon: The Professional
    client.auth_register("ada@example.com", "pw-ada")
    client.call("favorites.add", movieId=SHAWSHANK)    # The Shawshank Redemption


def test_offline_search_finds_movies_cached_by_different_methods(live, tmdb):
    client = live()
    cache_by_four_methods(client)
    tmdb.stop()
    for query, movie in [("leon", LEON), ("LÉON", LEON), ("shawshank", SHAWSHANK), ("shaw", SHAWSHANK),
                         ("puss in boots", PUSS_IN_BOOTS), ("jura", DOMINION)]:
        page = client.call("movies.search", query=query)
        assert page["source"] == "cache" and page["complete"] is False, query
        assert ids(page)[0] == movie, (query, ids(page))
    # Never stored here: an honest empty page, not an error.
    nothing = client.call("movies.search", query="godfather")
    assert nothing["results"] == [] and nothing["totalResults"] == 0 and nothing["complete"] is False
    # The filters work on the index too.
    assert ids(client.call("movies.search", query="leon", year=1994)) == [LEON]
    assert ids(client.call("movies.search", query="leon", year=1995)) == []
    assert LEON not in ids(client.call("movies.search", query="leon", language="fr"))


@pytest.mark.parametrize("query", ['"', "AND", "*", "NEAR(leon", "{title}: leon", "🎬", "x" * 500])
def test_offline_search_takes_any_query(live, tmdb, query):
    client = live()
    client.call("movies.details", movieId=LEON)
    tmdb.stop()
    page = client.call("movies.search", query=query)
    assert page["source"] == "cache" and page["complete"] is False


def test_cache_only_search_answers_from_the_index_without_asking_tmdb(live, tmdb):
    client = live()
    client.call("movies.details", movieId=LEON)
    before = len(tmdb.requests)
    page = client.call("movies.search", query="leon", cachePolicy="cacheOnly")
    assert page["source"] == "cache" and page["complete"] is False and ids(page) == [LEON]
    assert len(tmdb.requests) == before
    online = client.call("movies.search", query="leon")
    assert online["source"] == "network" and online["complete"] is True


def test_the_index_outlives_the_process(live, tmdb):
    first = live()
    cache_by_four_methods(first)
    first.close()
    tmdb.stop()
    second = live()
    assert ids(second.call("movies.search", query="shawshank")) == [SHAWSHANK]
    assert ids(second.call("movies.search", query="leon")) == [LEON]


def test_the_demo_searches_its_own_movies(client):
    page = client.call("movies.search", query="leon")
    assert page["source"] == "demo" and ids(page)[0] == LEON
    assert ids(client.call("movies.search", query="the godfather part"))[0] == 240
    assert ids(client.call("movies.search", query="godfather", year=1972)) == [GODFATHER]
    assert client.call("movies.search", query='"')["results"] == []


def test_the_demo_discovers_from_its_data_and_refuses_what_it_lacks(client):
    page = client.call("movies.discover", genreIds=[16], sortBy="vote_average.desc")
    assert page["source"] == "demo" and page["results"]
    assert all(16 in movie["genreIds"] for movie in page["results"])
    ratings = [movie["voteAverage"] for movie in page["results"]]
    assert ratings == sorted(ratings, reverse=True)
    error = None
    try:
        client.call("movies.discover", watchProviderIds=[8], watchRegion="US")
    except Exception as raised:  # RpcError
        error = raised
    assert error is not None and error.code == -32034
