"""Property-based fuzzing of the movie-rpc binary over raw pipes (see docs/RELIABILITY.md, "Fuzzing").

Profiles (``--hypothesis-profile=NAME`` or ``MOVIE_RPC_FUZZ_PROFILE=NAME``):

* ``ci`` (default): 200 examples per property, the whole suite well under a minute;
* ``long``: ``MOVIE_RPC_FUZZ_EXAMPLES`` examples per property (default 2,300; the volume property 2.5
  times as many, with up to 200 frames each): about 1.5 million frames in 34 minutes on 2 cores;
* ``dev``: 20 examples, for editing the fuzzers.

The binary is ``$MOVIE_RPC_BIN``, else ``.build/release/movie-rpc``; the suite never builds it. Every server
gets a fresh ``MOVIE_RPC_HOME``, no TMDB or Firebase credential (the embedded demo catalog, no network) and
an image base URL that refuses connections at once, so nothing waits on the network.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).resolve().parent))

from session import Session, Stats  # noqa: E402
from wire import FRAMINGS, binary_path  # noqa: E402

_COMMON = dict(
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                           HealthCheck.large_base_example],
)
settings.register_profile("ci", max_examples=200, **_COMMON)
settings.register_profile("dev", max_examples=20, **_COMMON)
settings.register_profile("long", max_examples=int(os.environ.get("MOVIE_RPC_FUZZ_EXAMPLES", "2300")), **_COMMON)
settings.load_profile(os.environ.get("MOVIE_RPC_FUZZ_PROFILE", "ci"))

# Servers never reach the network: no credentials (demo catalog), images from a port that refuses.
SERVER_ENV = {"TMDB_IMAGE_BASE_URL": "http://127.0.0.1:9/t/p/", "MOVIE_RPC_TMDB_TIMEOUT": "1"}

_started = time.monotonic()


def scaled(factor: float, minimum: int = 5) -> int:
    """A share of the active profile's examples per property (for the costlier properties)."""
    return max(minimum, int(settings.default.max_examples * factor))


@pytest.fixture(scope="session", autouse=True)
def _binary() -> None:
    path = binary_path()
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.exit("movie-rpc binary not found at %s: build it (swift build -c release) or set MOVIE_RPC_BIN"
                    % path, returncode=2)


@pytest.fixture(scope="module", params=FRAMINGS)
def session(request):
    """One long-lived server per test module and framing; it exits 0 at the end of the module."""
    server = Session(request.param, env=dict(SERVER_ENV), name=request.module.__name__)
    yield server
    server.close()


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    figures = Stats.as_dict()
    figures["seconds"] = round(time.monotonic() - _started, 1)
    figures["profile"] = settings.default.max_examples
    reporter = terminalreporter
    reporter.section("fuzzing figures")
    reporter.write_line("frames %(frames)d (+%(control_frames)d sentinel/handshake frames), %(bytes_written)d bytes "
                        "written, %(replies)d replies read, %(cases)d cases, %(property_checks)d property checks, "
                        "%(failures)d failed cases, %(restarts)d server restarts, %(seconds).1f s" % figures)
    stats_path = os.environ.get("MOVIE_RPC_FUZZ_STATS")
    if stats_path:
        passed = len(reporter.stats.get("passed", []))
        failed = len(reporter.stats.get("failed", [])) + len(reporter.stats.get("error", []))
        figures.update(tests_passed=passed, tests_failed=failed, max_examples=settings.default.max_examples)
        Path(stats_path).write_text(json.dumps(figures, indent=2) + "\n")
