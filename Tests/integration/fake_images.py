"""A tiny HTTP/1.1 image server on a loopback address (127.0.0.1, or 127.0.0.2 as "another host"), whose
answer per path a test sets: for images.fetch's tests and the faults suite."""
from __future__ import annotations

import http.server
import socketserver
import threading
from typing import Callable, Dict, Tuple

from fake_tmdb import FAKE_JPEG

# What the server answers on a path: (status, headers, body), the body bytes or a callable that writes it.
Answer = Tuple[int, Dict[str, str], object]


class ImageServer:
    """A tiny HTTP/1.1 server on `host` whose answer per path the test sets (default: 404)."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.host = host
        self.routes: Dict[str, Callable[[], Answer]] = {}
        self.requests: list = []
        self.bytes_sent = 0
        self.lock = threading.Lock()
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                with server.lock:
                    server.requests.append(self.path)
                route = server.routes.get(self.path.split("?")[0])
                status, headers, body = route() if route else (404, {"Content-Type": "text/plain"}, b"no")
                try:
                    self.send_response(status)
                    for name, value in headers.items():
                        self.send_header(name, value)
                    if isinstance(body, bytes):
                        if status != 204 and "Content-Length" not in headers:
                            self.send_header("Content-Length", str(len(body)))
                        self.end_headers()
                        self.wfile.write(body)
                    else:
                        self.end_headers()
                        body(self, server)
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True

        class Server(socketserver.ThreadingTCPServer):
            allow_reuse_address = True
            daemon_threads = True

        self.server = Server((host, 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def base(self) -> str:
        return "http://%s:%d/t/p/" % (self.host, self.port)

    def url(self, path: str) -> str:
        return "http://%s:%d%s" % (self.host, self.port, path)

    def hits(self, prefix: str = "") -> int:
        with self.lock:
            return sum(1 for path in self.requests if path.startswith(prefix))

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def jpeg() -> Answer:
    return 200, {"Content-Type": "image/jpeg"}, FAKE_JPEG


def redirect(location: str) -> Callable[[], Answer]:
    return lambda: (302, {"Location": location, "Content-Length": "0"}, b"")
