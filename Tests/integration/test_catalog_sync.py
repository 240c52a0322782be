"""catalog.sync: trending and top rated pages, details with credits and videos of every saved movie, the
request pacing that keeps within TMDB's rate limit, and the budgets on what a client sends (#13 item 10)."""
from __future__ import annotations

import pytest

from conftest import error_of


@pytest.fixture
def live(live):
    """conftest's live servers, with a 5 s TMDB timeout: syncs wait for the pacing and for Retry-After."""
    return lambda **env: live(**{"MOVIE_RPC_TMDB_TIMEOUT": "5", **env})


# -- budgets (#13 item 10): each failed before the fix --------------------------------------------------

def test_repeated_genre_ids_are_fetched_once(live, tmdb):
    client = live()
    result = client.call("catalog.sync", popularPages=0, genres=[28] * 3000)
    assert result["pages"] == 1
    assert sum(1 for r in tmdb.requests if "with_genres=28" in r) == 1


def test_more_genres_than_tmdb_has_are_refused(live, tmdb):
    client = live()
    error = error_of(client.call, "catalog.sync", popularPages=0, genres=list(range(1, 25)))
    assert error.code == -32602 and error.field == "genres"
    assert not any("with_genres" in r for r in tmdb.requests)


def test_a_huge_genre_list_in_demo_mode_is_refused_not_answered(client):
    error = error_of(client.call, "catalog.sync", popularPages=0, genres=list(range(1, 100_001)))
    assert error.code == -32602 and error.field == "genres"


@pytest.mark.parametrize("token", ["x" * 300, "é" * 200], ids=["ascii", "two-byte"])
def test_a_long_progress_token_is_refused(client, token):
    error = error_of(client.call, "catalog.sync", popularPages=1, progressToken=token)
    assert error.code == -32602 and error.field == "progressToken"


def test_the_answer_is_bounded_however_many_steps_fail(live, tmdb):
    client = live()
    client.call("genres.list")  # so that the sync's genre list comes from the cache
    tmdb.set_fault("500")
    result = client.call("catalog.sync", popularPages=50, trending=20, topRated=20)
    assert result["failed"] == 90 and len(result["failures"]) == 20 and result["failuresOmitted"] == 70
    assert all(f["code"] == -32031 for f in result["failures"])


# -- trending, top rated, details ------------------------------------------------------------------------

def test_sync_saves_trending_top_rated_and_details_with_credits_and_videos(live, tmdb):
    client = live()
    result = client.call("catalog.sync", popularPages=1, trending=1, topRated=1, details=True, progressToken=7)
    assert result["failed"] == 0 and result["pages"] == 3 and result["movies"] == 60 and result["details"] > 20
    details_requests = [r for r in tmdb.requests if r.startswith("/3/movie/") and "append_to_response" in r]
    assert len(details_requests) == result["details"]
    done = []
    while len(done) < result["total"]:
        note = client.next_notification(timeout=10)
        if note.method == "$/progress":
            done.append(note.params["value"]["done"])
    assert done == sorted(done) and done[-1] == result["total"]
    tmdb.stop()
    some = details_requests[0].split("?")[0].rsplit("/", 1)[-1]
    answer = client.call("movies.details", movieId=int(some), include=["credits", "videos"])
    assert answer["source"] == "cache" and answer["credits"]["cast"] and answer["videos"]
    assert client.call("movies.trending")["source"] == "cache"
    assert client.call("movies.topRated")["source"] == "cache"


def test_sync_keeps_under_tmdbs_rate_limit(live, tmdb):
    tmdb.max_per_second = 40
    client = live()
    result = client.call("catalog.sync", popularPages=3, details=True)
    assert result["failed"] == 0 and result["details"] == 60
    assert tmdb.rate_limited == 0


def test_a_429_holds_every_request_back_until_its_retry_after(live, tmdb):
    tmdb.max_per_second = 8  # a stricter limit than the pacing: 429s come, and must be waited out
    client = live()
    result = client.call("catalog.sync", popularPages=1, details=True)
    assert result["failed"] == 0 and result["details"] == 20
    assert tmdb.rate_limited > 0 and tmdb.unhonoured_429s == 0
