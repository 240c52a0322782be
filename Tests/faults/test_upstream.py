"""Every upstream fault in one run: while a timer thread cycles the fake TMDB through 500, 503, 429, slow
answers, dropped connections, garbage, 401 and being stopped altogether, clients keep calling every catalog
method. Each answer must be a result that matches the contract or one of the documented catalog errors;
never an internal error, never a hang, and the server is alive and back to normal at the end."""

from __future__ import annotations

import collections
import random
import threading
import time

from movie_rpc import RpcError
from movie_rpc.errors import RpcTimeout

RUN_SECONDS = 20.0
FAULT_SECONDS = 0.6  # each fault lasts this long, except 429: long enough to outlast the retries (-32033)
RATE_LIMIT_SECONDS = 2.5
FAULTS = [None, "500", "429", "slow", "drop", "garbage", "stop", "401", "503", "slow", "drop", None]
EXPECTED_CODES = {-32030, -32031, -32032, -32033, -32021, -32800}
GENRES = [28, 12, 16, 35, 80, 18, 27, 878]


def catalog_call(rng: random.Random):
    """One random catalog call: (method, params)."""
    policy = rng.choice([None, None, "networkFirst", "cacheFirst", "networkOnly", "cacheOnly"])
    common = {"cachePolicy": policy} if policy else {}
    if rng.random() < 0.2:
        common["language"] = rng.choice(["en-US", "de-DE"])
    choice = rng.randrange(7)
    if choice == 0:
        return "genres.list", common
    if choice == 1:
        return "movies.popular", dict(common, page=rng.randint(1, 4))
    if choice == 2:
        return "movies.byGenre", dict(common, genreId=rng.choice(GENRES), page=rng.randint(1, 2))
    if choice == 3:
        return "movies.details", dict(common, movieId=rng.choice([550, 13, 756999, 680, 155, 987654321]))
    if choice == 4:
        return "movies.latest", common
    if choice == 5:
        params = {"popularPages": rng.randint(1, 2), "genres": rng.sample(GENRES, 2)}
        if "language" in common:
            params["language"] = common["language"]
        return "catalog.sync", params
    return "genres.list", {}


class FaultCycler(threading.Thread):
    """Switches the fake TMDB to the next fault every FAULT_SECONDS until stopped (a timer thread)."""

    def __init__(self, tmdb) -> None:
        super().__init__(daemon=True)
        self.tmdb = tmdb
        self.halt = threading.Event()
        self.applied = collections.Counter()

    def run(self) -> None:
        index = 0
        stopped = False
        while not self.halt.is_set():
            fault = FAULTS[index % len(FAULTS)]
            index += 1
            if stopped:
                self.tmdb.start()
                stopped = False
            if fault == "stop":
                self.tmdb.set_fault(None)
                self.tmdb.stop()
                stopped = True
            else:
                self.tmdb.set_fault(fault, delay=1.5 if fault == "slow" else 0.0, retry_after=1)
            self.applied[fault or "none"] += 1
            self.halt.wait(RATE_LIMIT_SECONDS if fault == "429" else FAULT_SECONDS)
        if stopped:
            self.tmdb.start()
        self.tmdb.set_fault(None)


def run_clients(work, timeout: float, count: int = 4) -> None:
    """Runs `work(seed)` on `count` client threads and waits for them; a thread still running after
    `timeout` seconds fails the test."""
    workers = [threading.Thread(target=work, args=(seed,)) for seed in range(count)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout)
        assert not worker.is_alive(), "a client thread is stuck"


def test_catalog_under_cycling_upstream_faults(make_client, live_env, tmdb):
    env = dict(live_env, MOVIE_RPC_OFFLINE_WINDOW="1")
    client = make_client(env=env)
    client.call("catalog.sync", popularPages=1, genres=[28])  # some of it is cached, some not
    cycler = FaultCycler(tmdb)
    outcomes = collections.Counter()
    failures = []
    end = time.monotonic() + RUN_SECONDS

    def work(seed: int) -> None:
        rng = random.Random(seed)
        while time.monotonic() < end and not failures:
            method, params = catalog_call(rng)
            pending = client.request_async(method, params)
            if rng.random() < 0.03:
                client.cancel(pending)
            try:
                client.wait(pending, timeout=15)  # results are checked against the contract on arrival
                outcomes[(method, "result")] += 1
            except RpcTimeout:
                failures.append("%s %r: no answer within 15 s" % (method, params))
            except RpcError as error:
                outcomes[(method, error.code)] += 1
                if error.code not in EXPECTED_CODES:
                    failures.append("%s %r: unexpected error %r" % (method, params, error))
                elif not error.message or "api_key" in error.message:
                    failures.append("%s: bad message %r" % (method, error.message))
            except AssertionError as error:  # the result broke the contract
                failures.append("%s %r: %s" % (method, params, error))
            except Exception as error:
                failures.append("%s %r: %r" % (method, params, error))

    cycler.start()
    try:
        run_clients(work, RUN_SECONDS + 30)
    finally:
        cycler.halt.set()
        cycler.join(10)
    print("faults applied:", dict(cycler.applied))
    print("outcomes:", dict(sorted(outcomes.items(), key=str)))
    assert not failures, failures[:10]
    assert client.returncode is None, "the server died:\n%s" % client.stderr_tail()
    codes = {outcome for (_, outcome) in outcomes if outcome != "result"}
    results = sum(count for (_, outcome), count in outcomes.items() if outcome == "result")
    assert results > 20 and len(codes) >= 3, outcomes  # the faults did bite, and answers still came

    # Back to normal without a restart.
    assert client.call("server.info")["catalog"] == "tmdb"
    assert client.call("movies.popular", page=1, cachePolicy="networkOnly")["source"] == "network"
    assert client.call("genres.list", cachePolicy="networkOnly")["source"] == "network"
    assert "-32603" not in client.stderr_tail()


# -- images.fetch against an image server that turns hostile ------------------------------------------------

IMAGE_RUN_SECONDS = 12.0
IMAGE_CODES = {-32035, -32030, -32031, -32021, -32800}
JPEG_MAGIC = b"\xff\xd8\xff"


def hostile_answers(other_host) -> dict:
    """Every way an image server (or whoever it redirects to) can misbehave, by name."""
    from fake_images import jpeg, redirect

    big = b"\xff" * (21 << 20)
    return {
        "healthy": jpeg,
        "other-host": redirect(other_host.url("/stolen.jpg")),
        "loop": redirect("/t/p/w92/loop-a.jpg"),
        "html": lambda: (200, {"Content-Type": "text/html"}, b"<html>admin</html>"),
        "escapes": lambda: (200, {"Content-Type": "image/\x1b[2Jx"}, b"\xff\xd8\xff\xd9"),
        "empty": lambda: (200, {"Content-Type": "image/jpeg"}, b""),
        "no-content": lambda: (204, {}, b""),
        "oversized": lambda: (200, {"Content-Type": "image/jpeg"}, big),
        "missing": lambda: (404, {"Content-Type": "text/plain"}, b"no"),
        "failing": lambda: (503, {"Content-Type": "text/plain"}, b"busy"),
    }


def test_images_under_cycling_hostile_image_servers(make_client, home, tmp_path):
    """While a timer thread switches the image server between healthy answers, redirects to another host
    (127.0.0.2) and in a loop, non-image types, escapes in Content-Type, empty and 204 answers, 21 MiB
    bodies, 404 and 503, four clients fetch images. Every answer is an image file that holds what the
    healthy server sent, or one of the documented errors; 127.0.0.2 never sees a request; the cache holds
    only real images and no link; the server is alive and fetches normally at the end."""
    from fake_images import ImageServer, redirect

    try:
        other_host = ImageServer("127.0.0.2")
    except OSError as error:
        import pytest
        pytest.skip("127.0.0.2 is not served on lo here: %s" % error)
    images = ImageServer("127.0.0.1")
    answers = hostile_answers(other_host)
    images.routes["/t/p/w92/loop-a.jpg"] = redirect("/t/p/w92/loop-b.jpg")
    images.routes["/t/p/w92/loop-b.jpg"] = redirect("/t/p/w92/loop-a.jpg")
    current = {"answer": "healthy"}
    for number in range(40):
        images.routes["/t/p/w92/p%d.jpg" % number] = lambda: answers[current["answer"]]()
    client = make_client(env={"TMDB_IMAGE_BASE_URL": images.base, "MOVIE_RPC_TMDB_TIMEOUT": "5"})
    outcomes = collections.Counter()
    failures = []
    halt = threading.Event()
    end = time.monotonic() + IMAGE_RUN_SECONDS

    def cycle() -> None:
        names = sorted(answers)
        index = 0
        while not halt.wait(0.3):
            current["answer"] = names[index % len(names)]
            index += 1
        current["answer"] = "healthy"

    def work(seed: int) -> None:
        rng = random.Random(seed)
        while time.monotonic() < end and not failures:
            path = "/p%d.jpg" % rng.randrange(40)
            try:
                image = client.wait(client.request_async("images.fetch", {"path": path, "size": "w92"}), timeout=30)
                outcomes["result"] += 1
                with open(image["file"], "rb") as file:
                    if not file.read(3) == JPEG_MAGIC or image["contentType"] != "image/jpeg":
                        failures.append("%s: stored something that is not the image: %r" % (path, image))
            except RpcTimeout:
                failures.append("%s: no answer within 30 s" % path)
            except RpcError as error:
                outcomes[error.code] += 1
                if error.code not in IMAGE_CODES or "\x1b" in error.message:
                    failures.append("%s: unexpected error %r" % (path, error))
            except Exception as error:
                failures.append("%s: %r" % (path, error))

    cycler = threading.Thread(target=cycle, daemon=True)
    cycler.start()
    try:
        run_clients(work, IMAGE_RUN_SECONDS + 60)
    finally:
        halt.set()
        cycler.join(5)
    try:
        print("outcomes:", dict(outcomes))
        assert not failures, failures[:10]
        assert other_host.hits() == 0, "a redirect reached another host"
        assert outcomes["result"] > 0 and outcomes[-32035] > 0, outcomes
        for path in (home / "images").rglob("*"):
            assert not path.is_symlink(), path
            if path.is_file():
                assert path.read_bytes()[:3] == JPEG_MAGIC, path
        assert client.returncode is None, "the server died:\n%s" % client.stderr_tail()
        images.routes["/t/p/w92/after.jpg"] = answers["healthy"]
        assert client.call("images.fetch", path="/after.jpg", size="w92")["source"] == "network"
    finally:
        images.stop()
        other_host.stop()
