"""Hypothesis strategies: JSON values, JSON-RPC envelopes with every member well- or ill-typed, batches,
raw byte mutations, and params for every method from schema/openrpc.json (valid and deliberately
invalid)."""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from contract import Contract, Method, nfd

ABSENT = object()  # a member left out

# -- JSON values

TRICKY_STRINGS = [
    "", " ", "2.0", "null", "\u0000", "\n", "\r\n", "\t", "\\", '"', "\u2028\u2029", "\ufeff", "\u200b",
    "\U0001F3AC", "e\u0301", "\u00e9", "\u212a", "Content-Length: 5\r\n\r\n", "{", "[", "}", "]", "a" * 300,
    "\u05d0\u05d1", "x\u0000y", "\u007f", "\ud7ff", "\ue000", "\U0010ffff",
]
BIG_INTS = [0, -1, 1, 2 ** 31 - 1, -2 ** 31, 2 ** 31, 2 ** 53, 2 ** 53 + 1, 2 ** 63 - 1, -2 ** 63, 2 ** 63,
            -2 ** 63 - 1, 2 ** 64, 10 ** 30, -10 ** 30]
FLOATS = [0.0, -0.0, 0.5, 1.0, -1.0, 1.5, 1e2, 1e-7, 1e20, -1e20, 1e308, 5e-324, 2.0 ** 53, 2.0 ** 63, 2.0 ** 64]

texts = st.one_of(st.text(max_size=24), st.sampled_from(TRICKY_STRINGS))
integers = st.one_of(st.integers(-1000, 1000), st.integers(-2 ** 70, 2 ** 70), st.sampled_from(BIG_INTS))
floats = st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(FLOATS))
scalars = st.one_of(st.none(), st.booleans(), integers, floats, texts)
json_values = st.recursive(
    scalars,
    lambda children: st.one_of(st.lists(children, max_size=5),
                               st.dictionaries(texts, children, max_size=5)),
    max_leaves=8)


def nested(depth: int, leaf: Any = 1) -> Any:
    value = leaf
    for level in range(depth):
        value = [value] if level % 2 else {"a": value}
    return value


deep_values = st.integers(1, 200).map(nested)

# -- envelope members

METHOD_JUNK = ["", "exit", "initialized", "$/cancelRequest", "$/progress", "$/unknown", "rpc.foo", "rpc.discover",
               "SERVER.INFO", "server.info ", " server.info", "server.info\u0000", "server\u2024info", "server.inf",
               "movies.popular.", "\u212aelvin", "shutdown", "initialize", "a" * 500, "notifications/initialized",
               "ping", "server/discover", "tools/list", "tools/call"]


def method_names(contract: Contract) -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(contract.method_names), st.sampled_from(METHOD_JUNK), texts)


INT64_EDGES = [value for value in BIG_INTS if -2 ** 63 <= value < 2 ** 63]
# Ids the server must echo: null, integers it can hold (Int64) and any string.
ids = st.one_of(st.none(), st.integers(-2 ** 63, 2 ** 63 - 1), st.sampled_from(INT64_EDGES), texts,
                st.text(min_size=1, max_size=200))
bad_ids = st.one_of(st.booleans(), floats, st.lists(scalars, max_size=3), st.dictionaries(texts, scalars, max_size=3),
                    st.sampled_from([2 ** 63, -2 ** 63 - 1, 10 ** 30, 1.5, True, False, [], {}]))
versions = st.one_of(st.just("2.0"), st.sampled_from(["2", "1.0", "2.0 ", " 2.0", "2.00", "", "2.0\u0000", "\uff12.0"]),
                     st.sampled_from([2.0, 2, None, True, ["2.0"], {"v": "2.0"}]), json_values)
params_values = st.one_of(st.none(), st.just({}), st.just([]), st.dictionaries(texts, json_values, max_size=4),
                          st.lists(json_values, min_size=1, max_size=4), scalars)


def member(strategy: st.SearchStrategy) -> st.SearchStrategy:
    """``strategy`` or a member left out."""
    return st.one_of(st.just(ABSENT), strategy)


class _Envelope:
    """Member strategies for one contract, built once (building strategies inside each draw is slow)."""

    def __init__(self, contract: Contract) -> None:
        known = st.sampled_from(contract.method_names)
        self.known_method = known
        self.any_method = member(st.one_of(method_names(contract), json_values))
        self.version = member(versions)
        self.good_id = member(ids)
        self.any_id = member(st.one_of(ids, bad_ids))
        self.params = member(params_values)
        self.extra_name = st.sampled_from(["result", "error", "extra", "ID", "Method", "jsonrpc\u0000"])
        self.extras = st.dictionaries(texts, json_values, max_size=3)
        self.notification_method = method_names(contract).filter(lambda m: nfd(m) != "exit")


_ENVELOPES: Dict[int, _Envelope] = {}
_STRATEGIES: Dict[Tuple[str, int, float], st.SearchStrategy] = {}


def _parts(contract: Contract) -> _Envelope:
    if id(contract) not in _ENVELOPES:
        _ENVELOPES[id(contract)] = _Envelope(contract)
    return _ENVELOPES[id(contract)]


@st.composite
def _envelopes(draw, contract: Contract, valid_bias: float) -> Dict[str, Any]:
    parts = _parts(contract)
    good = draw(st.integers(0, 99)) < valid_bias * 100
    members: Dict[str, Any] = {}
    members["jsonrpc"] = "2.0" if good else draw(parts.version)
    members["method"] = draw(parts.known_method) if good else draw(parts.any_method)
    members["id"] = draw(parts.good_id) if good else draw(parts.any_id)
    members["params"] = draw(parts.params)
    if draw(st.integers(0, 9)) == 0:
        members[draw(parts.extra_name)] = draw(json_values)
    if draw(st.integers(0, 19)) == 0:
        members.update(draw(parts.extras))
    keys = [key for key, value in members.items() if value is not ABSENT]
    order = draw(st.permutations(keys))
    return {key: members[key] for key in order}


def envelopes(contract: Contract, valid_bias: float = 0.5) -> st.SearchStrategy[Dict[str, Any]]:
    """A message object whose members are each well-typed or not; order of members random."""
    key = ("envelopes", id(contract), valid_bias)
    if key not in _STRATEGIES:
        _STRATEGIES[key] = _envelopes(contract, valid_bias)
    return _STRATEGIES[key]


def is_exit_notification(value: Any) -> bool:
    """`exit` as a notification ends the process (LSP); the fuzzers never send it."""
    items = value if isinstance(value, list) else [value]
    return any(isinstance(item, dict) and "id" not in item and isinstance(item.get("method"), str)
               and nfd(item["method"]) == "exit" for item in items)


def batches(contract: Contract) -> st.SearchStrategy[List[Any]]:
    key = ("batches", id(contract), 0.0)
    if key not in _STRATEGIES:
        _STRATEGIES[key] = st.lists(st.one_of(envelopes(contract), notifications(contract), json_values),
                                    max_size=6)
    return _STRATEGIES[key]


@st.composite
def _notifications(draw, contract: Contract) -> Dict[str, Any]:
    parts = _parts(contract)
    message: Dict[str, Any] = {"jsonrpc": "2.0", "method": draw(parts.notification_method)}
    params = draw(parts.params)
    if params is not ABSENT:
        message["params"] = params
    return message


def notifications(contract: Contract) -> st.SearchStrategy[Dict[str, Any]]:
    key = ("notifications", id(contract), 0.0)
    if key not in _STRATEGIES:
        _STRATEGIES[key] = _notifications(contract)
    return _STRATEGIES[key]


@st.composite
def cancel_notifications(draw, id_pool: List[Any]) -> Dict[str, Any]:
    return {"jsonrpc": "2.0", "method": "$/cancelRequest",
            "params": {"id": draw(st.one_of(st.sampled_from(id_pool), json_values)) if id_pool else draw(json_values)}}


# -- raw bodies

def utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


INVALID_UTF8 = [b"\xff", b"\xfe", b"\xc0\xaf", b"\xe0\x80\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80",
                b"\xc3", b"\xe2\x82", b"\xf0\x9f\x8e"]


_EDIT_KINDS = st.sampled_from(["truncate", "insert", "flip", "delete", "dup", "bom", "escape"])
_INSERTS = st.one_of(st.sampled_from([b"\x00", b"\x00" * 8, b",", b"}", b"]", b"{", b"[", b'"', b"\\", b":", b" ",
                                      b"\t", b"\r", b"null", b"1e999", b"-", b"\x1f", b"\x7f"] + INVALID_UTF8),
                     st.binary(min_size=1, max_size=8))
_BITS = st.sampled_from([1, 2, 4, 8, 16, 32, 64, 128])
_ESCAPES = st.sampled_from([b"\\ud800", b"\\udc00", b"\\u0000", b"\\x41", b"\\", b"\\uD83C\\uDFAC",
                            b"\\uDFAC\\uD83C"])


@st.composite
def mutated_bodies(draw, base: bytes) -> bytes:
    """``base`` with a few random edits: truncation, insertion of NULs / invalid UTF-8 / JSON punctuation,
    byte flips, duplication of a slice."""
    data = bytearray(base)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(_EDIT_KINDS)
        position = draw(st.integers(0, len(data))) if data else 0
        if kind == "truncate":
            del data[position:]
        elif kind == "insert":
            data[position:position] = draw(_INSERTS)
        elif kind == "flip" and data:
            index = min(position, len(data) - 1)
            data[index] ^= draw(_BITS)
        elif kind == "delete" and data:
            del data[position:position + draw(st.integers(1, 4))]
        elif kind == "dup" and data:
            end = draw(st.integers(position, len(data)))
            data[position:position] = data[position:end]
        elif kind == "bom":
            data[0:0] = b"\xef\xbb\xbf"
        elif kind == "escape":
            data[position:position] = draw(_ESCAPES)
    return bytes(data)


def junk_bytes(max_size: int = 64) -> st.SearchStrategy[bytes]:
    return st.one_of(st.binary(max_size=max_size),
                     st.lists(st.sampled_from([b"\x00", b"{", b"}", b"[", b"]", b'"', b",", b":", b" ", b"\r", b"a",
                                               b"1", b"true", b"\xff", b"\xc3"]), max_size=max_size).map(b"".join))


# -- params from the schema

EMAIL = r"\A[a-z0-9]{1,12}(\.[a-z0-9]{1,8})?@[a-z0-9]{1,12}(-[a-z0-9]{1,5})?\.[a-z]{2,6}\Z"
PASSWORD = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7e), min_size=3, max_size=40)
PRINTABLE = st.characters(blacklist_categories=("Cc", "Cs"))


@st.composite
def timestamps(draw) -> str:
    moment = draw(st.datetimes(min_value=dt.datetime(2000, 1, 1), max_value=dt.datetime(2035, 12, 31)))
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (moment.microsecond // 1000)


@st.composite
def past_dates(draw) -> str:
    return draw(st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2020, 12, 31))).isoformat()


# Values that follow the rules the schema states only in prose (descriptions), so that "valid" params are
# valid for the server too. Keys are dotted param paths; everything else comes from the schema itself.
PROSE_VALID: Dict[str, st.SearchStrategy] = {
    "email": st.from_regex(EMAIL),
    "password": PASSWORD,
    "newPassword": PASSWORD,
    "currentPassword": PASSWORD,
    "profile.displayName": st.one_of(st.none(), st.text(PRINTABLE, max_size=100)),
    "profile.bio": st.one_of(st.none(), st.text(PRINTABLE, max_size=300)),
    "profile.phone": st.one_of(st.none(), st.from_regex(r"\A\+?[0-9][0-9 ()-]{0,20}\Z")),
    "profile.birthDate": st.one_of(st.none(), past_dates()),
    "since": timestamps(),
    "until": timestamps(),
    "timestamp": timestamps(),
    "query": st.text(PRINTABLE, min_size=1, max_size=200).filter(lambda s: s.strip() != ""),
    "name": st.text(PRINTABLE, min_size=1, max_size=200),
}


def ecma_pattern(pattern: str) -> str:
    """A JSON Schema (ECMA 262) pattern for Python's re: ``\\d`` is ASCII only, ``$`` only at the very end."""
    pattern = pattern.replace("\\d", "[0-9]")
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + "\\Z"
    return pattern


def ecma_schema(schema: Any) -> Any:
    """``schema`` with every pattern made ECMA-exact for Python, for generating values."""
    if isinstance(schema, dict):
        return {key: ecma_pattern(value) if key == "pattern" and isinstance(value, str) else ecma_schema(value)
                for key, value in schema.items()}
    if isinstance(schema, list):
        return [ecma_schema(item) for item in schema]
    return schema


def schema_strategy(schema: Dict[str, Any], path: str) -> st.SearchStrategy:
    if path in PROSE_VALID:
        return PROSE_VALID[path]
    if schema.get("type") == "object" and "properties" in schema and any(
            ("%s.%s" % (path, name)) in PROSE_VALID for name in schema["properties"]):
        required = set(schema.get("required", []))
        return st.fixed_dictionaries(
            {name: schema_strategy(sub, "%s.%s" % (path, name)) for name, sub in schema["properties"].items()
             if name in required},
            optional={name: schema_strategy(sub, "%s.%s" % (path, name))
                      for name, sub in schema["properties"].items() if name not in required})
    return from_schema(ecma_schema(schema))


_VALID: Dict[str, st.SearchStrategy] = {}
_BREAKABLE: Dict[str, list] = {}
_UNKNOWN: Dict[str, st.SearchStrategy] = {}


def valid_params(method: Method) -> st.SearchStrategy[Dict[str, Any]]:
    """Params that satisfy the method's schema (and the prose rules this module knows); built once per
    method."""
    if method.name not in _VALID:
        _VALID[method.name] = _valid_params(method)
    return _VALID[method.name]


def _valid_params(method: Method) -> st.SearchStrategy[Dict[str, Any]]:
    required = {p.name: schema_strategy(p.schema, p.name) for p in method.params if p.required}
    # An optional param sent as null is taken as absent (the info description), so null is valid for each.
    optional = {p.name: st.one_of(schema_strategy(p.schema, p.name), st.none())
                for p in method.params if not p.required}

    def fix(params: Dict[str, Any]) -> Dict[str, Any]:
        if params.get("passwordConfirmation") is not None and "password" in params:
            params["passwordConfirmation"] = params["password"]
        if params.get("newPassword") is not None and params.get("currentPassword") is None \
                and "currentPassword" in optional:
            params["currentPassword"] = "secret"
        return params
    return st.fixed_dictionaries(required, optional=optional).map(fix)


# -- invalid params

JSON_TYPES = ["null", "boolean", "integer", "number", "string", "array", "object"]
EXAMPLE_OF_TYPE = {
    "null": st.none(),
    "boolean": st.booleans(),
    "integer": integers,
    "number": st.sampled_from([0.5, -1.5, 1e-3, 3.14159, 1e300]),
    "string": texts,
    "array": st.lists(scalars, max_size=3),
    "object": st.dictionaries(texts, scalars, max_size=3),
}


def allowed_types(schema: Dict[str, Any]) -> Optional[set]:
    """JSON types a schema admits, or None when it cannot tell (no type information)."""
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        result = set(types)
        if "number" in result:
            result.add("integer")
        return result
    for key in ("oneOf", "anyOf"):
        if key in schema:
            result = set()
            for branch in schema[key]:
                types = allowed_types(branch)
                if types is None:
                    return None
                result |= types
            return result
    if "allOf" in schema:
        result = None
        for branch in schema["allOf"]:
            types = allowed_types(branch)
            if types is not None:
                result = types if result is None else result & types
        return result
    if "enum" in schema:
        return {json_type(value) for value in schema["enum"]}
    if "const" in schema:
        return {json_type(schema["const"])}
    return None


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value == int(value) else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


@dataclass
class Mutation:
    kind: str
    field: str  # the dotted path the error must name
    detail: str = ""


def violations(schema: Dict[str, Any], path: str, optional: bool = False) -> List[Tuple[str, st.SearchStrategy, str]]:
    """Ways to break ``schema``: (kind, strategy for a value that breaks it, path the error names).
    ``optional``: an optional param, which may be null whatever its schema (the info description: "null is
    taken as absent")."""
    out: List[Tuple[str, st.SearchStrategy, str]] = []
    types = allowed_types(schema)
    if types is not None:
        wrong = [t for t in JSON_TYPES if t not in types and not (t == "integer" and "number" in types)
                 and not (t == "null" and optional)]
        if wrong:
            out.append(("wrong type", st.sampled_from(wrong).flatmap(lambda t: EXAMPLE_OF_TYPE[t].filter(
                lambda v, t=t: json_type(v) == t)), path))
    if schema.get("type") in ("integer", "number") or types in ({"integer"}, {"integer", "number"}):
        if "minimum" in schema:
            low = schema["minimum"]
            below = st.one_of(st.just(low - 1), st.integers(max_value=low - 1), st.sampled_from([-2 ** 63, -10 ** 20]))
            out.append(("below minimum", below.filter(lambda v: v < low), path))
        if "maximum" in schema:
            high = schema["maximum"]
            above = st.one_of(st.just(high + 1), st.integers(min_value=high + 1),
                              st.sampled_from([2 ** 63 - 1, 2 ** 63, 10 ** 20]))
            out.append(("above maximum", above.filter(lambda v: v > high), path))
    if schema.get("type") == "integer" or types == {"integer"}:
        out.append(("not integral", st.sampled_from([0.5, 1.5, -2.5, 1e20, -1e20, 1e300]), path))
    if schema.get("type") == "string":
        if "enum" in schema:
            values = set(schema["enum"])
            out.append(("not in enum", texts.filter(lambda v: v not in values), path))
        if "const" in schema:
            out.append(("not the const", texts.filter(lambda v: v != schema["const"]), path))
        if "pattern" in schema:
            pattern = re.compile(ecma_pattern(schema["pattern"]))
            out.append(("pattern mismatch", texts.filter(lambda v: not pattern.search(v)), path))
        if "maxLength" in schema:
            size = schema["maxLength"]
            out.append(("too long", st.integers(size + 1, size + 50).map(lambda n: "x" * n), path))
        if schema.get("minLength", 0) > 0:
            out.append(("too short", st.just(""), path))
    if schema.get("type") == "array":
        if schema.get("minItems", 0) > 0:
            out.append(("too few items", st.just([]), path))
        if "maxItems" in schema:
            size = schema["maxItems"]
            item = schema.get("items", {})
            filler = 1 if "integer" in (allowed_types(item) or set()) else "x"
            out.append(("too many items", st.just([filler] * (size + 1)), path))
        if isinstance(schema.get("items"), dict):
            for kind, strategy, _ in violations(schema["items"], path + "[0]"):
                out.append(("item: " + kind, strategy.map(lambda v: [v]), path))
    if schema.get("type") == "object" and isinstance(schema.get("properties"), dict):
        for name, sub in schema["properties"].items():
            for kind, strategy, sub_path in violations(sub, "%s.%s" % (path, name)):
                out.append(("%s: %s" % (name, kind), strategy.map(lambda v, name=name: {name: v}), sub_path))
        if schema.get("additionalProperties") is False:
            known = set(schema["properties"])
            out.append(("unknown member", st.text(min_size=1, max_size=12).filter(
                lambda k: nfd(k) not in {nfd(n) for n in known}).map(lambda k: {k: 1}), path))
    return out


@st.composite
def invalid_params(draw, method: Method) -> Tuple[Dict[str, Any], Mutation]:
    """Valid params with exactly one thing broken, and the field the error must name."""
    params = dict(draw(valid_params(method)))
    choices = ["unknown member"]
    if method.required:
        choices.append("missing required")
    if method.name not in _BREAKABLE:
        _BREAKABLE[method.name] = [(p, kind, strategy, path)
                                   for p in method.params
                                   for kind, strategy, path in violations(p.schema, p.name, optional=not p.required)]
    breakable = _BREAKABLE[method.name]
    if breakable:
        choices.extend(["break a value"] * 3)
    choice = draw(st.sampled_from(choices))
    if choice == "unknown member":
        if method.name not in _UNKNOWN:
            names = {nfd(p.name) for p in method.params} | {"_meta"}
            _UNKNOWN[method.name] = st.one_of(texts, st.sampled_from(
                ["Page", "movieID", "page ", "params", "id", "method", "jsonrpc"])).filter(lambda k: nfd(k) not in names)
        name = draw(_UNKNOWN[method.name])
        params[name] = draw(json_values)
        return params, Mutation("unknown member", name)
    if choice == "missing required":
        name = draw(st.sampled_from(method.required))
        params.pop(name, None)
        return params, Mutation("missing required", name)
    param, kind, strategy, path = draw(st.sampled_from(breakable))
    value = draw(strategy)
    if "." in path and isinstance(value, dict):
        base = params.get(param.name)
        merged = dict(base) if isinstance(base, dict) else {}
        merged.update(value)
        value = merged
    params[param.name] = value
    return params, Mutation(kind, path, json.dumps(value)[:80])


# -- volume: plain `random` generation, many frames per example (the long mode's bulk)

class Bulk:
    """Fast random messages from a seeded ``random.Random``: what Hypothesis draws is the seed and the
    count, so an example is reproducible from them, and shrinking shortens it."""

    SCALARS = [None, True, False, 0, -1, 1, 2 ** 31, 2 ** 53 + 1, -2 ** 63, 2 ** 63, 1.5, -0.0, 1e300, "", "2.0",
               "x", "\u00e9", "\U0001F3AC", "\u0000", "a\nb", "\\", '"', "Content-Length: 5"]

    def __init__(self, rng, contract: Contract) -> None:
        self.rng = rng
        self.contract = contract
        self.methods = contract.method_names
        self.param_names = sorted({p.name for m in contract.methods.values() for p in m.params})

    def scalar(self) -> Any:
        r = self.rng
        kind = r.randrange(6)
        if kind == 0:
            return r.choice(self.SCALARS)
        if kind == 1:
            return r.randint(-2 ** 40, 2 ** 40)
        if kind == 2:
            return r.uniform(-1e6, 1e6)
        if kind == 3:
            return "".join(chr(r.choice([r.randint(32, 126), r.randint(0xA0, 0xD7FF), r.randint(0xE000, 0x10FFFF),
                                         r.randint(0, 31)])) for _ in range(r.randint(0, 12)))
        if kind == 4:
            return r.choice(self.methods)
        return r.choice(self.param_names)

    def value(self, depth: int = 0) -> Any:
        r = self.rng
        if depth > 3 or r.random() < 0.5:
            return self.scalar()
        if r.random() < 0.5:
            return [self.value(depth + 1) for _ in range(r.randint(0, 4))]
        return {str(self.scalar()): self.value(depth + 1) for _ in range(r.randint(0, 4))}

    def params(self) -> Any:
        r = self.rng
        kind = r.randrange(6)
        if kind == 0:
            return ABSENT
        if kind == 1:
            return r.choice([None, {}, []])
        if kind == 2:
            return {r.choice(self.param_names): self.scalar() for _ in range(r.randint(1, 3))}
        if kind == 3:
            return self.value()
        return {r.choice(self.param_names): self.value(2)}

    def envelope(self, valid: bool) -> Dict[str, Any]:
        r = self.rng
        message: Dict[str, Any] = {}
        if valid or r.random() < 0.7:
            message["jsonrpc"] = "2.0"
        elif r.random() < 0.7:
            message["jsonrpc"] = self.scalar()
        if valid or r.random() < 0.8:
            message["method"] = r.choice(self.methods) if r.random() < 0.8 else r.choice(METHOD_JUNK)
        elif r.random() < 0.5:
            message["method"] = self.value()
        if r.random() < (0.85 if valid else 0.6):
            message["id"] = r.choice([r.randint(-2 ** 63, 2 ** 63 - 1), r.randint(0, 1000), self.scalar(), None])
        params = self.params()
        if params is not ABSENT:
            message["params"] = params
        if not valid and r.random() < 0.1:
            message[r.choice(["result", "error", "extra"])] = self.value()
        if "id" not in message and isinstance(message.get("method"), str) and nfd(message["method"]) == "exit":
            message["method"] = "tixe"
        keys = list(message)
        r.shuffle(keys)
        return {key: message[key] for key in keys}

    def message(self) -> Any:
        r = self.rng
        kind = r.random()
        if kind < 0.45:
            return self.envelope(valid=True)
        if kind < 0.65:
            return self.envelope(valid=False)
        if kind < 0.8:
            return [self.envelope(valid=r.random() < 0.7) if r.random() < 0.85 else self.value()
                    for _ in range(r.randint(0, 5))]
        return self.value()

    def body(self, encode) -> bytes:
        """One message body: usually a message as JSON, sometimes bytes mangled after encoding."""
        r = self.rng
        data = bytearray(encode(self.message()))
        if r.random() < 0.25:
            for _ in range(r.randint(1, 3)):
                position = r.randint(0, len(data))
                choice = r.randrange(6)
                if choice == 0:
                    del data[position:]
                elif choice == 1:
                    data[position:position] = r.choice([b"\x00", b"\xff", b"\xc3", b"\xed\xa0\x80", b"}", b"]", b",",
                                                        b'"', b"\\", b"\xef\xbb\xbf", b"\\ud800", b"\r"])
                elif choice == 2 and data:
                    data[min(position, len(data) - 1)] ^= 1 << r.randrange(8)
                elif choice == 3:
                    data[position:position] = bytes(r.randrange(256) for _ in range(r.randint(1, 6)))
                elif choice == 4 and data:
                    del data[position:position + r.randint(1, 5)]
                else:
                    data[position:position] = data[position:position + r.randint(1, 20)]
        body = bytes(data)
        if b"exit" in body.lower():
            body = body.replace(b"exit", b"tixe").replace(b"EXIT", b"TIXE")
        return body
