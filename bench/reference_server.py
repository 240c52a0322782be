"""The reference for bench.py: a minimal Python stdin/stdout JSON-RPC loop answering server.info."""
import json
import sys

INFO = {"name": "reference", "version": "0", "protocolVersion": "2.0", "framing": "newline",
        "catalog": "none", "dataDirectory": ""}


def main():
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        message = json.loads(line)
        if "id" not in message:
            continue
        out.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": INFO}).encode() + b"\n")
        out.flush()


main()
