"""The client package's example session runs end to end against the real server."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import REPO_ROOT, full_env
from movie_rpc.framing import FRAMINGS

TOUR = REPO_ROOT / "clients" / "python" / "examples" / "tour.py"


@pytest.mark.parametrize("framing", FRAMINGS)
def test_tour_exits_0(server_binary, server_env, framing):
    done = subprocess.run([sys.executable, str(TOUR), "--bin", server_binary, "--framing", framing],
                          capture_output=True, env=full_env(server_env), timeout=60)
    output = done.stdout.decode()
    assert done.returncode == 0, output + done.stderr.decode()
    assert "== movie-rpc" in output and "== done (server exit status 0)" in output
