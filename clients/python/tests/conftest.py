"""Shared fixtures of the client's own tests.

The tests against the real server need its binary: ``MOVIE_RPC_BIN`` (scripts/test.sh sets it), else
``movie-rpc`` on PATH; without one they are skipped with that reason. Each gets a fresh data directory
and no TMDB credential, so the embedded demo catalog answers.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any, Dict, Iterator

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the package from this checkout, installed or not

SCHEMA_PATH = HERE.parent.parent.parent / "schema" / "openrpc.json"
FAKE_SERVER = [sys.executable, str(HERE / "fake_server.py")]


def server_binary() -> str:
    binary = os.environ.get("MOVIE_RPC_BIN") or shutil.which("movie-rpc")
    if not binary:
        pytest.skip("no movie-rpc binary: set MOVIE_RPC_BIN or put movie-rpc on PATH")
    return binary


@pytest.fixture
def binary() -> str:
    return server_binary()


@pytest.fixture
def demo_env(tmp_path: Path) -> Dict[str, Any]:
    return {"MOVIE_RPC_HOME": str(tmp_path / "home"), "TMDB_ACCESS_TOKEN": None, "TMDB_API_KEY": None,
            "MOVIE_RPC_PASSWORD_ITERATIONS": "1000", "FIREBASE_API_KEY": None}


@pytest.fixture(scope="session")
def document() -> Dict[str, Any]:
    if not SCHEMA_PATH.exists():
        pytest.skip("schema/openrpc.json not found beside this checkout")
    loaded: Dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return loaded


@pytest.fixture
def client(binary: str, demo_env: Dict[str, Any]) -> Iterator[Any]:
    from movie_rpc import Client

    with Client(binary, env=demo_env, timeout=60) as started:
        yield started
