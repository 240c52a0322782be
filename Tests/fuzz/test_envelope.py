"""Envelope fuzzing: every member of a message (``jsonrpc``, ``id``, ``method``, ``params``, extras) well-
or ill-typed, batches of junk, notifications, ids, cancellation; pipelined, in both framings, against one
long-lived server per framing."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import scaled
from session import contract
from strategies import (batches, cancel_notifications, envelopes, ids, is_exit_notification, json_values,
                        notifications)
from wire import encode

CONTRACT = contract()


def frames_for(session, values):
    """Frames for JSON values sent in one case (a `$/cancelRequest` in the case may cancel its requests:
    the oracle collects them)."""
    return [session.body_frame(encode(value)) for value in values]


messages = st.one_of(envelopes(CONTRACT), batches(CONTRACT), notifications(CONTRACT), json_values) \
    .filter(lambda value: not is_exit_notification(value))


@given(values=st.lists(messages, min_size=1, max_size=4), chunk_seed=st.integers(0, 2 ** 32 - 1) | st.none())
def test_any_message_gets_exactly_the_replies_jsonrpc_requires(session, values, chunk_seed):
    session.run(frames_for(session, values), chunking=random.Random(chunk_seed) if chunk_seed is not None else None)


@given(values=st.lists(envelopes(CONTRACT, valid_bias=0.0).filter(lambda v: not is_exit_notification(v)),
                       min_size=1, max_size=4))
@settings(max_examples=scaled(0.5))
def test_every_envelope_member_with_a_wrong_type(session, values):
    session.run(frames_for(session, values))


@given(batch=batches(CONTRACT).filter(lambda v: not is_exit_notification(v)))
@settings(max_examples=scaled(0.5))
def test_batches_of_junk(session, batch):
    session.run(frames_for(session, [batch]))


@given(values=st.lists(notifications(CONTRACT), min_size=1, max_size=5))
def test_notifications_are_never_answered(session, values):
    # The session sends a sentinel right after: its reply must be the next message, so none came before.
    session.run(frames_for(session, values))


@given(request_ids=st.lists(ids, min_size=1, max_size=8), method=st.sampled_from(["server.info", "genres.list",
                                                                                   "auth.status", "nope"]))
def test_ids_are_echoed_verbatim(session, request_ids, method):
    values = [{"jsonrpc": "2.0", "id": request_id, "method": method} for request_id in request_ids]
    replies = session.run(frames_for(session, values))
    for value in values:
        if not any(isinstance(r, dict) and json.dumps(r.get("id")) == json.dumps(value["id"]) for r in replies):
            raise AssertionError("id %r not echoed verbatim: %s" % (value["id"], replies))


@given(data=st.data())
@settings(max_examples=scaled(0.5))
def test_cancelling_requests_in_flight(session, data):
    pool = data.draw(st.lists(ids.filter(lambda i: i is not None), min_size=1, max_size=4, unique_by=json.dumps))
    values = []
    for request_id in pool:
        values.append({"jsonrpc": "2.0", "id": request_id,
                       "method": data.draw(st.sampled_from(["catalog.sync", "movies.popular", "genres.list"]))})
        if data.draw(st.booleans()):
            values.append(data.draw(cancel_notifications(pool)))
    values.append(data.draw(cancel_notifications(pool)))
    session.run(frames_for(session, values))


@given(body=st.one_of(json_values, envelopes(CONTRACT)).filter(lambda v: not is_exit_notification(v)),
       spaces=st.sampled_from([" ", "\t", "\r", "  \t ", "\r\r"]))
@settings(max_examples=scaled(0.5))
def test_whitespace_around_and_inside_messages(session, body, spaces):
    text = json.dumps(body, ensure_ascii=False, indent=None, separators=(spaces + "," + spaces, spaces + ":" + spaces))
    session.run([session.body_frame((spaces + text + spaces).encode("utf-8"))])
