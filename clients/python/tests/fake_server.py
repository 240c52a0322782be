"""A stand-in server for the client's own tests: newline JSON on stdin/stdout.

``echo`` answers its params, ``slow`` never answers (until cancelled: then -32800), ``progress`` sends
three ``$/progress`` notifications for its token before answering; every ``$/cancelRequest`` is also
reported as a ``gotCancel`` notification, so a test can see that the client sent it.
"""

import json
import sys


def send(message: object) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    waiting = set()
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        method, request_id, params = message.get("method"), message.get("id"), message.get("params")
        if method == "$/cancelRequest":
            cancelled = params["id"]
            send({"jsonrpc": "2.0", "method": "gotCancel", "params": {"id": cancelled}})
            if cancelled in waiting:
                waiting.discard(cancelled)
                send({"jsonrpc": "2.0", "id": cancelled, "error": {
                    "code": -32800, "message": "Request cancelled", "data": {"kind": "requestCancelled"}}})
        elif method == "echo":
            send({"jsonrpc": "2.0", "id": request_id, "result": {"hasParams": "params" in message,
                                                                   "params": params}})
        elif method == "slow":
            waiting.add(request_id)
        elif method == "progress":
            for done in (1, 2, 3):
                send({"jsonrpc": "2.0", "method": "$/progress",
                      "params": {"token": params["token"], "value": {"done": done, "total": 3,
                                                                     "message": "step %d" % done}}})
            send({"jsonrpc": "2.0", "id": request_id, "result": "finished"})
        elif request_id is not None:
            send({"jsonrpc": "2.0", "id": request_id, "error": {
                "code": -32601, "message": "Method not found", "data": {"kind": "methodNotFound"}}})


if __name__ == "__main__":
    main()
