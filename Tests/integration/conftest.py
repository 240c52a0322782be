"""Fixtures for the integration tests of the movie-rpc binary over real pipes.

The binary is ``$MOVIE_RPC_BIN``, else ``.build/release/movie-rpc`` in the repository; tests never build
it (CI builds first) and are skipped, with the reason, when it is missing. Every server gets a fresh
``MOVIE_RPC_HOME`` and no TMDB credential, so it serves the embedded demo catalog and touches nothing
outside the test's tmp dir.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "clients" / "python"))  # the real client package, not an installed copy

from fake_tmdb import FakeTMDB  # noqa: E402
from movie_rpc import Client, RpcError  # noqa: E402
from movie_rpc.framing import FRAMINGS  # noqa: E402
from openrpc_contract import OpenRpcContract  # noqa: E402
from raw_server import RawServer  # noqa: E402

SCHEMA_PATH = REPO_ROOT / "schema" / "openrpc.json"

# Variables that change how the server behaves: every TMDB_* and MOVIE_RPC_* of the outer environment is
# removed (except MOVIE_RPC_BIN, which is ours); tests set the ones they want explicitly.
SERVER_VARIABLE_PREFIXES = ("TMDB_", "MOVIE_RPC_")


def binary_path() -> Path:
    configured = os.environ.get("MOVIE_RPC_BIN")
    return Path(configured) if configured else REPO_ROOT / ".build" / "release" / "movie-rpc"


@pytest.fixture(scope="session")
def server_binary() -> str:
    path = binary_path()
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.skip("movie-rpc binary not found at %s: run `swift build -c release` first or set "
                    "MOVIE_RPC_BIN" % path)
    return str(path)


@pytest.fixture(scope="session")
def contract() -> OpenRpcContract:
    return OpenRpcContract(SCHEMA_PATH)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A fresh, empty data directory for this test's server."""
    path = tmp_path / "movie-rpc-home"
    path.mkdir()
    return path


@pytest.fixture
def server_env(home: Path) -> Dict[str, Optional[str]]:
    """Changes to the environment for a server: fresh home, demo catalog. None removes a variable."""
    env: Dict[str, Optional[str]] = {name: None for name in os.environ
                                     if name.startswith(SERVER_VARIABLE_PREFIXES) and name != "MOVIE_RPC_BIN"}
    env["XDG_DATA_HOME"] = None
    env["MOVIE_RPC_HOME"] = str(home)
    # Firebase runs seal refresh tokens with a key file: a test's own, beside (not in) its data directory.
    env["MOVIE_RPC_KEY_FILE"] = str(home.parent / "config" / "secrets.key")
    return env


def full_env(changes: Dict[str, Optional[str]]) -> Dict[str, str]:
    env = dict(os.environ)
    for name, value in changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


@pytest.fixture
def framing() -> str:
    """The framing a test's servers speak; tests parametrize it over FRAMINGS to run in both."""
    return "newline"


# -- the Python client, validating every result against the contract

@pytest.fixture
def make_client(server_binary: str, server_env, contract: OpenRpcContract) -> Iterator[Callable[..., Client]]:
    """Starts clients whose every successful result is validated against its method's result schema.
    At teardown each is closed and must exit 0 (unless the test already ended it) without having
    written anything but valid frames."""
    clients: List[Client] = []

    def start(framing: str = "newline", env: Optional[Dict[str, Optional[str]]] = None, **options) -> Client:
        changes = dict(server_env)
        changes.update(env or {})
        client = Client(server_binary, framing=framing, env=changes, timeout=30,
                        result_validator=contract.assert_result_matches, **options)
        clients.append(client)
        return client

    yield start
    for client in clients:
        ended_by_test = client.returncode is not None
        status = client.close()
        assert not client.protocol_errors, client.protocol_errors
        if not ended_by_test:
            assert status == 0, "exit status %s; stderr:\n%s" % (status, client.stderr_tail())


@pytest.fixture
def client(make_client) -> Client:
    """A client speaking newline-delimited JSON."""
    return make_client("newline")


@pytest.fixture
def lsp_client(make_client) -> Client:
    """A client speaking LSP Content-Length framing."""
    return make_client("content-length")


# -- raw pipes

@pytest.fixture
def spawn_raw(server_binary: str, server_env, contract: OpenRpcContract) -> Iterator[Callable[..., RawServer]]:
    """Starts servers to drive byte by byte. At teardown each is finished: stdin closed, exit 0, every
    reply read, all of stdout valid frames."""
    servers: List[RawServer] = []

    def start(framing: str = "newline", env: Optional[Dict[str, Optional[str]]] = None,
              args: Optional[List[str]] = None) -> RawServer:
        changes = dict(server_env)
        changes.update(env or {})
        server = RawServer([server_binary] + list(args or []), full_env(changes), framing, contract)
        servers.append(server)
        return server

    yield start
    errors = []
    for server in servers:
        try:
            server.finish()
        except AssertionError as error:
            errors.append(error)
        finally:
            server.kill()
    if errors:
        raise errors[0]


@pytest.fixture
def raw(spawn_raw, framing: str) -> RawServer:
    """A server driven byte by byte in the test's framing."""
    return spawn_raw(framing)


__all__ = ["FRAMINGS", "REPO_ROOT", "SCHEMA_PATH", "full_env"]


def error_of(call: Callable, *args, **kwargs) -> RpcError:
    """The RpcError that `call(*args, **kwargs)` raises (the test fails if it raises none)."""
    with pytest.raises(RpcError) as info:
        call(*args, **kwargs)
    return info.value


# -- live mode: a server talking to the fake TMDB

TMDB_API_KEY = "a1b2c3d4e5f60718293a4b5c6d7e8f90"
TMDB_ACCESS_TOKEN = "eyJhbGciOiJIUzI1NiJ9.fake-read-access-token.signature"


@pytest.fixture
def tmdb() -> Iterator[FakeTMDB]:
    """The fake TMDB, accepting TMDB_API_KEY (and TMDB_ACCESS_TOKEN as a bearer token)."""
    server = FakeTMDB(api_key=TMDB_API_KEY, access_token=TMDB_ACCESS_TOKEN).start()
    yield server
    server.stop()


@pytest.fixture
def live(make_client, tmdb) -> Callable[..., Client]:
    """Starts clients whose server talks to the fake TMDB with the API key; `env` adds or overrides."""
    def start(**env: Optional[str]) -> Client:
        changes: Dict[str, Optional[str]] = {
            "TMDB_API_KEY": TMDB_API_KEY, "TMDB_BASE_URL": tmdb.base_url, "MOVIE_RPC_TMDB_TIMEOUT": "2",
            "MOVIE_RPC_TMDB_MAX_RETRY_AFTER": "2"}
        changes.update(env)
        return make_client("newline", env=changes)
    return start
