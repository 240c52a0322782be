"""AsyncClient: concurrent calls, cancellation that reaches the server, $/progress as an async iterator
and as a callback, async with; over the fake server and over the real one on the demo catalog."""

from __future__ import annotations

import asyncio
from typing import Any, Dict, List, Tuple

import pytest

from movie_rpc import AsyncClient, ErrorCode, Notification, RpcError, ServerExited

from conftest import FAKE_SERVER


def run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 120))


def test_concurrent_calls_resolve_by_id() -> None:
    async def main() -> List[Any]:
        async with AsyncClient(FAKE_SERVER) as client:
            return list(await asyncio.gather(*(client.call("echo", n=n) for n in range(50))))

    assert [answer["params"]["n"] for answer in run(main())] == list(range(50))


def test_cancelling_the_awaiting_task_sends_cancel_request() -> None:
    async def main() -> Tuple[Notification, int]:
        async with AsyncClient(FAKE_SERVER) as client:
            gotten = client.notifications()
            task = asyncio.ensure_future(client.call("slow"))
            await asyncio.sleep(0)  # let it send the request
            while not client._pending:
                await asyncio.sleep(0)
            request_id = next(iter(client._pending))
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            notification = await gotten.__anext__()
            return notification, request_id

    notification, request_id = run(main())
    assert notification == ("gotCancel", {"id": request_id})


def test_wait_for_running_out_cancels_on_the_server_too() -> None:
    async def main() -> Notification:
        async with AsyncClient(FAKE_SERVER) as client:
            gotten = client.notifications()
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(client.call("slow"), 0.2)
            return await gotten.__anext__()

    assert run(main()).method == "gotCancel"


def test_progress_as_an_async_iterator_and_a_callback() -> None:
    seen: List[Tuple[str, Any]] = []

    async def callback(method: str, params: Any) -> None:
        seen.append((method, params))

    async def main() -> Tuple[List[Dict[str, Any]], Any]:
        async with AsyncClient(FAKE_SERVER, on_notification=callback) as client:
            async with client.progress("t1") as updates:
                answer = asyncio.ensure_future(client.call("progress", token="t1"))
                values = [value async for value in updates]
            return values, await answer

    values, answer = run(main())
    assert [value["done"] for value in values] == [1, 2, 3] and answer == "finished"
    assert [method for method, _ in seen] == ["$/progress"] * 3


def test_a_server_that_exits_fails_the_waiting_calls() -> None:
    async def main() -> None:
        async with AsyncClient(FAKE_SERVER) as client:
            slow = asyncio.ensure_future(client.call("slow"))
            await asyncio.sleep(0.05)
            assert client._proc is not None
            client._proc.kill()
            with pytest.raises(ServerExited):
                await slow

    run(main())


def test_async_helpers_on_the_demo_catalog(binary: str, demo_env: Dict[str, Any]) -> None:
    async def main() -> None:
        async with AsyncClient(binary, env=demo_env) as client:
            info, genres, page = await asyncio.gather(
                client.server_info(), client.genres_list(), client.movies_popular(page=2, poster_size="w92"))
            assert info["catalog"] == "demo" and len(genres["genres"]) == 19 and page["page"] == 2
            details = await client.movies_details(movie_id=page["results"][0]["id"])
            assert details["title"] == page["results"][0]["title"]
            with pytest.raises(RpcError) as caught:
                await client.movies_details(movie_id=987654321)
            assert caught.value.code == ErrorCode.NOT_FOUND
            async with client.progress("sync") as updates:
                sync = asyncio.ensure_future(client.catalog_sync(popular_pages=2, progress_token="sync"))
                values = [value async for value in updates]
            report = await sync
            assert values and values[-1]["done"] == values[-1]["total"] == report["total"]
        assert client.returncode == 0

    run(main())
