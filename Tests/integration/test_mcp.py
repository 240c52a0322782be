"""The server as an MCP server over stdio, driven by the official MCP Python SDK (PyPI `mcp`) the way an
agent host drives it, and by raw pipes for the parts of the protocol the SDK hides.

- SDK, 2025-11-25 era: `initialize` + `notifications/initialized`, `tools/list`, `tools/call`, `ping`,
  tool errors (`isError`) versus protocol errors (-32602), and cancelling an abandoned call.
- SDK, 2026-07-28 era: `server/discover` and the per-request `_meta` the SDK stamps on every request.
- Raw pipes: the exact wire shapes (`resultType`, `_meta`, the unsupported-version error, `ping`,
  `notifications/cancelled`) and that stdout holds nothing but newline-delimited MCP messages.

Every successful tool result's `structuredContent` is validated against the method's result schema in
schema/openrpc.json; the tool list itself is compared with the document in test_openrpc_document.py.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any, Dict, List, Optional

import pytest

from conftest import full_env
from fake_tmdb import FakeTMDB
from raw_server import DEADLINE, RawServer

mcp = pytest.importorskip("mcp", reason="the MCP Python SDK is not installed: "
                                        "pip install -r Tests/integration/requirements.txt")
import anyio  # noqa: E402  (a dependency of mcp)
from mcp import ClientSession, StdioServerParameters, stdio_client  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402

# Protocol plumbing that is not offered as a tool.
NOT_TOOLS = {"initialize", "shutdown", "rpc.discover"}
LATEST_HANDSHAKE = "2025-11-25"
STATELESS = "2026-07-28"
VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
META = {VERSION_KEY: STATELESS, CAPABILITIES_KEY: {}, "io.modelcontextprotocol/clientInfo": {
    "name": "movie-rpc-tests", "version": "1"}}

# Local accounts, hashed fast; no Firebase.
LOCAL: Dict[str, Optional[str]] = {
    "MOVIE_RPC_PASSWORD_ITERATIONS": "1000", "FIREBASE_API_KEY": None, "FIREBASE_AUTH_EMULATOR_HOST": None,
}
UNKNOWN_MOVIE = 999999999
TMDB_KEY = "a1b2c3d4e5f60718293a4b5c6d7e8f90"



def tool_name(method: str) -> str:
    return method.replace(".", "_")


def method_of(tool: str) -> str:
    return tool.replace("_", ".", 1)


def text_of(result: Any) -> str:
    assert result.content, "a tool result needs content: %r" % (result,)
    assert all(block.type == "text" for block in result.content), result.content
    return "\n".join(block.text for block in result.content)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def server_params(server_binary, server_env) -> StdioServerParameters:
    """How an agent host starts the server: command and env (merged by the SDK over a minimal
    environment: HOME, PATH, ...)."""
    changes = dict(server_env)
    changes.update(LOCAL)
    return StdioServerParameters(command=server_binary,
                                 env={name: value for name, value in changes.items() if value is not None})


@pytest.fixture
def connect(server_params, tmp_path):
    """``async with connect() as session``: a ClientSession over the SDK's stdio transport, after the
    handshake (``mode="initialize"``), ``server/discover`` (``mode="discover"``) or none (``None``)."""
    count = [0]

    @contextlib.asynccontextmanager
    async def connect(mode: Optional[str] = "initialize", params: Optional[StdioServerParameters] = None):
        count[0] += 1
        with open(tmp_path / ("server-%d.stderr" % count[0]), "w") as errlog:
            async with stdio_client(params or server_params, errlog=errlog) as (read, write):
                async with ClientSession(read, write, read_timeout_seconds=DEADLINE) as session:
                    with anyio.fail_after(60):
                        if mode == "initialize":
                            await session.initialize()
                        elif mode == "discover":
                            await session.discover()
                        yield session

    return connect


async def call_ok(session: ClientSession, contract, tool: str, arguments: Optional[Dict[str, Any]] = None) -> Any:
    """Calls a tool that must succeed; its structuredContent must match the method's result schema."""
    result = await session.call_tool(tool, arguments or {})
    assert not result.is_error, "%s failed: %s" % (tool, text_of(result))
    assert result.structured_content is not None, "%s: no structuredContent" % tool
    contract.assert_result_matches(method_of(tool), result.structured_content)
    assert text_of(result).strip(), "%s: empty text content" % tool
    return result


# ---------------------------------------------------------------- the SDK, initialize era


@pytest.mark.anyio
async def test_initialize_negotiates_the_handshake(connect, contract):
    async with connect(mode=None) as session:
        result = await session.initialize()
        assert session.protocol_version == LATEST_HANDSHAKE
    assert result.protocol_version == LATEST_HANDSHAKE
    assert result.server_info.name == "movie-rpc"
    assert result.server_info.version == contract.document["info"]["version"]
    assert result.capabilities.tools is not None
    assert result.capabilities.tools.list_changed is False
    assert result.instructions and "movie" in result.instructions.lower()


@pytest.mark.anyio
async def test_one_tool_per_public_method(connect, contract):
    async with connect() as session:
        listing = await session.list_tools()
    assert listing.next_cursor is None
    names = [tool.name for tool in listing.tools]
    assert len(names) == len(set(names)), "duplicate tool names"
    public = [name for name in contract.method_names if name not in NOT_TOOLS]
    assert names == [tool_name(name) for name in public], "one tool per public method, in document order"
    for tool in listing.tools:
        method = method_of(tool.name)
        assert tool.title == method
        assert tool.description
        assert tool.input_schema["type"] == "object", tool.name
        assert tool.input_schema.get("additionalProperties") is False, tool.name
        result_schema = contract.resolve(contract.methods[method]["result"]["schema"])
        if result_schema.get("type") == "object":
            assert tool.output_schema and tool.output_schema["type"] == "object", tool.name
        else:
            assert tool.output_schema is None, "%s answers %r: no object output schema" % (tool.name, result_schema)


@pytest.mark.anyio
async def test_genres_tool(connect, contract):
    async with connect() as session:
        result = await call_ok(session, contract, "genres_list")
    genres = result.structured_content["genres"]
    assert result.structured_content["source"] == "demo"
    assert genres and all(set(genre) == {"id", "name"} for genre in genres)
    assert genres[0]["name"] in text_of(result)


@pytest.mark.anyio
async def test_popular_and_details_tools(connect, contract):
    async with connect() as session:
        popular = await call_ok(session, contract, "movies_popular", {"page": 2})
        page = popular.structured_content
        assert page["page"] == 2 and page["results"]
        first = page["results"][0]
        assert "page 2 of %d" % page["totalPages"] in text_of(popular)
        assert first["title"] in text_of(popular)

        details = await call_ok(session, contract, "movies_details", {"movieId": first["id"]})
    assert details.structured_content["id"] == first["id"]
    assert details.structured_content["title"] == first["title"]


@pytest.mark.anyio
async def test_details_text_names_the_movie(connect, contract):
    async with connect() as session:
        details = await call_ok(session, contract, "movies_details", {"movieId": 550})
    assert "Fight Club" in text_of(details)


@pytest.mark.anyio
async def test_account_and_favorites_tools(connect, contract):
    async with connect() as session:
        page = (await call_ok(session, contract, "movies_popular", {"page": 1})).structured_content
        liked, other = page["results"][0]["id"], page["results"][1]["id"]

        signed_in = await call_ok(session, contract, "auth_register",
                                  {"email": "ada@example.com", "password": "pw-ada-lovelace"})
        assert signed_in.structured_content["user"]["email"] == "ada@example.com"

        added = await call_ok(session, contract, "favorites_add", {"movieId": liked})
        assert added.structured_content["movieId"] == liked

        listed = await call_ok(session, contract, "favorites_list")
        assert [favorite["movieId"] for favorite in listed.structured_content["favorites"]] == [liked]
        assert page["results"][0]["title"] in text_of(listed)

        contains = await call_ok(session, contract, "favorites_contains", {"movieIds": [liked, other]})
    assert contains.structured_content == {"contains": {str(liked): True, str(other): False}}


@pytest.mark.anyio
async def test_failures_inside_a_tool_are_tool_errors(connect):
    async with connect() as session:
        missing = await session.call_tool("movies_details", {"movieId": UNKNOWN_MOVIE})
        logged_out = await session.call_tool("favorites_add", {"movieId": 550})
        await session.call_tool("auth_register", {"email": "bob@example.com", "password": "pw-bob-builder"})
        duplicate_email = await session.call_tool("auth_register",
                                                  {"email": "bob@example.com", "password": "pw-bob-builder"})
    assert missing.is_error and missing.structured_content is None
    assert "not found" in text_of(missing).lower() and str(UNKNOWN_MOVIE) in text_of(missing)
    assert logged_out.is_error and logged_out.structured_content is None
    assert "log in" in text_of(logged_out).lower()
    assert duplicate_email.is_error and text_of(duplicate_email)


@pytest.mark.anyio
@pytest.mark.parametrize("tool, arguments, field", [
    ("no_such_tool", {}, "name"),
    ("movies.popular", {}, "name"),               # the method's name is not a tool name
    ("movies_popular", {"page": "x"}, "page"),
    ("movies_popular", {"page": 1.5}, "page"),
    ("movies_popular", {"pages": 2}, "pages"),    # unknown argument
    ("movies_details", {}, "movieId"),            # missing required argument
])
async def test_unknown_tools_and_bad_arguments_are_invalid_params(connect, tool, arguments, field):
    async with connect() as session:
        with pytest.raises(MCPError) as caught:
            await session.call_tool(tool, arguments)
        assert caught.value.code == -32602, caught.value
        assert caught.value.error.data["field"] == field, caught.value.error
        assert caught.value.error.message
        assert not (await session.call_tool("genres_list", {})).is_error  # the session goes on


@pytest.mark.anyio
async def test_ping_and_concurrent_calls(connect, contract):
    async with connect() as session:
        await session.send_ping()
        pages: Dict[int, Any] = {}

        async def fetch(number: int) -> None:
            pages[number] = await call_ok(session, contract, "movies_popular", {"page": number})

        async with anyio.create_task_group() as group:
            for number in range(1, 6):
                group.start_soon(fetch, number)
    assert {number: result.structured_content["page"] for number, result in pages.items()} == \
        {number: number for number in range(1, 6)}


@pytest.mark.anyio
async def test_an_abandoned_call_is_cancelled_and_the_session_goes_on(connect, server_params, contract):
    """The SDK sends notifications/cancelled for a call its caller gave up on; the server's late answer to
    it (-32800) must not disturb the session."""
    tmdb = FakeTMDB(api_key=TMDB_KEY).start()
    try:
        env = dict(server_params.env or {})
        env.update({"TMDB_API_KEY": TMDB_KEY, "TMDB_BASE_URL": tmdb.base_url, "MOVIE_RPC_TMDB_TIMEOUT": "10"})
        params = StdioServerParameters(command=server_params.command, env=env)
        async with connect(params=params) as session:
            tmdb.set_fault("slow", delay=5.0, times=1)
            started = time.monotonic()
            with anyio.move_on_after(0.5) as scope:
                await session.call_tool("movies_popular", {"page": 7})
            assert scope.cancelled_caught
            genres = await call_ok(session, contract, "genres_list")
            assert genres.structured_content["source"] == "network"
            assert time.monotonic() - started < 4, "the cancelled call held up the next one"
    finally:
        tmdb.stop()


# ---------------------------------------------------------------- the SDK, 2026-07-28 era


@pytest.mark.anyio
async def test_the_sdk_discovers_the_stateless_era(connect, contract):
    async with connect(mode=None) as session:
        result = await session.discover()
        assert session.protocol_version == STATELESS
        assert STATELESS in result.supported_versions and LATEST_HANDSHAKE in result.supported_versions
        assert session.server_info is not None and session.server_info.name == "movie-rpc"
        assert session.server_info.version == contract.document["info"]["version"]
        assert session.server_capabilities.tools is not None


@pytest.mark.anyio
async def test_the_sdk_default_client_lists_and_calls_tools(server_params, contract):
    # mcp.Client's default mode ("auto") probes server/discover first and, since it succeeds, speaks
    # 2026-07-28: what a current agent host built on the SDK does.
    with anyio.fail_after(60):
        async with mcp.Client(server_params, read_timeout_seconds=DEADLINE) as client:
            assert client.protocol_version == STATELESS
            listing = await client.list_tools()
            assert {tool.name for tool in listing.tools} >= {"genres_list", "movies_popular"}
            result = await client.call_tool("genres_list", {})
    assert not result.is_error
    contract.assert_result_matches("genres.list", result.structured_content)


# ---------------------------------------------------------------- raw pipes


class McpPipe(RawServer):
    """A RawServer for MCP traffic. Replies are checked as JSON-RPC responses only: MCP's methods are
    not in the OpenRPC document and MCP defines error codes of its own."""

    def _check(self, message: Any) -> None:
        assert isinstance(message, dict), "MCP has no batches: %r" % (message,)
        assert message.get("jsonrpc") == "2.0" and "id" in message, message
        assert set(message) in ({"jsonrpc", "id", "result"}, {"jsonrpc", "id", "error"}), message
        self.replies_seen += 1
        if "error" in message:
            error = message["error"]
            assert isinstance(error.get("code"), int) and not isinstance(error["code"], bool), error
            assert isinstance(error.get("message"), str) and error["message"], error
            assert set(error) <= {"code", "message", "data"}, error

    def result(self, method: str, params: Any = None) -> Dict[str, Any]:
        reply = self.request(method, params)
        assert "result" in reply, "%s: %r" % (method, reply)
        return reply["result"]

    def error(self, method: str, params: Any = None) -> Dict[str, Any]:
        reply = self.request(method, params)
        assert "error" in reply, "%s: expected an error, got %.300r" % (method, reply)
        return reply["error"]

    def notify(self, method: str, params: Any = None) -> None:
        message: Dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)


@pytest.fixture
def spawn_mcp(server_binary, server_env, contract):
    pipes: List[McpPipe] = []

    def start(env: Optional[Dict[str, Optional[str]]] = None) -> McpPipe:
        changes = dict(server_env)
        changes.update(LOCAL)
        changes.update(env or {})
        pipe = McpPipe([server_binary], full_env(changes), "newline", contract)
        pipes.append(pipe)
        return pipe

    yield start
    errors = []
    for pipe in pipes:
        try:
            pipe.finish()  # stdin closed -> exit 0, every reply read, stdout only whole lines of JSON-RPC
        except AssertionError as error:
            errors.append(error)
        finally:
            pipe.kill()
    if errors:
        raise errors[0]


@pytest.fixture
def pipe(spawn_mcp) -> McpPipe:
    return spawn_mcp()


def initialize_params(version: str) -> Dict[str, Any]:
    return {"protocolVersion": version, "capabilities": {},
            "clientInfo": {"name": "movie-rpc-tests", "version": "1"}}


@pytest.mark.parametrize("requested, answered", [
    (LATEST_HANDSHAKE, LATEST_HANDSHAKE), ("2025-06-18", "2025-06-18"), ("2025-03-26", "2025-03-26"),
    ("2024-11-05", "2024-11-05"),
    (STATELESS, LATEST_HANDSHAKE),    # 2026-07-28 has no initialize: answer the newest version that has
    ("1999-01-01", LATEST_HANDSHAKE),  # unknown: answer our latest, the client decides
])
def test_raw_initialize_handshake(pipe, contract, requested, answered):
    result = pipe.result("initialize", initialize_params(requested))
    contract.assert_result_matches("initialize", result)
    assert result["protocolVersion"] == answered
    assert result["serverInfo"]["name"] == "movie-rpc"
    assert result["capabilities"] == {"tools": {"listChanged": False}}
    assert "movieRpc" not in result["capabilities"]
    pipe.notify("notifications/initialized")  # a notification: never answered
    assert pipe.result("ping") == {}
    pipe.assert_alive()


def test_initialize_without_client_info_is_the_lsp_handshake(pipe, contract):
    result = pipe.result("initialize", {"protocolVersion": LATEST_HANDSHAKE, "processId": None})
    contract.assert_result_matches("initialize", result)
    assert "movieRpc" in result["capabilities"] and "protocolVersion" not in result


def test_server_discover(pipe, contract):
    result = pipe.result("server/discover", {"_meta": META})
    assert result["resultType"] == "complete"
    assert STATELESS in result["supportedVersions"] and LATEST_HANDSHAKE in result["supportedVersions"]
    assert result["capabilities"]["tools"] == {"listChanged": False}
    assert result["_meta"]["io.modelcontextprotocol/serverInfo"] == {
        "name": "movie-rpc", "version": contract.document["info"]["version"]}
    assert result["instructions"]


def test_stateless_cacheable_results_carry_cache_hints(pipe):
    for method in ("server/discover", "tools/list"):
        result = pipe.result(method, {"_meta": META})
        assert isinstance(result.get("ttlMs"), int) and result["ttlMs"] >= 0, "%s: ttlMs %r" % (method, result)
        assert result.get("cacheScope") in ("public", "private"), "%s: cacheScope" % method


def test_stateless_tools_list_and_call(pipe, contract):
    stateless = pipe.result("tools/list", {"_meta": META})
    classic = pipe.result("tools/list")
    assert stateless["resultType"] == "complete"
    assert "resultType" not in classic
    assert stateless["tools"] == classic["tools"]

    called = pipe.result("tools/call", {"name": "movies_popular", "arguments": {"page": 3}, "_meta": META})
    assert called["resultType"] == "complete" and called["isError"] is False
    contract.assert_result_matches("movies.popular", called["structuredContent"])
    assert called["content"][0]["type"] == "text" and called["content"][0]["text"]

    failed = pipe.result("tools/call", {"name": "movies_details", "arguments": {"movieId": UNKNOWN_MOVIE},
                                        "_meta": META})
    assert failed["resultType"] == "complete" and failed["isError"] is True
    assert "structuredContent" not in failed and failed["content"][0]["text"]


def test_tools_call_arguments_may_be_absent_or_null(pipe, contract):
    for params in ({"name": "genres_list"}, {"name": "genres_list", "arguments": None}):
        result = pipe.result("tools/call", params)
        assert result["isError"] is False
        contract.assert_result_matches("genres.list", result["structuredContent"])
    assert pipe.error("tools/call", {"arguments": {}})["code"] == -32602  # no name


@pytest.mark.parametrize("method, params", [
    ("server/discover", {}),
    ("tools/list", {}),
    ("tools/call", {"name": "genres_list", "arguments": {}}),
])
def test_an_unsupported_version_is_refused_with_the_supported_ones(pipe, method, params):
    error = pipe.error(method, dict(params, _meta=dict(META, **{VERSION_KEY: "2099-01-01"})))
    assert error["code"] in (-32602, -32022), error  # see the next test
    assert STATELESS in error["data"]["supported"] and LATEST_HANDSHAKE in error["data"]["supported"]
    assert error["data"]["requested"] == "2099-01-01"
    assert pipe.result("ping") == {}


def test_an_unsupported_version_is_the_dedicated_code(pipe):
    error = pipe.error("server/discover", {"_meta": dict(META, **{VERSION_KEY: "2099-01-01"})})
    assert error["code"] == -32022


def test_missing_client_capabilities_is_invalid_params(pipe):
    error = pipe.error("tools/list", {"_meta": {VERSION_KEY: STATELESS}})
    assert error["code"] == -32602 and CAPABILITIES_KEY in error["message"]
    assert error["data"]["field"] == "_meta"


def test_ping(pipe):
    assert pipe.result("ping") == {}
    assert pipe.result("ping", {}) == {}
    assert pipe.result("ping", {"_meta": META}) == {}


def test_notifications_cancelled_cancels_a_slow_call(spawn_mcp):
    tmdb = FakeTMDB(api_key=TMDB_KEY).start()
    try:
        pipe = spawn_mcp({"TMDB_API_KEY": TMDB_KEY, "TMDB_BASE_URL": tmdb.base_url,
                          "MOVIE_RPC_TMDB_TIMEOUT": "10"})
        pipe.result("initialize", initialize_params(LATEST_HANDSHAKE))
        pipe.notify("notifications/initialized")
        tmdb.set_fault("slow", delay=5.0, times=1)
        started = time.monotonic()
        pipe.send({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                   "params": {"name": "movies_popular", "arguments": {"page": 12}}})
        # Not held up by the slow call.
        assert pipe.result("tools/call", {"name": "server_info", "arguments": {}})["isError"] is False
        pipe.notify("notifications/cancelled", {"requestId": 7, "reason": "the user gave up"})
        # MCP lets the server stay silent about a cancelled request; this one answers it as it answers
        # $/cancelRequest (clients ignore replies to requests they cancelled). Either way, promptly.
        reply = pipe.reply_to(7, timeout=4)
        assert reply["error"]["code"] == -32800, reply
        assert time.monotonic() - started < 4
        pipe.assert_alive()
    finally:
        tmdb.stop()


# ---------------------------------------------------------------- the finding tools (#12)


@pytest.fixture
def live_params(server_binary, server_env):
    """The server against a fake TMDB, as an agent host would start it."""
    from fake_tmdb import FakeTMDB
    fake = FakeTMDB(api_key=TMDB_KEY).start()
    changes = dict(server_env)
    changes.update(LOCAL)
    changes.update({"TMDB_API_KEY": TMDB_KEY, "TMDB_BASE_URL": fake.base_url, "MOVIE_RPC_TMDB_TIMEOUT": "5"})
    yield StdioServerParameters(command=server_binary,
                                env={name: value for name, value in changes.items() if value is not None})
    fake.stop()


@pytest.mark.anyio
async def test_finding_tools_tell_an_agent_which_to_pick(connect):
    async with connect() as session:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
    for name in ["movies_search", "movies_trending", "movies_topRated", "movies_nowPlaying", "movies_upcoming",
                 "movies_discover", "movies_credits", "movies_videos", "movies_watchProviders",
                 "movies_recommendations", "movies_similar", "movies_find", "people_search", "people_details"]:
        assert name in tools and tools[name].output_schema["type"] == "object", name
    assert "title" in tools["movies_search"].description and "movies.discover" in tools["movies_search"].description
    assert "movies.search" in tools["movies_discover"].description
    assert "IMDb" in tools["movies_find"].description
    assert tools["movies_discover"].input_schema["properties"]["sortBy"]["enum"]
    assert tools["movies_search"].input_schema["required"] == ["query"]


@pytest.mark.anyio
async def test_finding_tools_answer_from_tmdb(connect, live_params, contract):
    async with connect(params=live_params) as session:
        found = await call_ok(session, contract, "movies_search", {"query": "fight club"})
        assert found.structured_content["results"][0]["id"] == 550
        assert "Fight Club" in text_of(found)
        by_id = await call_ok(session, contract, "movies_find", {"imdbId": "tt0137523"})
        assert by_id.structured_content["id"] == 550
        dramas = await call_ok(session, contract, "movies_discover", {"genreIds": [18], "sortBy": "vote_average.desc"})
        assert all(18 in m["genreIds"] for m in dramas.structured_content["results"])
        credits = await call_ok(session, contract, "movies_credits", {"movieId": 550})
        assert credits.structured_content["cast"][0]["order"] == 0
        await call_ok(session, contract, "movies_videos", {"movieId": 550})
        await call_ok(session, contract, "movies_watchProviders", {"movieId": 550, "region": "US"})
        await call_ok(session, contract, "movies_trending", {"window": "week"})
        await call_ok(session, contract, "movies_nowPlaying", {})
        await call_ok(session, contract, "movies_similar", {"movieId": 550})
        people = await call_ok(session, contract, "people_search", {"query": "Performer 110"})
        person = people.structured_content["results"][0]["id"]
        await call_ok(session, contract, "people_details", {"personId": person})
        full = await call_ok(session, contract, "movies_details",
                             {"movieId": 550, "include": ["credits", "videos", "releaseDates"], "region": "US"})
        assert full.structured_content["certification"] == "R"
        unpaired = await session.call_tool("movies_discover", {"certification": "R"})
        assert unpaired.is_error and "certificationCountry" in text_of(unpaired)


@pytest.mark.anyio
async def test_the_demo_refuses_what_it_lacks_as_a_tool_error(connect):
    async with connect() as session:
        refused = await session.call_tool("movies_credits", {"movieId": 550})
    assert refused.is_error and "demo catalog" in text_of(refused)
