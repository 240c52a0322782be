"""An asyncio client: the server as a child of ``asyncio.create_subprocess_exec``, every helper a coroutine.

    import asyncio
    from movie_rpc import AsyncClient

    async def main() -> None:
        async with AsyncClient(env={"MOVIE_RPC_HOME": "/tmp/movies"}) as client:
            popular, genres = await asyncio.gather(client.movies_popular(page=1), client.genres_list())
            async with client.progress("sync-1") as updates:
                sync = asyncio.ensure_future(client.catalog_sync(popular_pages=2, progress_token="sync-1"))
                async for value in updates:
                    print(value["done"], "/", value["total"], value["message"])
            print(await sync)

    asyncio.run(main())

One reader task matches replies to requests by id, so any number of calls can be in flight. Cancelling
the task that awaits a call (``task.cancel()``, ``asyncio.wait_for`` running out) sends
``$/cancelRequest`` for it, so the server stops the work too.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import json
import os
from types import TracebackType
from typing import (Any, Awaitable, Callable, Deque, Dict, List, Mapping, Optional, Sequence,
                    Set, Type, Union)

from ._generated import AsyncMethods
from ._omit import OMIT
from .client import Notification, default_command
from .errors import ProtocolError, RpcError, ServerExited
from .framing import FramingError, encode_message, make_decoder

__all__ = ["AsyncClient", "NotificationStream", "ProgressUpdates"]

NotificationCallback = Callable[[str, Any], Union[None, Awaitable[None]]]


class ProgressUpdates:
    """The ``value`` of each ``$/progress`` notification for one token, as an async iterator. It ends after
    the update whose ``done`` reaches ``total``, or when the context (``async with client.progress(t)``)
    is left or the server exits."""

    _END: Any = object()

    def __init__(self, client: "AsyncClient", token: Union[int, str]) -> None:
        self.token = token
        self._client = client
        self._queue: "asyncio.Queue[Any]" = asyncio.Queue()
        self._finished = False

    def _put(self, value: Any) -> None:
        self._queue.put_nowait(value)
        if isinstance(value, dict):
            done, total = value.get("done"), value.get("total")
            if isinstance(done, int) and isinstance(total, int) and done >= total:
                self._queue.put_nowait(self._END)

    def _end(self) -> None:
        self._queue.put_nowait(self._END)

    def __aiter__(self) -> "ProgressUpdates":
        return self

    async def __anext__(self) -> Dict[str, Any]:
        if self._finished:
            raise StopAsyncIteration
        value = await self._queue.get()
        if value is self._END:
            self._finished = True
            raise StopAsyncIteration
        return value if isinstance(value, dict) else {"value": value}

    async def __aenter__(self) -> "ProgressUpdates":
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        self._client._progress.get(self.token, set()).discard(self)
        self._end()


class NotificationStream:
    """The notifications of :meth:`AsyncClient.notifications`, from the moment it was asked for."""

    def __init__(self, client: "AsyncClient") -> None:
        self._client = client
        self._queue: "asyncio.Queue[Optional[Notification]]" = asyncio.Queue()
        self._finished = False

    def _put(self, item: Optional[Notification]) -> None:
        self._queue.put_nowait(item)

    def __aiter__(self) -> "NotificationStream":
        return self

    async def __anext__(self) -> Notification:
        if self._finished:
            raise StopAsyncIteration
        item = await self._queue.get()
        if item is None:
            self._finished = True
            raise StopAsyncIteration
        return item

    async def __aenter__(self) -> "NotificationStream":
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        self._client._subscribers.discard(self)
        self._put(None)


class AsyncClient(AsyncMethods):
    """A movie-rpc server process driven from asyncio. The arguments are :class:`movie_rpc.Client`'s:
    ``command`` (a path or an argv; default ``$MOVIE_RPC_BIN`` or ``movie-rpc`` on ``PATH``), ``framing``,
    ``env`` (a ``None`` value removes a variable), ``cwd``, ``args``. ``on_notification(method, params)``,
    a function or a coroutine function, sees every notification.

    ``async with AsyncClient(...) as client`` starts it and closes it; or ``await client.start()`` and
    ``await client.close()``.
    """

    def __init__(
        self,
        command: Union[str, Sequence[str], None] = None,
        framing: str = "newline",
        env: Optional[Mapping[str, Optional[str]]] = None,
        cwd: Optional[str] = None,
        *,
        args: Sequence[str] = (),
        on_notification: Optional[NotificationCallback] = None,
    ) -> None:
        if command is None:
            self._argv = default_command()
        elif isinstance(command, (str, os.PathLike)):
            self._argv = [os.fspath(command)]
        else:
            self._argv = list(command)
        self._argv += list(args)
        self.framing = framing
        self._decoder = make_decoder(framing)
        self._env = dict(os.environ)
        for name, value in (env or {}).items():
            if value is None:
                self._env.pop(name, None)
            else:
                self._env[name] = str(value)
        self._cwd = cwd
        self._on_notification = on_notification
        self._proc: Optional[asyncio.subprocess.Process] = None
        self._reader: Optional["asyncio.Task[None]"] = None
        self._stderr_reader: Optional["asyncio.Task[None]"] = None
        self._ids = itertools.count(1)
        self._pending: Dict[int, "asyncio.Future[Any]"] = {}
        self._methods: Dict[int, str] = {}
        self._progress: Dict[Union[int, str], Set[ProgressUpdates]] = {}
        self._subscribers: Set[NotificationStream] = set()
        self._callbacks: Set["asyncio.Task[None]"] = set()
        self._stderr_tail: Deque[str] = collections.deque(maxlen=200)
        self._closed = False
        #: What the server wrote that was not a valid frame or message (should stay empty).
        self.protocol_errors: List[ProtocolError] = []

    # ------------------------------------------------------------------ process

    async def start(self) -> "AsyncClient":
        """Spawns the server (once)."""
        if self._proc is None:
            self._proc = await asyncio.create_subprocess_exec(
                *self._argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE, env=self._env, cwd=self._cwd)
            self._reader = asyncio.ensure_future(self._read_loop())
            self._stderr_reader = asyncio.ensure_future(self._drain_stderr())
        return self

    @property
    def pid(self) -> Optional[int]:
        return self._proc.pid if self._proc is not None else None

    @property
    def returncode(self) -> Optional[int]:
        return self._proc.returncode if self._proc is not None else None

    def stderr_tail(self) -> str:
        """The last lines the server wrote to stderr (its log)."""
        return "".join(self._stderr_tail)

    async def close(self, timeout: float = 10.0) -> Optional[int]:
        """Closes the server's stdin (it answers what is in flight and exits) and returns its exit status;
        a server still running after ``timeout`` is terminated, then killed."""
        if self._proc is None:
            return None
        self._closed = True
        stdin = self._proc.stdin
        if stdin is not None and not stdin.is_closing():
            stdin.close()
        try:
            await asyncio.wait_for(self._proc.wait(), timeout)
        except asyncio.TimeoutError:
            self._proc.terminate()
            try:
                await asyncio.wait_for(self._proc.wait(), 5)
            except asyncio.TimeoutError:
                self._proc.kill()
                await self._proc.wait()
        for task in (self._reader, self._stderr_reader):
            if task is not None:
                await task
        return self._proc.returncode

    async def __aenter__(self) -> "AsyncClient":
        return await self.start()

    async def __aexit__(self, exc_type: Optional[Type[BaseException]], exc: Optional[BaseException],
                        traceback: Optional[TracebackType]) -> None:
        await self.close()

    # ------------------------------------------------------------------ sending

    async def call(self, method: str, params: Any = OMIT, /, **named: Any) -> Any:
        """Sends a request and returns its result; raises :class:`RpcError` for an error reply and
        :class:`ServerExited` when the server ends first. Params as one dict (or list) or as keywords,
        with the wire's names. Cancelling the awaiting task sends ``$/cancelRequest``."""
        if named:
            if params is not OMIT:
                raise TypeError("give params either as one dict/list or as keyword arguments, not both")
            params = dict(named)
        proc = self._require_running()
        request_id = next(self._ids)
        future: "asyncio.Future[Any]" = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        self._methods[request_id] = method
        message: Dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not OMIT:
            message["params"] = params
        try:
            self._write(proc, message)
            if proc.stdin is not None:
                await proc.stdin.drain()
            return await future
        except asyncio.CancelledError:
            # Cancelling the task cancels the future it awaits; a reply that already came needs no cancel.
            if future.cancelled() or not future.done():
                self._send_cancel(request_id)
            raise
        finally:
            self._pending.pop(request_id, None)
            self._methods.pop(request_id, None)

    async def notify(self, method: str, params: Any = OMIT, /, **named: Any) -> None:
        """Sends a notification (no reply)."""
        if named:
            params = dict(named)
        message: Dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not OMIT:
            message["params"] = params
        proc = self._require_running()
        self._write(proc, message)
        if proc.stdin is not None:
            await proc.stdin.drain()

    async def _call_method(self, method: str, params: Optional[Dict[str, Any]]) -> Any:
        return await (self.call(method, params) if params else self.call(method))

    async def discover(self) -> Dict[str, Any]:
        """``rpc.discover``: the server's OpenRPC document."""
        return await self.rpc_discover()

    def _require_running(self) -> asyncio.subprocess.Process:
        if self._proc is None:
            raise RuntimeError("AsyncClient not started: use 'async with' or await start()")
        if self._closed or self._proc.stdin is None or self._proc.stdin.is_closing() or self._reader is None \
                or self._reader.done():
            raise ServerExited(self._proc.returncode, self.stderr_tail())
        return self._proc

    def _write(self, proc: asyncio.subprocess.Process, message: Any) -> None:
        # StreamWriter.write buffers without blocking, so a frame is never interleaved with another and
        # a cancellation handler can send $/cancelRequest without awaiting.
        assert proc.stdin is not None
        try:
            proc.stdin.write(encode_message(message, self.framing))
        except (BrokenPipeError, ConnectionResetError):
            raise ServerExited(proc.returncode, self.stderr_tail()) from None

    def _send_cancel(self, request_id: int) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None or proc.stdin.is_closing():
            return
        try:
            self._write(proc, {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": request_id}})
        except ServerExited:
            pass

    # ------------------------------------------------------------------ notifications

    def progress(self, token: Union[int, str]) -> ProgressUpdates:
        """The ``$/progress`` values sent for ``token``. Enter it (``async with``) before starting the
        request that carries the token, so no update is missed."""
        updates = ProgressUpdates(self, token)
        self._progress.setdefault(token, set()).add(updates)
        return updates

    def notifications(self) -> "NotificationStream":
        """Every notification the server sends from this call on, as an async iterator that ends when
        the server exits (or when left, as ``async with client.notifications() as stream``)."""
        stream = NotificationStream(self)
        self._subscribers.add(stream)
        return stream

    # ------------------------------------------------------------------ reading

    async def _read_loop(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        stdout = self._proc.stdout
        try:
            while True:
                chunk = await stdout.read(65536)
                if not chunk:
                    break
                try:
                    bodies = self._decoder.feed(chunk)
                except FramingError as error:
                    self.protocol_errors.append(ProtocolError("unframable output: %s" % error))
                    continue
                for body in bodies:
                    self._dispatch(body)
        finally:
            await self._fail_pending()

    async def _fail_pending(self) -> None:
        assert self._proc is not None
        try:
            await asyncio.wait_for(self._proc.wait(), 2)
        except asyncio.TimeoutError:
            pass
        error = ServerExited(self._proc.returncode, self.stderr_tail())
        for future in list(self._pending.values()):
            if not future.done():
                future.set_exception(error)
        for group in self._progress.values():
            for updates in group:
                updates._end()
        for stream in self._subscribers:
            stream._put(None)

    async def _drain_stderr(self) -> None:
        assert self._proc is not None and self._proc.stderr is not None
        async for line in self._proc.stderr:
            self._stderr_tail.append(line.decode("utf-8", "replace"))

    def _dispatch(self, body: bytes) -> None:
        try:
            message = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as error:
            self.protocol_errors.append(ProtocolError("invalid JSON from server (%s)" % error))
            return
        for item in message if isinstance(message, list) else [message]:
            self._dispatch_one(item)

    def _dispatch_one(self, message: Any) -> None:
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            self.protocol_errors.append(ProtocolError("not a JSON-RPC 2.0 message: %r" % (message,)))
            return
        if "method" in message:
            if "id" in message:  # the server asked us something; we implement no client methods
                if self._proc is not None:
                    self._write(self._proc, {"jsonrpc": "2.0", "id": message["id"], "error": {
                        "code": -32601, "message": "Method not found", "data": {"kind": "methodNotFound"}}})
                return
            self._notification(Notification(str(message["method"]), message.get("params")))
            return
        request_id = message.get("id")
        future = self._pending.get(request_id) if isinstance(request_id, int) else None
        if future is None or future.done():
            return
        method = self._methods.get(request_id) if isinstance(request_id, int) else None
        if "error" in message:
            future.set_exception(RpcError.from_error_object(message["error"], method=method,
                                                            request_id=request_id))
        else:
            future.set_result(message.get("result"))

    def _notification(self, notification: Notification) -> None:
        params = notification.params
        token = params.get("token") if isinstance(params, dict) else None
        if notification.method == "$/progress" and isinstance(token, (int, str)) and isinstance(params, dict):
            for updates in list(self._progress.get(token, ())):
                updates._put(params.get("value"))
        for stream in self._subscribers:
            stream._put(notification)
        if self._on_notification is not None:
            try:
                outcome = self._on_notification(notification.method, params)
            except Exception as error:  # a broken callback must not stop the reader
                self.protocol_errors.append(ProtocolError("on_notification raised %r" % (error,)))
                return
            if outcome is not None:
                task = asyncio.ensure_future(outcome)
                self._callbacks.add(task)
                task.add_done_callback(self._callbacks.discard)
