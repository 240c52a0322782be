"""What the README's build makes: the release binary on Linux, as Package.swift sets it up.

These hold the start-up figures of docs/BENCHMARKS.md in place: a binary that loads the shared C libraries, or
that links Foundation's corelibs module (and with it ICU and CoreFoundation), starts slower and holds more memory,
and nothing else would notice.
"""
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the release link settings are Linux's")


def needed_libraries(binary: str) -> list[str]:
    out = subprocess.run(["readelf", "-d", binary], capture_output=True, text=True, check=True).stdout
    return [line.split("[", 1)[1].rstrip("]") for line in out.splitlines() if "(NEEDED)" in line]


def test_the_release_binary_loads_only_the_c_runtime(server_binary):
    needed = needed_libraries(server_binary)
    # SQLite, OpenSSL and the C++ runtime come from their static archives; the Swift runtime is static too.
    for name in needed:
        assert not name.startswith(("libsqlite3", "libssl", "libcrypto", "libswift", "libFoundation", "libdispatch",
                                    "libstdc++")), needed
    assert any(name.startswith("libc.so") for name in needed), needed


def test_the_release_binary_links_foundation_essentials_only(server_binary):
    symbols = subprocess.run(["nm", "--defined-only", server_binary], capture_output=True, text=True, check=True).stdout
    corelibs = [line for line in symbols.splitlines() if "$s10Foundation" in line or "FoundationInternationalization" in line]
    assert corelibs == [], corelibs[:5]
    assert "FoundationEssentials" in symbols
