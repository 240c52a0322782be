"""The ``OMIT`` sentinel: leave a member out of a message (``None`` sends ``null``)."""

from __future__ import annotations

from typing import Any, Optional


class _Omit:
    """Sentinel: leave the ``params`` member (or one param) out of the message; ``None`` sends null."""

    _instance: Optional["_Omit"] = None

    def __new__(cls) -> "_Omit":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "OMIT"

    def __bool__(self) -> bool:
        return False


# Typed Any so that it can stand for any param's default (``events_list(user_id=OMIT)``).
OMIT: Any = _Omit()
