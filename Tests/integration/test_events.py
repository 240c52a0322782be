"""The activity log over real pipes: recording by other methods, events.* and hints.list, paging while
events arrive, durability on end of input and SIGTERM, retention."""
from __future__ import annotations

import collections
import json
import signal
import threading

import pytest

from movie_rpc import Call, RpcError
from conftest import error_of


def stamp(second: int, millis: int = 0) -> str:
    """An ISO 8601 timestamp ``second`` seconds after 2020-01-01T00:00:00Z (within that day): older than
    anything the server records now."""
    hours, rest = divmod(second, 3600)
    minutes, seconds = divmod(rest, 60)
    return "2020-01-01T%02d:%02d:%02d.%03dZ" % (hours, minutes, seconds, millis)


def all_pages(fetch, limit=500, **params):
    """Every event of a listing, following nextCursor to the end."""
    events, cursor = [], None
    while True:
        page = fetch(limit=limit, cursor=cursor, **params)
        events += page["events"]
        cursor = page["nextCursor"]
        if cursor is None:
            return events


def add_many(client, count, name="bulk", start=0, **extra):
    """Adds ``count`` events in batches; the i-th has params {"i": start + i} and a timestamp i seconds later."""
    for first in range(0, count, 200):
        calls = [Call("events.add", {"name": name, "timestamp": stamp(start + i), "params": {"i": start + i},
                                     **extra}) for i in range(first, min(count, first + 200))]
        for result in client.batch(calls):
            assert not isinstance(result, RpcError), result


def newest_first(events) -> bool:
    keys = [(event["timestamp"], event["id"]) for event in events]
    return all(a > b for a, b in zip(keys, keys[1:]))


# -- recording by other methods ----------------------------------------------------------------------

def test_methods_record_their_events_with_name_and_params(client):
    client.genres_list()
    popular = client.movies_popular(page=2)
    movie_id = popular["results"][0]["id"]
    client.movies_details(movie_id=movie_id)
    client.movies_by_genre(genre_id=28)
    client.movies_latest()

    events = client.events_list()["events"]
    assert [(e["name"], e["params"]) for e in events] == [
        ("latest.opened", {}),
        ("genre.opened", {"genreId": 28}),
        ("movie.viewed", {"movieId": movie_id}),
        ("popular.opened", {"page": 2}),
        ("genres.opened", {}),
    ]
    assert all(e["userId"] is None for e in events)
    assert newest_first(events)
    assert client.events_get(id=events[2]["id"]) == events[2]

    stats = client.events_stats()
    assert stats["total"] == 5 and {c["name"] for c in stats["counts"]} == {e["name"] for e in events}
    assert [e["name"] for e in client.events_search(query="POPULAR")["events"]] == ["popular.opened"]
    assert [e["name"] for e in client.events_search(query=str(movie_id))["events"]] == ["movie.viewed"]


def test_a_call_repeated_is_one_event_counting_its_repeats(client):
    """An editor polling one method, or a script's loop: one row with a count, not a row per call."""
    for _ in range(5):
        client.genres_list()
    client.events_add(name="tester.mark")  # an add ends the run
    for _ in range(3):
        client.genres_list()
    client.movies_popular(page=2)  # so does another event
    client.movies_popular(page=2)

    events = client.events_list()["events"]
    assert [(e["name"], e["repeats"]) for e in events] == [
        ("popular.opened", 2), ("genres.opened", 3), ("tester.mark", 1), ("genres.opened", 5)]
    assert all(e["lastTimestamp"] >= e["timestamp"] for e in events)
    assert events[2]["lastTimestamp"] == events[2]["timestamp"]
    assert client.events_get(id=events[3]["id"]) == events[3]
    counts = {c["name"]: c["count"] for c in client.events_stats()["counts"]}
    assert counts == {"genres.opened": 8, "popular.opened": 2, "tester.mark": 1}
    assert client.events_stats()["total"] == 11
    # Deleting a run takes all of its occurrences.
    assert client.events_delete(ids=[events[3]["id"]])["deleted"] == [events[3]["id"]]
    assert client.events_stats()["total"] == 6


def test_failed_calls_record_nothing(client):
    error_of(client.movies_popular, page=0)
    error_of(client.movies_details, movie_id=-1)
    assert client.events_list()["events"] == []


# -- events.add ---------------------------------------------------------------------------------------

def test_added_events_round_trip_with_every_value_type(client):
    params = {"int": -42, "double": 2.5, "string": "Ünïcode / \"quoted\" \\ 100%", "bool": False,
              "array": [1, 0.25, "two", True], "empty": []}
    added = client.events_add(name="tester.note", timestamp="2020-06-01T10:10:00.1239+02:00", params=params)
    assert added["name"] == "tester.note" and added["params"] == params and added["userId"] is None
    assert added["timestamp"] == "2020-06-01T08:10:00.123Z"
    assert client.events_get(id=added["id"]) == added
    assert client.events_list()["events"] == [added]

    now = client.events_add(name="no.timestamp")
    assert now["params"] == {} and now["timestamp"] > added["timestamp"]


INVALID_ADDS = [
    # (params of events.add, code, field)
    ({"name": ""}, -32010, "name"),
    ({"name": "n" * 201}, -32010, "name"),
    ({"name": "line\nbreak"}, -32010, "name"),
    ({"name": "ok", "timestamp": "yesterday"}, -32010, "timestamp"),
    ({"name": "ok", "timestamp": "2026-13-45T99:00:00Z"}, -32010, "timestamp"),
    ({"name": "ok", "params": {"k%d" % i: i for i in range(101)}}, -32010, "params"),
    ({"name": "ok", "params": {"s": "x" * 10001}}, -32010, "params.s"),
    ({"name": "ok", "params": {"l": ["fine", "x" * 10001]}}, -32010, "params.l[1]"),
    ({"name": "ok", "params": {"": 1}}, -32010, "params"),
    ({"name": "ok", "params": {"k" * 201: 1}}, -32010, "params"),
    ({}, -32602, "name"),
    ({"name": 5}, -32602, "name"),
    ({"name": None}, -32602, "name"),
    ({"name": "ok", "timestamp": 1796026200000}, -32602, "timestamp"),
    ({"name": "ok", "params": "a string"}, -32602, "params"),
    ({"name": "ok", "params": [1, 2]}, -32602, "params"),
    ({"name": "ok", "params": {"a": {"nested": 1}}}, -32602, "params.a"),
    ({"name": "ok", "params": {"a": None}}, -32602, "params.a"),
    ({"name": "ok", "params": {"a": [1, None]}}, -32602, "params.a"),
    ({"name": "ok", "params": {"a": [[1]]}}, -32602, "params.a"),
    ({"name": "ok", "params": {"a": [{"b": 1}]}}, -32602, "params.a"),
    ({"name": "ok", "userId": "someone"}, -32602, "userId"),
]


@pytest.mark.parametrize("params, code, field", INVALID_ADDS, ids=[
    "%s-%s" % (field, index) for index, (_, _, field) in enumerate(INVALID_ADDS)])
def test_every_invalid_add_names_the_field_and_stores_nothing(client, params, code, field):
    error = error_of(client.call, "events.add", params)
    assert error.code == code, error
    if code == -32010:
        assert error.kind == "validationFailed"
        assert [f["field"] for f in error.fields] == [field]
    else:
        assert error.kind == "invalidParams" and error.field == field
    assert client.events_stats()["total"] == 0


def test_every_failing_field_is_listed_at_once(client):
    error = error_of(client.events_add, name="", timestamp="never", params={"s": "x" * 10001, "ok": 1})
    assert error.code == -32010
    assert [f["field"] for f in error.fields] == ["timestamp", "name", "params.s"]
    assert all(f["problem"] for f in error.fields)


def test_limits_themselves_are_accepted(client):
    params = {"k%d" % i: i for i in range(100)}
    params["k0"] = "é" * 10000
    added = client.events_add(name="n" * 200, params=params)
    assert client.events_get(id=added["id"])["params"] == params


# -- paging, search, get/delete, stats ----------------------------------------------------------------

def test_paging_while_events_are_added_and_recorded_has_no_duplicates_and_no_gaps(make_client):
    client = make_client()
    add_many(client, 1500)
    original = {e["id"] for e in all_pages(client.events_list)}
    assert len(original) == 1500

    stop = threading.Event()
    failures = []

    def keep_writing():
        i = 0
        try:
            while not stop.is_set():
                # Newer than everything, and inside the range being paged.
                client.events_add(name="late", timestamp=stamp(5000 + i), params={"i": i})
                client.events_add(name="late", timestamp=stamp(i % 1500, 500), params={"i": i})
                client.movies_popular(page=1 + i % 3)
                i += 1
        except Exception as error:  # reported by the main thread
            failures.append(error)

    writer = threading.Thread(target=keep_writing)
    writer.start()
    try:
        seen, cursor, pages = [], None, 0
        while True:
            page = client.events_list(limit=23, cursor=cursor)
            assert len(page["events"]) <= 23
            seen += page["events"]
            cursor = page["nextCursor"]
            pages += 1
            if cursor is None:
                break
    finally:
        stop.set()
        writer.join()
    assert not failures, failures
    ids = [e["id"] for e in seen]
    assert len(ids) == len(set(ids)), "an event was returned twice"
    assert original <= set(ids), "an event that existed when paging started was skipped"
    assert newest_first(seen)
    assert pages >= 1500 // 23


def test_list_filters_and_param_checks(client):
    add_many(client, 30, name="a")
    add_many(client, 20, name="b", start=100)
    client.genres_list()
    assert len(all_pages(client.events_list, limit=7, name="a")) == 30
    assert len(all_pages(client.events_list, limit=7, user_id=None)) == 51
    assert all_pages(client.events_list, user_id="nobody") == []
    window = all_pages(client.events_list, limit=4, since=stamp(10), until=stamp(110))
    assert [e["params"]["i"] for e in window] == list(range(109, 99, -1)) + list(range(29, 9, -1))
    for params, field in [({"limit": 0}, "limit"), ({"limit": 501}, "limit"), ({"cursor": "garbage"}, "cursor"),
                          ({"since": "soon"}, "since"), ({"until": 5}, "until"), ({"name": 3}, "name"),
                          ({"userId": 7}, "userId"), ({"query": "x"}, "query"), ({"name": "n" * 201}, "name")]:
        error = error_of(client.call, "events.list", params)
        assert (error.code, error.field) == (-32602, field), params
    assert client.events_list(name="n" * 200)["events"] == [], "200 characters is the limit itself"


def test_concurrent_adds_are_each_answered_with_their_stored_event(client):
    """A batch runs its adds concurrently, so they are group-committed: each answer is the stored event and
    an invalid add among them fails alone."""
    calls = [Call("events.add", {"name": "group", "timestamp": stamp(i), "params": {"i": i}}) for i in range(300)]
    calls[123] = Call("events.add", {"name": "bad\u0001name", "params": {"i": 123}})
    results = client.batch(calls)
    assert isinstance(results[123], RpcError) and results[123].code == -32010
    added = [result for index, result in enumerate(results) if index != 123]
    assert not any(isinstance(result, RpcError) for result in added)
    assert len({event["id"] for event in added}) == 299
    stored = all_pages(client.events_list, limit=50, name="group")
    assert newest_first(stored)
    assert sorted(stored, key=lambda event: event["id"]) == sorted(added, key=lambda event: event["id"])


def test_search_reaches_records_far_past_the_first_page(client):
    client.events_add(name="movie.viewed", timestamp=stamp(0), params={"title": "The Needle-Zq Affair"})
    add_many(client, 2999, name="popular.opened", start=1)
    for query in ["needle-zq", "NEEDLE", "zq", "Z", "e-z"]:
        page = client.events_search(query=query, limit=5)
        assert [e["params"].get("title") for e in page["events"]] == ["The Needle-Zq Affair"], query
        assert page["nextCursor"] is None
    popular = all_pages(client.events_search, limit=500, query="popular.OPENED")
    assert len(popular) == 2999 and newest_first(popular)
    assert len({e["id"] for e in popular}) == 2999


def test_search_treats_wildcards_quotes_and_backslashes_literally(client):
    values = ["100%", "100x", "a_b", "aXb", "it's", "its", 'say "hi"', "say hi", "back\\slash", "backslash",
              "50%_off"]
    for i, value in enumerate(values):
        client.events_add(name="note", timestamp=stamp(i), params={"text": value})
    client.events_add(name="100% done", timestamp=stamp(100), params={'key"': 1})
    cases = {
        "%": {"100%", "50%_off", "name:100% done"},
        "0%": {"100%", "50%_off", "name:100% done"},
        "_": {"a_b", "50%_off"},
        "a_b": {"a_b"},
        "'": {"it's"},
        "t's": {"it's"},
        '"': {'say "hi"'},
        '"hi"': {'say "hi"'},
        "\\": {"back\\slash"},
        "k\\s": {"back\\slash"},
        "{": set(),
        "text": set(),
        "' OR 1=1 --": set(),
    }
    for query, want in cases.items():
        got = {e["params"].get("text", "name:" + e["name"]) for e in all_pages(client.events_search, query=query)}
        assert got == want, query


def test_search_param_checks(client):
    for query in ["", "q" * 201, "nul\x00", "unit\x1fsep"]:
        error = error_of(client.events_search, query=query)
        assert (error.code, error.field) == (-32602, "query"), repr(query)
    error = error_of(client.call, "events.search", {})
    assert (error.code, error.field) == (-32602, "query")
    assert client.events_search(query="q" * 200)["events"] == []


def test_delete_then_get(client):
    first = client.events_add(name="one")
    second = client.events_add(name="two")
    client.genres_list()
    recorded = client.events_list(name="genres.opened")["events"][0]
    result = client.events_delete(ids=[first["id"], 999999, first["id"], recorded["id"]])
    assert result == {"deleted": [first["id"], recorded["id"]], "notFound": [999999]}
    error = error_of(client.events_get, id=first["id"])
    assert (error.code, error.kind) == (-32021, "notFound")
    assert str(first["id"]) in error.message
    assert client.events_get(id=second["id"])["name"] == "two"
    assert [e["id"] for e in client.events_list()["events"]] == [second["id"]]
    assert client.events_delete(ids=[first["id"]]) == {"deleted": [], "notFound": [first["id"]]}
    for ids in [[], list(range(1, 1002)), "1", ["1"], [None]]:
        error = error_of(client.call, "events.delete", {"ids": ids})
        assert error.code == -32602 and error.field.startswith("ids"), ids
    third = client.events_add(name="three")
    assert third["id"] > recorded["id"], "ids are never reused"


def test_a_fractional_id_names_the_field(client):
    assert error_of(client.events_get, id=1.5).field == "id"
    assert error_of(client.events_delete, ids=[1, 2.5]).field.startswith("ids")


def test_stats_count_per_name_and_since(client):
    add_many(client, 12, name="b")
    add_many(client, 12, name="a", start=100)
    add_many(client, 3, name="c", start=200)
    assert client.events_stats() == {"counts": [{"name": "a", "count": 12}, {"name": "b", "count": 12},
                                                {"name": "c", "count": 3}], "total": 27}
    assert client.events_stats(since=stamp(105)) == {"counts": [{"name": "a", "count": 7},
                                                                {"name": "c", "count": 3}], "total": 10}
    assert error_of(client.events_stats, since="later").field == "since"


def test_hints_follow_the_features_used(client):
    every = ["popular", "genres", "details", "favorites", "offline"]
    hints = client.hints_list()["hints"]
    assert [h["id"] for h in hints] == every
    assert all(h["message"] and h["method"] and h["feature"] for h in hints)
    client.movies_popular(page=1)
    client.movies_by_genre(genre_id=28)
    assert [h["id"] for h in client.hints_list()["hints"]] == ["details", "favorites", "offline"]
    popular = client.events_list(name="popular.opened")["events"]
    client.events_delete(ids=[e["id"] for e in popular])
    assert [h["id"] for h in client.hints_list()["hints"]] == ["popular", "details", "favorites", "offline"]
    assert error_of(client.call, "hints.list", {"userId": "x"}).field == "userId"


# -- kept pages (issue #14) ---------------------------------------------------------------------------

def test_a_kept_page_follows_changes_by_this_and_another_server(make_client):
    """events.list keeps its written pages; each must follow an add, a delete and a recorded event of this
    server, and those of a second server on the same data directory (checked against the log's revision)."""
    first, second = make_client(), make_client()
    add_many(first, 60)
    page = first.events_list(limit=50)
    assert first.events_list(limit=50) == page  # kept

    theirs = second.events_add(name="second.server", timestamp=stamp(6000))
    page = first.events_list(limit=50)
    assert page["events"][0] == theirs
    assert first.events_list(limit=50) == page

    assert second.events_delete(ids=[theirs["id"]])["deleted"] == [theirs["id"]]
    page = first.events_list(limit=50)
    assert theirs["id"] not in [e["id"] for e in page["events"]]

    second.genres_list()  # recorded, buffered by the second server until it flushes
    assert second.events_list(limit=1)["events"][0]["name"] == "genres.opened"
    assert first.events_list(limit=1)["events"][0]["name"] == "genres.opened"

    mine = first.events_list(limit=50)["events"][0]
    first.events_delete(ids=[mine["id"]])
    assert mine["id"] not in [e["id"] for e in second.events_list(limit=50)["events"]]
    assert mine["id"] not in [e["id"] for e in first.events_list(limit=50)["events"]]


def test_two_users_never_share_a_kept_page(make_client):
    client = make_client(env={"MOVIE_RPC_PASSWORD_ITERATIONS": "1000"})
    client.auth_register(email="ada@example.com", password="secret!")
    adas = client.events_add(name="ada.only")
    assert client.events_list()["events"][0] == adas
    client.auth_logout()
    client.auth_register(email="bob@example.com", password="secret!")
    assert adas["id"] not in [e["id"] for e in client.events_list()["events"]]
    client.auth_logout()
    assert adas["id"] not in [e["id"] for e in client.events_list()["events"]]


# -- durability and retention ------------------------------------------------------------------------

def record_calls(client, count):
    """Makes ``count`` recorded calls in batches; returns the Counter of (name, params) they record."""
    page = client.movies_popular(page=1)
    movie_ids = [movie["id"] for movie in page["results"]]
    expected = collections.Counter({("popular.opened", json.dumps({"page": 1})): 1})
    calls = []
    for i in range(count - 1):
        if i % 2:
            calls.append(Call("movies.details", {"movieId": movie_ids[i % len(movie_ids)]}))
            expected[("movie.viewed", json.dumps({"movieId": movie_ids[i % len(movie_ids)]}))] += 1
        else:
            calls.append(Call("movies.popular", {"page": 1 + i % 3}))
            expected[("popular.opened", json.dumps({"page": 1 + i % 3}))] += 1
    for first in range(0, len(calls), 100):
        for result in client.batch(calls[first:first + 100]):
            assert not isinstance(result, RpcError), result
    return expected


def stored(client):
    """The Counter of (name, params) of every stored occurrence: a run of identical events is one row with
    its ``repeats``."""
    counts = collections.Counter()
    for e in all_pages(client.events_list):
        counts[(e["name"], json.dumps(e["params"]))] += e["repeats"]
    return counts


def test_nothing_recorded_is_lost_at_end_of_input(make_client):
    first = make_client()
    expected = record_calls(first, 1000)
    assert first.close() == 0  # end of input: answers what is in flight, flushes, exits
    second = make_client()
    assert stored(second) == expected
    assert second.events_stats()["total"] == 1000


@pytest.mark.parametrize("signal_number", [signal.SIGTERM, signal.SIGHUP])
def test_nothing_recorded_is_lost_on_a_termination_signal(make_client, signal_number):
    """SIGHUP (the terminal or editor went away) killed the server without flushing the event buffer."""
    first = make_client()
    expected = record_calls(first, 300)
    first.process.send_signal(signal_number)
    assert first.process.wait(10) == 0
    second = make_client()
    assert stored(second) == expected


def test_retention_keeps_the_newest_events(make_client):
    client = make_client(env={"MOVIE_RPC_MAX_EVENTS": "100"})
    add_many(client, 150)
    events = all_pages(client.events_list, limit=30)
    assert [e["params"]["i"] for e in events] == list(range(149, 49, -1))
    assert client.events_stats()["total"] == 100
    # Twenty recorded events, each unlike the one before it (an event recorded again right after itself
    # would be one row counting them).
    for _ in range(10):
        client.genres_list()
        client.movies_popular(page=1)
    events = all_pages(client.events_list)
    assert len(events) == 100
    assert sum(e["name"] in ("genres.opened", "popular.opened") for e in events) == 20
    assert all(e["repeats"] == 1 for e in events)
    assert min(e["params"]["i"] for e in events if e["name"] == "bulk") == 70
    assert client.events_search(query="bulk", limit=500)["events"] == [e for e in events if e["name"] == "bulk"]
