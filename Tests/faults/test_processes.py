"""Several server processes on one data directory, all writing at once: SQLite's locking (busy timeout, and
retried BEGIN IMMEDIATE) must absorb every collision, so no client ever sees "database is locked" (-32040
busy), and every acknowledged write is there afterwards."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from workload import LOCAL, Pipeline, all_events, demo_movie_ids, integrity_check


@pytest.mark.parametrize("processes", [2, 4])
def test_processes_writing_one_directory_at_once_never_see_busy(make_client, home: Path, processes: int):
    # All started together on a fresh directory: creating the database, WAL and migrations race too.
    clients = [make_client(env=LOCAL) for _ in range(processes)]
    first_writes = [client.request_async("events.add", {"name": "startup", "params": {"p": index}})
                    for index, client in enumerate(clients)]
    for pending, client in zip(first_writes, clients):
        assert client.wait(pending)["name"] == "startup"
    clients[0].auth_register("shared@example.com", "pw-shared")
    for client in clients:
        assert client.auth_status()["loggedIn"] is True  # one session per data directory

    movie_ids = demo_movie_ids()
    share = len(movie_ids) // processes
    per_process_events = 150
    pipelines = [Pipeline(client, window=16) for client in clients]
    failures = []

    def drive(index: int) -> None:
        pipeline = pipelines[index]
        mine = movie_ids[index * share:(index + 1) * share]
        adds = {}
        try:
            for step in range(max(len(mine), per_process_events)):
                if step < len(mine):
                    adds[mine[step]] = pipeline.submit("favorites.add", {"movieId": mine[step]}, tag="favorite")
                if step < per_process_events:
                    pipeline.submit("events.add", {"name": "proc.%d" % index, "params": {"step": step}},
                                    tag="event")
                if step % 10 == 0:
                    pipeline.submit("favorites.list", {}, tag="read")
                    pipeline.submit("events.list", {"limit": 20}, tag="read")
                # Requests in flight run concurrently: remove only what is known to be added.
                if step % 25 == 0 and 20 <= step < len(mine) and adds[mine[step - 20]].answered:
                    pipeline.submit("favorites.remove", {"movieId": mine[step - 20]}, tag="remove")
            pipeline.drain()
        except BaseException as error:  # reported by the main thread
            failures.append(error)

    threads = [threading.Thread(target=drive, args=(index,)) for index in range(processes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
        assert not thread.is_alive(), "a writer thread did not finish"
    assert not failures, failures

    errors = [(o.method, o.error) for p in pipelines for o in p.outcomes if o.error is not None]
    busy = [e for e in errors if e[1].code == -32040]
    assert not busy, "storage errors reached a client: %r" % busy[:5]
    assert not errors, "unexpected errors: %r" % errors[:5]
    violations = [o.violation for p in pipelines for o in p.outcomes if o.violation is not None]
    assert not violations, violations[:3]

    removed = {o.params["movieId"] for p in pipelines for o in p.outcomes if o.method == "favorites.remove"}
    added = {o.result["movieId"] for p in pipelines for o in p.outcomes if o.method == "favorites.add"}
    events = {o.result["id"]: o.params for p in pipelines for o in p.outcomes if o.method == "events.add"}
    for client in clients:
        assert client.close() == 0

    checker = make_client(env=LOCAL)
    favorites = {f["movieId"] for f in checker.favorites_list()["favorites"]}
    assert favorites == added - removed
    for index in range(processes):
        stored = all_events(checker, name="proc.%d" % index)
        assert sorted(e["params"]["step"] for e in stored) == list(range(per_process_events))
    stored_ids = {e["id"] for e in all_events(checker)}
    assert set(events) <= stored_ids
    assert checker.close() == 0
    assert integrity_check(home) == ["ok"]
