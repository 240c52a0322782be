"""Figures for docs/RELIABILITY.md, issue 13 items 2 and 9: login timing by stored cost, a huge events.add, a
list of large events. Usage: python3 bench/hostile_figures.py "$(bash scripts/release-build.sh)"
"""
import json, os, statistics, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients", "python"))
from movie_rpc import Client, RpcError

binary = sys.argv[1]

def env(home, **extra):
    e = {k: v for k, v in os.environ.items() if not k.startswith(("TMDB_", "MOVIE_RPC_", "FIREBASE_"))}
    e["MOVIE_RPC_HOME"] = home
    e.update({k: v for k, v in extra.items() if v is not None})
    return e

def timing(stored, server):
    home = tempfile.mkdtemp()
    c = Client(binary, env=env(home, MOVIE_RPC_PASSWORD_ITERATIONS=stored), timeout=60)
    for i in range(5):
        c.auth_register("u%d@example.com" % i, "pw-right")
    c.close()
    c = Client(binary, env=env(home, MOVIE_RPC_PASSWORD_ITERATIONS=server), timeout=60)
    wrong, unknown = [], []
    for i in range(5):
        for email, bucket in (("u%d@example.com" % i, wrong), ("ghost%d@example.com" % i, unknown)):
            t = time.perf_counter()
            try:
                c.auth_login(email, "pw-wrong")
            except RpcError:
                pass
            bucket.append((time.perf_counter() - t) * 1e3)
    c.close()
    return statistics.median(wrong), statistics.median(unknown)

for stored, server in (("1000", None), ("600000", "1000")):
    w, u = timing(stored, server)
    print("stored %s, server %s: wrong password %.1f ms, unknown email %.1f ms" % (stored, server or "600000", w, u))

home = tempfile.mkdtemp()
c = Client(binary, env=env(home), timeout=120)
big = ["x%07d" % i for i in range(1_500_000)]  # about 15 MB of JSON
t = time.perf_counter()
try:
    c.events_add(name="big", params={"tags": big})
    outcome = "stored"
except RpcError as e:
    outcome = "refused %d %s" % (e.code, e.fields)
print("events.add of a 1.5M-element array (%.1f MB): %s in %.2f s" % (len(json.dumps(big)) / 1e6, outcome[:80], time.perf_counter() - t))
text = "y" * 9000
for i in range(40):
    c.events_add(name="big", params={"a": text, "b": text, "c": text, "d": str(i)})
t = time.perf_counter()
page = c.call("events.list", {"limit": 500})
print("events.list limit 500 over 40 events of 36 KB: %d events, %.2f MB reply, nextCursor %s" % (
    len(page["events"]), len(json.dumps(page)) / 1e6, page["nextCursor"] is not None))
c.close()
