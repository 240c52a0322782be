"""schema/openrpc.json is the wire contract: it must be well formed, and the server and the Python client
must agree with it."""

from __future__ import annotations

import inspect
import json
import re
import subprocess

import jsonschema
import pytest

from conftest import SCHEMA_PATH
from movie_rpc import Client, RpcError
from movie_rpc.errors import ErrorCode
from movie_rpc.framing import FRAMINGS
from openrpc_contract import OpenRpcContract

# Methods that accept any params by design (LSP clients send many members); all others reject unknown ones.
OPEN_PARAMS = {"initialize"}


def helper_name(method: str) -> str:
    """movies.byGenre -> movies_by_genre, server.info -> server_info, rpc.discover -> discover."""
    if method == "rpc.discover":
        return "discover"
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", method).replace(".", "_").lower()


# ---------------------------------------------------------------- the document alone


def test_document_shape(contract):
    document = contract.document
    assert re.fullmatch(r"1\.\d+\.\d+", document["openrpc"])
    assert document["info"]["title"] and document["info"]["version"]
    names = contract.method_names
    assert len(names) == len(set(names)), "duplicate method names"
    for method in document["methods"]:
        assert isinstance(method.get("params"), list), method["name"]
        assert "result" in method, "%s has no result" % method["name"]
        assert method.get("paramStructure", "either") in ("by-name", "by-position", "either")


def test_every_schema_is_valid_draft7(contract):
    for pointer, schema in contract.schema_pointers():
        try:
            jsonschema.Draft7Validator.check_schema(schema)
        except jsonschema.SchemaError as error:
            pytest.fail("%s: %s" % (pointer, error.message))


def test_every_ref_resolves(contract):
    for where, ref in contract.refs():
        assert ref.startswith("#/components/"), "%s: only local component refs are expected, got %s" % (where, ref)
        contract.resolve({"$ref": ref})


def test_every_result_schema_builds_a_validator(contract):
    for name in contract.method_names:
        contract.result_validator(name).is_valid(None)  # resolves every nested $ref


def method_examples():
    contract = OpenRpcContract(SCHEMA_PATH)
    for method in contract.document["methods"]:
        for example in method.get("examples", []):
            example = contract.resolve(example)
            marks = []
            if (method["name"], example["name"]) in KNOWN_BAD_EXAMPLES:
                marks.append(pytest.mark.xfail(reason=KNOWN_BAD_EXAMPLES[method["name"], example["name"]],
                                               strict=True))
            yield pytest.param(method["name"], example, id="%s: %s" % (method["name"], example["name"]),
                               marks=marks)


KNOWN_BAD_EXAMPLES: dict = {}


@pytest.mark.parametrize("method, example", list(method_examples()))
def test_examples_match_their_schemas(contract, method, example):
    contract.assert_result_matches(method, contract.resolve(example["result"])["value"])
    params = contract.param_names(method)
    for param in map(contract.resolve, example.get("params", [])):
        assert param["name"] in params, "%s example uses unknown param %s" % (method, param["name"])
        contract.param_validator(method, param["name"]).validate(param["value"])


def test_error_table_is_consistent(contract):
    codes, kinds = [], []
    for name, error in contract.error_table.items():
        assert isinstance(error["code"], int) and isinstance(error["message"], str), name
        assert isinstance(error["data"]["kind"], str), name
        codes.append(error["code"])
        kinds.append(error["data"]["kind"])
    # A code may carry several kinds (-32600: invalidRequest, messageTooLarge); a kind has one code.
    assert len(kinds) == len(set(kinds)), "duplicate kinds in components.errors"
    for code in codes:
        # JSON-RPC's own codes, its implementation-defined server errors, or LSP's request-cancelled range.
        assert code in (-32700, -32600, -32601, -32602, -32603) or -32099 <= code <= -32000 \
            or -32899 <= code <= -32800, "code %d is outside the JSON-RPC/LSP ranges" % code


def test_python_error_codes_match_the_table(contract):
    constants = {value for name, value in vars(ErrorCode).items() if name.isupper()}
    assert contract.error_codes == constants


def test_the_message_too_large_error_is_in_the_error_table(contract):
    assert "messageTooLarge" in contract.error_kinds


def test_every_method_has_a_python_helper_taking_its_params(contract):
    for name in contract.method_names:
        helper = getattr(Client, helper_name(name), None)
        assert callable(helper), "Client.%s for %s is missing: run python3 scripts/gen-python-client.py" % (
            helper_name(name), name)
        parameters = inspect.signature(helper).parameters
        for param in contract.param_names(name):
            keyword = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", param).lower()  # helpers take snake_case
            assert keyword in parameters, "Client.%s lacks param %s of %s" % (helper_name(name), keyword, name)


# ---------------------------------------------------------------- the server against the document


@pytest.mark.parametrize("framing", FRAMINGS)
def test_rpc_discover_serves_the_schema_file(make_client, framing):
    client = make_client(framing)
    assert client.discover() == json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def test_initialize_lists_exactly_the_documented_methods(client, contract):
    methods = client.initialize()["capabilities"]["movieRpc"]["methods"]
    assert len(methods) == len(set(methods))
    assert set(methods) == set(contract.method_names)


def test_every_documented_method_exists_and_rejects_unknown_params(client, contract):
    # Rejected before the method runs, so this calls every method without side effects.
    for name in contract.method_names:
        if name in OPEN_PARAMS:
            continue
        with pytest.raises(RpcError) as caught:
            client.call(name, {"noSuchParam": 1})
        assert caught.value.code == -32602, "%s: %r" % (name, caught.value)
        assert caught.value.kind == "invalidParams"
        assert caught.value.field == "noSuchParam"


def test_versions_agree(server_binary, client, contract):
    version = subprocess.run([server_binary, "--version"], capture_output=True, timeout=10).stdout.decode()
    info = client.server_info()
    assert version.split()[-1] == info["version"] == contract.document["info"]["version"]
    assert client.initialize()["serverInfo"] == {"name": info["name"], "version": info["version"]}


def test_the_fixture_client_validates_every_result(client, contract):
    before = contract.validated
    client.server_info()
    client.discover()
    assert contract.validated == before + 2
