"""images.fetch over real pipes against image servers on loopback (127.0.0.1, and 127.0.0.2 as "another
host", which Linux serves on lo): redirects only to the image host or the configured hosts, only image/*
types (reported as a known type, never the header as sent), no empty image cached, the size cap enforced
while the body streams in, and no symbolic link in the cache followed. Refusals of private, link-local and
metadata addresses are tested on the address classification itself (Tests/HTTPTransportTests), never by
connecting to one."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from fake_images import ImageServer, jpeg, redirect
from fake_tmdb import FAKE_JPEG
from movie_rpc import RpcError

IMAGE_REJECTED = -32035


@pytest.fixture
def images():
    server = ImageServer("127.0.0.1")
    yield server
    server.stop()


@pytest.fixture
def other_host():
    """The same machine under another address: a different host to the client."""
    try:
        server = ImageServer("127.0.0.2")
    except OSError as error:
        pytest.skip("127.0.0.2 is not served on lo here: %s" % error)
    yield server
    server.stop()


@pytest.fixture
def fetcher(make_client, images):
    def start(**env):
        changes = {"TMDB_IMAGE_BASE_URL": images.base, "MOVIE_RPC_TMDB_TIMEOUT": "10"}
        changes.update(env)
        return make_client("newline", env=changes)
    return start


def rejected(client, path: str, size: str = "w185") -> RpcError:
    with pytest.raises(RpcError) as info:
        client.call("images.fetch", path=path, size=size)
    return info.value


def cached_files(home: Path) -> list:
    root = home / "images"
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if not p.is_dir()) if root.exists() else []


def test_a_redirect_to_another_host_is_refused_and_nothing_is_stored(fetcher, images, other_host, home):
    other_host.routes["/elsewhere.jpg"] = lambda: (200, {"Content-Type": "text/plain"}, b"local service secrets")
    images.routes["/t/p/w185/moved.jpg"] = redirect(other_host.url("/elsewhere.jpg"))
    client = fetcher()
    error = rejected(client, "/moved.jpg")
    assert error.code == IMAGE_REJECTED, error
    assert error.data == {"kind": "imageRejected", "reason": "redirectRefused"}
    assert other_host.hits() == 0 and cached_files(home) == []


def test_a_redirect_to_a_configured_host_is_followed(fetcher, images, other_host, home):
    other_host.routes["/cdn/moved.jpg"] = jpeg
    images.routes["/t/p/w185/moved.jpg"] = redirect(other_host.url("/cdn/moved.jpg"))
    images.routes["/t/p/w185/local.jpg"] = redirect("/t/p/w185/here.jpg")
    images.routes["/t/p/w185/here.jpg"] = jpeg
    client = fetcher(MOVIE_RPC_IMAGE_HOSTS="cdn.invalid, 127.0.0.2:%d" % other_host.port)
    image = client.call("images.fetch", path="/moved.jpg", size="w185")
    assert image["source"] == "network" and image["bytes"] == len(FAKE_JPEG)
    assert Path(image["file"]).read_bytes() == FAKE_JPEG and other_host.hits("/cdn/") == 1
    # The image host's own redirects are always followed.
    assert client.call("images.fetch", path="/local.jpg", size="w185")["bytes"] == len(FAKE_JPEG)


def test_the_image_hosts_other_ports_and_unlisted_ports_are_other_hosts(fetcher, images, other_host, home):
    local_service = ImageServer("127.0.0.1")
    try:
        local_service.routes["/admin"] = lambda: (200, {"Content-Type": "image/png"}, b"\x89PNG local service")
        images.routes["/t/p/w185/port.jpg"] = redirect(local_service.url("/admin"))
        other_host.routes["/x.jpg"] = jpeg
        images.routes["/t/p/w185/unlisted.jpg"] = redirect(other_host.url("/x.jpg"))
        client = fetcher(MOVIE_RPC_IMAGE_HOSTS="127.0.0.2")  # the default port only
        for path in ("/port.jpg", "/unlisted.jpg"):
            error = rejected(client, path)
            assert error.code == IMAGE_REJECTED and error.data["reason"] == "redirectRefused", error
        assert local_service.hits() == 0 and other_host.hits() == 0 and cached_files(home) == []
    finally:
        local_service.stop()


def test_a_redirect_loop_has_its_own_error(fetcher, images, home):
    images.routes["/t/p/w185/loop.jpg"] = redirect("/t/p/w185/loop2.jpg")
    images.routes["/t/p/w185/loop2.jpg"] = redirect("/t/p/w185/loop.jpg")
    error = rejected(fetcher(), "/loop.jpg")
    assert error.code == IMAGE_REJECTED and error.data["reason"] == "tooManyRedirects", error
    assert "redirect" in error.message and cached_files(home) == []


@pytest.mark.parametrize("content_type", ["text/html", "application/octet-stream", "", "image", "image/",
                                          "image/x-\x1b[2Jevil", "text/plain; x=image/png"])
def test_only_image_types_are_accepted(fetcher, images, home, content_type):
    headers = {"Content-Type": content_type} if content_type else {}
    images.routes["/t/p/w185/page.jpg"] = lambda: (200, headers, b"<html>a local service's page</html>")
    error = rejected(fetcher(), "/page.jpg")
    assert error.code == IMAGE_REJECTED and error.data["reason"] == "notAnImage", error
    assert cached_files(home) == []


@pytest.mark.parametrize("header, reported", [
    ("image/png", "image/png"),
    ("IMAGE/JPG; charset=binary", "image/jpeg"),
    ("image/png; name=\"\x1b]0;pwned\x07\"", "image/png"),
    ("image/x-unheard-of", "image/jpeg"),  # a well-formed image type not known: the path's extension says
])
def test_the_reported_type_is_a_known_one_never_the_header_as_sent(fetcher, images, header, reported):
    images.routes["/t/p/w185/typed.jpg"] = lambda: (200, {"Content-Type": header}, FAKE_JPEG)
    image = fetcher().call("images.fetch", path="/typed.jpg", size="w185")
    assert image["contentType"] == reported


@pytest.mark.parametrize("answer", [(204, {}, b""), (200, {"Content-Type": "image/jpeg"}, b"")])
def test_an_empty_image_is_refused_and_never_cached(fetcher, images, home, answer):
    images.routes["/t/p/w185/empty.jpg"] = lambda: answer
    client = fetcher()
    error = rejected(client, "/empty.jpg")
    assert error.code == IMAGE_REJECTED and error.data["reason"] == "empty", error
    assert cached_files(home) == []
    images.routes["/t/p/w185/empty.jpg"] = jpeg  # the next fetch downloads again
    image = client.call("images.fetch", path="/empty.jpg", size="w185")
    assert image["source"] == "network" and image["bytes"] == len(FAKE_JPEG)


def test_an_empty_file_left_in_the_cache_is_downloaded_again(fetcher, images, home):
    folder = home / "images" / "w185"
    folder.mkdir(parents=True)
    (folder / "old.jpg").write_bytes(b"")
    images.routes["/t/p/w185/old.jpg"] = jpeg
    image = fetcher().call("images.fetch", path="/old.jpg", size="w185")
    assert image["source"] == "network" and (folder / "old.jpg").read_bytes() == FAKE_JPEG


STREAM_BYTES = 60 << 20  # under the transport's own 64 MiB limit, three times the image cap


def endless_chunks(handler, server: ImageServer) -> None:
    """A chunked body of STREAM_BYTES, counting what the socket took before the client hung up."""
    chunk = b"\xff" * (256 << 10)
    frame = b"%x\r\n" % len(chunk) + chunk + b"\r\n"
    for _ in range(STREAM_BYTES // len(chunk)):
        handler.wfile.write(frame)
        with server.lock:
            server.bytes_sent += len(chunk)
    handler.wfile.write(b"0\r\n\r\n")


def test_the_size_cap_is_enforced_while_the_body_streams_in(fetcher, images, home):
    images.routes["/t/p/original/huge.jpg"] = lambda: (
        200, {"Content-Type": "image/jpeg", "Transfer-Encoding": "chunked"}, endless_chunks)
    images.routes["/t/p/original/declared.jpg"] = lambda: (
        200, {"Content-Type": "image/jpeg", "Content-Length": str(30 << 20)}, lambda h, s: None)
    client = fetcher()
    error = rejected(client, "/huge.jpg", size="original")
    assert error.code == IMAGE_REJECTED, error
    assert error.data == {"kind": "imageRejected", "reason": "tooLarge", "limit": 20 << 20}
    # The download stopped near the cap: not the whole body (socket buffers hold a few MiB more).
    assert images.bytes_sent < 40 << 20, images.bytes_sent
    error = rejected(client, "/declared.jpg", size="original")  # refused on its Content-Length alone
    assert error.code == IMAGE_REJECTED and error.data["reason"] == "tooLarge", error
    assert cached_files(home) == []


def test_a_symbolic_link_planted_in_the_cache_is_never_followed(fetcher, images, home, tmp_path):
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_bytes(b"not an image: private text")
    folder = home / "images" / "w185"
    folder.mkdir(parents=True)
    (folder / "planted.jpg").symlink_to(secret)
    outside = tmp_path / "outside-folder"
    outside.mkdir()
    (home / "images" / "w342").symlink_to(outside, target_is_directory=True)
    images.routes["/t/p/w185/planted.jpg"] = jpeg
    images.routes["/t/p/w342/through.jpg"] = jpeg
    client = fetcher()

    image = client.call("images.fetch", path="/planted.jpg", size="w185")
    assert image["source"] == "network" and image["bytes"] == len(FAKE_JPEG)
    assert not os.path.islink(image["file"]) and Path(image["file"]).read_bytes() == FAKE_JPEG
    assert secret.read_bytes() == b"not an image: private text"

    image = client.call("images.fetch", path="/through.jpg", size="w342")
    assert not (home / "images" / "w342").is_symlink() and list(outside.iterdir()) == []
    assert Path(image["file"]).read_bytes() == FAKE_JPEG
    assert oct(os.stat(home / "images" / "w342").st_mode & 0o777) == "0o700"
