"""The TypedDicts and aliases of every method's params and result, and of ``components.schemas``.

Generated from schema/openrpc.json into ``movie_rpc._generated``; this module is their public name::

    from movie_rpc.types import MovieDetails, MoviePage, MoviesDetailsParams
"""

from ._generated import *  # noqa: F401,F403
from ._generated import __all__ as __all__  # noqa: F401
