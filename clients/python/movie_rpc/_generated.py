"""Types and helpers generated from schema/openrpc.json (OpenRPC 1.3.2, movie-rpc 0.1.0): do not edit.

Regenerate with ``python3 scripts/gen-python-client.py``; ``--check`` fails when this file and the document
differ. Params TypedDicts use the wire's camelCase names; helpers take snake_case keywords.
"""

# fmt: off
from __future__ import annotations

import enum
from typing import Any, Dict, List, Literal, Optional, TypeAlias, TypedDict, Union, cast

from ._omit import OMIT


class ErrorCode(enum.IntEnum):
    """The error codes of the document's ``components.errors`` (``data.kind`` names them
    too). Codes several kinds share are aliases of the first."""

    PARSE_ERROR = -32700
    INVALID_REQUEST = -32600
    METHOD_NOT_FOUND = -32601
    INVALID_PARAMS = -32602
    INTERNAL_ERROR = -32603
    VALIDATION_FAILED = -32010
    LOGIN_REQUIRED = -32011
    INVALID_CREDENTIALS = -32012
    EMAIL_TAKEN = -32013
    TOO_MANY_ATTEMPTS = -32014
    ALREADY_FAVORITE = -32020
    NOT_FOUND = -32021
    OFFLINE_NOT_CACHED = -32030
    UPSTREAM_ERROR = -32031
    UPSTREAM_UNAUTHORIZED = -32032
    RATE_LIMITED = -32033
    IMAGE_REJECTED = -32035
    STORAGE_ERROR = -32040
    REQUEST_CANCELLED = -32800
    MESSAGE_TOO_LARGE = -32600
    REPLY_TOO_LARGE = -32600
    UNSUPPORTED_PROTOCOL_VERSION = -32022
    UNAVAILABLE_IN_DEMO = -32034


ServerInfo = TypedDict("ServerInfo", {
    "name": Literal["movie-rpc"],
    "version": str,
    "protocolVersion": Literal["2.0"],
    "framing": Literal["content-length", "newline"],
    "catalog": Literal["demo", "tmdb"],
    "dataDirectory": str,
})


_InitializeResultServerInfoRequired = TypedDict("_InitializeResultServerInfoRequired", {
    "name": str,
    "version": str,
})
_InitializeResultServerInfoOptional = TypedDict("_InitializeResultServerInfoOptional", {"title": str}, total=False)


class InitializeResultServerInfo(_InitializeResultServerInfoRequired, _InitializeResultServerInfoOptional):
    """``InitializeResultServerInfo``"""


InitializeResultCapabilitiesMovieRpc = TypedDict("InitializeResultCapabilitiesMovieRpc", {
    "methods": List[str],
    "framing": str,
})


InitializeResultCapabilities = TypedDict("InitializeResultCapabilities", {
    "movieRpc": "InitializeResultCapabilitiesMovieRpc",
})


InitializeResult = TypedDict("InitializeResult", {
    "serverInfo": "InitializeResultServerInfo",
    "capabilities": "InitializeResultCapabilities",
})


# ISO 639-1, optionally -ISO 3166-1 (en, de-DE).
Language: TypeAlias = str


# ISO 3166-1 alpha-2, uppercase (US).
Region: TypeAlias = str


# TMDB serves pages 1..500.
Page: TypeAlias = int


PosterSize: TypeAlias = Literal["w92", "w154", "w185", "w342", "w500", "w780", "original"]


BackdropSize: TypeAlias = Literal["w300", "w780", "w1280", "original"]


# networkFirst: ask TMDB, on failure answer from the cache. cacheFirst: a cached copy within its TTL, else
# networkFirst. cacheOnly: only the cache (-32030 when missing). networkOnly: only TMDB.
CachePolicy: TypeAlias = Literal["networkFirst", "cacheFirst", "cacheOnly", "networkOnly"]


Source: TypeAlias = Literal["network", "cache", "demo"]


# ISO 8601, UTC, millisecond precision.
Timestamp: TypeAlias = str


Genre = TypedDict("Genre", {"id": int, "name": str})


MovieSummary = TypedDict("MovieSummary", {
    "id": int,
    "title": str,
    "originalTitle": str,
    "overview": str,
    "releaseDate": str,
    "genreIds": List[int],
    "voteAverage": float,
    "voteCount": int,
    "popularity": float,
    "adult": bool,
    "originalLanguage": str,
    "posterPath": Optional[str],
    "posterUrl": Optional[str],
    "backdropPath": Optional[str],
    "backdropUrl": Optional[str],
})


# movies.nowPlaying and movies.upcoming: the release dates the list covers.
MoviePageDates = TypedDict("MoviePageDates", {"minimum": "Date", "maximum": "Date"})


_MoviePageRequired = TypedDict("_MoviePageRequired", {
    "page": int,
    "totalPages": int,
    "totalResults": int,
    "results": List["MovieSummary"],
    "source": "Source",
    "fetchedAt": "Timestamp",
    "stale": bool,
})
_MoviePageOptional = TypedDict("_MoviePageOptional", {"dates": "MoviePageDates", "complete": bool}, total=False)


class MoviePage(_MoviePageRequired, _MoviePageOptional):
    """``MoviePage``"""


_MovieDetailsRequired = TypedDict("_MovieDetailsRequired", {
    "id": int,
    "title": str,
    "originalTitle": str,
    "overview": str,
    "releaseDate": str,
    "genreIds": List[int],
    "voteAverage": float,
    "voteCount": int,
    "popularity": float,
    "adult": bool,
    "originalLanguage": str,
    "posterPath": Optional[str],
    "posterUrl": Optional[str],
    "backdropPath": Optional[str],
    "backdropUrl": Optional[str],
    "tagline": str,
    "runtime": Optional[int],
    "status": str,
    "genres": List["Genre"],
    "homepage": str,
    "imdbId": Optional[str],
    "budget": int,
    "revenue": int,
    "spokenLanguages": List[str],
    "productionCompanies": List[str],
    "source": "Source",
    "fetchedAt": "Timestamp",
    "stale": bool,
})
_MovieDetailsOptional = TypedDict("_MovieDetailsOptional", {
    "credits": "Credits",
    "videos": List["Video"],
    "watchProviders": Dict[str, "WatchOptions"],
    "certification": Optional[str],
    "externalIds": "ExternalIds",
}, total=False)


class MovieDetails(_MovieDetailsRequired, _MovieDetailsOptional):
    """``MovieDetails``"""


# The newest TMDB record, without image fields. Usually near-empty.
LatestMovie = TypedDict("LatestMovie", {
    "id": int,
    "title": str,
    "originalTitle": str,
    "overview": str,
    "releaseDate": str,
    "genreIds": List[int],
    "voteAverage": float,
    "voteCount": int,
    "popularity": float,
    "adult": bool,
    "originalLanguage": str,
    "runtime": Optional[int],
    "status": str,
    "source": "Source",
    "fetchedAt": "Timestamp",
    "stale": bool,
})


GenreList = TypedDict("GenreList", {
    "genres": List["Genre"],
    "source": "Source",
    "fetchedAt": "Timestamp",
    "stale": bool,
})


# When given, $/progress notifications {token, value: {done, total, message}} are sent while the request runs. A
# string token is at most 256 bytes (it is echoed in every notification).
ProgressToken: TypeAlias = Union[int, str]


# An account. Never carries a password, hash or token; profile fields not given are null.
User = TypedDict("User", {
    "id": str,
    "email": str,
    "displayName": Optional[str],
    "bio": Optional[str],
    "phone": Optional[str],
    "birthDate": Optional[str],
    "createdAt": "Timestamp",
    "provider": Literal["local", "firebase"],
})


# Optional profile fields. In account.update a given field replaces the stored value and an empty string clears
# it; absent (or null) fields stay as they are. Broken rules give -32010 naming profile.<field>.
Profile = TypedDict("Profile", {
    "displayName": Optional[str],
    "bio": Optional[str],
    "phone": Optional[str],
    "birthDate": Optional[str],
}, total=False)


FieldProblem = TypedDict("FieldProblem", {"field": str, "problem": str})


# Where the app goes next: main when logged in, login otherwise.
Route: TypeAlias = Literal["main", "login"]


SignedIn = TypedDict("SignedIn", {"user": "User", "route": Literal["main"]})


Favorite = TypedDict("Favorite", {"movieId": int, "addedAt": "Timestamp", "movie": "MovieSummary"})


# An integer, a number, a string (at most 10,000 characters in events.add) or a boolean. Numbers with an
# integral value come back as integers.
EventScalar: TypeAlias = Union[float, str, bool]


# A scalar, or an array of at most 1,000 scalars: no nested objects or arrays, no null.
EventValue: TypeAlias = Union["EventScalar", List["EventScalar"]]


# An event's parameters: at most 100 keys of 1 to 200 characters, at most 65,536 bytes as JSON in events.add.
EventParams: TypeAlias = Dict[str, "EventValue"]


Event = TypedDict("Event", {
    "id": int,
    "name": str,
    "timestamp": "Timestamp",
    "userId": Optional[str],
    "params": "EventParams",
    "repeats": int,
    "lastTimestamp": "Timestamp",
})


# Events per page.
EventLimit: TypeAlias = int


# Opaque: the nextCursor of an earlier page. It marks a position in (timestamp, id) order, so it stays valid
# while events are recorded.
EventCursor: TypeAlias = str


EventPage = TypedDict("EventPage", {"events": List["Event"], "nextCursor": Optional["EventCursor"]})


Hint = TypedDict("Hint", {
    "id": Literal["popular", "genres", "details", "favorites", "offline"],
    "feature": str,
    "message": str,
    "method": str,
})


MCPInitializeResultCapabilities = TypedDict("MCPInitializeResultCapabilities", {"tools": Dict[str, Any]})


_MCPInitializeResultServerInfoRequired = TypedDict("_MCPInitializeResultServerInfoRequired", {
    "name": str,
    "version": str,
})
_MCPInitializeResultServerInfoOptional = TypedDict("_MCPInitializeResultServerInfoOptional", {
    "title": str,
}, total=False)


class MCPInitializeResultServerInfo(_MCPInitializeResultServerInfoRequired, _MCPInitializeResultServerInfoOptional):
    """``MCPInitializeResultServerInfo``"""


_MCPInitializeResultRequired = TypedDict("_MCPInitializeResultRequired", {
    "protocolVersion": str,
    "capabilities": "MCPInitializeResultCapabilities",
    "serverInfo": "MCPInitializeResultServerInfo",
})
_MCPInitializeResultOptional = TypedDict("_MCPInitializeResultOptional", {"instructions": str}, total=False)


class MCPInitializeResult(_MCPInitializeResultRequired, _MCPInitializeResultOptional):
    """The MCP handshake answer (2025-11-25 and earlier), sent when the params carry protocolVersion and
    clientInfo."""


# YYYY-MM-DD, a real calendar date.
Date: TypeAlias = str


DiscoverSortBy: TypeAlias = Literal["original_title.asc", "original_title.desc", "popularity.asc", "popularity.desc", "revenue.asc", "revenue.desc", "primary_release_date.asc", "primary_release_date.desc", "title.asc", "title.desc", "vote_average.asc", "vote_average.desc", "vote_count.asc", "vote_count.desc"]


# releaseDates is answered as certification (for region).
DetailsPart: TypeAlias = Literal["credits", "videos", "watchProviders", "releaseDates", "externalIds"]


CastCredit = TypedDict("CastCredit", {
    "personId": int,
    "name": str,
    "character": str,
    "order": int,
    "profilePath": Optional[str],
    "profileUrl": Optional[str],
})


CrewCredit = TypedDict("CrewCredit", {
    "personId": int,
    "name": str,
    "job": str,
    "department": str,
    "profilePath": Optional[str],
    "profileUrl": Optional[str],
})


Credits = TypedDict("Credits", {"cast": List["CastCredit"], "crew": List["CrewCredit"]})


MovieCredits = TypedDict("MovieCredits", {
    "movieId": int,
    "cast": List["CastCredit"],
    "crew": List["CrewCredit"],
    "source": "Source",
    "fetchedAt": "Timestamp",
    "stale": bool,
})


Video = TypedDict("Video", {
    "name": str,
    "site": str,
    "key": str,
    "type": str,
    "official": bool,
    "publishedAt": str,
    "url": Optional[str],
})


MovieVideos = TypedDict("MovieVideos", {
    "movieId": int,
    "videos": List["Video"],
    "source": "Source",
    "fetchedAt": "Timestamp",
    "stale": bool,
})


WatchProvider = TypedDict("WatchProvider", {"providerId": int, "name": str, "logoUrl": Optional[str]})


# One country's offers (JustWatch data, through TMDB); each list empty when there is none.
WatchOptions = TypedDict("WatchOptions", {
    "link": str,
    "flatrate": List["WatchProvider"],
    "rent": List["WatchProvider"],
    "buy": List["WatchProvider"],
    "free": List["WatchProvider"],
    "ads": List["WatchProvider"],
})


WatchProviders = TypedDict("WatchProviders", {
    "movieId": int,
    "region": "Region",
    "link": str,
    "flatrate": List["WatchProvider"],
    "rent": List["WatchProvider"],
    "buy": List["WatchProvider"],
    "free": List["WatchProvider"],
    "ads": List["WatchProvider"],
    "source": "Source",
    "fetchedAt": "Timestamp",
    "stale": bool,
})


ExternalIds = TypedDict("ExternalIds", {
    "imdbId": Optional[str],
    "wikidataId": Optional[str],
    "facebookId": Optional[str],
    "instagramId": Optional[str],
    "twitterId": Optional[str],
})


FoundMovie = TypedDict("FoundMovie", {
    "id": int,
    "title": str,
    "originalTitle": str,
    "overview": str,
    "releaseDate": str,
    "genreIds": List[int],
    "voteAverage": float,
    "voteCount": int,
    "popularity": float,
    "adult": bool,
    "originalLanguage": str,
    "posterPath": Optional[str],
    "posterUrl": Optional[str],
    "backdropPath": Optional[str],
    "backdropUrl": Optional[str],
    "source": "Source",
    "fetchedAt": "Timestamp",
    "stale": bool,
})


PersonSummary = TypedDict("PersonSummary", {
    "id": int,
    "name": str,
    "knownForDepartment": str,
    "profilePath": Optional[str],
    "profileUrl": Optional[str],
    "popularity": float,
})


PersonPage = TypedDict("PersonPage", {
    "page": int,
    "totalPages": int,
    "totalResults": int,
    "results": List["PersonSummary"],
    "source": "Source",
    "fetchedAt": "Timestamp",
    "stale": bool,
})


PersonDetailsMoviesCastItem = TypedDict("PersonDetailsMoviesCastItem", {
    "id": int,
    "title": str,
    "originalTitle": str,
    "overview": str,
    "releaseDate": str,
    "genreIds": List[int],
    "voteAverage": float,
    "voteCount": int,
    "popularity": float,
    "adult": bool,
    "originalLanguage": str,
    "posterPath": Optional[str],
    "posterUrl": Optional[str],
    "backdropPath": Optional[str],
    "backdropUrl": Optional[str],
    "character": str,
})


PersonDetailsMoviesCrewItem = TypedDict("PersonDetailsMoviesCrewItem", {
    "id": int,
    "title": str,
    "originalTitle": str,
    "overview": str,
    "releaseDate": str,
    "genreIds": List[int],
    "voteAverage": float,
    "voteCount": int,
    "popularity": float,
    "adult": bool,
    "originalLanguage": str,
    "posterPath": Optional[str],
    "posterUrl": Optional[str],
    "backdropPath": Optional[str],
    "backdropUrl": Optional[str],
    "job": str,
    "department": str,
})


PersonDetailsMovies = TypedDict("PersonDetailsMovies", {
    "cast": List["PersonDetailsMoviesCastItem"],
    "crew": List["PersonDetailsMoviesCrewItem"],
})


PersonDetails = TypedDict("PersonDetails", {
    "id": int,
    "name": str,
    "biography": str,
    "birthday": Optional[str],
    "deathday": Optional[str],
    "placeOfBirth": Optional[str],
    "knownForDepartment": str,
    "profilePath": Optional[str],
    "profileUrl": Optional[str],
    "movies": "PersonDetailsMovies",
    "source": "Source",
    "fetchedAt": "Timestamp",
    "stale": bool,
})


ServerInfoParams = TypedDict("ServerInfoParams", {})
ServerInfoParams.__doc__ = "``server.info`` takes no params."


RpcDiscoverParams = TypedDict("RpcDiscoverParams", {})
RpcDiscoverParams.__doc__ = "``rpc.discover`` takes no params."


RpcDiscoverResult: TypeAlias = Dict[str, Any]


# Params of ``initialize``.
InitializeParams = TypedDict("InitializeParams", {
    "processId": Optional[int],
    "clientInfo": Dict[str, Any],
    "capabilities": Dict[str, Any],
    "rootUri": Optional[str],
    "protocolVersion": str,
}, total=False)


InitializeMethodResult: TypeAlias = Union["InitializeResult", "MCPInitializeResult"]


ShutdownParams = TypedDict("ShutdownParams", {})
ShutdownParams.__doc__ = "``shutdown`` takes no params."


ShutdownResult: TypeAlias = None


# Params of ``genres.list``.
GenresListParams = TypedDict("GenresListParams", {
    "language": "Language",
    "cachePolicy": "CachePolicy",
}, total=False)


# Params of ``movies.popular``.
MoviesPopularParams = TypedDict("MoviesPopularParams", {
    "page": "Page",
    "language": "Language",
    "region": "Region",
    "posterSize": "PosterSize",
    "backdropSize": "BackdropSize",
    "cachePolicy": "CachePolicy",
}, total=False)


_MoviesByGenreParamsRequired = TypedDict("_MoviesByGenreParamsRequired", {"genreId": int})
_MoviesByGenreParamsOptional = TypedDict("_MoviesByGenreParamsOptional", {
    "page": "Page",
    "language": "Language",
    "region": "Region",
    "posterSize": "PosterSize",
    "backdropSize": "BackdropSize",
    "cachePolicy": "CachePolicy",
}, total=False)


class MoviesByGenreParams(_MoviesByGenreParamsRequired, _MoviesByGenreParamsOptional):
    """Params of ``movies.byGenre``."""


# Params of ``movies.latest``.
MoviesLatestParams = TypedDict("MoviesLatestParams", {
    "language": "Language",
    "cachePolicy": "CachePolicy",
}, total=False)


_MoviesDetailsParamsRequired = TypedDict("_MoviesDetailsParamsRequired", {"movieId": int})
_MoviesDetailsParamsOptional = TypedDict("_MoviesDetailsParamsOptional", {
    "language": "Language",
    "include": List["DetailsPart"],
    "region": "Region",
    "posterSize": "PosterSize",
    "backdropSize": "BackdropSize",
    "cachePolicy": "CachePolicy",
}, total=False)


class MoviesDetailsParams(_MoviesDetailsParamsRequired, _MoviesDetailsParamsOptional):
    """Params of ``movies.details``."""


_ImagesFetchParamsRequired = TypedDict("_ImagesFetchParamsRequired", {"path": str})
_ImagesFetchParamsOptional = TypedDict("_ImagesFetchParamsOptional", {
    "size": Literal["w92", "w154", "w185", "w300", "w342", "w500", "w780", "w1280", "original"],
}, total=False)


class ImagesFetchParams(_ImagesFetchParamsRequired, _ImagesFetchParamsOptional):
    """Params of ``images.fetch``."""


ImagesFetchResult = TypedDict("ImagesFetchResult", {
    "file": str,
    "url": str,
    "bytes": int,
    "contentType": str,
    "source": Literal["network", "cache"],
})


# Params of ``catalog.sync``.
CatalogSyncParams = TypedDict("CatalogSyncParams", {
    "popularPages": int,
    "trending": int,
    "topRated": int,
    "details": bool,
    "genres": Union[List[int], Literal["all"]],
    "language": "Language",
    "progressToken": "ProgressToken",
}, total=False)


CatalogSyncResultFailuresItem = TypedDict("CatalogSyncResultFailuresItem", {
    "item": str,
    "code": int,
    "message": str,
})


CatalogSyncResult = TypedDict("CatalogSyncResult", {
    "total": int,
    "succeeded": int,
    "failed": int,
    "genres": int,
    "pages": int,
    "movies": int,
    "details": int,
    "failures": List["CatalogSyncResultFailuresItem"],
    "failuresOmitted": int,
    "source": "Source",
})


# Params of ``auth.validate``.
AuthValidateParams = TypedDict("AuthValidateParams", {
    "email": str,
    "password": str,
    "passwordConfirmation": str,
    "profile": "Profile",
}, total=False)


AuthValidateResult = TypedDict("AuthValidateResult", {"valid": bool, "fields": List["FieldProblem"]})


_AuthRegisterParamsRequired = TypedDict("_AuthRegisterParamsRequired", {"email": str, "password": str})
_AuthRegisterParamsOptional = TypedDict("_AuthRegisterParamsOptional", {
    "passwordConfirmation": str,
    "profile": "Profile",
}, total=False)


class AuthRegisterParams(_AuthRegisterParamsRequired, _AuthRegisterParamsOptional):
    """Params of ``auth.register``."""


# Params of ``auth.login``.
AuthLoginParams = TypedDict("AuthLoginParams", {"email": str, "password": str})


AuthLogoutParams = TypedDict("AuthLogoutParams", {})
AuthLogoutParams.__doc__ = "``auth.logout`` takes no params."


AuthLogoutResult = TypedDict("AuthLogoutResult", {"route": Literal["login"]})


AuthStatusParams = TypedDict("AuthStatusParams", {})
AuthStatusParams.__doc__ = "``auth.status`` takes no params."


AuthStatusResult = TypedDict("AuthStatusResult", {"loggedIn": bool, "user": Optional["User"], "route": "Route"})


# Params of ``account.update``.
AccountUpdateParams = TypedDict("AccountUpdateParams", {
    "profile": "Profile",
    "newPassword": str,
    "currentPassword": str,
}, total=False)


AccountUpdateResult = TypedDict("AccountUpdateResult", {"user": "User"})


# Params of ``account.delete``.
AccountDeleteParams = TypedDict("AccountDeleteParams", {"password": str})


AccountDeleteResult = TypedDict("AccountDeleteResult", {
    "deleted": Literal[True],
    "route": Literal["login"],
    "eventsDeleted": int,
})


# Params of ``favorites.add``.
FavoritesAddParams = TypedDict("FavoritesAddParams", {"movieId": int})


# Params of ``favorites.remove``.
FavoritesRemoveParams = TypedDict("FavoritesRemoveParams", {"movieId": int})


FavoritesRemoveResult = TypedDict("FavoritesRemoveResult", {"movieId": int, "removed": Literal[True]})


# Params of ``favorites.list``.
FavoritesListParams = TypedDict("FavoritesListParams", {
    "groupBy": Literal["genre"],
    "posterSize": "PosterSize",
}, total=False)


FavoritesListResultOption1 = TypedDict("FavoritesListResultOption1", {"favorites": List["Favorite"]})


FavoritesListResultOption2SectionsItem = TypedDict("FavoritesListResultOption2SectionsItem", {
    "genre": "Genre",
    "movies": List["Favorite"],
})


FavoritesListResultOption2 = TypedDict("FavoritesListResultOption2", {
    "sections": List["FavoritesListResultOption2SectionsItem"],
})


FavoritesListResult: TypeAlias = Union["FavoritesListResultOption1", "FavoritesListResultOption2"]


# Params of ``favorites.contains``.
FavoritesContainsParams = TypedDict("FavoritesContainsParams", {"movieIds": List[int]})


FavoritesContainsResult = TypedDict("FavoritesContainsResult", {"contains": Dict[str, bool]})


SyncStatusParams = TypedDict("SyncStatusParams", {})
SyncStatusParams.__doc__ = "``sync.status`` takes no params."


SyncStatusResult = TypedDict("SyncStatusResult", {
    "enabled": bool,
    "provider": Literal["firestore", "none"],
    "state": Literal["disabled", "idle", "syncing", "offline", "error"],
    "pending": int,
    "lastPushedAt": Optional[str],
    "lastPulledAt": Optional[str],
    "lastError": Optional[str],
})


# Params of ``sync.now``.
SyncNowParams = TypedDict("SyncNowParams", {"progressToken": "ProgressToken"}, total=False)


SyncNowResult = TypedDict("SyncNowResult", {"pushed": int, "pulled": int, "conflicts": int, "pending": int})


# Params of ``events.list``.
EventsListParams = TypedDict("EventsListParams", {
    "limit": "EventLimit",
    "cursor": "EventCursor",
    "name": str,
    "userId": Optional[str],
    "since": "Timestamp",
    "until": "Timestamp",
}, total=False)


_EventsSearchParamsRequired = TypedDict("_EventsSearchParamsRequired", {"query": str})
_EventsSearchParamsOptional = TypedDict("_EventsSearchParamsOptional", {
    "limit": "EventLimit",
    "cursor": "EventCursor",
}, total=False)


class EventsSearchParams(_EventsSearchParamsRequired, _EventsSearchParamsOptional):
    """Params of ``events.search``."""


# Params of ``events.get``.
EventsGetParams = TypedDict("EventsGetParams", {"id": int})


_EventsAddParamsRequired = TypedDict("_EventsAddParamsRequired", {"name": str})
_EventsAddParamsOptional = TypedDict("_EventsAddParamsOptional", {
    "timestamp": "Timestamp",
    "params": "EventParams",
}, total=False)


class EventsAddParams(_EventsAddParamsRequired, _EventsAddParamsOptional):
    """Params of ``events.add``."""


# Params of ``events.delete``.
EventsDeleteParams = TypedDict("EventsDeleteParams", {"ids": List[int]})


EventsDeleteResult = TypedDict("EventsDeleteResult", {"deleted": List[int], "notFound": List[int]})


# Params of ``events.stats``.
EventsStatsParams = TypedDict("EventsStatsParams", {"since": "Timestamp"}, total=False)


EventsStatsResultCountsItem = TypedDict("EventsStatsResultCountsItem", {"name": str, "count": int})


EventsStatsResult = TypedDict("EventsStatsResult", {"counts": List["EventsStatsResultCountsItem"], "total": int})


HintsListParams = TypedDict("HintsListParams", {})
HintsListParams.__doc__ = "``hints.list`` takes no params."


HintsListResult = TypedDict("HintsListResult", {"hints": List["Hint"]})


_MoviesSearchParamsRequired = TypedDict("_MoviesSearchParamsRequired", {"query": str})
_MoviesSearchParamsOptional = TypedDict("_MoviesSearchParamsOptional", {
    "page": "Page",
    "year": int,
    "primaryReleaseYear": int,
    "language": "Language",
    "region": "Region",
    "includeAdult": bool,
    "posterSize": "PosterSize",
    "backdropSize": "BackdropSize",
    "cachePolicy": "CachePolicy",
}, total=False)


class MoviesSearchParams(_MoviesSearchParamsRequired, _MoviesSearchParamsOptional):
    """Params of ``movies.search``."""


# Params of ``movies.trending``.
MoviesTrendingParams = TypedDict("MoviesTrendingParams", {
    "window": Literal["day", "week"],
    "page": "Page",
    "language": "Language",
    "posterSize": "PosterSize",
    "backdropSize": "BackdropSize",
    "cachePolicy": "CachePolicy",
}, total=False)


# Params of ``movies.topRated``.
MoviesTopRatedParams = TypedDict("MoviesTopRatedParams", {
    "page": "Page",
    "language": "Language",
    "region": "Region",
    "posterSize": "PosterSize",
    "backdropSize": "BackdropSize",
    "cachePolicy": "CachePolicy",
}, total=False)


# Params of ``movies.nowPlaying``.
MoviesNowPlayingParams = TypedDict("MoviesNowPlayingParams", {
    "page": "Page",
    "language": "Language",
    "region": "Region",
    "posterSize": "PosterSize",
    "backdropSize": "BackdropSize",
    "cachePolicy": "CachePolicy",
}, total=False)


# Params of ``movies.upcoming``.
MoviesUpcomingParams = TypedDict("MoviesUpcomingParams", {
    "page": "Page",
    "language": "Language",
    "region": "Region",
    "posterSize": "PosterSize",
    "backdropSize": "BackdropSize",
    "cachePolicy": "CachePolicy",
}, total=False)


# Params of ``movies.discover``.
MoviesDiscoverParams = TypedDict("MoviesDiscoverParams", {
    "genreIds": List[int],
    "genreMatch": Literal["all", "any"],
    "withoutGenreIds": List[int],
    "year": int,
    "releasedFrom": "Date",
    "releasedTo": "Date",
    "minRating": float,
    "minVotes": int,
    "minRuntime": int,
    "maxRuntime": int,
    "originalLanguage": str,
    "sortBy": "DiscoverSortBy",
    "watchProviderIds": List[int],
    "watchRegion": "Region",
    "certification": str,
    "certificationCountry": "Region",
    "page": "Page",
    "language": "Language",
    "region": "Region",
    "posterSize": "PosterSize",
    "backdropSize": "BackdropSize",
    "cachePolicy": "CachePolicy",
}, total=False)


_MoviesCreditsParamsRequired = TypedDict("_MoviesCreditsParamsRequired", {"movieId": int})
_MoviesCreditsParamsOptional = TypedDict("_MoviesCreditsParamsOptional", {
    "cachePolicy": "CachePolicy",
}, total=False)


class MoviesCreditsParams(_MoviesCreditsParamsRequired, _MoviesCreditsParamsOptional):
    """Params of ``movies.credits``."""


_MoviesVideosParamsRequired = TypedDict("_MoviesVideosParamsRequired", {"movieId": int})
_MoviesVideosParamsOptional = TypedDict("_MoviesVideosParamsOptional", {
    "language": "Language",
    "cachePolicy": "CachePolicy",
}, total=False)


class MoviesVideosParams(_MoviesVideosParamsRequired, _MoviesVideosParamsOptional):
    """Params of ``movies.videos``."""


_MoviesWatchProvidersParamsRequired = TypedDict("_MoviesWatchProvidersParamsRequired", {
    "movieId": int,
    "region": "Region",
})
_MoviesWatchProvidersParamsOptional = TypedDict("_MoviesWatchProvidersParamsOptional", {
    "cachePolicy": "CachePolicy",
}, total=False)


class MoviesWatchProvidersParams(_MoviesWatchProvidersParamsRequired, _MoviesWatchProvidersParamsOptional):
    """Params of ``movies.watchProviders``."""


_MoviesRecommendationsParamsRequired = TypedDict("_MoviesRecommendationsParamsRequired", {"movieId": int})
_MoviesRecommendationsParamsOptional = TypedDict("_MoviesRecommendationsParamsOptional", {
    "page": "Page",
    "language": "Language",
    "posterSize": "PosterSize",
    "backdropSize": "BackdropSize",
    "cachePolicy": "CachePolicy",
}, total=False)


class MoviesRecommendationsParams(_MoviesRecommendationsParamsRequired, _MoviesRecommendationsParamsOptional):
    """Params of ``movies.recommendations``."""


_MoviesSimilarParamsRequired = TypedDict("_MoviesSimilarParamsRequired", {"movieId": int})
_MoviesSimilarParamsOptional = TypedDict("_MoviesSimilarParamsOptional", {
    "page": "Page",
    "language": "Language",
    "posterSize": "PosterSize",
    "backdropSize": "BackdropSize",
    "cachePolicy": "CachePolicy",
}, total=False)


class MoviesSimilarParams(_MoviesSimilarParamsRequired, _MoviesSimilarParamsOptional):
    """Params of ``movies.similar``."""


_MoviesFindParamsRequired = TypedDict("_MoviesFindParamsRequired", {"imdbId": str})
_MoviesFindParamsOptional = TypedDict("_MoviesFindParamsOptional", {
    "posterSize": "PosterSize",
    "backdropSize": "BackdropSize",
    "cachePolicy": "CachePolicy",
}, total=False)


class MoviesFindParams(_MoviesFindParamsRequired, _MoviesFindParamsOptional):
    """Params of ``movies.find``."""


_PeopleSearchParamsRequired = TypedDict("_PeopleSearchParamsRequired", {"query": str})
_PeopleSearchParamsOptional = TypedDict("_PeopleSearchParamsOptional", {
    "page": "Page",
    "cachePolicy": "CachePolicy",
}, total=False)


class PeopleSearchParams(_PeopleSearchParamsRequired, _PeopleSearchParamsOptional):
    """Params of ``people.search``."""


_PeopleDetailsParamsRequired = TypedDict("_PeopleDetailsParamsRequired", {"personId": int})
_PeopleDetailsParamsOptional = TypedDict("_PeopleDetailsParamsOptional", {
    "language": "Language",
    "posterSize": "PosterSize",
    "backdropSize": "BackdropSize",
    "cachePolicy": "CachePolicy",
}, total=False)


class PeopleDetailsParams(_PeopleDetailsParamsRequired, _PeopleDetailsParamsOptional):
    """Params of ``people.details``."""


class Methods:
    """One blocking helper per method of the document."""

    def _call_method(self, method: str, params: Optional[Dict[str, Any]]) -> Any:
        raise NotImplementedError

    def server_info(self) -> ServerInfo:
        """``server.info``: Describes the running server: version, framing, catalog mode and data directory."""
        wire = None
        return cast("ServerInfo", self._call_method("server.info", wire))

    def rpc_discover(self) -> RpcDiscoverResult:
        """``rpc.discover``: Returns this OpenRPC document."""
        wire = None
        return cast("RpcDiscoverResult", self._call_method("rpc.discover", wire))

    def initialize(
        self,
        process_id: Optional[int] = OMIT,
        client_info: Optional[Dict[str, Any]] = None,
        capabilities: Optional[Dict[str, Any]] = None,
        root_uri: Optional[str] = OMIT,
        protocol_version: Optional[str] = None,
    ) -> InitializeMethodResult:
        """``initialize``: Handshake for LSP client libraries (answers serverInfo and capabilities.movieRpc) and
        for MCP clients (params with protocolVersion and clientInfo: answers the MCP initialize result; then
        ping, tools/list and tools/call serve the same methods as tools). Any other params are accepted.

        Params (Python name -> wire name): process_id -> processId, client_info -> clientInfo, capabilities ->
        capabilities, root_uri -> rootUri, protocol_version -> protocolVersion.
        """
        wire: Dict[str, Any] = {}
        if process_id is not OMIT:
            wire["processId"] = process_id
        if client_info is not None:
            wire["clientInfo"] = client_info
        if capabilities is not None:
            wire["capabilities"] = capabilities
        if root_uri is not OMIT:
            wire["rootUri"] = root_uri
        if protocol_version is not None:
            wire["protocolVersion"] = protocol_version
        return cast("InitializeMethodResult", self._call_method("initialize", wire))

    def shutdown(self) -> ShutdownResult:
        """``shutdown``: LSP-style shutdown request: answers null; the process then exits on the exit
        notification or end of input.
        """
        wire = None
        return cast("ShutdownResult", self._call_method("shutdown", wire))

    def genres_list(
        self,
        language: Optional[Language] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> GenreList:
        """``genres.list``: All movie genres (TMDB's 19, e.g. 28 Action).

        Params (Python name -> wire name): language -> language, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        if language is not None:
            wire["language"] = language
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("GenreList", self._call_method("genres.list", wire))

    def movies_popular(
        self,
        page: Optional[Page] = None,
        language: Optional[Language] = None,
        region: Optional[Region] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MoviePage:
        """``movies.popular``: A page of popular movies (20 per page).

        Params (Python name -> wire name): page -> page, language -> language, region -> region, poster_size
        -> posterSize, backdrop_size -> backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        if page is not None:
            wire["page"] = page
        if language is not None:
            wire["language"] = language
        if region is not None:
            wire["region"] = region
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MoviePage", self._call_method("movies.popular", wire))

    def movies_by_genre(
        self,
        genre_id: int,
        page: Optional[Page] = None,
        language: Optional[Language] = None,
        region: Optional[Region] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MoviePage:
        """``movies.byGenre``: A page of one genre's movies, most popular first (TMDB
        /discover/movie?with_genres=ID).

        Params (Python name -> wire name): genre_id -> genreId, page -> page, language -> language, region ->
        region, poster_size -> posterSize, backdrop_size -> backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        wire["genreId"] = genre_id
        if page is not None:
            wire["page"] = page
        if language is not None:
            wire["language"] = language
        if region is not None:
            wire["region"] = region
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MoviePage", self._call_method("movies.byGenre", wire))

    def movies_latest(
        self,
        language: Optional[Language] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> LatestMovie:
        """``movies.latest``: The single newest TMDB record, without image fields (usually near-empty).

        Params (Python name -> wire name): language -> language, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        if language is not None:
            wire["language"] = language
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("LatestMovie", self._call_method("movies.latest", wire))

    def movies_details(
        self,
        movie_id: int,
        language: Optional[Language] = None,
        include: Optional[List[DetailsPart]] = None,
        region: Optional[Region] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MovieDetails:
        """``movies.details``: Full details of one movie: the summary fields plus tagline, runtime, status,
        genres, homepage, imdbId, budget, revenue, spoken languages, production companies; with include, also
        credits, videos, watch providers, certification and external ids, fetched in one TMDB request.

        Params (Python name -> wire name): movie_id -> movieId, language -> language, include -> include,
        region -> region, poster_size -> posterSize, backdrop_size -> backdropSize, cache_policy ->
        cachePolicy.
        """
        wire: Dict[str, Any] = {}
        wire["movieId"] = movie_id
        if language is not None:
            wire["language"] = language
        if include is not None:
            wire["include"] = include
        if region is not None:
            wire["region"] = region
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MovieDetails", self._call_method("movies.details", wire))

    def images_fetch(
        self,
        path: str,
        size: Optional[Literal["w92", "w154", "w185", "w300", "w342", "w500", "w780", "w1280", "original"]] = None,
    ) -> ImagesFetchResult:
        """``images.fetch``: Downloads a poster or backdrop once into the on-disk image cache (data
        directory/images) and returns the local file. Concurrent requests for one image share one download;
        served from disk when offline. Redirects are followed only to the image host and the hosts of
        MOVIE_RPC_IMAGE_HOSTS, never into the local network from a public image host; only non-empty image/*
        answers of at most 20 MiB are stored (else -32034 with data.reason), and contentType is always a known
        image type.

        Params (Python name -> wire name): path -> path, size -> size.
        """
        wire: Dict[str, Any] = {}
        wire["path"] = path
        if size is not None:
            wire["size"] = size
        return cast("ImagesFetchResult", self._call_method("images.fetch", wire))

    def catalog_sync(
        self,
        popular_pages: Optional[int] = None,
        trending: Optional[int] = None,
        top_rated: Optional[int] = None,
        details: Optional[bool] = None,
        genres: Optional[Union[List[int], Literal["all"]]] = None,
        language: Optional[Language] = None,
        progress_token: Optional[ProgressToken] = None,
    ) -> CatalogSyncResult:
        """``catalog.sync``: Prefetches the genres, the first N popular, trending and top rated pages, each
        chosen genre's first page and, with details, every saved movie's details with credits and videos, so
        the catalog works offline later. Requests are paced within TMDB's rate limit (about 40 a second) and a
        429 holds them all back for its Retry-After. Cancellable with $/cancelRequest.

        Params (Python name -> wire name): popular_pages -> popularPages, trending -> trending, top_rated ->
        topRated, details -> details, genres -> genres, language -> language, progress_token -> progressToken.
        """
        wire: Dict[str, Any] = {}
        if popular_pages is not None:
            wire["popularPages"] = popular_pages
        if trending is not None:
            wire["trending"] = trending
        if top_rated is not None:
            wire["topRated"] = top_rated
        if details is not None:
            wire["details"] = details
        if genres is not None:
            wire["genres"] = genres
        if language is not None:
            wire["language"] = language
        if progress_token is not None:
            wire["progressToken"] = progress_token
        return cast("CatalogSyncResult", self._call_method("catalog.sync", wire))

    def auth_validate(
        self,
        email: Optional[str] = None,
        password: Optional[str] = None,
        password_confirmation: Optional[str] = None,
        profile: Optional[Profile] = None,
    ) -> AuthValidateResult:
        """``auth.validate``: Checks the given form fields with the rules of auth.register, without side effects,
        so a form can enable its submit button as the user types. Only the given fields are checked.

        Params (Python name -> wire name): email -> email, password -> password, password_confirmation ->
        passwordConfirmation, profile -> profile.
        """
        wire: Dict[str, Any] = {}
        if email is not None:
            wire["email"] = email
        if password is not None:
            wire["password"] = password
        if password_confirmation is not None:
            wire["passwordConfirmation"] = password_confirmation
        if profile is not None:
            wire["profile"] = profile
        return cast("AuthValidateResult", self._call_method("auth.validate", wire))

    def auth_register(
        self,
        email: str,
        password: str,
        password_confirmation: Optional[str] = None,
        profile: Optional[Profile] = None,
    ) -> SignedIn:
        """``auth.register``: Creates an account and logs it in (the data directory's previous session ends).
        Input is validated first with the rules of auth.validate: any failure is -32010 listing every failing
        field, and nothing is created or sent. An email already registered (case-insensitively) is -32013.
        With Firebase Auth configured the account is created there.

        Params (Python name -> wire name): email -> email, password -> password, password_confirmation ->
        passwordConfirmation, profile -> profile.
        """
        wire: Dict[str, Any] = {}
        wire["email"] = email
        wire["password"] = password
        if password_confirmation is not None:
            wire["passwordConfirmation"] = password_confirmation
        if profile is not None:
            wire["profile"] = profile
        return cast("SignedIn", self._call_method("auth.register", wire))

    def auth_login(self, email: str, password: str) -> SignedIn:
        """``auth.login``: Logs in (the previous session ends). Invalid input is -32010 and nothing is checked.
        Unknown email and wrong password are the same -32012. After 5 failed attempts for one email, attempts
        are refused with -32014 and data.retryAfter seconds: 30 s, doubling with each further failure up to 15
        minutes; kept in the database across restarts; a successful login resets it.

        Params (Python name -> wire name): email -> email, password -> password.
        """
        wire: Dict[str, Any] = {}
        wire["email"] = email
        wire["password"] = password
        return cast("SignedIn", self._call_method("auth.login", wire))

    def auth_logout(self) -> AuthLogoutResult:
        """``auth.logout``: Ends the current session; answers the login route (also when nobody was logged in)."""
        wire = None
        return cast("AuthLogoutResult", self._call_method("auth.logout", wire))

    def auth_status(self) -> AuthStatusResult:
        """``auth.status``: Who is logged in. The session is the data directory's, kept in its database: a
        restarted server, or a second process on the same directory, sees the same user.
        """
        wire = None
        return cast("AuthStatusResult", self._call_method("auth.status", wire))

    def account_update(
        self,
        profile: Optional[Profile] = None,
        new_password: Optional[str] = None,
        current_password: Optional[str] = None,
    ) -> AccountUpdateResult:
        """``account.update``: Changes the logged-in user's profile and/or password. Needs a logged-in user
        (-32011 otherwise). newPassword follows the password rule and needs currentPassword (-32012 when
        wrong, counted by the login throttle); a password change ends every other session of the user.

        Params (Python name -> wire name): profile -> profile, new_password -> newPassword, current_password
        -> currentPassword.
        """
        wire: Dict[str, Any] = {}
        if profile is not None:
            wire["profile"] = profile
        if new_password is not None:
            wire["newPassword"] = new_password
        if current_password is not None:
            wire["currentPassword"] = current_password
        return cast("AccountUpdateResult", self._call_method("account.update", wire))

    def account_delete(self, password: str) -> AccountDeleteResult:
        """``account.delete``: Deletes the logged-in account after checking its password, with everything that
        belongs to it in the local database: favorites, sessions, login-throttle rows and the user's activity
        events (eventsDeleted says how many). Needs a logged-in user (-32011 otherwise).

        Params (Python name -> wire name): password -> password.
        """
        wire: Dict[str, Any] = {}
        wire["password"] = password
        return cast("AccountDeleteResult", self._call_method("account.delete", wire))

    def favorites_add(self, movie_id: int) -> Favorite:
        """``favorites.add``: Marks a movie as a favorite of the logged-in user and stores its summary with it,
        so the list works offline. Needs a logged-in user (-32011 otherwise). A second add is -32020 (nothing
        is duplicated); an unknown movie is -32021.

        Params (Python name -> wire name): movie_id -> movieId.
        """
        wire: Dict[str, Any] = {}
        wire["movieId"] = movie_id
        return cast("Favorite", self._call_method("favorites.add", wire))

    def favorites_remove(self, movie_id: int) -> FavoritesRemoveResult:
        """``favorites.remove``: Unmarks a favorite of the logged-in user. Needs a logged-in user (-32011
        otherwise). Not a favorite: -32021.

        Params (Python name -> wire name): movie_id -> movieId.
        """
        wire: Dict[str, Any] = {}
        wire["movieId"] = movie_id
        return cast("FavoritesRemoveResult", self._call_method("favorites.remove", wire))

    def favorites_list(
        self,
        group_by: Optional[Literal["genre"]] = None,
        poster_size: Optional[PosterSize] = None,
    ) -> FavoritesListResult:
        """``favorites.list``: The logged-in user's favorites from the local database (works offline), newest
        first. With groupBy "genre": sections with a genre header each, sorted by genre name; a movie with
        several genres appears under each, movies without a genre come last under {id: 0, name: "Other"}.
        Needs a logged-in user (-32011 otherwise).

        Params (Python name -> wire name): group_by -> groupBy, poster_size -> posterSize.
        """
        wire: Dict[str, Any] = {}
        if group_by is not None:
            wire["groupBy"] = group_by
        if poster_size is not None:
            wire["posterSize"] = poster_size
        return cast("FavoritesListResult", self._call_method("favorites.list", wire))

    def favorites_contains(self, movie_ids: List[int]) -> FavoritesContainsResult:
        """``favorites.contains``: Which of the given movies are favorites of the logged-in user, in one call
        (for drawing a list's hearts): every requested id maps to true or false. Needs a logged-in user
        (-32011 otherwise).

        Params (Python name -> wire name): movie_ids -> movieIds.
        """
        wire: Dict[str, Any] = {}
        wire["movieIds"] = movie_ids
        return cast("FavoritesContainsResult", self._call_method("favorites.contains", wire))

    def sync_status(self) -> SyncStatusResult:
        """``sync.status``: Whether the logged-in user's favorites and profile fields (bio, phone, birth date)
        sync through Cloud Firestore, the state of that sync, how many local changes wait to be pushed, when
        it last pushed and pulled, and the last error in plain words (null after a success). Answers from
        memory and the local database, never the network. Local accounts, the demo and MOVIE_RPC_SYNC=0:
        enabled false, provider none, state disabled.
        """
        wire = None
        return cast("SyncStatusResult", self._call_method("sync.status", wire))

    def sync_now(self, progress_token: Optional[ProgressToken] = None) -> SyncNowResult:
        """``sync.now``: Runs one sync cycle now (after the one running, if any): pulls what changed in Cloud
        Firestore since the last pull, applies it under the conflict rule (the change the user made last
        wins), then pushes the outbox in batches of at most 500 writes. Reports $/progress {token, value:
        {done, total, message}} when given a progressToken. Nobody logged in through Firebase: -32011. Sync
        off, Firestore unreachable or refusing: -32031 with the reason (data.retryable says whether trying
        later may work); local data and the outbox are untouched.

        Params (Python name -> wire name): progress_token -> progressToken.
        """
        wire: Dict[str, Any] = {}
        if progress_token is not None:
            wire["progressToken"] = progress_token
        return cast("SyncNowResult", self._call_method("sync.now", wire))

    def events_list(
        self,
        limit: Optional[EventLimit] = None,
        cursor: Optional[EventCursor] = None,
        name: Optional[str] = None,
        user_id: Optional[str] = OMIT,
        since: Optional[Timestamp] = None,
        until: Optional[Timestamp] = None,
    ) -> EventPage:
        """``events.list``: Stored activity events the caller may see, newest first (by timestamp, then id), one
        page at a time. Activity logs are private: a logged-in user sees their own events and those recorded
        while nobody was logged in, never another user's (a userId filter naming another user finds nothing);
        with MOVIE_RPC_EVENTS_SCOPE=all every event is visible, for testers. A page holds at most limit events
        and about 1 MiB of them: a page of large events is shorter, and its nextCursor leads to the rest.
        Paging is keyset-based: a nextCursor stays valid while events are recorded, and no event is returned
        twice or skipped. Events the server recorded are flushed before reading, so the list includes
        everything recorded so far.

        Params (Python name -> wire name): limit -> limit, cursor -> cursor, name -> name, user_id -> userId,
        since -> since, until -> until.
        """
        wire: Dict[str, Any] = {}
        if limit is not None:
            wire["limit"] = limit
        if cursor is not None:
            wire["cursor"] = cursor
        if name is not None:
            wire["name"] = name
        if user_id is not OMIT:
            wire["userId"] = user_id
        if since is not None:
            wire["since"] = since
        if until is not None:
            wire["until"] = until
        return cast("EventPage", self._call_method("events.list", wire))

    def events_search(
        self,
        query: str,
        limit: Optional[EventLimit] = None,
        cursor: Optional[EventCursor] = None,
    ) -> EventPage:
        """``events.search``: Every stored event the caller may see (as in events.list) whose name, or one of
        whose parameter values, contains query, ignoring case; newest first, paged like events.list. Parameter
        values are compared as text: strings as they are, integers in decimal, other numbers as printed (7.5),
        true/false, each array element on its own. Parameter keys and JSON punctuation are not searched, so a
        query of " finds only values containing a quote. %, _, quotes and backslashes are ordinary characters.
        Queries of 3 or more characters use a trigram index; shorter ones scan the log.

        Params (Python name -> wire name): query -> query, limit -> limit, cursor -> cursor.
        """
        wire: Dict[str, Any] = {}
        wire["query"] = query
        if limit is not None:
            wire["limit"] = limit
        if cursor is not None:
            wire["cursor"] = cursor
        return cast("EventPage", self._call_method("events.search", wire))

    def events_get(self, id: int) -> Event:
        """``events.get``: One stored event with all its parameters. Another user's event is -32021, as if it did
        not exist (unless MOVIE_RPC_EVENTS_SCOPE=all).

        Params (Python name -> wire name): id -> id.
        """
        wire: Dict[str, Any] = {}
        wire["id"] = id
        return cast("Event", self._call_method("events.get", wire))

    def events_add(
        self,
        name: str,
        timestamp: Optional[Timestamp] = None,
        params: Optional[EventParams] = None,
    ) -> Event:
        """``events.add``: Stores one event (for testers) for the current user and returns it. Written through:
        it is committed before the answer. Any invalid field fails with -32010 listing every problem (name 1
        to 200 characters without control characters; timestamp ISO 8601; params at most 100 keys, strings at
        most 10,000 characters, arrays at most 1,000 elements, the params at most 65,536 bytes as JSON, finite
        numbers; the timestamp a real RFC 3339 date and time: no year 0000, no February 30, no 24:00 or second
        60); params of the wrong JSON type (not an object, a nested object, null) fail with -32602 naming the
        field. The timestamp (default now) is kept to the millisecond, rounded down. Retention applies: when
        the log is full, the oldest event is deleted, which can be this one if it is the oldest.

        Params (Python name -> wire name): name -> name, timestamp -> timestamp, params -> params.
        """
        wire: Dict[str, Any] = {}
        wire["name"] = name
        if timestamp is not None:
            wire["timestamp"] = timestamp
        if params is not None:
            wire["params"] = params
        return cast("Event", self._call_method("events.add", wire))

    def events_delete(self, ids: List[int]) -> EventsDeleteResult:
        """``events.delete``: Deletes stored events by id. Ids that are not stored, or are another user's events
        (see events.list), are listed in notFound instead of failing; each id appears once, in request order.
        Committed before the answer.

        Params (Python name -> wire name): ids -> ids.
        """
        wire: Dict[str, Any] = {}
        wire["ids"] = ids
        return cast("EventsDeleteResult", self._call_method("events.delete", wire))

    def events_stats(self, since: Optional[Timestamp] = None) -> EventsStatsResult:
        """``events.stats``: How many times each event the caller may see (as in events.list) happened, by name,
        counting every occurrence of a run (repeats), among the stored events (or, with since, those whose run
        started at or after that time), most frequent first, equal counts by name.

        Params (Python name -> wire name): since -> since.
        """
        wire: Dict[str, Any] = {}
        if since is not None:
            wire["since"] = since
        return cast("EventsStatsResult", self._call_method("events.stats", wire))

    def hints_list(self) -> HintsListResult:
        """``hints.list``: Suggestions for features the current user (or the anonymous user, when nobody is
        logged in) has never used, derived from their stored events. Rules, in this order: no popular.opened
        event -> popular: "Browse popular movies with movies.popular"; no genre.opened -> genres: "Explore one
        genre's movies with movies.byGenre"; no movie.viewed -> details: "Open a movie's details with
        movies.details"; no favorite.added -> favorites: "Keep movies you like with favorites.add"; no
        catalog.synced -> offline: "Save the catalog for offline use with catalog.sync". Deleting the events
        brings a hint back.
        """
        wire = None
        return cast("HintsListResult", self._call_method("hints.list", wire))

    def movies_search(
        self,
        query: str,
        page: Optional[Page] = None,
        year: Optional[int] = None,
        primary_release_year: Optional[int] = None,
        language: Optional[Language] = None,
        region: Optional[Region] = None,
        include_adult: Optional[bool] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MoviePage:
        """``movies.search``: Movies whose title matches a query (TMDB /search/movie); offline, the local index
        of stored movies answers.

        Params (Python name -> wire name): query -> query, page -> page, year -> year, primary_release_year ->
        primaryReleaseYear, language -> language, region -> region, include_adult -> includeAdult, poster_size
        -> posterSize, backdrop_size -> backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        wire["query"] = query
        if page is not None:
            wire["page"] = page
        if year is not None:
            wire["year"] = year
        if primary_release_year is not None:
            wire["primaryReleaseYear"] = primary_release_year
        if language is not None:
            wire["language"] = language
        if region is not None:
            wire["region"] = region
        if include_adult is not None:
            wire["includeAdult"] = include_adult
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MoviePage", self._call_method("movies.search", wire))

    def movies_trending(
        self,
        window: Optional[Literal["day", "week"]] = None,
        page: Optional[Page] = None,
        language: Optional[Language] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MoviePage:
        """``movies.trending``: Movies trending today or this week (TMDB /trending/movie/{window}).

        Params (Python name -> wire name): window -> window, page -> page, language -> language, poster_size
        -> posterSize, backdrop_size -> backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        if window is not None:
            wire["window"] = window
        if page is not None:
            wire["page"] = page
        if language is not None:
            wire["language"] = language
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MoviePage", self._call_method("movies.trending", wire))

    def movies_top_rated(
        self,
        page: Optional[Page] = None,
        language: Optional[Language] = None,
        region: Optional[Region] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MoviePage:
        """``movies.topRated``: The best rated movies (TMDB /movie/top_rated).

        Params (Python name -> wire name): page -> page, language -> language, region -> region, poster_size
        -> posterSize, backdrop_size -> backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        if page is not None:
            wire["page"] = page
        if language is not None:
            wire["language"] = language
        if region is not None:
            wire["region"] = region
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MoviePage", self._call_method("movies.topRated", wire))

    def movies_now_playing(
        self,
        page: Optional[Page] = None,
        language: Optional[Language] = None,
        region: Optional[Region] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MoviePage:
        """``movies.nowPlaying``: Movies now in theatres (TMDB /movie/now_playing), with the release dates
        covered as dates.

        Params (Python name -> wire name): page -> page, language -> language, region -> region, poster_size
        -> posterSize, backdrop_size -> backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        if page is not None:
            wire["page"] = page
        if language is not None:
            wire["language"] = language
        if region is not None:
            wire["region"] = region
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MoviePage", self._call_method("movies.nowPlaying", wire))

    def movies_upcoming(
        self,
        page: Optional[Page] = None,
        language: Optional[Language] = None,
        region: Optional[Region] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MoviePage:
        """``movies.upcoming``: Movies soon in theatres (TMDB /movie/upcoming), with the release dates covered as
        dates.

        Params (Python name -> wire name): page -> page, language -> language, region -> region, poster_size
        -> posterSize, backdrop_size -> backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        if page is not None:
            wire["page"] = page
        if language is not None:
            wire["language"] = language
        if region is not None:
            wire["region"] = region
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MoviePage", self._call_method("movies.upcoming", wire))

    def movies_discover(
        self,
        genre_ids: Optional[List[int]] = None,
        genre_match: Optional[Literal["all", "any"]] = None,
        without_genre_ids: Optional[List[int]] = None,
        year: Optional[int] = None,
        released_from: Optional[Date] = None,
        released_to: Optional[Date] = None,
        min_rating: Optional[float] = None,
        min_votes: Optional[int] = None,
        min_runtime: Optional[int] = None,
        max_runtime: Optional[int] = None,
        original_language: Optional[str] = None,
        sort_by: Optional[DiscoverSortBy] = None,
        watch_provider_ids: Optional[List[int]] = None,
        watch_region: Optional[Region] = None,
        certification: Optional[str] = None,
        certification_country: Optional[Region] = None,
        page: Optional[Page] = None,
        language: Optional[Language] = None,
        region: Optional[Region] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MoviePage:
        """``movies.discover``: Movies by filters: genres, years, dates, rating, votes, runtime, language,
        certification, streaming service (TMDB /discover/movie).

        Params (Python name -> wire name): genre_ids -> genreIds, genre_match -> genreMatch, without_genre_ids
        -> withoutGenreIds, year -> year, released_from -> releasedFrom, released_to -> releasedTo, min_rating
        -> minRating, min_votes -> minVotes, min_runtime -> minRuntime, max_runtime -> maxRuntime,
        original_language -> originalLanguage, sort_by -> sortBy, watch_provider_ids -> watchProviderIds,
        watch_region -> watchRegion, certification -> certification, certification_country ->
        certificationCountry, page -> page, language -> language, region -> region, poster_size -> posterSize,
        backdrop_size -> backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        if genre_ids is not None:
            wire["genreIds"] = genre_ids
        if genre_match is not None:
            wire["genreMatch"] = genre_match
        if without_genre_ids is not None:
            wire["withoutGenreIds"] = without_genre_ids
        if year is not None:
            wire["year"] = year
        if released_from is not None:
            wire["releasedFrom"] = released_from
        if released_to is not None:
            wire["releasedTo"] = released_to
        if min_rating is not None:
            wire["minRating"] = min_rating
        if min_votes is not None:
            wire["minVotes"] = min_votes
        if min_runtime is not None:
            wire["minRuntime"] = min_runtime
        if max_runtime is not None:
            wire["maxRuntime"] = max_runtime
        if original_language is not None:
            wire["originalLanguage"] = original_language
        if sort_by is not None:
            wire["sortBy"] = sort_by
        if watch_provider_ids is not None:
            wire["watchProviderIds"] = watch_provider_ids
        if watch_region is not None:
            wire["watchRegion"] = watch_region
        if certification is not None:
            wire["certification"] = certification
        if certification_country is not None:
            wire["certificationCountry"] = certification_country
        if page is not None:
            wire["page"] = page
        if language is not None:
            wire["language"] = language
        if region is not None:
            wire["region"] = region
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MoviePage", self._call_method("movies.discover", wire))

    def movies_credits(self, movie_id: int, cache_policy: Optional[CachePolicy] = None) -> MovieCredits:
        """``movies.credits``: A movie's cast (in billing order) and crew (TMDB /movie/{id}/credits).

        Params (Python name -> wire name): movie_id -> movieId, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        wire["movieId"] = movie_id
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MovieCredits", self._call_method("movies.credits", wire))

    def movies_videos(
        self,
        movie_id: int,
        language: Optional[Language] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MovieVideos:
        """``movies.videos``: A movie's trailers, teasers and clips, trailers first, with a watch URL for YouTube
        and Vimeo (TMDB /movie/{id}/videos).

        Params (Python name -> wire name): movie_id -> movieId, language -> language, cache_policy ->
        cachePolicy.
        """
        wire: Dict[str, Any] = {}
        wire["movieId"] = movie_id
        if language is not None:
            wire["language"] = language
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MovieVideos", self._call_method("movies.videos", wire))

    def movies_watch_providers(
        self,
        movie_id: int,
        region: Region,
        cache_policy: Optional[CachePolicy] = None,
    ) -> WatchProviders:
        """``movies.watchProviders``: Where a movie streams, rents, sells or airs free in one country (JustWatch
        data, through TMDB /movie/{id}/watch/providers).

        Params (Python name -> wire name): movie_id -> movieId, region -> region, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        wire["movieId"] = movie_id
        wire["region"] = region
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("WatchProviders", self._call_method("movies.watchProviders", wire))

    def movies_recommendations(
        self,
        movie_id: int,
        page: Optional[Page] = None,
        language: Optional[Language] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MoviePage:
        """``movies.recommendations``: Movies that viewers of one movie also liked (TMDB
        /movie/{id}/recommendations).

        Params (Python name -> wire name): movie_id -> movieId, page -> page, language -> language,
        poster_size -> posterSize, backdrop_size -> backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        wire["movieId"] = movie_id
        if page is not None:
            wire["page"] = page
        if language is not None:
            wire["language"] = language
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MoviePage", self._call_method("movies.recommendations", wire))

    def movies_similar(
        self,
        movie_id: int,
        page: Optional[Page] = None,
        language: Optional[Language] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MoviePage:
        """``movies.similar``: Movies similar to one movie by genres and keywords (TMDB /movie/{id}/similar).

        Params (Python name -> wire name): movie_id -> movieId, page -> page, language -> language,
        poster_size -> posterSize, backdrop_size -> backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        wire["movieId"] = movie_id
        if page is not None:
            wire["page"] = page
        if language is not None:
            wire["language"] = language
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MoviePage", self._call_method("movies.similar", wire))

    def movies_find(
        self,
        imdb_id: str,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> FoundMovie:
        """``movies.find``: The movie an IMDb id names (TMDB /find/{id}?external_source=imdb_id).

        Params (Python name -> wire name): imdb_id -> imdbId, poster_size -> posterSize, backdrop_size ->
        backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        wire["imdbId"] = imdb_id
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("FoundMovie", self._call_method("movies.find", wire))

    def people_search(
        self,
        query: str,
        page: Optional[Page] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> PersonPage:
        """``people.search``: People (actors, directors, …) by name (TMDB /search/person).

        Params (Python name -> wire name): query -> query, page -> page, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        wire["query"] = query
        if page is not None:
            wire["page"] = page
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("PersonPage", self._call_method("people.search", wire))

    def people_details(
        self,
        person_id: int,
        language: Optional[Language] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> PersonDetails:
        """``people.details``: A person's biography and filmography, newest first, from one TMDB request
        (/person/{id}?append_to_response=movie_credits).

        Params (Python name -> wire name): person_id -> personId, language -> language, poster_size ->
        posterSize, backdrop_size -> backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        wire["personId"] = person_id
        if language is not None:
            wire["language"] = language
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("PersonDetails", self._call_method("people.details", wire))


class AsyncMethods:
    """One coroutine helper per method of the document."""

    async def _call_method(self, method: str, params: Optional[Dict[str, Any]]) -> Any:
        raise NotImplementedError

    async def server_info(self) -> ServerInfo:
        """``server.info``: Describes the running server: version, framing, catalog mode and data directory."""
        wire = None
        return cast("ServerInfo", await self._call_method("server.info", wire))

    async def rpc_discover(self) -> RpcDiscoverResult:
        """``rpc.discover``: Returns this OpenRPC document."""
        wire = None
        return cast("RpcDiscoverResult", await self._call_method("rpc.discover", wire))

    async def initialize(
        self,
        process_id: Optional[int] = OMIT,
        client_info: Optional[Dict[str, Any]] = None,
        capabilities: Optional[Dict[str, Any]] = None,
        root_uri: Optional[str] = OMIT,
        protocol_version: Optional[str] = None,
    ) -> InitializeMethodResult:
        """``initialize``: Handshake for LSP client libraries (answers serverInfo and capabilities.movieRpc) and
        for MCP clients (params with protocolVersion and clientInfo: answers the MCP initialize result; then
        ping, tools/list and tools/call serve the same methods as tools). Any other params are accepted.

        Params (Python name -> wire name): process_id -> processId, client_info -> clientInfo, capabilities ->
        capabilities, root_uri -> rootUri, protocol_version -> protocolVersion.
        """
        wire: Dict[str, Any] = {}
        if process_id is not OMIT:
            wire["processId"] = process_id
        if client_info is not None:
            wire["clientInfo"] = client_info
        if capabilities is not None:
            wire["capabilities"] = capabilities
        if root_uri is not OMIT:
            wire["rootUri"] = root_uri
        if protocol_version is not None:
            wire["protocolVersion"] = protocol_version
        return cast("InitializeMethodResult", await self._call_method("initialize", wire))

    async def shutdown(self) -> ShutdownResult:
        """``shutdown``: LSP-style shutdown request: answers null; the process then exits on the exit
        notification or end of input.
        """
        wire = None
        return cast("ShutdownResult", await self._call_method("shutdown", wire))

    async def genres_list(
        self,
        language: Optional[Language] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> GenreList:
        """``genres.list``: All movie genres (TMDB's 19, e.g. 28 Action).

        Params (Python name -> wire name): language -> language, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        if language is not None:
            wire["language"] = language
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("GenreList", await self._call_method("genres.list", wire))

    async def movies_popular(
        self,
        page: Optional[Page] = None,
        language: Optional[Language] = None,
        region: Optional[Region] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MoviePage:
        """``movies.popular``: A page of popular movies (20 per page).

        Params (Python name -> wire name): page -> page, language -> language, region -> region, poster_size
        -> posterSize, backdrop_size -> backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        if page is not None:
            wire["page"] = page
        if language is not None:
            wire["language"] = language
        if region is not None:
            wire["region"] = region
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MoviePage", await self._call_method("movies.popular", wire))

    async def movies_by_genre(
        self,
        genre_id: int,
        page: Optional[Page] = None,
        language: Optional[Language] = None,
        region: Optional[Region] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MoviePage:
        """``movies.byGenre``: A page of one genre's movies, most popular first (TMDB
        /discover/movie?with_genres=ID).

        Params (Python name -> wire name): genre_id -> genreId, page -> page, language -> language, region ->
        region, poster_size -> posterSize, backdrop_size -> backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        wire["genreId"] = genre_id
        if page is not None:
            wire["page"] = page
        if language is not None:
            wire["language"] = language
        if region is not None:
            wire["region"] = region
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MoviePage", await self._call_method("movies.byGenre", wire))

    async def movies_latest(
        self,
        language: Optional[Language] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> LatestMovie:
        """``movies.latest``: The single newest TMDB record, without image fields (usually near-empty).

        Params (Python name -> wire name): language -> language, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        if language is not None:
            wire["language"] = language
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("LatestMovie", await self._call_method("movies.latest", wire))

    async def movies_details(
        self,
        movie_id: int,
        language: Optional[Language] = None,
        include: Optional[List[DetailsPart]] = None,
        region: Optional[Region] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MovieDetails:
        """``movies.details``: Full details of one movie: the summary fields plus tagline, runtime, status,
        genres, homepage, imdbId, budget, revenue, spoken languages, production companies; with include, also
        credits, videos, watch providers, certification and external ids, fetched in one TMDB request.

        Params (Python name -> wire name): movie_id -> movieId, language -> language, include -> include,
        region -> region, poster_size -> posterSize, backdrop_size -> backdropSize, cache_policy ->
        cachePolicy.
        """
        wire: Dict[str, Any] = {}
        wire["movieId"] = movie_id
        if language is not None:
            wire["language"] = language
        if include is not None:
            wire["include"] = include
        if region is not None:
            wire["region"] = region
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MovieDetails", await self._call_method("movies.details", wire))

    async def images_fetch(
        self,
        path: str,
        size: Optional[Literal["w92", "w154", "w185", "w300", "w342", "w500", "w780", "w1280", "original"]] = None,
    ) -> ImagesFetchResult:
        """``images.fetch``: Downloads a poster or backdrop once into the on-disk image cache (data
        directory/images) and returns the local file. Concurrent requests for one image share one download;
        served from disk when offline. Redirects are followed only to the image host and the hosts of
        MOVIE_RPC_IMAGE_HOSTS, never into the local network from a public image host; only non-empty image/*
        answers of at most 20 MiB are stored (else -32034 with data.reason), and contentType is always a known
        image type.

        Params (Python name -> wire name): path -> path, size -> size.
        """
        wire: Dict[str, Any] = {}
        wire["path"] = path
        if size is not None:
            wire["size"] = size
        return cast("ImagesFetchResult", await self._call_method("images.fetch", wire))

    async def catalog_sync(
        self,
        popular_pages: Optional[int] = None,
        trending: Optional[int] = None,
        top_rated: Optional[int] = None,
        details: Optional[bool] = None,
        genres: Optional[Union[List[int], Literal["all"]]] = None,
        language: Optional[Language] = None,
        progress_token: Optional[ProgressToken] = None,
    ) -> CatalogSyncResult:
        """``catalog.sync``: Prefetches the genres, the first N popular, trending and top rated pages, each
        chosen genre's first page and, with details, every saved movie's details with credits and videos, so
        the catalog works offline later. Requests are paced within TMDB's rate limit (about 40 a second) and a
        429 holds them all back for its Retry-After. Cancellable with $/cancelRequest.

        Params (Python name -> wire name): popular_pages -> popularPages, trending -> trending, top_rated ->
        topRated, details -> details, genres -> genres, language -> language, progress_token -> progressToken.
        """
        wire: Dict[str, Any] = {}
        if popular_pages is not None:
            wire["popularPages"] = popular_pages
        if trending is not None:
            wire["trending"] = trending
        if top_rated is not None:
            wire["topRated"] = top_rated
        if details is not None:
            wire["details"] = details
        if genres is not None:
            wire["genres"] = genres
        if language is not None:
            wire["language"] = language
        if progress_token is not None:
            wire["progressToken"] = progress_token
        return cast("CatalogSyncResult", await self._call_method("catalog.sync", wire))

    async def auth_validate(
        self,
        email: Optional[str] = None,
        password: Optional[str] = None,
        password_confirmation: Optional[str] = None,
        profile: Optional[Profile] = None,
    ) -> AuthValidateResult:
        """``auth.validate``: Checks the given form fields with the rules of auth.register, without side effects,
        so a form can enable its submit button as the user types. Only the given fields are checked.

        Params (Python name -> wire name): email -> email, password -> password, password_confirmation ->
        passwordConfirmation, profile -> profile.
        """
        wire: Dict[str, Any] = {}
        if email is not None:
            wire["email"] = email
        if password is not None:
            wire["password"] = password
        if password_confirmation is not None:
            wire["passwordConfirmation"] = password_confirmation
        if profile is not None:
            wire["profile"] = profile
        return cast("AuthValidateResult", await self._call_method("auth.validate", wire))

    async def auth_register(
        self,
        email: str,
        password: str,
        password_confirmation: Optional[str] = None,
        profile: Optional[Profile] = None,
    ) -> SignedIn:
        """``auth.register``: Creates an account and logs it in (the data directory's previous session ends).
        Input is validated first with the rules of auth.validate: any failure is -32010 listing every failing
        field, and nothing is created or sent. An email already registered (case-insensitively) is -32013.
        With Firebase Auth configured the account is created there.

        Params (Python name -> wire name): email -> email, password -> password, password_confirmation ->
        passwordConfirmation, profile -> profile.
        """
        wire: Dict[str, Any] = {}
        wire["email"] = email
        wire["password"] = password
        if password_confirmation is not None:
            wire["passwordConfirmation"] = password_confirmation
        if profile is not None:
            wire["profile"] = profile
        return cast("SignedIn", await self._call_method("auth.register", wire))

    async def auth_login(self, email: str, password: str) -> SignedIn:
        """``auth.login``: Logs in (the previous session ends). Invalid input is -32010 and nothing is checked.
        Unknown email and wrong password are the same -32012. After 5 failed attempts for one email, attempts
        are refused with -32014 and data.retryAfter seconds: 30 s, doubling with each further failure up to 15
        minutes; kept in the database across restarts; a successful login resets it.

        Params (Python name -> wire name): email -> email, password -> password.
        """
        wire: Dict[str, Any] = {}
        wire["email"] = email
        wire["password"] = password
        return cast("SignedIn", await self._call_method("auth.login", wire))

    async def auth_logout(self) -> AuthLogoutResult:
        """``auth.logout``: Ends the current session; answers the login route (also when nobody was logged in)."""
        wire = None
        return cast("AuthLogoutResult", await self._call_method("auth.logout", wire))

    async def auth_status(self) -> AuthStatusResult:
        """``auth.status``: Who is logged in. The session is the data directory's, kept in its database: a
        restarted server, or a second process on the same directory, sees the same user.
        """
        wire = None
        return cast("AuthStatusResult", await self._call_method("auth.status", wire))

    async def account_update(
        self,
        profile: Optional[Profile] = None,
        new_password: Optional[str] = None,
        current_password: Optional[str] = None,
    ) -> AccountUpdateResult:
        """``account.update``: Changes the logged-in user's profile and/or password. Needs a logged-in user
        (-32011 otherwise). newPassword follows the password rule and needs currentPassword (-32012 when
        wrong, counted by the login throttle); a password change ends every other session of the user.

        Params (Python name -> wire name): profile -> profile, new_password -> newPassword, current_password
        -> currentPassword.
        """
        wire: Dict[str, Any] = {}
        if profile is not None:
            wire["profile"] = profile
        if new_password is not None:
            wire["newPassword"] = new_password
        if current_password is not None:
            wire["currentPassword"] = current_password
        return cast("AccountUpdateResult", await self._call_method("account.update", wire))

    async def account_delete(self, password: str) -> AccountDeleteResult:
        """``account.delete``: Deletes the logged-in account after checking its password, with everything that
        belongs to it in the local database: favorites, sessions, login-throttle rows and the user's activity
        events (eventsDeleted says how many). Needs a logged-in user (-32011 otherwise).

        Params (Python name -> wire name): password -> password.
        """
        wire: Dict[str, Any] = {}
        wire["password"] = password
        return cast("AccountDeleteResult", await self._call_method("account.delete", wire))

    async def favorites_add(self, movie_id: int) -> Favorite:
        """``favorites.add``: Marks a movie as a favorite of the logged-in user and stores its summary with it,
        so the list works offline. Needs a logged-in user (-32011 otherwise). A second add is -32020 (nothing
        is duplicated); an unknown movie is -32021.

        Params (Python name -> wire name): movie_id -> movieId.
        """
        wire: Dict[str, Any] = {}
        wire["movieId"] = movie_id
        return cast("Favorite", await self._call_method("favorites.add", wire))

    async def favorites_remove(self, movie_id: int) -> FavoritesRemoveResult:
        """``favorites.remove``: Unmarks a favorite of the logged-in user. Needs a logged-in user (-32011
        otherwise). Not a favorite: -32021.

        Params (Python name -> wire name): movie_id -> movieId.
        """
        wire: Dict[str, Any] = {}
        wire["movieId"] = movie_id
        return cast("FavoritesRemoveResult", await self._call_method("favorites.remove", wire))

    async def favorites_list(
        self,
        group_by: Optional[Literal["genre"]] = None,
        poster_size: Optional[PosterSize] = None,
    ) -> FavoritesListResult:
        """``favorites.list``: The logged-in user's favorites from the local database (works offline), newest
        first. With groupBy "genre": sections with a genre header each, sorted by genre name; a movie with
        several genres appears under each, movies without a genre come last under {id: 0, name: "Other"}.
        Needs a logged-in user (-32011 otherwise).

        Params (Python name -> wire name): group_by -> groupBy, poster_size -> posterSize.
        """
        wire: Dict[str, Any] = {}
        if group_by is not None:
            wire["groupBy"] = group_by
        if poster_size is not None:
            wire["posterSize"] = poster_size
        return cast("FavoritesListResult", await self._call_method("favorites.list", wire))

    async def favorites_contains(self, movie_ids: List[int]) -> FavoritesContainsResult:
        """``favorites.contains``: Which of the given movies are favorites of the logged-in user, in one call
        (for drawing a list's hearts): every requested id maps to true or false. Needs a logged-in user
        (-32011 otherwise).

        Params (Python name -> wire name): movie_ids -> movieIds.
        """
        wire: Dict[str, Any] = {}
        wire["movieIds"] = movie_ids
        return cast("FavoritesContainsResult", await self._call_method("favorites.contains", wire))

    async def sync_status(self) -> SyncStatusResult:
        """``sync.status``: Whether the logged-in user's favorites and profile fields (bio, phone, birth date)
        sync through Cloud Firestore, the state of that sync, how many local changes wait to be pushed, when
        it last pushed and pulled, and the last error in plain words (null after a success). Answers from
        memory and the local database, never the network. Local accounts, the demo and MOVIE_RPC_SYNC=0:
        enabled false, provider none, state disabled.
        """
        wire = None
        return cast("SyncStatusResult", await self._call_method("sync.status", wire))

    async def sync_now(self, progress_token: Optional[ProgressToken] = None) -> SyncNowResult:
        """``sync.now``: Runs one sync cycle now (after the one running, if any): pulls what changed in Cloud
        Firestore since the last pull, applies it under the conflict rule (the change the user made last
        wins), then pushes the outbox in batches of at most 500 writes. Reports $/progress {token, value:
        {done, total, message}} when given a progressToken. Nobody logged in through Firebase: -32011. Sync
        off, Firestore unreachable or refusing: -32031 with the reason (data.retryable says whether trying
        later may work); local data and the outbox are untouched.

        Params (Python name -> wire name): progress_token -> progressToken.
        """
        wire: Dict[str, Any] = {}
        if progress_token is not None:
            wire["progressToken"] = progress_token
        return cast("SyncNowResult", await self._call_method("sync.now", wire))

    async def events_list(
        self,
        limit: Optional[EventLimit] = None,
        cursor: Optional[EventCursor] = None,
        name: Optional[str] = None,
        user_id: Optional[str] = OMIT,
        since: Optional[Timestamp] = None,
        until: Optional[Timestamp] = None,
    ) -> EventPage:
        """``events.list``: Stored activity events the caller may see, newest first (by timestamp, then id), one
        page at a time. Activity logs are private: a logged-in user sees their own events and those recorded
        while nobody was logged in, never another user's (a userId filter naming another user finds nothing);
        with MOVIE_RPC_EVENTS_SCOPE=all every event is visible, for testers. A page holds at most limit events
        and about 1 MiB of them: a page of large events is shorter, and its nextCursor leads to the rest.
        Paging is keyset-based: a nextCursor stays valid while events are recorded, and no event is returned
        twice or skipped. Events the server recorded are flushed before reading, so the list includes
        everything recorded so far.

        Params (Python name -> wire name): limit -> limit, cursor -> cursor, name -> name, user_id -> userId,
        since -> since, until -> until.
        """
        wire: Dict[str, Any] = {}
        if limit is not None:
            wire["limit"] = limit
        if cursor is not None:
            wire["cursor"] = cursor
        if name is not None:
            wire["name"] = name
        if user_id is not OMIT:
            wire["userId"] = user_id
        if since is not None:
            wire["since"] = since
        if until is not None:
            wire["until"] = until
        return cast("EventPage", await self._call_method("events.list", wire))

    async def events_search(
        self,
        query: str,
        limit: Optional[EventLimit] = None,
        cursor: Optional[EventCursor] = None,
    ) -> EventPage:
        """``events.search``: Every stored event the caller may see (as in events.list) whose name, or one of
        whose parameter values, contains query, ignoring case; newest first, paged like events.list. Parameter
        values are compared as text: strings as they are, integers in decimal, other numbers as printed (7.5),
        true/false, each array element on its own. Parameter keys and JSON punctuation are not searched, so a
        query of " finds only values containing a quote. %, _, quotes and backslashes are ordinary characters.
        Queries of 3 or more characters use a trigram index; shorter ones scan the log.

        Params (Python name -> wire name): query -> query, limit -> limit, cursor -> cursor.
        """
        wire: Dict[str, Any] = {}
        wire["query"] = query
        if limit is not None:
            wire["limit"] = limit
        if cursor is not None:
            wire["cursor"] = cursor
        return cast("EventPage", await self._call_method("events.search", wire))

    async def events_get(self, id: int) -> Event:
        """``events.get``: One stored event with all its parameters. Another user's event is -32021, as if it did
        not exist (unless MOVIE_RPC_EVENTS_SCOPE=all).

        Params (Python name -> wire name): id -> id.
        """
        wire: Dict[str, Any] = {}
        wire["id"] = id
        return cast("Event", await self._call_method("events.get", wire))

    async def events_add(
        self,
        name: str,
        timestamp: Optional[Timestamp] = None,
        params: Optional[EventParams] = None,
    ) -> Event:
        """``events.add``: Stores one event (for testers) for the current user and returns it. Written through:
        it is committed before the answer. Any invalid field fails with -32010 listing every problem (name 1
        to 200 characters without control characters; timestamp ISO 8601; params at most 100 keys, strings at
        most 10,000 characters, arrays at most 1,000 elements, the params at most 65,536 bytes as JSON, finite
        numbers; the timestamp a real RFC 3339 date and time: no year 0000, no February 30, no 24:00 or second
        60); params of the wrong JSON type (not an object, a nested object, null) fail with -32602 naming the
        field. The timestamp (default now) is kept to the millisecond, rounded down. Retention applies: when
        the log is full, the oldest event is deleted, which can be this one if it is the oldest.

        Params (Python name -> wire name): name -> name, timestamp -> timestamp, params -> params.
        """
        wire: Dict[str, Any] = {}
        wire["name"] = name
        if timestamp is not None:
            wire["timestamp"] = timestamp
        if params is not None:
            wire["params"] = params
        return cast("Event", await self._call_method("events.add", wire))

    async def events_delete(self, ids: List[int]) -> EventsDeleteResult:
        """``events.delete``: Deletes stored events by id. Ids that are not stored, or are another user's events
        (see events.list), are listed in notFound instead of failing; each id appears once, in request order.
        Committed before the answer.

        Params (Python name -> wire name): ids -> ids.
        """
        wire: Dict[str, Any] = {}
        wire["ids"] = ids
        return cast("EventsDeleteResult", await self._call_method("events.delete", wire))

    async def events_stats(self, since: Optional[Timestamp] = None) -> EventsStatsResult:
        """``events.stats``: How many times each event the caller may see (as in events.list) happened, by name,
        counting every occurrence of a run (repeats), among the stored events (or, with since, those whose run
        started at or after that time), most frequent first, equal counts by name.

        Params (Python name -> wire name): since -> since.
        """
        wire: Dict[str, Any] = {}
        if since is not None:
            wire["since"] = since
        return cast("EventsStatsResult", await self._call_method("events.stats", wire))

    async def hints_list(self) -> HintsListResult:
        """``hints.list``: Suggestions for features the current user (or the anonymous user, when nobody is
        logged in) has never used, derived from their stored events. Rules, in this order: no popular.opened
        event -> popular: "Browse popular movies with movies.popular"; no genre.opened -> genres: "Explore one
        genre's movies with movies.byGenre"; no movie.viewed -> details: "Open a movie's details with
        movies.details"; no favorite.added -> favorites: "Keep movies you like with favorites.add"; no
        catalog.synced -> offline: "Save the catalog for offline use with catalog.sync". Deleting the events
        brings a hint back.
        """
        wire = None
        return cast("HintsListResult", await self._call_method("hints.list", wire))

    async def movies_search(
        self,
        query: str,
        page: Optional[Page] = None,
        year: Optional[int] = None,
        primary_release_year: Optional[int] = None,
        language: Optional[Language] = None,
        region: Optional[Region] = None,
        include_adult: Optional[bool] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MoviePage:
        """``movies.search``: Movies whose title matches a query (TMDB /search/movie); offline, the local index
        of stored movies answers.

        Params (Python name -> wire name): query -> query, page -> page, year -> year, primary_release_year ->
        primaryReleaseYear, language -> language, region -> region, include_adult -> includeAdult, poster_size
        -> posterSize, backdrop_size -> backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        wire["query"] = query
        if page is not None:
            wire["page"] = page
        if year is not None:
            wire["year"] = year
        if primary_release_year is not None:
            wire["primaryReleaseYear"] = primary_release_year
        if language is not None:
            wire["language"] = language
        if region is not None:
            wire["region"] = region
        if include_adult is not None:
            wire["includeAdult"] = include_adult
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MoviePage", await self._call_method("movies.search", wire))

    async def movies_trending(
        self,
        window: Optional[Literal["day", "week"]] = None,
        page: Optional[Page] = None,
        language: Optional[Language] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MoviePage:
        """``movies.trending``: Movies trending today or this week (TMDB /trending/movie/{window}).

        Params (Python name -> wire name): window -> window, page -> page, language -> language, poster_size
        -> posterSize, backdrop_size -> backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        if window is not None:
            wire["window"] = window
        if page is not None:
            wire["page"] = page
        if language is not None:
            wire["language"] = language
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MoviePage", await self._call_method("movies.trending", wire))

    async def movies_top_rated(
        self,
        page: Optional[Page] = None,
        language: Optional[Language] = None,
        region: Optional[Region] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MoviePage:
        """``movies.topRated``: The best rated movies (TMDB /movie/top_rated).

        Params (Python name -> wire name): page -> page, language -> language, region -> region, poster_size
        -> posterSize, backdrop_size -> backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        if page is not None:
            wire["page"] = page
        if language is not None:
            wire["language"] = language
        if region is not None:
            wire["region"] = region
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MoviePage", await self._call_method("movies.topRated", wire))

    async def movies_now_playing(
        self,
        page: Optional[Page] = None,
        language: Optional[Language] = None,
        region: Optional[Region] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MoviePage:
        """``movies.nowPlaying``: Movies now in theatres (TMDB /movie/now_playing), with the release dates
        covered as dates.

        Params (Python name -> wire name): page -> page, language -> language, region -> region, poster_size
        -> posterSize, backdrop_size -> backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        if page is not None:
            wire["page"] = page
        if language is not None:
            wire["language"] = language
        if region is not None:
            wire["region"] = region
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MoviePage", await self._call_method("movies.nowPlaying", wire))

    async def movies_upcoming(
        self,
        page: Optional[Page] = None,
        language: Optional[Language] = None,
        region: Optional[Region] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MoviePage:
        """``movies.upcoming``: Movies soon in theatres (TMDB /movie/upcoming), with the release dates covered as
        dates.

        Params (Python name -> wire name): page -> page, language -> language, region -> region, poster_size
        -> posterSize, backdrop_size -> backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        if page is not None:
            wire["page"] = page
        if language is not None:
            wire["language"] = language
        if region is not None:
            wire["region"] = region
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MoviePage", await self._call_method("movies.upcoming", wire))

    async def movies_discover(
        self,
        genre_ids: Optional[List[int]] = None,
        genre_match: Optional[Literal["all", "any"]] = None,
        without_genre_ids: Optional[List[int]] = None,
        year: Optional[int] = None,
        released_from: Optional[Date] = None,
        released_to: Optional[Date] = None,
        min_rating: Optional[float] = None,
        min_votes: Optional[int] = None,
        min_runtime: Optional[int] = None,
        max_runtime: Optional[int] = None,
        original_language: Optional[str] = None,
        sort_by: Optional[DiscoverSortBy] = None,
        watch_provider_ids: Optional[List[int]] = None,
        watch_region: Optional[Region] = None,
        certification: Optional[str] = None,
        certification_country: Optional[Region] = None,
        page: Optional[Page] = None,
        language: Optional[Language] = None,
        region: Optional[Region] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MoviePage:
        """``movies.discover``: Movies by filters: genres, years, dates, rating, votes, runtime, language,
        certification, streaming service (TMDB /discover/movie).

        Params (Python name -> wire name): genre_ids -> genreIds, genre_match -> genreMatch, without_genre_ids
        -> withoutGenreIds, year -> year, released_from -> releasedFrom, released_to -> releasedTo, min_rating
        -> minRating, min_votes -> minVotes, min_runtime -> minRuntime, max_runtime -> maxRuntime,
        original_language -> originalLanguage, sort_by -> sortBy, watch_provider_ids -> watchProviderIds,
        watch_region -> watchRegion, certification -> certification, certification_country ->
        certificationCountry, page -> page, language -> language, region -> region, poster_size -> posterSize,
        backdrop_size -> backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        if genre_ids is not None:
            wire["genreIds"] = genre_ids
        if genre_match is not None:
            wire["genreMatch"] = genre_match
        if without_genre_ids is not None:
            wire["withoutGenreIds"] = without_genre_ids
        if year is not None:
            wire["year"] = year
        if released_from is not None:
            wire["releasedFrom"] = released_from
        if released_to is not None:
            wire["releasedTo"] = released_to
        if min_rating is not None:
            wire["minRating"] = min_rating
        if min_votes is not None:
            wire["minVotes"] = min_votes
        if min_runtime is not None:
            wire["minRuntime"] = min_runtime
        if max_runtime is not None:
            wire["maxRuntime"] = max_runtime
        if original_language is not None:
            wire["originalLanguage"] = original_language
        if sort_by is not None:
            wire["sortBy"] = sort_by
        if watch_provider_ids is not None:
            wire["watchProviderIds"] = watch_provider_ids
        if watch_region is not None:
            wire["watchRegion"] = watch_region
        if certification is not None:
            wire["certification"] = certification
        if certification_country is not None:
            wire["certificationCountry"] = certification_country
        if page is not None:
            wire["page"] = page
        if language is not None:
            wire["language"] = language
        if region is not None:
            wire["region"] = region
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MoviePage", await self._call_method("movies.discover", wire))

    async def movies_credits(self, movie_id: int, cache_policy: Optional[CachePolicy] = None) -> MovieCredits:
        """``movies.credits``: A movie's cast (in billing order) and crew (TMDB /movie/{id}/credits).

        Params (Python name -> wire name): movie_id -> movieId, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        wire["movieId"] = movie_id
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MovieCredits", await self._call_method("movies.credits", wire))

    async def movies_videos(
        self,
        movie_id: int,
        language: Optional[Language] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MovieVideos:
        """``movies.videos``: A movie's trailers, teasers and clips, trailers first, with a watch URL for YouTube
        and Vimeo (TMDB /movie/{id}/videos).

        Params (Python name -> wire name): movie_id -> movieId, language -> language, cache_policy ->
        cachePolicy.
        """
        wire: Dict[str, Any] = {}
        wire["movieId"] = movie_id
        if language is not None:
            wire["language"] = language
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MovieVideos", await self._call_method("movies.videos", wire))

    async def movies_watch_providers(
        self,
        movie_id: int,
        region: Region,
        cache_policy: Optional[CachePolicy] = None,
    ) -> WatchProviders:
        """``movies.watchProviders``: Where a movie streams, rents, sells or airs free in one country (JustWatch
        data, through TMDB /movie/{id}/watch/providers).

        Params (Python name -> wire name): movie_id -> movieId, region -> region, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        wire["movieId"] = movie_id
        wire["region"] = region
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("WatchProviders", await self._call_method("movies.watchProviders", wire))

    async def movies_recommendations(
        self,
        movie_id: int,
        page: Optional[Page] = None,
        language: Optional[Language] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MoviePage:
        """``movies.recommendations``: Movies that viewers of one movie also liked (TMDB
        /movie/{id}/recommendations).

        Params (Python name -> wire name): movie_id -> movieId, page -> page, language -> language,
        poster_size -> posterSize, backdrop_size -> backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        wire["movieId"] = movie_id
        if page is not None:
            wire["page"] = page
        if language is not None:
            wire["language"] = language
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MoviePage", await self._call_method("movies.recommendations", wire))

    async def movies_similar(
        self,
        movie_id: int,
        page: Optional[Page] = None,
        language: Optional[Language] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> MoviePage:
        """``movies.similar``: Movies similar to one movie by genres and keywords (TMDB /movie/{id}/similar).

        Params (Python name -> wire name): movie_id -> movieId, page -> page, language -> language,
        poster_size -> posterSize, backdrop_size -> backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        wire["movieId"] = movie_id
        if page is not None:
            wire["page"] = page
        if language is not None:
            wire["language"] = language
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("MoviePage", await self._call_method("movies.similar", wire))

    async def movies_find(
        self,
        imdb_id: str,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> FoundMovie:
        """``movies.find``: The movie an IMDb id names (TMDB /find/{id}?external_source=imdb_id).

        Params (Python name -> wire name): imdb_id -> imdbId, poster_size -> posterSize, backdrop_size ->
        backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        wire["imdbId"] = imdb_id
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("FoundMovie", await self._call_method("movies.find", wire))

    async def people_search(
        self,
        query: str,
        page: Optional[Page] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> PersonPage:
        """``people.search``: People (actors, directors, …) by name (TMDB /search/person).

        Params (Python name -> wire name): query -> query, page -> page, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        wire["query"] = query
        if page is not None:
            wire["page"] = page
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("PersonPage", await self._call_method("people.search", wire))

    async def people_details(
        self,
        person_id: int,
        language: Optional[Language] = None,
        poster_size: Optional[PosterSize] = None,
        backdrop_size: Optional[BackdropSize] = None,
        cache_policy: Optional[CachePolicy] = None,
    ) -> PersonDetails:
        """``people.details``: A person's biography and filmography, newest first, from one TMDB request
        (/person/{id}?append_to_response=movie_credits).

        Params (Python name -> wire name): person_id -> personId, language -> language, poster_size ->
        posterSize, backdrop_size -> backdropSize, cache_policy -> cachePolicy.
        """
        wire: Dict[str, Any] = {}
        wire["personId"] = person_id
        if language is not None:
            wire["language"] = language
        if poster_size is not None:
            wire["posterSize"] = poster_size
        if backdrop_size is not None:
            wire["backdropSize"] = backdrop_size
        if cache_policy is not None:
            wire["cachePolicy"] = cache_policy
        return cast("PersonDetails", await self._call_method("people.details", wire))


METHOD_NAMES: List[str] = [
    "server.info",
    "rpc.discover",
    "initialize",
    "shutdown",
    "genres.list",
    "movies.popular",
    "movies.byGenre",
    "movies.latest",
    "movies.details",
    "images.fetch",
    "catalog.sync",
    "auth.validate",
    "auth.register",
    "auth.login",
    "auth.logout",
    "auth.status",
    "account.update",
    "account.delete",
    "favorites.add",
    "favorites.remove",
    "favorites.list",
    "favorites.contains",
    "sync.status",
    "sync.now",
    "events.list",
    "events.search",
    "events.get",
    "events.add",
    "events.delete",
    "events.stats",
    "hints.list",
    "movies.search",
    "movies.trending",
    "movies.topRated",
    "movies.nowPlaying",
    "movies.upcoming",
    "movies.discover",
    "movies.credits",
    "movies.videos",
    "movies.watchProviders",
    "movies.recommendations",
    "movies.similar",
    "movies.find",
    "people.search",
    "people.details",
]

__all__ = [
    "AccountDeleteParams",
    "AccountDeleteResult",
    "AccountUpdateParams",
    "AccountUpdateResult",
    "AsyncMethods",
    "AuthLoginParams",
    "AuthLogoutParams",
    "AuthLogoutResult",
    "AuthRegisterParams",
    "AuthStatusParams",
    "AuthStatusResult",
    "AuthValidateParams",
    "AuthValidateResult",
    "BackdropSize",
    "CachePolicy",
    "CastCredit",
    "CatalogSyncParams",
    "CatalogSyncResult",
    "CatalogSyncResultFailuresItem",
    "Credits",
    "CrewCredit",
    "Date",
    "DetailsPart",
    "DiscoverSortBy",
    "ErrorCode",
    "Event",
    "EventCursor",
    "EventLimit",
    "EventPage",
    "EventParams",
    "EventScalar",
    "EventValue",
    "EventsAddParams",
    "EventsDeleteParams",
    "EventsDeleteResult",
    "EventsGetParams",
    "EventsListParams",
    "EventsSearchParams",
    "EventsStatsParams",
    "EventsStatsResult",
    "EventsStatsResultCountsItem",
    "ExternalIds",
    "Favorite",
    "FavoritesAddParams",
    "FavoritesContainsParams",
    "FavoritesContainsResult",
    "FavoritesListParams",
    "FavoritesListResult",
    "FavoritesListResultOption1",
    "FavoritesListResultOption2",
    "FavoritesListResultOption2SectionsItem",
    "FavoritesRemoveParams",
    "FavoritesRemoveResult",
    "FieldProblem",
    "FoundMovie",
    "Genre",
    "GenreList",
    "GenresListParams",
    "Hint",
    "HintsListParams",
    "HintsListResult",
    "ImagesFetchParams",
    "ImagesFetchResult",
    "InitializeMethodResult",
    "InitializeParams",
    "InitializeResult",
    "InitializeResultCapabilities",
    "InitializeResultCapabilitiesMovieRpc",
    "InitializeResultServerInfo",
    "Language",
    "LatestMovie",
    "MCPInitializeResult",
    "MCPInitializeResultCapabilities",
    "MCPInitializeResultServerInfo",
    "Methods",
    "MovieCredits",
    "MovieDetails",
    "MoviePage",
    "MoviePageDates",
    "MovieSummary",
    "MovieVideos",
    "MoviesByGenreParams",
    "MoviesCreditsParams",
    "MoviesDetailsParams",
    "MoviesDiscoverParams",
    "MoviesFindParams",
    "MoviesLatestParams",
    "MoviesNowPlayingParams",
    "MoviesPopularParams",
    "MoviesRecommendationsParams",
    "MoviesSearchParams",
    "MoviesSimilarParams",
    "MoviesTopRatedParams",
    "MoviesTrendingParams",
    "MoviesUpcomingParams",
    "MoviesVideosParams",
    "MoviesWatchProvidersParams",
    "Page",
    "PeopleDetailsParams",
    "PeopleSearchParams",
    "PersonDetails",
    "PersonDetailsMovies",
    "PersonDetailsMoviesCastItem",
    "PersonDetailsMoviesCrewItem",
    "PersonPage",
    "PersonSummary",
    "PosterSize",
    "Profile",
    "ProgressToken",
    "Region",
    "Route",
    "RpcDiscoverParams",
    "RpcDiscoverResult",
    "ServerInfo",
    "ServerInfoParams",
    "ShutdownParams",
    "ShutdownResult",
    "SignedIn",
    "Source",
    "SyncNowParams",
    "SyncNowResult",
    "SyncStatusParams",
    "SyncStatusResult",
    "Timestamp",
    "User",
    "Video",
    "WatchOptions",
    "WatchProvider",
    "WatchProviders",
    "METHOD_NAMES",
]
