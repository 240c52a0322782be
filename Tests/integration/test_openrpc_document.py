"""schema/openrpc.json checked as an OpenRPC document, and the MCP tool list checked against it.

How the document is validated:

1. With the `openrpc` package from PyPI (python-openrpc, pinned in requirements.txt). It is a framework
   for writing OpenRPC servers in Python, not a validator: it has no validate/parse function, but its
   pydantic models of the spec's objects (`openrpc.OpenRPC`, `Method`, `ContentDescriptor`, `Error`,
   `ExamplePairing`, ...) parse a document and check required fields and field types. They do not accept
   a Reference Object where the spec allows one (a method's `errors`, for instance) and ignore unknown
   members, so the test resolves the document's OpenRPC-level `$ref`s first and checks unknown members
   itself (3).
2. Not with the OpenRPC meta-schema (open-rpc/meta-schema `schema.json`): no package on PyPI or Debian
   ships it and nothing else can be fetched here, and a copy written into this repository would be a copy
   we keep, not the spec's. Instead:
3. The spec's structural rules are checked below by hand, object by object (OpenRPC 1.3: Method, Content
   Descriptor, Error, Example Pairing, Example, Tag, Reference objects; allowed members, required
   members, types, `paramStructure` values, unique names, every `$ref` resolving to the right kind of
   component), and every content descriptor's schema passes jsonschema's Draft 7 meta-schema check.

`rpc.discover` serving exactly this file is checked in test_contract.py (both framings).
"""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
from typing import Any, Dict, List, Optional

import jsonschema
import pytest

from conftest import SERVER_VARIABLE_PREFIXES, full_env
from openrpc_contract import OpenRpcContract

EXTENSION = re.compile(r"^x-")
SPEC_VERSION = re.compile(r"^1\.[0-4]\.\d+$")

TOP_MEMBERS = {"openrpc", "info", "servers", "methods", "components", "externalDocs", "$schema"}
INFO_MEMBERS = {"title", "description", "termsOfService", "version", "contact", "license"}
CONTACT_MEMBERS = {"name", "email", "url"}
LICENSE_MEMBERS = {"name", "url"}
SERVER_MEMBERS = {"url", "name", "description", "summary", "variables"}
METHOD_MEMBERS = {"name", "description", "summary", "servers", "tags", "paramStructure", "params", "result",
                  "errors", "links", "examples", "deprecated", "externalDocs"}
CONTENT_DESCRIPTOR_MEMBERS = {"name", "summary", "description", "required", "schema", "deprecated"}
ERROR_MEMBERS = {"code", "message", "data"}
TAG_MEMBERS = {"name", "summary", "description", "externalDocs"}
EXAMPLE_PAIRING_MEMBERS = {"name", "summary", "description", "params", "result"}
EXAMPLE_MEMBERS = {"name", "summary", "description", "value", "externalValue"}
LINK_MEMBERS = {"name", "summary", "description", "method", "params", "server"}
EXTERNAL_DOCS_MEMBERS = {"description", "url"}
# components member -> the kind of object it holds ("examplePairingObjects" in the spec's text,
# "examplePairings" in its meta-schema).
COMPONENT_KINDS = {"schemas": "schema", "contentDescriptors": "contentDescriptor", "errors": "error",
                   "examples": "example", "examplePairings": "examplePairing",
                   "examplePairingObjects": "examplePairing", "links": "link", "tags": "tag"}
PARAM_STRUCTURES = {"by-position", "by-name", "either"}

# Protocol plumbing that is not offered as an MCP tool.
NOT_TOOLS = {"initialize", "shutdown", "rpc.discover"}


# ---------------------------------------------------------------- 1. the openrpc package


def dereferenced(contract: OpenRpcContract) -> Dict[str, Any]:
    """The document with its OpenRPC-level Reference Objects replaced by what they point to (JSON
    Schema `$ref`s inside schemas are left alone)."""
    document = copy.deepcopy(contract.document)
    for method in document["methods"]:
        method["params"] = [contract.resolve(param) for param in method["params"]]
        if "result" in method:
            method["result"] = contract.resolve(method["result"])
        for key in ("errors", "tags", "links"):
            if key in method:
                method[key] = [contract.resolve(item) for item in method[key]]
        if "examples" in method:
            method["examples"] = [copy.deepcopy(contract.resolve(example)) for example in method["examples"]]
            for example in method["examples"]:
                example["params"] = [contract.resolve(param) for param in example["params"]]
                if "result" in example:
                    example["result"] = contract.resolve(example["result"])
    return document


def test_the_openrpc_package_parses_the_document(contract):
    openrpc = pytest.importorskip("openrpc", reason="pip install -r Tests/integration/requirements.txt")
    parsed = openrpc.OpenRPC.model_validate(dereferenced(contract))
    assert parsed.openrpc == contract.document["openrpc"]
    assert parsed.info.title == contract.document["info"]["title"]
    assert [method.name for method in parsed.methods] == contract.method_names
    for method in parsed.methods:
        assert method.param_structure == openrpc.ParamStructure.BY_NAME, method.name
        assert [param.name for param in method.params] == contract.param_names(method.name)
        assert method.result is not None and method.result.name, method.name
        for error in method.errors or []:
            assert isinstance(error.code, int) and error.message, (method.name, error)
    assert set(parsed.components.errors) == set(contract.error_table)


# ---------------------------------------------------------------- 2/3. the spec's structural rules


class Checker:
    """Walks the document and collects every breach of the spec's structural rules."""

    def __init__(self, contract: OpenRpcContract) -> None:
        self.contract = contract
        self.problems: List[str] = []

    def fail(self, where: str, text: str) -> None:
        self.problems.append("%s: %s" % (where or "/", text))

    def members(self, node: Any, where: str, allowed: set, required: set = frozenset()) -> bool:
        if not isinstance(node, dict):
            self.fail(where, "must be an object, got %r" % (node,))
            return False
        for name in sorted(required - set(node)):
            self.fail(where, "missing required member %r" % name)
        for name in sorted(set(node) - allowed):
            if not EXTENSION.match(name):
                self.fail(where, "unknown member %r" % name)
        return True

    def string(self, node: Dict[str, Any], key: str, where: str, non_empty: bool = False) -> None:
        if key in node and not (isinstance(node[key], str) and (node[key] or not non_empty)):
            self.fail("%s/%s" % (where, key), "must be a%s string" % (" non-empty" if non_empty else ""))

    def boolean(self, node: Dict[str, Any], key: str, where: str) -> None:
        if key in node and not isinstance(node[key], bool):
            self.fail("%s/%s" % (where, key), "must be a boolean")

    def array(self, node: Dict[str, Any], key: str, where: str) -> List[Any]:
        if key not in node:
            return []
        if not isinstance(node[key], list):
            self.fail("%s/%s" % (where, key), "must be an array")
            return []
        return node[key]

    def reference(self, node: Any, where: str, kind: str) -> Optional[Any]:
        """``node`` itself, or the ``kind`` component its Reference Object points to (None if broken)."""
        if not (isinstance(node, dict) and "$ref" in node):
            return node
        if set(node) != {"$ref"}:
            self.fail(where, "a Reference Object has only $ref, got %s" % sorted(node))
        ref = node["$ref"]
        prefixes = ["#/components/%s/" % name for name, k in COMPONENT_KINDS.items() if k == kind]
        if not (isinstance(ref, str) and any(ref.startswith(prefix) for prefix in prefixes)):
            self.fail(where, "%r must point into %s" % (ref, " or ".join(prefixes)))
            return None
        try:
            return self.contract.resolve(node)
        except Exception as error:  # referencing raises its own Unresolvable
            self.fail(where, "%r does not resolve: %s" % (ref, error))
            return None

    # -- objects

    def document(self, document: Any) -> None:
        if not self.members(document, "", TOP_MEMBERS, {"openrpc", "info", "methods"}):
            return
        version = document.get("openrpc")
        if not (isinstance(version, str) and SPEC_VERSION.match(version)):
            self.fail("/openrpc", "must be an OpenRPC spec version (1.x.y), got %r" % (version,))
        if "info" in document:
            self.info(document["info"], "/info")
        for index, server in enumerate(self.array(document, "servers", "")):
            self.server(server, "/servers/%d" % index)
        if "externalDocs" in document:
            self.external_docs(document["externalDocs"], "/externalDocs")
        names = []
        for index, method in enumerate(self.array(document, "methods", "")):
            method = self.reference(method, "/methods/%d" % index, "method")
            if method is not None:
                names.append(self.method(method, "/methods/%d" % index))
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            self.fail("/methods", "method names must be unique: %s" % duplicates)
        if "components" in document:
            self.components(document["components"], "/components")

    def info(self, info: Any, where: str) -> None:
        if not self.members(info, where, INFO_MEMBERS, {"title", "version"}):
            return
        for key in ("title", "version", "description", "termsOfService"):
            self.string(info, key, where)
        if "contact" in info and self.members(info["contact"], where + "/contact", CONTACT_MEMBERS):
            for key in CONTACT_MEMBERS:
                self.string(info["contact"], key, where + "/contact")
        if "license" in info and self.members(info["license"], where + "/license", LICENSE_MEMBERS, {"name"}):
            for key in LICENSE_MEMBERS:
                self.string(info["license"], key, where + "/license")

    def server(self, server: Any, where: str) -> None:
        if self.members(server, where, SERVER_MEMBERS, {"url"}):
            for key in ("url", "name", "description", "summary"):
                self.string(server, key, where)

    def external_docs(self, docs: Any, where: str) -> None:
        if self.members(docs, where, EXTERNAL_DOCS_MEMBERS, {"url"}):
            self.string(docs, "url", where)
            self.string(docs, "description", where)

    def method(self, method: Any, where: str) -> Optional[str]:
        if not self.members(method, where, METHOD_MEMBERS, {"name", "params"}):
            return None
        self.string(method, "name", where, non_empty=True)
        name = method.get("name")
        if isinstance(name, str) and name.startswith("rpc.") and name != "rpc.discover":
            self.fail(where + "/name", "names starting rpc. are reserved by JSON-RPC: %s" % name)
        for key in ("summary", "description"):
            self.string(method, key, where)
        self.boolean(method, "deprecated", where)
        if method.get("paramStructure", "either") not in PARAM_STRUCTURES:
            self.fail(where + "/paramStructure", "must be one of %s" % sorted(PARAM_STRUCTURES))
        params = []
        for index, param in enumerate(self.array(method, "params", where)):
            here = "%s/params/%d" % (where, index)
            param = self.reference(param, here, "contentDescriptor")
            if param is not None and self.content_descriptor(param, here):
                params.append(param)
        param_names = [param.get("name") for param in params]
        if len(param_names) != len(set(param_names)):
            self.fail(where + "/params", "param names must be unique: %s" % param_names)
        seen_optional = False
        for param in params:
            if param.get("required", False) and seen_optional:
                self.fail(where + "/params", "required param %r after an optional one" % param.get("name"))
            seen_optional = seen_optional or not param.get("required", False)
        if "result" in method:
            result = self.reference(method["result"], where + "/result", "contentDescriptor")
            if result is not None:
                self.content_descriptor(result, where + "/result")
        for index, error in enumerate(self.array(method, "errors", where)):
            here = "%s/errors/%d" % (where, index)
            error = self.reference(error, here, "error")
            if error is not None:
                self.error(error, here)
        for index, tag in enumerate(self.array(method, "tags", where)):
            here = "%s/tags/%d" % (where, index)
            tag = self.reference(tag, here, "tag")
            if tag is not None:
                self.tag(tag, here)
        for index, link in enumerate(self.array(method, "links", where)):
            here = "%s/links/%d" % (where, index)
            link = self.reference(link, here, "link")
            if link is not None:
                self.members(link, here, LINK_MEMBERS)
        for index, server in enumerate(self.array(method, "servers", where)):
            self.server(server, "%s/servers/%d" % (where, index))
        if "externalDocs" in method:
            self.external_docs(method["externalDocs"], where + "/externalDocs")
        for index, example in enumerate(self.array(method, "examples", where)):
            here = "%s/examples/%d" % (where, index)
            example = self.reference(example, here, "examplePairing")
            if example is not None:
                self.example_pairing(example, here, set(param_names), "result" in method)
        return name

    def content_descriptor(self, descriptor: Any, where: str) -> bool:
        if not self.members(descriptor, where, CONTENT_DESCRIPTOR_MEMBERS, {"name", "schema"}):
            return False
        self.string(descriptor, "name", where, non_empty=True)
        for key in ("summary", "description"):
            self.string(descriptor, key, where)
        for key in ("required", "deprecated"):
            self.boolean(descriptor, key, where)
        if "schema" in descriptor:
            self.schema(descriptor["schema"], where + "/schema")
        return True

    def schema(self, schema: Any, where: str) -> None:
        try:
            jsonschema.Draft7Validator.check_schema(schema)
        except jsonschema.SchemaError as error:
            self.fail(where, "not a valid draft-07 schema: %s" % error.message)

    def error(self, error: Any, where: str) -> None:
        if not self.members(error, where, ERROR_MEMBERS, {"code", "message"}):
            return
        if not (isinstance(error.get("code"), int) and not isinstance(error.get("code"), bool)):
            self.fail(where + "/code", "must be an integer")
        self.string(error, "message", where)

    def tag(self, tag: Any, where: str) -> None:
        if self.members(tag, where, TAG_MEMBERS, {"name"}):
            self.string(tag, "name", where, non_empty=True)
            if "externalDocs" in tag:
                self.external_docs(tag["externalDocs"], where + "/externalDocs")

    def example_pairing(self, pairing: Any, where: str, param_names: set, has_result: bool) -> None:
        if not self.members(pairing, where, EXAMPLE_PAIRING_MEMBERS, {"name", "params"}):
            return
        self.string(pairing, "name", where, non_empty=True)
        for index, example in enumerate(self.array(pairing, "params", where)):
            here = "%s/params/%d" % (where, index)
            example = self.reference(example, here, "example")
            if example is not None and self.example(example, here) and param_names \
                    and example.get("name") not in param_names:
                self.fail(here, "example param %r is not a param of the method" % example.get("name"))
        if "result" in pairing:
            result = self.reference(pairing["result"], where + "/result", "example")
            if result is not None:
                self.example(result, where + "/result")
        elif has_result:
            self.fail(where, "the method has a result, so its example pairing needs one")

    def example(self, example: Any, where: str) -> bool:
        if not self.members(example, where, EXAMPLE_MEMBERS, {"name"}):
            return False
        self.string(example, "name", where, non_empty=True)
        if ("value" in example) == ("externalValue" in example):
            self.fail(where, "an Example has exactly one of value and externalValue")
        return True

    def components(self, components: Any, where: str) -> None:
        if not self.members(components, where, set(COMPONENT_KINDS)):
            return
        for member, entries in components.items():
            if member not in COMPONENT_KINDS:
                continue
            here = "%s/%s" % (where, member)
            if not isinstance(entries, dict):
                self.fail(here, "must be an object")
                continue
            kind = COMPONENT_KINDS[member]
            for name, entry in entries.items():
                entry_where = "%s/%s" % (here, name)
                if not re.match(r"^[A-Za-z0-9._-]+$", name):
                    self.fail(entry_where, "component names are [A-Za-z0-9._-]+")
                if kind == "schema":
                    self.schema(entry, entry_where)
                elif kind == "contentDescriptor":
                    self.content_descriptor(entry, entry_where)
                elif kind == "error":
                    self.error(entry, entry_where)
                elif kind == "example":
                    self.example(entry, entry_where)
                elif kind == "examplePairing":
                    self.example_pairing(entry, entry_where, set(), False)
                elif kind == "tag":
                    self.tag(entry, entry_where)
                elif kind == "link":
                    self.members(entry, entry_where, LINK_MEMBERS)


def test_the_document_follows_the_spec_structure(contract):
    checker = Checker(contract)
    checker.document(contract.document)
    assert not checker.problems, "schema/openrpc.json breaks the OpenRPC structure:\n  " + \
        "\n  ".join(checker.problems)


BROKEN_DOCUMENTS = [
    ("no info", lambda d: d.pop("info"), "missing required member 'info'"),
    ("unknown top-level member", lambda d: d.update(method=[]), "unknown member 'method'"),
    ("method without params", lambda d: d["methods"][0].pop("params"), "missing required member 'params'"),
    ("bad paramStructure", lambda d: d["methods"][0].update(paramStructure="named"), "paramStructure"),
    ("duplicate method", lambda d: d["methods"].append(copy.deepcopy(d["methods"][0])), "must be unique"),
    ("content descriptor without schema", lambda d: d["methods"][5]["params"][0].pop("schema"),
     "missing required member 'schema'"),
    ("invalid draft-07 schema", lambda d: d["methods"][5]["params"][0].update(schema={"type": "integr"}),
     "not a valid draft-07 schema"),
    ("string error code", lambda d: d["components"]["errors"]["InvalidParams"].update(code="-32602"),
     "must be an integer"),
    ("dangling ref", lambda d: d["methods"][5]["errors"].append({"$ref": "#/components/errors/Nope"}),
     "does not resolve"),
    ("ref to the wrong kind", lambda d: d["methods"][5]["errors"].append({"$ref": "#/components/schemas/Genre"}),
     "must point into #/components/errors/"),
    ("example pairing without params", lambda d: d["methods"][5]["examples"][0].pop("params"),
     "missing required member 'params'"),
    ("example of an unknown param",
     lambda d: d["methods"][5]["examples"][0]["params"].append({"name": "nope", "value": 1}),
     "is not a param of the method"),
    ("reserved rpc. name", lambda d: d["methods"][5].update(name="rpc.popular"), "reserved"),
]


@pytest.mark.parametrize("mutate, expected", [pytest.param(m, e, id=i) for i, m, e in BROKEN_DOCUMENTS])
def test_the_structure_check_catches_breaks(contract, tmp_path, mutate, expected):
    """The hand-written rules are only worth something if they fail on a broken document."""
    document = copy.deepcopy(contract.document)
    assert document["methods"][5]["name"] == "movies.popular"  # the mutations above assume it
    mutate(document)
    path = tmp_path / "openrpc.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    broken = OpenRpcContract(path)
    checker = Checker(broken)
    checker.document(broken.document)
    assert any(expected in problem for problem in checker.problems), checker.problems


# ---------------------------------------------------------------- the MCP tool list against the document


def inlined(contract: OpenRpcContract, node: Any) -> Any:
    """``node`` with every ``$ref`` replaced by its target, recursively."""
    if isinstance(node, dict):
        if "$ref" in node:
            return inlined(contract, contract.resolve({"$ref": node["$ref"]}))
        return {key: inlined(contract, value) for key, value in node.items()}
    if isinstance(node, list):
        return [inlined(contract, value) for value in node]
    return node


def contains_ref(node: Any) -> bool:
    if isinstance(node, dict):
        return "$ref" in node or any(contains_ref(value) for value in node.values())
    if isinstance(node, list):
        return any(contains_ref(value) for value in node)
    return False


@pytest.fixture(scope="module")
def tools(server_binary, tmp_path_factory) -> List[Dict[str, Any]]:
    """tools/list of a fresh server, over a plain pipe (no MCP library needed)."""
    home = tmp_path_factory.mktemp("tools-home")
    env: Dict[str, Optional[str]] = {name: None for name in os.environ
                                     if name.startswith(SERVER_VARIABLE_PREFIXES) and name != "MOVIE_RPC_BIN"}
    env.update({"MOVIE_RPC_HOME": str(home), "XDG_DATA_HOME": None})
    done = subprocess.run([server_binary], input=b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n',
                          capture_output=True, env=full_env(env), timeout=30)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout[:500]
    reply = json.loads(lines[0])
    assert reply["id"] == 1 and "result" in reply, reply
    return reply["result"]["tools"]


def test_tools_are_the_public_methods(tools, contract):
    public = [name for name in contract.method_names if name not in NOT_TOOLS]
    assert [tool["name"] for tool in tools] == [name.replace(".", "_") for name in public]
    assert len({tool["name"] for tool in tools}) == len(public), "two methods map to one tool name"
    for tool in tools:
        assert re.fullmatch(r"[A-Za-z0-9_.-]{1,128}", tool["name"]), tool["name"]  # MCP's tool-name rule


def test_each_tool_input_schema_is_its_methods_params(tools, contract):
    by_title = {tool["title"]: tool for tool in tools}
    for name in contract.method_names:
        if name in NOT_TOOLS:
            continue
        schema = by_title[name]["inputSchema"]
        params = [contract.resolve(param) for param in contract.methods[name]["params"]]
        assert schema["type"] == "object" and schema["additionalProperties"] is False, name
        assert set(schema["properties"]) == {param["name"] for param in params}, name
        required = [param["name"] for param in params if param.get("required")]
        assert schema.get("required", []) == required, name
        for param in params:
            expected = inlined(contract, param["schema"])
            if "description" in param:
                expected = dict(expected, description=param["description"])
            assert schema["properties"][param["name"]] == expected, "%s.%s" % (name, param["name"])


def test_each_tool_output_schema_is_its_methods_result(tools, contract):
    by_title = {tool["title"]: tool for tool in tools}
    for name in contract.method_names:
        if name in NOT_TOOLS:
            continue
        tool = by_title[name]
        method = contract.methods[name]
        assert tool["description"] == method.get("description", method.get("summary", name))
        result = inlined(contract, method["result"]["schema"])
        if result.get("type") == "object":
            assert tool["outputSchema"] == result, name
        else:  # MCP output schemas are objects: a method answering null, an array or a oneOf has none
            assert "outputSchema" not in tool, name


def test_tool_schemas_stand_alone(tools):
    """No $ref is left (an agent host gets each schema on its own) and each is a valid schema both as
    draft-07 (the document's dialect) and as 2020-12 (MCP's default dialect)."""
    for tool in tools:
        for key in ("inputSchema", "outputSchema"):
            if key not in tool:
                continue
            assert not contains_ref(tool[key]), "%s.%s has a $ref" % (tool["name"], key)
            jsonschema.Draft7Validator.check_schema(tool[key])
            jsonschema.Draft202012Validator.check_schema(tool[key])
