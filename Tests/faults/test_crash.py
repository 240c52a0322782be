"""SIGKILL in the middle of a stream of writes: every write whose reply arrived survives, and the database
passes SQLite's integrity check (favorites.add and events.add are committed before they are answered)."""

from __future__ import annotations

import random
import signal
from pathlib import Path

from movie_rpc import Call, RpcError
from workload import LOCAL, Pipeline, all_events, demo_movie_ids, integrity_check, query

ROUNDS = 5


def test_kill_9_mid_stream_loses_no_acknowledged_write(make_client, home: Path):
    rng = random.Random(7)
    movie_ids = demo_movie_ids()
    rng.shuffle(movie_ids)
    acked_favorites, removed_favorites, acked_events = {}, set(), {}
    uncertain_favorites = set()  # sent, but the server died before answering
    for round_number in range(ROUNDS):
        client = make_client(env=LOCAL)
        if round_number == 0:
            client.auth_register("crash@example.com", "pw-crash")
        else:
            assert client.auth_status()["loggedIn"] is True, "the session did not survive SIGKILL"
        pipeline = Pipeline(client, window=32)
        kill_after = rng.randint(40, 90)
        sequence = 0
        while pipeline.answered < kill_after:
            roll = rng.random()
            fresh = [m for m in movie_ids if m not in acked_favorites and m not in uncertain_favorites
                     and m not in removed_favorites]
            if roll < 0.4 and fresh:
                movie_id = fresh[0]
                uncertain_favorites.add(movie_id)
                pipeline.submit("favorites.add", {"movieId": movie_id}, tag=("add", movie_id))
            elif roll < 0.5 and acked_favorites:
                movie_id = rng.choice(sorted(acked_favorites))
                del acked_favorites[movie_id]
                uncertain_favorites.add(movie_id)  # gone or not, depending on whether the reply arrives
                pipeline.submit("favorites.remove", {"movieId": movie_id}, tag=("remove", movie_id))
            else:
                sequence += 1
                params = {"round": round_number, "seq": sequence, "text": "x" * rng.randint(0, 2000)}
                pipeline.submit("events.add", {"name": "crash.write", "params": params}, tag=("event", params))
            _absorb(pipeline, acked_favorites, removed_favorites, uncertain_favorites, acked_events)
        # Bursts just before the kill, so that it lands with writes in flight: a server fast enough to answer
        # a whole burst before the count below gets another one (one burst was not always enough).
        pipeline.window = 64
        in_flight = 0
        for _ in range(10):
            for _ in range(24):
                sequence += 1
                params = {"round": round_number, "seq": sequence, "text": "burst"}
                pipeline.submit("events.add", {"name": "crash.write", "params": params}, tag=("event", params))
            in_flight = len(pipeline.outcomes) - pipeline.answered
            if in_flight > 0:
                break
        client.process.send_signal(signal.SIGKILL)
        status = client.process.wait(10)
        pipeline.settle_after_death()
        assert status == -signal.SIGKILL
        _absorb(pipeline, acked_favorites, removed_favorites, uncertain_favorites, acked_events)
        assert in_flight > 0, "the kill should land with requests in flight"
        assert integrity_check(home) == ["ok"], "round %d" % round_number

    survivor = make_client(env=LOCAL)
    assert survivor.auth_status()["loggedIn"] is True
    favorites = {f["movieId"] for f in survivor.favorites_list()["favorites"]}
    missing = set(acked_favorites) - favorites
    assert not missing, "acknowledged favorites lost by SIGKILL: %s" % sorted(missing)
    resurrected = removed_favorites & favorites
    assert not resurrected, "acknowledged removals undone by SIGKILL: %s" % sorted(resurrected)
    unexplained = favorites - set(acked_favorites) - uncertain_favorites
    assert not unexplained, "favorites nobody added: %s" % sorted(unexplained)

    replies = survivor.batch([Call("events.get", {"id": event_id}) for event_id in acked_events])
    for (event_id, params), reply in zip(acked_events.items(), replies):
        assert not isinstance(reply, RpcError), "acknowledged event %d lost: %r" % (event_id, reply)
        assert reply["name"] == "crash.write" and reply["params"] == params
    stored = [e for e in all_events(survivor, name="crash.write")]
    assert len({e["id"] for e in stored}) == len(stored)
    assert len(acked_events) >= ROUNDS * 10
    assert query(home, "SELECT count(*) FROM favorites")[0][0] == len(favorites)
    assert survivor.close() == 0
    assert integrity_check(home) == ["ok"]


def _absorb(pipeline, acked_favorites, removed_favorites, uncertain_favorites, acked_events) -> None:
    """Moves newly answered outcomes into the acknowledged sets (each outcome once)."""
    for outcome in pipeline.outcomes:
        if not outcome.answered or getattr(outcome, "absorbed", False):
            continue
        outcome.absorbed = True
        if outcome.violation is not None:
            raise outcome.violation
        assert outcome.error is None, "%s failed: %r" % (outcome.method, outcome.error)
        kind, value = outcome.tag
        if kind == "add":
            acked_favorites[value] = outcome.result
            uncertain_favorites.discard(value)
        elif kind == "remove":
            assert outcome.result == {"movieId": value, "removed": True}
            removed_favorites.add(value)
            uncertain_favorites.discard(value)
        else:
            acked_events[outcome.result["id"]] = value
