"""The wire contract, schema/openrpc.json, as something tests can check replies against.

Result schemas are JSON Schema draft-07 whose ``$ref``s point into ``components.schemas`` of the same
document; they are resolved through a ``referencing`` registry holding the whole document, so a ref
anywhere in it (nested, or from one component to another) resolves the way the document means it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Set, Tuple

import jsonschema
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

DOCUMENT_URI = "urn:movie-rpc:openrpc.json"

# JSON-RPC's own codes that may be sent without appearing in a method's `errors`.
PROTOCOL_CODES = {-32700, -32600, -32601, -32602, -32603}


class OpenRpcContract:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.document: Dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        self.methods: Dict[str, Dict[str, Any]] = {}
        for method in self.document["methods"]:
            self.methods[method["name"]] = method
        resource = Resource.from_contents(self.document, default_specification=DRAFT7)
        self.registry = Registry().with_resource(DOCUMENT_URI, resource)
        self._validators: Dict[str, jsonschema.Draft7Validator] = {}
        self.validated = 0  # how many results went through assert_result_matches

    # -- methods and params

    @property
    def method_names(self) -> List[str]:
        return [method["name"] for method in self.document["methods"]]

    def param_names(self, method: str) -> List[str]:
        return [self.resolve(param)["name"] for param in self.methods[method].get("params", [])]

    # -- schemas

    def resolve(self, node: Any) -> Any:
        """``node`` itself, or what its top-level ``$ref`` points to in this document."""
        while isinstance(node, dict) and "$ref" in node:
            node = self.registry.resolver(DOCUMENT_URI).lookup(node["$ref"]).contents
        return node

    def validator_for_pointer(self, pointer: str) -> jsonschema.Draft7Validator:
        """A draft-07 validator for the schema at JSON pointer ``pointer`` in the document."""
        if pointer not in self._validators:
            self._validators[pointer] = jsonschema.Draft7Validator(
                {"$ref": DOCUMENT_URI + "#" + pointer}, registry=self.registry,
                format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
        return self._validators[pointer]

    def result_validator(self, method: str) -> jsonschema.Draft7Validator:
        if method not in self.methods:
            raise AssertionError("%s is not in %s" % (method, self.path.name))
        index = self.method_names.index(method)
        if "result" not in self.methods[method]:
            raise AssertionError("%s has no result in %s" % (method, self.path.name))
        return self.validator_for_pointer("/methods/%d/result/schema" % index)

    def param_validator(self, method: str, name: str) -> jsonschema.Draft7Validator:
        index = self.method_names.index(method)
        for pindex, param in enumerate(self.methods[method].get("params", [])):
            if self.resolve(param)["name"] == name:
                if "$ref" in param:
                    return self.validator_for_pointer(param["$ref"].lstrip("#") + "/schema")
                return self.validator_for_pointer("/methods/%d/params/%d/schema" % (index, pindex))
        raise AssertionError("%s has no param %s" % (method, name))

    def assert_result_matches(self, method: str, result: Any) -> None:
        """Fails with every schema violation of ``result`` as ``method``'s result."""
        errors = sorted(self.result_validator(method).iter_errors(result), key=lambda e: list(e.path))
        if errors:
            lines = ["%s: %s" % ("/".join(map(str, e.absolute_path)) or "(result)", e.message) for e in errors]
            raise AssertionError("result of %s does not match its schema:\n  %s\nresult: %s" % (
                method, "\n  ".join(lines), json.dumps(result)[:2000]))
        self.validated += 1

    def schema_pointers(self) -> Iterator[Tuple[str, Any]]:
        """Every JSON Schema in the document (method params and results, components.schemas)."""
        for index, method in enumerate(self.document["methods"]):
            for pindex, param in enumerate(method.get("params", [])):
                if "schema" in param:
                    yield "/methods/%d/params/%d/schema" % (index, pindex), param["schema"]
            if "result" in method and "schema" in method["result"]:
                yield "/methods/%d/result/schema" % index, method["result"]["schema"]
        for name, schema in self.document.get("components", {}).get("schemas", {}).items():
            yield "/components/schemas/%s" % name, schema

    def refs(self) -> Iterator[Tuple[str, str]]:
        """(where, ref) for every ``$ref`` in the document."""
        def walk(node: Any, where: str) -> Iterator[Tuple[str, str]]:
            if isinstance(node, dict):
                for key, value in node.items():
                    if key == "$ref" and isinstance(value, str):
                        yield where, value
                    else:
                        yield from walk(value, "%s/%s" % (where, key))
            elif isinstance(node, list):
                for i, value in enumerate(node):
                    yield from walk(value, "%s/%d" % (where, i))
        yield from walk(self.document, "")

    # -- errors

    @property
    def error_table(self) -> Dict[str, Dict[str, Any]]:
        return self.document.get("components", {}).get("errors", {})

    @property
    def error_codes(self) -> Set[int]:
        return {error["code"] for error in self.error_table.values()}

    @property
    def error_kinds(self) -> Dict[str, int]:
        """data.kind -> code, from the error table."""
        return {error["data"]["kind"]: error["code"] for error in self.error_table.values()
                if isinstance(error.get("data"), dict) and "kind" in error["data"]}

    def assert_error(self, error: Any, code: Optional[int] = None, kind: Optional[str] = None) -> None:
        """Checks a reply's ``error`` member: shape, a documented code, a string ``data.kind``."""
        assert isinstance(error, dict), "error must be an object: %r" % (error,)
        assert isinstance(error.get("code"), int) and not isinstance(error["code"], bool), error
        assert isinstance(error.get("message"), str) and error["message"], error
        assert set(error) <= {"code", "message", "data"}, "unexpected error members: %r" % (error,)
        assert error["code"] in self.error_codes | PROTOCOL_CODES, \
            "code %d is not in components.errors: %r" % (error["code"], error)
        data = error.get("data")
        assert isinstance(data, dict) and isinstance(data.get("kind"), str), "data.kind missing: %r" % (error,)
        if error["code"] == -32602:
            assert "field" not in data or isinstance(data["field"], str), error
        if code is not None:
            assert error["code"] == code, "expected code %d, got %r" % (code, error)
        if kind is not None:
            assert data["kind"] == kind, "expected kind %s, got %r" % (kind, error)
