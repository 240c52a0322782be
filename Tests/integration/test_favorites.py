"""Favorites over real pipes: add/remove/list/contains, duplicates, grouping by genre, isolation between
users, offline use across restarts, and the login requirement. The demo catalog (no TMDB credential)
needs no network."""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Dict, Optional

import pytest

from movie_rpc import RpcError
from conftest import error_of

LOCAL: Dict[str, Optional[str]] = {
    "MOVIE_RPC_PASSWORD_ITERATIONS": "1000", "FIREBASE_API_KEY": None, "FIREBASE_AUTH_EMULATOR_HOST": None,
}
FIGHT_CLUB, FORREST_GUMP, BLACK_PHONE = 550, 13, 756999


def count(home: Path, sql: str, *args) -> int:
    connection = sqlite3.connect(str(home / "movie-rpc.sqlite"), timeout=10)
    try:
        return connection.execute(sql, args).fetchone()[0]
    finally:
        connection.close()


def edit(home: Path, sql: str) -> None:
    """Changes the database with plain SQL, as another program would."""
    connection = sqlite3.connect(str(home / "movie-rpc.sqlite"), timeout=10)
    try:
        with connection:
            connection.execute(sql)
    finally:
        connection.close()


@pytest.fixture
def start(make_client):
    def start(env: Optional[Dict[str, Optional[str]]] = None, **options):
        changes = dict(LOCAL)
        changes.update(env or {})
        return make_client(env=changes, **options)
    return start


@pytest.fixture
def ada(start):
    client = start()
    client.auth_register("ada@example.com", "pw-ada")
    return client


def ids(listing) -> list:
    return [favorite["movieId"] for favorite in listing["favorites"]]


def test_add_returns_the_favorite_with_its_movie(ada):
    favorite = ada.favorites_add(FIGHT_CLUB)
    assert set(favorite) == {"movieId", "addedAt", "movie"}
    assert favorite["movieId"] == FIGHT_CLUB
    assert favorite["movie"]["id"] == FIGHT_CLUB and favorite["movie"]["title"] == "Fight Club"
    assert favorite["movie"]["posterUrl"].startswith("https://image.tmdb.org/t/p/w500/")
    assert ada.favorites_list() == {"favorites": [favorite]}


def test_adding_twice_is_refused_and_nothing_is_duplicated(ada, home):
    ada.favorites_add(FIGHT_CLUB)
    error = error_of(ada.favorites_add, FIGHT_CLUB)
    assert error.code == -32020 and error.kind == "alreadyFavorite" and error.data["movieId"] == FIGHT_CLUB
    assert ids(ada.favorites_list()) == [FIGHT_CLUB]
    assert count(home, "SELECT count(*) FROM favorites") == 1


def test_concurrent_adds_store_one(ada, home):
    pending = [ada.request_async("favorites.add", {"movieId": FORREST_GUMP}) for _ in range(6)]
    outcomes = []
    for request in pending:
        try:
            outcomes.append(ada.wait(request)["movieId"])
        except RpcError as error:
            outcomes.append(error.code)
    assert sorted(outcomes, key=str) == sorted([FORREST_GUMP] + [-32020] * 5, key=str)
    assert count(home, "SELECT count(*) FROM favorites") == 1


def test_unknown_movies_and_missing_favorites_are_not_found(ada):
    error = error_of(ada.favorites_add, 99999999)
    assert error.code == -32021 and error.kind == "notFound"
    error = error_of(ada.favorites_remove, FIGHT_CLUB)
    assert error.code == -32021
    assert error_of(ada.favorites_add, 0).code == -32602
    assert error_of(ada.call, "favorites.add", {"movieId": "550"}).code == -32602


def test_remove_then_add_again(ada):
    ada.favorites_add(FIGHT_CLUB)
    ada.favorites_add(FORREST_GUMP)
    assert ada.favorites_remove(FIGHT_CLUB) == {"movieId": FIGHT_CLUB, "removed": True}
    assert ids(ada.favorites_list()) == [FORREST_GUMP]
    ada.favorites_add(FIGHT_CLUB)
    assert ids(ada.favorites_list()) == [FIGHT_CLUB, FORREST_GUMP]  # newest first


def test_list_grouped_by_genre_is_a_table_with_headers(ada):
    ada.favorites_add(FIGHT_CLUB)     # Drama
    ada.favorites_add(FORREST_GUMP)   # Comedy, Drama, Romance
    ada.favorites_add(BLACK_PHONE)    # Horror, Thriller
    sections = ada.favorites_list(group_by="genre", poster_size="w92")["sections"]
    by_name = {section["genre"]["name"]: [f["movieId"] for f in section["movies"]] for section in sections}
    assert by_name == {"Comedy": [FORREST_GUMP], "Drama": [FORREST_GUMP, FIGHT_CLUB], "Horror": [BLACK_PHONE],
                       "Romance": [FORREST_GUMP], "Thriller": [BLACK_PHONE]}
    assert [section["genre"]["name"] for section in sections] == sorted(by_name)
    assert {section["genre"]["id"] for section in sections} == {35, 18, 27, 10749, 53}
    poster = sections[0]["movies"][0]["movie"]["posterUrl"]
    assert poster.startswith("https://image.tmdb.org/t/p/w92/")
    assert error_of(ada.favorites_list, group_by="year").code == -32602
    assert error_of(ada.favorites_list, poster_size="w1").code == -32602


def test_contains_answers_every_requested_id(ada):
    ada.favorites_add(FIGHT_CLUB)
    ada.favorites_add(FORREST_GUMP)
    assert ada.favorites_contains([FIGHT_CLUB, 1, FORREST_GUMP]) == {
        "contains": {"550": True, "1": False, "13": True}}
    many = ada.favorites_contains(list(range(1, 501)))["contains"]
    assert len(many) == 500 and [key for key, value in many.items() if value] == ["13"]
    for bad in ([], list(range(1, 502)), [0], [-5]):
        assert error_of(ada.favorites_contains, bad).code == -32602


def test_users_never_see_or_change_each_others_favorites(ada):
    ada.favorites_add(FIGHT_CLUB)
    ada.auth_logout()
    bob = ada.auth_register("bob@example.com", "pw-bob")["user"]
    assert ada.favorites_list() == {"favorites": []}
    assert ada.favorites_contains([FIGHT_CLUB]) == {"contains": {"550": False}}
    assert error_of(ada.favorites_remove, FIGHT_CLUB).code == -32021
    ada.favorites_add(FIGHT_CLUB)  # the same movie is Bob's own favorite, not a duplicate
    ada.favorites_add(FORREST_GUMP)
    assert ids(ada.favorites_list()) == [FORREST_GUMP, FIGHT_CLUB]
    ada.auth_login("ada@example.com", "pw-ada")
    assert ids(ada.favorites_list()) == [FIGHT_CLUB]
    assert ada.auth_status()["user"]["id"] != bob["id"]


def test_favorites_work_offline_across_restarts(start, home):
    client = start()
    client.auth_register("ada@example.com", "pw-ada")
    for movie in (FIGHT_CLUB, FORREST_GUMP, BLACK_PHONE):
        client.favorites_add(movie)
    listing = client.favorites_list()
    grouped = client.favorites_list(group_by="genre")
    client.close()
    # Restarted with TMDB configured but unreachable: the list comes from the database alone.
    offline = start({"TMDB_API_KEY": "offline-test-key", "TMDB_BASE_URL": "http://127.0.0.1:1/3"})
    assert offline.favorites_list() == listing
    assert offline.favorites_list(group_by="genre") == grouped
    assert offline.favorites_contains([FIGHT_CLUB, 1]) == {"contains": {"550": True, "1": False}}
    assert offline.favorites_remove(BLACK_PHONE)["removed"] is True
    assert ids(offline.favorites_list()) == [FORREST_GUMP, FIGHT_CLUB]


def test_every_favorites_method_needs_a_logged_in_user(start):
    client = start()
    calls = [(client.favorites_add, (FIGHT_CLUB,)), (client.favorites_remove, (FIGHT_CLUB,)),
             (client.favorites_list, ()), (client.favorites_contains, ([FIGHT_CLUB],))]
    for call, args in calls:
        error = error_of(call, *args)
        assert error.code == -32011 and error.kind == "loginRequired", call


def grouped_ids(listing) -> dict:
    return {section["genre"]["name"]: [f["movieId"] for f in section["movies"]] for section in listing["sections"]}


def test_lists_follow_every_change_whichever_process_makes_it(start, home):
    """favorites.list keeps its written answers; none may outlive a change by this process, another
    process on the same data directory, a plain SQL edit, or a change of user."""
    first = start()
    first.auth_register("ada@example.com", "pw-ada")
    first.favorites_add(FIGHT_CLUB)
    # Each variant answered (and kept) before every change below.
    variants = [{}, {"group_by": "genre"}, {"poster_size": "w92"}]

    def lists():
        return [first.favorites_list(**variant) for variant in variants]

    assert ids(lists()[0]) == [FIGHT_CLUB]
    second = start()  # another process: the directory's session logs it in as Ada
    second.favorites_add(FORREST_GUMP)
    plain, grouped, small = lists()
    assert ids(plain) == [FORREST_GUMP, FIGHT_CLUB] and ids(small) == [FORREST_GUMP, FIGHT_CLUB]
    assert grouped_ids(grouped)["Drama"] == [FORREST_GUMP, FIGHT_CLUB]
    assert small["favorites"][0]["movie"]["posterUrl"].startswith("https://image.tmdb.org/t/p/w92/")
    assert plain["favorites"][0]["movie"]["posterUrl"].startswith("https://image.tmdb.org/t/p/w500/")

    second.favorites_remove(FIGHT_CLUB)
    plain, grouped, small = lists()
    assert ids(plain) == [FORREST_GUMP] and ids(small) == [FORREST_GUMP]
    assert grouped_ids(grouped)["Drama"] == [FORREST_GUMP]

    edit(home, "UPDATE favorites SET movie_json = json_set(movie_json, '$.title', 'Renamed')")
    assert all(listing["favorites"][0]["movie"]["title"] == "Renamed" for listing in (lists()[0], lists()[2]))

    first.favorites_add(BLACK_PHONE)  # this process's own change
    assert ids(first.favorites_list()) == [BLACK_PHONE, FORREST_GUMP]
    assert ids(second.favorites_list()) == [BLACK_PHONE, FORREST_GUMP]

    first.auth_logout()
    first.auth_register("bob@example.com", "pw-bob")
    assert lists() == [{"favorites": []}, {"sections": []}, {"favorites": []}]
    first.auth_login("ada@example.com", "pw-ada")
    assert ids(first.favorites_list()) == [BLACK_PHONE, FORREST_GUMP]
    first.account_delete("pw-ada")
    first.auth_register("ada@example.com", "pw-ada")
    assert lists() == [{"favorites": []}, {"sections": []}, {"favorites": []}]


def test_contains_answers_follow_every_change_whichever_process_makes_it(start, home):
    """favorites.contains keeps its written answers per question; none may outlive a change by this
    process, another process on the same data directory, a plain SQL edit, or a change of user."""
    first = start()
    first.auth_register("ada@example.com", "pw-ada")
    first.favorites_add(FIGHT_CLUB)
    question = [FIGHT_CLUB, FORREST_GUMP, BLACK_PHONE, FIGHT_CLUB]

    def hearts(client=first):
        return {int(key) for key, value in client.favorites_contains(question)["contains"].items() if value}

    assert hearts() == {FIGHT_CLUB} and hearts() == {FIGHT_CLUB}  # the second one is the kept answer
    second = start()  # another process: the directory's session logs it in as Ada
    second.favorites_add(FORREST_GUMP)
    assert hearts() == {FIGHT_CLUB, FORREST_GUMP}
    second.favorites_remove(FIGHT_CLUB)
    assert hearts() == {FORREST_GUMP}
    edit(home, "DELETE FROM favorites")
    assert hearts() == set()
    first.favorites_add(BLACK_PHONE)  # this process's own change
    assert hearts() == {BLACK_PHONE} and hearts(second) == {BLACK_PHONE}
    first.auth_logout()
    first.auth_register("bob@example.com", "pw-bob")
    assert hearts() == set()
    first.auth_login("ada@example.com", "pw-ada")
    assert hearts() == {BLACK_PHONE}


def test_a_burst_of_adds_for_uncached_movies_all_succeed(start):
    """300 favorites.add at once, each needing its movie's details from TMDB: the server keeps at most six
    connections to one host (as URLSession did), so a server with a small accept queue (the fake's is 5)
    is not flooded with connections that it then drops, which used to time out ten of a thousand."""
    from fake_tmdb import FakeTMDB

    fake = FakeTMDB(api_key="burst-key", synthetic=True).start()
    try:
        client = start({"TMDB_API_KEY": "burst-key", "TMDB_BASE_URL": fake.base_url})
        client.auth_register("burst@example.com", "pw-burst")
        movies = [10_000_000 + index for index in range(300)]
        pending = [client.request_async("favorites.add", {"movieId": movie}) for movie in movies]
        added = [client.wait(request, timeout=30) for request in pending]
        assert sorted(favorite["movieId"] for favorite in added) == movies
        assert len(client.favorites_list()["favorites"]) == len(movies)
    finally:
        fake.stop()
