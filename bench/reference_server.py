"""The Python references for bench.py: a minimal stdin/stdout JSON-RPC loop.

    reference_server.py              answers every request with a small server.info-like result
    reference_server.py RESULTS.json answers each method with the result bytes movie-rpc answered for it
                                     (a JSON object: method name -> the result's JSON text), so a 13 KB
                                     page is weighed against Python writing 13 KB, not a 73-byte echo

Every request is parsed with json.loads; the reply is written in one write per request.
"""
import json
import sys

INFO = {"name": "reference", "version": "0", "protocolVersion": "2.0", "framing": "newline",
        "catalog": "none", "dataDirectory": ""}


def main():
    results = {}
    if len(sys.argv) > 1:
        with open(sys.argv[1]) as file:
            results = {method: text.encode() for method, text in json.load(file).items()}
    default = json.dumps(INFO, separators=(",", ":")).encode()
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        message = json.loads(line)
        if "id" not in message:
            continue
        result = results.get(message.get("method"), default)
        out.write(b'{"jsonrpc":"2.0","id":' + json.dumps(message["id"]).encode() + b',"result":' + result + b"}\n")
        out.flush()


main()
