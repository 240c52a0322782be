"""Fixtures for the fault-injection, soak and security suites (docs/RELIABILITY.md, "Faults", "Soak").

These suites reuse Tests/integration rather than copy it: that directory is put on ``sys.path`` (so
``raw_server``, ``fake_tmdb``, ``fake_firebase`` and ``openrpc_contract`` import as they do there), and its
conftest is loaded under the name ``integration_conftest`` so that its fixtures (``server_binary``,
``contract``, ``home``, ``server_env``, ``make_client``, ``spawn_raw``) are the very same ones here.

The binary is ``$MOVIE_RPC_BIN``, else ``.build/release/movie-rpc``; nothing here builds it. Faults that
need root (tmpfs mounts for a read-only or full disk) skip with the reason when they cannot be arranged.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Dict, Iterator, Optional

import pytest

FAULTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = FAULTS_DIR.parents[1]
INTEGRATION_DIR = REPO_ROOT / "Tests" / "integration"
for path in (FAULTS_DIR, INTEGRATION_DIR, REPO_ROOT / "clients" / "python"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))


def _load_integration_conftest():
    name = "integration_conftest"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, INTEGRATION_DIR / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


integration = _load_integration_conftest()

# Re-exported: pytest finds fixtures by name in this module.
server_binary = integration.server_binary
contract = integration.contract
home = integration.home
server_env = integration.server_env
make_client = integration.make_client
spawn_raw = integration.spawn_raw
full_env = integration.full_env
binary_path = integration.binary_path

from fake_tmdb import FakeTMDB  # noqa: E402
from mounts import Tmpfs  # noqa: E402
from workload import LOCAL, TMDB_API_KEY  # noqa: E402


@pytest.fixture
def tmdb() -> Iterator[FakeTMDB]:
    server = FakeTMDB(api_key=TMDB_API_KEY).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def live_env(tmdb: FakeTMDB) -> Dict[str, Optional[str]]:
    """Environment for a server talking to the fake TMDB, with short timeouts so faults resolve fast."""
    env: Dict[str, Optional[str]] = dict(LOCAL)
    env.update({
        "TMDB_API_KEY": TMDB_API_KEY, "TMDB_BASE_URL": tmdb.base_url, "TMDB_IMAGE_BASE_URL": tmdb.image_base_url,
        "MOVIE_RPC_TMDB_TIMEOUT": "1", "MOVIE_RPC_TMDB_MAX_RETRY_AFTER": "1",
    })
    return env


@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[callable]:
    """Mounts small tmpfs file systems for the test (root only, else the test is skipped with the reason);
    every mount is unmounted at teardown, lazily if a process still holds it."""
    mounts = []

    def mount(name: str = "tmpfs-home", size: str = "8m") -> Tmpfs:
        target = tmp_path / name
        target.mkdir()
        reason = Tmpfs.unavailable_reason()
        if reason:
            pytest.skip(reason)
        fs = Tmpfs(target, size)
        mounts.append(fs)
        fs.mount()
        return fs

    try:
        yield mount
    finally:
        for fs in reversed(mounts):
            fs.unmount()


def pytest_report_header(config):
    return "movie-rpc binary: %s; euid %d" % (binary_path(), os.geteuid())
