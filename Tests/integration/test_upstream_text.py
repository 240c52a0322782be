"""What TMDB sends back reaches clients only checked: its status_message cleaned of terminal escapes and
invisible characters, capped, and without the credential in any encoding or any piece of it; totals below
zero clamped to the schema's minimum."""
from __future__ import annotations

import json
import urllib.parse

import pytest

from movie_rpc import RpcError
from conftest import TMDB_API_KEY as API_KEY


@pytest.fixture
def live(make_client, tmdb):
    return make_client("newline", env={"TMDB_API_KEY": API_KEY, "TMDB_BASE_URL": tmdb.base_url,
                                       "MOVIE_RPC_TMDB_TIMEOUT": "5", "MOVIE_RPC_TMDB_MAX_RETRY_AFTER": "0"})


def lowercase_percent(text: str) -> str:
    return "".join("%%%02x" % ord(c) for c in text)


HOSTILE_ECHOES = [
    "\x1b]0;pwned\x07\x1b[2J\x1b[31mInvalid API key: " + lowercase_percent(API_KEY) + "\x1b[0m",
    "Invalid API key " + urllib.parse.quote(API_KEY[:10]) + "\u202e" + API_KEY[10:20].upper(),
    "echo: api_key=" + API_KEY[:14],
]


def assert_clean(message: str) -> None:
    assert len(message) <= 260, len(message)
    assert not any(ord(c) < 0x20 or 0x7f <= ord(c) <= 0x9f for c in message), repr(message)
    assert "\u202e" not in message and "\u200b" not in message, repr(message)
    lowered = message.lower()
    for start in range(len(API_KEY) - 7):
        assert API_KEY[start:start + 8] not in lowered, (message, API_KEY[start:start + 8])
    assert "%6" not in lowered and "%3" not in lowered, message


@pytest.mark.parametrize("status, code", [(401, -32032), (500, -32031), (400, -32031)])
@pytest.mark.parametrize("echo", HOSTILE_ECHOES, ids=["escapes+lowercase-percent", "prefix+bidi", "cut-off"])
def test_status_messages_are_cleaned_capped_and_redacted(live, tmdb, status, code, echo):
    body = json.dumps({"success": False, "status_code": 7, "status_message": echo + "A" * (1 << 20)})
    tmdb.answer_raw(status, body.encode())
    with pytest.raises(RpcError) as info:
        live.call("movies.popular", page=1, cachePolicy="networkOnly")
    assert info.value.code == code, info.value
    assert_clean(info.value.message)
    assert "<redacted>" in info.value.message, info.value.message


def test_negative_totals_are_clamped_to_zero(live, tmdb):
    tmdb.answer_raw(200, json.dumps({"page": 1, "results": [], "total_pages": -3, "total_results": -1}).encode())
    page = live.call("movies.popular", page=1, cachePolicy="networkOnly")
    assert page["totalPages"] == 0 and page["totalResults"] == 0
    byGenre = live.call("movies.byGenre", genreId=18, cachePolicy="networkOnly")
    assert byGenre["totalPages"] == 0 and byGenre["totalResults"] == 0
