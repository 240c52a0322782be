"""The blocking client's generated helpers over the real server on the demo catalog: snake_case keywords
reach the wire as camelCase, and every result matches its schema in schema/openrpc.json."""

from __future__ import annotations

import sys
from typing import Any, Dict

import pytest

from movie_rpc import OMIT, Client, ErrorCode, RpcError

from conftest import FAKE_SERVER

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema checks results against the document")


def result_validator(document: Dict[str, Any]) -> Any:
    methods = {method["name"]: method for method in document["methods"]}

    def validate(method: str, result: Any) -> None:
        schema = dict(methods[method]["result"]["schema"], components=document["components"])
        jsonschema.validate(result, schema)

    return validate


def test_helpers_send_wire_names_and_leave_out_unset_params() -> None:
    with Client(FAKE_SERVER, timeout=10) as fake:
        # The fake answers only echo: the helpers' messages are checked through call()'s wire form.
        assert fake.call("echo", movieId=1) == {"hasParams": True, "params": {"movieId": 1}}
        sent: Dict[str, Any] = {}
        fake._call_method = lambda method, params: sent.update(method=method, params=params)  # type: ignore
        fake.movies_details(movie_id=550, poster_size="w92")
        assert sent == {"method": "movies.details", "params": {"movieId": 550, "posterSize": "w92"}}
        fake.events_list(user_id=None)
        assert sent["params"] == {"userId": None}  # None is a value for a nullable param
        fake.events_list(user_id=OMIT, limit=3)
        assert sent["params"] == {"limit": 3}


def test_typed_helpers_over_the_demo_catalog(binary: str, demo_env: Dict[str, Any],
                                             document: Dict[str, Any]) -> None:
    with Client(binary, env=demo_env, result_validator=result_validator(document)) as client:
        assert client.server_info()["catalog"] == "demo"
        genres = client.genres_list()["genres"]
        assert len(genres) == 19
        page = client.movies_by_genre(genre_id=genres[0]["id"], poster_size="w92")
        assert page["results"] and all(m["posterUrl"] is None or "/w92/" in m["posterUrl"]
                                       for m in page["results"])
        details = client.movies_details(movie_id=page["results"][0]["id"], cache_policy="cacheFirst")
        assert details["id"] == page["results"][0]["id"]
        client.auth_register("ada@example.com", "secret-1", password_confirmation="secret-1")
        client.favorites_add(movie_id=details["id"])
        assert client.favorites_contains(movie_ids=[details["id"]])["contains"] == {str(details["id"]): True}
        assert "sections" in client.favorites_list(group_by="genre")
        assert client.events_list(limit=2)["events"]
        assert client.call("movies.popular", page=2, posterSize="w92")["page"] == 2  # call keeps wire names


def test_errors_carry_an_int_enum_code(client: Client) -> None:
    with pytest.raises(RpcError) as caught:
        client.movies_details(movie_id=987654321)
    assert caught.value.code == ErrorCode.NOT_FOUND
    with pytest.raises(RpcError) as caught:
        client.movies_popular(page=0)
    assert (caught.value.code, caught.value.field) == (ErrorCode.INVALID_PARAMS, "page")


def test_movies_search_when_the_server_has_it(client: Client, document: Dict[str, Any]) -> None:
    if "movies.search" not in client.method_names():
        pytest.skip("this server's rpc.discover does not list movies.search yet")
    search = getattr(client, "movies_search", None)
    assert search is not None, "movies.search is served: run python3 scripts/gen-python-client.py"
    page = search(query="fight", primary_release_year=1999)
    assert "Fight Club" in [movie["title"] for movie in page["results"]]
