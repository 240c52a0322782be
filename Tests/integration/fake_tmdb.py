"""A fake TMDB v3 server on 127.0.0.1 for tests and benchmarks.

It speaks TMDB's wire format (snake_case bodies, the paginated envelope, `{status_code, status_message,
success}` errors) with fixtures built for this repository from data/demo-catalog.json, and has switches
for the faults a real network produces: 401, 404, 429 with Retry-After, 500, slow answers, dropped
connections and malformed bodies. It can be stopped and started again on the same port.

    server = FakeTMDB(api_key="k").start()
    env = {"TMDB_API_KEY": "k", "TMDB_BASE_URL": server.base_url}
    server.set_fault("500")            # every API call answers 500 until cleared
    server.set_fault("429", times=1, retry_after=1)
    server.stop(); server.start()      # offline, then back
"""
from __future__ import annotations

import http.server
import json
import pathlib
import socket
import socketserver
import threading
import time
import re
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parents[2]
CATALOG = json.loads((ROOT / "data" / "demo-catalog.json").read_text())

# German genre names, so tests can tell languages apart in the cache.
GERMAN_GENRES = {
    28: "Action", 12: "Abenteuer", 16: "Animation", 35: "Komödie", 80: "Krimi", 99: "Dokumentarfilm",
    18: "Drama", 10751: "Familie", 14: "Fantasy", 36: "Historie", 27: "Horror", 10402: "Musik",
    9648: "Mystery", 10749: "Liebesfilm", 878: "Science Fiction", 10770: "TV-Film", 53: "Thriller",
    10752: "Kriegsfilm", 37: "Western",
}

# The size of a real "popular" listing, far beyond the 500 pages TMDB serves.
POPULAR_TOTAL_RESULTS = 760569


def list_item(movie: dict, language: str | None) -> dict:
    title = movie["title"]
    if language and language.startswith("de"):
        title = f"{title} (DE)"
    return {
        "adult": movie.get("adult", False),
        "backdrop_path": movie.get("backdropPath"),
        "genre_ids": movie.get("genreIds", []),
        "id": movie["id"],
        "original_language": movie.get("originalLanguage", "en"),
        "original_title": movie.get("originalTitle", movie["title"]),
        "overview": movie.get("overview", ""),
        "popularity": movie.get("popularity", 0.0),
        "poster_path": movie.get("posterPath"),
        "release_date": movie.get("releaseDate", ""),
        "title": title,
        "video": False,
        "vote_average": movie.get("voteAverage", 0.0),
        "vote_count": movie.get("voteCount", 0),
    }


def details(movie: dict, language: str | None) -> dict:
    names = {g["id"]: g["name"] for g in CATALOG["genres"]}
    body = list_item(movie, language)
    del body["genre_ids"]
    body.update({
        "belongs_to_collection": None,
        "budget": movie.get("budget") or 0,
        "genres": [{"id": g, "name": names.get(g, "")} for g in movie.get("genreIds", [])],
        "homepage": movie.get("homepage") or "",
        "imdb_id": movie.get("imdbId"),
        "origin_country": ["US"],
        "production_companies": [
            {"id": i + 1, "logo_path": None, "name": n, "origin_country": "US"}
            for i, n in enumerate(movie.get("productionCompanies") or [])
        ],
        "production_countries": [{"iso_3166_1": "US", "name": "United States of America"}],
        "revenue": movie.get("revenue") or 0,
        "runtime": movie.get("runtime"),
        "spoken_languages": [
            {"english_name": n, "iso_639_1": n[:2].lower(), "name": n} for n in movie.get("spokenLanguages") or []
        ],
        "status": movie.get("status") or "Released",
        "tagline": movie.get("tagline") or "",
    })
    return body


LATEST = {
    "adult": False, "backdrop_path": None, "belongs_to_collection": None, "budget": 0, "genres": [],
    "homepage": "", "id": 1457211, "imdb_id": None, "origin_country": [], "original_language": "en",
    "original_title": "Untitled Short", "overview": "", "popularity": 0, "poster_path": None,
    "production_companies": [], "production_countries": [], "release_date": "", "revenue": 0, "runtime": 0,
    "spoken_languages": [], "status": "Released", "tagline": "", "title": "Untitled Short", "video": False,
    "vote_average": 0, "vote_count": 0,
}

# An adult title, served by search only when include_adult=true (as TMDB does).
ADULT_MOVIE = {"id": 9000001, "title": "Fight Club: An Adult Parody", "adult": True, "genreIds": [35],
               "popularity": 1.0, "releaseDate": "2001-01-01", "voteAverage": 3.0, "voteCount": 4}

# Now playing and upcoming carry the dates they cover.
LIST_DATES = {"now_playing": {"maximum": "2026-12-10", "minimum": "2026-10-29"},
              "upcoming": {"maximum": "2027-01-05", "minimum": "2026-12-16"}}


def cast_ids(movie_id: int) -> list[int]:
    """Three performers per movie, made up but stable, so a person's filmography can be derived."""
    return [100 + (movie_id + k) % 40 for k in range(3)]


def director_id(movie_id: int) -> int:
    return 500 + movie_id % 20


def person_name(person_id: int) -> str:
    return f"Performer {person_id}" if person_id < 500 else f"Director {person_id}"


def credits(movie: dict) -> dict:
    """TMDB's /movie/{id}/credits shape; the cast is listed out of billing order on purpose."""
    cast = [{"adult": False, "gender": 2, "id": pid, "known_for_department": "Acting", "name": person_name(pid),
             "original_name": person_name(pid), "popularity": 10.0 + k, "profile_path": f"/p{pid}.jpg" if k else None,
             "cast_id": 10 + k, "character": f"Role {k + 1}", "credit_id": f"c{movie['id']}{k}", "order": k}
            for k, pid in enumerate(cast_ids(movie["id"]))]
    crew = [{"adult": False, "gender": 2, "id": director_id(movie["id"]), "known_for_department": "Directing",
             "name": person_name(director_id(movie["id"])), "original_name": person_name(director_id(movie["id"])),
             "popularity": 5.0, "profile_path": None, "credit_id": f"d{movie['id']}", "department": "Directing",
             "job": "Director"}]
    return {"cast": list(reversed(cast)), "crew": crew}


def videos(movie: dict) -> dict:
    """Trailers are not first here, so that ordering is the server's work."""
    mid = movie["id"]
    def video(name, key, site, kind, official, published):
        return {"iso_639_1": "en", "iso_3166_1": "US", "name": name, "key": key, "site": site, "size": 1080,
                "type": kind, "official": official, "published_at": published, "id": f"v{mid}{key}"}
    return {"results": [
        video("Behind the Scenes", f"bts{mid}", "YouTube", "Behind the Scenes", True, "2020-01-01T00:00:00.000Z"),
        video("Teaser", "76979871", "Vimeo", "Teaser", False, "2019-06-01T00:00:00.000Z"),
        video("Official Trailer", f"tr{mid}", "YouTube", "Trailer", True, "2019-07-01T00:00:00.000Z"),
        video("Clip", f"x{mid}", "Dailymotion", "Clip", False, "2019-08-01T00:00:00.000Z"),
    ]}


def provider(pid: int, name: str, priority: int) -> dict:
    return {"logo_path": f"/logo{pid}.jpg", "provider_id": pid, "provider_name": name, "display_priority": priority}


def watch_providers(movie: dict) -> dict:
    link = f"https://www.themoviedb.org/movie/{movie['id']}/watch?locale="
    return {"results": {
        "US": {"link": link + "US", "flatrate": [provider(8, "Netflix", 2)],
               "rent": [provider(3, "Google Play Movies", 5), provider(2, "Apple TV", 1)],
               "buy": [provider(2, "Apple TV", 1)]},
        "DE": {"link": link + "DE", "buy": [provider(2, "Apple TV", 1)]},
    }}


def release_dates(movie: dict) -> dict:
    date = (movie.get("releaseDate") or "2000-01-01") + "T00:00:00.000Z"
    def release(cert, kind):
        return {"certification": cert, "descriptors": [], "iso_639_1": "", "note": "", "release_date": date,
                "type": kind}
    return {"results": [
        {"iso_3166_1": "US", "release_dates": [release("", 1), release("R", 3)]},
        {"iso_3166_1": "DE", "release_dates": [release("16", 3)]},
    ]}


def external_ids(movie: dict) -> dict:
    return {"imdb_id": movie.get("imdbId"), "wikidata_id": None, "facebook_id": None, "instagram_id": None,
            "twitter_id": None}


def synthetic_movie(number: int) -> dict:
    return {"id": number, "title": f"Synthetic Movie {number}", "genreIds": [28 if number % 2 else 35],
            "popularity": 1.0, "releaseDate": "2020-01-01", "posterPath": f"/s{number}.jpg"}


def person_list_item(pid: int) -> dict:
    return {"adult": False, "gender": 2, "id": pid, "known_for_department": "Acting" if pid < 500 else "Directing",
            "name": person_name(pid), "original_name": person_name(pid), "popularity": 1.0,
            "profile_path": f"/p{pid}.jpg", "known_for": []}


# A tiny valid JPEG (SOI, APP0, EOI): enough for a client to store and report.
FAKE_JPEG = bytes.fromhex("ffd8ffe000104a46494600010100000100010000ffd9")


def discover(movies: list[dict], query: dict) -> list[dict]:
    """TMDB's /discover/movie filters as the fake understands them: `,` in with_genres is all, `|` any."""
    found = movies
    genres = query.get("with_genres")
    if genres:
        wanted = {int(g) for g in re.split(r"[,|]", genres) if g.isdigit()}
        match = any if "|" in genres else all
        found = [m for m in found if match(g in m.get("genreIds", []) for g in wanted)]
    if query.get("without_genres"):
        unwanted = {int(g) for g in query["without_genres"].split(",") if g.isdigit()}
        found = [m for m in found if not unwanted & set(m.get("genreIds", []))]
    if query.get("primary_release_year"):
        found = [m for m in found if (m.get("releaseDate") or "").startswith(query["primary_release_year"])]
    if query.get("primary_release_date.gte"):
        found = [m for m in found if (m.get("releaseDate") or "") >= query["primary_release_date.gte"]]
    if query.get("primary_release_date.lte"):
        found = [m for m in found if (m.get("releaseDate") or "9999") <= query["primary_release_date.lte"]]
    if query.get("vote_average.gte"):
        found = [m for m in found if m.get("voteAverage", 0) >= float(query["vote_average.gte"])]
    if query.get("vote_count.gte"):
        found = [m for m in found if m.get("voteCount", 0) >= int(query["vote_count.gte"])]
    if query.get("with_runtime.gte"):
        found = [m for m in found if (m.get("runtime") or 0) >= int(query["with_runtime.gte"])]
    if query.get("with_runtime.lte"):
        found = [m for m in found if (m.get("runtime") or 0) <= int(query["with_runtime.lte"])]
    if query.get("with_original_language"):
        found = [m for m in found if m.get("originalLanguage") == query["with_original_language"]]
    field, _, direction = query.get("sort_by", "popularity.desc").partition(".")
    keys = {"popularity": "popularity", "vote_average": "voteAverage", "vote_count": "voteCount",
            "primary_release_date": "releaseDate", "title": "title", "original_title": "originalTitle",
            "revenue": "revenue"}
    key = keys.get(field, "popularity")
    return sorted(found, key=lambda m: m.get(key) or 0 if key not in ("title", "originalTitle", "releaseDate")
                  else (m.get(key) or ""), reverse=direction != "asc")


def error_body(code: int, message: str) -> bytes:
    return json.dumps({"success": False, "status_code": code, "status_message": message}).encode()


class FakeTMDB:
    def __init__(self, api_key: str | None = "test-api-key", access_token: str | None = None, port: int = 0,
                 synthetic: bool = False, ssl_context=None):
        """synthetic: answer /movie/{id} for any id from 10,000,000 up with a made-up movie (benchmarks
        need more distinct movies than the fixtures hold). ssl_context: a server-side ssl.SSLContext to
        serve HTTPS instead of plain HTTP."""
        self.synthetic = synthetic
        self.ssl_context = ssl_context
        self.api_key = api_key
        self.access_token = access_token
        self.port = port
        self.lock = threading.Lock()
        self.requests: list[str] = []          # paths with query, for assertions
        self.raw_requests: list[bytes] = []    # header blocks, to check what was sent
        self.fault: str | None = None
        self.fault_times: int | None = None
        self.retry_after: int | None = 1
        self.delay = 0.0
        # A rate limit as TMDB's (about 40 requests a second): past it, 429 with Retry-After: 1.
        self.max_per_second: int | None = None
        self.rate_limited = 0                  # 429s served for the limit
        self.unhonoured_429s = 0               # the same request again before its Retry-After passed
        self._recent: list[float] = []
        self._limited_until: dict[str, float] = {}
        self._server: socketserver.ThreadingTCPServer | None = None
        self._thread: threading.Thread | None = None
        self._connections: set[socket.socket] = set()

    # -- control -----------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        scheme = "https" if self.ssl_context else "http"
        return f"{scheme}://127.0.0.1:{self.port}/3"

    @property
    def image_base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/t/p/"

    def set_fault(self, fault: str | None, times: int | None = None, retry_after: int | None = 1, delay: float = 0.0):
        """fault: None, "401", "404", "429", "500", "503", "slow", "drop", "garbage"; times: how many calls."""
        with self.lock:
            self.fault, self.fault_times, self.retry_after, self.delay = fault, times, retry_after, delay

    def count(self, prefix: str) -> int:
        with self.lock:
            return sum(1 for r in self.requests if r.startswith(prefix))

    def start(self) -> "FakeTMDB":
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def log_message(self, *args):  # quiet
                pass

            def setup(self):
                super().setup()
                with fake.lock:
                    fake._connections.add(self.connection)

            def finish(self):
                with fake.lock:
                    fake._connections.discard(self.connection)
                try:
                    super().finish()
                except OSError:
                    pass

            def do_GET(self):
                fake._handle(self)

        class Server(socketserver.ThreadingTCPServer):
            allow_reuse_address = True
            daemon_threads = True

        self._server = Server(("127.0.0.1", self.port), Handler)
        if self.ssl_context:
            # The handshake then happens on the first read, in the connection's own thread.
            self._server.socket = self.ssl_context.wrap_socket(
                self._server.socket, server_side=True, do_handshake_on_connect=False)
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self):
        """Stops listening and cuts every open (keep-alive) connection: the network is gone."""
        if self._server:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        with self.lock:
            connections, self._connections = list(self._connections), set()
        for connection in connections:
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    # -- serving -----------------------------------------------------------------------------
    def _take_fault(self) -> tuple[str | None, int | None, float]:
        with self.lock:
            fault = self.fault
            if fault and self.fault_times is not None:
                self.fault_times -= 1
                if self.fault_times <= 0:
                    self.fault, self.fault_times = None, None
            return fault, self.retry_after, self.delay

    def _handle(self, h: http.server.BaseHTTPRequestHandler):
        url = urllib.parse.urlsplit(h.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        with self.lock:
            self.requests.append(h.path)
            self.raw_requests.append(bytes(str(h.headers), "utf-8"))
        if url.path.startswith("/t/p/"):
            return self._send(h, 200, FAKE_JPEG, "image/jpeg")

        if self.max_per_second and self._over_the_limit(h.path):
            return self._send(h, 429, error_body(25, "Your request count (41) is over the allowed limit of (40)."),
                              extra={"Retry-After": "1"})
        fault, retry_after, delay = self._take_fault()
        if fault == "slow":
            time.sleep(delay or 3.0)
        elif fault == "drop":
            h.close_connection = True
            try:
                h.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        elif fault == "garbage":
            return self._send(h, 200, b'{"page": 1, "results": [ {"id": ', "application/json")
        elif fault in ("500", "503"):
            return self._send(h, int(fault), error_body(11, "Internal error: Something went wrong, contact TMDB."))
        elif fault == "429":
            headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
            return self._send(h, 429, error_body(25, "Your request count (41) is over the allowed limit of (40)."), extra=headers)
        elif fault == "401":
            return self._send(h, 401, error_body(7, "Invalid API key: You must be granted a valid key."))

        if not self._authorized(h, query):
            return self._send(h, 401, error_body(7, "Invalid API key: You must be granted a valid key."))
        status, body = self._route(url.path, query)
        self._send(h, status, json.dumps(body).encode())

    def _over_the_limit(self, path: str) -> bool:
        now = time.monotonic()
        with self.lock:
            if self._limited_until.get(path, 0) > now:
                self.unhonoured_429s += 1
            self._recent = [t for t in self._recent if now - t < 1.0]
            if len(self._recent) >= self.max_per_second:
                self.rate_limited += 1
                self._limited_until[path] = now + 1.0
                return True
            self._recent.append(now)
            return False

    def _authorized(self, h, query) -> bool:
        if self.api_key and query.get("api_key") == self.api_key:
            return True
        auth = h.headers.get("Authorization", "")
        return bool(self.access_token) and auth == f"Bearer {self.access_token}"

    def _route(self, path: str, query: dict) -> tuple[int, dict]:
        language = query.get("language")
        try:
            page = int(query.get("page", "1"))
        except ValueError:
            page = 0
        movies = sorted(CATALOG["movies"], key=lambda m: -m.get("popularity", 0))

        def envelope(items: list, total_results: int | None = None, shape=None) -> tuple[int, dict]:
            if not 1 <= page <= 500:
                return 400, {"success": False, "status_code": 22,
                             "status_message": "Invalid page: Pages start at 1 and max at 500. They are expected to be an integer."}
            start = (page - 1) * 20
            total = total_results if total_results is not None else len(items)
            return 200, {
                "page": page,
                "results": [(shape or (lambda m: list_item(m, language)))(m) for m in items[start:start + 20]],
                "total_pages": max(1, (total + 19) // 20),
                "total_results": total,
            }

        def paged(items: list[dict], total: int | None = None, extra: dict | None = None,
                  shape=None) -> tuple[int, dict]:
            status, body = envelope(items, total, shape)
            if status == 200:
                body.update(extra or {})
            return status, body

        by_id = {m["id"]: m for m in movies}
        if path == "/3/search/movie":
            words = query.get("query", "").lower()
            pool = movies + ([ADULT_MOVIE] if query.get("include_adult") == "true" else [])
            year = query.get("primary_release_year") or query.get("year")
            found = [m for m in pool if words in m["title"].lower() or words in m.get("originalTitle", "").lower()]
            if year:
                found = [m for m in found if (m.get("releaseDate") or "").startswith(year)]
            return paged(found)
        if path.startswith("/3/trending/movie/"):
            if path.rsplit("/", 1)[-1] not in ("day", "week"):
                return 404, {"success": False, "status_code": 34,
                             "status_message": "The resource you requested could not be found."}
            return paged(movies, shape=lambda m: dict(list_item(m, language), media_type="movie"))
        if path in ("/3/movie/top_rated", "/3/movie/now_playing", "/3/movie/upcoming"):
            name = path.rsplit("/", 1)[-1]
            ordered = sorted(movies, key=lambda m: -m.get("voteAverage", 0)) if name == "top_rated" else movies
            extra = {"dates": LIST_DATES[name]} if name in LIST_DATES else None
            return paged(ordered, extra=extra)
        if path.startswith("/3/find/"):
            imdb = path.rsplit("/", 1)[-1]
            if query.get("external_source") != "imdb_id":
                return 400, {"success": False, "status_code": 5, "status_message": "Invalid parameters."}
            hits = [dict(list_item(m, language), media_type="movie") for m in movies if m.get("imdbId") == imdb]
            return 200, {"movie_results": hits, "person_results": [], "tv_results": [], "tv_episode_results": [],
                         "tv_season_results": []}
        if path == "/3/search/person":
            words = query.get("query", "").lower()
            everyone = sorted({pid for m in movies for pid in cast_ids(m["id"]) + [director_id(m["id"])]})
            found = [pid for pid in everyone if words in person_name(pid).lower()]
            return paged(found, shape=person_list_item)
        if path.startswith("/3/person/"):
            tail = path.rsplit("/", 1)[-1]
            pid = int(tail) if tail.isdigit() else -1
            acted = [m for m in movies if pid in cast_ids(m["id"])]
            directed = [m for m in movies if director_id(m["id"]) == pid]
            if not acted and not directed:
                return 404, {"success": False, "status_code": 34,
                             "status_message": "The resource you requested could not be found."}
            body = {"adult": False, "also_known_as": [], "biography": f"{person_name(pid)} is made up for tests.",
                    "birthday": "1970-01-01", "deathday": None, "gender": 2, "homepage": None, "id": pid,
                    "imdb_id": f"nm{pid:07d}", "known_for_department": "Acting" if pid < 500 else "Directing",
                    "name": person_name(pid), "place_of_birth": "Testville", "popularity": 1.0,
                    "profile_path": f"/p{pid}.jpg"}
            if "movie_credits" in query.get("append_to_response", "").split(","):
                body["movie_credits"] = {
                    "cast": [dict(list_item(m, language), character="Role", credit_id=f"c{m['id']}", order=0)
                             for m in acted],
                    "crew": [dict(list_item(m, language), credit_id=f"d{m['id']}", department="Directing",
                                  job="Director") for m in directed],
                    "id": pid}
            return 200, body
        sub = re.fullmatch(r"/3/movie/(\d+)/(credits|videos|watch/providers|release_dates|external_ids"
                           r"|recommendations|similar)", path)
        if sub:
            movie = by_id.get(int(sub.group(1)))
            if movie is None:
                return 404, {"success": False, "status_code": 34,
                             "status_message": "The resource you requested could not be found."}
            kind = sub.group(2)
            if kind in ("recommendations", "similar"):
                genres = set(movie.get("genreIds", []))
                related = [m for m in movies if m["id"] != movie["id"] and genres & set(m.get("genreIds", []))]
                if kind == "similar":
                    related = list(reversed(related))
                return paged(related)
            body = {"credits": credits, "videos": videos, "watch/providers": watch_providers,
                    "release_dates": release_dates, "external_ids": external_ids}[kind](movie)
            return 200, dict(body, id=movie["id"])
        if path == "/3/genre/movie/list":
            genres = CATALOG["genres"]
            if language and language.startswith("de"):
                genres = [{"id": g["id"], "name": GERMAN_GENRES.get(g["id"], g["name"])} for g in genres]
            return 200, {"genres": genres}
        if path == "/3/movie/popular":
            if self.synthetic:  # benchmarks: as many distinct movies as pages ask for
                return envelope(movies + [synthetic_movie(10_000_000 + n) for n in range(page * 20)],
                                POPULAR_TOTAL_RESULTS)
            return envelope(movies, POPULAR_TOTAL_RESULTS)
        if path == "/3/discover/movie":
            return paged(discover(movies, query))
        if path == "/3/movie/latest":
            return 200, LATEST
        if path.startswith("/3/movie/"):
            tail = path.rsplit("/", 1)[-1]
            movie = by_id.get(int(tail)) if tail.isdigit() else None
            if movie is None and self.synthetic and tail.isdigit() and int(tail) >= 10_000_000:
                movie = synthetic_movie(int(tail))
            if movie is not None:
                body = details(movie, language)
                appended = [part for part in query.get("append_to_response", "").split(",") if part]
                if len(appended) > 20:
                    return 400, {"success": False, "status_code": 18,
                                 "status_message": "Too many append to response objects: The maximum number of "
                                                   "remote calls is 20."}
                parts = {"credits": credits, "videos": videos, "watch/providers": watch_providers,
                         "release_dates": release_dates, "external_ids": external_ids}
                for part in appended:
                    if part in parts:
                        body[part] = parts[part](movie)
                return 200, body
        return 404, {"success": False, "status_code": 34, "status_message": "The resource you requested could not be found."}

    @staticmethod
    def _send(h, status: int, body: bytes, content_type: str = "application/json;charset=utf-8", extra=None):
        try:
            h.send_response(status)
            h.send_header("Content-Type", content_type)
            h.send_header("Content-Length", str(len(body)))
            for key, value in (extra or {}).items():
                h.send_header(key, value)
            h.end_headers()
            h.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass


if __name__ == "__main__":
    import sys
    server = FakeTMDB(api_key=sys.argv[1] if len(sys.argv) > 1 else "test-api-key",
                      port=int(sys.argv[2]) if len(sys.argv) > 2 else 0).start()
    print(server.base_url, flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.stop()
