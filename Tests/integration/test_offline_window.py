"""Issue #13 item 12, second half: when TMDB stops answering, the requests already waiting for it are
answered from the cache as soon as the first of them finds it unreachable, instead of each waiting for a
timeout of its own behind the six connections per origin."""

from __future__ import annotations

from fake_tmdb import FakeTMDB

API_KEY = "offline-window-api-key"
PAGES = 60


def request(request_id, method, params=None):
    message = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def popular_pages(raw, first_id):
    messages = [request(first_id + page, "movies.popular", {"page": page, "cachePolicy": "networkFirst"})
                for page in range(1, PAGES + 1)]
    raw.write(b"".join(raw.encode(message) for message in messages))
    replies = {}
    while len(replies) < PAGES:
        reply = raw.next(timeout=120)
        replies[reply["id"]] = reply
    return replies


def test_waiting_network_first_requests_answer_from_the_cache_once_tmdb_is_found_unreachable(spawn_raw):
    tmdb = FakeTMDB(api_key=API_KEY).start()
    try:
        raw = spawn_raw("newline", env={"TMDB_API_KEY": API_KEY, "TMDB_BASE_URL": tmdb.base_url,
                                        "MOVIE_RPC_TMDB_TIMEOUT": "2", "MOVIE_RPC_OFFLINE_WINDOW": "600"})
        warm = popular_pages(raw, 0)
        assert all(reply["result"]["source"] == "network" for reply in warm.values()), "the cache is filled"

        tmdb.set_fault("slow", delay=3600)  # TMDB accepts connections and never answers
        asked_before = tmdb.count("/3/movie/popular")
        replies = popular_pages(raw, 1000)
        asked_during = tmdb.count("/3/movie/popular") - asked_before

        assert all("result" in reply for reply in replies.values()), [r for r in replies.values() if "error" in r]
        assert all(reply["result"]["source"] == "cache" for reply in replies.values())
        # Before: every request waited for a connection and then for its own timeout, so TMDB was asked
        # once per page (60 requests, 20 s). Now only those sent before the first timeout reach it: the six
        # a connection limit lets through, and the background probe that re-checks the network.
        assert asked_during <= PAGES // 3, "%d of %d pages were still asked of a TMDB found unreachable" % (
            asked_during, PAGES)
    finally:
        raw.kill()
        raw.finished = True
        tmdb.stop()
