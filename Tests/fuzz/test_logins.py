"""Concurrent logins (issue 13.1): guesses for one email sent at once, in batches, pipelined, split at random
byte boundaries, with the email in random case and the right password somewhere among them (or not). The
property: however they arrive, at most five guesses per email are checked within the lock window (a
success or -32012; every other answer is -32014 with a retryAfter), every guess is answered once, and a
right password that was refused is refused again afterwards. Each example uses an email of its own.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SERVER_ENV, scaled
from wire import FRAMINGS, ServerProcess, frame

FREE_CHECKS = 5
_emails = itertools.count()


@pytest.fixture(scope="module", params=FRAMINGS)
def server(request):
    process = ServerProcess(request.param, env=dict(SERVER_ENV))
    yield process
    process.finish()
    process.kill()


def body(message) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode()


def call(server: ServerProcess, request_id: str, method: str, params) -> dict:
    server.write(frame(body({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}),
                       server.framing))
    reply = server.next(30).message
    assert isinstance(reply, dict) and reply["id"] == request_id, reply
    return reply


def random_case(rng: random.Random, email: str) -> str:
    return "".join(c.upper() if rng.random() < 0.3 else c for c in email)


@given(seed=st.integers(0, 2 ** 64 - 1), guesses=st.integers(FREE_CHECKS + 1, 120),
       right_at=st.none() | st.floats(0, 1), batch_size=st.integers(1, 64), chunked=st.booleans())
@settings(max_examples=scaled(0.25))
def test_concurrent_guesses_get_at_most_five_checks(server, seed, guesses, right_at, batch_size, chunked):
    rng = random.Random(seed)
    email = "guess%d@example.com" % next(_emails)
    assert "result" in call(server, "register", "auth.register", {"email": email, "password": "pw-right"})
    assert "result" in call(server, "logout", "auth.logout", None)

    right = None if right_at is None else min(guesses - 1, int(right_at * guesses))
    requests = [{"jsonrpc": "2.0", "id": "g%d" % index, "method": "auth.login",
                 "params": {"email": random_case(rng, email),
                            "password": "pw-right" if index == right else "pw-wrong-%d" % index}}
                for index in range(guesses)]
    frames = b"".join(frame(body(group if len(group) > 1 else group[0]), server.framing)
                      for group in (requests[i:i + batch_size] for i in range(0, guesses, batch_size)))
    if chunked:
        position = 0
        while position < len(frames):
            step = rng.randint(1, 4096)
            server.write(frames[position:position + step])
            position += step
    else:
        server.write(frames)

    answers = {}
    while len(answers) < guesses:
        message = server.next(60).message
        for item in message if isinstance(message, list) else [message]:
            assert item["id"] not in answers, "answered twice: %r" % item
            answers[item["id"]] = item
    checked = [key for key, item in answers.items() if item.get("error", {}).get("code") != -32014]
    succeeded = [key for key in checked if "result" in answers[key]]
    if succeeded:
        # A success forgets the failures before it: at most four came before it and five after.
        assert succeeded == ["g%d" % right] and len(checked) <= 2 * FREE_CHECKS, sorted(checked)
    else:
        assert len(checked) <= FREE_CHECKS, sorted(checked)
    for key, item in answers.items():
        if key not in checked:
            assert item["error"]["data"]["retryAfter"] >= 1
    right_reply = None if right is None else answers["g%d" % right]
    if right_reply is not None and "result" in right_reply:
        assert "result" in call(server, "out", "auth.logout", None)
    elif len(checked) == FREE_CHECKS:
        again = call(server, "again", "auth.login", {"email": email, "password": "pw-right"})
        assert again["error"]["code"] == -32014, again
