"""The catalog over real pipes: demo mode, and live mode against the fake TMDB server with its faults."""
from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import pytest

from movie_rpc import RpcError
from conftest import TMDB_ACCESS_TOKEN as ACCESS_TOKEN, TMDB_API_KEY as API_KEY, error_of


# -- demo mode --------------------------------------------------------------------------------------

def test_demo_mode_serves_every_catalog_method_without_network(client):
    assert client.call("server.info")["catalog"] == "demo"
    genres = client.call("genres.list")
    assert len(genres["genres"]) == 19 and genres["source"] == "demo"
    assert {"id": 28, "name": "Action"} in genres["genres"]
    popular = client.call("movies.popular", page=1)
    assert len(popular["results"]) == 20 and popular["totalPages"] >= 3
    second = client.call("movies.popular", page=2)
    assert {m["id"] for m in popular["results"]}.isdisjoint(m["id"] for m in second["results"])
    for genre in genres["genres"]:
        page = client.call("movies.byGenre", genreId=genre["id"])
        assert len(page["results"]) == 20, genre
        assert all(genre["id"] in m["genreIds"] for m in page["results"])
    movie = popular["results"][0]
    details = client.call("movies.details", movieId=movie["id"])
    assert details["title"] == movie["title"] and details["overview"]
    latest = client.call("movies.latest")
    assert "posterPath" not in latest and "posterUrl" not in latest and latest["source"] == "demo"


def test_poster_urls_follow_the_requested_size_and_null_paths_give_null_urls(client):
    page = client.call("movies.popular", posterSize="w185")
    for movie in page["results"]:
        if movie["posterPath"]:
            assert movie["posterUrl"] == "https://image.tmdb.org/t/p/w185" + movie["posterPath"]
        else:
            assert movie["posterUrl"] is None
        if movie["backdropPath"] is None:
            assert movie["backdropUrl"] is None
    assert error_of(client.call, "movies.popular", posterSize="w9000").field == "posterSize"


@pytest.mark.parametrize("params, field", [
    ({"page": 0}, "page"), ({"page": 501}, "page"), ({"page": "2"}, "page"), ({"language": "english"}, "language"),
    ({"region": "us"}, "region"), ({"cachePolicy": "sometimes"}, "cachePolicy"), ({"pages": 1}, "pages"),
])
def test_invalid_list_params_name_the_field(client, params, field):
    error = error_of(client.call, "movies.popular", params)
    assert error.code == -32602 and error.field == field


def test_unknown_movie_is_not_found(client):
    assert error_of(client.call, "movies.details", movieId=999999999).code == -32021
    assert error_of(client.call, "movies.byGenre", genreId=424242).code == -32021


# -- live mode against the fake TMDB ----------------------------------------------------------------

def test_live_mode_answers_from_the_network_and_clamps_total_pages(live, tmdb):
    client = live()
    assert client.call("server.info")["catalog"] == "tmdb"
    popular = client.call("movies.popular", page=3)
    assert popular["source"] == "network" and popular["stale"] is False
    assert popular["totalPages"] == 500 and popular["totalResults"] == 760569
    assert tmdb.count("/3/movie/popular?") == 1
    assert client.call("genres.list")["source"] == "network"
    assert client.call("movies.byGenre", genreId=28)["results"]
    assert any("with_genres=28" in r for r in tmdb.requests)
    assert client.call("movies.details", movieId=550)["title"] == "Fight Club"
    latest = client.call("movies.latest")
    assert latest["title"] == "Untitled Short" and latest["runtime"] == 0 and latest["releaseDate"] == ""


def test_bearer_token_is_sent_as_a_header(make_client, tmdb):
    client = make_client("newline", env={"TMDB_ACCESS_TOKEN": ACCESS_TOKEN, "TMDB_BASE_URL": tmdb.base_url})
    assert client.call("genres.list")["source"] == "network"
    assert all("api_key" not in r for r in tmdb.requests)


def test_network_failure_falls_back_to_cache_then_recovers(live, tmdb):
    client = live()
    fresh = client.call("movies.popular", page=1)
    tmdb.stop()
    cached = client.call("movies.popular", page=1)
    assert cached["source"] == "cache" and cached["results"] == fresh["results"]
    assert cached["fetchedAt"] == fresh["fetchedAt"]
    error = error_of(client.call, "movies.popular", page=2)
    assert error.code == -32030 and error.kind == "offlineNotCached"
    tmdb.start()
    # The offline window is short in tests; networkOnly asks TMDB at once.
    assert client.call("movies.popular", page=1, cachePolicy="networkOnly")["source"] == "network"
    assert client.call("movies.popular", page=1)["source"] == "network"


def test_cache_survives_a_restart(live, tmdb):
    first = live()
    first.call("genres.list")
    first.close()
    tmdb.stop()
    second = live()
    answer = second.call("genres.list")
    assert answer["source"] == "cache" and len(answer["genres"]) == 19


def test_languages_are_cached_separately(live, tmdb):
    client = live()
    english = client.call("genres.list", language="en-US")
    german = client.call("genres.list", language="de-DE")
    assert {"id": 35, "name": "Komödie"} in german["genres"]
    assert {"id": 35, "name": "Comedy"} in english["genres"]
    tmdb.stop()
    assert {"id": 35, "name": "Komödie"} in client.call("genres.list", language="de-DE")["genres"]
    assert {"id": 35, "name": "Comedy"} in client.call("genres.list", language="en-US")["genres"]


def test_cache_policies(live, tmdb):
    client = live()
    error = error_of(client.call, "genres.list", cachePolicy="cacheOnly")
    assert error.code == -32030
    client.call("genres.list")
    calls = tmdb.count("/3/genre/movie/list")
    assert client.call("genres.list", cachePolicy="cacheFirst")["source"] == "cache"
    assert client.call("genres.list", cachePolicy="cacheOnly")["source"] == "cache"
    assert tmdb.count("/3/genre/movie/list") == calls
    tmdb.stop()
    assert error_of(client.call, "genres.list", cachePolicy="networkOnly").code == -32030


def test_http_500_serves_cache_or_reports_upstream_error(live, tmdb):
    client = live()
    client.call("movies.popular", page=1)
    tmdb.set_fault("500")
    assert client.call("movies.popular", page=1)["source"] == "cache"
    error = error_of(client.call, "movies.popular", page=4)
    assert error.code == -32031 and error.data["httpStatus"] == 500 and error.data["retryable"] is True


def test_unauthorized_and_not_found(live, tmdb):
    client = live()
    tmdb.set_fault("401")
    error = error_of(client.call, "genres.list")
    assert error.code == -32032 and API_KEY not in error.message
    tmdb.set_fault(None)
    assert error_of(client.call, "movies.details", movieId=987654321).code == -32021


def test_rate_limit_is_retried_then_reported(live, tmdb):
    client = live()
    tmdb.set_fault("429", times=1, retry_after=1)
    assert client.call("genres.list")["source"] == "network"
    tmdb.set_fault("429", retry_after=1)
    error = error_of(client.call, "movies.popular", page=7)
    assert error.code == -32033 and error.kind == "rateLimited"


def test_malformed_upstream_json_is_an_upstream_error(live, tmdb):
    client = live()
    tmdb.set_fault("garbage")
    error = error_of(client.call, "movies.popular", page=9)
    assert error.code == -32031
    tmdb.set_fault(None)
    assert client.call("server.info")["name"] == "movie-rpc"


def test_dropped_connection_counts_as_offline(live, tmdb):
    client = live()
    tmdb.set_fault("drop")
    assert error_of(client.call, "movies.popular", page=11).code in (-32030, -32031)
    tmdb.set_fault(None)


def test_a_slow_request_can_be_cancelled_while_others_proceed(live, tmdb):
    # The slow answer comes after 15 s (the TMDB timeout is 30 s): "promptly" is 10 s, loose enough for a
    # loaded machine and still far from both.
    client = live(MOVIE_RPC_TMDB_TIMEOUT="30")
    tmdb.set_fault("slow", delay=15.0, times=1)
    slow = client.request_async("movies.popular", page=12)
    started = time.monotonic()
    assert client.call("server.info")["name"] == "movie-rpc"  # not held up by the slow one
    client.cancel(slow)
    with pytest.raises(RpcError) as info:
        client.wait(slow, timeout=10)
    assert info.value.code == -32800
    assert time.monotonic() - started < 10


def test_identical_concurrent_requests_share_one_fetch(live, tmdb):
    client = live()
    tmdb.set_fault("slow", delay=0.5, times=1)
    pending = [client.request_async("movies.popular", page=13) for _ in range(8)]
    results = [client.wait(p, timeout=10) for p in pending]
    assert all(r["results"] == results[0]["results"] for r in results)
    assert tmdb.count("/3/movie/popular?") == 1


def test_catalog_sync_prefetches_for_offline_use_with_progress(live, tmdb):
    client = live()
    result = client.call("catalog.sync", popularPages=2, genres=[28, 35], progressToken="sync-1")
    assert result == {**result, "total": 5, "succeeded": 5, "failed": 0, "pages": 4}
    progress = []
    while len(progress) < 5:
        note = client.next_notification(timeout=5)
        if note.method == "$/progress":
            assert note.params["token"] == "sync-1"
            progress.append(note.params["value"]["done"])
    assert progress == [1, 2, 3, 4, 5]
    tmdb.stop()
    assert client.call("movies.popular", page=2)["source"] == "cache"
    assert client.call("movies.byGenre", genreId=35)["source"] == "cache"


def test_images_are_downloaded_once_and_served_from_disk(live, tmdb, home):
    client = live(TMDB_IMAGE_BASE_URL=tmdb.image_base_url)
    first = client.call("images.fetch", path="/poster123.jpg", size="w185")
    assert first["source"] == "network" and first["bytes"] > 0 and first["contentType"] == "image/jpeg"
    assert Path(first["file"]).is_file() and str(home) in first["file"]
    assert oct(os.stat(first["file"]).st_mode & 0o777) == "0o600"
    tmdb.stop()
    second = client.call("images.fetch", path="/poster123.jpg", size="w185")
    assert second["source"] == "cache" and second["file"] == first["file"]
    assert error_of(client.call, "images.fetch", path="/../../etc/passwd").code == -32602


def test_no_credential_in_any_output_or_database_file(live, tmdb, home):
    client = live()
    client.call("catalog.sync", popularPages=1, genres=[18])
    tmdb.set_fault("401")
    with pytest.raises(RpcError):
        client.call("movies.details", movieId=551)
    client.close()
    assert API_KEY not in client.stderr_tail()
    for path in home.rglob("*"):
        if path.is_file():
            assert API_KEY.encode() not in path.read_bytes(), path
    with sqlite3.connect(home / "movie-rpc.sqlite") as db:
        keys = [row[0] for row in db.execute("SELECT key FROM catalog_cache")]
    assert keys and all(API_KEY not in key for key in keys)
    assert oct(os.stat(home).st_mode & 0o777) == "0o700"
    assert oct(os.stat(home / "movie-rpc.sqlite").st_mode & 0o777) == "0o600"
