#!/usr/bin/env python3
"""A tour of movie-rpc: one session from server.info to favorites and the activity log.

    MOVIE_RPC_BIN=.build/release/movie-rpc python3 clients/python/examples/tour.py

Each step runs only if the server documents its methods (``rpc.discover``); the others are skipped
with a note. Uses a throwaway data directory unless MOVIE_RPC_HOME is set. Exits 0 when every step
that ran succeeded.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import uuid
from typing import Any, Iterable, List, Optional

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from movie_rpc import Client, RpcError  # noqa: E402


def items(result: Any, *keys: str) -> List[Any]:
    """The list in a result: the result itself, or its first member named in ``keys`` that is a list."""
    if isinstance(result, list):
        return result
    if isinstance(result, dict):
        for key in keys:
            if isinstance(result.get(key), list):
                return result[key]
    return []


def title(movie: Any) -> str:
    if not isinstance(movie, dict):
        return str(movie)
    name = movie.get("title") or movie.get("name") or "?"
    date = movie.get("releaseDate") or ""
    return "%s (%s)" % (name, date[:4]) if date else name


def movie_id(movie: Any) -> Optional[int]:
    if isinstance(movie, dict):
        return movie.get("id") or movie.get("movieId")
    return None


class Tour:
    def __init__(self, client: Client, methods: Iterable[str]) -> None:
        self.client = client
        self.methods = set(methods)

    def has(self, *names: str) -> bool:
        missing = [name for name in names if name not in self.methods]
        if missing:
            print("  (skipped: the server does not offer %s yet)" % ", ".join(missing))
        return not missing

    def run(self) -> None:
        print("== Catalog")
        first_movie = None
        if self.has("genres.list"):
            genres = items(self.client.genres_list(), "genres")
            print("  %d genres: %s" % (len(genres), ", ".join(str(g.get("name")) for g in genres[:8])))
            if genres and self.has("movies.byGenre"):
                genre = genres[0]
                page = self.client.movies_by_genre(genreId=genre["id"])
                movies = items(page, "results", "movies")
                print("  %s: %s" % (genre.get("name"), "; ".join(title(m) for m in movies[:3]) or "no movies"))
        if self.has("movies.popular"):
            movies = items(self.client.movies_popular(page=1), "results", "movies")
            print("  popular: %s" % ("; ".join(title(m) for m in movies[:5]) or "none"))
            first_movie = movies[0] if movies else None
        if first_movie is not None and self.has("movies.details"):
            details = self.client.movies_details(movieId=movie_id(first_movie))
            overview = (details.get("overview") or "")[:100] if isinstance(details, dict) else ""
            print("  details of %s: %s" % (title(details), overview or "(no overview)"))

        print("== Account and favorites")
        if not self.has("auth.register", "auth.login"):
            return
        email = "demo-%s@example.com" % uuid.uuid4().hex[:8]
        password = "correct horse battery staple"
        self.client.auth_register(email=email, password=password, passwordConfirmation=password)
        print("  registered %s" % email)
        self.client.auth_login(email=email, password=password)
        print("  logged in")
        if first_movie is not None and self.has("favorites.add", "favorites.list"):
            self.client.favorites_add(movieId=movie_id(first_movie))
            print("  added %s to favorites" % title(first_movie))
            favorites = items(self.client.favorites_list(), "favorites", "results", "movies")
            print("  favorites: %s" % ("; ".join(title(f.get("movie", f)) for f in favorites) or "none"))
        if self.has("events.list"):
            events = items(self.client.events_list(), "events", "results")
            for event in events[-5:]:
                if isinstance(event, dict):
                    print("  event: %s %s" % (event.get("timestamp") or "", event.get("name")))
            print("  %d events" % len(events))


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--framing", choices=["newline", "content-length"], default="newline")
    parser.add_argument("--bin", help="the movie-rpc binary (default: $MOVIE_RPC_BIN or movie-rpc on PATH)")
    options = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="movie-rpc-tour-") as scratch:
        env = {"MOVIE_RPC_HOME": os.environ.get("MOVIE_RPC_HOME") or scratch}
        with Client(options.bin, framing=options.framing, env=env, timeout=60) as client:
            info = client.server_info()
            print("== %s %s (JSON-RPC %s, %s framing, %s catalog)" % (
                info["name"], info["version"], info["protocolVersion"], info["framing"], info["catalog"]))
            print("  data directory: %s" % info["dataDirectory"])
            methods = client.method_names()
            print("  %d methods: %s" % (len(methods), ", ".join(sorted(methods))))
            try:
                Tour(client, methods).run()
            except RpcError as error:
                print("error: %s" % error, file=sys.stderr)
                return 1
            client.shutdown()
            status = client.exit()
    print("== done (server exit status %d)" % status)
    return 0 if status == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
