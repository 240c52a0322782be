"""Volume: many pipelined frames per example, generated with plain ``random`` from a seed Hypothesis draws
(fast enough for the long mode's million frames). The same properties as everywhere: every frame's
replies exactly as the oracle expects, nothing else, no hang, the server alive after each case.

``MOVIE_RPC_FUZZ_FRAMES`` sets the most frames per example (default 40; 200 in the long profile). When
a case fails, its frames are replayed one at a time on a fresh server so the report names the single
frame that fails, if one does.
"""

from __future__ import annotations

import os
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import scaled
from session import CaseFailure, contract
from strategies import Bulk
from wire import encode

# 40 in CI; the long profile (thousands of examples) sends 200 at most per example.
FRAMES = int(os.environ.get("MOVIE_RPC_FUZZ_FRAMES") or (200 if settings.default.max_examples > 1000 else 40))

CONTRACT = contract()


# The long profile's million frames come mostly from here: 2.5 times its examples per framing.
LONG = settings.default.max_examples > 1000


@given(seed=st.integers(0, 2 ** 64 - 1), count=st.integers(1, FRAMES) | st.just(FRAMES))
@settings(max_examples=scaled(2.5 if LONG else 0.5))
def test_volume_of_random_frames(session, seed, count):
    bulk = Bulk(random.Random(seed), CONTRACT)
    frames = [frame for _ in range(count) for frame in session.raw_frames(bulk.body(encode))]
    try:
        session.run(frames)
    except CaseFailure as failure:
        for frame in frames:
            try:
                session.run([frame])
            except CaseFailure as single:
                raise CaseFailure("one frame alone fails:\n%s\n\n(the whole case: %s)" % (single, failure)) from None
        raise
