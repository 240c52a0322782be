"""Exceptions raised by the movie-rpc client.

A JSON-RPC error reply becomes :class:`RpcError` with the server's stable ``code``, human ``message`` and
structured ``data``; ``data.kind`` (a stable camelCase string such as ``"invalidParams"`` or
``"loginRequired"``) is the thing to branch on.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from ._generated import ErrorCode

__all__ = [
    "ErrorCode",
    "MovieRpcError",
    "RpcError",
    "ServerExited",
    "RpcTimeout",
    "ProtocolError",
]


class MovieRpcError(Exception):
    """Base class of every exception this package raises."""


class RpcError(MovieRpcError):
    """The server answered a request with a JSON-RPC error object."""

    def __init__(self, code: int, message: str, data: Any = None, *, method: Optional[str] = None,
                 request_id: Any = None) -> None:
        self.code = code
        self.message = message
        self.data = data
        self.method = method
        self.request_id = request_id
        where = " (%s)" % method if method else ""
        kind = " [%s]" % self.kind if self.kind else ""
        super().__init__("%d%s%s: %s" % (code, kind, where, message))

    @classmethod
    def from_error_object(cls, error: Any, *, method: Optional[str] = None,
                          request_id: Any = None) -> "RpcError":
        """Builds the exception from a reply's ``error`` member, tolerating a malformed one."""
        if not isinstance(error, dict):
            return cls(ErrorCode.INTERNAL_ERROR, "malformed error object: %r" % (error,), None,
                       method=method, request_id=request_id)
        code = error.get("code")
        return cls(code if isinstance(code, int) else ErrorCode.INTERNAL_ERROR, str(error.get("message", "")),
                   error.get("data"), method=method, request_id=request_id)

    def _data(self, key: str) -> Any:
        return self.data.get(key) if isinstance(self.data, dict) else None

    @property
    def kind(self) -> Optional[str]:
        """``data.kind``: the stable name of the error (``"invalidParams"``, ``"notFound"``, ...)."""
        kind = self._data("kind")
        return kind if isinstance(kind, str) else None

    @property
    def field(self) -> Optional[str]:
        """``data.field``: the offending param of a -32602 (a dotted path for nested members)."""
        field = self._data("field")
        return field if isinstance(field, str) else None

    @property
    def fields(self) -> List[Dict[str, Any]]:
        """``data.fields``: every failing field of a validation error (``[{field, problem}]``)."""
        return self._data("fields") or []

    @property
    def retryable(self) -> bool:
        """``data.retryable``: whether trying again later may succeed."""
        return bool(self._data("retryable"))

    @property
    def retry_after(self) -> Optional[float]:
        """``data.retryAfter`` in seconds, when the server suggests a delay."""
        seconds = self._data("retryAfter")
        return float(seconds) if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) else None

    @property
    def http_status(self) -> Optional[int]:
        """``data.httpStatus`` of an upstream failure."""
        status = self._data("httpStatus")
        return status if isinstance(status, int) and not isinstance(status, bool) else None


class ServerExited(MovieRpcError):
    """The server process ended (or closed its output) before answering."""

    def __init__(self, returncode: Optional[int], stderr_tail: str = "") -> None:
        self.returncode = returncode
        self.stderr_tail = stderr_tail
        text = "movie-rpc exited" + ("" if returncode is None else " with status %s" % returncode)
        if stderr_tail:
            text += "; last stderr lines:\n" + stderr_tail
        super().__init__(text)


class RpcTimeout(MovieRpcError, TimeoutError):
    """No reply within the timeout. The request was cancelled with ``$/cancelRequest``."""

    def __init__(self, method: str, request_id: Any, timeout: float) -> None:
        self.method = method
        self.request_id = request_id
        self.timeout = timeout
        super().__init__("no reply to %s (id %r) within %ss" % (method, request_id, timeout))


class ProtocolError(MovieRpcError):
    """The server wrote something that is not a valid frame or JSON-RPC message."""
