#!/usr/bin/env python3
"""Generates the Python client's types and helpers from schema/openrpc.json.

    python3 scripts/gen-python-client.py          # rewrites clients/python/movie_rpc/_generated.py
    python3 scripts/gen-python-client.py --check  # fails when the checked-in file differs from the document

The output holds, for every method of the document, a TypedDict of its params (wire names), a type of its
result, a snake_case helper on ``Methods`` (the blocking client) and a coroutine on ``AsyncMethods`` (the
asyncio client), plus a TypedDict or alias for every ``components.schemas`` entry and ``ErrorCode``, an
IntEnum of ``components.errors``. Re-run it after adding a method to the document; scripts/test.sh runs
``--check``, as it does for scripts/embed-resources.py.
"""

from __future__ import annotations

import argparse
import difflib
import json
import keyword
import re
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "schema" / "openrpc.json"
OUTPUT = ROOT / "clients" / "python" / "movie_rpc" / "_generated.py"

# Codes the document's error table does not name but clients meet.
EXTRA_ERROR_CODES: List[Tuple[str, int]] = []


def snake(name: str) -> str:
    """movies.byGenre -> movies_by_genre, primaryReleaseYear -> primary_release_year."""
    text = re.sub(r"[^0-9A-Za-z]+", "_", name)
    text = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", text)
    text = re.sub(r"(?<=[A-Z])([A-Z][a-z])", r"_\1", text)
    text = text.strip("_").lower()
    if keyword.iskeyword(text) or not text:
        text += "_"
    return text


# A reference to a generated type inside a type expression: quoted where the expression is evaluated at
# import time (TypedDict members, aliases: forward references), bare in annotations.
NAME = "\x00%s\x00"


def runtime(expression: str) -> str:
    return re.sub("\x00([A-Za-z0-9_]+)\x00", r'"\1"', expression)


def literal(value: Any) -> str:
    """A Python literal for a JSON scalar (``Literal[...]`` takes str, int, bool and None)."""
    return json.dumps(value) if isinstance(value, str) else repr(value)


def pascal(name: str) -> str:
    parts = re.split(r"[^0-9A-Za-z]+", name)
    return "".join(part[:1].upper() + part[1:] for part in parts if part)


def wrap_doc(text: str, indent: str, width: int = 110) -> List[str]:
    words = text.replace('"""', "'''").replace("\\", "\\\\").split()
    lines: List[str] = []
    line = ""
    for word in words:
        if line and len(indent) + len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = word if not line else line + " " + word
    if line:
        lines.append(line)
    return [indent + item for item in lines]


class Generator:
    def __init__(self, document: Dict[str, Any]) -> None:
        self.document = document
        self.schemas: Dict[str, Any] = document.get("components", {}).get("schemas", {})
        self.blocks: List[str] = []  # class and alias definitions, in order
        self.defined: Dict[str, str] = {}  # name -> canonical JSON of what it was built from
        self.exports: List[str] = []

    # ---------------------------------------------------------------- types

    def ref_name(self, ref: str) -> str:
        prefix = "#/components/schemas/"
        if not ref.startswith(prefix):
            raise SystemExit("unsupported $ref %r" % ref)
        return pascal(ref[len(prefix):])

    def type_of(self, schema: Any, hint: str) -> str:
        """A type expression for ``schema``; inline objects become TypedDicts named after ``hint``."""
        if schema is True or not isinstance(schema, dict) or not schema:
            return "Any"
        if "$ref" in schema:
            return NAME % self.ref_name(schema["$ref"])
        if "const" in schema:
            return "Literal[%s]" % literal(schema["const"])
        if "enum" in schema:
            return "Literal[%s]" % ", ".join(literal(value) for value in schema["enum"])
        for combinator in ("oneOf", "anyOf"):
            if combinator in schema:
                options = schema[combinator]
                types = [self.type_of(option, "%sOption%d" % (hint, index + 1) if len(options) > 1 else hint)
                         for index, option in enumerate(options)]
                return self.union(types)
        if "allOf" in schema:
            if len(schema["allOf"]) == 1:
                return self.type_of(schema["allOf"][0], hint)
            return "Dict[str, Any]"
        kind = schema.get("type")
        if isinstance(kind, list):
            return self.union([self.type_of(dict(schema, type=one), hint) for one in kind])
        if kind == "string":
            return "str"
        if kind == "integer":
            return "int"
        if kind == "number":
            return "float"
        if kind == "boolean":
            return "bool"
        if kind == "null":
            return "None"
        if kind == "array":
            return "List[%s]" % self.type_of(schema.get("items", {}), hint + "Item")
        if kind == "object" or "properties" in schema:
            if schema.get("properties"):
                return NAME % self.typed_dict(hint, schema)
            extra = schema.get("additionalProperties")
            if isinstance(extra, dict) and extra:
                return "Dict[str, %s]" % self.type_of(extra, hint + "Value")
            return "Dict[str, Any]"
        return "Any"

    @staticmethod
    def union(types: List[str]) -> str:
        unique: List[str] = []
        for item in types:
            if item not in unique:
                unique.append(item)
        if "Any" in unique:
            return "Any"
        if len(unique) == 1:
            return unique[0]
        if "None" in unique:
            rest = [item for item in unique if item != "None"]
            inner = rest[0] if len(rest) == 1 else "Union[%s]" % ", ".join(rest)
            return "Optional[%s]" % inner
        return "Union[%s]" % ", ".join(unique)

    def typed_dict(self, name: str, schema: Dict[str, Any], doc: Optional[str] = None) -> str:
        canonical = json.dumps(schema, sort_keys=True)
        if name in self.defined:
            if self.defined[name] != canonical:
                raise SystemExit("two different schemas want the name %s" % name)
            return name
        self.defined[name] = canonical
        properties: Dict[str, Any] = schema.get("properties", {})
        required = set(schema.get("required", []))
        fields = [(key, self.type_of(value, name + pascal(key)), key in required)
                  for key, value in properties.items()]
        self.exports.append(name)
        # The functional syntax allows any member name; required and optional members get a TypedDict
        # each and the public one inherits both (typing.NotRequired needs Python 3.11).
        lines: List[str] = []
        must = [(key, kind) for key, kind, needed in fields if needed]
        may = [(key, kind) for key, kind, needed in fields if not needed]

        def functional(class_name: str, members: List[Tuple[str, str]], total: bool) -> None:
            body = ", ".join("%s: %s" % (json.dumps(key), runtime(kind)) for key, kind in members)
            text = "%s = TypedDict(%s, {%s}%s)" % (class_name, json.dumps(class_name), body,
                                                   "" if total else ", total=False")
            if len(text) <= 115:
                lines.append(text)
                return
            lines.append("%s = TypedDict(%s, {" % (class_name, json.dumps(class_name)))
            for key, kind in members:
                lines.append("    %s: %s," % (json.dumps(key), runtime(kind)))
            lines.append("}%s)" % ("" if total else ", total=False"))

        description = doc or schema.get("description")
        if must and may:
            functional("_%sRequired" % name, must, True)
            functional("_%sOptional" % name, may, False)
            lines.append("")
            lines.append("")
            lines.append("class %s(_%sRequired, _%sOptional):" % (name, name, name))
            lines.append('    """%s"""' % ("\n".join(wrap_doc(description, "    ")).strip()
                                          if description else "``%s``" % name))
        else:
            if description:
                lines.extend("# " + line.strip() for line in wrap_doc(description, ""))
            functional(name, must or may, total=bool(must) or not may)
        self.blocks.append("\n".join(lines))
        return name

    def component(self, key: str, schema: Dict[str, Any]) -> None:
        name = pascal(key)
        if schema.get("type") == "object" and schema.get("properties"):
            self.typed_dict(name, schema)
            return
        self.exports.append(name)
        self.defined[name] = json.dumps(schema, sort_keys=True)
        expression = self.type_of(schema, name)
        description = schema.get("description")
        comment = "\n".join("# " + line.strip() for line in wrap_doc(description, "")) + "\n" if description else ""
        self.blocks.append("%s%s: TypeAlias = %s" % (comment, name, runtime(expression)))

    # ---------------------------------------------------------------- methods

    def method_types(self, method: Dict[str, Any]) -> Tuple[str, str, List[Dict[str, Any]]]:
        base = pascal(method["name"])
        params: List[Dict[str, Any]] = method.get("params", [])
        params_name = base + "Params"
        if params:
            self.typed_dict(params_name, {
                "type": "object",
                "properties": {param["name"]: param.get("schema", {}) for param in params},
                "required": [param["name"] for param in params if param.get("required")],
            }, doc="Params of ``%s``." % method["name"])
        else:
            self.empty_params(params_name, method["name"])
        result = method.get("result", {})
        result_schema = result.get("schema", {})
        result_name = base + "Result"
        if result_name in self.defined:  # a component of that name (initialize answers InitializeResult or more)
            result_name = base + "MethodResult"
        if "$ref" in result_schema:
            expression = self.type_of(result_schema, result_name)
        else:
            expression = self.type_of(result_schema, result_name)
            if expression != NAME % result_name:
                self.defined[result_name] = json.dumps(result_schema, sort_keys=True)
                self.exports.append(result_name)
                self.blocks.append("%s: TypeAlias = %s" % (result_name, runtime(expression)))
            expression = NAME % result_name
        return params_name, expression, params

    def empty_params(self, name: str, method: str) -> str:
        self.exports.append(name)
        self.blocks.append('%s = TypedDict(%s, {})\n%s.__doc__ = "``%s`` takes no params."'
                           % (name, json.dumps(name), name, method))
        return name

    def helper(self, method: Dict[str, Any], result: str, params: List[Dict[str, Any]], is_async: bool) -> str:
        name = snake(method["name"])
        arguments = ["self"]
        body: List[str] = []
        required = [param for param in params if param.get("required")]
        optional = [param for param in params if not param.get("required")]
        for param in required:
            arguments.append("%s: %s" % (snake(param["name"]), self.bare(self.type_of(param.get("schema", {}),
                                                                                      "X"))))
        # Optional params stay positional too, in the document's order (as the hand-written helpers
        # were): required ones first, then the optional ones.
        for param in optional:
            kind = self.bare(self.type_of(param.get("schema", {}), "X"))
            nullable = kind.startswith("Optional[") or kind in ("None", "Any")
            arguments.append("%s: %s = %s" % (snake(param["name"]),
                                              kind if nullable else "Optional[%s]" % kind,
                                              "OMIT" if nullable else "None"))
        if params:
            body.append("wire: Dict[str, Any] = {}")
            for param in params:
                python_name = snake(param["name"])
                if param.get("required"):
                    body.append("wire[%s] = %s" % (json.dumps(param["name"]), python_name))
                else:
                    kind = self.bare(self.type_of(param.get("schema", {}), "X"))
                    absent = "OMIT" if kind.startswith("Optional[") or kind in ("None", "Any") else "None"
                    body.append("if %s is not %s:" % (python_name, absent))
                    body.append("    wire[%s] = %s" % (json.dumps(param["name"]), python_name))
        else:
            body.append("wire = None")
        awaited = "await " if is_async else ""
        body.append("return cast(%s, %sself._call_method(%s, wire))"
                    % (runtime(result), awaited, json.dumps(method["name"])))
        signature = "    %sdef %s(%s) -> %s:" % ("async " if is_async else "", name, ", ".join(arguments),
                                                 self.bare(result))
        if len(signature) > 115:
            signature = "    %sdef %s(\n        %s,\n    ) -> %s:" % (
                "async " if is_async else "", name, ",\n        ".join(arguments), self.bare(result))
        summary = method.get("summary") or method.get("description") or ""
        doc = wrap_doc("``%s``%s" % (method["name"], ": " + summary if summary else "."), "        ")
        if params:
            doc.append("")
            doc.extend(wrap_doc("Params (Python name -> wire name): " + ", ".join(
                "%s -> %s" % (snake(param["name"]), param["name"]) for param in params) + ".", "        "))
        doc[0] = '        """' + doc[0].strip()
        if len(doc) == 1:
            doc[0] += '"""'
        else:
            doc.append('        """')
        lines = [signature] + doc
        lines.extend("        " + line for line in body)
        return "\n".join(lines)

    @staticmethod
    def bare(expression: str) -> str:
        """Annotations are not evaluated (``from __future__ import annotations``): names need no quotes."""
        return re.sub("\x00([A-Za-z0-9_]+)\x00", r"\1", expression)

    # ---------------------------------------------------------------- output

    def render(self) -> str:
        for key, schema in self.schemas.items():
            self.component(key, schema)
        sync_helpers: List[str] = []
        async_helpers: List[str] = []
        for method in self.document["methods"]:
            _, result, params = self.method_types(method)
            sync_helpers.append(self.helper(method, result, params, is_async=False))
            async_helpers.append(self.helper(method, result, params, is_async=True))
        errors = self.document.get("components", {}).get("errors", {})
        error_lines = []
        seen = set()
        for key, error in list(errors.items()) + [(name, {"code": code}) for name, code in EXTRA_ERROR_CODES]:
            member = snake(key).upper()
            if member in seen:
                continue
            seen.add(member)
            error_lines.append("    %s = %d" % (member, error["code"]))
        info = self.document.get("info", {})
        header = '''"""Types and helpers generated from schema/openrpc.json (OpenRPC %s, %s %s): do not edit.

Regenerate with ``python3 scripts/gen-python-client.py``; ``--check`` fails when this file and the document
differ. Params TypedDicts use the wire's camelCase names; helpers take snake_case keywords.
"""

# fmt: off
from __future__ import annotations

import enum
from typing import Any, Dict, List, Literal, Optional, TypeAlias, TypedDict, Union, cast

from ._omit import OMIT
''' % (self.document.get("openrpc", "?"), info.get("title", "?"), info.get("version", "?"))
        sections = [header.rstrip("\n")]
        sections.append("class ErrorCode(enum.IntEnum):\n"
                        '    """The error codes of the document\'s ``components.errors`` (``data.kind`` names them\n'
                        '    too). Codes several kinds share are aliases of the first."""\n\n'
                        + "\n".join(error_lines))
        sections.extend(self.blocks)
        sections.append('class Methods:\n    """One blocking helper per method of the document."""\n\n'
                        "    def _call_method(self, method: str, params: Optional[Dict[str, Any]]) -> Any:\n"
                        "        raise NotImplementedError\n\n" + "\n\n".join(sync_helpers))
        sections.append('class AsyncMethods:\n    """One coroutine helper per method of the document."""\n\n'
                        "    async def _call_method(self, method: str, params: Optional[Dict[str, Any]]) -> Any:\n"
                        "        raise NotImplementedError\n\n" + "\n\n".join(async_helpers))
        names = sorted(set(self.exports + ["ErrorCode", "Methods", "AsyncMethods"]))
        sections.append("METHOD_NAMES: List[str] = [\n%s\n]\n\n__all__ = [\n%s\n]" % (
            "\n".join("    %s," % json.dumps(method["name"]) for method in self.document["methods"]),
            "\n".join("    %s," % json.dumps(name) for name in names + ["METHOD_NAMES"])))
        return "\n\n\n".join(sections) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail when the checked-in file is out of date")
    options = parser.parse_args()
    text = Generator(json.loads(SCHEMA.read_text(encoding="utf-8"))).render()
    current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
    if options.check:
        if current != text:
            diff = difflib.unified_diff(current.splitlines(), text.splitlines(), str(OUTPUT), "generated", lineterm="")
            sys.stderr.write("%s is out of date with %s; run python3 scripts/gen-python-client.py\n"
                             % (OUTPUT.relative_to(ROOT), SCHEMA.relative_to(ROOT)))
            sys.stderr.write("\n".join(list(diff)[:40]) + "\n")
            return 1
        print("%s is up to date" % OUTPUT.relative_to(ROOT))
        return 0
    if current != text:
        OUTPUT.write_text(text, encoding="utf-8")
        print("wrote %s" % OUTPUT.relative_to(ROOT))
    else:
        print("%s unchanged" % OUTPUT.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
