"""Where the server may differ from a strict reading of schema/openrpc.json, and why.

Two kinds of entries:

* **Prose rules**: a member whose schema is looser than its description (an email's syntax, a password's
  length, a real calendar date, an opaque cursor). Schema-valid values may still be refused with
  -32602/-32010 naming that member. These are documented behaviour, not bugs.
* **Open deviations**: places where the server and the schema disagree and one of them should change.
  Each has a reproduction in docs/RELIABILITY.md. Remove the entry when it is fixed and the property is
  strict again; ``MOVIE_RPC_FUZZ_STRICT=1`` ignores all open deviations (to see them fail).
"""

from __future__ import annotations

import os
import re
from typing import Any, Dict, Optional

STRICT = os.environ.get("MOVIE_RPC_FUZZ_STRICT") == "1"

# Members (dotted paths; a prefix covers nested members) whose descriptions state rules the schema does not.
PROSE_RULES = {
    "email",  # "A pragmatic rule, not all of RFC 5322 ..."
    "password", "newPassword",  # "3 to 1024 characters." (no minLength/maxLength in the schema)
    "passwordConfirmation",  # "Must equal password when given."
    "currentPassword",  # "Required with newPassword."
    "profile",  # each profile member's description: lengths, characters, a real past date
    "since", "until", "timestamp",  # Timestamp: "ISO 8601, UTC"; the pattern admits month 13
    "cursor",  # "Opaque: the nextCursor of an earlier page."
    "query",  # "control characters other than tab and line breaks are refused"
    "params",  # events.add: EventScalar "a string (at most 10,000 characters in events.add)"
}

# Open deviations, by name; see docs/RELIABILITY.md for each one's reproduction.
OPEN = {
    # {"page": null}: the schema says integer; the server takes null as absent and answers.
    "null as absent": True,
    # {"genreId": 9223372036854775808}: the schema's integers have no upper bound; the server holds Int64
    # and refuses larger ones with -32602 "must be an integer" (which the value is).
    "integers beyond Int64": True,
    # b'\xef\xbb\xbf{"jsonrpc":"2.0","id":1,"method":"server.info"}' (a UTF-8 BOM, then a request) is
    # answered -32600 "expected an object or a batch" with id null: the structure scanner sees the BOM as
    # the top-level value while Foundation's decoder skips it. RFC 8259 allows refusing (-32700) or ignoring.
    "BOM": True,
    # Invalid JSON that Foundation's JSONDecoder accepts is not answered -32700: a trailing comma
    # ({"jsonrpc":"2.0","id":1,"method":"server.info",} gets a result), malformed numbers (-, 01, 1., 1e+),
    # bad escapes ("\x") and raw control characters in strings (answered -32600, or -32602 "params is
    # invalid: The given data was not valid JSON."). Foundation also guesses UTF-16/32 from NUL bytes at
    # the start: b"\x000" is answered -32600 (the number 0 in UTF-16BE) and a UTF-16LE request is served.
    "lenient JSON": True,
}

# Open deviations where a schema constraint is not enforced: (method, field, mutation kind) -> accepted.
# None open (events.list's name maxLength, the last one, is enforced since the events-perf branch).
UNENFORCED: set = set()


def open_deviation(name: str) -> bool:
    return OPEN.get(name, False) and not STRICT


def covered(field: str, rules) -> bool:
    return any(field == rule or field.startswith(rule + ".") or field.startswith(rule + "[") for rule in rules)


def may_refuse_valid(method: str, field: str, params: Dict[str, Any]) -> bool:
    """Whether schema-valid ``params`` may be refused naming ``field``."""
    if covered(field, PROSE_RULES):
        return True
    if open_deviation("integers beyond Int64") and has_big_integer(value_at(params, field)):
        return True
    if method == "events.add" and field == "name":
        # A prose rule of events.add only ("control characters ... are refused"): events.list's name is not
        # checked for them, so "name" is not in PROSE_RULES.
        name = params.get("name")
        return isinstance(name, str) and any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in name)
    return False


def null_taken_as_absent(mutation: Any, params: Dict[str, Any]) -> bool:
    """Whether ``mutation`` set an optional top-level member to null, which the server takes as absent."""
    return (mutation.kind == "wrong type" and "." not in mutation.field and params.get(mutation.field, ...) is None
            and open_deviation("null as absent"))


def value_at(params: Dict[str, Any], field: str) -> Optional[Any]:
    """The value a dotted path (``profile.phone``, ``ids[2]``) names in ``params``, or None."""
    node: Any = params
    for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", field):
        try:
            node = node[int(index)] if index else node[name]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def has_big_integer(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return not -(1 << 63) <= value < (1 << 63)
    if isinstance(value, float):
        return value == value and abs(value) >= 2.0 ** 63 and value == int(value)
    if isinstance(value, dict):
        return any(has_big_integer(item) for item in value.values())
    if isinstance(value, list):
        return any(has_big_integer(item) for item in value)
    return False


def unenforced(method: str, mutation: Any) -> bool:
    return (method, mutation.field, mutation.kind) in UNENFORCED and not STRICT
