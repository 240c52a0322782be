"""A client that spawns movie-rpc and talks JSON-RPC 2.0 to it over the process's stdin/stdout.

One reader thread reads the server's stdout with blocking reads, splits frames, resolves each reply's
future by id and hands notifications to a callback and a queue. Requests can be made from any thread.
"""

from __future__ import annotations

import collections
import concurrent.futures
import itertools
import json
import os
import queue
import shutil
import subprocess
import threading
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, NamedTuple, Optional, Sequence, Union

from .errors import ProtocolError, RpcError, RpcTimeout, ServerExited
from .framing import FramingError, encode_message, make_decoder

__all__ = [
    "OMIT",
    "Call",
    "Notify",
    "Notification",
    "PendingRequest",
    "Client",
    "default_command",
]


class _Omit:
    """Sentinel: leave the ``params`` member out of the message (``None`` sends ``"params": null``)."""

    _instance: Optional["_Omit"] = None

    def __new__(cls) -> "_Omit":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "OMIT"

    def __bool__(self) -> bool:
        return False


OMIT: Any = _Omit()

Params = Union[Dict[str, Any], List[Any], None, _Omit]


class Notification(NamedTuple):
    """A notification the server sent (``$/progress``, ``events/...``)."""

    method: str
    params: Any


@dataclass(frozen=True)
class Call:
    """A request inside :meth:`Client.batch`."""

    method: str
    params: Any = OMIT


@dataclass(frozen=True)
class Notify:
    """A notification inside :meth:`Client.batch` (it gets no reply)."""

    method: str
    params: Any = OMIT


class PendingRequest(concurrent.futures.Future):
    """The future of one request: resolves to its result, or raises :class:`RpcError`,
    :class:`ServerExited` or whatever the client's ``result_validator`` raised."""

    def __init__(self, client: "Client", request_id: int, method: str) -> None:
        super().__init__()
        self.id = request_id
        self.method = method
        self._client = client
        # Running from the start: a request on the wire cannot be taken back with Future.cancel();
        # cancel_request() asks the server instead, and the reply (-32800) still resolves the future.
        self.set_running_or_notify_cancel()

    def cancel_request(self) -> None:
        """Sends ``$/cancelRequest`` for this request."""
        self._client.cancel(self.id)

    def __repr__(self) -> str:
        return "<PendingRequest %s id=%r %s>" % (self.method, self.id, "done" if self.done() else "pending")


def default_command() -> List[str]:
    """``$MOVIE_RPC_BIN``, else ``movie-rpc`` found on ``PATH``."""
    binary = os.environ.get("MOVIE_RPC_BIN") or shutil.which("movie-rpc")
    if not binary:
        raise FileNotFoundError("movie-rpc not found: set MOVIE_RPC_BIN or put movie-rpc on PATH")
    return [binary]


def _merge_params(params: Any, named: Mapping[str, Any]) -> Any:
    if named:
        if params is not OMIT:
            raise TypeError("give params either as one dict/list or as keyword arguments, not both")
        return dict(named)
    return params


def _drop_none(named: Mapping[str, Any]) -> Dict[str, Any]:
    return {key: value for key, value in named.items() if value is not None}


class Client:
    """A movie-rpc server process and a JSON-RPC connection to it.

    ``command``: the argv (a list) or the path of the binary (a string); default
    :func:`default_command`. ``args`` are appended (e.g. ``["--log-level", "debug"]``).
    ``framing``: ``"newline"`` or ``"content-length"``. ``env``: variables set on top of the current
    environment; a value of ``None`` removes that variable. ``timeout``: seconds :meth:`call` waits.
    ``on_notification(method, params)`` runs on the reader thread for every server notification; every
    notification is also put on :attr:`notifications`. ``result_validator(method, result)`` runs for
    every successful reply; if it raises, the request fails with that exception (tests check results
    against the OpenRPC contract this way). ``capture_stderr=False`` lets the server's log go to this
    process's stderr instead of keeping its last lines for error messages.

    Use as a context manager, or call :meth:`close`.
    """

    def __init__(
        self,
        command: Union[str, Sequence[str], None] = None,
        framing: str = "newline",
        env: Optional[Mapping[str, Optional[str]]] = None,
        cwd: Optional[str] = None,
        timeout: float = 30.0,
        *,
        args: Sequence[str] = (),
        on_notification: Optional[Callable[[str, Any], None]] = None,
        result_validator: Optional[Callable[[str, Any], None]] = None,
        capture_stderr: bool = True,
    ) -> None:
        if command is None:
            argv = default_command()
        elif isinstance(command, (str, os.PathLike)):
            argv = [os.fspath(command)]
        else:
            argv = list(command)
        argv += list(args)
        self.framing = framing
        self.timeout = timeout
        self._decoder = make_decoder(framing)  # validates the framing name before spawning
        self._on_notification = on_notification
        self._result_validator = result_validator

        process_env = dict(os.environ)
        for name, value in (env or {}).items():
            if value is None:
                process_env.pop(name, None)
            else:
                process_env[name] = str(value)

        self._proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE if capture_stderr else None,
            env=process_env, cwd=cwd, bufsize=0)

        self.notifications: "queue.Queue[Notification]" = queue.Queue()
        #: Replies matching no pending request, e.g. errors with ``id: null`` for unparsable input.
        self.unmatched: "queue.Queue[Any]" = queue.Queue()
        #: What the server wrote that was not a valid frame or message (should stay empty).
        self.protocol_errors: List[ProtocolError] = []

        self._ids = itertools.count(1)
        self._lock = threading.Lock()  # guards _pending and _output_closed
        self._write_lock = threading.Lock()
        self._pending: Dict[Any, PendingRequest] = {}
        self._output_closed = False
        self._stdin_closed = False
        self._stderr_tail: "collections.deque[str]" = collections.deque(maxlen=200)

        self._reader = threading.Thread(target=self._read_loop, name="movie-rpc reader", daemon=True)
        self._reader.start()
        self._stderr_reader: Optional[threading.Thread] = None
        if capture_stderr:
            self._stderr_reader = threading.Thread(
                target=self._drain_stderr, name="movie-rpc stderr", daemon=True)
            self._stderr_reader.start()

    # ------------------------------------------------------------------ process

    @property
    def pid(self) -> int:
        return self._proc.pid

    @property
    def returncode(self) -> Optional[int]:
        """The exit status once the process has ended, else None."""
        return self._proc.poll()

    @property
    def process(self) -> subprocess.Popen:
        return self._proc

    def stderr_tail(self) -> str:
        """The last lines the server wrote to stderr (its log)."""
        return "".join(self._stderr_tail)

    def close(self, timeout: float = 10.0) -> int:
        """Closes the server's stdin (the server answers what is in flight and exits), waits for it and
        returns its exit status. A server still running after ``timeout`` is terminated, then killed."""
        self.close_stdin()
        try:
            returncode = self._proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self._proc.terminate()
            try:
                returncode = self._proc.wait(5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                returncode = self._proc.wait()
        self._reader.join(timeout)
        if self._stderr_reader is not None:
            self._stderr_reader.join(timeout)
        for stream in (self._proc.stdout, self._proc.stderr):
            if stream is not None:
                stream.close()
        return returncode

    def close_stdin(self) -> None:
        """Closes the server's stdin (end of input) without waiting; idempotent."""
        with self._write_lock:
            if self._stdin_closed:
                return
            self._stdin_closed = True
            if self._proc.stdin is not None:
                try:
                    self._proc.stdin.close()
                except OSError:
                    pass

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    # ------------------------------------------------------------------ sending

    def request_async(self, method: str, params: Params = OMIT, /, **named: Any) -> PendingRequest:
        """Sends a request without waiting; the returned future resolves with its reply."""
        params = _merge_params(params, named)
        with self._lock:
            request_id = next(self._ids)
            pending = PendingRequest(self, request_id, method)
            if self._output_closed:
                pending.set_exception(self._exited())
                return pending
            self._pending[request_id] = pending
        message: Dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not OMIT:
            message["params"] = params
        try:
            self.send_message(message)
        except BaseException:
            with self._lock:
                self._pending.pop(request_id, None)
            raise
        return pending

    def call(self, method: str, params: Params = OMIT, /, **named: Any) -> Any:
        """Sends a request and returns its result; raises :class:`RpcError` for an error reply.

        Params go either as one dict (or list) or as keyword arguments: ``call("movies.popular",
        page=2)`` and ``call("movies.popular", {"page": 2})`` send the same message."""
        return self.wait(self.request_async(method, params, **named))

    def wait(self, pending: PendingRequest, timeout: Optional[float] = None) -> Any:
        """The result of a request started with :meth:`request_async`. On timeout the request is
        cancelled and :class:`RpcTimeout` is raised."""
        limit = self.timeout if timeout is None else timeout
        try:
            return pending.result(limit)
        except concurrent.futures.TimeoutError:
            if pending.done():  # the request failed with a TimeoutError of its own
                raise
            with self._lock:
                self._pending.pop(pending.id, None)
            try:
                self.cancel(pending.id)
            except ServerExited:
                pass
            raise RpcTimeout(pending.method, pending.id, limit) from None

    def notify(self, method: str, params: Params = OMIT, /, **named: Any) -> None:
        """Sends a notification (no id, no reply)."""
        params = _merge_params(params, named)
        message: Dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not OMIT:
            message["params"] = params
        self.send_message(message)

    def cancel(self, request: Union[int, str, PendingRequest]) -> None:
        """Asks the server to cancel a request (``$/cancelRequest``). Its future still resolves: with the
        result if it was already done, else with ``RpcError`` -32800 (kind ``requestCancelled``)."""
        request_id = request.id if isinstance(request, PendingRequest) else request
        self.notify("$/cancelRequest", {"id": request_id})

    def batch(self, entries: Sequence[Union[Call, Notify]], timeout: Optional[float] = None) -> List[Any]:
        """Sends one JSON-RPC batch. Returns one item per entry, in order: the result, an
        :class:`RpcError` instance (not raised) for an error reply, or None for a :class:`Notify`."""
        if not entries:
            raise ValueError("a batch needs at least one entry (the server answers [] with an error)")
        messages: List[Dict[str, Any]] = []
        futures: List[Optional[PendingRequest]] = []
        with self._lock:
            if self._output_closed:
                raise self._exited()
            for entry in entries:
                message: Dict[str, Any] = {"jsonrpc": "2.0", "method": entry.method}
                if entry.params is not OMIT:
                    message["params"] = entry.params
                if isinstance(entry, Notify):
                    futures.append(None)
                else:
                    request_id = next(self._ids)
                    message["id"] = request_id
                    pending = PendingRequest(self, request_id, entry.method)
                    self._pending[request_id] = pending
                    futures.append(pending)
                messages.append(message)
        self.send_message(messages)
        results: List[Any] = []
        for pending in futures:
            if pending is None:
                results.append(None)
                continue
            try:
                results.append(self.wait(pending, timeout))
            except RpcError as error:
                results.append(error)
        return results

    def send_message(self, message: Any) -> None:
        """Frames and writes any JSON value as one message (the low-level escape hatch)."""
        self.write_bytes(encode_message(message, self.framing))

    def write_bytes(self, data: bytes) -> None:
        """Writes bytes to the server's stdin as they are (no framing)."""
        with self._write_lock:
            if self._stdin_closed or self._proc.stdin is None:
                raise self._exited()
            fd = self._proc.stdin.fileno()
            view = memoryview(data)
            try:
                while view:
                    written = os.write(fd, view)
                    view = view[written:]
            except (BrokenPipeError, ConnectionResetError):
                raise self._exited() from None

    def next_notification(self, timeout: Optional[float] = None) -> Notification:
        """The next notification from :attr:`notifications`; raises ``queue.Empty`` on timeout."""
        return self.notifications.get(timeout=self.timeout if timeout is None else timeout)

    # ------------------------------------------------------------------ reading

    def _read_loop(self) -> None:
        assert self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        broken = False
        try:
            while True:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                if broken:
                    continue  # keep draining so the server never blocks on a full pipe
                try:
                    bodies = self._decoder.feed(chunk)
                except FramingError as error:
                    self._protocol_error("unframable output: %s" % error)
                    broken = True
                    continue
                for body in bodies:
                    self._dispatch(body)
            if not broken:
                for body in self._decoder.finish():
                    self._dispatch(body)
        finally:
            self._fail_pending()

    def _fail_pending(self) -> None:
        with self._lock:
            self._output_closed = True
            pending = list(self._pending.values())
            self._pending.clear()
        if pending:
            try:
                self._proc.wait(2)
            except subprocess.TimeoutExpired:
                pass
            error = self._exited()
            for future in pending:
                if not future.done():
                    future.set_exception(error)

    def _exited(self) -> ServerExited:
        return ServerExited(self._proc.poll(), self.stderr_tail())

    def _drain_stderr(self) -> None:
        assert self._proc.stderr is not None
        for line in iter(self._proc.stderr.readline, b""):
            self._stderr_tail.append(line.decode("utf-8", "replace"))

    def _protocol_error(self, text: str) -> None:
        self.protocol_errors.append(ProtocolError(text))

    def _dispatch(self, body: bytes) -> None:
        try:
            message = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as error:
            self._protocol_error("invalid JSON from server (%s): %r" % (error, body[:200]))
            return
        if isinstance(message, list):
            if not message:
                self._protocol_error("empty batch reply from server")
            for item in message:
                self._dispatch_one(item)
        else:
            self._dispatch_one(message)

    def _dispatch_one(self, message: Any) -> None:
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            self._protocol_error("not a JSON-RPC 2.0 message: %r" % (message,))
            return
        if "method" in message:
            if "id" in message:
                # The server asked us something; we implement no client methods.
                self.send_message({"jsonrpc": "2.0", "id": message["id"], "error": {
                    "code": -32601, "message": "Method not found", "data": {"kind": "methodNotFound"}}})
                return
            notification = Notification(message["method"], message.get("params"))
            self.notifications.put(notification)
            if self._on_notification is not None:
                try:
                    self._on_notification(notification.method, notification.params)
                except Exception as error:  # a broken callback must not stop the reader
                    self._protocol_error("on_notification raised %r" % (error,))
            return
        if "id" not in message or ("result" in message) == ("error" in message):
            self._protocol_error("reply needs an id and exactly one of result/error: %r" % (message,))
            return
        request_id = message["id"]
        pending = None
        if isinstance(request_id, (int, str)) and not isinstance(request_id, bool):
            with self._lock:
                pending = self._pending.pop(request_id, None)
        if pending is None:
            self.unmatched.put(message)
            return
        self._complete(pending, message)

    def _complete(self, pending: PendingRequest, message: Dict[str, Any]) -> None:
        if pending.done():
            return
        if "error" in message:
            pending.set_exception(RpcError.from_error_object(
                message["error"], method=pending.method, request_id=pending.id))
            return
        result = message["result"]
        if self._result_validator is not None:
            try:
                self._result_validator(pending.method, result)
            except BaseException as error:  # the caller sees why its result was rejected
                pending.set_exception(error)
                return
        pending.set_result(result)

    # ------------------------------------------------------------------ _invoke for helpers

    def _invoke(self, method: str, /, **params: Any) -> Any:
        """Calls ``method`` with the given params, leaving out those that are None (a helper's unset
        optional params). Without any param, the message has no ``params`` member."""
        named = _drop_none(params)
        return self.call(method, named) if named else self.call(method)

    # ------------------------------------------------------------------ server and protocol
    # One helper per method of schema/openrpc.json, named after it (dots and camelCase become
    # snake_case: movies.byGenre -> movies_by_genre). Param names are the wire names. Extra keyword
    # arguments pass through, so a param added on the server needs no helper change.

    def server_info(self) -> Dict[str, Any]:
        """``server.info``: name, version, protocolVersion, framing, catalog mode, dataDirectory."""
        return self._invoke("server.info")

    def discover(self) -> Dict[str, Any]:
        """``rpc.discover``: the server's OpenRPC document."""
        return self._invoke("rpc.discover")

    def method_names(self) -> List[str]:
        """Names of the methods the server documents (from ``rpc.discover``)."""
        return [method["name"] for method in self.discover().get("methods", [])]

    def initialize(self, processId: Optional[int] = None, clientInfo: Optional[Dict[str, Any]] = None,
                   capabilities: Optional[Dict[str, Any]] = None, rootUri: Optional[str] = None,
                   protocolVersion: Optional[str] = None, **extra: Any) -> Dict[str, Any]:
        """``initialize``: LSP-style handshake (the result lists the server's methods), or MCP's when
        ``protocolVersion`` and ``clientInfo`` are given."""
        return self._invoke("initialize", processId=processId, clientInfo=clientInfo,
                            capabilities=capabilities if capabilities is not None else {}, rootUri=rootUri,
                            protocolVersion=protocolVersion, **extra)

    def shutdown(self) -> None:
        """``shutdown``: LSP-style; answers null. Follow with :meth:`exit`."""
        return self._invoke("shutdown")

    def exit(self, timeout: float = 10.0) -> int:
        """Sends the ``exit`` notification and returns the exit status (0 after :meth:`shutdown`)."""
        try:
            self.notify("exit")
        except ServerExited:
            pass
        return self.close(timeout)

    # ------------------------------------------------------------------ catalog

    def genres_list(self, language: Optional[str] = None, cachePolicy: Optional[str] = None,
                    **extra: Any) -> Any:
        """``genres.list``: the movie genres."""
        return self._invoke("genres.list", language=language, cachePolicy=cachePolicy, **extra)

    def movies_popular(self, page: int = 1, language: Optional[str] = None, region: Optional[str] = None,
                       posterSize: Optional[str] = None, backdropSize: Optional[str] = None,
                       cachePolicy: Optional[str] = None, **extra: Any) -> Any:
        """``movies.popular``: one page (1..500) of popular movies."""
        return self._invoke("movies.popular", page=page, language=language, region=region, posterSize=posterSize,
                            backdropSize=backdropSize, cachePolicy=cachePolicy, **extra)

    def movies_by_genre(self, genreId: int, page: int = 1, language: Optional[str] = None,
                        region: Optional[str] = None, posterSize: Optional[str] = None,
                        backdropSize: Optional[str] = None, cachePolicy: Optional[str] = None, **extra: Any) -> Any:
        """``movies.byGenre``: one page of a genre's movies."""
        return self._invoke("movies.byGenre", genreId=genreId, page=page, language=language, region=region,
                            posterSize=posterSize, backdropSize=backdropSize, cachePolicy=cachePolicy, **extra)

    def movies_latest(self, language: Optional[str] = None, cachePolicy: Optional[str] = None,
                      **extra: Any) -> Any:
        """``movies.latest``: TMDB's newest movie record (usually nearly empty)."""
        return self._invoke("movies.latest", language=language, cachePolicy=cachePolicy, **extra)

    def movies_details(self, movieId: int, language: Optional[str] = None, posterSize: Optional[str] = None,
                       backdropSize: Optional[str] = None, cachePolicy: Optional[str] = None, **extra: Any) -> Any:
        """``movies.details``: one movie in full."""
        return self._invoke("movies.details", movieId=movieId, language=language, posterSize=posterSize,
                            backdropSize=backdropSize, cachePolicy=cachePolicy, **extra)

    def images_fetch(self, path: str, size: Optional[str] = None, **extra: Any) -> Any:
        """``images.fetch``: downloads an image (e.g. a movie's ``posterPath``) once; returns its local file."""
        return self._invoke("images.fetch", path=path, size=size, **extra)

    def catalog_sync(self, popularPages: Optional[int] = None, genres: Optional[List[int]] = None,
                     language: Optional[str] = None, progressToken: Union[str, int, None] = None,
                     **extra: Any) -> Any:
        """``catalog.sync``: prefetches pages for offline use; with ``progressToken`` the server sends
        ``$/progress`` notifications (see :meth:`next_notification`)."""
        return self._invoke("catalog.sync", popularPages=popularPages, genres=genres, language=language,
                            progressToken=progressToken, **extra)

    # ------------------------------------------------------------------ accounts

    def auth_validate(self, email: Optional[str] = None, password: Optional[str] = None,
                      passwordConfirmation: Optional[str] = None, profile: Optional[Dict[str, Any]] = None,
                      **extra: Any) -> Any:
        """``auth.validate``: checks sign-up fields without creating anything (``{valid, fields}``)."""
        return self._invoke("auth.validate", email=email, password=password,
                            passwordConfirmation=passwordConfirmation, profile=profile, **extra)

    def auth_register(self, email: str, password: str, passwordConfirmation: Optional[str] = None,
                      profile: Optional[Dict[str, Any]] = None, **extra: Any) -> Any:
        """``auth.register``: creates an account and signs this connection in."""
        return self._invoke("auth.register", email=email, password=password,
                            passwordConfirmation=passwordConfirmation, profile=profile, **extra)

    def auth_login(self, email: str, password: str, **extra: Any) -> Any:
        """``auth.login``: signs this connection in."""
        return self._invoke("auth.login", email=email, password=password, **extra)

    def auth_logout(self, **extra: Any) -> Any:
        """``auth.logout``: signs out."""
        return self._invoke("auth.logout", **extra)

    def auth_status(self, **extra: Any) -> Any:
        """``auth.status``: ``{loggedIn, user, route}``."""
        return self._invoke("auth.status", **extra)

    def account_update(self, profile: Optional[Dict[str, Any]] = None, newPassword: Optional[str] = None,
                       currentPassword: Optional[str] = None, **extra: Any) -> Any:
        """``account.update``: changes profile fields and/or the password (``currentPassword`` required with
        ``newPassword``)."""
        return self._invoke("account.update", profile=profile, newPassword=newPassword,
                            currentPassword=currentPassword, **extra)

    def account_delete(self, password: str, **extra: Any) -> Any:
        """``account.delete``: deletes the signed-in account."""
        return self._invoke("account.delete", password=password, **extra)

    # ------------------------------------------------------------------ favorites

    def favorites_add(self, movieId: int, **extra: Any) -> Any:
        """``favorites.add``."""
        return self._invoke("favorites.add", movieId=movieId, **extra)

    def favorites_remove(self, movieId: int, **extra: Any) -> Any:
        """``favorites.remove``."""
        return self._invoke("favorites.remove", movieId=movieId, **extra)

    def favorites_list(self, groupBy: Optional[str] = None, posterSize: Optional[str] = None,
                       **extra: Any) -> Any:
        """``favorites.list``: ``{favorites}``, or ``{sections}`` with ``groupBy="genre"``."""
        return self._invoke("favorites.list", groupBy=groupBy, posterSize=posterSize, **extra)

    def favorites_contains(self, movieIds: List[int], **extra: Any) -> Any:
        """``favorites.contains``: ``{contains: {"<movieId>": bool}}``."""
        return self._invoke("favorites.contains", movieIds=movieIds, **extra)

    # ------------------------------------------------------------------ sync

    def sync_status(self, **extra: Any) -> Any:
        """``sync.status``: ``{enabled, provider, state, pending, lastPushedAt, lastPulledAt, lastError}``."""
        return self._invoke("sync.status", **extra)

    def sync_now(self, progressToken: Union[str, int, None] = None, **extra: Any) -> Any:
        """``sync.now``: one sync cycle now, ``{pushed, pulled, conflicts, pending}``; with ``progressToken``
        the server sends ``$/progress`` notifications."""
        return self._invoke("sync.now", progressToken=progressToken, **extra)

    # ------------------------------------------------------------------ events and hints

    def events_list(self, limit: Optional[int] = None, cursor: Optional[str] = None, name: Optional[str] = None,
                    userId: Any = OMIT, since: Optional[str] = None, until: Optional[str] = None,
                    **extra: Any) -> Any:
        """``events.list``: ``{events, nextCursor}``, newest first. ``userId=None`` sends null (only the
        anonymous user's events); leave it out for everybody's."""
        params = _drop_none(dict(limit=limit, cursor=cursor, name=name, since=since, until=until, **extra))
        if userId is not OMIT:
            params["userId"] = userId
        return self.call("events.list", params) if params else self.call("events.list")

    def events_search(self, query: str, limit: Optional[int] = None, cursor: Optional[str] = None,
                      **extra: Any) -> Any:
        """``events.search``: events whose name or a parameter value contains ``query``, ignoring case."""
        return self._invoke("events.search", query=query, limit=limit, cursor=cursor, **extra)

    def events_get(self, id: int, **extra: Any) -> Any:
        """``events.get``: one event with all its parameters."""
        return self._invoke("events.get", id=id, **extra)

    def events_add(self, name: str, timestamp: Optional[str] = None, params: Optional[Dict[str, Any]] = None,
                   **extra: Any) -> Any:
        """``events.add``: stores an event (written through) and returns it."""
        return self._invoke("events.add", name=name, timestamp=timestamp, params=params, **extra)

    def events_delete(self, ids: List[int], **extra: Any) -> Any:
        """``events.delete``: ``{deleted, notFound}``."""
        return self._invoke("events.delete", ids=ids, **extra)

    def events_stats(self, since: Optional[str] = None, **extra: Any) -> Any:
        """``events.stats``: ``{counts: [{name, count}], total}``."""
        return self._invoke("events.stats", since=since, **extra)

    def hints_list(self, **extra: Any) -> Any:
        """``hints.list``: ``{hints: [{id, feature, message, method}]}`` for features not used yet."""
        return self._invoke("hints.list", **extra)
