"""The soak driver (soak.py) with a short run as part of the suite: every reply correct, resident memory
and open descriptors flat after the warm-up. ``MOVIE_RPC_SOAK_REQUESTS`` sets the length (default 8,000;
scripts/soak.sh runs 200,000)."""

from __future__ import annotations

import os

from soak import run_soak


def test_short_soak_keeps_memory_and_descriptors_flat(server_binary, contract, tmp_path):
    requests = int(os.environ.get("MOVIE_RPC_SOAK_REQUESTS", "8000"))
    home = tmp_path / "soak-home"
    home.mkdir()
    report = run_soak(server_binary, requests, window=32, samples=20, home=str(home), log=None, contract=contract)
    print(report.summary())
    assert report.ok, report.summary()
    assert report.outcomes.get("result", 0) > requests // 2
    assert {"-32020", "-32021", "-32600", "-32601", "-32602", "-32700"} <= set(report.outcomes), report.outcomes
