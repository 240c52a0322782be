"""TLS to TMDB through the server's own HTTP client: a throwaway CA and server certificates, made with the
openssl CLI at test time, and the fake TMDB behind Python's ssl. A certificate the client cannot trust, or
one for another host, must leave the server offline (never talking to an unverified peer)."""
from __future__ import annotations

import shutil
import ssl
import subprocess
from pathlib import Path

import pytest

from fake_tmdb import FakeTMDB
from movie_rpc import RpcError

API_KEY = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command")


def openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def make_ca(directory: Path, name: str) -> None:
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", f"{name}.key", "-out", f"{name}.pem", "-days", "2", "-subj", f"/CN=movie-rpc test {name}",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            cwd=directory)


def make_server_certificate(directory: Path, name: str, ca: str, alt_names: str) -> None:
    (directory / f"{name}.ext").write_text(
        f"subjectAltName={alt_names}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n")
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", f"/CN={name}", cwd=directory)
    openssl("x509", "-req", "-in", f"{name}.csr", "-CA", f"{ca}.pem", "-CAkey", f"{ca}.key", "-CAcreateserial",
            "-out", f"{name}.pem", "-days", "2", "-extfile", f"{name}.ext", cwd=directory)


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> Path:
    """trusted-ca signs `good` (localhost, 127.0.0.1) and `elsewhere` (other.example only); rogue-ca, which the
    server is never told to trust, signs `rogue` (localhost, 127.0.0.1)."""
    directory = tmp_path_factory.mktemp("pki")
    make_ca(directory, "trusted-ca")
    make_ca(directory, "rogue-ca")
    make_server_certificate(directory, "good", "trusted-ca", "DNS:localhost,IP:127.0.0.1")
    make_server_certificate(directory, "elsewhere", "trusted-ca", "DNS:other.example")
    make_server_certificate(directory, "rogue", "rogue-ca", "DNS:localhost,IP:127.0.0.1")
    (directory / "no-other-certificates").mkdir()
    return directory


def https_tmdb(pki: Path, certificate: str) -> FakeTMDB:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(pki / f"{certificate}.pem", pki / f"{certificate}.key")
    return FakeTMDB(api_key=API_KEY, ssl_context=context).start()


@pytest.fixture
def serve(pki):
    servers = []

    def start(certificate: str) -> FakeTMDB:
        server = https_tmdb(pki, certificate)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


def start_client(make_client, pki: Path, base_url: str):
    return make_client("newline", env={
        "TMDB_API_KEY": API_KEY, "TMDB_BASE_URL": base_url, "MOVIE_RPC_TMDB_TIMEOUT": "5",
        # Only the test CA is trusted: an empty directory stands in for the system's store.
        "SSL_CERT_FILE": str(pki / "trusted-ca.pem"), "SSL_CERT_DIR": str(pki / "no-other-certificates"),
    })


def assert_offline(client) -> None:
    with pytest.raises(RpcError) as info:
        client.call("genres.list")
    assert info.value.code == -32030 and info.value.kind == "offlineNotCached"


def test_a_trusted_certificate_for_the_ip_serves_live_answers(make_client, pki, serve):
    tmdb = serve("good")
    client = start_client(make_client, pki, tmdb.base_url)
    assert tmdb.base_url.startswith("https://127.0.0.1:")
    genres = client.call("genres.list")
    assert genres["source"] == "network" and {"id": 28, "name": "Action"} in genres["genres"]
    assert client.call("movies.popular", page=1)["source"] == "network"  # a second request, same connection
    assert client.call("movies.details", movieId=550)["title"] == "Fight Club"
    assert len(tmdb.requests) == 3


def test_a_host_name_is_checked_against_the_certificate_and_sent_as_sni(make_client, pki, serve):
    tmdb = serve("good")
    client = start_client(make_client, pki, f"https://localhost:{tmdb.port}/3")
    assert client.call("genres.list")["source"] == "network"


def test_a_certificate_from_an_untrusted_ca_leaves_the_server_offline(make_client, pki, serve):
    tmdb = serve("rogue")
    client = start_client(make_client, pki, tmdb.base_url)
    assert_offline(client)
    assert tmdb.requests == []  # no request went to the unverified peer


def test_a_certificate_for_another_host_leaves_the_server_offline(make_client, pki, serve):
    tmdb = serve("elsewhere")
    for base_url in (tmdb.base_url, f"https://localhost:{tmdb.port}/3"):
        client = start_client(make_client, pki, base_url)
        assert_offline(client)
    assert tmdb.requests == []


def test_plain_http_to_a_tls_port_fails_as_offline(make_client, pki, serve):
    tmdb = serve("good")
    client = start_client(make_client, pki, f"http://127.0.0.1:{tmdb.port}/3")
    assert_offline(client)
