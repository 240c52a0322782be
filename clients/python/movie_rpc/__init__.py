"""Python client for movie-rpc, a JSON-RPC 2.0 server driven over stdio.

    from movie_rpc import Client

    with Client(env={"MOVIE_RPC_HOME": "/tmp/movies"}) as client:
        print(client.server_info())
"""

from .client import OMIT, Call, Client, Notification, Notify, PendingRequest, default_command
from .errors import ErrorCode, MovieRpcError, ProtocolError, RpcError, RpcTimeout, ServerExited
from .framing import FRAMINGS, ContentLengthDecoder, FramingError, NewlineDecoder, encode_frame, encode_message

__version__ = "0.1.0"

__all__ = [
    "OMIT",
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
    "ProtocolError",
    "RpcError",
    "RpcTimeout",
    "ServerExited",
    "default_command",
    "encode_frame",
    "encode_message",
]
