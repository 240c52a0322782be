"""schema/openrpc.json as the fuzzers need it: every method's params as one JSON Schema object (``$ref``s
into ``components`` inlined), result validators, the error table, and which codes a method may answer.

The document is re-read by every test session, so methods added to the schema are fuzzed without any
change here.
"""

from __future__ import annotations

import copy
import json
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, FrozenSet, List, Optional

import jsonschema

REPO_ROOT = Path(__file__).resolve().parents[2]
SCHEMA_PATH = REPO_ROOT / "schema" / "openrpc.json"

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
VALIDATION_FAILED = -32010
LOGIN_REQUIRED = -32011
OFFLINE_NOT_CACHED = -32030
REQUEST_CANCELLED = -32800
PROTOCOL_CODES = frozenset({PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR})

# Methods served apart from the schema's method list, or only as notifications.
NOTIFICATION_ONLY = frozenset({"exit", "initialized", "notifications/initialized"})
# MCP's plumbing (Sources/MovieRPC/MethodList.swift, mcpMethods): served, but outside the OpenRPC contract.
MCP_METHODS = ("ping", "server/discover", "tools/list", "tools/call")
# A prefix for methods that need a logged-in user: -32011 is a fine answer to their valid params.
LOGIN_PREFIXES = ("favorites.", "account.")


def nfd(text: str) -> str:
    """Swift compares strings by canonical equivalence; so does the oracle."""
    return unicodedata.normalize("NFD", text)


@dataclass
class Param:
    name: str
    schema: Dict[str, Any]  # $refs inlined
    required: bool


@dataclass
class Method:
    name: str
    params: List[Param]
    result_schema: Optional[Dict[str, Any]]
    error_codes: FrozenSet[int]
    accepts_any_params: bool = False
    _validator: Any = field(default=None, repr=False)

    @property
    def needs_login(self) -> bool:
        return self.name.startswith(LOGIN_PREFIXES)

    @property
    def required(self) -> List[str]:
        return [param.name for param in self.params if param.required]

    def params_schema(self) -> Dict[str, Any]:
        """The params object as one schema: by-name, no unknown members."""
        return {
            "type": "object",
            "properties": {param.name: param.schema for param in self.params},
            "required": self.required,
            "additionalProperties": False,
        }

    def result_errors(self, result: Any) -> List[str]:
        """Every way ``result`` breaks the method's result schema (empty when it conforms)."""
        if self.result_schema is None:
            return []
        if self._validator is None:
            self._validator = jsonschema.Draft7Validator(
                self.result_schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
        return ["%s: %s" % ("/".join(map(str, error.absolute_path)) or "(result)", error.message)
                for error in self._validator.iter_errors(result)]


class Contract:
    def __init__(self, path: Path = SCHEMA_PATH) -> None:
        self.path = path
        self.document: Dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        self.components = self.document.get("components", {})
        self.errors_by_name: Dict[str, Dict[str, Any]] = self.components.get("errors", {})
        self.error_codes = frozenset(error["code"] for error in self.errors_by_name.values())
        self.methods: Dict[str, Method] = {}
        for raw in self.document["methods"]:
            params = []
            for param in raw.get("params", []):
                param = self.resolve(param)
                params.append(Param(param["name"], self.inline(param.get("schema", {})),
                                    bool(param.get("required", False))))
            result = raw.get("result")
            result_schema = self.inline(self.resolve(result)["schema"]) if result else None
            codes = set()
            for error in raw.get("errors", []):
                codes.add(self.resolve(error)["code"])
            summary = raw.get("summary", "") + raw.get("description", "")
            self.methods[raw["name"]] = Method(
                raw["name"], params, result_schema, frozenset(codes),
                accepts_any_params=raw["name"] == "initialize" or "Any params are accepted" in summary)
        # rpc.discover serves this very document.
        self._by_nfd = {nfd(name): method for name, method in self.methods.items()}

    # -- lookup

    @property
    def method_names(self) -> List[str]:
        return list(self.methods)

    def method(self, name: str) -> Optional[Method]:
        """The method a request names, compared as Swift compares strings."""
        return self._by_nfd.get(nfd(name))

    # -- schemas

    def resolve(self, node: Any) -> Any:
        """``node``, or what its ``$ref`` (``#/components/...``) points to."""
        seen = 0
        while isinstance(node, dict) and "$ref" in node:
            ref = node["$ref"]
            if not ref.startswith("#/"):
                raise ValueError("only local refs are supported: %r" % ref)
            target: Any = self.document
            for part in ref[2:].split("/"):
                target = target[part.replace("~1", "/").replace("~0", "~")]
            node = target
            seen += 1
            if seen > 50:
                raise ValueError("$ref cycle at %r" % ref)
        return node

    def inline(self, schema: Any, depth: int = 0) -> Any:
        """A copy of ``schema`` with every ``$ref`` replaced by its target (the schema has no cycles)."""
        if depth > 40:
            raise ValueError("schema nests too deeply (a $ref cycle?)")
        if isinstance(schema, dict):
            if "$ref" in schema:
                target = copy.deepcopy(self.resolve(schema))
                # Draft-07 ignores siblings of $ref; keep only annotations.
                return self.inline(target, depth + 1)
            return {key: self.inline(value, depth + 1) for key, value in schema.items()}
        if isinstance(schema, list):
            return [self.inline(item, depth + 1) for item in schema]
        return schema

    # -- errors

    def error_shape_problems(self, error: Any) -> List[str]:
        """How an ``error`` member breaks the error rules of the README and the error table."""
        problems = []
        if not isinstance(error, dict):
            return ["error is not an object"]
        if set(error) - {"code", "message", "data"}:
            problems.append("unexpected error members %s" % sorted(set(error) - {"code", "message", "data"}))
        code = error.get("code")
        if not isinstance(code, int) or isinstance(code, bool):
            problems.append("code is not an integer")
        elif code not in self.error_codes | PROTOCOL_CODES:
            problems.append("code %r is not in components.errors" % code)
        if not isinstance(error.get("message"), str) or not error["message"]:
            problems.append("message is not a non-empty string")
        data = error.get("data")
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            problems.append("data.kind missing")
        if code == INTERNAL_ERROR:
            problems.append("-32603 internal error (a bug by definition)")
        return problems
