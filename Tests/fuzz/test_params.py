"""Params fuzzing from schema/openrpc.json: for every method, params that satisfy its schema (hypothesis-
jsonschema, plus generators for the rules the schema states only in prose) and params with exactly one
thing broken (a wrong type, a missing required member, an unknown member, a number out of range, a string
that breaks its pattern, enum or length, an array with too few or too many or bad items, a bad nested
member).

Properties:
* valid params: a result that matches the method's result schema, or an error the method declares
  (-32011 too for methods that need a login); -32602/-32010 only naming a field whose rules are prose;
* invalid params: -32602 naming the broken field in ``data.field`` or -32010 naming it in
  ``data.fields``; never a result, never -32603, never another code.
"""

from __future__ import annotations

import functools
import json
from typing import Any, Dict, Optional

from hypothesis import given, note, settings
from hypothesis import strategies as st

import known_deviations
from conftest import scaled
from contract import INVALID_PARAMS, LOGIN_REQUIRED, VALIDATION_FAILED, Method
from oracle import Expect, error_of, field_problem
from session import CaseFrame, contract
from strategies import Mutation, invalid_params, valid_params
from wire import encode, frame

CONTRACT = contract()
METHODS = sorted(CONTRACT.methods)


@functools.lru_cache(maxsize=None)
def valid_strategy(name: str):
    return valid_params(CONTRACT.methods[name])


@functools.lru_cache(maxsize=None)
def invalid_strategy(name: str):
    return invalid_params(CONTRACT.methods[name])


def request_frame(session, method: Method, params: Dict[str, Any], request_id: int, check) -> CaseFrame:
    body = encode({"jsonrpc": "2.0", "id": request_id, "method": method.name, "params": params})
    return CaseFrame(frame(body, session.framing), [Expect("reply to %s" % method.name, id=request_id, check=check)])


def valid_check(method: Method, params: Dict[str, Any]):
    allowed = set(method.error_codes)
    if method.needs_login:
        allowed.add(LOGIN_REQUIRED)

    def check(reply: Dict[str, Any]) -> Optional[str]:
        error = error_of(reply)
        if error is None:
            problems = method.result_errors(reply.get("result"))
            return "result does not match its schema: %s" % "; ".join(problems[:5]) if problems else None
        code = error.get("code")
        if code in (INVALID_PARAMS, VALIDATION_FAILED):
            problem = field_problem(error)
            if problem:
                return problem
            data = error.get("data", {})
            named = [data.get("field")] if code == INVALID_PARAMS else [f["field"] for f in data.get("fields", [])]
            refused = [name for name in named if not known_deviations.may_refuse_valid(method.name, name, params)]
            if refused:
                return "schema-valid params refused with %s naming %s: %r" % (code, refused, error.get("message"))
            return None
        if code not in allowed:
            return "%s may not answer %s %r to valid params (declared: %s)" % (
                method.name, code, error.get("message"), sorted(allowed))
        return None
    return check


def invalid_check(method: Method, params: Dict[str, Any], mutation: Mutation):
    def check(reply: Dict[str, Any]) -> Optional[str]:
        error = error_of(reply)
        if method.accepts_any_params:
            # "Any other params are accepted": unknown members must be; the listed ones may be checked.
            if mutation.kind == "unknown member" or error is None:
                return None if error is None else "%s accepts any other params, yet answered %s" % (method.name, error)
            return field_problem(error, mutation.field) if error.get("code") == INVALID_PARAMS else \
                "%s answered %s to a bad %s" % (method.name, error, mutation.field)
        if known_deviations.unenforced(method.name, mutation):
            return valid_check(method, params)(reply)
        if error is None:
            return "invalid params (%s of %s) accepted: result %.200s" % (
                mutation.kind, mutation.field, json.dumps(reply.get("result")))
        if error.get("code") not in (INVALID_PARAMS, VALIDATION_FAILED):
            return "invalid params (%s of %s) answered %s %r, not -32602/-32010" % (
                mutation.kind, mutation.field, error.get("code"), error.get("message"))
        problem = field_problem(error, mutation.field)
        if problem and field_problem(error) is None:
            # Another member, one the server may refuse although schema-valid, was named first.
            data = error.get("data", {})
            named = [data.get("field")] if error.get("code") == INVALID_PARAMS else [
                f["field"] for f in data.get("fields", [])]
            if all(known_deviations.may_refuse_valid(method.name, name, params) for name in named):
                return None
        return problem
    return check


@given(data=st.data())
def test_valid_params_get_a_result_or_a_declared_error(session, data):
    name = data.draw(st.sampled_from(METHODS), label="method")
    method = CONTRACT.methods[name]
    params = data.draw(valid_strategy(name), label="params")
    session.run([request_frame(session, method, params, 1, valid_check(method, params))])


@given(data=st.data())
def test_invalid_params_are_refused_naming_the_field(session, data):
    name = data.draw(st.sampled_from(METHODS), label="method")
    method = CONTRACT.methods[name]
    params, mutation = data.draw(invalid_strategy(name), label="params, mutation")
    note("mutation: %s" % mutation)
    session.run([request_frame(session, method, params, 2, invalid_check(method, params, mutation))])


@given(data=st.data())
@settings(max_examples=scaled(0.5))
def test_pipelined_mix_of_valid_and_invalid_params(session, data):
    frames = []
    for request_id in range(data.draw(st.integers(2, 6), label="count")):
        name = data.draw(st.sampled_from(METHODS))
        method = CONTRACT.methods[name]
        if data.draw(st.booleans()):
            params = data.draw(valid_strategy(name))
            frames.append(request_frame(session, method, params, request_id, valid_check(method, params)))
        else:
            params, mutation = data.draw(invalid_strategy(name))
            frames.append(request_frame(session, method, params, request_id, invalid_check(method, params, mutation)))
    session.run(frames)
