"""What the server must answer to one message body: the JSON-RPC 2.0 rules plus the README's.

``Oracle.expect(body)`` returns the replies a body must (or may) cause, as :class:`Expect` values:

* nothing for a notification, a response object, or a batch of only those (and, in newline framing, a
  blank line);
* one error with id null for invalid UTF-8, invalid JSON, nesting deeper than 64 (-32700) or a value that
  is not a request (-32600);
* one reply carrying the request's id for a request; for a batch, one array whose members match the
  members' expectations in any order.

It parses with Python's strict JSON parser. Where two strict parsers may legitimately disagree (duplicate
member names, lone surrogate escapes, integral ids beyond 2^53), the expectation is marked ``optional``
with a lenient check instead of guessing.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, List, Optional, Set, Tuple

from contract import (INVALID_PARAMS, INVALID_REQUEST, LOGIN_REQUIRED, MCP_METHODS, METHOD_NOT_FOUND, PARSE_ERROR,
                      PROTOCOL_CODES, REQUEST_CANCELLED, VALIDATION_FAILED, Contract, nfd)

MAX_DEPTH = 64
INT64 = (-(1 << 63), (1 << 63) - 1)
WHITESPACE = b" \t\r\n"

Check = Callable[[Dict[str, Any]], Optional[str]]


class _Any:
    def __repr__(self) -> str:
        return "ANY"


ANY_ID = _Any()


@dataclass
class Expect:
    """One reply: a response object with ``id`` passing ``check``, or (``batch``) an array of them."""
    what: str
    id: Any = None
    check: Optional[Check] = None
    batch: Optional[List["Expect"]] = None
    optional: bool = False
    many: bool = False  # absorbs any number of replies (errors for junk whose framing is unknown)

    def problem(self, message: Any) -> Optional[str]:
        """Why ``message`` is not this reply, or None when it is."""
        if self.batch is not None:
            if not isinstance(message, list):
                return "expected a batch reply (array), got %s" % type(message).__name__
            unmatched, extra = match(message, self.batch)
            if unmatched or extra:
                return "batch members do not match: missing %s; unexpected %s" % (
                    [e.what for e in unmatched], [_short(m) for m in extra])
            return self.check(message) if self.check else None
        if self.id is ANY_ID:
            # lenient (no check: any well-formed reply, object or batch) or a check that decides alone
            return self.check(message) if self.check else None
        if not isinstance(message, dict):
            return "expected a response object, got an array"
        if self.id is not ANY_ID and not same_id(message.get("id"), self.id):
            return "id %r, expected %r" % (message.get("id"), self.id)
        return self.check(message) if self.check else None


def _short(value: Any, size: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= size else text[:size] + "..."


def same_id(actual: Any, expected: Any) -> bool:
    """Ids compare by JSON type and value (1 is not "1"; true is not 1)."""
    if expected is None or actual is None:
        return actual is None and expected is None
    if isinstance(expected, bool) or isinstance(actual, bool):
        return False
    if isinstance(expected, str) or isinstance(actual, str):
        return isinstance(expected, str) and isinstance(actual, str) and expected == actual
    return type(actual) is int and actual == expected


def match(messages: List[Any], expects: List[Expect],
          cache: Optional[Dict[Tuple[int, int], bool]] = None) -> Tuple[List[Expect], List[Any]]:
    """Whether replies and expectations pair up: every required expectation with its own reply and every
    reply with its own expectation (optional ones may stay unpaired).

    ``cache`` (kept by the caller while the lists only grow) remembers which pairs fit.
    Returns (required expectations no matching can pair, replies no matching can pair). By the
    Mendelsohn-Dulmage theorem, when one matching covers every required expectation and another covers
    every reply, a single matching covers both, so two maximum matchings (Kuhn's algorithm; the lists
    are short) decide it.
    """
    def accepted(expect: Expect, message: Any) -> bool:
        if cache is None:
            return expect.problem(message) is None
        key = (id(expect), id(message))
        if key not in cache:
            cache[key] = expect.problem(message) is None
        return cache[key]

    accepts = [[i for i, message in enumerate(messages) if accepted(expect, message)] for expect in expects]
    by_message: List[List[int]] = [[] for _ in messages]
    for j, candidates in enumerate(accepts):
        for i in candidates:
            by_message[i].append(j)

    def maximum(left: List[int], edges: List[List[int]]) -> Set[int]:
        owner: Dict[int, int] = {}

        def augment(u: int, seen: Set[int]) -> bool:
            for v in edges[u]:
                if v in seen:
                    continue
                seen.add(v)
                if v not in owner or augment(owner[v], seen):
                    owner[v] = u
                    return True
            return False
        return {u for u in left if augment(u, set())}

    required = [j for j, expect in enumerate(expects) if not expect.optional]
    covered_expects = maximum(required, accepts)
    covered_messages = maximum(list(range(len(messages))), by_message)
    unmatched = [expects[j] for j in required if j not in covered_expects]
    extra = [message for i, message in enumerate(messages) if i not in covered_messages]
    return unmatched, extra


# -- checks on one reply

def error_of(reply: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    error = reply.get("error")
    return error if isinstance(error, dict) else None


def expect_error(*codes: int, field_named: bool = False) -> Check:
    def check(reply: Dict[str, Any]) -> Optional[str]:
        error = error_of(reply)
        if error is None:
            return "expected error %s, got a result" % list(codes)
        if error.get("code") not in codes:
            return "expected error %s, got %s %r" % (list(codes), error.get("code"), error.get("message"))
        if field_named:
            return field_problem(error)
        return None
    return check


def field_problem(error: Dict[str, Any], field: Optional[str] = None) -> Optional[str]:
    """-32602 must name the member in data.field, -32010 in data.fields[].field (``field`` when given)."""
    data = error.get("data") if isinstance(error.get("data"), dict) else {}
    if error.get("code") == INVALID_PARAMS:
        named = data.get("field")
        if not isinstance(named, str):  # "" is fine: it names the member called ""
            return "-32602 without data.field: %s" % _short(error)
        if field is not None and not field_matches(named, field):
            return "-32602 names %r, expected %r: %s" % (named, field, _short(error))
    elif error.get("code") == VALIDATION_FAILED:
        fields = data.get("fields")
        if not isinstance(fields, list) or not fields or not all(
                isinstance(item, dict) and isinstance(item.get("field"), str) and isinstance(item.get("problem"), str)
                for item in fields):
            return "-32010 without data.fields [{field, problem}]: %s" % _short(error)
        if field is not None and not any(field_matches(item["field"], field) for item in fields):
            return "-32010 does not name %r: %s" % (field, _short(error))
    return None


def field_matches(named: str, field: str) -> bool:
    """``profile.phone`` names ``profile.phone`` and, more precisely, ``ids[2]`` names ``ids``."""
    return named == field or named.startswith(field + ".") or named.startswith(field + "[")


def too_large(reply: Dict[str, Any]) -> Optional[str]:
    problem = expect_error(INVALID_REQUEST)(reply)
    if problem:
        return problem
    data = reply["error"].get("data", {})
    if data.get("kind") != "messageTooLarge" or not isinstance(data.get("limit"), int):
        return "an oversized message must be answered with data {kind: messageTooLarge, limit}: %s" % _short(reply)
    return None


def is_reply_too_large(reply: Any) -> bool:
    error = error_of(reply) if isinstance(reply, dict) else None
    return bool(error) and error.get("code") == INVALID_REQUEST and \
        isinstance(error.get("data"), dict) and error["data"].get("kind") == "replyTooLarge" and \
        isinstance(error["data"].get("ran"), bool)


def or_reply_too_large(check: Optional[Check]) -> Check:
    """A batch member's check that also accepts -32600 replyTooLarge: the batch's reply reached the message
    limit, and this member's result was dropped (ran) or it never ran (issue #13 item 7)."""
    def combined(reply: Dict[str, Any]) -> Optional[str]:
        if is_reply_too_large(reply):
            return None
        return check(reply) if check else None
    return combined


def framing_error(reply: Dict[str, Any]) -> Optional[str]:
    """What junk of unknown framing may cause: -32700 or -32600 (oversized), with id null."""
    return expect_error(PARSE_ERROR, INVALID_REQUEST)(reply)


# -- the model

@dataclass
class Classified:
    """One message object as the server classifies it."""
    reply: bool  # does it get a reply at all
    id: Any = None
    problem: Optional[str] = None  # an invalid request: answered -32600
    method: Optional[str] = None
    params_kind: str = "absent"  # absent, null, object, array, empty-array, invalid
    params: Any = None
    ambiguous_id: bool = False


class Ambiguous(Exception):
    """Two strict JSON parsers may disagree on this input."""


def _reject_constant(name: str) -> Any:
    raise ValueError("%s is not JSON" % name)


def _pairs(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    keys = [nfd(key) for key, _ in pairs]
    if len(set(keys)) != len(keys):
        raise Ambiguous("duplicate member names")
    return dict(pairs)


def parse_json(text: str) -> Any:
    """Strict RFC 8259 parsing (no NaN/Infinity, no raw control characters); Ambiguous on duplicates."""
    return json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_pairs)


def depth(value: Any) -> int:
    deepest = 0
    stack = [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in node.values())
        elif isinstance(node, list):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in node)
    return deepest


def has_lone_surrogate(value: Any) -> bool:
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            if any(0xD800 <= ord(c) <= 0xDFFF for c in node):
                return True
        elif isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def params_kind(message: Dict[str, Any]) -> str:
    if "params" not in message:
        return "absent"
    params = message["params"]
    if params is None:
        return "null"
    if isinstance(params, dict):
        return "object"
    if isinstance(params, list):
        return "array" if params else "empty-array"
    return "invalid"


def classify(message: Dict[str, Any]) -> Classified:
    """The server's classification of one request object (MessageEnvelope + Dispatcher.classify)."""
    has_method = "method" in message
    if not has_method and ("result" in message or "error" in message):
        return Classified(reply=False)  # a response from the client: it asked for nothing, so ignored
    kind = params_kind(message)
    raw_id = message.get("id", ...)
    id_state, id_value, ambiguous = classify_id(raw_id)
    response_id = id_value if id_state == "valid" else None
    problem = None
    if message.get("jsonrpc") != "2.0":
        problem = '"jsonrpc" must be exactly "2.0"'
    elif not isinstance(message.get("method"), str):
        problem = '"method" must be a string' if has_method else 'missing "method"'
    elif id_state == "invalid":
        problem = "bad id"
    elif kind == "invalid":
        problem = '"params" must be an object or an array'
    if problem:
        return Classified(reply=True, id=response_id, problem=problem, ambiguous_id=ambiguous)
    if id_state == "absent":
        return Classified(reply=False, method=message["method"], params_kind=kind, params=message.get("params"))
    return Classified(reply=True, id=response_id, method=message["method"], params_kind=kind,
                      params=message.get("params"), ambiguous_id=ambiguous)


def classify_id(raw: Any) -> Tuple[str, Any, bool]:
    """(absent|null|valid|invalid, the id as echoed, ambiguous?)"""
    if raw is ...:
        return "absent", None, False
    if raw is None:
        return "null", None, False
    if isinstance(raw, bool):
        return "invalid", None, False
    if isinstance(raw, int):
        return ("valid", raw, False) if INT64[0] <= raw <= INT64[1] else ("invalid", None, False)
    if isinstance(raw, float):
        # Foundation decodes an integral number written as 1.0 or 1e2 as the integer it is; it is then
        # echoed as 1 / 100 (same value, different spelling). Beyond 2^53 the double is inexact: either way.
        if math.isfinite(raw) and raw == int(raw) and abs(raw) < 2 ** 53:
            return "valid", int(raw), False
        if math.isfinite(raw) and raw == int(raw) and abs(raw) <= 2 ** 64:
            return "valid", int(raw), True
        return "invalid", None, False
    if isinstance(raw, str):
        return "valid", raw, False
    return "invalid", None, False


class Oracle:
    """Expectations for bodies sent to a server speaking ``framing``.

    ``request_check(classified)`` gives the check for a valid request's reply; the default accepts what
    any request to that method may get (see :meth:`default_request_check`).

    ``$/cancelRequest`` notifications seen in the bodies of the current case are collected, so that any
    request of the case with a cancelled id may be answered -32800 (whichever frame the cancel was in);
    :meth:`new_case` forgets them.
    """

    def __init__(self, contract: Contract, framing: str, max_size: int = 16 * 1024 * 1024) -> None:
        self.contract = contract
        self.framing = framing
        self.max_size = max_size
        self.request_check: Callable[[Classified], Check] = self.default_request_check
        self.cancelled: Set[str] = set()  # JSON spellings of ids cancelled in the current case
        self.cancel_unknown = False  # a cancel the model cannot read (lenient JSON): any id may be cancelled

    def new_case(self) -> None:
        self.cancelled = set()
        self.cancel_unknown = False

    def may_be_cancelled(self, request_id: Any) -> bool:
        return self.cancel_unknown or json.dumps(request_id) in self.cancelled

    # -- whole bodies

    def expect(self, body: bytes, cancelled: Iterable[str] = ()) -> List[Expect]:
        """What the server must answer to ``body``, received as one framed message."""
        self.cancelled |= set(cancelled)
        if b"cancelRequest" in body:
            try:
                self.cancelled |= cancelled_ids([json.loads(body.decode("utf-8", "surrogatepass"))])
            except (ValueError, UnicodeDecodeError, RecursionError):
                self.cancel_unknown = True
        if self.framing == "newline" and body.endswith(b"\r"):
            body = body[:-1]
        if len(body) > self.max_size:
            return [Expect("-32600 messageTooLarge", id=None, check=too_large)]
        if self.framing == "newline" and not body.strip(WHITESPACE):
            return []  # blank lines are skipped
        if not body.strip(WHITESPACE):
            return [self.error(PARSE_ERROR, "empty message")]
        if body.startswith(b"\xef\xbb\xbf"):
            return [self.byte_order_mark(body[3:])]
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return [self.error(PARSE_ERROR, "invalid UTF-8")]
        try:
            value = parse_json(text)
        except Ambiguous:
            return [self.lenient("duplicate member names")]
        except RecursionError:
            return [self.error(PARSE_ERROR, "nesting too deep for Python (and for the server)")]
        except ValueError:
            return [self.error(PARSE_ERROR, "invalid JSON")]
        if depth(value) > MAX_DEPTH:
            return [self.error(PARSE_ERROR, "nesting deeper than %d" % MAX_DEPTH)]
        if has_lone_surrogate(value):
            # Valid RFC 8259, but no Swift string can hold it: refused as unparsable (README, Framing).
            return [self.error(PARSE_ERROR, "lone surrogate escape")]
        return self.expect_value(value)

    def expect_value(self, value: Any) -> List[Expect]:
        """What the server must answer to the JSON value ``value`` (valid JSON, depth within limits)."""
        if isinstance(value, dict):
            expect = self.expect_object(value)
            return [expect] if expect else []
        if isinstance(value, list):
            if not value:
                return [self.error(INVALID_REQUEST, "empty batch")]
            members = []
            for item in value:
                if isinstance(item, dict):
                    expect = self.expect_object(item)
                    if expect:
                        members.append(expect)
                else:
                    members.append(self.error(INVALID_REQUEST, "batch member that is not an object"))
            if not members:
                return []  # only notifications (and responses): nothing at all, not []
            for member in members:
                member.check = or_reply_too_large(member.check)
            return [Expect("batch of %d" % len(members), batch=members, check=self.batch_size_check())]
        return [self.error(INVALID_REQUEST, "not an object or a batch: %s" % type(value).__name__)]

    def expect_object(self, message: Dict[str, Any]) -> Optional[Expect]:
        classified = classify(message)
        if not classified.reply:
            return None
        if classified.problem:
            expect = Expect("-32600 (%s)" % classified.problem, id=classified.id,
                            check=expect_error(INVALID_REQUEST))
        else:
            expect = Expect("reply to %.60r" % classified.method, id=classified.id,
                            check=self.request_check(classified))
        if classified.ambiguous_id:
            expect.id = ANY_ID
            inner = expect.check
            echoed = classified.id

            def check(reply: Dict[str, Any], inner=inner, echoed=echoed) -> Optional[str]:
                if not isinstance(reply, dict):
                    return "expected a response object, got an array"
                if reply.get("id") is None:
                    return expect_error(INVALID_REQUEST)(reply)
                actual = reply.get("id")
                # The id was written as a double beyond 2^53: its decimal spelling and its binary value differ.
                if type(actual) is not int or abs(actual - echoed) > abs(echoed) * 1e-15:
                    return "id %r, expected about %r or null" % (actual, echoed)
                return inner(reply) if inner else None
            expect.check = check
        return expect

    def batch_size_check(self) -> Check:
        """The results of one batch reply fill at most the message limit (errors, each small, may follow)."""
        limit = self.max_size

        def check(reply: Any) -> Optional[str]:
            results = [m for m in reply if isinstance(m, dict) and "result" in m]
            size = sum(len(json.dumps(m, ensure_ascii=False, separators=(",", ":")).encode("utf-8")) + 1
                       for m in results)
            # Re-encoded here, so allow for a different but equivalent spelling (escapes, numbers).
            if size > limit * 1.05 + 2:
                return "batch results of %d bytes past the limit of %d" % (size, limit)
            return None
        return check

    def byte_order_mark(self, rest: bytes) -> Expect:
        """RFC 8259 8.1: a parser may ignore a leading BOM or refuse it. Either -32700, or the answer to the
        rest (with nothing at all for a notification). The server refuses it (README, Framing)."""
        inner = self.expect(rest)
        refused = expect_error(PARSE_ERROR)

        def check(reply: Dict[str, Any]) -> Optional[str]:
            if isinstance(reply, dict) and reply.get("id") is None and refused(reply) is None:
                return None
            if inner and inner[0].problem(reply) is None:
                return None
            return "a BOM-prefixed message must be refused with -32700 or answered as without the BOM"
        return Expect("BOM: -32700 or the answer without it", id=ANY_ID, check=check, optional=not inner)

    # -- single replies

    def error(self, code: int, why: str) -> Expect:
        return Expect("%d (%s)" % (code, why), id=None, check=expect_error(code))

    def lenient(self, why: str) -> Expect:
        """Parsers may disagree: at most one reply, any id, any documented error but -32603."""
        return Expect("lenient (%s)" % why, id=ANY_ID, optional=True, check=None)

    def default_request_check(self, classified: Classified) -> Check:
        """A valid request: -32601 for an unknown method; else a result matching the method's result schema
        or an error the method may give (its declared errors, -32602 naming a field, -32011 when it needs a
        login, -32800 when cancelled). Never -32600/-32700/-32603."""
        method = self.contract.method(classified.method)
        if method is None and nfd(classified.method) in MCP_METHODS:
            return mcp_check
        if method is None:
            return expect_error(METHOD_NOT_FOUND)
        allowed = set(method.error_codes) | {INVALID_PARAMS}
        if method.needs_login:
            allowed.add(LOGIN_REQUIRED)
        must_fail = classified.params_kind == "array"  # by name only

        def check(reply: Dict[str, Any]) -> Optional[str]:
            error = error_of(reply)
            if error is not None and error.get("code") == REQUEST_CANCELLED and self.may_be_cancelled(classified.id):
                return None
            if error is None:
                if must_fail:
                    return "positional params must be refused with -32602"
                problems = method.result_errors(reply.get("result"))
                return "result does not match its schema: %s" % "; ".join(problems[:5]) if problems else None
            code = error.get("code")
            if must_fail and code != INVALID_PARAMS:
                return "positional params must be refused with -32602, got %s" % code
            if code not in allowed:
                return "%s may not answer %s %r (allowed: %s)" % (method.name, code, error.get("message"),
                                                                   sorted(allowed))
            return field_problem(error)
        return check


def mcp_check(reply: Dict[str, Any]) -> Optional[str]:
    """MCP methods have no schema here: a result, or an error that is not a protocol failure."""
    error = error_of(reply)
    if error is None:
        return None
    if error.get("code") in PROTOCOL_CODES - {INVALID_PARAMS, METHOD_NOT_FOUND}:
        return "an MCP method answered %s %r" % (error.get("code"), error.get("message"))
    return field_problem(error)


def cancelled_ids(values: Iterable[Any]) -> Set[str]:
    """JSON spellings of the ids named by ``$/cancelRequest`` notifications among ``values``."""
    found = set()
    for value in values:
        for item in value if isinstance(value, list) else [value]:
            if (isinstance(item, dict) and item.get("method") == "$/cancelRequest" and "id" not in item
                    and isinstance(item.get("params"), dict) and "id" in item["params"]):
                state, echoed, _ = classify_id(item["params"]["id"])
                if state == "valid":
                    found.add(json.dumps(echoed))
    return found


__all__ = ["ANY_ID", "Expect", "Oracle", "Classified", "classify", "cancelled_ids", "match", "field_problem",
           "expect_error", "framing_error", "too_large", "parse_json"]
