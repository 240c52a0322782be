"""Python client for movie-rpc, a JSON-RPC 2.0 server driven over stdio.

    from movie_rpc import Client

    with Client(env={"MOVIE_RPC_HOME": "/tmp/movies"}) as client:
        print(client.movies_details(movie_id=550)["title"])

:class:`Client` blocks (one reader thread); :class:`AsyncClient` is its asyncio twin. The TypedDicts of
every method's params and result are in :mod:`movie_rpc.types`, generated from schema/openrpc.json.
"""

from ._generated import METHOD_NAMES, ErrorCode
from ._omit import OMIT
from .aio import AsyncClient, ProgressUpdates
from .client import Call, Client, Notification, Notify, PendingRequest, default_command
from .errors import MovieRpcError, ProtocolError, RpcError, RpcTimeout, ServerExited
from .framing import FRAMINGS, ContentLengthDecoder, FramingError, NewlineDecoder, encode_frame, encode_message

__version__ = "0.2.0"

__all__ = [
    "METHOD_NAMES",
    "OMIT",
    "AsyncClient",
    "Call",
    "Client",
    "ContentLengthDecoder",
    "ErrorCode",
    "FRAMINGS",
    "FramingError",
    "MovieRpcError",
    "NewlineDecoder",
    "Notification",
    "Notify",
    "PendingRequest",
    "ProgressUpdates",
    "ProtocolError",
    "RpcError",
    "RpcTimeout",
    "ServerExited",
    "default_command",
    "encode_frame",
    "encode_message",
]
