"""The generated types and helpers agree with schema/openrpc.json, and the checked-in file is current."""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any, Dict

import movie_rpc
from movie_rpc import AsyncClient, Client, ErrorCode
from movie_rpc import types as generated

REPO = Path(__file__).resolve().parent.parent.parent.parent


def snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).replace(".", "_").lower()


def pascal(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^0-9A-Za-z]+", name) if part)


def test_the_checked_in_file_is_what_the_generator_writes() -> None:
    generator = REPO / "scripts" / "gen-python-client.py"
    outcome = subprocess.run([sys.executable, str(generator), "--check"], capture_output=True, text=True)
    assert outcome.returncode == 0, outcome.stderr


def test_every_method_has_params_typeddict_with_its_wire_names(document: Dict[str, Any]) -> None:
    for method in document["methods"]:
        params = getattr(generated, pascal(method["name"]) + "Params")
        required = {param["name"] for param in method["params"] if param.get("required")}
        optional = {param["name"] for param in method["params"] if not param.get("required")}
        assert params.__required_keys__ == required, method["name"]
        assert params.__optional_keys__ == optional, method["name"]


def test_every_object_schema_has_a_typeddict_with_its_members(document: Dict[str, Any]) -> None:
    for name, schema in document["components"]["schemas"].items():
        if schema.get("type") != "object" or not schema.get("properties"):
            continue
        typed = getattr(generated, pascal(name))
        assert typed.__required_keys__ == set(schema.get("required", [])), name
        assert typed.__required_keys__ | typed.__optional_keys__ == set(schema["properties"]), name


def test_every_method_has_a_blocking_and_an_async_helper_with_snake_case_keywords(
        document: Dict[str, Any]) -> None:
    for method in document["methods"]:
        for cls in (Client, AsyncClient):
            helper = getattr(cls, snake(method["name"]))
            assert inspect.iscoroutinefunction(helper) == (cls is AsyncClient), method["name"]
            parameters = inspect.signature(helper).parameters
            for param in method["params"]:
                keyword = parameters[snake(param["name"])]
                if param.get("required"):
                    assert keyword.default is inspect.Parameter.empty, (method["name"], param["name"])
                else:
                    assert keyword.default in (None, movie_rpc.OMIT), (method["name"], param["name"])
    assert sorted(movie_rpc.METHOD_NAMES) == sorted(method["name"] for method in document["methods"])


def test_helpers_are_annotated_with_the_result_types(document: Dict[str, Any]) -> None:
    hints = typing.get_type_hints(Client.movies_details)
    assert hints["return"] is generated.MovieDetails
    assert hints["movie_id"] is int
    assert typing.get_type_hints(Client.movies_popular)["return"] is generated.MoviePage


def test_error_codes_are_an_int_enum_of_the_error_table(document: Dict[str, Any]) -> None:
    table = {error["code"] for error in document["components"]["errors"].values()}
    assert {member.value for member in ErrorCode} == table
    assert int(ErrorCode.NOT_FOUND) == -32021 and isinstance(ErrorCode(-32602), ErrorCode)
    assert ErrorCode(-32602).name == "INVALID_PARAMS"


def test_the_package_is_marked_typed() -> None:
    assert (Path(movie_rpc.__file__).parent / "py.typed").exists()


def test_check_mode_fails_when_the_document_changes(tmp_path: Path) -> None:
    """--check compares with the document: an added method makes it fail (as it must, so the checked-in
    helpers cannot drift)."""
    import importlib.util
    import json

    spec = importlib.util.spec_from_file_location("gen", REPO / "scripts" / "gen-python-client.py")
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    document = json.loads((REPO / "schema" / "openrpc.json").read_text(encoding="utf-8"))
    before = gen.Generator(json.loads(json.dumps(document))).render()
    # A method the document does not have (yet): the generated code must change with it.
    document["methods"].append({"name": "movies.exampleLookup", "params": [
        {"name": "query", "required": True, "schema": {"type": "string"}},
        {"name": "primaryReleaseYear", "schema": {"type": "integer"}}],
        "result": {"name": "MoviePage", "schema": {"$ref": "#/components/schemas/MoviePage"}}})
    after = gen.Generator(document).render()
    assert after != before
    assert "def movies_example_lookup(self, query: str, primary_release_year: Optional[int] = None) -> MoviePage:" \
        in after
    assert 'wire["primaryReleaseYear"] = primary_release_year' in after
