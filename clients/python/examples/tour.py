#!/usr/bin/env python3
"""A tour of movie-rpc: one session from the catalog to an account, favorites and the activity log.

    MOVIE_RPC_BIN=.build/release/movie-rpc python3 clients/python/examples/tour.py

With no TMDB credential the server answers from its embedded demo catalog, so this works offline.
Uses a throwaway data directory unless MOVIE_RPC_HOME is set. Exits 0 when every step succeeded.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import uuid
from typing import Any, Dict, List, Mapping, Optional, cast

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from movie_rpc import Client, RpcError  # noqa: E402
from movie_rpc.types import FavoritesListResultOption2  # noqa: E402


def title(movie: Mapping[str, Any]) -> str:
    year = (movie.get("releaseDate") or "")[:4]
    return "%s (%s)" % (movie["title"], year) if year else movie["title"]


def movie_line(movie: Mapping[str, Any]) -> str:
    return "%-48s ★ %.1f  [id %d]" % (title(movie)[:48], movie["voteAverage"], movie["id"])


def tour(client: Client) -> None:
    info = client.server_info()
    print("== %s %s: JSON-RPC %s over %s framing, %s catalog" % (
        info["name"], info["version"], info["protocolVersion"], info["framing"], info["catalog"]))
    print("   data directory: %s" % info["dataDirectory"])

    print("\n== Genres")
    genres = client.genres_list()
    print("   %d genres (source: %s): %s" % (
        len(genres["genres"]), genres["source"], ", ".join(g["name"] for g in genres["genres"])))

    comedy = next(g for g in genres["genres"] if g["name"] == "Comedy")
    print("\n== %s, most popular first" % comedy["name"])
    for movie in client.movies_by_genre(genre_id=comedy["id"])["results"][:5]:
        print("   " + movie_line(movie))

    print("\n== Search: \"jura\" (prefixes and accents fold: \"leon\" finds L\u00e9on too)")
    found = client.movies_search(query="jura")
    print("   %d found (source %s, complete %s)" % (found["totalResults"], found["source"], found["complete"]))
    for movie in found["results"][:3]:
        print("   " + movie_line(movie))

    print("\n== Popular, page 1")
    popular = client.movies_popular(page=1, poster_size="w342")
    print("   page %d of %d, %d movies, source %s, fetched %s" % (
        popular["page"], popular["totalPages"], popular["totalResults"], popular["source"], popular["fetchedAt"]))
    for movie in popular["results"][:5]:
        print("   " + movie_line(movie))

    first = popular["results"][0]
    details = client.movies_details(movie_id=first["id"])
    print("\n== Details of %s" % title(details))
    print("   %s" % ", ".join(g["name"] for g in details["genres"]))
    if details["runtime"]:
        print("   runtime %d min" % details["runtime"])
    print("   poster: %s" % details["posterUrl"])
    print("   %s" % details["overview"])

    latest = client.movies_latest()
    print("\n== Latest record on TMDB: %s (id %d, no picture)" % (latest["title"], latest["id"]))

    print("\n== An account")
    email = "tour-%s@example.com" % uuid.uuid4().hex[:6]
    problems = client.auth_validate(email="not-an-email", password="12")
    for problem in problems["fields"]:
        print("   a form would show: %s %s" % (problem["field"], problem["problem"]))
    try:
        client.favorites_add(movie_id=first["id"])
    except RpcError as error:
        print("   favorites before logging in: %s (%d %s)" % (error.message, error.code, error.kind))
    signed_in = client.auth_register(email=email, password="correct horse battery staple")
    print("   registered %s, route: %s" % (signed_in["user"]["email"], signed_in["route"]))

    print("\n== Favorites")
    for movie in popular["results"][:3]:
        client.favorites_add(movie_id=movie["id"])
    try:
        client.favorites_add(movie_id=first["id"])
    except RpcError as error:
        print("   adding %s again: %s" % (first["title"], error.message))
    hearts = client.favorites_contains(movie_ids=[m["id"] for m in popular["results"][:5]])["contains"]
    print("   hearts for the first five: %s" % " ".join("♥" if hearts[str(m["id"])] else "·"
                                                       for m in popular["results"][:5]))
    # With group_by="genre" the answer is the sections form of the result's union.
    grouped = cast(FavoritesListResultOption2, client.favorites_list(group_by="genre"))
    for section in grouped["sections"]:
        print("   %s: %s" % (section["genre"]["name"], "; ".join(title(f["movie"]) for f in section["movies"])))

    print("\n== Activity log")
    for event in client.events_list(limit=6)["events"]:
        times = " x%d" % event["repeats"] if event["repeats"] > 1 else ""
        print("   %s  %-16s %s" % (event["timestamp"], event["name"] + times, event["params"] or ""))
    for hint in client.hints_list()["hints"]:
        print("   hint: %s" % hint["message"])

    client.auth_logout()
    print("\n== Logged out; route: %s" % client.auth_status()["route"])


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--framing", choices=["newline", "content-length"], default="newline")
    parser.add_argument("--bin", help="the movie-rpc binary (default: $MOVIE_RPC_BIN or movie-rpc on PATH)")
    options = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="movie-rpc-tour-") as scratch:
        env = {"MOVIE_RPC_HOME": os.environ.get("MOVIE_RPC_HOME") or scratch}
        with Client(options.bin, framing=options.framing, env=env, timeout=60) as client:
            try:
                tour(client)
            except RpcError as error:
                print("error: %s" % error, file=sys.stderr)
                return 1
            client.shutdown()
            status = client.exit()
    print("\n== done (server exit status %d)" % status)
    return 0 if status == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
